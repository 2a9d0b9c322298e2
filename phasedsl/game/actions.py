"""What each move does: ``apply(state, move)``, the state after it.

``apply`` returns the next state or raises ``IllegalMove`` with a stable ``rule``
code.  One function a move (the deal, the dealer's gift of the up-card, a declared
phase, a draw, a lay, a hit, a wild swapped or taken back, a discard, a card saved,
an abandoned phase, the clock's stop), each checking the move (with ``checks``)
and building the state after it.  Lay-downs are judged by ``layout.verify``; where
a hit or a Utah swap may go is ``hits.targets``' answer, and the group with the card
in place is read again by ``layout.read_group``; all under the pack's rules for the
player's phase.  The referee holds no meld rules of its own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..errors import listed
from ..melds.hits import remember_read
from ..melds.hits import targets as hit_targets
from ..melds.layout import read_group, verify
from ..model.cards import Card, Deck
from ..model.meld import LaidGroup, Meld, acting_text
from ..model.rules import Rules
from ..model.words import possessive, pronoun, subject
from . import boardplay
from . import moves as mv
from .checks import (
    IllegalMove,
    check_discard,
    check_play_step,
    check_turn,
    extend,
    going_out_problem,
    hand_after,
    hit_rules,
    hittable,
    next_seat,
    not_a_state,
    owed_wilds_fit,
    round_end_seat,
    seat_name,
    seat_of,
    without,
)
from .hand_end import end_hand, stop
from .judged import recall
from .state import GameState, Laid, Seat, replace
from .table import choosable, current_phase, phase_rules, tie_number


def _set_seat(state: GameState, i: int, **changes) -> tuple[Seat, ...]:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)
    return tuple(seats)


def _group_label(state: GameState, owner: int, g: int) -> str:
    laid = state.seats[owner].laid[g]
    lg = laid.group
    # a card of a wild number played as a wild shows what it stands for: Y2=1
    shown = " ".join(acting_text(c, laid.played.cards[k]) if k in laid.acting else str(c)
                     for k, c in enumerate(lg.cards))
    kind = lg.group.describe(state.table.rules.deck)
    return f"{possessive(seat_name(state, owner))} group {g + 1} ({kind}: {shown})"


def cards_in_play(state: GameState) -> list[Card]:
    """Every card of the deck's that is somewhere in this hand (hands, table, piles)."""
    out = list(state.stock) + [c for p in boardplay.piles(state) for c in p] + list(state.placed)
    for s in state.seats:
        out += s.hand + s.save
        out += [c.plain() for lg in s.laid for c in lg.group.cards]
    return out


# --------------------------------------------------------------------------- the deal


def seeded_deal(state: GameState) -> tuple[mv.Deal, tuple[Card, ...]]:
    """The deal a seeded game makes now, and the draw pile it leaves (top last)."""
    saves = tuple(c for s in state.seats for c in s.save)
    order = tuple(seat_name(state, i) for i in _deal_order(state))
    twists = boardplay.seeded_twists(state, random.Random(f"{state.seed}/twist/"
                                                          f"{state.hands_played}"))
    return _seeded(state.seed, state.hands_played, state.table.deck, saves, order,
                   state.table.rules.hand_size, state.table.piles, twists)


@lru_cache(maxsize=8)
def _seeded(seed: int | None, hand_no: int, deck: Deck, saves: tuple[Card, ...],
            order: tuple[str, ...], k: int, piles: int = 1,
            twists: tuple[tuple[str, str], ...] = ()) -> tuple[mv.Deal, tuple[Card, ...]]:
    # Kept: ``legal_moves`` lists the deal and ``apply`` compares a deal with it.
    rng = random.Random(f"{seed}/deal/{hand_no}")
    cards = list(deck_cards(deck))
    for c in saves:
        cards.remove(c)
    rng.shuffle(cards)
    hands = tuple((name, tuple(cards[n * k:(n + 1) * k])) for n, name in enumerate(order))
    rest = cards[len(order) * k:]
    if piles == 1:
        return mv.Deal(hands, rest[0], (), twists), tuple(rest[1:])
    # (turned from the bottom of what is left, as the one up-card is)
    rest.reverse()
    started = boardplay.seeded_piles(rest, piles)
    rest.reverse()
    return mv.Deal(hands, started[0][-1], started if piles > 1 else (), twists), tuple(rest)


