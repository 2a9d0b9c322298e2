"""A board game's part of a hand (Phase 10 Twist): the discard piles, the twist cards
turned at the deal, the twist choice, and the pawns' moves when the hand ends.

The card play itself is the card game's (``actions``): these are the few places where a
board changes it.  Pure functions over ``GameState``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import PhaseDSLError, listed
from ..model.board import TWIST, Attempt, moved
from ..model.cards import Card
from ..model.phase import Phase
from ..model.words import possessive
from . import moves as mv
from .checks import IllegalMove, check_pile_number, next_seat, seat_name, seat_of
from .state import GameState, Seat, Table, replace
from .table import board_choices, current_phase, phase_text

# --------------------------------------------------------------------------- piles


def piles(state: GameState) -> tuple[tuple[Card, ...], ...]:
    """Every discard pile, the first first (each bottom first)."""
    return (state.discard, *state.more_piles)


def pile(state: GameState, k: int) -> tuple[Card, ...]:
    """Discard pile ``k`` (from 1); IllegalMove for a pile the table does not have."""
    check_pile_number(state, k)
    return state.discard if k == 1 else state.more_piles[k - 2]


def with_pile(state: GameState, k: int, cards: tuple[Card, ...]) -> dict:
    """The change to a state that makes discard pile ``k`` hold ``cards``."""
    if k == 1:
        return {"discard": cards}
    more = list(state.more_piles)
    more[k - 2] = cards
    return {"more_piles": tuple(more)}


def refill(state: GameState) -> tuple[list[Card], dict]:
    """The cards a reshuffle makes the draw pile (under each pile's top card; when the tops
    are all that is left, they too) and the change to the piles it makes."""
    all_piles = piles(state)
    under = [c for p in all_piles for c in p[:-1]]
    if under:
        kept = tuple(p[-1:] for p in all_piles)
    else:
        under = [c for p in all_piles for c in p]
        kept = tuple(() for _ in all_piles)
    return under, {"discard": kept[0], "more_piles": kept[1:]}


# --------------------------------------------------------------------------- the deal


def check_deal(state: GameState, move: mv.Deal
               ) -> tuple[tuple[tuple[Card, ...], ...], dict[str, int]]:
    """The discard piles a deal starts (each bottom first) and each player's twist card
    (its phase number); IllegalMove where the deal does not start the table's piles or
    give the twist cards its pawns on twist spaces turn."""
    table = state.table
    n = table.piles
    given = move.piles or ((move.up,),)
    if len(given) != n:
        raise IllegalMove("bad_deal", f"this pack starts {n} discard pile{'s' * (n > 1)}; the "
                                      f"deal gives {len(given)}")
    if move.piles and move.up != given[0][-1]:
        raise IllegalMove("bad_deal", f"'up' ({move.up}) is not the top of the first discard "
                                      f"pile ({given[0][-1]})")
    if n == 1 and len(given[0]) != 1:
        raise IllegalMove("bad_deal", "the discard pile is started with one card")
    if n > 1:
        for k, p in enumerate(given, 1):
            # a skip turned up gets another card on top, until a card that is not a skip
            if p[-1].skip or not all(c.skip for c in p[:-1]):
                raise IllegalMove("bad_deal", f"discard pile {k} is started with one card, a "
                                              "skip turned up covered by the next card: "
                                              f"{', '.join(map(str, p))} is not such a pile")
    twists = _check_twists(state, move)
    return tuple(tuple(c.plain() for c in p) for p in given), twists


def _check_twists(state: GameState, move: mv.Deal) -> dict[str, int]:
    table = state.table
    need = [s.name for s in state.seats if s.playing and _turns_twist(state, s)]
    given = dict(move.twists)
    for name in given:
        seat_of(state, name)
    if set(given) != set(need):
        extra = sorted(set(given) - set(need))
        if extra:
            raise IllegalMove("bad_deal", f"a twist card is turned only for a pawn on a twist "
                                          f"space; {listed(extra)} stand on none")
        raise IllegalMove("bad_deal", f"a twist card is turned for {listed(sorted(need))} "
                                      "(on twist spaces); the deal names "
                                      f"{listed(sorted(given)) if given else 'none'}")
    return {name: twist_number(table, text, name) for name, text in given.items()}


def _turns_twist(state: GameState, seat: Seat) -> bool:
    board = state.table.board
    return (board is not None and bool(board.twist_phases) and not state.tie_break
            and board.spaces[seat.space - 1] == TWIST)


def twist_number(table: Table, text: str, who: str) -> int:
    """The phase number of the twist card a deal names by its phrase."""
    cards = table.board.twist_phases
    try:
        wanted = str(Phase.parse(text, table.rules.deck))
    except PhaseDSLError:
        wanted = None
    for k, p in enumerate(cards):
        if str(p) == wanted:
            return table.twist_number(k)
    raise IllegalMove("bad_deal", f"the twist card turned for {who} ({text[:80]!r}) is not in "
                                  f"this pack's twist deck ({'; '.join(map(str, cards))})")


def seeded_twists(state: GameState, rng: random.Random) -> tuple[tuple[str, str], ...]:
    """The twist cards a seeded deal turns: the twist deck shuffled, one card turned for
    each pawn on a twist space in seat order (the deck is turned again past its end)."""
    wanting = [s.name for s in state.seats if s.playing and _turns_twist(state, s)]
    if not wanting:
        return ()
    deck = list(state.table.board.twist_phases)
    rng.shuffle(deck)
    return tuple((name, str(deck[k % len(deck)])) for k, name in enumerate(wanting))


def seeded_piles(cards: list[Card], n: int) -> tuple[tuple[Card, ...], ...]:
    """``n`` discard piles turned from the top of ``cards`` (top last; taken from its end),
    a skip turned up covered by the next card."""
    out = []
    for _ in range(n):
        p = [cards.pop()]
        while p[-1].skip and cards:
            p.append(cards.pop())
        out.append(tuple(p))
    return tuple(out)


# --------------------------------------------------------------------------- the choice


def next_chooser(state: GameState) -> int | None:
    """The next seat, in play order from the first player, whose pawn stands on a twist
    space and has not chosen; None when all have."""
    if state.table.board is None or state.tie_break:
        return None
    first = i = next_seat(state, state.dealer)
    for _ in range(len(state.seats)):
        seat = state.seats[i]
        if seat.playing and seat.declared is None and board_choices(state, i):
            return i
        i = next_seat(state, i)
        if i == first:
            break
    return None


def check_choose(state: GameState, move: mv.Choose) -> tuple[int, int]:
    """(the seat, the phase number it attempts) for a legal twist choice."""
    if state.table.board is None:
        raise IllegalMove("no_board", "this pack is not played on a board: nobody chooses a "
                                      "twist")
    i = seat_of(state, move.player)
    options = board_choices(state, i)
    space = state.seats[i].space
    if not options:
        raise IllegalMove("not_a_twist_space", f"{possessive(move.player)} pawn stands on space {space}, "
                                               "which is not a twist space: its phase is the "
                                               "space's, with no choice")
    if state.stage != "declare" or state.turn != i:
        if state.stage == "declare":
            raise IllegalMove("not_your_turn", f"{seat_name(state, state.turn)} chooses next, "
                                               f"not {move.player}")
        raise IllegalMove("not_now", "a twist is chosen when the hand starts, before the "
                                     "first turn")
    for said, number in options:
        if said == move.choice:
            return i, number
    said = ", ".join(f'"{c}"' if c == "twist" else f"space {c}" for c, _ in options)
    raise IllegalMove("not_a_choice", f"on space {space} {move.player} chooses {said}, not "
                                      f"{move.choice!r}")


def choices_of(state: GameState, i: int) -> list[mv.Choose]:
    name = seat_name(state, i)
    return [mv.Choose(name, said) for said, _ in board_choices(state, i)]


# --------------------------------------------------------------------------- the race


def attempts(state: GameState, went_out: str | None) -> tuple[Attempt, ...]:
    """Each playing seat's hand on the board, as it ends (``went_out``: who went out)."""
    table = state.table
    board = table.board
    out = []
    for k, s in enumerate(state.seats):
        if not s.playing:
            continue
        number = s.laid_phase if s.laid_phase is not None else current_phase(state, k)
        twist = number is not None and table.twist_index(number) is not None
        made = s.laid_phase is not None
        is_out = s.name == went_out
        out.append(Attempt(state.hands_played + 1, s.name, s.space,
                           phase_text(table, number) if number is not None else "",
                           twist, made, is_out, moved(board, s.space, made, is_out, twist),
                           board.spaces[s.space - 1] == TWIST))
    return tuple(out)


