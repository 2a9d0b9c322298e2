"""The printed rules (the `original` pack), one hand-written log per rule, legal and illegal."""

from dataclasses import replace

import pytest
from game_logs import (
    BOB,
    CAT,
    PLAYERS,
    ann_goes_out,
    deal,
    discard,
    draw,
    game,
    hit,
    illegal,
    lay,
    legal,
    lines,
    run,
    write_pack,
)

from phasedsl.game import Game, IllegalMove, legal_moves
from phasedsl.game import moves as mv
from phasedsl.game.engine import apply, make_table, start
from phasedsl.game.hand_end import game_end
from phasedsl.game.log import replay
from phasedsl.model.cards import Card
from phasedsl.packs.pack import load_pack


def test_the_first_player_is_left_of_the_dealer():
    legal(draw("ann", "R1"))
    assert illegal(draw("bob", "R1")) == "not_your_turn"
    assert illegal(draw("cat", "R1")) == "not_your_turn"


def test_draw_before_anything_else_and_only_once():
    assert illegal(discard("ann", "W")) == "must_draw_first"
    assert illegal(lay("ann", "R5 B5 G5", "R7 B7 G7")) == "must_draw_first"
    assert illegal(draw("ann", "R1"), draw("ann", "R1")) == "already_drew"


def test_draw_from_the_discard_pile_takes_the_top_card():
    r = legal(draw("ann", source="discard"), discard("ann", "G12"), draw("bob", source="discard"))
    assert "G12" in map(str, r.state.seat("bob").hand)


def test_a_skip_is_never_taken_from_the_discard_pile():
    # bob plays first (the up-card skip skips ann) and may not take the skip.
    assert illegal(draw("bob", source="discard"), first_deal=deal(up="S")) == "skip_from_discard"
    legal(draw("bob", "R1"), first_deal=deal(up="S"))


def test_a_skip_turned_up_skips_the_first_player():
    assert illegal(draw("ann", "R1"), first_deal=deal(up="S")) == "not_your_turn"


def test_a_deck_draw_names_a_card_the_draw_pile_can_hold():
    # bob and cat hold both Y11s
    assert illegal(draw("ann", "Y11")) == "card_not_available"
    assert illegal(draw("ann")) == "card_not_named"
    legal(draw("ann", "Y12"))


def test_cards_must_be_in_hand():
    assert illegal(draw("ann", "R1"), discard("ann", "B11")) == "not_in_hand"
    assert illegal(draw("ann", "R1"), lay("ann", "R5 B5 G5 R1", "R7 B7 G7 R7")) == "not_in_hand"


def test_the_deal_is_checked():
    bad = deal(ann="R5 B5 G5 Y5 R7 B7 G7 Y7 W")
    r = run(first_deal=bad)
    assert r.error["rule"] == "bad_deal" and r.error["line"] == 2
    r = run(first_deal=deal(cat="W W W W W W W W W W"))  # 12 wilds with ann's two
    assert r.error["rule"] == "card_not_available"
    r = run(first_deal=deal(cat=None))
    assert r.error["rule"] == "bad_deal"


def test_lay_the_whole_phase_with_extras_on_its_own_groups():
    r = legal(*ann_goes_out()[:2])
    laid = r.state.seat("ann").laid
    assert [str(g.group) for g in laid] == ["R5 B5 G5 Y5 W=5", "R7 B7 G7 Y7 W=7"]


def test_a_lay_that_does_not_make_the_phase():
    assert illegal(draw("ann", "R1"), lay("ann", "R5 B5 G5", "R7 B7 R1")) == "phase_not_made"
    r = run(draw("ann", "R1"), lay("ann", "R5 B5 G5", "R7 B7 R1"))
    assert "phase 1 (2 sets of 3)" in r.error["message"]
    # never an extra group
    assert illegal(draw("ann", "R1"), lay("ann", "R5 B5 G5", "R7 B7 G7", "Y5 Y7 W")) == \
        "phase_not_made"


def test_one_phase_a_hand():
    assert illegal(draw("ann", "R1"), lay("ann", "R5 B5 G5", "R7 B7 G7"),
                   lay("ann", "Y5 W W", "Y7 W W")) == "already_laid"


