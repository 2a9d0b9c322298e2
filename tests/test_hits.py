import pytest

from phasedsl import Card, LayoutError, parse_cards
from phasedsl.api import laid_group
from phasedsl.melds.hits import plan, targets
from phasedsl.model.rules import Rules

RUN = laid_group("run: R4 R5 W=6 R7")
SET = laid_group("set: B9 G9 W")
TOP = laid_group("run: R9 R10 R11 R12")
FULL = laid_group("run: " + " ".join(f"R{n}" for n in range(1, 13)))


def where(card, groups, rules=None):
    rules = rules or Rules()
    return [(h.index, h.end) for h in targets(groups, Card.parse(card), rules)]


def test_naturals_extend_runs_at_either_end():
    assert where("R3", [RUN]) == [(0, "low")]
    assert where("B8", [RUN]) == [(0, "high")]
    assert where("R6", [RUN]) == []


def test_runs_never_pass_the_deck_numbers():
    assert where("R12", [TOP]) == []
    assert where("W", [FULL]) == []
    assert where("R1", [laid_group("run: R1 R2 R3 R4")]) == []


def test_a_wild_may_go_at_either_open_end_the_preferred_one_first():
    # Issue 7 item 2: both ends are legal (was: the high end only); wild_hit_end
    # only orders them.
    assert where("W", [RUN]) == [(0, "high"), (0, "low")]
    assert [h.stands for h in targets([RUN], Card.parse("W"))] == [8, 3]
    assert where("W", [TOP]) == [(0, "low")]
    assert where("W", [RUN], Rules(wild_hit_end="low")) == [(0, "low"), (0, "high")]


def test_sets_colors_parities():
    assert where("R9", [SET]) == [(0, None)]
    assert where("R8", [SET]) == []
    assert where("R2", [laid_group("color: R1 R5 R9 W")]) == [(0, None)]
    assert where("B2", [laid_group("color: R1 R5 R9 W")]) == []
    assert where("Y4", [laid_group("even_odd: R2 B6 G8")]) == [(0, None)]
    assert where("Y5", [laid_group("even_odd: R2 B6 G8")]) == []
    assert where("R3", [laid_group("color_run: R4 R5 R6")]) == [(0, "low")]
    assert where("B3", [laid_group("color_run: R4 R5 R6")]) == []
    assert where("S", [RUN, SET]) == []


def test_several_cards_in_a_working_order():
    p = plan([RUN, SET], parse_cards("R2 R3 G9 W"))
    assert p.complete
    order = [str(h.card) for h in p.hits if h.index == 0]
    assert order.index("R3") < order.index("R2")


def test_cards_that_fit_nowhere_are_left():
    p = plan([RUN], parse_cards("R3 B11"))
    assert [str(c) for c in p.left] == ["B11"]


def test_utah_wild_swap():
    assert where("B6", [RUN]) == []
    hits = targets([RUN], Card.parse("B6"), Rules(wild_swap=True))
    assert hits and hits[0].swap is not None and hits[0].end == "high"


def test_illegal_laid_group_is_an_input_error():
    with pytest.raises(LayoutError, match="not legal"):
        targets([laid_group("run: R4 R9 R5")], Card.parse("R3"))
    with pytest.raises(LayoutError, match="KIND: CARDS"):
        laid_group("R4 R5 R6")


# ----------------------------------------------------------------------------- issue 7, hits
import json  # noqa: E402
import random  # noqa: E402
from functools import cache  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from phasedsl.api import hit_json, hit_text  # noqa: E402
from phasedsl.cli import app  # noqa: E402
from phasedsl.melds.layout import read_group  # noqa: E402
from phasedsl.model.cards import SKIP, WILD, Deck  # noqa: E402
from phasedsl.model.meld import LaidGroup  # noqa: E402
from phasedsl.model.phase import Group, Kind  # noqa: E402


def placed(laid, hand, rules=None):
    p = plan([laid_group(t, rules or Rules()) for t in laid], parse_cards(hand), rules or Rules())
    return len(p.hits), p


