import json
from fractions import Fraction
from itertools import combinations

import pytest
from typer.testing import CliRunner

from phasedsl import Deck, Phase, Rules, find
from phasedsl.cli import app
from phasedsl.design.odds import exact_odds, sampled_odds

runner = CliRunner()

SMALL = Rules(deck=Deck(colors=("R", "B"), low=1, high=5, copies=2, wilds=2, skips=2), hand_size=5)


@pytest.mark.parametrize(
    "phrase",
    [
        "1 set of 2 + 1 run of 3", "2 sets of 2", "1 run of 4", "3 cards of one color",
        "1 color even or odd of 2 + 2 cards of one color", "1 even or odd of 4",
        "1 skip + 1 set of 2", "1 wild + 1 run of 3", "2 cards of one color + 1 wild",
        "1 color even or odd of 2 + 1 skip", "3 sets of 1 + 1 run of 2",
    ],
)
def test_exact_equals_full_enumeration(phrase):
    """Every 5-card hand of a 24-card deck, checked one by one with the solver."""
    phase = Phase.parse(phrase, SMALL.deck)
    deck = SMALL.deck.all_cards()
    hands = list(combinations(range(len(deck)), SMALL.hand_size))
    made = sum(find(phase, [deck[i] for i in h], SMALL) is not None for h in hands)
    got = exact_odds(phase, SMALL)
    assert got is not None and got.method == "exact"
    assert got.fraction == Fraction(made, len(hands))


def test_exact_with_postal_wild_numbers_equals_enumeration():
    rules = SMALL.with_(wild_numbers=frozenset({1}))
    phase = Phase.parse("1 set of 2 + 1 run of 3", rules.deck)
    deck = rules.deck.all_cards()
    hands = list(combinations(range(len(deck)), 5))
    made = sum(find(phase, [deck[i] for i in h], rules) is not None for h in hands)
    got = exact_odds(phase, rules)
    assert got.fraction == Fraction(made, len(hands))
    assert got.fraction > exact_odds(phase, SMALL).fraction


@pytest.mark.parametrize("rules", [
    SMALL, SMALL.with_(hand_size=6), SMALL.with_(natural_scope="phase", min_naturals=3),
    SMALL.with_(sets_share_number=False), SMALL.with_(runs_wrap=True),
])
@pytest.mark.parametrize("phrase", ["1 set of 2 + 1 run of 3", "1 set of 3 + 1 run of 2"])
def test_a_set_and_a_run_by_their_counts_equal_enumeration(phrase, rules):
    """The exact count of a set and a run reads each count vector's fewest wilds off the
    counts (``wilds_by_numbers``) and judges a vector and its mirror once: every hand, one
    by one, with the solver, says the same."""
    phase = Phase.parse(phrase, rules.deck)
    deck = rules.deck.all_cards()
    hands = list(combinations(range(len(deck)), rules.hand_size))
    made = sum(find(phase, [deck[i] for i in h], rules) is not None for h in hands)
    assert exact_odds(phase, rules).fraction == Fraction(made, len(hands))


@pytest.mark.parametrize(("phrase", "rules"), [
    ("1 run of 2 + 1 set of 2 + 1 set of 1", SMALL),
    ("1 run of 2 + 1 set of 2 + 1 set of 1", SMALL.with_(natural_scope="phase", min_naturals=3)),
    ("1 skip + 1 run of 2 + 1 set of 2", SMALL),
])
def test_a_searched_count_starting_from_a_fuller_hands_wilds_equals_enumeration(phrase, rules):
    """Where each count vector is searched, a hand is searched from the wilds the same hand
    with one more card of the last class needed (never fewer): every hand, one by one, with
    the solver, says the same, natural minimums and skips included."""
    phase = Phase.parse(phrase, rules.deck)
    deck = rules.deck.all_cards()
    hands = list(combinations(range(len(deck)), rules.hand_size))
    made = sum(find(phase, [deck[i] for i in h], rules) is not None for h in hands)
    assert exact_odds(phase, rules).fraction == Fraction(made, len(hands))


def test_the_counts_closed_form_answers_as_the_search(monkeypatch):
    """A 10-card deal of the full deck: the same fraction with the closed form as with a
    search for each number of wilds (the closed form turned off)."""
    import phasedsl.design.odds as odds_module

    rules = Rules(hand_size=8)
    phase = Phase.parse("1 set of 3 + 1 run of 4")
    fast = exact_odds(phase, rules)
    monkeypatch.setattr(odds_module, "wilds_by_numbers", lambda *a: None)
    assert exact_odds(phase, rules).fraction == fast.fraction


