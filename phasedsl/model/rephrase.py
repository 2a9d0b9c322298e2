"""What to suggest for a phase phrase the reader cannot read: the phrasing it does read.

People write a run of pairs as "3 pairs in a row", a set as "3 of a kind", a count as
"thre" or "to"; the reader (``dsl``) says where it stopped, and this module finds the
phrase it would read instead.  A suggestion is only ever a phrase the reader has read
(``reads``): nothing here knows the grammar, so no suggestion can name a phrasing the
DSL does not take.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from functools import cache

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve")

_N = r"\b(?P<n>\d+|" + "|".join(NUMBER_WORDS) + r"|an?)"
# Where a part starts (the phrase's start or a joiner: "+", ",", "&", "and", "plus"), and
# the space before it, kept.
_START = r"(?:^|(?<=[+,&])|(?<=\band)|(?<=\bplus))(?P<sp>\s*)"
_RUN = r"(?:runs?|sequences?|straights?)"

# (pattern, replacement) read the way people write them, to the DSL's words; tried in
# order, each on the phrase as written.  (Compiled when first asked for: only a phrase
# the reader refuses is rewritten, and compiling them is a share of a ``check``'s start.)
_REWRITES = (
        # "a run of 4 in a row", "a run of 3 pairs of one color in a row": a run already is
        # in a row
        (r"(?P<run>\b" + _RUN + r"\b[^+,&]*?)\s+(?:cards?\s+)?in\s+a\s+row\b", r"\g<run>"),
        # "a run of 3 consecutive pairs": so is a run of pairs
        (r"(?P<run>\b" + _RUN + r"\s+of\s+" + _N + r")\s+consecutive\s+(?P<p>pairs?)\b",
         r"\g<run> \g<p>"),
        # "3 pairs in a row", "3 consecutive pairs in a row", "3 pair run": a run of pairs
        (_START + _N + r"\s+(?:consecutive\s+)?pairs?\s+(?:in\s+a\s+row|in\s+sequence)\b",
         r"\g<sp>1 run of \g<n> pairs"),
        (_START + _N + r"\s+pairs?\s+" + _RUN + r"\b", r"\g<sp>1 run of \g<n> pairs"),
        (r"\b" + _RUN + r"\s+of\s+pairs?\s+of\s+" + _N + r"\b", r"run of \g<n> pairs"),
        # "4 in a row", "4 cards in a row" (a part of its own): a run
        (_START + _N + r"\s+(?:cards?\s+)?in\s+a\s+row\b", r"\g<sp>1 run of \g<n>"),
        # "3 of a kind": a set
        (_START + _N + r"\s+(?:cards?\s+)?of\s+a\s+kind\b", r"\g<sp>1 set of \g<n>"),
        # "even or od", "evn or odd": the parity words, spelt as one token of the reader
        (r"\bev\w{0,3}\s+or\s+od\w{0,2}\b", "even or odd"),
        (r"\bod\w{0,2}\s+or\s+ev\w{0,3}\b", "odd or even"),
        # "1 set of 3 colour": the color rule is "of one color"
        (r"(?P<size>\bof\s+" + _N + r"(?:\s+cards?)?)\s+(?P<c>colou?r|suit)(?:ed|s)?\b",
         r"\g<size> of one \g<c>"),
)


@cache
def _rewrites() -> tuple[tuple[re.Pattern, str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), r) for p, r in _REWRITES)

MAX_FIXES = 5  # misspelt words mended in one phrase, at most
# Phrases read in looking for a suggestion, at most, and the longest phrase a suggestion is
# looked for (the longest phases people write, color maps among them, are well under it):
# a pack of long phrases, each wrong near its end, is still refused at once.
MAX_READS = 40
MAX_LENGTH = 300


def rewrites(text: str) -> list[str]:
    """The phrase with each way of writing the reader does not take said in its words
    (each rewrite alone, then all of them), most specific first; not yet checked."""
    out: list[str] = []
    every = text
    for pattern, repl in _rewrites():
        got = pattern.sub(repl, text)
        if got != text and got not in out:
            out.append(got)
        every = pattern.sub(repl, every)
    if every != text and every not in out:
        out.insert(0, every)
    return out


def closest(word: str, options: list[str]) -> str | None:
    """The word of ``options`` that ``word`` is most likely a misspelling of, or None."""
    got = difflib.get_close_matches(word.lower(), options, n=1, cutoff=0.6)
    return got[0] if got and got[0] != word.lower() else None


def suggestion(text: str, reads: Callable[[str], bool],
               mend: Callable[[str], str | None]) -> str | None:
    """A phrase the reader reads, close to ``text`` (which it does not), or None.

    ``reads(phrase)``: whether the reader reads it; ``mend(phrase)``: the phrase with the
    word where the reader stops replaced by the word it most likely misspells, or None.
    Rewrites and mended spellings combine ("thre pairs in a row")."""
    if len(text) > MAX_LENGTH:
        return None
    tried: set[str] = {text}
    frontier = [text]
    for _ in range(MAX_FIXES + 1):
        mended: list[str] = []
        for phrase in frontier:
            for candidate in (*rewrites(phrase), phrase):
                if len(tried) > MAX_READS:
                    return None
                if candidate not in tried and reads(candidate):
                    return candidate
                tried.add(candidate)
                fixed = mend(candidate)
                if fixed is not None and fixed not in tried and fixed not in mended:
                    mended.append(fixed)
        frontier = mended[:8]  # (a bound: each round mends one more word)
    return None
