"""The phase DSL: read a phrase into the parts of a :class:`~phasedsl.model.phase.Phase`.

The grammar lives in ``grammar/phase.lark`` (read here by its stand-alone parser,
``dslparser``, which ``grammar/build.py`` writes from it).  Errors never mention grammar
terminals: they say in words what was expected, at which column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..errors import LINE_WORTH, PhaseDSLError, PhaseSyntaxError, PhaseValueError, quoted
from .cards import STANDARD_DECK, Deck
from .dslparser import (
    Lark,
    Lark_StandAlone,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
    v_args,
)
from .group import ColorMap, Group, Kind, Part
from .rephrase import NUMBER_WORDS, closest
from .supply import natural_cap, wild_need

MAX_PHRASE = 2_000
MAX_GROUPS = 10  # the seeds' phases have at most 5; the exact search is built for a few

_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
}

# What each terminal means to a person, for "expected ..." messages.
_EXPECT = {
    "$END": "the end of the phrase", "PLUS": "'+'", "AND": "'and'", "COMMA": "','",
    "PLUSWORD": "'plus'", "PERIOD": "'.'",
    "INT": "a number", "NUMWORD": "a number", "ONE": "'one'",
    "SET": "'set'", "PAIR": "'pair'", "RUN": "'run'", "COLOR": "'color'", "GROUP": "'group'",
    "FLUSH": "'flush'", "CARDS": "'cards'", "EO": "'even or odd'", "WILDS": "'wilds'",
    "SKIPS": "'skips'", "OF": "'of'", "OUT": "'out of'", "IN": "'in'", "WITH": "'with colors'",
    "ARTICLE": "'a'", "THE": "'the'", "SAME": "'same'", "ANY": "'any'",
    "OR": "'or'", "COLORNAME": "a color name", "SEMI": "';'",
    "COLON": "':'", "DASH": "'-'", "PHASEWORD": "'phase'", "SLASH": "'/'", "AMP": "'&'",
    "LBRACE": "'{'", "RBRACE": "'}'", "RPAREN": "')'", "SINGLE": "'single'", "LISTNUM": "a list's number",
    "TOTAL": "'totalling'", "OVER": "'over'", "UNDER": "'under'", "CONSECUTIVE": "'consecutive'",
    "ACCUM": "'34-accumulation'",
}
_JOINERS = ["PLUS", "AND", "COMMA", "PLUSWORD", "AMP", "PERIOD", "$END"]
_ORDER = [k for k in _EXPECT if k not in _JOINERS] + _JOINERS


@cache
def _parser() -> Lark:
    # Lark's stand-alone parser of grammar/phase.lark, built by grammar/build.py: the
    # tables come with the module, so a command neither imports Lark nor builds or reads
    # them (about 18 ms of every command that reads a phrase)
    return Lark_StandAlone()


class _Fail(Exception):
    def __init__(self, message: str, column: int) -> None:
        self.message, self.column = message, column


def _num(tok: Token) -> tuple[int, int]:
    """(value, column) of a number token; absurd digit strings are refused before conversion."""
    text = str(tok)
    if text.isascii() and text.isdigit():  # (isdigit alone also takes '²', which int() refuses)
        if len(text) > 4:
            raise _Fail(f"{text[:12]}{'...' if len(text) > 12 else ''} is far too large", tok.column)
        return int(text), tok.column
    return _WORDS[_word(text)], tok.column


def _word(text: str) -> str:
    """A word the grammar matched, as the key of its spelling: the grammar's /i also
    matches letters whose case pairs are ASCII ('ſix' is 'six', 'fıve' is 'five'), which
    .lower() keeps as they are."""
    low = text.lower()
    if low.isascii():
        return low
    return next((w for w in _WORDS if re.fullmatch(re.escape(w), text, re.IGNORECASE)), low)


class _ToPhase(Transformer):
    def __init__(self, deck: Deck) -> None:
        super().__init__()
        self.deck = deck

    # ---- leaves -------------------------------------------------------------
    def number(self, items):
        return _num(items[0])

    def lead(self, items):
        return items[0] if isinstance(items[0], tuple) else _num(items[0])

    def size(self, items):
        return items[0]

    def of(self, items):
        return None

    def one_color(self, items):
        return None

    def digit_color(self, items):
        # The grammar takes any digit here so that "of 2 colors" is refused in words
        # rather than read as one color or met with a bare syntax error.
        tok = items[0]
        if str(tok) != "1":
            raise _Fail(f"'{tok} colors' is not a rule this DSL knows: write 'of one color'", tok.column)
        return None

    def same_color(self, items):
        return "one_color"

    def card_color(self, items):
        return "one_color"

    def run_one_color(self, items):
        return "one_color"

    def run_color_map(self, items):
        return items[-1]

    def any_color(self, items):
        return frozenset(self.deck.colors)

    def color_list(self, items):
        out = set()
        for tok in items:
            if tok.type != "COLORNAME":
                continue
            letter = self.deck.color_letter(str(tok))
            if letter is None:
                names = ", ".join(self.deck.color_name(c) for c in self.deck.colors)
                raise _Fail(f"unknown color {str(tok)!r}: the colors are {names}", tok.column)
            out.add(letter)
        return frozenset(out)

    def map_entry(self, items):
        (number, col), colors = items[0], items[-1]
        if number not in self.deck.numbers:
            raise _Fail(f"no number {number} in the deck ({self.deck.low}-{self.deck.high})", col)
        return number, colors, col

    def color_map(self, items):
        entries = [i for i in items if isinstance(i, tuple)]
        seen: dict[int, frozenset[str]] = {}
        for number, colors, col in entries:
            if number in seen:
                raise _Fail(f"number {number} appears twice in the color map", col)
            seen[number] = colors
        return tuple(sorted(seen.items()))

    # ---- parts --------------------------------------------------------------
    @staticmethod
    def _split(items):
        """(lead, size, extra) from a part's children: numbers are (value, column) pairs."""
        nums = [i for i in items if isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], int)]
        rest = [i for i in items if not isinstance(i, (tuple, Token)) and i is not None]
        maps = [i for i in items if isinstance(i, tuple) and i and isinstance(i[0], tuple)]
        return nums, rest, maps

    def _counted(self, items, kind: Kind, colors: ColorMap | None = None) -> Part:
        nums, rest, maps = self._split(items)
        if len(nums) == 2:
            (count, ccol), (size, scol) = nums
        else:
            (count, ccol), (size, scol) = (1, None), nums[0]
        if "one_color" in rest:
            kind = {Kind.SET: Kind.COLOR_SET, Kind.RUN: Kind.COLOR_RUN,
                    Kind.EVEN_ODD: Kind.COLOR_EVEN_ODD}[kind]
        if maps:
            colors = maps[0]
        return Part(count, Group(kind, size, colors)), ccol, scol

    def set_part(self, items):
        return self._counted(items, Kind.SET)

    def pair_part(self, items):
        pair = next(i for i in items if isinstance(i, Token) and i.type == "PAIR")
        return self._counted([*items, (2, pair.column)], Kind.SET)

    def color_set_part(self, items):
        return self._counted(items, Kind.COLOR_SET)

    def run_part(self, items):
        return self._counted(items, Kind.RUN)

    def color_run_part(self, items):
        return self._counted(items, Kind.COLOR_RUN)

    def color_group_part(self, items):
        return self._counted(items, Kind.COLOR)

    def even_odd_part(self, items):
        return self._counted(items, Kind.EVEN_ODD)

    def color_even_odd_part(self, items):
        return self._counted(items, Kind.COLOR_EVEN_ODD)

    def _sized(self, items, kind: Kind):
        nums, rest, _ = self._split(items)
        if nums:
            (size, scol) = nums[0]
        else:  # "+ wild", "+ skip card": one, as "run of 4" is "1 run of 4"
            tok = next(i for i in items if isinstance(i, Token))
            if re.search(r"s$", str(tok), re.IGNORECASE):  # "+ wilds": how many is not said
                raise _Fail(f"how many {tok}? write a number before it, like '2 {tok}'", tok.column)
            size, scol = 1, tok.column
        if "one_color" in rest and kind is Kind.EVEN_ODD:
            kind = Kind.COLOR_EVEN_ODD
        return Part(1, Group(kind, size)), None, scol

    def color_part(self, items):
        return self._sized(items, Kind.COLOR)

    def even_odd_cards_part(self, items):
        return self._sized(items, Kind.EVEN_ODD)

    def wild_part(self, items):
        return self._sized(items, Kind.WILD)

    def skip_part(self, items):
        return self._sized(items, Kind.SKIP)

    # ---- the kinds custom sets use: sums, runs of pairs, over/under ---------
    def total(self, items):
        value, col = items[-1]
        return ("total", value, col)

    def bound(self, items):
        value, col = items[-1]
        return ("over" if items[0].type == "OVER" else "under", value, col)

    @staticmethod
    def _around(items, word: str) -> tuple[list, list]:
        """The numbers written before and after the keyword ``word`` (a lead, a size)."""
        at = next(i.column for i in items if isinstance(i, Token) and i.type == word)
        nums = [i for i in items if isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], int)]
        return [n for n in nums if n[1] < at], [n for n in nums if n[1] > at]

    @staticmethod
    def _tagged(items, *tags: str) -> tuple[str, int, int]:
        return next(i for i in items if isinstance(i, tuple) and len(i) == 3 and i[0] in tags)

    def _sum(self, kind: Kind, count, size, total_item) -> tuple:
        _, total, tcol = total_item
        if total < 1:
            raise _Fail("a total must be at least 1", tcol)
        (n, ccol) = count or (1, None)
        if size is None:  # as many cards as it takes: at least the fewest that can reach it
            fewest = -(-total // self.deck.high) if self.deck.high > 0 else total
            return Part(n, Group(kind, max(1, fewest), total=total, any_count=True)), ccol, tcol
        return Part(n, Group(kind, size[0], total=total)), ccol, size[1]

    def sum_part(self, items):
        before, _ = self._around(items, "CARDS")
        return self._sum(Kind.SUM, None, before[0] if before else None, self._tagged(items, "total"))

    def color_sum_part(self, items):
        before, _ = self._around(items, "CARDS")
        return self._sum(Kind.COLOR_SUM, None, before[0] if before else None,
                         self._tagged(items, "total"))

    def sum_groups_part(self, items, kind: Kind = Kind.SUM):
        before, after = self._around(items, "GROUP")
        total = self._tagged(items, "total")
        after = [n for n in after if n[1] < total[2]]
        return self._sum(kind, before[0] if before else None, after[0] if after else None, total)

    def color_sum_groups_part(self, items):
        return self.sum_groups_part(items, Kind.COLOR_SUM)

    def accum_part(self, items):
        tok = next(i for i in items if isinstance(i, Token) and i.type == "ACCUM")
        digits = re.match(r"[0-9]+", str(tok)).group()  # type: ignore[union-attr]
        if len(digits) > 4:
            raise _Fail(f"{digits[:12]}{'...' if len(digits) > 12 else ''} is far too large", tok.column)
        before, _ = self._around(items, "ACCUM")
        kind = Kind.COLOR_SUM if "one_color" in self._split(items)[1] else Kind.SUM
        return self._sum(kind, before[0] if before else None, None, ("total", int(digits), tok.column))

    def _pairs(self, kind: Kind, count, length) -> tuple:
        (n, ccol), (m, lcol) = count or (1, None), length
        return Part(n, Group(kind, 2 * m)), ccol, lcol

    def pair_run_part(self, items):
        before, after = self._around(items, "RUN")
        kind = Kind.COLOR_PAIR_RUN if "one_color" in self._split(items)[1] else Kind.PAIR_RUN
        return self._pairs(kind, before[0] if before else None, after[0])

    def color_pair_run_part(self, items):
        before, after = self._around(items, "RUN")
        return self._pairs(Kind.COLOR_PAIR_RUN, before[0] if before else None, after[0])

    def consecutive_pairs_part(self, items):
        kind = Kind.COLOR_PAIR_RUN if "one_color" in self._split(items)[1] else Kind.PAIR_RUN
        return self._pairs(kind, None, self._split(items)[0][0])

    def _bounded(self, count, size, bound_item) -> tuple:
        word, value, _ = bound_item
        kind = Kind.OVER if word == "over" else Kind.UNDER
        (n, ccol) = count or (1, None)
        return Part(n, Group(kind, size[0], bound=value)), ccol, size[1]

    def bounded_part(self, items):
        return self._bounded(None, self._split(items)[0][0], self._tagged(items, "over", "under"))

    def bounded_groups_part(self, items):
        before, after = self._around(items, "GROUP")
        return self._bounded(before[0] if before else None, after[0],
                             self._tagged(items, "over", "under"))

    def sep(self, items):
        return None

    @v_args(meta=True)
    def label(self, meta, items):
        return _Label(meta.start_pos, meta.end_pos)

    def phase(self, items):
        return [i for i in items if isinstance(i, (tuple, _Label))]


@dataclass(frozen=True)
class _Label:
    start: int
    end: int


def _supply(group: Group, deck: Deck) -> tuple[int, str]:
    """Most cards the deck can ever put into one group of this kind, and why."""
    if group.kind is Kind.WILD:
        return deck.wilds, f"the deck has {deck.wilds} wilds"
    if group.kind is Kind.SKIP:
        return deck.skips, f"the deck has {deck.skips} skips"
    cap, why = natural_cap(group, deck)
    if group.kind.is_run:  # a run holds one card of each number, wild or not
        return cap, why
    if group.kind.is_pair_run:  # two cards of each number, wild or not
        return 2 * len(deck.numbers), f"numbers go from {deck.low} to {deck.high}, two cards each"
    return cap + deck.wilds, f"{why} and {deck.wilds} wilds"


def _too_big(group: Group, why: str) -> str:
    if group.kind in (Kind.WILD, Kind.SKIP):
        return f"{group.size} {group.kind.value}s are impossible: {why}"
    if group.kind.is_pair_run:
        return f"a run of {group.length} pairs is impossible: {why}"
    if group.kind.is_bounded or group.kind.is_sum:
        return f"{group.describe()} is impossible: {why}"
    return f"a {group.kind.value.replace('_', ' ')} of {group.size} is impossible: {why}"


def _check_values(part: Part, ccol: int | None, scol: int, deck: Deck) -> None:
    g = part.group
    if part.count < 1:
        raise _Fail("a count must be at least 1", ccol or scol)
    if part.count > 20:
        raise _Fail(f"{part.count} groups is more than any phase can hold", ccol or scol)
    if g.size < 1:
        raise _Fail("a group needs at least 1 card", scol)
    if g.kind.is_bounded:
        fits = [n for n in deck.numbers if g.admits(n)]
        if not fits:
            side = "above" if g.kind is Kind.OVER else "below"
            raise _Fail(f"no card of the deck ({deck.low}-{deck.high}) is numbered {side} "
                        f"{g.bound}", scol)
    if g.kind.is_sum and not g.any_count:
        low, high = g.size * deck.low, g.size * deck.high
        if not low <= (g.total or 0) <= high:
            raise _Fail(f"{g.size} cards cannot total {g.total}: their numbers add up to "
                        f"{low} to {high}", scol)
    if g.colors is not None:
        numbers = [n for n, _ in g.colors]
        if numbers != list(range(numbers[0], numbers[-1] + 1)):
            raise _Fail("the color map must list consecutive numbers", scol)
    most, why = _supply(g, deck)
    if g.size > most:
        raise _Fail(_too_big(g, why), scol)


_REMARK = re.compile(r"\([^()\n]*\)")  # as REMARK in the grammar
# A remark that is itself a color rule: "(in one color)", "(of one suit)", "(same color)".
_COLOR_RULE = re.compile(r"\s*(?:(?:of|in)\s+)?(?:one|an?|(?:the\s+)?same)\s+(?:colou?r|suit)\s*",
                         re.IGNORECASE)


def _open_color_rules(text: str) -> tuple[str, list[re.Match]]:
    """The text with each color-rule remark's parentheses blanked (so the grammar reads the
    rule and every column stays where it was), and those remarks."""
    opened = [m for m in _REMARK.finditer(text) if _COLOR_RULE.fullmatch(m.group()[1:-1])]
    chars = list(text)
    for m in opened:
        chars[m.start()] = chars[m.end() - 1] = " "
    return "".join(chars), opened


def read(text: str, deck: Deck = STANDARD_DECK, hints: bool = True
         ) -> tuple[tuple[Part, ...], tuple[str, ...]]:
    """Read a phase phrase (case-insensitive, singular or plural) into its parts and what it
    said that is no part of the contract (``Phase.parse`` makes the phase of them).  A phrase
    it cannot read is refused with where it stopped, what it expected there, and (with
    ``hints``) the phrasing it reads that is closest (``rephrase``)."""
    if not isinstance(text, str):
        raise PhaseSyntaxError(f"a phase phrase is text, like '2 sets of 3', not "
                               f"{type(text).__name__} {text!r:.40}")
    if len(text) > MAX_PHRASE:
        raise PhaseValueError(f"phrase too long ({len(text)} characters; the limit is {MAX_PHRASE})")
    if not text.strip():
        raise PhaseSyntaxError("empty phrase: expected a phase such as '2 sets of 3'", text, 1)
    readable, opened = _open_color_rules(text)
    try:
        tree = _parser().parse(readable)
    except UnexpectedInput as e:
        err = _syntax_error(readable, e)
        if hints:
            err = _with_suggestion(err, text, deck)
        for m in opened:
            if m.start() < (err.column or 0) <= m.end():
                raise PhaseSyntaxError(f"the remark {m.group()!r} is a color rule, which cannot "
                                       "follow what comes before it (a set, a run, an even or odd "
                                       "or 'N cards' takes one, once)", text, m.start() + 1) from None
        raise PhaseSyntaxError(err.message, text, err.column) from None
    try:
        items = _ToPhase(deck).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, _Fail):
            raise PhaseValueError(e.orig_exc.message, text, e.orig_exc.column) from None
        raise
    read_as_rule = {m.start() for m in opened}
    ignored = [(m.start(), m.group()) for m in _REMARK.finditer(text) if m.start() not in read_as_rule]
    parts = []
    for item in items:
        if isinstance(item, _Label):
            ignored.append((item.start, text[item.start:item.end]))
            continue
        part, ccol, scol = item
        try:
            _check_values(part, ccol, scol, deck)
        except _Fail as f:
            raise PhaseValueError(f.message, text, f.column) from None
        parts.append(part)
    groups = tuple(p.group for p in parts for _ in range(p.count))
    if len(groups) > MAX_GROUPS:
        raise PhaseValueError(f"the phase has {len(groups)} groups; a phase has at most "
                              f"{MAX_GROUPS}", text, 1)
    # What the deck can supply to the phase as a whole, not just to each group.
    wilds = sum(g.size for g in groups if g.kind is Kind.WILD)
    skips = sum(g.size for g in groups if g.kind is Kind.SKIP)
    others = sum(g.size for g in groups) - skips
    if wilds > deck.wilds:
        raise PhaseValueError(f"the phase needs {wilds} wilds as parts but the deck has "
                              f"{deck.wilds}", text, 1)
    if skips > deck.skips:
        raise PhaseValueError(f"the phase needs {skips} skips but the deck has {deck.skips}", text, 1)
    if others > deck.size - deck.skips:
        raise PhaseValueError(f"the phase needs {others} cards other than skips but the deck has "
                              f"{deck.size - deck.skips}", text, 1)
    need = wild_need(groups, deck)
    if need.wilds > deck.wilds:
        raise PhaseValueError("the phase " + need.message(deck), text, 1)
    return tuple(parts), tuple(t for _, t in sorted(ignored))


