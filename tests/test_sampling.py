"""Sequential sampling: a run stops when its figures are settled, and holds exactly the
games a longer run begins with."""

from __future__ import annotations

from itertools import pairwise

from phasedsl.design.balance import balance
from phasedsl.design.difficulty import games_to_settle, in_play
from phasedsl.design.sampling import (
    FUTILE,
    LENGTH_PRECISION,
    Rule,
    flags_settled,
    length_settled,
    play_until,
)
from phasedsl.design.simulate import simulate, summarize
from phasedsl.packs.pack import load_pack


def _key(records):
    return [(r.index, r.seed, r.hands, r.turns, r.totals) for r in records]


def test_a_run_stopped_early_holds_the_first_games_of_a_longer_run():
    pack = load_pack("short-game-5")
    looks = []

    def settled(records):
        looks.append(len(records))
        return len(records) >= 5

    got = play_until(pack, 2, 12, seed=3, world=None, jobs=1, rule=Rule(settled, 3, 2))
    assert looks == [3, 5]  # asked after the first 3 games, then every 2
    assert _key(got) == _key(simulate(pack, 2, 5, seed=3))
    # continued with ``first``, a run plays the games a longer run would have
    tail = simulate(pack, 2, 3, seed=3, first=5)
    assert _key(simulate(pack, 2, 8, seed=3))[5:] == _key(tail)


def test_a_run_never_settled_stops_at_its_cap_and_a_cap_under_the_first_look_is_kept():
    pack = load_pack("short-game-5")
    never = Rule(lambda records: False, 4, 3)
    assert len(play_until(pack, 2, 9, 1, None, 1, never)) == 9
    assert len(play_until(pack, 2, 2, 1, None, 1, never)) == 2


def test_the_length_rule_is_settled_exactly_when_the_interval_is_within_its_precision():
    pack = load_pack("short-game-5")
    records = simulate(pack, 2, 30, seed=2)
    rule = length_settled(2)
    for k in (5, 10, 20, 30):
        h = summarize(records[:k], 2)["hands_per_game"]
        half = (h["ci95"][1] - h["ci95"][0]) / 2
        assert rule.settled(records[:k]) == (half <= LENGTH_PRECISION * h["mean"])
    assert (rule.first, rule.step) == (20, 10)


def test_the_flags_rule_waits_for_every_phase_attempted_and_no_maybe():
    pack = load_pack("short-game-5")
    rule = flags_settled(pack, None, 2, 80)
    assert rule.first == 40  # a flag's absence is not judged on fewer games
    # one game: later phases never attempted, so nothing is settled yet
    assert not rule.settled(simulate(pack, 2, 1, seed=1))


def test_a_maybe_the_cap_cannot_settle_is_not_played_for():
    pack = load_pack("short-game-5")
    records = simulate(pack, 2, 40, seed=1)
    rows = in_play(records, pack, None, 2, with_dealt=False)
    maybes = [(p, c) for p, c in pairwise(rows)
              if c.easier_than_previous == "maybe"]
    assert len(maybes) == 1 and all(r.attempts for r in rows)
    needed = games_to_settle(*maybes[0], 40)
    assert needed == 137  # were the shares to hold, their intervals would part at 137 games
    # a cap under needed / FUTILE: the games up to it would leave the "maybe" as it is
    assert flags_settled(pack, None, 2, needed // FUTILE).settled(records)
    # a cap the projection reaches within the margin: played on
    assert not flags_settled(pack, None, 2, -(-needed // FUTILE)).settled(records)
    assert not flags_settled(pack, None, 2, 80).settled(records)


def test_balance_says_the_games_each_figure_rests_on_and_stops_early_only_when_settled(
        monkeypatch):
    import phasedsl.design.difficulty as difficulty
    import phasedsl.design.report  # noqa: F401  (imported now: it binds the real dealt_or_none)

    monkeypatch.setattr(difficulty, "dealt_or_none", lambda *a, **kw: None)  # (games only)
    b = balance("short-game-5", None, 2, games=60, seed=1, all_sizes=False)
    for figs in (b.current, b.proposed):
        assert 0 < figs.games <= b.games
        # a run stops early only once nothing is "maybe" but what the cap cannot settle
        needed = figs.to_settle(figs.games)
        assert figs.games == b.games or all(
            needed[n] is None or needed[n] > FUTILE * b.games for n in figs.maybe)
    length = b.current.lengths[2]
    assert length["games"] == b.current.games  # (the same games, not a second run)
    out = b.to_json()
    assert out["games_measured"] == b.current.games
    assert out["hands_per_game"]["current"]["2"]["played"] == b.current.games
