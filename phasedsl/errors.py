"""Exception types for bad input.

Every error a user can cause derives from :class:`PhaseDSLError`, so an edge
(CLI, batch mode, an app) can catch one type and show ``str(error)``, which
always says where the problem is and what was expected.
"""

from __future__ import annotations

from itertools import pairwise


class PhaseDSLError(ValueError):
    """Base class for every error caused by bad input."""


class InputError(PhaseDSLError):
    """An error that points at a column of one line of text."""

    def __init__(self, message: str, text: str = "", column: int | None = None) -> None:
        # column is 1-based, like editors and compilers show it.
        self.message = message
        self.text = text
        self.column = column
        super().__init__(self.render())

    def render(self) -> str:
        """The message, and under it the line with a caret at the column."""
        if self.column is None or not self.text or "\n" in self.text:
            return self.message
        return f"column {self.column}: {self.message}\n{caret_lines(self.text, self.column)}"


def quoted(word: str, limit: int = 24) -> str:
    """A word of the input as a message quotes it: whole when short, else its start and
    its length (a 50,000-character token is not echoed back)."""
    if len(word) <= limit:
        return repr(word)
    return f"{word[:limit]!r}... ({len(word):,} characters)"


# The most of an input a message quotes: about a line's worth (a 900 kB field of a log
# event is not sent back whole).
LINE_WORTH = 160


def clipped(text: str, width: int = LINE_WORTH) -> str:
    """``text`` whole when it fits a line, else its start, "..." and its length."""
    if len(text) <= width:
        return text
    return f"{text[:width]}... ({len(text):,} characters)"


def verdict_lines(error: dict | None, raw_event: str | None = None) -> list[str]:
    """A replay's verdict in words: the illegal event's line and why, or that every event
    is legal (``error``: {"line", "rule", "message", "event"})."""
    if error is None:
        return ["every event is legal"]
    return [f"line {error['line']}: {clipped(raw_event or error['event'])}",
            f"  illegal: {error['message']} [{error['rule']}]"]


def listed(items, limit: int = 8) -> str:
    """Names joined by ", ": the first ``limit`` (each cut as ``quoted`` cuts a word), then
    how many there are in all (a deal naming 55,000 players lists eight)."""
    items = list(items)
    shown = [str(x) if len(str(x)) <= 24 else f"{str(x)[:24]}..." for x in items[:limit]]
    more = f", ... ({len(items):,} in all)" if len(items) > limit else ""
    return ", ".join(shown) + more


# Widest piece of an input line echoed under a message: a 6,000-card hand or a
# long YAML line is cut to a window around the column, so the error stays
# readable (and small) while still showing where the problem is.
ECHO_WIDTH = 70


