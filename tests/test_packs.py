import json
import os
import time

import pytest
from typer.testing import CliRunner

from phasedsl import PackError, Phase, PhaseDSLError, parse_cards
from phasedsl.api import laid_group
from phasedsl.cli import app
from phasedsl.melds.hits import targets
from phasedsl.melds.layout import verify
from phasedsl.packs.pack import builtin_names, check_file, load_pack, rules_from
from phasedsl.solver import find

runner = CliRunner()


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_pack_validates(name):
    pack, diags = check_file(name, strict=True)
    assert pack is not None
    assert not [d for d in diags if d.severity == "error"], diags


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



@pytest.mark.parametrize(("written", "line", "column"), [
    # a phrase folded over lines: the error is on the line that holds it, not past the
    # end of the first line or at the block's indicator (it was 7:14, 7:15 or 7:5)
    ('>-\n    1 run of\n    fourr', 9, 5),
    ('|\n    1 run of\n    fourr', 9, 5),
    ('1 run of\n    fourr', 8, 5),
    ('"1 run of\n    fourr"', 8, 5),
    # the end of a block's phrase: the end of its line, not the key after it (or 7:5)
    ('|\n    1 run of\nrules: {hand_size: 10}', 8, 13),
    # an escape before the error: the phrase's start, not a column shifted by it (7:15)
    ('"1 run \\u006ff fourr"', 7, 5),
    ('"1\\x20run of fourr"', 7, 5),
    # written as it reads: the column of the error itself
    ('"1 run of fourr"', 7, 15),
    ('{phase: "1 run of fourr"}', 7, 23),
])
def test_a_phrase_error_points_where_it_is_written(tmp_path, written, line, column):
    p = write(tmp_path, GOOD.replace('"1 run of 4"', written))
    _, diags = check_file(p)
    got = [(d.line, d.column) for d in diags if d.message.startswith("phase 2:")]
    assert got == [(line, column)], (written, diags)


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
    assert time.perf_counter() - t < 5  # a hang guard, not a benchmark
    # (a tag or a key given twice is said with the file's other problems)
    assert pack is None and any(words in d.message for d in diags)


def test_deep_brackets_are_refused_at_the_33rd_before_yaml_reads_them(monkeypatch):
    # PyYAML's scanner is quadratic in open brackets: 2,000 '[' took a second to refuse,
    # composed until Python's recursion limit; now never composed
    from phasedsl.packs import yamlsafe
    from phasedsl.packs.yamlsafe import MAX_DEPTH, YamlProblem, load

    def composed(*args, **kwargs):
        raise AssertionError("composed")

    real = yamlsafe.yaml.compose
    monkeypatch.setattr(yamlsafe.yaml, "compose", composed)
    for opener in ("[", "{a: ", "[x, "):
        with pytest.raises(YamlProblem) as e:
            load("a: " + opener * 200_000)
        assert e.value.mark.line == 1 and e.value.mark.column == 4 + len(opener) * MAX_DEPTH
    # brackets in a quoted phrase, a comment or a block of text nest nothing: the quick
    # look is confirmed by YAML's own events before a file is refused
    deep = "[" * 40
    ok = (f'a: "{deep}"\nb: \'{deep}\'  # {deep}\nc: |\n  {deep}\n  it\'s [\nd: [[1]]\n')
    monkeypatch.setattr(yamlsafe.yaml, "compose", real)
    assert load(ok).value == {"a": deep, "b": deep, "c": f"{deep}\nit's [\n", "d": [[1]]}