def test_hits_only_after_ones_own_phase_and_only_where_they_fit():
    assert illegal(draw("ann", "R1"), hit("ann", "Y5", "ann", 1)) == "hit_before_phase"
    base = [draw("ann", "R1"), lay("ann", "R5 B5 G5", "R7 B7 G7")]
    r = legal(*base, hit("ann", "Y5", "ann", 1), hit("ann", "W", "ann", 2))
    assert str(r.state.seat("ann").laid[1].group) == "R7 B7 G7 W=7"
    assert illegal(*base, hit("ann", "Y5", "ann", 2)) == "hit_does_not_fit"
    assert illegal(*base, hit("ann", "Y5", "ann", 3)) == "no_such_group"
    assert illegal(*base, hit("ann", "R1", "bob", 1)) == "no_such_group"
    r = run(*base, hit("ann", "Y5", "ann", 2))
    assert "Y5 does not fit ann's group 2" in r.error["message"]


def test_hits_on_other_players_groups():
    events = [draw("ann", "Y2"), discard("ann", "Y2"),
              draw("bob", "R3"), lay("bob", "R2 B2 G2", "R9 B9 G9"), discard("bob", "R3"),
              draw("cat", "Y9"), discard("cat", "Y9"),
              draw("ann", source="discard"), lay("ann", "R5 B5 G5 Y5 W", "R7 B7 G7 Y7")]
    r = legal(*events, hit("ann", "W", "bob", 2))
    assert str(r.state.seat("bob").laid[1].group) == "R9 B9 G9 W=9"
    # the last card goes by a discard: a hit may not empty the hand (printed rules)
    assert illegal(*events, hit("ann", "W", "bob", 2), hit("ann", "Y9", "bob", 2)) == \
        "cannot_go_out_by_play"
    assert illegal(*events, hit("ann", "W=5", "bob", 2)) == "hit_does_not_fit"


RUNS = """extends: original
rules:
  game_length: 2
phases: ["1 run of 4", "1 set of 3"]
"""


def test_wild_hits_on_a_run_take_the_end_they_stand_for(tmp_path):
    head = game(write_pack(tmp_path, "runs", RUNS))
    start_ = [draw("ann", "R1"), lay("ann", "R4 R5 B6 G7")]
    hands = deal(ann="R4 R5 B6 G7 W W W Y9 Y10 G12")
    r = legal(*start_, hit("ann", "W=3", "ann", 1), hit("ann", "W=8", "ann", 1), header=head,
              first_deal=hands)
    assert str(r.state.seat("ann").laid[0].group) == "W=3 R4 R5 B6 G7 W=8"
    r = legal(*start_, hit("ann", "W", "ann", 1), header=head, first_deal=hands)
    assert str(r.state.seat("ann").laid[0].group) == "R4 R5 B6 G7 W=8"  # the default end
    assert illegal(*start_, hit("ann", "W=10", "ann", 1), header=head,
                   first_deal=hands) == "hit_does_not_fit"
    assert illegal(*start_, hit("ann", "Y9", "ann", 1), header=head,
                   first_deal=hands) == "hit_does_not_fit"


def test_skips_name_who_loses_a_turn():
    hands = deal(ann="R5 B5 G5 R7 B7 G7 S S Y3 Y4")
    legal(draw("ann", "R1"), discard("ann", "S", skip="bob"), draw("cat", "R1"), first_deal=hands)
    assert illegal(draw("ann", "R1"), discard("ann", "S", skip="bob"), draw("bob", "R1"),
                   first_deal=hands) == "not_your_turn"
    assert illegal(draw("ann", "R1"), discard("ann", "S"), first_deal=hands) == "skip_target"
    assert illegal(draw("ann", "R1"), discard("ann", "S", skip="ann"),
                   first_deal=hands) == "skip_target"
    assert illegal(draw("ann", "R1"), discard("ann", "R1", skip="bob"),
                   first_deal=hands) == "not_a_skip"


def test_nobody_is_skipped_twice_in_one_round():
    hands = deal(ann="R5 B5 G5 R7 B7 G7 S S Y3 Y4")
    events = [draw("ann", "R1"), discard("ann", "S", skip="cat"), draw("bob", "R1")]
    assert illegal(*events, discard("bob", "S", skip="cat"), first_deal=hands) == \
        "skip_twice_in_round"
    # after cat has lost the turn, cat may be skipped again
    r = legal(*events, discard("bob", "R1"), draw("ann", "R3"), discard("ann", "S", skip="cat"),
              draw("bob", "R4"), first_deal=hands)
    assert r.state.pending_skips == ("cat",)


