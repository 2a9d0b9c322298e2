"""The referee's plain functions in one place: the names ``phasedsl.game.engine`` has
always offered, each from the module that answers it.

``apply`` and ``IllegalMove`` (what each move does, ``actions``; the checks it makes,
``checks``), ``legal_moves`` (``legal``), the table and the phase each player is on
(``make_table``, ``start``, ``current_phase``, ``choosable``, ``phase_rules``:
``table``), a hand's end (``hand_points``, ``next_phase``: ``hand_end``).  ``Game`` is
the convenient face over them.
"""

from __future__ import annotations

from .actions import apply, cards_in_play, seeded_deal
from .checks import IllegalMove
from .hand_end import hand_points, next_phase
from .legal import legal_moves
from .table import choosable, current_phase, make_table, phase_rules, start

__all__ = ["IllegalMove", "apply", "cards_in_play", "choosable", "current_phase", "hand_points",
           "legal_moves", "make_table", "next_phase", "phase_rules", "seeded_deal", "start"]