def test_huge_file_refused_fast(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_text("a: " + "x" * 50_000_000)
    t = time.perf_counter()
    with pytest.raises(PackError, match="too large"):
        check_file(p)  # unusable input: the CLI exits 2
    assert time.perf_counter() - t < 5  # a hang guard, not a benchmark
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
    write(tmp_path, GOOD.replace("name: mine", "name: a") + "extends: b.yaml\n", "a.yaml")
    b = write(tmp_path, GOOD.replace("name: mine", "name: b") + "extends: a.yaml\n", "b.yaml")
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
    from phasedsl.melds.scoring import score

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


# ---- messages for a person who writes YAML (issue 7, items 12-14, 16, 22) --------------------

HEAD = "name: mine\ntitle: t\ndescription: d\nsource: s\n"
RAW = ("{'", "None", "True", "False", "is not of type", "is not valid under", "should not be valid",
       "does not match", "is a required property", "Additional properties", "^[", "$ref",
       "non-unique", "is less than the minimum")


def messages(tmp_path, text):
    p = write(tmp_path, text)
    _, diags = check_file(p)
    assert diags, "the pack should have problems"
    out = [(d.line, d.column, d.message) for d in diags]
    for _, _, m in out:
        assert not any(raw in m for raw in RAW), m
    return out


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        # not: both phases and worlds
        (HEAD + "phases: ['2 sets of 3']\nworlds:\n  - {name: a, title: A, phases: ['1 run of 4']}\n",
         6, "either 'phases:' (one phase list) or 'worlds:' (several named lists), not both"),
        # anyOf of required: neither
        (HEAD, 1, "the pack needs one of the keys 'phases:', 'worlds:', 'extends:'"),
        # required
        ("name: mine\ntitle: t\nsource: s\nphases: ['2 sets of 3']\n", 1,
         "the pack needs a 'description:' key"),
        (HEAD + "phases:\n  - {name: x}\n", 6, "phase 1 needs a 'phase:' key"),
        (HEAD + "worlds:\n  - {name: a, phases: ['2 sets of 3']}\n", 6, "world a needs a 'title:' key"),
        # additionalProperties inside a oneOf branch: a typo'd key in a phase entry
        (HEAD + "phases:\n  - {nmae: a, phase: '2 sets of 3'}\n", 6,
         "phase 1: unknown key 'nmae' (did you mean 'name'?)"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  deck: {zzz: 1}\n", 7,
         "rules.deck: unknown key 'zzz' (the keys allowed here: colors, copies, numbers, skips, "
         "wilds)"),
        # oneOf null | integer with a minimum
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  house_rules: {fixed_hands: 0}\n", 7,
         "rules.house_rules.fixed_hands: 0 is too small: the least allowed is 1"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  house_rules: {fixed_hands: ten}\n", 7,
         'rules.house_rules.fixed_hands: expected null (nothing) or a whole number, found the '
         'text "ten"'),
        # oneOf string | object with neither
        (HEAD + "phases: [2]\n", 5, 'phase 1: a phase is text ("2 sets of 3") or a mapping'),
        # type
        (HEAD.replace("source: s", "source: null") + "phases: ['2 sets of 3']\n", 4,
         "source: expected text, found nothing (null)"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  deck: {skips: many}\n", 7,
         'rules.deck.skips: expected a whole number, found the text "many"'),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  runs: {one_color: 1}\n", 7,
         "rules.runs.one_color: expected true or false, found the number 1"),
        (HEAD + "phases: ['2 sets of 3']\nrules: [1]\n", 6,
         "rules: expected a mapping (key: value lines), found a list"),
        # pattern
        (HEAD.replace("name: mine", "name: Bad Name") + "phases: ['2 sets of 3']\n", 1,
         '"Bad Name" is not allowed: a name is lowercase letters and digits, in words joined by '
         "single dashes"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  deck: {colors: [red, Sky]}\n", 7,
         "rules.deck.colors, item 2: \"Sky\" is not allowed: a color name is lowercase letters"),
        # enum (with a did-you-mean)
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  phase_order: in-order\n", 7,
         'rules.phase_order: "in-order" is not one of: in_order, any, even_only, odd_only '
         "(did you mean 'in_order'?)"),
        # minimum / maximum
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  hand_size: 0\n", 7,
         "rules.hand_size: 0 is too small: the least allowed is 1"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  hand_size: 99\n", 7,
         "rules.hand_size: 99 is too large: the most allowed is 50"),
        # minLength / maxLength
        (HEAD.replace("title: t", "title: ''") + "phases: ['2 sets of 3']\n", 2,
         "title: must not be empty"),
        (HEAD.replace("title: t", "title: " + "x" * 201) + "phases: ['2 sets of 3']\n", 2,
         "title: is too long (201 characters; at most 200)"),
        # minItems / maxItems / uniqueItems
        (HEAD + "phases: []\n", 5, "phases: the list is empty: give at least one item"),
        (HEAD + "phases: [" + ", ".join(["'1 run of 4'"] * 101) + "]\n", 5,
         "phases: 101 items is too many: at most 100"),
        (HEAD + "phases: ['2 sets of 3']\nrules:\n  deck: {colors: [red, blue, red]}\n", 7,
         'rules.deck.colors: "red" is listed twice'),
    ],
)
def test_schema_messages_are_for_people_who_write_yaml(tmp_path, text, line, words):
    found = messages(tmp_path, text)
    assert any(words in m and ln == line for ln, _, m in found), found


