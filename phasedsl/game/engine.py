"""The referee: which moves are legal now, and the state after one.

``apply(state, move)`` returns the next state or raises ``IllegalMove`` with a
stable ``rule`` code; ``legal_moves(state)`` lists what the player to move may
do (every candidate is checked by ``apply``, so the list never holds an illegal
move).  Lay-downs are judged by ``layout.verify``; where a hit or a Utah swap
may go is ``hits.targets``' answer, and the group with the card in place is read
again by ``layout.read_group``; all under the pack's rules for the player's
phase.  The engine holds no meld rules of its own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..cards import WILD, Card
from ..errors import LINE_WORTH, PhaseDSLError, clipped, listed, quoted
from ..hits import plan as hit_plan
from ..hits import targets as hit_targets
from ..layout import read_group, verify
from ..meld import LaidGroup, Meld, acting_text
from ..rules import Rules
from ..solver import find_within_budget
from . import moves as mv
from .hand_end import end_hand, hand_points, next_phase, stop
from .state import GameState, Laid, Seat, replace
from .table import (
    choosable,
    current_phase,
    make_table,
    phase_rules,
    start,
    wild_numbers,
)

__all__ = ["IllegalMove", "apply", "cards_in_play", "choosable", "current_phase", "hand_points",
           "legal_moves", "make_table", "next_phase", "phase_rules", "seeded_deal", "start"]


class IllegalMove(PhaseDSLError):
    """A move the rules do not allow; ``rule`` is a stable code, the message says why."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        # what a message quotes of the move is bounded where it is said; this bounds the
        # whole (a lay of 200-card groups), so that no answer is the size of its input
        self.message = message if len(message) <= 4 * LINE_WORTH else clipped(message,
                                                                              4 * LINE_WORTH)
        self.line: int | None = None  # the log line, when the move came from a log
        super().__init__(f"{message} [{rule}]")


# --------------------------------------------------------------------------- helpers


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The hand less these cards (wilds plain), or None if it does not hold them."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c.plain())
        except ValueError:
            return None
    return tuple(left)


def _set_seat(state: GameState, i: int, **changes) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)
    return tuple(seats)


def _next(state: GameState, i: int) -> int:
    n = len(state.seats)
    for k in range(1, n + 1):
        j = (i + k) % n
        if state.seats[j].playing:
            return j
    return i


def _name(state: GameState, i: int) -> str:
    return state.seats[i].name


def _seat_of(state: GameState, name: str) -> int:
    if name not in state.table.players:
        raise IllegalMove("unknown_player", f"{quoted(name)} is not a player of this game "
                                            f"({listed(state.table.players)})")
    return state.table.index(name)


def _group_label(state: GameState, owner: int, g: int) -> str:
    laid = state.seats[owner].laid[g]
    lg = laid.group
    # a card of a wild number played as a wild shows what it stands for: Y2=1
    shown = " ".join(acting_text(c, laid.played.cards[k]) if k in laid.acting else str(c)
                     for k, c in enumerate(lg.cards))
    return f"{_name(state, owner)}'s group {g + 1} ({lg.group.describe(state.table.rules.deck)}: {shown})"


def cards_in_play(state: GameState) -> list[Card]:
    """Every card of the deck's that is somewhere in this hand (hands, table, piles)."""
    out = list(state.stock) + list(state.discard)
    for s in state.seats:
        out += s.hand + s.save
        out += [c.plain() for lg in s.laid for c in lg.group.cards]
    return out


# --------------------------------------------------------------------------- the deal


def seeded_deal(state: GameState) -> tuple[mv.Deal, tuple[Card, ...]]:
    """The deal a seeded game makes now, and the draw pile it leaves (top last)."""
    rules = state.table.rules
    rng = random.Random(f"{state.seed}/deal/{state.hands_played}")
    cards = list(state.table.deck.all_cards())
    for s in state.seats:
        for c in s.save:
            cards.remove(c)
    rng.shuffle(cards)
    hands = []
    k = rules.hand_size
    order = _deal_order(state)
    for n, i in enumerate(order):
        hands.append((_name(state, i), tuple(cards[n * k:(n + 1) * k])))
    rest = cards[len(order) * k:]
    return mv.Deal(tuple(hands), rest[0]), tuple(rest[1:])


def _deal_order(state: GameState) -> list[int]:
    first = _next(state, state.dealer)
    out, i = [first], _next(state, first)
    while i != first:
        out.append(i)
        i = _next(state, i)
    return out


