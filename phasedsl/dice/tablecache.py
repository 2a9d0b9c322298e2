"""The solved tables of a dice phase, kept on disk: ``odds`` of a dice pack works a phase
out in about a second a goal, and ``hold`` needs the same tables at once.

One file a phase and goal (``dice-<key>.bin`` in the cache folder ``oddscache`` uses),
keyed by the dice, the phase and the rules a roll is judged under: a JSON line (the
chances, the best roll, the array sizes) then the arrays, 8-byte little-endian integers,
deflated (zlib: 3 MB of a phase's tables take about 60 kB).
A file missing, corrupt, of another size or unreadable is ignored and the tables are
worked out again; one that cannot be written is not written.  Values past 8 bytes (many
dice of many faces) are not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import zlib
from array import array
from fractions import Fraction
from pathlib import Path

from ..errors import PhaseDSLError
from ..model.phase import Phase
from ..model.rules import Rules, rules_fingerprint
from ..system.outfiles import write_with
from ..system.resources import cache_dir
from .faces import Dice

VERSION = "dice-tables-1"
LIMIT = 2 ** 63


def key(dice: Dice, phase: Phase, rules: Rules, objective: str) -> str:
    text = "\n".join([VERSION, repr(dice.kinds), str(dice.rolls), phase.canonical(rules.deck),
                      rules_fingerprint(rules), objective])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _path(k: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"dice-{k}.bin"


def load(k: str, size: int, levels: int) -> tuple[list[Fraction], int, list[list[int]]] | None:
    """(chances by rolls, the best roll's worth, the kept-state arrays) or None."""
    path = _path(k)
    if path is None:
        return None
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline(10_000).decode("utf-8"))
            if head.get("size") != size or head.get("levels") != levels:
                return None
            want = 8 * size * levels
            # (bounded: a file that inflates past the arrays' size is not ours)
            data = zlib.decompressobj().decompress(fh.read(want + 1), want + 1)
            if len(data) != want:
                return None
            arrays = []
            for i in range(levels):
                a = array("q")
                a.frombytes(data[8 * size * i:8 * size * (i + 1)])
                if sys.byteorder != "little":
                    a.byteswap()
                arrays.append(a)  # (indexed as it is: no list of 200,000 ints to build)
        by_rolls = [Fraction(int(n), int(d)) for n, d in head["by_rolls"]]
        return by_rolls, int(head["best"]), arrays
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError, zlib.error):
        return None


def store(k: str, by_rolls: list[Fraction], best: int, arrays: list[list[int]]) -> None:
    path = _path(k)
    if path is None or any(not -LIMIT <= v < LIMIT for a in arrays for v in a):
        return
    head = {"version": VERSION, "size": len(arrays[0]) if arrays else 0, "levels": len(arrays),
            "by_rolls": [[str(p.numerator), str(p.denominator)] for p in by_rolls],
            "best": best}

    def write(fh) -> None:
        fh.write((json.dumps(head) + "\n").encode("utf-8"))
        packed = zlib.compressobj(6)
        for values in arrays:
            a = array("q", values)
            if sys.byteorder != "little":
                a.byteswap()
            fh.write(packed.compress(a.tobytes()))
        fh.write(packed.flush())

    # (the cache is a convenience: a folder or file that cannot be written is left be)
    with contextlib.suppress(OSError, PhaseDSLError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_with(path, True, write)
