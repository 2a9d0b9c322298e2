"""Hits: which laid groups take a card now, and where (``targets``), each a ``Hit``.

Runs never go below or above the deck's numbers (under ``Rules.runs_wrap`` an end runs on
from the top number to the bottom: 12 then 1).  An over or under group takes a card past
its bound (or a wild); a run of pairs takes no single card (one card cannot add a number's
two, and a laid group stays legal).  A skip hits a skip part, and under
``Rules.skip_counts_as_blue`` a color group that is blue (or of wilds alone: the skip
makes it blue).  A wild hit on a run open at
both ends may go at either end, standing for the number there (in the printed
game the player says what a laid wild is); ``Rules.wild_hit_end`` only says
which end is listed, and preferred, first.  Under ``Rules.wild_swap`` (Utah) a
natural may replace a laid wild that moves to an end; under
``Rules.wild_take_back`` (the Japanese page) the wild goes to the hand instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...model.cards import WILD, Card
from ...model.coerce import as_card, as_rules, not_cards
from ...model.group import Kind
from ...model.meld import LaidGroup
from ...model.rules import DEFAULT_RULES, Rules
from ...model.skipblue import blue_of
from .laid import State, as_laid, state_of


@dataclass(frozen=True, slots=True)
class Hit:
    """One card played onto one group: ``end`` is "low"/"high" on a run, else None.

    ``stands`` is the number a card played as a wild stands for (None for a
    natural played as itself, or where the number is open).  ``swap`` names the
    laid wild a natural replaces (Utah rules); that wild then moves to ``end``
    of the same run, standing for ``stands``.  A swap with no ``end`` is the
    Japanese page's take-back (``Rules.wild_take_back``): the natural takes the
    wild's place and the wild goes to the player's hand.
    """

    card: Card
    index: int  # where the group is in the laid groups given: laid[index] (from 0)
    end: str | None = None
    swap: Card | None = None
    stands: int | None = None

    @property
    def group(self) -> int:
        """The group's number, counted from 1 as the text, the JSON and game logs count."""
        return self.index + 1

    def __str__(self) -> str:
        return hit_words(str(self.card), self.group, self.end,
                      None if self.swap is None else str(self.swap), self.stands,
                      self.card.natural)

    def to_json(self) -> dict:
        out: dict = {"card": str(self.card), "group": self.group, "end": self.end}
        if self.stands is not None:
            out["stands"] = self.stands
        if self.swap is not None:
            out["swap"] = str(self.swap)
            if self.end is None:
                out["wild_to_hand"] = True
        return out


def hit_words(card: str, group: int, end: str | None, swap: str | None, stands: int | None,
           natural: bool) -> str:
    """A hit in words (shared by Hit and the JSON-to-text helper in api.py)."""
    if swap is not None and end is None:
        return f"{card} replaces {swap} in group {group}; the wild goes to your hand"
    if swap is not None:
        return (f"{card} swaps for {swap} in group {group}; the wild moves to the {end} end"
                f" (as {stands})")
    where = f"{card} onto group {group}" + (f" at the {end} end" if end else "")
    if stands is None:
        return where
    return where + (f" (as a wild {stands})" if natural else f" (as {stands})")


def acts_wild(card: Card, rules: Rules) -> bool:
    return card.wild or (card.natural and card.number in rules.wild_numbers)


def options(st: State, card: Card) -> list[tuple[str | None, Card | None, int | None]]:
    """Where ``card`` (as in a hand) goes on this group now: (end, swapped wild, stands)."""
    rules = st.rules
    k = st.kind
    if k.is_sum:
        return []  # a laid sum is complete: any card would change its total (see closed_groups)
    if card.skip:
        # skip_counts_as_blue: a skip also joins a color group that is blue, or one of wilds
        # alone, which it makes blue (as layout.read_group reads it)
        blue = blue_of(rules) if k is Kind.COLOR else None
        if k is Kind.SKIP or (blue is not None and st.color in (None, blue)):
            return [(None, None, None)]
        return []
    wildish = acts_wild(card, rules)
    if k is Kind.SKIP:
        return [(None, None, None)] if wildish and rules.wild_as_skip else []
    if k is Kind.WILD:
        return [(None, None, None)] if wildish else []
    if k.is_pair_run:
        # one card cannot add a number's two to a run of pairs, and a group laid stays
        # legal: a run of pairs takes no hit (only a natural taking a laid wild back)
        return _take_back(st, card)
    if not k.is_run:
        if card.natural and st.takes(card):
            return [(None, None, None), *_take_back(st, card)]
        return [(None, None, st.number)] if wildish else []
    out: list[tuple[str | None, Card | None, int | None]] = []
    for end in st.ends:
        n = st.slot(end, st.low, st.high)
        if n is None:
            continue
        if card.natural and card.number == n and st.color_ok(st.color, card.color, n):
            out.append((end, None, None))
        elif wildish:
            out.append((end, None, n))
    if rules.wild_swap and card.natural:
        for w in st.swaps:
            # (a card of a wild number may stand in for the wild as a wild itself)
            if w.number == card.number and w.color in (None, card.color) \
                    and (st.color_ok(st.color, card.color, w.number) or wildish):
                for end in st.ends:
                    n = st.slot(end, st.low, st.high)
                    if n is not None:
                        out.append((end, w, n))
                break
    return out + _take_back(st, card)