@lru_cache(maxsize=16)
def deck_cards(deck: Deck) -> tuple[Card, ...]:
    """``deck.all_cards()``, made once a deck (every deal starts from it).  Every copy of a
    card is the one ``interned`` object, the solver's too: hands, piles and counts find
    equal cards by identity (a hand holds pairs, a meld the solver's cards)."""
    return tuple(deck.all_cards())


@lru_cache(maxsize=16)
def _deck_supply(deck: Deck) -> Counter:
    return Counter(deck_cards(deck))  # (read, never changed)


def _deal_order(state: GameState) -> list[int]:
    first = next_seat(state, state.dealer)
    out, i = [first], next_seat(state, first)
    while i != first:
        out.append(i)
        i = next_seat(state, i)
    return out


def _deal(state: GameState, move: mv.Deal) -> GameState:
    if state.stage != "deal":
        raise IllegalMove("not_now", "a deal comes only at the start of a hand")
    if state.pawns_due:
        raise IllegalMove("pawns_not_moved", "a board game records where the pawns moved "
                                             "after each hand (a \"pawns\" event) before the "
                                             "next deal")
    rules = state.table.rules
    playing = {s.name for s in state.seats if s.playing}
    given = [p for p, _ in move.hands]
    if set(given) != playing or len(given) != len(playing):
        raise IllegalMove("bad_deal", f"the deal must give a hand to each of "
                                      f"{listed(sorted(playing))}; it names {listed(given)}")
    for p, h in move.hands:
        if len(h) != rules.hand_size:
            raise IllegalMove("bad_deal", f"{subject(p, 'is')} dealt {len(h)} cards; the pack deals "
                                          f"{rules.hand_size}")
    started, twist = boardplay.check_deal(state, move)
    expected, order = (None, ())
    if state.seed is not None:
        expected, order = seeded_deal(state)
    if move is not expected:  # (the seeded deal itself is the deck less the saves, shuffled)
        saves = [c for s in state.seats for c in s.save]
        dealt = [c.plain() for _, h in move.hands for c in h] + [c for p in started for c in p]
        supply = _deck_supply(state.table.deck)
        if saves:
            supply = supply - Counter(saves)
        over = Counter(dealt) - supply
        if over:
            card = next(iter(over))
            held = " (save piles hold the rest)" if saves else ""
            raise IllegalMove("card_not_available", f"the deal holds {Counter(dealt)[card]} x "
                                                    f"{card}; the deck has {supply[card]}{held}")
    known = expected is not None and move == expected
    stock = order if known else tuple((supply - Counter(dealt)).elements())
    hands = dict((p, tuple(c.plain() for c in h)) for p, h in move.hands)
    seats = tuple(replace(s, hand=hands.get(s.name, ()), laid=(), laid_phase=None, declared=None,
                          saved=False, taken_wilds=0, floating=False, phase_wilds=0,
                          revealed=twist.get(s.name))
                  for s in state.seats)
    first = next_seat(state, state.dealer)
    new = replace(state, seats=seats, stage="turn", turn=first, step="draw", laid_now=False,
                  drawn=None, stock=stock, stock_known=known, discard=started[0],
                  skip_on_top=False,
                  more_piles=started[1:], emptied=None, placed=(), pending_skips=(),
                  dealer_reached=False, reuse_owed=0)
    house = state.table.house
    up = move.up
    if house.dealer_chooses and (up.wild or up.skip):
        return replace(new, stage="choose_up", turn=state.dealer)
    if up.skip and len(started) == 1:  # a skip turned up skips the first player
        new = replace(new, pending_skips=(seat_name(state, first),))
    return _after_up(new, first)


def _begin_turn(state: GameState, i: int, **changes) -> GameState:
    """Seat ``i`` is next: lost turns (pending skips) pass play on.  ``changes``: what the
    move that ended the turn changed besides (made in the same copy of the state)."""
    pending = list(changes.pop("pending_skips", state.pending_skips))
    reached = state.dealer_reached
    # (the dealer's turn, or the last turn before the dealer's seat where they sit out)
    last = state.dealer if reached or state.seats[state.dealer].playing else round_end_seat(state)
    for _ in range(len(pending) + 1):
        if i == last:
            reached = True
        name = seat_name(state, i)
        if name not in pending:
            break
        pending.remove(name)
        i = next_seat(state, i)
    return replace(state, **changes, stage="turn", turn=i, step="draw", laid_now=False,
                   drawn=None, pending_skips=tuple(pending), dealer_reached=reached, reuse_owed=0,
                   emptied=None)


