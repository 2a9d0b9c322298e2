"""A board game's board (Phase 10 Twist): the spaces a pawn moves along, the twist deck,
the move table and the table rules the board game changes.

A space is a phase number of the pack's list (the phase to make there) or ``TWIST`` (draw
a twist card: play it or the phase of a neighbouring space).  Pure values: the referee
that plays a board is the game layer's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .phase import Phase

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
    discard_piles: int = 3
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
