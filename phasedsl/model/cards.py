"""Cards, the deck they come from, and their notation.

Notation: ``R5`` ``B12`` ``G1`` ``Y7`` for naturals, ``W`` for a wild, ``S`` for
a skip, case-insensitive, separated by spaces and/or commas.  A wild laid in a
group may say what it stands for: ``W=7`` (a number), ``W=R`` (a color) or
``W=R7`` (both); a skip laid as a blue card (house rule ``skip_counts_as_blue``)
is ``S=B``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import ArgumentError, CardError, RulesError, quoted

COLOR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}

# Longest card text accepted in one call; a larger input is refused before any
# work is done, so a hostile "10^9 cards" string cannot hang the tool.
MAX_CARD_TEXT = 100_000
MAX_CARDS = 5_000
# No card is written with more characters (W=R12 has 5); a longer token is refused
# without being echoed whole in the message.
MAX_TOKEN = 12
# The highest number any deck may have (Deck's bound on ``high``).
MAX_NUMBER = 30


def _whole(value: object) -> int | None:
    """``value`` if it is a whole number (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _letter(value: object) -> bool:
    """Whether ``value`` is a colour letter as a pack's deck has them: one of A-Z (a pack's
    colour is written by its name's first letter, upper-cased)."""
    return type(value) is str and len(value) == 1 and "A" <= value <= "Z"


@dataclass(frozen=True, slots=True)
class Deck:
    """What cards exist, and how many of each."""

    colors: tuple[str, ...] = ("R", "B", "G", "Y")
    low: int = 1
    high: int = 12
    copies: int = 2
    wilds: int = 8
    skips: int = 4
    color_names: tuple[tuple[str, str], ...] = tuple(COLOR_NAMES.items())
    # The anti-phase rule card (``A``): only the referee's deck under
    # house_rules.anti_phase_for_others holds it; a pack's deck (odds, solver) never does.
    anti: int = 0

    def __post_init__(self) -> None:
        """Refuse a deck past what a pack may describe (the pack schema's bounds on its
        numbers, copies and colours; its wilds and skips up to 1,000), naming the field: a
        deck of a million numbers would fill the memory of every count over it.  (Numbers
        out of order, low above high, are a pack's problem to report with its others: such
        a deck holds no numbered card; so are two colours of one letter.)"""
        for name, low, high in (("low", 0, 20), ("high", 1, MAX_NUMBER), ("copies", 1, 10),
                                ("wilds", 0, 1_000), ("skips", 0, 1_000), ("anti", 0, 1_000)):
            value = getattr(self, name)
            if _whole(value) is None or not low <= value <= high:
                raise RulesError(f"deck.{name}", f"a whole number from {low} to {high}", value)
        if not isinstance(self.colors, tuple) or not 1 <= len(self.colors) <= 10 or not all(
                map(_letter, self.colors)):
            raise RulesError("deck.colors", "a tuple of 1 to 10 colour letters A-Z", self.colors)
        if not isinstance(self.color_names, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and all(isinstance(x, str) for x in p)
                for p in self.color_names):
            raise RulesError("deck.color_names", "a tuple of (letter, name) pairs",
                             self.color_names)

    @property
    def numbers(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def size(self) -> int:
        return (len(self.colors) * len(self.numbers) * self.copies + self.wilds + self.skips
                + self.anti)

    def color_name(self, letter: str) -> str:
        return dict(self.color_names).get(letter, letter)

    def color_letter(self, word: str) -> str | None:
        """The color letter for a letter or a color name, or None."""
        w = word.strip().lower()
        for letter, name in self.color_names:
            if w in (letter.lower(), name.lower()):
                return letter
        return None

    def all_cards(self) -> list[Card]:
        """Every card of the deck, each copy listed (the copies of a card are one object,
        the ``interned`` one)."""
        cards = [interned(Card(n, c)) for c in self.colors for n in self.numbers
                 for _ in range(self.copies)]
        cards += [WILD] * self.wilds + [SKIP] * self.skips + [ANTI] * self.anti
        return cards

    def supply(self, card: Card) -> int:
        """How many copies of this card (ignoring what a wild stands for) the deck holds."""
        if card.wild:
            return self.wilds
        if card.skip:
            return self.skips
        if card.anti:
            return self.anti
        ok = card.color in self.colors and card.number in self.numbers
        return self.copies if ok else 0


STANDARD_DECK = Deck()


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card.  For a natural, ``number`` and ``color`` are the card's own;
    for a wild they say what it stands for once laid (either may be None)."""

    number: int | None = None
    color: str | None = None
    wild: bool = field(default=False)
    skip: bool = field(default=False)
    anti: bool = field(default=False)  # the anti-phase rule card (a referee-only card)
    # The hash, worked out once: hands, memo keys and counts hash the same few dozen
    # cards millions of times a simulation (the value is the one the fields give).
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Only what holds for every deck (a pack's numbers lie within 0-30: Deck); whether
        # the deck of a call holds the card is for that call to say.  Without this,
        # Card(True, "R") played as R1 and Card(5.0, "R") as R5, printed "RTrue" and "R5.0".
        n, c = self.number, self.color
        if n is not None and (type(n) is not int or not 0 <= n <= MAX_NUMBER):
            raise ArgumentError("Card(number=...)", f"a whole number from 0 to {MAX_NUMBER}, "
                                "or None", n)
        # (a colour is one letter A-Z, as every pack's deck has it: Card(5, "RR") was "RR5")
        if c is not None and (type(c) is not str or len(c) != 1 or not "A" <= c <= "Z"):
            raise ArgumentError("Card(color=...)", "a colour letter A-Z like 'R', or None", c)
        for flag in (self.wild, self.skip, self.anti):
            if type(flag) is not bool:
                raise ArgumentError("Card(wild=..., skip=..., anti=...)", "True or False", flag)
        if self.wild + self.skip + self.anti > 1:  # (a wild skip is neither)
            raise ArgumentError("Card(...)", "a card that is a wild, a skip or the anti-phase "
                                "card, not two of them", self)
        object.__setattr__(self, "_hash", hash((self.number, self.color, self.wild, self.skip,
                                                self.anti)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        # rebuilt, not restored: a string's hash differs from process to process (a
        # spawned worker), so the kept hash is worked out again where the card lands
        return (Card, (self.number, self.color, self.wild, self.skip, self.anti))

    @property
    def natural(self) -> bool:
        return not (self.wild or self.skip or self.anti)

    def plain(self) -> Card:
        """The card as it is in a hand: a wild forgets what it stood for, and a skip laid
        as a blue card (``S=B``) is a skip again."""
        if self.wild:
            return WILD
        return SKIP if self.skip and self.color is not None else self

    def __str__(self) -> str:
        if not (self.wild or self.skip or self.anti):
            return f"{self.color}{self.number}"
        if self.skip:
            # a skip laid as a blue card (house rule skip_counts_as_blue) says so
            return "S" if self.color is None else f"S={self.color}"
        if self.anti:
            return "A"
        stands = f"{self.color or ''}{self.number if self.number is not None else ''}"
        return f"W={stands}" if stands else "W"

    @classmethod
    def parse(cls, token: str, deck: Deck = STANDARD_DECK) -> Card:
        """Read one card token such as ``R5``, ``w``, ``W=7``, ``W=R7`` or ``S``."""
        cards = parse_cards(token, deck)
        if len(cards) != 1:
            raise CardError(f"expected one card, got {len(cards)}", token, 1)
        return cards[0]


WILD = Card(wild=True)
SKIP = Card(skip=True)
ANTI = Card(anti=True)

CARD_TOKEN = re.compile(r"[^\s,]+")
_NATURAL = re.compile(r"([A-Za-z]+)([0-9]+)")


def _card_from_token(tok: str, deck: Deck) -> Card | str:
    """A card, or the reason the token is not one."""
    # ASCII only: upper() makes 'S' of 'ſ', and the digits of other scripts are not card
    # numbers ('R٣', 'R²')
    up = tok.upper() if tok.isascii() else ""
    if up == "S":
        return SKIP
    if up == "W":
        return WILD
    if up == "A":
        if deck.anti:
            return ANTI
        return ("'A' is the anti-phase rule card, which is in the deck only under "
                "house_rules.anti_phase_for_others")
    letters = "/".join(deck.colors)
    if up.startswith("S="):
        blue = deck.color_letter("blue")
        if blue is None:
            return f"{tok!r}: a skip is laid as a blue card (S=B), and this deck has no blue"
        if up[2:] != blue:
            return f"{tok!r}: a skip can stand only for a blue card, written S={blue}"
        return Card(None, blue, skip=True)
    if up.startswith("W="):
        rest = up[2:]
        m = re.fullmatch(r"([A-Z]?)([0-9]*)", rest)
        if not rest or not m:
            return f"a wild stands for a number, a color or both, like W=7, W=R or W=R7 (got {tok!r})"
        color, num = m.group(1) or None, m.group(2)
        if color is not None and color not in deck.colors:
            return f"unknown color {color!r} in {tok!r}: the colors are {letters}"
        number = None
        if num:
            if len(num) > 3 or not (deck.low <= int(num) <= deck.high):
                return f"a wild can stand only for {deck.low}-{deck.high}, not {num} (in {tok!r})"
            number = int(num)
        return Card(number, color, wild=True)
    natural, eq, _ = up.partition("=")
    if eq and _NATURAL.fullmatch(natural):
        # how a meld shows a card of a wild number played as a wild (the postal rule)
        return (f"{tok!r}: only a wild says what it stands for; write {natural} (under the "
                "postal rule a card of the wild number is tried as a wild by itself)")
    m = _NATURAL.fullmatch(up)
    if not m:
        return (
            f"{tok!r} is not a card: write a color ({letters}) and a number "
            f"like R5, or W for a wild, S for a skip"
        )
    color, num = m.groups()
    if color not in deck.colors:
        named = deck.color_letter(color) if len(color) > 1 else None
        if named is not None:
            # 'red5' names a color the deck has; calling it an unknown 'RED' would be wrong
            ok = len(num) <= 3 and deck.low <= int(num) <= deck.high
            return (f"{tok!r} is not a card: a card is its color's letter and its number, "
                    f"like {named}{int(num) if ok else deck.low}")
        return f"unknown color {color!r} in {tok!r}: the colors are {letters}"
    if len(num) > 3 or not (deck.low <= int(num) <= deck.high):
        return f"no card {tok!r}: numbers go from {deck.low} to {deck.high}"
    return Card(int(num), color)


# Tokens already read, per deck: hands repeat the same few dozen tokens.
_READ: dict[int, tuple[Deck, dict[str, Card]]] = {}
# One object per distinct card read ('r5' and 'R05' give the one R5) or dealt
# (``interned``), and the ids of those objects: repeated cards of a hand can be counted by
# identity (``most_copies``).
_ONE: dict[Card, Card] = {}
_ONE_IDS: set[int] = set()
_MAX_ONE = 1 << 16


def interned(card: Card) -> Card:
    """The one object kept for cards equal to ``card`` (the first one seen).  Read card text,
    a deck's cards (``Deck.all_cards``: the referee deals them) and the solver's tables all
    hand out these, so equal cards meet as one object in hands, counts and memo keys, and
    dict lookups, ``list.remove`` and ``in`` match them by identity instead of calling
    Card.__eq__ (in Python).  Only a speed-up: equal cards stay equal either way."""
    got = _ONE.get(card)
    if got is None:
        got = _ONE[card] = card
        _ONE_IDS.add(id(card))
    return got


for _card in (WILD, SKIP, ANTI):  # (every plain wild is WILD: Card.plain)
    interned(_card)


def most_copies(cards: Sequence[Card]) -> int | None:
    """How many times the most repeated card is in ``cards``, told quickly for cards that
    ``parse_cards`` read (one object per card); None for any other cards ("not known")."""
    ids = list(map(id, cards))
    if not _ONE_IDS.issuperset(ids):
        return None
    repeats = len(ids) - len(set(ids))
    if repeats < 2:  # one repeat is one card twice
        return repeats + 1 if ids else 0
    return max(Counter(ids).values())


def parse_cards(text: str, deck: Deck = STANDARD_DECK) -> list[Card]:
    """Read cards separated by spaces and/or commas; raise CardError at the first bad token."""
    if not isinstance(text, str):
        raise CardError(f"cards are text, like 'R5 B5 W', not {type(text).__name__} {text!r:.40}")
    if len(text) > MAX_CARD_TEXT:
        raise CardError(f"card list too long ({len(text)} characters; the limit is {MAX_CARD_TEXT})")
    if len(_ONE) > _MAX_ONE:  # forget every read card at once, so that _ONE holds them all
        _READ.clear()
        _ONE.clear()
        _ONE_IDS.clear()
    entry = _READ.get(id(deck))
    if entry is None or entry[0] is not deck:
        if not isinstance(deck, Deck):  # (checked only for a deck not seen before)
            raise ArgumentError("parse_cards(deck=...)", "a Deck (rules.deck)", deck)
        if len(_READ) > 64:
            _READ.clear()
        entry = _READ[id(deck)] = (deck, {})  # holds the deck, so its id stays its own
    read = entry[1]
    tokens = text.replace(",", " ").split()
    if len(tokens) > MAX_CARDS:
        return _read_slowly(text, deck)  # raises, with the column
    try:
        return [read[tok] for tok in tokens]  # every token read before: the common case
    except KeyError:
        pass
    cards: list[Card] = []
    for tok in tokens:
        card = read.get(tok)
        if card is None:
            got = _card_from_token(tok, deck)
            if isinstance(got, str):
                return _read_slowly(text, deck)  # raises, with the column
            got = interned(got)
            if len(read) < 4096:
                read[tok] = got
            card = got
        cards.append(card)
    return cards


def _read_slowly(text: str, deck: Deck) -> list[Card]:
    """Token by token, with the column of the first bad one."""
    cards: list[Card] = []
    for m in CARD_TOKEN.finditer(text):
        tok = m.group()
        got = (_card_from_token(tok, deck) if len(tok) <= MAX_TOKEN else
               f"{quoted(tok, MAX_TOKEN)} is not a card: a card is a few characters, like R5, "
               "W or W=R7")
        if isinstance(got, str):
            raise CardError(got, text, m.start() + 1)
        cards.append(got)
        if len(cards) > MAX_CARDS:
            raise CardError(f"too many cards (the limit is {MAX_CARDS})", text, m.start() + 1)
    return cards


# Names already made, by the card object (kept in the entry, so its id stays its own):
# answers name the same few dozen cards over and over.
_NAMES: dict[int, tuple[Card, str]] = {}


def card_names(cards: Iterable[Card]) -> list[str]:
    """``[str(c) for c in cards]``, quickly for cards named before."""
    if not isinstance(cards, list | tuple):
        cards = list(cards)  # read twice below
    try:
        return [_NAMES[id(c)][1] for c in cards]
    except KeyError:
        pass
    out = []
    for c in cards:
        got = _NAMES.get(id(c))
        if got is None:
            if len(_NAMES) > 4096:
                _NAMES.clear()
            got = _NAMES[id(c)] = (c, str(c))
        out.append(got[1])
    return out


def format_cards(cards: Iterable[Card] | str, deck: Deck = STANDARD_DECK) -> str:
    """The cards as the CLI writes them (a card string is read first: 'r5,w' is 'R5 W')."""
    if isinstance(cards, str):
        cards = parse_cards(cards, deck)
    if isinstance(cards, Iterable) and not isinstance(cards, bytes | dict):
        cards = list(cards)
        if all(isinstance(c, Card) for c in cards):
            return " ".join(str(c) for c in cards)
    raise ArgumentError("format_cards(cards=...)", "cards (Card values, or a card string like "
                        "'R5 B5 W')", cards)

