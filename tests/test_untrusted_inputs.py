"""Input that comes from someone else: a game log names its pack (confined to the log's
folder, never quoted unless it is a pack), files that are not regular files, logs with keys
twice, huge fields, annotated cards in hands, huge YAML numbers; and the one rule for
naming packs (a bare name is a built-in, a path is a file), with its messages."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.game import Draw, Game

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]
SECRET = "hunter2-top-secret"


def run(*args, input=None):
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def both(*args):
    """The text run and the --json run of one command: (stderr+stdout, JSON object)."""
    text = run(*args)
    as_json = run(*args, "--json")
    assert text.exit_code == 2 and as_json.exit_code == 2, (text.output, as_json.output)
    return text.stderr + text.stdout, json.loads(as_json.stdout)


def header(variant, players=("ann", "bob", "cat")) -> str:
    return json.dumps({"type": "game", "variant": variant, "world": None,
                       "players": list(players), "dealer": players[-1]})


def write_log(folder: Path, variant: str, name="game.jsonl", rest=()) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("\n".join([header(variant), *rest]) + "\n")
    return path


PACK = "name: {name}\ntitle: T\ndescription: d\nsource: s\n"


def secret_files(root: Path) -> None:
    # One that is no YAML (a syntax error quotes its line), one that is YAML but no pack,
    # one that has a pack's keys but a bad value (the schema message would quote it).
    (root / "secret.yaml").write_text(f"password: [{SECRET}\n  more: x\n")
    (root / "config.yaml").write_text(f"password: {SECRET}\n")


# --------------------------------------------------------------------------- item 1


@pytest.mark.parametrize("kind", ["absolute", "dotdot", "symlink", "symlinked-folder"])
def test_a_log_cannot_read_a_file_outside_its_folder(tmp_path, kind):
    secret_files(tmp_path)
    logs = tmp_path / "logs"
    logs.mkdir()
    ref = {"absolute": str(tmp_path / "secret.yaml"), "dotdot": "../secret.yaml",
           "symlink": "link.yaml", "symlinked-folder": "out/secret.yaml"}[kind]
    if kind == "symlink":
        (logs / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    if kind == "symlinked-folder":
        (logs / "out").symlink_to(tmp_path)
    text, out = both("replay", write_log(logs, ref))
    for said in (text, json.dumps(out)):
        assert SECRET not in said and "password" not in said
    assert "in or below the log's folder" in out["error"]


def test_missing_and_refused_files_get_the_same_words(tmp_path):
    # the same name, once naming a file that exists outside the log's folder, once nothing
    (tmp_path / "a").mkdir()
    secret_files(tmp_path / "a")
    got = []
    for case in ("a", "b"):
        for ref in ("../secret.yaml", "../config.yaml", str(tmp_path / case / "secret.yaml")):
            log = write_log(tmp_path / case / "logs", ref)
            text, out = both("replay", log)
            got.append((case, ref if not ref.startswith("/") else "abs", text, out))
    for (_, ref, text, out) in got:
        same = [(t.replace("/b/", "/a/"), o) for (c, r, t, o) in got if r == ref]
        assert all(t == text.replace("/b/", "/a/") and o == out for t, o in same), same
        assert SECRET not in text


def test_a_bare_name_in_a_log_is_a_built_in_pack_never_a_file(tmp_path):
    secret_files(tmp_path)
    (tmp_path / "secret").write_text(f"{SECRET}\n")
    text, out = both("replay", write_log(tmp_path, "secret"))
    assert SECRET not in text + json.dumps(out) and "no pack 'secret'" in out["error"]
    log = write_log(tmp_path, "original", "ok.jsonl")
    (tmp_path / "original.yaml").write_text(f"{SECRET}: [\n")
    assert run("replay", log).exit_code == 0  # the built-in, not the file beside the log


def test_a_file_beside_the_log_is_quoted_only_if_it_is_a_pack(tmp_path):
    secret_files(tmp_path)
    for ref in ("secret.yaml", "config.yaml"):
        text, out = both("replay", write_log(tmp_path, ref))
        assert SECRET not in text + json.dumps(out) and "not a pack" in out["error"]
    # a pack in or below the folder is read, and its problems are shown as for any pack
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "mine.yaml").write_text(PACK.format(name="mine")
                                                   + "extends: short-game-5\n")
    assert run("replay", write_log(tmp_path, "packs/mine.yaml", "ok.jsonl")).exit_code == 0
    (tmp_path / "bad.yaml").write_text(PACK.format(name="bad") + "phases: ['2 sets of fourr']\n")
    text, out = both("replay", write_log(tmp_path, "bad.yaml", "bad.jsonl"))
    assert "fourr" in out["error"]


def test_extends_in_a_pack_a_log_names_is_confined_too(tmp_path):
    secret_files(tmp_path)
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "mine.yaml").write_text(PACK.format(name="mine") + "extends: ../secret.yaml\n")
    text, out = both("replay", write_log(logs, "mine.yaml"))
    assert SECRET not in text + json.dumps(out) and "in or below the log's folder" in out["error"]
    (tmp_path / "base.yaml").write_text(PACK.format(name="base") + "extends: short-game-5\n")
    (logs / "mine.yaml").write_text(PACK.format(name="mine") + "extends: ../base.yaml\n")
    text, out = both("replay", write_log(logs, "mine.yaml"))
    assert "in or below the log's folder" in out["error"]


def test_a_log_whose_pack_extends_a_pack_with_errors_says_them_on_one_line(tmp_path):
    # it read "...has errors:; parent.yaml:5:13: ..."
    (tmp_path / "parent.yaml").write_text(PACK.format(name="parent")
                                          + 'phases: ["1 rn of 4", "2 sets of 3"]\n')
    (tmp_path / "kid.yaml").write_text(PACK.format(name="kid") + "extends: parent.yaml\n")
    text, out = both("replay", write_log(tmp_path, "kid.yaml"))
    assert "has errors: " in text and ":;" not in text + out["error"]
    assert "parent.yaml:5:13: phase 1: expected" in out["error"]


def test_extends_in_a_pack_is_confined_to_its_folder(tmp_path):
    """A pack is a file from anywhere: what its extends names is a built-in or a file in or
    below the pack's folder, and a file there that does not read as a pack is never
    quoted back (a pack extending /etc/shadow printed its every line, as errors)."""
    secret_files(tmp_path)
    packs = tmp_path / "packs"
    (packs / "sub").mkdir(parents=True)
    for ref in ("../secret.yaml", str(tmp_path / "secret.yaml"), "/etc/passwd"):
        (packs / "mine.yaml").write_text(PACK.format(name="mine") + f"extends: {ref}\n")
        for args in (["validate", packs / "mine.yaml"], ["show", packs / "mine.yaml"],
                     ["check", "--variant", packs / "mine.yaml", "--phase", "1", "R1", "B1",
                      "G1", "R2", "B2", "G2"]):
            r = run(*args)
            assert r.exit_code != 0 and SECRET not in r.output and "root:" not in r.output
            assert "in or below the folder of mine.yaml" in r.output, r.output
    # a file below the folder that is no pack: said so, not quoted
    (packs / "sub" / "notes.yaml").write_text(f"{SECRET}\n")
    (packs / "mine.yaml").write_text(PACK.format(name="mine") + "extends: sub/notes.yaml\n")
    r = run("validate", packs / "mine.yaml")
    assert r.exit_code != 0 and SECRET not in r.output
    # two levels down: confined to the first pack's folder still, and said so
    (packs / "sub" / "base.yaml").write_text(PACK.format(name="base") + "extends: ../../secret.yaml\n")
    (packs / "mine.yaml").write_text(PACK.format(name="mine") + "extends: sub/base.yaml\n")
    r = run("validate", packs / "mine.yaml")
    assert r.exit_code != 0 and SECRET not in r.output
    assert "'../../secret.yaml' in or below the folder of mine.yaml" in r.output, r.output
    # a parent beside it or below it reads
    (packs / "sub" / "base.yaml").write_text(PACK.format(name="base") + "extends: short-game-5\n")
    (packs / "mine.yaml").write_text(PACK.format(name="mine") + "extends: sub/base.yaml\n")
    assert run("check", "--variant", packs / "mine.yaml", "--phase", "1", "R1", "B1", "G1",
               "R2", "B2", "G2").exit_code == 0


# --------------------------------------------------------------------------- item 2


def cli(args, cwd, timeout=30, input=""):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "phasedsl.cli", *map(str, args)], cwd=cwd,
                          env=env, input=input, capture_output=True, text=True, timeout=timeout)


COMMANDS = [
    ["validate", "{p}"],
    ["lint", "{p}"],
    ["show", "{p}"],
    ["check", "--variant", "{p}", "--phase", "1", "R1"],
    ["hit", "R3", "--on", "run: R4 R5 R6", "--variant", "{p}"],
    ["score", "R5", "--variant", "{p}"],
    ["odds", "--variant", "{p}"],
    ["outs", "--variant", "{p}", "--phase", "1", "R1"],
    ["simulate", "--variant", "{p}", "--players", "2", "--games", "1"],
    ["report", "{p}", "-o", "out.html", "--games", "1"],
    ["play", "--variant", "{p}"],
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("args", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_fifo_named_as_a_pack_is_refused_at_once(tmp_path, args):
    os.mkfifo(tmp_path / "pipe.yaml")
    r = cli([a.format(p="pipe.yaml") for a in args], tmp_path)
    assert r.returncode == 2 and "not a regular file" in r.stdout + r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_a_log_or_its_pack_or_an_extends_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    os.mkfifo(tmp_path / "log.jsonl")
    (tmp_path / "ext.yaml").write_text(PACK.format(name="ext") + "extends: pipe.yaml\n")
    write_log(tmp_path, "pipe.yaml")
    r = cli(["replay", "game.jsonl"], tmp_path)
    assert r.returncode == 2 and "in or below the log's folder" in r.stderr, r.stderr
    r = cli(["replay", "log.jsonl"], tmp_path)
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr
    r = cli(["validate", "ext.yaml"], tmp_path)
    # (a pack's extends is confined as a log's names are: a FIFO is no pack file)
    assert r.returncode != 0 and "no pack file 'pipe.yaml' in or below the folder of ext.yaml" \
        in r.stdout + r.stderr, r.stdout


@pytest.mark.parametrize("target", ["/dev/stdin", "/dev/zero", "./folder"])
def test_a_device_or_a_folder_is_no_pack(tmp_path, target):
    if target.startswith("/dev") and not os.path.exists(target):
        pytest.skip("no such device")
    (tmp_path / "folder").mkdir()
    for args in (["validate", target], ["check", "--variant", target, "--phase", "1", "R1"],
                 ["show", target], ["replay", target]):
        r = cli(args, tmp_path, input="name: x\n")
        assert r.returncode == 2 and "not a regular file" in r.stdout + r.stderr, (args, r.stderr)


# --------------------------------------------------------------------------- items 3, 11, 12

def a_game() -> list[str]:
    """A dealt hand and ann's first draw."""
    game = Game.new("original", ["ann", "bob", "cat"], seed=3)
    return game.apply(Draw("ann", "deck")).to_log()


