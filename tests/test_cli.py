import json

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_parse_text_and_json():
    r = run("parse", "two sets of three")
    assert r.exit_code == 0 and r.stdout.splitlines()[0] == "2 sets of 3"
    r = run("parse", "1 color run of 4 + 3 of one color", "--json")
    data = json.loads(r.stdout)
    assert data["canonical"] == "1 color run of 4 + 3 cards of one color"
    assert [g["kind"] for g in data["groups"]] == ["color_run", "color"]


def test_parse_names_a_group_of_one_card_in_the_singular():
    r = run("parse", "3 sets of 3 + wild card")
    assert "  group 4: 1 wild  [wild, 1 card]" in r.stdout.splitlines()
    assert "  group 1: 1 set of 3  [set, 3 cards]" in r.stdout.splitlines()


def test_parse_error_exit_2_with_caret_and_no_traceback():
    r = run("parse", "1 set of")
    assert r.exit_code == 2
    assert "expected a number after 'of'" in r.stderr
    assert "^" in r.stderr and "Traceback" not in r.stderr + r.stdout


def test_parse_batch():
    r = run("parse", "--batch", "-", input="2 sets of 3\nrun of 4, set of 3\nset of\n")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["canonical"] == "2 sets of 3" and len(lines[0]["groups"]) == 2
    assert lines[1]["canonical"] == "1 run of 4 + 1 set of 3"
    assert lines[2]["input"] == "set of" and "expected a number" in lines[2]["error"]
    assert r.exit_code == 2  # some phrase did not read


