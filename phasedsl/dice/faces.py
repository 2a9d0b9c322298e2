"""Phase 10 Dice: the dice, their faces, and a roll written as text.

A face is a card of the pack's deck (``G7``) or a wild of one colour (``WG``); a die is
its faces, each as likely as the others; a set of dice is kinds of identical dice with
their counts (the printed game: six "high" dice 5-10, four "low" dice 1-4 and two W).
A face a player writes as a bare number (``7``) or ``W`` is read as the one face of the
dice that it can be, or refused naming what it could be.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import InputError
from ..model.cards import WILD, Card, Deck

_FACE = re.compile(r"(?i)^(?:(W)([A-Z])?|([A-Z])?(\d{1,2}))$")
MOST_DICE = 12  # dice in a game: a roll is judged by trying its sub-multisets
MOST_FACES = 20


@dataclass(frozen=True)
class Face:
    """One face: a number and a colour letter, or a wild (number None) of one colour.
    Faces sort by number, wilds last, then by colour."""

    number: int | None
    color: str

    def __lt__(self, other: Face) -> bool:
        return ((self.number is None, self.number or 0, self.color)
                < (other.number is None, other.number or 0, other.color))

    @property
    def wild(self) -> bool:
        return self.number is None

    def card(self) -> Card:
        """The card this face is to the solver where colour is not asked (a wild is any
        card)."""
        return WILD if self.wild else Card(self.number, self.color)

    def points(self) -> int:
        return 0 if self.wild else int(self.number)

    def __str__(self) -> str:
        return f"W{self.color}" if self.wild else f"{self.color}{self.number}"


@dataclass(frozen=True)
class DieKind:
    """Identical dice: their name, how many, their faces (each 1/len(faces) likely)."""

    name: str
    count: int
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class DiceScoring:
    """The sheet's bonuses and the solo penalty (a made phase scores its dice)."""

    five_phase_bonus: int = 40
    five_phase_over: int = 220
    first_finish_bonus: int = 40
    solo_miss: int = -5


@dataclass(frozen=True)
class Dice:
    """The dice a game rolls, the rolls a turn has, and the scoring's bonuses."""

    kinds: tuple[DieKind, ...]
    rolls: int = 3
    scoring: DiceScoring = DiceScoring()

    @property
    def count(self) -> int:
        return sum(k.count for k in self.kinds)

    @property
    def faces(self) -> tuple[Face, ...]:
        """Every face any die shows, once each, in order."""
        return tuple(sorted({f for k in self.kinds for f in k.faces}))

    def kind_of(self, face: Face) -> list[int]:
        """The kinds of die (their places) that show this face."""
        return [i for i, k in enumerate(self.kinds) if face in k.faces]

    def roll(self, kept: Sequence[Face], rng: random.Random) -> tuple[Face, ...]:
        """Every die's face after rolling the dice not kept (a kept face stays on a die of
        a kind that shows it)."""
        room = [k.count for k in self.kinds]
        for f in sorted(kept, key=lambda f: len(self.kind_of(f))):
            k = next(k for k in self.kind_of(f) if room[k])
            room[k] -= 1
        out = list(kept)
        for k, left in zip(self.kinds, room, strict=True):
            out += [rng.choice(k.faces) for _ in range(left)]
        return tuple(out)

    def describe(self) -> str:
        return "; ".join(f"{k.count} {k.name} dice ({' '.join(map(str, k.faces))})"
                         for k in self.kinds)


def _read(token: str, deck: Deck) -> tuple[int | None, str | None]:
    """A face's notation as (its number, None for a wild; its colour letter, None where
    the token is bare: ``7`` or ``W``); InputError where it is no face of the deck."""
    m = _FACE.match(token.strip())
    if not m:
        raise InputError(f"{token[:20]!r} is not a face: write a colour letter and a number "
                         "(G7), W and a colour letter (WG), or a bare number or W where the "
                         "dice leave no doubt")
    wild, wcolor, color, number = m.groups()
    color = (wcolor or color or "").upper() or None
    if color is not None and color not in deck.colors:
        raise InputError(f"{token!r}: no colour {color!r} in this pack (its colours: "
                         f"{', '.join(deck.colors)})")
    if wild:
        return None, color
    n = int(number)
    if n not in deck.numbers:
        raise InputError(f"{token!r}: numbers run from {deck.low} to {deck.high}")
    return n, color