def race_winners(state: GameState, hand: Sequence[Attempt]) -> list[Seat]:
    """The seats whose players made the last space's phase this hand."""
    last = len(state.table.board.spaces)
    names = {a.player for a in hand if a.made and a.start == last}
    return [s for s in state.seats if s.name in names]


def pawns_moved(seats: Sequence[Seat], hand: Sequence[Attempt]) -> tuple[Seat, ...]:
    to = {a.player: a.end for a in hand}
    return tuple(replace(s, space=to[s.name]) if s.name in to else s for s in seats)


def begin(state: GameState) -> GameState:
    """The hand's first turn or, on a board, the first twist choice before it."""
    i = next_chooser(state)
    if i is not None:
        return replace(state, stage="declare", turn=i)
    return state


def choose(state: GameState, move: mv.Choose) -> tuple[GameState, bool]:
    """The state after a twist choice, and whether every choice is made (play starts)."""
    i, number = check_choose(state, move)
    seats = list(state.seats)
    seats[i] = replace(seats[i], declared=number)
    new = replace(state, seats=tuple(seats))
    nxt = next_chooser(new)
    if nxt is None:
        return new, True
    return replace(new, turn=nxt), False


def pawns_record(state: GameState) -> mv.Pawns:
    """The record of where the last hand left each pawn."""
    return mv.Pawns(tuple((a.player, a.end) for a in state.results[-1].board))


def check_pawns(state: GameState, move: mv.Pawns) -> GameState:
    """The state once the last hand's pawn moves are recorded; IllegalMove for a record
    that is not the move table's."""
    if not state.pawns_due:
        raise IllegalMove("not_now", "pawns are recorded once after each hand of a board game, "
                                     "before the next deal")
    hand = state.results[-1].board
    given = dict(move.spaces)
    for name in given:
        seat_of(state, name)
    missing = [a.player for a in hand if a.player not in given]
    if missing or len(given) != len(hand):
        raise IllegalMove("bad_pawns", f"the pawns' record gives the space of each player of "
                                       f"the hand ({listed([a.player for a in hand])})")
    for a in hand:
        if given[a.player] != a.end:
            what = f"{'made' if a.made else 'missed'} its {'twist ' if a.twist else ''}phase"
            what += " and went out" if a.out else ""
            step = a.end - a.start
            goes = (f"it stays on space {a.end}" if step == 0 else
                    f"it moves {'back ' if step < 0 else ''}{abs(step)} "
                    f"space{'s' * (abs(step) != 1)} to space {a.end}")
            raise IllegalMove("pawn_moved_wrong", f"{possessive(a.player)} pawn on space {a.start} {what}: "
                                                  f"{goes}, not to space {given[a.player]}")
    return replace(state, pawns_due=False)

