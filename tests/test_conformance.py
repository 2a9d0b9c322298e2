"""Issue 17: the conformance suite (vectors, export, runner, adapter)."""

from __future__ import annotations

import gzip
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from phasedsl.conformance import AREAS, SHIPPED, answer, load, rule_features
from phasedsl.conformance import cases as case_families
from phasedsl.conformance.bruteforce import can_make, confirm_hand, layout_ok, spec_of
from phasedsl.conformance.cases import games as game_cases
from phasedsl.conformance.export import ReferenceDisagrees, area_cases, export, texts
from phasedsl.conformance.ruleset import changes, feature_name, flatten, printed, solver_rules, with_changes
from phasedsl.model.cards import parse_cards
from phasedsl.model.group import Kind
from phasedsl.model.phase import Phase
from phasedsl.model.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ADAPTER = [PY, "-m", "phasedsl", "conformance", "adapter"]
VECTORS = load()


def cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "phasedsl", *args], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, timeout=timeout)


def all_cases() -> list[tuple[str, dict]]:
    return [(a, c) for a in AREAS for c in VECTORS[a]]


# ---------------------------------------------------------------------------- the vectors


def test_the_shipped_vectors_are_a_fresh_export_byte_for_byte():
    # made in another process (another hash seed): the export is deterministic
    fresh = texts()
    for name, text in fresh.items():
        path = SHIPPED / (name if name == "README.md" else name + ".gz")
        shipped = path.read_bytes()
        if name != "README.md":
            shipped = gzip.decompress(shipped)
        assert shipped.decode("utf-8") == text, (
            f"{path} is stale: run python -m phasedsl.conformance.export")


def test_sizes_counts_and_case_shape():
    total = sum(len(v) for v in VECTORS.values())
    assert total >= 3000
    assert len(VECTORS["games"]) >= 300
    assert sum(p.stat().st_size for p in SHIPPED.iterdir()) < 3_000_000
    ids = [c["id"] for _, c in all_cases()]
    assert len(ids) == len(set(ids))
    for area, c in all_cases():
        assert list(c) == ["id", "description", "features", "rules", "input", "expected"]
        assert c["id"].startswith(area + "-") and re.fullmatch(r"[a-z0-9=-]+", c["id"].lower())
        assert c["description"] and "\n" not in c["description"]
        # the rules in full: every key of the printed rules is there
        assert set(c["rules"]) == set(printed()) and c["features"] == sorted(set(c["features"]))


def test_the_readme_tables_give_the_counts():
    readme = (ROOT / "docs" / "how-to" / "conformance-suite.md").read_text(encoding="utf-8")
    shipped = (SHIPPED / "README.md").read_text(encoding="utf-8")
    for area in AREAS:
        n = len(VECTORS[area])
        assert re.search(rf"^\| `{area}` \| [^|]+ \| {n} \|$", readme, re.M), area
        assert f"| `{area}` | {n} |" in shipped
    assert f"| all | | {sum(len(v) for v in VECTORS.values())} |" in readme


def test_every_builtin_phase_has_made_and_short_hands_and_layouts():
    from phasedsl.conformance.cases.common import pack_phases

    ids = {c["id"] for _, c in all_cases()}
    keys = [k for k, *_ in pack_phases()]
    assert len(keys) > 300
    for k in keys:
        assert {f"hands-pack-{k}-made", f"hands-pack-{k}-short", f"layouts-pack-{k}-legal",
                f"layouts-pack-{k}-broken", f"phrases-pack-{k}"} <= ids, k
    made = {c["id"]: c["expected"]["made"] for c in VECTORS["hands"]}
    assert all(made[f"hands-pack-{k}-made"] for k in keys)
    assert not any(made[f"hands-pack-{k}-short"] for k in keys)


def test_coverage_of_kinds_rule_codes_and_corners():
    kinds = {g["kind"] for c in VECTORS["phrases"] for g in c["expected"].get("groups", [])}
    assert kinds == {k.value for k in Kind}
    codes = {p["rule"] for c in VECTORS["layouts"] for p in c["expected"]["problems"]}
    assert {"size", "same_number", "one_color", "parity", "consecutive", "distinct_numbers",
            "skip", "natural_minimum", "group_count", "wild_part", "skip_part", "bounds",
            "color_map", "deck_supply", "total", "pairs", "over_under", "skip_as_blue"} <= codes
    game_codes = {c["expected"]["error"]["rule"] for c in VECTORS["games"] if c["expected"]["error"]}
    assert referee_codes() - UNREACHABLE_CODES <= game_codes, referee_codes() - game_codes
    assert referee_codes() >= UNREACHABLE_CODES  # (each one still a code of the referee)
    feats = {f for _, c in all_cases() for f in c["features"]}
    assert {"natural_minimum", "natural_scope", "sets_share_number", "extras", "wild_numbers",
            "wild_swap", "wild_take_back", "runs_one_color", "wild_as_skip", "scoring",
            "phase_order", "postal", "runs_wrap", "skip_counts_as_blue"} <= feats
    whole = [c for c in VECTORS["games"] if c["id"].startswith("games-whole-")]
    # every pack played, a pack with several worlds too (its cases were dropped: the log
    # named a world the case's one-world pack does not have)
    assert len(whole) == len(game_cases.GAME_PACKS)
    assert {"games-whole-world-tour-jazz-club-1", "games-whole-japanese-lists-japanese-list-2-1"} <= {
        c["id"] for c in whole}
    assert whole and all(c["expected"]["legal"] and c["expected"]["hands"] for c in whole)
    assert any(c["expected"]["winner"] for c in whole)
    # an all-wild group is made under the printed rules only with natural_minimum 0
    by_id = {c["id"]: c for c in VECTORS["hands"]}
    assert by_id["hands-corner-000-printed"]["expected"]["made"] is False
    assert by_id["hands-corner-000-natural-minimum-0"]["expected"]["made"] is True
    assert by_id["hands-corner-000-natural-minimum-0"]["features"] == ["natural_minimum"]


