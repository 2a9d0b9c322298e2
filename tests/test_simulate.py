"""simulate: seeded games between bots, the figures, the CLI, the logs."""

import json

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.difficulty import Dealt
from phasedsl.design.odds import wilson
from phasedsl.design.simulate import describe_values, play_game, simulate, summarize
from phasedsl.game.log import replay
from phasedsl.game.moves import LogError
from phasedsl.packs.pack import load_pack

runner = CliRunner()


def test_same_seed_same_figures_whatever_the_jobs(played_afresh):
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
    assert s["capped"] == [1] and s["finished"] == 0 and s["hands_per_game"]["n"] == 0


def test_summary_figures():
    records = simulate("short-game-5", 3, 6, seed=5)
    s = summarize(records, 3, {1: Dealt(0.5, "sampled", (0.45, 0.55), 400)})
    h = s["hands_per_game"]
    hands = sorted(r.hands for r in records)
    assert h["mean"] == pytest.approx(sum(hands) / 6)
    assert h["ci95"][0] <= h["mean"] <= h["ci95"][1]
    assert h["p10"] <= h["median"] <= h["p90"]
    assert sum(h["histogram"].values()) == 6
    assert sum(s["win_share_by_seat"]) == pytest.approx(1)
    assert [row["phase"] for row in s["phases"]] == [1, 2, 3, 4, 5]
    assert s["phases"][0]["dealt_odds"] == 0.5 and s["phases"][1]["dealt_odds"] is None
    assert s["phases"][0]["dealt"] == {"probability": 0.5, "method": "sampled",
                                       "ci95": [0.45, 0.55], "samples": 400}
    assert all(0 < row["completed_share"] <= 1 and row["hands_spent"] >= 1 for row in s["phases"])
    # every share and mean carries its 95% interval (completion: Wilson's, of its attempts)
    for row in s["phases"]:
        lo, hi = row["completed_ci95"]
        assert lo <= row["completed_share"] <= hi
        assert (lo, hi) == pytest.approx(wilson(round(row["completed_share"] * row["attempts"]),
                                                row["attempts"]))
        lo, hi = row["hands_spent_ci95"]
        assert lo <= row["hands_spent"] <= hi
    for key in ("mean_final_score", "mean_winning_score"):
        lo, hi = s[f"{key}_ci95"]
        assert lo <= s[key] <= hi
    scores = [t for r in records for t in r.totals]
    assert s["mean_final_score"] == pytest.approx(sum(scores) / len(scores))
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


class Cautious:
    """A user's bot class: greedy, except that it never takes the discard."""

    def __init__(self, seed: int) -> None:
        from phasedsl.players.bots import GreedyBot

        self.inner = GreedyBot(seed)

    def choose(self, v):
        moves = [m for m in v.moves if getattr(m, "source", None) != "discard"] or list(v.moves)
        if len(moves) < len(v.moves):
            return next(m for m in moves if getattr(m, "source", None) == "deck")
        return self.inner.choose(v)


def test_simulate_takes_a_bot_class():
    records = simulate("short-game-5", 2, 2, bot=Cautious, seed=1)
    assert all(not r.capped for r in records)
    for r in simulate("short-game-5", 2, 1, bot=Cautious, seed=1, keep_logs=True):
        assert '"from": "discard"' not in "\n".join(r.log)
        assert replay(list(r.log)).legal


