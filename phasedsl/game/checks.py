"""The referee's questions about a state, asked before a move changes it.

Whose turn it is and whether this player may act now (``check_turn``,
``check_play_step``); whether the going-out rules let a move leave so many cards
in hand (``going_out_problem``); where a card fits a laid group (``extend``,
``hittable``) and whether the wilds a player owes the table can still be played
(``owed_wilds_fit``); whether a discard is legal and whom it skips or sends down
(``check_discard``).  Each raises ``IllegalMove`` (with its stable ``rule``) or
answers; none builds a state.  With them the seat arithmetic they need (``next_seat``,
``seat_name``, ``seat_of``, ``without``: a hand less some cards).  Shared by
``actions`` (which applies a move) and ``legal`` (which lists them), below both.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..errors import LINE_WORTH, PhaseDSLError, clipped, listed, quoted
from ..melds.hits import no_hit_rule, remember_read
from ..melds.hits import plan as hit_plan
from ..melds.hits import targets as hit_targets
from ..melds.layout import read_group
from ..model.cards import WILD, Card
from ..model.meld import LaidGroup
from ..model.rules import Rules
from ..model.words import possessive, pronoun, subject
from . import moves as mv
from .state import GameState, Laid
from .table import wild_numbers


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


# --------------------------------------------------------------------------- seats and turns


def without(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The hand less these cards (wilds plain), or None if it does not hold them."""
    left = list(hand)
    for c in cards:
        try:
            left.remove(c.plain())
        except ValueError:
            return None
    return tuple(left)


def next_seat(state: GameState, i: int) -> int:
    """The next seat after ``i`` still playing this hand (``i`` itself if none is)."""
    n = len(state.seats)
    for k in range(1, n + 1):
        j = (i + k) % n
        if state.seats[j].playing:
            return j
    return i


def round_end_seat(state: GameState) -> int:
    """The seat whose turn ends a round of play: the dealer's or, when the dealer sits out
    a tie-break hand, that of the nearest player before them who plays (postal rules: no
    one goes out before play has come round to the dealer)."""
    n = len(state.seats)
    for k in range(n):
        j = (state.dealer - k) % n
        if state.seats[j].playing:
            return j
    return state.dealer


def seat_name(state: GameState, i: int) -> str:
    return state.seats[i].name


def not_a_state(where: str, state: object) -> PhaseDSLError:
    """The error for a ``state`` that is no GameState (a Game, say: its ``.state`` is)."""
    from ..errors import ArgumentError

    return ArgumentError(f"{where}(state=...)", "a GameState (a Game's .state)", state)


def seat_of(state: GameState, name: str) -> int:
    """The seat of the player a move names; IllegalMove for a name not at the table."""
    if not isinstance(name, str) or name not in state.table.players:
        raise IllegalMove("unknown_player", f"{quoted(str(name))} is not a player of this game "
                                            f"({listed(state.table.players)})")
    return state.table.index(name)


def check_turn(state: GameState, move) -> int:
    """The mover's seat, if it is their move now (a deal, the dealer's choice of the
    up-card and the declarations come first); IllegalMove otherwise."""
    if state.stage == "over":
        raise IllegalMove("game_over", "the game is over")
    if state.stage == "deal":
        raise IllegalMove("not_now", f"the hand has ended; the next event must be a deal (by "
                                     f"{seat_name(state, state.dealer)})")
    i = seat_of(state, move.player)
    if state.stage == "choose_up":
        raise IllegalMove("dealer_must_choose", f"the dealer ({state.to_move}) first says who "
                                                f"gets the turned-up {state.discard[-1]}")
    if state.stage == "declare" and not isinstance(move, mv.Declare):
        if state.table.board is not None:
            raise IllegalMove("must_choose", f"{state.to_move} first chooses the phase to "
                                             "attempt on their twist space (the twist card or "
                                             "a neighbouring space's)")
        raise IllegalMove("must_declare", f"{state.to_move} declares a phase first (phases are "
                                          "declared after the deal)")
    if i != state.turn:
        skipped = " (skipped)" if move.player in state.pending_skips else ""
        raise IllegalMove("not_your_turn", f"it is {possessive(seat_name(state, state.turn))} turn, not "
                                           f"{possessive(move.player, alone=True)}{skipped}")
    if state.step == "recipient_discard" and not isinstance(move, mv.Discard):
        raise IllegalMove("must_discard", f"{move.player} received the turned-up wild and "
                                          "discards a card before play starts")
    return i