def _expected_words(names) -> str:
    names = set(names)
    if "INT" in names and "NUMWORD" not in names:
        # a digit without number words is the "1" of "of 1 color": 'one' is the word to offer
        names.discard("INT")
    if "INT" in names:
        names -= {"NUMWORD", "ONE"}
    if names & {"OF", "IN"}:  # "of one color" is what to suggest; a bare "one color" is for remarks
        names -= {"ONE", "ARTICLE", "THE", "SAME"}
    words = []
    for name in sorted(names, key=lambda n: _ORDER.index(n) if n in _ORDER else 99):
        w = _EXPECT.get(name)
        if w and w not in words:
            words.append(w)
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _previous_word(text: str, pos: int) -> str | None:
    before = text[:pos].rstrip()
    if not before:
        return None
    m = re.search(r"(\w+|[^\w\s])$", before)
    return m.group(1) if m else None


def _stop(text: str, e: UnexpectedInput) -> tuple[int, set[str], str | None]:
    """Where the reader stopped: (position, the terminals it expected there, the word or
    character it found, None at the end of the phrase)."""
    if isinstance(e, UnexpectedToken):
        if e.token.type == "$END":
            return len(text), set(e.accepts or e.expected), None
        return e.token.start_pos or 0, set(e.accepts or e.expected), str(e.token)
    if isinstance(e, UnexpectedCharacters):
        m = re.match(r"\w+|\S", text[e.pos_in_stream:])
        return e.pos_in_stream, set(e.allowed or ()), m.group() if m else None
    raise e  # pragma: no cover - lark raises only the two above for LALR


