"""One way to name a pack: the first argument of a command about a pack (show, simulate,
report, balance, play, tournament), --variant or --pack elsewhere; the older spellings
still read; the worlds listed when one must be chosen; shell completion of pack and world
names; a local pack file suggested before a built-in of a like name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.cli.naming import complete_pack, complete_world
from phasedsl.packs.pack import builtin_names

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_simulate_takes_the_pack_as_its_first_argument_and_the_old_spelling_still_works():
    common = ["-n", "2", "-g", "2", "--jobs", "1", "--json"]
    new = run("simulate", "short-game-5", *common)
    assert new.exit_code == 0, new.output
    for old in (["--variant", "short-game-5"], ["-v", "short-game-5"],
                ["--pack", "short-game-5"], ["short-game-5", "--variant", "short-game-5"]):
        r = run("simulate", *old, *common)
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout) == json.loads(new.stdout)


def test_tournament_and_play_take_the_pack_as_their_first_argument():
    common = ["--bot", "greedy", "--bot", "random", "-n", "2", "-g", "1", "--jobs", "1",
              "--json"]
    new = run("tournament", "short-game-5", *common)
    assert new.exit_code == 0, new.output
    assert json.loads(new.stdout)["variant"] == "short-game-5"
    assert json.loads(run("tournament", "-v", "short-game-5", *common).stdout) == \
        json.loads(new.stdout)
    # (no pack: original, as before)
    assert json.loads(run("tournament", *common).stdout)["variant"] == "original"
    played = [run("play", *pack, "--seed", "4", "--bots", "1", input="quit\n")
              for pack in (["even-phases"], ["--variant", "even-phases"])]
    assert played[0].exit_code == 0 and played[0].stdout == played[1].stdout
    assert played[0].stdout != run("play", "--seed", "4", "--bots", "1", input="quit\n").stdout


@pytest.mark.parametrize("spelling", ["--variant", "--pack", "-v"])
def test_show_report_and_balance_also_read_the_old_option(spelling, tmp_path):
    assert run("show", spelling, "short-game-5").stdout == run("show", "short-game-5").stdout
    # (refused before any game is played: the option reached the pack loader)
    for command in (["report", "-o", str(tmp_path / "r.html")], ["balance"]):
        r = run(*command, spelling, "orignal")
        assert r.exit_code == 2 and "no pack 'orignal' (did you mean 'original'?)" in r.output


@pytest.mark.parametrize("command", [["show"], ["simulate"], ["report", "-o", "x.html"],
                                     ["balance"], ["play"], ["tournament", "--bot", "greedy",
                                                             "--bot", "random"]])
def test_a_pack_named_twice_differently_is_refused(command):
    r = run(*command, "original", "--variant", "twist")
    assert r.exit_code == 2
    assert "the pack is named twice, 'original' and --variant 'twist'" in r.output
    assert "Traceback" not in r.output


def test_commands_about_a_phase_take_pack_as_well_as_variant(tmp_path):
    want = run("check", "--variant", "twist", "--phase", "8", "R1", "R2", "R3", "R4", "W")
    assert want.exit_code == 0
    for spelling in ("--pack", "-v"):
        r = run("check", spelling, "twist", "--phase", "8", "R1", "R2", "R3", "R4", "W")
        assert r.stdout == want.stdout
    assert run("score", "--pack", "masters", "R5", "W").stdout == \
        run("score", "--variant", "masters", "R5", "W").stdout
    assert run("outs", "1 set of 3", "R5", "R5", "--pack", "nope").exit_code == 2


def test_odds_takes_a_pack_where_the_phase_goes(tmp_path):
    # (a pack of two quick phases: the naming is under test, not the odds of long runs)
    pack = tmp_path / "two.yaml"
    pack.write_text("name: two\ntitle: Two\ndescription: two phases\nsource: a test\n"
                    "extends: original\nphases:\n  - 2 sets of 3\n"
                    "  - 1 set of 4\n")
    ranked = run("odds", "--variant", str(pack), "--json")
    assert ranked.exit_code == 0
    assert run("odds", str(pack), "--json").stdout == ranked.stdout
    assert sorted(r["phase"] for r in json.loads(ranked.stdout)["phases"]) == \
        ["1 set of 4", "2 sets of 3"]
    # a built-in pack's name, as the first argument (its unknown spelling refused as a pack)
    assert run("odds", "short-gme-5", "--json").exit_code == 2
    # a phrase is still a phrase
    assert run("odds", "1 set of 3", "--json").exit_code == 0


def test_help_shows_the_first_argument_and_not_the_old_short_name():
    text = run("simulate", "--help").stdout
    assert "Usage: phasedsl simulate [OPTIONS] [PACK]" in text  # (optional: original)
    assert "--variant" not in text and "phasedsl simulate original" in text
    check = run("check", "--help").stdout
    assert "--pack" in check and "--variant" in check
    assert " -v " not in check.replace("│", " ")  # -v still works (above), it is not offered


def test_a_pack_of_several_worlds_lists_them_when_one_must_be_chosen():
    for command in (["simulate", "world-tour", "-g", "1"], ["play", "world-tour"],
                    ["tournament", "world-tour", "--bot", "greedy", "--bot", "random"]):
        r = run(*command, input="quit\n")
        assert r.exit_code == 2, r.output
        said = " ".join(r.output.split())
        assert "has several worlds; choose one with --world:" in said
        assert "island-paradise," in said and "jazz-club," in said and "custom" in said


def complete(line: str) -> list[str]:
    """What the shell completion offers for the last word of ``line`` (bash)."""
    words = line.split(" ")
    r = runner.invoke(app, [], prog_name="phasedsl", env={
        "_PHASEDSL_COMPLETE": "complete_bash", "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1)})
    assert r.exit_code == 0, r.output
    return r.stdout.split()


def test_completion_of_pack_and_world_names():
    assert complete("phasedsl simulate wor") == ["world-tour"]
    assert complete("phasedsl show short") == ["short-game-5", "short-game-8"]
    assert complete("phasedsl check --variant tw") == ["twist"]
    assert complete("phasedsl play --pack ut") == ["utah"]
    assert complete("phasedsl lint original tw") == ["twist"]
    assert complete("phasedsl simulate world-tour --world ja") == ["jazz-club"]
    assert complete("phasedsl report -v world-tour --world ocean") == ["ocean-reef"]
    assert complete("phasedsl odds 1 --variant world-tour -w south") == ["southwest"]
    assert "japanese-list-2" in complete("phasedsl show japanese-lists -w japanese")


def test_completion_callbacks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-pack.yaml").write_text("name: my-pack\n")
    assert complete_pack("") == [*builtin_names(), "my-pack.yaml"]
    assert complete_pack("my") == ["my-pack.yaml"]

    from types import SimpleNamespace

    nothing = SimpleNamespace(params={"pack_arg": None, "variant": None}, args=[])
    everywhere = complete_world(nothing, "")
    assert "jazz-club" in everywhere and "japanese-list-2" in everywhere
    one = SimpleNamespace(params={"pack_arg": "original", "variant": None}, args=[])
    assert complete_world(one, "") == []  # one world: nothing to choose
    mine = SimpleNamespace(params={"pack_arg": None, "variant": "japanese-lists"}, args=[])
    assert complete_world(mine, "japanese-list-1") == ["japanese-list-12", "japanese-list-13",
                                                       "japanese-list-14"]


HARBOR = """\
name: harbor-tour
title: Harbor tour
description: a pack of two worlds
source: here
worlds:
  - name: dock
    title: Dock
    phases: ["1 set of 3", "2 sets of 3"]
  - name: pier
    title: Pier
    phases: ["1 run of 4", "2 sets of 3"]
