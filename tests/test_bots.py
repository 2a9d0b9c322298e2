"""Bots: they pick legal moves under every pack the referee plays, see only what a
player sees, and the greedy one plays for its phase."""

import random

import pytest
from bot_tables import TABLES, play

from phasedsl.errors import PhaseDSLError
from phasedsl.game import Game, view
from phasedsl.game import moves as mv
from phasedsl.game.state import replace
from phasedsl.model.cards import parse_cards
from phasedsl.packs.pack import load_pack
from phasedsl.players.bots import BOTS, GreedyBot, RandomBot, make_bot


def test_every_referee_pack_is_played():
    assert {"original", "masters", "masters-variant-2", "postal", "floating", "truly-wild",
            "utah", "dealers-choice", "pick-a-phase", "japanese-wild-rules",
            "world-tour/okie-circle-j", "japanese-lists/japanese-list-2"} <= set(TABLES)


@pytest.mark.parametrize("table", TABLES)
def test_greedy_plays_every_pack_to_the_end(table):
    g = play(table, ["greedy"] * 3, seed=sum(map(ord, table)))
    assert g.over and g.winner is not None
    # the log of the game replays as legal
    from phasedsl.game.log import replay

    assert replay(g.to_log()).legal


@pytest.mark.parametrize("table", ["original", "masters-variant-2", "postal", "floating",
                                   "dealers-choice", "truly-wild", "utah", "pick-a-phase"])
def test_random_bots_make_only_legal_moves(table):
    play(table, ["random"] * 3, seed=3, max_moves=600)


def test_greedy_games_are_seeded():
    a = play("original", ["greedy"] * 3, seed=5)
    b = play("original", ["greedy"] * 3, seed=5)
    assert a.to_log() == b.to_log()


def _mid_game(seed: int, moves: int) -> Game:
    g = Game.new("original", ["ann", "bob", "cat"], seed=seed)
    bots = {n: GreedyBot(k) for k, n in enumerate(["ann", "bob", "cat"])}
    for _ in range(moves):
        g = g.apply(bots[g.state.to_move].choose(view(g.state, g.state.to_move)))
    return g


def _scrambled(state, rng: random.Random):
    """The same state as the player to move sees it, with every hidden card moved:
    the other hands and the draw pile are dealt again from their pooled cards."""
    me = state.turn
    others = [k for k in range(len(state.seats)) if k != me]
    pool = [c for k in others for c in state.seats[k].hand] + list(state.stock)
    rng.shuffle(pool)
    seats = list(state.seats)
    for k in others:
        n = len(seats[k].hand)
        seats[k] = replace(seats[k], hand=tuple(pool[:n]))
        pool = pool[n:]
    return replace(state, seats=tuple(seats), stock=tuple(pool))


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_see_no_hidden_card(bot):
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for moves in (7, 40, 90, 150):
            state = _mid_game(seed, moves).state
            if state.stage != "turn":
                continue
            other = _scrambled(state, rng)
            assert other.seats[(state.turn + 1) % 3].hand != state.seats[(state.turn + 1) % 3].hand
            me = state.to_move
            assert make_bot(bot, 9).choose(view(state, me)) == \
                make_bot(bot, 9).choose(view(other, me))
            checked += 1
    assert checked >= 8


def _view_with(g: Game, hand: str, discard: str, step: str = "draw"):
    """The first player's view, their hand and the top discard set by hand."""
    st = g.state
    rules = st.table.rules
    seats = list(st.seats)
    seats[st.turn] = replace(seats[st.turn], hand=tuple(parse_cards(hand, rules.deck)))
    state = replace(st, seats=tuple(seats), discard=tuple(parse_cards(discard, rules.deck)),
                    step=step)
    return view(state, state.to_move)


