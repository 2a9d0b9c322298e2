"""Games kept on disk (``design.gamecache``): a game asked again is read, the same record;
anything that could change the game finds nothing kept; a bad file is ignored."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design import gamecache
from phasedsl.design import simulate as sim
from phasedsl.packs.pack import load_pack

runner = CliRunner()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path))
    return tmp_path / gamecache.FOLDER


@pytest.fixture
def unplayable(monkeypatch):
    """Playing a game fails the test: whatever is asked must be read."""
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(sim, "play_game", refuse)


def test_a_game_played_once_is_read_the_same_after(cache, monkeypatch):
    first = sim.simulate("short-game-5", 3, 6, seed=4)
    assert len(list(cache.glob("*.json"))) == 1
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: pytest.fail("played again"))
    assert sim.simulate("short-game-5", 3, 6, seed=4) == first
    # a longer run reads the games it shares and plays the rest only
    monkeypatch.undo()
    monkeypatch.setenv("PHASEDSL_CACHE", str(cache.parent))
    played = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: played.append(k["index"])
                        or real(*a, **k))
    longer = sim.simulate("short-game-5", 3, 9, seed=4)
    assert longer[:6] == first and played == [6, 7, 8]


def test_report_after_balance_of_the_same_pack_plays_no_game(monkeypatch, tmp_path):
    # (the test run's cache, whose dealt chances other tests work out too; a seed no other
    # test plays)
    seed = ["--seed", "4646"]
    r = runner.invoke(app, ["balance", "short-game-5", "--players", "2", "--games", "20",
                            "--json", *seed])
    assert r.exit_code == 0, r.output
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: pytest.fail("played again"))
    again = runner.invoke(app, ["balance", "short-game-5", "--players", "2", "--games", "20",
                                "--json", *seed])
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(r.stdout)
    # (report plays each table size until its figures settle, as balance does)
    from phasedsl.design import report

    monkeypatch.setattr(report, "player_counts", lambda pack, world=None: [2])
    out = runner.invoke(app, ["report", "short-game-5", "--games", "20", "-o",
                              str(tmp_path / "r.html"), *seed])
    assert out.exit_code == 0, out.output


def test_what_decides_a_game_is_in_its_key_and_what_does_not_is_not():
    pack = load_pack("short-game-5")
    seats = sim.seat_specs("greedy", 3)
    key = gamecache.run_key(pack, None, 3, seats, 1, sim.MAX_MOVES)
    from dataclasses import replace

    assert gamecache.run_key(replace(pack, name="mine", title="Mine"), None, 3, seats, 1,
                             sim.MAX_MOVES) == key
    other_rules = load_pack("original")
    assert gamecache.run_key(other_rules, None, 3, seats, 1, sim.MAX_MOVES) != key
    assert gamecache.run_key(pack, None, 4, sim.seat_specs("greedy", 4), 1,
                             sim.MAX_MOVES) != key
    assert gamecache.run_key(pack, None, 3, seats, 2, sim.MAX_MOVES) != key
    assert gamecache.run_key(pack, None, 3, sim.seat_specs("random", 3), 1,
                             sim.MAX_MOVES) != key
    assert gamecache.run_key(pack, None, 3, seats, 1, 500) != key
    # the bot that plays, not the words that named it
    from phasedsl.players.botspec import BotSpec

    assert gamecache.run_key(pack, None, 3, [BotSpec("greedy", "builtin", "random")] * 3, 1,
                             sim.MAX_MOVES) != key
    # a bot of the user's may change without us knowing: never kept
    assert gamecache.run_key(pack, None, 3, sim.seat_specs("module:phasedsl.players.bots.GreedyBot", 3), 1,
                             sim.MAX_MOVES) is None


def test_another_version_of_the_code_finds_nothing(cache, monkeypatch):
    sim.simulate("short-game-5", 2, 2, seed=1)
    monkeypatch.setattr(gamecache, "fingerprint", lambda: "another")
    played = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: played.append(1) or real(*a, **k))
    sim.simulate("short-game-5", 2, 2, seed=1)
    assert len(played) == 2


@pytest.mark.parametrize("spoil", [
    lambda text: "{not json",
    lambda text: text.replace('"games": {"0": [0,', '"games": {"0": ["x",'),
    lambda text: json.dumps({"key": "another", "games": {}}),
    lambda text: text.replace("[0, ", "[1, ", 1),  # game 0 filed as game 1
    lambda text: "x" * (gamecache.MAX_BYTES + 1),
    # (JSON reads Infinity, which int() refuses with an OverflowError)
    lambda text: re.sub(r'"0": \[0, \d+,', '"0": [0, Infinity,', text, count=1),
])
def test_a_spoilt_file_is_ignored_and_the_games_played(cache, spoil, monkeypatch):
    first = sim.simulate("short-game-5", 2, 2, seed=3)
    (path,) = cache.glob("*.json")
    text = path.read_text()
    assert spoil(text) != text  # (the spoiling took)
    path.write_text(spoil(text))
    played = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: played.append(1) or real(*a, **k))
    assert sim.simulate("short-game-5", 2, 2, seed=3) == first
    assert len(played) == 2  # (both played again: neither read from the spoilt file)


def test_at_most_max_files_are_kept(cache, monkeypatch):
    monkeypatch.setattr(gamecache, "MAX_FILES", 3)
    for seed in range(5):
        sim.simulate("short-game-5", 2, 1, seed=seed)
    assert len(list(cache.glob("*.json"))) == 3


def test_balance_of_the_order_balance_wrote_plays_no_game(monkeypatch, tmp_path):
    # (the test run's cache, whose dealt chances of original other tests work out too; a
    # seed no other test plays)
    out = tmp_path / "mended.yaml"
    r = runner.invoke(app, ["balance", "original", "--players", "2", "--games", "20",
                            "--seed", "4345", "--write", str(out)])
    assert r.exit_code == 0 and out.exists(), r.output
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: pytest.fail("played again"))
    again = runner.invoke(app, ["balance", str(out), "--players", "2", "--games", "20",
                                "--seed", "4345", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["proposed_order"] == list(range(1, 11))


def test_a_run_keeps_its_first_games_only_and_the_folder_its_bytes(cache, monkeypatch):
    monkeypatch.setattr(gamecache, "MAX_GAMES", 3)
    sim.simulate("short-game-5", 2, 5, seed=8)
    (path,) = cache.glob("*.json")
    assert sorted(json.loads(path.read_text())["games"]) == ["0", "1", "2"]
    monkeypatch.setattr(gamecache, "MAX_TOTAL", path.stat().st_size + 10)
    sim.simulate("short-game-5", 2, 2, seed=9)
    assert list(cache.glob("*.json")) != [path] and len(list(cache.glob("*.json"))) == 1


def test_simulate_reads_the_games_played_before_and_logs_play_them(monkeypatch, tmp_path):
    # (the test run's cache, whose dealt chances other tests work out too; a seed no other
    # test plays)
    args = ["simulate", "short-game-5", "-n", "2", "-g", "3", "--seed", "77", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: pytest.fail("played again"))
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and again.stdout == first.stdout
    # a game's log is written as it is played: --logs plays every game
    monkeypatch.setattr(sim, "play_game", real)
    logged = runner.invoke(app, [*args, "--logs", str(tmp_path / "logs")])
    assert logged.exit_code == 0 and len(list((tmp_path / "logs").glob("game-*.jsonl"))) == 3
    assert json.loads(logged.stdout)["hands_per_game"] == json.loads(first.stdout)[
        "hands_per_game"]


def test_the_fingerprint_holds_the_schema_and_the_grammar(tmp_path, monkeypatch):
    # (the schema's defaults fill the rules a pack leaves out; the grammar reads its phases;
    # in a checkout the grammar lies outside the package)
    now = gamecache.fingerprint.__wrapped__()
    for name in ("schema_path", "grammar_path"):
        edited = tmp_path / f"{name}.txt"
        edited.write_bytes(getattr(gamecache, name)().read_bytes() + b" ")
        with monkeypatch.context() as m:
            m.setattr(gamecache, name, lambda edited=edited: edited)
            assert gamecache.fingerprint.__wrapped__() != now, name


def test_a_board_game_is_read_back_with_its_board(cache, monkeypatch):
    first = sim.simulate("twist", 2, 1, seed=5)
    assert first[0].board  # (a record with its hands on the board, to round-trip)
    monkeypatch.setattr(sim, "play_game", lambda *a, **k: pytest.fail("played again"))
    assert sim.simulate("twist", 2, 1, seed=5) == first
