"""Where the grammar, the schema and the built-in packs are.

In a wheel they sit in ``phasedsl/data`` (copied there at build time); in a
checkout they are read from the top-level ``grammar/``, ``variants/`` and ``docs/``
folders, so there is one copy of each in the repository.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

_PKG = Path(__file__).resolve().parents[1]  # (this file is in phasedsl/system/)
_DATA = _PKG / "data"
_REPO = _PKG.parent


def _first(*candidates: Path) -> Path:
    for c in candidates:
        if c.exists():
            return c
    return candidates[0]


def grammar_path() -> Path:
    return _first(_DATA / "phase.lark", _REPO / "grammar" / "phase.lark")


def variants_dir() -> Path:
    return _first(_DATA / "variants", _REPO / "variants")


def docs_dir() -> Path:
    """The reference pages a program needs beside phasedsl, and their examples."""
    return _first(_DATA / "docs", _REPO / "docs")


def schema_path() -> Path:
    return _PKG / "pack.schema.json"


def cache_dir() -> Path | None:
    """Where the cache lives (None: no home to put it in)."""
    for var, sub in (("PHASEDSL_CACHE", None), ("XDG_CACHE_HOME", "phasedsl")):
        value = os.environ.get(var)
        if value:
            return Path(value) / sub if sub else Path(value)
    with contextlib.suppress(RuntimeError, KeyError):
        return Path.home() / ".cache" / "phasedsl"
    return None