def _deal(state: GameState, move: mv.Deal) -> GameState:
    if state.stage != "deal":
        raise IllegalMove("not_now", "a deal comes only at the start of a hand")
    rules = state.table.rules
    playing = {s.name for s in state.seats if s.playing}
    given = [p for p, _ in move.hands]
    if set(given) != playing or len(given) != len(playing):
        raise IllegalMove("bad_deal", f"the deal must give a hand to each of "
                                      f"{listed(sorted(playing))}; it names {listed(given)}")
    for p, h in move.hands:
        if len(h) != rules.hand_size:
            raise IllegalMove("bad_deal", f"{p} is dealt {len(h)} cards; the pack deals "
                                          f"{rules.hand_size}")
    saves = [c for s in state.seats for c in s.save]
    dealt = [c.plain() for _, h in move.hands for c in h] + [move.up.plain()]
    supply = Counter(state.table.deck.all_cards()) - Counter(saves)
    over = Counter(dealt) - supply
    if over:
        card = next(iter(over))
        held = " (save piles hold the rest)" if saves else ""
        raise IllegalMove("card_not_available", f"the deal holds {Counter(dealt)[card]} x {card}; "
                                                f"the deck has {supply[card]}{held}")
    expected, order = (None, ())
    if state.seed is not None:
        expected, order = seeded_deal(state)
    known = expected is not None and move == expected
    stock = order if known else tuple((supply - Counter(dealt)).elements())
    hands = dict((p, tuple(c.plain() for c in h)) for p, h in move.hands)
    seats = tuple(replace(s, hand=hands.get(s.name, ()), laid=(), laid_phase=None, declared=None,
                          saved=False, taken_wilds=0, floating=False, phase_wilds=0)
                  for s in state.seats)
    first = _next(state, state.dealer)
    new = replace(state, seats=seats, stage="turn", turn=first, step="draw", laid_now=False,
                  drawn=None, stock=stock, stock_known=known, discard=(move.up.plain(),),
                  pending_skips=(), dealer_reached=False, reuse_owed=0)
    house = state.table.house
    up = move.up
    if house.dealer_chooses and (up.wild or up.skip):
        return replace(new, stage="choose_up", turn=state.dealer)
    if up.skip:  # a skip turned up skips the first player
        new = replace(new, pending_skips=(_name(state, first),))
    return _after_up(new, first)


def _begin_turn(state: GameState, i: int) -> GameState:
    """Seat ``i`` is next: lost turns (pending skips) pass play on."""
    pending = list(state.pending_skips)
    reached = state.dealer_reached
    for _ in range(len(pending) + 1):
        if i == state.dealer:
            reached = True
        name = _name(state, i)
        if name not in pending:
            break
        pending.remove(name)
        i = _next(state, i)
    return replace(state, stage="turn", turn=i, step="draw", laid_now=False, drawn=None,
                   pending_skips=tuple(pending), dealer_reached=reached, reuse_owed=0)


def _give(state: GameState, move: mv.Give) -> GameState:
    if state.stage != "choose_up":
        raise IllegalMove("not_now", "the dealer gives the up-card only when a wild or skip "
                                     "is turned up under the dealer's-choice rule")
    if move.player != _name(state, state.dealer):
        raise IllegalMove("not_your_turn", f"the dealer ({_name(state, state.dealer)}) chooses, "
                                           f"not {move.player}")
    to = _seat_of(state, move.to)
    if not state.seats[to].playing:
        raise IllegalMove("unknown_player", f"{move.to} is not playing this hand")
    first = _next(state, state.dealer)
    up = state.discard[-1]
    if up.skip:
        new = replace(state, pending_skips=(move.to,))
        return _after_up(new, first)
    seat = state.seats[to]
    seats = _set_seat(state, to, hand=(*seat.hand, up))
    return replace(state, seats=seats, discard=(), stage="turn", turn=to,
                   step="recipient_discard")


def _after_up(state: GameState, first: int) -> GameState:
    """Play starts with ``first`` once the up-card is settled (after Masters' declarations)."""
    if (state.table.house.declare_phase == "at_deal" and state.table.any_order
            and not state.tie_break):
        return replace(state, stage="declare", turn=first)
    return _begin_turn(state, first)


# --------------------------------------------------------------------------- moves


def _check_turn(state: GameState, move) -> int:
    if state.stage == "over":
        raise IllegalMove("game_over", "the game is over")
    if state.stage == "deal":
        raise IllegalMove("not_now", f"the hand has ended; the next event must be a deal (by "
                                     f"{_name(state, state.dealer)})")
    i = _seat_of(state, move.player)
    if state.stage == "choose_up":
        raise IllegalMove("dealer_must_choose", f"the dealer ({state.to_move}) first says who "
                                                f"gets the turned-up {state.discard[-1]}")
    if state.stage == "declare" and not isinstance(move, mv.Declare):
        raise IllegalMove("must_declare", f"{state.to_move} declares a phase first (phases are "
                                          "declared after the deal)")
    if i != state.turn:
        skipped = " (skipped)" if move.player in state.pending_skips else ""
        raise IllegalMove("not_your_turn", f"it is {_name(state, state.turn)}'s turn, not "
                                           f"{move.player}'s{skipped}")
    if state.step == "recipient_discard" and not isinstance(move, mv.Discard):
        raise IllegalMove("must_discard", f"{move.player} received the turned-up wild and "
                                          "discards a card before play starts")
    return i


def _check_play_step(state: GameState, move) -> int:
    i = _check_turn(state, move)
    if state.step == "draw":
        raise IllegalMove("must_draw_first", f"{move.player} must draw a card (from the deck or "
                                             "the discard pile) before anything else")
    return i


