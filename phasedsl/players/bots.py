"""Bots: players that pick one legal move from what they can see.

A bot is anything with ``choose(view) -> Move`` (the ``Bot`` protocol): it gets a
``PlayerView`` (its own hand, the discard pile, the laid groups, the other hands'
sizes, the pack's rules) and returns one of ``view.moves``.  It never sees another
hand or the order of the draw pile, so a bot cannot cheat.

``BOTS`` maps a name to a factory taking a seed: ``BOTS["greedy"](seed=7)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..errors import PhaseDSLError
from ..game import moves as mv
from ..game.table import phase_rules
from ..game.view import PlayerView
from ..melds.hits import targets
from ..melds.scoring import card_points
from ..model.cards import SKIP, WILD, Card, Deck
from ..model.meld import LaidGroup
from ..model.phase import Phase
from ..model.rules import Rules
from ..solver import cards_short, left_out, made_within_budget, shortfall
from .strong import StrongBot
from .turnplan import discard_pile, dispatch, phase_to_play


class Bot(Protocol):
    def choose(self, view: PlayerView) -> mv.Move:
        """One of ``view.moves``."""
        ...


class RandomBot:
    """A uniformly random legal move: the baseline any strategy should beat."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> mv.Move:
        return self.rng.choice(view.moves)


def _closest_to_winning(view: PlayerView, names: Sequence[str]) -> str:
    """The player with the most phases done, then the lowest score, then seat order."""
    rank = {o.name: (-len(o.done), o.total, k) for k, o in enumerate(view.players)}
    return min(names, key=rank.__getitem__)