def test_sampled_intervals_cover_the_exact_value():
    """Over 40 seeds, the 95% interval holds the exact figure about 95% of the time."""
    phase = Phase.parse("1 set of 2 + 1 run of 3", SMALL.deck)
    exact = exact_odds(phase, SMALL).probability
    covered = sum(
        (o := sampled_odds(phase, SMALL, samples=1_500, seed=seed)).low <= exact <= o.high
        for seed in range(40)
    )
    assert covered >= 34


def test_exact_respects_rule_options():
    phase = Phase.parse("2 sets of 2", SMALL.deck)
    deck = SMALL.deck.all_cards()
    for rules in (SMALL.with_(sets_share_number=False), SMALL.with_(natural_scope="phase")):
        hands = list(combinations(range(len(deck)), 5))
        made = sum(find(phase, [deck[i] for i in h], rules) is not None for h in hands)
        assert exact_odds(phase, rules).fraction == Fraction(made, len(hands))


def test_classic_figures_match_the_published_study():
    # half a trillion sampled 10-card hands: phase 1 ~18.3%, 2 ~29.8%, 4 ~15.6%, 7 ~0.33%, 8 ~2.8%
    expect = {"2 sets of 3": 0.183, "1 set of 3 + 1 run of 4": 0.298, "1 run of 7": 0.156,
              "2 sets of 4": 0.0033, "7 cards of one color": 0.028}
    for phrase, published in expect.items():
        got = exact_odds(Phase.parse(phrase), Rules(), 10)
        assert abs(got.probability - published) / published < 0.02, (phrase, got.probability)


def test_sampled_covers_exact_and_ignores_jobs():
    phase = Phase.parse("1 run of 7")
    exact = exact_odds(phase, Rules(), 10).probability
    one = sampled_odds(phase, Rules(), 10, samples=40_000, seed=5, jobs=1)
    two = sampled_odds(phase, Rules(), 10, samples=40_000, seed=5, jobs=2)
    assert one == two
    assert one.low <= exact <= one.high


def test_mixed_phases_are_sampled():
    phase = Phase.parse("1 color run of 4 + 1 set of 4")
    assert exact_odds(phase, Rules()) is None
    got = sampled_odds(phase, SMALL.with_(hand_size=8), samples=2_000, seed=1)
    assert got.method == "sampled" and 0 <= got.low <= got.probability <= got.high <= 1


def test_cli_odds_json_has_the_fraction():
    r = runner.invoke(app, ["odds", "2 sets of 4", "--json"])
    row = json.loads(r.stdout)["phases"][0]
    assert r.exit_code == 0 and row["method"] == "exact" and "/" in row["fraction"]
    r = runner.invoke(app, ["odds", "1 color run of 4 + 1 set of 4", "--samples", "3000", "--json"])
    row = json.loads(r.stdout)["phases"][0]
    assert row["method"] == "sampled" and row["samples"] == 3000 and len(row["ci95"]) == 2


def test_cli_pack_ranking_flags_easier_phases(tmp_path):
    pack = tmp_path / "mini.yaml"
    pack.write_text("name: mini\ntitle: Mini\ndescription: d\nsource: s\nphases:\n"
                    "  - \"1 run of 8\"\n  - \"1 run of 5\"\n  - \"2 sets of 4\"\n")
    r = runner.invoke(app, ["odds", "--variant", str(pack), "--json"])
    report = json.loads(r.stdout)
    assert report["easier_than_previous"] == ["2"]
    assert [p["rank"] for p in report["phases"]] == [2, 1, 3]
    r = runner.invoke(app, ["odds", "--variant", str(pack), "--plot", str(tmp_path / "c.txt")])
    assert r.exit_code == 2


def test_cli_plot_writes_an_image(tmp_path):
    pytest.importorskip("matplotlib")
    pack = tmp_path / "mini.yaml"
    pack.write_text("name: mini\ntitle: Mini\ndescription: d\nsource: s\nphases:\n"
                    "  - \"1 run of 6\"\n  - \"2 sets of 3\"\n  - \"1 color run of 4\"\n")
    out = tmp_path / "curve.svg"
    r = runner.invoke(app, ["odds", "--variant", str(pack), "--samples", "5000", "--plot", str(out)])
    assert r.exit_code == 0, r.stdout
    assert out.read_text().lstrip().startswith("<?xml")


