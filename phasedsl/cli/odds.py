"""``phasedsl odds``: the chance that a dealt hand makes a phase."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .. import api
from ..errors import PhaseDSLError
from ..system.outfiles import check_target
from .common import (
    ForceOpt,
    JobsOpt,
    JsonOpt,
    PhaseProgress,
    VariantOpt,
    a_path,
    fail,
    pack_context,
    plot_kind,
    say,
)
from .naming import complete_pack, complete_world

# --------------------------------------------------------------------------- odds


def odds(
    phrase: Annotated[str | None, typer.Argument(
        metavar="[PHASE|PACK]", autocompletion=complete_pack,
        help="A phase, or a pack (a built-in name or a .yaml file) to rank every phase of "
             "(as --variant PACK with no phase).")] = None,
    variant: VariantOpt = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD", autocompletion=complete_world,
        help="For packs with several phase lists: rank this one (or judge the phrase under its "
             "rules).")] = None,
    draws: Annotated[int, typer.Option("--draws", "-d", min=0, max=50, metavar="K",
                                       help="Also count K more cards from the deck.")] = 0,
    # 20 million hands take a few minutes; more would tie a machine up for hours.  The
    # default is design.difficulty.DEALT_SAMPLES (a test holds them equal): the figure
    # balance, report and generate show, from the same cache.
    samples: Annotated[int, typer.Option(
        "--samples", min=1, max=20_000_000, metavar="N",
        help="Hands to sample when no exact count exists (default 20,000: the figure "
             "balance, report and generate show; more: a figure of its own).")] = 20_000,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the sampler.")] = 1,
    jobs: JobsOpt = 0,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE", parser=a_path,
                                              help="Also draw the difficulty curve to a .png or .svg "
                                                   "file (needs matplotlib).")] = None,
    as_json: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """The chance that a dealt hand makes a phase: exact where counting allows, sampled otherwise.

    Given a pack (or --variant PACK and no phase), rank every phase of the pack
    (or --world), flag a phase that is easier than the one before it, and draw the
    difficulty curve. A dice pack (phasedsl odds dice): each phase's exact chance of a
    turn under the best holds, with one, two and every roll, the expected turns and the
    best expected score of a turn, and the highest possible score.

    Examples:

        phasedsl odds "1 set of 3 + 1 run of 4"

        phasedsl odds "1 color run of 4 + 1 set of 4" --samples 1000000 --jobs 2

        phasedsl odds original --draws 1 --plot curve.svg

        phasedsl odds dice --json

    Exit code 0, or 2 for bad input or a plot that cannot be made.
    """
    from ..design.difficulty import known_odds
    from ..packs.pack import builtin_names

    if phrase is not None and variant is None and (phrase in builtin_names()
                                                   or phrase.endswith((".yaml", ".yml"))):
        # a pack where the phase goes: no phrase is a pack's name or ends in .yaml
        phrase, variant = None, phrase
    ctx = pack_context(variant, None, None)
    if ctx.dice is not None:
        # Phase 10 Dice: the exact chance of a turn under the best holds, not a deal
        from .dice import dice_odds, refuse_card_options

        # (no deck to draw from, no dealt-hand curve to draw)
        refuse_card_options("odds", variant, {"--draws": draws, "--plot": plot})
        dice_odds(variant, phrase, world, as_json)
        return
    if plot_kind(plot) is not None:
        raise plot_kind(plot)
    if plot is not None:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # say so before any long count
            raise PhaseDSLError("plotting needs matplotlib: pip install 'phasedsl[plot]'")
        check_target(plot, force)
    if phrase is not None:
        rules = ctx.rules if world is None else _pack_rules(variant, world)
        entries = [("", api.parse(phrase, rules), rules, None)]
    elif variant is not None:
        entries = _pack_entries(variant, world)
    else:
        raise PhaseDSLError("give a phase, or --variant PACK to rank its phases")
    cards = entries[0][2].hand_size + draws
    if cards > entries[0][2].deck.size:
        raise PhaseDSLError(f"{cards} cards is more than the deck holds")
    results = []
    with PhaseProgress(as_json, len(entries)) as (tick, phase_done):
        for label, phase, rules, entry in entries:
            try:
                results.append((label, known_odds(phase, rules, rules.hand_size + draws,
                                                  samples=samples, seed=seed, jobs=jobs,
                                                  progress=tick)))
            except PhaseDSLError as e:
                if entry is None:
                    raise
                # (of a pack's many phases, say which one, and where it is written: the
                # solver's limit names neither)
                raise entry.problem(f"phase {label} ({phase}): {e}") from None
            phase_done()
    report = api.odds_report(results, cards, draws)
    if not as_json:
        say(api.odds_text(report))
    if plot is not None:
        try:
            api.plot_curve(report, plot, force)
        except PhaseDSLError as e:
            fail(e, report=report)  # the figures took long to make: keep them
        if as_json:
            report["plot"] = str(plot)
        else:
            say(f"wrote {plot}")
    if as_json:
        say(json.dumps(report))


def _pack_rules(variant, world):
    from ..packs.pack import load_pack

    if variant is None:
        raise PhaseDSLError("--world needs --variant PACK")
    return load_pack(variant).rules_for(world)


def _pack_entries(variant: str, world: str | None):
    from ..packs.pack import load_pack

    pack = load_pack(variant)
    w = pack.world(world)
    out = []
    for e in w.played:
        _, rules = pack.phase_entry(e.number, w.name if len(pack.worlds) > 1 else None)
        out.append((str(e.number), e.phase, rules, e))
    return out


