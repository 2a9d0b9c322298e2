"""`phasedsl replay`: exit codes, text and the JSON shape."""

import json

import pytest
from game_logs import ann_goes_out, deal, discard, draw, game, lines
from typer.testing import CliRunner

from phasedsl.cli import app

runner = CliRunner()


def write(tmp_path, events, raw: list[str] | None = None):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(raw if raw is not None else lines(events)) + "\n", encoding="utf-8")
    return str(path)


def test_a_legal_log_exits_0_with_the_standings(tmp_path):
    log = write(tmp_path, [game(), deal(), *ann_goes_out(), deal(), draw("bob", "R1")])
    r = runner.invoke(app, ["replay", log])
    assert r.exit_code == 0, r.output
    assert "every event is legal" in r.output
    assert "hand 1: ann went out" in r.output
    assert "bob   75 points  total   75  phase not made, next phase 1" in r.output
    r = runner.invoke(app, ["replay", log, "--json"])
    assert r.exit_code == 0
    assert json.loads(r.output) == {
        "legal": True, "error": None, "winner": None,
        "hands": [{"went_out": "ann", "points": {"ann": 0, "bob": 75, "cat": 65},
                   "totals": {"ann": 0, "bob": 75, "cat": 65},
                   "completed": {"ann": True, "bob": False, "cat": False},
                   "next_phase": {"ann": 2, "bob": 1, "cat": 1}}]}


def test_an_illegal_event_exits_1_naming_line_event_and_rule(tmp_path):
    log = write(tmp_path, [game(), deal(), *ann_goes_out(), deal(), draw("cat", "R1")])
    r = runner.invoke(app, ["replay", log])
    assert r.exit_code == 1
    assert r.output.startswith('line 7: {"type": "draw", "player": "cat", "from": "deck", '
                               '"card": "R1"}\n  illegal: it is bob\'s turn, not cat\'s '
                               '[not_your_turn]\n')
    assert "hand 1: ann went out" in r.output  # hands finished before the illegal event
    out = json.loads(runner.invoke(app, ["replay", log, "--json"]).output)
    assert out["legal"] is False and len(out["hands"]) == 1
    assert out["error"] == {"line": 7, "rule": "not_your_turn",
                            "message": "it is bob's turn, not cat's"}


def test_an_unreadable_log_exits_2_with_the_line(tmp_path):
    head = json.dumps(game())
    cases = {
        "not JSON": [head, "{not json"],
        "unknown event type 'dance'": [head, '{"type": "dance"}'],
        "no pack 'nosuchpack'": [json.dumps(game("nosuchpack"))],
        "unknown color 'X'": [head, json.dumps(deal()), json.dumps(draw("ann", "X5"))],
        "a log starts with the \"game\" event": [json.dumps(deal())],
        "'on' of a 'hit' event must be": [head, json.dumps(deal()), '{"type": "hit", "player": "ann", '
                                                  '"card": "R5", "on": 3}'],
    }
    for expected, raw in cases.items():
        r = runner.invoke(app, ["replay", write(tmp_path, None, raw)])
        assert r.exit_code == 2, (expected, r.output)
        assert expected in r.output, r.output
        assert f"line {len(raw)}:" in r.output
        r = runner.invoke(app, ["replay", write(tmp_path, None, raw), "--json"])
        assert r.exit_code == 2 and "error" in json.loads(r.output)
    r = runner.invoke(app, ["replay", str(tmp_path / "missing.jsonl")])
    assert r.exit_code == 2 and "cannot read" in r.output


def test_a_missing_docs_example_log_says_where_the_installed_one_is(tmp_path, monkeypatch):
    # the guides replay docs/examples/hand.jsonl, which a wheel's user has not got
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["replay", "docs/examples/hand.jsonl"])
    assert r.exit_code == 2
    assert 'phasedsl replay "$(phasedsl docs examples/hand.jsonl --path)"' in r.output
    r = runner.invoke(app, ["replay", "mine/hand.jsonl"])
    assert r.exit_code == 2 and "phasedsl docs" not in r.output


def test_a_pack_file_is_found_beside_the_log(tmp_path):
    (tmp_path / "mine.yaml").write_text("name: mine\ntitle: mine\ndescription: d\nsource: s\n"
                                        "extends: original\n", encoding="utf-8")
    log = write(tmp_path, [game("mine.yaml"), deal(), *ann_goes_out()])
    r = runner.invoke(app, ["replay", log, "--json"])
    assert r.exit_code == 0, r.output


