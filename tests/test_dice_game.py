"""Phase 10 Dice games (issue 28): the referee over hand-written logs, the end and its
bonuses, bots and simulate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.dicesim import play_game, simulate_dice, summarize_dice
from phasedsl.dice import DiceGame, Face, Keep, Roll, Score, apply, log_lines
from phasedsl.dice.game import DiceRuleError
from phasedsl.errors import InputError
from phasedsl.game.log import LogError, replay
from phasedsl.packs.pack import load_pack

runner = CliRunner()

TINY = """name: tiny-dice
title: Tiny dice
description: two phases and a low five-phase mark, for tests
source: a test
extends: dice
rules:
  game_length: 2
dice:
  dice:
    - name: high
      count: 6
      faces: [R5, B6, G7, Y8, R9, B10]
    - name: low
      count: 4
      faces: [R1, B2, G3, Y4, WG, WY]
  scoring:
    five_phase_over: 10
phases:
  - "1 set of 2"
  - "1 set of 3"
"""

HIGH_PAIR = ["B10", "B10", "R5", "B6", "G7", "Y8", "R1", "B2", "G3", "Y4"]  # 10 10: 20
NOTHING = ["R5", "B6", "G7", "Y8", "R9", "B10", "R1", "B2", "G3", "Y4"]  # no pair at all
TWO_SETS = ["B10", "B10", "B10", "R5", "R5", "R5", "R1", "B2", "G3", "Y4"]  # 2 sets of 3: 45


def ev(**kw) -> str:
    return json.dumps(kw)


def game(players=("ann", "bob"), variant="dice") -> str:
    return ev(type="game", variant=variant, world=None, players=list(players), seed=1)


@pytest.fixture
def tiny(tmp_path) -> Path:
    (tmp_path / "tiny-dice.yaml").write_text(TINY)
    return tmp_path


def _log(folder: Path, lines: list[str]) -> Path:
    path = folder / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_hand_written_turn_is_legal_and_scored():
    lines = [game(),
             ev(type="roll", player="ann", faces=["Y8", "Y8", "Y8", "B10", "R5", "B6", "WG", "WY",
                                                   "R1", "B2"]),
             ev(type="score", player="ann", phase=1, points=34, made=True),
             ev(type="roll", player="bob", faces=NOTHING),
             ev(type="keep", player="bob", faces=["R5", "B6"]),
             ev(type="roll", player="bob", faces=["R5", "B6", "R5", "B6", "G7", "Y8", "R1", "B2",
                                                   "G3", "Y4"]),
             ev(type="score", player="bob", phase=1, points=0, made=False)]
    r = replay(lines)
    assert r.legal, r.error
    out = r.to_json()
    assert [p["total"] for p in out["players"]] == [34, 0]
    assert [p["phase"] for p in out["players"]] == [2, 1]


@pytest.mark.parametrize(("event", "rule", "said"), [
    (ev(type="roll", player="ann", faces=["G5", *NOTHING[1:]]), "faces", "G5: no die shows it"),
    (ev(type="roll", player="bob", faces=NOTHING), "turn", "it is ann's turn"),
    (ev(type="score", player="ann", phase=1, points=0, made=False), "score", "roll"),
])
def test_a_first_event_the_rules_refuse_names_its_line_and_rule(event, rule, said):
    r = replay([game(), event])
    assert not r.legal and r.error["line"] == 2 and r.error["rule"] == rule
    assert said in r.error["message"]


def test_keeps_rolls_and_scores_are_checked():
    start = [game(), ev(type="roll", player="ann", faces=NOTHING)]
    # a kept die that is not showing
    r = replay([*start, ev(type="keep", player="ann", faces=["WG"])])
    assert r.error["rule"] == "keep" and "WG is not" in r.error["message"]
    # the kept dice must show the same faces after the roll
    r = replay([*start, ev(type="keep", player="ann", faces=["R5"]),
                ev(type="roll", player="ann", faces=["B6", *NOTHING[1:]])])
    assert r.error["rule"] == "kept" and r.error["line"] == 4
    # a wrong score: the dice make the phase for 45 (10 10 10, 5 5 5), not 44
    r = replay([game(), ev(type="roll", player="ann", faces=TWO_SETS),
                ev(type="score", player="ann", phase=1, points=44, made=True)])
    assert r.error["rule"] == "score" and "scoring 45" in r.error["message"]
    # a miss said where the dice make it
    r = replay([game(), ev(type="roll", player="ann", faces=TWO_SETS),
                ev(type="score", player="ann", phase=1, points=0, made=False)])
    assert r.error["rule"] == "score" and "make phase 1" in r.error["message"]
    # a fourth roll
    r = replay([*start, *[e for _ in range(2) for e in (
        ev(type="keep", player="ann", faces=[]), ev(type="roll", player="ann", faces=NOTHING))],
        ev(type="keep", player="ann", faces=[])])
    assert r.error["rule"] == "rolls"
    # a bonus not earned
    r = replay([game(), ev(type="bonus", player="ann", kind="five_phase", points=40)])
    assert r.error["rule"] == "bonus"


def test_a_player_not_at_the_table_is_named_short_not_echoed_whole():
    # a 100,000-character name came back whole in the message ("it is ann's turn, not ZZZ...")
    for event in (ev(type="roll", player="Z" * 100_000, faces=NOTHING),
                  ev(type="bonus", player="Z" * 100_000, kind="five_phase", points=40)):
        r = replay([game(), event])
        assert r.error["rule"] == "unknown_player" and r.error["line"] == 2
        assert r.error["message"] == ("'ZZZZZZZZZZZZZZZZZZZZZZZZ'... (100,000 characters) is not "
                                      "a player of this game (ann, bob)")


def test_a_line_that_is_no_dice_event_cannot_be_read():
    with pytest.raises(LogError, match=r"line 2: .*numbers run from 1 to 10"):
        replay([game(), ev(type="roll", player="ann", faces=["R12"])])
    with pytest.raises(LogError, match=r"line 2: '7': give its colour \(like G7\)"):
        replay([game(), ev(type="roll", player="ann", faces=["7"])])
    with pytest.raises(LogError, match="line 2: a dice game's events are"):
        replay([game(), ev(type="draw", player="ann", card="R5")])
    # a type that is no name is said as the log wrote it (it read "not 'None'")
    with pytest.raises(LogError, match=r'this line.s "type" is null$'):
        replay([game(), ev(type=None, player="ann")])


def test_the_end_bonuses_and_last_tries(tiny):
    """ann makes the last phase first (+40 first finish); bob, after her in the round,
    makes it on his first last try (+40 too); cat misses his last try; the five-phase
    bonus (after the last phase here, the mark 10) follows the score that earns it."""
    p = ("ann", "bob", "cat")
    made2 = ev(type="roll", player="{}", faces=HIGH_PAIR)
    lines = [game(p, "tiny-dice.yaml")]
    for who in p:  # everyone makes phase 1 (20 points)
        lines += [made2.replace("{}", who), ev(type="score", player=who, phase=1, points=20,
                                                made=True)]
    triple = ["B10", "B10", "B10", "R5", "B6", "G7", "R1", "B2", "G3", "Y4"]
    lines += [ev(type="roll", player="ann", faces=triple),
              ev(type="score", player="ann", phase=2, points=30, made=True),
              ev(type="bonus", player="ann", kind="five_phase", points=40),
              ev(type="bonus", player="ann", kind="first_finish", points=40),
              ev(type="roll", player="bob", faces=triple),
              ev(type="score", player="bob", phase=2, points=30, made=True),
              ev(type="bonus", player="bob", kind="five_phase", points=40),
              ev(type="bonus", player="bob", kind="first_finish", points=40),
              ev(type="roll", player="cat", faces=NOTHING)]
    lines += [ev(type="keep", player="cat", faces=[]), ev(type="roll", player="cat", faces=NOTHING)] * 2
    lines += [ev(type="score", player="cat", phase=2, points=0, made=False),
              ev(type="end", totals={"ann": 130, "bob": 130, "cat": 20})]
    r = replay(lines, tiny)
    assert r.legal, r.error
    assert r.to_json()["over"] and r.to_json()["winners"] == ["ann", "bob"]
    # leaving out a bonus earned is refused at the line after the score
    short = [x for x in lines if '"first_finish"' not in x or '"bob"' not in x]
    r = replay(short, tiny)
    assert not r.legal and r.error["rule"] == "bonus"
    # and so are wrong totals at the end
    r = replay([*lines[:-1], ev(type="end", totals={"ann": 130, "bob": 90, "cat": 20})], tiny)
    assert r.error["rule"] == "end"
    assert r.error["message"] == "the totals are ann 130, bob 130, cat 20"
    # a total is a whole number (130.0 compared equal and was taken)
    r = replay([*lines[:-1], ev(type="end", totals={"ann": 130.0, "bob": 130, "cat": 20})], tiny)
    assert not r.legal and r.error["rule"] == "end"


def test_solo_misses_cost_five_and_the_finish_bonus_needs_a_first_try(tiny):
    pack = load_pack(tiny / "tiny-dice.yaml")
    w = pack.worlds[0]
    g = DiceGame.new(pack.dice, w.rules, [e.phase for e in w.played], ["solo"])
    faces = tuple(Face(int(t[1:]), t[0]) for t in NOTHING)
    g = apply(g, Roll("solo", faces))
    for _ in range(2):
        g = apply(apply(g, Keep("solo", ())), Roll("solo", faces))
    with pytest.raises(DiceRuleError, match="not made, scoring -5"):
        apply(g, Score("solo", 1, 0, False))
    g = apply(g, Score("solo", 1, -5, False))
    assert g.totals == (-5,)


def test_seeded_games_replay_and_are_the_same_for_a_seed():
    pack = load_pack("dice")
    a = play_game(pack, ["ann", "bob"], ["naive", "naive"], seed=4)
    b = play_game(pack, ["ann", "bob"], ["naive", "naive"], seed=4)
    assert a.moves == b.moves and a.final.over
    header = {"type": "game", "variant": "dice", "world": None, "players": ["ann", "bob"],
              "seed": a.seed}
    r = replay(list(log_lines(header, a.moves, a.final)))
    assert r.legal and r.to_json()["over"]


def test_a_dice_replay_counts_one_phase_made_in_the_singular(tmp_path):
    log = tmp_path / "one.jsonl"
    log.write_text("\n".join([
        '{"type": "game", "variant": "dice", "world": null, "players": ["ann", "bob"]}',
        '{"type": "roll", "player": "ann", "faces": ["Y8", "Y8", "Y8", "B10", "R5", "B6", '
        '"WG", "WY", "R1", "B2"]}',
        '{"type": "score", "player": "ann", "phase": 1, "points": 34, "made": true}']) + "\n")
    r = runner.invoke(app, ["replay", str(log)])
    assert r.exit_code == 0, r.output
    assert "ann: 1 phase made, 34 points" in r.output
    assert "bob: 0 phases made, 0 points" in r.output


def test_simulate_a_dice_pack_gives_figures_with_intervals(tmp_path):
    r = runner.invoke(app, ["simulate", "dice", "-n", "2", "-g", "4", "--bot", "naive", "--json",
                            "--logs", str(tmp_path / "logs")])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 4 and out["finished"] == 4
    assert len(out["turns_per_game"]["ci95"]) == 2 and out["win_share_by_seat"][0]["ci95"]
    assert out["five_phase_bonus_share"]["players"] == 8
    logs = sorted((tmp_path / "logs").glob("game-*.jsonl"))
    assert len(logs) == 4
    r = runner.invoke(app, ["replay", str(logs[0])])
    assert r.exit_code == 0 and "every event is legal" in r.output
    r = runner.invoke(app, ["simulate", "dice", "--bot", "greedy-ish", "-g", "1"])
    assert r.exit_code == 2 and "best-chance, best-score, naive" in r.output


def test_the_exact_bot_beats_the_naive_one_on_points():
    pack = load_pack("dice")
    best = summarize_dice(simulate_dice(pack, 1, 6, "best-score", seed=2), 1)
    naive = summarize_dice(simulate_dice(pack, 1, 6, "naive", seed=2), 1)
    assert best["final_score"]["mean"] > naive["final_score"]["mean"]


def test_play_dice_in_the_terminal_with_hints_and_a_log_that_replays(tmp_path):
    log = tmp_path / "me.jsonl"
    r = runner.invoke(app, ["play", "dice", "--bots", "1", "--bot", "naive", "--seed", "3",
                            "--log", str(log)],
                      input="hint\nkeep R5\nkeep 9 9 9 W W\nscore\nquit\n")
    assert r.exit_code == 0, r.output
    assert "best chance: keep R9 R9 R9 WG WY (100.00%" in r.output
    assert "? not showing: R5" in r.output
    assert "made phase 1" in r.output and "game stopped" in r.output
    r = runner.invoke(app, ["replay", str(log), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["legal"]
    r = runner.invoke(app, ["play", "dice", "--bot", "strong"])
    assert r.exit_code == 2 and "a dice game's bots are" in r.output


def test_a_bare_keep_is_read_among_the_dice_showing():
    """`keep 9 9 9 W W` over WG and WY read both W as WG (the first face of the dice), then
    refused it as "not showing: WG" though WG showed; a bare word is now read among the
    faces showing, with an error only where the colour matters and is truly in doubt."""
    from phasedsl.dice import parse_kept, parse_roll

    pack = load_pack("dice")
    deck = pack.rules.deck
    show = parse_roll(["R1 Y4 B6 B6 G7 R9 R9 R9 WG WY"], deck, pack.dice)
    assert " ".join(map(str, parse_kept(["9 9 9 W W"], deck, show))) == "R9 R9 R9 WG WY"
    assert " ".join(map(str, parse_kept(["WY W"], deck, show))) == "WY WG"
    assert str(parse_kept(["W"], deck, show, colour_free=True)[0]) == "WG"
    with pytest.raises(InputError, match="'W' could be WG or WY"):
        parse_kept(["W"], deck, show)  # (a colour phase: which wild is kept matters)
    with pytest.raises(InputError, match="no wild showing is left"):
        parse_kept(["W W W"], deck, show)
    only_wy = parse_roll(["R1 Y4 B6 B6 G7 R9 R9 R9 WY WY"], deck, pack.dice)
    assert str(parse_kept(["W"], deck, only_wy)[0]) == "WY"
    # in the terminal: the seed's first roll is R1 Y4 B6 B6 G7 R9 R9 R9 WG WY
    r = runner.invoke(app, ["play", "dice", "--bots", "1", "--bot", "naive", "--seed", "3"],
                      input="keep 9 9 9 W W\nquit\n")
    assert r.exit_code == 0 and "not showing" not in r.output, r.output
    assert "roll 2 of 3: " in r.output


def test_a_program_plays_dice_over_the_bot_protocol_and_a_bad_keep_forfeits(tmp_path):
    example = Path(__file__).resolve().parents[1] / "docs" / "examples" / "dicebot.py"
    r = runner.invoke(app, ["simulate", "dice", "--bot", f"cmd:{sys.executable} {example}",
                            "-n", "2", "-g", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["finished"] == 2 and out["forfeited"] == []
    bad = tmp_path / "bad.py"
    bad.write_text("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'roll':\n"
                   "        print(json.dumps({'keep': ['WG', 'WG', 'WG', 'WG', 'WG']}), flush=True)\n")
    r = runner.invoke(app, ["simulate", "dice", "--bot", f"cmd:{sys.executable} {bad}",
                            "-n", "2", "-g", "1", "--json"])
    assert r.exit_code == 0, r.output
    f = json.loads(r.stdout)["forfeited"]
    assert f and f[0]["reason"] == "illegal" and "must be showing" in f[0]["message"]


def test_a_dice_pack_of_ones_own_travels_with_its_logs(tiny, tmp_path):
    from phasedsl.packs.pack import pack_document, pack_from_document

    pack = load_pack(tiny / "tiny-dice.yaml")
    again = pack_from_document(pack_document(pack))
    assert again.dice == pack.dice and [e.phase for e in again.worlds[0].phases] == \
        [e.phase for e in pack.worlds[0].phases]
    logs = tmp_path / "logs"
    r = runner.invoke(app, ["simulate", str(tiny / "tiny-dice.yaml"), "-n", "2", "-g", "1",
                            "--bot", "naive", "--logs", str(logs)])
    assert r.exit_code == 0, r.output
    log = next(logs.glob("game-*.jsonl"))
    assert json.loads(log.read_text().splitlines()[0])["pack"]["dice"]["scoring"][
        "five_phase_over"] == 10
    (tiny / "tiny-dice.yaml").unlink()  # the pack file gone: the log still replays
    r = runner.invoke(app, ["replay", str(log), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["legal"], r.output
