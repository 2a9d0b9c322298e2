"""The log of a Phase 10 Dice game, in the conventions of docs/game-log.md: a ``game``
header, then one event a line.

```
{"type": "game", "variant": "dice", "world": null, "players": ["ann", "bob"], "seed": 7}
{"type": "roll", "player": "ann", "faces": ["R5", "B6", ...]}
{"type": "keep", "player": "ann", "faces": ["Y8", "Y8"]}
{"type": "roll", "player": "ann", "faces": ["Y8", "Y8", ...]}
{"type": "score", "player": "ann", "phase": 1, "points": 34, "made": true}
{"type": "bonus", "player": "ann", "kind": "five_phase", "points": 40}
{"type": "end", "totals": {"ann": 412, "bob": 380}}
```

The lines are read (JSON, limits, a key given twice) by ``game.log``, which hands the
objects here once the header's pack is a dice pack.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import PhaseDSLError, verdict_lines
from ..model.rules import Rules
from .faces import Dice, Face, parse_face
from .game import Bonus, DiceGame, DiceRuleError, Keep, Move, Roll, Score, apply

EVENTS = ("roll", "keep", "score", "bonus", "end")


class DiceLogError(PhaseDSLError):
    """A line that is not a dice event."""


def _faces(obj: dict, rules: Rules, dice: Dice) -> tuple[Face, ...]:
    faces = obj.get("faces")
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        raise DiceLogError("\"faces\" is a list of faces, like [\"R5\", \"WG\"]")
    if len(faces) > 4 * dice.count:
        raise DiceLogError(f"{len(faces)} faces: there are {dice.count} dice")
    return tuple(parse_face(f, rules.deck) for f in faces)


def _int(obj: dict, key: str) -> int:
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise DiceLogError(f"\"{key}\" is a whole number")
    return v


def move_from_json(obj: dict, rules: Rules, dice: Dice) -> Move:
    """A dice event as a move."""
    kind = obj.get("type")
    if kind not in EVENTS or kind == "end":
        said = (f"not {kind[:30]!r}" if isinstance(kind, str)
                else f"this line's \"type\" is {json.dumps(kind)[:30]}")
        raise DiceLogError(f"a dice game's events are {', '.join(EVENTS)}; {said}")
    player = obj.get("player")
    if not isinstance(player, str):
        raise DiceLogError("\"player\" names the player")
    if kind == "roll":
        return Roll(player, _faces(obj, rules, dice))
    if kind == "keep":
        return Keep(player, _faces(obj, rules, dice))
    if kind == "score":
        made = obj.get("made")
        if not isinstance(made, bool):
            raise DiceLogError("\"made\" is true or false")
        return Score(player, _int(obj, "phase"), _int(obj, "points"), made)
    bonus = obj.get("kind")
    if bonus not in ("five_phase", "first_finish"):
        raise DiceLogError("\"kind\" is five_phase or first_finish")
    return Bonus(player, bonus, _int(obj, "points"))


def move_to_json(move: Move) -> dict:
    if isinstance(move, Roll | Keep):
        return {"type": type(move).__name__.lower(), "player": move.player,
                "faces": [str(f) for f in move.faces]}
    if isinstance(move, Score):
        return {"type": "score", "player": move.player, "phase": move.phase,
                "points": move.points, "made": move.made}
    return {"type": "bonus", "player": move.player, "kind": move.kind, "points": move.points}


def end_json(g: DiceGame) -> dict:
    return {"type": "end", "totals": dict(zip(g.players, g.totals, strict=True))}


@dataclass(frozen=True)
class DiceReplay:
    """The referee's verdict on a dice log: legal or the first illegal line, and where
    the game stands."""

    legal: bool
    error: dict | None  # {"line", "rule", "message", "event"}
    state: DiceGame

    def to_json(self) -> dict:
        g = self.state
        return {"legal": self.legal, "game": "dice",
                "error": None if self.error is None else
                {k: self.error[k] for k in ("line", "rule", "message")},
                "players": [{"player": p, "phase": g.place[i] + 1 if g.place[i] < len(g.phases)
                             else None, "phases_made": g.place[i], "total": g.totals[i]}
                            for i, p in enumerate(g.players)],
                "over": g.over, "winners": list(g.winners()) if g.over else None}

    def text(self, raw_event: str | None = None) -> str:
        out = verdict_lines(self.error, raw_event)
        g = self.state
        for i, p in enumerate(g.players):
            made = g.place[i]
            out.append(f"  {p}: {made} phase{'' if made == 1 else 's'} made, {g.totals[i]} points")
        if g.over:
            out.append(f"game over: {', '.join(g.winners())} "
                       f"win{'s' if len(g.winners()) == 1 else ''}")
        else:
            out.append(f"unfinished: next, {g.expected()}")
        return "\n".join(out)


def new_game(header: dict, pack, world: str | None) -> DiceGame:
    """The game a dice log's header starts (``pack``: a dice pack)."""
    players = header.get("players")
    if (not isinstance(players, list) or not players
            or not all(isinstance(p, str) and p.isprintable() and 0 < len(p) <= 40
                       for p in players)):
        raise DiceLogError("\"players\" is a list of names (printable, at most 40 characters) "
                           "in playing order")
    w = pack.world(world)
    return DiceGame.new(pack.dice, w.rules, [e.phase for e in w.played], players)


