"""A game of Phase 10 Dice: the state, the moves a player may make, and ``apply``.

Pure values: ``DiceGame.new`` starts a game, ``legal`` says what may come next and
``apply`` returns the state after a move or raises ``DiceRuleError`` saying which rule the
move breaks.  The moves are the log's events (``dice.log`` reads and writes them):

- ``Roll(player, faces)``: the faces every die shows after a roll (the kept dice among
  them); a turn's first roll rolls every die, a later one the dice not kept.
- ``Keep(player, faces)``: before a re-roll, the dice kept (any of those showing; the
  dice kept before may be taken back).
- ``Score(player, phase, points, made)``: ends the turn.  A made phase scores the total of
  the dice used in it (the best way; a wild 0), and the player moves to the next phase; a
  miss scores 0 (solo: the pack's ``solo_miss``) and the phase is tried again.  The dice
  showing decide: a roll that makes the phase is scored as made.
- ``Bonus(player, kind, points)``: follows the score that earns it: ``five_phase`` (the
  total after phase 5 over the pack's mark) and ``first_finish`` (below).

**The end (the pack's reading of the sheet).**  The first player to make the last phase
ends normal play.  Then each other player, in turn order from the one after them, takes
their last tries: turns one after another while each makes its phase; the first miss (or
the last phase made) ends their game.  The first-finish bonus goes to the first to make
the last phase, and to a player after them in that round's order who makes it on their
first last try (they did not start ahead).  Solo, the game ends when the last phase is
made, and the bonus is earned only when it is made on the first try.  The highest total
wins (ties share the win).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..errors import ArgumentError, PhaseDSLError, listed, quoted
from ..model.phase import Phase
from ..model.rules import Rules
from ..model.words import possessive, subject
from .faces import Dice, Face, fits_dice
from .rolls import judge


class DiceRuleError(PhaseDSLError):
    """A move the rules do not allow, with the rule's code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class Roll:
    player: str
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Keep:
    player: str
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class Score:
    player: str
    phase: int
    points: int
    made: bool


@dataclass(frozen=True)
class Bonus:
    player: str
    kind: str  # five_phase | first_finish
    points: int


Move = Roll | Keep | Score | Bonus


@dataclass(frozen=True)
class DiceGame:
    """Where a game stands."""

    dice: Dice
    rules: Rules
    phases: tuple[Phase, ...]
    players: tuple[str, ...]
    place: tuple[int, ...]  # each player's phase, from 0 (len(phases): all made)
    totals: tuple[int, ...]
    turn: int = 0  # whose turn (an index into players)
    rolls: int = 0  # rolls made this turn
    showing: tuple[Face, ...] = ()
    kept: tuple[Face, ...] | None = None  # the dice kept for the next roll
    owed: tuple[Bonus, ...] = ()  # bonuses earned that the log must say next
    finisher: int | None = None  # the first to make the last phase
    last: tuple[int, ...] = ()  # the players still to take their last tries, in order
    first_last_try: bool = False  # this turn is the player's first last try
    tries: tuple[int, ...] = ()  # turns taken at their current phase, per player
    over: bool = False
    bonus_five: tuple[bool, ...] = field(default=())

    @classmethod
    def new(cls, dice: Dice, rules: Rules, phases: Sequence[Phase],
            players: Sequence[str]) -> DiceGame:
        from ..model.coerce import as_players

        # (a string is one name, not its letters; the card game's Game.new says it so)
        players = as_players(players, "DiceGame.new")
        if not players:
            raise PhaseDSLError("a game needs at least one player")
        if not phases:
            raise PhaseDSLError("a game needs at least one phase")
        if len(set(players)) != len(players):
            raise PhaseDSLError("players' names must differ")
        n = len(players)
        return cls(dice, rules, tuple(phases), tuple(players), (0,) * n, (0,) * n,
                   tries=(0,) * n, bonus_five=(False,) * n)

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def player(self) -> str:
        return self.players[self.turn]

    @property
    def phase(self) -> Phase:
        """The phase the player to move is trying."""
        return self.phases[self.place[self.turn]]

    def winners(self) -> tuple[str, ...]:
        best = max(self.totals)
        return tuple(p for p, t in zip(self.players, self.totals, strict=True) if t == best)

    def expected(self) -> str:
        """What may come next, in words (for an error)."""
        if self.over:
            return "nothing: the game is over"
        if self.owed:
            b = self.owed[0]
            return f"the {b.kind} bonus of {b.points} for {b.player}"
        if self.rolls == 0:
            return f"{possessive(self.player)} roll"
        if self.kept is not None:
            return f"{possessive(self.player)} roll of the dice not kept"
        if self.rolls < self.dice.rolls:
            return f"{possessive(self.player)} keep (then a roll) or score"
        return f"{possessive(self.player)} score"


def apply(g: DiceGame, move: Move) -> DiceGame:
    """The game after ``move``; DiceRuleError where the rules refuse it (ArgumentError
    where ``move`` is no move: its checks below read its player and faces)."""
    if not isinstance(move, Roll | Keep | Score | Bonus) or not isinstance(move.player, str):
        raise ArgumentError("apply(move=...)", "a Roll, Keep, Score or Bonus of a player's "
                            "name", move)
    if g.owed:  # (also after the game's last score)
        b = g.owed[0]
        if move != b:
            raise DiceRuleError("bonus", f"expected {g.expected()}, not {_said(move)}")
        return replace(g, owed=g.owed[1:])
    if g.over:
        raise DiceRuleError("game_over", "the game is over")
    if move.player not in g.players:
        # (a log's name, of any length: quoted, as the card referee quotes one)
        raise DiceRuleError("unknown_player", f"{quoted(move.player)} is not a player of this "
                                              f"game ({listed(g.players)})")
    if isinstance(move, Bonus):
        raise DiceRuleError("bonus", f"no {move.kind} bonus is earned here by {move.player}")
    if move.player != g.player:
        raise DiceRuleError("turn", f"it is {possessive(g.player)} turn, not "
                                    f"{possessive(move.player, alone=True)}")
    if isinstance(move, Roll):
        return _roll(g, move)
    if isinstance(move, Keep):
        return _keep(g, move)
    return _score(g, move)


