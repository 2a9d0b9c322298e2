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

from ..system.face import lazy

# Each name loaded on first use, with only the modules it needs (``find``, as ``check``
# uses it, does not load the shortfall's modules).
FACE = {
    "Assessment": "answers", "Out": "answers", "Shortfall": "answers",
    "describe_outs": "answers", "unseen_counts": "answers",
    "SEARCH_SECONDS": "budget", "SEARCH_STEPS": "budget", "SHORTFALL_STEPS": "budget",
    "SearchLimit": "budget",
    "tables": "classes",
    "Hand": "handcounts",
    "impossible_group": "impossible", "sum_reach": "impossible",
    "can_make": "laying", "find": "laying", "find_within_budget": "laying",
    "left_out": "laying", "made_within_budget": "laying", "makes": "laying",
    "layout_for": "search",
    "assess": "shortage", "cards_short": "shortage", "outs": "shortage",
    "shortfall": "shortage", "wilds_by_numbers": "shortage",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
