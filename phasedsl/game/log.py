"""The game log: one JSON object a line (docs/game-log.md), read with line numbers.

``read_log`` turns lines into a header and moves (``LogError`` with the line
number for anything unreadable: not JSON, unknown type, unknown pack, a bad
card); ``log_lines`` writes them; ``replay`` runs the moves through the referee and stops
at the first illegal one.  ``Game`` (``game.py``) writes and reads its log with these, so
the record knows nothing of the ``Game``.  The only I/O here is loading the pack the
header names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import PackError, PhaseDSLError, quoted, verdict_lines
from ..packs.pack import Pack
from .engine import IllegalMove, apply, make_table, start
from .moves import LogError, Move, move_from_log
from .state import GameState, HandResult

if TYPE_CHECKING:
    from ..dice.log import DiceReplay

MAX_LINE = 1_000_000
# Lines of a log: a game simulate stops at its 100,000-move cap fits twice over; a longer
# log is refused at once rather than read and refereed for minutes.
MAX_EVENTS = 250_000


@dataclass(frozen=True, slots=True)
class Event:
    line: int
    move: Move


@dataclass(frozen=True, slots=True)
class Log:
    header: dict
    state: GameState  # the game before its first event
    events: tuple[Event, ...]



def log_lines(header: dict, moves: Iterable[Move]) -> list[str]:
    """A game's log: the header, then one line per move (docs/game-log.md)."""
    return [json.dumps(header)] + [json.dumps(m.to_log()) for m in moves]

def _no_constant(name: str):
    raise LogError(f"{name} is not a number in JSON")


def _whole(text: str) -> int:
    # Python refuses to read an integer of over 4,300 digits (a ValueError, not a JSON error)
    if len(text.lstrip("-")) > 4000:
        raise LogError(f"a whole number of {len(text.lstrip('-')):,} digits")
    return int(text)


class _KeyTwice(LogError):
    pass


def _no_twice(pairs: list[tuple[str, object]]) -> dict:
    # json keeps the last of a key given twice; which one a reader takes is not said, so
    # neither is taken (as in batch mode)
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(f"the key {quoted(key, 24)} is given twice in one object")
        out[key] = value
    return out


def _objects(lines: Iterable[str]):
    for n, line in enumerate(lines, 1):
        if n > MAX_EVENTS:
            raise LogError(f"line {n}: a log holds at most {MAX_EVENTS:,} lines")
        if len(line) > MAX_LINE:
            raise LogError(f"line {n}: line too long ({len(line)} characters; the limit is "
                           f"{MAX_LINE})")
        if not line.strip():
            continue
        try:
            obj = json.loads(line, parse_constant=_no_constant, parse_int=_whole,
                             object_pairs_hook=_no_twice)
        except json.JSONDecodeError as e:
            raise LogError(f"line {n}: not JSON: {e.msg} at column {e.colno}") from None
        except RecursionError:
            raise LogError(f"line {n}: not JSON: nested too deeply") from None
        except _KeyTwice as e:
            raise LogError(f"line {n}: {e}") from None
        except LogError as e:
            raise LogError(f"line {n}: not JSON: {e}") from None
        if not isinstance(obj, dict):
            raise LogError(f"line {n}: each line is a JSON object with a \"type\"")
        yield n, obj


def _pack_of(n: int, obj: dict, base_dir: Path | None, pack: Pack | None) -> Pack:
    """The pack a log's header names or carries (or ``pack``, the caller's)."""
    from ..packs.pack import load_pack, pack_from_document

    if obj.get("type") != "game":
        raise LogError(f"line {n}: a log starts with the \"game\" event "
                       "({\"type\": \"game\", \"variant\": ..., \"players\": [...], \"dealer\": ...})")
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise LogError(f"line {n}: \"variant\" must be a pack name or a pack file path")
    try:
        # A log is untrusted: the pack it carries is read as any pack it names (and may
        # extend only a built-in); the pack it names is a built-in or a file in or below its
        # folder (load_pack refuses the rest and quotes nothing of a file that is no pack).
        if pack is None and "pack" in obj:
            pack = pack_from_document(obj["pack"])
        return pack if pack is not None else load_pack(variant, within=base_dir)
    except PackError as e:
        raise LogError(f"line {n}: {e.brief()}") from None
    except PhaseDSLError as e:
        raise LogError(f"line {n}: {e}") from None


