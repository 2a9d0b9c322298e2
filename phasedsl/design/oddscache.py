"""A small on-disk cache of answers that are slow to work out and never change (a phase's
exact dealt chance takes seconds; a pack asks for ten of them on every run).

One JSON file, ``dealt.json``, in ``$PHASEDSL_CACHE``, else ``$XDG_CACHE_HOME/phasedsl``,
else ``~/.cache/phasedsl``.  The cache is a convenience only: a file that is missing,
corrupt, too large, of the wrong shape or unwritable is ignored (the answer is worked out
again), never an error.  Entries are written through ``outfiles`` (a temporary file
renamed into place), so a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from ..errors import PhaseDSLError
from ..system.outfiles import write_text
from ..system.resources import cache_dir

FILE_NAME = "dealt.json"
# A cache file larger than this is not read (nor extended): it was not written by us.
MAX_BYTES = 8_000_000
# Entries kept at most; past it the file starts again (old answers are cheap to redo).
MAX_ENTRIES = 20_000


def _path() -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / FILE_NAME


def read_all() -> dict[str, dict]:
    """Every entry on disk (an empty mapping when there is no usable file)."""
    path = _path()
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except (OSError, ValueError):
        return {}
    if len(data) > MAX_BYTES:
        return {}
    try:
        value = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, dict)}


def store(key: str, entry: dict) -> None:
    """Add one entry (merged with what another run may have written meanwhile)."""
    path = _path()
    if path is None:
        return
    entries = read_all()
    if len(entries) >= MAX_ENTRIES:
        entries = {}
    entries[key] = entry
    with contextlib.suppress(OSError, PhaseDSLError, ValueError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps(entries, sort_keys=True), force=True)
