"""What one player sees: their own hand, never another's, nor the draw pile's order.

A bot gets a ``PlayerView`` and picks one of its ``moves`` (the referee's legal moves
with every deck draw shown as one "draw from the deck", whatever card is on top).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.cards import Card
from ..model.meld import LaidGroup
from . import engine
from . import moves as mv
from .judged import listed
from .state import MEMO, GameState, Seat, Table
from .table import board_choices


@dataclass(frozen=True)
class Opponent:
    name: str
    hand_size: int
    laid: tuple[LaidGroup, ...]
    phase: int | None  # the phase they attempt (None: chosen, not yet said)
    done: tuple[int, ...]
    total: int
    save_size: int
    skipped: bool  # loses their next turn
    space: int = 1  # a board game: the space the pawn stands on (from 1)


@dataclass(frozen=True)
class PlayerView:
    me: str
    hand: tuple[Card, ...]
    save: tuple[Card, ...]
    laid: tuple[LaidGroup, ...]
    phase: int | None
    done: tuple[int, ...]
    total: int
    players: tuple[Opponent, ...]  # everyone, in seat order (me included, hand size only)
    discard: tuple[Card, ...]  # top last
    draw_pile: int  # cards left in it
    to_move: str | None
    step: str
    dealer: str
    hands_played: int
    moves: tuple[mv.Move, ...]  # empty unless it is my move
    table: Table  # the pack's rules and the players (public: bots need the rules)
    piles: tuple[tuple[Card, ...], ...] = ()  # every discard pile (the first is ``discard``)
    # a board game, my pawn on a twist space: each choice (as ``Choose`` says it) and the
    # phase number it attempts (a twist card's: past the pack's list, ``table.twist_index``)
    options: tuple[tuple[str | int, int], ...] = ()

    def __post_init__(self) -> None:
        if not self.piles:  # (a view made by hand: the one pile it names)
            object.__setattr__(self, "piles", (self.discard,))

    def pile_top(self, move: mv.Draw) -> Card:
        """The card a draw from a discard pile takes."""
        return self.piles[move.pile - 1][-1]


def view(state: GameState, player: str) -> PlayerView:
    if not isinstance(state, GameState):
        from .checks import not_a_state

        raise not_a_state("view", state)
    try:
        i = state.table.index(player)
    except ValueError:  # (a name not at the table: said so, not tuple.index's words)
        from ..errors import ArgumentError
        from ..errors import listed as names

        raise ArgumentError("view(player=...)", "the name of one of the players "
                            f"({names(state.table.players)})", player) from None
    seats = state.seats
    me = seats[i]
    table, tie, pending = state.table, state.tie_break, state.pending_skips
    seen: list[Opponent] = []
    for k, s in enumerate(seats):  # (``_seen``'s look-up, inline: four seats a view)
        kept = s.__dict__.get(MEMO)
        if kept is not None and kept[0] is table and kept[1] is tie \
                and kept[2] == (s.name in pending):
            seen.append(kept[3])
        else:
            seen.append(_seen(state, k, s))
    others = tuple(seen)
    moves: tuple[mv.Move, ...] = ()
    to_move = state.to_move
    if to_move == player:
        # (the moves the referee listed for this state, as kept there: no copy)
        moves = listed(state) or tuple(engine.legal_moves(state))
        if not state.stock_known:  # each card the draw pile may hold: one deck draw
            moves = tuple(dict.fromkeys(
                mv.Draw(player, "deck") if isinstance(m, mv.Draw) and m.source == "deck"
                and m.card is not None else m for m in moves))
    # (made as ``state.replace`` makes states, without the frozen ``__init__``'s sixteen
    # ``object.__setattr__`` calls: a view is made at every decision a bot is asked)
    v = object.__new__(PlayerView)
    mine = others[i]  # (my laid groups and phase, as the others see them)
    v.__dict__.update(me=player, hand=me.hand, save=me.save, laid=mine.laid, phase=mine.phase,
                      done=me.done, total=me.total, players=others, discard=state.discard,
                      draw_pile=len(state.stock), to_move=to_move, step=state.step,
                      dealer=seats[state.dealer].name, hands_played=state.hands_played,
                      moves=moves, table=table, piles=(state.discard, *state.more_piles),
                      options=tuple(board_choices(state, i)) if state.stage == "declare"
                      and table.board is not None else ())
    return v


def _seen(state: GameState, k: int, seat: Seat) -> Opponent:
    """Seat ``k`` as the others see it; kept on the seat (a seat nobody's move changed is
    the same object in the next state, and is seen the same unless a skip or a tie-break
    hand changed around it)."""
    skipped = seat.name in state.pending_skips
    kept = seat.__dict__.get(MEMO)
    if kept is not None and kept[0] is state.table and kept[1] is state.tie_break \
            and kept[2] == skipped:
        return kept[3]
    seen = object.__new__(Opponent)  # (as ``view`` makes a view: a seat is seen each move)
    seen.__dict__.update(name=seat.name, hand_size=len(seat.hand),
                         laid=tuple([lg.group for lg in seat.laid]),
                         phase=engine.current_phase(state, k), done=seat.done, total=seat.total,
                         save_size=len(seat.save), skipped=skipped, space=seat.space)
    seat.__dict__[MEMO] = (state.table, state.tie_break, skipped, seen)
    return seen
