"""Moves the referee has judged already, kept on the state they were judged for.

``legal_moves`` judges every move it lists (that is how it knows the move is legal) and
so holds, for each, the state after it or what is left to build it (``Then``).  It keeps
those here, on the state itself, so that ``apply`` of one of those very move objects
(identity, not equality) takes the result instead of judging the move again, and a second
``legal_moves`` of the same state answers at once.

Nothing else can reach that fast path: a move built by hand or read from a log is a new
object, never one kept here, so ``apply`` judges it in full (the log referee keeps every
check), and a state made from this one (``state.replace``) starts with nothing kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from . import moves as mv
from .state import MEMO, GameState

# The state after a move, or how to build it once its checks have passed: (build, what
# the checks answered), called as build(state, move, answer) (a draw or a discard: each
# judged, only the one made is built).  (Not a closure over the state: a state holding
# what holds it would live on until the cycle collector runs, and every state judged
# from it with it.)
Then = GameState | tuple[Callable[[GameState, Any, Any], GameState], object]


class Judged(NamedTuple):
    """(A named tuple: one is made for every state listed.)"""

    moves: tuple[mv.Move, ...]  # as ``legal_moves`` listed them (held: no id is reused)
    # the id of each move, and where it leads, in the same order (a move is found by its
    # identity, by an index of ints: neither hashing a move nor a dict built per state)
    ids: tuple[int, ...]
    then: Sequence[Then]


def keep(state: GameState, moves: Sequence[mv.Move], then: Sequence[Then]
         ) -> tuple[mv.Move, ...]:
    """Keep on ``state`` the moves judged legal there and where each leads (``then``, in
    the same order)."""
    moves = tuple(moves)
    # (a frozen value gains a memo, as a cached property would: not one of its fields,
    # so it takes no part in equality, hashing or ``replace``)
    state.__dict__[MEMO] = Judged(moves, tuple(map(id, moves)), then)
    return moves


def listed(state: GameState) -> tuple[mv.Move, ...] | None:
    """The moves ``legal_moves`` listed for this very state, if it has."""
    j = state.__dict__.get(MEMO)
    return None if j is None else j.moves


def recall(state: GameState, move: mv.Move) -> GameState | None:
    """The state after ``move`` if it is one of the moves listed for ``state`` (that
    object), else None (the move is to be judged)."""
    j = state.__dict__.get(MEMO)
    if j is None:
        return None
    try:
        k = j.ids.index(id(move))
    except ValueError:
        return None
    if j.moves[k] is not move:
        return None
    then = j.then[k]
    return then if isinstance(then, GameState) else then[0](state, move, then[1])
