"""The order in which a bot's decisions are asked: one dispatch every rule-playing bot
shares (``greedy`` and ``strong``), each bringing its own answer to each kind of step."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import moves as mv
from ..game.view import PlayerView

Step = Callable[[PlayerView, Sequence[mv.Move]], mv.Move]


def dispatch(view: PlayerView, *, give: Step, declare: Step, draw: Step,
             hit: Callable[[PlayerView, Sequence[mv.Move]], mv.Move | None],
             discard: Step) -> mv.Move:
    """The move for ``view``: the dealer's give, a declared phase, the draw, then the
    turn's plays in order: the highest-numbered lay, a hit (None: no hit worth making),
    the discard."""
    moves = view.moves
    kinds = set(map(type, moves))  # (in C: a turn may list dozens of hits)
    if mv.Give in kinds:
        return give(view, moves)
    if mv.Declare in kinds:
        return declare(view, moves)
    if mv.Draw in kinds:
        return draw(view, moves)
    if mv.Lay in kinds:  # (the referee's moves are of these very types, as above)
        lays = [m for m in moves if type(m) is mv.Lay]
        return max(lays, key=lambda m: m.phase or 0)
    played = hit(view, moves)
    if played is not None:
        return played
    return discard(view, moves)


def phase_to_play(view: PlayerView, missing: Callable[[int], int]) -> int | None:
    """The phase to play for: the current one, or (chosen order, not yet said) the
    choosable phase the hand is closest to by ``missing`` (cards short of phase n), the
    higher-numbered on a tie."""
    if view.phase is not None:
        return view.phase
    table = view.table
    if not table.any_order:
        return None
    left = [n for n in table.sequence if n not in view.done]
    if not left:
        return None
    return min(left, key=lambda n: (missing(n), -n))