def test_a_log_line_with_a_key_twice_is_refused(tmp_path):
    lines = a_game()
    twice = lines[0][:-1] + ', "dealer": "ann"}'
    _text, out = both("replay", _lines(tmp_path, [twice, *lines[1:]]))
    assert out["error"] == "line 1: the key 'dealer' is given twice in one object"
    nested = '{"type": "hit", "player": "ann", "card": "R1", "on": {"player": "ann", ' \
             '"group": 1, "group": 2}}'
    _text, out = both("replay", _lines(tmp_path, [*lines, nested]))
    assert out["error"] == f"line {len(lines) + 1}: the key 'group' is given twice in one object"


def _lines(folder: Path, lines: list[str]) -> Path:
    path = folder / "twice.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_what_the_referee_quotes_of_an_event_is_bounded(tmp_path):
    lines = a_game()
    huge = "x" * 900_000
    for event in ({"type": "draw", "player": huge, "from": "deck"},
                  {"type": "discard", "player": "ann", "card": "R1", "skip": huge}):
        path = _lines(tmp_path, [*lines, json.dumps(event)])
        r = run("replay", path)
        assert r.exit_code == 1 and len(r.stdout) < 3000, len(r.stdout)
        assert len(run("replay", path, "--json").stdout) < 3000
    deal = json.loads(lines[1])
    deal["hands"].update({f"p{i}": [] for i in range(55_000)})
    path = _lines(tmp_path, [lines[0], json.dumps(deal)])
    r = run("replay", path)
    assert r.exit_code == 1 and len(r.stdout) < 3000 and "(55,003 in all)" in r.stdout
    deal = json.loads(lines[1])
    deal["hands"][huge] = deal["hands"].pop("ann")
    deal["hands"]["ann"] = ["W=R5"]
    _text, out = both("replay", _lines(tmp_path, [lines[0], json.dumps(deal)]))
    assert len(out["error"]) < 300