class GreedyBot:
    """Plays for its phase one turn at a time.

    Draws the top discard when it lowers how many cards the phase is short (the
    solver's ``shortfall``), or once its phase is down when the card can be hit;
    lays its phase as soon as it can (the highest-numbered one where it may pick);
    hits every card that fits; discards a card whose loss leaves the phase no
    further away, the highest in points first (a wild last: it can always stand in
    for the next missing card); a skip goes to the player closest to winning.
    """

    def __init__(self, seed: int = 0) -> None:
        # Deterministic: the seed is taken only so that every bot is made the same way.
        # (phase, the hand's sorted ranks) -> (cards short, an example of them), for this
        # hand only
        # (the example None: counted alone, see _missing)
        self._short: dict[tuple, tuple[int, tuple[Card, ...] | None]] = {}
        # (phase, hand size) of every hand kept there as at most one card short: a hand
        # of one more card needs looking up one card smaller only if some such is kept
        self._near: set[tuple[int, int]] = set()
        self._hand_no = -1
        # phase_rules of self._table, by phase number (a table's phases never change)
        self._table: object = None
        self._phases: dict[int, tuple[Phase, Rules]] = {}

    # ------------------------------------------------------------------ helpers

    def _phase(self, view: PlayerView, number: int) -> tuple[Phase, Rules]:
        """``phase_rules`` of the view's table, kept per phase number for the table."""
        table = view.table
        if table is not self._table:
            self._table = table
            self._phases = {}
        got = self._phases.get(number)
        if got is None:
            got = self._phases[number] = phase_rules(table, number)
        return got

    def _shortfall(self, view: PlayerView, number: int, hand: Sequence[Card]
                   ) -> tuple[int, tuple[Card, ...]]:
        """Cards short of phase ``number`` and an example of them (cached for the hand).

        A hand one card larger than one already known (the hand after a draw) is
        answered from the smaller one where that settles it: a hand within a card
        of the phase either makes it (``find``) or keeps the same example.  The
        full ``shortfall`` (which also lists the outs) is worked out only otherwise."""
        hand = _playable(hand)
        return self._shortfall_of(view, number, hand, _ranks(hand, view.table.deck))

    def _shortfall_of(self, view: PlayerView, number: int, hand: list[Card],
                      ranks: tuple[int, ...]) -> tuple[int, tuple[Card, ...]]:
        """``_shortfall`` of a playable hand whose ranks are known."""
        key = (number, ranks)
        found = self._short.get(key)
        if found is not None:
            if found[1] is not None:
                return found
            # counted alone (``_missing``): the full answer it stood for, worked out now
            found = self._short[key] = self._full(view, number, hand)
            return found
        return self._work_out(view, number, hand, key)

    def _full(self, view: PlayerView, number: int, hand: list[Card]
              ) -> tuple[int, tuple[Card, ...]]:
        """The solver's ``shortfall``: cards short and an example.  Undecided (the search
        stopped at its budget): not made for a bot, which lays only a meld the solver finds.
        Without the outs of a hand one short: the bot reads only the count and the example
        (the fill's; with the outs it may have been one of them instead), and the outs were
        a quarter of a game of ``generate``'s colour-and-number packs, which have no closed
        form."""
        phase, rules = self._phase(view, number)
        s = shortfall(phase, hand, rules, outs=False)
        return (s.missing if s.decided else 1, s.example)

    def _work_out(self, view: PlayerView, number: int, hand: list[Card], key: tuple
                  ) -> tuple[int, tuple[Card, ...]]:
        ranks = key[1]
        phase, rules = self._phase(view, number)
        found = None
        for k in range(len(ranks) if (number, len(ranks) - 1) in self._near else 0):
            if k and ranks[k] == ranks[k - 1]:
                continue
            smaller = self._short.get((number, ranks[:k] + ranks[k + 1:]))
            if smaller is not None and smaller[0] <= 1:
                made = smaller[0] == 0 or made_within_budget(phase, hand, rules)
                found = (0, ()) if made else smaller
                break
        if found is None:
            found = self._full(view, number, hand)
        self._keep(key, found)
        return found

    def _keep(self, key: tuple, found: tuple[int, tuple[Card, ...]]) -> None:
        self._short[key] = found
        if found[0] <= 1:
            self._near.add((key[0], len(key[1])))

    def _missing(self, view: PlayerView, number: int, hand: Sequence[Card]) -> int:
        """``_shortfall``'s count.  Where that would work out the full ``shortfall`` (no
        smaller hand within a card of the phase is kept) and the counts alone say the hand
        is two or more short (``cards_short``), the count is kept without the example: the
        full answer is worked out if ``_shortfall`` asks for it, the same then as now (a
        hand two or more short leaves ``_near`` as it is; most such hands, a card the bot
        may draw, are never asked again)."""
        hand = _playable(hand)
        return self._missing_of(view, number, hand, _ranks(hand, view.table.deck))

    def _missing_of(self, view: PlayerView, number: int, hand: list[Card],
                    ranks: tuple[int, ...]) -> int:
        """``_missing`` of a playable hand whose ranks are known."""
        key = (number, ranks)
        found = self._short.get(key)
        if found is not None:
            return found[0]
        if (number, len(ranks) - 1) not in self._near:
            phase, rules = self._phase(view, number)
            k = cards_short(phase, hand, rules)
            if k is not None and k >= 2:
                self._short[key] = (k, None)
                return k
        return self._work_out(view, number, hand, key)[0]

    def _target(self, view: PlayerView) -> int | None:
        """The phase to play for (``turnplan.phase_to_play``)."""
        if view.phase is not None:  # (its answer then, with no closure made for it)
            return view.phase
        return phase_to_play(view, lambda n: self._missing(view, n, view.hand))

    # ------------------------------------------------------------------ choose

    def choose(self, view: PlayerView) -> mv.Move:
        moves = view.moves
        if len(moves) == 1:
            return moves[0]
        if view.hands_played != self._hand_no:  # a new hand: the cache is of no more use
            self._short.clear()
            self._near.clear()
            self._hand_no = view.hands_played
        return dispatch(view, give=self._give, declare=self._declare, draw=self._draw,
                        hit=self._hit, discard=self._discard,
                        short=lambda n: self._missing(view, n, view.hand))

    def _declare(self, view: PlayerView, moves) -> mv.Move:
        return min(moves, key=lambda m: (self._missing(view, m.phase, view.hand), -m.phase))

    def _give(self, view: PlayerView, moves) -> mv.Move:
        """Dealer's choice: a turned-up wild to oneself, a turned-up skip to the leader."""
        names = [m.to for m in moves]
        if view.discard and view.discard[-1].wild and view.me in names:
            pick = view.me
        else:
            pick = _closest_to_winning(view, [n for n in names if n != view.me] or names)
        return next(m for m in moves if m.to == pick)

    def _draw(self, view: PlayerView, moves) -> mv.Move:
        deck = next((m for m in moves if m.source == "deck"), moves[0])
        offers = [(view.pile_top(m) if m.source == "discard" else m.card, m)
                  for m in moves if m.source in ("discard", "save")]
        offers = [(c, m) for c, m in offers if not c.anti]  # the anti-phase card: a liability
        if not offers:
            return deck
        if view.laid:  # phase down: a card is worth taking if it can be hit
            rules = self._phase(view, view.phase)[1] if view.phase is not None else view.table.rules
            groups = [g for o in view.players for g in o.laid]
            for card, m in offers:
                if _fits_any(groups, card, rules):
                    return m
            return deck
        target = self._target(view)
        if target is None:
            return deck
        hand = _playable(view.hand)
        cards = view.table.deck
        ranks = _ranks(hand, cards)
        now = self._missing_of(view, target, hand, ranks)
        best, pick = now, deck
        for card, m in offers:  # (each playable: the hand's ranks and the card's, sorted)
            short = self._missing_of(view, target, [*hand, card],
                                     tuple(sorted((*ranks, _rank(card, cards)))))
            if short < best:
                best, pick = short, m
        return pick

    def _hit(self, view: PlayerView, moves) -> mv.Move | None:
        """A hit (naturals before wilds), or a Utah swap, which also sheds a card (the wild
        moves to the run's end).  A take-back, which puts the wild in the hand, is never
        made: it sheds nothing."""
        rules = view.table.rules
        utah = rules.wild_swap and not rules.wild_take_back
        best = None
        hit, swap = mv.Hit, mv.Swap
        for m in moves:
            if isinstance(m, hit):
                if not m.card.wild:
                    return m
                best = best or m
            elif utah and best is None and isinstance(m, swap):
                best = m
        return best

    def _discard(self, view: PlayerView, moves) -> mv.Move:
        discards = [m for m in moves if isinstance(m, mv.Discard)]
        if not discards:  # e.g. only a save is left
            return moves[0]
        by_card: dict[Card, list[mv.Discard]] = {}  # each card offered: its discards, in order
        for m in discards:
            by_card.setdefault(m.card, []).append(m)
        card = self._card_to_lose(view, list(by_card))
        options = by_card[card]
        # a skip, or the anti-phase card as the last card, names a player: the leader
        aimed = [m for m in options if (m.skip or m.down) is not None]
        if aimed:
            who = _closest_to_winning(view, [m.skip or m.down for m in aimed])
            return next(m for m in aimed if (m.skip or m.down) == who)
        if card.wild:  # a wild kept for later beats a wild given away
            saves = [m for m in moves if isinstance(m, mv.Save) and m.card == card]
            if saves:
                return saves[0]
        return discard_pile(view, options, lambda top: 0.0)

    def _card_to_lose(self, view: PlayerView, offered: list[Card]) -> Card:
        scoring = view.table.rules.scoring

        def worth(c: Card) -> tuple:
            # The anti-phase card first (held at the hand's end it sends its holder
            # down), a wild last.
            return (not c.wild, c.anti, 0 if c.anti else card_points(c, scoring))

        target = None if view.laid else self._target(view)
        if target is None:
            return max(offered, key=worth)
        deck = view.table.deck
        hand = _playable(view.hand)
        ranks = _ranks(hand, deck)
        short = self._shortfall_of(view, target, hand, ranks)
        free = self._free_cards(view, target, hand, short[1])
        pool = [c for c in offered if c.anti or c in free]
        if pool:
            pick = max(pool, key=worth)
            # what is left is as short as the whole hand: known for the next draw (the
            # hand's ranks less the card's: the ranks of the hand less the card)
            if not pick.anti:
                i = ranks.index(_rank(pick, deck))
                ranks = ranks[:i] + ranks[i + 1:]
            self._keep((target, ranks), short)
            return pick
        # Every card is in use (a short hand): try each loss.
        hand = list(view.hand)

        def loss(c: Card) -> tuple:
            rest = list(hand)
            _drop(rest, c)
            return (-self._missing(view, target, rest), *worth(c))

        return max(offered, key=loss)

    def _free_cards(self, view: PlayerView, target: int, hand: list[Card],
                    example: tuple[Card, ...]) -> set[Card]:
        """Cards whose loss keeps the hand (its playable cards) as close to ``target``:
        those that the phase does not use once the solver's example cards (of the hand's
        shortfall) are added to the hand (more of them held, examples and all, than the
        meld lays; the anti-phase card, never laid, too).  Only the offered cards are
        asked about, each a held one (a discard's)."""
        phase, rules = self._phase(view, target)
        return left_out(phase, [*hand, *example], rules) or set()


