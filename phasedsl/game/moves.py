"""Moves: what a player (or the dealer) does, as values, and their game-log shapes.

Every move names its player; ``to_log`` gives the JSON object of one log line and
``from_log`` reads one back (cards in the CLI notation of the pack's deck).  A
malformed object raises ``LogError`` naming the field; whether a well-formed
move is *legal* is the engine's question, not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..errors import PhaseDSLError, brief_repr, clipped, quoted
from ..model.cards import Card, Deck, parse_cards


class LogError(PhaseDSLError):
    """A log event that cannot be read (not a question of legality)."""


def _shown(value: object) -> str:
    """A value of the log as a message quotes it: a long one is cut, with its length."""
    if isinstance(value, str):
        return quoted(value, 40)
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}... ({len(text):,} characters)"


def _field(obj: dict, key: str, kind: type | tuple, what: str):
    if key not in obj:
        raise LogError(f"a {_shown(obj.get('type'))} event needs {key!r} ({what})")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise LogError(f"{key!r} of a {_shown(obj.get('type'))} event must be {what}, "
                       f"not {_shown(value)}")
    return value


def _card(text, deck: Deck, key: str = "card") -> Card:
    if not isinstance(text, str):
        raise LogError(f"{key!r} must be a card such as 'R5', 'W' or 'S', not {_shown(text)}")
    card = _one_card(text, deck) if len(text) <= 8 else _one_card.__wrapped__(text, deck)
    if card is None:
        raise LogError(f"{key!r} must be one card, not {_shown(text)}")
    return card


def _plain_card(text, deck: Deck, key: str = "card") -> Card:
    """A card dealt, drawn, discarded or set aside: as it is in a hand.  Only a wild being
    laid or hit says what it stands for (``W=R5``); anywhere else the annotation would be
    dropped unread, so it is refused."""
    card = _card(text, deck, key)
    if card != card.plain():
        if card.skip:  # S=B (skip_counts_as_blue)
            raise LogError(f"{key!r}: {_shown(text)} says a skip is a blue card, which only a "
                           "laid or hit skip does; a card in a hand is plain (S)")
        raise LogError(f"{key!r}: {_shown(text)} says what a wild stands for, which only a "
                       "laid or hit wild does; a card in a hand is plain (W)")
    return card


def _plain_cards(items, deck: Deck, key: str) -> tuple[Card, ...]:
    if not isinstance(items, list) or len(items) > 200:
        raise LogError(f"{key!r} must be a list of cards (at most 200)")
    return tuple(_plain_card(c, deck, key) for c in items)


@lru_cache(maxsize=4096)
def _one_card(text: str, deck: Deck) -> Card | None:
    # A log names the same few dozen cards thousands of times.
    cards = parse_cards(text, deck)
    return cards[0] if len(cards) == 1 else None


def _cards(items, deck: Deck, key: str) -> tuple[Card, ...]:
    if not isinstance(items, list) or len(items) > 200:
        raise LogError(f"{key!r} must be a list of cards (at most 200)")
    return tuple(_card(c, deck, key) for c in items)


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer deals: every playing seat's hand and the first up-card.  A board game
    with several discard piles gives each pile's cards (``piles``, bottom first: a skip
    turned up gets another card on top; ``up`` is then the first pile's top), and the
    twist card turned for each pawn on a twist space (``twists``, player: phrase)."""

    hands: tuple[tuple[str, tuple[Card, ...]], ...]
    up: Card
    piles: tuple[tuple[Card, ...], ...] = ()
    twists: tuple[tuple[str, str], ...] = ()
    type: ClassVar[str] = "deal"

    @property
    def player(self) -> None:
        return None

    def to_log(self) -> dict:
        out: dict = {"type": "deal", "hands": {p: [str(c) for c in h] for p, h in self.hands},
                     "up": str(self.up)}
        if self.piles:
            out["piles"] = [[str(c) for c in p] for p in self.piles]
        if self.twists:
            out["twists"] = dict(self.twists)
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Deal:
        hands = _field(obj, "hands", dict, "an object of player: [cards]")
        piles: tuple[tuple[Card, ...], ...] = ()
        if obj.get("piles") is not None:
            given = _field(obj, "piles", list, "a list of discard piles, each a list of cards")
            if not 1 <= len(given) <= 3:
                raise LogError("'piles' lists 1 to 3 discard piles")
            piles = tuple(_plain_cards(p, deck, "piles") for p in given)
            if not all(piles):
                raise LogError("'piles': each discard pile starts with at least one card")
        twists: tuple[tuple[str, str], ...] = ()
        if obj.get("twists") is not None:
            given = _field(obj, "twists", dict, "an object of player: twist phase")
            if not all(isinstance(t, str) and len(t) <= 200 for t in given.values()):
                raise LogError("'twists' gives each player the phrase of a twist card")
            twists = tuple((str(p), t) for p, t in given.items())
        up = obj.get("up")
        if up is None and piles:
            return cls(_hands(hands, deck), piles[0][-1], piles, twists)
        return cls(_hands(hands, deck), _plain_card(_field(obj, "up", str, "a card"), deck, "up"),
                   piles, twists)


