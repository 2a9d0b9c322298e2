import json
import time

import pytest
from typer.testing import CliRunner

from phasedsl import PackError, Phase, parse_cards
from phasedsl.api import laid_group
from phasedsl.cli import app
from phasedsl.hits import targets
from phasedsl.layout import verify
from phasedsl.packs import builtin_names, check_file, load_pack, rules_from
from phasedsl.solver import find

runner = CliRunner()


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_pack_validates(name):
    pack, diags = check_file(name, strict=True)
    assert pack is not None
    assert not [d for d in diags if d.severity == "error"]


def test_expected_packs_are_there():
    names = set(builtin_names())
    assert {"original", "masters", "masters-variant-1", "masters-variant-2", "twist",
            "world-tour", "japanese-lists", "utah", "truly-wild", "postal", "anti-phase",
            "floating", "short-game-5", "short-game-8", "even-phases", "odd-phases",
            "pick-a-phase"} <= names
    wt = load_pack("world-tour")
    worlds = {w.name for w in wt.worlds}
    assert len(worlds) == 14 and "okie-circle-j" in worlds
    okie = wt.world("okie-circle-j")
    assert any(g.colors for e in okie.phases for g in e.phase.groups)


def test_masters_has_two_skips_and_extends_original():
    m = load_pack("masters")
    assert m.rules.deck.skips == 2 and m.rules.deck.size == 106
    assert [str(e.phase) for e in m.worlds[0].phases] == \
        [str(e.phase) for e in load_pack("original").worlds[0].phases]


def write(tmp_path, text, name="mine.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


GOOD = """\
name: mine
title: Mine
description: A test pack.
source: tests
phases:
  - "2 sets of 3"
  - "1 run of 4"
"""


def test_errors_point_at_file_line_column(tmp_path):
    p = write(tmp_path, GOOD.replace('"1 run of 4"', '"1 run of fourr"').replace(
        "source: tests", "source: tests\nrulez: {}"))
    pack, diags = check_file(p)
    assert pack is None
    text = "\n".join(map(str, diags))
    assert f"{p}:5:1: error: unknown key 'rulez' (did you mean 'rules'?)" in text
    # the DSL error's column is the column in the file: 'fourr' starts at column 15
    assert f"{p}:8:15: error: phase 2: expected a number after 'of', found 'fourr'" in text


def test_schema_violations_missing_keys_and_bad_values(tmp_path):
    p = write(tmp_path, "name: Bad Name\ntitle: t\nsource: s\nphases: [2]\n"
                        "rules:\n  hand_size: 0\n  phase_order: sideways\n")
    _, diags = check_file(p)
    msgs = [(d.line, d.message) for d in diags]
    assert any("needs a 'description:' key" in m for _, m in msgs)
    assert any(line == 1 and "name" in m for line, m in msgs)
    assert any(line == 6 and "hand_size" in m for line, m in msgs)
    assert any(line == 7 and "sideways" in m for line, m in msgs)


def test_yaml_syntax_error(tmp_path):
    p = write(tmp_path, "name: x\ntitle: [unclosed\n")
    _, diags = check_file(p)
    assert diags[0].line is not None and "YAML syntax" in diags[0].message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: !!python/object:os.system x\n", "not allowed"),
        ("a: &x [1, 2]\nb: *x\n", "aliases"),
        ("lol: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
         "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
         "aliases"),
        ("a: " + "[" * 100 + "]" * 100 + "\n", "nested too deeply"),
        ("name: a\nname: b\n", "duplicate key"),
    ],
)
def test_hostile_yaml_is_refused_fast(tmp_path, text, words):
    p = write(tmp_path, text)
    t = time.perf_counter()
    pack, diags = check_file(p)
    assert time.perf_counter() - t < 2
    assert pack is None and words in diags[0].message