def check_play_step(state: GameState, move) -> int:
    """As ``check_turn``, for a move made after the turn's draw."""
    i = check_turn(state, move)
    if state.step == "draw":
        raise IllegalMove("must_draw_first", f"{move.player} must draw a card (from the deck or "
                                             "the discard pile) before anything else")
    return i


# --------------------------------------------------------------------------- going out


def going_out_problem(state: GameState, left: int, by_play: bool, reuse: bool = False
                      ) -> tuple[str, str] | None:
    """Whether a move that leaves ``left`` cards in hand is allowed by the going-out rules.

    ``reuse``: the move plays a wild taken back this turn (``wild_reuse_same_turn``), which
    must go back on the table before the turn ends; where it is the last card, that hit
    ends the hand by play (it may not be discarded, so a discard cannot end it)."""
    house = state.table.house
    if by_play and left == 0 and not (house.floating or house.go_out_without_discard or reuse):
        return ("cannot_go_out_by_play", "a hand ends only with a discard: keep a card to "
                                         "discard (go_out_without_discard lets a player go out "
                                         "by playing every card; floating lets them float)")
    # Under floating, playing out every card is not going out.
    if house.go_out_after_first_round and not state.dealer_reached and (
            (left == 0 and not (by_play and house.floating))
            or (by_play and left == 1 and not house.floating)):
        last = round_end_seat(state)
        place = (f"dealer ({seat_name(state, state.dealer)})" if last == state.dealer else
                 f"dealer's place ({seat_name(state, last)}: the dealer, "
                 f"{seat_name(state, state.dealer)}, sits out this hand)")
        return ("cannot_go_out_yet", "nobody may go out before play has come round to the "
                                     f"{place}"
                + (" (one card left would have to be discarded)" if left == 1 else ""))
    return None


# --------------------------------------------------------------------------- where a card fits


def hit_rules(state: GameState) -> Rules:
    """The rules a card played onto a laid group is judged by."""
    rules = state.table.rules
    got = _HIT_RULES.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_HIT_RULES) > 256:
            _HIT_RULES.clear()
        got = _HIT_RULES[id(rules)] = (rules, _rules_for_hits(rules))
    return got[1]


# A table's rules -> (those rules, their hit rules), by identity: hashing a Rules (every
# field) costs more than a hit.  The entry holds the rules, so that the id is not reused
# while it lives; equal rules still share one hit Rules (``_rules_for_hits``).
_HIT_RULES: dict[int, tuple[Rules, Rules]] = {}


@lru_cache(maxsize=256)
def _rules_for_hits(rules: Rules) -> Rules:
    # Hits may make a group longer than the phase asked even where lays may not (extras).
    # A laid group is judged as it was read (``Laid.played``: every card that was played
    # as a wild is a wild there), so no number is wild for it; only the hitter's own wild
    # number (postal) may make the card hit a wild, and ``extend`` tries that itself.
    return rules.with_(extras=True, wild_numbers=frozenset())