def replay_objects(header: tuple[int, dict], events: Iterable[tuple[int, dict]], pack,
                   world: str | None) -> DiceReplay:
    """Referee a dice log's objects, stopping at the first illegal event; DiceLogError
    (naming the line) where a line is no dice event at all."""
    n, obj = header
    try:
        g = new_game(obj, pack, world)
    except PhaseDSLError as e:
        raise DiceLogError(f"line {n}: {e}") from None
    seed = obj.get("seed")  # (who rolled it: not read, the rolls are in the log; as for cards)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise DiceLogError(f"line {n}: \"seed\" is the whole number that rolled the game, or "
                           "left out")
    ended = False
    for n, obj in events:
        if ended:
            return DiceReplay(False, {"line": n, "rule": "game_over", "event": json.dumps(obj),
                                      "message": "nothing follows the end"}, g)
        if obj.get("type") == "end":
            totals = obj.get("totals")
            want = dict(zip(g.players, g.totals, strict=True))
            if not g.over:
                return DiceReplay(False, {"line": n, "rule": "end", "event": json.dumps(obj),
                                          "message": f"the game is not over: next, {g.expected()}"}, g)
            # (429.0 is no total: a log's numbers are whole, as JSON writes them)
            if totals != want or any(type(v) is not int for v in totals.values()):
                said = ", ".join(f"{p} {t}" for p, t in want.items())
                return DiceReplay(False, {"line": n, "rule": "end", "event": json.dumps(obj),
                                          "message": f"the totals are {said}"}, g)
            ended = True
            continue
        if obj.get("type") == "game":
            raise DiceLogError(f"line {n}: a second \"game\" event; a log holds one game")
        try:
            move = move_from_json(obj, g.rules, g.dice)
        except PhaseDSLError as e:
            raise DiceLogError(f"line {n}: {e}") from None
        try:
            g = apply(g, move)
        except DiceRuleError as e:
            return DiceReplay(False, {"line": n, "rule": e.code, "message": str(e),
                                      "event": json.dumps(obj)}, g)
    return DiceReplay(True, None, g)


def log_lines(header: dict, moves: Iterable[Move], final: DiceGame | None) -> Iterator[str]:
    """A dice game as log lines (the end line when ``final`` is over)."""
    yield json.dumps(header)
    for m in moves:
        yield json.dumps(move_to_json(m))
    if final is not None and final.over:
        yield json.dumps(end_json(final))