def _hands(hands: dict, deck: Deck) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    return tuple((str(p), _plain_cards(h, deck, f"hands.{clipped(str(p), 40)}"))
                 for p, h in hands.items())


@dataclass(frozen=True, slots=True)
class Choose:
    """A board game: a player whose pawn stands on a twist space chooses, when the hand
    starts, the twist card turned for them (``"twist"``) or the phase of a neighbouring
    space (its number, counted from 1 at the start)."""

    player: str
    choice: str | int
    type: ClassVar[str] = "choose"

    def to_log(self) -> dict:
        return {"type": "choose", "player": self.player, "choice": self.choice}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Choose:
        choice = obj.get("choice")
        if choice != "twist" and (not isinstance(choice, int) or isinstance(choice, bool)):
            raise LogError(f"'choice' must be \"twist\" or the number of a neighbouring space, "
                           f"not {_shown(choice)}")
        return cls(_field(obj, "player", str, "a player name"), choice)


@dataclass(frozen=True, slots=True)
class Declare:
    """A player says which phase they attempt this hand (Masters, ``declare_phase``)."""

    player: str
    phase: int
    type: ClassVar[str] = "declare"

    def to_log(self) -> dict:
        return {"type": "declare", "player": self.player, "phase": self.phase}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Declare:
        return cls(_field(obj, "player", str, "a player name"),
                   _field(obj, "phase", int, "a phase number"))


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from ``deck``, ``discard`` or one's own ``save`` pile.  A deck draw in a
    log names its card; a move from ``legal_moves`` of a seeded game may leave it None
    (the engine knows the top card)."""

    player: str
    source: str
    card: Card | None = None
    pile: int = 1  # a board game's discard piles: which one (from 1)
    type: ClassVar[str] = "draw"

    def to_log(self) -> dict:
        out: dict = {"type": "draw", "player": self.player, "from": self.source}
        if self.card is not None and self.source != "discard":
            out["card"] = str(self.card)
        if self.pile != 1:
            out["pile"] = self.pile
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Draw:
        source = _field(obj, "from", str, "'deck', 'discard' or 'save'")
        if source not in ("deck", "discard", "save"):
            raise LogError(f"'from' must be 'deck', 'discard' or 'save', not {_shown(source)}")
        card = _plain_card(obj["card"], deck) if obj.get("card") is not None else None
        return cls(_field(obj, "player", str, "a player name"), source, card,
                   _pile(obj, source == "discard"))


def _pile(obj: dict, allowed: bool) -> int:
    pile = obj.get("pile", 1)
    if pile == 1 and not isinstance(pile, bool):
        return 1
    if not allowed:
        raise LogError(f"a {_shown(obj.get('type'))} event names a discard pile only when it "
                       "is taken from or put on one")
    if not isinstance(pile, int) or isinstance(pile, bool) or not 1 <= pile <= 99:
        # (a pile the table lacks is the referee's question: rule no_such_pile)
        raise LogError(f"'pile' must be a discard pile's number (from 1), not {_shown(pile)}")
    return pile


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay down the whole current phase; ``phase`` is given when the player names it
    (``declare_phase: when_laying``, or to pick among several in any-order games)."""

    player: str
    groups: tuple[tuple[Card, ...], ...]
    phase: int | None = None
    type: ClassVar[str] = "lay"

    def to_log(self) -> dict:
        out: dict = {"type": "lay", "player": self.player,
                     "groups": [[str(c) for c in g] for g in self.groups]}
        if self.phase is not None:
            out["phase"] = self.phase
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Lay:
        groups = _field(obj, "groups", list, "a list of groups, each a list of cards")
        if len(groups) > 10:
            raise LogError("'groups' lists more than 10 groups (a phase has at most 10)")
        phase = obj.get("phase")
        if phase is not None and (not isinstance(phase, int) or isinstance(phase, bool)):
            raise LogError(f"'phase' must be a phase number, not {_shown(phase)}")
        return cls(_field(obj, "player", str, "a player name"),
                   tuple(_cards(g, deck, "groups") for g in groups), phase)