def _fits_any(groups: list[LaidGroup], card: Card, rules: Rules) -> bool:
    """Whether the card can be hit on one of the groups (one look-up for them all)."""
    try:
        return bool(targets(groups, card, rules))
    except PhaseDSLError:  # some group laid under other wild numbers: each group alone
        return any(_fits(g, card, rules) for g in groups)


def _fits(group: LaidGroup, card: Card, rules: Rules) -> bool:
    # (targets keeps each group's reading and answers on the group: no cache needed here,
    # where hashing the group, the card and the rules cost more than the answer)
    try:
        return bool(targets([group], card, rules))
    except PhaseDSLError:  # laid under other wild numbers (postal): the referee decides
        return False


def _playable(hand: Sequence[Card]) -> list[Card]:
    """The cards that can be part of a phase (not the anti-phase rule card)."""
    return [c for c in hand if not c.anti]


def _drop(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)`` where it is that very object (a discard's card is the hand's):
    only the bot's multiset of the cards is read after, and an equal card removed leaves
    the same one; comparing cards (in Python) before reaching it cost more."""
    for i, c in enumerate(cards):
        if c is card:
            del cards[i]
            return
    cards.remove(card)


def _order(c: Card) -> tuple:
    return (c.wild, c.skip, c.number or 0, c.color or "")


# Per deck object (the entry holds it, so its id stays its own; hashing a Deck, as a
# cache keyed by the deck would, costs more than the look-up it saves)
_RANK_TABLES: dict[int, tuple[Deck, dict[int, int], dict[Card, int]]] = {}


def _rank_table(deck: Deck) -> tuple[dict[int, int], dict[Card, int]]:
    """Each card the deck holds (one of each, wilds and skips plain) numbered in ``_order``:
    by the card object's id (the deck's cards are interned, so a dealt hand's are these),
    and by the card (another object of an equal card; a card of no deck is numbered
    there when first met)."""
    got = _RANK_TABLES.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_RANK_TABLES) > 16:
            _RANK_TABLES.clear()
        cards = sorted(set(deck.all_cards()) | {WILD, SKIP}, key=_order)
        got = _RANK_TABLES[id(deck)] = (deck, {id(c): k for k, c in enumerate(cards)},
                                        {c: k for k, c in enumerate(cards)})
    return got[1], got[2]


def _ranks(hand: Sequence[Card], deck: Deck) -> tuple[int, ...]:
    """The hand as a multiset, the bot's cache key: its cards' numbers in ``_order``,
    sorted.  Small ints sort, slice and hash in C; Cards (hashed and compared in Python)
    made that key a fifth of a simulation, as the bot looks up each hand one card smaller
    at every decision."""
    ids, by_card = _rank_table(deck)
    try:
        return tuple(sorted([ids[id(c)] for c in hand]))
    except KeyError:
        pass
    for c in hand:
        if c not in by_card:  # not of this deck (no game deals one): numbered after them all
            by_card[c] = len(by_card)
    return tuple(sorted([by_card[c] for c in hand]))


def _rank(card: Card, deck: Deck) -> int:
    """One card's number in ``_ranks``."""
    got = _rank_table(deck)[0].get(id(card))
    return got if got is not None else _ranks([card], deck)[0]


BOTS: dict[str, Callable[..., Bot]] = {"greedy": GreedyBot, "random": RandomBot,
                                       "strong": StrongBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A built-in bot by name; an unknown name is refused naming the known ones."""
    if name not in BOTS:
        raise PhaseDSLError(f"unknown bot {name!r} (the bots are: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed)
