"""Pack design: the difficulty measures (dealt and in play), the flag rule, and `balance`."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from phasedsl.design import difficulty, oddscache
from phasedsl.design.difficulty import (
    Dealt,
    PhaseInPlay,
    dealt,
    easier,
    in_play,
    order_matters,
    reason,
)
from phasedsl.design.odds import odds
from phasedsl.design.simulate import GameRecord, simulate
from phasedsl.packs.pack import load_pack


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
    from phasedsl.design.odds import wilson

    assert (lo, hi) == wilson(round(got.probability * 2_000), 2_000)


def test_dealt_cache_on_disk_is_used_on_a_second_call(cache, monkeypatch):
    entry, rules = load_pack("original").phase_entry(1)
    first = dealt(entry.phase, rules)
    assert cache.is_file()
    assert len(json.loads(cache.read_text())) == 1
    difficulty.clear_memory()

    def never(*args, **kw):
        raise AssertionError("worked out again: the disk cache was not read")

    monkeypatch.setattr(difficulty, "odds", never)
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
    from phasedsl.design.odds import wilson

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


# --------------------------------------------------------------------------- balance

from typer.testing import CliRunner  # noqa: E402

from phasedsl.cli import app  # noqa: E402
from phasedsl.design.balance import balance, reordered  # noqa: E402
from phasedsl.errors import PhaseDSLError  # noqa: E402
from phasedsl.packs.pack import check_file  # noqa: E402

runner = CliRunner()

ISSUE_KEYS = {"pack", "world", "players", "games", "phases", "proposed_order", "hands_per_game"}
PHASE_KEYS = {"number", "phase", "dealt", "completed_share", "hands_spent",
              "easier_than_previous"}

TWO_WORLDS = """\
# two small lists
name: {name}
title: Two worlds
description: Two lists of three phases.
source: a test
rules:
  game_length: 3
worlds:
  - name: first
    title: First
    phases:
      - "2 sets of 3"
      - "1 run of 4"  # an easy one second
      - "1 set of 4"
  - name: second
    title: Second
    phases:
      - "1 set of 3"
      - "1 set of 4"
      - "1 run of 5"