def test_going_out_by_discard_ends_the_hand_and_scores_it():
    r = legal(*ann_goes_out())
    (h,) = r.hands
    assert h.to_json() == {
        "went_out": "ann", "points": {"ann": 0, "bob": 75, "cat": 65},
        "totals": {"ann": 0, "bob": 75, "cat": 65},
        "completed": {"ann": True, "bob": False, "cat": False},
        "next_phase": {"ann": 2, "bob": 1, "cat": 1}}
    # the next event must be the next deal; the dealer has moved left to ann
    r = run(*ann_goes_out(), draw("bob", "R1"))
    assert r.error["rule"] == "not_now" and "by ann" in r.error["message"]
    legal(*ann_goes_out(), deal(), draw("bob", "R1"))


def test_going_out_by_a_hit_only_where_the_pack_allows_it(tmp_path):
    hands = deal(ann="R5 B5 G5 R7 B7 G7 Y7 Y5 W W")
    events = [draw("ann", "Y5"), lay("ann", "R5 B5 G5", "R7 B7 G7 W"), hit("ann", "Y7", "ann", 2),
              hit("ann", "Y5", "ann", 1), hit("ann", "Y5", "ann", 1), hit("ann", "W", "ann", 1)]
    assert illegal(*events, first_deal=hands) == "cannot_go_out_by_play"
    pack = write_pack(tmp_path, "outbyhit", "extends: original\nrules:\n  house_rules:\n"
                                            "    go_out_without_discard: true\n")
    r = legal(*events, first_deal=hands, header=game(pack))
    assert r.hands[0].went_out == "ann"
    # laying every card at once is going out too
    r = legal(draw("ann", "R5"), lay("ann", "R5 B5 G5 R5 Y5 W W", "R7 B7 G7 Y7"),
              first_deal=hands, header=game(pack))
    assert r.hands[0].went_out == "ann"


def test_the_game_ends_at_game_length_and_the_lowest_total_wins(tmp_path):
    short = write_pack(tmp_path, "one", "extends: original\nrules:\n  game_length: 1\n"
                                        "phases: [\"2 sets of 3\"]\n")
    r = legal(draw("ann", "R3"), discard("ann", "R3"),
              draw("bob", "R4"), lay("bob", "R2 B2 G2", "R9 B9 G9"), discard("bob", "R4"),
              draw("cat", "Y4"), discard("cat", "Y4"), *ann_goes_out(), header=game(short))
    assert r.winner == "ann"  # both completed the last phase; ann has the lower total
    assert r.state.over
    r = run(draw("ann", "R3"), discard("ann", "R3"),
            draw("bob", "R4"), lay("bob", "R2 B2 G2", "R9 B9 G9"), discard("bob", "R4"),
            draw("cat", "Y4"), discard("cat", "Y4"), *ann_goes_out(), deal(), header=game(short))
    assert r.error["rule"] == "game_over"


def test_a_tie_on_the_total_is_played_off_by_the_tied_players():
    table = make_table(load_pack("original"), PLAYERS)
    state = start(table, "cat")
    done = tuple(range(1, 11))
    seats = (replace(state.seats[0], done=done, total=100),
             replace(state.seats[1], done=done, total=100),
             replace(state.seats[2], done=(1, 2), total=10))
    state = game_end(replace(state, seats=seats))
    assert state.tie_break == ("ann", "bob") and not state.over
    with pytest.raises(IllegalMove) as e:
        apply(state, mv.Deal.from_log(deal(), table.rules.deck))
    assert e.value.rule == "bad_deal"  # cat sits the tie-break hand out
    state = apply(state, mv.Deal.from_log(deal(cat=None), table.rules.deck))
    for ev in ann_goes_out():
        state = apply(state, mv.move_from_log(ev, table.rules.deck))
    assert state.winner == "ann" and state.over