def caret_lines(line: str, column: int, width: int = ECHO_WIDTH) -> str:
    """Two indented lines: ``line`` (cut to ``width`` characters around the 1-based
    ``column``, with "..." where text was left out) and a caret under the column."""
    at = max(0, min(column - 1, len(line)))
    start, end = 0, len(line)
    if end > width:
        start = max(0, min(at - width // 2, end - width))
        end = start + width
    shown = line[start:end]
    if start > 0:
        shown = "..." + shown
        at += 3
    if end < len(line):
        shown += "..."
    # the caret counts the cells of the text as shown, control characters escaped
    return f"    {printable(shown)}\n    {' ' * _cells(printable(shown[:at - start]))}^"


def not_utf8(data: bytes, e: UnicodeDecodeError) -> tuple[int, int, str]:
    """Where ``data`` stops being UTF-8 (line and column, 1-based, the column in characters)
    and what was found there, for an error that points at it."""
    start = data.rfind(b"\n", 0, e.start) + 1
    column = len(data[start:e.start].decode("utf-8", "replace")) + 1
    return (data.count(b"\n", 0, e.start) + 1, column,
            f"not UTF-8 text: byte 0x{data[e.start]:02x} (save the file as UTF-8)")


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on rather than show (ESC, a
    carriage return, a bell, a bidi override ...) written as its escape (``\\x1b``),
    so echoed input cannot move the cursor, recolor the screen or hide what it says.
    Line breaks are kept: messages may span lines."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def _cells(text: str) -> int:
    """Terminal columns of ``text``: a wide (CJK) character takes two, a combining mark
    none, so that the caret stands under the column also after Japanese or Thai text."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) == "Mn" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class CardError(InputError):
    """A card token that does not name a card of the deck."""


class PhaseSyntaxError(InputError):
    """A phase phrase the grammar cannot read."""


class PhaseValueError(InputError):
    """A phase phrase that reads fine but asks for something impossible."""


class RulesError(PhaseDSLError):
    """A rule option given a value it cannot take; names the field and what it allows."""

    def __init__(self, field: str, allowed: str, got: object) -> None:
        self.field, self.allowed, self.got = field, allowed, got
        super().__init__(f"Rules({field}=...): expected {allowed}, got {got!r}")

    def __reduce__(self):
        # (pickled by its own arguments: by its message alone, the one ``args`` holds, it
        # could not be rebuilt where it was sent, as from ``serve``'s work child)
        return type(self), (self.field, self.allowed, self.got)


class LayoutError(PhaseDSLError):
    """A laid-down group that cannot be read (not an illegal meld: that is a verdict)."""


class PackError(PhaseDSLError):
    """A variant pack that cannot be loaded; carries every problem found."""

    def __init__(self, problems: list) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def brief(self) -> str:
        """Every problem on one line, each where and what (a problem that heads those after
        it, "...has errors:", is followed by them without a separator)."""
        parts = [p.brief() for p in self.problems]
        out = parts[0] if parts else ""
        for before, said in pairwise(parts):
            out += (" " if before.endswith(":") else "; ") + said
        return out


def brief_repr(got: object) -> str:
    """``got``'s repr (its start is shown), never failing: Python will not print an int of
    over 4,300 digits, a value's own ``__repr__`` may raise, and a container's is made
    only to a few levels and items (lists nested 100,000 deep, a list of a million)."""
    # (14,000 bits: about 4,215 digits, under the 4,300 Python prints; 4 bits a digit let a
    # number of 4,301-4,816 digits through to repr's ValueError)
    if isinstance(got, int) and got.bit_length() > 14_000:
        return f"of about {int(got.bit_length() * 0.30103):,} digits"
    try:
        if not isinstance(got, list | tuple | dict | set | frozenset):
            return repr(got)
        from reprlib import Repr

        brief = Repr()  # (its keyword arguments are Python 3.12's)
        brief.maxlevel, brief.maxstring, brief.maxother = 3, 40, 40
        return brief.repr(got)
    except Exception:  # (an object whose repr fails: its type is still said)
        return "(that cannot be shown)"


class ArgumentError(PhaseDSLError, TypeError):
    """A value of the wrong kind given to a function of the Python API (``find(None, ...)``);
    says which argument and what it takes. A TypeError too, as Python's own are."""

    def __init__(self, where: str, expected: str, got: object) -> None:
        self.where, self.expected, self.got = where, expected, got
        shown = brief_repr(got)
        if len(shown) > 40:
            shown = shown[:40] + "..."
        super().__init__(f"{where}: expected {expected}, got {type(got).__name__} {shown}")

    def __reduce__(self):
        return type(self), (self.where, self.expected, self.got)  # (as ``RulesError``'s)


def error_json(error: Exception) -> dict:
    """Bad input as the command line's ``--json`` says it: ``{"error", "exit": 2}``, with
    ``message`` and ``column`` where it points into a phrase or a card list, and
    ``problems`` (each at its line and column) for a pack."""
    def brief(problem) -> str:
        return problem.brief() if hasattr(problem, "brief") else str(problem)

    text = "\n".join(map(brief, error.problems)) if isinstance(error, PackError) else str(error)
    out: dict = {"error": text, "exit": 2}
    if isinstance(error, InputError) and error.column is not None:
        out.update(message=error.message, column=error.column)
    if isinstance(error, PackError):
        out["problems"] = [d.to_json() if hasattr(d, "to_json") else {"message": str(d)}
                           for d in error.problems]
    return out
