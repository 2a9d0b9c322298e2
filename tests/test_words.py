"""A player's name in a message: as an owner, a subject, a pronoun (model/words.py)."""

import pytest

from phasedsl.model.words import plural_word, possessive, pronoun, subject


@pytest.mark.parametrize(("name", "owner", "alone"), [
    ("ann", "ann's", "ann's"), ("Yves", "Yves's", "Yves's"), ("you", "your", "yours"),
    ("You", "Your", "Yours"), ("YOU", "YOUR", "YOURS"), ("young", "young's", "young's"),
])
def test_a_name_as_an_owner(name, owner, alone):
    assert possessive(name) == owner and possessive(name, alone=True) == alone


@pytest.mark.parametrize(("name", "verb", "said"), [
    ("ann", "has", "ann has"), ("you", "has", "you have"), ("you", "is", "you are"),
    ("you", "does", "you do"), ("you", "draws", "you draw"), ("you", "already has",
                                                             "you already have"),
    ("bob", "draws", "bob draws"),
])
def test_a_name_and_its_verb_agree(name, verb, said):
    assert subject(name, verb) == said


def test_pronouns_and_plurals():
    assert [pronoun("ann", w) for w in ("they", "them", "their", "themselves")] == [
        "they", "them", "their", "themselves"]
    assert [pronoun("you", w) for w in ("they", "them", "their", "themselves")] == [
        "you", "you", "your", "yourself"]
    assert plural_word("set", 1) == "set" and plural_word("set", 2) == "sets"