"""


def invoke(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_reordered_renumbers_the_phases_and_keeps_their_names_and_notes():
    pack = load_pack("original")
    order = (1, 2, 4, 3, 5, 6, 7, 8, 10, 9)
    moved = reordered(pack, None, order)
    phases = moved.world(None).phases
    assert [e.number for e in phases] == list(range(1, 11))
    assert [e.text for e in phases] == [pack.world(None).phases[n - 1].text for n in order]
    assert phases[8].note == pack.world(None).phases[9].note and phases[8].note
    assert moved.phase_entry(3)[0].text == "1 run of 7"
    with pytest.raises(PhaseDSLError, match="permutation"):
        reordered(pack, None, (1, 2, 3))


def test_reordered_moves_only_the_phases_a_game_plays():
    pack = load_pack("even-phases")
    moved = reordered(pack, None, (10, 8, 6, 4, 2))
    texts = [e.text for e in moved.world(None).phases]
    old = [e.text for e in pack.world(None).phases]
    assert texts[0::2] == old[0::2]  # the odd ones (not played) stay
    assert texts[1::2] == [old[9], old[7], old[5], old[3], old[1]]


def test_balance_figures_have_the_issue_json_keys_and_are_resimulated_with_the_same_seeds():
    pack = load_pack("short-game-5")
    b = balance(pack, None, 2, games=6, seed=5, all_sizes=False)
    out = b.to_json()
    assert out.keys() >= ISSUE_KEYS
    assert (out["pack"], out["world"], out["players"], out["games"]) == ("short-game-5", None, 2, 6)
    assert [p["number"] for p in out["phases"]] == [1, 2, 3, 4, 5]
    for p in out["phases"]:
        assert p.keys() >= PHASE_KEYS
        assert p["dealt"]["method"] == "exact"
        assert {"value", "ci95", "attempts"} <= p["completed_share"].keys()
        assert {"mean", "ci95"} <= p["hands_spent"].keys()
    assert sorted(out["proposed_order"]) == [1, 2, 3, 4, 5]
    assert set(out["hands_per_game"]) == {"current", "proposed"}
    assert set(out["hands_per_game"]["current"]) == {"2"}
    assert {"mean", "ci95", "median"} <= out["hands_per_game"]["current"]["2"].keys()
    # today's figures are those of simulate's games with the same seeds
    records = simulate(pack, 2, 6, seed=5)
    assert [r.completed for r in b.current.phases] == [
        r.completed for r in in_play(records, pack, None, 2, with_dealt=False)]
    # and the proposed order's are its own games, with the same seeds
    played = reordered(pack, None, b.proposed.order)
    again = in_play(simulate(played, 2, 6, seed=5), played, None, 2, with_dealt=False)
    assert [(r.attempts, r.completed) for r in b.proposed.phases] == [
        (r.attempts, r.completed) for r in again]
    assert [r.number for r in b.proposed.phases] == list(b.proposed.order)


def test_balance_gives_the_game_length_at_every_table_size_the_pack_allows():
    b = balance("masters", None, None, games=2, seed=1)
    assert b.sizes == (2, 3, 4)  # Masters (a save pile) is for 2-4 players
    assert set(b.current.lengths) == {2, 3, 4}
    assert not b.order_matters and not b.current.flagged and b.rounds == 0
    assert b.proposed.order == b.current.order


def test_balance_cli_text_and_json(tmp_path):
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "4", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("short-game-5: 5 phases, measured in 4 games of 2 greedy bots")
    assert "18.2752 exact" in r.output
    assert max(map(len, r.output.splitlines())) <= 80
    assert "game length, hands per game: mean (95% CI), median" in r.output
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "4", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out.keys() >= ISSUE_KEYS and out["games"] == 4


def test_balance_says_order_does_not_matter_for_any_order_packs():
    r = invoke("balance", "pick-a-phase", "--players", "2", "--games", "2")
    assert r.exit_code == 0, r.output
    assert ("the order does not matter, so nothing is flagged and no order is proposed"
            in " ".join(r.output.split()))
    assert "proposed order" not in r.output


@pytest.mark.parametrize("args, message", [
    (["no-such-pack"], "no pack 'no-such-pack'"),
    (["world-tour", "--world", "atlantis"], "has no world 'atlantis'"),
    (["masters", "--players", "5"], "masters is played by 2-4 players, not 5"),
    (["original", "--players", "9"], "9 is not in the range 2<=x<=6"),
    (["original", "--write", "Bad Name.yaml"], "is not a pack name"),
    (["original", "--write", "out.txt"], "does not end in .yaml"),
])
def test_balance_refuses_bad_input_with_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("balance", *args, "--games", "1")
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.output
    r = invoke("balance", *args, "--games", "1", "--json")
    assert r.exit_code == 2
    assert json.loads(r.output)["exit"] == 2


def test_balance_of_several_worlds_covers_each_and_compares_them(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(TWO_WORLDS.format(name="two"))
    r = invoke("balance", path, "--players", "2", "--games", "3")
    assert r.exit_code == 0, r.output
    assert "two / first (First): 3 phases" in r.output
    assert "two / second (Second): 3 phases" in r.output
    assert "the worlds compared" in r.output
    table = r.output[r.output.index("the worlds compared"):].splitlines()
    rows = [line.split()[0] for line in table if line.startswith(("first ", "second "))]
    assert rows == ["first", "second"]
    assert max(map(len, r.output.splitlines())) <= 80
    r = invoke("balance", path, "--players", "2", "--games", "3", "--json")
    out = json.loads(r.output)
    assert [w["world"] for w in out["worlds"]] == ["first", "second"]
    assert [c["world"] for c in out["comparison"]] == ["first", "second"]
    assert all(w.keys() >= ISSUE_KEYS for w in out["worlds"])
    r = invoke("balance", path, "--world", "second", "--players", "2", "--games", "3", "--json")
    assert json.loads(r.output)["world"] == "second"


# --------------------------------------------------------------------------- --write


# The lines a written pack adds at its top (where it came from) and the schema comment,
# pointed again from the new folder: not the source's comments.
ADDED = (" made by: phasedsl balance ", " the phases of ", " yaml-language-server: ")


def _comments(text: str) -> list[str]:
    return [line.split("#", 1)[1] for line in text.splitlines()
            if "#" in line and not line.split("#", 1)[1].startswith(ADDED)]


def _provenance(text: str) -> list[str]:
    return [line for line in text.splitlines()[:2] if line.startswith("# ")]


def test_write_reordered_keeps_comments_names_and_notes(tmp_path):
    from phasedsl.design.reorder import write_reordered

    src = tmp_path / "mine.yaml"
    src.write_text("""\