def _declare(state: GameState, move: mv.Declare) -> GameState:
    table = state.table
    house = table.house
    if not table.any_order or house.declare_phase == "never" or state.tie_break:
        raise IllegalMove("declare_not_allowed", "this pack's phases are not chosen by the "
                                                 "players (no declare_phase)")
    if state.stage == "declare":
        i = _seat_of(state, move.player)
        if i != state.turn:
            raise IllegalMove("not_your_turn", f"{_name(state, state.turn)} declares next, not "
                                               f"{move.player}")
    else:
        i = _check_turn(state, move)
        if house.declare_phase == "at_deal":
            raise IllegalMove("declare_not_allowed", "phases are declared after the deal, "
                                                     "before the first turn")
        if state.seats[i].laid_phase is not None or state.laid_now:
            raise IllegalMove("already_laid", f"{move.player} has laid a phase this hand")
    if move.phase not in choosable(state, i):
        raise IllegalMove("phase_not_available",
                          f"{move.player} cannot attempt phase {move.phase}: the choices are "
                          f"{', '.join(map(str, choosable(state, i))) or 'none'}")
    seats = _set_seat(state, i, declared=move.phase)
    new = replace(state, seats=seats)
    if state.stage != "declare":
        return new
    nxt = _next(state, i)
    first = _next(state, state.dealer)
    if nxt == first:
        return _begin_turn(new, first)
    return replace(new, turn=nxt)


def _reshuffle(state: GameState) -> GameState:
    """The discard pile but its top card becomes the draw pile.  When the top card is all
    that is left (nearly every card in hands or on the table) it is turned over too, so
    that a player can always draw (the sources do not say; a hand never stalls)."""
    keep = 1 if len(state.discard) >= 2 else 0
    stock = list(state.discard[:len(state.discard) - keep])
    if state.stock_known:
        random.Random(f"{state.seed}/shuffle/{state.shuffles}").shuffle(stock)
    return replace(state, stock=tuple(stock), discard=state.discard[len(state.discard) - keep:],
                   shuffles=state.shuffles + 1)


def _hittable(state: GameState, i: int, card: Card) -> bool:
    """Whether seat ``i`` could play ``card`` onto any laid group now."""
    if card.anti:
        return False
    return any(_extend(state, i, o, g, card)[0] is not None
               for o, s in enumerate(state.seats) for g in range(len(s.laid)))


def _draw(state: GameState, move: mv.Draw) -> GameState:
    i = _check_turn(state, move)
    if state.step != "draw":
        raise IllegalMove("already_drew", f"{move.player} has drawn this turn; next: lay, hit "
                                          "or discard")
    seat = state.seats[i]
    if seat.floating and move.source != "discard" and state.discard:
        top = state.discard[-1]
        if not top.skip and _hittable(state, i, top):
            raise IllegalMove("must_take_playable", f"{move.player} is floating and must take "
                                                    f"the top discard {top}, which can be played")
    if move.source == "discard":
        if not state.discard:
            raise IllegalMove("card_not_available", "the discard pile is empty")
        top = state.discard[-1]
        if top.skip:
            raise IllegalMove("skip_from_discard", "a skip can never be taken from the discard "
                                                   "pile")
        if move.card is not None and move.card.plain() != top:
            raise IllegalMove("card_not_available", f"the top discard is {top}, not {move.card}")
        card = top
        state = replace(state, discard=state.discard[:-1])
    elif move.source == "save":
        if not state.table.house.save_pile:
            raise IllegalMove("no_save_pile", "this pack has no save pile")
        if not seat.save:
            raise IllegalMove("card_not_available", f"{move.player}'s save pile is empty")
        card = move.card.plain() if move.card is not None else seat.save[-1]
        left = _remove(seat.save, [card])
        if left is None:
            raise IllegalMove("card_not_available", f"{card} is not in {move.player}'s save pile")
        state = replace(state, seats=_set_seat(state, i, save=left))
    else:
        if not state.stock:
            if not state.discard:
                raise IllegalMove("card_not_available", "the draw pile and the discard pile are "
                                                        "both empty")
            state = _reshuffle(state)
        if state.stock_known:
            card = state.stock[-1]
            if move.card is not None and move.card.plain() != card:
                raise IllegalMove("card_not_available", f"the top of the draw pile is {card}, "
                                                        f"not {move.card}")
            state = replace(state, stock=state.stock[:-1])
        else:
            if move.card is None:
                raise IllegalMove("card_not_named", "a deck draw in a log names the card drawn")
            card = move.card.plain()
            left = _remove(state.stock, [card])
            if left is None:
                seen = state.table.deck.supply(card)
                raise IllegalMove("card_not_available",
                                  f"{card} cannot be in the draw pile: all {seen} of the deck's "
                                  f"{card} are seen (in hands, on the table or discarded)")
            state = replace(state, stock=left)
    seat = state.seats[i]
    seats = _set_seat(state, i, hand=(*seat.hand, card))
    return replace(state, seats=seats, step="play", drawn=card)