def _said(move: Move) -> str:
    return type(move).__name__.lower()


def _roll(g: DiceGame, move: Roll) -> DiceGame:
    if g.rolls >= g.dice.rolls:
        raise DiceRuleError("rolls", f"{g.dice.rolls} rolls a turn: score now")
    if g.rolls and g.kept is None:
        raise DiceRuleError("keep", "say which dice are kept before a re-roll (a keep event)")
    if len(move.faces) != g.dice.count:
        raise DiceRuleError("faces", f"a roll shows every die's face: {g.dice.count}, not "
                                     f"{len(move.faces)}")
    why = fits_dice(move.faces, g.dice)
    if why:
        raise DiceRuleError("faces", f"not a roll of these dice: {why}")
    if g.kept is not None and Counter(g.kept) - Counter(move.faces):
        missing = sorted((Counter(g.kept) - Counter(move.faces)).elements())
        raise DiceRuleError("kept", f"the kept dice show the same faces after the roll: "
                                    f"{' '.join(map(str, missing))} kept, not showing")
    return replace(g, rolls=g.rolls + 1, showing=tuple(move.faces), kept=None)


def _keep(g: DiceGame, move: Keep) -> DiceGame:
    if g.rolls == 0:
        raise DiceRuleError("keep", "roll first")
    if g.kept is not None:
        raise DiceRuleError("keep", "the dice are kept already: roll")
    if g.rolls >= g.dice.rolls:
        raise DiceRuleError("rolls", f"{g.dice.rolls} rolls a turn: no re-roll left, score now")
    extra = Counter(move.faces) - Counter(g.showing)
    if extra:
        raise DiceRuleError("keep", f"kept dice must be showing: "
                                    f"{' '.join(map(str, sorted(extra.elements())))} is not")
    return replace(g, kept=tuple(move.faces))


def _score(g: DiceGame, move: Score) -> DiceGame:
    if g.rolls == 0 or g.kept is not None:
        raise DiceRuleError("score", f"expected {g.expected()}")
    number = g.place[g.turn] + 1
    if move.phase != number:
        raise DiceRuleError("phase", f"{subject(g.player, 'is')} on phase {number}, not {move.phase}")
    j = judge(g.phase, g.showing, g.rules)
    miss = g.dice.scoring.solo_miss if g.solo else 0
    want = j.score if j.made else miss
    if move.made != j.made or move.points != want:
        said = (f"made, scoring {j.score} ({' '.join(map(str, j.used))})" if j.made else
                f"not made, scoring {miss}")
        raise DiceRuleError("score", f"the dice showing ({' '.join(map(str, g.showing))}) "
                                     f"make phase {number}: {said}" if j.made else
                            f"the dice showing ({' '.join(map(str, g.showing))}) do not make "
                            f"phase {number}: {said}")
    i = g.turn
    place, totals = list(g.place), list(g.totals)
    tries, five = list(g.tries), list(g.bonus_five)
    tries[i] += 1
    totals[i] += want
    owed: list[Bonus] = []
    if j.made:
        place[i] += 1
        if (place[i] == min(5, len(g.phases)) and not five[i]
                and totals[i] > g.dice.scoring.five_phase_over and g.dice.scoring.five_phase_bonus):
            five[i] = True
            owed.append(Bonus(g.player, "five_phase", g.dice.scoring.five_phase_bonus))
    done = place[i] == len(g.phases)
    finisher, last = g.finisher, list(g.last)
    if done and g.dice.scoring.first_finish_bonus:
        earns = (g.finisher is None and (not g.solo or tries[i] == 1)) or (
            # (a round runs down the list: a later seat did not start ahead of the finisher)
            g.finisher is not None and g.first_last_try and i > g.finisher)
        if earns:
            owed.append(Bonus(g.player, "first_finish", g.dice.scoring.first_finish_bonus))
    if j.made:
        tries[i] = 0
    for b in owed:
        totals[i] += b.points
    base = replace(g, place=tuple(place), totals=tuple(totals), tries=tuple(tries),
                   bonus_five=tuple(five), owed=tuple(owed), rolls=0, showing=(), kept=None)
    # who plays next
    if g.finisher is None and done:
        finisher = i
        last = [(i + k) % len(g.players) for k in range(1, len(g.players))]
        last = [p for p in last if place[p] < len(g.phases)]
        if not last:
            return replace(base, finisher=finisher, last=(), over=True)
        return replace(base, finisher=finisher, last=tuple(last), turn=last[0],
                       first_last_try=True)
    if g.finisher is None:
        return replace(base, turn=(i + 1) % len(g.players))
    # last tries: the player goes on while they make their phase
    if j.made and not done:
        return replace(base, first_last_try=False)
    last = last[1:]
    if not last:
        return replace(base, last=(), over=True)
    return replace(base, last=tuple(last), turn=last[0], first_last_try=True)


def score_move(g: DiceGame) -> Score:
    """The score the dice showing give (the only legal one)."""
    j = judge(g.phase, g.showing, g.rules)
    miss = g.dice.scoring.solo_miss if g.solo else 0
    return Score(g.player, g.place[g.turn] + 1, j.score if j.made else miss, j.made)
