"""Which moves the player to move may make now: ``legal_moves(state)``.

The candidates are drawn up from the state (the seeded deal, each draw, the
solver's smallest meld of each phase the player may lay, each place
``hits.targets`` offers a card of the hand, each discard, save and abandon), then
every one is checked by ``apply`` (a discard by ``check_discard``, without
building the state after it), so the list never holds an illegal move.
"""

from __future__ import annotations

from ..cards import WILD, Card
from ..hits import targets as hit_targets
from ..solver import find_within_budget
from . import moves as mv
from .actions import apply, reshuffle, seeded_deal
from .checks import IllegalMove, check_discard, hit_rules, next_seat, seat_name
from .state import GameState
from .table import choosable, current_phase, phase_rules, wild_numbers


def _candidates(state: GameState) -> list[mv.Move]:
    if state.stage == "deal":
        return [seeded_deal(state)[0]] if state.seed is not None else []
    if state.stage == "choose_up":
        dealer = seat_name(state, state.dealer)
        return [mv.Give(dealer, s.name) for s in state.seats if s.playing]
    i = state.turn
    seat = state.seats[i]
    me = seat.name
    if state.stage == "declare":
        return [mv.Declare(me, n) for n in choosable(state, i)]
    if state.step == "draw":
        out: list[mv.Move] = [mv.Draw(me, "deck")]
        if state.discard:
            out.append(mv.Draw(me, "discard"))
        if seat.save:
            out += [mv.Draw(me, "save", c) for c in dict.fromkeys(seat.save)]
        if not state.stock_known:
            out = [m for m in out if m.source != "deck"]
            pile = state.stock or (reshuffle(state).stock if state.discard else ())
            out += [mv.Draw(me, "deck", c) for c in dict.fromkeys(pile)]
        return out
    distinct = list(dict.fromkeys(seat.hand))
    out = []
    if state.step == "recipient_discard":
        return [mv.Discard(me, c) for c in distinct]
    table = state.table
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
        rules = hit_rules(state)
        mine = wild_numbers(state, i)
        for s in state.seats:
            for g, laid in enumerate(s.laid):
                run = laid.group.group.kind.is_run
                for c in distinct:
                    if c.anti:
                        continue
                    if c.natural and c.number in mine and hit_targets([laid.played], WILD, rules):
                        # (played as a wild where it does not fit as itself; apply decides)
                        out.append(mv.Hit(me, c, s.name, g + 1))
                    for h in hit_targets([laid.played], c, rules):
                        if h.swap is not None:  # Utah (an end) or a take-back (none)
                            out.append(mv.Swap(me, c, s.name, g + 1, h.end))
                        elif c.wild and run and h.stands is not None:  # a wild says its end
                            out.append(mv.Hit(me, Card(h.stands, wild=True), s.name, g + 1))
                        else:
                            out.append(mv.Hit(me, c, s.name, g + 1))
        out = list(dict.fromkeys(out))
    others = [s.name for k, s in enumerate(state.seats) if k != i and s.playing]
    for c in distinct:
        if c.skip or (c.wild and table.rules.wild_as_skip):
            out += [mv.Discard(me, c, p) for p in others]
        if c.anti and len(seat.hand) == 1:
            out += [mv.Discard(me, c, down=p) for p in others]
        elif not c.skip or len(seat.hand) == 1 or all(p in state.pending_skips for p in others):
            out.append(mv.Discard(me, c))
    if table.house.skip_target == "next_player":
        out = [m for m in out if not (isinstance(m, mv.Discard) and m.skip is not None
                                      and m.skip != seat_name(state, next_seat(state, i)))]
    if table.house.save_pile and not seat.saved:
        out += [mv.Save(me, c) for c in distinct]
    if (table.house.abandon_phase and state.laid_now and seat.laid_phase is not None
            and state.stock_known):
        out.append(mv.Abandon(me))
    return out


def legal_moves(state: GameState) -> list[mv.Move]:
    """Every move the player to move may make now (for a lay: the solver's smallest
    meld of each phase they may lay; any other legal layout is accepted by ``apply``).
    A log-replayed hand's draw pile is a multiset: each card it may hold is a move."""
    out = []
    for m in _candidates(state):
        try:
            if isinstance(m, mv.Discard):
                check_discard(state, m)
            else:
                apply(state, m)
        except IllegalMove:
            continue
        out.append(m)
    return out