def _header(n: int, obj: dict, base_dir: Path | None, pack: Pack | None) -> GameState:
    pack = _pack_of(n, obj, base_dir, pack)
    players = obj.get("players")
    dealer = obj.get("dealer")
    world = obj.get("world")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LogError(f"line {n}: \"players\" must be a list of names in playing order")
    if dealer is None and "dealer" not in obj:
        # (a Phase 10 Dice log names no dealer: said too, the likelier mistake)
        raise LogError(f"line {n}: no \"dealer\": {pack.name} is a pack of cards, whose logs "
                       "name the dealer (a Phase 10 Dice log names none: replay it under its "
                       "dice pack)")
    if not isinstance(dealer, str):
        raise LogError(f"line {n}: \"dealer\" must be one of the players")
    if world is not None and not isinstance(world, str):
        raise LogError(f"line {n}: \"world\" must be a world name or null")
    try:
        if world is None and len(pack.worlds) > 1:
            names = ", ".join(w.name for w in pack.worlds)
            raise LogError(f"line {n}: pack {pack.name!r} has several worlds; name one in "
                           f"\"world\" ({names})")
        table = make_table(pack, players, world)
        return start(table, dealer)
    except LogError:
        raise
    except PackError as e:
        raise LogError(f"line {n}: {e.brief()}") from None
    except PhaseDSLError as e:
        raise LogError(f"line {n}: {e}") from None


def read_log(lines: Iterable[str], base_dir: str | Path | None = None,
             pack: Pack | None = None) -> Log:
    """The header's game and every event as a move; LogError names the line.

    ``base_dir``: the log's folder; the pack the log names is then a built-in or a file in
    or below it (without it the caller vouches for the log, and a path is read from the
    current folder).  ``pack``: play under this pack instead of the one the log names (a
    log moved away from its pack)."""
    base = Path(base_dir) if base_dir is not None else None
    objs = _objects(lines)
    first = next(objs, None)
    if first is None:
        raise LogError("the log is empty: it starts with a \"game\" event")
    state = _header(*first, base, pack)
    seed = first[1].get("seed")  # who dealt it (not read: the deals are in the log)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise LogError(f"line {first[0]}: \"seed\" is the whole number that dealt the game, "
                       "or left out")
    deck = state.table.deck
    events = []
    for n, obj in objs:
        if obj.get("type") == "game":  # (a non-string type is refused by move_from_log)
            raise LogError(f"line {n}: a second \"game\" event; a log holds one game")
        try:
            events.append(Event(n, move_from_log(obj, deck)))
        except PhaseDSLError as e:
            raise LogError(f"line {n}: {e}") from None
    return Log(first[1], state, tuple(events))


def variant_ref(pack: Pack, folder: str | Path) -> str:
    """How a log in ``folder`` names its pack: a built-in by its name, a file by its path
    relative to that folder (where ``replay`` reads it from, whatever the current folder)."""
    from ..system.resources import variants_dir

    if pack.path is None or Path(pack.path).parent == variants_dir():
        return pack.name
    target, base = Path(pack.path).resolve(), Path(folder).resolve()
    try:
        return Path(os.path.relpath(target, base)).as_posix()
    except ValueError:  # another drive (Windows): only the whole path names it
        return target.as_posix()


@dataclass(frozen=True, slots=True)
class Replay:
    """The referee's verdict on a log."""

    legal: bool
    error: dict | None  # {"line", "rule", "message", "event"}
    hands: tuple[HandResult, ...]
    winner: str | None
    state: GameState

    def to_json(self) -> dict:
        error = None
        if self.error is not None:
            error = {k: self.error[k] for k in ("line", "rule", "message")}
        out = {"legal": self.legal, "error": error,
               "hands": [h.to_json() for h in self.hands], "winner": self.winner}
        if self.state.table.board is not None:
            out["board"] = [a.to_json() for h in self.hands for a in h.board]
        return out