def test_every_schema_keyword_has_its_own_words():
    """A keyword added to the schema must get words in packs._explain (no raw text slips out)."""
    import inspect

    from phasedsl.packs import pack as packs

    used: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            used.update(k for k in node if k in {
                "type", "required", "additionalProperties", "pattern", "minimum", "maximum",
                "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "enum", "oneOf",
                "anyOf", "not", "const", "format", "exclusiveMinimum", "exclusiveMaximum"})
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(packs.schema())
    source = inspect.getsource(packs._explain)
    for keyword in used:
        assert f'"{keyword}"' in source, keyword


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("name: x\ntitle: y\nphases:\n  - a\n - b\n", 5, 2,
         "the indentation of this line does not match the lines above it"),
        ("name: x\nrules:\n  deck: {}\n hand_size: 3\n", 4, 2,
         "the indentation of this line does not match the lines above it"),
        ("title: a: b\n", 1, 9, "put a value that contains ': ' in quotes"),
        ("name: x\ntitle\nsource: s\n", 2, 1, "a ':' after the key is missing"),
        ('name: "abc\ntitle: x\n', 1, 7, "this quote is never closed"),
        ("name: 'abc\ntitle: x\n", 1, 7, "this quote is never closed"),
        ("phases: [1, 2\nname: x\n", 1, 9, "the '[' opened here is never closed with ']'"),
        ("rules: {a: 1\nname: x\n", 1, 8, "the '{' opened here is never closed with '}'"),
        ("rules: {a: 1 b: 2}\n", 1, 15, "a ',' (between items) or the closing '}' is missing"),
        ("rules:\n\thand_size: 3\n", 2, 1, "a tab character: YAML indents with spaces only"),
        ("name: @x\n", 1, 7, "a value cannot start with '@': put the text in quotes"),
        ('name: "a\\qb"\n', 1, 10, "'q' after a backslash is not an escape"),
        ('name: "a" b\n', 1, 11, "text after a closing quote"),
        ("name: a\n---\nname: b\n", 2, 1, "a pack is one YAML document"),
    ],
)
def test_yaml_syntax_errors_in_plain_words(tmp_path, text, line, column, words):
    p = write(tmp_path, text)
    _, diags = check_file(p)
    d = diags[0]
    assert (d.line, d.column) == (line, column), d
    assert words in d.message and "<block" not in d.message and "expected" not in d.message
    assert d.source == text.splitlines()[line - 1]  # the line and caret are shown


def test_rare_yaml_problems_keep_pyyaml_words(tmp_path):
    p = write(tmp_path, "a: |x\n  b\n")
    _, diags = check_file(p)
    assert "PyYAML's words" in diags[0].message and diags[0].line == 1


def test_wrong_pack_name_gets_did_you_mean():
    with pytest.raises(PackError, match="did you mean 'original'"):
        load_pack("orignal")
    r = runner.invoke(app, ["show", "orignal"])
    assert r.exit_code == 2 and "did you mean 'original'" in r.stderr
    r = runner.invoke(app, ["check", "--variant", "mastres", "--phase", "1", "R1"])
    assert r.exit_code == 2 and "did you mean 'masters'" in r.stderr


def test_load_pack_of_nothing_raises_pack_error():
    with pytest.raises(PackError) as e:
        load_pack("nope")
    assert e.value.problems and "no pack 'nope'" in e.value.problems[0].message
    with pytest.raises(PackError, match="cannot read"):
        load_pack("nope.yaml")


def test_extends_an_unknown_pack_gets_did_you_mean(tmp_path):
    p = write(tmp_path, HEAD + "extends: orignal\n")
    _, diags = check_file(p)
    assert diags[0].line == 5 and "extends 'orignal': no pack 'orignal' (did you mean " \
        "'original'?)" in diags[0].message