def test_the_draw_pile_is_rebuilt_from_the_discard_pile(tmp_path):
    tiny = write_pack(tmp_path, "tiny", "extends: original\nrules:\n  deck:\n    colors: [red, "
                                        "blue]\n    numbers: {low: 1, high: 6}\n    wilds: 2\n"
                                        "    skips: 2\nphases: [\"2 sets of 3\"]\n"
                                        "  \n".replace("  \n", ""))
    game_ = Game.new(tiny, ["ann", "bob"], seed=5)
    for _ in range(40):  # draw and discard what was drawn, never laying
        st = game_.state
        who = st.to_move
        if st.step == "draw":
            game_ = game_.apply(mv.Draw(who, "deck"))
        else:
            card = st.drawn
            skip = "bob" if who == "ann" else "ann"
            game_ = game_.apply(mv.Discard(who, card, skip if card.skip else None))
    assert game_.state.shuffles >= 1
    assert replay(game_.to_log()).legal


def test_a_finished_seeded_game_replays_and_round_trips():
    import random

    g = Game.new("original", ["ann", "bob", "cat", "dan"], seed=11)
    rng = random.Random(11)
    while not g.over:
        ms = g.legal_moves()
        plays = [m for m in ms if isinstance(m, (mv.Lay, mv.Hit))]
        g = g.apply(rng.choice(plays or ms))
    r = replay(g.to_log())
    assert r.legal and r.winner == g.winner
    assert [h.to_json() for h in r.hands] == [h.to_json() for h in g.state.results]
    again = Game.from_log(g.to_log())
    assert again.to_log() == g.to_log()


def test_illegal_events_in_from_log_carry_their_line():
    with pytest.raises(IllegalMove) as e:
        Game.from_log(lines([game(), deal(), draw("bob", "R1")]))
    assert e.value.rule == "not_your_turn" and e.value.line == 3


def test_two_to_six_players():
    from phasedsl.errors import PhaseDSLError

    for players in (["ann"], [f"p{k}" for k in range(7)], ["ann", "ann"]):
        with pytest.raises(PhaseDSLError):
            Game.new("original", players)
    assert Game.new("original", [f"p{k}" for k in range(6)]).state.stage == "turn"
    with pytest.raises(PhaseDSLError, match="line 1: original is played by 2-6 players, not 1"):
        replay(lines([game(players=["ann"], dealer="ann")]))


def test_a_wild_turned_up_may_be_taken_by_the_first_player():
    r = legal(draw("ann", source="discard"), first_deal=deal(up="W"))
    assert list(map(str, r.state.seat("ann").hand)).count("W") == 3


def test_hands_are_scored_with_the_packs_scoring(tmp_path):
    pack = write_pack(tmp_path, "cheap", "extends: original\nrules:\n  scoring: {low: 1, high: 2, "
                                         "skip: 3, wild: 4}\n")
    r = legal(*ann_goes_out(), header=game(pack))
    assert r.hands[0].to_json()["points"] == {"ann": 0, "bob": 6 + 2 + 3 + 4, "cat": 7 + 6}


def test_hand_results_say_which_phase_each_player_attempted():
    r = legal(*ann_goes_out(), deal(), draw("bob", "R1"), header=game("everyone-advances"))
    assert dict(r.hands[0].attempted) == {"ann": 1, "bob": 1, "cat": 1}


def test_legal_moves_list_draws_then_the_lay_hits_and_discards():
    r = legal(draw("ann", "R1"))
    moves = legal_moves(r.state)
    kinds = {type(m).__name__ for m in moves}
    assert kinds == {"Lay", "Discard"}
    (lay_,) = [m for m in moves if isinstance(m, mv.Lay)]
    assert sorted(len(g) for g in lay_.groups) == [3, 3]  # the solver's smallest meld
    assert {str(m.card) for m in moves if isinstance(m, mv.Discard)} == {
        "R5", "B5", "G5", "Y5", "R7", "B7", "G7", "Y7", "W", "R1"}
    start_moves = legal_moves(run().state)
    # a replayed hand's draw pile is a multiset: each card it may hold is a deck draw
    assert {m.source for m in start_moves} == {"deck", "discard"}
    assert all(m.card is not None for m in start_moves if m.source == "deck")


def test_two_players_a_skip_gives_the_skipper_another_turn():
    head = game(players=["ann", "bob"], dealer="bob")
    hands = deal(ann="R5 B5 G5 R7 B7 G7 S S Y3 Y4", cat=None)
    r = legal(draw("ann", "R1"), discard("ann", "S", skip="bob"), draw("ann", "R3"),
              discard("ann", "S", skip="bob"), draw("ann", "R4"), header=head, first_deal=hands)
    assert r.state.to_move == "ann"


