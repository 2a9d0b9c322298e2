"""Laid melds: a layout checked against a phase (``layout``), laid runs read by position
(``runread``), hits onto laid groups (``hits``), and the points cards cost (``scoring``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "Verdict": "layout",
    "as_laid": "hits",
    "card_points": "scoring",
    "closed_groups": "hits",
    "closed_words": "hits",
    "hit_words": "hits",
    "laid_group": "hits",
    "no_hit_rule": "hits",
    "plan": "hits",
    "plan_lines": "hits",
    "read_group": "layout",
    "remember_read": "hits",
    "score": "scoring",
    "targets": "hits",
    "verify": "layout",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