def test_a_finished_game_names_the_winner(tmp_path):
    (tmp_path / "one.yaml").write_text("name: one\ntitle: one\ndescription: d\nsource: s\n"
                                       "extends: original\nrules:\n  game_length: 1\n"
                                       "phases: [\"2 sets of 3\"]\n", encoding="utf-8")
    log = write(tmp_path, [game("one.yaml"), deal(), *ann_goes_out(), discard("bob", "R2")])
    r = runner.invoke(app, ["replay", log])
    assert r.exit_code == 1 and "winner: ann" in r.output and "[game_over]" in r.output


def test_the_readme_shows_real_replay_output():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "docs" / "how-to" / "referee-logs.md").read_text(encoding="utf-8")
    example = str(root / "docs" / "examples" / "hand.jsonl")
    for args in ([], ["--json"]):
        r = runner.invoke(app, ["replay", example, *args])
        assert r.exit_code == 0
        shown = f"$ phasedsl replay docs/examples/hand.jsonl{' ' + args[0] if args else ''}\n"
        assert shown + r.output in readme
    block = re.findall(r"```python\n(.*?)```", readme, flags=re.S)[0]
    assert "Game.new" in block
    exec(compile(block, "README.md", "exec"), {})


def test_hostile_logs_are_refused_quickly(tmp_path):
    head = json.dumps(game())
    huge = '{"type": "draw", "player": "' + "a" * 1_100_000 + '"}'
    deep = "[" * 100_000 + "]" * 100_000
    for raw, expected in (([head, huge], "line too long"), ([head, deep], "line 2:")):
        r = runner.invoke(app, ["replay", write(tmp_path, None, raw)])
        assert r.exit_code == 2 and expected in r.output


def test_replay_reads_stdin():
    text = "\n".join(lines([game(), deal(), *ann_goes_out()])) + "\n"
    r = runner.invoke(app, ["replay", "-", "--json"], input=text)
    assert r.exit_code == 0 and json.loads(r.output)["hands"][0]["went_out"] == "ann"


def test_a_pack_with_worlds_needs_the_world_named(tmp_path):
    r = runner.invoke(app, ["replay", write(tmp_path, [game("world-tour")])])
    assert r.exit_code == 2 and 'name one in "world" (island-paradise' in r.output
    r = runner.invoke(app, ["replay", write(tmp_path, [game("world-tour", world="jazz-club"),
                                                       deal(), draw("ann", "R1")])])
    assert r.exit_code == 0, r.output