def test_greedy_takes_the_discard_only_when_it_helps():
    g = Game.new("original", ["ann", "bob"], seed=1)  # phase 1: 2 sets of 3
    v = _view_with(g, "R1 B1 G1 R4 B4 G7 Y9 R11 B12 G2", "Y4")
    assert GreedyBot().choose(v) == mv.Draw(v.me, "discard")
    v = _view_with(g, "R1 B1 G1 R4 B4 G7 Y9 R11 B12 G2", "Y10")
    assert GreedyBot().choose(v) == mv.Draw(v.me, "deck")


def test_greedy_lays_then_hits_then_discards_the_card_it_needs_least():
    g = Game.new("original", ["ann", "bob"], seed=1)
    v = _view_with(g, "R1 B1 G1 R4 B4 G4 G7 Y9 R11 B12 G2", "Y10", step="play")
    assert isinstance(GreedyBot().choose(v), mv.Lay)
    # not laid, one card short of 2 sets of 3: keep the pairs, lose the highest loner
    v = _view_with(g, "R1 B1 G1 R4 B4 G7 Y9 R11 B12 G2 Y3", "Y10", step="play")
    m = GreedyBot().choose(v)
    assert isinstance(m, mv.Discard) and str(m.card) in ("R11", "B12")


def test_greedy_keeps_wilds_and_skips_the_leader():
    g = Game.new("original", ["ann", "bob", "cat"], seed=1)
    st = g.state
    seats = list(st.seats)
    leader = seats[(st.turn + 2) % 3].name
    seats[(st.turn + 2) % 3] = replace(seats[(st.turn + 2) % 3], done=(1, 2))
    g = Game(replace(st, seats=tuple(seats)), g.header)
    v = _view_with(g, "R1 B1 R4 B4 W S G7 Y9 R11 B12 G2", "Y10", step="play")
    m = GreedyBot().choose(v)
    assert isinstance(m, mv.Discard) and m.card.skip and m.skip == leader
    v = _view_with(g, "R1 B1 G1 R4 W G7 Y9 R11 B12 R3 B5", "Y10", step="play")
    m = GreedyBot().choose(v)
    assert isinstance(m, mv.Discard) and not m.card.wild


def test_unknown_bot_is_refused_by_name():
    with pytest.raises(PhaseDSLError, match="greedy, random"):
        make_bot("clever")
    assert isinstance(make_bot("random", 1), RandomBot)


def test_greedy_swaps_under_utah_rules_and_never_takes_a_wild_back():
    from phasedsl.design.simulate import play_game

    def swaps(pack):
        return sum('"type": "swap"' in line for i in range(2)
                   for line in play_game(load_pack(pack), 4, seed=1, index=i, keep_log=True).log)

    assert swaps("utah") > 0  # a swap sheds a card: the wild moves to the run's end
    assert swaps("japanese-wild-rules") == 0  # a take-back sheds nothing


def test_greedy_sheds_the_anti_phase_card_and_aims_it_at_the_leader():
    from phasedsl.model.cards import ANTI

    g = Game.new("anti-phase-for-others", ["ann", "bob", "cat"], seed=1)
    st = g.state
    seats = list(st.seats)
    me = st.turn
    leader = seats[(me + 1) % 3].name
    seats[(me + 1) % 3] = replace(seats[(me + 1) % 3], done=(1, 2, 3))
    hand = (*parse_cards("R1 B1 R4 B4 W G7 Y9 R11 B12 G2", st.table.rules.deck), ANTI)
    seats[me] = replace(seats[me], hand=hand)
    state = replace(st, seats=tuple(seats), step="play")
    m = GreedyBot().choose(view(state, state.to_move))
    assert isinstance(m, mv.Discard) and m.card.anti and m.down is None
    # as the last card it sends the leader down a phase
    seats[me] = replace(seats[me], hand=(ANTI,), laid_phase=1)
    state = replace(st, seats=tuple(seats), step="play")
    m = GreedyBot().choose(view(state, state.to_move))
    assert isinstance(m, mv.Discard) and m.card.anti and m.down == leader