@pytest.mark.parametrize(("where", "card"), [("deal", "W=R5"), ("up", "W=5"), ("draw", "W=5"),
                                             ("discard", "W=R")])
def test_a_card_in_a_hand_is_plain(tmp_path, where, card):
    lines = a_game()
    deal = json.loads(lines[1])
    if where == "deal":
        deal["hands"]["ann"][0] = card
        bad = [lines[0], json.dumps(deal)]
    elif where == "up":
        deal["up"] = card
        bad = [lines[0], json.dumps(deal)]
    else:
        draw = json.loads(lines[2])
        assert draw["type"] == "draw" and draw["player"] == "ann"
        event = draw if where == "draw" else {"type": "discard", "player": "ann", "card": card}
        if where == "draw":
            event["card"] = card
        bad = lines[:2] + ([json.dumps(event)] if where == "draw" else
                           [lines[2], json.dumps(event)])
    _text, out = both("replay", _lines(tmp_path, bad))
    assert "says what a wild stands for" in out["error"] and card in out["error"]
    # a laid or hit wild says it, as documented
    assert run("check", "1 set of 3", "--groups", "R5 B5 W=5").exit_code == 0


# --------------------------------------------------------------------------- item 16


def test_a_yaml_number_of_5000_digits_is_a_clear_error(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text(PACK.format(name="big") + "extends: original\nrules:\n  hand_size: "
                   + "9" * 5000 + "\n")
    for args in (["validate", big], ["validate", big, "original"], ["lint", big],
                 ["check", "--variant", big, "--phase", "1", "R1"], ["show", big]):
        text, out = both(*args)
        assert "big.yaml:7:14" in text and "9" * 100 not in text + json.dumps(out), text
    r = run("replay", write_log(tmp_path, "big.yaml"))
    assert r.exit_code == 2 and "big.yaml:7:14: a number of 5,000 characters" in r.stderr
    # a long number within Python's limits, and a float: said by their size, not echoed
    for value in ("9" * 1000, "9" * 5000 + ".5"):
        big.write_text(PACK.format(name="big") + "extends: original\nrules:\n  hand_size: "
                       + value + "\n")
        r = run("validate", big)
        assert r.exit_code in (1, 2) and "9" * 100 not in r.stdout.replace(value[:60], "")


# --------------------------------------------------------------------------- item 18


def test_a_bare_name_is_the_built_in_even_beside_a_local_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "original.yaml").write_text(PACK.format(name="original")
                                            + "phases: ['1 set of 2']\n")
    (tmp_path / "mine.yaml").write_text(PACK.format(name="mine") + "extends: original\n")
    six = ["R1", "B1", "G1", "R2", "B2", "G2"]
    pair = ["R1", "B1"]
    assert run("check", "--variant", "original", "--phase", "1", *six).exit_code == 0
    assert run("check", "--variant", "original", "--phase", "1", *pair).exit_code == 1
    assert run("check", "--variant", "mine.yaml", "--phase", "1", *pair).exit_code == 1
    # a path names the local file: ./original.yaml, or extends: original.yaml
    assert run("check", "--variant", "./original.yaml", "--phase", "1", *pair).exit_code == 0
    (tmp_path / "mine.yaml").write_text(PACK.format(name="mine") + "extends: original.yaml\n")
    assert run("check", "--variant", "mine.yaml", "--phase", "1", *pair).exit_code == 0
    # extends reads from the including file's folder, not the current one
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "original.yaml").write_text(PACK.format(name="original")
                                                    + "phases: ['1 set of 3']\n")
    (tmp_path / "sub" / "kid.yaml").write_text(PACK.format(name="kid") + "extends: original.yaml\n")
    assert run("check", "--variant", "sub/kid.yaml", "--phase", "1", *pair).exit_code == 1
    # a bare name that is no built-in is not read as a file either
    (tmp_path / "local").write_text(PACK.format(name="local") + "extends: original\n")
    r = run("check", "--variant", "local", "--phase", "1", *pair)
    assert r.exit_code == 2 and "no pack 'local'" in r.stderr