def extend(state: GameState, hitter: int, owner: int, g: int, card: Card
            ) -> tuple[Laid | None, str]:
    """The group after ``card`` is played onto it, or (None, why not).  A card of the
    hitter's wild number (postal) that does not fit as itself is played as a wild (placed
    as a plain W would be); no one else's wild number counts, and the cards already laid
    keep their reading."""
    laid = state.seats[owner].laid[g]
    rules = hit_rules(state)
    new, front, why = _extended_once(laid.played, card, rules)
    acting = None
    if new is None and card.natural and card.number in wild_numbers(state, hitter):
        new, front, _ = _extended_once(laid.played, WILD, rules)
        acting = card
    if new is None:
        return None, why
    if acting is None and not laid.acting:
        return Laid(new), ""
    real = laid.real(1 if front else 0)
    if acting is not None:
        real[0 if front else len(new.cards) - 1] = acting
    return Laid.read(new, real), ""


# (group, card, rules) by the identities of the group and the rules -> (the group, the
# rules, what ``_extended`` answered): the entry holds both, so that no id is reused while
# it lives.  (Hashing a laid group and a Rules, every field, cost more than most answers.)
_EXTENDED: dict[tuple[int, Card, int], tuple[LaidGroup, Rules,
                                              tuple[LaidGroup | None, bool, str]]] = {}


def _extended_once(lg: LaidGroup, card: Card, rules: Rules
                   ) -> tuple[LaidGroup | None, bool, str]:
    """``_extended``, kept: the same card is asked of the same laid group again (the
    drawn card of a floating player, a listed hit judged and then made)."""
    key = (id(lg), card, id(rules))
    got = _EXTENDED.get(key)
    if got is None or got[0] is not lg or got[1] is not rules:
        if len(_EXTENDED) > 8192:
            _EXTENDED.clear()
        got = _EXTENDED[key] = (lg, rules, _extended(lg, card, rules))
    return got[2]


def _extended(lg: LaidGroup, card: Card, rules: Rules) -> tuple[LaidGroup | None, bool, str]:
    """Where ``card`` may go is ``hits.targets``' answer (a run's ends, what a wild stands
    for there); a wild that says what it stands for (``W=3``) takes the place that number
    is, and the group with the card in place is read again by ``layout.read_group``, so
    a stated color is checked too."""
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
            got = LaidGroup(lg.group, read)
            remember_read(got, rules)  # (its hits are asked next, under these rules)
            return got, h.end == "low", ""
    if not problems:
        _, problems = read_group(lg.group, (*lg.cards, card), rules)
    why = "; ".join(msg for _, msg in problems)
    rule = no_hit_rule(lg, rules)  # a group that takes no card: the rule first
    if rule is not None:
        return None, False, f"{rule}{f' ({why})' if why else ''}"
    return None, False, why or "it fits no open place of this group"


def hittable(state: GameState, i: int, card: Card) -> bool:
    """Whether seat ``i`` could play ``card`` onto any laid group now."""
    if card.anti:
        return False
    return any(extend(state, i, o, g, card)[0] is not None
               for o, s in enumerate(state.seats) for g in range(len(s.laid)))


def owed_wilds_fit(state: GameState, i: int) -> bool:
    """Whether seat ``i`` can still play every wild it owes (taken back this turn under
    ``wild_reuse_same_turn``).  Its own phase is down, so a taken wild can only be reused
    as a hit; hitting the last of them may end the hand by play (``going_out_problem``'s
    ``reuse``), where the going-out rules allow going out at all.  A take-back (or a hit)
    that fails this is refused, so the player always has a legal move."""
    owed = state.reuse_owed
    own_only = not state.table.house.hit_same_turn and state.laid_now
    groups = [lg.played for k, s in enumerate(state.seats) if not own_only or k == i
              for lg in s.laid]
    if not hit_plan(groups, [WILD] * owed, hit_rules(state)).complete:
        return False
    return going_out_problem(state, len(state.seats[i].hand) - owed, True, reuse=True) is None


# --------------------------------------------------------------------------- discards


def check_discard(state: GameState, move: mv.Discard) -> tuple[int, int, str | None]:
    """(seat, where in the hand the card discarded is, who is skipped) for a legal discard
    (who the anti-phase card sends down is ``move.down``, checked here); raise IllegalMove
    otherwise.  (The hand after it is built only for the discard made: ``hand_after``.)
    (Apart from the discard in ``actions`` so that ``legal_moves`` can test discards
    without building states.)"""
    return DiscardCheck(state, move).check(move)