def _target(obj: dict) -> tuple[str, int]:
    on = _field(obj, "on", dict, "an object {\"player\": NAME, \"group\": N}")
    who, group = on.get("player"), on.get("group")
    if not isinstance(who, str) or not isinstance(group, int) or isinstance(group, bool):
        raise LogError("'on' must be {\"player\": NAME, \"group\": N} with N counted from 1")
    return who, group


@dataclass(frozen=True, slots=True)
class Hit:
    """Play one card onto a laid group (``group`` counts from 1 in that player's laid
    order).  A wild may say what it stands for (``W=6``): that picks the run's end."""

    player: str
    card: Card
    target: str
    group: int
    type: ClassVar[str] = "hit"

    def to_log(self) -> dict:
        return {"type": "hit", "player": self.player, "card": str(self.card),
                "on": {"player": self.target, "group": self.group}}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Hit:
        who, group = _target(obj)
        return cls(_field(obj, "player", str, "a player name"), _card(obj.get("card"), deck),
                   who, group)


@dataclass(frozen=True, slots=True)
class Swap:
    """Replace a laid wild with the natural it stands for (``wilds.swap``).  Under Utah
    rules the wild moves to the run's ``end``; where a taken wild is a penalty
    (``wild_steal_penalty``) the wild goes to the player's hand instead."""

    player: str
    card: Card
    target: str
    group: int
    end: str | None = None
    type: ClassVar[str] = "swap"

    def to_log(self) -> dict:
        out = {"type": "swap", "player": self.player, "card": str(self.card),
               "on": {"player": self.target, "group": self.group}}
        if self.end is not None:
            out["end"] = self.end
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Swap:
        who, group = _target(obj)
        end = obj.get("end")
        if end not in (None, "low", "high"):
            raise LogError(f"'end' must be 'low' or 'high', not {_shown(end)}")
        return cls(_field(obj, "player", str, "a player name"), _card(obj.get("card"), deck),
                   who, group, end)


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card, ending the turn; a skip (or, Truly Wild, a wild played as one)
    names the player it skips; the anti-phase card discarded as one's last card names the
    player who moves ``down`` one phase."""

    player: str
    card: Card
    skip: str | None = None
    down: str | None = None
    pile: int = 1  # a board game's discard piles: which one (from 1)
    type: ClassVar[str] = "discard"

    def to_log(self) -> dict:
        out: dict = {"type": "discard", "player": self.player, "card": str(self.card)}
        if self.skip is not None:
            out["skip"] = self.skip
        if self.down is not None:
            out["down"] = self.down
        if self.pile != 1:
            out["pile"] = self.pile
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Discard:
        named = {}
        for key in ("skip", "down"):
            named[key] = obj.get(key)
            if named[key] is not None and not isinstance(named[key], str):
                raise LogError(f"{key!r} must be a player name, not {_shown(named[key])}")
        return cls(_field(obj, "player", str, "a player name"), _plain_card(obj.get("card"), deck),
                   **named, pile=_pile(obj, True))


@dataclass(frozen=True, slots=True)
class Save:
    """Masters: set one card aside on one's save pile instead of discarding (once a hand)."""

    player: str
    card: Card
    type: ClassVar[str] = "save"

    def to_log(self) -> dict:
        return {"type": "save", "player": self.player, "card": str(self.card)}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Save:
        return cls(_field(obj, "player", str, "a player name"),
                   _plain_card(obj.get("card"), deck))


@dataclass(frozen=True, slots=True)
class Give:
    """Dealer's choice: the dealer gives a turned-up wild to ``to`` (who then discards a
    card that is not a skip), or names who a turned-up skip skips."""

    player: str
    to: str
    type: ClassVar[str] = "give"

    def to_log(self) -> dict:
        return {"type": "give", "player": self.player, "to": self.to}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Give:
        return cls(_field(obj, "player", str, "the dealer's name"),
                   _field(obj, "to", str, "a player name"))


@dataclass(frozen=True, slots=True)
class Abandon:
    """Masters variant 2: in the turn they laid it, a player takes back their phase (its
    cards go under the top of the discard pile) and draws ``cards`` from the draw pile,
    enough to hold ten after the turn's discard; they attempt a phase again next turn."""

    player: str
    cards: tuple[Card, ...] | None = None
    type: ClassVar[str] = "abandon"

    def to_log(self) -> dict:
        out: dict = {"type": "abandon", "player": self.player}
        if self.cards is not None:
            out["cards"] = [str(c) for c in self.cards]
        return out

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Abandon:
        cards = _plain_cards(obj["cards"], deck, "cards") if obj.get("cards") is not None else None
        return cls(_field(obj, "player", str, "a player name"), cards)


@dataclass(frozen=True, slots=True)
class Stop:
    """Time is up: play stops where it is (``baseball_short_game``).  Nobody's move, so
    ``legal_moves`` never lists it; whoever keeps the clock applies it."""

    type: ClassVar[str] = "stop"

    @property
    def player(self) -> None:
        return None

    def to_log(self) -> dict:
        return {"type": "stop"}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Stop:
        return cls()


