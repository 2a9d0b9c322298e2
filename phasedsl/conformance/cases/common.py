"""What the areas' case generators share: the rule variants, seeded randomness, phases
of the built-in packs, melds and cards picked for a case."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

from ...model.cards import Deck
from ...model.phase import Phase
from ...model.rules import Rules
from ...packs.pack import builtin_names, load_pack
from ...solver import SearchLimit, find
from ..ruleset import changes as changes_of
from ..ruleset import full, printed

Raw = dict


# Rule variants crossed with the corner tables: (name, dotted changes). Append only.
VARIANTS: list[tuple[str, dict]] = [
    ("printed", {}),
    ("natural-minimum-0", {"wilds.natural_minimum": 0}),
    ("natural-minimum-2", {"wilds.natural_minimum": 2}),
    ("natural-per-phase", {"wilds.natural_scope": "phase"}),
    ("sets-distinct", {"sets.share_number": False}),
    ("one-color-runs", {"runs.one_color": True}),
    ("wild-as-skip", {"wilds.as_skip": True}),
    ("exact-sizes", {"lay_down.extras": False}),
    ("wild-numbers-3", {"wild_numbers": [3]}),
    ("wild-numbers-7", {"wild_numbers": [7]}),
    ("runs-wrap", {"runs.wrap": True}),
    ("skip-as-blue", {"house_rules.skip_counts_as_blue": True}),
]


# Group kinds a random phase is made of, with the sizes that make sense. Append only.
RANDOM_KINDS: list[tuple[str, tuple[int, ...]]] = [
    ("set", (2, 3, 4, 5)),
    ("run", (3, 4, 5, 6, 7)),
    ("color_run", (3, 4, 5)),
    ("color", (4, 5, 6, 7)),
    ("even_odd", (4, 5, 6)),
    ("color_even_odd", (3, 4)),
    ("color_set", (2, 3)),
    ("wild", (1, 2)),
    ("skip", (1, 2)),
]


PHRASE_OF = {
    "set": "{n} sets of {s}", "run": "{n} runs of {s}", "color_run": "{n} color runs of {s}",
    "color": "{n} color groups of {s}", "even_odd": "{n} even or odd of {s}",
    "color_even_odd": "{n} color even or odd of {s}", "color_set": "{n} color sets of {s}",
    "wild": "{s} wilds", "skip": "{s} skips",
}


def rng(key: str) -> random.Random:
    return random.Random(f"phasedsl-conformance:{key}")


def rules_for(changes: dict) -> Rules:
    from ..ruleset import solver_rules, with_changes

    return solver_rules(with_changes(printed(), changes))


# The kinds custom sets use (sums, runs of pairs, over/under), drawn with a few classic ones by
# families of their own, so that the classic families' cases stay as they were. Append only.
NEW_KINDS: list[tuple[str, tuple[int, ...]]] = [
    ("over", (3, 4)),
    ("under", (3, 4)),
    ("pair_run", (2, 3)),
    ("sum", (3, 4)),
    ("sum_any", (0,)),
    ("color_sum", (3,)),
    ("set", (2, 3)),
    ("run", (3, 4)),
    ("color", (4, 5)),
]


PHRASE_OF.update({
    "over": "{n} groups of {s} over 8", "under": "{n} groups of {s} under 5",
    "pair_run": "{n} runs of {s} pairs", "sum": "{n} groups of {s} totalling 24",
    "sum_any": "{n} groups totalling 30", "color_sum": "{n} color groups of {s} totalling 20",
})


def random_phrase(r: random.Random, groups: int,
                  kinds: list[tuple[str, tuple[int, ...]]] = RANDOM_KINDS) -> str:
    parts = []
    for _ in range(groups):
        kind, sizes = r.choice(kinds)
        parts.append(PHRASE_OF[kind].format(n=1, s=r.choice(sizes)))
    return " + ".join(parts)


def meld_of(phase: Phase, rules: Rules, r: random.Random, pool_size: int = 60) -> list[list[str]] | None:
    """A layout of ``phase`` from a seeded sample of the deck: each group's cards as laid
    (wilds plain, so that the layout says no more than a hand does)."""
    deck = rules.deck.all_cards()
    for size in (pool_size, len(deck)):
        pool = r.sample(deck, min(size, len(deck)))
        try:
            meld = find(phase, pool, rules)
        except SearchLimit:
            return None
        if meld is not None:
            return [[str(c.plain()) for c in g.cards] for g in meld.groups]
    return None


def shuffled(r: random.Random, items: list) -> list:
    out = list(items)
    r.shuffle(out)
    return out


def other_cards(deck: Deck, used: list[str], r: random.Random, k: int) -> list[str]:
    """``k`` cards of the deck not among ``used`` (as copies go)."""
    left = [str(c) for c in deck.all_cards()]
    for u in used:
        if u in left:
            left.remove(u)
    return r.sample(left, min(k, len(left)))


def pack_phases() -> Iterator[tuple[str, str, dict, Phase, str, frozenset[int]]]:
    """(key, label, world settings, phase, text, wild numbers) for every phase of every pack."""
    for name in builtin_names():
        pack = pack_named(name)
        for w in pack.worlds:
            wkey = name if len(pack.worlds) == 1 else f"{name}-{w.name}"
            for e in w.phases:
                _, rules = pack.phase_entry(e.number, w.name if len(pack.worlds) > 1 else None) \
                    if e in w.played else (e, w.rules)
                label = f"{name}{'' if len(pack.worlds) == 1 else ' / ' + w.name} phase {e.number}"
                yield (f"{wkey}-{e.number}", label, w.settings, e.phase, e.text,
                       rules.wild_numbers)


def pack_changes(settings: dict, wild_numbers: frozenset[int]) -> dict:
    return changes_of(full(settings, wild_numbers))


def crossed(area: str, family: str, rows: list, variants: list[tuple[str, dict]],
           build: Callable[[tuple], tuple[str, dict]]) -> Iterator[Raw]:
    for i, row in enumerate(rows):
        description, inp = build(row)
        for vname, ch in variants:
            yield {"id": f"{area}-{family}-{i:03d}-{vname}",
                   "description": f"{description} ({vname.replace('-', ' ')})",
                   "changes": ch, "input": inp, "variant": vname}


def random_phase(r: random.Random, rules: Rules, most: int = 14,
                 kinds: list[tuple[str, tuple[int, ...]]] = RANDOM_KINDS) -> Phase | None:
    for _ in range(20):
        try:
            phase = Phase.parse(random_phrase(r, r.choice((1, 1, 2, 2, 2, 3)), kinds), rules.deck)
        except Exception:  # (a random phrase the deck cannot supply: draw another)
            continue
        if phase.cards_needed <= most:
            return phase
    return None


@cache
def pack_named(name: str):
    """A built-in pack, read once per export (a game family plays each pack many times)."""
    return load_pack(name)
