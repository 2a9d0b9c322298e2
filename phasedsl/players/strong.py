"""The ``strong`` bot: keeps the hand with the most completing cards.

Where ``greedy`` discards a card the solver's one example completion does not use,
``strong`` weighs every discard by the outs it leaves: the cards that would bring the
hand one card closer to its phase, each counted as many times as copies of it are still
unseen (the deck less its own hand and save pile, the discard pile and everything laid).
The same measure says whether the top discard is worth taking.  Around that it plays as
a careful player does: it keeps cards that laid groups will take once its phase is down,
does not hand the next player a card their laid groups (or the cards they picked up)
want, aims skips at the player closest to going out, sheds points once its phase is down
or when a hand may end soon, and plays every house rule the referee knows (it only ever
picks one of ``view.moves``).

It sees only its ``PlayerView``; what it remembers between turns (the cards it
discarded, and whether the next player took them) is what any player at the table saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import PhaseDSLError
from ..game import moves as mv
from ..game.table import phase_rules
from ..game.view import Opponent, PlayerView
from ..melds.hits import plan, targets
from ..melds.scoring import card_points
from ..model.cards import SKIP, WILD, Card
from ..model.group import Kind
from ..model.meld import LaidGroup
from ..model.phase import Phase
from ..model.rules import Rules, Scoring
from ..solver import shortfall, unseen_counts
from .turnplan import discard_pile, dispatch, phase_to_play

# Weights of a discard's worth, in units of weighted outs (one unseen completing copy):
FEED_LAID = 6.0  # the next player has laid and the card fits a laid group: they shed it
FEED_PICKED = 3.0  # the card is like one the next player took from the discard pile
HOLD_HIT = 1.5  # the card fits a laid group: once this phase is down it can be hit
SKIP_FIRST = 4.0  # a skip does nothing in a hand; played, it costs someone a turn
WILD_KEPT = 100.0  # a wild can always stand in for the next missing card
TAKEN_KEPT = 10_000.0  # a card taken from a pile this turn
# Points shed per unit of outs: a tie-break early, more once a hand may end soon, most
# when the game may be decided on points.
POINTS_EARLY, POINTS_DANGER, POINTS_LATE = 0.03, 0.12, 0.3
# Taking the top discard that leaves the hand as far from the phase: only for clearly
# more outs than the hand has now (the deck draw may itself complete it).
TAKE_MARGIN, TAKE_FACTOR = 2.0, 1.25
# Solver calls for the outs of the cards tied for the fewest cards short, at most (past
# that only the classes with the most unseen copies are tried)
OUTS_BUDGET = 60
OUTS_BUDGET_DEAR = 16  # the same where each call costs more (see ``Aim.dear``; 24 cost
# world-tour/custom over 5 ms a turn)
FEW_CLASSES = 16  # classes of cards that a phase tells apart: at most a number each
# New solver calls a decision makes at most (each is bounded by the solver's budget; a
# pack of huge phases would otherwise make a turn take minutes): past it, a hand is
# "unknown", as far from the phase as can be, and points decide.
MAX_CALLS = 400
UNKNOWN = (99, ())
FAR = UNKNOWN[0]


def _order(c: Card) -> tuple:
    return (c.wild, c.skip, c.anti, c.number or 0, c.color or "")


def _key(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_order))


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


@dataclass(frozen=True, slots=True)
class Aim:
    """The phase a hand is played for, and how its cards are counted this turn."""

    number: int
    phase: Phase
    rules: Rules
    # each class of cards that are alike for this phase: a card standing for it and the
    # unseen copies of the whole class
    classes: tuple[tuple[Card, int], ...]
    unseen: Counter
    # a sum among the groups: the solver finds the outs card by card (each color of each
    # number), so they are counted here by class, each class asked once
    sums: bool = False
    # each solver call costs more: many classes (colors), or three groups and more
    dear: bool = False


def _classes(phase: Phase, rules: Rules, unseen: Counter) -> tuple[tuple[Card, int], ...]:
    """The unseen cards grouped where the phase cannot tell them apart: colors do not
    matter to a phase none of whose groups looks at color, numbers not to one made only
    of color groups.  Fewer classes, fewer solver calls."""
    deck = rules.deck
    kinds = {g.kind for g in phase.groups}
    colored = (rules.runs_one_color or any(g.colors is not None for g in phase.groups)
               or any(k.one_color for k in kinds))
    numbered = not kinds <= {Kind.COLOR, Kind.WILD, Kind.SKIP} or bool(rules.wild_numbers)
    out: list[tuple[Card, int]] = []
    if not colored:
        for n in deck.numbers:
            out.append((Card(n, deck.colors[0]), sum(unseen[Card(n, c)] for c in deck.colors)))
    elif not numbered:
        for c in deck.colors:
            out.append((Card(deck.low, c), sum(unseen[Card(n, c)] for n in deck.numbers)))
    else:
        out += [(Card(n, c), unseen[Card(n, c)]) for c in deck.colors for n in deck.numbers]
    out.append((WILD, unseen[WILD]))
    if Kind.SKIP in kinds or rules.wild_as_skip:
        out.append((SKIP, unseen[SKIP]))
    return tuple((card, n) for card, n in out if n > 0)


def _points(card: Card, scoring: Scoring) -> int:
    """A card's penalty points (the anti-phase card left in hand scores as a skip)."""
    return scoring.skip if card.anti else card_points(card, scoring)