@pytest.mark.parametrize("laid, hand", [
    (["run: R9 Y10", "set: B8 W"], "W G12"),      # the wild bridges to 12, not onto the set
    (["run: Y9 Y10", "color: R6 R1"], "R8 B7"),   # R8 to the run, not to the red group
    (["run: R5 Y6"], "W G3"),                     # the wild at the low end, as 4
    (["run: R5 Y6", "set: B9 G9"], "W G3"),
])
def test_plan_places_every_card_the_issue_names(laid, hand):
    n, p = placed(laid, hand)
    assert n == 2 and p.complete and p.exact


def test_the_plan_says_which_end_and_what_the_wild_stands_for():
    _, p = placed(["run: R5 Y6"], "W G3")
    assert [(str(h.card), h.end, h.stands) for h in p.hits] == [("W", "low", 4), ("G3", "low", None)]
    _, p = placed(["run: R9 Y10", "set: B8 W"], "W G12")
    assert [(str(h.card), h.index, h.end, h.stands) for h in p.hits] == [
        ("W", 0, "high", 11), ("G12", 0, "high", None)]


def run_cli(*args):
    return CliRunner().invoke(app, list(args))


def test_cli_hit_issue_examples():
    r = run_cli("hit", "W", "G12", "--on", "run: R9 Y10", "--on", "set: B8 W")
    assert r.exit_code == 0, r.stdout
    assert "W onto group 1 at the high end (as 11)\n  G12 onto group 1 at the high end" in r.stdout
    assert "no group takes it" not in r.stdout and "all 2 cards placed" in r.stdout
    r = run_cli("hit", "R8", "B7", "--on", "run: Y9 Y10", "--on", "color: R6 R1", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["left"] == [] and data["placed"] == 2 and data["exact"]
    assert data["plan"] == [{"card": "R8", "group": 1, "end": "low"},
                            {"card": "B7", "group": 1, "end": "low"}]
    r = run_cli("hit", "W", "G3", "--on", "run: R5 Y6", "--json")
    data = json.loads(r.stdout)
    assert data["plan"][0] == {"card": "W", "group": 1, "end": "low", "stands": 4}
    assert {"card": "W", "group": 1, "end": "high", "stands": 7} in data["hits"]


def test_cli_one_step_plan_still_shows_the_choice():
    r = run_cli("hit", "W", "--on", "run: R5 R6 W")
    assert r.exit_code == 0
    assert "play:\n  W onto group 1 at the high end (as 8)" in r.stdout
    r = run_cli("hit", "W", "--on", "run: R5 R6 W", "--variant", "original")
    assert "(as 8)" in r.stdout


def test_cli_says_when_no_order_places_more():
    r = run_cli("hit", "R3", "B11", "--on", "run: R4 R5 R6 R7")
    assert r.exit_code == 1
    assert "B11: no group takes it" in r.stdout and "1 of 2 placed: no order places more" in r.stdout


@pytest.mark.parametrize("text, why", [
    ("run: R1 R5", "1 and 5 cannot both be in a run"),
    ("set: R1 B2", "one number"),
    ("run: R1 W=1", "each number once"),
    ("color: W=R B1", "one color"),
])
def test_illegal_laid_groups_are_refused_at_once(text, why):
    with pytest.raises(LayoutError, match=why) as e:
        laid_group(text)
    assert text in str(e.value) and "not legal" in str(e.value)
    r = run_cli("hit", "R3", "--on", text)
    assert r.exit_code == 2 and why in r.stderr and "Traceback" not in r.stderr


def test_how_an_unstated_wild_in_a_laid_run_is_read():
    # README and module docstring: in place as written; toward the other end at the deck's edge.
    assert where("W", [laid_group("run: R5 R6 W")]) == [(0, "high"), (0, "low")]
    assert [h.stands for h in targets([laid_group("run: R5 R6 W")], WILD)] == [8, 4]
    assert [h.stands for h in targets([laid_group("run: W R5 R6")], WILD)] == [7, 3]
    assert [h.stands for h in targets([laid_group("run: R11 R12 W")], WILD)] == [9]
    assert where("R10", [laid_group("run: R11 R12 W")]) == []
    assert where("R9", [laid_group("run: R11 R12 W")]) == [(0, "low")]


def test_utah_swap_may_move_the_wild_to_either_end():
    hits = targets([RUN], Card.parse("R6"), Rules(wild_swap=True))
    assert [(str(h.swap), h.end, h.stands) for h in hits] == [("W=6", "high", 8), ("W=6", "low", 3)]
    p = plan([RUN], parse_cards("R6 R2"), Rules(wild_swap=True))
    assert p.complete and [h.end for h in p.hits] == ["low", "low"]


def test_a_budget_stop_is_said_never_silent():
    laid = [laid_group(t) for t in ("run: R4 R5 R6", "run: B4 B5 B6", "set: G9 Y9")]
    hand = parse_cards("R1 R2 R3 R7 R8 B2 B3 B8 B9 W W G1 Y2")
    rng = random.Random(3)
    for _ in range(200):  # a table where the plan found without search is not yet proven
        full = plan(laid, hand)
        cut = plan(laid, hand, budget=3)
        if not cut.exact:
            break
        laid = [lg for lg in (_random_group(rng, Rules())[0] for _ in range(6))
                if not read_group(lg.group, lg.cards, Rules())[1]]
        hand = [Card(rng.randint(1, 12), rng.choice(COLORS)) for _ in range(30)] + [WILD] * 3
    assert full.exact and not cut.exact and len(cut.hits) <= len(full.hits)
    _replay(laid, cut, Rules())
    result = hit_json(laid, hand)
    assert result["exact"] is True
    result["exact"] = False
    result["left"] = ["B9"]
    assert "the search stopped at its limit, so another order may place more" in hit_text(result)


def test_whole_deck_hand_is_exact_and_counted():
    laid = [laid_group("run: R4 R5 R6"), laid_group("set: B9 G9 W")]
    deck = Rules().deck.all_cards()
    for c in (Card(4, "R"), Card(5, "R"), Card(6, "R"), Card(9, "B"), Card(9, "G"), WILD):
        deck.remove(c)
    p = plan(laid, deck)
    # every 9 and wild left fits the set (6 + 7); the run grows to 1-12 with 8 more
    # naturals (1-3, 7, 8, 10-12), its 9 being one of those 9s or wilds
    assert p.exact and len(p.hits) == 21 and len(p.left) == 81
    _replay(laid, p, Rules())


# ----------------------------------------------------------------------------- brute force
# Every order x every target x every end, each step judged by layout.read_group on the
# whole group with every card at an explicit place.  Independent of phasedsl.melds.hits.

@cache
def _legal(group: Group, cards: tuple, rules: Rules) -> bool:
    return not read_group(group, cards, rules.with_(extras=True))[1]


def _legal_as_itself(group, cards, k, low, rules):
    """Is ``cards`` legal with its k-th card played as itself: every choice of the other
    cards of a wild number played as wilds (a run's at their places, from ``low``)."""
    flex = [i for i, c in enumerate(cards) if i != k and _acts_wild(c, rules) and c.natural]
    plain = rules.with_(wild_numbers=frozenset())
    for mask in range(1 << len(flex)):
        as_wild = {i for b, i in enumerate(flex) if mask >> b & 1}
        tried = tuple((Card(None if low is None else low + i, None, wild=True)
                       if i in as_wild else c) for i, c in enumerate(cards))
        if _legal(group, tried, plain):
            return True
    return False


def _acts_wild(card, rules):
    return card.wild or (card.natural and card.number in rules.wild_numbers)


def _ref_moves(state, card, rules):
    """(group, end, swapped wild number, new state) for every legal single hit.

    A take-back (``wild_take_back``: ``card``, a natural, replaces a laid wild, which goes
    to the hand) has no end and swaps ("back", the wild as laid) in a set, color or parity
    group, the wild's number in a run (the wild there)."""
    out = []
    deck = rules.deck
    for gi, g in enumerate(state):
        group, cards = g[0], g[1]
        back = []  # (key, the group's cards with ``card`` in a wild's place, run wild number)
        if rules.wild_take_back and card.natural:
            # the card takes the wild's place as the card it stands for (as itself, not as a
            # wild; what the wild was said to be, if anything)
            for k, w in enumerate(cards):
                if w.wild and w.color in (None, card.color) and (
                        card.number == g[2] + k if group.kind.is_run
                        else w.number in (None, card.number)):
                    body = (*cards[:k], card, *cards[k + 1:])
                    if _legal_as_itself(group, body, k, g[2] if group.kind.is_run else None,
                                        rules):
                        key = g[2] + k if group.kind.is_run else ("back", str(w))
                        back.append((key, body))
        for key, body in dict.fromkeys(back):  # each wild: which one goes may matter
            new = (group, body, *g[2:4], g[4] - {key}) if group.kind.is_run else (group, body)
            out.append((gi, None, key, (*state[:gi], new, *state[gi + 1:])))
        if not group.kind.is_run:
            new = (*cards, card)
            if _legal(group, new, rules):
                out.append((gi, None, None, (*state[:gi], (group, new), *state[gi + 1:])))
            continue
        lo, hi, swappable = g[2], g[3], g[4]
        for end in ("low", "high"):
            n = lo - 1 if end == "low" else hi + 1
            if not (deck.low <= n <= deck.high):
                continue
            ways = []
            if card.natural and card.number == n:
                ways.append(card)
            if _acts_wild(card, rules):
                ways.append(Card(n, None, wild=True))
            for laid in ways:
                new = (laid, *cards) if end == "low" else (*cards, laid)
                if _legal(group, new, rules):
                    nl, nh = (n, hi) if end == "low" else (lo, n)
                    out.append((gi, end, None, (*state[:gi], (group, new, nl, nh, swappable),
                                                *state[gi + 1:])))
            if rules.wild_swap and card.natural:
                for m in swappable:
                    w = cards[m - lo]
                    if card.number != m or w.color not in (None, card.color):
                        continue
                    moved = Card(n, w.color, wild=True)
                    body = (*cards[:m - lo], card, *cards[m - lo + 1:])
                    new = (moved, *body) if end == "low" else (*body, moved)
                    if _legal(group, new, rules):
                        nl, nh = (n, hi) if end == "low" else (lo, n)
                        out.append((gi, end, m, (*state[:gi], (group, new, nl, nh,
                                                               swappable - {m}), *state[gi + 1:])))
    return out


def _ref_best(state, hand, rules):
    """The most cards of ``hand`` any order of hits leaves it without (a take-back puts
    the wild it frees into the hand: the hand is no smaller until that wild is played)."""
    @cache
    def best(state, hand):
        top = 0
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            for _gi, end, swap, new in _ref_moves(state, card, rules):
                if end is None and swap is not None:  # a take-back
                    got = best(new, tuple(sorted((*rest, WILD), key=str)))
                else:
                    got = 1 + best(new, tuple(rest))
                top = max(top, got)
                if top == len(hand):
                    return top
        return top

    return best(state, tuple(sorted(hand, key=str)))


def _ref_state(laid, starts):
    return tuple((lg.group, lg.cards, starts[i], starts[i] + len(lg.cards) - 1,
                  frozenset(starts[i] + k for k, c in enumerate(lg.cards) if c.wild))
                 if lg.group.kind.is_run else (lg.group, lg.cards) for i, lg in enumerate(laid))


def _replay(laid, p, rules, starts=None):
    """Play the plan's hits one by one: each must be a legal move then."""
    if starts is None:
        starts = {i: read_group(lg.group, lg.cards, rules)[0][0].number
                  for i, lg in enumerate(laid) if lg.group.kind.is_run}
    state = _ref_state(laid, starts)
    for h in p.hits:
        back = h.swap is not None and h.end is None and not state[h.index][0].kind.is_run
        swapped = ("back", str(h.swap)) if back else None if h.swap is None else h.swap.number
        moves = [m for m in _ref_moves(state, h.card, rules) if m[0] == h.index and m[1] == h.end
                 and m[2] == swapped]
        if h.index is not None and state[h.index][0].kind.is_run and h.swap is None:
            g = state[h.index]
            n = g[2] - 1 if h.end == "low" else g[3] + 1
            assert h.stands in (None, n)
            if h.stands is None:  # played as itself
                assert h.card.natural and h.card.number == n
        assert moves, f"illegal step {h} in {[str(x) for x in p.hits]}"
        state = moves[0][3]


COLORS = ("R", "B", "G", "Y")


def _random_group(rng, rules, favor=()):
    """A random laid group and its run's start (None: not a run); ``favor``: numbers that
    a set shows, or a run covers, more often than chance (the postal rule's)."""
    deck = rules.deck
    kind = rng.choice([Kind.RUN, Kind.RUN, Kind.RUN, Kind.COLOR_RUN, Kind.SET, Kind.SET,
                       Kind.COLOR_SET, Kind.COLOR, Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD,
                       Kind.WILD, Kind.SKIP])
    size = rng.randint(2, 5)
    wild_p = 0.5 if rules.natural_scope == "phase" else 0.25

    def wild(num=None, color=None):
        return Card(num if rng.random() < 0.6 else None, color if rng.random() < 0.3 else None,
                    wild=True)

    if kind is Kind.WILD:
        return LaidGroup(Group(kind, size), (WILD,) * size), None
    if kind is Kind.SKIP:
        return LaidGroup(Group(kind, size), (SKIP,) * size), None
    one = rng.choice(COLORS)
    if kind.is_run:
        start = rng.randint(deck.low, deck.high - size + 1)
        if favor and rng.random() < 0.5:
            start = max(deck.low, min(deck.high - size + 1, rng.choice(favor) - rng.randrange(size)))
        colors = None
        if kind is Kind.RUN and rng.random() < 0.1:
            colors = tuple((n, frozenset(rng.sample(COLORS, 2)))
                           for n in range(deck.low, deck.high + 1) if n != start + size + 1)
        one_color = kind is Kind.COLOR_RUN or rules.runs_one_color
        cards = []
        for n in range(start, start + size):
            allowed = dict(colors)[n] if colors else COLORS
            if rng.random() < wild_p:
                cards.append(Card(n, None, wild=True) if rng.random() < 0.7 else WILD)
            else:
                cards.append(Card(n, one if one_color and one in allowed else
                                  rng.choice(sorted(allowed))))
        # an unstated wild must be read where it was laid (the reference knows its place)
        read = read_group(Group(kind, size, colors), cards, rules)[0]
        if read is None or [c.number for c in read] != list(range(start, start + size)):
            cards = [Card(start + k, None, wild=True) if c.wild else c for k, c in enumerate(cards)]
        return LaidGroup(Group(kind, size, colors), tuple(cards)), start
    num = rng.choice(favor) if favor and rng.random() < 0.5 else rng.randint(deck.low, deck.high)
    cards = []
    for _ in range(size):
        if rng.random() < wild_p:
            cards.append(wild(num if kind.is_set else None, one if kind.one_color else None))
            continue
        n = num if kind.is_set else rng.randint(deck.low, deck.high)
        if kind in (Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD):
            n = n - 1 if (n - num) % 2 and n > deck.low else n + 1 if (n - num) % 2 else n
        cards.append(Card(n, one if kind.one_color else rng.choice(COLORS)))
    return LaidGroup(Group(kind, size), tuple(cards)), None


RULE_SETS = [
    Rules(), Rules(wild_hit_end="low"), Rules(runs_one_color=True), Rules(wild_swap=True),
    Rules(wild_numbers=frozenset({3})), Rules(natural_scope="phase"), Rules(wild_as_skip=True),
    Rules(deck=Deck(high=9), wild_swap=True, wild_hit_end="low"),
    Rules(natural_scope="phase", wild_swap=True, runs_one_color=True),
    Rules(wild_numbers=frozenset({3}), wild_swap=True), Rules(min_naturals=2),
    Rules(wild_swap=True, natural_scope="phase", wild_numbers=frozenset({4})),
]


def _random_case(rng, rules, favor=()):
    laid, starts = [], {}
    while len(laid) < rng.randint(1, 3):
        lg, start = _random_group(rng, rules, favor)
        if read_group(lg.group, lg.cards, rules)[1]:
            continue
        if start is not None:
            starts[len(laid)] = start
        laid.append(lg)
    deck = rules.deck
    near = [n for i in starts for n in range(starts[i] - 3, starts[i] + len(laid[i].cards) + 3)
            if deck.low <= n <= deck.high] or list(deck.numbers)
    hand = []
    for _ in range(rng.randint(1, 5)):
        r = rng.random()
        if r < 0.18:
            hand.append(WILD)
        elif r < 0.23:
            hand.append(SKIP)
        else:
            num = rng.choice(near) if r < 0.8 else rng.randint(deck.low, deck.high)
            if favor and rng.random() < 0.3:
                num = rng.choice(favor)
            hand.append(Card(num, rng.choice(COLORS)))
    return laid, starts, hand


@pytest.mark.parametrize("seed", range(len(RULE_SETS)))
def test_plan_places_as_many_as_brute_force(seed):
    rules = RULE_SETS[seed]
    rng = random.Random(7000 + seed)
    for _ in range(400):
        laid, starts, hand = _random_case(rng, rules)
        p = plan(laid, hand, rules)
        want = _ref_best(_ref_state(laid, starts), hand, rules)
        assert p.exact and len(p.hits) == want, (rules, [str(g) for g in laid], hand,
                                                 [str(h) for h in p.hits])
        assert len(p.hits) + len(p.left) == len(hand)
        _replay(laid, p, rules, starts)
        # single hits: exactly the legal (group, end, swap) choices, every end a wild can take
        card = hand[0]
        assert _target_keys(laid, card, rules) == {
            m[:3] for m in _ref_moves(_ref_state(laid, starts), card, rules)}, (
            rules, [str(g) for g in laid], card)


def _target_keys(laid, card, rules):
    return {(h.index, h.end, ("back", str(h.swap)) if h.swap is not None and h.end is None
             and not laid[h.index].group.kind.is_run else None if h.swap is None
             else h.swap.number) for h in targets(laid, card, rules)}


# The options that change which group takes which card beyond the 12 sets above: postal
# wild numbers (one or two, in the laid groups and the hand far more often than chance,
# with every natural-minimum rule), Utah swaps with them, and the Japanese take-back.
OPTION_SETS = [
    Rules(wild_numbers=frozenset({5})), Rules(wild_numbers=frozenset({3, 7})),
    Rules(wild_numbers=frozenset({6}), natural_scope="phase"),
    Rules(wild_numbers=frozenset({8}), min_naturals=2),
    Rules(wild_numbers=frozenset({4, 5}), runs_one_color=True),
    Rules(wild_numbers=frozenset({9}), wild_as_skip=True),
    Rules(wild_swap=True, wild_numbers=frozenset({5, 6})),
    Rules(wild_swap=True, wild_numbers=frozenset({7}), natural_scope="phase", min_naturals=0),
    Rules(wild_swap=True, runs_one_color=True, wild_hit_end="low"),
    Rules(wild_take_back=True), Rules(wild_take_back=True, wild_swap=True),
    Rules(wild_take_back=True, wild_numbers=frozenset({5})),
    Rules(wild_take_back=True, wild_swap=True, wild_numbers=frozenset({6}), runs_one_color=True),
    Rules(wild_take_back=True, natural_scope="phase", deck=Deck(high=9)),
    # issue 19: a skip may hit a blue color group (or one of wilds alone, making it blue)
    Rules(skip_counts_as_blue=True), Rules(skip_counts_as_blue=True, min_naturals=0),
    Rules(skip_counts_as_blue=True, natural_scope="phase", wild_take_back=True),
]


@pytest.mark.parametrize("seed", range(len(OPTION_SETS)))
def test_plan_and_targets_agree_with_brute_force_under_postal_swap_and_take_back(seed):
    rules = OPTION_SETS[seed]
    favor = sorted(rules.wild_numbers) or [rules.deck.low + 4]
    rng = random.Random(9100 + seed)
    for _ in range(300):
        laid, starts, hand = _random_case(rng, rules, favor)
        p = plan(laid, hand, rules)
        want = _ref_best(_ref_state(laid, starts), hand, rules)
        assert p.exact and len(hand) - len(p.left) == want, (
            rules, [str(g) for g in laid], hand, [str(h) for h in p.hits])
        _replay(laid, p, rules, starts)
        for card in dict.fromkeys(hand):
            assert _target_keys(laid, card, rules) == {
                m[:3] for m in _ref_moves(_ref_state(laid, starts), card, rules)}, (
                rules, [str(g) for g in laid], card)


def _greedy(state, hand, rules):
    """Play any card that fits anywhere, again and again: a lower bound for the plan."""
    rest = list(hand)
    placed = 0
    progress = True
    while progress:
        progress = False
        for card in sorted(set(rest), key=str):
            moves = _ref_moves(state, card, rules)
            if moves:
                state = moves[0][3]
                rest.remove(card)
                placed += 1
                progress = True
    return placed


@pytest.mark.parametrize("rules", [Rules(), Rules(wild_swap=True)], ids=["default", "utah"])
def test_large_hands_seeded_search(rules):
    # Issue 8 goal 5 for hit_plan: big hands answer exactly (no budget stop on these),
    # every step is legal when played, and never fewer cards than playing greedily.
    rng = random.Random(808)
    for _ in range(4):
        pool = rules.deck.all_cards()
        laid, starts = [], {}
        while len(laid) < 4:
            lg, start = _random_group(rng, rules)
            if read_group(lg.group, lg.cards, rules)[1] or lg.group.kind in (Kind.WILD, Kind.SKIP):
                continue
            try:
                for c in lg.cards:
                    pool.remove(c.plain())
            except ValueError:
                continue
            if start is not None:
                starts[len(laid)] = start
            laid.append(lg)
        hand = rng.sample(pool, 60)
        p = plan(laid, hand, rules)
        assert p.exact and len(p.hits) + len(p.left) == 60
        _replay(laid, p, rules, starts)
        assert len(p.hits) >= _greedy(_ref_state(laid, starts), hand, rules)


def test_a_laid_group_named_by_a_phrase_with_a_color_map():
    # the phrase holds colons of its own; the cards come after the last one
    text = "1 run of 4 with colors {3: red, 4: red, 5: blue, 6: any, 7: red}: R4 B5 G6 R7"
    assert where("R3", [laid_group(text)]) == [(0, "low")]
    assert where("B3", [laid_group(text)]) == []
    assert where("W", [laid_group(text)]) == [(0, "low")]  # 8 is not in the map
    r = run_cli("hit", "B3", "--on", text.replace("R4 B5", "R4 R5"))
    assert r.exit_code == 2 and "must be blue, not red" in r.stderr


def test_hostile_tables_answer_and_stay_within_limits():
    # 100 laid groups and 200 cards (the API does not check the deck's supply): a deep
    # search stays within Python's recursion limit and answers
    runs = [laid_group("run: R4 R5 R6") for _ in range(100)]
    p = plan(runs, [Card(3, "R")] * 100 + [Card(7, "R")] * 100)
    assert p.complete and p.exact
    rules = Rules(natural_scope="phase")
    crowded = [laid_group("color_set: W W W", rules) for _ in range(8)] + runs[:92]
    hand = [Card(n, c) for n in range(1, 13) for c in COLORS] * 4 + [WILD] * 8
    p = plan(crowded, hand[:200], rules)
    assert len(p.hits) + len(p.left) == 200 and len(p.hits) >= 8 * 3
    with pytest.raises(LayoutError, match="too many laid groups"):
        plan(runs + runs[:1], [Card(3, "R")])


def test_a_plan_takes_a_wild_back_where_the_freed_wild_places_more():
    rules = Rules(wild_take_back=True)
    laid = [laid_group("run: R4 W R6", rules), laid_group("run: B1 B2", rules)]
    p = plan(laid, parse_cards("R5 B4"), rules)
    assert p.complete and p.exact, [str(h) for h in p.hits]  # R5 and B4 were left
    assert [str(h) for h in p.hits] == ["R5 replaces W=5 in group 1; the wild goes to your hand",
                                        "W onto group 2 at the high end (as 3)",
                                        "B4 onto group 2 at the high end"]
    assert hit_json(laid, parse_cards("R5 B4"), rules)["placed"] == 2  # of 2 cards, not 3
    # nowhere to play the freed wild: the plan does not take it
    full = laid_group("run: " + " ".join("W" if n == 5 else f"R{n}" for n in range(1, 13)), rules)
    assert [str(c) for c in plan([full], parse_cards("B5"), rules).left] == ["B5"]


def test_a_natural_takes_back_a_wild_of_a_color_or_parity_group_and_says_which_wild():
    rules = Rules(wild_take_back=True)
    assert where("G4", [laid_group("even_odd: R2 W B6", rules)], rules) == [(0, None), (0, None)]
    assert where("G4", [laid_group("color: G1 G7 W", rules)], rules) == [(0, None), (0, None)]
    # a set holding W and W=9: either may go to the hand (W=9 stays 9 once the 9s act wild)
    got = [str(h) for h in targets([laid_group("set: R9 W W=9", rules)], Card.parse("G9"), rules)]
    assert got == ["G9 onto group 1", "G9 replaces W in group 1; the wild goes to your hand",
                   "G9 replaces W=9 in group 1; the wild goes to your hand"]