def _going_out_problem(state: GameState, left: int, by_play: bool) -> tuple[str, str] | None:
    """Whether a move that leaves ``left`` cards in hand is allowed by the going-out rules."""
    house = state.table.house
    if by_play and left == 0 and not (house.floating or house.go_out_without_discard):
        return ("cannot_go_out_by_play", "a hand ends only with a discard: keep a card to "
                                         "discard (go_out_without_discard lets a player go out "
                                         "by playing every card; floating lets them float)")
    # Under floating, playing out every card is not going out.
    if house.go_out_after_first_round and not state.dealer_reached and (
            (left == 0 and not (by_play and house.floating))
            or (by_play and left == 1 and not house.floating)):
        return ("cannot_go_out_yet", "nobody may go out before play has come round to the "
                                     f"dealer ({_name(state, state.dealer)})"
                + (" (one card left would have to be discarded)" if left == 1 else ""))
    return None


def _lay(state: GameState, move: mv.Lay) -> GameState:
    i = _check_play_step(state, move)
    seat = state.seats[i]
    table = state.table
    if seat.laid_phase is not None or state.laid_now:
        raise IllegalMove("already_laid", f"{move.player} has laid a phase this hand; only one "
                                          "phase a hand")
    number = current_phase(state, i)
    if table.any_order and not state.tie_break:
        if table.house.declare_phase == "when_laying" and move.phase is None and number is None:
            raise IllegalMove("phase_not_declared", f"{move.player} must say which phase they "
                                                    "lay (declare_phase: when_laying)")
        if move.phase is not None:
            if number is not None and move.phase != number:
                raise IllegalMove("wrong_phase", f"{move.player} declared phase {number}, not "
                                                 f"{move.phase}")
            if move.phase not in choosable(state, i):
                raise IllegalMove("phase_not_available",
                                  f"{move.player} cannot lay phase {move.phase}: the choices are "
                                  f"{', '.join(map(str, choosable(state, i))) or 'none'}")
            number = move.phase
    elif move.phase is not None and move.phase != number:
        raise IllegalMove("wrong_phase", f"{move.player} is on phase {number}, not {move.phase}")
    candidates = [number] if number is not None else choosable(state, i)
    _refuse_rule_card(c for g in move.groups for c in g)
    if not candidates:
        raise IllegalMove("phase_not_made", f"{move.player} has no phase left to make")
    if _remove(seat.hand, [c for g in move.groups for c in g]) is None:
        missing = Counter(c.plain() for g in move.groups for c in g) - Counter(seat.hand)
        shown = " ".join(str(c) for c in missing.elements())
        raise IllegalMove("not_in_hand", f"{move.player} does not hold {shown}")
    verdict = rules = phase = None
    for n in candidates:
        phase, rules = phase_rules(table, n)
        verdict = verify(phase, move.groups, rules, seat.hand)
        if verdict.valid:
            number = n
            break
    assert verdict is not None and phase is not None and rules is not None
    if not verdict.valid:
        what = f"phase {candidates[0]}" if len(candidates) == 1 else "any phase left"
        why = "; ".join(str(p) for p in verdict.problems)
        groups = " | ".join(" ".join(str(c) for c in g) for g in move.groups)
        shown = f"{what} ({phase})" if len(candidates) == 1 else what
        raise IllegalMove("phase_not_made", f"{groups} does not make {shown}: {why}")
    left = len(seat.hand) - sum(len(g) for g in move.groups)
    problem = _going_out_problem(state, left, True)
    if problem:
        raise IllegalMove(*problem)
    laid = _laid(verdict.meld, move.groups)
    hand = _remove(seat.hand, [c for g in move.groups for c in g])
    wilds = sum(1 for g in move.groups for c in g if c.wild)
    seats = _set_seat(state, i, hand=hand, laid=laid,
                      laid_phase=number, declared=number if table.any_order else seat.declared,
                      phase_wilds=wilds)
    state = replace(state, seats=seats, laid_now=True,
                    reuse_owed=max(0, state.reuse_owed - wilds))
    if state.tie_break and table.tie_phase is not None:
        # A tie-break hand on a named phase (Thai page): the first to lay it down wins.
        return end_hand(state, None, winner=move.player)
    if _wins_at_once(state, i):
        return end_hand(state, None)
    return _after_play(state, i)


def _refuse_rule_card(cards: Iterable[Card]) -> None:
    if any(c.anti for c in cards):
        raise IllegalMove("not_a_phase_card", "the anti-phase card (A) is part of no phase and "
                                              "fits no group: it can only be discarded")


def _wins_at_once(state: GameState, i: int) -> bool:
    """Seat ``i`` has just laid its last phase and nobody else is on theirs: the game ends
    at once (printed rules: "if only one player attempts phase 10 and completes it, they
    become the winner and the game ends immediately").  With others on their last phase
    the hand is played out, and the lowest total among those who made it wins."""
    house = state.table.house
    if state.tie_break or house.fixed_hands is not None or house.everyone_advances:
        return False
    goal = state.table.goal
    if len(state.seats[i].done) + 1 < goal:
        return False
    return all(len(s.done) + 1 < goal for k, s in enumerate(state.seats) if k != i and s.playing)


