import json

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
        assert out[0] == {"line": 1, "error": "line too long (over 1000000 characters, the limit)"}
        assert out[1]["line"] == 2 and "error" not in out[1]
