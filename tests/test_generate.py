"""phasedsl generate: a new pack whose phases rise in difficulty (issue 16)."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.difficulty import dealt, easier, in_play
from phasedsl.design.generate import (
    DEFAULT_KINDS,
    KINDS,
    GenerateError,
    base_pack,
    candidates,
    generate,
    instructions,
    length_met,
    pack_yaml,
    parse_kinds,
    phrases,
    to_json,
)
from phasedsl.design.simulate import simulate
from phasedsl.model.phase import Phase
from phasedsl.packs.lint import phase_warnings
from phasedsl.packs.pack import check_file, load_pack

runner = CliRunner()
COMMENT = re.compile(r'^\s*- "([^"]+)"  # dealt (\d+\.\d+)% \((exact|sampled)')


def _phase_lines(text: str) -> list[re.Match]:
    return [m for m in map(COMMENT.match, text.splitlines()) if m]


# ---------------------------------------------------------------- the phrases searched


def test_candidates_are_phrases_the_dsl_reads_and_lint_accepts():
    _, rules = base_pack(10, 10)
    found = candidates(("set", "run", "color"), rules)
    assert len(found) > 20
    for p in found:
        assert {g.kind.value for g in p.groups} <= {"set", "run", "color"}
        assert p.cards_needed <= 10  # a dealt hand can hold it
        assert not phase_warnings(p, rules)
        assert Phase.parse(str(p)) == p
    assert len(set(found)) == len(found)
    # a phrase lint would warn about is not among them: a color set of 4 needs 2 wilds
    texts = phrases(("color_set",), 10, 5)
    assert "1 color set of 5" in texts
    assert Phase.parse("1 color set of 5") not in candidates(("color_set", "set"), rules)


def test_a_smaller_hand_gets_smaller_phases():
    _, rules = base_pack(6, 5)
    assert max(p.cards_needed for p in candidates(KINDS, rules)) <= 6


def test_kinds_read_and_refused():
    assert parse_kinds(None) == DEFAULT_KINDS
    assert parse_kinds(["run,set", "color-run"]) == ("set", "run", "color_run")
    with pytest.raises(GenerateError, match="did you mean 'run'"):
        parse_kinds(["rn"])


# ---------------------------------------------------------------- the pack of the issue


@pytest.fixture(scope="module")
def ten(tmp_path_factory):
    """`generate --phases 10 --seed 1 -o ten.yaml`, as the issue's done-when names it."""
    folder = tmp_path_factory.mktemp("gen")
    out = folder / "ten.yaml"
    r = runner.invoke(app, ["generate", "--phases", "10", "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_generated_pack_validates_and_lints_clean(ten):
    pack, diags = check_file(ten, strict=True)
    assert pack is not None and diags == []
    for cmd in (["validate", str(ten)], ["lint", str(ten)]):
        r = runner.invoke(app, cmd)
        assert r.exit_code == 0 and "0 errors, 0 warnings" in r.output


def test_generated_pack_no_repeats_and_every_dealt_chance_in_a_comment(ten):
    text = ten.read_text()
    pack = load_pack(ten)
    entries = pack.worlds[0].phases
    assert len(entries) == 10 and pack.name == "ten"
    assert len({e.phase for e in entries}) == 10
    lines = _phase_lines(text)
    assert [m.group(1) for m in lines] == [e.text for e in entries]
    rules = pack.worlds[0].rules
    for m, e in zip(lines, entries, strict=True):
        d = dealt(e.phase, rules)
        assert m.group(3) == d.method
        digits = 4 if d.method == "exact" else 2
        assert float(m.group(2)) == round(100 * d.probability, digits)
    assert "exact" in {m.group(3) for m in lines}  # exact where odds is exact


def test_generated_pack_is_not_flagged_in_play(ten):
    """The balance rule (difficulty.easier) on a simulation of the written pack, with
    other seeds and more games than the search played."""
    pack = load_pack(ten)
    records = simulate(pack, 4, 120, seed=7, jobs=2)
    rows = in_play(records, pack, None, 4, with_dealt=False)
    assert [r.number for r in rows] == list(range(1, 11))
    assert all(r.attempts for r in rows)
    flagged = [(r.number, r.completed_share) for r in rows if r.easier_than_previous]
    assert flagged == []
    assert all(easier(a, b) is False for a, b in pairwise(rows))
    # rising: the first phase is clearly easier than the last
    assert rows[0].completed_ci95[0] > rows[-1].completed_ci95[1]


def test_balance_flags_no_phase_of_the_generated_pack(ten):
    r = runner.invoke(app, ["balance", str(ten), "--players", "4", "--games", "120", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["order_matters"] is True and len(out["phases"]) == 10
    assert [p["easier_than_previous"] for p in out["phases"]] == [False] * 10


def test_generated_pack_reports(ten, tmp_path):
    r = runner.invoke(app, ["report", str(ten), "-o", str(tmp_path / "r.html"), "--games", "2",
                            "--jobs", "1"])
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- smaller searches


def test_deterministic_for_a_seed_and_only_the_kinds_given(played_afresh):
    a = generate(4, ("set", "run"), seed=5, games=20, jobs=1)
    b = generate(4, ("set", "run"), seed=5, games=20, jobs=2)  # the same whatever the jobs
    assert pack_yaml(a) == pack_yaml(b)
    for w in a.worlds:
        for r in w.rungs:
            assert {g.kind.value for g in r.phase.groups} <= {"set", "run"}
    c = generate(4, ("set", "run"), seed=6, games=20, jobs=2)
    assert [r.text for r in c.worlds[0].rungs] != [r.text for r in a.worlds[0].rungs]


def test_length_near_the_target():
    """--length: the game length of the last round of play (simulate at --players) is
    within a hand of the target, and the pack says how near."""
    g = generate(5, ("set", "run"), length=9, players=3, seed=1, games=40, jobs=2)
    w = g.worlds[0]
    mean = w.summary["hands_per_game"]["mean"]
    assert abs(mean - 9) <= 1.0
    # the figure is a simulation of the pack as written, at the table asked for
    records = simulate(g.pack, 3, 40, seed=1, jobs=2)
    assert sum(r.hands for r in records) / len(records) == pytest.approx(mean)
    said = "target 9, met" if length_met(w.summary, 9) else f"not met (off by {mean - 9:+.2f})"
    assert said in pack_yaml(g)


def test_a_length_no_window_reaches_is_said_with_why():
    """--length out of reach: the pack is written with the nearest length and the reason
    (here: longer than any game these phases made), in the YAML and in --json."""
    g = generate(3, ("set",), length=60, players=2, seed=1, games=10, jobs=1)
    w = g.worlds[0]
    assert not length_met(w.summary, 60)
    assert len(w.length_tries) == 4 and max(w.length_tries) < 60  # (LENGTH_TRIES windows)
    text = pack_yaml(g)
    assert "target 60, not met (off by" in text and "longer than any game" in text
    out = to_json(g)["worlds"][0]["length"]
    assert out["met"] is False and "longer than any game" in out["why_not"]
    assert out["tried"] == list(w.length_tries)


def test_worlds_stdout_and_json(tmp_path):
    r = runner.invoke(app, ["generate", "--phases", "3", "--worlds", "2", "--kinds", "set,run",
                            "--seed", "2", "--jobs", "2"])
    assert r.exit_code == 0, r.output
    path = tmp_path / "two.yaml"
    path.write_text(r.stdout.replace("name: generated", "name: two"))
    pack, diags = check_file(path, strict=True)
    assert pack is not None and diags == []
    assert [w.name for w in pack.worlds] == ["world-1", "world-2"]
    for w in pack.worlds:
        assert len({e.phase for e in w.phases}) == 3
    r = runner.invoke(app, ["generate", "--phases", "3", "--worlds", "2", "--kinds", "set,run",
                            "--seed", "2", "--json", "-o", str(tmp_path / "j.yaml")])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["path"].endswith("j.yaml") and len(out["worlds"][0]["phases"]) == 3
    # the worlds rise in difficulty (issue 30): each world's mean completion share is the
    # mean of its phases' shares, as written beside them, and falls from one to the next
    means = [w["mean_completed_share"] for w in out["worlds"]]
    assert means[0] > means[1] and out["worlds"][1]["not_harder_than_previous"] is None
    for w in out["worlds"]:
        shares = [p["completed_share"]["value"] for p in w["phases"]]
        assert abs(w["mean_completed_share"] - sum(shares) / len(shares)) < 1e-12
    assert all(p["dealt"]["method"] in ("exact", "sampled") for p in out["worlds"][0]["phases"])


@pytest.mark.parametrize("args, said", [
    (["--phases", "3", "--kinds", "rn"], "did you mean 'run'"),
    (["--phases", "1"], "--phases"),
    (["--phases", "3", "-o", "Bad Name.yaml"], "not a pack name"),
    (["--phases", "3", "-o", "x.txt"], "a pack is a .yaml file"),
    (["--phases", "5", "--length", "3"], "at least 5 hands"),
    (["--phases", "30", "--kinds", "color_set"], "only"),
    (["--phases", "3", "--players", "9"], "--players"),
])
def test_bad_options_exit_2_on_one_line(args, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["generate", *args])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0]
    assert "Traceback" not in r.output
    r = runner.invoke(app, ["generate", *args, "--json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["exit"] == 2


def test_an_existing_file_needs_force(tmp_path):
    out = tmp_path / "mine.yaml"
    out.write_text("keep me")
    r = runner.invoke(app, ["generate", "--phases", "3", "-o", str(out)])
    assert r.exit_code == 2 and "give --force" in r.stderr
    assert out.read_text() == "keep me"  # refused before any work


def test_a_pack_of_several_worlds_keeps_its_own_title():
    # build_pack's loop over the worlds once reused the name `title`, so a pack of two
    # worlds was titled after its last world ("World 2").
    from phasedsl.design.generate import build_pack
    from phasedsl.model.rules import Rules

    worlds = [("world-1", "World 1", ["2 sets of 3"]), ("world-2", "World 2", ["1 run of 4"])]
    pack = build_pack("two", worlds, {}, Rules(), title="Generated (2 worlds of 1 phases, seed 7)")
    assert pack.title == "Generated (2 worlds of 1 phases, seed 7)"
    assert [w.title for w in pack.worlds] == ["World 1", "World 2"]


# ---------------------------------------------------------------- passing balance (issue 26, item 15)


def test_a_generated_pack_passes_balance_at_its_defaults_with_the_figures_it_wrote(tmp_path):
    """The order is settled in the games `balance` plays at its defaults (80 games of 4
    bots, seed 1, whatever generate's seed), so `phasedsl balance FILE` with no option
    flags nothing and prints the very shares written beside the phases (generate once
    settled with its own seed and 60 games, and balance at its defaults flagged its packs)."""
    out = tmp_path / "four.yaml"
    r = runner.invoke(app, ["generate", "--phases", "4", "--kinds", "set,run", "--seed", "5",
                            "--jobs", "2", "--json", "-o", str(out)])
    assert r.exit_code == 0, r.output
    made = json.loads(r.stdout)
    assert made["balance"] == "phasedsl balance four.yaml"
    assert made["worlds"][0]["flags"] == []
    assert "the games `phasedsl balance four.yaml` plays" in out.read_text()
    r = runner.invoke(app, ["balance", str(out), "--json", "--jobs", "2"])
    assert r.exit_code == 0, r.output
    b = json.loads(r.stdout)
    assert b["games"] == 80 and b["seed"] == 1 and b["players"] == 4
    assert [p["easier_than_previous"] for p in b["phases"]] == [False] * 4
    assert [p["completed_share"]["attempts"] for p in b["phases"]] == \
        [p["completed_share"]["attempts"] for p in made["worlds"][0]["phases"]]
    assert [p["completed_share"]["value"] for p in b["phases"]] == \
        [p["completed_share"]["value"] for p in made["worlds"][0]["phases"]]


def test_an_order_no_round_settles_is_written_with_the_flags_that_remain(monkeypatch, tmp_path):
    """Where no order passes in play, generate keeps the least flagged one and says why
    (stderr, the pack's header, --json), exit 0, never "try another seed"."""
    import phasedsl.design.generate as gen_module
    from phasedsl.design.difficulty import PhaseInPlay

    def rigged(rungs, t, stage, sequential=True):
        # every order played: the last phase completed far more often than the one before
        n = len(rungs)
        shares = [0.8 - 0.2 * i for i in range(n - 1)] + [0.95]
        rows = []
        for i, (r, share) in enumerate(zip(rungs, shares, strict=True)):
            done = round(400 * share)
            lo, hi = share - 0.04, share + 0.04
            rows.append(gen_module.Rung(r.phase, r.text, r.screen, r.dealt, PhaseInPlay(
                i + 1, r.text, 400, done, share, (lo, hi), 1.0, (1.0, 1.0))))
        return rows, {"hands_per_game": {"mean": 9.0, "ci95": (8.5, 9.5), "median": 9},
                      "games": 80}

    monkeypatch.setattr(gen_module, "measure", rigged)
    out = tmp_path / "three.yaml"
    r = runner.invoke(app, ["generate", "--phases", "3", "--kinds", "set,run", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "try another" not in r.output
    assert "under `phasedsl balance three.yaml`, phase 3 (" in r.stderr
    assert "is easier than phase 2: completed 95.0%" in r.stderr
    assert "the least flagged one is written" in r.stderr
    assert "# under balance, phase 3 (" in out.read_text()
    assert load_pack(out).worlds[0].phases  # a pack all the same


# --------------------------------------------------------------------------- issue 30, item 4


def test_include_puts_a_phase_in_the_pack_and_exclude_keeps_kinds_and_phrases_out(tmp_path):
    out = tmp_path / "told.yaml"
    r = runner.invoke(app, ["generate", "--phases", "4", "--kinds", "set,run", "--seed", "1",
                            "--include", "1 run of 6", "--exclude", "2 sets of 3",
                            "--pin", "1=1 run of 7", "-o", str(out), "--json"])
    assert r.exit_code == 0, r.output
    pack, diags = check_file(out)
    assert pack is not None and not diags
    texts = [str(e.phase) for e in pack.worlds[0].phases]
    assert "1 run of 6" in texts and "2 sets of 3" not in texts and len(texts) == 4
    assert texts[0] == "1 run of 7"  # pinned first, though it is not the easiest
    assert any("easier than phase 1" in f for f in json.loads(r.stdout)["worlds"][0]["flags"])
    assert "--include '1 run of 6' --exclude '2 sets of 3' --pin '1=1 run of 7'" in out.read_text()
    r = runner.invoke(app, ["generate", "--phases", "3", "--kinds", "set,run", "--seed", "2",
                            "--exclude", "run", "--json"])
    assert r.exit_code == 0, r.output
    phases = [p["phase"] for p in json.loads(r.stdout)["worlds"][0]["phases"]]
    assert phases and not any("run" in p for p in phases)


def test_exclude_reads_a_comma_separated_list_of_kinds_as_kinds_does():
    """``--exclude set,run`` left both kinds in (it was refused as a phrase), where
    ``--kinds set,run`` reads two kinds; a value that is not all kinds is one phrase."""
    _, rules = base_pack(10, 3)
    _, left, dropped = instructions([], ["set, Color-Run", "even_odd"], DEFAULT_KINDS, rules, 3)
    assert not {"set", "color_run", "even_odd"} & set(left) and "run" in left and not dropped
    _, left, dropped = instructions([], ["1 set of 3, 1 run of 4"], DEFAULT_KINDS, rules, 3)
    assert left == DEFAULT_KINDS and {str(p) for p in dropped} == {"1 set of 3 + 1 run of 4"}
    with pytest.raises(GenerateError, match="'set,sett': neither a group kind"):
        instructions([], ["set,sett"], DEFAULT_KINDS, rules, 3)


@pytest.mark.parametrize(("args", "says"), [
    (["--include", "2 sets of thre"], "--include '2 sets of thre': "),
    (["--include", "1 run of 12"], "12 cards, more than the 10 dealt"),
    (["--include", "1 set of 2", "--include", "1 set of 3", "--include", "1 run of 3"],
     "--include names 3 phases; --phases 2 holds 2"),
    (["--exclude", "sett"], "--exclude 'sett': neither a group kind"),
    (["--kinds", "set", "--exclude", "set"], "--exclude leaves no group kind"),
    (["--include", "1 set of 3", "--exclude", "1 set of 3"], "both name 1 set of 3"),
    # a phase asked for, of a kind kept out: writing it would break the --exclude
    (["--include", "a run of 7", "--exclude", "run"],
     "--exclude 'run': 1 run of 7, asked for by --include or --pin, is made of that kind"),
    (["--pin", "2=2 sets of 3", "--exclude", "set"], "2 sets of 3, asked for by"),
    (["--pin", "0=1 set of 3"], "place 0 of a pack of 2"),
    (["--pin", "1 set of 3"], "expected N=PHRASE"),
    (["--pin", "2=1 set of 3", "--pin", "2=1 run of 4"], "place 2 is pinned twice"),
])
def test_generate_refuses_instructions_it_cannot_follow(args, says):
    r = runner.invoke(app, ["generate", "--phases", "2", *args])
    assert r.exit_code == 2 and says in r.output, r.output


def test_every_kind_the_dsl_has_can_be_asked_for(tmp_path):
    """--kinds takes sums, runs of pairs, over/under and wrapping runs (issue 30), each
    giving phrases the DSL reads as that kind; "wrap" writes runs that wrap around."""
    _, rules = base_pack(10, 10, wrap=True)
    assert rules.runs_wrap
    for kind, want in (("sum", "sum"), ("color_sum", "color_sum"), ("pair_run", "pair_run"),
                       ("color_pair_run", "color_pair_run"), ("over", "over"),
                       ("under", "under")):
        # (beside sets: a sum alone, say, leaves lint something to say)
        found = [p for p in candidates(("set", kind), rules)
                 if want in {g.kind.value for g in p.groups}]
        assert found, kind
    assert parse_kinds(["wrap"]) == ("run", "wrap")
    g = generate(2, parse_kinds(["over,under,wrap"]), seed=1, games=4, jobs=1)
    out = tmp_path / "generated.yaml"
    out.write_text(pack_yaml(g))
    pack = load_pack(out)
    assert pack.rules.runs_wrap and "runs that wrap around" in pack.description
    assert {g.kind.value for e in pack.worlds[0].phases for g in e.phase.groups} <= {
        "over", "under", "run"}


def test_the_docs_show_the_pack_this_command_writes(ten):
    """docs/tutorials/generate.md shows `generate --phases 10 --seed 1 -o ten.yaml`'s file
    whole: it must be the file the command writes today."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "tutorials" / "generate.md").read_text()
    block = re.search(r"```yaml\n(# made by: phasedsl generate --phases 10 --seed 1 -o "
                      r"ten\.yaml\n.*?)```", page, flags=re.S).group(1)
    assert block == ten.read_text()
