"""validate and lint say every problem of a pack file in one run (issue 26, item 6): an
unknown key (a schema problem) does not hide a deck, extends, phase, world-name or lint
problem of the same file, nor does a key given twice or an extends that does not read."""

import json
import time

from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.packs.pack import check_file

runner = CliRunner()

HEAD = "name: mine\ntitle: Mine\ndescription: d\nsource: s\n"


def write(tmp_path, text, name="mine.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def where(diags):
    return {(d.line, d.column, d.severity) for d in diags}


def test_an_unknown_key_hides_no_other_problem(tmp_path):
    p = write(tmp_path, HEAD + (
        "colour: red\n"                          # 5: unknown key (schema)
        "rules:\n"
        "  deck:\n"
        "    colors: [red, rose, blue, green]\n" # 8: two colors of one letter (deck check)
        "phases:\n"
        "  - 1 set of 3\n"
        "  - 2 sets of\n"                        # 11: a phase that does not read
        "  - {phase: 1 run of 4, nam: x}\n"      # 12: unknown key in a phase mapping
        "  - {phase: 1 run of, name: y}\n"       # 13: ... and a phase beside one
    ))
    pack, diags = check_file(p)
    assert pack is None
    got = {(d.line, d.column): d.message for d in diags}
    assert "unknown key 'colour'" in got[(5, 1)]
    assert "red and rose both start with R" in got[(8, 13)]
    assert "phase 2: expected a number" in got[(11, 14)]
    assert "phase 3: unknown key 'nam'" in got[(12, 25)]
    assert "phase 4: expected a number" in got[(13, 21)]
    assert len(diags) == 5


def test_a_key_given_twice_is_said_with_the_rest(tmp_path):
    p = write(tmp_path, HEAD + "rules:\n  hand_size: ten\nphases:\n  - 1 set of\ntitle: Again\n")
    _, diags = check_file(p)
    got = {d.line: d.message for d in diags}
    assert "rules.hand_size: expected a whole number" in got[6]
    assert "phase 1: expected a number" in got[8]
    assert got[9] == "duplicate key 'title' (first given on line 2)"


def test_an_extends_that_does_not_read_leaves_the_rest_checked(tmp_path):
    p = write(tmp_path, HEAD + "extends: orignal\nrules:\n  runs: {loop: true}\n"
                               "phases:\n  - thre sets of 3\n")
    _, diags = check_file(p)
    got = {d.line: d.message for d in diags}
    assert "no pack 'orignal' (did you mean 'original'?)" in got[5]
    assert "unknown key 'loop'" in got[7]
    assert "phase 1:" in got[9]


def test_the_parent_s_rules_read_as_far_as_they_do(tmp_path):
    # the parent has an unknown key, but its deck (numbers to 15) still reads: a run of 14
    # in the child is no error, and the parent's problem is said after the child's own
    write(tmp_path, "name: base\ntitle: B\ndescription: d\nsource: s\nrules:\n"
                    "  deck: {numbers: {low: 1, high: 15}}\n  bogus: 1\nphases:\n  - 1 set of 3\n",
          "base.yaml")
    p = write(tmp_path, HEAD + "extends: base.yaml\nphases:\n  - 1 run of 14\n  - 1 run of 16\n")
    _, diags = check_file(p)
    mine = [d for d in diags if d.path == str(p)]
    assert [d.line for d in mine] == [5, 8]
    assert "the pack it extends" in mine[0].message and "16" in mine[1].message
    assert diags[-1].path.endswith("base.yaml") and "unknown key 'bogus'" in diags[-1].message


def test_duplicate_world_names_are_said_beside_a_schema_problem(tmp_path):
    p = write(tmp_path, HEAD + "worlds:\n"
                               "  - {name: a, title: A, phases: [1 set of 3], colour: red}\n"
                               "  - {name: a, title: B, phases: [1 run of 4]}\n")
    _, diags = check_file(p)
    msgs = [d.message for d in diags]
    assert any("unknown key 'colour'" in m for m in msgs)
    assert any("world name 'a' is used twice" in m for m in msgs)


def test_lint_warns_in_a_file_with_a_schema_problem(tmp_path):
    p = write(tmp_path, HEAD + "colour: red\nphases:\n" + "".join(
        f"  - {k} sets of 3\n" for k in (1, 2, 1, 3, 1, 2, 3, 1, 2, 3)))
    r = runner.invoke(app, ["lint", str(p), "--json"])
    assert r.exit_code == 1
    problems = json.loads(r.stdout)["problems"]
    assert (problems[0]["line"], problems[0]["severity"]) == (5, "error")
    assert any(x["severity"] == "warning" and "repeats phase 1" in x["message"]
               for x in problems)
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1 and "colour" in r.stdout and "repeats" not in r.stdout


def test_validate_text_and_json_say_the_same_problems(tmp_path):
    p = write(tmp_path, HEAD + "colour: red\nrules:\n  deck: {colors: [red, rose, blue, green]}\n"
                               "phases:\n  - 1 set of\n")
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    text = [line for line in r.stdout.splitlines() if line.startswith(str(p))]
    r = runner.invoke(app, ["validate", str(p), "--json"])
    problems = json.loads(r.stdout)["problems"]
    assert len(text) == len(problems) == 3
    assert [x["line"] for x in problems] == [5, 7, 9]


def test_many_problems_are_still_refused_fast(tmp_path):
    # a hostile file of many refused values is read once by the schema, not once per round
    p = write(tmp_path, HEAD + "rules:\n" + "".join(f"  k{i}: 1\n" for i in range(5000))
              + "phases:\n  - 1 set of\n")
    t = time.perf_counter()
    _, diags = check_file(p)
    assert time.perf_counter() - t < 5
    assert len(diags) == 5001


def test_a_world_that_breaks_the_schema_keeps_its_phases_checked(tmp_path):
    p = write(tmp_path, HEAD + "worlds:\n"
                               "  - name: Jazz Club\n"             # 6: no title, a bad name
                               "    phases: [1 set of 3, 2 sets of]\n"
                               "  - 7\n"                           # 8: not a world
                               "  - {name: b, title: B, phases: [1 rn of 4]}\n")
    _, diags = check_file(p)
    errors = {(d.line, d.column): d.message for d in diags}
    assert "world 1 needs a 'title:' key" in errors[(6, 5)]
    assert "is not allowed: a name is lowercase" in errors[(6, 11)]
    assert "world 1, phase 2: expected a number" in errors[(7, 35)]
    assert "world 2: expected a mapping" in errors[(8, 5)]
    assert "world b, phase 1:" in errors[(9, 36)] and "did you mean 'run'" in errors[(9, 36)]


def test_an_inherited_phase_this_deck_cannot_hold_is_a_problem_of_the_file(tmp_path):
    # was: exit 2 with no line, and nothing else said
    p = write(tmp_path, HEAD + "extends: original\nrules:\n  deck: {numbers: {low: 1, high: 8}}\n"
                               "  colour: red\n")
    _, diags = check_file(p)
    got = [(d.line, d.column, d.message) for d in diags]
    assert (5, 10, "phase 6 ('1 run of 9'), inherited: a run of 9 is impossible: numbers go "
                   "from 1 to 8 under this pack's rules") in got
    assert any(line == 8 and "unknown key 'colour'" in m for line, _, m in got)
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1 and "Traceback" not in r.stderr
