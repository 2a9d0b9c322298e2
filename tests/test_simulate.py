"""simulate: seeded games between bots, the figures, the CLI, the logs."""

import json

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.gamelog import replay
from phasedsl.packs import load_pack
from phasedsl.simulate import play_game, simulate, summarize

runner = CliRunner()


def test_same_seed_same_figures_whatever_the_jobs():
    one = simulate("short-game-5", 3, 4, seed=7, jobs=1)
    two = simulate("short-game-5", 3, 4, seed=7, jobs=2)
    assert one == two
    assert simulate("short-game-5", 3, 4, seed=8) != one


def test_short_games_are_shorter_than_the_original():
    short = summarize(simulate("short-game-5", 4, 3, seed=2), 4)
    full = summarize(simulate("original", 4, 3, seed=2), 4)
    assert short["hands_per_game"]["mean"] < full["hands_per_game"]["mean"]
    assert short["hands_per_game"]["p90"] < full["hands_per_game"]["p10"]


def test_everyone_advances_takes_game_length_hands():
    pack = load_pack("everyone-advances")
    length = pack.world(None).settings.get("game_length", 10)
    for r in simulate(pack, 3, 4, seed=3):
        assert not r.capped
        assert r.hands - r.tie_hands == length


def test_random_bots_take_far_longer_than_greedy():
    greedy = simulate("short-game-5", 3, 3, seed=4)
    rnd = simulate("short-game-5", 3, 3, bot="random", seed=4)
    assert sum(sum(r.turns) for r in rnd) > 4 * sum(sum(r.turns) for r in greedy)


def test_a_game_past_the_cap_is_reported_not_looped():
    r = play_game(load_pack("original"), 3, "random", seed=1, max_moves=50)
    assert r.capped and r.winner is None
    s = summarize([r], 3)
    assert s["capped"] == [0] and s["finished"] == 0 and s["hands_per_game"]["n"] == 0


def test_summary_figures():
    records = simulate("short-game-5", 3, 6, seed=5)
    s = summarize(records, 3, {1: 0.5})
    h = s["hands_per_game"]
    hands = sorted(r.hands for r in records)
    assert h["mean"] == pytest.approx(sum(hands) / 6)
    assert h["ci95"][0] <= h["mean"] <= h["ci95"][1]
    assert h["p10"] <= h["median"] <= h["p90"]
    assert sum(h["histogram"].values()) == 6
    assert sum(s["win_share_by_seat"]) == pytest.approx(1)
    assert [row["phase"] for row in s["phases"]] == [1, 2, 3, 4, 5]
    assert s["phases"][0]["dealt_odds"] == 0.5 and s["phases"][1]["dealt_odds"] is None
    assert all(0 < row["completed_share"] <= 1 and row["hands_spent"] >= 1 for row in s["phases"])
    # every game ends with someone through phase 5
    assert sum(row["completed_share"] * row["attempts"] for row in s["phases"]
               if row["phase"] == 5) >= 6


def test_cli_text_json_and_logs_that_replay(tmp_path):
    args = ["simulate", "--variant", "short-game-5", "--players", "3", "--games", "3",
            "--seed", "11"]
    res = runner.invoke(app, [*args, "--json", "--logs", str(tmp_path / "logs")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games"] == 3 and data["variant"] == "short-game-5" and data["players"] == 3
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert len(logs) == 3
    hands = []
    for log in logs:
        result = replay(log.read_text().splitlines(), tmp_path)
        assert result.legal and result.winner is not None
        hands.append(len(result.hands))
    assert sum(hands) / 3 == pytest.approx(data["hands_per_game"]["mean"])
    text = runner.invoke(app, args)
    assert text.exit_code == 0
    assert "hands per game: mean" in text.output and "win share by seat" in text.output
    assert f"mean {data['hands_per_game']['mean']:.2f}" in text.output


@pytest.mark.parametrize("args, message", [
    (["--variant", "nope", "--players", "3", "--games", "2"], "nope"),
    (["--variant", "masters", "--players", "6", "--games", "2"], "2-4 players"),
    (["--variant", "original", "--players", "3", "--games", "2", "--bot", "clever"], "clever"),
    (["--variant", "world-tour", "--players", "3", "--games", "2"], "--world"),
    (["--variant", "original", "--players", "3", "--games", "2", "--plot", "x.gif"], ".gif"),
    (["--variant", "original", "--players", "9", "--games", "2"], "players"),
])
def test_cli_bad_input_exits_2_with_a_reason(args, message):
    res = runner.invoke(app, ["simulate", *args])
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_cli_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "sim.svg"
    res = runner.invoke(app, ["simulate", "--variant", "short-game-5", "--players", "2",
                              "--games", "2", "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().lstrip().startswith(("<?xml", "<svg"))
