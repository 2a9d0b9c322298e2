"""``phasedsl generate``: write a new pack whose phases rise in difficulty."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Annotated

import typer

from ..errors import PhaseDSLError
from ..system.outfiles import check_target, write_text
from .common import ForceOpt, JobsOpt, JsonOpt, a_number, a_path, progress_bar

_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def generate(
    phases: Annotated[int | None, typer.Option(
        "--phases", "-p", min=2, max=30, metavar="N",
        help="Phases in the pack (in each world); needed unless --from.")] = None,
    source: Annotated[str | None, typer.Option(
        "--from", metavar="PACK",
        help="Improve this pack instead (a built-in name or a .yaml file): what balance "
             "passes is kept; what it flags is moved, or replaced by new phrases of the "
             "pack's kinds (or --kinds), and each change is said.")] = None,
    world: Annotated[str | None, typer.Option(
        "--world", "-w", metavar="WORLD",
        help="With --from, for packs with several phase lists: the one to improve.")] = None,
    kinds: Annotated[list[str] | None, typer.Option(
        "--kinds", "-k", metavar="KINDS",
        help="Group kinds the phases may use, comma-separated or the option repeated: set, "
             "run, color_run, color, even_odd, color_even_odd, color_set (the default: the "
             "printed game's), sum, color_sum, pair_run, color_pair_run, over, under, and "
             "wrap (runs wrap around from 12 to 1).")] = None,
    hand_size: Annotated[int, typer.Option("--hand-size", min=5, max=20, metavar="H",
                                           help="Cards dealt; every phase fits a dealt hand.")] = 10,
    players: Annotated[int, typer.Option("--players", "-n", min=2, max=6, metavar="P",
                                         help="Players at the table the pack is played at.")] = 4,
    length: Annotated[float | None, typer.Option(
        "--length", min=1, max=500, metavar="HANDS", callback=a_number,
        help="Aim for games of about this many hands (mean, at --players).")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="S",
                                      help="Seed of the search: the same seed, the same pack.")] = 1,
    worlds: Annotated[int, typer.Option("--worlds", min=1, max=20, metavar="K",
                                        help="Write K worlds of N phases each.")] = 1,
    include: Annotated[list[str] | None, typer.Option(
        "--include", metavar="PHRASE",
        help="A phase the pack must hold (in every world, at its place by difficulty); the "
             "option repeated for several.")] = None,
    pin: Annotated[list[str] | None, typer.Option(
        "--pin", metavar="N=PHRASE",
        help="A phase the pack must hold at place N (in every world); the option repeated "
             "for several.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", metavar="KIND|PHRASE",
        help="A group kind no phase may use (several: comma-separated), or a phase the "
             "pack must not hold; the option repeated for several.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE",
                                                parser=a_path,
                                                help="The .yaml file to write (default: print "
                                                     "the pack).")] = None,
    force: ForceOpt = False,
    jobs: JobsOpt = 0,
    as_json: JsonOpt = False,
) -> None:
    """Write a new pack whose phases rise in difficulty, each phase's dealt chance beside it.

    Phrases of the kinds asked for are read by the DSL and kept where lint has nothing to
    say; a seeded sample is ranked by a fast sampled chance, a ladder of them is played by
    greedy bots, and the phases are put in the order of the share of attempts that
    complete them, played again until no phase is easier than the one before (the rule
    `balance` flags by, in the games balance plays at its defaults: the pack passes
    `phasedsl balance FILE`, or each flag left is said). The pack's name is the file's
    name. An existing FILE is replaced only with --force.

    With --from PACK, the pack is improved instead: balance measures it; with no phase
    flagged nothing is written; where balance's proposed order removes every flag, the
    phases are moved; otherwise each phase balance passes is held at its place and the
    flagged ones are replaced by new phrases settled in play the same way. -o writes the
    improved pack (its comments kept), else the changes are printed.

    Examples:

        phasedsl generate --phases 10 --seed 1 -o mine.yaml

        phasedsl generate --phases 5 --kinds set,run --length 9 --players 3

        phasedsl generate --from my-pack.yaml -o my-pack-improved.yaml
    """
    from ..design.generate import generate as make
    from ..design.generate import pack_yaml, parse_kinds, to_json

    if source is not None:
        not_with = [opt for opt, given in (("--phases", phases), ("--length", length),
                                            ("--worlds", worlds != 1), ("--include", include),
                                            ("--pin", pin), ("--exclude", exclude),
                                            ("--hand-size", hand_size != 10)) if given]
        if not_with:
            raise PhaseDSLError(f"--from improves a pack as it is: {', '.join(not_with)} "
                                "does not go with it")
        _improve(source, world, kinds and parse_kinds(kinds), players, seed, jobs, output,
                 force, as_json)
        return
    if phases is None:
        raise PhaseDSLError("--phases N: how many phases the new pack holds (or --from PACK "
                            "to improve a pack)")
    if world is not None:
        raise PhaseDSLError("--world goes with --from (generate --worlds K writes K worlds)")

    # (bad input raises PhaseDSLError: the command group prints it, in JSON with --json)
    name = "generated"
    if output is not None:
        if output.suffix.lower() not in (".yaml", ".yml"):
            raise PhaseDSLError(f"-o: a pack is a .yaml file, not {output.name[:60]!r}")
        if not _NAME.fullmatch(output.stem):
            raise PhaseDSLError(
                f"-o: the pack's name is its file's name, and {output.stem[:60]!r} is not a "
                "pack name (lowercase letters, digits and dashes, e.g. mine.yaml)")
        check_target(output, force)
        name = output.stem
    asked = parse_kinds(kinds)
    argv = _argv(phases, kinds and ",".join(asked), hand_size, players, length, seed, worlds,
                 output, include or [], exclude or [], pin or [])
    with progress_bar(as_json, "generating", 1) as bar:
        tick = bar and (lambda stage, done, total: bar(description=stage, completed=done,
                                                       total=total))
        gen = make(phases, asked, hand_size, players, length, seed, worlds, jobs, name=name,
                   argv=argv, progress=tick, include=include or (), exclude=exclude or (),
                   pin=pin or ())
    text = pack_yaml(gen)
    size = write_text(output, text, force) if output is not None else None
    if as_json:
        out = to_json(gen)
        out.update({"path": str(output), "bytes": size} if output is not None else {"yaml": text})
        typer.echo(json.dumps(out))
    elif output is None:
        typer.echo(text, nl=False)
    else:
        from ..design.generate import length_words

        typer.echo(f"wrote {output} ({size:,} bytes): {phases} phases"
             + (f" in each of {worlds} worlds" if worlds > 1 else ""))
        for w in gen.worlds:
            typer.echo(f"  {w.title + ': ' if worlds > 1 else ''}{length_words(gen, w)}")
    if not as_json:
        _say_flags(gen, output is not None)


def _improve(source: str, world: str | None, kinds, players: int, seed: int, jobs: int,
             output: Path | None, force: bool, as_json: bool) -> None:
    """``generate --from``: the pack improved, written to ``output`` or its changes said."""
    from ..design.improve import improve
    from ..design.reorder import check_writable, write_reordered
    from ..packs.pack import load_pack

    pack = load_pack(source)
    if world is None and len(pack.worlds) > 1:
        raise PhaseDSLError(f"{pack.name} has {len(pack.worlds)} phase lists: --world names "
                            "the one to improve (" + ", ".join(w.name for w in pack.worlds)
                            + ")")
    if world is not None:
        pack.world(world)
    if output is not None:
        check_target(output, force)
        check_writable(pack, output)
    with progress_bar(as_json, "improving", 1) as bar:
        tick = bar and (lambda stage, done, total: bar(description=stage, completed=done,
                                                       total=total))
        got = improve(pack, world, kinds, seed, jobs, players=players, progress=tick)
    written = None
    if output is not None and got.how != "nothing":
        made_by = " ".join(["phasedsl generate --from", source,
                            *(["--world", world] if world else []),
                            *(["--kinds", ",".join(kinds)] if kinds else []),
                            "--seed", str(seed), "-o", output.name])
        key = got.world
        written = write_reordered(pack, {key: got.order}, output, force, made_by,
                                  {key: got.replaced})
    if as_json:
        out = got.to_json() | {"pack": pack.name}
        if output is not None:
            out["written"] = ({"path": str(output), "bytes": written["bytes"]} if written
                              else {"path": str(output), "written": False,
                                    "reason": "no change is proposed"})
        typer.echo(json.dumps(out))
        return
    b = got.before
    head = f"{pack.name}" + (f" / {got.world}" if got.world else "")
    if got.how == "nothing":
        typer.echo(f"{head}: balance flags no phase ({b.current.games} games): nothing to "
                   "change" + (f"; maybe: {', '.join(map(str, b.current.maybe))} (balance "
                               "--settle measures them)" if b.current.maybe else "")
                   + ("; nothing written" if output is not None else ""))
        return
    flagged = ", ".join(map(str, b.current.flagged))
    maybe = ", ".join(map(str, got.maybe))
    how = {"moved": "the flagged phases moved up to where they fit removes every flag",
           "reordered": "balance's proposed order removes every flag (moving the flagged "
                        "phases alone did not)",
           "replaced": "no order of its phases removes every flag: the flagged ones "
                       "replaced"}[got.how]
    if maybe:
        how += f" (maybe: {maybe}, marked ? by balance)"
    typer.echo(f"{head}: balance flags {flagged} ({b.current.games} games); {how}")
    for line in got.changes():
        typer.echo(f"  {line}")
    for line in got.flags:
        typer.echo(f"warning: still, {line}", err=True)
    if written is not None:
        typer.echo(f"wrote {output} ({written['bytes']:,} bytes)")


def _say_flags(gen, wrote: bool) -> None:
    """The order passes the balance command it was settled with, or why not (stderr)."""
    from ..design.generate import ROUNDS, balance_command, failing

    for w in gen.worlds:
        if w.not_harder:
            typer.echo(f"warning: {w.not_harder}", err=True)
    flagged = [(w, line) for w in gen.worlds for line in w.flags]
    if not flagged:
        if wrote:
            typer.echo(f"  the order passes `{balance_command(gen)}` (its games settled it)")
        return
    for w, line in flagged:
        where = f"{w.title}: " if len(gen.worlds) > 1 else ""
        typer.echo(f"warning: {where}under `{balance_command(gen)}`, {line}", err=True)
    if any(failing(w.rungs) for w in gen.worlds):
        typer.echo(f"warning: no order of these phrases found in {ROUNDS} rounds of play passes "
                   "it; the least flagged one is written", err=True)
    else:
        typer.echo("warning: it passes (no phase flagged), but not every step is settled in "
                   f"{gen.games} games", err=True)


def _argv(phases, kinds, hand_size, players, length, seed, worlds, output, include, exclude,
          pin) -> str:
    """The command that makes this pack again (the options that differ from the defaults)."""
    words = ["phasedsl generate", f"--phases {phases}"]
    words += [f"--kinds {kinds}"] if kinds else []
    words += [f"--hand-size {hand_size}"] if hand_size != 10 else []
    words += [f"--players {players}"] if players != 4 else []
    words += [f"--length {length:g}"] if length is not None else []
    words += [f"--seed {seed}"]
    words += [f"--worlds {worlds}"] if worlds != 1 else []
    words += [f"--include {shlex.quote(t)}" for t in include]
    words += [f"--exclude {shlex.quote(t)}" for t in exclude]
    words += [f"--pin {shlex.quote(t)}" for t in pin]
    words += [f"-o {output.name}"] if output is not None else []
    return " ".join(words)