def test_cli_outs():
    r = runner.invoke(app, ["outs", "1 run of 4", "R3 B4 G5", "--json"])
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and {o["card"] for o in data["outs"]} >= {"R2", "Y6", "W"}
    r = runner.invoke(app, ["outs", "1 run of 4", "R3 B4 G5", "--seen", "W W W W W W W W", "--json"])
    assert "W" not in {o["card"] for o in json.loads(r.stdout)["outs"]}
    r = runner.invoke(app, ["outs", "2 sets of 4", "R1 B2"])
    assert r.exit_code == 1 and "no single card" in r.stdout


def test_impossible_and_too_costly_phases_answer_fast():
    import time

    t = time.perf_counter()
    got = exact_odds(Phase.parse("4 runs of 3"), Rules(), 10)  # 12 cards needed, 10 held
    assert got.fraction == 0
    r = runner.invoke(app, ["odds", "1 set of 4 + 1 run of 4", "--draws", "30", "--samples",
                            "2000", "--json"])
    row = json.loads(r.stdout)["phases"][0]
    assert row["method"] == "sampled" and "compositions" in row["note"]
    assert time.perf_counter() - t < 20


@pytest.mark.parametrize(("classes", "size", "cards"), [(12, 8, 10), (12, 8, 11), (4, 24, 10),
                                                        (2, 4, 5), (31, 40, 12)])
def test_multisets_count_what_the_symmetric_count_visits(classes, size, cards):
    import math

    from phasedsl.design.odds import _enumerate_symmetric, _multisets

    by_key: dict = {}
    comb = [[math.comb(a, k) for k in range(cards + 1)] for a in range(size + 1)]
    _enumerate_symmetric([size] * classes, [size] * classes, cards, comb, by_key)
    assert _multisets(classes, size, cards, 10**9) == len(by_key)


def test_sets_of_a_wide_deck_and_a_long_hand_are_sampled_not_counted_for_minutes():
    """Interchangeable classes were always counted exactly: 31 numbers of 40 cards and
    50-card hands are 1.3 million multisets of counts, 20 s for `2 sets of 3` (a hostile
    review's pack, which it took for a hang).  Past MAX_MULTISETS the figure is sampled and
    says why."""
    rules = Rules(deck=Deck(low=0, high=30, copies=10), hand_size=50)
    got = exact_odds(Phase.parse("2 sets of 3", rules.deck), rules)
    assert got is None  # (odds then samples)
    from phasedsl.design.odds import odds

    row = odds(Phase.parse("2 sets of 3", rules.deck), rules, samples=2000, jobs=1)
    assert row.method == "sampled" and "more than 300,000" in row.note


def test_a_run_with_draws_is_counted_exactly():
    # (issue 30: a run reads one card of each number, so the count is of which numbers a
    # hand holds, 4,096 patterns, not of every count of every number: 17 million)
    got = exact_odds(Phase.parse("1 run of 8"), Rules(), 15)
    assert got is not None and got.method == "exact"
    r = runner.invoke(app, ["odds", "1 run of 8", "--draws", "5", "--json"])
    row = json.loads(r.stdout)["phases"][0]
    assert row["method"] == "exact" and row["fraction"] == \
        f"{got.fraction.numerator}/{got.fraction.denominator}"
    sampled = sampled_odds(Phase.parse("1 run of 8"), Rules(), 15, samples=20_000, seed=1)
    assert sampled.low <= float(got.fraction) <= sampled.high  # (and sampling agrees)


@pytest.mark.parametrize(("sizes", "caps", "cards"), [
    ([], (), 4), ([4, 4], (2, 2), 3), ([8] * 5, (1, 3, 0, 2, 8), 6), ([3, 0, 5], (1, 1, 9), 5),
])
def test_the_deal_by_capped_counts_holds_every_hand_once(sizes, caps, cards):
    """Each vector of capped counts is visited once, and the ways of all of them, by
    naturals, are every way to deal that many naturals from the classes."""
    import math

    from phasedsl.design.odds import _capped_deals

    comb = [[math.comb(n, k) for k in range(cards + 1)] for n in range(max([*sizes, 1]) + 1)]
    seen: dict[tuple, list[int]] = {}
    visits = []
    _capped_deals(sizes, caps, cards, comb,
                  lambda key, ways, hint: visits.append(seen.setdefault(key, ways)))
    assert len(visits) == len(seen)
    for t in range(cards + 1):
        assert sum(ways[t] for ways in seen.values()) == math.comb(sum(sizes), t)
    assert all(all(0 <= k <= cap for k, cap in zip(key, caps, strict=True)) for key in seen)