def _give(state: GameState, move: mv.Give) -> GameState:
    if state.stage != "choose_up":
        raise IllegalMove("not_now", "the dealer gives the up-card only when a wild or skip "
                                     "is turned up under the dealer's-choice rule")
    if move.player != seat_name(state, state.dealer):
        raise IllegalMove("not_your_turn", f"the dealer ({seat_name(state, state.dealer)}) chooses, "
                                           f"not {move.player}")
    to = seat_of(state, move.to)
    if not state.seats[to].playing:
        raise IllegalMove("unknown_player", f"{subject(move.to, 'is')} not playing this hand")
    first = next_seat(state, state.dealer)
    up = state.discard[-1]
    if up.skip:
        new = replace(state, pending_skips=(move.to,))
        return _after_up(new, first)
    seat = state.seats[to]
    seats = _set_seat(state, to, hand=(*seat.hand, up))
    return replace(state, seats=seats, discard=(), skip_on_top=False, stage="turn", turn=to,
                   step="recipient_discard")


def _after_up(state: GameState, first: int) -> GameState:
    """Play starts with ``first`` once the up-card is settled (after Masters' declarations)."""
    if (state.table.house.declare_phase == "at_deal" and state.table.any_order
            and not state.tie_break):
        return replace(state, stage="declare", turn=first)
    chosen = boardplay.begin(state)
    if chosen.stage == "declare":
        return chosen
    return _begin_turn(state, first)


def _choose(state: GameState, move: mv.Choose) -> GameState:
    new, all_chosen = boardplay.choose(state, move)
    return _begin_turn(new, next_seat(state, state.dealer)) if all_chosen else new


# --------------------------------------------------------------------------- moves


def _declare(state: GameState, move: mv.Declare) -> GameState:
    table = state.table
    house = table.house
    if not table.any_order or house.declare_phase == "never" or state.tie_break:
        raise IllegalMove("declare_not_allowed", "this pack's phases are not chosen by the "
                                                 "players (no declare_phase)")
    if state.stage == "declare":
        i = seat_of(state, move.player)
        if i != state.turn:
            raise IllegalMove("not_your_turn", f"{seat_name(state, state.turn)} declares next, not "
                                               f"{move.player}")
    else:
        i = check_turn(state, move)
        if house.declare_phase == "at_deal":
            raise IllegalMove("declare_not_allowed", "phases are declared after the deal, "
                                                     "before the first turn")
        if state.seats[i].laid_phase is not None or state.laid_now:
            raise IllegalMove("already_laid", f"{subject(move.player, 'has')} laid a phase this hand")
    if move.phase not in choosable(state, i):
        raise IllegalMove("phase_not_available",
                          f"{move.player} cannot attempt phase {move.phase}: the choices are "
                          f"{', '.join(map(str, choosable(state, i))) or 'none'}")
    seats = _set_seat(state, i, declared=move.phase)
    new = replace(state, seats=seats)
    if state.stage != "declare":
        return new
    nxt = next_seat(state, i)
    first = next_seat(state, state.dealer)
    if nxt == first:
        return _begin_turn(new, first)
    return replace(new, turn=nxt)


def reshuffle(state: GameState) -> GameState:
    """The discard pile but its top card becomes the draw pile.  When the top card is all
    that is left (nearly every card in hands or on the table) it is turned over too, so
    that a player can always draw (the sources do not say; a hand never stalls)."""
    stock, kept = boardplay.refill(state)
    if state.stock_known:
        random.Random(f"{state.seed}/shuffle/{state.shuffles}").shuffle(stock)
    return replace(state, stock=tuple(stock), **kept, shuffles=state.shuffles + 1,
                   skip_on_top=state.skip_on_top and bool(kept["discard"]))


def _draw(state: GameState, move: mv.Draw) -> GameState:
    return drawn(state, move, check_draw(state, move))


