"""Pack design: the difficulty measures (dealt and in play), the flag rule, and `balance`."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from phasedsl import difficulty, oddscache
from phasedsl.difficulty import (
    Dealt,
    PhaseInPlay,
    dealt,
    easier,
    in_play,
    order_matters,
    reason,
)
from phasedsl.odds import odds
from phasedsl.packs import load_pack
from phasedsl.simulate import GameRecord, simulate


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of this test's own, and no answer remembered in memory."""
    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path))
    difficulty.clear_memory()
    yield tmp_path / oddscache.FILE_NAME
    difficulty.clear_memory()


# --------------------------------------------------------------------------- dealt


def test_dealt_is_odds_exact_figure_for_original_phase_1(cache):
    entry, rules = load_pack("original").phase_entry(1)
    got = dealt(entry.phase, rules)
    assert got.method == "exact"
    assert got.probability == odds(entry.phase, rules).probability
    assert f"{100 * got.probability:.4f}%" == "18.2752%"
    assert got.ci95 == (got.probability, got.probability)
    assert got.to_json() == {"probability": got.probability, "method": "exact",
                             "ci95": [got.probability, got.probability]}


def test_dealt_samples_where_odds_samples_with_a_wilson_interval(cache):
    rules = load_pack("original").rules_for(None)
    phase = difficulty.Phase.parse("1 color run of 4 + 1 set of 3", rules.deck)
    got = dealt(phase, rules, samples=2_000, seed=3)
    assert got.method == "sampled" and got.samples == 2_000
    lo, hi = got.ci95
    assert lo < got.probability < hi
    from phasedsl.odds import wilson

    assert (lo, hi) == wilson(round(got.probability * 2_000), 2_000)


def test_dealt_cache_on_disk_is_used_on_a_second_call(cache, monkeypatch):
    entry, rules = load_pack("original").phase_entry(1)
    first = dealt(entry.phase, rules)
    assert cache.is_file()
    assert len(json.loads(cache.read_text())) == 1
    difficulty.clear_memory()

    def never(*args, **kw):
        raise AssertionError("worked out again: the disk cache was not read")

    monkeypatch.setattr(difficulty, "exact_odds", never)
    assert dealt(entry.phase, rules) == first
    # the key holds the rules that matter: another hand size is another answer
    with pytest.raises(AssertionError, match="worked out again"):
        dealt(entry.phase, rules.with_(hand_size=11))


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b"[1, 2]", b"null",
                                     b'{"k": {"probability": "high"}}'])
def test_a_corrupt_cache_file_is_ignored(cache, content):
    cache.write_bytes(content)
    entry, rules = load_pack("original").phase_entry(1)
    got = dealt(entry.phase, rules)
    assert f"{100 * got.probability:.4f}%" == "18.2752%"
    assert json.loads(cache.read_text())  # written again, whole


def test_a_cache_entry_of_the_wrong_shape_is_worked_out_again(cache):
    entry, rules = load_pack("original").phase_entry(1)
    right = dealt(entry.phase, rules)
    stored = json.loads(cache.read_text())
    (key,) = stored
    for bad in ({"probability": 2.0, "method": "exact", "ci95": [2.0, 2.0]},
                {"probability": 0.1, "method": "guessed", "ci95": [0.1, 0.1]},
                {"probability": 0.1, "method": "exact", "ci95": [0.2, 0.3]}):
        cache.write_text(json.dumps({key: bad}))
        difficulty.clear_memory()
        assert dealt(entry.phase, rules) == right


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("PHASEDSL_CACHE", str(blocker / "below"))  # a folder under a file
    difficulty.clear_memory()
    entry, rules = load_pack("original").phase_entry(1)
    assert f"{100 * dealt(entry.phase, rules).probability:.4f}%" == "18.2752%"
    difficulty.clear_memory()


# --------------------------------------------------------------------------- the flag rule


def _row(number: int, made: int, attempts: int) -> PhaseInPlay:
    from phasedsl.odds import wilson

    return PhaseInPlay(number, f"phase {number}", attempts, made, made / attempts,
                       wilson(made, attempts), 1.0, (1.0, 1.0))


def test_easier_when_higher_and_the_intervals_do_not_overlap():
    prev, cur = _row(7, 369, 1000), _row(8, 738, 1000)
    assert prev.completed_ci95[1] < cur.completed_ci95[0]
    assert easier(prev, cur) is True
    assert easier(cur, prev) is False  # harder than the one before: as it should be
    assert reason(prev, cur) == "completed 73.8% (71.0-76.4) vs 36.9% (34.0-39.9) for phase 7"


def test_maybe_when_the_intervals_overlap_but_the_points_differ_by_more_than_5():
    prev, cur = _row(3, 50, 100), _row(4, 57, 100)
    assert prev.completed_ci95[1] > cur.completed_ci95[0]  # overlapping
    assert easier(prev, cur) == "maybe"
    assert easier(cur, prev) is False


