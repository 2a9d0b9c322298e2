"""Games already played, kept on disk: a seeded game between built-in bots is the same game
every time, so a figure asked again (``report`` after ``balance`` of the same pack, a
``balance`` of the order the last one wrote, a second look at a ``simulate``) reads the
records instead of playing them again.

A game is found by everything that decides it: the rules and the phases of the world
played (not the pack's name, titles or notes), the board, the table size, each seat's
bot, the run's seed, the move cap, the game's index, and this very code (a fingerprint of
the package's source, with the schema, whose defaults fill the rules a pack leaves out,
and the grammar, which reads its phases: another version, or an edited checkout, finds
nothing of an older one's).  A game with a bot of the user's (``module:``, ``cmd:``, a
class) is never kept: that program may change without us knowing.

One JSON file per run (a key less the game's index) in ``games/`` under the cache folder
(``oddscache``'s), holding its first ``MAX_GAMES`` games at most; at most ``MAX_FILES``
files and ``MAX_TOTAL`` bytes, the least recently written removed first.
As ``oddscache``: a convenience only; a file missing, corrupt or of the wrong shape is
ignored (the games are played), written whole or not at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from functools import cache
from pathlib import Path

from ..errors import PhaseDSLError
from ..packs.pack import Pack, board_document
from ..system.outfiles import write_text
from ..system.resources import cache_dir, grammar_path, schema_path

FOLDER = "games"
# Games kept of a run: its first ones, no more (``simulate.play_games``; balance and report
# read a run from its start and stop past 80 games only when asked).  A game of
# ``original`` takes about 1 kB, one of six random bots on a board up to 13 kB: the most a
# file holds stays under ``MAX_BYTES``.
MAX_GAMES = 400
# Files kept at most, and their bytes (a run of 80 games of ``original`` is about 80 kB).
MAX_FILES = 300
MAX_TOTAL = 64_000_000
# A file larger than this is not read: it was not written by us.
MAX_BYTES = 8_000_000
_PACKAGE = Path(__file__).resolve().parent.parent


@cache
def fingerprint() -> str:
    """A digest of the package's source, its pack schema and its grammar, as installed (the
    grammar lies beside the package in a checkout)."""
    h = hashlib.blake2b(digest_size=16)
    for path in [*sorted(_PACKAGE.rglob("*.py")), schema_path(), grammar_path()]:
        h.update((str(path.relative_to(_PACKAGE)) if path.is_relative_to(_PACKAGE)
                  else path.name).encode())
        with contextlib.suppress(OSError):
            h.update(path.read_bytes())
    return h.hexdigest()


def run_key(pack: Pack, world: str | None, players: int, seats: list, seed: int,
            max_moves: int) -> str | None:
    """The key of a run's games (None: not kept, a seat's bot is not built in)."""
    if any(getattr(s, "kind", None) != "builtin" for s in seats):
        return None
    w = pack.world(world)
    # (a world's settings hold the pack's, merged with its own)
    what = {"code": fingerprint(), "rules": w.settings,
            "phases": [e.text for e in w.phases], "world": world,
            "board": board_document(pack.board) if pack.board is not None else None,
            "players": players, "bots": [s.target for s in seats], "seed": seed,
            "max_moves": max_moves}
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


def _path(key: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / FOLDER / f"{key}.json"


def read(key: str) -> dict[int, list]:
    """The games kept for a run, by index: each as ``GameRecord.to_fields`` gave it."""
    path = _path(key)
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return {}
        value = json.loads(data.decode("utf-8"))
        return {int(k): v for k, v in value["games"].items()} if value["key"] == key else {}
    except (OSError, ValueError, UnicodeDecodeError, RecursionError, KeyError, TypeError,
            AttributeError):
        return {}


def store(key: str, games: dict[int, list]) -> None:
    """Add games (by index, as ``GameRecord.to_fields`` gave them) to a run's file, merged
    with what another process wrote meanwhile."""
    path = _path(key)
    if path is None or not games:
        return
    kept = read(key)
    kept.update(games)
    with contextlib.suppress(OSError, PhaseDSLError, ValueError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps({"key": key, "games": {str(k): v for k, v in
                                                            sorted(kept.items())}}),
                   force=True)
        _prune(path.parent)


def _prune(folder: Path) -> None:
    found = []
    for p in folder.glob("*.json"):
        with contextlib.suppress(OSError):  # (gone meanwhile, or not a file of ours)
            if p.is_file() and not p.is_symlink():
                found.append((p.stat(), p))
    found.sort(key=lambda sp: -sp[0].st_mtime)  # what a run wrote last is kept first
    total = 0
    for k, (st, p) in enumerate(found):
        total += st.st_size
        if k >= MAX_FILES or total > MAX_TOTAL:
            with contextlib.suppress(OSError):
                p.unlink(missing_ok=True)