# my pack: a comment at the top
name: mine
title: Mine
description: A pack.
source: me
extends: original
rules:
  game_length: 3   # three phases
phases:
  # the first
  - phase: "2 sets of 3"
    name: pairs
  - "1 run of 7"  # easy
  - phase: "1 set of 4 + 1 run of 4"
    note: hard
""")
    pack = load_pack(src)
    got = write_reordered(pack, {None: (1, 3, 2)}, tmp_path / "mine-2.yaml")
    assert got["worlds"][0]["moved"] == [
        {"phase": "1 set of 4 + 1 run of 4", "from": 3, "to": 2},
        {"phase": "1 run of 7", "from": 2, "to": 3}]
    text = (tmp_path / "mine-2.yaml").read_text()
    assert sorted(_comments(text)) == sorted(_comments(src.read_text()))
    assert "1 run of 7\"  # easy" in text
    new = load_pack(tmp_path / "mine-2.yaml")
    assert new.name == "mine-2"
    phases = new.world(None).phases
    assert [(e.text, e.name, e.note) for e in phases] == [
        ("2 sets of 3", "pairs", None), ("1 set of 4 + 1 run of 4", None, "hard"),
        ("1 run of 7", None, None)]
    pack2, diags = check_file(tmp_path / "mine-2.yaml", strict=True)
    assert pack2 is not None and diags == []
    # the key order is the file's
    keys = [line.split(":")[0] for line in text.splitlines() if line[:1].isalpha()]
    assert keys == ["name", "title", "description", "source", "extends", "rules", "phases"]


def test_write_copies_a_list_from_the_extended_pack(tmp_path):
    from phasedsl.design.reorder import write_reordered

    order = (1, 2, 4, 3, 5, 6, 7, 8, 9, 10)
    got = write_reordered(load_pack("one-color-runs"), {None: order}, tmp_path / "ocr.yaml")
    assert got["copied_from"] == "original"
    new = load_pack(tmp_path / "ocr.yaml")
    assert [e.text for e in new.world(None).phases][2:4] == ["1 run of 7",
                                                             "1 set of 4 + 1 run of 4"]
    assert new.world(None).rules.runs_one_color  # still the pack's own rules
    assert check_file(tmp_path / "ocr.yaml", strict=True)[1] == []
    text = (tmp_path / "ocr.yaml").read_text()
    assert '\n  - "2 sets of 3"\n' in text  # indented as original.yaml indents its list


def test_write_refuses_inherited_worlds_before_any_game(tmp_path):
    (tmp_path / "tour.yaml").write_text(
        "name: tour\ntitle: T\ndescription: d\nsource: s\nextends: world-tour\n")
    r = invoke("balance", tmp_path / "tour.yaml", "--write", tmp_path / "tour-2.yaml",
               "--games", "1")
    assert r.exit_code == 2
    assert "they are the worlds of world-tour.yaml" in r.output
    assert not (tmp_path / "tour-2.yaml").exists()


def test_write_multi_world_reorders_each_world(tmp_path):
    from phasedsl.design.reorder import write_reordered

    src = tmp_path / "two.yaml"
    src.write_text(TWO_WORLDS.format(name="two"))
    got = write_reordered(load_pack(src), {"first": (2, 1, 3), "second": None},
                          tmp_path / "two-b.yaml")
    assert [w["moved"] != [] for w in got["worlds"]] == [True, False]
    new = load_pack(tmp_path / "two-b.yaml")
    assert [e.text for e in new.world("first").phases] == ["1 run of 4", "2 sets of 3",
                                                           "1 set of 4"]
    assert [e.text for e in new.world("second").phases] == ["1 set of 3", "1 set of 4",
                                                            "1 run of 5"]
    text = (tmp_path / "two-b.yaml").read_text()
    assert sorted(_comments(text)) == sorted(_comments(src.read_text()))


def test_write_never_replaces_a_file_without_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import dataclasses

    from phasedsl.design import balance as balance_module

    measured = balance_module.balance

    def proposing(*args, **kwargs):  # an order is proposed, so there is a file to write
        b = measured(*args, **kwargs)
        return dataclasses.replace(b, proposed=dataclasses.replace(
            b.proposed, order=tuple(reversed(b.current.order))))

    monkeypatch.setattr(balance_module, "balance", proposing)
    (tmp_path / "out.yaml").write_text("mine\n")
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "2", "--write",
               "out.yaml")
    assert r.exit_code == 2 and "already exists: give --force" in r.output
    assert (tmp_path / "out.yaml").read_text() == "mine\n"
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "2", "--write",
               "out.yaml", "--force")
    assert r.exit_code == 0, r.output
    assert "wrote out.yaml" in r.output
    assert load_pack(tmp_path / "out.yaml").name == "out"
    assert [p.name for p in tmp_path.iterdir()] == ["out.yaml"]  # no temporary file left


def test_the_default_games_are_said_in_the_help():
    from phasedsl.design.balance import DEFAULT_GAMES

    r = invoke("balance", "--help")
    assert f"(default {DEFAULT_GAMES})" in " ".join(r.output.replace("│", " ").split())


def test_balance_original_flags_4_and_8_proposes_an_order_without_them_and_writes_it(
        tmp_path, monkeypatch):
    """The issue's done-when, with the default games (the one slow test here)."""
    from phasedsl.design.balance import DEFAULT_GAMES

    monkeypatch.chdir(tmp_path)
    r = invoke("balance", "original", "--json", "--write", "out.yaml")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == DEFAULT_GAMES and out["players"] == 4
    flags = {p["number"]: p["easier_than_previous"] for p in out["phases"]}
    assert [n for n, f in flags.items() if f is True] == [4, 8]
    assert "for phase 3" in out["phases"][3]["reason"]
    assert "for phase 7" in out["phases"][7]["reason"]
    assert out["phases"][0]["dealt"] == {"probability": pytest.approx(0.182752, abs=5e-7),
                                         "method": "exact", "ci95": [out["phases"][0]["dealt"][
                                             "probability"]] * 2}
    assert out["proposed_resolves"] is True
    proposed = {p["number"]: p["easier_than_previous"] for p in out["proposed_phases"]}
    assert [n for n, f in proposed.items() if f is True] == []
    assert proposed[4] is False and proposed[8] is False
    assert sorted(out["proposed_order"]) == list(range(1, 11))
    assert out["proposed_order"] != list(range(1, 11))
    assert set(out["hands_per_game"]["current"]) == {"2", "3", "4", "5", "6"}
    assert set(out["hands_per_game"]["proposed"]) == {"2", "3", "4", "5", "6"}
    # the written pack: original.yaml's comments, the proposed order, valid and lint clean
    original = Path(load_pack("original").path).read_text(encoding="utf-8")
    written = (tmp_path / "out.yaml").read_text(encoding="utf-8")
    assert _comments(written) == _comments(original)
    made, why = _provenance(written)
    assert made == "# made by: phasedsl balance original --games 80 --seed 1 --write out.yaml"
    assert why.startswith("# the phases of original (original.yaml) in the order")
    assert "title: Phase 10 (original) (reordered by phasedsl balance)" in written
    pack, diags = check_file(tmp_path / "out.yaml", strict=True)
    assert pack is not None and diags == []
    texts = [e.text for e in load_pack("original").world(None).phases]
    assert [e.text for e in pack.world(None).phases] == [texts[n - 1]
                                                          for n in out["proposed_order"]]
    assert out["written"]["path"] == "out.yaml"


