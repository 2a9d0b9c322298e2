"""Sums ("cards totalling 34", "5 cards of one color totalling 34"): find, verify, the
shortfall and outs, hits, odds, lint and play, checked against the brute force of
tests/reference.py (which learns sums from their definition, not from the solver)."""

from __future__ import annotations

import math
import os
import random

import pytest
from reference import can_make, card_tuple, layout_ok

from phasedsl import STANDARD_DECK, Card, Phase, parse_cards
from phasedsl.melds.layout import verify
from phasedsl.model.group import Group, Kind, Part
from phasedsl.model.rules import Rules
from phasedsl.solver import find

DECK = STANDARD_DECK.all_cards()
HIGH = STANDARD_DECK.high
# seeds of the random agreement runs (PHASEDSL_SUMS_SEEDS=30 for a larger run than CI's)
SEEDS = int(os.environ.get("PHASEDSL_SUMS_SEEDS", "6"))


def sum_group(rng: random.Random, color: bool | None = None) -> Group:
    kind = Kind.COLOR_SUM if (rng.random() < 0.4 if color is None else color) else Kind.SUM
    if rng.random() < 0.5:
        total = rng.randint(8, 40)
        return Group(kind, math.ceil(total / HIGH), total=total, any_count=True)
    size = rng.randint(2, 4)
    return Group(kind, size, total=rng.randint(size * 2, size * 10))


CLASSIC = [Group(Kind.SET, 2), Group(Kind.SET, 3), Group(Kind.RUN, 3), Group(Kind.COLOR, 3),
           Group(Kind.EVEN_ODD, 3), Group(Kind.COLOR_RUN, 2), Group(Kind.WILD, 1),
           Group(Kind.SKIP, 1)]


def random_sum_phase(rng: random.Random) -> Phase:
    groups = [sum_group(rng)]
    if rng.random() < 0.25:
        groups.append(groups[0] if rng.random() < 0.5 else sum_group(rng))
    if rng.random() < 0.6:
        groups.append(rng.choice(CLASSIC))
    rng.shuffle(groups)
    return Phase(tuple(Part(1, g) for g in groups))


def ref_groups(phase: Phase) -> list[tuple]:
    out = []
    for g in phase.groups:
        colors = {n: set(cs) for n, cs in g.colors} if g.colors else None
        if g.kind.is_sum:
            out.append((g.kind.value, g.size, colors, g.total, g.any_count))
        else:
            out.append((g.kind.value, g.size, colors))
    return out


def near_sum_hand(rng: random.Random, phase: Phase, size: int) -> list[Card]:
    """A hand holding a sum's cards but for one changed or dropped: often one card off."""
    g = next(g for g in phase.groups if g.kind.is_sum)
    color = rng.choice("RBGY")
    cards: list[Card] = []
    left = g.total
    while left > 0 and len(cards) < size - 2:
        x = min(left, rng.randint(1, HIGH))
        cards.append(Card(x, color if g.kind is Kind.COLOR_SUM else rng.choice("RBGY")))
        left -= x
    if cards and rng.random() < 0.7:
        i = rng.randrange(len(cards))
        c = cards[i]
        cards[i] = Card(max(1, min(HIGH, c.number + rng.choice((-1, 1)))), c.color)
    rest = rng.sample(DECK, size)
    out, held = [], {}
    for c in cards + rest:  # no more copies of a card than the deck has
        if held.get(c, 0) < STANDARD_DECK.supply(c) and len(out) < size:
            held[c] = held.get(c, 0) + 1
            out.append(c)
    return out


RULESETS = [
    (Rules(), {}),
    (Rules(natural_scope="phase"), {"scope": "phase"}),
    (Rules(sets_share_number=False), {"share": False}),
    (Rules(min_naturals=2), {"min_nat": 2}),
    (Rules(extras=False), {}),
    (Rules(natural_scope="phase", min_naturals=3), {"scope": "phase", "min_nat": 3}),
]


def ref_postal(phase: Phase, hand: list[Card], postal: set[int], **kw) -> bool:
    cards = [card_tuple(c) for c in hand]
    flex = [i for i, c in enumerate(cards) if c[0] == "n" and c[1] in postal]
    for mask in range(1 << len(flex)):
        tried = list(cards)
        for b, i in enumerate(flex):
            if mask >> b & 1:
                tried[i] = ("w", 0, "")
        if can_make(ref_groups(phase), tried, **kw):
            return True
    return False


