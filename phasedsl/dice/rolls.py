"""Does a roll make a phase, with which dice, and for how many points?

The card solver judges: the dice used are a hand of exactly the cards the phase needs
(``Phase.cards_needed``; dice not needed score nothing), and the best score is the most
points among the ways that make it.  A wild die is any card where the phase asks for no
colour; where it does (``7 of one color``), a wild counts only in its own colour, so it is
read as a card of its colour standing for any number (``W=G7``) and the numbers it could
stand for are tried (one number suffices where no group asks for numbers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

from ..errors import InputError
from ..model.cards import Card
from ..model.meld import Meld
from ..model.phase import Phase
from ..model.rules import Rules
from ..solver import find
from .faces import Face


def colour_matters(phase: Phase, rules: Rules) -> bool:
    """Whether some group of the phase asks for a colour."""
    return rules.runs_one_color or any(g.kind.one_color or g.colors for g in phase.groups)


def _numbers_matter(phase: Phase) -> bool:
    return any(not (g.kind.value == "color" and not g.colors) for g in phase.groups)


def _hands(used: Sequence[Face], phase: Phase, rules: Rules) -> Iterator[list[Card]]:
    """The hands of cards these dice can be to the solver."""
    naturals = [f.card() for f in used if not f.wild]
    wilds = [f for f in used if f.wild]
    if not wilds or not colour_matters(phase, rules):
        yield naturals + [f.card() for f in wilds]
        return
    if len(phase.groups) == 1 and phase.groups[0].kind.one_color and not phase.groups[0].colors:
        # one group of one colour: a wild of that colour is any card of it, and the dice of
        # other colours are no use; so each colour shown is tried with its own dice alone
        for colour in sorted({f.color for f in used}):
            yield [f.card() for f in used if f.color == colour]
        return
    if rules.min_naturals:
        # (a wild read as a natural of its colour would count as a natural)
        raise InputError("a wild die counts only in its own colour: with natural dice "
                         "needed in a group (wilds.natural_minimum above 0), a phase of "
                         "several groups asking for colours is not supported; set "
                         "wilds.natural_minimum: 0")
    numbers = list(rules.deck.numbers) if _numbers_matter(phase) else [rules.deck.low]
    by_colour = Counter(f.color for f in wilds)
    choices = [[[Card(n, c) for n in ns] for ns in combinations_with_replacement(numbers, k)]
               for c, k in sorted(by_colour.items())]
    for pick in product(*choices):
        # (a wild standing for a card of its colour: to the solver, that natural card)
        yield naturals + [c for part in pick for c in part]


def group_texts(meld: Meld, used: Sequence[Face]) -> list[str]:
    """The meld's groups as the dice show them: a wild die that stood for a card of its
    colour is written W=G7 (the solver saw the card)."""
    stood = Counter(f.card() for f in used if not f.wild)
    out = []
    for g in meld.groups:
        words = []
        for c in g.cards:
            if not c.wild and stood[c] > 0:
                stood[c] -= 1
                words.append(str(c))
            elif c.wild:
                words.append(str(c))
            else:
                words.append(f"W={c}")
        out.append(" ".join(words))
    return out


def _colours_short(phase: Phase, faces: Sequence[Face]) -> bool:
    """Whether some one-colour group of the phase is larger than the dice of any one colour
    (a wild die counts in its own colour only): a quick refusal before the solver."""
    most = max(Counter(f.color for f in faces).values(), default=0)
    return any(g.kind.one_color and not g.colors and g.size > most for g in phase.groups)


def makes(phase: Phase, used: Sequence[Face], rules: Rules) -> Meld | None:
    """A meld of exactly these dice that makes the phase (all of them used), or None."""
    if len(used) != phase.cards_needed or _colours_short(phase, used):
        return None
    for hand in _hands(used, phase, rules):
        meld = find(phase, hand, rules)
        if meld is not None:
            return meld
    return None


@lru_cache(maxsize=200_000)
def makes_sorted(phase: Phase, used: tuple[Face, ...], rules: Rules) -> bool:
    return makes(phase, used, rules) is not None


@dataclass(frozen=True)
class Judged:
    """A roll judged against a phase: made or not; the dice used and their score (the
    best-scoring way); the meld the solver laid; and how many ways score that much."""

    phase: Phase
    faces: tuple[Face, ...]
    made: bool
    used: tuple[Face, ...] = ()
    score: int = 0
    meld: Meld | None = None

    def to_json(self) -> dict:
        return {"phase": str(self.phase), "faces": [str(f) for f in self.faces],
                "made": self.made, "used": [str(f) for f in self.used],
                "unused": [str(f) for f in _minus(self.faces, self.used)],
                "score": self.score,
                "groups": group_texts(self.meld, self.used) if self.meld else []}


def _minus(faces: Sequence[Face], used: Sequence[Face]) -> list[Face]:
    left = Counter(faces) - Counter(used)
    return sorted(left.elements())


def judge(phase: Phase, faces: Sequence[Face], rules: Rules) -> Judged:
    """Whether the faces showing make the phase, and its best score."""
    faces = tuple(faces)
    n = phase.cards_needed
    if len(faces) < n:
        return Judged(phase, faces, False)
    # every distinct choice of n dice, the highest scoring first
    seen: set[tuple[Face, ...]] = set()
    picks = []
    for idx in combinations(range(len(faces)), n):
        used = tuple(sorted(faces[i] for i in idx))
        if used not in seen:
            seen.add(used)
            picks.append(used)
    picks.sort(key=lambda u: (-sum(f.points() for f in u), u))
    for used in picks:
        meld = makes(phase, used, rules)
        if meld is not None:
            return Judged(phase, faces, True, used, sum(f.points() for f in used), meld)
    return Judged(phase, faces, False)


def roll_makes(phase: Phase, faces: Sequence[Face], rules: Rules) -> bool:
    """Whether some of these dice make the phase (the solver lays what it needs of a
    hand, so one search a roll)."""
    if len(faces) < phase.cards_needed or _colours_short(phase, faces):
        return False
    return any(find(phase, hand, rules) is not None for hand in _hands(faces, phase, rules))