def _syntax_error(text: str, e: UnexpectedInput) -> PhaseSyntaxError:
    pos, expected, word = _stop(text, e)
    found = "the end of the phrase" if word is None else quoted(word)
    prev = _previous_word(text, pos)
    after = f" after {quoted(prev)}" if prev else ""
    msg = f"expected {_expected_words(expected)}{after}, found {found}"
    hint = _did_you_mean(word, expected) if word is not None else None
    if hint:
        msg += f" (did you mean {hint!r}?)"
    return PhaseSyntaxError(msg, text, pos + 1)


def _with_suggestion(err: PhaseSyntaxError, text: str, deck: Deck) -> PhaseSyntaxError:
    """``err`` with the closest phrasing the reader reads, where there is one: the column
    (and so the caret) stays where the reader stopped."""
    from .rephrase import suggestion

    def reads(phrase: str) -> bool:
        try:
            read(phrase, deck, False)
        except PhaseDSLError:
            return False
        return True

    better = suggestion(text, reads, _mend)
    if better is None:
        return err
    msg = err.message
    if msg.endswith("?)") and " (did you mean " in msg:  # a word's spelling: the phrase it makes
        msg = msg[:-2] + f", as in {quoted(better, LINE_WORTH)}?)"
    else:
        msg += f" (did you mean {quoted(better, LINE_WORTH)}?)"
    return PhaseSyntaxError(msg, err.text, err.column)