def check_case(phase: Phase, hand: list[Card], rules: Rules, expect: bool) -> bool:
    got = find(phase, hand, rules)
    shown = f"{phase} | {' '.join(map(str, hand))} | {rules}"
    assert (got is not None) == expect, shown
    if got is not None:
        v = verify(phase, [list(g.cards) for g in got.groups], rules, hand=hand)
        assert v.valid, (shown, str(got), v.problems)
        acting = {(gi, ci): w for gi, ci, w in got.acting}
        for gi, lg in enumerate(got.groups):
            if lg.group.kind.is_sum:
                # every wild says the number it stands for (a postal card: the one it acts
                # as), and the numbers add up
                nums = [acting.get((gi, ci), c).number for ci, c in enumerate(lg.cards)]
                assert None not in nums and sum(nums) == lg.group.total, (shown, str(got))
    return got is not None


@pytest.mark.parametrize("seed", range(SEEDS))
def test_find_agrees_with_brute_force_on_random_and_near_miss_hands(seed):
    rng = random.Random(f"sums {seed}")
    made = tried = 0
    for i in range(60):
        phase = random_sum_phase(rng)
        size = rng.randint(6, 9)
        hand = near_sum_hand(rng, phase, size) if i % 2 else rng.sample(DECK, size)
        for rules, kw in RULESETS:
            expect = can_make(ref_groups(phase), [card_tuple(c) for c in hand], **kw)
            made += check_case(phase, hand, rules, expect)
            tried += 1
    assert 0 < made < tried


def test_find_agrees_with_brute_force_with_postal_wild_numbers():
    rng = random.Random("sums postal")
    made = 0
    for i in range(80):
        phase = random_sum_phase(rng)
        hand = near_sum_hand(rng, phase, 7) if i % 2 else rng.sample(DECK, 7)
        for postal, min_nat in (({1}, 1), ({5, 6}, 2)):
            rules = Rules(wild_numbers=frozenset(postal), min_naturals=min_nat)
            expect = ref_postal(phase, hand, postal, min_nat=min_nat)
            made += check_case(phase, hand, rules, expect)
    assert made > 0


KINDS_OF_CARD = sorted(set(c.plain() for c in DECK), key=str)


def completes(phase: Phase, hand: list[Card], rules: Rules, extra: list[Card]) -> bool:
    return find(phase, [*hand, *extra], rules) is not None


