"""A board game's board (Phase 10 Twist): the spaces a pawn moves along, the twist deck,
the move table and the table rules the board game changes.

A space is a phase number of the pack's list (the phase to make there) or ``TWIST`` (draw
a twist card: play it or the phase of a neighbouring space).  Pure values: the referee
that plays a board is the game layer's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .phase import Phase
from .words import possessive

TWIST = "twist"


@dataclass(frozen=True)
class Moves:
    """Spaces a pawn moves after a hand (negative: back); the printed Twist table."""

    made_out: int = 3
    made: int = 2
    missed: int = 1
    twist_made_out: int = 6
    twist_made: int = 4
    twist_missed: int = -1

    def of(self, made: bool, out: bool, twist: bool) -> int:
        if twist:
            return self.twist_made_out if made and out else self.twist_made if made else \
                self.twist_missed
        return self.made_out if made and out else self.made if made else self.missed


@dataclass(frozen=True)
class Board:
    spaces: tuple[int | str, ...]
    twist_phases: tuple[Phase, ...] = ()
    moves: Moves = field(default_factory=Moves)
    start_needs_phase: bool = True
    discard_piles: int = 1
    skip_placement: str = "in_front"

    def track(self, phases: tuple[Phase, ...] = ()) -> list[str]:
        """The board as a track of spaces, one line a space: ``3. phase 2 (1 set of ...)``
        or ``4. twist``."""
        out = []
        last = len(self.spaces)
        for i, s in enumerate(self.spaces, 1):
            where = " (start)" if i == 1 else " (finish)" if i == last else ""
            if s == TWIST:
                out.append(f"{i:>3}. twist: a twist card, or a neighbour's phase{where}")
            else:
                text = f" ({phases[s - 1]})" if 0 < s <= len(phases) else ""
                out.append(f"{i:>3}. phase {s}{text}{where}")
        return out

    def reaches_end(self) -> bool:
        """Whether some run of hands takes a pawn from the start to the last space (a move
        past the last space stops there; a move back before the start stops at it)."""
        if not self.spaces:
            return False  # (no start: a pack whose spaces its schema refused)
        last = len(self.spaces) - 1
        steps = (self.moves.made_out, self.moves.made, self.moves.missed)
        twist = (self.moves.twist_made_out, self.moves.twist_made, self.moves.twist_missed)
        seen, todo = {0}, [0]
        while todo:
            at = todo.pop()
            if at == last:
                return True
            options = set(steps) | (set(twist) if self.spaces[at] == TWIST else set())
            if at == 0 and self.start_needs_phase:
                options.discard(self.moves.missed)
            for step in options:
                nxt = min(last, max(0, at + step))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False


@dataclass(frozen=True)
class Attempt:
    """One player's hand on the board: the space the pawn stood on (from 1), the phase
    attempted (its text), whether it was a twist card's, made, went out, and the space the
    pawn moved to: the record ``replay --json`` gives a board game's hands."""

    hand: int
    player: str
    start: int
    phase: str
    twist: bool
    made: bool
    out: bool
    end: int
    on_twist: bool = False  # the space was a twist space (the choice was the player's)

    def to_json(self) -> dict:
        return {"hand": self.hand, "player": self.player, "from": self.start,
                "phase": self.phase, "twist": self.twist, "made": self.made, "out": self.out,
                "to": self.end}


def moved(board: Board, at: int, made: bool, out: bool, twist: bool) -> int:
    """The space (from 1) a pawn on space ``at`` moves to after a hand: the move table's
    count (a twist card's when ``twist``), stopping at the last space and at the start; a
    pawn on the start moves only when its phase is made (``start_needs_phase``); on the
    last space a miss does not move."""
    last = len(board.spaces)
    if (at == last and not made) or (at == 1 and not made and board.start_needs_phase
                                     and not twist):
        return at
    return min(last, max(1, at + board.moves.of(made, out, twist)))


def neighbours(board: Board, at: int) -> tuple[int, ...]:
    """The spaces (from 1) beside space ``at`` whose phase a twist space offers: those that
    name a phase (not twist spaces)."""
    return tuple(n for n in (at - 1, at + 1)
                 if 1 <= n <= len(board.spaces) and board.spaces[n - 1] != TWIST)


def choices(board: Board, phases: tuple[Phase, ...], at: int) -> tuple[tuple[str, bool], ...]:
    """The phases a pawn on space ``at`` may attempt, as (text, twist card?): its space's
    phase; on a twist space, any twist card's phase or a neighbouring space's phase."""
    space = board.spaces[at - 1]
    if space != TWIST:
        return ((str(phases[space - 1]), False),)
    out = [(str(p), True) for p in board.twist_phases]
    out += [(str(phases[board.spaces[n - 1] - 1]), False) for n in neighbours(board, at)]
    return tuple(dict.fromkeys(out))


def check_race(board: Board, phases: tuple[Phase, ...], players: tuple[str, ...],
               attempts: list[Attempt]) -> tuple[int, str] | None:
    """The first attempt (its place in the list, from 0) the board refuses and why, or
    None: each pawn starts on space 1; an attempt starts where its pawn stands, tries a
    phase its space allows, and ends where the move table puts it; no hand follows the hand
    that was won."""
    at = dict.fromkeys(players, 1)
    won: tuple[str, int] | None = None
    for k, a in enumerate(attempts):
        if a.player not in at:
            return k, f"{a.player!r} is not at the table"
        if won is not None and a.hand != won[1]:
            return k, f"the race is over: {won[0]} made the last space's phase in hand {won[1]}"
        if a.start != at[a.player]:
            return k, f"{possessive(a.player)} pawn stands on space {at[a.player]}, not {a.start}"
        allowed = choices(board, phases, a.start)
        if (a.phase, a.twist) not in allowed:
            said = ", ".join(f"{t}{' (twist card)' if tw else ''}" for t, tw in allowed)
            return k, (f"on space {a.start} the phase is {said}" if len(allowed) == 1 else
                       f"on space {a.start} (a twist space) the choices are {said}")
        want = moved(board, a.start, a.made, a.out, a.twist)
        if a.end != want:
            return k, (f"a pawn on space {a.start} that {'made' if a.made else 'missed'} its "
                       f"{'twist ' if a.twist else ''}phase{' and went out' if a.out else ''} "
                       f"moves to space {want}, not {a.end}")
        at[a.player] = a.end
        if a.made and a.start == len(board.spaces) and won is None:
            won = (a.player, a.hand)
    return None
