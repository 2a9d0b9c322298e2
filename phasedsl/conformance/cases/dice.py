"""The `dice` cases: rolls judged (made, best score) and holds (the best keep's chance),
Phase 10 Dice's, each answer confirmed by ``conformance.dicebrute``."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ...packs.pack import load_pack
from ..dicebrute import best_score
from .common import Raw, rng

PRINTED_CHANGES = {"deck.numbers.high": 10, "wilds.natural_minimum": 0}
SMALL_KINDS = (("set", (2, 3)), ("run", (2, 3, 4)), ("color", (2, 3)), ("color_run", (2, 3)),
               ("color_set", (2,)))
PHRASE = {"set": "set", "run": "run", "color": "color group", "color_run": "color run",
          "color_set": "color set"}


def _dice_json(dice) -> dict:
    return {"rolls": dice.rolls, "dice": [{"name": k.name, "count": k.count,
                                           "faces": [str(f) for f in k.faces]}
                                          for k in dice.kinds]}


def _brute_faces(tokens: list[str]) -> list[tuple[int | None, str]]:
    return [(None, t[1]) if t[0] == "W" else (int(t[1:]), t[0]) for t in tokens]


def dice_sheet() -> Iterator[Raw]:
    """The sheet's example, then each printed phase with seeded rolls of the printed dice:
    six that make it and six that do not."""
    pack = load_pack("dice")
    spec = _dice_json(pack.dice)
    yield {"id": "dice-sheet-example", "description": "the sheet's example: phase 1 with "
           "8 8 8 10 W W scores 34 (wilds score 0)", "changes": PRINTED_CHANGES,
           "input": {"dice": spec, "phase": "2 sets of 3",
                     "faces": ["Y8", "Y8", "Y8", "B10", "WG", "WY"]}}
    for e in pack.worlds[0].phases:
        groups = [(g.kind.value, g.size) for g in e.phase.groups]
        r = rng(f"dice-sheet:{e.number}")
        made: list[list[str]] = []
        missed: list[list[str]] = []
        for _ in range(20_000):
            if len(made) >= 6 and len(missed) >= 6:
                break
            roll = [str(f) for f in pack.dice.roll((), r)]
            ok = best_score(groups, _brute_faces(roll), 1, 10, 0) is not None
            (made if ok else missed).append(roll)
        for label, rolls in (("made", made[:6]), ("missed", missed[:6])):
            for i, roll in enumerate(rolls):
                yield {"id": f"dice-sheet-{e.number}-{label}-{i}",
                       "description": f"dice phase {e.number} ({e.phase}): a roll that "
                                      + ("makes it, and its best score" if label == "made"
                                         else "does not make it"),
                       "changes": PRINTED_CHANGES,
                       "input": {"dice": spec, "phase": str(e.phase), "faces": roll}}


def _small_dice(r: random.Random, most: int) -> dict:
    kinds = []
    left = most
    for k in range(r.choice((1, 2))):
        count = r.randint(1, max(1, left - (1 if k == 0 else 0)))
        left -= count
        faces = set()
        while len(faces) < r.choice((3, 4)):
            faces.add(f"W{r.choice('RBG')}" if r.random() < 0.2 else
                      f"{r.choice('RBG')}{r.randint(1, 6)}")
        kinds.append({"name": f"d{k + 1}", "count": count, "faces": sorted(faces)})
        if left <= 0:
            break
    return {"rolls": 3, "dice": kinds}


def _small_phase(r: random.Random, room: int) -> tuple[str, list[tuple[str, int]]] | None:
    kind, sizes = r.choice(SMALL_KINDS)
    size = r.choice(sizes)
    n = 2 if kind in ("set", "color_set") and 2 * size <= room and r.random() < 0.3 else 1
    if n * size > room:
        return None
    return f"{n} {PHRASE[kind]}{'s' * (n > 1)} of {size}", [(kind, size)] * n


def _roll(r: random.Random, spec: dict) -> list[str]:
    return [r.choice(k["faces"]) for k in spec["dice"] for _ in range(k["count"])]


def dice_small() -> Iterator[Raw]:
    """Small dice of every kind of face, phases of sets, runs and colour groups, seeded
    rolls: made or not, and the best score."""
    r = rng("dice-small")
    i = 0
    while i < 60:
        spec = _small_dice(r, 6)
        count = sum(k["count"] for k in spec["dice"])
        got = _small_phase(r, count)
        if got is None:
            continue
        phrase, _ = got
        changes = {"deck.numbers.high": 6, "wilds.natural_minimum": r.choice((0, 1))}
        yield {"id": f"dice-small-{i:03d}", "description": f"small dice, {phrase}: a roll",
               "changes": changes, "input": {"dice": spec, "phase": phrase,
                                             "faces": _roll(r, spec)}}
        i += 1


def dice_holds() -> Iterator[Raw]:
    """Three dice of three or four faces: the chance of the best keep with one or two
    re-rolls left, as a fraction."""
    r = rng("dice-holds")
    i = 0
    while i < 40:
        spec = _small_dice(r, 3)
        if sum(k["count"] for k in spec["dice"]) != 3:
            continue
        got = _small_phase(r, 3)
        if got is None:
            continue
        phrase, _ = got
        left = r.choice((1, 2))
        changes = {"deck.numbers.high": 6, "wilds.natural_minimum": r.choice((0, 1))}
        yield {"id": f"dice-hold-{i:03d}", "description": f"small dice, {phrase}: the best "
               f"keep's chance with {left} re-roll{'s' * (left > 1)} left",
               "changes": changes, "input": {"dice": spec, "phase": phrase,
                                             "faces": _roll(r, spec), "rolls_left": left}}
        i += 1
