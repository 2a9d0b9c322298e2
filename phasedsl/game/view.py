"""What one player sees: their own hand, never another's, nor the draw pile's order.

A bot gets a ``PlayerView`` and picks one of its ``moves`` (the referee's legal moves
with every deck draw shown as one "draw from the deck", whatever card is on top).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..meld import LaidGroup
from . import engine
from . import moves as mv
from .state import GameState, Table


@dataclass(frozen=True, slots=True)
class Opponent:
    name: str
    hand_size: int
    laid: tuple[LaidGroup, ...]
    phase: int | None  # the phase they attempt (None: chosen, not yet said)
    done: tuple[int, ...]
    total: int
    save_size: int
    skipped: bool  # loses their next turn


@dataclass(frozen=True, slots=True)
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


def view(state: GameState, player: str) -> PlayerView:
    i = state.table.index(player)
    me = state.seats[i]
    others = tuple(Opponent(s.name, len(s.hand), tuple(lg.group for lg in s.laid),
                            engine.current_phase(state, k), s.done, s.total, len(s.save),
                            s.name in state.pending_skips)
                   for k, s in enumerate(state.seats))
    moves: list[mv.Move] = []
    if state.to_move == player:
        for m in engine.legal_moves(state):
            if isinstance(m, mv.Draw) and m.source == "deck" and m.card is not None:
                m = mv.Draw(player, "deck")
                if m in moves:
                    continue
            moves.append(m)
    return PlayerView(player, me.hand, me.save, tuple(lg.group for lg in me.laid),
                      others[i].phase, me.done, me.total, others, state.discard,
                      len(state.stock), state.to_move, state.step,
                      state.seats[state.dealer].name, state.hands_played, tuple(moves),
                      state.table)