# --------------------------------------------------------------------------- issue 26, item 13


def test_no_phase_flagged_still_names_the_rows_that_are_not_settled():
    import dataclasses

    from phasedsl.cli.design import balance_text

    pack = load_pack("short-game-5")
    b = balance(pack, None, 2, games=4, seed=5, all_sizes=False)
    # a proposed order with no flag but one "?" row (the intervals overlap)
    rows = list(b.current.phases)
    rows[2] = dataclasses.replace(rows[2], easier_than_previous="maybe")
    rows = [dataclasses.replace(r, easier_than_previous=None) if i != 2 else r
            for i, r in enumerate(rows)]
    proposed = dataclasses.replace(b.current, order=(2, 1, 3, 4, 5), phases=tuple(rows))
    text = " ".join(balance_text(dataclasses.replace(b, proposed=proposed), pack).split())
    n = rows[2].number
    assert f"no phase surely easier than the one before; maybe: {n} (marked ?" in text
    assert "no phase flagged" not in text  # (never above a ?: issue 30)


def test_write_of_a_pack_no_change_is_proposed_for_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("balance", "pick-a-phase", "--players", "2", "--games", "2", "--write", "out.yaml")
    assert r.exit_code == 0, r.output
    assert "out.yaml not written: no change is proposed" in r.output
    assert list(tmp_path.iterdir()) == []
    r = invoke("balance", "pick-a-phase", "--players", "2", "--games", "2", "--write", "out.yaml",
               "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["written"] == {"path": "out.yaml", "written": False,
                                               "reason": "no change is proposed"}
    assert list(tmp_path.iterdir()) == []


