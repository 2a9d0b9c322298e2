"""Issue 18, `strong` at most 5 ms a turn: the solver measures a hand without its outs
when asked to (the same count), and the bot seeks outs only for the hands it weighs."""

import random

import pytest

import phasedsl.players.strong as strong
from phasedsl.game import Game, legal_moves, view
from phasedsl.game.table import make_table, phase_rules
from phasedsl.model.phase import Phase
from phasedsl.model.rules import DEFAULT_RULES
from phasedsl.packs.pack import load_pack
from phasedsl.players.bots import GreedyBot
from phasedsl.solver import assess, shortfall, unseen_counts

PHRASES = ["2 sets of 3", "1 set of 3 + 1 run of 4", "1 run of 7", "7 cards of one color",
           "1 color run of 4 + 3 sets of 2", "1 run of 4 + 1 set of 3 + 1 set of 2",
           "1 even or odd of 8", "cards totalling 34 + 1 set of 3", "4 cards over 8 + 1 set of 3",
           "cards of one color totalling 34 + 1 set of 3"]


def _deck(rules):
    return [c for c, n in unseen_counts([], [], rules).items() for _ in range(n)]


@pytest.mark.parametrize("phrase", PHRASES)
def test_a_count_without_outs_is_the_same_count(phrase):
    phase, rules = Phase.parse(phrase), DEFAULT_RULES
    deck = _deck(rules)
    rng = random.Random(phrase)
    ones = 0
    for _ in range(60):
        hand = rng.sample(deck, rng.choice([9, 10, 11]))
        full = shortfall(phase, hand, rules)
        bare = shortfall(phase, hand, rules, outs=False)
        assert (bare.missing, bare.decided) == (full.missing, full.decided), hand
        if full.missing == 1 and full.decided:
            ones += 1
            # left out, or what the counts gave at no cost (the closed forms)
            assert full.outs and bare.outs in ((), full.outs)
        elif full.decided:
            assert bare.outs == full.outs == ()
        assert (assess(phase, hand, rules, outs=False).meld is None) == (full.missing > 0 or
                                                                          not full.decided)
    assert ones > 0  # the one-short case was met


def test_a_count_without_outs_under_skips_as_blue():
    pack = load_pack("japanese-skip-blue")
    table = make_table(pack, ["ann", "bob"])
    rng = random.Random(5)
    for number in table.sequence:
        phase, rules = phase_rules(table, number)
        deck = _deck(rules)
        for _ in range(15):
            hand = rng.sample(deck, 11)
            full, bare = shortfall(phase, hand, rules), shortfall(phase, hand, rules, outs=False)
            assert (bare.missing, bare.decided) == (full.missing, full.decided), (number, hand)


def test_a_sum_phases_outs_counted_by_class_are_the_solvers():
    """In a phase holding a sum the bot counts the outs by class, each class asked once;
    the weighted count is the one the solver's own outs (card by card) give."""
    pack = load_pack("community-kinds")
    table = make_table(pack, ["ann", "bob"])
    rng = random.Random(2)
    checked = 0
    for number in (1, 2, 4):  # sums and over-groups, none looking at color
        phase, rules = phase_rules(table, number)
        deck = _deck(rules)
        for _ in range(40):
            hand = rng.sample(deck, 10)
            sf = shortfall(phase, hand, rules)
            if sf.missing != 1 or not sf.decided:
                continue
            bot = strong.StrongBot()
            unseen = unseen_counts(hand, [], rules)
            aim = strong.Aim(number, phase, rules, strong._classes(phase, rules, unseen), unseen,
                             any(g.kind.is_sum for g in phase.groups))
            want = sum(unseen[o.card.plain()] for o in sf.outs)
            assert bot._outs(aim, hand, 1) == want, hand
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("table", ["original", "community-kinds", "world-tour/disco-fever"])
def test_the_bot_seeks_outs_only_for_the_hands_it_weighs(table, monkeypatch):
    """Most hands a decision looks at are only measured: before, every one of them had its
    outs sought too (about 15 solver calls a decision, each with its outs)."""
    calls = {"all": 0, "outs": 0}
    solver = strong.shortfall

    def counted(*a, **kw):
        calls["all"] += 1
        calls["outs"] += kw.get("outs", True)
        return solver(*a, **kw)

    monkeypatch.setattr(strong, "shortfall", counted)
    name, _, world = table.partition("/")
    g = Game.new(name, ["ann", "bob"], seed=3, world=world or None)
    bots = {"ann": strong.StrongBot(1), "bob": GreedyBot(2)}
    decisions = 0
    while not g.over:
        state = g.state
        decisions += state.to_move == "ann" and len(legal_moves(state)) > 1
        g = g.apply(bots[state.to_move].choose(view(state, state.to_move)))
    assert decisions > 50 and calls["all"] > 5 * decisions
    assert calls["outs"] <= 1.5 * decisions, calls


def test_one_strong_seat_against_three_greedy_ones():
    """The benchmark's four-player table: greedy entered three times seats strong once in
    each seat of every deal, greedy in the other three."""
    from phasedsl.players.tournament import play_tournament, tournament

    games = list(play_tournament("short-game-5", ["strong", "greedy", "greedy", "greedy"], 4,
                                 deals=2, seed=3))
    assert len(games) == 8
    for deal in range(2):
        seats = [g.seats.index(0) for g in games if g.deal == deal]
        assert sorted(seats) == [0, 1, 2, 3]
    got = tournament("short-game-5", ["strong", "greedy", "greedy", "greedy"], players=4,
                     deals=2, seed=3)
    assert got["bots"] == ["strong", "greedy#1", "greedy#2", "greedy#3"]
    assert got["seatings"] == 4 and got["results"]["strong"]["games"] == 8
    assert sum(r["wins"] for r in got["results"].values()) <= 8


def _bench():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_strong.py"
    spec = importlib.util.spec_from_file_location("bench_strong", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_reads_the_tournament_commands_json_and_judges_it():
    """Its tables run the real command; a small one here, judged against its goals both
    ways (a goal nobody can miss, and one nobody can meet)."""
    bench = _bench()
    assert [t.argv(1, 2)[3:] for t in bench.TABLES][1] == [
        "tournament", "--bot", "strong", "--bot", "greedy", "--bot", "greedy", "--bot",
        "greedy", "--players", "4", "--games", "100", "--seed", "1", "--jobs", "2", "--json"]
    easy = bench.Table(("strong", "greedy"), 2, 2, 0.0, -1.0)
    line, ok = bench.strength(easy, seed=3, jobs=1)
    assert ok and "PASS" in line and "2 deals x 2 seatings = 4 games" in line, line
    hard = bench.Table(("strong", "greedy"), 2, 2, 1.01, 0.99)
    line, ok = bench.strength(hard, seed=3, jobs=1)
    assert not ok and "FAIL" in line, line
    line, ok = bench.strength(bench.Table(("strong", "nobody"), 2, 1, 0.0, 0.0), 3, 1)
    assert not ok and "exit 2" in line, line