# A draw judged: (the seat, the card, the state it is drawn from when not the state
# judged (the draw pile reshuffled first, as it was empty) else None, the pile it leaves:
# "stock", "save" or the number of a discard pile, and what that pile holds then).  (Not the state judged
# itself: ``legal_moves`` keeps the answer on that state, and a state holding itself
# would be freed only by the cycle collector, which its every draw then kept busy.)
Drawn = tuple[int, Card, GameState | None, str | int, tuple[Card, ...]]


def check_draw(state: GameState, move: mv.Draw) -> Drawn:
    """What ``move`` draws, if it may; IllegalMove otherwise (``drawn`` builds the state
    after it: ``legal_moves`` judges every draw, and builds only the one made)."""
    # (a move made by hand in Python, not read from a log, is judged as strictly: a source
    # or pile that is no such thing is refused, not drawn from the deck)
    if move.source not in ("deck", "discard", "save"):
        raise IllegalMove("bad_draw", f"a draw is from 'deck', 'discard' or 'save', not "
                                      f"{str(move.source)[:40]!r}")
    if not isinstance(move.pile, int) or isinstance(move.pile, bool) or move.pile < 1:
        raise IllegalMove("no_such_pile", f"a discard pile is a number from 1, not "
                                          f"{str(move.pile)[:40]!r}")
    i = check_turn(state, move)
    if state.step != "draw":
        raise IllegalMove("already_drew", f"{subject(move.player, 'has')} drawn this turn; next: lay, hit "
                                          "or discard")
    seat = state.seats[i]
    if seat.floating and move.source != "discard" and state.discard:
        top = state.discard[-1]
        if not (top.skip or state.skip_on_top) and hittable(state, i, top):
            raise IllegalMove("must_take_playable", f"{subject(move.player, 'is')} floating and must take "
                                                    f"the top discard {top}, which can be played")
    if move.source == "discard":
        taken = boardplay.pile(state, move.pile)
        which = "the discard pile" if state.table.piles == 1 else f"discard pile {move.pile}"
        if not taken:
            raise IllegalMove("card_not_available", f"{which} is empty")
        top = taken[-1]
        if (top.skip or (move.pile == 1 and state.skip_on_top)) \
                and not state.table.skips_in_front:
            played = "" if top.skip else f" (the {top} on top was played as a skip)"
            raise IllegalMove("skip_from_discard", "a skip can never be taken from the discard "
                                                   f"pile{played}")
        if move.card is not None and move.card.plain() != top:
            raise IllegalMove("card_not_available", f"the top of {which} is {top}, not "
                                                    f"{move.card}")
        return i, top, None, move.pile, taken[:-1]
    if move.pile != 1:
        raise IllegalMove("no_such_pile", f"a draw from the {move.source} names no discard pile")
    if move.source == "save":
        if not state.table.house.save_pile:
            raise IllegalMove("no_save_pile", "this pack has no save pile")
        if not seat.save:
            raise IllegalMove("card_not_available", f"{possessive(move.player)} save pile is empty")
        card = move.card.plain() if move.card is not None else seat.save[-1]
        left = without(seat.save, [card])
        if left is None:
            raise IllegalMove("card_not_available", f"{card} is not in {possessive(move.player)} save pile")
        return i, card, None, "save", left
    base = None
    if not state.stock:
        if not any(boardplay.piles(state)):
            raise IllegalMove("card_not_available", "the draw pile and the discard pile are "
                                                    "both empty")
        state = base = reshuffle(state)
    if state.stock_known:
        card = state.stock[-1]
        if move.card is not None and move.card.plain() != card:
            raise IllegalMove("card_not_available", f"the top of the draw pile is {card}, "
                                                    f"not {move.card}")
        return i, card, base, "stock", state.stock[:-1]
    if move.card is None:
        raise IllegalMove("card_not_named", "a deck draw in a log names the card drawn")
    card = move.card.plain()
    left = without(state.stock, [card])
    if left is None:
        seen = state.table.deck.supply(card)
        raise IllegalMove("card_not_available",
                          f"{card} cannot be in the draw pile: all {seen} of the deck's "
                          f"{card} are seen (in hands, on the table or discarded)")
    return i, card, base, "stock", left


