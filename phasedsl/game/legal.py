"""Which moves the player to move may make now: ``legal_moves(state)``.

The candidates are drawn up from the state (the seeded deal, each draw, the solver's
smallest meld of each phase the player may lay, each place ``hits.targets`` offers a card
of the hand, each discard, save and abandon), then every one is judged once, by the
checks ``apply`` makes (a draw by ``check_draw``, the discards by one ``DiscardCheck``,
without building the states after them; the rest by ``judge``), so the list never holds
an illegal move.  What each judgment found is kept on the state (``judged``): ``apply``
of a listed move takes it instead of judging again.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..melds.hits import targets as hit_targets
from ..model.cards import WILD, Card
from ..solver import find_within_budget
from . import moves as mv
from .actions import check_draw, discarded, drawn, judge, reshuffle, seeded_deal
from .boardplay import choices_of, pawns_record, piles
from .checks import DiscardCheck, IllegalMove, hit_rules, next_seat, not_a_state, seat_name
from .judged import Then, keep, listed
from .state import GameState
from .table import choosable, current_phase, phase_rules, wild_numbers

# (a tuple made once: the Kind property looks its members up at each call)


@lru_cache(maxsize=4096)
def _move(kind: type, *fields) -> mv.Move:
    """The move made of these fields, made once: the same few dozen plain draws and
    discards are listed turn after turn.  (One object for many states is safe: what is
    kept of a move is kept on the state it was listed for.)"""
    return kind(*fields)


# Each player's plain discards, card by card, made once (as ``_move``, by a look-up of the
# card alone: a hand's every card is listed as a discard turn after turn).
_DISCARDS: dict[str, dict[Card, mv.Discard]] = {}


def _discards_of(player: str) -> dict[Card, mv.Discard]:
    made = _DISCARDS.get(player)
    if made is None:
        if len(_DISCARDS) > 64:
            _DISCARDS.clear()
        made = _DISCARDS[player] = {}
    return made


def _discard(made: dict[Card, mv.Discard], player: str, card: Card) -> mv.Discard:
    m = made.get(card)
    if m is None:
        m = made[card] = mv.Discard(player, card)
    return m


def _candidates(state: GameState) -> list[mv.Move]:
    if state.pawns_due:
        return [pawns_record(state)]
    if state.stage == "deal":
        return [seeded_deal(state)[0]] if state.seed is not None else []
    if state.stage == "choose_up":
        dealer = seat_name(state, state.dealer)
        return [mv.Give(dealer, s.name) for s in state.seats if s.playing]
    i = state.turn
    seat = state.seats[i]
    me = seat.name
    if state.stage == "declare":
        if state.table.board is not None:
            return list(choices_of(state, i))
        return [mv.Declare(me, n) for n in choosable(state, i)]
    table = state.table
    if state.step == "draw":
        out: list[mv.Move] = [_move(mv.Draw, me, "deck")]
        if state.discard:
            out.append(_move(mv.Draw, me, "discard"))
        out += [mv.Draw(me, "discard", None, k)
                for k, p in enumerate(state.more_piles, 2) if p]
        if seat.save:
            out += [mv.Draw(me, "save", c) for c in dict.fromkeys(seat.save)]
        if not state.stock_known:
            out = [m for m in out if m.source != "deck"]
            pile = state.stock or (reshuffle(state).stock if any(piles(state)) else ())
            out += [mv.Draw(me, "deck", c) for c in dict.fromkeys(pile)]
        return out
    distinct = list(dict.fromkeys(seat.hand))
    out = []
    if state.step == "recipient_discard":
        made = _discards_of(me)
        return [_discard(made, me, c) for c in distinct]
    playable = [c for c in seat.hand if not c.anti]
    if seat.laid_phase is None and not state.laid_now:
        current = current_phase(state, i)
        numbers = [current] if current is not None else (
            choosable(state, i) if table.any_order else [])
        for n in numbers:
            phase, rules = phase_rules(table, n)
            meld = find_within_budget(phase, playable, rules)
            if meld is not None:
                groups = tuple(tuple(c.plain() if c.wild else c for c in g.cards)
                               for g in meld.groups)
                out.append(mv.Lay(me, groups, n if table.any_order and not state.tie_break
                                  else None))
    if seat.laid_phase is not None:
        out += _hits(state, i, distinct)
    others = [s.name for k, s in enumerate(state.seats) if k != i and s.playing]
    made = _discards_of(me)
    for c in distinct:
        if c.skip or (c.wild and table.rules.wild_as_skip):
            out += [mv.Discard(me, c, p) for p in others]
        if c.anti and len(seat.hand) == 1:
            out += [mv.Discard(me, c, down=p) for p in others]
        elif not c.skip or len(seat.hand) == 1 or all(p in state.pending_skips for p in others):
            m = made.get(c)
            out.append(m if m is not None else _discard(made, me, c))
    if table.piles > 1:
        out = _onto_piles(state, out)
    if table.house.skip_target == "next_player":
        out = [m for m in out if not (isinstance(m, mv.Discard) and m.skip is not None
                                      and m.skip != seat_name(state, next_seat(state, i)))]
    if table.house.save_pile and not seat.saved:
        out += [mv.Save(me, c) for c in distinct]
    if (table.house.abandon_phase and state.laid_now and seat.laid_phase is not None
            and state.stock_known):
        out.append(mv.Abandon(me))
    return out


def _onto_piles(state: GameState, moves: list[mv.Move]) -> list[mv.Move]:
    """Each discard onto each discard pile it may go on (a skip placed in front of a
    player goes on none)."""
    table = state.table
    onto = [state.emptied] if state.emptied is not None else range(1, table.piles + 1)
    out: list[mv.Move] = []
    for m in moves:
        if not isinstance(m, mv.Discard) or (table.skips_in_front
                                             and (m.card.skip or m.skip is not None)):
            out.append(m)
            continue
        out += [m if k == 1 else mv.Discard(m.player, m.card, m.skip, m.down, k) for k in onto]
    return out


def _hits(state: GameState, i: int, distinct: list[Card]) -> list[mv.Move]:
    """Each hit and swap ``hits.targets`` offers a card of the hand, group by group (each
    card asked once of all the laid groups)."""
    me = state.seats[i].name
    rules = hit_rules(state)
    mine = wild_numbers(state, i)
    groups = [(s.name, g, laid) for s in state.seats for g, laid in enumerate(s.laid)]
    played = [laid.played for _, _, laid in groups]
    cards = [c for c in distinct if not c.anti]
    # what each group takes, card by card in the hand's order: (card, hit); a hit of None
    # is a card of the player's wild number (postal), played as a wild where it does not
    # fit as itself (apply decides)
    taken: list[list[tuple[Card, Any]]] = [[] for _ in groups]
    wild_fits = (list(dict.fromkeys(h.index for h in hit_targets(played, WILD, rules)))
                 if mine else [])
    for c in cards:
        if c.natural and c.number in mine:
            for gi in wild_fits:
                taken[gi].append((c, None))
        for h in hit_targets(played, c, rules):
            taken[h.index].append((c, h))
    out: list[mv.Move] = []
    for (owner, g, laid), takes in zip(groups, taken, strict=True):
        run = laid.group.group.kind.is_run
        for c, h in takes:
            if h is None or (h.swap is None and not (c.wild and run and h.stands is not None)):
                out.append(mv.Hit(me, c, owner, g + 1))
            elif h.swap is not None:  # Utah (an end) or a take-back (none)
                out.append(mv.Swap(me, c, owner, g + 1, h.end))
            else:  # a wild says its end
                out.append(mv.Hit(me, Card(h.stands, wild=True), owner, g + 1))
    return list(dict.fromkeys(out))


def legal_moves(state: GameState) -> list[mv.Move]:
    """Every move the player to move may make now (for a lay: the solver's smallest
    meld of each phase they may lay; any other legal layout is accepted by ``apply``).
    A log-replayed hand's draw pile is a multiset: each card it may hold is a move.

    Each is judged once, here; ``apply`` of a listed move takes what was found
    (``judged``), and asking again for the same state answers from it too."""
    if not isinstance(state, GameState):
        raise not_a_state("legal_moves", state)
    known = listed(state)
    if known is not None:
        return list(known)
    moves: list[mv.Move] = []
    then: list[Then] = []
    discards: DiscardCheck | None = None
    for m in _candidates(state):
        kind = type(m)
        try:
            # a draw or a discard: judged here, built only if made
            if kind is mv.Discard:
                if discards is None:
                    discards = DiscardCheck(state, m)
                then.append((discarded, discards.check(m)))
            elif kind is mv.Draw:
                then.append((drawn, check_draw(state, m)))
            else:
                then.append(judge(state, m))
        except IllegalMove:
            continue
        moves.append(m)
    return list(keep(state, moves, then))