# Rule codes of the referee that no log can reach, each with why.
UNREACHABLE_CODES = {
    # engine.apply of an object that is no move: a log's every event type reads as a move
    # (an unknown type is a log error, exit 2, not a rule)
    "unknown_move",
    # a Draw made in Python from no such source: a log's "from" is read as deck, discard or
    # save, or refused as unreadable (exit 2) before any rule
    "bad_draw",
    # a move made in Python with a field of the wrong type (Discard("ann", "R5")): a log's
    # every field is read into its type, or refused as unreadable (exit 2)
    "bad_move",
}


def referee_codes() -> set[str]:
    """Every rule code the referee raises: IllegalMove("code", ...) in phasedsl/game/*.py,
    and the going-out problems it raises as IllegalMove(*problem)."""
    found = set()
    for path in (ROOT / "phasedsl" / "game").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'IllegalMove\(\s*"([a-z_]+)"', text))
        found |= set(re.findall(r'return \("(cannot_go_out_[a-z_]+)"', text))
    return found


def test_the_referee_codes_are_read_from_the_source():
    codes = referee_codes()
    assert {"not_your_turn", "skip_twice_in_round", "must_reuse_wild", "cannot_go_out_yet",
            "cannot_go_out_by_play", "unknown_move", "stop_not_allowed"} <= codes
    assert len(codes) >= 40


def test_each_hand_written_fragment_says_what_its_row_says():
    got = {c["id"]: c for c in VECTORS["games"] if c["id"].startswith("games-hand-")}
    for name, description, _, _, _, _, want in game_cases.FRAGMENTS:
        case = got[f"games-hand-{name}"]
        exp = case["expected"]
        assert case["description"] == description
        if want == "legal":
            assert exp["legal"] and exp["error"] is None, name
        else:
            assert exp["error"] == {"line": len(case["input"]["log"]), "rule": want}, name
    # the corners the rows are there for
    assert got["games-hand-hit-end"]["features"] == []
    assert got["games-hand-hit-end-low"]["features"] == ["hit_end"]
    assert got["games-hand-hit-end"]["input"]["log"] == got["games-hand-hit-end-low"]["input"]["log"]
    assert got["games-hand-tie-lowest-score"]["expected"]["winner"] == "ann"
    assert got["games-hand-tie-replay-last-phase"]["expected"]["winner"] is None
    assert got["games-hand-tie-replay-last-phase"]["features"] == ["tie_break"]
    assert got["games-hand-out-by-skip"]["expected"]["hands"][0]["went_out"] == "ann"
    assert got["games-hand-skip-twice-allowed"]["features"] == ["skip_once_per_round"]


def test_probes_cover_each_pack_and_say_the_code_of_their_last_line():
    probes = [c for c in VECTORS["games"] if c["id"].startswith("games-probe-")]
    packs = {c["id"].removeprefix("games-probe-").rsplit("-", 2)[0] for c in probes}
    for name, world in game_cases.GAME_PACKS:
        assert any(p.startswith(f"{name}{'-' + world if world else ''}") for p in packs), name
    legal_kinds = set()
    for c in probes:
        exp, last = c["expected"], c["input"]["log"][-1]
        if exp["legal"]:
            legal_kinds.add(last["type"])
            assert f"-legal-{last['type']}-" in c["id"], c["id"]
        else:
            assert exp["error"]["line"] == len(c["input"]["log"]), c["id"]
            assert c["id"].endswith(f"-{exp['error']['rule'].replace('_', '-')}-{c['id'][-1]}"), c["id"]
    assert {"draw", "discard", "lay", "hit"} <= legal_kinds
    # bounded: at most two cases of a code and one legal move of a type in a pack
    per = {}
    for c in probes:
        head, _, n = c["id"].rpartition("-")
        per[head] = max(per.get(head, 0), int(n) + 1)
    assert max(v for k, v in per.items() if "-legal-" not in k) == 2
    assert max(v for k, v in per.items() if "-legal-" in k) == 1