def _laid_order(meld_groups: Sequence[LaidGroup], given) -> list[int]:
    """The verdict's groups (phase order) back in the order the player laid them (their
    indices in ``meld_groups``)."""
    pool = list(range(len(meld_groups)))
    out = []
    for g in given:
        key = Counter(c.plain() for c in g)
        for k, j in enumerate(pool):
            if Counter(c.plain() for c in meld_groups[j].cards) == key:
                out.append(pool.pop(k))
                break
    return out + pool


def _laid(meld: Meld, given) -> tuple[Laid, ...]:
    """The table's groups for a lay: the verdict's reading, each card of a wild number
    (postal) played as a wild kept as the wild it stands for, so that the group is read so
    for as long as it lies there."""
    acting: dict[int, dict[int, Card]] = {}
    for j, k, wild in meld.acting:
        acting.setdefault(j, {})[k] = wild
    out = []
    for j in _laid_order(meld.groups, given):
        lg = meld.groups[j]
        if j not in acting:
            out.append(Laid(lg))
            continue
        played = LaidGroup(lg.group, tuple(acting[j].get(k, c) for k, c in enumerate(lg.cards)))
        out.append(Laid.read(played, {k: lg.cards[k] for k in acting[j]}))
    return tuple(out)


def _after_play(state: GameState, i: int) -> GameState:
    """After a lay or hit: an empty hand goes out (or floats)."""
    if state.seats[i].hand:
        return state
    if state.table.house.floating:
        seats = _set_seat(state, i, floating=True)
        return _begin_turn(replace(state, seats=seats), _next(state, i))
    return end_hand(state, _name(state, i))


def _hit_rules(state: GameState) -> Rules:
    return _rules_for_hits(state.table.rules)


@lru_cache(maxsize=256)
def _rules_for_hits(rules: Rules) -> Rules:
    # Hits may make a group longer than the phase asked even where lays may not (extras).
    # A laid group is judged as it was read (``Laid.played``: every card that was played
    # as a wild is a wild there), so no number is wild for it; only the hitter's own wild
    # number (postal) may make the card hit a wild, and ``_extend`` tries that itself.
    return rules.with_(extras=True, wild_numbers=frozenset())


def _extend(state: GameState, hitter: int, owner: int, g: int, card: Card
            ) -> tuple[Laid | None, str]:
    """The group after ``card`` is played onto it, or (None, why not).  A card of the
    hitter's wild number (postal) that does not fit as itself is played as a wild (placed
    as a plain W would be); no one else's wild number counts, and the cards already laid
    keep their reading."""
    laid = state.seats[owner].laid[g]
    rules = _hit_rules(state)
    new, front, why = _extended(laid.played, card, rules)
    acting = None
    if new is None and card.natural and card.number in wild_numbers(state, hitter):
        new, front, _ = _extended(laid.played, WILD, rules)
        acting = card
    if new is None:
        return None, why
    if acting is None and not laid.acting:
        return Laid(new), ""
    real = laid.real(1 if front else 0)
    if acting is not None:
        real[0 if front else len(new.cards) - 1] = acting
    return Laid.read(new, real), ""


@lru_cache(maxsize=8192)
def _extended(lg: LaidGroup, card: Card, rules: Rules) -> tuple[LaidGroup | None, bool, str]:
    """Where ``card`` may go is ``hits.targets``' answer (a run's ends, what a wild stands
    for there); a wild that says what it stands for (``W=3``) takes the place that number
    is, and the group with the card in place is read again by ``layout.read_group``, so
    a stated color is checked too.  Cached: ``legal_moves`` tries every card of a hand on
    every laid group, turn after turn."""
    problems: list[tuple[str, str]] = []
    for h in hit_targets([lg], card.plain(), rules):
        if h.swap is not None or (card.wild and card.number is not None
                                  and h.stands not in (None, card.number)):
            continue
        placed = card
        if card.wild and h.stands is not None:
            placed = Card(h.stands, card.color, wild=True)
        new = (placed, *lg.cards) if h.end == "low" else (*lg.cards, placed)
        read, problems = read_group(lg.group, new, rules)
        if read is not None and not problems:
            return LaidGroup(lg.group, read), h.end == "low", ""
    if not problems:
        _, problems = read_group(lg.group, (*lg.cards, card), rules)
    why = "; ".join(msg for _, msg in problems)
    return None, False, why or "it fits no open place of this group"


