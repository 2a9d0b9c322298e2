"""phasedsl itself speaking the runner's protocol: one JSON line in, one answer line out."""

from __future__ import annotations

import json
from typing import IO

from ..errors import PhaseDSLError
from .answers import answer


def reply(line: str) -> dict:
    """The answer to one request line; a request that cannot be answered gets
    ``{"error": ...}`` (the runner counts it as a wrong answer), never a crash."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"error": f"not JSON: {e}"}
    except RecursionError:  # (json's own limit, met by a deeply nested line: no crash)
        return {"error": "not JSON: nested too deeply"}
    if not isinstance(req, dict):
        return {"error": "a request is a JSON object {\"id\", \"area\", \"rules\", \"input\"}"}
    try:
        got = answer(req.get("area"), req.get("rules"), req.get("input"))
    except PhaseDSLError as e:
        return {"id": req.get("id"), "error": str(e)}
    return {"id": req.get("id"), **got}


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """Answer every line until the input ends, each answer flushed at once."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(reply(line)) + "\n")
        stdout.flush()
