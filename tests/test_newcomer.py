"""Issue 14, a newcomer's walk: Unicode digits and control characters in `play`, the deck
checks of `score`, a new seed for every `play`, `python -m phasedsl`, the Python API taking
text where it takes values, and the messages of `check` and `outs`."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl import (
    ArgumentError,
    CardError,
    Phase,
    PhaseDSLError,
    Rules,
    can_make,
    find,
    format_cards,
    hit_plan,
    hit_targets,
    load_pack,
    outs,
    parse_cards,
    score,
    shortfall,
    verify,
)
from phasedsl.api import laid_group
from phasedsl.cli import app
from phasedsl.errors import caret_lines, printable
from phasedsl.game import Game
from phasedsl.model.cards import STANDARD_DECK
from phasedsl.players.play import CommandError, parse_command

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


# --------------------------------------------------------------------------- 15: play's text


@pytest.mark.parametrize("line", ["hit R1 on bob ²", "lay R5 B5 W | G7 G8 G9 G10 as ⁵",
                                  "lay R5 B5 W as phase ²", "declare ²", "declare ٣",
                                  "swap R7 on bob ¹"])
def test_digits_of_other_scripts_are_refused_as_numbers(line):
    # '²'.isdigit() is True but int('²') fails (a traceback ended the game); int('٣') is 3,
    # a number the player never typed as such
    with pytest.raises(CommandError, match="must be a number"):
        parse_command(line, "ann", STANDARD_DECK)


def test_a_unicode_digit_in_play_asks_again_instead_of_ending_the_game():
    r = run("play", "--variant", "short-game-5", "--seed", "7",
            input="hit R1 on bob ²\nlay R5 B5 W as ⁵\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output and r.exception is None
    assert r.output.count("must be a number") == 2
    assert "game stopped" in r.output


def test_a_card_is_ascii():
    # 'ſ'.upper() is 'S': the long s was read as a skip
    for text in ("ſ", "R²", "R٣", "ı5"):
        with pytest.raises(CardError, match="is not a card"):
            parse_cards(text)
    assert [str(c) for c in parse_cards("r5 s w")] == ["R5", "S", "W"]


HOSTILE = "\x1b]0;owned\x07"  # an OSC sequence (sets the terminal's title): not ANSI color


def test_play_escapes_control_characters_it_echoes():
    # seed 7: ann draws G6; the referee's reason quotes the player named, and the
    # transcript echoes the line as typed
    r = run("play", "--variant", "short-game-5", "--seed", "7",
            input=f"draw deck\ndiscard G6 skip {HOSTILE}\nfoo{HOSTILE}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "\x1b" not in r.output and "\x07" not in r.output
    assert "it cannot skip '\\x1b]0;owned\\x07'" in r.output
    assert "ann> discard G6 skip \\x1b]0;owned\\x07" in r.output


def test_command_errors_escape_control_characters_and_keep_the_caret_in_place():
    r = run("check", "1 set of 3", f"R5 {HOSTILE}X5")
    assert r.exit_code == 2
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    line, caret = r.stderr.splitlines()[1:3]
    assert line == "    R5 \\x1b]0;owned\\x07X5"
    assert caret.index("^") == line.index("\\x1b")
    r = run("check", f"1 set of 3{HOSTILE}", "R5")
    assert r.exit_code == 2 and "\x1b" not in r.stderr and "\\x1b" in r.stderr
    r = run("play", "--name", f"a{HOSTILE}")
    assert r.exit_code == 2 and "\x07" not in r.stderr


def test_printable_escapes_only_what_a_terminal_would_act_on():
    assert printable("R5 é 漢字 ไทย\nnext") == "R5 é 漢字 ไทย\nnext"
    assert printable("a\x1b[2Jb\r\x00\u202e") == "a\\x1b[2Jb\\r\\x00\\u202e"
    assert caret_lines("\x07X", 2) == "    \\x07X\n        ^"


# --------------------------------------------------------------------------- 17: score's deck


def test_score_refuses_more_copies_than_the_deck_holds():
    r = run("score", "R5", "R5", "R5")
    assert r.exit_code == 2 and "3 x R5 is more than the deck's 2" in r.stderr
    r = run("score", " ".join(["W"] * 5000), "--json")
    assert r.exit_code == 2 and json.loads(r.stdout)["error"] == "5000 x W is more than the deck's 8"
    r = run("score", "--variant", "masters", "S", "S", "S")  # Masters: 2 skips
    assert r.exit_code == 2 and "3 x S is more than the deck's 2" in r.stderr
    r = run("score", "W=R7")  # a hand holds plain wilds, as check says
    assert r.exit_code == 2 and "a wild stands for a card only once it is laid" in r.stderr
    r = run("score", "R5", "R5", "B12", "W", "S")
    assert r.exit_code == 0 and r.stdout.startswith("60 points")
    assert run("score").stdout.startswith("0 points")  # went out: nothing left


def test_hit_and_outs_count_every_card_given_against_the_deck():
    r = run("hit", "R5", "--on", "set: R5 W", "--on", "set: R5 W")
    assert r.exit_code == 2 and "3 x R5" in r.stderr
    r = run("hit", "W", "W", "--on", "set: R5 R5 W", "--on", "set: R6 W W W W W W")
    assert r.exit_code == 2 and "9 x W is more than the deck's 8" in r.stderr
    r = run("outs", "1 set of 3", "R5", "R5", "--seen", "R5")
    assert r.exit_code == 2 and "3 x R5" in r.stderr


# --------------------------------------------------------------------------- 20: play's seed


def _seed_line(output: str) -> int:
    m = re.search(r"^seed (\d+): play again with --seed (\d+)$", output, flags=re.M)
    assert m and m.group(1) == m.group(2), output[:300]
    return int(m.group(1))


def _first_screen(output: str) -> str:
    return output[output.index("--- hand 1"):output.index("ann>")]


def test_play_without_a_seed_deals_a_new_game_shows_its_seed_and_logs_it(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first = run("play", "--log", str(a), input="quit\n")
    second = run("play", "--log", str(b), input="quit\n")
    assert first.exit_code == second.exit_code == 0
    s1, s2 = _seed_line(first.output), _seed_line(second.output)
    assert s1 != s2  # (one in a million they agree)
    assert json.loads(a.read_text().splitlines()[0])["seed"] == s1
    assert json.loads(b.read_text().splitlines()[0])["seed"] == s2
    again = run("play", "--seed", str(s1), input="quit\n")
    assert "play again with" not in again.output  # a seed given is not repeated back
    assert _first_screen(again.output) == _first_screen(first.output)
    assert run("replay", str(a)).exit_code == 0  # the reader takes the seed in the header
    lines = a.read_text().splitlines()
    header = json.loads(lines[0])
    for bad in ("7", 2.5, True, [1]):
        a.write_text("\n".join([json.dumps(header | {"seed": bad}), *lines[1:]]) + "\n")
        r = run("replay", str(a))
        assert r.exit_code == 2 and '"seed" is the whole number that dealt the game' in r.stderr


def test_game_logs_record_the_seed_that_dealt_them():
    game = Game.new("short-game-5", ["ann", "bob"], seed=41)
    header = json.loads(game.to_log()[0])
    assert header["seed"] == 41
    # read back, the log keeps it; a game read from a log deals nothing itself
    back = Game.from_log(game.to_log())
    assert json.loads(back.to_log()[0])["seed"] == 41
    assert Game.new("short-game-5", ["ann", "bob"], seed=header["seed"]).to_log() == game.to_log()
    with pytest.raises(ArgumentError, match=r"Game.new\(seed=...\): expected a whole number"):
        Game.new("short-game-5", ["ann", "bob"], seed="41")


def test_simulated_logs_record_each_games_seed():
    from phasedsl.design.simulate import simulate

    records = simulate("short-game-5", 2, 2, keep_logs=True)
    for r in records:
        header = json.loads(r.log[0])
        assert header["seed"] == r.seed
        dealt = json.loads(Game.new("short-game-5", header["players"], seed=r.seed).to_log()[1])
        assert dealt == json.loads(r.log[1])  # that seed deals that game's first hand


# --------------------------------------------------------------------------- 21: -m phasedsl


def test_python_dash_m_phasedsl_is_the_command():
    def py(*args):
        return subprocess.run([sys.executable, "-m", "phasedsl", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)

    import phasedsl

    r = py("--version")
    assert r.returncode == 0 and r.stdout == f"phasedsl {phasedsl.__version__}\n", r.stderr
    r = py("check", "1 set of 3", "R5", "B5", "W")
    assert r.returncode == 0 and "made" in r.stdout
    r = py("check", "--bogus")
    assert r.returncode == 2 and "(see 'phasedsl check --help')" in r.stderr
    r = py("--help")
    assert "Usage: phasedsl [OPTIONS] COMMAND" in r.stdout


# --------------------------------------------------------------------------- 25: the API


HAND = "R5 B5 W G9 G9 Y9"


def test_find_and_can_make_take_a_phrase_and_a_card_string():
    phase, hand = Phase.parse("2 sets of 3"), parse_cards(HAND)
    assert find("2 sets of 3", HAND) == find(phase, hand)
    assert str(find("two sets of three", HAND)) == "G9 G9 Y9 | R5 B5 W=5"
    assert find(phase, HAND.split()) == find(phase, hand)  # card strings in a list
    assert find(phase, iter(hand)) == find(phase, hand)  # any iterable, as before
    assert can_make("2 sets of 3", HAND) and not can_make("2 sets of 3", "R5 B5")
    masters = load_pack("masters").rules_for(None)
    assert find("1 set of 3", "R5 B5 W", masters) is not None


def test_verify_shortfall_outs_score_take_text():
    phase = Phase.parse("2 sets of 3")
    assert verify("2 sets of 3", ["R5 B5 W", "G9 G9 Y9"]).valid
    assert verify(phase, "R5 B5 W | G9 G9 Y9").valid  # one string, groups split by |
    assert verify(phase, "R5 B5 W | G9 G9 Y9", hand=HAND).valid
    assert not verify(phase, "R5 B5 W | G9 G9 Y9", hand="R5 B5").valid
    run4 = Phase.parse("1 run of 4")
    assert shortfall("1 run of 4", "R3 B4 G5") == shortfall(run4, parse_cards("R3 B4 G5"))
    assert (outs("1 run of 4", "R3 B4 G5", seen="R2 R2")
            == outs(run4, parse_cards("R3 B4 G5"), seen=parse_cards("R2 R2")))
    assert score("R5 B5") == 10 and score("r5, b12, w, s") == 55
    assert format_cards("r5,w") == "R5 W"


def test_hits_take_text_and_count_groups_from_1():
    run_ = laid_group("run: R4 R5 R6")
    hits = hit_targets("run: R4 R5 R6", "R3")
    assert hits == hit_targets([run_], parse_cards("R3")[0])
    assert hits == hit_targets(["run: R4 R5 R6"], "R3")
    h = hit_targets([laid_group("set: B9 G9 W"), run_], "R7")[0]
    assert (h.group, h.index) == (2, 1)  # as the text and the JSON say it
    assert str(h) == "R7 onto group 2 at the high end" and h.to_json()["group"] == 2
    plan = hit_plan(["run: R4 R5 R6"], "R3 R2")
    assert plan == hit_plan([run_], parse_cards("R3 R2"))
    assert [h.group for h in plan.hits] == [1, 1]


def test_a_hit_plan_prints_as_the_cli_prints_it():
    laid = ["run: R4 R5 W=6 R7", "set: B9 G9 W"]
    r = run("hit", "R3", "R2", "W", "Y12", *[a for g in laid for a in ("--on", g)])
    text = r.stdout.splitlines()
    plan = hit_plan(laid, "R3 R2 W Y12")
    assert str(plan).splitlines() == text[text.index("play in this order:"):]
    assert str(plan).splitlines()[-1] == "3 of 4 placed: no order places more"
    assert str(hit_plan(laid, "R3")) == "play:\n  R3 onto group 1 at the low end\nthe card is placed"
    assert "HitPlan(" not in str(plan)


def test_packs_reports_games_and_odds_take_a_pack_name_or_a_phrase():
    from phasedsl.design.odds import odds
    from phasedsl.design.report import pack_figures, render_html
    from phasedsl.design.simulate import simulate

    assert odds("2 sets of 3", Rules(), 10) == odds(Phase.parse("2 sets of 3"), Rules(), 10)
    figures = pack_figures("short-game-5", games=1)
    assert render_html("short-game-5", None, figures).startswith("<!DOCTYPE html>")
    assert len(simulate("short-game-5", 2, 1)) == 1
    assert Game.new("short-game-5", ("ann", "bob"), seed=1).state.table.players == ("ann", "bob")


def _api_calls():
    """Every public function that takes a phase, cards, laid groups or a pack, with each
    such argument in turn given a value of no use (filled in per case below)."""
    from phasedsl.design.odds import odds
    from phasedsl.design.report import pack_figures, render_html
    from phasedsl.design.simulate import simulate

    P, H, L = "2 sets of 3", "R5 B5", ["run: R4 R5 R6"]
    return {
        "find(phase)": lambda x: find(x, H), "find(hand)": lambda x: find(P, x),
        "find(rules)": lambda x: find(P, H, x),
        "can_make(phase)": lambda x: can_make(x, H), "can_make(hand)": lambda x: can_make(P, x),
        "verify(phase)": lambda x: verify(x, ["R5 B5 W"]),
        "verify(layout)": lambda x: verify(P, x), "verify(group)": lambda x: verify(P, [x, x]),
        "verify(hand)": lambda x: verify(P, ["R5 B5 W"], hand=x),
        "shortfall(phase)": lambda x: shortfall(x, H), "shortfall(hand)": lambda x: shortfall(P, x),
        "shortfall(seen)": lambda x: shortfall(P, H, seen=x),
        "outs(phase)": lambda x: outs(x, H), "outs(hand)": lambda x: outs(P, x),
        "outs(rules)": lambda x: outs(P, H, x),
        "hit_targets(laid)": lambda x: hit_targets(x, "R3"),
        "hit_targets(laid[0])": lambda x: hit_targets([x], "R3"),
        "hit_targets(card)": lambda x: hit_targets(L, x),
        "hit_targets(rules)": lambda x: hit_targets(L, "R3", x),
        "hit_plan(laid)": lambda x: hit_plan(x, "R3"), "hit_plan(cards)": lambda x: hit_plan(L, x),
        "score(cards)": lambda x: score(x), "score(rules)": lambda x: score(H, x),
        "odds(phase)": lambda x: odds(x), "odds(cards)": lambda x: odds(P, Rules(), x),
        "pack_figures(pack)": lambda x: pack_figures(x),
        "pack_figures(world)": lambda x: pack_figures("original", x),
        "render_html(pack)": lambda x: render_html(x, None, {}),
        "render_html(figures)": lambda x: render_html("original", None, x),
        "Game.new(pack)": lambda x: Game.new(x, ["ann", "bob"]),
        "Game.new(players)": lambda x: Game.new("original", x),
        "Game.new(world)": lambda x: Game.new("world-tour", ["ann", "bob"], world=x),
        "simulate(pack)": lambda x: simulate(x, 2, 1),
        "load_pack": lambda x: load_pack(x), "laid_group": lambda x: laid_group(x),
        "Phase.parse(text)": lambda x: Phase.parse(x), "parse_cards(text)": lambda x: parse_cards(x),
        "Phase.parse(deck)": lambda x: Phase.parse(P, x), "parse_cards(deck)": lambda x: parse_cards(H, x),
    }


# (None there says "the default": the only world, the hand size, no hand to check against)
NONE_MEANS_DEFAULT = {"pack_figures(world)", "Game.new(world)", "odds(cards)", "verify(hand)"}


@pytest.mark.parametrize("name", sorted(_api_calls()))
@pytest.mark.parametrize("bad", [None, 5, 2.5, object(), {"a": 1}, b"R5"],
                         ids=["None", "int", "float", "object", "dict", "bytes"])
def test_a_value_of_no_use_is_a_clear_error_never_an_attribute_error(name, bad):
    if (bad is None and name in NONE_MEANS_DEFAULT) or (bad == 5 and name == "odds(cards)"):
        return  # (odds of 5-card hands: a fair question)
    call = _api_calls()[name]
    try:
        call(bad)
    except AttributeError as e:  # (before: 'str' object has no attribute 'parts', ...)
        pytest.fail(f"{name}({bad!r}): AttributeError {e}")
    except (PhaseDSLError, TypeError) as e:
        assert isinstance(e, PhaseDSLError), f"{name}: {type(e).__name__} {e}"
        assert re.search(r"expected|(is|are) text, like", str(e)), f"{name}: {e}"
    else:
        pytest.fail(f"{name}({bad!r}) was accepted")


def test_the_argument_error_is_both_a_phasedsl_error_and_a_type_error():
    with pytest.raises(ArgumentError) as got:
        find(None, HAND)
    assert isinstance(got.value, PhaseDSLError) and isinstance(got.value, TypeError)
    assert str(got.value) == ("find(phase=...): expected a Phase or a phase phrase like "
                              "'2 sets of 3', got NoneType None")
    with pytest.raises(CardError, match="unknown color 'X'"):
        find("2 sets of 3", "R5 X5")  # a card string is read as the CLI reads it
    with pytest.raises(PhaseDSLError, match="expected"):
        find("2 sets of", HAND)


# --------------------------------------------------------------------------- 26: messages


def test_cards_where_the_phase_belongs_are_named_as_such():
    for cmd in ("check", "outs"):
        r = run(cmd, "R5", "B5", "R5", "W", "W", "W")
        assert r.exit_code == 2
        assert r.stderr.splitlines()[0] == (
            "error: column 1: the first argument is the phase, e.g. \"1 set of 3\"; "
            "'R5 B5 R5 W W W' looks like cards")
    got = json.loads(run("check", "R5 B5 R5 W W W", "--json").stdout)
    assert got["column"] == 1 and got["message"].startswith("the first argument is the phase")
    # a phrase that is no card list keeps its own message
    r = run("check", "1 set of 3 + 1 rn of 4", "R5")
    assert "did you mean 'run'" in r.stderr and "first argument" not in r.stderr


def test_outs_says_how_many_cards_short_when_no_single_card_does():
    r = run("outs", "1 set of 3 + 1 run of 4", "R5", "B5", "G7", "G8", "G10", "Y1")
    assert r.exit_code == 1
    assert r.stdout.strip() == "1 set of 3 + 1 run of 4: no single card completes it (2 cards short)"
    got = json.loads(run("outs", "1 set of 3 + 1 run of 4", "R5", "B5", "G7", "G8", "G10", "Y1",
                         "--json").stdout)
    assert got["short_by"] == 2 and got["outs"] == []
    # one card short, but every card that would complete it is seen
    r = run("outs", "1 set of 3", "R5", "B5", "--seen", "R5 B5 G5 G5 Y5 Y5 " + "W " * 8)
    assert r.stdout.strip() == "1 set of 3: no unseen card completes it (1 card short)"


def test_counts_the_design_functions_take_are_checked_where_given():
    # simulate(players=7) played six players; odds(cards=200) was a plain ValueError,
    # cards=-1 "0% exact", a bad seed or samples a TypeError deep in the sampler;
    # pack_figures(games=0) played the default 80 games a table size
    from phasedsl.odds import odds

    from phasedsl.design.report import pack_figures
    from phasedsl.design.simulate import simulate

    for call, says in ((lambda: simulate("original", 7, 1), r"simulate\(players=...\)"),
                       (lambda: simulate("original", 2, float("nan")), r"simulate\(games=...\)"),
                       (lambda: simulate("original", 2, -1), r"simulate\(games=...\)"),
                       (lambda: simulate("original", 2, 1, max_moves=0),
                        r"simulate\(max_moves=...\)"),
                       (lambda: simulate("original", 2, 1, seed="x"), r"simulate\(seed=...\)"),
                       (lambda: pack_figures("original", games=0), r"pack_figures\(games=...\)"),
                       (lambda: odds("1 set of 3", cards=200), r"from 0 to 108, got int 200"),
                       (lambda: odds("1 set of 3", cards=-1), r"odds\(cards=...\)"),
                       (lambda: odds("cards totalling 20", samples=-1), r"odds\(samples=...\)"),
                       (lambda: odds("cards totalling 20", seed=None), r"odds\(seed=...\)"),
                       (lambda: odds("cards totalling 20", progress=5), r"odds\(progress=...\)"),
                       (lambda: odds("1 set of 3", jobs="x"), r"odds\(jobs=...\)"),
                       (lambda: hit_plan(["set: R5 B5 G5"], "R5", budget=None),
                        r"hit_plan\(budget=...\)"),
                       (lambda: hit_plan(["set: R5 B5 G5"], "R5", budget=-1),
                        r"hit_plan\(budget=...\)")):
        with pytest.raises(ArgumentError, match=says):
            call()


def test_a_deck_past_what_a_pack_may_describe_is_refused_where_it_is_made():
    # Deck(high=10**6) filled the memory of the first count over it; a NaN or None failed
    # deep inside with a TypeError
    from phasedsl.errors import RulesError
    from phasedsl.model.cards import Deck

    for kw, field in ((dict(high=10**6), "deck.high"), (dict(low=float("nan")), "deck.low"),
                      (dict(copies=-1), "deck.copies"), (dict(colors=None), "deck.colors"),
                      (dict(wilds=True), "deck.wilds"), (dict(colors=()), "deck.colors")):
        with pytest.raises(RulesError, match=rf"\({field}=...\)"):
            Deck(**kw)
    assert Deck(low=0, high=30, copies=10, wilds=200).size == 4 * 31 * 10 + 200 + 4


def test_a_move_made_by_hand_is_judged_as_strictly_as_one_read_from_a_log():
    # Draw(p, "bogus") was drawn from the deck and then written to the log as "from":
    # "bogus", which replay refuses; a pile or player of the wrong type was a TypeError;
    # from_log of dicts an AttributeError
    from phasedsl.game import Game, IllegalMove
    from phasedsl.game import moves as mv

    game = Game.new("original", ["ann", "bob"], seed=3)
    while game.state.stage != "turn":
        game = game.apply(game.legal_moves()[0])
    p = game.state.to_move
    for move, rule in ((mv.Draw(p, "bogus"), "bad_draw"), (mv.Draw(p, "discard", None, None),
                                                           "no_such_pile"),
                       (mv.Draw(p, "discard", None, 0), "no_such_pile"),
                       (mv.Draw(None, "deck"), "unknown_player"), (mv.Draw(7, "deck"),
                                                                   "unknown_player")):
        with pytest.raises(IllegalMove) as got:
            game.apply(move)
        assert got.value.rule == rule, (move, got.value)
    for lines in (None, 5, [{"type": "game"}], [b"{}"]):
        with pytest.raises(ArgumentError, match=r"Game.from_log\(lines=...\)"):
            Game.from_log(lines)
    text = "\n".join(game.to_log())
    assert Game.from_log(text).to_log() == game.to_log()


def test_the_documented_api_helpers_name_a_wrong_argument():
    # verify_text(phase, None) was a TypeError, score_json(['R5']) and outs_json's seen an
    # AttributeError, hand(also=None) a TypeError
    from phasedsl import api

    phase = Phase.parse("1 set of 3")
    for call, says in ((lambda: api.verify_text(phase, None), r"verify_text\(groups=...\)"),
                       (lambda: api.verify_text(phase, "R5 B5 G5"), r"verify_text\(groups"),
                       (lambda: api.score_json(None), r"score_json\(hand=...\)"),
                       (lambda: api.hand("R5", also=None), r"hand\(also=...\)"),
                       (lambda: api.check_json(None, "R5"), r"check_json\(phase=...\)"),
                       (lambda: api.outs_json(phase, "R5 R5", 5), r"outs_json\(seen=...\)")):
        with pytest.raises(ArgumentError, match=says):
            call()
    assert api.score_json(["R5", "W"])["points"] == 30  # card strings read as cards
    outs = {o["card"]: o["unseen"] for o in api.outs_json(phase, "R5 R5", ["B5"])["outs"]}
    assert outs["B5"] == 1 and outs["G5"] == 2  # (the B5 seen is not unseen)


def test_score_refuses_a_card_made_in_python_that_the_deck_has_not():
    # Card(99, "R") scored 10 points, Card("5", "R") was a TypeError
    from phasedsl.model.cards import Card

    for card in (Card(30, "R"), Card(3, "Z"), Card(0, "R"), Card(None, "R")):
        with pytest.raises(CardError, match="is not a card of this deck"):
            score([card])
    # (no deck has a card numbered 99, -5 or "5": Card itself refuses them)
    for number in (99, -5, "5"):
        with pytest.raises(ArgumentError, match=r"Card\(number=...\)"):
            Card(number, "R")
    assert score([Card(5, "R"), Card(wild=True)]) == 30


def test_the_context_and_roll_helpers_name_a_wrong_argument():
    # Context.load('original', None, 5) was an AttributeError, a list as the phase a
    # TypeError, True read as phase 1; judge_roll(phase, None) a TypeError
    from phasedsl import api
    from phasedsl.packs.pack import load_pack

    for args, says in ((("original", None, 5), r"world=...\)"),
                       (("original", ["R5"], None), r"phase_no=...\)"),
                       (("original", True, None), r"phase_no=...\)"),
                       ((5, None, None), r"variant=...\)")):
        with pytest.raises(ArgumentError, match=r"Context.load\(" + says):
            api.Context.load(*args)
    dice = load_pack("dice")
    phase = dice.worlds[0].phases[0].phase
    for words in (None, [8, 8, 8]):
        with pytest.raises(ArgumentError, match=r"judge_roll\(words=...\)"):
            api.judge_roll(phase, words, dice.rules, dice.dice)
    assert api.judge_roll(phase, "8 8 8 10 W W", dice.rules, dice.dice)["made"] is True


def test_a_card_is_one_kind_of_card_at_most():
    # Card(wild=True, skip=True) was accepted, and find played it as a wild
    from phasedsl.model.cards import Card

    for kw in (dict(wild=True, skip=True), dict(skip=True, anti=True), dict(wild=True, anti=True)):
        with pytest.raises(ArgumentError, match=r"Card\(...\): expected a card that is a wild"):
            Card(**kw)