def _fits(groups: Sequence[LaidGroup], card: Card, rules: Rules) -> bool:
    try:
        return any(targets([g], card, rules) for g in groups)
    except PhaseDSLError:  # laid under other wild numbers (postal): the referee decides
        return False


def _threat(o: Opponent) -> tuple:
    """How close a player is to going out (smaller: closer): a laid phase with few
    cards left first, then the most phases made, then the lowest score."""
    return (not o.laid, o.hand_size if o.laid else 0, -len(o.done), o.total)


class StrongBot:
    """Plays for the most weighted outs; see the module's docstring."""

    def __init__(self, seed: int = 0) -> None:
        # Deterministic: the seed is taken only so that every bot is made the same way.
        self._missing: dict[tuple, tuple[int, tuple[Card, ...]]] = {}
        self._hand_no = -1
        # (the discard pile under my last discard, that card, the player to move next)
        self._last: tuple[tuple[Card, ...], Card, str] | None = None
        self._picked: dict[str, list[Card]] = {}  # cards a player took from the discard
        self._taken: Card | None = None  # the card I took from a pile this turn
        self._calls = 0  # new solver calls in this decision

    # ------------------------------------------------------------------ choose

    def choose(self, view: PlayerView) -> mv.Move:
        moves = view.moves
        if view.hands_played != self._hand_no:  # a new hand: nothing known carries over
            self._missing.clear()
            self._picked.clear()
            self._last = None
            self._taken = None
            self._hand_no = view.hands_played
        self._watch(view)
        self._calls = 0
        if len(moves) == 1:
            return moves[0]
        hand = [c for c in view.hand if not c.anti]
        return dispatch(view, give=self._give, declare=self._declare, draw=self._draw,
                        hit=self._hit, discard=self._discard,
                        short=lambda n: self._miss(self._aim(view, n), hand))

    # ------------------------------------------------------------------ memory

    def _watch(self, view: PlayerView) -> None:
        """Did the player after me take my last discard?  The pile under it is still
        there; the card above that is mine unless they took it."""
        if self._last is None:
            return
        under, card, who, k = self._last
        pile = view.piles[k - 1] if k <= len(view.piles) else ()
        if len(pile) > len(under) and pile[:len(under)] == under and pile[len(under)] != card:
            self._picked.setdefault(who, []).append(card)
        if view.to_move == view.me and view.step == "draw":
            self._last = None  # seen: once a round

    def _after(self, view: PlayerView) -> Opponent | None:
        """The next player to move after me (past one who loses their turn)."""
        names = [o.name for o in view.players]
        i = names.index(view.me)
        for k in range(1, len(names)):
            o = view.players[(i + k) % len(names)]
            if o.skipped:
                continue
            return o
        return None

    # ------------------------------------------------------------------ counting

    def _short(self, aim: Aim, hand: Sequence[Card],
               outs: bool = False) -> tuple[int, tuple[Card, ...] | None]:
        """Cards short of the phase, and (asked for ``outs``) the single cards that
        complete it when one; None where they were not sought."""
        key = (aim.number, _key(hand))
        got = self._missing.get(key)
        if got is None or (outs and got[1] is None):
            if self._calls >= MAX_CALLS:  # a hostile pack's phases: the turn goes on blind
                return UNKNOWN
            self._calls += 1
            try:
                # most hands are only measured: one short, their outs are most of the
                # solver's work, and few of them are counted
                s = shortfall(aim.phase, list(key[1]), aim.rules, outs=outs)
            except PhaseDSLError:  # (SearchLimit among them) past the solver's budget
                s = None
            # undecided: not made for a bot, which lays only a meld the solver finds
            got = UNKNOWN if s is None else \
                (s.missing if s.decided else 1,
                 tuple(o.card for o in s.outs) if outs or s.missing != 1 else None)
            self._missing[key] = got
        return got

    def _miss(self, aim: Aim, hand: Sequence[Card]) -> int:
        return self._short(aim, hand)[0]

    def _aim(self, view: PlayerView, number: int) -> Aim:
        phase, rules = phase_rules(view.table, number)
        seen = [*view.discard, *(c for o in view.players for g in o.laid for c in g.cards)]
        unseen = unseen_counts([c for c in (*view.hand, *view.save) if not c.anti], seen, rules)
        classes = _classes(phase, rules, unseen)
        return Aim(number, phase, rules, classes, unseen,
                   any(g.kind.is_sum for g in phase.groups),
                   len(classes) > FEW_CLASSES or len(phase.groups) > 2)

    def _outs(self, aim: Aim, hand: list[Card], missing: int,
              useful: Sequence[tuple[Card, int]] | None = None) -> float:
        """Unseen copies of the cards that bring ``hand`` (``missing`` short) closer."""
        if missing <= 0 or missing >= FAR:
            return 0.0
        if missing == 1 and useful is None and not aim.sums:
            return float(sum(aim.unseen[c.plain()] for c in self._short(aim, hand, True)[1]))
        pool = aim.classes if useful is None else useful
        return float(sum(n for card, n in pool if self._miss(aim, [*hand, card]) < missing))

    def _target(self, view: PlayerView, hand: Sequence[Card]) -> int | None:
        """The phase to play for (a chosen one: the one the hand is closest to)."""
        return phase_to_play(view, lambda n: self._miss(self._aim(view, n),
                                                 [c for c in hand if not c.anti]))

    # ------------------------------------------------------------------ moves

    def _give(self, view: PlayerView, moves) -> mv.Move:
        """Dealer's choice: a turned-up wild to oneself, a turned-up skip at the player
        closest to going out."""
        mine = [m for m in moves if m.to == view.me]
        if view.discard and view.discard[-1].wild and mine:
            return mine[0]
        rank = {o.name: _threat(o) for o in view.players}
        return min((m for m in moves if m.to != view.me), key=lambda m: rank[m.to],
                   default=moves[0])

    def _declare(self, view: PlayerView, moves) -> mv.Move:
        hand = [c for c in view.hand if not c.anti]

        def rank(m: mv.Declare) -> tuple:
            aim = self._aim(view, m.phase)
            short = self._miss(aim, hand)
            return (short, -self._outs(aim, hand, short), -m.phase)

        return min(moves, key=rank)

    def _draw(self, view: PlayerView, moves) -> mv.Move:
        move = self._pick_draw(view, moves)
        self._taken = None
        if move.source == "discard":
            self._taken = view.pile_top(move)
        elif move.source == "save":
            self._taken = move.card
        return move

    def _pick_draw(self, view: PlayerView, moves) -> mv.Draw:
        deck = next((m for m in moves if isinstance(m, mv.Draw) and m.source == "deck"), None)
        offers = [(view.pile_top(m) if m.source == "discard" else m.card, m)
                  for m in moves if isinstance(m, mv.Draw) and m.source in ("discard", "save")]
        offers = [(c, m) for c, m in offers if c is not None and not c.anti]
        if deck is None:
            deck = moves[0]
        if not offers:
            return deck
        if view.laid:  # phase down: a card is worth taking if some order of hits plays it
            for card, m in offers:
                if self._placed(view, [*view.hand, card]).get(card, 0) > \
                        self._placed(view, list(view.hand)).get(card, 0):
                    return m
            return deck
        number = self._target(view, view.hand)
        if number is None:
            return deck
        aim = self._aim(view, number)
        hand = [c for c in view.hand if not c.anti]
        now = self._miss(aim, hand)
        best, pick = None, deck
        for card, m in offers:
            short = self._miss(aim, [*hand, card])
            if short < now and (best is None or short < best):
                best, pick = short, m
        if pick is not deck or now >= FAR or (now > 1 and aim.dear):
            return pick  # (the outs of every card class: too dear to weigh twice a turn)
        # no closer: take it only for clearly more outs once a card is shed
        bar = self._outs(aim, hand, now) * TAKE_FACTOR + TAKE_MARGIN
        for card, m in offers:
            if not card.skip and self._beats(aim, [*hand, card], card, now, bar):
                return m
        return deck

    def _beats(self, aim: Aim, hand: list[Card], card: Card, now: int, bar: float) -> bool:
        """Does shedding some card of ``hand`` other than ``card`` leave ``now`` short with
        more than ``bar`` weighted outs?  (Asked lazily: the draw is weighed every turn
        and mostly answers no.)"""
        cheap = now == 1 and not aim.sums  # (the bound costs one solver call)
        if 0 < now < FAR and (cheap or not aim.dear) and self._miss(aim, hand) == now:
            # every out of a smaller hand is one of the whole hand's: a bound, before the
            # dozen calls of the smaller hands' distances and the outs of those tied
            useful = self._closer(aim, hand, now)
            if useful is None:
                cap = sum(aim.unseen[c.plain()] for c in self._short(aim, hand, True)[1])
            else:
                cap = sum(n for _, n in useful)
            if cap <= bar:
                return False
        short, least, useful = self._loss_plan(aim, hand)
        if least != now:  # every other shed leaves it farther: no outs counted
            return False
        if useful is not None and sum(n for _, n in useful) <= bar:
            return False
        return any(self._outs(aim, _without(hand, c), k, useful) > bar
                   for c, k in short.items() if k == now and c != card)

    def _hit(self, view: PlayerView, moves) -> mv.Move | None:
        """A hit from an order that plays the most cards (naturals before wilds), or a
        Utah swap (it sheds a card too); a take-back only where its natural has no other
        place and no penalty comes with the wild."""
        hits = [m for m in moves if isinstance(m, mv.Hit)]
        rules = view.table.rules
        if hits:
            planned = self._first_planned(view, hits)
            if planned is not None:
                return planned
            return next((m for m in hits if not m.card.wild), hits[0])
        swaps = [m for m in moves if isinstance(m, mv.Swap)]
        if not swaps:
            return None
        if rules.wild_swap and not rules.wild_take_back:
            return swaps[0]
        if view.table.house.wild_steal_penalty is None:
            return swaps[0] if len(view.hand) > 1 else None
        return None

    def _first_planned(self, view: PlayerView, hits: list[mv.Hit]) -> mv.Move | None:
        groups, where = self._table(view)
        got = self._plan(view, groups, list(view.hand))
        if got is None:
            return None
        for h in got.hits:
            if h.swap is not None:
                continue
            owner, number = where[h.index]
            fit = [m for m in hits if m.target == owner and m.group == number
                   and m.card.plain() == h.card.plain()]
            if fit:  # a wild at the end the plan puts it (the other may be a natural's)
                return next((m for m in fit if not m.card.wild or m.card.number == h.stands),
                            fit[0])
        return None

    # ------------------------------------------------------------------ discards

    def _discard(self, view: PlayerView, moves) -> mv.Move:
        discards = [m for m in moves if isinstance(m, mv.Discard)]
        if not discards:  # e.g. only a save is left
            return moves[0]
        offered = list(dict.fromkeys(m.card for m in discards))
        worth = self._worth(view, offered)
        card = max(offered, key=worth.__getitem__)
        options = [m for m in discards if m.card == card]
        aimed = [m for m in options if m.skip is not None]
        if aimed:
            rank = {o.name: _threat(o) for o in view.players}
            return min(aimed, key=lambda m: rank[m.skip])
        down = [m for m in options if m.down is not None]
        if down:  # the anti-phase card as the last card: the game's leader goes down
            lead = {o.name: (-len(o.done), o.total) for o in view.players}
            return min(down, key=lambda m: lead[m.down])
        saves = [m for m in moves if isinstance(m, mv.Save) and m.card == card]
        if saves and self._save_it(view, card):
            return saves[0]
        pick = discard_pile(view, options, lambda top: self._feeds(view, top))
        nxt = self._after(view)
        if nxt is not None:
            self._last = (view.piles[pick.pile - 1], card, nxt.name, pick.pile)
        return pick

    def _save_it(self, view: PlayerView, card: Card) -> bool:
        """Set the card aside (once a hand) rather than give it away: a wild, a card the
        next player would take, or a high card when the hand may end soon."""
        if card.skip:
            return False
        if card.wild or self._feeds(view, card) > 0:
            return True
        return _points(card, view.table.rules.scoring) >= 10 and self._danger(view)

    def _danger(self, view: PlayerView) -> bool:
        return any(o.laid for o in view.players if o.name != view.me)

    def _points_weight(self, view: PlayerView) -> float:
        goal = view.table.goal
        house = view.table.house
        late = (house.fixed_hands is not None or house.baseball_short_game
                or any(len(o.done) >= goal - 1 for o in view.players))
        if late:
            return POINTS_LATE
        return POINTS_DANGER if self._danger(view) else POINTS_EARLY

    def _feeds(self, view: PlayerView, card: Card) -> float:
        """What discarding the card gives the next player."""
        nxt = self._after(view)
        if nxt is None or card.skip:
            return 0.0
        cost = 0.0
        if nxt.laid:
            rules = phase_rules(view.table, nxt.phase)[1] if nxt.phase is not None \
                else view.table.rules
            groups = [g for o in view.players for g in o.laid]
            if card.wild or _fits(groups, card, rules):
                cost += FEED_LAID + (FEED_LAID if nxt.hand_size <= 3 else 0.0)
        elif card.natural:
            kinds = set()
            if nxt.phase is not None:
                kinds = {g.kind for g in phase_rules(view.table, nxt.phase)[0].groups}
            for got in self._picked.get(nxt.name, ()):
                if not got.natural:
                    continue
                same = got.number == card.number
                runs = any(k.is_run for k in kinds) and abs(got.number - card.number) <= 2
                colors = any(k.one_color for k in kinds) and got.color == card.color
                if same or runs or colors:
                    cost += FEED_PICKED
                    break
        return cost

    def _worth(self, view: PlayerView, offered: list[Card]) -> dict[Card, float]:
        """How good a discard each card is (higher: better to let go; minus infinity for
        a card whose outs were not counted because it cannot be the best)."""
        scoring = view.table.rules.scoring
        points = self._points_weight(view)
        taken = self._taken if self._taken in offered and len(offered) > 1 else None

        def finish(c: Card, base: float) -> float:
            out = base - self._feeds(view, c)
            if c == taken:
                # a card taken is not let go the same turn: two players would pass it back
                # and forth for ever wherever each has a reason to take it that the other
                # shares
                out -= TAKEN_KEPT
            return out

        if view.laid:
            placed = self._placed(view, list(view.hand))
            spare = Counter(view.hand)
            spare.subtract(placed)
            out: dict[Card, float] = {}
            for c in offered:
                kept = 0.0 if spare[c] > 0 else 20.0  # an order of hits plays every copy
                out[c] = finish(c, -kept + POINTS_LATE * _points(c, scoring)
                                - WILD_KEPT * c.wild + WILD_KEPT * c.anti)
            return out
        groups = [g for o in view.players for g in o.laid]
        rules = view.table.rules
        extra: dict[Card, float] = {}
        for c in offered:
            e = points * card_points(c, scoring) if not c.anti else 0.0
            if c.skip:
                e += SKIP_FIRST
            if c.anti:
                e += WILD_KEPT  # held to the end of a hand it sends its holder down
            if c.wild:
                e -= WILD_KEPT
            elif groups and c.natural and _fits(groups, c, rules):
                e -= HOLD_HIT
            extra[c] = e
        return self._by_outs(view, offered, lambda c, base: finish(c, base + extra[c]))

    def _by_outs(self, view: PlayerView, offered: list[Card],
                 finish: Callable[[Card, float], float]) -> dict[Card, float]:
        """Each card's worth, ``finish`` of its loss in outs: -1000 per card of distance
        to the phase lost, plus the weighted outs of what is left.  The outs of the cards
        tied for the least loss are counted best bound first, and only while a card's
        bound (the outs of the whole hand's useful classes: every out of a smaller hand
        is one of those) can still beat the best found; the others get minus infinity.
        ``finish`` must not lower one card's worth more than another's for the same
        outs (it adds what does not depend on them), so a bound stays a bound."""
        number = self._target(view, view.hand)
        if number is None:
            return {c: finish(c, 0.0) for c in offered}
        aim = self._aim(view, number)
        hand = [c for c in view.hand if not c.anti]
        short, least, useful = self._loss_plan(aim, hand)
        out: dict[Card, float] = {}
        tied: list[Card] = []
        for c in offered:
            if c not in short:
                # (the anti card, not in the hand counted: as good as the best to let go)
                out[c] = finish(c, self._outs(aim, hand, least) - 0.0)
            elif short[c] != least:
                out[c] = finish(c, 0.0 - 1000.0 * (short[c] - least))
            else:
                tied.append(c)
        if not tied:
            return out
        if least <= 0 or least >= FAR:
            cap = 0.0  # (no outs counted)
        elif useful is not None:
            cap = float(sum(n for _, n in useful))
        elif least == 1 and not aim.sums:  # each counted by its completing cards
            cap = float("inf")
            if self._miss(aim, hand) == 1:  # ...each one of the whole hand's
                cap = float(sum(aim.unseen[c.plain()] for c in self._short(aim, hand, True)[1]))
        else:
            cap = float(sum(n for _, n in aim.classes))
        where = {c: i for i, c in enumerate(offered)}
        bound = {c: finish(c, cap) for c in tied}
        best = max(((w, -where[c]) for c, w in out.items()), default=None)
        for c in sorted(tied, key=lambda c: (-bound[c], where[c])):
            if best is not None and best > (bound[c], -where[c]):
                out[c] = float("-inf")  # it cannot be the best: its outs are not counted
                continue
            out[c] = finish(c, self._outs(aim, _without(hand, c), least, useful))
            best = max(best, (out[c], -where[c])) if best is not None else (out[c], -where[c])
        return out

    def _tried(self, aim: Aim) -> Sequence[tuple[Card, int]]:
        """Of a phase that tells many classes apart (colors), the commonest unseen only."""
        if len(aim.classes) <= FEW_CLASSES:
            return aim.classes
        return sorted(aim.classes, key=lambda cn: -cn[1])[:FEW_CLASSES]

    def _closer(self, aim: Aim, hand: list[Card], now: int) -> list[tuple[Card, int]] | None:
        """The classes that can bring a hand one card smaller than ``hand`` and as far
        from the phase (``now`` short) closer; None where the solver's completing cards
        of each such hand are counted instead (one short, a cheap phase)."""
        if now == 1 and aim.dear and not aim.sums:
            # every out of a smaller hand is one of the whole hand's: the classes of those
            # (each tried again with the smaller hand, so a class too many costs a call)
            deck = aim.rules.deck
            completes = set()
            for c in self._short(aim, hand, True)[1] or ():
                completes.add(c.plain())
                if c.natural:  # (the card standing for its class, whichever that is)
                    completes |= {Card(c.number, deck.colors[0]), Card(deck.low, c.color)}
            return [(card, n) for card, n in aim.classes if card in completes]
        if now >= 2 or (now == 1 and aim.sums):
            # a card that brings the smaller hand closer brings the whole one closer too
            return [(card, n) for card, n in self._tried(aim)
                    if self._miss(aim, [*hand, card]) < now]
        return None

    def _loss_plan(self, aim: Aim, hand: list[Card]) -> tuple[
            dict[Card, int], int, list[tuple[Card, int]] | None]:
        """For each card of ``hand`` the cards short without it, the fewest of those, and
        the classes whose outs are counted for the hands that fewest short (None: all, or
        the completing cards the solver lists)."""
        short = {c: self._miss(aim, _without(hand, c)) for c in dict.fromkeys(hand)}
        if not short:
            return {}, 0, None
        least = min(short.values())
        useful = None
        if least == self._miss(aim, hand):
            useful = self._closer(aim, hand, least)
        elif aim.dear and least >= 2:
            useful = list(self._tried(aim))  # every card is needed: any class may help
        if useful is not None:
            ties = sum(k == least for k in short.values())
            budget = OUTS_BUDGET_DEAR if aim.dear else OUTS_BUDGET
            if len(useful) * ties > budget:
                # big phases of many card classes: the commonest unseen classes only, so a
                # turn stays within a few dozen solver calls
                keep = max(2 if aim.dear else 4, budget // ties)
                useful = sorted(useful, key=lambda cn: -cn[1])[:keep]
        return short, least, useful

    # ------------------------------------------------------------------ the table

    def _table(self, view: PlayerView) -> tuple[list[LaidGroup], list[tuple[str, int]]]:
        groups, where = [], []
        for o in view.players:
            for k, g in enumerate(o.laid):
                groups.append(g)
                where.append((o.name, k + 1))
        return groups, where

    def _plan(self, view: PlayerView, groups: list[LaidGroup], hand: list[Card]):
        rules = view.table.rules.with_(extras=True)
        if view.phase is not None:
            rules = phase_rules(view.table, view.phase)[1].with_(extras=True)
        if view.table.house.wild_steal_penalty is not None:
            # it takes no wild back where that costs points: no plan that does
            rules = rules.with_(wild_take_back=False)
        try:
            return plan(groups, [c for c in hand if not c.anti], rules)
        except PhaseDSLError:
            return None

    def _placed(self, view: PlayerView, hand: list[Card]) -> Counter:
        """The cards of ``hand`` that some order of hits plays on the table now."""
        groups, _ = self._table(view)
        if not groups:
            return Counter()
        got = self._plan(view, groups, hand)
        if got is None:
            return Counter()
        left = Counter(c.plain() for c in got.left)
        return Counter(c for c in hand if not c.anti) - left

