"""The referee judges each move once (issue 18).

``legal_moves`` builds the legal moves and judges each; ``apply`` of one of those very
moves takes what was found.  So the list must be exactly what the full referee accepts:
checked here on sampled states of seeded games in every built-in pack and world, by
trying every candidate that can be written down (each discard of each card with each
skip and down target, each draw, each hit and swap of each card and wild onto each group
at each end, each save, declaration, gift and abandon, and the lays) through the full
referee and comparing where they lead.  Then: a move built by hand (or read from a log)
is judged in full, a listed move cannot be carried to another state, a bot with one legal
move is not asked, and seeded games are the same move for move whether each move is taken
from the list or judged again in full.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import ClassVar

import pytest

from phasedsl.design.simulate import play_game
from phasedsl.game import Game, GameState, IllegalMove, actions, apply, checks, legal_moves, view
from phasedsl.game import moves as mv
from phasedsl.game.candidates import candidates
from phasedsl.game.state import replace
from phasedsl.packs.pack import as_pack, builtin_names
from phasedsl.players.bots import GreedyBot, RandomBot

# (every card game; the dice pack is played with dice: tests/test_dice_game.py)
WORLDS = [(name, world.name if len(pack.worlds) > 1 else None)
          for name in builtin_names() for pack in [as_pack(name, "test")]
          for world in pack.worlds if pack.dice is None]
PLAYERS = ["ann", "bob", "cat"]


# --------------------------------------------------------------------------- helpers


def outcome(state: GameState) -> tuple:
    """What a state is, all but the table (fixed for the game): to compare where moves
    lead without comparing packs."""
    return tuple(getattr(state, f.name) for f in fields(GameState) if f.name != "table")


def fresh(state: GameState) -> GameState:
    """An equal state that has had no moves listed for it: every move is judged in full."""
    return replace(state)


def replace_move(move: mv.Move) -> mv.Move:
    """An equal move that is not the object ``legal_moves`` listed (as if typed)."""
    return type(move)(**{f.name: getattr(move, f.name) for f in fields(move)})


def judged(state: GameState, move: mv.Move) -> GameState | None:
    try:
        return apply(fresh(state), move)
    except IllegalMove:
        return None


def check_state(state: GameState) -> int:
    """The property on one state; returns how many candidates were tried."""
    listed = legal_moves(state)
    assert legal_moves(state) == listed  # (asked again: the same answer, kept)
    lays = [m for m in listed if isinstance(m, mv.Lay)]
    # every listed move is legal to the full referee, and leads where the kept result says
    kept = {}
    for m in listed:
        full = apply(fresh(state), replace_move(m))
        assert outcome(apply(state, m)) == outcome(full), m
        if not isinstance(m, mv.Lay):
            kept[outcome(full)] = m
    # every legal candidate leads where some listed move does: nothing legal is missed
    tried = candidates(state)
    for m in tried:
        after = judged(state, m)
        if after is not None:
            assert outcome(after) in kept, f"{m} is legal but no listed move does what it does"
    # a lay: the solver's meld for each phase listed; any phase a lay of those groups makes
    # (any order: each phase one may pick) is listed too
    phases = {apply(state, m).seat(state.to_move).laid_phase for m in lays}
    for lay in lays:
        for n in [None, *range(1, len(state.table.entries) + 1)]:
            after = judged(state, mv.Lay(lay.player, lay.groups, n))
            if after is not None and after.hands_played == state.hands_played:
                assert after.seat(lay.player).laid_phase in phases
    return len(tried)


def sample_states(name: str, world: str | None, seed: int) -> list[GameState]:
    """States from two seeded games (greedy bots; random moves with plays favoured), and
    from the second replayed from its log without its seed (a draw pile known only as a
    multiset), sampled so that states with laid groups are among them."""
    rng = random.Random(seed)
    out: list[GameState] = []
    pack = as_pack(name, "test")
    for kind in ("greedy", "random"):
        g = Game.new(pack, PLAYERS, seed=seed, world=world)
        bots = {p: (GreedyBot(k) if kind == "greedy" else RandomBot(seed + k))
                for k, p in enumerate(PLAYERS)}
        seen: list[GameState] = []
        for _ in range(200):
            if g.over:
                break
            st = g.state
            seen.append(st)
            moves = g.legal_moves()
            if kind == "random":
                plays = [m for m in moves if isinstance(m, (mv.Lay, mv.Hit, mv.Swap))]
                move = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(moves)
            else:
                move = bots[st.to_move].choose(view(st, st.to_move))
            g = g.apply(move)
        laid = [s for s in seen if any(x.laid for x in s.seats) and s.step == "play"]
        out += rng.sample(seen, min(4, len(seen))) + rng.sample(laid, min(4, len(laid)))
    header, *events = g.to_log()
    unseeded = [header.replace(f', "seed": {seed}', ""), *events]
    replayed = Game.from_log(unseeded[:max(2, len(unseeded) // 2)], pack=pack)
    out.append(replayed.state)
    return out


# --------------------------------------------------------------------------- the property


@pytest.mark.parametrize(("name", "world"), WORLDS)
def test_listed_moves_are_exactly_what_the_full_referee_accepts(name, world):
    seed = sum(map(ord, f"{name}/{world}"))
    tried = sum(check_state(st) for st in sample_states(name, world, seed))
    assert tried > 0


def test_the_property_covers_every_pack_and_world():
    cards = {n for n in builtin_names() if as_pack(n, "test").dice is None}
    assert {name for name, _ in WORLDS} == cards and "dice" not in cards
    assert ("world-tour", "okie-circle-j") in WORLDS and ("original", None) in WORLDS
    assert len([w for name, w in WORLDS if name == "world-tour"]) == 14


# --------------------------------------------------------------------------- judged once


def _counting(monkeypatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)

    def counted(*args, **kw):
        calls.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(module, name, counted)
    return calls


def _state_with_a_lay() -> GameState:
    g = Game.new("original", PLAYERS, seed=3)
    bots = {p: GreedyBot() for p in PLAYERS}
    while not any(isinstance(m, mv.Lay) for m in g.legal_moves()):
        g = g.apply(bots[g.state.to_move].choose(view(g.state, g.state.to_move)))
    return fresh(g.state)


def _state_with_a_hit() -> GameState:
    g = Game.new("original", PLAYERS, seed=3)
    bots = {p: GreedyBot() for p in PLAYERS}
    while not any(isinstance(m, mv.Hit) for m in g.legal_moves()):
        g = g.apply(bots[g.state.to_move].choose(view(g.state, g.state.to_move)))
    return fresh(g.state)


def test_a_listed_lay_is_verified_once(monkeypatch):
    state = _state_with_a_lay()
    calls = _counting(monkeypatch, actions, "verify")
    lay = next(m for m in legal_moves(state) if isinstance(m, mv.Lay))
    assert len(calls) == 1
    after = apply(state, lay)
    assert len(calls) == 1  # (before: verified again by apply)
    assert after.seat(lay.player).laid_phase is not None


def test_a_listed_hit_is_judged_once(monkeypatch):
    state = _state_with_a_hit()
    calls = _counting(monkeypatch, actions, "extend")
    hits = [m for m in legal_moves(state) if isinstance(m, mv.Hit)]
    listed = len(calls)
    assert hits and listed >= len(hits)
    apply(state, hits[0])
    assert len(calls) == listed


def test_a_listed_discard_is_checked_once(monkeypatch):
    state = _state_with_a_hit()
    calls = _counting(monkeypatch, checks.DiscardCheck, "check")
    discard = next(m for m in legal_moves(state) if isinstance(m, mv.Discard))
    listed = len(calls)
    assert listed >= 1
    apply(state, discard)
    assert len(calls) == listed


def test_a_move_built_by_hand_is_judged_in_full(monkeypatch):
    state = _state_with_a_lay()
    lay = next(m for m in legal_moves(state) if isinstance(m, mv.Lay))
    calls = _counting(monkeypatch, actions, "verify")
    typed = mv.Lay(lay.player, lay.groups, lay.phase)  # equal, but not the listed object
    assert typed == lay and typed is not lay
    assert outcome(apply(state, typed)) == outcome(apply(state, lay))
    assert len(calls) == 1
    read = mv.Lay.from_log(lay.to_log(), state.table.deck)  # as a log line gives it
    apply(state, read)
    assert len(calls) == 2


def test_a_listed_move_cannot_be_carried_to_another_state():
    state = _state_with_a_hit()
    moves = legal_moves(state)
    discard = next(m for m in moves if isinstance(m, mv.Discard))
    after = apply(state, discard)
    # the same object, played again on the state after it (the next player's turn)
    with pytest.raises(IllegalMove) as e:
        apply(after, discard)
    assert e.value.rule == "not_your_turn"
    # a state made from the listed one (here: without the card) keeps nothing listed
    seats = list(state.seats)
    seats[state.turn] = replace(seats[state.turn], hand=tuple(
        c for c in seats[state.turn].hand if c != discard.card))
    with pytest.raises(IllegalMove) as e:
        apply(replace(state, seats=tuple(seats)), discard)
    assert e.value.rule == "not_in_hand"


def test_a_copied_or_pickled_state_keeps_nothing_listed():
    import copy
    import pickle

    from phasedsl.game.judged import listed

    state = _state_with_a_hit()
    moves = legal_moves(state)
    assert listed(state) == tuple(moves)
    for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert other == state and listed(other) is None
        assert outcome(apply(other, moves[0])) == outcome(apply(state, moves[0]))


def test_a_log_is_refereed_in_full():
    """The log referee never reaches the kept results: an illegal line is still found."""
    from phasedsl.game.log import replay

    g = Game.new("original", PLAYERS, seed=5)
    for _ in range(3):
        g = g.apply(g.legal_moves()[0])
    log = g.to_log()
    bad = [*log[:-1], '{"type": "discard", "player": "cat", "card": "R1"}']
    r = replay(bad)
    assert not r.legal and r.error["line"] == len(bad)


# --------------------------------------------------------------------------- bots asked


class CountingBot(GreedyBot):
    asked: ClassVar[list[int]] = []

    def choose(self, view):
        CountingBot.asked.append(len(view.moves))
        return super().choose(view)


def test_a_bot_with_one_legal_move_is_not_asked(monkeypatch):
    import phasedsl.design.simulate as sim

    views = _counting(monkeypatch, sim, "view")
    CountingBot.asked = []
    rec = play_game(as_pack("original", "test"), 3, CountingBot, seed=2, keep_log=True)
    asked = CountingBot.asked
    assert asked and min(asked) >= 2  # (before: asked for every move, one or not)
    assert len(views) == len(asked)  # a view is built only for a bot asked
    moves = [line for line in rec.log[1:] if '"type": "deal"' not in line]
    assert len(asked) < len(moves)


# --------------------------------------------------------------------------- same games


def judged_in_full_game(name: str, world: str | None, players: int, seed: int,
                        index: int) -> list[str]:
    """``simulate.play_game``'s game ``index`` played the old way: every bot asked at
    every move, and every move judged in full (a copy of the listed move, applied to a
    state with nothing kept)."""
    from phasedsl.design.simulate import PLAYER_NAMES, game_seed

    s = game_seed(seed, index)
    names = PLAYER_NAMES[:players]
    g = Game.new(name, names, seed=s, world=world)
    bots = {n: GreedyBot(s + k + 1) for k, n in enumerate(names)}
    from phasedsl.game.table import stuck

    checked = -1
    while not g.over:
        st = g.state
        if st.stage == "turn" and st.hands_played != checked:
            checked = st.hands_played
            if stuck(st):
                break
        move = bots[st.to_move].choose(view(fresh(st), st.to_move))
        g = Game(fresh(st), g.header, g.trail).apply(replace_move(move))
    return g.to_log()


@pytest.mark.parametrize(("name", "world"), [("original", None), ("masters", None),
                                            ("utah", None), ("postal", None),
                                            ("japanese-lists", "japanese-list-2")])
def test_seeded_games_are_the_same_as_judged_in_full(name, world):
    pack = as_pack(name, "test")
    for index in range(2 if name == "original" else 1):
        rec = play_game(pack, 3, "greedy", seed=11, index=index, world=world, keep_log=True)
        assert list(rec.log) == judged_in_full_game(name, world, 3, 11, index)
