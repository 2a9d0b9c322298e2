"""The vectors: every case with its features and expected answer, written by area.

A case's answer is phasedsl's (`answers.answer`); its rules are then cut to the options
the answer depends on (each rule that is not printed is put back to the printed one in
turn and kept only where the answer changes), so that `features` names exactly what a case
needs. Every `hands` and `layouts` answer is confirmed by the brute-force reference before
anything is written: a disagreement raises, it never becomes a vector. Output is the same
bytes for a version: generators are seeded, lists ordered, JSON written by hand.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from .. import __version__
from ..errors import PhaseDSLError
from ..model.phase import Phase
from ..system.outfiles import OutputError, check_target, write_text, write_with
from .answers import AREAS, answer
from .bruteforce import confirm_hand, layout_ok, spec_of
from .cases import FAMILIES
from .dicebrute import confirm_dice
from .ruleset import feature_name, printed, solver_rules, with_changes

README_NAME = "README.md"
SHIPPED = Path(__file__).resolve().parent / "vectors"


class ReferenceDisagrees(AssertionError):
    """The solver's answer and the brute-force reference differ: a bug, not a vector."""


def _tried(area: str, rules: dict, inp: dict) -> object:
    try:
        return answer(area, rules, inp)
    except PhaseDSLError as e:  # (a rule put back may leave the input unreadable: a change)
        return ("error", type(e).__name__)


def minimized(area: str, changes: dict, inp: dict, expected: dict) -> dict:
    """The fewest of ``changes`` under which the answer stays ``expected``."""
    kept = dict(changes)
    for key in sorted(changes):
        trial = {k: v for k, v in kept.items() if k != key}
        if _tried(area, with_changes(printed(), trial), inp) == expected:
            kept = trial
    return kept


def confirm(area: str, case: dict) -> None:
    from ..model.cards import parse_cards

    if area == "dice":
        rules = solver_rules(case["rules"])
        phase = Phase.parse(case["input"]["phase"], rules.deck)
        why = confirm_dice([(g.kind.value, g.size) for g in phase.groups], case["input"],
                           case["expected"], rules.deck.low, rules.deck.high, rules.min_naturals)
        if why is not None:
            raise ReferenceDisagrees(f"{case['id']}: the brute-force reference disagrees: {why}")
        return
    if area not in ("hands", "layouts"):
        return
    rules = solver_rules(case["rules"])
    spec = spec_of(rules)
    inp, exp = case["input"], case["expected"]
    phase = Phase.parse(inp["phase"], rules.deck)
    if area == "hands":
        why = confirm_hand(phase, parse_cards(" ".join(inp["hand"]), rules.deck), spec, exp)
    else:
        layout = [parse_cards(" ".join(g), rules.deck) for g in inp["groups"]]
        legal = layout_ok(phase, layout, spec)
        why = None if legal == exp["legal"] else f"legal: reference {legal}, answer {exp['legal']}"
    if why is not None:
        raise ReferenceDisagrees(f"{case['id']}: the brute-force reference disagrees: {why}")


def area_cases(area: str, progress: Callable[[str], None] | None = None) -> Iterator[dict]:
    seen: set[str] = set()
    for family in FAMILIES[area]:
        for raw in family():
            if progress is not None:
                progress(raw["id"])
            rules = with_changes(printed(), raw["changes"])
            try:
                # (a family that had to find the answer to pick the case hands it on)
                expected = raw.get("expected") or answer(area, rules, raw["input"])
            except PhaseDSLError:
                continue  # (a generated input the rules refuse, a search at its budget)
            kept = (dict(raw["changes"]) if raw.get("keep")
                    else minimized(area, raw["changes"], raw["input"], expected))
            if raw.get("variant", "printed") != "printed" and not kept:
                continue  # the same case as the table's printed row
            if raw["id"] in seen:
                raise AssertionError(f"case id {raw['id']} given twice")
            seen.add(raw["id"])
            case = {"id": raw["id"], "description": described(raw["description"], kept),
                    "features": sorted({feature_name(k) for k in kept}),
                    "rules": with_changes(printed(), kept), "input": raw["input"],
                    "expected": expected}
            confirm(area, case)
            yield case


def described(description: str, kept: dict) -> str:
    """A case's description, saying where it names a pack whose rules differ from the printed
    ones that its answer does not depend on them (its ``features`` are then empty)."""
    if kept:
        return description
    for name in packs_with_rules():
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", description):
            return f"{description} (the answer is the printed rules', the same under the pack's)"
    return description


@cache
def packs_with_rules() -> tuple[str, ...]:
    from ..packs.pack import builtin_names, describe_rules, load_pack

    return tuple(n for n in builtin_names()
                 if any(describe_rules(w.settings) for w in load_pack(n).worlds))


def area_text(area: str, cases: list[dict]) -> str:
    head = json.dumps({"area": area, "phasedsl": __version__, "count": len(cases)})[:-1]
    body = ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases)
    return f'{head}, "cases": [\n{body}\n]}}\n'


def readme_text(counts: dict[str, int]) -> str:
    rows = "\n".join(f"| `{a}` | {counts[a]} |" for a in AREAS)
    return README_TEMPLATE.format(version=__version__, rows=rows, total=sum(counts.values()))


