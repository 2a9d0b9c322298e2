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