def test_the_move_test_and_the_probes_share_one_candidates():
    from phasedsl.game import Game
    from phasedsl.game import moves as mv
    from phasedsl.game.candidates import candidates

    text = (ROOT / "tests" / "test_referee_once.py").read_text(encoding="utf-8")
    assert "from phasedsl.game.candidates import candidates" in text
    assert "def candidates" not in text
    g = Game.new("original", ["ann", "bob"], seed=4)
    tried = game_cases.probe_moves(g.state)
    assert set(candidates(g.state)) <= set(tried)
    assert any(isinstance(m, mv.Stop) for m in tried) and any(isinstance(m, mv.Deal) for m in tried)


def test_every_case_answers_as_expected_in_process():
    for area, c in all_cases():
        assert answer(area, c["rules"], c["input"]) == c["expected"], c["id"]


def _without(rules: dict, feature: str) -> dict:
    """``rules`` with every rule named ``feature`` put back to the printed one."""
    flat_base = flatten(printed())
    back = {k: flat_base[k] for k in changes(rules) if feature_name(k) == feature}
    return with_changes(rules, back)


def _tried(area: str, rules: dict, inp: dict) -> object:
    try:
        return answer(area, rules, inp)
    except Exception as e:  # an input the printed rules cannot read: a change too
        return ("error", type(e).__name__)


def test_features_are_honest():
    """Under the printed rules a case's answer changes only if it names a feature, and
    each feature it names matters on its own."""
    checked = 0
    for area, c in all_cases():
        if not c["features"]:
            assert c["rules"] == printed(), c["id"]  # nothing else differs
            continue
        assert sorted({feature_name(k) for k in changes(c["rules"])}) == c["features"], c["id"]
        if c["id"].startswith("games-hand-"):
            continue  # (they keep the rules their corner was written for)
        assert _tried(area, printed(), c["input"]) != c["expected"], c["id"]
        for f in c["features"]:
            assert _tried(area, _without(c["rules"], f), c["input"]) != c["expected"], (c["id"], f)
        checked += 1
    assert checked > 400


# ---------------------------------------------------------------------------- the reference


def test_the_reference_disagrees_with_wrong_answers():
    rules = Rules()
    spec = spec_of(rules)
    phase = Phase.parse("1 set of 3 + 1 run of 4")
    hand = parse_cards("R5 B5 G7 G8 G10 Y1 W")
    right = answer("hands", printed(), {"phase": str(phase), "hand": [str(c) for c in hand]})
    assert confirm_hand(phase, hand, spec, right) is None
    assert confirm_hand(phase, hand, spec, {**right, "made": True}) is not None
    assert confirm_hand(phase, hand, spec, {**right, "outs": right["outs"][:-1]}) is not None
    assert confirm_hand(phase, hand, spec, {**right, "short_by": 2, "outs": []}) is not None
    assert can_make(Phase.parse("1 set of 3"), parse_cards("W W W"), spec) is False
    assert can_make(Phase.parse("1 set of 3"), parse_cards("W W W"), spec_of(Rules(min_naturals=0)))
    run = [parse_cards("R11 R12 R1 R2")]
    assert not layout_ok(Phase.parse("1 run of 4"), run, spec)
    assert layout_ok(Phase.parse("1 run of 4"), [parse_cards("R1 R2 R3 R4 R5")], spec)
    assert not layout_ok(Phase.parse("1 run of 4"), [parse_cards("R1 R2 R3 R4 R5")],
                         spec_of(Rules(extras=False)))


def test_the_reference_reads_what_a_stated_wild_says():
    spec = spec_of(Rules())

    def ok(phase: str, cards: str) -> bool:
        return layout_ok(Phase.parse(phase), [parse_cards(g) for g in cards.split("|")], spec)

    assert ok("1 run of 4", "R4 R5 W=6 R7") and ok("1 run of 4", "W=3 R4 R5 R6")
    assert not ok("1 run of 4", "R4 R5 W=9 R7")  # (before: every wild read plain)
    assert not ok("1 run of 4", "R4 R5 W=5 R7")
    assert not ok("1 color run of 4", "W=B1 R2 R3 R4") and ok("1 color run of 4", "W=R1 R2 R3 R4")
    assert not ok("1 set of 3", "R6 B6 W=5") and ok("1 set of 3", "R6 B6 W=G6")
    assert not ok("7 cards of one color", "R1 R3 R5 R7 R9 R11 W=B")
    assert ok("7 cards of one color", "R1 R3 R5 R7 R9 R11 W=R4")
    assert not ok("1 even or odd of 4", "R2 B4 G6 W=7")
    assert not ok("2 sets of 3", "R5 B5 W=6 | W=5 G6 R6") and ok("2 sets of 3", "R5 B5 W=5 | W=6 G6 R6")
    distinct = spec_of(Rules(sets_share_number=False, min_naturals=0))
    two_sets = Phase.parse("2 sets of 3")
    assert not layout_ok(two_sets, [parse_cards("W=5 W=5 W=5"), parse_cards("R5 B5 G5")], distinct)
    assert layout_ok(two_sets, [parse_cards("W=6 W=6 W=6"), parse_cards("R5 B5 G5")], distinct)
    stated = [c for c in VECTORS["layouts"] if c["id"].startswith("layouts-wild-")]
    assert any(c["expected"]["legal"] for c in stated)
    assert {"consecutive", "one_color", "same_number", "parity", "distinct_numbers"} <= {
        p["rule"] for c in stated for p in c["expected"]["problems"]}
    assert all(any("=" in card for g in c["input"]["groups"] for card in g) for c in stated)