def test_a_lone_top_discard_becomes_the_draw_pile_when_nothing_else_is_left():
    from phasedsl.game.state import replace as with_
    from phasedsl.model.cards import Card

    state = run().state  # ann to draw; put every card of the draw pile into cat's hand
    cat = state.table.index("cat")
    seats = list(state.seats)
    seats[cat] = with_(seats[cat], hand=seats[cat].hand + state.stock)
    state = with_(state, seats=tuple(seats), stock=())
    with pytest.raises(IllegalMove) as e:
        apply(state, mv.Draw("ann", "deck", Card(1, "R")))
    assert e.value.rule == "card_not_available"
    after = apply(state, mv.Draw("ann", "deck", Card(12, "G")))
    assert after.discard == () and "G12" in map(str, after.seat("ann").hand)


def test_a_replayed_hand_offers_deck_draws_from_the_pile_to_be_reshuffled():
    from phasedsl.game.state import replace as with_

    state = run(draw("ann", "R1"), discard("ann", "R1")).state  # bob to draw
    cat = state.table.index("cat")
    seats = list(state.seats)
    seats[cat] = with_(seats[cat], hand=seats[cat].hand + state.stock)
    state = with_(state, seats=tuple(seats), stock=())
    draws = {str(m.card) for m in legal_moves(state) if m.source == "deck"}
    assert draws == {"G12"}  # the discard pile but its top card (R1)


def test_the_only_player_on_the_last_phase_wins_as_soon_as_it_is_laid(tmp_path):
    two = write_pack(tmp_path, "two", "extends: original\nrules:\n  game_length: 2\n"
                                      "phases: [\"2 sets of 3\", \"1 set of 3 + 1 run of 4\"]\n")
    hand2 = deal(ann="R5 B5 G5 R7 B8 G9 Y10 W Y1 Y2", bob=BOB, cat=CAT)
    events = [*ann_goes_out(), hand2, draw("bob", "R3"), discard("bob", "R3"),
              draw("cat", "R4"), discard("cat", "R4"), draw("ann", "R1"),
              lay("ann", "R5 B5 G5", "R7 B8 G9 Y10")]
    r = legal(*events, header=game(two))
    assert r.winner == "ann" and r.state.over
    assert r.hands[1].went_out is None and r.hands[1].to_json()["completed"]["ann"]
    assert illegal(*events, discard("ann", "W"), header=game(two)) == "game_over"


@pytest.mark.parametrize("names", [["ann", "bob"], ["you", "bob"], ["bob", "you"]])
def test_a_move_out_of_turn_names_both_players_as_owners(names):
    # the web app's player is "you": "your turn", "not yours", never "you's"
    game = Game.new(load_pack("original"), names, seed=3)
    game = game.apply(game.legal_moves()[0])  # the deal
    first = game.state.to_move
    other = next(n for n in names if n != first)
    owner = {"ann": "ann's", "bob": "bob's", "you": "your"}
    alone = {"ann": "ann's", "bob": "bob's", "you": "yours"}
    with pytest.raises(IllegalMove) as e:
        game.apply(mv.Draw(other, "deck"))
    assert f"it is {owner[first]} turn, not {alone[other]}" in e.value.message


def test_the_referee_speaks_to_a_player_named_you_in_the_second_person():
    # the web app's player is "you": "you have drawn", "you do not hold", never "you has"
    game = Game.new(load_pack("original"), ["bob", "you"], seed=3)
    while game.state.to_move != "you" or game.state.step != "draw":
        game = game.apply(game.legal_moves()[0])
    drawn = game.apply(mv.Draw("you", "deck"))
    with pytest.raises(IllegalMove) as e:
        drawn.apply(mv.Draw("you", "deck"))
    assert e.value.message.startswith("you have drawn this turn")
    absent = next(c for c in (Card(n, k) for n in range(1, 13) for k in "RBGY")
                  if c not in drawn.state.seats[1].hand)
    with pytest.raises(IllegalMove) as e:
        drawn.apply(mv.Discard("you", absent))
    assert e.value.message == f"you do not hold {absent}"
    with pytest.raises(IllegalMove) as e:
        drawn.apply(mv.Hit("you", drawn.state.seats[1].hand[0], "bob", 1))
    assert "you must lay your own phase" in e.value.message
