"""Phases as values: the phase itself, made of parts (``group.py``) and read by the DSL.

A phase is written as parts (``2 sets of 3``); each part is a count of one
group shape.  ``Phase.groups`` expands the parts into the groups a player lays,
in the written order.  ``str(phase)`` is the canonical printed form under the standard
deck, and ``Phase.parse(str(phase)) == phase`` always holds; under a pack's own deck (its
own colors or numbers) the form is ``phase.canonical(deck)``, and
``Phase.parse(phase.canonical(deck), deck) == phase``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ArgumentError
from . import dsl
from .cards import STANDARD_DECK, Deck
from .group import ColorMap, Group, Kind, Part, format_color_map
from .words import plural_word

__all__ = ["ColorMap", "Group", "Kind", "Part", "Phase", "format_color_map", "plural_word"]


def _merged(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Adjacent parts of one shape as one part: "1 set of 3 + 1 set of 3" is "2 sets of 3".

    Wild and skip parts stay apart: their phrase has no count ("2 wilds" is one
    part of two wilds, not two parts)."""
    out: list[Part] = []
    for p in parts:
        if out and out[-1].group == p.group and p.group.kind.needs_natural:
            out[-1] = Part(out[-1].count + p.count, p.group)
        else:
            out.append(p)
    return tuple(out)


def _group_key(g: Group) -> tuple:
    colors = () if g.colors is None else tuple((n, tuple(sorted(cs))) for n, cs in g.colors)
    return (g.kind.value, g.size, g.colors is not None, colors, -1 if g.total is None else g.total,
            -1 if g.bound is None else g.bound,
            g.any_count)


@dataclass(frozen=True, slots=True, eq=False)
class Phase:
    """A contract: the parts a player must lay down, in written order.

    Two phases are equal when they ask for the same groups: the written order
    is kept for display (and ``find`` lists a meld's groups in it), but
    ``1 run of 4 + 1 set of 3`` and ``1 set of 3 + 1 run of 4`` are one contract.
    Adjacent parts of one shape are merged at construction, so the canonical
    form of ``1 set of 3 and 1 set of 3`` is ``2 sets of 3``.  ``ignored``
    holds what the phrase said that was not read (a remark in parentheses, a
    ``Phase 2:`` label); it is no part of the contract.
    """

    parts: tuple[Part, ...]
    ignored: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "parts", _merged(tuple(self.parts)))

    def _contract(self) -> tuple:
        return tuple(sorted(_group_key(g) for g in self.groups))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._contract() == other._contract()

    def __hash__(self) -> int:
        return hash(self._contract())

    @property
    def groups(self) -> tuple[Group, ...]:
        return tuple(p.group for p in self.parts for _ in range(p.count))

    @property
    def cards_needed(self) -> int:
        return sum(g.size for g in self.groups)

    def canonical(self, deck: Deck = STANDARD_DECK) -> str:
        # kept per (phase, deck) object: a batch prints the same few phases on every line
        key = (id(self), id(deck))
        got = _CANONICAL.get(key)
        if got is not None and got[0] is self and got[1] is deck:
            return got[2]
        text = " + ".join(p.canonical(deck) for p in self.parts)
        if len(_CANONICAL) >= MAX_PARSED:
            _CANONICAL.clear()
        _CANONICAL[key] = (self, deck, text)  # holds both, so their ids stay theirs
        return text

    def plain(self, deck: Deck = STANDARD_DECK) -> str:
        """The phase in plain words ("3 cards of the same number and 4 numbers in a row")."""
        words = [p.plain(deck) for p in self.parts]
        if len(words) == 1:
            return words[0]
        # a part that has a comma of its own is set off by semicolons, so each reads whole
        sep = "; " if any("," in w for w in words) else ", "
        last = "; and " if sep == "; " else ", and " if len(words) > 2 else " and "
        return sep.join(words[:-1]) + last + words[-1]

    def __str__(self) -> str:
        return self.canonical()

    @classmethod
    def parse(cls, text: str, deck: Deck = STANDARD_DECK) -> Phase:
        """Read a phase phrase; raise PhaseSyntaxError / PhaseValueError with the column.

        Each distinct phrase is read once per deck (phases are immutable, so one object
        serves every caller: API, batch lines, CLI); a phrase that fails is read again.
        """
        key = (text, id(deck)) if isinstance(text, str) else None
        got = _PARSED.get(key) if key is not None else None
        if got is not None and got[0] is deck:
            return got[1]
        if not isinstance(deck, Deck):  # (checked only where a phrase is read afresh)
            raise ArgumentError("Phase.parse(deck=...)", "a Deck (rules.deck)", deck)
        parts, ignored = dsl.read(text, deck)
        phase = cls(parts, ignored)
        if key is not None:
            if len(_PARSED) >= MAX_PARSED:
                _PARSED.clear()
            _PARSED[key] = (deck, phase)  # holds the deck, so its id stays its own
        return phase

    def to_json(self, deck: Deck = STANDARD_DECK) -> dict:
        out = {
            "canonical": self.canonical(deck),
            "cards_needed": self.cards_needed,
            "groups": [g.to_json(deck) for g in self.groups],
        }
        if self.ignored:
            out["ignored"] = list(self.ignored)
        return out


# Phrases already read, with their deck (bounded: a long batch of distinct phrases must not
# grow it without end).
MAX_PARSED = 4096
_PARSED: dict[tuple[str, int], tuple[Deck, Phase]] = {}
_CANONICAL: dict[tuple[int, int], tuple[Phase, Deck, str]] = {}
