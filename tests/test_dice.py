"""Phase 10 Dice (issue 28): the dice pack, rolls judged by the card solver, exact chances
under the best holds (checked against a brute force over every ordered outcome and every
keep), and hold advice."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.dice import Dice, DieKind, Face, Space, advise, judge, table
from phasedsl.model.cards import Deck
from phasedsl.model.phase import Phase
from phasedsl.model.rules import Rules
from phasedsl.packs.pack import check_file, load_pack

runner = CliRunner()


def test_the_dice_pack_loads_with_its_dice_and_the_scorepads_phrasings():
    pack = load_pack("dice")
    assert pack.dice is not None and pack.dice.count == 10 and pack.dice.rolls == 3
    assert [k.count for k in pack.dice.kinds] == [6, 4]
    assert str(pack.dice.kinds[1].faces[4]) == "WG"
    texts = [str(e.phase) for e in pack.worlds[0].phases]
    assert texts[7] == "7 cards of one color" and texts[8] == "1 set of 5 + 1 set of 2"
    assert pack.rules.min_naturals == 0
    assert str(Phase.parse("7 dice of one color")) == "7 cards of one color"
    r = runner.invoke(app, ["lint", "dice"])
    assert r.exit_code == 0 and "0 errors, 0 warnings" in r.output


def test_a_face_the_deck_has_not_is_an_error_at_its_line_and_column(tmp_path):
    bad = tmp_path / "bad-dice.yaml"
    bad.write_text("name: bad-dice\ntitle: t\ndescription: d\nsource: s\nextends: dice\n"
                   "dice:\n  dice:\n    - name: odd\n      count: 2\n      faces: [R1, Q2]\n")
    pack, diags = check_file(bad)
    assert pack is None
    assert any(d.line == 10 and "no colour 'Q'" in d.message for d in diags), diags


def test_the_sheets_example_scores_34():
    r = runner.invoke(app, ["check", "--variant", "dice", "2 sets of 3", "8", "8", "8", "10",
                            "W", "W", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["made"] and out["score"] == 34
    r = runner.invoke(app, ["check", "--variant", "dice", "--phase", "1", "8", "8", "8", "10",
                            "W", "W", "R1"])
    assert r.exit_code == 0 and "scores 34" in r.output and "not used: R1" in r.output


def test_the_best_score_is_chosen_among_the_ways_that_make_it():
    rules = load_pack("dice").rules
    faces = [Face(10, "B"), Face(10, "B"), Face(None, "G"), Face(5, "R"), Face(5, "R"),
             Face(5, "R"), Face(None, "Y")]
    j = judge(Phase.parse("2 sets of 3"), faces, rules)
    # 10 10 W + 5 5 5 (35) beats 10 10 W W + ... ; the wilds score 0
    assert j.made and j.score == 35


def test_a_wild_counts_only_in_its_own_colour_in_a_colour_phase():
    base = ["G7", "G7", "G7", "G7", "R5", "R5", "G3", "G3", "R1"]
    made = runner.invoke(app, ["check", "--variant", "dice", "--phase", "8", *base, "WG"])
    assert made.exit_code == 0 and "W=G" in made.output
    missed = runner.invoke(app, ["check", "--variant", "dice", "--phase", "8", *base, "WY"])
    assert missed.exit_code == 1 and "not made" in missed.output


@pytest.mark.parametrize(("args", "said"), [
    (["--phase", "1", "8", "8", "13"], "numbers run from 1 to 10"),
    (["--phase", "1", "G7", "G7", "G7", "G7", "G7", "G7", "G7"], "more faces of the high dice"),
    (["--phase", "1", "Q7"], "no colour 'Q'"),
    (["--phase", "8", "7", "W"], "could be WG or WY: give its colour"),
])
def test_bad_faces_are_one_clear_error(args, said):
    r = runner.invoke(app, ["check", "--variant", "dice", *args])
    assert r.exit_code == 2 and said in r.output and "Traceback" not in r.output


# ---------------------------------------------------------------- the exact chances

SMALL = Dice((DieKind("a", 2, (Face(1, "R"), Face(2, "R"), Face(None, "G"))),
              DieKind("b", 1, (Face(1, "R"), Face(3, "B")))), rolls=3)
SMALL_RULES = Rules(deck=Deck(high=3), min_naturals=0)


def _brute(phase: Phase, dice: Dice, rules: Rules, objective: str) -> list[Fraction]:
    """The chance (or expected best score) with 1..rolls rolls, by every ordered outcome
    of every die and every subset of dice kept (by position), in plain fractions."""
    sides = [k.faces for k in dice.kinds for _ in range(k.count)]

    def worth(faces: tuple) -> int:
        j = judge(phase, faces, rules)
        return (1 if j.made else 0) if objective == "chance" else j.score

    @cache
    def value(faces: tuple, left: int) -> Fraction:
        if left == 0:
            return Fraction(worth(faces))
        best = Fraction(-1)
        for keep in product((True, False), repeat=len(faces)):
            total, n = Fraction(0), 0
            for new in product(*[[f] if k else s for f, k, s in zip(faces, keep, sides, strict=True)]):
                total += value(tuple(new), left - 1)
                n += 1
            best = max(best, total / n)
        return best

    out = []
    for rolls in range(1, dice.rolls + 1):
        outcomes = list(product(*sides))
        out.append(sum((value(o, rolls - 1) for o in outcomes), Fraction(0)) / len(outcomes))
    return out


@pytest.mark.parametrize("text", ["1 set of 3", "1 run of 3", "3 cards of one color",
                                  "1 set of 2 + 1 set of 1"])
def test_exact_chances_and_scores_agree_with_a_brute_force(text):
    phase = Phase.parse(text)
    t = table(phase, SMALL_RULES, SMALL)
    assert list(t.by_rolls) == _brute(phase, SMALL, SMALL_RULES, "chance")
    assert t.expected_score == _brute(phase, SMALL, SMALL_RULES, "score")[-1]


def test_the_hold_advice_is_the_exact_best_keep():
    r = runner.invoke(app, ["hold", "dice", "--phase", "8", "--rolls-left", "1", "G7", "G7",
                            "G7", "R5", "R5", "R9", "G3", "WY", "WG", "R1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    # keep the five greens; 3 high dice (G7: 1 in 6) and 2 low dice (G3 or WG: 2 in 6)
    # re-rolled need 2 more greens: 1 - P(none) - P(one) = 161/486
    assert sorted(out["keep"]) == ["G3", "G7", "G7", "G7", "WG"]
    assert out["chance"] == "161/486"


def test_the_hold_advice_in_text_fits_80_columns():
    # its first line was 98 columns: keep, chance, phase and re-rolls left on one line
    r = runner.invoke(app, ["hold", "dice", "--phase", "8", "--rolls-left", "1", "G7", "G7",
                            "G7", "R5", "R5", "R9", "G3", "WY", "WG", "R1"])
    assert r.exit_code == 0, r.output
    assert max(map(len, r.stdout.splitlines())) <= 80, r.stdout
    assert " ".join(r.stdout.split()).startswith(
        "keep G3 G7 G7 G7 WG: 33.1276% (161/486) to make phase 8 (7 cards of one color) "
        "with 1 re-roll left for the best expected score")


def test_hold_advice_agrees_with_the_brute_force_on_small_dice():
    phase = Phase.parse("1 run of 3")
    showing = [Face(1, "R"), Face(1, "R"), Face(3, "B")]
    a = advise(phase, SMALL_RULES, SMALL, showing, 1)
    # keeping R1 B3 needs the re-rolled die to show 2 or W (6 in 9); keeping B3 alone and
    # re-rolling both dice of kind a makes 1-2-3 in 7 of their 9 outcomes: better
    assert a.chance == Fraction(7, 9) and [str(f) for f in a.keep] == ["B3"]


def test_one_roll_chance_of_the_printed_phase_1_agrees_with_sampling():
    pack = load_pack("dice")
    phase = pack.worlds[0].phases[0].phase
    exact = table(phase, pack.rules, pack.dice, Space(pack.dice)).by_rolls[0]
    rng = random.Random(7)
    n = 1500
    hits = sum(judge(phase, [rng.choice(k.faces) for k in pack.dice.kinds
                             for _ in range(k.count)], pack.rules).made for _ in range(n))
    sd = (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(hits / n - float(exact)) < 4 * sd


# ---------------------------------------------------------------- lint and limits


def _pack(tmp_path, name, body):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\ntitle: t\ndescription: d\nsource: s\nextends: dice\n{body}")
    return path


def test_lint_says_which_phase_no_roll_makes_and_why(tmp_path):
    # green shows on one high face and two low faces: at most 5 dice of a green run in a row
    path = _pack(tmp_path, "runs", "rules:\n  game_length: 3\nphases:\n  - \"2 sets of 3\"\n"
                                   "  - \"1 color run of 6\"\n  - \"3 sets of 4\"\n")
    r = runner.invoke(app, ["lint", str(path)])
    assert r.exit_code == 1, r.output
    assert "10:5: error: phase 2 (1 color run of 6): no roll of these dice makes it: every roll" \
        in r.output
    assert "11:5: error: phase 3 (3 sets of 4): no roll of these dice makes it: it needs 12 " \
           "dice, and there are 10" in r.output
    assert "a player holds at most" not in r.output  # (a card game's words)


def test_too_many_dice_or_states_are_refused_at_once(tmp_path):
    path = _pack(tmp_path, "many", "dice:\n  dice:\n    - {name: a, count: 12, faces: [R5, B6]}\n"
                                   "    - {name: b, count: 3, faces: [R5, B6]}\n")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 1 and "15 dice: a game has at most 12" in r.output
    from phasedsl.dice.odds import TooManyStates

    faces = tuple(Face(n, "R") for n in range(1, 13))
    with pytest.raises(TooManyStates, match="states of dice kept"):
        Space(Dice((DieKind("a", 6, faces), DieKind("b", 6, faces[::-1][:11]))))


@pytest.mark.parametrize(("key", "value", "said"), [
    ("solo_miss", -10 ** 400, "the least allowed is -1000"),
    ("five_phase_bonus", 10 ** 400, "the most allowed is 1000"),
    ("first_finish_bonus", 10 ** 400, "the most allowed is 1000"),
    ("five_phase_over", 10 ** 400, "the most allowed is 100000"),
], ids=["solo_miss", "five_phase_bonus", "first_finish_bonus", "five_phase_over"])
def test_dice_scoring_past_any_game_is_a_pack_error(tmp_path, key, value, said):
    # the schema bounded no dice score: solo_miss -10**400 validated, and simulate ended in
    # an OverflowError traceback (exit 1) when it took the mean of the scores
    path = _pack(tmp_path, "huge", "dice:\n  dice:\n    - {name: a, count: 10, faces: "
                                   f"[R5, B6, G7, Y8, R9, B10]}}\n  scoring:\n    {key}: {value}\n")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 1 and f"dice.scoring.{key}: a number of" in r.output, r.output
    assert said in r.output
    r = runner.invoke(app, ["simulate", str(path), "--players", "1", "--games", "1"])
    assert r.exit_code == 2 and said in r.output, r.output

# ---------------------------------------------------------------- odds, show and report


def test_odds_of_the_dice_pack_gives_exact_fractions_and_the_highest_score():
    r = runner.invoke(app, ["odds", "dice", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    first = out["phases"][0]
    assert first["index"] == 1 and first["phase"] == "2 sets of 3"
    assert first["by_rolls"]["1"] == "139241/279936"  # one roll of ten dice: 6**10 outcomes
    assert Fraction(first["exact"]) > Fraction(first["by_rolls"]["2"]) > \
        Fraction(first["by_rolls"]["1"])
    assert first["best_roll"] == 60  # six high dice on 10: two sets of 10s (wilds score 0)
    assert out["highest_score"] == 655 and out["expected_turns_solo"] > 10
    text = runner.invoke(app, ["odds", "dice"]).output
    assert "highest possible score: 655" in text and "49.7403%" in text
    # the column headed "exact" holds the fraction, never a rounded decimal
    assert f" {first['exact']} " in text and "0.986553" not in text


def test_odds_and_simulate_of_a_dice_pack_refuse_the_card_options_not_ignore_them(tmp_path):
    """--draws K and --plot FILE have no meaning for dice: they were dropped with exit 0 (no
    file written, no card counted), as if done; now exit 2 naming them."""
    plot = tmp_path / "curve.svg"
    for args, said in ((["odds", "dice", "--plot", str(plot)], "--plot"),
                       (["odds", "dice", "--draws", "2"], "--draws"),
                       (["odds", "1 set of 6", "--variant", "dice", "--draws", "1"], "--draws"),
                       (["simulate", "dice", "--games", "1", "--plot", str(plot)], "--plot")):
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert f"{said} is for packs of cards" in r.output and "Traceback" not in r.output
        assert not plot.exists()
    r = runner.invoke(app, ["odds", "dice", "--draws", "1", "--plot", str(plot), "--json"])
    assert r.exit_code == 2 and "--draws and --plot are" in json.loads(r.stdout)["error"]


def test_show_and_report_of_the_dice_pack(tmp_path):
    r = runner.invoke(app, ["show", "dice"])
    assert "dice: 6 high dice (R5 B6 G7 Y8 R9 B10); 4 low dice" in r.output
    out = tmp_path / "dice.html"
    r = runner.invoke(app, ["report", "dice", "-o", str(out), "--games", "3", "--json"])
    assert r.exit_code == 0, r.output
    figs = json.loads(r.stdout)["figures"]
    assert figs["play"]["games"] == 3 and figs["highest_score"] == 655
    page = out.read_text()
    assert "Highest possible score: <b>655</b>" in page and "Scorepad" in page
    assert page.count("<tr><td>") >= 10


def test_every_printed_phase_played_by_the_exact_policy_agrees_with_its_exact_chance():
    """Monte Carlo over whole turns (three rolls, the best-chance bot's keeps) for each of
    the ten printed phases: the share made lies within 4 standard errors of the exact
    chance `odds dice` prints."""
    from phasedsl.dice import DiceGame, Keep, Roll, apply, make_bot

    pack = load_pack("dice")
    space = Space(pack.dice)
    bot = make_bot("best-chance", pack.dice, space)
    rng = random.Random(11)
    n = 150
    for e in pack.worlds[0].phases:
        exact = float(table(e.phase, pack.rules, pack.dice, space).chance)
        made = 0
        for _ in range(n):
            g = DiceGame.new(pack.dice, pack.rules, [e.phase], ["solo"])
            g = apply(g, Roll("solo", pack.dice.roll((), rng)))
            while (keep := bot.keep(g)) is not None:
                g = apply(apply(g, Keep("solo", tuple(keep))),
                          Roll("solo", pack.dice.roll(keep, rng)))
            made += judge(e.phase, g.showing, pack.rules).made
        sd = max((exact * (1 - exact) / n) ** 0.5, 1 / n)
        assert abs(made / n - exact) < 4 * sd, (e.number, made / n, exact)


def test_a_corrupt_or_foreign_tables_file_is_worked_out_again(tmp_path, monkeypatch):
    from phasedsl.dice import solve
    from phasedsl.dice.tablecache import key

    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path))
    phase = Phase.parse("1 run of 3")
    first = solve(phase, SMALL_RULES, SMALL, "chance")
    path = tmp_path / f"dice-{key(SMALL, phase, SMALL_RULES, 'chance')}.bin"
    assert path.exists()
    for junk in (path.read_bytes()[:60] + b"not deflate data", b"\xff\xfe", b'{"size": 1}\n'):
        path.write_bytes(junk)
        again = solve(phase, SMALL_RULES, SMALL, "chance")
        assert again.by_rolls == first.by_rolls


def test_a_batch_under_a_dice_pack_reads_faces_as_check_does(tmp_path):
    # every line was read as cards ("'8' is not a card") though check of the same words
    # judges the roll
    path = tmp_path / "rolls.jsonl"
    path.write_text('{"id": 1, "phase": "2 sets of 3", "cards": "8 8 8 10 W W"}\n'
                    '{"id": 2, "phase": "1 run of 9", "cards": ["1", "2", "3"]}\n'
                    '{"id": 3, "phase": "2 sets of 3", "cards": "R13 R5"}\n')
    r = CliRunner().invoke(app, ["check", "--variant", "dice", "--batch", str(path), "-j", "1"])
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    one = CliRunner().invoke(app, ["check", "--variant", "dice", "2 sets of 3", "8", "8", "8",
                                   "10", "W", "W", "--json"])
    assert rows[0] == {"line": 1, "id": 1, **json.loads(one.stdout)}
    assert rows[0]["made"] is True and rows[0]["score"] == 34
    assert rows[1]["made"] is False and rows[1]["faces"] == ["R1", "B2", "G3"]
    assert "error" in rows[2] and r.exit_code == 2, rows[2]


def test_a_batch_line_that_is_not_text_is_an_error_row():
    from phasedsl import api

    ctx = api.Context.load("original", None, None)
    for line in (5, float("nan"), ["x"], b"{}"):
        got = api.check_json_line(line, ctx, 1)
        assert got["line"] == 1 and got["error"].startswith("a batch line is text"), got


def test_card_commands_say_a_dice_pack_is_not_theirs():
    # outs, score and hit read a roll's faces as cards, refused one by one ("'8' is not a card")
    for args in (["outs", "--variant", "dice", "2 sets of 3", "8", "8", "W"],
                 ["score", "--variant", "dice", "8", "8", "W"],
                 ["hit", "--variant", "dice", "8", "--on", "set: 8 8 8"]):
        r = CliRunner().invoke(app, [*args, "--json"])
        assert r.exit_code == 2, r.stdout
        assert json.loads(r.stdout)["error"].startswith(
            f"{args[0]} is for packs of cards, and dice is a Phase 10 Dice pack"), r.stdout


def test_a_dice_log_replayed_under_a_pack_of_cards_says_so(tmp_path):
    # it said '"dealer" must be one of the players', as for a broken header
    logs = tmp_path / "logs"
    assert CliRunner().invoke(app, ["simulate", "dice", "-g", "1", "-n", "2", "--logs",
                                    str(logs)]).exit_code == 0
    log = str(logs / "game-0001.jsonl")
    assert CliRunner().invoke(app, ["replay", log]).exit_code == 0
    # a header's seed that is no whole number is refused, as a log of cards' is
    lines = (logs / "game-0001.jsonl").read_text().splitlines()
    header = json.loads(lines[0]) | {"seed": "x"}
    (logs / "bad.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    r = CliRunner().invoke(app, ["replay", str(logs / "bad.jsonl")])
    assert r.exit_code == 2 and '"seed" is the whole number that rolled the game' in r.stderr
    r = CliRunner().invoke(app, ["replay", "--variant", "original", log])
    assert r.exit_code == 2 and "a Phase 10 Dice log names none" in r.stderr, r.stderr
    # a log of cards with no dealer, no --variant: said as the cards' log's fault first
    bare = tmp_path / "bare.jsonl"
    bare.write_text('{"type": "game", "variant": "original", "players": ["a", "b"]}\n')
    r = CliRunner().invoke(app, ["replay", str(bare)])
    assert r.exit_code == 2 and "original is a pack of cards, whose logs name the dealer" \
        in r.stderr and "--variant" not in r.stderr, r.stderr


def test_hold_of_dice_rolled_once_a_turn_says_there_is_no_re_roll(tmp_path):
    """A pack whose dice are rolled once (dice.rolls: 1) had `hold` answer "rolls left: 1
    to 0, not 2", a range with nothing in it; `odds` said "one turn of 1 rolls"."""
    text = (Path(__file__).resolve().parents[1] / "variants" / "dice.yaml").read_text()
    path = tmp_path / "once.yaml"
    path.write_text(text.replace("name: dice", "name: once").replace("rolls: 3", "rolls: 1"))
    r = runner.invoke(app, ["hold", str(path), "--phase", "1", "8 8 8 10 WG WY 1 2 5 6"])
    assert r.exit_code == 2 and "rolled once a turn: no re-roll" in r.output, r.output
    r = runner.invoke(app, ["odds", "2 sets of 3", "--variant", str(path)])
    assert r.exit_code == 0 and "in one turn of 1 roll, keeping" in r.output, r.output
