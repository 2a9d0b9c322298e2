"""The conformance suite: Phase 10's rules as test vectors any implementation can run.

The face (everything outside this package imports only these names):

* ``answer(area, rules, input)``: phasedsl's answer to one case (``answers.py``);
* ``export(folder, force)``: write the vectors (``export.py``, from the generators of
  ``cases.py``, each answer confirmed by ``bruteforce.py``);
* ``load(folder)``: the vectors of a folder, or those shipped in the package;
* ``run``, ``select``, ``report_text``, ``report_json``: another program's answers
  (``run.py``); ``assumed`` and ``set_aside``: the rule values a program declares and the
  cases they skip; ``serve``: phasedsl speaking that protocol (``adapter.py``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from ..errors import PhaseDSLError
from .adapter import serve
from .answers import AREAS, answer
from .export import SHIPPED, export
from .ruleset import assumed, feature_name, flatten, printed
from .run import RunError, report_json, report_text, run, select, set_aside


def rule_features() -> set[str]:
    """The feature name of every rule option there is."""
    return {feature_name(k) for k in flatten(printed())}

MAX_VECTORS = 100_000_000  # characters of one area's file, at most


def load(folder: str | Path | None = None) -> dict[str, list[dict]]:
    """Every area's cases from ``folder`` (an exported folder), or the shipped vectors."""
    base = Path(folder) if folder is not None else SHIPPED
    out: dict[str, list[dict]] = {}
    for area in AREAS:
        path = base / f"{area}.json{'' if folder is not None else '.gz'}"
        try:
            if not path.is_file():
                raise PhaseDSLError(f"no vectors file {path} (write one with "
                                    "'phasedsl conformance export DIR')")
            if path.stat().st_size > MAX_VECTORS:
                raise PhaseDSLError(f"{path} is larger than {MAX_VECTORS:,} bytes: not a vectors file")
            raw = path.read_bytes()
            if folder is None:
                raw = gzip.decompress(raw)
            data = json.loads(raw.decode("utf-8"))
        except RecursionError:  # (json's own limit, past which it raises no ValueError)
            raise PhaseDSLError(f"cannot read {path}: not JSON: nested too deeply") from None
        except (OSError, UnicodeDecodeError, ValueError, EOFError) as e:
            raise PhaseDSLError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        if not (isinstance(data, dict) and data.get("area") == area
                and isinstance(data.get("cases"), list)
                and all(isinstance(c, dict) and {"id", "description", "features", "rules",
                                                 "input", "expected"} <= c.keys()
                        for c in data["cases"])):
            raise PhaseDSLError(f"{path} is not a vectors file of area {area!r}")
        out[area] = data["cases"]
    return out


__all__ = ["AREAS", "SHIPPED", "RunError", "answer", "assumed", "export", "load", "report_json",
           "report_text", "rule_features", "run", "select", "serve", "set_aside"]