def replay(lines: Iterable[str], base_dir: str | Path | None = None,
           pack: Pack | None = None) -> Replay | DiceReplay:
    """Run a log through the referee, stopping at the first illegal event (``base_dir``
    and ``pack`` as for ``read_log``).  A log of a dice pack's game is refereed by
    ``dice.log`` (a ``DiceReplay``)."""
    lines = list(lines)
    objs = _objects(lines)
    first = next(objs, None)
    if first is not None:
        found = _pack_of(*first, Path(base_dir) if base_dir is not None else None, pack)
        if found.dice is not None:
            from ..dice.log import DiceLogError, replay_objects

            world = first[1].get("world")
            if world is not None and not isinstance(world, str):
                raise LogError(f"line {first[0]}: \"world\" must be a world name or null")
            try:
                return replay_objects(first, objs, found, world)
            except DiceLogError as e:
                raise LogError(str(e)) from None
        pack = found
    log = read_log(lines, base_dir, pack)
    state = log.state
    for ev in log.events:
        try:
            state = apply(state, ev.move)
        except IllegalMove as e:
            err = {"line": ev.line, "rule": e.rule, "message": e.message,
                   "event": json.dumps(ev.move.to_log())}
            return Replay(False, err, state.results, state.winner, state)
    return Replay(True, None, state.results, state.winner, state)


def report_text(result: Replay | DiceReplay, raw_event: str | None = None) -> str:
    """The replay report in words: the illegal event, then the standings of each hand."""
    if not isinstance(result, Replay):
        return result.text(raw_event)  # (a dice game's)
    out = verdict_lines(result.error, raw_event)
    for k, h in enumerate(result.hands, 1):
        out += hand_standings(k, h)
    if result.state.stopped:
        out.append("stopped by the clock: " + (
            f"a complete game, {result.winner} leads" if result.winner is not None else
            "no winner (nobody had 5.5 phases, or the leaders are tied)"))
    if result.winner is not None:
        out.append(f"winner: {result.winner}")
    elif not result.state.stopped:
        out.append("no winner yet: the game is not finished")
    return "\n".join(out)


def hand_standings(number: int, h: HandResult) -> list[str]:
    """Hand ``number``'s result in words: who went out, then each player's points, total
    and next phase (also shown between hands by ``phasedsl play``)."""
    out = []
    head = f"hand {number}" + (" (tie-break)" if h.tie_break else "") + ": "
    head += f"{h.went_out} went out" if h.went_out else "nobody went out"
    out.append(head)
    points, totals = dict(h.points), dict(h.totals)
    completed, nxt = dict(h.completed), dict(h.next_phase)
    width = max(len(p) for p in totals)
    for p, total in totals.items():
        if p not in points:
            out.append(f"  {p:<{width}}  sat out     total {total:>4}")
            continue
        made = "made its phase" if completed[p] else "phase not made"
        after = f"next phase {nxt[p]}" if nxt[p] is not None else "all phases done"
        if h.board:
            a = next(a for a in h.board if a.player == p)
            made = f"{'made' if a.made else 'missed'} {'the twist' if a.twist else 'its phase'}"
            after = f"space {a.start} -> {a.end}"
        out.append(f"  {p:<{width}}  {points[p]:>3} points  total {total:>4}  {made}, {after}")
    return out


def dice_header(pack: Pack, variant: str, world: str | None, players, seed: int) -> dict:
    """A dice log's first line; a pack that is not built in travels with the log, as a
    card game's does (docs/game-log.md), so that it replays anywhere."""
    from ..packs.pack import pack_document
    from ..system.resources import variants_dir

    head = {"type": "game", "variant": variant, "world": world, "players": list(players),
            "seed": seed}
    if pack.path is None or Path(pack.path).parent != variants_dir():
        head["pack"] = pack_document(pack)
    return head
