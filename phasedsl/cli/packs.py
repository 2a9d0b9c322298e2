"""The pack commands: validate, lint, list, show and schema."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .. import api
from ..errors import PhaseDSLError
from .common import (
    JsonOpt,
    say,
)
from .naming import PackAlias, PackArg, chosen_pack, complete_pack, complete_world

# --------------------------------------------------------------------------- packs


def validate(
    files: Annotated[list[str], typer.Argument(help="Pack files (or built-in pack names).",
                                               autocompletion=complete_pack)],
    strict: Annotated[bool, typer.Option("--strict", help="Also report lint warnings.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check variant packs: YAML, schema and every phase; report every problem at once.

    Examples:

        phasedsl validate original twist my-house-rules.yaml

        phasedsl validate my-house-rules.yaml --json

    Exit code 0 clean, 1 problems found, 2 unusable input.
    """
    _report(files, strict, as_json)


def lint(
    files: Annotated[list[str], typer.Argument(help="Pack files (or built-in pack names).",
                                               autocompletion=complete_pack)],
    as_json: JsonOpt = False,
) -> None:
    """Validate packs and warn about what is legal but surely wrong (same as validate --strict).

    Examples:

        phasedsl lint my-house-rules.yaml

        phasedsl lint original twist --json

    Exit code 0 clean, 1 problems or warnings found, 2 unusable input.
    """
    _report(files, True, as_json)


def _report(files: list[str], strict: bool, as_json: bool) -> None:
    from ..packs.pack import Diagnostic, check_file

    found = []
    unusable = 0
    for f in files:
        try:
            _pack, diags = check_file(f, strict=strict)
        except PhaseDSLError as e:
            unusable += 1
            # a problem of no file (a name that is no pack) is said of the argument
            diags = [d if getattr(d, "path", None) else Diagnostic(f, None, None, str(
                getattr(d, "message", d))) for d in getattr(e, "problems", None) or [e]]
        found += diags
    code = 2 if unusable else 1 if found else 0
    errors = sum(1 for d in found if getattr(d, "severity", "error") == "error")
    summary = (f"{api.plural(len(files), 'file')}: {api.plural(errors, 'error')}, "
               f"{api.plural(len(found) - errors, 'warning')}")
    if as_json:
        out: dict = {"problems": [d.to_json() if hasattr(d, "to_json") else {"message": d}
                                  for d in found], "exit": code}
        if unusable:
            out["error"] = f"{api.plural(unusable, 'file')} of {len(files)} could not be used"
        say(json.dumps(out))
    else:
        for d in found:
            say(str(d))
        typer.echo(summary, err=True)
    raise typer.Exit(code)


def list_packs(as_json: JsonOpt = False) -> None:
    """List the built-in packs and their worlds.

    Examples:

        phasedsl list

        phasedsl list --json

    Exit code 0.
    """
    from ..packs.pack import builtin_names, load_pack

    rows = []
    for name in builtin_names():
        pack = load_pack(name)
        rows.append({"name": pack.name, "title": pack.title, "extends": pack.extends,
                     "game": "dice" if pack.dice is not None else "cards",
                     "worlds": [{"name": w.name, "title": w.title, "phases": len(w.phases)}
                                for w in pack.worlds]})
    if as_json:
        say(json.dumps(rows))
        return
    cells = []
    for r in rows:
        said = ([f"extends {r['extends']}"] if r["extends"] else []) + (
            ["dice"] if r["game"] == "dice" else [])
        cells.append([r["name"], r["title"] + (f" ({', '.join(said)})" if said else "")])
        if len(r["worlds"]) > 1:
            cells += [["  " + w["name"], f"{w['title']} ({api.plural(w['phases'], 'phase')})"]
                      for w in r["worlds"]]
    for line in api.table(cells, "<<", flex=1):
        say(line)