def test_check_made_not_made_bad():
    r = run("check", "1 set of 3 + 1 run of 4", "R5", "B5", "G7", "G8", "G10", "W", "W", "Y2")
    assert r.exit_code == 0 and "G7 G8 W=9 G10" in r.stdout
    r = run("check", "1 run of 4", "R3 B4 G5 Y9", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["valid"] is False and data["short_by"] == 1
    assert "any 2, any 6 or a wild" in data["reason"]
    r = run("check", "1 run of 4", "R3", "Q4")
    assert r.exit_code == 2 and "Q4" in r.stderr


def test_check_groups():
    r = run("check", "2 sets of 3", "--groups", "R5 B5 W", "--groups", "G9 G9 Y9")
    assert r.exit_code == 0 and "legal" in r.stdout
    r = run("check", "2 sets of 3", "-g", "R5 B5 W", "-g", "G9 G8 Y9", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["problems"][0]["group"] == 2
    assert data["problems"][0]["rule"] == "same_number"


def test_check_batch_keeps_order_and_survives_bad_lines():
    lines = "\n".join([
        json.dumps({"id": 1, "phase": "2 sets of 3", "cards": "R5 B5 W G9 G9 Y9"}),
        "not json",
        json.dumps({"id": 3, "phase": "1 run of 4", "cards": ["R1", "R2"]}),
        json.dumps({"id": 4, "phase": "1 set of 3 + 1 run of 4", "groups": ["G10 W G8 G7", "R5 B5 W"]}),
        json.dumps({"id": 5, "phase": "1 sett of 3", "cards": "R5"}),
    ])
    r = run("check", "--batch", "-", input=lines + "\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["id"] for o in out] == [1, None, 3, 4, 5]
    assert out[0]["valid"] and sorted(out[0]["groups"]) == [["G9", "G9", "Y9"], ["R5", "B5", "W=5"]]
    assert "error" in out[1]
    assert out[2]["valid"] is False and out[2]["short_by"] == 2
    assert out[3]["valid"] and out[3]["groups"][1] == ["G7", "G8", "W=9", "G10"]
    assert "column" in out[4]["error"]


def test_hit():
    r = run("hit", "R3", "--on", "run: R4 R5 W=6 R7", "--on", "set: B9 G9 W", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["hits"] == [{"card": "R3", "group": 1, "end": "low"}]
    r = run("hit", "R3", "R2", "B11", "--on", "run: R4 R5 R6 R7")
    assert r.exit_code == 1 and "B11: no group takes it" in r.stdout
    r = run("hit", "R3", "--on", "R4 R5 R6")
    assert r.exit_code == 2


def test_score():
    r = run("score", "R5", "B12", "W", "S", "--json")
    assert json.loads(r.stdout)["points"] == 55


def test_variant_and_phase_number():
    r = run("check", "--variant", "twist", "--phase", "8", "R1 R2 R3 R4 W", "--json")
    data = json.loads(r.stdout)
    assert data["phase"] == "1 color run of 5" and data["valid"]
    r = run("check", "-v", "world-tour", "-w", "jazz-club", "-p", "4", "R1 R2 R3 R4")
    assert r.exit_code == 0
    r = run("check", "-v", "world-tour", "-p", "4", "R1 R2 R3 R4")
    assert r.exit_code == 2 and "--world" in r.stderr
    r = run("check", "-v", "nope", "-p", "1", "R1")
    assert r.exit_code == 2 and "no pack" in r.stderr


def test_help_has_examples():
    r = run("check", "--help")
    assert r.exit_code == 0 and "Examples" in r.stdout


def test_batch_refuses_hostile_lines_and_goes_on():
    lines = ["[" * 100_000, json.dumps({"id": 2, "phase": "1 set of 2", "cards": "R1 " * 400_000}),
             json.dumps({"id": 3, "phase": "1 set of 2", "cards": "R1 B1"})]
    r = run("check", "--batch", "-", input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert "nested too deeply" in out[0]["error"]
    assert "too long" in out[1]["error"]
    assert out[2]["valid"] is True


def test_hands_cannot_hold_more_than_the_deck():
    r = run("check", "1 set of 3", "R1 R1 R1")
    assert r.exit_code == 2 and "more than the deck's 2" in r.stderr
    r = run("outs", "1 set of 3", "R5 B5", "--seen", "R5 R5")
    assert r.exit_code == 2
    line = json.dumps({"id": 1, "phase": "2 sets of 3", "cards": "R5 R5 R5 R6 R6 R6"})
    out = json.loads(run("check", "--batch", "-", input=line + "\n").stdout)
    assert "more than the deck" in out["error"]


def test_batch_line_conflicts_and_non_json_numbers():
    lines = [json.dumps({"id": 1, "phase": "2 sets of 3", "cards": "R1"}),
             '{"id": NaN, "cards": "R1"}', '{"id": 1e999, "cards": "R1"}']
    r = run("check", "--batch", "-", "--variant", "twist", "--phase", "8", input="\n".join(lines))
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert "--phase" in out[0]["error"]
    assert "NaN" in out[1]["error"] and "1e999" in out[2]["error"]
    both = json.dumps({"id": 4, "phase": "1 set of 2", "cards": "R1", "groups": ["R1 B1"]})
    assert "not both" in json.loads(run("check", "--batch", "-", input=both).stdout)["error"]


def test_hit_cards_and_laid_cards_within_the_deck():
    r = run("hit", "R5", "--on", "color_set: R5 R5 W")
    assert r.exit_code == 2 and "more than the deck" in r.stderr


# ---------------------------------------------------------------- errors: one path, --json everywhere


BAD_PACK = "name: bad\ntitle: Bad\ndescription: d\nsource: s\nphases:\n  - \"1 sett of 3\"\n"


@pytest.mark.parametrize("args", [
    ["check", "--variant", "nope", "--phase", "1", "R5"],  # pack name
    ["check", "-v", "world-tour", "-w", "nowhere", "-p", "1", "R1"],  # world
    ["check", "-v", "original", "-p", "99", "R1"],  # phase number
    ["check", "-v", "world-tour", "-p", "1", "R1"],  # world needed
    ["check", "--phase", "1", "R1"],  # --phase without --variant
    ["check", "2 sets of 3", "--variant", "nonexist.yaml", "R1"],  # pack file
    ["check", "1 set of 3", "R5", "X5"],  # card
    ["check"],  # the command's own check: no phase
    ["parse", "1 sett of 3"],
    ["parse"],
    ["hit", "R3", "--on", "R4 R5 R6"],
    ["hit", "R3"],  # Typer's own check: missing --on
    ["hit", "R3", "--on", "run: R4 R5 R6", "--variant", "nope"],
    ["score", "R5", "Q1"],
    ["score", "R5", "--variant", "nope"],
    ["odds"],
    ["odds", "2 sets of 3", "--samples", "0"],  # Typer's range check
    ["odds", "2 sets of 3", "--world", "jazz-club"],  # --world needs --variant
    ["odds", "--variant", "world-tour", "--world", "nowhere"],
    ["odds", "2 sets of 3", "--plot", "curve.txt"],
    ["outs", "1 run of 4", "R3", "--seen", "Z9"],
    ["outs", "1 run of 4", "R3", "-v", "nope"],
    ["show", "nope"],
    ["show", "world-tour", "--world", "nowhere"],
    ["check", "--batch", "/nonexistent/hands.jsonl"],
    ["nosuchcommand"],
    ["--bogus"],
])
def test_every_error_with_json_is_one_json_object_on_stdout(args):
    r = run(*args, "--json")
    assert r.exit_code == 2, r.output
    data = json.loads(r.stdout)  # exactly one JSON document, nothing else
    assert isinstance(data, dict) and data["exit"] == 2 and data["error"]
    assert r.stderr == ""
    plain = run(*args)  # and without --json the same error is text on stderr
    assert plain.exit_code == 2 and plain.stdout == "" and plain.stderr


def test_json_errors_carry_what_locates_them(tmp_path):
    data = json.loads(run("check", "1 set of 3", "R5", "X5", "--json").stdout)
    assert data["column"] == 4 and data["message"].startswith("unknown color 'X'")
    pack = tmp_path / "bad.yaml"
    pack.write_text(BAD_PACK)
    r = run("check", "-v", str(pack), "-p", "1", "R1", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 2 and data["problems"][0]["line"] == 6 and data["problems"][0]["column"]
    r = run("validate", "nonexist.yaml", "original", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 2 and data["exit"] == 2 and "1 file of 2" in data["error"]
    assert data["problems"][0]["file"] == "nonexist.yaml"


def test_error_prefix_is_not_doubled():
    r = run("check", "2 sets of 3", "--variant", "nonexist.yaml", "R1")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: nonexist.yaml: cannot read")
    assert r.stderr.count("error") == 1
    r = run("check", "--variant", "nope", "-p", "1", "R1")
    assert "no pack 'nope'" in r.stderr and r.stderr.count("error:") == 1


# ---------------------------------------------------------------- long input


def test_a_huge_hand_error_echoes_only_a_window_around_the_column():
    hand = " ".join(["R5", "B7", "G9", "Y12", "W"] * 1200)  # 6,000 cards, ~18 kB
    r = run("check", "2 sets of 3", hand)
    assert r.exit_code == 2 and "too many cards" in r.stderr
    assert len(r.stderr) < 400, len(r.stderr)
    bad = hand[:9000] + " X5 " + hand[9000:]
    r = run("check", "2 sets of 3", bad)
    assert len(r.stderr) < 400
    echo, caret = r.stderr.splitlines()[-2:]
    assert max(len(echo), len(caret)) <= 80
    at = caret.index("^")
    assert echo[at:at + 2] == "X5" and echo.lstrip().startswith("...") and echo.endswith("...")
    data = json.loads(run("check", "2 sets of 3", bad, "--json").stdout)
    assert len(data["error"]) < 400 and data["column"] == 9002
    for token in ("Q" * 50_000, "W=" + "R" * 50_000, "R" + "5" * 50_000):  # one huge token
        r = run("check", "2 sets of 3", "R5 " + token)
        assert r.exit_code == 2 and len(r.stderr) < 400 and "is not a card" in r.stderr
    r = run("hit", "R3", "--on", "x" * 50_000)  # and in a laid group
    assert r.exit_code == 2 and len(r.stderr) < 400
    for phrase in ("1 set of 3 + " + "x" * 1500, "x" * 1500 + " of 3"):  # and in a phrase
        r = run("parse", phrase)
        assert r.exit_code == 2 and len(r.stderr) < 500 and "(1,500 characters)" in r.stderr


def test_caret_lines_keep_short_lines_whole_and_point_at_the_column():
    from phasedsl.errors import caret_lines

    assert caret_lines("R5 X5", 4) == "    R5 X5\n       ^"
    line = "a" * 500 + "Z" + "b" * 500
    for column in (1, 2, 250, 501, 800, 1001, 1002):
        echo, caret = caret_lines(line, column).splitlines()
        assert len(echo) <= 80
        at = caret.index("^")
        if column <= len(line):
            assert echo[at] == line[column - 1]
    echo, caret = caret_lines(line, 501).splitlines()
    assert echo[caret.index("^")] == "Z"
    from rich.cells import cell_len

    for text in ('phases: ["5セット1回 + 3セット1回 X"]', 'phases: ["1 ชุด 5 และ 1 ชุด 3 X"]'):
        echo, caret = caret_lines(text, text.index("X") + 1).splitlines()
        assert caret.index("^") == cell_len(echo[:echo.index("X")])  # under the X on screen


# ---------------------------------------------------------------- odds: Wilson interval and the plot


def test_wilson_interval_contains_the_estimate_at_0_and_100_percent():
    from phasedsl.design.odds import wilson

    for n in (1, 3, 7, 100, 1000, 12345, 200_000):
        for hits in (0, 1, n // 2, n - 1, n):
            low, high = wilson(hits, n)
            assert 0 <= low <= hits / n <= high <= 1, (hits, n, low, high)
        assert wilson(0, n)[0] == 0 and wilson(n, n)[1] == 1


MINI = ("name: mini\ntitle: Mini\ndescription: d\nsource: s\nphases:\n"
        "  - \"1 color run of 10\"\n  - \"2 sets of 3\"\n  - \"1 color run of 4\"\n")


def test_odds_plot_with_a_zero_percent_phase_draws(tmp_path):
    pytest.importorskip("matplotlib")
    pack = tmp_path / "mini.yaml"
    pack.write_text(MINI)
    data = json.loads(run("odds", "--variant", str(pack), "--samples", "100", "--json").stdout)
    assert data["phases"][0]["probability"] == 0  # no sampled hand makes a color run of 10
    out = tmp_path / "curve.png"
    r = run("odds", "--variant", str(pack), "--samples", "100", "--plot", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"\x89PNG")


def test_odds_prints_the_table_before_a_plot_that_fails(tmp_path, monkeypatch):
    import errno
    import os

    pytest.importorskip("matplotlib")
    pack = tmp_path / "mini.yaml"
    pack.write_text(MINI)
    # a folder that is not there is refused before any count
    r = run("odds", "--variant", str(pack), "--plot", str(tmp_path / "missing-dir" / "c.svg"))
    assert r.exit_code == 2 and r.stdout == "" and "there is no folder" in r.stderr
    # a write that fails once the figures are made (a full disk) keeps them
    target = tmp_path / "curve.svg"

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    r = run("odds", "--variant", str(pack), "--samples", "100", "--plot", str(target))
    assert r.exit_code == 2 and not target.exists() and os.listdir(tmp_path) == ["mini.yaml"]
    assert "2 sets of 3" in r.stdout and "18.2752%" in r.stdout
    assert r.stderr.startswith("error: cannot write") and "Traceback" not in r.output
    r = run("odds", "--variant", str(pack), "--samples", "100", "--plot", str(target), "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 2 and data["exit"] == 2 and "cannot write" in data["error"]
    assert [p["phase"] for p in data["report"]["phases"]][1] == "2 sets of 3"


# ---------------------------------------------------------------- help, --version


def _commands():
    import typer.main

    return list(typer.main.get_command(app).commands)


def test_help_shows_no_python_types_and_every_command_has_examples_indented_alike():
    indents = set()
    for name in ["", *_commands()]:
        r = run(*([name] if name else []), "--help")
        assert r.exit_code == 0
        text = r.stdout
        for bad in ("<bool>", "<str>", "<list", "<int", "<path>", "<float>"):
            assert bad not in text, (name, bad)
        if not name:
            continue
        assert "Examples:" in text, name
        lines = [x for x in text.splitlines() if "phasedsl " in x and "Usage" not in x]
        assert len(lines) >= 2, name
        indents |= {len(x) - len(x.lstrip()) for x in lines if x.lstrip().startswith(("phasedsl", "printf"))}
    assert len(indents) == 1, indents


def test_values_have_meaningful_metavars_and_world_help_fits_the_command():
    import re

    r = run("check", "--help")
    # (-v, --variant's older short name, is read but not offered: issue 26)
    assert re.search(r"--variant,--pack\s+PACK", r.stdout) and re.search(r"--phase\s+-p\s+N", r.stdout)
    assert re.search(r"--world\s+-w\s+WORLD", r.stdout) and re.search(r"--batch\s+FILE", r.stdout)
    assert re.search(r"--json\s+Print", r.stdout)  # a flag: no value shown
    for name in ("odds", "show"):
        text = " ".join(run(name, "--help").stdout.split())
        world_help = text[text.index("--world"):]
        world_help = world_help[:world_help.index("--", 8)]
        assert "--phase" not in world_help, (name, world_help)


def test_version():
    import phasedsl

    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"phasedsl {phasedsl.__version__}"


# ---------------------------------------------------------------- 80 columns


LONG = ("1 run of 9 with colors {1: red or blue, 2: any, 3: green or yellow, 4: any, 5: red or yellow, "
        "6: any, 7: blue or green, 8: any, 9: red or green, 10: any, 11: blue or yellow}")


def _in_order(words: list[str], among: list[str]) -> bool:
    it = iter(among)
    return all(w in it for w in words)


def _cells(line: str) -> int:
    from rich.cells import cell_len

    return cell_len(line)


def test_odds_table_fits_80_columns_and_keeps_the_whole_phase(tmp_path):
    pack = tmp_path / "long.yaml"
    pack.write_text("name: long\ntitle: Long\ndescription: d\nsource: s\nphases:\n"
                    f"  - \"2 sets of 3\"\n  - \"{LONG}\"\n")
    r = run("odds", "--variant", str(pack), "--samples", "300", "--draws", "1")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(map(_cells, lines)) <= 80, lines
    assert _in_order(LONG.split(), r.stdout.split())
    r = run("odds", "--variant", str(pack), "--samples", "300", "--json")
    assert json.loads(r.stdout)["phases"][1]["phase"] == LONG  # JSON unchanged


def test_show_fits_80_columns():
    from phasedsl.packs.pack import builtin_names

    for ref in [*builtin_names(), "list"]:
        r = run("show", ref) if ref != "list" else run("list")
        assert r.exit_code == 0
        assert max(map(_cells, r.stdout.splitlines())) <= 80, ref
    r = run("show", "world-tour", "--world", "okie-circle-j")
    assert _in_order(LONG.split(), r.stdout.split())
    data = json.loads(run("show", "world-tour", "--world", "okie-circle-j", "--json").stdout)
    assert data["worlds"][0]["phases"][10]["canonical"] == LONG


def test_check_text_fits_80_columns():
    # phase 10 of the printed game, 6 cards short: the reason ran to 98 columns on one line
    for args in (["--variant", "original", "--phase", "10", "R1", "B3", "G5", "Y7", "R9", "B11"],
                 [LONG, "R5", "B5"],
                 ["7 cards of one color", "--groups", "R1 R2 R3 R4 R5 R6 B7"]):
        r = run("check", *args)
        assert r.exit_code == 1, r.output
        lines = r.stdout.splitlines()
        assert max(map(_cells, lines)) <= 80, lines
        assert any(ln.startswith(("not made: ", "not legal")) for ln in lines)
    r = run("check", "--variant", "original", "--phase", "10", "R1", "B3", "--json")
    reason = json.loads(r.stdout)["reason"]
    text = run("check", "--variant", "original", "--phase", "10", "R1", "B3").stdout
    assert " ".join(text[text.index("not made: "):].split()) == "not made: " + reason


def test_table_wraps_only_its_flexible_column():
    from phasedsl.api import table, wrap

    lines = table([["#", "phase", "n"], ["1", "word " * 40, "7"], "  a note"], "><>", flex=1, width=40)
    assert max(map(len, lines)) <= 40 and lines[-1] == "  a note"
    assert lines[1].startswith("1  word") and lines[1].endswith("7")
    assert wrap("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]
    assert wrap("5セット1回 + 3セット1回", 12) == ["5セット1回 +", "3セット1回"]


# ---------------------------------------------------------------- wording


def test_wording_plurals_and_equal_groups_counted_together():
    r = run("list")
    assert "Custom (1 phase)" in r.stdout and "(1 phases)" not in r.stdout
    r = run("outs", "1 set of 3 + 1 run of 4", "R5 B5 G7 G8 G10 Y2 W", "--seen", "W W W")
    assert "9 cards complete it" in r.stdout and "(s)" not in r.stdout
    r = run("outs", "1 run of 4", "R1 R2 R3", "--seen", "W W W W W W W W B4 B4 G4 G4 Y4 Y4 R4")
    assert "1 card completes it" in r.stdout
    r = run("check", "2 sets of 3", "R5 B5 G9 Y1")
    assert r.exit_code == 1 and r.stdout.rstrip().endswith("completes 2 sets of 3")
    r = run("check", "1 set of 3 + 1 run of 4 + 1 set of 3", "R5 B5")
    assert "completes 1 set of 3 + 1 run of 4 + 1 set of 3" in r.stdout
    r = run("check", "2 sets of 3 + 2 wilds", "R5 B5 G9 Y1")
    assert " ".join(r.stdout.split()).endswith("completes 2 sets of 3 + 2 wilds")  # wrapped
    r = run("validate", "original")
    assert r.exit_code == 0 and r.stderr.strip() == "1 file: 0 errors, 0 warnings"


def test_batch_exit_code_follows_the_worst_line():
    made = json.dumps({"id": 1, "phase": "2 sets of 3", "cards": "R5 B5 W G9 G9 Y9"})
    short = json.dumps({"id": 2, "phase": "1 run of 4", "cards": "R1 R2"})
    illegal = json.dumps({"id": 3, "phase": "1 set of 3", "groups": ["R1 B2 W"]})
    bad = json.dumps({"id": 4, "phase": "1 set of 3", "cards": "X9"})
    assert run("check", "--batch", "-", input=made + "\n" + made).exit_code == 0
    assert run("check", "--batch", "-", input=made + "\n" + short).exit_code == 1
    assert run("check", "--batch", "-", input=illegal + "\n" + made).exit_code == 1
    assert run("check", "--batch", "-", input=short + "\n" + bad + "\n" + made).exit_code == 2
    assert run("check", "--batch", "-", input="not json\n").exit_code == 2
    assert run("parse", "--batch", "-", input="2 sets of 3\nrun of 4\n").exit_code == 0
    helped = " ".join(run("check", "--help").stdout.split())
    assert "1 when some line is not, 2 when some line is an error" in helped


def test_batch_rows_carry_the_line_number_blank_lines_counted():
    made = json.dumps({"phase": "2 sets of 3", "cards": "R5 B5 W G9 G9 Y9"})
    r = run("check", "--batch", "-", input=f"\n{made}\n   \nnot json\n\n{made}\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["line"] for o in out] == [2, 4, 6]
    assert out[0]["valid"] and "error" in out[1] and out[2]["valid"]
    r = run("parse", "--batch", "-", input="2 sets of 3\n\nset of\n")
    assert [json.loads(x)["line"] for x in r.stdout.splitlines()] == [1, 3]


def test_batch_not_json_gives_the_real_column():
    r = run("check", "--batch", "-", input='{"id": 1,\n[\n')
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[0]["error"].endswith("at column 10")
    assert out[1]["error"].endswith("at column 2")


def test_batch_refuses_other_inputs():
    r = run("check", "--batch", "-", "1 run of 9", "X9", input="")
    assert r.exit_code == 2 and "--batch" in r.stderr
    r = run("check", "--batch", "-", "--groups", "R1 B1", input="")
    assert r.exit_code == 2 and "--batch" in r.stderr
    r = run("parse", "--batch", "-", "2 sets of 3", input="")
    assert r.exit_code == 2 and "--batch" in r.stderr


def test_a_hand_holds_plain_wilds_and_some_cards():
    r = run("check", "2 sets of 3", "R7 B7 W=R7 G9 G9 Y9")
    assert r.exit_code == 2 and "W=R7 in a hand" in r.stderr and "column 7" in r.stderr
    r = run("outs", "2 sets of 3", "R7 B7 W=7")
    assert r.exit_code == 2 and "write W" in r.stderr
    r = run("check", "2 sets of 3")
    assert r.exit_code == 2 and "give the cards" in r.stderr
    line = json.dumps({"id": 1, "phase": "2 sets of 3", "cards": ""})
    out = json.loads(run("check", "--batch", "-", input=line + "\n").stdout)
    assert "give the cards" in out["error"]


def test_batch_file_answered_in_pieces_by_several_processes_reads_as_one(tmp_path, monkeypatch):
    import random

    import phasedsl.cli.batch as cli
    from phasedsl import STANDARD_DECK

    monkeypatch.setattr(cli, "BATCH_CHUNK", 4)  # many pieces from a few lines
    rng = random.Random(8)
    deck = [str(c) for c in STANDARD_DECK.all_cards()]
    phases = ["2 sets of 3", "1 set of 3 + 1 run of 4", "1 run of 7", "7 cards of one color"]
    lines = [json.dumps({"id": i, "phase": phases[i % 4], "cards": " ".join(rng.sample(deck, 11))})
             for i in range(21)]
    lines[5] = ""  # blank: skipped, counted
    lines[9] = "not json"
    lines[14] = json.dumps({"id": 14, "phase": "1 set of 3", "cards": "R5 B5 G5"})  # made
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = run("check", "--batch", str(path), "--jobs", "1")
    stdin = run("check", "--batch", "-", input=path.read_text(encoding="utf-8"))
    for jobs in ("2", "3", "0"):
        many = run("check", "--batch", str(path), "--jobs", jobs)
        assert many.exit_code == one.exit_code == stdin.exit_code == 2
        assert many.stdout == one.stdout == stdin.stdout
    rows = [json.loads(x) for x in one.stdout.splitlines()]
    assert [r["line"] for r in rows] == [n for n in range(1, 22) if n != 6]
    assert "error" in rows[8] and rows[13]["valid"] is True
    assert run("check", "--batch", str(path), "--jobs", "-1").exit_code == 2


def test_batch_refuses_repeated_keys_and_numbers_json_cannot_keep():
    lines = ['{"phase": "1 set of 3", "cards": "R5", "cards": "B5"}',
             '{"phase": "1 set of 3", "cards": "R5 B5 W", "id": 1.5e-400}',
             '{"phase": "1 set of 3", "cards": "R5 B5 W", "id": 0.0e-400}']
    r = run("check", "--batch", "-", input="\n".join(lines))
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 2
    assert '"cards" appears twice' in out[0]["error"]
    assert "1.5e-400" in out[1]["error"]
    assert out[2]["valid"] is True and out[2]["id"] == 0.0


def test_batch_lines_over_the_limit_are_refused_in_both_modes_and_not_echoed():
    long = "x" * 1_000_001
    for cmd, ok in (("parse", "1 set of 3"), ("check", '{"phase": "1 set of 3", "cards": "R5"}')):
        r = run(cmd, "--batch", "-", input=f"{long}\n{ok}\n")
        out = [json.loads(x) for x in r.stdout.splitlines()]
        assert r.exit_code == 2 and len(r.stdout) < 2_000
        key = "input" if cmd == "parse" else "id"
        assert out[0] == {"line": 1, key: None,
                          "error": "line too long (over 1000000 characters, the limit)"}
        assert out[1]["line"] == 2 and "error" not in out[1]


def test_every_batch_error_row_has_the_same_keys_in_the_same_order():
    # the row of an over-long line had no "id" (or "input"), unlike every other error row
    bad_check = [
        "x" * 1_000_001,                                              # too long to read
        "{", "[" * 100_000, "[1, 2]", '"text"',                       # not JSON, too deep, not objects
        json.dumps({"id": 1, "phase": "1 set of 3", "cards": "R5", "hand": "R5"}),
        json.dumps({"id": 2, "phase": "1 set of 3", "cards": "R5", "groups": ["R5"]}),
        json.dumps({"id": 3, "phase": 7, "cards": "R5"}),
        json.dumps({"id": 4, "phase": "1 set of", "cards": "R5"}),
        json.dumps({"id": 5, "phase": "1 set of 3", "cards": "R5 X5"}),
        json.dumps({"id": 6, "phase": "1 set of 3", "cards": 5}),
        json.dumps({"id": 7, "phase": "1 set of 3", "groups": "R5 B5 W"}),
        json.dumps({"id": 8, "phase": "1 set of 3", "cards": "R5 R5 R5"}),
        json.dumps({"id": 9, "phase": "1 set of 3", "cards": ""}),
        json.dumps({"id": 10, "phase": "1 set of 3", "cards": "W=R5 B5"}),
        '{"id": 11, "phase": "1 set of 3", "cards": "R5", "cards": "B5"}',
        '{"id": NaN, "phase": "1 set of 3", "cards": "R5"}',
        '{"id": 1e999, "phase": "1 set of 3", "cards": "R5"}',
    ]
    r = run("check", "--batch", "-", input="\n".join(bad_check) + "\n")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 2 and len(rows) == len(bad_check)
    assert [list(row) for row in rows] == [["line", "id", "error"]] * len(bad_check), rows
    assert [row["line"] for row in rows] == list(range(1, len(bad_check) + 1))
    assert rows[0]["id"] is None and rows[5]["id"] == 1 and rows[9]["id"] == 5
    with_phase = [json.dumps({"id": 1, "phase": "1 set of 3", "cards": "R1"}), "x" * 1_000_001]
    r = run("check", "--batch", "-", "--variant", "original", "--phase", "1",
            input="\n".join(with_phase) + "\n")
    assert [list(json.loads(x)) for x in r.stdout.splitlines()] == [["line", "id", "error"]] * 2
    r = run("parse", "--batch", "-", input="x" * 1_000_001 + "\nset of\n1 set of 99\n")
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [list(row) for row in rows] == [["line", "input", "error"]] * 3


def test_a_batch_line_of_exactly_the_limit_is_read():
    # the newline was counted: a line of 1,000,000 characters was refused as over 1,000,000
    line = json.dumps({"id": 1, "phase": "1 set of 3", "cards": "R5 B5 W"})
    line += " " * (1_000_000 - len(line))
    r = run("check", "--batch", "-", input=line + "\n")
    assert r.exit_code == 0 and json.loads(r.stdout)["valid"] is True


def test_odds_refuses_a_sample_count_that_would_run_for_hours():
    r = run("odds", "1 color run of 10", "--samples", "1000000000", "--json")
    assert r.exit_code == 2 and "20000000" in json.loads(r.stdout)["error"]


def test_batch_of_one_endless_line_stops_with_an_error(monkeypatch):
    import phasedsl.cli.batch as cli

    monkeypatch.setattr(cli, "MAX_SKIP", 3_000_000)  # /dev/zero in small: no line break at all
    for cmd in ("parse", "check"):
        r = run(cmd, "--batch", "-", input="1 set of 3\n" + "x" * 5_000_000)
        assert r.exit_code == 2 and "line 2 runs past 3,000,000 characters" in r.stderr


PURPLE_PACK = """name: purple
title: Purple deck
description: A deck with a purple color.
source: a test
extends: original
rules:
  deck:
    colors: [red, blue, purple]
"""


@pytest.mark.parametrize("how", [["P1", "B2", "R3"], ["--groups", "P1 B2 R3"]])
def test_check_names_each_group_under_the_packs_deck(tmp_path, how):
    # a color map names the pack's colors, and "any" is every color of its deck: the
    # group lines of `check` said "{1: , 2: red or blue, 3: red}" here (review-solver)
    pack = tmp_path / "purple.yaml"
    pack.write_text(PURPLE_PACK, encoding="utf-8")
    phrase = "1 run of 3 with colors {1: purple, 2: any, 3: red}"
    r = runner.invoke(app, ["check", "--variant", str(pack), phrase, *how])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == f"phase: {phrase}"
    assert lines[2].split() == [*phrase.split(), "P1", "B2", "R3"]


def test_check_text_takes_a_deck():
    from phasedsl import api
    from phasedsl.errors import ArgumentError

    phase = api.parse("1 set of 3")
    with pytest.raises(ArgumentError):
        api.check_text(phase, api.check_json(phase, "R5 B5 W"), deck="purple")


def test_dealt_chance_cache_tells_apart_phases_that_differ_in_a_packs_own_colors():
    # str(phase) names colors under the standard deck, where purple and orange are no
    # colors: both maps printed "{1: , 2: red}" and shared one cached figure (review-solver)
    from phasedsl import Phase, Rules
    from phasedsl.design.difficulty import _cache_key
    from phasedsl.model.rules import Deck

    deck = Deck(colors=("P", "O", "R"), color_names=(("P", "purple"), ("O", "orange"), ("R", "red")))
    rules = Rules(deck=deck)
    one = Phase.parse("1 run of 3 with colors {1: purple, 2: any, 3: any}", deck)
    two = Phase.parse("1 run of 3 with colors {1: purple or orange, 2: any, 3: any}", deck)
    assert _cache_key(one, rules, 10, 1000, 1) != _cache_key(two, rules, 10, 1000, 1)


def test_parse_reads_a_phrase_under_a_packs_deck(tmp_path):
    pack = tmp_path / "purple.yaml"
    pack.write_text(PURPLE_PACK, encoding="utf-8")
    phrase = "1 run of 3 with colors {1: purple, 2: any, 3: red}"
    r = run("parse", phrase)  # the standard deck has no purple
    assert r.exit_code == 2 and "unknown color 'purple'" in r.output
    r = run("parse", "--variant", str(pack), phrase)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[:2] == [phrase, f"  group 1: {phrase}  [run, 3 cards]"]
    data = json.loads(run("parse", "--variant", str(pack), phrase, "--json").stdout)
    assert data["groups"][0]["colors"] == {"1": ["P"], "2": ["R", "B", "P"], "3": ["R"]}
    batch = tmp_path / "phrases.txt"
    batch.write_text(f"{phrase}\n2 sets of 3\n", encoding="utf-8")
    r = run("parse", "--variant", str(pack), "--batch", str(batch))
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.exit_code == 0 and [row["canonical"] for row in rows] == [phrase, "2 sets of 3"]
    r = run("parse", "--variant", str(tmp_path / "missing.yaml"), "2 sets of 3")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_odds_of_a_pack_names_the_phase_past_the_solvers_limit(tmp_path):
    # "gave up after 100,000 search steps" named no phase of the pack's many
    pack = tmp_path / "bigdeck.yaml"
    pack.write_text("name: bigdeck\ntitle: t\ndescription: d\nsource: s\nextends: original\n"
                    "rules:\n  hand_size: 50\n  deck:\n    colors: [red, blue, green, yellow, "
                    "cyan, indigo, pink, orange, teal, lime]\n    numbers: {low: 0, high: 30}\n"
                    "    copies: 10\n    wilds: 50\n    skips: 50\n"
                    "phases: ['10 runs of 5', '10 sets of 5']\n", encoding="utf-8")
    r = run("odds", str(pack), "--json")
    assert r.exit_code == 2
    # ... nor where it is written: a valid pack's phrase is pointed at as the loader's
    # problems are, file, line and column (the line 14, "phases: ['10 runs of 5', ...")
    out = json.loads(r.stdout)
    assert out["error"].startswith(f"{pack}:14:10: phase 1 (10 runs of 5): gave up after"), out
    assert [(p["file"], p["line"], p["column"]) for p in out["problems"]] == [(str(pack), 14, 10)]
    r = run("odds", str(pack))
    assert r.exit_code == 2 and r.stderr.startswith(f"{pack}:14:10: error: phase 1 (10 runs")
    assert "Traceback" not in r.output and "^" in r.stderr  # the line, with a caret
    # an inherited phase is pointed at in the file that writes it
    kid = tmp_path / "kid.yaml"
    kid.write_text("name: kid\ntitle: t\ndescription: d\nsource: s\nextends: bigdeck.yaml\n",
                   encoding="utf-8")
    r = run("odds", str(kid), "--json")
    assert r.exit_code == 2 and json.loads(r.stdout)["problems"][0]["line"] == 14
