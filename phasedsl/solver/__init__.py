"""The meld solver: does a hand make a phase, with which cards, and how far is it.

The face (everything outside this package imports only these names):

* ``find``, ``find_within_budget``, ``can_make``: the meld of a hand, if any; ``left_out``:
  the cards such a meld leaves in the hand; ``made_within_budget``:
  whether there is one;
* ``assess``, ``shortfall``, ``outs``: how many cards short, which cards complete it
  (``cards_short``: the count alone, where the counts say it);
  ``Assessment``, ``Shortfall``, ``Out`` what they return; ``describe_outs`` and
  ``unseen_counts`` to word and count outs;
* ``SearchLimit``: raised where a search stops at its budget (``SEARCH_STEPS``,
  ``SEARCH_SECONDS``, ``SHORTFALL_STEPS`` here are the defaults, for reading; set them on
  ``phasedsl.solver.budget``, which every search reads);
* ``impossible_group``: why no hand can make a phase under the rules (lint, the shortfall);
  ``sum_reach``: the most a sum's cards can add up to (lint: within a hand);
* ``layout_for``, ``Hand``, ``tables``, ``makes``: the search over card counts, for
  ``odds`` (millions of count vectors, no cards).

Inside, bottom to top (each module imports only those above it in this list):

    classes      card types and group classes (what the search enumerates), ``Plan``
    handcounts   a hand as card counts, and the capacities a class reads from them
    joint        what chosen groups place together: exact joint counts, a max-flow
    closedforms  two sets, a set and a run: the search as a closed form
    impossible   phases no hand can make, and why
    budget       the searches' steps and seconds, ``SearchLimit``, the clock
    blueskips    skip_counts_as_blue: each way of laying skips as blue cards, a smaller phase
    search       ``Layout`` (a phase prepared once) and the exact search over classes
    sums         phases holding sums: each sum's naturals enumerated, the rest searched
    laying       plans to a meld: ``find``, postal wild-number cards, ``makes``
    answers      ``Assessment``, ``Shortfall``, ``Out`` and their wording
    fill         the fill search: the most cards of a hand the phase can hold
    completions  the cards completing a hand: an example, and the single-card outs
    closedshort  the shortfall of two sets or a set and a run from the counts
    sumshort     the shortfall and outs of a phase holding sums
    shortage     ``assess``, ``shortfall``, ``outs``: the route through all of the above
"""

from .answers import Assessment, Out, Shortfall, describe_outs, unseen_counts
from .budget import SEARCH_SECONDS, SEARCH_STEPS, SHORTFALL_STEPS, SearchLimit
from .classes import tables
from .handcounts import Hand
from .impossible import impossible_group, sum_reach
from .laying import can_make, find, find_within_budget, left_out, made_within_budget, makes
from .search import layout_for
from .shortage import assess, cards_short, outs, shortfall, wilds_by_numbers

__all__ = [
    "SEARCH_SECONDS", "SEARCH_STEPS", "SHORTFALL_STEPS", "Assessment", "Hand", "Out", "SearchLimit",
    "Shortfall", "assess", "can_make", "cards_short", "describe_outs", "find", "find_within_budget",
    "impossible_group", "layout_for", "left_out", "made_within_budget", "makes", "outs",
    "shortfall", "sum_reach", "tables", "unseen_counts", "wilds_by_numbers",
]