def parse_face(token: str, deck: Deck, dice: Dice | None = None,
               colour_free: bool = False) -> Face:
    """A face from its notation: ``G7``, ``WG`` (a green wild), or where ``dice`` leave no
    doubt, ``7`` and ``W``.  ``colour_free``: the phase asks for no colour, so a bare number
    or W that could be several faces is read as the first of them."""
    n, color = _read(token, deck)
    if color is not None:
        return Face(n, color)
    if dice is None:
        raise InputError(f"{token!r}: give its colour (like G{n})" if n else
                         f"{token!r}: give its colour (like WG)")
    could = sorted({f for f in dice.faces if f.number == n})
    if len(could) == 1 or (could and colour_free):
        return could[0]
    if not could:
        raise InputError(f"{token!r}: no die shows {'a wild' if n is None else n}")
    raise InputError(f"{token!r} could be {' or '.join(map(str, could))}: give its colour")


def _words(tokens: Iterable[str]) -> list[str]:
    words = [w for t in tokens for w in t.split()]
    if len(words) > MOST_DICE * 4:
        raise InputError(f"{len(words)} faces: a roll has at most {MOST_DICE} dice")
    return words


def parse_kept(tokens: Iterable[str], deck: Deck, showing: Sequence[Face],
               colour_free: bool = False) -> tuple[Face, ...]:
    """The dice kept of those ``showing``, from their notation.  A bare number or W is read
    among the faces showing that no other word took (the faces written with a colour are
    taken first), not among every face of the dice: ``W`` where only WY shows is WY, and
    ``W W`` over WG and WY keeps both.  Where those faces differ in colour, the phase asks
    for colours and the bare words do not take them all, the error names them;
    ``colour_free``: the first is read.  A face not showing is left for the caller to
    refuse (a bare one that nothing showing can be: InputError)."""
    read = [(w, *_read(w, deck)) for w in _words(tokens)]
    left = Counter(showing) - Counter(Face(n, c) for _, n, c in read if c is not None)
    bare = Counter(n for _, n, c in read if c is None)  # bare words still to read, by number
    out = []
    for w, n, c in read:
        if c is not None:
            out.append(Face(n, c))
            continue
        could = sorted(f for f in left if f.number == n and left[f] > 0)
        if not could:
            what = "wild" if n is None else str(n)
            raise InputError(f"{w!r}: no {what} showing is left to keep")
        # (where the bare words take every such face left, which is which does not matter)
        takes_all = bare[n] >= sum(left[f] for f in could)
        if len(could) > 1 and not (colour_free or takes_all):
            raise InputError(f"{w!r} could be {' or '.join(map(str, could))}: give its colour")
        out.append(could[0])
        left[could[0]] -= 1
        bare[n] -= 1
    return tuple(out)


def parse_roll(tokens: Iterable[str], deck: Deck, dice: Dice | None,
               colour_free: bool = False) -> tuple[Face, ...]:
    """The faces showing, from their notation (one token each, or one string of them).
    ``colour_free``: the phase does not ask for colours, so a bare number or W that could
    be several faces is read as the first of them."""
    return tuple(parse_face(w, deck, dice, colour_free) for w in _words(tokens))


def fits_dice(faces: Sequence[Face], dice: Dice) -> str | None:
    """Why these faces cannot be one roll of these dice (too many, or faces only some
    dice show more times than there are such dice), or None."""
    if len(faces) > dice.count:
        return f"{len(faces)} faces: these dice are {dice.count}"
    need = Counter(faces)
    # a face shown by several kinds may come from any of them: check by a small matching
    # (each kind gives at most its count)
    slots = [k.count for k in dice.kinds]
    for face, n in sorted(need.items(), key=lambda fn: len(dice.kind_of(fn[0]))):
        kinds = dice.kind_of(face)
        if not kinds:
            return f"{face}: no die shows it ({dice.describe()})"
        for i in kinds:
            take = min(n, slots[i])
            slots[i] -= take
            n -= take
        if n:
            names = " and ".join(dice.kinds[i].name for i in kinds)
            total = sum(dice.kinds[i].count for i in kinds)
            return (f"more faces of the {names} dice than there are ({total}): "
                    f"{' '.join(str(f) for f in sorted(faces))}")
    return None