def test_world_by_name_title_and_did_you_mean():
    wt = load_pack("world-tour")
    assert wt.world("Jazz Club").name == "jazz-club"
    assert wt.world("jazz  CLUB").name == "jazz-club"
    assert wt.phase_entry(1, "Okie Circle J")[0] == wt.phase_entry(1, "okie-circle-j")[0]
    with pytest.raises(PhaseDSLError, match="did you mean 'jazz-club'"):
        wt.world("jazz")
    with pytest.raises(PhaseDSLError, match="did you mean 'island-paradise'"):
        wt.phase_entry(1, "island paradis")
    r = runner.invoke(app, ["show", "world-tour", "--world", "jazz"])
    assert r.exit_code == 2 and "did you mean 'jazz-club'" in r.stderr
    r = runner.invoke(app, ["show", "world-tour", "--world", "Jazz Club"])
    assert r.exit_code == 0 and "Jazz Club [jazz-club]" in r.stdout
    r = runner.invoke(app, ["check", "-v", "world-tour", "--world", "Jazz Club", "-p", "4",
                            "R1 R2 R3 R4"])
    assert r.exit_code == 0


def test_lint_postal_caret_points_at_through_phase(tmp_path):
    p = write(tmp_path, HEAD + "phases: ['2 sets of 3']\nrules:\n  game_length: 1\n  postal:\n"
                              "    enabled: true\n    through_phase: 20\n")
    _, diags = check_file(p, strict=True)
    (d,) = [d for d in diags if "through_phase" in d.message]
    assert (d.line, d.column) == (10, 20) and d.source.strip() == "through_phase: 20"


def test_clashing_color_letters_are_named_from_the_deck(tmp_path):
    p = write(tmp_path, HEAD + "phases: ['2 sets of 3']\nrules:\n  deck:\n"
                              "    colors: [red, blue, purple, pink]\n")
    _, diags = check_file(p)
    (d,) = diags
    assert d.line == 8 and "purple and pink both start with P" in d.message
    assert "P5 could not say which is meant" in d.message and "(R5 is the red 5)" in d.message
    p = write(tmp_path, HEAD + "phases: ['2 sets of 3']\nrules:\n  deck:\n"
                              "    colors: [pink, purple, blue, bronze]\n")
    text = " ".join(d.message for d in check_file(p)[1])
    assert "red" not in text and "P5" in text and "B5" in text  # no color the deck lacks


# ---- phase_order: --phase N and the odds follow the phases a game plays (item 25) -------------


def test_even_and_odd_packs_play_only_their_phases():
    even, odd = load_pack("even-phases").world(None), load_pack("odd-phases").world(None)
    assert [e.number for e in even.played] == [2, 4, 6, 8, 10]
    assert [e.number for e in odd.played] == [1, 3, 5, 7, 9]
    assert load_pack("original").world(None).played == load_pack("original").world(None).phases
    r = runner.invoke(app, ["check", "--variant", "even-phases", "--phase", "1", "R1 R1 B1 B2 B2 G2"])
    assert r.exit_code == 2
    assert "plays only phases 2, 4, 6, 8, 10 (phase_order: even_only); phase 1 is not played" \
        in r.stderr
    # --phase N is the printed phase number: even-phases' phase 2 is the original phase 2
    r = runner.invoke(app, ["check", "--variant", "even-phases", "--phase", "2", "--json",
                            "R1 B1 G1 R4 R5 R6 R7"])
    assert r.exit_code == 0 and json.loads(r.stdout)["phase"] == "1 set of 3 + 1 run of 4"
    with pytest.raises(PhaseDSLError, match="phase 2 is not played"):
        load_pack("odd-phases").phase_entry(2)


def test_odds_report_ranks_only_the_phases_played(tmp_path):
    p = write(tmp_path, "name: mine\ntitle: t\ndescription: d\nsource: s\n"
                        "phases: ['1 wild', '1 skip', '1 set of 2', '2 skips']\n"
                        "rules:\n  phase_order: even_only\n  game_length: 2\n")
    r = runner.invoke(app, ["odds", "--variant", str(p), "--json"])
    assert r.exit_code == 0
    assert [row["number"] for row in json.loads(r.stdout)["phases"]] == ["2", "4"]


# ---- pack semantics, notes and sources (items 26-30) ------------------------------------------