def test_the_table_columns_line_up_on_sampled_rows():
    # a sampled dealt figure ("12.34 (11.90-12.80)") is longer than an exact one, and the
    # columns after it shifted right on its row
    from phasedsl.cli.design import _table
    from phasedsl.design.difficulty import Dealt, PhaseInPlay

    def row(n, phase, dealt, share):
        return PhaseInPlay(n, phase, 100, int(100 * share), share, (share - 0.05, share + 0.04),
                           10.5, (9.25, 11.75), dealt, "maybe" if n == 3 else False, 4)

    rows = [row(1, "2 sets of 3", Dealt(0.182752, "exact", (0.182752, 0.182752)), 0.789),
            row(2, "1 color run of 9 + 1 set of 3", Dealt(0.1234, "sampled", (0.119, 0.128),
                                                         20000), 0.5),
            row(3, "7 cards of one color", Dealt(0.00001, "sampled", (0.0, 0.0001), 20000),
                0.961)]
    lines = _table(rows, True)
    starts = [lines[0].index(h) for h in ("dealt %", "completed %", "hands spent")]
    body = [ln for ln in lines[1:] if ln[:3].strip()]
    assert len(body) == 3
    for ln in body:
        for at in starts:
            assert ln[at - 2:at] == "  " and ln[at] != " ", (ln, at)
    assert all(len(ln) <= 80 for ln in lines)


# --------------------------------------------------------------------------- issue 30, item 5


def test_a_maybe_flag_says_how_many_games_would_settle_it():
    from phasedsl.design.difficulty import MOST_SETTLE_GAMES, games_to_settle, wilson

    class Row:
        def __init__(self, share, attempts):
            self.completed_share, self.attempts, self.number = share, attempts, 1
            self.completed_ci95 = wilson(round(share * attempts), attempts)

    prev, cur = Row(0.70, 100), Row(0.80, 100)  # overlapping at 100 attempts each
    assert cur.completed_ci95[0] < prev.completed_ci95[1]
    needed = games_to_settle(prev, cur, 40)
    k = needed / 40
    def parted(k):
        return wilson(80 * k, 100 * k)[0] > wilson(70 * k, 100 * k)[1]
    assert parted(k) and not parted((needed - 2) / 40)
    assert games_to_settle(prev, Row(0.705, 100), 40) is None  # too close: past the cap
    assert games_to_settle(cur, prev, 40) is None and MOST_SETTLE_GAMES == 20_000


def test_balance_settle_measures_again_with_the_games_it_needs():
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "40")
    assert "about 137 games a simulation would settle it (today 40)" in " ".join(r.output.split())
    r = invoke("balance", "short-game-5", "--players", "2", "--games", "40", "--settle", "--json")
    out = json.loads(r.output)
    assert out["settled_with"] > 40 and out["games"] == out["settled_with"]
    assert not any(p["easier_than_previous"] == "maybe" for p in out["phases"])
    r = invoke("balance", "pick-a-phase", "--players", "2", "--games", "2", "--settle")
    assert "--settle: nothing to settle" in r.output  # (players choose: nothing is flagged)


def test_a_sampled_dealt_figure_is_odds_figure_with_the_hands_it_rests_on(tmp_path, cache):
    """balance printed '0.01 (0.01-0.04)' where odds says 0.0150% (0.005-0.044%), and never
    the 20,000 hands the interval rests on."""
    (tmp_path / "two.yaml").write_text(
        'name: two\ntitle: Two\ndescription: d\nsource: s\nextends: original\nrules:\n'
        '  runs:\n    one_color: true\n  game_length: 2\nphases:\n  - "2 sets of 3"\n'
        '  - "1 run of 8"\n', encoding="utf-8")
    r = invoke("balance", tmp_path / "two.yaml", "--players", "2", "--games", "10", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "0.0150 (0.005-0.044)" in r.output
    assert "sampled dealt figures: 20,000 hands each, seeded" in r.output
