"""The Python API given values of the wrong type or out of range: each is refused with the
project's own exception naming the argument, never a raw TypeError, AttributeError or
KeyError from inside (found by an outside review)."""

import pytest

from phasedsl import ArgumentError, CardError, Phase, Rules, api, hit_plan, hit_targets
from phasedsl.design.odds import odds
from phasedsl.model.cards import Card


@pytest.mark.parametrize("number", [True, 5.0, 31, -1, "5", []])
def test_a_card_refuses_a_number_no_deck_has(number):
    # Card(True, "R") played as R1 and Card(5.0, "R") as R5 (printed "RTrue", "R5.0")
    with pytest.raises(ArgumentError, match=r"Card\(number=...\)"):
        Card(number, "R")


@pytest.mark.parametrize("kw", [dict(color=[]), dict(color=5), dict(color=""),
                                dict(wild=1), dict(skip="yes"), dict(anti=None)])
def test_a_card_refuses_a_colour_or_flag_of_the_wrong_type(kw):
    with pytest.raises(ArgumentError, match=r"Card\((color|wild)"):
        Card(5, **{"color": "R", **kw})


@pytest.mark.parametrize("color", ["RR", "r", "5", "É", "R "])
def test_a_card_refuses_a_colour_no_deck_has(color):
    # a colour is one letter A-Z (a pack's colour name's first letter, upper-cased), as the
    # Python API page says; Card(5, "RR") was made and printed "RR5", no card of any deck
    from phasedsl import RulesError
    from phasedsl.model.cards import Deck

    with pytest.raises(ArgumentError, match=r"Card\(color=...\): expected a colour letter A-Z"):
        Card(5, color)
    with pytest.raises(RulesError, match=r"deck\.colors"):
        Deck(colors=("R", color))
    assert str(Card(5, "Z")) == "Z5"  # a letter a pack may have: judged where it is used


def test_every_card_of_a_deck_is_still_a_card():
    from phasedsl.model.cards import Deck

    assert len(Deck(low=0, high=30).all_cards()) == 4 * 31 * 2 + 8 + 4
    assert str(Card(5, "R", wild=True)) == "W=R5" and str(Card(None, "B", skip=True)) == "S=B"


@pytest.mark.parametrize("card", [Card(5, "Z"), Card(5, None), Card(None, "R"), Card(13, "R")])
def test_hits_refuse_a_card_the_deck_has_not(card):
    # hit_targets found Z5 a place in a set of 5s; hit_plan of RNone was a raw TypeError
    with pytest.raises(CardError, match="is not a card of this deck"):
        hit_targets(["set: R5 B5 W"], card)
    with pytest.raises(CardError, match="is not a card of this deck"):
        hit_plan(["run: R5 R6 R7"], [card])


def test_parse_and_cards_name_a_wrong_rules_argument():
    # each was an AttributeError: 'NoneType' object has no attribute 'deck'
    for fn in (api.parse, api.parse_json, api.cards):
        with pytest.raises(ArgumentError, match=rf"{fn.__name__}\(rules=...\)"):
            fn("1 set of 3", None)


def test_hit_json_takes_laid_strings_and_a_card_string():
    # hit_json([...], "R3") was an AttributeError ('str' object has no attribute 'plain')
    got = api.hit_json(["run: R4 R5 R6"], "R3")
    assert got["placed"] == 1 and got["hits"][0]["group"] == 1
    with pytest.raises(ArgumentError, match=r"hit_json\(hand=...\)"):
        api.hit_json(["run: R4 R5 R6"], None)
    with pytest.raises(ArgumentError, match=r"hit_json\(laid=...\)"):
        api.hit_json(5, "R3")


@pytest.mark.parametrize("results", [None, "zzz", [("1", 5)], [5], [(1, None)]])
def test_odds_report_names_its_wrong_argument(results):
    with pytest.raises(ArgumentError, match=r"odds_report\(results=...\)"):
        api.odds_report(results, 10, 0)


def test_odds_report_checks_its_counts():
    one = [("1", odds(Phase.parse("2 sets of 4"), Rules(), 10))]
    for cards, draws, says in ((None, 0, "cards"), (10, -1, "draws"), (10, "0", "draws")):
        with pytest.raises(ArgumentError, match=rf"odds_report\({says}=...\)"):
            api.odds_report(one, cards, draws)
    assert "0.3321%" in api.odds_text(api.odds_report(one, 10, 0))