def drawn(state: GameState, move: mv.Draw, checked: Drawn) -> GameState:
    """The state after a draw ``check_draw`` has passed (``checked``, its answer)."""
    i, card, base, pile, rest = checked
    if base is None:
        base = state
    seat = base.seats[i]
    if pile == "save":
        seats = _set_seat(base, i, hand=(*seat.hand, card), save=rest)
        return replace(base, seats=seats, step="play", drawn=card)
    seats = _set_seat(base, i, hand=(*seat.hand, card))
    if isinstance(pile, int):  # a discard pile: one its last card left must take the discard
        return replace(base, seats=seats, step="play", drawn=card,
                       emptied=pile if not rest else None, **boardplay.with_pile(base, pile, rest))
    return replace(base, seats=seats, step="play", drawn=card, **{pile: rest})


def _lay(state: GameState, move: mv.Lay) -> GameState:
    i = check_play_step(state, move)
    seat = state.seats[i]
    table = state.table
    if seat.laid_phase is not None or state.laid_now:
        raise IllegalMove("already_laid", f"{subject(move.player, 'has')} laid a phase this hand; only one "
                                          "phase a hand")
    number = current_phase(state, i)
    if table.any_order and not state.tie_break:
        if table.house.declare_phase == "when_laying" and move.phase is None and number is None:
            raise IllegalMove("phase_not_declared", f"{move.player} must say which phase "
                                                    f"{pronoun(move.player, 'they')} lay "
                                                    "(declare_phase: when_laying)")
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
        if number != 0:
            raise IllegalMove("wrong_phase", f"{subject(move.player, 'is')} on phase {number}, "
                                             f"not {move.phase}")
        # A tie-break hand (phase 0 here) replays a phase of the list: a lay may name it by
        # its number, as in any other hand; a tie_break_phase phrase has no number.
        if table.tie_phase is not None:
            raise IllegalMove("wrong_phase", f"the tie-break hand is played on "
                                             f"{table.tie_phase}, which is no phase of the "
                                             f"list; a lay in it names no phase "
                                             f"(not {move.phase})")
        if move.phase != tie_number(table):
            raise IllegalMove("wrong_phase", f"the tie-break hand replays phase "
                                             f"{tie_number(table)}, not {move.phase}")
    candidates = [number] if number is not None else choosable(state, i)
    _refuse_rule_card(c for g in move.groups for c in g)
    if not candidates:
        raise IllegalMove("phase_not_made", f"{subject(move.player, 'has')} no phase left to make")
    hand = without(seat.hand, [c for g in move.groups for c in g])
    if hand is None:
        missing = Counter(c.plain() for g in move.groups for c in g) - Counter(seat.hand)
        shown = " ".join(str(c) for c in missing.elements())
        raise IllegalMove("not_in_hand", f"{subject(move.player, 'does')} not hold {shown}")
    verdict = rules = phase = None
    for n in candidates:
        phase, rules = phase_rules(table, n)
        # (no hand: that the hand holds the cards is checked above, as ``verify`` would)
        verdict = verify(phase, move.groups, rules)
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
    problem = going_out_problem(state, left, True)
    if problem:
        raise IllegalMove(*problem)
    laid = _laid(verdict.meld, move.groups)
    hits = hit_rules(state)
    for group in laid:
        # Its hits are asked next.  Each group as played is ``verify``'s reading, which the
        # hit rules read as itself (they only allow more: extras, no wild numbers, and the
        # cards of one played as wilds are wilds there): its hit state is built from it
        # without reading the group a second time.
        remember_read(group.played, hits)
    wilds = sum(1 for g in move.groups for c in g if c.wild)
    seats = _set_seat(state, i, hand=hand, laid=laid,
                      laid_phase=number, declared=number if table.any_order else seat.declared,
                      phase_wilds=wilds)
    state = replace(state, seats=seats, laid_now=True,
                    reuse_owed=max(0, state.reuse_owed - wilds))
    # A lay of every card held goes out where the hand may end by play
    # (go_out_without_discard; under floating it floats instead): a lay that also ends the
    # hand or the game says so.
    out = move.player if not hand and not table.house.floating else None
    if state.tie_break and table.tie_phase is not None:
        # A tie-break hand on a named phase (Thai page): the first to lay it down wins.
        return end_hand(state, out, winner=move.player)
    if _wins_at_once(state, i):
        return end_hand(state, out)
    return _after_play(state, i)


