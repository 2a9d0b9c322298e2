"""How close a hand is to a phase: cards short, and which cards complete it.

The answers live in the solver package (``phasedsl.solver``: the fill search, the
completions, the closed forms); this module is their long-standing import path.
"""

from ..solver import (
    Assessment,
    Out,
    Shortfall,
    assess,
    describe_outs,
    outs,
    shortfall,
    unseen_counts,
)

__all__ = ["Assessment", "Out", "Shortfall", "assess", "describe_outs", "outs", "shortfall",
           "unseen_counts"]