"""


def test_a_local_pack_file_is_suggested_before_a_builtin_of_a_like_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("harbor-tour.yaml").write_text(HARBOR)
    for command in (["show", "harbor-tour"], ["simulate", "harbor-tour"],
                    ["check", "1 set of 3", "R5", "--variant", "harbor-tour"]):
        r = run(*command)
        assert r.exit_code == 2
        assert "no pack 'harbor-tour' (did you mean './harbor-tour.yaml'?)" in r.output
        assert "world-tour" not in r.output
    r = run("show", "harbr-tour")  # a close name
    assert "(did you mean './harbor-tour.yaml'?)" in r.output
    r = run("show", "harbor-tour.yml")  # a file not there, beside the one meant
    assert r.exit_code == 2 and "(did you mean './harbor-tour.yaml'?)" in r.output
    # with no such file, the built-in of a like name is still suggested
    assert "did you mean 'world-tour'" in run("show", "wrld-tour").output
    # a pack extending "harbor-tour" is told of the file beside it
    Path("sub").mkdir()
    Path("sub/harbor-tour.yaml").write_text(HARBOR)
    Path("sub/mine.yaml").write_text("name: mine\ntitle: Mine\ndescription: d\nsource: s\n"
                                     "extends: harbor-tour\n")
    r = run("validate", "sub/mine.yaml")
    assert "extends 'harbor-tour': no pack 'harbor-tour' (did you mean './harbor-tour.yaml'?)" \
        in r.output
    r = run("show", "sub/harbor-tuor.yaml")
    assert "(did you mean 'sub/harbor-tour.yaml'?)" in r.output