def _refuse_rule_card(cards: Iterable[Card]) -> None:
    if any(c.anti for c in cards):
        raise IllegalMove("not_a_phase_card", "the anti-phase card (A) is part of no phase and "
                                              "fits no group: it can only be discarded")


def _wins_at_once(state: GameState, i: int) -> bool:
    """Seat ``i`` has just laid its last phase and nobody else is on theirs (on a board:
    nobody else stands on the last space): the game ends
    at once (printed rules: "if only one player attempts phase 10 and completes it, they
    become the winner and the game ends immediately").  With others on their last phase
    the hand is played out, and the lowest total among those who made it wins."""
    house = state.table.house
    if state.tie_break or house.fixed_hands is not None or house.everyone_advances:
        return False
    if not _on_last_phase(state, i):
        return False
    return not any(_on_last_phase(state, k) for k, s in enumerate(state.seats)
                   if k != i and s.playing)


def _on_last_phase(state: GameState, k: int) -> bool:
    """Whether seat ``k`` attempts the game's last phase this hand: the phase after every
    other made or, on a board (Phase 10 Twist), the last space's phase (phases made do not
    say where a pawn stands: a twist card moves it 4 or 6 spaces, a miss back one)."""
    board = state.table.board
    if board is not None:
        return state.seats[k].space == len(board.spaces)
    return len(state.seats[k].done) + 1 >= state.table.goal


def _laid_order(meld_groups: Sequence[LaidGroup], given) -> list[int]:
    """The verdict's groups (phase order) back in the order the player laid them (their
    indices in ``meld_groups``)."""
    pool = list(range(len(meld_groups)))
    plain = [tuple(c.plain() for c in lg.cards) for lg in meld_groups]
    out = []
    for g in given:
        mine = tuple(c.plain() for c in g)
        key = None  # (counted only where the cards are not the same, in the same order)
        for k, j in enumerate(pool):
            theirs = plain[j]
            if theirs != mine:
                if len(theirs) != len(mine):
                    continue
                if key is None:
                    key = Counter(mine)
                if Counter(theirs) != key:
                    continue
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
        return _begin_turn(replace(state, seats=seats), next_seat(state, i))
    return end_hand(state, seat_name(state, i))