class DiscardCheck:
    """``check_discard`` for many discards by one player in one state: what does not
    depend on the card (whose turn it is, what the going-out rules say of a hand one card
    smaller, whether a floating player must play the card drawn) is asked once, here;
    ``check`` asks the rest for each card.  ``legal_moves`` judges every card of a hand
    so, ``apply`` a single discard: the same checks, in the same order."""

    __slots__ = (
        "drawn",
        "emptied",
        "first",
        "going_out",
        "i",
        "left",
        "must_play",
        "plain",
        "player",
        "recipient",
        "state",
        "wild_as_skip",
    )

    def __init__(self, state: GameState, move: mv.Discard) -> None:
        # (the turn's checks read only the mover and that the move is a discard)
        self.state = state
        self.player = move.player
        self.i = i = check_play_step(state, move)
        seat = state.seats[i]
        # each card held: where its first copy is (the hand read backwards, so that the
        # first copy is the one written last)
        hand = seat.hand
        self.first: dict[Card, int] = dict(zip(reversed(hand), range(len(hand) - 1, -1, -1),
                                                strict=True))
        self.recipient = state.step == "recipient_discard"
        # floating: the card drawn, if it fits a laid group, must be played (whether it
        # fits is asked once, of that card only)
        self.drawn = state.drawn if seat.floating and not self.recipient else None
        self.must_play: bool | None = None
        self.going_out = going_out_problem(state, len(seat.hand) - 1, False)
        # (its first copy goes, as ``without`` takes it; only whether any card is left
        # matters to the checks)
        self.left = len(hand) > 1
        self.wild_as_skip = state.table.rules.wild_as_skip
        self.emptied = state.emptied is not None
        # a natural card discarded as itself (no skip named, no one sent down): held, it is
        # legal unless one of these says otherwise (most discards of a game)
        self.plain = not self.recipient and self.drawn is None and not self.going_out

    def check(self, move: mv.Discard) -> tuple[int, int, str | None]:
        state, i = self.state, self.i
        if move.player != self.player:
            return check_discard(state, move)
        c = move.card
        card = c.plain()
        k = self.first.get(card)
        if k is None:
            raise IllegalMove("not_in_hand", f"{subject(move.player, 'does')} not hold {card}")
        if move.pile != 1 or self.emptied:
            _check_pile(state, move)
        if self.plain and move.skip is None and move.down is None \
                and not (c.wild or c.skip or c.anti):
            return i, k, None  # (each check below passes such a discard)
        left = self.left
        if self.recipient:
            if card.skip:
                raise IllegalMove("skip_not_allowed", "the receiver of the turned-up wild "
                                                      "discards a card that is not a skip")
            if move.skip is not None:
                raise IllegalMove("not_a_skip", "this discard starts the pile; it skips nobody")
            _check_down(state, i, move, left)
            return i, k, None
        if self.drawn is not None and card == self.drawn:
            if self.must_play is None:
                self.must_play = hittable(state, i, card)
            if self.must_play:
                raise IllegalMove("must_play_drawn", f"{subject(move.player, 'is')} floating and must "
                                                     f"play the drawn {card}, which fits a "
                                                     "laid group")
        if state.reuse_owed and card.wild:
            raise IllegalMove("must_reuse_wild", "a wild taken from the table must be played "
                                                 "(laid or hit) this turn, not discarded")
        if self.going_out:
            raise IllegalMove(*self.going_out)
        acts_as_skip = c.skip or (c.wild and self.wild_as_skip and move.skip is not None)
        if move.skip is not None and not acts_as_skip:
            raise IllegalMove("not_a_skip", f"{card} is not a skip; it cannot skip "
                                            f"{quoted(str(move.skip))}")
        if card.anti or move.down is not None:
            _check_down(state, i, move, left)
        if move.skip is not None:
            # a going-out skip skips nobody (the hand ends), but it still names a player
            seat_of(state, move.skip)
        target = _skip_target(state, i, move) if acts_as_skip and left else None
        return i, k, target