def test_export_raises_rather_than_write_a_case_the_reference_disagrees_with(monkeypatch):
    export_mod = importlib.import_module("phasedsl.conformance.export")
    real = export_mod.answer

    def lying(area, rules, inp):
        got = real(area, rules, inp)
        return {**got, "made": not got["made"]} if area == "hands" else got

    monkeypatch.setattr(export_mod, "answer", lying)
    monkeypatch.setitem(case_families.FAMILIES, "hands", [case_families.hands_corners])
    with pytest.raises(ReferenceDisagrees, match="hands-corner-000-printed"):
        list(area_cases("hands"))


def test_a_dice_answer_the_brute_force_disagrees_with_is_never_written(monkeypatch):
    import importlib

    export_mod = importlib.import_module("phasedsl.conformance.export")
    real = export_mod.answer

    def lying(area, rules, inp):
        got = real(area, rules, inp)
        if area == "dice" and "score" in got and got["made"]:
            return {**got, "score": got["score"] + 1}
        return got

    monkeypatch.setattr(export_mod, "answer", lying)
    monkeypatch.setitem(case_families.FAMILIES, "dice", [case_families.dice_sheet])
    with pytest.raises(ReferenceDisagrees, match="dice-sheet-example"):
        list(area_cases("dice"))


def test_the_dice_vectors_hold_the_sheets_example_rolls_and_holds():
    dice = {c["id"]: c for c in VECTORS["dice"]}
    assert dice["dice-sheet-example"]["expected"] == {"made": True, "score": 34}
    assert sum(1 for i in dice if i.startswith("dice-hold-")) >= 30
    assert all("/" in c["expected"]["chance"] for i, c in dice.items() if i.startswith("dice-hold-"))
    made = [c for c in dice.values() if c["expected"].get("made")]
    missed = [c for c in dice.values() if c["expected"].get("made") is False]
    assert len(made) > 50 and len(missed) > 50


# ---------------------------------------------------------------------------- export


def _small_families(monkeypatch):
    small = {"phrases": [case_families.phrases_errors], "hands": [case_families.hands_corners],
             "layouts": [case_families.layouts_corners], "hits": [case_families.hits_corners],
             "scoring": [case_families.scoring_cards], "games": [],
             "dice": [case_families.dice_holds]}
    for area, fams in small.items():
        monkeypatch.setitem(case_families.FAMILIES, area, fams)