def test_the_readme_illegal_example_is_real_output(tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "docs" / "how-to" / "referee-logs.md").read_text(encoding="utf-8")
    text = (root / "docs" / "examples" / "hand.jsonl").read_text(encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text.replace('"card": "W", "on"', '"card": "W=5", "on"'), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 1
    assert r.output + "[exit 1]\n" in readme


def test_lint_reports_rules_the_referee_does_not_play(tmp_path):
    path = tmp_path / "blue.yaml"
    path.write_text("name: blue\ntitle: blue\ndescription: d\nsource: s\nextends: original\n"
                    "rules:\n  house_rules:\n    skip_counts_as_blue: true\n"
                    "    declare_phase: at_deal\n", encoding="utf-8")
    r = runner.invoke(app, ["lint", str(path)])
    assert r.exit_code == 1
    # (skip_counts_as_blue was such a rule until issue 19: the referee plays it now)
    assert "skip_counts_as_blue" not in r.output
    assert "error: declare_phase is 'at_deal' but phase_order is 'in_order'" in r.output
    r = runner.invoke(app, ["validate", str(path)])  # without --strict: a loadable pack
    assert r.exit_code == 0


def test_a_log_saved_with_a_bom_reads(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes("\ufeff".encode() + "\n".join(lines([game(), deal()])).encode())
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0


def test_a_log_over_the_size_limit_is_refused_before_reading_it_all(tmp_path, monkeypatch):
    import phasedsl.cli.game as cli_game

    monkeypatch.setattr(cli_game, "MAX_LOG", 1000)
    log = write(tmp_path, [game(), deal(), *ann_goes_out()] * 3)
    r = runner.invoke(app, ["replay", log])
    assert r.exit_code == 2 and "holds more than 1,000 characters" in r.output


def test_replay_reports_a_game_stopped_by_the_clock(tmp_path):
    pack = tmp_path / "baseball.yaml"
    pack.write_text("name: baseball\ntitle: b\ndescription: d\nsource: s\nextends: original\n"
                    "rules:\n  house_rules:\n    baseball_short_game: true\n", encoding="utf-8")
    log = write(tmp_path, [game("baseball.yaml"), deal(), *ann_goes_out(), {"type": "stop"}])
    r = runner.invoke(app, ["replay", log])
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("stopped by the clock: no winner (nobody had 5.5 phases, "
                                      "or the leaders are tied)")
    r = runner.invoke(app, ["replay", log, "--json"])
    assert json.loads(r.output)["winner"] is None and len(json.loads(r.output)["hands"]) == 1


def test_lint_warns_of_a_clock_that_never_gives_a_complete_game(tmp_path):
    path = tmp_path / "b5.yaml"
    path.write_text("name: b5\ntitle: b\ndescription: d\nsource: s\nextends: short-game-5\n"
                    "rules:\n  house_rules:\n    baseball_short_game: true\n", encoding="utf-8")
    r = runner.invoke(app, ["lint", str(path)])
    assert "warning: baseball_short_game makes 5.5 phases a complete game, but this game has " \
           "only 5 phases" in r.output, r.output


MINE = """\
name: mine
title: Mine
description: a pack of one's own, with a phase of its own
source: a test
extends: original
rules:
  house_rules:
    hit_same_turn: false
phases:
  - "1 set of 4"
  - "2 sets of 3"
"""


def _log_of_mine(tmp_path):
    import json

    from phasedsl.design.simulate import play_game
    from phasedsl.packs.pack import load_pack

    home = tmp_path / "home"
    home.mkdir()
    (home / "mine.yaml").write_text(MINE, encoding="utf-8")
    record = play_game(load_pack(str(home / "mine.yaml")), 2, seed=3, keep_log=True)
    lines = list(record.log)
    return lines, json.loads(lines[0])


def test_a_log_carries_its_pack_and_replays_anywhere(tmp_path):
    # a log of a pack file named the file; replayed from another folder it was refused
    lines, header = _log_of_mine(tmp_path)
    assert header["pack"]["name"] == "mine" and "extends" not in header["pack"]
    assert header["pack"]["phases"] == ["1 set of 4", "2 sets of 3"]
    assert header["pack"]["rules"]["house_rules"]["hit_same_turn"] is False
    away = tmp_path / "elsewhere"
    away.mkdir()
    log = away / "game.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["replay", str(log), "--json"])
    assert r.exit_code == 0, r.output
    # --variant still says which pack to referee it under
    r = runner.invoke(app, ["replay", str(log), "--variant", "original", "--json"])
    assert r.exit_code in (0, 1) and "mine" not in r.stdout


def test_simulate_play_and_tournament_logs_carry_the_pack(tmp_path):
    import json

    pack = tmp_path / "mine.yaml"
    pack.write_text(MINE, encoding="utf-8")
    r = runner.invoke(app, ["simulate", str(pack), "--games", "1", "--players", "2",
                            "--logs", str(tmp_path / "sim")])
    assert r.exit_code == 0, r.output
    first = (tmp_path / "sim" / "game-0001.jsonl").read_text().splitlines()[0]
    assert json.loads(first)["pack"]["name"] == "mine"
    r = runner.invoke(app, ["tournament", str(pack), "--bot", "greedy", "--bot", "random",
                            "--games", "1", "--logs", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    logs = sorted((tmp_path / "t").glob("*.jsonl"))
    assert logs and json.loads(logs[0].read_text().splitlines()[0])["pack"]["name"] == "mine"


@pytest.mark.parametrize(("pack", "said"), [
    ("secret-token-123", "not a pack"),
    ({"name": "mine", "title": "t", "description": "d", "source": "s",
      "extends": "../../etc/passwd.yaml", "phases": ["2 sets of 3"]}, "no pack file"),
    ({"name": "mine", "title": "t", "description": "d", "source": "s",
      "phases": ["2 sets of three hundred"]}, "phase 1"),
    ({"name": "mine", "title": "t", "description": "d", "source": "s", "phases": 7}, "phases"),
    ({"name": "mine", "title": "t", "description": "x" * 1_100_000, "source": "s",
      "phases": ["2 sets of 3"]}, "too long"),
])
def test_a_hostile_carried_pack_is_refused_clearly(tmp_path, pack, said):
    import json

    lines, header = _log_of_mine(tmp_path)
    header["pack"] = pack
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 2, r.output
    assert said in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "secret-token" not in r.stderr