# --------------------------------------------------------------------------- item 19


def test_a_played_game_replays_from_any_folder(tmp_path):
    (tmp_path / "logs" / "packs").mkdir(parents=True)
    (tmp_path / "logs" / "packs" / "mine.yaml").write_text(PACK.format(name="mine")
                                                           + "extends: short-game-5\n")
    r = cli(["play", "--variant", "mine.yaml", "--log", "../g.jsonl", "--seed", "1"],
            tmp_path / "logs" / "packs", input="quit\n")
    assert r.returncode == 0, r.stderr
    head = json.loads((tmp_path / "logs" / "g.jsonl").read_text().splitlines()[0])
    assert head["variant"] == "packs/mine.yaml"
    assert cli(["replay", "logs/g.jsonl"], tmp_path).returncode == 0
    assert cli(["replay", str(tmp_path / "logs" / "g.jsonl")], "/").returncode == 0


def test_replay_variant_names_the_pack_of_a_moved_log(tmp_path):
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "mine.yaml").write_text(PACK.format(name="mine")
                                                 + "extends: short-game-5\n")
    (tmp_path / "logs").mkdir()
    r = cli(["play", "--variant", "mine.yaml", "--log", "../logs/g.jsonl", "--seed", "1"],
            tmp_path / "pack", input="quit\n")
    assert r.returncode == 0 and "--variant mine.yaml" in r.stderr, r.stderr
    head = json.loads((tmp_path / "logs" / "g.jsonl").read_text().splitlines()[0])
    assert head["variant"] == "../pack/mine.yaml"
    # the log carries its pack: it replays wherever it is (issue 26, item 11)
    assert head["pack"]["name"] == "mine"
    assert cli(["replay", "logs/g.jsonl"], tmp_path).returncode == 0
    # a log without it (written by hand) names the file, which must lie beside it
    lines = (tmp_path / "logs" / "g.jsonl").read_text().splitlines()
    del head["pack"]
    (tmp_path / "logs" / "g.jsonl").write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    r = cli(["replay", "logs/g.jsonl"], tmp_path)
    assert r.returncode == 2 and "replay --variant" in r.stderr
    assert cli(["replay", "logs/g.jsonl", "--variant", "pack/mine.yaml"], tmp_path).returncode == 0
    # a log of a built-in pack moved anywhere replays; --variant overrides what it names
    log = write_log(tmp_path / "elsewhere", "nowhere/gone.yaml",
                    rest=a_game()[1:])
    assert run("replay", log).exit_code == 2
    assert run("replay", log, "--variant", "original").exit_code == 0