def test_huge_file_refused_fast(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_text("a: " + "x" * 50_000_000)
    t = time.perf_counter()
    with pytest.raises(PackError, match="too large"):
        check_file(p)  # unusable input: the CLI exits 2
    assert time.perf_counter() - t < 2
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 2 and "too large" in r.stdout + r.stderr


def test_validate_cli_exit_codes(tmp_path):
    good = write(tmp_path, GOOD, "mine.yaml")
    bad = write(tmp_path, GOOD.replace("2 sets of 3", "2 sets of"), "bad.yaml")
    r = runner.invoke(app, ["validate", str(good)])
    assert r.exit_code == 0
    r = runner.invoke(app, ["validate", str(good), str(bad)])
    assert r.exit_code == 1 and f"{bad}:6:" in r.stdout
    r = runner.invoke(app, ["validate", str(tmp_path / "missing.yaml")])
    assert r.exit_code == 2


def test_lint_warnings(tmp_path):
    p = write(tmp_path, GOOD.replace('  - "1 run of 4"\n', '  - "1 run of 4"\n  - "2 sets of 3"\n'
                                     '  - "1 color set of 3"\n  - "6 sets of 2"\n'))
    _, diags = check_file(p, strict=True)
    text = "\n".join(d.message for d in diags)
    assert "repeats phase 1" in text
    assert "needs at least 1 wild" in text
    assert "needs 12 cards, but a player holds at most 11" in text
    assert "game_length is 10" in text


def test_extends_cycle_is_reported(tmp_path):
    write(tmp_path, GOOD.replace("name: mine", "name: a") + "extends: b\n", "a.yaml")
    b = write(tmp_path, GOOD.replace("name: mine", "name: b") + "extends: a\n", "b.yaml")
    _, diags = check_file(b)
    assert any("cycle" in d.message for d in diags)


def test_show_and_list_and_schema():
    r = runner.invoke(app, ["show", "masters", "--json"])
    data = json.loads(r.stdout)
    assert data["rules_changed"]["deck.skips"] == 2
    assert data["worlds"][0]["phases"][0]["canonical"] == "2 sets of 3"
    r = runner.invoke(app, ["list", "--json"])
    assert any(p["name"] == "world-tour" and len(p["worlds"]) == 14 for p in json.loads(r.stdout))
    r = runner.invoke(app, ["schema"])
    assert json.loads(r.stdout)["$schema"].startswith("https://json-schema.org")


# ---- each rule option changes a verdict ---------------------------------------------------


def rules(**settings):
    return rules_from(settings)


def made(phrase, hand, r):
    return find(Phase.parse(phrase, r.deck), parse_cards(hand, r.deck), r) is not None


def test_rule_natural_minimum_and_scope():
    assert not made("1 set of 2 + 1 set of 3", "W W W W R5", rules())
    assert made("1 set of 2 + 1 set of 3", "W W W W R5", rules(wilds={"natural_scope": "phase"}))
    assert not made("1 set of 3", "R5 W W", rules(wilds={"natural_minimum": 2}))


def test_rule_sets_share_number():
    assert made("2 sets of 3", "R5 B5 G5 Y5 R5 B5", rules())
    assert not made("2 sets of 3", "R5 B5 G5 Y5 R5 B5", rules(sets={"share_number": False}))


def test_rule_extras():
    layout = [parse_cards("R5 B5 G5 Y5")]
    assert verify(Phase.parse("1 set of 3"), layout, rules()).valid
    assert not verify(Phase.parse("1 set of 3"), layout, rules(lay_down={"extras": False})).valid


def test_rule_deck():
    assert made("1 run of 4", "R10 R11 R12 R13", rules(deck={"numbers": {"low": 1, "high": 13}}))
    assert made("1 color set of 3", "R5 R5 R5", rules(deck={"copies": 3}))


def test_rule_runs_one_color():
    assert made("1 run of 4", "R1 B2 R3 R4", rules())
    assert not made("1 run of 4", "R1 B2 R3 R4", rules(runs={"one_color": True}))


def test_rule_wild_as_skip():
    assert not made("2 skips", "S W", rules())
    assert made("2 skips", "S W", rules(wilds={"as_skip": True}))


def test_rule_wild_swap_and_hit_end():
    run = laid_group("run: R4 R5 W=6 R7")
    assert targets([run], parse_cards("B6")[0], rules()) == []
    assert targets([run], parse_cards("B6")[0], rules(wilds={"swap": True}))
    assert targets([run], parse_cards("W")[0], rules(wilds={"hit_end": "low"}))[0].end == "low"


def test_rule_postal_wild_number():
    pack = load_pack("postal")
    entry, r = pack.phase_entry(1)
    hand = parse_cards("R1 B7 G7 Y9 R9 B9")
    assert find(entry.phase, hand, r) is not None
    assert find(entry.phase, hand, load_pack("original").phase_entry(1)[1]) is None
    # phase 8 is past the postal phases: no wild number
    assert load_pack("postal").phase_entry(8)[1].wild_numbers == frozenset()


def test_rule_scoring():
    from phasedsl.scoring import score

    assert score(parse_cards("W R5"), rules(scoring={"wild": 50})) == 55


def test_deck_sanity_and_file_name(tmp_path):
    bad = write(tmp_path, GOOD.replace("name: mine", "name: other") +
                "rules:\n  deck:\n    numbers: {low: 5, high: 1}\n    colors: [red, rose]\n",
                "mine.yaml")
    _, diags = check_file(bad)
    text = "\n".join(d.message for d in diags)
    assert "differs from the file name" in text
    assert "5 is above 1" in text
    assert "red and rose both start with R" in text


def test_broken_rules_and_phases_are_reported_together(tmp_path):
    p = write(tmp_path, GOOD.replace('"1 run of 4"', '"1 run of"') +
              "rules:\n  deck:\n    skips: many\n")
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "skips" in r.stdout and "expected a number" in r.stdout


def test_long_decks_do_not_stall(tmp_path):
    import time

    p = write(tmp_path, "name: mine\ntitle: t\ndescription: d\nsource: s\n"
                        "rules:\n  deck: {numbers: {low: 1, high: 30}}\nphases: [\"1 run of 4\"]\n")
    t = time.perf_counter()
    r = runner.invoke(app, ["check", "--variant", str(p), "--phase", "1", "R27 R28 R29 R30"])
    assert r.exit_code == 0 and time.perf_counter() - t < 10
