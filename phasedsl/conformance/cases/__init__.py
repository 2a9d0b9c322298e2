"""The cases of each area, before their answers: deterministic, seeded generators.

Each area is a list of *families* (`FAMILIES`), each a generator of raw cases
`{"id", "description", "changes", "input"}` (`changes`: the dotted rules keys that differ
from the printed rules). Ids never change once published: a family's ids come from a
stable key (a pack, world and phase number; a table row and a rule variant) or are
numbered within the family, whose seed and order never change. New cases come as new rows
at the end of a table, new rule variants at the end of `VARIANTS`, or new families at the
end of an area's list.

One module an area (``phrases``, ``hands``, ``layouts``, ``hits``, ``scoring``,
``games``, ``dice``), the helpers they share in ``common``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .common import Raw
from .dice import dice_holds, dice_sheet, dice_small
from .games import games_fragments, games_handwritten, games_mutated, games_probes, games_whole
from .hands import hands_corners, hands_packs, hands_random, hands_random_kinds
from .hits import hits_corners, hits_random
from .layouts import (
    layouts_corners,
    layouts_packs,
    layouts_random,
    layouts_random_kinds,
    layouts_wild_corners,
    layouts_wild_stated,
)
from .phrases import phrases_errors, phrases_packs, phrases_random, phrases_table
from .scoring import scoring_cards, scoring_random

FAMILIES: dict[str, list[Callable[[], Iterator[Raw]]]] = {
    "phrases": [phrases_table, phrases_errors, phrases_packs, phrases_random],
    "hands": [hands_packs, hands_corners, hands_random, hands_random_kinds],
    "layouts": [layouts_packs, layouts_corners, layouts_random, layouts_random_kinds,
                layouts_wild_corners, layouts_wild_stated],
    "hits": [hits_corners, hits_random],
    "scoring": [scoring_cards, scoring_random],
    "games": [games_whole, games_fragments, games_mutated, games_probes, games_handwritten],
    "dice": [dice_sheet, dice_small, dice_holds],
}