def test_not_flagged_when_overlapping_within_5_points():
    assert easier(_row(1, 50, 100), _row(2, 55, 100)) is False  # exactly 5: not more
    assert easier(_row(1, 50, 100), _row(2, 54, 100)) is False
    assert easier(_row(1, 50, 100), _row(2, 50, 100)) is False


def test_an_interval_just_touching_is_overlap():
    prev = _row(1, 50, 100)
    lo = prev.completed_ci95[1]
    cur = PhaseInPlay(2, "x", 100, 70, 0.70, (lo, 0.8), 1.0, (1.0, 1.0))
    assert easier(prev, cur) == "maybe"
    cur = PhaseInPlay(2, "x", 100, 70, 0.70, (lo + 1e-9, 0.8), 1.0, (1.0, 1.0))
    assert easier(prev, cur) is True


def test_never_attempted_phases_are_not_flagged():
    none = PhaseInPlay(2, "x", 0, 0, None, None, None, None)
    assert easier(_row(1, 10, 100), none) is False
    assert easier(none, _row(3, 90, 100)) is False


def test_order_does_not_matter_for_any_order_or_declared_phases():
    assert order_matters(load_pack("original"))
    assert order_matters(load_pack("even-phases"))
    for name in ("masters", "masters-variant-1", "masters-variant-2", "pick-a-phase"):
        assert not order_matters(load_pack(name)), name


def _record(index: int, attempts: tuple, hands: int = 3) -> GameRecord:
    return GameRecord(index, 0, hands, (10,) * hands, attempts, 0, (0, 0), False)


def test_in_play_flags_nothing_where_order_does_not_matter():
    # phase 2 done every time, phase 1 never: in order that is a flag, in any order none
    attempts = tuple((s, p, p == 2) for s in (0, 1) for p in (1, 2) for _ in range(30))
    records = [_record(0, attempts)]
    ordered = in_play(records, load_pack("original"), None, 2, with_dealt=False)
    assert ordered[1].easier_than_previous is True
    for name in ("pick-a-phase", "masters"):
        rows = in_play(records, load_pack(name), None, 2, with_dealt=False)
        assert [r.easier_than_previous for r in rows] == [False] * len(rows)


# --------------------------------------------------------------------------- in play


def _wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def test_in_play_matches_a_simulation_tallied_by_hand():
    pack = load_pack("short-game-5")
    records = simulate(pack, 3, 6, seed=11)
    rows = in_play(records, pack, None, 3, with_dealt=False)
    assert [r.number for r in rows] == [e.number for e in pack.world(None).played]
    finished = [r for r in records if not (r.capped or r.stalled)]
    assert finished
    for row in rows:
        # by hand: every (seat, phase) line of every finished game is one attempt
        tries = [(r.index, seat, done) for r in finished for seat, p, done in r.attempts
                 if p == row.number]
        per_player = Counter((g, seat) for g, seat, _ in tries)
        made = sum(done for _, _, done in tries)
        assert row.attempts == len(tries)
        assert row.completed == made
        if not tries:
            assert row.completed_share is None
            continue
        assert row.completed_share == pytest.approx(made / len(tries))
        assert row.completed_ci95 == pytest.approx(_wilson(made, len(tries)))
        spent = list(per_player.values())
        mean = sum(spent) / len(spent)
        assert row.players == len(spent)
        assert row.hands_spent_mean == pytest.approx(mean)
        if len(spent) > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in spent) / (len(spent) - 1))
            half = 1.959963984540054 * sd / math.sqrt(len(spent))
            assert row.hands_spent_ci95 == pytest.approx((mean - half, mean + half))
    assert sum(r.attempts for r in rows) == sum(
        1 for r in finished for _, p, _ in r.attempts if p is not None)


def test_in_play_leaves_out_unfinished_games_and_flags_in_play_order():
    pack = load_pack("original")
    capped = GameRecord(1, 0, 3, (1, 1, 1), ((0, 1, True),) * 50, None, (0, 0), True)
    good = _record(0, ((0, 1, False), (0, 1, True), (1, 1, False), (1, 1, False),
                       (0, 2, True), (1, 2, True)))
    rows = in_play([good, capped], pack, None, 2, with_dealt=False)
    assert (rows[0].attempts, rows[0].completed) == (4, 1)
    assert rows[0].hands_spent_mean == 2.0
    assert (rows[1].attempts, rows[1].completed, rows[1].completed_share) == (2, 2, 1.0)
    assert rows[1].easier_than_previous == "maybe"  # 100% of 2 vs 25% of 4: wide intervals
    assert rows[2].attempts == 0 and rows[2].easier_than_previous is False
    assert rows[0].to_json()["completed_share"]["attempts"] == 4


def test_in_play_carries_the_dealt_figure(cache):
    pack = load_pack("original")
    rows = in_play([_record(0, ((0, 1, True),))], pack, None, 2)
    assert isinstance(rows[0].dealt, Dealt)
    assert f"{100 * rows[0].dealt.probability:.4f}%" == "18.2752%"
    assert rows[0].to_json()["dealt"]["method"] == "exact"
