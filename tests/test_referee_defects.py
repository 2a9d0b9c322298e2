# ruff: noqa: E501  (the outside testers' logs are kept line for line)
"""Issue 14, the referee: postal hits, the Japanese take-back dead end, a going-out skip
naming a stranger, packs no game of which can end, stalled games, even/odd-phase packs.

The minimal logs of the outside testers are copied in below (CI has no ../shared)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.game import Game, view
from phasedsl.game import moves as mv
from phasedsl.game.engine import IllegalMove, apply, legal_moves
from phasedsl.game.log import read_log, replay
from phasedsl.game.state import replace as with_
from phasedsl.game.table import phase_rules
from phasedsl.melds.layout import read_group
from phasedsl.model.cards import Card, parse_cards
from phasedsl.model.phase import Phase
from phasedsl.model.rules import Rules
from phasedsl.packs.pack import load_pack
from phasedsl.players.bots import make_bot
from phasedsl.system.resources import variants_dir

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]

CASES = {  # (from the outside testers' minimal logs: file, log, illegal line, rule)
    "O1_going_out_skip_names_stranger": (5, 'unknown_player', """\
{"type": "game", "variant": "original", "world": null, "players": ["ann", "bob"], "dealer": "bob"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "S"], "bob": ["G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11", "G12"]}, "up": "Y9"}
{"type": "draw", "player": "ann", "card": "G2", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "S", "skip": "zed"}"""),
    "P1_sticky_wild_number": (17, 'hit_does_not_fit', """\
{"type": "game", "variant": "postal", "world": null, "players": ["ann", "bob"], "dealer": "ann"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "G2"], "bob": ["Y11", "Y11", "G11", "G11", "Y12", "Y12", "G12", "G12", "Y9", "Y9"]}, "up": "Y10"}
{"type": "draw", "player": "bob", "card": "B12", "from": "deck"}
{"type": "discard", "player": "bob", "card": "B12"}
{"type": "draw", "player": "ann", "from": "discard"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "B12"}
{"type": "deal", "hands": {"ann": ["R5", "B5", "G5", "R6", "R7", "R8", "R9", "B1", "B4", "G4"], "bob": ["Y9", "G9", "B9", "Y11", "G11", "B11", "Y1", "Y12", "G12", "B12"]}, "up": "B10"}
{"type": "draw", "player": "ann", "card": "Y3", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R5", "B5", "G5"], ["R6", "R7", "R8", "R9"]]}
{"type": "discard", "player": "ann", "card": "Y3"}
{"type": "draw", "player": "bob", "card": "G10", "from": "deck"}
{"type": "lay", "player": "bob", "groups": [["Y9", "G9", "B9"], ["Y11", "G11", "B11"]]}
{"type": "hit", "player": "bob", "card": "Y1", "on": {"player": "ann", "group": 1}}
{"type": "discard", "player": "bob", "card": "G10"}
{"type": "draw", "player": "ann", "card": "Y6", "from": "deck"}
{"type": "hit", "player": "ann", "card": "B1", "on": {"player": "ann", "group": 1}}"""),
    "P1_control_without_bobs_hit": (16, 'hit_does_not_fit', """\
{"type": "game", "variant": "postal", "world": null, "players": ["ann", "bob"], "dealer": "ann"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "G2"], "bob": ["Y11", "Y11", "G11", "G11", "Y12", "Y12", "G12", "G12", "Y9", "Y9"]}, "up": "Y10"}
{"type": "draw", "player": "bob", "card": "B12", "from": "deck"}
{"type": "discard", "player": "bob", "card": "B12"}
{"type": "draw", "player": "ann", "from": "discard"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "B12"}
{"type": "deal", "hands": {"ann": ["R5", "B5", "G5", "R6", "R7", "R8", "R9", "B1", "B4", "G4"], "bob": ["Y9", "G9", "B9", "Y11", "G11", "B11", "Y1", "Y12", "G12", "B12"]}, "up": "B10"}
{"type": "draw", "player": "ann", "card": "Y3", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R5", "B5", "G5"], ["R6", "R7", "R8", "R9"]]}
{"type": "discard", "player": "ann", "card": "Y3"}
{"type": "draw", "player": "bob", "card": "G10", "from": "deck"}
{"type": "lay", "player": "bob", "groups": [["Y9", "G9", "B9"], ["Y11", "G11", "B11"]]}
{"type": "discard", "player": "bob", "card": "G10"}
{"type": "draw", "player": "ann", "card": "Y6", "from": "deck"}
{"type": "hit", "player": "ann", "card": "B1", "on": {"player": "ann", "group": 1}}"""),
    "P2_reread_laid_naturals": (14, 'hit_does_not_fit', """\
{"type": "game", "variant": "postal", "world": null, "players": ["ann", "bob"], "dealer": "ann"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "G2"], "bob": ["Y11", "Y11", "G11", "G11", "Y12", "Y12", "G12", "G12", "Y9", "Y9"]}, "up": "Y10"}
{"type": "draw", "player": "bob", "card": "B12", "from": "deck"}
{"type": "discard", "player": "bob", "card": "B12"}
{"type": "draw", "player": "ann", "from": "discard"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "B12"}
{"type": "deal", "hands": {"ann": ["R1", "B1", "G1", "R6", "R7", "R8", "R9", "Y4", "B4", "G4"], "bob": ["Y9", "G9", "B9", "Y11", "G11", "B11", "B8", "Y12", "G12", "B12"]}, "up": "B10"}
{"type": "draw", "player": "ann", "card": "Y3", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R1", "B1", "G1"], ["R6", "R7", "R8", "R9"]]}
{"type": "discard", "player": "ann", "card": "Y3"}
{"type": "draw", "player": "bob", "card": "G10", "from": "deck"}
{"type": "lay", "player": "bob", "groups": [["Y9", "G9", "B9"], ["Y11", "G11", "B11"]]}
{"type": "hit", "player": "bob", "card": "B8", "on": {"player": "ann", "group": 1}}"""),
    "P3_postal_run_position_ignored_R5": (None, None, """\
{"type": "game", "variant": "postal", "world": null, "players": ["ann", "bob"], "dealer": "ann"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "G2"], "bob": ["Y11", "Y11", "G11", "G11", "Y12", "Y12", "G12", "G12", "Y9", "Y9"]}, "up": "Y10"}
{"type": "draw", "player": "bob", "card": "B12", "from": "deck"}
{"type": "discard", "player": "bob", "card": "B12"}
{"type": "draw", "player": "ann", "from": "discard"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "B12"}
{"type": "deal", "hands": {"ann": ["R7", "B7", "G7", "Y2", "R2", "R3", "R4", "R5", "R1", "B12"], "bob": ["Y9", "G9", "B9", "Y11", "G11", "B11", "B8", "Y12", "G12", "G10"]}, "up": "B10"}
{"type": "draw", "player": "ann", "card": "Y6", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R7", "B7", "G7"], ["Y2", "R2", "R3", "R4"]]}
{"type": "hit", "player": "ann", "card": "R5", "on": {"player": "ann", "group": 2}}"""),
    "P3_postal_run_position_ignored_R1": (11, 'hit_does_not_fit', """\
{"type": "game", "variant": "postal", "world": null, "players": ["ann", "bob"], "dealer": "ann"}
{"type": "deal", "hands": {"ann": ["R1", "R1", "B1", "B1", "G1", "R2", "R2", "B2", "B2", "G2"], "bob": ["Y11", "Y11", "G11", "G11", "Y12", "Y12", "G12", "G12", "Y9", "Y9"]}, "up": "Y10"}
{"type": "draw", "player": "bob", "card": "B12", "from": "deck"}
{"type": "discard", "player": "bob", "card": "B12"}
{"type": "draw", "player": "ann", "from": "discard"}
{"type": "lay", "player": "ann", "groups": [["R1", "R1", "B1", "B1", "G1"], ["R2", "R2", "B2", "B2", "G2"]]}
{"type": "discard", "player": "ann", "card": "B12"}
{"type": "deal", "hands": {"ann": ["R7", "B7", "G7", "Y2", "R2", "R3", "R4", "R5", "R1", "B12"], "bob": ["Y9", "G9", "B9", "Y11", "G11", "B11", "B8", "Y12", "G12", "G10"]}, "up": "B10"}
{"type": "draw", "player": "ann", "card": "Y6", "from": "deck"}
{"type": "lay", "player": "ann", "groups": [["R7", "B7", "G7"], ["Y2", "R2", "R3", "R4"]]}
{"type": "hit", "player": "ann", "card": "R1", "on": {"player": "ann", "group": 2}}"""),
}


# --------------------------------------------------------------------------- 9, 10: the cases


@pytest.mark.parametrize("name", list(CASES))
def test_each_case_gets_its_verdict_from_the_api_and_the_cli(name, tmp_path):
    line, rule, log = CASES[name]
    r = replay(log.splitlines())
    got = None if r.legal else (r.error["line"], r.error["rule"])
    assert got == (None if line is None else (line, rule)), r.error
    path = tmp_path / f"{name}.jsonl"
    path.write_text(log + "\n", encoding="utf-8")
    out = runner.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == (0 if line is None else 1), out.output
    verdict = json.loads(out.output)
    assert verdict["legal"] is (line is None)
    if line is not None:
        assert (verdict["error"]["line"], verdict["error"]["rule"]) == (line, rule)


def _postal_second_hand(*last: dict) -> list[str]:
    """P1's log up to bob's lay in hand 2, then ``last``."""
    lines = CASES["P1_sticky_wild_number"][2].splitlines()[:13]
    return lines + [json.dumps(e) for e in last]


def test_a_hit_card_is_wild_only_under_the_hitters_own_number():
    # bob (phase 1, 1s wild) may hit Y1 onto ann's 5s; it stands there as a 5 ...
    r = replay(_postal_second_hand(
        {"type": "hit", "player": "bob", "card": "Y1", "on": {"player": "ann", "group": 1}}))
    assert r.legal, r.error
    laid = r.state.seat("ann").laid[0]
    assert [str(c) for c in laid.group.cards] == ["R5", "B5", "G5", "Y1"]
    assert str(laid.played) == "R5 B5 G5 W=5" and laid.acting == (3,)


def test_a_postal_card_lying_at_a_run_place_is_read_there():
    rules = Rules().with_(wild_numbers=frozenset({2}))
    run4 = Phase.parse("1 run of 4").groups[0]
    read, problems = read_group(run4, parse_cards("Y2 R2 R3 R4"), rules)
    assert not problems and [c.number for c in read] == [2, 2, 3, 4]  # Y2 in the 1's place
    read, _ = read_group(run4, parse_cards("R2 R3 R4 Y2"), rules)
    assert [str(c) for c in read] == ["R2", "R3", "R4", "Y2"]  # Y2 in the 5's place
    # the run: the G5 in front stands for 2 and the W for 8 (not 3-10)
    rules5 = Rules().with_(wild_numbers=frozenset({5}))
    run8 = Phase.parse("1 run of 8").groups[0]
    read, _ = read_group(run8, parse_cards("G5 B3 G4 G5 B6 G7 W B9"), rules5)
    assert " ".join(map(str, read)) == "G5 B3 G4 G5 B6 G7 W=8 B9"


def test_a_going_out_skip_that_names_a_player_is_still_legal():
    log = CASES["O1_going_out_skip_names_stranger"][2]
    r = replay(log.replace('"skip": "zed"', '"skip": "bob"').splitlines())
    assert r.legal and r.hands[0].went_out == "ann"


# --------------------------------------------------------------------------- 9: the log says it


def _positional(cards: list[str], read: list[Card], wild_numbers: frozenset[int]) -> bool:
    """Does a run written as ``cards`` say by position alone what ``read`` is?  Each
    card at its place: a stated wild its number, a plain W or a card of a wild number
    acting there anything, a natural its own number; and the run is in order."""
    start = read[0].number
    for k, (text, c) in enumerate(zip(cards, read, strict=True)):
        if c.number != start + k:
            return False
        written = Card.parse(text)
        if written.wild and written.number not in (None, start + k):
            return False
        if written.natural and written.number != start + k and written.number not in wild_numbers:
            return False
    return True


ROUND_TRIP = ["postal", "original", "utah", "japanese-wild-rules", "one-color-runs",
              "world-tour/okie-circle-j", "masters", "floating"]


@pytest.mark.parametrize("pack", ROUND_TRIP)
def test_logs_the_engine_writes_read_back_as_the_engine_meant(pack):
    """Bots play; every state is kept; the log read back by the replay gives the same
    table (each group, its reading and its postal wilds) after every event, and every
    run a lay writes says its reading by position."""
    name, _, world = pack.partition("/")
    for seed in range(3):
        players = ["ann", "bob", "cat"]
        g = Game.new(name, players, seed=seed, world=world or None)
        bots = {p: make_bot("random" if seed == 2 else "greedy", seed + k)
                for k, p in enumerate(players)}
        tables = []
        for _ in range(1500):
            if g.over:
                break
            st = g.state
            g = g.apply(bots[st.to_move].choose(view(st, st.to_move)))
            tables.append(tuple(s.laid for s in g.state.seats))
        log = g.to_log()
        parsed = read_log(log)
        state = parsed.state
        for ev in parsed.events:
            state = apply(state, ev.move)
            if isinstance(ev.move, mv.Deal):  # (dealt by the game itself, not a bot's move)
                continue
            assert tuple(s.laid for s in state.seats) == tables.pop(0), (pack, seed, ev)
            seat = state.seat(ev.move.player) if ev.move.player else None
            if isinstance(ev.move, mv.Lay) and seat.laid:
                wn = phase_rules(state.table, seat.laid_phase)[1].wild_numbers
                for laid, cards in zip(seat.laid, ev.move.groups, strict=True):
                    if laid.group.group.kind.is_run:
                        texts = [str(c) for c in cards]
                        assert "W" not in texts  # every wild in a run says its number
                        assert _positional(texts, list(laid.played.cards), wn), texts
        assert not tables
        assert Game.from_log(log).state.seats == state.seats


# --------------------------------------------------------------------------- 8: the take-back


def _japanese(hand: str):
    """japanese-wild-rules: ann has laid R5 B5 W | G9 G9 Y9, bob has laid his phase and
    holds ``hand`` (his turn, after his draw)."""
    log = [{"type": "game", "variant": "japanese-wild-rules", "world": None,
            "players": ["ann", "bob"], "dealer": "bob"},
           {"type": "deal", "hands": {"ann": ["R5", "B5", "W", "G9", "G9", "Y9", "R1", "R2", "R3", "R4"],
                                      "bob": ["R7", "B7", "G7", "R8", "B8", "G8", "Y11", "B1", "B2", "B3"]},
            "up": "G12"},
           {"type": "draw", "player": "ann", "from": "deck", "card": "Y12"},
           {"type": "lay", "player": "ann", "groups": [["R5", "B5", "W"], ["G9", "G9", "Y9"]]},
           {"type": "discard", "player": "ann", "card": "Y12"},
           {"type": "draw", "player": "bob", "from": "deck", "card": "R10"},
           {"type": "lay", "player": "bob", "groups": [["R7", "B7", "G7"], ["R8", "B8", "G8"]]}]
    r = replay(json.dumps(e) for e in log)
    assert r.legal, r.error
    state = r.state
    bob = state.table.index("bob")
    return with_(state, seats=tuple(with_(s, hand=tuple(parse_cards(hand))) if k == bob else s
                                    for k, s in enumerate(state.seats)))


def _rule(state, move) -> str | None:
    try:
        apply(state, move)
    except IllegalMove as e:
        return e.rule
    return None


def test_a_take_back_that_leaves_the_wild_as_the_only_card_ends_the_hand_by_its_hit():
    # the dead end: the wild may not be discarded, and a hand ended only by a
    # discard; the taken wild must go back on the table, so its hit ends the hand
    state = apply(_japanese("Y5"), mv.Swap("bob", Card(5, "Y"), "ann", 1))
    assert state.reuse_owed == 1 and len(state.seat("bob").hand) == 1
    assert _rule(state, mv.Discard("bob", Card(wild=True))) == "must_reuse_wild"
    moves = legal_moves(state)
    assert moves and all(isinstance(m, mv.Hit) and m.card.wild for m in moves)
    after = apply(state, moves[0])
    assert after.results and after.results[-1].went_out == "bob"


def test_a_taken_wild_may_not_be_discarded_or_saved():
    state = apply(_japanese("Y5 R1"), mv.Swap("bob", Card(5, "Y"), "ann", 1))
    assert state.reuse_owed == 1
    assert _rule(state, mv.Discard("bob", Card(wild=True))) == "must_reuse_wild"
    # (as the cases' referee reads it: the obligation bars the wild's discard, not others')
    assert _rule(state, mv.Discard("bob", Card(1, "R"))) is None
    moves = legal_moves(state)
    assert any(isinstance(m, mv.Hit) and m.card.wild for m in moves)
    assert not any(isinstance(m, mv.Discard) and m.card.wild for m in moves)


def test_a_hit_may_leave_the_taken_wild_last_since_its_hit_can_end_the_hand():
    state = apply(_japanese("Y5 Y9"), mv.Swap("bob", Card(5, "Y"), "ann", 1))
    after = apply(state, mv.Hit("bob", Card(9, "Y"), "ann", 2))
    assert [str(c) for c in after.seat("bob").hand] == ["W"]
    assert legal_moves(after) and all(isinstance(m, mv.Hit) for m in legal_moves(after))


def test_a_take_back_is_refused_where_the_wild_could_not_go_back():
    # nobody may go out before play comes round to the dealer (postal), nor leave one card
    # to discard: the wild taken back could not be hit, and may not be discarded
    state = _japanese("Y5 R1")
    house = dataclasses.replace(state.table.house, go_out_after_first_round=True)
    state = with_(state, table=dataclasses.replace(state.table, house=house), dealer_reached=False)
    assert _rule(state, mv.Swap("bob", Card(5, "Y"), "ann", 1)) == "must_reuse_wild"
    assert legal_moves(state)


DEAD_END = Path(__file__).resolve().parents[2] / "shared" / "cases" / "referee" / \
    "japanese-wild-rules-dead-end.jsonl"


@pytest.mark.skipif(not DEAD_END.exists(), reason="the shared cases are beside the checkout")
def test_the_shared_dead_end_log_is_legal_and_bob_has_a_move():
    lines = DEAD_END.read_text(encoding="utf-8").splitlines()
    r = replay(lines)
    assert r.legal, r.error
    moves = legal_moves(r.state)
    assert moves and all(isinstance(m, mv.Hit) and m.card.wild for m in moves)


def _all_packs() -> list[tuple[str, str | None]]:
    out = []
    for path in sorted(variants_dir().glob("*.yaml")):
        pack = load_pack(path.stem)
        if pack.dice is not None:
            continue  # (played with dice: tests/test_dice_game.py)
        out += [(pack.name, w.name if len(pack.worlds) > 1 else None) for w in pack.worlds]
    return out


@pytest.mark.parametrize(("pack", "world"), _all_packs())
def test_every_state_of_bot_games_has_a_legal_move_and_greedy_games_end(pack, world):
    """Item 8's property, over every built-in pack and world: the player to move always
    has a legal move (seeded random play, capped; then greedy play), and greedy games end."""
    for bot, seed, cap in (("random", 1, 1500), ("random", 2, 1500), ("greedy", 3, 20_000)):
        players = ["ann", "bob", "cat"] if seed != 2 else ["ann", "bob"]
        g = Game.new(pack, players, seed=seed, world=world)
        bots = {p: make_bot(bot, seed + k) for k, p in enumerate(players)}
        for _ in range(cap):
            if g.over:
                break
            st = g.state
            v = view(st, st.to_move)
            assert v.moves, f"{pack}/{world}: no legal move for {st.to_move} ({bot}, seed {seed})"
            g = g.apply(bots[st.to_move].choose(v))
        if bot == "greedy":
            assert g.over, f"{pack}/{world}: a greedy game did not end in {cap} moves"


def test_random_bots_play_japanese_wild_rules_without_a_dead_end():
    from phasedsl.design.simulate import simulate

    records = simulate("japanese-wild-rules", 3, 4, bot="random", seed=5, max_moves=6000)
    assert len(records) == 4


# --------------------------------------------------------------------------- 13: no progress


LONG = """name: long
title: One long run
description: a run no hand can hold
source: test
extends: original
rules:
  game_length: 1
phases: ["1 run of 12"]
"""

LATE = """name: late
title: A phase no hand can make, after one that can be made
description: stalls once every player is on phase 2
source: test
extends: original
rules:
  game_length: 2
  house_rules:
    fixed_hands: 30
phases: ["2 sets of 3", "1 run of 12"]
"""

WHY = "phase 1 (1 run of 12) needs 12 cards, but a player holds at most 11"


def _cli(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "phasedsl.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [["simulate", "--variant", "{p}", "--players", "3",
                                      "--games", "2"],
                                     ["report", "{p}", "-o", "{d}/r.html", "--games", "2"],
                                     ["play", "--variant", "{p}", "--seed", "1"]])
def test_a_pack_no_game_of_which_can_end_is_refused_at_once(command, tmp_path):
    pack = tmp_path / "long.yaml"
    pack.write_text(LONG, encoding="utf-8")
    args = [a.format(p=pack, d=tmp_path) for a in command]
    start = time.monotonic()
    r = _cli(*args)
    assert time.monotonic() - start < 15
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("error: long: " + WHY) and r.stderr.count("\n") == 1, r.stderr
    assert not (tmp_path / "r.html").exists()
    # lint says it in the same words
    assert WHY in _cli("lint", str(pack)).stdout


def test_unplayable_says_why_and_lets_playable_packs_through(tmp_path):
    from phasedsl.packs.lint import unplayable

    pack = tmp_path / "long.yaml"
    pack.write_text(LONG, encoding="utf-8")
    assert WHY in unplayable(load_pack(str(pack)))
    late = tmp_path / "late.yaml"
    late.write_text(LATE, encoding="utf-8")
    assert unplayable(load_pack(str(late))) is None  # fixed hands: the game may end first
    no_cap = LATE.replace("  house_rules:\n    fixed_hands: 30\n", "")
    late.write_text(no_cap, encoding="utf-8")
    assert "phase 2 (1 run of 12)" in unplayable(load_pack(str(late)))
    for name, world in _all_packs():
        assert unplayable(load_pack(name), world) is None, (name, world)


def test_a_game_no_player_can_progress_in_is_stopped_and_reported_as_stalled(tmp_path):
    from phasedsl.design.simulate import play_game, summarize

    pack = tmp_path / "late.yaml"
    pack.write_text(LATE, encoding="utf-8")
    start = time.monotonic()
    record = play_game(load_pack(str(pack)), 3, seed=1)
    assert record.stalled and not record.capped
    assert time.monotonic() - start < 10
    summary = summarize([record], 3)
    assert summary["stalled"] == [1] and summary["capped"] == [] and summary["finished"] == 0
    r = _cli("simulate", "--variant", str(pack), "--players", "3", "--games", "2")
    assert r.returncode == 0, r.stderr
    assert "stalled (no hand could ever end" in r.stdout


# --------------------------------------------------------------------------- 14: even / odd


@pytest.mark.parametrize("pack", ["even-phases", "odd-phases"])
def test_even_and_odd_phase_packs_simulate_and_report(pack, tmp_path):
    r = runner.invoke(app, ["simulate", "--variant", pack, "--players", "3", "--games", "2",
                            "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    played = [2, 4, 6, 8, 10] if pack == "even-phases" else [1, 3, 5, 7, 9]
    assert {row["phase"] for row in s["phases"]} <= set(played)
    assert all(row["dealt_odds"] is not None for row in s["phases"])
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", pack, "-o", str(out), "--games", "1"])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert f'id="phase-{played[0]}"' in html
    assert f'id="phase-{3 - played[0]}"' not in html  # a phase the game skips


def test_play_stops_a_game_no_player_can_progress_in(tmp_path):
    from phasedsl.cli.play import play_game

    pack = tmp_path / "long.yaml"
    pack.write_text(LONG, encoding="utf-8")
    game = Game.new(str(pack), ["ann", "bob"], seed=1)  # (the CLI refuses this pack first)
    said: list[str] = []
    asked: list[str] = []
    _, finished = play_game(game, "ann", {"bob": make_bot("greedy")},
                            lambda prompt: asked.append(prompt), said.append)
    assert finished and not asked
    assert said[-1].startswith("no hand can ever end again (phase ")


# --------------------------------------------------------------------------- issue 26, item 9

U1 = Path(__file__).parent / "cases" / "referee"


def test_a_utah_swap_of_the_last_card_does_not_go_out():
    # A Utah swap plays a card from the hand as a hit does: swapping the last card for a
    # laid wild would end the hand with no discard (the outside testers' seeded game).
    lines = (U1 / "U1_utah_swap_last_card.jsonl").read_text(encoding="utf-8").splitlines()
    r = replay(lines)
    assert not r.legal and (r.error["line"], r.error["rule"]) == (186, "cannot_go_out_by_play")
    control = replay((U1 / "U1_control_hit_before_swap.jsonl").read_text(encoding="utf-8").splitlines())
    assert control.legal, control.error
    # the engine does not offer it either: no legal move empties the hand without a discard
    state = Game.from_log(lines[:185]).state
    hand = next(s.hand for s in state.seats if s.name == "ann")
    assert len(hand) == 1
    assert not any(isinstance(m, mv.Swap) for m in legal_moves(state))


NO_OUT = Path(__file__).resolve().parents[2] / "shared" / "cases" / "packs" / "no-one-goes-out.yaml"
NO_OUT_TEXT = """\
name: no-one-goes-out
title: No one goes out
description: phase 1 is a run of 4 pairs, which takes no hits
source: a minimal reproduction
extends: original
phases:
  - "1 run of 4 pairs"
  - "2 sets of 3"
"""


@pytest.fixture()
def no_out(tmp_path):
    """The outside testers' pack (../shared/cases/packs/no-one-goes-out.yaml) where it is
    beside the checkout, else the same phases (a clone elsewhere lints it the same)."""
    path = tmp_path / "no-one-goes-out.yaml"
    rest = ["1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4", "1 run of 7", "1 run of 8",
            "1 run of 9", "2 sets of 4", "7 cards of one color", "1 set of 5 + 1 set of 2"]
    path.write_text(NO_OUT.read_text(encoding="utf-8") if NO_OUT.is_file() else
                    NO_OUT_TEXT + "".join(f'  - "{p}"\n' for p in rest), encoding="utf-8")
    return path


def test_lint_warns_of_a_phase_that_takes_no_hits(no_out):
    # lint was silent on a phase no laid group of which takes a hit
    import re

    r = _cli("lint", str(no_out))
    assert r.returncode == 1 and "0 errors, 1 warning" in r.stderr, r.stderr  # (warnings: 1)
    assert re.search(r"no-one-goes-out\.yaml:\d+:5: warning: phase 1 \(1 run of 4 pairs\) "
                     r"takes no hits \(a run of pairs grows only by two ", r.stdout), r.stdout
    assert "goes out only by laying all 10 cards at once" in r.stdout
    from phasedsl.packs.lint import going_out

    for name, world in _all_packs():  # no built-in pack is warned of it
        pack = load_pack(name)
        for e in pack.world(world).phases:
            assert going_out(e.phase, pack.world(world).rules) is None, (name, world, e.text)


def test_simulate_and_report_say_why_games_stopped(no_out, tmp_path):
    # every game ran to the 100,000-move cap and the summary said only "stopped at the
    # safety cap"; now a hand is stopped after 20,000 moves and the reason names the phase
    start = time.monotonic()
    r = _cli("simulate", str(no_out), "--games", "2", "--json", timeout=60)
    assert time.monotonic() - start < 30
    out = json.loads(r.stdout)
    assert out["finished"] == 0 and out["capped"] == [1, 2]
    (why,) = out["why_stopped"]
    assert why["games"] == [1, 2]
    assert why["why"].startswith("hand 1 did not end in 20,000 moves; the players were on "
                                 "phase 1 (1 run of 4 pairs), which takes no hits")
    text = _cli("simulate", str(no_out), "--games", "1", timeout=60).stdout
    assert "why game 1 stopped: hand 1 did not end" in text
    r = _cli("report", str(no_out), "-o", str(tmp_path / "r.html"), "--games", "1",
             timeout=120)
    assert r.returncode == 0, r.stderr
    assert "which takes no hits" in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [
    ["simulate", "{p}", "--games", "2"],
    ["report", "{p}", "-o", "{d}/r.html"],
    ["tournament", "{p}", "--bot", "greedy", "--bot", "random", "--games", "1"],
])
def test_a_first_phase_no_one_can_go_out_after_is_refused_at_once(command, tmp_path):
    # extras off: a run of 4 pairs is laid as 8 cards, takes no hits, and a hand of 10
    # cannot be played out: every player starts on it, so no hand can ever end
    pack = tmp_path / "no-one-goes-out.yaml"
    pack.write_text(NO_OUT_TEXT.replace("extends: original\n", "extends: original\nrules:\n"
                                        "  lay_down:\n    extras: false\n"), encoding="utf-8")
    start = time.monotonic()
    r = _cli(*[a.format(p=pack, d=tmp_path) for a in command])
    assert time.monotonic() - start < 15
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("error: no-one-goes-out: no hand can ever end: every player "
                               "starts on phase 1 (1 run of 4 pairs), which takes no hits")
    assert "holds at most 8 of the 10 cards" in r.stderr and "Traceback" not in r.stderr
    assert "no player who lays it can go out" in _cli("lint", str(pack)).stdout


def test_a_hand_no_one_can_go_out_of_is_stalled_in_play(tmp_path):
    from phasedsl.game.table import stuck
    from phasedsl.packs.lint import going_out

    why, proven = going_out(Phase.parse("2 groups of 3 totalling 18"), Rules())
    assert proven and "holds at most 6 of the 10 cards" in why
    assert going_out(Phase.parse("cards totalling 34"), Rules())[1] is False  # any count
    assert going_out(Phase.parse("1 run of 4 pairs"), Rules())[1] is False  # extras: 5 pairs
    assert going_out(Phase.parse("1 run of 4 pairs"), Rules(extras=False))[1] is True
    assert going_out(Phase.parse("1 run of 4 pairs + 1 set of 2"), Rules()) is None
    assert going_out(Phase.parse("2 sets of 3"), Rules()) is None
    # any order, every phase one nobody can go out after: the first hand is stalled at once
    path = tmp_path / "no-one-goes-out.yaml"
    path.write_text(NO_OUT_TEXT.replace("extends: original\n", "extends: original\nrules:\n"
                                        "  phase_order: any\n")
                    .replace('"1 run of 4 pairs"', '"2 groups of 3 totalling 18"')
                    .replace('"2 sets of 3"', '"5 cards totalling 20"'), encoding="utf-8")
    game = Game.new(str(path), ["ann", "bob"], seed=1)
    while game.state.stage != "turn":
        game = game.apply(game.legal_moves()[0])
    said = stuck(game.state)
    assert said and "phase 1 (2 groups of 3 totalling 18) takes no hits" in said
    assert "phase 2 (5 cards totalling 20) takes no hits" in said
    r = _cli("simulate", str(path), "--games", "1")
    assert r.returncode == 2 and "every phase is like phase 1" in r.stderr, r.stderr
