"""The order in which a bot's decisions are asked: one dispatch every rule-playing bot
shares (``greedy`` and ``strong``), each bringing its own answer to each kind of step."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game import moves as mv
from ..game.view import PlayerView
from ..model.cards import Card

Step = Callable[[PlayerView, Sequence[mv.Move]], mv.Move]


def dispatch(view: PlayerView, *, give: Step, declare: Step, draw: Step,
             hit: Callable[[PlayerView, Sequence[mv.Move]], mv.Move | None],
             discard: Step, short: Callable[[int], int] | None = None) -> mv.Move:
    """The move for ``view``: the dealer's give, a twist choice (by ``short``: how many
    cards the hand is short of phase n), a declared phase, the draw, then the turn's
    plays in order: the highest-numbered lay, a hit (None: no hit worth making), the
    discard."""
    moves = view.moves
    kinds = set(map(type, moves))  # (in C: a turn may list dozens of hits)
    if mv.Give in kinds:
        return give(view, moves)
    if mv.Choose in kinds:
        return moves[0] if short is None else board_choice(view, moves, short)
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


# A dealt hand short of a phase by k cards makes it in the hand about MAKE_ODDS ** k of
# the time (a rough curve the bots share: 0 short is made at once; each card short more
# than halves the chance over a hand of a dozen turns).
MAKE_ODDS = 0.45


def board_choice(view: PlayerView, moves: Sequence[mv.Move],
                 short: Callable[[int], int]) -> mv.Move:
    """A twist choice: the phase whose expected move along the board is largest, from the
    chance of making it (by how many cards the dealt hand is short of it) and the spaces
    the move table gives for it made (half the time with going out) or missed."""
    board = view.table.board
    number = dict(view.options)
    t = board.moves

    def worth(m: mv.Choose) -> float:
        twist = m.choice == "twist"
        made = (t.twist_made + t.twist_made_out) / 2 if twist else (t.made + t.made_out) / 2
        missed = t.twist_missed if twist else t.missed
        p = MAKE_ODDS ** short(number[m.choice])
        return p * made + (1 - p) * missed

    return max((m for m in moves if isinstance(m, mv.Choose)), key=worth)


def discard_pile(view: PlayerView, options: Sequence[mv.Discard],
                 tempting: Callable[[Card], float]) -> mv.Discard:
    """Of the same card's discards onto several piles, the one that covers the top card
    the next player would want most (``tempting``), a wild first: each pile offers only its
    top card."""
    def cover(m: mv.Discard) -> tuple:
        pile = view.piles[m.pile - 1] if m.pile <= len(view.piles) else ()
        top = pile[-1] if pile else None
        return (top is not None and top.wild, tempting(top) if top is not None else -1.0,
                -m.pile)

    return max(options, key=cover)