def _hit(state: GameState, move: mv.Hit) -> GameState:
    i = check_play_step(state, move)
    seat = state.seats[i]
    if seat.laid_phase is None:
        raise IllegalMove("hit_before_phase", f"{move.player} must lay "
                                              f"{pronoun(move.player, 'their')} own phase "
                                              f"before hitting (tried {move.card})")
    owner = seat_of(state, move.target)
    _check_same_turn(state, i, owner, move.player)
    if not 1 <= move.group <= len(state.seats[owner].laid):
        n = len(state.seats[owner].laid)
        raise IllegalMove("no_such_group", f"{subject(move.target, 'has')} {n} laid group{'s' * (n != 1)}; "
                                           f"there is no group {move.group}")
    hand = without(seat.hand, [move.card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{subject(move.player, 'does')} not hold {move.card.plain()}")
    _refuse_rule_card([move.card])
    g = move.group - 1
    new, why = extend(state, i, owner, g, move.card)
    if new is None:
        raise IllegalMove("hit_does_not_fit", f"{move.card} does not fit "
                                              f"{_group_label(state, owner, g)}: {why}")
    problem = going_out_problem(state, len(hand), True,
                                reuse=bool(move.card.wild and state.reuse_owed))
    if problem:
        raise IllegalMove(*problem)
    laid = state.seats[owner].laid
    seats = _set_seat(state, i, hand=hand)
    state = replace(state, seats=seats)
    new_laid = (*laid[:g], new, *laid[g + 1:])
    state = replace(state, seats=_set_seat(state, owner, laid=new_laid),
                    reuse_owed=max(0, state.reuse_owed - (1 if move.card.wild else 0)))
    if state.reuse_owed and not owed_wilds_fit(state, i):
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played again "
                                             "this turn, and after this hit no group could take "
                                             "it")
    return _after_play(state, i)


def _check_same_turn(state: GameState, i: int, owner: int, player: str,
                     what: str = "hit") -> None:
    """Under ``hit_same_turn: false`` (Thai page: "they cannot play on phases other players
    laid in the same turn they play their phase") a card is played onto others' groups (a
    hit, a swap) only from the turn after one's own lay."""
    if not state.table.house.hit_same_turn and state.laid_now and owner != i:
        raise IllegalMove("hit_same_turn", f"{player} laid {pronoun(player, 'their')} "
                                           f"phase this turn and may {what} only "
                                           f"{pronoun(player, 'their')} own groups until "
                                           f"{pronoun(player, 'their')} next turn")


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
    i = check_play_step(state, move)
    table = state.table
    if not (table.rules.wild_swap or table.rules.wild_take_back):
        raise IllegalMove("swap_not_allowed", "this pack does not let laid wilds be swapped out "
                                              "(wilds.swap, wilds.take_back)")
    seat = state.seats[i]
    if seat.laid_phase is None:
        raise IllegalMove("hit_before_phase", f"{move.player} must lay "
                                              f"{pronoun(move.player, 'their')} own phase "
                                              "before swapping a wild")
    owner = seat_of(state, move.target)
    _check_same_turn(state, i, owner, move.player, "swap a wild in")
    if not 1 <= move.group <= len(state.seats[owner].laid):
        raise IllegalMove("no_such_group", f"{subject(move.target, 'has')} no group {move.group}")
    card = move.card
    if not card.natural:
        raise IllegalMove("swap_does_not_fit", f"only a natural card replaces a wild, not {card}")
    hand = without(seat.hand, [card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{subject(move.player, 'does')} not hold {card}")
    g = move.group - 1
    laid = state.seats[owner].laid[g]
    cards = laid.played.cards
    rules = hit_rules(state)
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
    else:
        # A Utah swap plays a card from the hand as a hit does, so the same going-out rules
        # hold (a take-back leaves the hand's size as it was, and so its going-out status).
        problem = going_out_problem(state, len(hand), True)
        if problem:
            raise IllegalMove(*problem)
    seats = _set_seat(state, i, hand=hand,
                      taken_wilds=seat.taken_wilds + (1 if take else 0))
    state = replace(state, seats=seats)
    new_laid = list(state.seats[owner].laid)
    new_laid[g] = Laid.read(LaidGroup(laid.group.group, read), laid.real(1 if front else 0))
    owed = state.reuse_owed + (1 if take and table.house.wild_reuse_same_turn else 0)
    state = replace(state, seats=_set_seat(state, owner, laid=tuple(new_laid)), reuse_owed=owed)
    if owed and not owed_wilds_fit(state, i):
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played again "
                                             "this turn, and here no group could take it")
    return _after_play(state, i)


def _discard(state: GameState, move: mv.Discard) -> GameState:
    return discarded(state, move, check_discard(state, move))


def discarded(state: GameState, move: mv.Discard,
              checked: tuple[int, int, str | None]) -> GameState:
    """The state after a discard ``check_discard`` has passed (``checked``, its answer:
    the seat, where the card is in the hand, who is skipped)."""
    i, k, target = checked
    hand = hand_after(state.seats[i].hand, k)
    card = move.card.plain()
    seats = _set_seat(state, i, hand=hand)
    if state.step == "recipient_discard":
        first = next_seat(state, state.dealer)
        start_at = next_seat(state, first) if i == first else first
        return _after_up(replace(state, seats=seats, discard=(card,), skip_on_top=False),
                         start_at)
    pending = state.pending_skips if target is None else (*state.pending_skips, target)
    if state.table.skips_in_front and (card.skip or move.skip is not None):
        put: dict = {"placed": (*state.placed, card)}  # in front of the player, on no pile
    elif move.pile == 1:
        # a wild played as a skip (Truly Wild) lies on the pile as a skip: nobody takes it
        put = {"discard": (*state.discard, card),
               "skip_on_top": card.wild and move.skip is not None}
    else:
        put = boardplay.with_pile(state, move.pile, (*boardplay.pile(state, move.pile), card))
    if not hand:
        state = replace(state, seats=seats, pending_skips=pending, **put)
        return end_hand(state, move.player, sent_down=move.down)
    # (a discard changes no one's place at the table: the next seat is found as before)
    return _begin_turn(state, next_seat(state, i), seats=seats, pending_skips=pending, **put)


def _save(state: GameState, move: mv.Save) -> GameState:
    i = check_play_step(state, move)
    if not state.table.house.save_pile:
        raise IllegalMove("no_save_pile", "this pack has no save pile")
    seat = state.seats[i]
    if seat.saved:
        raise IllegalMove("already_saved", f"{subject(move.player, 'has')} set a card aside this hand; one "
                                           "card a hand")
    hand = without(seat.hand, [move.card])
    if hand is None:
        raise IllegalMove("not_in_hand", f"{subject(move.player, 'does')} not hold {move.card.plain()}")
    if not hand:
        raise IllegalMove("cannot_save_last_card", "the going-out card cannot be saved; discard "
                                                   "it")
    if state.reuse_owed and move.card.wild:
        raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played this "
                                             "turn, not saved")
    seats = _set_seat(state, i, hand=hand, save=(*seat.save, move.card.plain()), saved=True)
    return _begin_turn(replace(state, seats=seats), next_seat(state, i))


def _abandon(state: GameState, move: mv.Abandon) -> GameState:
    i = check_play_step(state, move)
    if not state.table.house.abandon_phase:
        raise IllegalMove("abandon_not_allowed", "this pack does not let a laid phase be "
                                                 "abandoned")
    seat = state.seats[i]
    if not state.laid_now or seat.laid_phase is None:
        raise IllegalMove("abandon_not_allowed", "only a phase laid this turn may be abandoned")
    if len(seat.hand) < 2:
        raise IllegalMove("abandon_not_allowed", f"{move.player} would discard "
                                                 f"{pronoun(move.player, 'their')} last card; "
                                                 "a phase cannot be abandoned then")
    back = [c.plain() for lg in seat.laid for c in lg.group.cards]
    need = state.table.rules.hand_size + 1 - len(seat.hand)
    top = state.discard[-1:]
    state = replace(state, discard=(*state.discard[:-1], *back, *top))
    for k in range(max(0, need)):
        card = move.cards[k] if move.cards is not None and k < len(move.cards) else None
        if move.cards is not None and card is None:
            raise IllegalMove("card_not_named", f"{subject(move.player, 'draws')} {need} cards; the event "
                                                f"names {len(move.cards)}")
        state = _draw(replace(state, step="draw"), mv.Draw(move.player, "deck", card))
    if move.cards is not None and len(move.cards) != max(0, need):
        raise IllegalMove("card_not_named", f"{subject(move.player, 'draws')} {need} cards; the event names "
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
    mv.Deal: _deal, mv.Choose: _choose, mv.Pawns: boardplay.check_pawns, mv.Declare: _declare,
    mv.Draw: _draw, mv.Lay: _lay, mv.Hit: _hit, mv.Swap: _swap, mv.Discard: _discard,
    mv.Save: _save, mv.Give: _give, mv.Abandon: _abandon, mv.Stop: _stop,
}


def apply(state: GameState, move: mv.Move) -> GameState:
    """The state after ``move``; raise IllegalMove (with its rule code) if it is not legal.
    A move ``legal_moves`` listed for this state (that very object) was judged there: its
    result is taken as it was, not judged again (``judged``)."""
    if not isinstance(state, GameState):  # (one isinstance: the recall below is the cost)
        raise not_a_state("apply", state)
    after = recall(state, move)
    if after is not None:
        return after
    # a move made by hand (or read from a log): a field of the wrong type is the move's
    # fault, said as such (a few isinstance; judging it costs far more; legal_moves's own
    # candidates, judged by ``judge`` directly, are not checked again)
    wrong = mv.misfit(move) if type(move) in _HANDLERS else None
    if wrong is not None:
        field, message = wrong
        if field in mv.FIELD_RULES:  # (a player that is no name is not at the table)
            raise IllegalMove(mv.FIELD_RULES[field], message)
        raise IllegalMove("bad_move", message)
    return judge(state, move)


def judge(state: GameState, move: mv.Move) -> GameState:
    """``apply`` with every check made, whatever was listed before."""
    if state.stage == "over" and not (state.pawns_due and type(move) is mv.Pawns):
        raise IllegalMove("game_over", f"the game is over ({state.winner} won)")
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove("unknown_move", f"{move!r} is not a move")
    return handler(state, move)