def test_going_out_by_playing_all_cards_is_not_floating(tmp_path):
    hr = load_pack("playing-cards").settings["house_rules"]
    assert hr["go_out_without_discard"] is True and hr.get("floating", False) is False
    hr = load_pack("floating").settings["house_rules"]
    assert hr["floating"] is True and hr.get("go_out_without_discard", False) is False
    props = schema_rule("house_rules")["properties"]
    assert "does not end" in props["floating"]["description"]
    assert "ends at once" in props["go_out_without_discard"]["description"]
    p = write(tmp_path, GOOD + "rules:\n  game_length: 2\n  house_rules:\n    floating: true\n"
                              "    go_out_without_discard: true\n")
    _, diags = check_file(p, strict=True)
    assert any("contradicts go_out_without_discard" in d.message for d in diags)


def schema_rule(key):
    from phasedsl.packs.pack import schema

    return schema()["$defs"]["rules"]["properties"][key]


def test_utah_swap_and_the_japanese_take_back_are_separate_options(tmp_path):
    utah, jp = load_pack("utah"), load_pack("japanese-wild-rules")
    assert utah.rules.wild_swap and not utah.rules.wild_take_back
    assert jp.rules.wild_take_back and not jp.rules.wild_swap
    assert "moves" in utah.description and "end of the same run" in utah.description
    assert "to play elsewhere" not in utah.description
    assert "taken into the hand" in jp.description
    assert "take_back" in schema_rule("wilds")["properties"]
    from phasedsl.model.rules import Rules, RulesError

    with pytest.raises(RulesError, match="wild_take_back"):
        Rules(wild_take_back="yes")
    # the take-back's cost and timing need the take-back, not the Utah swap
    p = write(tmp_path, GOOD + "rules:\n  game_length: 2\n  wilds: {swap: true}\n"
                              "  house_rules: {wild_steal_penalty: 25}\n")
    _, diags = check_file(p, strict=True)
    assert any("wilds.take_back is false" in d.message for d in diags)
    assert not [d for d in check_file("japanese-wild-rules", strict=True)[1]]


def test_original_says_whom_a_skip_may_skip_where_the_sources_disagree():
    # the English and Japanese pages say the next player cannot be skipped, the Thai page that
    # a skip always skips the next player; the default (any other player) must say so
    original, thai = load_pack("original"), load_pack("thai")
    text = " ".join(original.description.split())
    assert original.settings["house_rules"]["skip_target"] == "choose"
    assert "the player who plays next cannot be skipped" in text
    assert "skip_target: next_player, the thai pack" in text
    assert thai.settings["house_rules"]["skip_target"] == "next_player"


def test_pack_notes_for_uncertain_readings():
    wt = load_pack("world-tour").world("vintage-gas-station")
    assert "4色1セット＋2セット" in wt.note and "garbled" in wt.note
    assert "no size" in wt.phases[5].note and "garbled" in wt.phases[9].note
    jl = load_pack("japanese-lists").world("japanese-list-12")
    p10 = jl.phases[9]
    assert "color sets of 3" in p10.note and "3-card color groups" in p10.note
    assert "3 of the 8 wilds" in p10.note  # why one reading was chosen
    thai = load_pack("thai")
    assert thai.rules.natural_scope == "phase" and '"in this phase"' in thai.description
    # the Thai reading changes a verdict: one natural card in the whole phase is enough
    hand = parse_cards("W W W W R5")
    phase = Phase.parse("1 set of 2 + 1 set of 3")
    assert find(phase, hand, thai.rules) is not None
    assert find(phase, hand, load_pack("original").rules) is None


