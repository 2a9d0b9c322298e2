"""Hits: playing cards onto groups already laid (after a player's phase is down).

* ``laid``: a laid group read once and kept as a small state (a run's ends, a set's
  number, a color, a parity, its wilds; ``remember_read`` keeps one without reading a
  group whose cards are a reading already); the readers ``read_laid``, ``laid_group``
  ('KIND: CARDS') and ``as_laid`` (what the Python API takes for laid groups).
* ``targets``: where one card fits now (``targets``, each a ``Hit``), with Utah swaps and
  take-backs.
* ``plan``: a play order placing as many of several cards as any order can (``plan``,
  a ``HitPlan``), by a branch and bound over run extensions; ``wrapplan``: the same, hit by
  hit, where runs wrap from the top number to the bottom (``Rules.runs_wrap``).

Outside this package only the names below are used.
"""

from .laid import as_laid, laid_group, read_laid, remember_read
from .plan import MAX_CARDS, MAX_GROUPS, SEARCH_BUDGET, HitPlan, plan, plan_lines
from .targets import Hit, closed_groups, closed_words, hit_words, no_hit_rule, targets

__all__ = ["MAX_CARDS", "MAX_GROUPS", "SEARCH_BUDGET", "Hit", "HitPlan", "as_laid", "closed_groups",
           "closed_words", "hit_words", "laid_group", "no_hit_rule", "plan", "plan_lines",
           "read_laid", "remember_read", "targets"]