@pytest.mark.parametrize("seed", range(max(1, SEEDS // 2)))
def test_shortfall_and_outs_are_exact(seed):
    """Made: a meld; one short: the outs are exactly the unseen cards completing the hand;
    two or more: no single card completes it, and the example (when possible) does."""
    from collections import Counter

    from phasedsl.solver import assess

    rng = random.Random(f"sums short {seed}")
    seen_short = Counter()
    for i in range(40):
        phase = random_sum_phase(rng)
        hand = near_sum_hand(rng, phase, rng.randint(5, 8)) if i % 2 else rng.sample(DECK, 7)
        rules = RULESETS[i % len(RULESETS)][0]
        got = assess(phase, hand, rules)
        short = got.shortfall
        if short.never:  # (the phase-scope minimum beyond a fixed sum's cards)
            assert find(phase, DECK, rules) is None, short.never
            continue
        assert short.exact and short.decided
        seen_short[short.missing] += 1
        if short.missing == 0:
            assert got.meld is not None and find(phase, hand, rules) is not None
            continue
        assert find(phase, hand, rules) is None
        held = Counter(c.plain() for c in hand)
        unseen = [c for c in KINDS_OF_CARD if STANDARD_DECK.supply(c) > held[c]]
        one = {c for c in unseen if completes(phase, hand, rules, [c])}
        assert {o.card for o in short.outs} == (one if short.missing == 1 else set()), \
            (str(phase), " ".join(map(str, hand)), short)
        if short.missing == 1:
            assert one, (str(phase), " ".join(map(str, hand)))
        if short.missing >= 2:
            assert not one
            assert len(short.example) == short.missing, (str(phase), " ".join(map(str, hand)),
                                                         short)
            if short.possible:
                assert completes(phase, hand, rules, list(short.example))
        if short.missing == 2 and seen_short[2] <= 3:
            # and two cards do: some pair of card kinds completes it
            assert any(completes(phase, hand, rules, [a, b])
                       for ai, a in enumerate(unseen) for b in unseen[ai:])
    assert seen_short[0] and seen_short[1] and sum(v for k, v in seen_short.items() if k > 1)


def test_worst_cases_answer_within_the_budget():
    """A sum's search must not turn ten groups into minutes: each answer is right, or the
    search says it stopped at its budget (find raises, the shortfall is undecided or a
    range), within the budget's seconds (slack for a loaded machine)."""
    import time

    from sumcases import SUM_WORST_CASES

    from phasedsl.solver import SearchLimit, assess, budget

    for phrase, hand, made in SUM_WORST_CASES:
        phase = Phase.parse(phrase)
        t0 = time.monotonic()
        try:
            got = find(phase, hand)
            assert made is None or (got is not None) == made, phrase
            if got is not None:
                assert verify(phase, [list(g.cards) for g in got.groups], hand=hand).valid
        except SearchLimit:
            assert made is None, phrase
        short = assess(phase, hand).shortfall
        if made is not None:
            assert (short.missing == 0) == made or not short.exact, (phrase, short)
        assert time.monotonic() - t0 < 4 * budget.SEARCH_SECONDS + 5, phrase


def test_a_sum_search_past_its_budget_is_labelled_undecided(monkeypatch):
    from phasedsl.solver import SearchLimit, assess, budget

    monkeypatch.setattr(budget, "SEARCH_STEPS", 40)
    phase = Phase.parse("10 groups of 5 totalling 34")
    with pytest.raises(SearchLimit):
        find(phase, DECK[:60])
    short = assess(phase, DECK[:60]).shortfall
    assert not short.exact and not short.decided and short.missing == 0
    assert "undecided" in short.summary(phase)


def test_no_hit_onto_a_laid_sum_and_the_hit_api_says_why():
    from phasedsl import api
    from phasedsl.errors import LayoutError
    from phasedsl.melds.hits import closed_groups, laid_group, plan, targets

    rules = Rules()
    laid = [laid_group("cards totalling 34: R12 B11 G10 Y1", rules),
            laid_group("5 cards of one color totalling 20: R1 R2 R3 R4 W", rules),
            laid_group("set: B9 G9 W", rules)]
    for card in parse_cards("R1 R12 Y9 W"):
        assert all(h.index == 2 for h in targets(laid, card, rules)), card
    p = plan(laid, parse_cards("R1 R2 W"), rules)
    assert p.placed == 1 and [h.index for h in p.hits] == [2]
    assert [i for i, _ in closed_groups(laid, rules)] == [0, 1]
    out = api.hit_json(laid, parse_cards("R1"), rules)
    assert [c["group"] for c in out["closed"]] == [1, 2]
    assert "change its total" in out["closed"][0]["reason"]
    assert "group 1 takes no hits" in api.hit_text(out)
    with pytest.raises(LayoutError, match="totalling 34"):
        laid_group("cards totalling 34: R12 B11 G10 Y2", rules)  # 35
    with pytest.raises(LayoutError, match="with its phrase"):
        laid_group("sum: R12 B11 G10 Y1", rules)


def test_hit_cli_on_a_sum():
    import json

    from typer.testing import CliRunner

    from phasedsl.cli import app

    r = CliRunner().invoke(app, ["hit", "R3", "--on", "cards totalling 34: R12 B11 G10 Y1",
                                 "--json"])
    data = json.loads(r.stdout)
    assert data["hits"] == [] and data["left"] == ["R3"] and data["closed"][0]["group"] == 1


SUM_PACK = """\
name: sums
title: Sums
description: a test pack of sums mixed with groups that take hits
source: Phazed's 34-accumulations (issue 19)
extends: original
rules:
  game_length: 4
phases:
  - "1 set of 3 + cards totalling 20"
  - "cards of one color totalling 30 + 1 set of 2"
  - "2 groups of 3 totalling 18 + 1 run of 3"
  - "1 run of 4 + 5 cards totalling 25"
"""


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_pack_of_sums_plays_to_the_end_and_its_logs_replay(tmp_path, bot):
    from phasedsl.design.simulate import play_game
    from phasedsl.game.log import replay
    from phasedsl.packs.pack import load_pack

    (tmp_path / "sums.yaml").write_text(SUM_PACK)
    pack = load_pack(tmp_path / "sums.yaml")
    laid_sums = 0
    for i in range(3):
        r = play_game(pack, 3, bot, seed=7, index=i, keep_log=True)
        assert not r.capped and r.winner is not None
        (tmp_path / "game.jsonl").write_text("\n".join(r.log) + "\n")
        lines = (tmp_path / "game.jsonl").read_text().splitlines()
        lines[0] = lines[0].replace(str(tmp_path / "sums.yaml"), "sums.yaml")
        assert replay(lines, tmp_path, pack).legal
        laid_sums += sum('"lay"' in line for line in lines)
    assert laid_sums


LINT_PACK = """\
name: sumlint
title: Sums lint
description: sums a hand cannot reach
source: issue 19
extends: original
rules:
  deck:
    wilds: 0
phases:
  - "cards totalling 34"
  - "cards of one color totalling 100 + 1 set of 2"
  - "cards of one color totalling 260 + 1 set of 2"
  - "1 set of 3 + cards totalling 20"
  - "2 groups of 3 totalling 18 + 1 run of 3"
  - "1 run of 4 + 5 cards totalling 25"
  - "cards of one color totalling 30 + 1 set of 2"
  - "1 set of 4 + cards totalling 12"
  - "1 set of 5 + 1 set of 2"
  - "1 set of 5 + 1 set of 3"
"""


def test_lint_names_sums_no_hand_can_reach(tmp_path):
    import json

    from typer.testing import CliRunner

    from phasedsl.cli import app

    (tmp_path / "sumlint.yaml").write_text(LINT_PACK)
    r = CliRunner().invoke(app, ["lint", str(tmp_path / "sumlint.yaml"), "--json"])
    data = json.loads(r.stdout)
    said = {}
    for d in data["problems"]:
        said.setdefault(d["line"], []).append(d["message"])
    # line 10: phase 1, only sums: no hits to go out by
    assert any("takes no hits" in m for m in said[10])
    # a hand of 10 + 1 leaves the sum 9 cards of one color: 12+12+11+11+10+10+9+9+8 = 92
    assert any("at most 9 cards of one color" in m and "at most 92" in m for m in said[11])
    # the whole deck's one color adds up to 156 (no wilds)
    assert any("more than the deck's cards can add up to (156 in one color" in m
               for m in said[12])
    # the sums with room to spare are clean (a sum of one card is no degenerate group)
    assert all(line in (10, 11, 12) for line in said), said


def test_odds_of_a_sum_are_sampled_with_an_interval_holding_the_exact_chance():
    from math import comb

    from phasedsl.design.odds import odds

    got = odds("2 cards totalling 24", samples=20_000, seed=3)
    assert got.method == "sampled" and got.fraction is None and "numbers it holds" in got.note
    # two cards adding up to 24 are 12 + 12 or 12 + a wild (a natural at least): missed
    # with no 12 among the 10 cards, or one 12 and no wild
    miss = (comb(100, 10) + 8 * comb(92, 9)) / comb(108, 10)
    assert got.low <= 1 - miss <= got.high
    data = got.to_json()
    assert data["ci95"] == [got.low, got.high] and data["samples"] == 20_000 and data["note"]


VERIFY_RULES = [
    (Rules(), {}),
    (Rules(natural_scope="phase", min_naturals=2), {"scope": "phase", "min_nat": 2}),
    (Rules(min_naturals=2), {"min_nat": 2}),
    (Rules(sets_share_number=False), {"share": False}),
    (Rules(wild_numbers=frozenset({1, 2})), {"postal": frozenset({1, 2})}),
]


def random_layout(rng: random.Random, phase: Phase, hand: list[Card]) -> list[list[Card]]:
    """The phase's groups laid from the hand: find's meld, or it with a card moved,
    swapped for another of the hand, or dropped; or the hand cut at random."""
    got = find(phase, hand)
    n = len(phase.groups)
    if got is not None and rng.random() < 0.7:
        groups = [[c.plain() for c in g.cards] for g in got.groups]
        spare = [c for c in hand]
        for c in (c for g in groups for c in g):
            spare.remove(c)
        how = rng.randrange(4)
        gi = rng.randrange(n)
        if how == 1 and groups[gi]:
            groups[gi].pop(rng.randrange(len(groups[gi])))
        elif how == 2 and spare and groups[gi]:
            groups[gi][rng.randrange(len(groups[gi]))] = spare.pop()
        elif how == 3 and spare:
            groups[gi].append(spare.pop())  # an extra card
        return groups
    cards = list(hand)
    rng.shuffle(cards)
    cuts = sorted(rng.sample(range(1, len(cards)), n - 1)) if n > 1 else []
    return [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]


@pytest.mark.parametrize("seed", range(max(1, SEEDS // 2)))
def test_verify_agrees_with_the_definition_on_random_layouts(seed):
    rng = random.Random(f"sums verify {seed}")
    legal = tried = 0
    for i in range(150):
        phase = random_sum_phase(rng)
        hand = near_sum_hand(rng, phase, rng.randint(5, 9)) if i % 2 else rng.sample(DECK, 8)
        layout = random_layout(rng, phase, hand)
        for rules, kw in VERIFY_RULES:
            got = verify(phase, layout, rules, hand=hand)
            cards = [[card_tuple(c) for c in g] for g in layout]
            expect = layout_ok(ref_groups(phase), cards, **kw)
            assert got.valid == expect, (str(phase), [" ".join(map(str, g)) for g in layout],
                                         kw, got.problems)
            legal += expect
            tried += 1
    assert 0 < legal < tried


@pytest.mark.parametrize("phrase, layout, rules, codes, words", [
    ("cards totalling 34", "R12 B11 G10 Y2", Rules(), {"total"}, "add up to 35, not 34"),
    ("cards totalling 34", "R12 W", Rules(), {"total"}, "1 wild can add only 1 to 12, not 22"),
    ("5 cards totalling 34", "R12 B11 G10 Y1", Rules(), {"size"}, "exactly 5 cards"),
    ("5 cards totalling 34", "R12 B11 G1 Y1 W W", Rules(), {"size"}, "this group has 6"),
    ("cards of one color totalling 30", "R12 B11 R7", Rules(), {"one_color"},
     "blue and red"),
    ("cards totalling 30", "W W R6", Rules(min_naturals=2), {"natural_minimum"},
     "at least 2 natural"),
    ("cards totalling 30", "R12 S W", Rules(), {"skip"}, "skip"),
])
def test_verify_names_each_broken_rule_of_a_sum(phrase, layout, rules, codes, words):
    got = verify(phrase, layout, rules)
    assert not got.valid
    assert {p.rule for p in got.problems} == codes, got.problems
    assert words in " ".join(p.message for p in got.problems), got.problems


def test_verify_of_a_sum_fills_in_each_wild():
    got = verify("cards of one color totalling 30 + 1 set of 3", "R12 R11 W | G7 Y7 W")
    assert got.valid
    assert [str(c) for c in got.meld.groups[0].cards] == ["R12", "R11", "W=R7"]
    assert verify("cards totalling 30", "R12 W=10 W").meld.groups[0].cards[2].number == 8
    # a stated wild counts as what it says
    assert not verify("cards totalling 30", "R12 W=10 W=7").valid


def test_the_referee_judges_a_laid_sum_and_refuses_a_hit_onto_it(tmp_path):
    from game_logs import deal, discard, draw, game, hit, lay, lines, write_pack

    from phasedsl.game.log import replay

    pack = write_pack(tmp_path, "sumref", "extends: original\nphases:\n"
                      + "".join(f"  - \"{p}\"\n" for p in
                                ["cards totalling 24 + 1 set of 4"] + ["2 sets of 3"] * 9))

    def run(*events):
        return replay(lines([game(pack), deal(), *events]), tmp_path)

    ok = run(draw("ann", "R1"), lay("ann", "R7 B7 G5 Y5", "R5 B5 W W"))
    assert ok.legal, ok.error
    bad = run(draw("ann", "R1"), lay("ann", "R7 B7 G7 Y5", "R5 B5 W W"))
    assert not bad.legal and bad.error["rule"] == "phase_not_made", bad.error
    assert "add up to 26, not 24" in bad.error["message"]
    onto = run(draw("ann", "R1"), lay("ann", "R7 B7 G5 Y5", "R5 B5 W W"),
               hit("ann", "R1", "ann", 1))
    assert not onto.legal and onto.error["line"] == 5, onto.error
    assert onto.error["rule"] == "hit_does_not_fit" and "not 24" in onto.error["message"]
    fine = run(draw("ann", "R1"), lay("ann", "R7 B7 G5 Y5", "R5 B5 W W"), discard("ann", "R1"))
    assert fine.legal, fine.error


def test_a_phase_whose_sums_the_deck_cannot_add_up_to_is_never_made():
    from phasedsl.solver import assess

    for phrase, words in [("cards totalling 800", "more than the deck's cards can add up to (720"),
                          ("10 color groups totalling 100", "add up to 1000 in all"),
                          ("cards of one color totalling 260", "(252 in one color")]:
        short = assess(Phase.parse(phrase), parse_cards("R12 W")).shortfall
        assert short.never and words in short.never, (phrase, short)
        assert "cannot be made under these rules" in short.summary(Phase.parse(phrase))


def test_a_mixed_phase_far_from_made_is_counted_exactly():
    """A sum of any count leaves the rest of the phase its room, and takes high numbers
    first: 15 short, said exactly, with an example the solver confirms."""
    from phasedsl.solver import assess

    hand = parse_cards("R12 B11 G10 W W W W W W W W Y12 B12")
    phase = Phase.parse("cards totalling 120 + 9 sets of 2")
    short = assess(phase, hand).shortfall
    assert short.missing == 15 and short.exact and short.possible
    assert find(phase, [*hand, *short.example]) is not None


def test_the_per_phase_minimum_may_want_more_cards_than_the_fewest():
    """'cards totalling 10' is one card at the fewest; three naturals per phase make it
    three: from G5 and cards of 6 or more, two more (summing 5) are needed."""
    from phasedsl.solver import assess

    rules = Rules(natural_scope="phase", min_naturals=3)
    hand = parse_cards("R10 R12 G5 B9 W B10 G6")
    short = assess(Phase.parse("cards totalling 10"), hand, rules).shortfall
    assert short.missing == 2 and short.exact and short.possible
    assert find("cards totalling 10", [*hand, *short.example], rules) is not None
    never = assess(Phase.parse("cards totalling 2"), hand, rules).shortfall
    assert never.never and "hold at most 2" in never.never


def test_a_sum_search_stops_at_its_seconds_too(monkeypatch):
    from phasedsl.solver import SearchLimit, budget

    monkeypatch.setattr(budget, "SEARCH_SECONDS", 0.0)
    clock = iter(range(10**9))
    monkeypatch.setattr(budget, "now", lambda: next(clock))  # a second passes at each look
    with pytest.raises(SearchLimit, match=r"0\.0 s"):
        find("10 groups totalling 34", DECK)


def test_a_sum_of_any_count_is_no_extra_under_exact_sizes():
    """extras=False asks groups for their exact size; a sum of any count has none (it takes
    the cards its total takes), and a fixed count is exact anyway."""
    exact = Rules(extras=False)
    assert verify("cards totalling 34", "R12 B11 G10 Y1", exact).valid
    assert verify("4 cards totalling 34", "R12 B11 G10 Y1", exact).valid
    assert not verify("1 set of 3 + cards totalling 34", "R5 B5 G5 Y5 | R12 B11 G10 Y1",
                      exact).valid


def test_sums_of_other_totals_do_not_share_a_prepared_layout():
    """Layouts are kept by the parts' shapes: a sum's total (and count) is part of it."""
    hand = parse_cards("R12 B11 G10 Y1 Y2")
    for total in (34, 33, 35, 25, 24):
        got = find(f"cards totalling {total}", hand)
        assert got is not None and sum(c.number for c in got.groups[0].cards) == total
    assert find("3 cards totalling 34", hand) is None  # not the any-count layout
    assert find("4 cards totalling 34", hand) is not None