def texts(progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Each file of the vectors by name: <area>.json for every area, README.md."""
    out = {}
    counts = {}
    for area in AREAS:
        cases = list(area_cases(area, progress))
        counts[area] = len(cases)
        out[f"{area}.json"] = area_text(area, cases)
    out[README_NAME] = readme_text(counts)
    return out


def counts_of(files: dict[str, str]) -> dict[str, int]:
    return {a: json.loads(files[f"{a}.json"].split("\n", 1)[0] + "]}")["count"] for a in AREAS}


def export(folder: str | Path, force: bool = False,
           progress: Callable[[str], None] | None = None, shipped: bool = False) -> dict[str, int]:
    """Write FOLDER/<area>.json for every area and FOLDER/README.md; the cases per area.
    Every target is checked before any work (an existing file needs ``force``).
    ``shipped``: write the package's copy (a fresh export byte for byte, a test holds it
    to that), read in a moment where making the cases afresh takes about a minute."""
    if str(folder) == "":  # (Path("") is the current folder)
        raise OutputError("cannot write into '': give the folder's name (. for this one)")
    if folder == "-":  # ('-' is standard output to every other command, never a folder)
        raise OutputError("cannot write into '-': the vectors are a folder of files, not "
                          "standard output; give the folder's name (./- for one called -)")
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"cannot write into {folder}: it is not a folder")
    if not folder.exists() and not folder.parent.is_dir():
        raise OutputError(f"cannot write {folder}: there is no folder {folder.parent}")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot make the folder {folder}: {e.strerror or e}") from None
    for name in [f"{a}.json" for a in AREAS] + [README_NAME]:
        check_target(folder / name, force)
    files = shipped_texts() if shipped else None
    if files is None:
        files = texts(progress)
    for name, text in files.items():
        write_text(folder / name, text, force=force)
    return counts_of(files)


def shipped_texts() -> dict[str, str] | None:
    """Each file of the package's copy of the vectors by name, as ``texts`` makes them; None
    where the copy is not there whole (a checkout that removed it)."""
    try:
        out = {f"{a}.json": gzip.decompress((SHIPPED / f"{a}.json.gz").read_bytes()
                                            ).decode("utf-8") for a in AREAS}
        out[README_NAME] = (SHIPPED / README_NAME).read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile):
        return None
    return out


def ship(folder: Path = SHIPPED) -> dict[str, int]:
    """The copy inside the package: each area's file gzipped (the same bytes for the same
    text: no time stamp), the README as it is. ``python -m phasedsl.conformance.export``."""
    files = texts()
    for name, text in files.items():
        if name == README_NAME:
            write_text(folder / name, text, force=True)
        else:
            data = gzip.compress(text.encode("utf-8"), 9, mtime=0)
            write_with(folder / f"{name}.gz", True, lambda fh, data=data: fh.write(data))
    return counts_of(files)


README_TEMPLATE = """\
# Phase 10 conformance vectors (phasedsl {version})

Test vectors for any implementation of the card game Phase 10, from phasedsl's exact
solver and referee: `phasedsl conformance export DIR` writes them,
`phasedsl conformance run -- COMMAND ...` runs a program over them. The full description,
with each area's answer shape and a worked example, is docs/conformance.md of phasedsl.

| area | cases |
|---|---|
{rows}
| all | {total} |

Each file is one JSON object: `area`, `phasedsl` (the version that wrote it), `count` and
`cases`, one case per line. A case is `{{"id", "description", "features", "rules", "input",
"expected"}}`:

- `id` is stable: it is never renumbered once published; new cases get new ids.
- `rules` is the whole rule set: every key of a pack's `rules` (phasedsl's
  docs/pack-format.md), plus `wild_numbers`, the numbers whose cards act as wilds.
- `features` names each rule in `rules` that is not the printed one (pack key names:
  `natural_minimum`, `natural_scope`, `sets_share_number`, `extras`, `wild_numbers`,
  `wild_swap`, `wild_take_back`, `wild_as_skip`, `runs_one_color`, `runs_wrap`,
  `skip_counts_as_blue`, `hit_end`, `deck`,
  `scoring`, `postal`, `phase_order`, `game_length`, the house rules by name); an empty
  list means the printed rules. Every named feature changes the answer (put back to the
  printed rule, the answer differs), but in the hand-written game cases (`games-hand-*`),
  which keep the rules their corner was written for. An implementation declares the features it supports
  and runs the cases whose features it has: `phasedsl conformance run --features F,...`.

What each area asks:

- `phrases`: a phase phrase -> its canonical form and groups, or the column of its error.
- `hands`: a phase and a hand -> made or not, the fewest cards missing, and for one short
  every card that completes it.
- `layouts`: a phase and laid groups -> legal or not, and each broken rule's code and group.
  A wild may say what it stands for (`W=6`, `W=R6`, `W=R`): it then obeys its group's rule
  with what it says, as a natural would, but counts as no natural.
- `hits`: laid groups and one card -> every group that takes it, at which end, and what a
  wild stands for.
- `scoring`: cards left in hand -> points.
- `games`: a game log and its phases -> legal, or the first illegal line and its rule code;
  each hand's standings and the winner. Whole games and fragments of seeded bots, games
  broken at one event, probes (`games-probe-*`: a state of a seeded game and one move tried
  there, for every rule code the referee gives in each pack, and a legal move of each type)
  and fragments dealt by hand (`games-hand-*`: skips, going out, tie-breaks, house rules,
  `hit_end`). Every rule code of the referee is in some case.
"""


if __name__ == "__main__":
    print(ship())
