"""What the Python API accepts in place of its own values: a phrase for a ``Phase``, a card
string for cards.  Anything else is an ``ArgumentError`` (a ``PhaseDSLError`` and a
``TypeError``) naming the argument and what it takes, never an AttributeError from deep
inside.  Laid groups' text is read beside the hits (``hits.as_laid``), a pack's name by the
loader (``packs.as_pack``): this module needs only the value modules below them.

The public functions check their arguments' types first (a few ``isinstance``) and call
these only when a value is not already of its type, so the hot paths pay nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import ArgumentError, CardError
from .cards import Card, Deck, parse_cards
from .phase import Phase
from .rules import Rules

CARDS = "cards (Card values, or a card string like 'R5 B5 W')"
_CARD_TYPES = frozenset((Card,))


def as_rules(x: object, where: str) -> Rules:
    if isinstance(x, Rules):
        return x
    raise ArgumentError(f"{where}(rules=...)", "a Rules (Rules(), or a pack's "
                        "pack.rules_for(world))", x)


def as_phase(x: object, rules: Rules, where: str) -> Phase:
    if isinstance(x, Phase):
        return x
    if isinstance(x, str):
        return Phase.parse(x, rules.deck)  # (each distinct phrase is read once)
    raise ArgumentError(f"{where}(phase=...)", "a Phase or a phase phrase like '2 sets of 3'", x)


def as_card(x: object, deck: Deck, where: str, name: str = "card") -> Card:
    if isinstance(x, Card):
        return x
    if isinstance(x, str):
        return Card.parse(x, deck)
    raise ArgumentError(f"{where}({name}=...)", "a Card or a card string like 'R5'", x)


def as_cards(x: object, deck: Deck, where: str, name: str = "cards") -> list[Card] | tuple[Card, ...]:
    """Cards as given (a list or tuple of Card), read from a string, or from an iterable
    of Card and card strings (each one card)."""
    if isinstance(x, str):
        return parse_cards(x, deck)
    if type(x) in (list, tuple) and _CARD_TYPES.issuperset(map(type, x)):
        return x  # the common case: no copy
    if not isinstance(x, Iterable) or isinstance(x, bytes | dict | Card):
        raise ArgumentError(f"{where}({name}=...)", CARDS, x)
    out = []
    for c in x:
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, str):
            out.append(Card.parse(c, deck))
        else:
            raise ArgumentError(f"{where}({name}=...)", CARDS + " in the list", c)
    return out


def as_layout(x: object, deck: Deck, where: str) -> list:
    """Laid groups' cards: a list of groups (each cards, as ``as_cards`` reads them), or
    one string with the groups split by ``|`` (``'R5 B5 W | G7 G8 G9 G10'``)."""
    if isinstance(x, str):
        x = x.split("|")
    if not isinstance(x, Iterable) or isinstance(x, bytes | dict | Card):
        raise ArgumentError(f"{where}(layout=...)", "a list of groups, each cards, or a string "
                            "like 'R5 B5 W | G7 G8 G9 G10'", x)
    return [as_cards(g, deck, where, "layout") for g in x]


def as_world(x: object, where: str) -> str | None:
    if x is None or isinstance(x, str):
        return x
    raise ArgumentError(f"{where}(world=...)", "a world's name or title, or None", x)


def as_count(x: object, where: str, low: int | None, high: int | None = None,
             what: str = "a whole number") -> int:
    """A whole number (not a bool, NaN or text) from ``low`` to ``high`` (None: no bound;
    a seed has neither)."""
    if isinstance(x, int) and not isinstance(x, bool) and (low is None or x >= low) and (
            high is None or x <= high):
        return x
    bounds = ("" if low is None else f", from {low} to {high}" if high is not None
              else f", at least {low}")
    raise ArgumentError(where, f"{what}{bounds}", x)


SEED_DIGITS = 4000  # (as a log's or a request's JSON reads a number back: api.STRICT_JSON)
# The bits of a number of SEED_DIGITS digits (log2 10 = 3.3219...), and one more: a number
# within them has at most SEED_DIGITS + 1 digits, which Python prints (it will not print one
# of over 4,300; 4 bits a digit let 10**4500 through to str(), a ValueError).
SEED_BITS = SEED_DIGITS * 33220 // 10000 + 1


def as_seed(x: object, where: str) -> int:
    """A seed: a whole number of at most ``SEED_DIGITS`` digits (the log writes it); the
    bit length is looked at first, so that only a number Python prints is printed."""
    if isinstance(x, int) and not isinstance(x, bool) and (
            x.bit_length() <= SEED_BITS and len(str(abs(x))) <= SEED_DIGITS):
        return x
    raise ArgumentError(where, f"a whole number of at most {SEED_DIGITS:,} digits", x)


def as_players(x: object, where: str) -> list[str]:
    # (a string is a name, not a list of one-letter names)
    if isinstance(x, Iterable) and not isinstance(x, str | bytes | dict):
        names = list(x)
        if all(isinstance(n, str) for n in names):
            return names
    raise ArgumentError(f"{where}(players=...)", "a list of player names, like ['ann', 'bob']",
                        x)


def meld_args(where: str, phase: object, hand: object, rules: object
              ) -> tuple[Phase, list[Card] | tuple[Card, ...], Rules]:
    """(phase, hand, rules) of a function judging a hand, each as its type."""
    rules = as_rules(rules, where)
    return as_phase(phase, rules, where), as_cards(hand, rules.deck, where, "hand"), rules


def hand_args(where: str, phase: object, hand: object, rules: object, seen: object
              ) -> tuple[Phase, list[Card] | tuple[Card, ...], Rules, list[Card] | tuple[Card, ...]]:
    """``meld_args`` and the cards seen (``--seen``), for the functions that count outs."""
    if (isinstance(rules, Rules) and isinstance(phase, Phase) and type(hand) in (list, tuple)
            and type(seen) in (list, tuple) and _CARD_TYPES.issuperset(map(type, hand))
            and _CARD_TYPES.issuperset(map(type, seen))):
        return phase, hand, rules, seen  # each of its type already (a bot's every call)
    phase, hand, rules = meld_args(where, phase, hand, rules)
    return phase, hand, rules, as_cards(seen, rules.deck, where, "seen")


def not_cards(hand: object, card: object, deck: Deck) -> Exception:
    """The error for a hand that holds something other than a card of ``deck`` (found
    where the hand is counted: the hot path checks nothing beforehand)."""
    if isinstance(card, Card):
        return CardError(f"{card} is not a card of this deck")
    return ArgumentError("the hand", CARDS, hand if card is None else card)