@pytest.mark.parametrize("bad", [None, {}, {"x": 1}, [], "text"])
@pytest.mark.parametrize("fn", ["odds_text", "outs_text", "hit_text", "roll_text", "check_text"])
def test_the_text_of_a_result_refuses_what_is_no_result(fn, bad):
    # odds_text({}) was a KeyError, outs_text(None) a TypeError, ...
    call = getattr(api, fn)
    args = (Phase.parse("1 set of 3"), bad) if fn == "check_text" else (bad,)
    with pytest.raises(ArgumentError, match=rf"{fn}\((report|result)=...\)"):
        call(*args)


def test_the_text_of_a_result_with_values_of_no_use_is_refused():
    with pytest.raises(ArgumentError, match=r"odds_text\(report=...\)"):
        api.odds_text({"phases": 5, "draws": 0, "cards": 10})
    with pytest.raises(ArgumentError, match=r"odds_text\(report=...\)"):
        api.odds_text({"phases": [], "draws": "x", "cards": 10})
    with pytest.raises(ArgumentError, match=r"check_text\(phase=...\)"):
        api.check_text(None, {"phase": "1 set of 3", "valid": True, "groups": []})
    phase = Phase.parse("1 set of 3")
    assert api.check_text(phase, api.check_json(phase, "R5 B5 W")).startswith("phase: 1 set")


@pytest.mark.parametrize("call, says", [
    (lambda: api.wrap(None), r"wrap\(text=...\)"),
    (lambda: api.wrap("a b", None), r"wrap\(width=...\)"),
    (lambda: api.wrap("a b", 0), r"wrap\(width=...\)"),
    (lambda: api.wrap("a b", 80, None), r"wrap\(first=...\)"),
    (lambda: api.wrap("a b", 80, "", 5), r"wrap\(indent=...\)"),
    (lambda: api.plural(None, None), r"plural\(n=...\)"),
    (lambda: api.plural(2, None), r"plural\(word=...\)"),
    (lambda: api.check_json_line("{}", None), r"check_json_line\(ctx=...\)"),
])
def test_the_formatting_helpers_name_a_wrong_argument(call, says):
    with pytest.raises(ArgumentError, match=says):
        call()
    assert api.plural(2, "card") == "2 cards" and api.wrap("a b c", 3) == ["a b", "c"]


def test_the_dice_api_names_a_wrong_argument():
    """DiceGame.new("ann") was a game of players 'a', 'n', 'n' (refused as names that must
    differ); advise(rolls_left="1") and apply(game, "roll") raised a raw TypeError and
    AttributeError from inside."""
    from phasedsl import PhaseDSLError
    from phasedsl.dice import DiceGame, Roll, advise, apply, parse_roll
    from phasedsl.packs.pack import load_pack

    pack = load_pack("dice")
    rules, dice = pack.rules, pack.dice
    phases = [e.phase for e in pack.worlds[0].phases]
    with pytest.raises(ArgumentError, match=r"DiceGame.new\(players=...\)"):
        DiceGame.new(dice, rules, phases, "ann")
    with pytest.raises(PhaseDSLError, match="at least one phase"):
        DiceGame.new(dice, rules, [], ["ann"])
    showing = parse_roll(["R1 Y4 B6 B6 G7 R9 R9 R9 WG WY"], rules.deck, dice)
    with pytest.raises(ArgumentError, match=r"advise\(rolls_left=...\)"):
        advise(phases[0], rules, dice, showing, "1")
    g = DiceGame.new(dice, rules, phases, ["ann", "bob"])
    for move in ("roll", None, Roll(5, showing)):
        with pytest.raises(ArgumentError, match=r"apply\(move=...\)"):
            apply(g, move)


def _turn(seed: int = 3):
    """A card game at its first player's turn, and the game after their deck draw."""
    from phasedsl.game import Draw, Game

    game = Game.new("original", ["ann", "bob"], seed=seed)
    return game, game.apply(Draw("ann", "deck"))


def test_a_move_made_by_hand_with_a_field_of_the_wrong_type_is_refused_as_a_move():
    """Discard("ann", "R5") and Lay("ann", "R5 R5 R5") raised an AttributeError from inside
    the referee; Discard(..., pile=True) was taken as pile 1."""
    from phasedsl.game import Declare, Discard, Draw, Hit, IllegalMove, Lay

    game, drawn = _turn()
    card = drawn.state.seat("ann").hand[0]
    for state, move, rule, field in (
            (game, Draw("ann", "deck", card="R5"), "bad_move", "Draw.card"),
            (drawn, Discard("ann", "R5"), "bad_move", "Discard.card"),
            (drawn, Discard("ann", None), "bad_move", "Discard.card"),
            (drawn, Discard("ann", card, pile=True), "no_such_pile", "Discard.pile"),
            (drawn, Lay("ann", None), "bad_move", "Lay.groups"),
            (drawn, Lay("ann", "R5 R5 R5"), "bad_move", "Lay.groups"),
            (drawn, Lay("ann", [[None]]), "bad_move", "Lay.groups"),
            (drawn, Lay("ann", ((card,),), phase=True), "bad_move", "Lay.phase"),
            (drawn, Hit("ann", card, "bob", True), "bad_move", "Hit.group"),
            (drawn, Declare("ann", True), "bad_move", "Declare.phase")):
        with pytest.raises(IllegalMove, match=field) as got:
            state.apply(move)
        assert got.value.rule == rule, move
    assert drawn.apply(Discard("ann", card)).state.to_move == "bob"  # (the right type: played)