def check_pile_number(state: GameState, k: int) -> None:
    """IllegalMove for a discard pile (from 1) the table does not have."""
    n = state.table.piles
    if not 1 <= k <= n:
        raise IllegalMove("no_such_pile", f"this pack has {n} discard pile{'s' * (n > 1)}; "
                                          f"there is no pile {k}")


def _check_pile(state: GameState, move: mv.Discard) -> None:
    """Where a discard goes: a pile the table has; the pile whose last card this turn's
    draw took, if any; no pile for a skip placed in front of a player."""
    if state.table.skips_in_front and (move.card.skip or move.skip is not None):
        if move.pile != 1:
            raise IllegalMove("skip_in_front", "a skip is placed in front of the player it "
                                               f"skips, not on a discard pile ({move.pile})")
        return
    check_pile_number(state, move.pile)
    if state.emptied is not None and move.pile != state.emptied:
        raise IllegalMove("must_discard_on_emptied",
                          f"{move.player} took the last card of discard pile {state.emptied} "
                          f"and discards onto it, not onto pile {move.pile}")


def hand_after(hand: tuple[Card, ...], k: int) -> tuple[Card, ...]:
    """The hand less its card at ``k`` (what a discard ``check_discard`` passed leaves)."""
    return hand[:k] + hand[k + 1:]


def _check_down(state: GameState, i: int, move: mv.Discard, left: bool) -> None:
    """The anti-phase card names a player only as the discarder's last card (going out);
    discarded earlier it goes face down, names nobody, and the next player may take it."""
    if not move.card.anti:
        if move.down is not None:
            raise IllegalMove("not_anti_phase", f"only the anti-phase card (A) sends a player "
                                                f"down; {move.card} cannot name "
                                                f"{quoted(str(move.down))}")
        return
    if left:
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
    seat_of(state, move.down)
    if move.down not in others:
        why = "themselves" if move.down == move.player else "a player who is not playing"
        raise IllegalMove("anti_phase_target", f"the anti-phase card sends another player "
                                               f"down, not {why} ({move.down})")


def _skip_target(state: GameState, i: int, move: mv.Discard) -> str | None:
    house = state.table.house
    nxt = seat_name(state, next_seat(state, i))
    if house.skip_target == "next_player":
        if move.skip is not None and move.skip != nxt:
            raise IllegalMove("skip_target", f"under this pack a skip always skips the next "
                                             f"player ({nxt}), not {move.skip}")
        target = nxt
    else:
        others = [s.name for k, s in enumerate(state.seats) if k != i and s.playing]
        once = house.skip_once_per_round or state.table.skips_in_front
        free = [p for p in others if not (once and p in state.pending_skips)]
        if move.skip is None:
            if free:
                raise IllegalMove("skip_target", f"a discarded skip names the player it skips "
                                                 f"(one of {', '.join(free)})")
            return None
        if move.skip == move.player:
            raise IllegalMove("skip_target", f"{move.player} cannot skip "
                                               f"{pronoun(move.player, 'themselves')}")
        seat_of(state, move.skip)
        if move.skip not in others:
            raise IllegalMove("skip_target", f"{subject(move.skip, 'is')} not playing this hand")
        target = move.skip
    if state.table.skips_in_front and target in state.pending_skips:
        raise IllegalMove("skip_in_front", f"{subject(target, 'already has')} a skip in front of "
                                           f"{pronoun(target, 'them')}; "
                                           "a player has at most one at a time")
    if house.skip_once_per_round and target in state.pending_skips:
        raise IllegalMove("skip_twice_in_round", f"{subject(target, 'is')} already to lose "
                                                 f"{pronoun(target, 'their')} next turn; "
                                                 "nobody is skipped twice in one round")
    return target