def test_cli_logs_into_a_file_is_refused(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("x")
    res = runner.invoke(app, ["simulate", "--variant", "short-game-5", "--players", "2",
                              "--games", "1", "--logs", str(taken)])
    assert res.exit_code == 2 and "cannot make the folder" in res.output


def test_logs_of_a_pack_file_name_it_from_their_folder(tmp_path, monkeypatch):
    from phasedsl.system.resources import variants_dir

    packs = tmp_path / "packs"
    packs.mkdir()
    text = (variants_dir() / "short-game-5.yaml").read_text()
    (packs / "mine.yaml").write_text(text.replace("name: short-game-5", "name: mine"))
    monkeypatch.chdir(packs)
    res = runner.invoke(app, ["simulate", "--variant", "mine.yaml", "--players", "2", "--games",
                              "1", "--logs", str(tmp_path / "out" / "logs")])
    assert res.exit_code == 0, res.output
    log = tmp_path / "out" / "logs" / "game-0001.jsonl"
    assert json.loads(log.read_text().splitlines()[0])["variant"] == "../../packs/mine.yaml"
    monkeypatch.chdir(tmp_path)
    # the log carries its pack (issue 26): it replays anywhere; without it, a log reads no
    # pack outside its folder (issue 14): the pack is named on the command line (replay
    # --variant), or lies in or below the log's folder
    assert replay(log.read_text().splitlines(), log.parent).legal
    head, *rest = log.read_text().splitlines()
    bare = [json.dumps({k: v for k, v in json.loads(head).items() if k != "pack"}), *rest]
    with pytest.raises(LogError, match="in or below the log's folder"):
        replay(bare, log.parent)
    assert replay(log.read_text().splitlines(), log.parent, load_pack(packs / "mine.yaml")).legal
    monkeypatch.chdir(packs)
    res = runner.invoke(app, ["simulate", "--variant", "mine.yaml", "--players", "2", "--games",
                              "1", "--logs", str(packs)])
    log = packs / "game-0001.jsonl"
    assert json.loads(log.read_text().splitlines()[0])["variant"] == "mine.yaml"
    monkeypatch.chdir(tmp_path)
    assert replay(log.read_text().splitlines(), log.parent).legal


def test_cli_reports_capped_games():
    from phasedsl.cli.sim import summary_text

    s = summarize([play_game(load_pack("original"), 3, "random", seed=1, max_moves=40)], 3)
    text = summary_text({"variant": "original", "world": None, "players": 3, "bot": "random",
                         "seed": 1, **s})
    assert "stopped at the safety cap (not counted): 1 game(s), numbers 1" in text
    assert "no game finished" in text


def test_cli_world():
    res = runner.invoke(app, ["simulate", "--variant", "world-tour", "--world", "okie-circle-j",
                              "--players", "2", "--games", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["world"] == "okie-circle-j" and data["finished"] == 1
    assert len(data["phases"]) >= 1 and all(r["dealt_odds"] is not None for r in data["phases"])


def test_cli_text_fits_80_columns():
    res = runner.invoke(app, ["simulate", "--variant", "short-game-5", "--players", "6",
                              "--games", "2"])
    assert res.exit_code == 0, res.output
    assert max(len(line) for line in res.output.splitlines()) <= 80
    assert "6 (fay)" in res.output


def test_cli_json_error_shape():
    res = runner.invoke(app, ["simulate", "--variant", "nope", "--players", "3", "--games", "1",
                              "--json"])
    assert res.exit_code == 2
    data = json.loads(res.output)
    assert "nope" in data["error"] and data["exit"] == 2


def test_a_mean_interval_is_cut_at_the_least_value_the_count_can_take():
    # two widely spread hands put the normal interval's lower end below 0 turns
    # ("turns per hand: mean 126.0 (95% CI -119.0-371.0, 2 hands)" was printed)
    assert describe_values([26.0, 226.0])["ci95"][0] < 0
    cut = describe_values([26.0, 226.0], floor=0)
    assert cut["ci95"][0] == 0 and cut["ci95"][1] == describe_values([26.0, 226.0])["ci95"][1]
    assert describe_values([5.0, 7.0], floor=0)["ci95"] == describe_values([5.0, 7.0])["ci95"]


def test_the_counts_of_a_run_never_have_an_interval_below_their_least_value():
    records = simulate("original", 2, 3, seed=4)
    got = summarize(records, 2)
    assert got["turns_per_hand"]["ci95"][0] >= 0
    assert got["hands_per_game"]["ci95"][0] >= 1
    assert all(p["hands_spent_ci95"][0] >= 1 for p in got["phases"])
    # one attempt of a phase that took several hands for one player, one for another
    spread = describe_values([1.0, 9.0], floor=1)["ci95"]
    assert spread[0] == 1
