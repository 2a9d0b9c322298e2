"""English words about cards and players, for messages: a plural, and a player's name
as an owner or a subject (the web app's player is named "you": "your pawn", "you have
drawn", never "you's pawn" or "you has drawn")."""

from __future__ import annotations


def plural_word(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def possessive(name: str, alone: bool = False) -> str:
    """A player's name as an owner: "ann's"; a player named "you" (the web app's human
    player) is "your" ("yours" ``alone``, with no noun after it), not "you's"."""
    if name.lower() != "you":
        return f"{name}'s"
    end = "rs" if alone else "r"
    return name + (end.upper() if name.isupper() else end)


_YOU = {"has": "have", "already has": "already have", "is": "are", "does": "do", "was": "were",
        "they": "you", "them": "you", "their": "your", "themselves": "yourself"}


def subject(name: str, verb: str) -> str:
    """A player's name and a verb (as said of a third person) agreeing with it: "ann has",
    and "you have" for a player named "you"."""
    if name.lower() != "you":
        return f"{name} {verb}"
    return f"{name} {_YOU.get(verb, verb[:-1] if verb.endswith('s') else verb)}"


def pronoun(name: str, word: str) -> str:
    """``word`` ("they", "them", "their", "themselves") said of a player; "you", "your",
    "yourself" for a player named "you"."""
    return _YOU[word] if name.lower() == "you" else word