def show(
    pack_arg: PackArg = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD", autocompletion=complete_world,
        help="For packs with several phase lists: show only this one.")] = None,
    as_json: JsonOpt = False,
    variant: PackAlias = None,
) -> None:
    """Show a pack: its phases and the rules that differ from the printed rules.

    Examples:

        phasedsl show original

        phasedsl show world-tour --world jazz-club --json

    Exit code 0, or 2 when the pack cannot be loaded.
    """
    from ..packs.pack import board_document, describe_rules, dice_document, load_pack

    pack = load_pack(chosen_pack(pack_arg, variant))
    worlds = [pack.world(world)] if world is not None else list(pack.worlds)
    if as_json:
        say(json.dumps({
            "name": pack.name, "title": pack.title, "description": pack.description,
            "source": pack.source, "extends": pack.extends,
            "rules_changed": dict(describe_rules(pack.settings)),
            "dice": None if pack.dice is None else dice_document(pack.dice),
            "board": None if pack.board is None else board_document(pack.board),
            "worlds": [{"name": w.name, "title": w.title, "note": w.note,
                        "rules_changed": dict(describe_rules(w.settings)),
                        "phases": [{"number": e.number, "canonical": e.phase.canonical(w.rules.deck),
                                    "cards_needed": e.phase.cards_needed, "name": e.name,
                                    "note": e.note} for e in w.phases]} for w in worlds],
        }, default=str))
        return
    say(f"{pack.title} [{pack.name}]")
    say(_wrap(pack.description))
    say(_wrap(f"source: {pack.source}", "        "))
    if pack.dice is not None:
        d = pack.dice
        say(_wrap(f"dice: {d.describe()}; {d.rolls} rolls a turn; +{d.scoring.five_phase_bonus} "
                  f"when the total after phase 5 is over {d.scoring.five_phase_over}, "
                  f"+{d.scoring.first_finish_bonus} to the first to finish", "      "))
    if pack.board is not None:
        _say_board(pack.board, pack.worlds[0])
    for w in worlds:
        say("")
        if len(pack.worlds) > 1:
            say(f"== {w.title} [{w.name}]")
        if w.note and len(pack.worlds) > 1:  # (a one-list pack's note is the pack's)
            say(_wrap(f"note: {w.note}", "      "))
        cells: list = [["#", "dice" if pack.dice is not None else "cards", "phase"]]
        for e in w.phases:
            name = f" ({e.name})" if e.name else ""
            cells.append([str(e.number), str(e.phase.cards_needed), e.phase.canonical(w.rules.deck) + name])
            if e.note:
                cells.append(_wrap(f"note: {e.note}", "          ", "    "))
        for line in api.table(cells, ">><", flex=2):
            say(line)
        changed = describe_rules(w.settings)
        say("rules that differ from the printed rules:" + ("" if changed else " none"))
        for key, value in changed:
            say(_wrap(f"{key}: {json.dumps(value)}", "      ", "  "))


def _say_board(board, world) -> None:
    m = board.moves
    say("")
    say(f"board: {len(board.spaces)} spaces, a pawn on each player's start")
    for line in board.track(tuple(e.phase for e in world.played)):
        say(line)
    say(_wrap(f"moves after a hand: {m.made_out} made and out, {m.made} made, {m.missed} "
              f"missed; on a twist card {m.twist_made_out} / {m.twist_made} / "
              f"{m.twist_missed}; " + ("a pawn on the start moves only when its phase is made"
                                       if board.start_needs_phase else
                                       "a pawn always moves on a miss") + f"; "
              f"{board.discard_piles} discard pile{'s' * (board.discard_piles > 1)}; skips "
              + ("placed in front of the player skipped" if board.skip_placement == "in_front"
                 else "discarded"), "  "))
    if board.twist_phases:
        say("twist deck:")
        for i, p in enumerate(board.twist_phases, 1):
            say(f"{i:>3}. {p}")


def _wrap(text: str, indent: str = "", first: str = "") -> str:
    """Text wrapped to the width the tables fit, each line break kept."""
    return "\n".join("\n".join(api.wrap(line, api.WIDTH, first, indent))
                     for line in text.strip().splitlines())


def schema_cmd(as_json: JsonOpt = False) -> None:
    """Print the JSON Schema of the pack format (for editors and other tools); it is JSON already.

    Examples:

        phasedsl schema > pack.schema.json

        phasedsl schema --json

    Exit code 0.
    """
    from ..system.resources import schema_path

    say(schema_path().read_text(encoding="utf-8").rstrip())
