"""``phasedsl conformance``: export the vectors, run a program over them, be that program."""

from __future__ import annotations

import sys
from difflib import get_close_matches
from typing import Annotated

import typer

from ..errors import PhaseDSLError
from .common import ForceOpt, JsonOpt, a_number, progress_bar, say


def export_cmd(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="The folder to write (made if "
                                                               "missing).")],
    force: ForceOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Write DIR/<area>.json for every area and DIR/README.md (the same bytes every time).

    Example:

        phasedsl conformance export vectors/
    """
    import json

    from ..conformance import export

    # The package's copy is written (a moment); only where it is missing are the cases made
    # afresh (about a minute), with a bar on a terminal, case by case.
    shown = not as_json and sys.stderr.isatty()
    with progress_bar(not shown, "exporting the cases", None) as bar:
        tick = bar and (lambda case_id: bar(advance=1, description=f"exporting "
                                                                   f"{case_id.split('-')[0]}"))
        counts = export(folder, force, tick, shipped=True)
    if as_json:
        say(json.dumps({"folder": folder, "cases": counts, "total": sum(counts.values())}))
    else:
        for area, n in counts.items():
            say(f"{area:<8} {n:>5} cases")
        say(f"wrote {sum(counts.values())} cases to {folder}")


def conformance_group() -> None:
    """Phase 10's rules as test vectors: export them, run another implementation over them
    (phasedsl docs conformance).

    Examples:

    $ phasedsl conformance export vectors/

    $ phasedsl conformance run -- phasedsl conformance adapter
    """


def _words(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [w.strip() for v in values for w in v.split(",") if w.strip()]


def run_cmd(
    command: Annotated[list[str] | None, typer.Argument(
        metavar="-- COMMAND ...", help="The program to run, after '--', with its arguments.",
        show_default=False)] = None,
    area: Annotated[list[str] | None, typer.Option(
        "--area", "-a", metavar="AREA", help="Only this area (repeat, or join with commas).")] = None,
    features: Annotated[str | None, typer.Option(
        "--features", "-f", metavar="F,...",
        help="The features the program supports: only cases needing none other run "
             "('' for the printed rules only).")] = None,
    vectors: Annotated[str | None, typer.Option(
        "--vectors", metavar="DIR", help="Vectors exported to DIR (default: those shipped "
                                          "with phasedsl).")] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0.01, max=3600, metavar="SECONDS",
                                           callback=a_number,
                                           help="Seconds to wait for each answer.")] = 10.0,
    startup: Annotated[float, typer.Option(
        "--startup", min=0, max=3600, metavar="SECONDS", callback=a_number,
        help="Seconds more for the program's first answer: its start-up (an interpreter, "
             "an engine loading).")] = 30.0,
    show: Annotated[int, typer.Option(
        "--show", min=0, metavar="N",
        help="Failures shown in full (any number); the rest are counted, and --json lists "
             "every failed id.")] = 5,
    level: Annotated[str, typer.Option(
        "--level", metavar="LEVEL",
        help="What is compared: 'full' (the whole answer) or 'verdict' (only made, legal, "
             "reads, hits and points, for engines that answer yes or no).")] = "full",
    assume: Annotated[list[str] | None, typer.Option(
        "--assume", metavar="KEY=VALUE",
        help="A rule value the program plays by (repeatable; keys as in a case's rules, "
             "e.g. wilds.natural_minimum=0): cases whose rules differ are skipped and "
             "counted, not failed.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run COMMAND over the cases: one JSON line per case on its stdin, one answer back.

    Examples:

        phasedsl conformance run -- phasedsl conformance adapter

        phasedsl conformance run --area scoring -- node adapter.js

        phasedsl conformance run --features extras,wild_numbers -- ./my-engine --conformance

        phasedsl conformance run --level verdict -- ./my-engine

        phasedsl conformance run --assume wilds.natural_minimum=0 -- ./my-engine

    Exit 0 when every case run passed (or was declared unsupported), 1 when one failed,
    2 on bad usage.
    """
    import json

    from ..conformance import (
        AREAS,
        assumed,
        load,
        report_json,
        report_text,
        rule_features,
        run,
        select,
        set_aside,
    )

    if not command:
        raise PhaseDSLError("give the program to run after '--', like: phasedsl conformance "
                            "run -- phasedsl conformance adapter")
    areas = _words(area)
    for a in areas or ():
        if a not in AREAS:
            hint = get_close_matches(a, AREAS, 1)
            raise PhaseDSLError(f"--area: no area {a!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
                                + f"; the areas are {', '.join(AREAS)}")
    declared = assumed(assume or [])  # (bad usage is said before the vectors are read)
    cases = load(vectors)
    wanted = None if features is None else set(_words([features]) or [])
    if wanted:
        # any rule's feature name is known (a program may support one no case needs yet)
        known = rule_features() | {f for listed in cases.values() for c in listed
                                   for f in c["features"]}
        for f in sorted(wanted - known):
            hint = get_close_matches(f, sorted(known), 1)
            raise PhaseDSLError(f"--features: no feature {f!r}"
                                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                                + f"; the features are {', '.join(sorted(known))}")
    if wanted is not None and not wanted:
        wanted = set()
    chosen, skipped = set_aside(select(cases, areas, wanted), declared)
    if not chosen:
        raise PhaseDSLError("no case is selected by --area and --features"
                            + (" whose rules agree with --assume" if skipped else ""))
    report = run(chosen, command, timeout, level=level, startup=startup)
    report.assumed, report.skipped = declared, skipped
    if as_json:
        say(json.dumps(report_json(report, show)))
    else:
        say(report_text(report, show))
    raise typer.Exit(0 if report.ok else 1)


def adapter_cmd() -> None:
    """phasedsl answering the runner's protocol on stdin/stdout (the model adapter).

    Example:

        phasedsl conformance run -- phasedsl conformance adapter
    """
    from ..conformance import serve

    serve(sys.stdin, sys.stdout)