def _mend(text: str) -> str | None:
    """``text`` with the word where the reader stops replaced by its likely spelling."""
    readable, _ = _open_color_rules(text)
    try:
        _parser().parse(readable)
    except UnexpectedInput as e:
        pos, expected, word = _stop(readable, e)
        hint = _did_you_mean(word, expected) if word is not None else None
        if hint is None or word is None:
            return None
        return text[:pos] + hint + text[pos + len(word):]
    return None


_SPELLINGS = {
    "SET": "set", "RUN": "run", "COLOR": "color", "GROUP": "group", "FLUSH": "flush",
    "CARDS": "cards", "WILDS": "wild", "SKIPS": "skip", "OF": "of", "OUT": "out", "WITH": "with",
    "SAME": "same", "ANY": "any", "AND": "and", "PAIR": "pair", "PLUSWORD": "plus",
    "PHASEWORD": "phase", "TOTAL": "totalling", "OVER": "over", "UNDER": "under",
    "CONSECUTIVE": "consecutive",
}


def _did_you_mean(word: str, expected) -> str | None:
    options = {_SPELLINGS[n] for n in expected if n in _SPELLINGS}
    if "EO" in expected:
        options |= {"even", "odd"}
    # "thre sets of 3", "to sets of 3"; not where only the digit of "of 1 color" reads
    # (a bare INT): "of fore color" is no misspelt "of four color", which nothing reads
    if "NUMWORD" in expected and not word.isdigit():
        options |= set(NUMBER_WORDS)
    return closest(word, sorted(options))