def test_the_referees_functions_name_a_state_or_player_of_no_use():
    """legal_moves(None), apply(None, move) and view(game, "ann") raised an AttributeError;
    view(state, "zed") tuple.index's ValueError."""
    from phasedsl.game import Draw, apply, legal_moves, view

    game, _ = _turn()
    for call, where in ((lambda: legal_moves(None), r"legal_moves\(state=...\)"),
                        (lambda: legal_moves(game), r"legal_moves\(state=...\)"),
                        (lambda: apply(None, Draw("ann", "deck")), r"apply\(state=...\)"),
                        (lambda: view(game, "ann"), r"view\(state=...\)"),
                        (lambda: view(game.state, "zed"), r"view\(player=...\).*ann, bob"),
                        (lambda: view(game.state, None), r"view\(player=...\)")):
        with pytest.raises(ArgumentError, match=where):
            call()
    assert view(game.state, "ann").hand == game.state.seat("ann").hand


def test_a_log_replays_under_a_pack_named_and_refuses_a_folder_of_no_use():
    """Game.from_log(lines, pack="original") raised an AttributeError ('str' object has
    no attribute 'worlds'), pack=5 too, and base_dir=5 a TypeError from pathlib."""
    from phasedsl.game import Game

    game, drawn = _turn()
    assert Game.from_log(drawn.to_log(), pack="original").to_log() == drawn.to_log()
    for kwargs, where in ((dict(pack=5), r"Game.from_log\(pack=...\)"),
                          (dict(base_dir=5), r"Game.from_log\(base_dir=...\)")):
        with pytest.raises(ArgumentError, match=where):
            Game.from_log(game.to_log(), **kwargs)


def test_a_seed_the_log_cannot_hold_is_refused_where_it_is_given():
    """Game.new(seed=10**5000) raised Python's ValueError (an int too long to print) from
    inside the deal; the log reads a number of at most 4,000 digits back."""
    from phasedsl.game import Game

    # (10**4500: within 4 bits a digit, past what Python prints: it reached str())
    for seed in (10**4000, -(10**5000), 10**4500, -(10**4301)):
        with pytest.raises(ArgumentError, match=r"Game.new\(seed=...\).*4,000 digits"):
            Game.new("original", ["ann", "bob"], seed=seed)
    game = Game.new("original", ["ann", "bob"], seed=10**3999)
    assert Game.from_log(game.to_log()).to_log() == game.to_log()


def test_an_argument_error_shows_what_python_cannot_print():
    """The error naming a wrong argument itself failed on a value with no repr to print:
    an int of 5,000 digits (ValueError), lists nested 100,000 deep (RecursionError)."""
    from phasedsl import find
    from phasedsl.design.simulate import simulate

    deep: list = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(ArgumentError, match=r"find\(phase=...\).*got list \[\[\[\["):
        find(deep, "R5")
    for digits in (5000, 4500, 4301):  # (the last two: printed once, a ValueError)
        with pytest.raises(ArgumentError, match=rf"games=.*of about {digits:,} digits"):
            simulate("original", 2, 10**digits)


def test_simulate_refuses_a_run_that_would_never_end_or_a_seed_it_cannot_write():
    """simulate(pack, 2, 10**100) played on for ever; simulate(seed=10**5000) raised
    Python's ValueError from inside."""
    from phasedsl.design.simulate import simulate

    with pytest.raises(ArgumentError, match=r"simulate\(games=...\).*1000000"):
        simulate("original", 2, 10**100)
    with pytest.raises(ArgumentError, match=r"simulate\(seed=...\).*4,000 digits"):
        simulate("original", 2, 1, seed=10**5000)


def test_a_hand_made_move_holding_a_huge_number_is_refused_as_a_move():
    # the move's field was shown with repr(), which Python refuses for an int of over
    # 4,300 digits: a ValueError from inside instead of the move's refusal
    from phasedsl.game import Game, IllegalMove
    from phasedsl.game import moves as mv

    game = Game.new("original", ["ann", "bob"], seed=1)
    with pytest.raises(IllegalMove, match=r"Lay\.groups must be .*not list \(that cannot be shown\)"):
        game.apply(mv.Lay("ann", [[10**5000]]))
