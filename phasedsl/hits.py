"""Hits: which laid groups take a card, and where.

A laid group is read once into a small state (a run's ends, a set's number,
a color, a parity); a hit is legal when the card extends that state.  Runs
never go below or above the deck's numbers; a wild on a run takes the high
end unless the run already ends at the top (``Rules.wild_hit_end`` flips
that preference).  Several cards at once are placed by a search over play
orders, so a 3 then a 2 onto a run 4-7 both land.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .cards import Card
from .errors import LayoutError
from .layout import read_group
from .meld import LaidGroup
from .phase import Kind
from .rules import DEFAULT_RULES, Rules


@dataclass(frozen=True, slots=True)
class Hit:
    """One card played onto one group: ``end`` is "low"/"high" on a run, else None.

    ``swap`` names the wild a natural replaces (Utah rules); the wild then moves
    to ``end`` of the same run.
    """

    card: Card
    group: int  # 0-based index into the laid groups
    end: str | None = None
    swap: Card | None = None

    def __str__(self) -> str:
        where = f"group {self.group + 1}"
        if self.swap is not None:
            return f"{self.card} swaps for {self.swap} in {where}; the wild moves to the {self.end} end"
        return f"{self.card} onto {where}" + (f" at the {self.end} end" if self.end else "")

    def to_json(self) -> dict:
        out: dict = {"card": str(self.card), "group": self.group + 1, "end": self.end}
        if self.swap is not None:
            out["swap"] = str(self.swap)
        return out


@dataclass(frozen=True, slots=True)
class HitPlan:
    """Hits for several cards, in an order that works; ``left`` could not be placed."""

    hits: tuple[Hit, ...]
    left: tuple[Card, ...]

    @property
    def complete(self) -> bool:
        return not self.left


# State of a laid group: (kind, low, high, number, color, parity, allowed-colors map)
@dataclass(frozen=True, slots=True)
class _State:
    kind: Kind
    low: int | None = None
    high: int | None = None
    number: int | None = None
    color: str | None = None
    parity: int | None = None
    colors: tuple | None = None
    wilds: tuple = ()  # (position number, wild card) of wilds in a run, for swaps


def _state(lg: LaidGroup, index: int, rules: Rules) -> _State:
    cards, problems = read_group(lg.group, lg.cards, rules)
    if problems or cards is None:
        why = "; ".join(msg for _, msg in problems)
        raise LayoutError(f"laid group {index + 1} ({lg.group.describe()}) is not legal: {why}")
    k = lg.group.kind
    if rules.runs_one_color and k is Kind.RUN:
        k = Kind.COLOR_RUN
    nums = [c.number for c in cards if c.number is not None]
    cols = {c.color for c in cards if c.color is not None}
    color = cols.pop() if k.one_color and len(cols) == 1 else None
    if k.is_run:
        wilds = tuple((c.number, c) for c in cards if c.wild)
        return _State(k, cards[0].number, cards[-1].number, color=color,
                      colors=lg.group.colors, wilds=wilds)
    if k.is_set:
        return _State(k, number=nums[0] if nums else None, color=color)
    if k in (Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD):
        return _State(k, parity=nums[0] % 2 if nums else None, color=color)
    return _State(k, color=color)


def _fits_color(state: _State, card: Card, number: int) -> bool:
    if state.color is not None and card.color is not None and card.color != state.color:
        return False
    if state.colors is not None:
        allowed = dict(state.colors).get(number)
        if not allowed or (card.color is not None and card.color not in allowed):
            return False
    return True


def _moves(state: _State, card: Card, rules: Rules) -> list[tuple[str | None, _State, Card | None]]:
    """Legal placements of ``card`` on a group: (end, new state, swapped wild)."""
    k = state.kind
    wild = card.wild or (card.natural and card.number in rules.wild_numbers)
    if card.skip:
        return [(None, state, None)] if k is Kind.SKIP else []
    if k is Kind.SKIP:
        return [(None, state, None)] if card.wild and rules.wild_as_skip else []
    if k is Kind.WILD:
        return [(None, state, None)] if card.wild else []
    if k.is_run:
        return _run_moves(state, card, wild, rules)
    if wild:
        return [(None, state, None)]
    if k.is_set and state.number is not None and card.number != state.number:
        return []
    if k.one_color and state.color is not None and card.color != state.color:
        return []
    if state.parity is not None and card.number % 2 != state.parity:
        return []
    return [(None, state, None)]


def _run_moves(state: _State, card: Card, wild: bool, rules: Rules):
    deck = rules.deck
    lo, hi = state.low, state.high
    cmap = dict(state.colors) if state.colors is not None else None
    open_low = lo > deck.low and (cmap is None or bool(cmap.get(lo - 1)))
    open_high = hi < deck.high and (cmap is None or bool(cmap.get(hi + 1)))
    out: list[tuple[str | None, _State, Card | None]] = []
    if card.natural:
        if card.number == lo - 1 and open_low and _fits_color(state, card, lo - 1):
            out.append(("low", _replace(state, low=lo - 1), None))
        if card.number == hi + 1 and open_high and _fits_color(state, card, hi + 1):
            out.append(("high", _replace(state, high=hi + 1), None))
        if rules.wild_swap and (open_low or open_high):
            for num, w in state.wilds:
                if num == card.number and _fits_color(state, card, num) and (
                        w.color is None or w.color == card.color):
                    high = open_high and (rules.wild_hit_end == "high" or not open_low)
                    rest = tuple(x for x in state.wilds if x != (num, w))
                    moved = {"high": hi + 1} if high else {"low": lo - 1}
                    out.append(("high" if high else "low", _replace(state, wilds=rest, **moved), w))
                    break
    if wild:
        # A wild takes the preferred end, the other only when that one is closed.
        prefer = ("high", "low") if rules.wild_hit_end == "high" else ("low", "high")
        for end in prefer:
            if end == "high" and open_high:
                new = ("high", _replace(state, high=hi + 1), None)
                break
            if end == "low" and open_low:
                new = ("low", _replace(state, low=lo - 1), None)
                break
        else:
            return out
        if all(m[0] != new[0] for m in out):
            out.append(new)
    return out


def _replace(state: _State, **kw) -> _State:
    from dataclasses import replace

    return replace(state, **kw)


def targets(laid: Sequence[LaidGroup], card: Card, rules: Rules = DEFAULT_RULES) -> list[Hit]:
    """Every legal single hit of ``card`` onto the laid groups."""
    states = [_state(lg, i, rules) for i, lg in enumerate(laid)]
    card = card.plain()
    return [Hit(card, i, end, swap) for i, st in enumerate(states)
            for end, _, swap in _moves(st, card, rules)]


# Play orders explored before settling for a greedy order (only hostile inputs get there).
SEARCH_BUDGET = 2_000


def _greedy_order(states: tuple[_State, ...], left: tuple[Card, ...], rules: Rules):
    """Play any card that fits, again and again: valid, not always the most cards."""
    hits: list[Hit] = []
    rest = list(left)
    progress = True
    while progress:
        progress = False
        for card in list(rest):
            for gi, st in enumerate(states):
                moves = _moves(st, card, rules)
                if moves:
                    end, new, swap = moves[0]
                    states = (*states[:gi], new, *states[gi + 1:])
                    hits.append(Hit(card, gi, end, swap))
                    rest.remove(card)
                    progress = True
                    break
    return len(hits), tuple(hits)


def plan(laid: Sequence[LaidGroup], cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> HitPlan:
    """Place as many of ``cards`` as possible onto the laid groups, in a working order."""
    states = tuple(_state(lg, i, rules) for i, lg in enumerate(laid))
    if len(cards) > 200:
        raise LayoutError(f"too many cards to hit at once ({len(cards)}; the limit is 200)")
    # A card that fits a group whose state never changes (anything but a run)
    # can go there at once; only run extensions depend on the order of play.
    early: list[Hit] = []
    hand_list = []
    for c in (c.plain() for c in cards):
        for gi, st in enumerate(states):
            if not st.kind.is_run and _moves(st, c, rules):
                early.append(Hit(c, gi))
                break
        else:
            hand_list.append(c)
    hand = tuple(sorted(hand_list, key=str))

    budget = [SEARCH_BUDGET]

    @cache
    def best(states: tuple[_State, ...], left: tuple[Card, ...]) -> tuple[int, tuple]:
        """(cards placed, hits) for the best play order from here."""
        budget[0] -= 1
        if budget[0] < 0:
            return _greedy_order(states, left, rules)
        top: tuple[int, tuple] = (0, ())
        tried = set()
        for i, card in enumerate(left):
            if card in tried:
                continue
            tried.add(card)
            rest = left[:i] + left[i + 1:]
            for gi, st in enumerate(states):
                for end, new, swap in _moves(st, card, rules):
                    nxt = (*states[:gi], new, *states[gi + 1:])
                    got, hits = best(nxt, rest)
                    if got + 1 > top[0]:
                        top = (got + 1, (Hit(card, gi, end, swap), *hits))
                        if top[0] == len(left):
                            return top
        return top

    _, hits = best(states, hand)
    left = list(hand)
    for h in hits:
        left.remove(h.card)
    return HitPlan((*early, *hits), tuple(left))
