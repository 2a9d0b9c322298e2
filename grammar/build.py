"""Write ``phasedsl/model/dslparser.py``, the phase DSL's parser, from ``phase.lark``.

    python grammar/build.py

The grammar is the source; the module is Lark's stand-alone LALR parser of it (Lark's own
``lark.tools.standalone``: the parse tables and the few classes that run them).  phasedsl
reads phrases with it instead of building a ``Lark`` at start-up: importing Lark and
loading its cached tables was about 26 ms of every command that reads a phrase, the
stand-alone module about 8.  The module's first line
holds the SHA-256 of the grammar it was built from; a test fails when the two part, and
another that its trees and errors are those of a ``Lark`` built from the grammar now.
Run this after every change to ``phase.lark`` (Lark must be installed: it is a
dependency).
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRAMMAR = HERE / "phase.lark"
TARGET = HERE.parent / "phasedsl" / "model" / "dslparser.py"
# The options the parser is built with (``Lark(grammar, **OPTIONS)``).
OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True,
           "maybe_placeholders": False}
STAMP = "# Built by grammar/build.py from grammar/phase.lark, SHA-256 "


def digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def source(grammar: str) -> str:
    """The stand-alone module's text for ``grammar``."""
    from lark import Lark
    from lark.tools.standalone import gen_standalone

    out = io.StringIO()
    # (compressed: the tables are one string literal, unpacked at import, so that a start
    # without a compiled copy of the module, which pip makes at install, does not spend
    # 30 ms compiling them as a dict literal; with one, either takes the same)
    gen_standalone(Lark(grammar, **OPTIONS), out=out, compress=True)
    return (f"{STAMP}{digest(grammar)}\n"
            "# (Generated: do not edit; its code is Lark's, under the licence below.)\n"
            + out.getvalue())


def main() -> None:
    text = source(GRAMMAR.read_text(encoding="utf-8"))
    # (written beside the target, then renamed over it: never a half-written module)
    fd, tmp = tempfile.mkstemp(dir=TARGET.parent, prefix=".dslparser-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, TARGET)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    print(f"wrote {TARGET.relative_to(HERE.parent)} ({len(text):,} characters)", file=sys.stderr)


if __name__ == "__main__":
    main()