def _strings(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node


def test_sources_are_ones_a_reader_can_find():
    import re

    from phasedsl.packs.pack import schema
    from phasedsl.packs.yamlsafe import load
    from phasedsl.system.resources import variants_dir

    internal = re.compile(r"\bseeds?\b|RULES-NOTES|\b00[0-2]\b", re.I)
    shipped = [("schema", s) for s in _strings(schema())]
    for name in builtin_names():
        doc = load((variants_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
        shipped += [(name, s) for s in _strings(doc.value)]
        r = runner.invoke(app, ["show", name])
        shipped.append((f"show {name}", r.stdout))
    bad = [(where, m.group()) for where, s in shipped for m in [internal.search(s)] if m]
    assert not bad
    for name in builtin_names():
        src = load_pack(name).source
        assert any(w in src for w in ("Wikipedia", "Thai-language", "Barnhart", "booklet")), name


def test_shipped_packs_lint_clean():
    from phasedsl.system.resources import variants_dir

    files = sorted(str(p) for p in variants_dir().glob("*.yaml"))
    r = runner.invoke(app, ["lint", *files])
    assert r.exit_code == 0, r.stdout
    assert "error:" not in r.stdout and "warning:" not in r.stdout


def test_take_back_is_offered_as_a_hit_under_its_own_option():
    from phasedsl.model.cards import Card

    run, st = laid_group("run: R4 R5 W R7"), laid_group("set: R5 B5 W")
    jp = load_pack("japanese-wild-rules").rules
    (h,) = targets([run], Card.parse("B6"), jp)
    assert h.swap is not None and h.end is None and h.to_json()["wild_to_hand"] is True
    assert str(h) == "B6 replaces W=6 in group 1; the wild goes to your hand"
    assert targets([run], Card.parse("B6"), load_pack("original").rules) == []
    # Utah's swap moves the wild to an end and never to the hand
    assert all(h.end is not None for h in targets([run], Card.parse("B6"), load_pack("utah").rules))
    got = [str(h) for h in targets([st], Card.parse("G5"), jp)]
    assert got == ["G5 onto group 1", "G5 replaces W in group 1; the wild goes to your hand"]
    r = runner.invoke(app, ["hit", "B6", "--on", "run: R4 R5 W R7", "--variant",
                            "japanese-wild-rules"])
    assert "B6 replaces W=6 in group 1; the wild goes to your hand" in r.stdout
    # the plan takes the wild back and plays it at an end (it said B6 was left)
    assert r.stdout.endswith("play in this order:\n  B6 replaces W=6 in group 1; the wild goes "
                             "to your hand\n  W onto group 1 at the high end (as 8)\n"
                             "the card is placed\n"), r.stdout
    full = "run: " + " ".join("W" if n == 6 else f"R{n}" for n in range(1, 13))
    r = runner.invoke(app, ["hit", "B6", "--on", full, "--variant", "japanese-wild-rules"])
    assert "B6: fits only by taking a wild back (above), and no group has room for the wild " \
           "that frees" in r.stdout


def test_a_missing_key_is_said_once(tmp_path):
    p = tmp_path / "a.yaml"
    p.write_text("name: a\n", encoding="utf-8")
    _, diags = check_file(str(p))
    msgs = [d.message for d in diags]
    assert len(msgs) == len(set(msgs)) == 2, msgs
    assert "title:" in msgs[0] and "phases:" in msgs[1]


def test_lint_warns_about_phases_the_rules_leave_no_natural_for():
    from phasedsl import Rules
    from phasedsl.packs.lint import phase_warnings

    warned = phase_warnings(Phase.parse("2 wilds + 1 skip"), Rules(natural_scope="phase"))
    assert any("only wild and skip parts" in w for w in warned)
    cmap = Phase.parse("1 run of 4 with colors {3: red, 4: blue, 5: red, 6: blue}")
    assert not any("never" in w for w in phase_warnings(cmap, Rules()))
    assert any("no color is allowed" in w for w in phase_warnings(cmap, Rules(runs_one_color=True)))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_pack_path_with_no_size_is_refused_unread():
    # /dev/zero reports size 0: reading it whole never ended; a device is no pack file
    with pytest.raises(PackError, match="not a regular file"):
        check_file("/dev/zero")


def test_a_pack_saved_with_a_byte_order_mark_is_quoted_without_it_caret_on_the_column(tmp_path):
    # the quoted line showed '\ufeff' and its caret fell a column short of YAML's column
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffname: x\ntitle: t\ndescription: d\nsource: s\nphases: ['2 sets of 3']\n"
                     .encode())
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 1  # (validate: the pack has errors)
    assert "bom.yaml:1:7: error: name 'x' differs" in r.output
    assert "    name: x\n          ^" in r.output and "ufeff" not in r.output
    path.write_bytes('\ufeffname: "x" y\n'.encode())  # a YAML syntax error, its caret too
    r = runner.invoke(app, ["validate", str(path)])
    assert "bom.yaml:1:11: error: YAML syntax: text after a closing quote" in r.output
    assert '    name: "x" y\n              ^' in r.output and "ufeff" not in r.output
