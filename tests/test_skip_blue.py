"""Issue 19: the house rule skip_counts_as_blue (Japanese page: a skip "used as a blue card").

A skip may be laid as a blue card (S=B) only in a color group with no color map, which is then
blue; it is no natural.  The solver is checked against the brute force of tests/reference.py,
which knows the rule from its definition (a skip in a color group takes the value "a blue
card without a number"), on random and near-miss hands, alone and with the classic kinds,
under the natural scopes, shared set numbers, wild_as_skip.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations

import pytest
from reference import can_make, card_tuple, layout_ok

from phasedsl import STANDARD_DECK, Card, Deck, Phase, Rules, parse_cards
from phasedsl.errors import CardError
from phasedsl.melds.layout import verify
from phasedsl.model.group import Group, Kind, Part
from phasedsl.solver import assess, find, outs, unseen_counts

BLUE = Rules(skip_counts_as_blue=True)
DECK = STANDARD_DECK.all_cards()
SKIP_BLUE = Card(None, "B", skip=True)

# (rules, the reference's keywords)
RULESETS = [
    (BLUE, {}),
    (BLUE.with_(natural_scope="phase"), {"scope": "phase"}),
    (BLUE.with_(min_naturals=2), {"min_nat": 2}),
    (BLUE.with_(min_naturals=0), {"min_nat": 0}),
    (BLUE.with_(sets_share_number=False), {"share": False}),
    (BLUE.with_(wild_as_skip=True), {"wild_skip": True}),
    (BLUE.with_(natural_scope="phase", min_naturals=2), {"scope": "phase", "min_nat": 2}),
]

PHASES = [
    "7 cards of one color", "4 cards of one color", "2 color groups of 3",
    "1 set of 3 + 1 color group of 4", "1 color group of 4 + 1 skip",
    "1 color group of 3 + 1 run of 4", "1 color group of 3 + 1 color group of 4",
    "1 color run of 3 + 1 color group of 3", "1 color even or odd of 3 + 1 color group of 3",
    "1 color group of 3 + 1 wild + 1 set of 2", "1 color group of 4 + 2 skips",
    "3 color groups of 2",
]

KINDS = [Kind.COLOR, Kind.COLOR, Kind.COLOR, Kind.SET, Kind.RUN, Kind.COLOR_RUN,
         Kind.EVEN_ODD, Kind.COLOR_EVEN_ODD, Kind.COLOR_SET, Kind.WILD, Kind.SKIP]


def ref_groups(phase: Phase) -> list:
    return [(g.kind.value, g.size, None) for g in phase.groups]


def reference(phase: Phase, hand, kw: dict) -> bool:
    return can_make(ref_groups(phase), [card_tuple(c) for c in hand], blue="B", **kw)


def blue_hand(rng: random.Random, size: int) -> list[Card]:
    """A hand crowded into blue and one other color, with skips: it often lands one off."""
    colors = ["B", rng.choice("RGY")]
    crowd = [c for c in DECK if c.natural and c.color in colors and c.number <= rng.randint(4, 12)]
    skips = [c for c in DECK if c.skip][: rng.randint(0, 4)]
    wilds = [c for c in DECK if c.wild][: rng.randint(0, 2)]
    pool = crowd + skips + skips + wilds + rng.sample(DECK, 4)  # skips twice: likelier
    hand: list[Card] = []
    left = {c: DECK.count(c) for c in set(DECK)}
    while len(hand) < size:
        c = rng.choice(pool)
        if left[c]:
            left[c] -= 1
            hand.append(c)
    return hand


def random_phase(rng: random.Random) -> Phase:
    parts = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(KINDS)
        size = rng.randint(1, 2) if kind in (Kind.WILD, Kind.SKIP) else rng.randint(2, 4)
        parts.append(Part(1, Group(kind, size)))
    return Phase(tuple(parts))


def _check(phase: Phase, hand: list[Card], rules: Rules, kw: dict) -> bool:
    got = find(phase, hand, rules)
    expect = reference(phase, hand, kw)
    assert (got is not None) == expect, (str(phase), kw, " ".join(map(str, hand)))
    if got is not None:
        laid = [list(g.cards) for g in got.groups]
        v = verify(phase, laid, rules, hand=hand)
        assert v.valid, (str(phase), kw, str(got), v.problems)
    return expect


@pytest.mark.parametrize("phrase", PHASES)
def test_find_agrees_with_the_brute_force(phrase):
    phase = Phase.parse(phrase)
    rng = random.Random(phrase)
    made = by_skip = 0
    for i in range(100):
        hand = blue_hand(rng, rng.choice([7, 8, 10])) if i % 3 else rng.sample(DECK, 9)
        for rules, kw in RULESETS:
            if _check(phase, hand, rules, kw):
                made += 1
                by_skip += find(phase, hand, rules.with_(skip_counts_as_blue=False)) is None
    assert made
    # some hands are made only with a skip as a blue card (rare where skip parts take two)
    assert by_skip or phrase.endswith("2 skips")


def test_find_agrees_on_random_phases():
    rng = random.Random(19)
    made = 0
    for _ in range(1500):
        phase = random_phase(rng)
        if phase.cards_needed > 9:
            continue
        hand = blue_hand(rng, rng.choice([8, 9]))
        rules, kw = rng.choice(RULESETS)
        made += _check(phase, hand, rules, kw)
    assert made > 20


def test_the_rule_off_or_no_blue_changes_nothing():
    hand = parse_cards("B1 B2 B3 S")
    assert find("4 cards of one color", hand, BLUE) is not None
    assert find("4 cards of one color", hand) is None
    nob = Rules(deck=Deck(colors=("R", "G", "Y", "P"),
                          color_names=(("R", "red"), ("G", "green"), ("Y", "yellow"),
                                       ("P", "purple"))), skip_counts_as_blue=True)
    assert find("4 cards of one color", parse_cards("P1 P2 P3 S", nob.deck), nob) is None


@pytest.mark.parametrize(("phrase", "hand", "meld"), [
    ("4 cards of one color", "B1 B2 B3 S", "B1 B2 B3 S=B"),
    ("4 cards of one color", "B1 S S S", "B1 S=B S=B S=B"),
    ("1 set of 3 + 1 color group of 4", "R5 R5 G5 B1 B7 S S", "R5 R5 G5 | B1 B7 S=B S=B"),
    ("2 color groups of 3", "B1 S S R1 R2 W", "B1 S=B S=B | R1 R2 W=R"),
    ("4 cards of one color", "B1 W S S", "B1 W=B S=B S=B"),
])
def test_find_prints_the_skip_as_a_blue_card(phrase, hand, meld):
    assert str(find(phrase, hand, BLUE)) == meld


@pytest.mark.parametrize(("phrase", "hand"), [
    ("4 cards of one color", "R1 R2 R3 S"),  # a skip makes the group blue
    ("4 cards of one color", "S S S W"),  # no natural
    ("1 run of 4", "B1 B2 B3 S"),  # numbers: not a color group
    ("1 color run of 4", "B1 B2 B3 S"),
    ("1 color set of 3", "B1 B1 S"),
    ("4 cards of one color + 1 skip", "B1 B2 B3 S"),  # the skip part takes it first
])
def test_find_refuses_what_the_rule_does_not_say(phrase, hand):
    assert find(phrase, hand, BLUE) is None
    assert not reference(Phase.parse(phrase), parse_cards(hand), {})


def test_a_phase_of_skips_alone_needs_no_natural_only_with_no_minimum():
    rules = BLUE.with_(min_naturals=0)
    assert str(find("3 cards of one color", "S S S", rules)) == "S=B S=B S=B"
    assert find("3 cards of one color", "S S S", BLUE.with_(natural_scope="phase")) is None


# ---------------------------------------------------------------- shortfall and outs


def _outs_by_brute_force(phase: Phase, hand: list[Card], rules: Rules, kw: dict) -> set[str]:
    pool = unseen_counts(hand, (), rules)
    return {str(c) for c in pool if reference(phase, [*hand, c], kw)}


@pytest.mark.parametrize("phrase", ["7 cards of one color", "1 set of 3 + 1 color group of 4",
                                    "2 color groups of 3", "1 color group of 4 + 1 skip",
                                    "1 color group of 3 + 1 run of 4"])
def test_shortfall_and_outs_agree_with_the_brute_force(phrase):
    phase = Phase.parse(phrase)
    rng = random.Random("outs " + phrase)
    ones = 0
    for _ in range(60):
        hand = blue_hand(rng, phase.cards_needed - 1 + rng.randint(0, 2))
        for rules, kw in RULESETS[:3]:
            a = assess(phase, hand, rules)
            made = reference(phase, hand, kw)
            assert (a.meld is not None) == made, (phrase, kw, " ".join(map(str, hand)))
            if made:
                continue
            sf = a.shortfall
            assert sf.exact and sf.missing >= 1
            expect = _outs_by_brute_force(phase, hand, rules, kw)
            assert (sf.missing == 1) == bool(expect), (phrase, kw, " ".join(map(str, hand)))
            if sf.missing == 1:
                ones += 1
                got = {str(o.card) for o in outs(phase, hand, rules)}
                assert got == expect, (phrase, kw, " ".join(map(str, hand)))
            elif sf.possible:
                assert reference(phase, [*hand, *sf.example], kw), (phrase, sf.example)
    assert ones


def test_a_skip_drawn_is_an_out_for_a_blue_color_group():
    sf = assess("7 cards of one color", "B1 B2 B3 B4 B5 B6", BLUE).shortfall
    assert sf.missing == 1 and "S" in {str(o.card) for o in sf.outs}
    assert "a wild or a skip completes" in sf.summary(Phase.parse("7 cards of one color"), BLUE)
    # red: no
    sf = assess("7 cards of one color", "R1 R2 R3 R4 R5 R6", BLUE).shortfall
    assert "S" not in {str(o.card) for o in sf.outs}
    # off: no
    sf = assess("7 cards of one color", "B1 B2 B3 B4 B5 B6").shortfall
    assert "S" not in {str(o.card) for o in sf.outs}


def test_a_skip_in_hand_shortens_the_shortfall():
    assert assess("7 cards of one color", "B1 B2 B3 B4 S", BLUE).shortfall.missing == 2
    assert assess("7 cards of one color", "B1 B2 B3 B4 S").shortfall.missing == 3


# ---------------------------------------------------------------- verify


@pytest.mark.parametrize(("phrase", "groups", "rule"), [
    ("4 cards of one color", ["R1 R2 R3 S"], "skip_as_blue"),
    ("1 run of 4", ["B1 B2 B3 S"], "skip_as_blue"),
    ("1 color set of 3", ["B1 B1 S=B"], "skip_as_blue"),
    ("4 cards of one color + 1 skip", ["B1 B2 B3 S", "S=B"], "skip_part"),
    ("4 cards of one color", ["S S S W"], "natural_minimum"),
])
def test_verify_names_the_broken_rule(phrase, groups, rule):
    v = verify(phrase, groups, BLUE)
    assert not v.valid and rule in {p.rule for p in v.problems}, v.problems


def test_verify_without_the_rule_says_where_it_comes_from():
    v = verify("4 cards of one color", ["B1 B2 B3 S=B"])
    assert [p.rule for p in v.problems] == ["skip"]
    assert "skip_counts_as_blue" in v.problems[0].message


def test_verify_lays_the_skip_as_a_blue_card_from_the_hand():
    v = verify("4 cards of one color", ["B1 S B3 W"], BLUE, hand=parse_cards("B1 B3 S W R9"))
    assert v.valid and str(v.meld) == "B1 S=B B3 W=B"
    assert v.meld.cards().count(Card(skip=True)) == 1
    v = verify("4 cards of one color", ["B1 S=B B3 W"], BLUE, hand=parse_cards("B1 B3 W R9"))
    assert [p.rule for p in v.problems] == ["not_in_hand"]


def test_verify_agrees_with_the_reference_on_random_layouts():
    rng = random.Random(1919)
    cards = [*(c for c in DECK if c.natural and c.color in "BR" and c.number <= 4),
             Card(skip=True), Card(skip=True), Card(wild=True)]
    phases = ["3 cards of one color", "1 color group of 2 + 1 set of 2",
              "1 color group of 3 + 1 skip"]
    for _ in range(600):
        phrase = rng.choice(phases)
        phase = Phase.parse(phrase)
        sizes = [g.size + rng.randint(0, 1) for g in phase.groups]
        drawn = rng.sample(cards, sum(sizes))  # one draw: the deck's copies hold
        laid = [drawn[sum(sizes[:i]):sum(sizes[:i + 1])] for i in range(len(sizes))]
        for rules, kw in [*RULESETS[:4], (BLUE.with_(wild_numbers=frozenset({2})),
                                            {"postal": frozenset({2})})]:
            v = verify(phase, laid, rules)
            expect = layout_ok(ref_groups(phase), [[card_tuple(c) for c in g] for g in laid],
                               blue="B", **kw)
            assert v.valid == expect, (phrase, kw, laid, v.problems)


# ---------------------------------------------------------------- cards


def test_the_notation():
    (s,) = parse_cards("s=b")
    assert s == SKIP_BLUE and str(s) == "S=B" and s.plain() == Card(skip=True)
    assert not s.natural
    with pytest.raises(CardError, match="only for a blue card"):
        parse_cards("S=R")
    nob = Deck(colors=("R", "G"), color_names=(("R", "red"), ("G", "green")))
    with pytest.raises(CardError, match="no blue"):
        parse_cards("S=B", nob)


def test_a_skip_left_in_hand_scores_as_a_skip():
    from phasedsl.melds.scoring import score

    assert score(parse_cards("S"), BLUE) == 15


# ---------------------------------------------------------------- odds


def test_odds_are_exact_and_agree_with_counting_every_hand():
    """A small deck, every hand of 5 counted by the brute force."""
    from phasedsl.design.odds import exact_odds

    deck = Deck(colors=("R", "B"), low=1, high=3, copies=1, wilds=1, skips=2,
                color_names=(("R", "red"), ("B", "blue")))
    for rules_kw, kw in [({}, {}), ({"natural_scope": "phase"}, {"scope": "phase"})]:
        rules = Rules(deck=deck, hand_size=5, skip_counts_as_blue=True, **rules_kw)
        for phrase in ["4 cards of one color", "2 color groups of 2",
                           "1 color group of 2 + 1 color even or odd of 2",
                           "1 color group of 3 + 1 skip"]:
            phase = Phase.parse(phrase, deck)
            cards = deck.all_cards()
            made = sum(can_make(ref_groups(phase), [card_tuple(c) for c in hand], blue="B",
                                low=1, high=3, **kw)
                       for hand in combinations(cards, 5))
            got = exact_odds(phase, rules)
            assert got is not None and got.method == "exact"
            assert got.fraction == Fraction(made, math.comb(len(cards), 5)), (phrase, kw)
            off = exact_odds(phase, rules.with_(skip_counts_as_blue=False))
            assert off.fraction < got.fraction


# ---------------------------------------------------------------- hits


def test_a_skip_hits_a_blue_color_group_only():
    from phasedsl.melds.hits import laid_group, plan, targets

    laid = [laid_group("color: B1 B2 B3 W", BLUE), laid_group("color: R1 R2 R3 W", BLUE),
            laid_group("run: B4 B5 B6", BLUE)]
    assert [h.group for h in targets(laid, "S", BLUE)] == [1]
    assert targets(laid, "S", Rules()) == []
    p = plan(laid, "S S B9 R7", BLUE)
    assert p.complete and [h.group for h in p.hits if h.card.skip] == [1, 1]
    # a color group laid with a skip in it is blue: it takes blue cards and skips only
    (g,) = [laid_group("color: B1 S W", BLUE)]
    assert [h.group for h in targets([g], "S", BLUE)] == [1]
    assert targets([g], "R5", BLUE) == []
    assert [h.group for h in targets([g], "B5", BLUE)] == [1]


# ---------------------------------------------------------------- packs, lint, the referee


def test_the_pack_switches_it_on_and_lints_clean():
    from phasedsl import load_pack
    from phasedsl.packs.pack import check_file

    pack = load_pack("japanese-skip-blue")
    assert pack.rules.skip_counts_as_blue
    assert "フェーズ10" in pack.source
    got, diags = check_file("japanese-skip-blue", strict=True)
    assert got is not None and diags == []


def test_lint_says_when_the_rule_changes_nothing(tmp_path):
    from phasedsl.packs.pack import check_file

    f = tmp_path / "p.yaml"
    f.write_text("name: p\ntitle: P\ndescription: d\nsource: s\nextends: original\n"
                 "rules:\n  game_length: 2\n  house_rules:\n    skip_counts_as_blue: true\n"
                 "phases: ['2 sets of 3', '1 run of 4']\n", encoding="utf-8")
    pack, diags = check_file(str(f), strict=True)
    assert pack is not None
    msgs = [d.message for d in diags]
    assert not [d for d in diags if d.severity == "error"], msgs
    assert any("skip_counts_as_blue is on, but no phase has a color group" in m for m in msgs)


def test_greedy_bots_play_the_pack_to_the_end_laying_skips_as_blue():
    import json

    from phasedsl.game import Game, view
    from phasedsl.game.log import replay
    from phasedsl.players.bots import make_bot

    laid_blue = 0
    for seed in range(1, 4):
        names = ["ann", "bob", "cat"]
        g = Game.new("japanese-skip-blue", names, seed=seed)
        bots = {n: make_bot("greedy", seed + k) for k, n in enumerate(names)}
        for _ in range(20_000):
            if g.over:
                break
            g = g.apply(bots[g.state.to_move].choose(view(g.state, g.state.to_move)))
        assert g.over and g.winner is not None
        log = g.to_log()
        assert replay(log).legal
        laid_blue += "S=B" in json.dumps(list(log))
    assert laid_blue


def _blue_pack(tmp_path) -> str:
    from game_logs import write_pack

    return write_pack(tmp_path, "blue", "extends: japanese-skip-blue\nrules:\n  game_length: 2\n"
                                        "phases: ['4 cards of one color', '2 sets of 3']\n")


def test_the_referee_lays_and_hits_a_skip_as_a_blue_card(tmp_path):
    from game_logs import deal, discard, draw, game, hit, illegal, lay, legal

    head = game(_blue_pack(tmp_path))
    hands = deal(ann="B1 B2 B3 S S R9 R10 G4 Y6 Y8")
    laid = [draw("ann", "R1"), lay("ann", "B1 B2 B3 S")]
    r = legal(*laid, header=head, first_deal=hands)
    ann = r.state.seat("ann")
    assert ann.laid_phase == 1 and r.state.pending_skips == ()  # it skips nobody
    assert sorted(map(str, ann.hand)).count("S") == 1
    r = legal(*laid, hit("ann", "S", "ann", 1), header=head, first_deal=hands)
    assert "S" not in map(str, r.state.seat("ann").hand)
    # laid as blue, it is gone: it cannot be discarded as a skip too
    assert illegal(*laid, hit("ann", "S", "ann", 1), discard("ann", "S", skip="bob"),
                   header=head, first_deal=hands) == "not_in_hand"
    # a skip in a red color group
    bad = illegal(draw("ann", "R1"), lay("ann", "R1 R2 R3 S"), header=head,
                  first_deal=deal(ann="R1 R2 R3 S S R9 R10 G4 Y6 Y8"))
    assert bad == "phase_not_made"


def test_the_referee_refuses_a_skip_hit_onto_a_red_group(tmp_path):
    from game_logs import deal, draw, game, hit, illegal, lay

    head = game(_blue_pack(tmp_path))
    hands = deal(ann="R4 R5 R6 W S G9 G11 Y10 Y12 B7")
    assert illegal(draw("ann", "R1"), lay("ann", "R4 R5 R6 W"), hit("ann", "S", "ann", 1),
                   header=head, first_deal=hands) == "hit_does_not_fit"


def test_a_skip_left_in_hand_at_the_end_of_a_hand_scores_15(tmp_path):
    from game_logs import deal, discard, draw, game, lay, legal

    head = game(_blue_pack(tmp_path))
    # ann lays B1 B2 B3 S, then goes out over two turns; bob keeps his skip
    hands = deal(ann="B1 B2 B3 S R9 G4 Y6 Y8 Y10 G2", bob="R2 B2 G2 R9 B9 G9 Y11 S R12 B12")
    r = legal(draw("ann", "R1"), lay("ann", "B1 B2 B3 S"), discard("ann", "R1"),
              header=head, first_deal=hands)
    assert r.state.seat("ann").laid_phase == 1
    from phasedsl.game.engine import hand_points

    # ann's skip is on the table, bob's in his hand: 15, as ever
    assert hand_points(r.state, 0) == 5 + 5 + 5 + 5 + 10 + 5
    assert hand_points(r.state, 1) == 5 * 3 + 5 * 3 + 10 + 15 + 10 + 10


def test_many_color_groups_stay_within_the_budget():
    import time

    from phasedsl.solver import SearchLimit

    phrase = " + ".join(f"1 color group of {n}" for n in range(2, 12))  # 65 cards
    started = time.monotonic()
    # too few cards, skips and all: no search
    assert find(phrase, "B1 B2 S S S S R1 R2 G5 W", BLUE) is None
    sf = assess(phrase, "B1 B2 S S S S R1 R2 G5 W", BLUE).shortfall
    # its skips can save at most 4 of the plain reading's 59: a range, labelled
    assert (sf.missing, sf.at_most, sf.exact) == (55, 59, False)
    # enough cards: 1,023 choices of blue groups is past the budget, said so
    hand = [c for c in DECK if c.natural][:60] + [Card(skip=True)] * 4 + [Card(wild=True)] * 2
    with pytest.raises(SearchLimit):
        find(phrase, hand, BLUE)
    sf = assess(phrase, hand, BLUE).shortfall
    assert not sf.exact or not sf.decided
    assert time.monotonic() - started < 10


def _most_placed(laid: list, hand: tuple, rules: Rules) -> int:
    """The most cards of ``hand`` any order of hits places on groups with no ends (color
    groups, sets, skip parts): each step judged by layout.read_group on the whole group."""
    from functools import cache

    from phasedsl.melds.layout import read_group

    @cache
    def best(state: tuple, hand: tuple) -> int:
        top = 0
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            for gi, (group, cards) in enumerate(state):
                if not read_group(group, (*cards, card), rules)[1]:
                    new = (*state[:gi], (group, (*cards, card)), *state[gi + 1:])
                    top = max(top, 1 + best(new, tuple(sorted(rest, key=str))))
        return top

    return best(tuple((lg.group, lg.cards) for lg in laid), tuple(sorted(hand, key=str)))


@pytest.mark.parametrize("rules", [BLUE, BLUE.with_(min_naturals=0),
                                   BLUE.with_(natural_scope="phase")])
def test_hit_plans_with_skips_place_as_many_as_any_order(rules):
    from phasedsl.melds.hits import laid_group, plan, targets

    rng = random.Random(str(rules))
    shapes = ["color: B1 B5 W", "color: R2 R2 R9", "color: W W W", "color: B3 S W",
              "set: B7 G7 W", "skips: S", "color: G1 W", "color: W W"]
    cards = [*parse_cards("S S S S W B4 B11 R6 G6 G7 Y7")]
    skip_hits = 0
    for _ in range(150):
        laid = []
        for text in rng.sample(shapes, rng.randint(1, 3)):
            try:
                laid.append(laid_group(text, rules))
            except Exception:  # a wilds-only group where a natural is needed
                continue
        if not laid:
            continue
        hand = tuple(rng.sample(cards, rng.randint(1, 5)))
        p = plan(laid, list(hand), rules)
        assert p.exact and len(p.hits) == _most_placed(laid, hand, rules), (
            [str(g) for g in laid], hand, str(p))
        skip_hits += sum(h.card.skip and laid[h.index].group.kind is Kind.COLOR for h in p.hits)
        from phasedsl.melds.layout import read_group

        # the plan, played in its order, is legal at every step
        now = {i: lg.cards for i, lg in enumerate(laid)}
        for h in p.hits:
            now[h.index] = (*now[h.index], h.card)
            assert not read_group(laid[h.index].group, now[h.index], rules)[1], str(p)
        # a single skip: exactly the groups read_group takes it in

        want = {i for i, lg in enumerate(laid)
                if not read_group(lg.group, (*lg.cards, Card(skip=True)), rules)[1]}
        assert {h.index for h in targets(laid, "S", rules)} == want, [str(g) for g in laid]
    assert skip_hits


def test_a_hand_holds_plain_skips_only():
    from typer.testing import CliRunner

    from phasedsl.cli import app

    for args in (["check", "4 cards of one color", "B1", "S=B"], ["score", "S=B"],
                 ["check", "-v", "japanese-skip-blue", "--phase", "8", "B1", "S=B"]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and "a skip is a blue card only once it is laid" in r.output, (
            args, r.output)


def test_postal_wild_numbers_and_skips_as_blue_together():
    """No brute force of find knows the postal rule: its melds verify, and the rule only
    adds melds (a hand made without it is made with it)."""
    rng = random.Random(2)
    postal = BLUE.with_(wild_numbers=frozenset({3}))
    phases = [Phase.parse(p) for p in ("4 cards of one color", "1 set of 3 + 1 color group of 3",
                                       "2 color groups of 3")]
    made = 0
    for _ in range(150):
        phase = rng.choice(phases)
        hand = blue_hand(rng, 8)
        got = find(phase, hand, postal)
        if find(phase, hand, postal.with_(skip_counts_as_blue=False)) is not None:
            assert got is not None
        if got is not None:
            made += 1
            v = verify(phase, [list(g.cards) for g in got.groups], postal, hand=hand)
            assert v.valid, (str(phase), str(got), v.problems)
    assert made


def test_a_log_names_a_skip_as_blue_only_where_it_is_laid(tmp_path):
    from game_logs import deal, discard, draw, game, hit, lay, legal, run

    from phasedsl.game.moves import LogError

    head = game(_blue_pack(tmp_path))
    hands = deal(ann="B1 B2 B3 S S R9 R10 G4 Y6 Y8")
    r = legal(draw("ann", "R1"), lay("ann", "B1 B2 B3 S=B"), hit("ann", "S=B", "ann", 1),
              header=head, first_deal=hands)
    laid = r.state.seat("ann").laid[0].played
    assert [c.plain() for c in laid.cards].count(Card(skip=True)) == 2
    assert "S" not in map(str, r.state.seat("ann").hand)
    with pytest.raises(LogError, match="says a skip is a blue card"):
        run(draw("ann", "R1"), discard("ann", "S=B", skip="bob"), header=head,
            first_deal=hands)