# --------------------------------------------------------------------------- item 23


@pytest.mark.parametrize("args", [
    ["check", "--variant", "orignal", "--phase", "1", "R1"],
    ["check", "--variant", "x" * 5000, "--phase", "1", "R1"],
    ["check", "--variant", "anti-phase-for-otherz", "--phase", "1", "R1"],
    ["show", "orignal"],
    ["check", "--variant", "world-tour", "--world", "jaz", "--phase", "1", "R1"],
    ["check", "--variant", "world-tour", "--world", "y" * 5000, "--phase", "1", "R1"],
    ["check", "--variant", "world-tour", "--phase", "1", "R1"],
])
def test_an_unknown_pack_or_world_is_one_short_error_line(args):
    r = run(*args)
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and len(r.stderr.splitlines()) == 1, r.stderr
    assert len(r.stderr.rstrip("\n")) < 100, r.stderr
    assert "?) (" not in r.stderr  # no doubled parentheses
    out = json.loads(run(*args, "--json").stdout)
    assert not out["error"].startswith(("error", "orignal")) and "error:" not in out["error"]
    assert len(out["error"]) < 100


def test_unknown_pack_suggests_and_validate_names_the_argument():
    r = run("check", "--variant", "orignal", "--phase", "1", "R1")
    assert "did you mean 'original'?" in r.stderr and "phasedsl list" in r.stderr
    r = run("validate", "orignal")
    assert r.exit_code == 2 and r.stdout.startswith("orignal: error: no pack 'orignal'")


# --------------------------------------------------------------------------- item 26

WORLDS = PACK.format(name="wp") + """\
worlds:
  - name: chrome-city
    title: Chrome City
    phases: ["2 sets of 3", "1 st of 3"]
  - name: dust-bowl
    title: Dust Bowl
    phases: [7]
"""


def test_a_world_phase_is_named_one_way_in_every_message(tmp_path):
    p = tmp_path / "wp.yaml"
    p.write_text(WORLDS)
    out = run("validate", p, "--json")
    messages = [d["message"] for d in json.loads(out.stdout)["problems"]]
    assert any(m.startswith("world chrome-city, phase 2: expected") for m in messages), messages
    assert any(m.startswith("world dust-bowl, phase 1: a phase is text") for m in messages)
    p.write_text(WORLDS.replace("[7]", '["2 sets of 3", "2 sets of 3"]').replace(
        '"1 st of 3"', '"1 set of 3"'))
    out = run("lint", p, "--json")
    messages = [d["message"] for d in json.loads(out.stdout)["problems"]]
    assert "world dust-bowl, phase 2 repeats phase 1 (2 sets of 3)" in messages, messages


