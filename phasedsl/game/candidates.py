"""Every move worth trying in a state, legal or not: a superset of the legal moves.

``legal_moves`` lists what may be done; this lists what a player (or a log) might try,
so that the referee's answer to each can be checked or recorded: the move test compares
it with the listed moves, the conformance suite writes the illegal ones as probes, one per
rule code. Built only from the state's table and hands, never from the legal moves.
"""

from __future__ import annotations

from ..model.cards import WILD, Card
from . import moves as mv
from .state import GameState


def candidates(state: GameState) -> list[mv.Move]:
    """Each discard of each card with each skip and down target, each draw, each hit and
    swap of each card and wild onto each group (and one past the last) at each end, each
    save, declaration, gift and abandon, and moves by a player whose turn it is not."""
    table = state.table
    names = list(table.players)
    me = state.to_move
    others = [p for p in names if p != me]
    deck = list(dict.fromkeys(table.deck.all_cards()))
    out: list[mv.Move] = []
    if state.stage in ("deal", "over") or me is None:
        return out
    if state.stage == "choose_up":
        return [mv.Give(p, q) for p in names for q in names]
    if state.stage == "declare":
        return [mv.Declare(p, n) for p in (me, others[0])
                for n in range(0, len(table.entries) + 2)]
    out += [mv.Discard(others[0], c) for c in deck[:3]]  # not their turn
    if state.step == "draw":
        for source in ("deck", "discard", "save"):
            out.append(mv.Draw(me, source))
            out += [mv.Draw(me, source, c) for c in deck]
        out.append(mv.Discard(me, state.seat(me).hand[0]))  # before drawing
        return out
    seat = state.seat(me)
    hand = list(dict.fromkeys(seat.hand))
    targets = [None, *names]
    out += [mv.Discard(me, c, skip, down) for c in hand for skip in targets for down in targets]
    out += [mv.Save(me, c) for c in hand]
    out.append(mv.Abandon(me))
    numbers = sorted({c.number for c in deck if c.number is not None})
    wilds = [WILD, *(Card(n, wild=True) for n in numbers)]
    for s in state.seats:
        for g in range(1, len(s.laid) + 2):  # (one group past the last: no such group)
            # a wild saying what it stands for: onto a run, where that picks the end (onto
            # a set or a color or parity group it is the plain wild, spelt otherwise)
            run = g <= len(s.laid) and s.laid[g - 1].group.group.kind.is_run
            for c in hand + [w for w in wilds[1:] if WILD in hand and run]:
                out.append(mv.Hit(me, c, s.name, g))
            for c in hand:
                if c.natural:
                    out += [mv.Swap(me, c, s.name, g, end) for end in (None, "low", "high")]
    return out
