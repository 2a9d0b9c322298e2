import pytest

from phasedsl import SKIP, WILD, Card, CardError, Deck, parse_cards


def test_notation_round_trip():
    cards = parse_cards("r5, B12 g1  y7,W s W=7 w=r7 W=B")
    assert [str(c) for c in cards] == ["R5", "B12", "G1", "Y7", "W", "S", "W=7", "W=R7", "W=B"]
    assert cards[4] == WILD and cards[5] == SKIP
    assert cards[6].wild and cards[6].number == 7 and cards[6].plain() == WILD


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("R5 X5", 4, "unknown color 'X'"),
        ("R5 B13", 4, "numbers go from 1 to 12"),
        ("R5 R0", 4, "numbers go from 1 to 12"),
        ("R5 hello", 4, "is not a card"),
        ("W=13", 1, "only for 1-12"),
        ("W=Q", 1, "unknown color"),
        # a color spelled out is a color the deck has: say how to write it, not 'RED'
        ("R5 red5", 4, "'red5' is not a card: a card is its color's letter and its number, like R5"),
        ("Blue12", 1, "like B12"),
        ("green99", 1, "like G1"),
    ],
)
def test_bad_token_points_at_its_column(text, column, words):
    with pytest.raises(CardError) as e:
        parse_cards(text)
    assert e.value.column == column
    assert words in str(e.value)
    assert "^" in str(e.value)


def test_huge_input_is_refused_fast():
    with pytest.raises(CardError, match="too long"):
        parse_cards("R5 " * 1_000_000)
    with pytest.raises(CardError, match="too many cards"):
        parse_cards("R5 " * 6000)
    with pytest.raises(CardError):
        parse_cards("R" + "9" * 5000)


def test_deck_counts():
    deck = Deck()
    assert deck.size == 108 and len(deck.all_cards()) == 108
    assert Deck(skips=2).size == 106
    assert Card.parse("g12") == Card(12, "G")


@pytest.mark.parametrize("text", ["r5 R05 R5", "R5 r5 R5", "W W W W W W W W w", "S s S S S"])
def test_held_cards_over_the_deck_are_refused_however_written(text):
    # equal cards written differently are one card: the quick check by identity must see it
    from phasedsl import api

    with pytest.raises(CardError, match="more than the deck's"):
        api.held(text)
    assert len(api.held("r5 R05 B5 W w S")) == 6


def test_cards_read_are_one_object_per_card():
    from phasedsl.model.cards import most_copies

    a = parse_cards("r5 B5 W")
    b = parse_cards("R05 b5 w")
    assert all(x is y for x, y in zip(a, b, strict=True))
    assert most_copies(a) == 1 and most_copies([*a, b[0], b[2], b[2]]) == 3
    assert most_copies([]) == 0
    assert most_copies([Card(5, "R"), Card(6, "R")]) is None  # not read: not known