def test_a_rule_of_every_world_is_reported_once(tmp_path):
    p = tmp_path / "wt.yaml"
    p.write_text(PACK.format(name="wt") + "extends: world-tour\nrules:\n  house_rules:\n"
                 "    declare_phase: at_deal\n")
    problems = json.loads(run("lint", p, "--json").stdout)["problems"]
    assert len([d for d in problems if "declare_phase" in d["message"]]) == 1, problems
    # a warning that holds for some worlds only names each of them
    p.write_text(PACK.format(name="wt") + "extends: world-tour\nrules:\n  house_rules:\n"
                 "    skip_counts_as_blue: true\n")
    problems = json.loads(run("lint", p, "--json").stdout)["problems"]
    blue = [d["message"] for d in problems if "skip_counts_as_blue" in d["message"]]
    assert blue and all(m.startswith("world ") for m in blue), blue


def test_lint_reports_warnings_and_errors_together(tmp_path):
    p = tmp_path / "both.yaml"
    p.write_text(PACK.format(name="both") + 'phases: ["2 sets of 3", "1 st of 3", "6 sets of 2"'
                 ', "2 sets of 3", "1 run of 4", "1 run of 5", "1 run of 6", "1 run of 7", '
                 '"1 run of 8", "1 run of 9"]\n')
    problems = json.loads(run("lint", p, "--json").stdout)["problems"]
    severities = {d["severity"] for d in problems}
    assert severities == {"error", "warning"}, problems
    assert not any("game_length" in d["message"] for d in problems)  # the list has ten
    assert any("repeats phase 1" in d["message"] for d in problems)


def test_a_name_that_is_not_the_file_name_is_reported(tmp_path):
    p = tmp_path / "foo.yaml"
    p.write_text(PACK.format(name="bar") + "extends: original\n")
    assert "name 'bar' differs from the file name 'foo'" in run("validate", p).stdout
    # also beside schema problems (every problem at once)
    p.write_text(PACK.format(name="bar") + "extends: original\nrulez: {}\n")
    out = run("validate", p).stdout
    assert "differs from the file name" in out and "unknown key 'rulez'" in out


def test_show_world_prints_its_note():
    r = run("show", "world-tour", "--world", "island-paradise")
    assert r.exit_code == 0 and "note: Same list as the Japanese page's list 1." in r.stdout
    data = json.loads(run("show", "world-tour", "--world", "island-paradise", "--json").stdout)
    assert data["worlds"][0]["note"] == "Same list as the Japanese page's list 1."


@pytest.mark.parametrize("args", [
    ["conformance", "run", "--timeout", "nan", "--", "cat"],
    ["conformance", "run", "--startup", "NaN", "--", "cat"],
    ["generate", "--length", "nan"],
    ["simulate", "original", "--bot-timeout", "nan", "-g", "1"],
    ["play", "original", "--bot-timeout", "nan"],
])
def test_nan_for_a_number_of_seconds_or_hands_is_refused(args):
    """A range's bounds let NaN through (every comparison with it is false): a wait of NaN
    seconds never ended (``conformance run --timeout nan`` spun until killed)."""
    r = run(*args)
    assert r.exit_code == 2 and "nan is not a number" in r.output, r.output


def _closed(args: list[str], fd: int, tmp_path: Path) -> subprocess.CompletedProcess:
    """``phasedsl ARGS`` started with file descriptor ``fd`` closed (``<&-``, ``2>&-``)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PHASEDSL_CACHE": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "phasedsl.cli", *args], cwd=tmp_path, env=env,
                          stdin=subprocess.PIPE if fd != 0 else None, capture_output=fd != 2,
                          stdout=subprocess.PIPE if fd == 2 else None, text=True, timeout=60,
                          preexec_fn=lambda: os.close(fd))


@pytest.mark.parametrize("args", [["replay", "-"], ["parse", "--batch", "-"],
                                  ["check", "--batch", "-"], ["conformance", "adapter"]])
def test_a_closed_stdin_reads_as_empty_not_a_traceback(args, tmp_path):
    r = _closed(args, 0, tmp_path)
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr, r.stderr
    if args[0] == "replay":
        assert r.returncode == 2 and "the log is empty" in r.stderr


def test_a_closed_stderr_still_gives_the_answer(tmp_path):
    r = _closed(["odds", "original"], 2, tmp_path)
    assert r.returncode == 0 and "2 sets of 3" in r.stdout and "1 run of 9" in r.stdout
