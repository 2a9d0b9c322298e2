"""What the faster referee and greedy bot rely on (issue 18's speed goal).

Each speed-up keeps a fact that a test can check: a group made by a hit or a lay keeps the
state a fresh reading of it gives (``hits.remember_read`` skips that reading); equal cards are
one object across read text, a deck and the solver's tables (``cards.interned``); a
judged draw does not hold the state it was judged on (no reference cycle: the state goes
as soon as it is dropped); and the games themselves are the same as the referee that
judged every move in full plays them (``test_referee_once``).
"""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from phasedsl.game import Game, legal_moves
from phasedsl.game import moves as mv
from phasedsl.game.checks import hit_rules
from phasedsl.game.view import view
from phasedsl.melds.hits import laid as hits_laid
from phasedsl.melds.hits import targets
from phasedsl.melds.hits.laid import build_state
from phasedsl.melds.layout import read_group
from phasedsl.model.cards import STANDARD_DECK, Card, Deck, interned, parse_cards
from phasedsl.packs.pack import as_pack, builtin_names
from phasedsl.players.bots import GreedyBot
from phasedsl.solver.classes import tables

# (every card game of one world; the dice pack is played with dice)
PACKS = [name for name in builtin_names() if len(as_pack(name, "test").worlds) == 1
         and as_pack(name, "test").dice is None]


def _fields(st) -> tuple:
    return (st.kind, st.low, st.high, st.number, st.color, st.parity, st.cmap, st.swaps,
            st.bounded, st.ends)


@pytest.mark.parametrize("name", PACKS)
def test_every_group_on_the_table_has_the_state_a_fresh_reading_gives(name):
    rng = random.Random(name)
    checked = 0
    for seed in range(2):
        game = Game.new(name, ["ann", "bob", "cat"], seed=seed)
        for _ in range(1500):
            if game.over:
                break
            moves = legal_moves(game.state)
            # hits first, so that groups grow by hits (remember_read's groups)
            hits = [m for m in moves if type(m).__name__ in ("Hit", "Swap")]
            game = game.apply(rng.choice(hits) if hits and rng.random() < 0.9
                              else rng.choice(moves))
            state = game.state
            if state.stage != "turn":
                continue
            rules = hit_rules(state)
            for seat in state.seats:
                for laid in seat.laid:
                    lg = laid.played
                    got = (lg._memo or {}).get(id(rules))
                    if got is None:
                        continue
                    read, problems = read_group(lg.group, lg.cards, rules)
                    assert not problems and read == lg.cards  # a reading reads as itself
                    fresh = build_state(lg.group, lg.cards, read, rules)
                    assert _fields(got[1]) == _fields(fresh)
                    checked += 1
    assert checked > 0


def test_equal_cards_are_one_object_across_text_decks_and_the_solver():
    deck = Deck()
    dealt = deck.all_cards()
    r5 = [c for c in dealt if c == Card(5, "R")]
    assert len(r5) == deck.copies and all(c is r5[0] for c in r5)
    assert parse_cards("R5")[0] is r5[0] is interned(Card(5, "R"))
    solver_r5 = tables(STANDARD_DECK).cards[[str(c) for c in tables(STANDARD_DECK).cards]
                                           .index("R5")]
    assert solver_r5 is r5[0]
    # a card made afresh is equal, and interned gives the one object back
    fresh = Card(5, "R")
    assert fresh == r5[0] and interned(fresh) is r5[0]


def test_a_state_whose_draws_were_judged_is_freed_when_dropped():
    # (old code: the judged draw held the state, which held the judgment: a cycle that
    # only the cycle collector frees, so every draw-step state lingered)
    game = Game.new("original", ["ann", "bob"], seed=3)
    state = game.state
    assert state.step == "draw"
    assert len(legal_moves(state)) >= 1
    ref = weakref.ref(state)
    gc.disable()
    try:
        del game, state
        assert ref() is None
    finally:
        gc.enable()


def test_a_laid_phase_is_not_read_again_when_its_hits_are_asked(monkeypatch):
    """The lay's verdict read each group; the hit state is built from that reading (and
    the test above checks that it is the state a fresh reading gives)."""
    players = ["ann", "bob", "cat"]
    game = Game.new("original", players, seed=3)
    bots = {p: GreedyBot() for p in players}
    while not any(isinstance(m, mv.Lay) for m in game.legal_moves()):
        game = game.apply(bots[game.state.to_move].choose(view(game.state, game.state.to_move)))
    lay = next(m for m in game.legal_moves() if isinstance(m, mv.Lay))
    state = game.apply(lay).state
    reads: list = []
    real = hits_laid.read_group
    monkeypatch.setattr(hits_laid, "read_group", lambda *a: reads.append(a) or real(*a))
    played = [laid.played for laid in state.seat(lay.player).laid]
    assert len(played) == len(lay.groups)
    for card in STANDARD_DECK.all_cards():
        targets(played, card, hit_rules(state))
    assert reads == []  # (before: each group read again at its first hit asked)
