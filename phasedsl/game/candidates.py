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
    save, declaration, gift and abandon, and moves by a player whose turn it is not; on a
    board, each draw from and discard onto each pile (1 to 3), each twist choice (the card
    and every space) and the pawns' record with each pawn one space off."""
    table = state.table
    names = list(table.players)
    me = state.to_move
    others = [p for p in names if p != me]
    deck = list(dict.fromkeys(table.deck.all_cards()))
    out: list[mv.Move] = []
    if state.pawns_due:
        right = {a.player: a.end for a in state.results[-1].board}
        out.append(mv.Pawns(tuple(right.items())))
        out += [mv.Pawns(tuple({**right, p: right[p] + 1}.items())) for p in right]
        out.append(mv.Pawns(tuple(right.items())[1:]))
    if state.stage in ("deal", "over") or me is None:
        return out
    if state.stage == "choose_up":
        return [mv.Give(p, q) for p in names for q in names]
    if state.stage == "declare":
        if table.board is not None:
            return [mv.Choose(p, c) for p in (me, others[0])
                    for c in ("twist", *range(0, len(table.board.spaces) + 2))]
        return [mv.Declare(p, n) for p in (me, others[0])
                for n in range(0, len(table.entries) + 2)]
    out += [mv.Discard(others[0], c) for c in deck[:3]]  # not their turn
    if state.step == "draw":
        for source in ("deck", "discard", "save"):
            out.append(mv.Draw(me, source))
            out += [mv.Draw(me, source, c) for c in deck]
        if table.board is not None:
            out += [mv.Draw(me, "discard", None, k) for k in (2, 3)]
            out.append(mv.Draw(me, "deck", None, 2))
            out.append(mv.Choose(me, "twist"))  # (a twist chosen mid-hand)
        out.append(mv.Discard(me, state.seat(me).hand[0]))  # before drawing
        return out
    seat = state.seat(me)
    hand = list(dict.fromkeys(seat.hand))
    targets = [None, *names]
    out += [mv.Discard(me, c, skip, down) for c in hand for skip in targets for down in targets]
    if table.board is not None:
        out += [mv.Discard(me, c, skip, None, k) for c in hand for skip in targets
                for k in (2, 3, 4)]
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
