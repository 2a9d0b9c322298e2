"""Phase 10 Dice on the command line: ``odds`` of a dice pack and ``hold``."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..errors import PhaseDSLError
from .common import JsonOpt, PhaseProgress, say


def refuse_card_options(command: str, pack: str, given: dict[str, object]) -> None:
    """PhaseDSLError naming the options given (``given``: option -> value, falsy when left
    out) that only a pack of cards' figures take.  A dice pack's figures are a turn's
    rolls: a --draws K not counted or a --plot FILE not written, with exit 0, would read
    as done, so they are refused, not ignored."""
    said = [name for name, value in given.items() if value]
    if said:
        raise PhaseDSLError(f"{command} {pack}: {' and '.join(said)} "
                            f"{'is' if len(said) == 1 else 'are'} for packs of cards; "
                            f"{pack} is a Phase 10 Dice pack, whose {command} takes none")


def _pack_and_phases(variant: str, phrase: str | None, world: str | None):
    from ..packs.pack import load_pack

    pack = load_pack(variant)
    rules = pack.rules_for(world)
    if phrase is not None:
        from ..model.phase import Phase

        return pack, rules, [(None, Phase.parse(phrase, rules.deck))]
    w = pack.world(world)
    return pack, rules, [(e.number, e.phase) for e in w.phases]


def _pct(x) -> str:
    return f"{100 * float(x):.4f}%"


def dice_odds(variant: str, phrase: str | None, world: str | None, as_json: bool) -> None:
    """Each phase's exact chance of a turn under the best holds (and with one and two
    rolls), its expected turns, and the best expected score of a turn."""
    from fractions import Fraction

    from ..design.dicereport import dice_tables, highest_score

    pack, rules, phases = _pack_and_phases(variant, phrase, world)
    with PhaseProgress(as_json, len(phases)) as (_, phase_done):
        tables = dice_tables(pack, rules, phases, lambda _: phase_done())
    solo = sum((t.expected_turns for _, t in tables if t.expected_turns), Fraction(0))
    never = [i for i, t in tables if t.expected_turns is None]
    top = highest_score(pack.dice, [t.best_roll for _, t in tables]) if phrase is None else None
    if as_json:
        say(json.dumps({"pack": pack.name, "dice": pack.dice.describe(),
                        "rolls": pack.dice.rolls,
                        "phases": [t.to_json(i) for i, t in tables],
                        "expected_turns_solo": None if never else float(solo),
                        "highest_score": top}))
        return
    rolls = pack.dice.rolls
    say(f"{pack.name}: the chance of making each phase in one turn of {rolls} "
        f"roll{'s' * (rolls != 1)}, keeping the best dice before each re-roll (exact); "
        f"{pack.dice.describe()}")
    head = "  ".join(f"{r} roll{'s' * (r > 1)}".rjust(9) for r in range(1, rolls + 1))
    # The column is headed "exact": a fraction too long for it widens it rather than being
    # shown as a rounded decimal under that heading (the printed dice's are 31 characters).
    fracs = {i: f"{t.chance.numerator}/{t.chance.denominator}" for i, t in tables}
    width = max([24, *map(len, fracs.values())])
    say(f" #  {'phase':<28} {head}  {'exact':<{width}} turns  best score/turn")
    for i, t in tables:
        cells = "  ".join(_pct(p).rjust(9) for p in t.by_rolls)
        turns = "never" if t.expected_turns is None else f"{float(t.expected_turns):.2f}"
        frac = fracs[i]
        say(f"{i if i is not None else '-':>2}  {t.phase!s:<28} {cells}  {frac:<{width}} "
            f"{turns:>6}  {float(t.expected_score):.2f}")
    if top is not None:
        say(f"highest possible score: {top} (each phase's best roll, with both bonuses)")
    if len(tables) > 1:
        say("a whole game solo: " + ("never ends (a phase no roll makes)" if never else
                                      f"{float(solo):.2f} turns expected (the sum of each "
                                      "phase's expected turns)"))


def hold(
    pack: Annotated[str, typer.Argument(metavar="PACK", help="A dice pack (see 'phasedsl "
                                                              "list'), or its file.",
                                        show_default=False)],
    faces: Annotated[list[str], typer.Argument(help="The faces showing, one per die.",
                                               show_default=False)],
    phase_no: Annotated[int, typer.Option("--phase", "-p", metavar="N",
                                          help="The phase being tried.")],
    rolls_left: Annotated[int, typer.Option("--rolls-left", "-k", metavar="K",
                                            help="Re-rolls still allowed (2 after the first "
                                                 "roll, 1 after the second).")] = 2,
    as_json: JsonOpt = False,
) -> None:
    """Phase 10 Dice: which dice to keep before a re-roll, and the exact chance it gives.

    The keep with the best chance of making the phase by the last roll (ties named), and
    the keep with the best expected score, both under the best holds after it.

    Examples:

        phasedsl hold dice --phase 1 --rolls-left 2 8 8 8 10 W W 1 2 5 6
    """
    from ..design.dicereport import hold_advice
    from ..packs.pack import load_pack

    entry, a = hold_advice(load_pack(pack), phase_no, faces, rolls_left)
    if as_json:
        say(json.dumps(a.to_json()))
        return
    from ..api import wrap

    for line in wrap(f"keep {' '.join(map(str, a.keep)) or 'nothing'}: {_pct(a.chance)} "
                     f"({a.chance.numerator}/{a.chance.denominator}) to make phase {phase_no} "
                     f"({entry.phase}) with {rolls_left} re-roll{'s' * (rolls_left > 1)} left",
                     indent="  "):  # 80 columns
        say(line)
    for t in a.ties:
        say(f"  as good: keep {' '.join(map(str, t)) or 'nothing'}")
    say(f"for the best expected score ({float(a.expected_score):.2f}): keep "
        f"{' '.join(map(str, a.best_score_keep)) or 'nothing'}")