@dataclass(frozen=True, slots=True)
class Pawns:
    """A board game: where each pawn stands after a hand, recorded once the hand ends and
    before the next deal (the referee checks each against the move table)."""

    spaces: tuple[tuple[str, int], ...]
    type: ClassVar[str] = "pawns"

    @property
    def player(self) -> None:
        return None

    def to_log(self) -> dict:
        return {"type": "pawns", "spaces": dict(self.spaces)}

    @classmethod
    def from_log(cls, obj: dict, deck: Deck) -> Pawns:
        spaces = _field(obj, "spaces", dict, "an object of player: space (from 1)")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in spaces.values()):
            raise LogError("'spaces' gives each player the space their pawn moved to, a number "
                           "counted from 1 at the start")
        return cls(tuple((str(p), v) for p, v in spaces.items()))


Move = (Deal | Choose | Declare | Draw | Lay | Hit | Swap | Discard | Save | Give | Abandon | Stop
        | Pawns)

MOVE_TYPES: dict[str, type] = {m.type: m for m in (Deal, Choose, Declare, Draw, Lay, Hit, Swap,
                                                    Discard, Save, Give, Abandon, Stop, Pawns)}


def move_from_log(obj: dict, deck: Deck) -> Move:
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        known = ", ".join(["game", *MOVE_TYPES])
        raise LogError(f"unknown event type {_shown(kind)} (the types are: {known})")
    return MOVE_TYPES[kind].from_log(obj, deck)


# What each field of a move made by hand in Python must hold (a log's move is read into
# these types already): ``misfit`` names the first that does not, so that ``apply`` refuses
# Discard("ann", "R5") or Lay("ann", "R5 R5 R5") as a move, not with an AttributeError from
# inside, and Discard(..., pile=True) is not read as pile 1.
_NAMES = ("player", "source", "target", "to")  # (a name of a player, a pile, a group's end)
_MAYBE_NAMES = ("skip", "down", "end")
_NUMBERS = ("pile", "group")


def _is_whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _all_cards(x: object) -> bool:
    return isinstance(x, tuple | list) and all(isinstance(c, Card) for c in x)


# the rule code of a field of the wrong type, where one says it already (a player that is
# no name is not at the table); any other field's is bad_move
FIELD_RULES = {"player": "unknown_player", "target": "unknown_player", "to": "unknown_player",
               "skip": "unknown_player", "down": "unknown_player", "source": "bad_draw",
               "pile": "no_such_pile"}


def misfit(move: Move) -> tuple[str, str] | None:
    """The name of the first of ``move``'s fields not of its type and what is wrong with
    it, or None when each is of its type."""
    kind = type(move).__name__
    slots = type(move).__slots__
    for name in slots:
        x = getattr(move, name)
        ok = (isinstance(x, str) if name in _NAMES else
              x is None or isinstance(x, str) if name in _MAYBE_NAMES else
              _is_whole(x) if name in _NUMBERS else
              _fits(move, name, x))
        if not ok:
            shown = clipped(brief_repr(x), 60)
            return name, (f"{kind}.{name} must be {_WANTED.get(name, 'of its type')}, "
                          f"not {type(x).__name__} {shown}")
    return None


def _fits(move: Move, name: str, x: object) -> bool:
    if name == "card":  # (a deck draw's card may be left to the engine)
        return isinstance(x, Card) or (x is None and type(move) is Draw)
    if name == "cards":
        return x is None or _all_cards(x)
    if name == "groups":
        return isinstance(x, tuple | list) and all(_all_cards(g) for g in x)
    if name == "phase":  # (a lay may leave its phase unnamed)
        return _is_whole(x) or (x is None and type(move) is Lay)
    if name == "choice":
        return isinstance(x, str) or _is_whole(x)
    if name == "up":
        return isinstance(x, Card)
    return True  # (a deal's hands and piles, the pawns' spaces: made by the engine)


_WANTED = {
    "player": "a player's name (a string)", "source": "'deck', 'discard' or 'save'",
    "target": "the name of the player whose group it is", "to": "a player's name (a string)",
    "skip": "a player's name or None", "down": "a player's name or None",
    "end": "'low', 'high' or None", "pile": "a discard pile's number (from 1)",
    "group": "a group's number (from 1)", "card": "a Card (parse_cards('R5')[0])",
    "cards": "a tuple of Card, or None", "groups": "a tuple of groups, each a tuple of Card",
    "phase": "a phase's number", "choice": "'twist' or a space's number", "up": "a Card",
}
