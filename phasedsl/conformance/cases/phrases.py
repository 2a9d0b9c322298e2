"""The `phrases` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import PhaseDSLError
from ...model.phase import Phase
from .common import PHRASE_OF, RANDOM_KINDS, Raw, pack_changes, pack_phases, rng

PHRASE_TABLE = [
    "two sets of three", "1 set of 3 + 1 run of 4", "run of 4", "a set of three", "a pair",
    "2 pairs", "run out of 4", "series of 4", "sequence of 4", "straight of 4",
    "colored run of 4", "suit series of 4", "run of 4 in one color", "run of 4 in one suit",
    "run of 4 of one color", "run of 4 (in one color)", "7 of a suit", "7 of one color",
    "7 cards of one suit", "7 cards of the same color", "1 flush of 7", "2 flushes of 4",
    "odd or even out of 8", "8 even or odd cards", "even/odd of 8", "suit even or odd of 4",
    "2 suits odd or even out of 4", "set of 3 of the same suit", "set of 3 of one color",
    "suit set of 3", "set of 3 (same color)", "a pair of one color", "2 jokers",
    "2 wild cards", "a joker", "2 skip cards", "Phase 2: 2 sets of 3", "Stage 3: 1 run of 7.",
    "1 set of 3 and 1 set of 3", "1 run of 4 + 1 set of 3", "1 set of 3, 1 run of 4, and 1 pair",
    "1 wild + 1 wild", "three sets of two plus a run of five", "1 run of 4 & 1 color set of 2",
    "1 run of 9 with colors {1: red or blue, 2: any, 3: green or yellow, 4: any, 5: red or "
    "yellow, 6: any, 7: green or blue, 8: any, 9: green or red, 10: any, 11: blue or yellow}",
    "1 run of 3 with colors {4: R/B; 5: G and Y; 6: any}", "SET OF 3 + RUN OF 4",
    "1 set of 3 (flush)", "ten cards of one color", "1 even or odd of 10",
    "cards totalling 34", "5 cards totaling 34", "a 34-accumulation", "34-accumulation of one color",
    "cards of one colour adding up to 30", "2 groups of 4 totalling 20", "2 34-accumulations",
    "1 run of 3 pairs", "3 consecutive pairs", "1 color run of 2 pairs", "a run of 3 pairs in one color",
    "4 cards over 8", "4 over 8", "4 cards higher than 8", "4 cards below 5", "2 groups of 3 under 4",
    "1 set of 3 + cards totalling 34", "4 cards over 8 and 1 run of 3 pairs",
]


PHRASE_ERRORS = [
    "1 set of 3 + 1 rn of 4", "set of", "", "1 set of 17", "1 run of 13", "9 wilds",
    "9 color sets of 4", "1 set of 0", "2 sets of 3 +", "+ 1 set of 3", "1 set of three of",
    "1 run of 4 (flush of hearts)", "11 sets of 1", "1 run of 4 with colors {13: red}",
    "1 run of 3 with colors {1: purple}", "1 set of 1000000000", "one set of tree",
    "1 set of 3 1 run of 4", "1 sett of 3", "run of -4",
    "5 cards totalling 100", "cards totalling 0", "4 cards over 12", "4 cards under 1",
    "1 run of 13 pairs", "4 cards ovr 8", "3 consecutive", "99999-accumulation",
]


def phrases_table() -> Iterator[Raw]:
    for i, text in enumerate(PHRASE_TABLE):
        yield {"id": f"phrases-table-{i:03d}", "description": f"how {text!r} reads",
               "changes": {}, "input": {"phrase": text}}


def phrases_errors() -> Iterator[Raw]:
    # (a phrase listed here that reads after all, its remark ignored, is described so: its
    # place and id stay, as every published id does)
    for i, text in enumerate(PHRASE_ERRORS):
        try:
            Phase.parse(text)
            said = f"{text!r} reads: it is no error (what it says in brackets is ignored)"
        except PhaseDSLError:
            said = f"{text!r} is refused at a column"
        yield {"id": f"phrases-error-{i:03d}", "description": said, "changes": {},
               "input": {"phrase": text}}


def phrases_packs() -> Iterator[Raw]:
    for key, label, settings, _, text, _ in pack_phases():
        deck_only = {k: v for k, v in pack_changes(settings, frozenset()).items()
                     if k.startswith("deck.")}
        yield {"id": f"phrases-pack-{key}", "description": f"{label} as its pack writes it",
               "changes": deck_only, "input": {"phrase": text}}


WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def phrases_random() -> Iterator[Raw]:
    r = rng("phrases-random")
    joins = [" + ", " and ", " plus ", " & ", ", "]
    for i in range(200):
        parts = []
        for _ in range(r.randint(1, 3)):
            kind, sizes = r.choice(RANDOM_KINDS)
            n, s = r.randint(1, 2), r.choice(sizes)
            if kind in ("wild", "skip"):
                n = 1
            text = PHRASE_OF[kind].format(n=WORDS[n - 1] if r.random() < 0.3 else n,
                                          s=WORDS[s - 1] if r.random() < 0.3 else s)
            if r.random() < 0.2:
                text = text.upper()
            parts.append(text)
        phrase = r.choice(joins).join(parts)
        if r.random() < 0.1:  # a typo somewhere: an error at a column
            at = r.randrange(len(phrase))
            phrase = phrase[:at] + r.choice("xq#9") + phrase[at + 1:]
        yield {"id": f"phrases-random-{i:04d}", "description": "a seeded random phrase",
               "changes": {}, "input": {"phrase": phrase}}