def _hit(state: GameState, move: mv.Hit) -> GameState:
    i = _check_play_step(state, move)
    seat = state.seats[i]
    if seat.laid_phase is None:
        raise IllegalMove("hit_before_phase", f"{move.player} must lay their own phase before "
                                              f"hitting (tried {move.card})")
    owner = _seat_of(state, move.target)
    if not state.table.house.hit_same_turn and state.laid_now and owner != i:
        raise IllegalMove("hit_same_turn", f"{move.player} laid their phase this turn and may hit "
                                           "only their own groups until their next turn")
    if not 1 <= move.group <= len(state.seats[owner].laid):
        n = len(state.seats[owner].laid)
        raise IllegalMove("no_such_group", f"{move.target} has {n} laid group{'s' * (n != 1)}; "
                                           f"there is no group {move.group}")
    hand = _remove(seat.hand, [move.card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{move.player} does not hold {move.card.plain()}")
    _refuse_rule_card([move.card])
    g = move.group - 1
    new, why = _extend(state, i, owner, g, move.card)
    if new is None:
        raise IllegalMove("hit_does_not_fit", f"{move.card} does not fit "
                                              f"{_group_label(state, owner, g)}: {why}")
    problem = _going_out_problem(state, len(hand), True)
    if problem:
        raise IllegalMove(*problem)
    laid = state.seats[owner].laid
    seats = _set_seat(state, i, hand=hand)
    state = replace(state, seats=seats)
    new_laid = (*laid[:g], new, *laid[g + 1:])
    state = replace(state, seats=_set_seat(state, owner, laid=new_laid),
                    reuse_owed=max(0, state.reuse_owed - (1 if move.card.wild else 0)))
    if state.reuse_owed and not _owed_wilds_fit(state, i):
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played again "
                                             "this turn, and after this hit it could not be (no "
                                             "group takes it, or no card would be left to "
                                             "discard)")
    return _after_play(state, i)


def _swapped(laid: Laid, card: Card, rules: Rules, end: str | None
             ) -> tuple[list[Card], int, bool, bool] | None:
    """``hits.targets``' swap for ``card``: the group's cards (as played) with the natural
    in place of a laid wild, that wild's index, whether the wild goes to the hand (the
    Japanese page's take-back) rather than to an end of the run (Utah rules), and whether
    it went to the front; or None.  With both rules on, a swap that names no end is a
    take-back.  A card of a wild number played as a wild is a natural laid, not a wild."""
    lg = laid.played
    options = [h for h in hit_targets([lg], card, rules) if h.swap is not None
               and (end is None or h.end == end)]
    options.sort(key=lambda h: h.end is not None)  # a take-back (no end) first
    for h in options:
        cards = list(lg.cards)
        k = next((k for k, c in enumerate(cards) if c.wild and k not in laid.acting
                  and h.swap.number in (None, c.number)), None)
        if k is None:
            continue
        wild = cards[k]
        cards[k] = card
        if h.end is None:
            return cards, k, True, False
        moved = Card(h.stands, wild.color, wild=True)
        low = h.end == "low"
        return ([moved, *cards] if low else [*cards, moved]), k, False, low
    return None


def _swap(state: GameState, move: mv.Swap) -> GameState:
    i = _check_play_step(state, move)
    table = state.table
    if not (table.rules.wild_swap or table.rules.wild_take_back):
        raise IllegalMove("swap_not_allowed", "this pack does not let laid wilds be swapped out "
                                              "(wilds.swap, wilds.take_back)")
    seat = state.seats[i]
    if seat.laid_phase is None:
        raise IllegalMove("hit_before_phase", f"{move.player} must lay their own phase before "
                                              "swapping a wild")
    owner = _seat_of(state, move.target)
    if not 1 <= move.group <= len(state.seats[owner].laid):
        raise IllegalMove("no_such_group", f"{move.target} has no group {move.group}")
    card = move.card
    if not card.natural:
        raise IllegalMove("swap_does_not_fit", f"only a natural card replaces a wild, not {card}")
    hand = _remove(seat.hand, [card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{move.player} does not hold {card}")
    g = move.group - 1
    laid = state.seats[owner].laid[g]
    cards = laid.played.cards
    rules = _hit_rules(state)
    got = _swapped(laid, card, rules, move.end)
    if got is None:
        raise IllegalMove("swap_does_not_fit", f"{card} replaces no wild in "
                                               f"{_group_label(state, owner, g)}"
                          + ("" if table.rules.wild_take_back else
                             " that has an open end to move to"))
    new, k, take, front = got
    read, problems = read_group(laid.group.group, new, rules)
    if problems or read is None:
        raise IllegalMove("swap_does_not_fit", f"{card} for the wild leaves "
                                               f"{_group_label(state, owner, g)} illegal: "
                                               + "; ".join(m for _, m in problems))
    if take:
        hand = (*hand, cards[k].plain())
    seats = _set_seat(state, i, hand=hand,
                      taken_wilds=seat.taken_wilds + (1 if take else 0))
    state = replace(state, seats=seats)
    new_laid = list(state.seats[owner].laid)
    new_laid[g] = Laid.read(LaidGroup(laid.group.group, read), laid.real(1 if front else 0))
    owed = state.reuse_owed + (1 if take and table.house.wild_reuse_same_turn else 0)
    state = replace(state, seats=_set_seat(state, owner, laid=tuple(new_laid)), reuse_owed=owed)
    if owed and not _owed_wilds_fit(state, i):
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played again "
                                             "this turn, and here it could not be (no group "
                                             "takes it, or playing it would leave no card to "
                                             "discard)")
    return _after_play(state, i)


def _owed_wilds_fit(state: GameState, i: int) -> bool:
    """Whether seat ``i`` can still play every wild it owes (taken back this turn under
    ``wild_reuse_same_turn``) and then end its turn.  Its own phase is down, so a taken
    wild can only be reused as a hit; the hits must leave a card to discard (or go out
    where a hand may end by play).  A take-back that fails this is refused: without it a
    player could take the wild and be left with no legal move (the wild their only card)."""
    owed = state.reuse_owed
    own_only = not state.table.house.hit_same_turn and state.laid_now
    groups = [lg.played for k, s in enumerate(state.seats) if not own_only or k == i
              for lg in s.laid]
    if not hit_plan(groups, [WILD] * owed, _hit_rules(state)).complete:
        return False
    return _going_out_problem(state, len(state.seats[i].hand) - owed, True) is None


def _acts_as_skip(state: GameState, move: mv.Discard) -> bool:
    c = move.card
    return c.skip or (c.wild and state.table.rules.wild_as_skip and move.skip is not None)


def _check_discard(state: GameState, move: mv.Discard
                   ) -> tuple[int, tuple[Card, ...], str | None]:
    """(seat, hand after, who is skipped) for a legal discard (who the anti-phase card
    sends down is ``move.down``, checked here); raise IllegalMove otherwise.
    (Split from ``_discard`` so that ``legal_moves`` can test discards without building
    states.)"""
    i = _check_play_step(state, move)
    seat = state.seats[i]
    card = move.card.plain()
    hand = _remove(seat.hand, [card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{move.player} does not hold {card}")
    if state.step == "recipient_discard":
        if card.skip:
            raise IllegalMove("skip_not_allowed", "the receiver of the turned-up wild discards a "
                                                  "card that is not a skip")
        if move.skip is not None:
            raise IllegalMove("not_a_skip", "this discard starts the pile; it skips nobody")
        _check_down(state, i, move, hand)
        return i, hand, None
    if seat.floating and state.drawn is not None and _hittable(state, i, state.drawn) \
            and card == state.drawn:
        raise IllegalMove("must_play_drawn", f"{move.player} is floating and must play the "
                                             f"drawn {card}, which fits a laid group")
    if state.reuse_owed:
        # a discard ends the turn, and the taken wild must be back on the table by then
        what = "not discarded" if card.wild else "before the turn ends with a discard"
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played (laid "
                                             f"or hit) this turn, {what}")
    problem = _going_out_problem(state, len(hand), False)
    if problem:
        raise IllegalMove(*problem)
    if move.skip is not None and not _acts_as_skip(state, move):
        raise IllegalMove("not_a_skip", f"{card} is not a skip; it cannot skip "
                                        f"{quoted(str(move.skip))}")
    _check_down(state, i, move, hand)
    if move.skip is not None:
        # a going-out skip skips nobody (the hand ends), but it still names a player
        _seat_of(state, move.skip)
    target = _skip_target(state, i, move) if _acts_as_skip(state, move) and hand else None
    return i, hand, target


def _discard(state: GameState, move: mv.Discard) -> GameState:
    i, hand, target = _check_discard(state, move)
    card = move.card.plain()
    seats = _set_seat(state, i, hand=hand)
    if state.step == "recipient_discard":
        first = _next(state, state.dealer)
        start_at = _next(state, first) if i == first else first
        return _after_up(replace(state, seats=seats, discard=(card,)), start_at)
    pending = state.pending_skips if target is None else (*state.pending_skips, target)
    state = replace(state, seats=seats, discard=(*state.discard, card), pending_skips=pending)
    if not hand:
        return end_hand(state, move.player, sent_down=move.down)
    return _begin_turn(state, _next(state, i))


def _check_down(state: GameState, i: int, move: mv.Discard, hand: tuple[Card, ...]) -> None:
    """The anti-phase card names a player only as the discarder's last card (going out);
    discarded earlier it goes face down, names nobody, and the next player may take it."""
    if not move.card.anti:
        if move.down is not None:
            raise IllegalMove("not_anti_phase", f"only the anti-phase card (A) sends a player "
                                                f"down; {move.card} cannot name "
                                                f"{quoted(str(move.down))}")
        return
    if hand:
        if move.down is not None:
            raise IllegalMove("anti_phase_not_last", f"the anti-phase card names a player only "
                                                     f"as one's last card; {move.player} "
                                                     "still holds cards, so it goes face down")
        return
    others = [s.name for k, s in enumerate(state.seats) if k != i and s.playing]
    if move.down is None:
        raise IllegalMove("anti_phase_target", f"the anti-phase card discarded last names the "
                                               f"player who moves down (one of "
                                               f"{', '.join(others)})")
    _seat_of(state, move.down)
    if move.down not in others:
        why = "themselves" if move.down == move.player else "a player who is not playing"
        raise IllegalMove("anti_phase_target", f"the anti-phase card sends another player "
                                               f"down, not {why} ({move.down})")


def _skip_target(state: GameState, i: int, move: mv.Discard) -> str | None:
    house = state.table.house
    nxt = _name(state, _next(state, i))
    if house.skip_target == "next_player":
        if move.skip is not None and move.skip != nxt:
            raise IllegalMove("skip_target", f"under this pack a skip always skips the next "
                                             f"player ({nxt}), not {move.skip}")
        target = nxt
    else:
        others = [s.name for k, s in enumerate(state.seats) if k != i and s.playing]
        free = [p for p in others
                if not (house.skip_once_per_round and p in state.pending_skips)]
        if move.skip is None:
            if free:
                raise IllegalMove("skip_target", f"a discarded skip names the player it skips "
                                                 f"(one of {', '.join(free)})")
            return None
        if move.skip == move.player:
            raise IllegalMove("skip_target", f"{move.player} cannot skip themselves")
        _seat_of(state, move.skip)
        if move.skip not in others:
            raise IllegalMove("skip_target", f"{move.skip} is not playing this hand")
        target = move.skip
    if house.skip_once_per_round and target in state.pending_skips:
        raise IllegalMove("skip_twice_in_round", f"{target} is already to lose their next turn; "
                                                 "nobody is skipped twice in one round")
    return target


def _save(state: GameState, move: mv.Save) -> GameState:
    i = _check_play_step(state, move)
    if not state.table.house.save_pile:
        raise IllegalMove("no_save_pile", "this pack has no save pile")
    seat = state.seats[i]
    if seat.saved:
        raise IllegalMove("already_saved", f"{move.player} has set a card aside this hand; one "
                                           "card a hand")
    hand = _remove(seat.hand, [move.card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{move.player} does not hold {move.card.plain()}")
    if not hand:
        raise IllegalMove("cannot_save_last_card", "the going-out card cannot be saved; discard "
                                                   "it")
    if state.reuse_owed:
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played this "
                                             "turn, before the turn ends")
    seats = _set_seat(state, i, hand=hand, save=(*seat.save, move.card.plain()), saved=True)
    return _begin_turn(replace(state, seats=seats), _next(state, i))


def _abandon(state: GameState, move: mv.Abandon) -> GameState:
    i = _check_play_step(state, move)
    if not state.table.house.abandon_phase:
        raise IllegalMove("abandon_not_allowed", "this pack does not let a laid phase be "
                                                 "abandoned")
    seat = state.seats[i]
    if not state.laid_now or seat.laid_phase is None:
        raise IllegalMove("abandon_not_allowed", "only a phase laid this turn may be abandoned")
    if len(seat.hand) < 2:
        raise IllegalMove("abandon_not_allowed", f"{move.player} would discard their last card; "
                                                 "a phase cannot be abandoned then")
    back = [c.plain() for lg in seat.laid for c in lg.group.cards]
    need = state.table.rules.hand_size + 1 - len(seat.hand)
    top = state.discard[-1:]
    state = replace(state, discard=(*state.discard[:-1], *back, *top))
    for k in range(max(0, need)):
        card = move.cards[k] if move.cards is not None and k < len(move.cards) else None
        if move.cards is not None and card is None:
            raise IllegalMove("card_not_named", f"{move.player} draws {need} cards; the event "
                                                f"names {len(move.cards)}")
        state = _draw(replace(state, step="draw"), mv.Draw(move.player, "deck", card))
    if move.cards is not None and len(move.cards) != max(0, need):
        raise IllegalMove("card_not_named", f"{move.player} draws {need} cards; the event names "
                                            f"{len(move.cards)}")
    seats = _set_seat(state, i, laid=(), laid_phase=None, declared=None, phase_wilds=0)
    return replace(state, seats=seats, step="play", drawn=None)


def _stop(state: GameState, move: mv.Stop) -> GameState:
    if not state.table.house.baseball_short_game:
        raise IllegalMove("stop_not_allowed", "this pack has no game stopped by the clock "
                                              "(house_rules.baseball_short_game); a log may "
                                              "simply end with the game unfinished")
    return stop(state)


# --------------------------------------------------------------------------- dispatch


_HANDLERS = {
    mv.Deal: _deal, mv.Declare: _declare, mv.Draw: _draw, mv.Lay: _lay, mv.Hit: _hit,
    mv.Swap: _swap, mv.Discard: _discard, mv.Save: _save, mv.Give: _give, mv.Abandon: _abandon,
    mv.Stop: _stop,
}


def apply(state: GameState, move: mv.Move) -> GameState:
    """The state after ``move``; raise IllegalMove (with its rule code) if it is not legal."""
    if state.stage == "over":
        raise IllegalMove("game_over", f"the game is over ({state.winner} won)")
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove("unknown_move", f"{move!r} is not a move")
    return handler(state, move)


def _candidates(state: GameState) -> list[mv.Move]:
    if state.stage == "deal":
        return [seeded_deal(state)[0]] if state.seed is not None else []
    if state.stage == "choose_up":
        dealer = _name(state, state.dealer)
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
            pile = state.stock or (_reshuffle(state).stock if state.discard else ())
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
        rules = _hit_rules(state)
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
                                      and m.skip != _name(state, _next(state, i)))]
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
                _check_discard(state, m)
            else:
                apply(state, m)
        except IllegalMove:
            continue
        out.append(m)
    return out
