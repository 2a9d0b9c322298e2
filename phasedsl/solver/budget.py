"""The searches' budgets, and what is raised past them.

Every search reads these from this module when it starts (and ``now`` for its clock), so
a test or a caller that sets ``budget.SEARCH_STEPS`` (or replaces ``budget.time``) sets it
for all of them: the solver's search, the fill search of the shortfall, and the outs'
confirmations, which share one deadline.
"""

from __future__ import annotations

import time

from ..errors import PhaseDSLError

# Search steps before giving up on a phase (only absurdly large phases get there).
SEARCH_STEPS = 100_000


# ... or seconds, whichever comes first (a slow or busy machine still answers in time).
SEARCH_SECONDS = 1.5


class SearchLimit(PhaseDSLError):
    """The phase has too many interchangeable groups for an exact search in reasonable time."""

    def __init__(self, spent: str) -> None:
        self.spent = spent
        super().__init__(f"gave up after {spent}: this phase has too many interchangeable "
                         "groups for an exact answer")

    def __reduce__(self):  # as sent back from a worker process (odds --jobs): said once
        return type(self), (self.spent,)


# Search steps (class choices tried; a bound or a max-flow counts as several) before the
# shortfall is given as a range; far beyond what any of the seeds' phases needs.
SHORTFALL_STEPS = 150_000


def now() -> float:
    """The clock every budget counts seconds on (one place to replace it)."""
    return time.monotonic()