def test_export_writes_each_area_and_refuses_to_overwrite(tmp_path, monkeypatch):
    _small_families(monkeypatch)
    out = tmp_path / "vectors"
    counts = export(out)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{a}.json" for a in AREAS] + ["README.md"])
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert counts["games"] == 0 and counts["hands"] > 30
    data = json.loads(first["hands.json"])
    assert data["area"] == "hands" and data["count"] == len(data["cases"]) == counts["hands"]
    assert load(out)["hands"] == data["cases"]
    from phasedsl.system.outfiles import OutputError

    with pytest.raises(OutputError, match="already exists"):
        export(out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first  # untouched
    export(out, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first  # the same bytes
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary left


def test_export_cli_refuses_without_force(tmp_path):
    (tmp_path / "hands.json").write_text("mine")
    r = cli("conformance", "export", str(tmp_path))
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "--force" in r.stderr
    assert (tmp_path / "hands.json").read_text() == "mine"
    r = cli("conformance", "export", str(tmp_path / "no" / "such"), "--json")
    assert r.returncode == 2 and json.loads(r.stdout)["exit"] == 2


def test_export_cli_writes_the_shipped_copy_at_once_and_refuses_no_folder_name(tmp_path):
    # (the cases were made afresh: 53 s before a word, or before 'cannot make the folder')
    out = tmp_path / "vectors"
    start = time.monotonic()
    r = cli("conformance", "export", str(out))
    assert r.returncode == 0 and r.stdout.endswith(" cases to " + str(out) + "\n"), r.stderr
    assert time.monotonic() - start < 5
    for name in [f"{a}.json" for a in AREAS]:
        assert (out / name).read_bytes() == gzip.decompress((SHIPPED / f"{name}.gz").read_bytes())
    assert (out / "README.md").read_bytes() == (SHIPPED / "README.md").read_bytes()
    r = cli("conformance", "export", "")
    assert r.returncode == 2 and r.stderr == ("error: cannot write into '': give the folder's "
                                             "name (. for this one)\n")
    r = cli("conformance", "export", str(out / "file"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["total"] == sum(map(len, VECTORS.values()))


# ---------------------------------------------------------------------------- the runner


def run_json(*args: str, command: list[str], timeout: float = 600) -> tuple[int, dict]:
    r = cli("conformance", "run", "--json", *args, "--", *command, timeout=timeout)
    assert r.stdout, r.stderr
    return r.returncode, json.loads(r.stdout)


def test_phasedsl_adapter_passes_every_case():
    start = time.monotonic()
    r = cli("conformance", "run", "--", *ADAPTER)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    total = sum(len(v) for v in VECTORS.values())
    assert f"{total} passed, 0 failed, 0 unsupported" in r.stdout
    for area in AREAS:
        assert re.search(rf"^{area} +{len(VECTORS[area])} +0 +0$", r.stdout, re.M)
    assert time.monotonic() - start < 240


def fake_adapter(tmp_path: Path, body: str) -> list[str]:
    """A program that answers like phasedsl's adapter except where ``body`` says."""
    script = tmp_path / "adapter.py"
    head = ["import json, sys, time", "from phasedsl.conformance.adapter import reply",
            "for line in sys.stdin:", "    req = json.loads(line)", "    out = reply(line)"]
    tail = ["    sys.stdout.write(json.dumps(out) + '\\n')", "    sys.stdout.flush()"]
    script.write_text("\n".join([*head, textwrap.indent(textwrap.dedent(body), "    "), *tail])
                      + "\n")
    return [PY, str(script)]


def test_wrong_answers_fail_exactly_those_cases(tmp_path):
    bad = {c["id"] for c in VECTORS["scoring"][::7]} | {VECTORS["hands"][3]["id"]}
    (tmp_path / "bad.json").write_text(json.dumps(sorted(bad)))
    cmd = fake_adapter(tmp_path, f"""\
        bad = set(json.load(open({str(tmp_path / 'bad.json')!r})))
        if req["id"] in bad:
            out = {{**out, "points": -1}} if req["area"] == "scoring" else {{**out, "outs": ["X"]}}
        """)
    code, got = run_json("--area", "scoring,hands", "--show", "3", command=cmd)
    assert code == 1
    assert set(got["failed_ids"]) == bad, [(f["id"], f["why"]) for f in got["failures"]]
    assert got["areas"]["scoring"]["failed"] == len(bad) - 1
    assert got["areas"]["hands"] == {"passed": len(VECTORS["hands"]) - 1, "failed": 1,
                                     "unsupported": 0}
    assert len(got["failures"]) == 3
    f = got["failures"][0]
    assert {"id", "area", "description", "why", "input", "expected", "got"} <= set(f)
    assert f["got"] != f["expected"]
    r = cli("conformance", "run", "--area", "scoring", "--", *cmd)
    assert r.returncode == 1 and "FAILED scoring-" in r.stdout and "expected:" in r.stdout


def test_a_crash_is_reported_with_its_case_and_the_run_goes_on(tmp_path):
    victim = VECTORS["scoring"][10]["id"]
    cmd = fake_adapter(tmp_path, f"""\
        if req["id"] == {victim!r}:
            sys.stderr.write("boom\\n")
            sys.exit(3)
        """)
    code, got = run_json("--area", "scoring", command=cmd)
    assert code == 1 and got["failed_ids"] == [victim] and got["restarts"] == 1
    why = got["failures"][0]["why"]
    assert "exit code 3" in why and "boom" in why
    assert got["areas"]["scoring"]["passed"] == len(VECTORS["scoring"]) - 1


def test_a_hang_or_garbage_fails_its_case_within_the_timeout(tmp_path):
    slow, junk = VECTORS["scoring"][5]["id"], VECTORS["scoring"][6]["id"]
    cmd = fake_adapter(tmp_path, f"""\
        if req["id"] == {slow!r}:
            time.sleep(60)
        if req["id"] == {junk!r}:
            sys.stdout.write("not json\\n")
            sys.stdout.flush()
            continue
        """)
    start = time.monotonic()
    code, got = run_json("--area", "scoring", "--timeout", "1", command=cmd, timeout=120)
    assert time.monotonic() - start < 60
    assert code == 1 and set(got["failed_ids"]) == {slow, junk}
    whys = {f["id"]: f["why"] for f in got["failures"]}
    assert "no answer within 1 s" in whys[slow] and "not JSON" in whys[junk]
    assert got["areas"]["scoring"]["passed"] == len(VECTORS["scoring"]) - 2


def test_filtering_by_area_and_features(tmp_path):
    cmd = fake_adapter(tmp_path, "")
    code, got = run_json("--area", "scoring", "--features", "", command=cmd)
    printed_scoring = [c for c in VECTORS["scoring"] if not c["features"]]
    assert code == 0 and got["total"]["passed"] == len(printed_scoring)
    assert list(got["areas"]) == ["scoring"] and list(got["features"]) == ["(printed rules)"]
    code, got = run_json("--area", "hands", "--area", "layouts", "--features",
                         "extras,natural_minimum", command=cmd)
    want = [c for a in ("hands", "layouts") for c in VECTORS[a]
            if set(c["features"]) <= {"extras", "natural_minimum"}]
    assert code == 0 and got["total"]["passed"] == len(want)
    assert set(got["features"]) == {"(printed rules)", "extras", "natural_minimum"}


def test_unsupported_is_counted_apart(tmp_path):
    cmd = fake_adapter(tmp_path, """\
        if req["area"] != "scoring":
            out = {"unsupported": True}
        """)
    code, got = run_json("--area", "scoring,phrases", command=cmd)
    assert code == 0
    assert got["areas"]["phrases"] == {"passed": 0, "failed": 0,
                                       "unsupported": len(VECTORS["phrases"])}


@pytest.mark.parametrize("args, needle", [
    (["conformance", "run"], "give the program to run"),
    (["conformance", "run", "--area", "hand", "--", "x"], "did you mean 'hands'"),
    (["conformance", "run", "--features", "extra", "--", "x"], "did you mean 'extras'"),
    (["conformance", "run", "--", "/no/such/program"], "cannot start"),
    (["conformance", "run", "--timeout", "0", "--", "x"], "--timeout"),
    (["conformance", "run", "--vectors", "/no/such/dir", "--", "x"], "no vectors file"),
])
def test_bad_usage_is_exit_2_with_one_line(args, needle):
    r = cli(*args)
    assert r.returncode == 2 and needle in r.stderr, r.stderr
    assert r.stderr.startswith("error: ") and "Traceback" not in r.stderr
    r = cli(*args[:2], "--json", *args[2:])
    assert r.returncode == 2 and json.loads(r.stdout)["exit"] == 2


def test_known_features_include_every_rule():
    assert {"hit_end", "runs_one_color", "floating", "deck", "scoring", "postal"} <= rule_features()


def test_the_adapter_survives_bad_requests():
    lines = ["not json", "[1]", "[" * 100_000,  # (nested beyond json's recursion limit)
             json.dumps({"id": "x", "area": "nope", "rules": {}, "input": {}}),
             json.dumps({"id": "y", "area": "hands", "rules": printed(), "input": {"phase": 3}}),
             json.dumps({"id": "z", "area": "scoring", "rules": printed(),
                         "input": {"cards": ["R5", "W"]}})]
    r = subprocess.run(ADAPTER, input="\n".join(lines) + "\n", cwd=ROOT, env=ENV,
                       capture_output=True, text=True, timeout=60)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 0 and len(out) == 6, r.stderr[-500:]
    assert all("error" in o for o in out[:5])
    assert out[5] == {"id": "z", "points": 30}


# ---------------------------------------------------------------------------- the JS model


def js_adapter() -> str:
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- conformance-adapter-js -->\n```js\n(.*?)```", text, re.S)
    assert m
    return m.group(1)


def test_the_docs_adapter_is_about_30_lines():
    assert 20 <= len(js_adapter().splitlines()) <= 40


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed here")
def test_the_javascript_adapter_of_the_docs_runs(tmp_path):
    script = tmp_path / "adapter.js"
    script.write_text(js_adapter())
    code, got = run_json("--area", "scoring", command=["node", str(script)])
    assert code == 0 and got["total"] == {"passed": len(VECTORS["scoring"]), "failed": 0,
                                          "unsupported": 0}
    code, got = run_json("--area", "scoring,hits", command=["node", str(script)])
    assert code == 0 and got["areas"]["hits"]["unsupported"] == len(VECTORS["hits"])


def test_solver_rules_read_the_rules_object():
    r = solver_rules(with_changes(printed(), {"wild_numbers": [3], "lay_down.extras": False,
                                              "deck.skips": 2}))
    assert r.wild_numbers == frozenset({3}) and r.extras is False and r.deck.skips == 2


def test_show_takes_any_count_and_the_json_says_how_many_it_shows(tmp_path):
    # --show was capped at 1,000 and the JSON's failure list was cut with nothing saying so
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import json, sys\nfor line in sys.stdin:\n"
                     "    print(json.dumps({'nonsense': 1}), flush=True)\n")
    r = cli("conformance", "run", "--area", "scoring", "--show", "5000", "--json", "--",
            PY, str(wrong))
    out = json.loads(r.stdout)
    assert r.returncode == 1, r.stderr
    assert len(out["failures"]) == out["shown"] == len(out["failed_ids"]) > 200
    r = cli("conformance", "run", "--area", "scoring", "--show", "3", "--json", "--",
            PY, str(wrong))
    out = json.loads(r.stdout)
    assert out["shown"] == len(out["failures"]) == 3 < len(out["failed_ids"])


def test_an_answer_nested_too_deeply_fails_its_case():
    from phasedsl.conformance.run import judge

    # (json gives up with RecursionError, not ValueError: it ended the run in a traceback)
    status, got, why = judge({"points": 30}, "[" * 100_000 + "\n")
    assert (status, why) == ("failed", "the answer is not JSON")
    assert got == "[" * 300


def test_a_failed_case_names_each_field_that_differs():
    from phasedsl.conformance.run import differences, judge

    expected = {"made": True, "groups": [["R5", "B5"], ["G7"]], "short_by": 0}
    status, _, why = judge(expected, json.dumps(
        {"made": False, "groups": [["R5", "B6"], ["G7"]], "extra": 1}))
    assert status == "failed"
    assert why == ('the answer differs at made: expected true, got false; groups.0.1: expected '
                   '"B5", got "B6"; short_by: expected 0, got (absent); extra: expected (absent), '
                   'got 1')
    assert differences({"a": 1}, {"a": True}) == [{"field": "a", "expected": 1, "got": True}]
    assert differences([1, 2], [1]) == [{"field": "(the answer)", "expected": [1, 2], "got": [1]}]


def test_the_json_report_gives_the_differences_of_each_failure(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import json, sys\nfor line in sys.stdin:\n"
                     "    print(json.dumps({'nonsense': 1}), flush=True)\n")
    r = cli("conformance", "run", "--area", "scoring", "--show", "1", "--json", "--",
            PY, str(wrong))
    failure = json.loads(r.stdout)["failures"][0]
    fields = {d["field"]: d for d in failure["differences"]}
    assert fields["nonsense"] == {"field": "nonsense", "expected": "(absent)", "got": 1}
    assert set(fields) == {"nonsense", *failure["expected"]}
    assert "nonsense: expected (absent), got 1" in failure["why"]
    r = cli("conformance", "run", "--area", "scoring", "--show", "1", "--", PY, str(wrong))
    assert "nonsense: expected (absent), got 1" in r.stdout


VERDICT_ENGINE = """\
import json, sys
from phasedsl.conformance.adapter import reply
FLIP = {flip}
for line in sys.stdin:
    req, full = json.loads(line), reply(line)
    area = req["area"]
    if area == "phrases":
        got = {{"error": "no"}} if "error" in full else {{"canonical": "?"}}
    elif area == "hits":
        got = {{"hits": bool(full["hits"])}}
    elif area in ("hands", "layouts", "games"):
        key = "made" if area == "hands" else "legal"
        got = {{key: full[key] != FLIP}}
    else:
        got = full
    print(json.dumps({{"id": req["id"], **got}}), flush=True)
"""


def test_the_verdict_level_compares_only_the_verdict(tmp_path):
    # an engine that answers only "made or not", "legal or not", "hits or not" agrees with
    # every case, and fails all of them at the full level
    engine = tmp_path / "verdicts.py"
    engine.write_text(VERDICT_ENGINE.format(flip=False))
    areas = "phrases,hands,layouts,hits,scoring"
    r = cli("conformance", "run", "--area", areas, "--level", "verdict", "--json", "--",
            PY, str(engine))
    out = json.loads(r.stdout)
    assert r.returncode == 0, out["failures"][:1]
    assert out["level"] == "verdict" and out["total"]["failed"] == 0
    r = cli("conformance", "run", "--area", "hands", "--level", "verdict", "--", PY, str(engine))
    assert r.returncode == 0 and "answer level: verdict" in r.stdout
    r = cli("conformance", "run", "--area", "hands", "--json", "--", PY, str(engine))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["level"] == "full"
    assert out["total"]["failed"] == len(VECTORS["hands"])


def test_the_verdict_level_still_fails_a_wrong_verdict(tmp_path):
    engine = tmp_path / "wrong.py"
    engine.write_text(VERDICT_ENGINE.format(flip=True))
    r = cli("conformance", "run", "--area", "hands", "--level", "verdict", "--json", "--show",
            "1", "--", PY, str(engine))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["total"]["failed"] == len(VECTORS["hands"])
    (diff,) = out["failures"][0]["differences"]
    assert diff["field"] == "made" and diff["expected"] is not diff["got"]


def test_an_unknown_level_is_bad_usage(tmp_path):
    r = cli("conformance", "run", "--level", "partial", "--", PY, "-c", "pass")
    assert r.returncode == 2 and "--level" in r.stderr and "verdict" in r.stderr
    assert "Traceback" not in r.stderr


FIXED_RULE_ENGINE = """\
import json, sys
from phasedsl.conformance.adapter import reply
for line in sys.stdin:
    req = json.loads(line)
    req["rules"]["wilds"]["natural_minimum"] = 0  # this engine's own fixed rule
    print(json.dumps(reply(json.dumps(req))), flush=True)
"""


def test_assume_skips_the_cases_of_other_rule_values(tmp_path):
    # an engine with its own fixed rule (wilds alone may form a group) failed every case
    # that assumes the printed rule, with no way to say so
    engine = tmp_path / "zero.py"
    engine.write_text(FIXED_RULE_ENGINE)
    r = cli("conformance", "run", "--area", "hands", "--json", "--", PY, str(engine))
    assert r.returncode == 1 and json.loads(r.stdout)["total"]["failed"] > 0
    r = cli("conformance", "run", "--area", "hands", "--assume", "wilds.natural_minimum=0",
            "--json", "--", PY, str(engine))
    out = json.loads(r.stdout)
    assert r.returncode == 0, out["failures"][:1]
    zero = [c["id"] for c in VECTORS["hands"]
            if c["rules"]["wilds"]["natural_minimum"] == 0]
    assert out["assumed"] == {"wilds.natural_minimum": 0}
    assert out["total"]["passed"] == len(zero) > 0
    assert out["skipped"]["total"] == len(VECTORS["hands"]) - len(zero)
    assert out["skipped"]["by_rule"] == {"wilds.natural_minimum": out["skipped"]["total"]}
    assert not set(out["skipped"]["ids"]) & set(zero)
    text = cli("conformance", "run", "--area", "hands", "--assume", "wilds.natural_minimum=0",
               "--", PY, str(engine)).stdout
    assert "whose rules differ from --assume (wilds.natural_minimum=0:" in text


@pytest.mark.parametrize(("value", "said"), [
    ("wilds.natural_min=0", "did you mean 'wilds.natural_minimum'"),
    ("wilds.natural_scope=team", 'allowed: "group", "phase"'),
    ("wilds.natural_minimum=-1", "allowed: an integer from 0 to 10"),
    ("runs.wrap", "expected KEY=VALUE"),
    # JSON nested past json's own limit: RecursionError, a traceback, was raised
    ("wilds.natural_minimum=" + "[" * 5000, "not a value of wilds.natural_minimum"),
])
def test_a_bad_assumption_is_bad_usage(value, said):
    r = cli("conformance", "run", "--assume", value, "--", PY, "-c", "pass")
    assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_export_to_dash_is_refused_not_a_folder_called_dash(tmp_path):
    # '-' is standard output to every other command (--logs -, -o - refuse it or write to
    # stdout); 'conformance export -' made a folder called '-' and wrote the vectors there
    r = subprocess.run([PY, "-m", "phasedsl", "conformance", "export", "-"], cwd=tmp_path,
                       env=ENV, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "cannot write into '-'" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_vectors_nested_too_deeply_are_bad_input(tmp_path):
    # a --vectors file of JSON nested past json's own limit was a RecursionError traceback
    (tmp_path / "phrases.json").write_text("[" * 1_000_000 + "]" * 1_000_000)
    r = cli("conformance", "run", "--vectors", str(tmp_path), "--", PY, "-c", "pass")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "phrases.json: not JSON: nested too deeply" in r.stderr, r.stderr


def test_the_docs_name_every_rule_code_and_kind_the_answers_hold():
    # docs/conformance.md lacked total, over_under, pairs, skip_as_blue and the newer kinds:
    # read them from the code and the vectors, not from a list kept by hand
    import re

    from phasedsl.model.group import Kind

    doc = (Path(__file__).resolve().parents[1] / "docs" / "conformance.md").read_text()
    melds = Path(__file__).resolve().parents[1] / "phasedsl" / "melds"
    source = "\n".join(p.read_text() for p in melds.rglob("*.py"))
    codes = set(re.findall(r'(?:problems\.append\(|return )\("([a-z_]+)", f?"', source))
    codes |= {p["rule"] for c in VECTORS["layouts"] for p in c["expected"]["problems"]}
    assert {"total", "over_under", "pairs", "skip_as_blue", "consecutive"} <= codes
    assert [c for c in sorted(codes) if f"`{c}`" not in doc] == []
    assert [k.value for k in Kind if f"`{k.value}`" not in doc] == []


def test_a_hits_case_gives_a_kind_in_kind():
    # six hits cases put a phrase ("4 cards over 8") in `kind`
    from phasedsl import Phase
    from phasedsl.model.group import Kind

    kinds = {k.value for k in Kind}
    laid = [g for c in VECTORS["hits"] for g in c["input"]["laid"]]
    assert all(g["kind"] in kinds for g in laid)
    phrased = [g for g in laid if "phrase" in g]
    assert {g["kind"] for g in phrased} >= {"over", "under", "sum", "pair_run"}
    assert all(Phase.parse(g["phrase"]).groups[0].kind.value == g["kind"] for g in phrased)


def test_hand_written_game_cases_keep_the_rules_they_test():
    # three were cut to the printed rules (the answer was the same, for another reason), so
    # the corner they were written for was no longer tested
    games = {c["id"]: c for c in VECTORS["games"]}
    assert "abandon_phase" in games["games-hand-abandon-later"]["features"]
    assert games["games-hand-declare-when-laying"]["rules"]["house_rules"]["declare_phase"] \
        == "when_laying"
    assert "wild_reuse_same_turn" in games["games-hand-take-back-reused"]["features"]


def test_a_description_naming_a_pack_says_when_its_rules_do_not_matter():
    import re

    from phasedsl.conformance.export import packs_with_rules

    names = packs_with_rules()
    for cases in VECTORS.values():
        for c in cases:
            if not c["features"] and any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])",
                                                   c["description"]) for n in names):
                assert c["description"].endswith("the same under the pack's)"), c["id"]


def test_a_phrase_said_to_be_refused_is_refused():
    # phrases-error-011 said "is refused at a column" while its answer read the phrase
    for c in VECTORS["phrases"]:
        if c["id"].startswith("phrases-error-"):
            assert ("refused" in c["description"]) == ("error" in c["expected"]), c["id"]