def closed_groups(laid: Sequence[LaidGroup], rules: Rules = DEFAULT_RULES
                  ) -> list[tuple[int, str]]:
    """The laid groups that take no card, each (index, the rule that refuses it): see
    ``no_hit_rule``."""
    out = []
    for i, lg in enumerate(laid):
        why = no_hit_rule(lg, rules, i)
        if why is not None:
            out.append((i, why))
    return out


def closed_words(group: int, why: str) -> str:
    """A group that takes no card, in words (shared by HitPlan and the CLI's text)."""
    return f"group {group} takes no hits: {why}"


def no_hit_rule(lg: LaidGroup, rules: Rules = DEFAULT_RULES, index: int = 0) -> str | None:
    """Why ``lg`` takes no card at all, naming the rule, or None where some card may fit:
    a sum (its total; no rule option lets a sum take a hit), a run of pairs (one card
    cannot add a number's two), a run with no open end.  A card that fits only by taking
    back or swapping a laid wild is said beside the rule."""
    k = lg.group.kind
    deck = rules.deck
    if k.is_sum:
        return (f"{lg.group.describe(deck).removeprefix('1 ')} is complete, and any card would "
                "change its total")
    wilds_laid = any(c.wild for c in lg.cards)
    if k.is_pair_run:
        why = ("a run of pairs grows only by two cards of one number, and a hit adds one "
               "card (a laid group stays legal)")
        if rules.wild_take_back and wilds_laid:
            why += "; a natural may only take back a laid wild (wilds.take_back)"
        return why
    if k.is_run:
        st = state_of(lg, index, rules)
        if any(st.slot(end, st.low, st.high) is not None for end in st.ends):
            return None
        if st.high - st.low + 1 >= deck.high - deck.low + 1:
            why = f"the run holds every number from {deck.low} to {deck.high}: no end is open"
        else:
            why = "the run's color map allows no number past either end"
        if wilds_laid and (rules.wild_swap or rules.wild_take_back):
            rule = "wilds.swap" if rules.wild_swap else "wilds.take_back"
            why += f"; a natural may only replace a laid wild ({rule})"
        return why
    return None


def _take_back(st: State, card: Card) -> list[tuple[str | None, Card | None, int | None]]:
    """The Japanese page's take-back: ``card`` (a natural) replaces a laid wild that stands
    for it (in a run, the wild at its number; elsewhere, each wild laid as something the
    card is, once per way it was laid: which one goes may matter to later hits), and the
    wild goes to the hand.  A card of a wild number acting as a wild is a natural laid,
    not a wild to take back."""
    if not (st.rules.wild_take_back and card.natural):
        return []
    out: list[tuple[str | None, Card | None, int | None]] = []
    for w in dict.fromkeys(st.swaps):
        if st.kind.is_run or st.kind.is_pair_run:
            if (w.number == card.number and w.color in (None, card.color)
                    and st.color_ok(st.color, card.color, w.number)):
                return [(None, w, None)]
        elif w.number in (None, card.number) and w.color in (None, card.color):
            out.append((None, w, None))
    return out


def targets(laid: Sequence[LaidGroup | str] | str, card: Card | str, rules: Rules = DEFAULT_RULES
            ) -> list[Hit]:
    """Every legal single hit of ``card`` onto the laid groups (a wild: each open end).
    ``card`` may be a card string, ``laid`` hold ``'KIND: CARDS'`` strings."""
    # The hot path of a hit checker: answers are kept per group state, per card
    # (as a plain tuple: hashing it is cheaper than hashing a Card), per index.
    out: list[Hit] = []
    try:  # (free until an argument is not of its type: then it is read, or refused, below)
        if card.wild:
            card = WILD
        key = (card.number, card.color, card.wild, card.skip)
        rid = id(rules)
        for i, lg in enumerate(laid):
            memo = lg._memo
            got = memo.get(rid) if memo is not None else None
            st = got[1] if got is not None else state_of(lg, i, rules)
            per_index = st.memo.get(key)
            if per_index is None:
                if len(st.memo) > 512:
                    st.memo.clear()
                per_index = st.memo[key] = {}
            hits = per_index.get(i)
            if hits is None:
                if card.natural and not rules.deck.supply(card):
                    # (a Card made in Python: Z5 took a place in a set of 5s)
                    raise not_cards(card, card, rules.deck)
                hits = per_index[i] = tuple(Hit(card, i, end, swap, stands)
                                            for end, swap, stands in options(st, card))
            out += hits
    except (AttributeError, TypeError):
        args = _hit_args("hit_targets", laid, card, rules)  # an ArgumentError if not of use
        if (type(laid) not in (list, tuple) or args[1] is not card or args[2] is not rules
                or any(a is not b for a, b in zip(args[0], laid, strict=True))):
            return targets(*args)
        raise  # every argument was of its type: the fault is not the caller's
    return out


def _hit_args(where: str, laid: object, card: object, rules: object
              ) -> tuple[list[LaidGroup], Card, Rules]:
    """(laid, card, rules) of ``targets``, each as its type."""
    rules = as_rules(rules, where)
    return as_laid(laid, rules, where), as_card(card, rules.deck, where), rules
