"""Seeded random games: every move the referee offers is legal, no card is made or lost,
and the log the game writes replays to the same standings."""

import random
from collections import Counter

import pytest

from phasedsl.game import Game
from phasedsl.game import moves as mv
from phasedsl.game.engine import cards_in_play
from phasedsl.game.log import replay

PACKS = ["original", "masters", "masters-variant-1", "masters-variant-2", "postal", "floating",
         "truly-wild", "thai", "pick-a-phase", "japanese-wild-rules", "utah", "dealers-choice",
         "anti-phase", "anti-phase-for-others", "even-phases", "odd-phases", "everyone-advances",
         "short-game-5", "one-color-runs", "playing-cards", "twist", "world-tour/okie-circle-j",
         "japanese-lists/japanese-list-2"]


def play(pack: str, players: list[str], seed: int, max_moves: int) -> Game:
    name, _, world = pack.partition("/")
    g = Game.new(name, players, seed=seed, world=world or None)
    rng = random.Random(seed)
    deck = Counter(g.state.table.deck.all_cards())
    for _ in range(max_moves):
        if g.over:
            break
        moves = g.legal_moves()
        assert moves, f"no legal move at {g.state.stage}/{g.state.step}"
        # a random legal move, with plays favoured so that games get somewhere
        plays = [m for m in moves if isinstance(m, (mv.Lay, mv.Hit, mv.Swap))]
        g = g.apply(rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves))
        st = g.state
        if st.stage not in ("deal", "over"):
            assert Counter(cards_in_play(st)) == deck  # conservation, so no card is held twice
    return g


@pytest.mark.parametrize("pack", PACKS)
def test_random_legal_games_replay_as_legal(pack):
    players = ["ann", "bob", "cat"] if pack.startswith("masters") else ["ann", "bob", "cat",
                                                                         "dan"]
    g = play(pack, players, seed=sum(map(ord, pack)), max_moves=500)
    r = replay(g.to_log())
    assert r.legal, r.error
    assert [h.to_json() for h in r.hands] == [h.to_json() for h in g.state.results]


@pytest.mark.parametrize("seed", range(2))
def test_whole_games_finish_with_a_winner(seed):
    g = play("original", ["ann", "bob", "cat", "dan"], seed, max_moves=20_000)
    assert g.over and g.winner in ("ann", "bob", "cat", "dan")
    r = replay(g.to_log())
    assert r.legal and r.winner == g.winner
    last = r.hands[-1]
    assert any(last.to_json()["next_phase"][p] is None for p in ("ann", "bob", "cat", "dan"))


def test_a_player_view_hides_other_hands_and_the_draw_pile():
    from dataclasses import replace

    from phasedsl.game import view

    g = Game.new("original", ["ann", "bob", "cat"], seed=4)
    st = g.state
    seen = view(st, "ann")
    # scramble what ann cannot see: bob's and cat's hands swapped, the draw pile reversed
    seats = list(st.seats)
    seats[1], seats[2] = (replace(seats[1], hand=seats[2].hand[:len(seats[1].hand)]),
                          replace(seats[2], hand=seats[1].hand))
    other = replace(st, seats=tuple(seats), stock=st.stock[::-1])
    assert view(other, "ann") == seen
    assert seen.moves and all(m.player == "ann" for m in seen.moves)
    assert view(st, "bob").moves == ()


VALUES = [None, 0, -1, 1.5, True, "", "ann", "zed", "W", "W=13", "R0", "S", [], {}, ["R1"],
          [["W"]], {"player": "ann", "group": 0}, {"player": "bob", "group": 99}, "deck",
          "discard", "save", 10**30, "x" * 20]


@pytest.mark.parametrize("pack", ["original", "masters-variant-2", "japanese-wild-rules",
                                  "dealers-choice"])
def test_mangled_logs_are_judged_or_refused_never_crash(pack):
    """Random damage to a legal log: the referee answers legal/illegal or raises its own
    error (exit 2), never anything else."""
    import contextlib
    import json

    from phasedsl.errors import PhaseDSLError

    log = [json.loads(line) for line in play(pack, ["ann", "bob", "cat"], 3, 150).to_log()]
    rng = random.Random(pack)
    for _ in range(150):
        lines = json.loads(json.dumps(log))
        k = rng.randrange(len(lines))
        ev = lines[k]
        op = rng.random()
        if op < 0.6:
            ev[rng.choice([*ev, "type"])] = rng.choice(VALUES)
        elif op < 0.8:
            lines.insert(k, dict(lines[rng.randrange(len(lines))]))
        else:
            ev["type"] = rng.choice(["draw", "lay", "hit", "swap", "discard", "save", "give",
                                     "abandon", "declare", "deal"])
        with contextlib.suppress(PhaseDSLError):
            replay([json.dumps(x) for x in lines])


def test_whole_anti_phase_for_others_games_send_players_down_and_replay():
    # Seed 3 plays a whole game in which the rule card ends two hands as the going-out
    # card (``down``) and is caught in hands at other hands' ends.
    g = play("anti-phase-for-others", ["ann", "bob", "cat", "dan"], 3, max_moves=20_000)
    log = g.to_log()
    assert g.over and sum('"down": ' in line for line in log) == 2
    r = replay(log)
    assert r.legal and r.winner == g.winner
    assert [h.to_json() for h in r.hands] == [h.to_json() for h in g.state.results]
