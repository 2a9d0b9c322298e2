"""How a command is told its pack: the first argument of a command about a pack, the older
--variant spelling beside it, the choice of a world, and shell completion of both names."""

from __future__ import annotations

import contextlib
import os
from typing import Annotated

import typer

from ..errors import PhaseDSLError, quoted

# --variant's older short name: still read everywhere, offered nowhere (tools mean
# "verbose" by -v).
HIDDEN_SHORT = "-v"


def complete_pack(incomplete: str) -> list[str]:
    """Shell completion of a pack: the built-in names, and the pack files of the current
    folder, that start with what is typed."""
    from ..packs.pack import builtin_names

    names = builtin_names()
    with contextlib.suppress(OSError):
        names += sorted(f.name for f in os.scandir(".")
                        if f.name.endswith((".yaml", ".yml")) and f.is_file())
    return [n for n in names if n.startswith(incomplete)]


def complete_world(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of --world: the worlds of the pack already on the line, or of
    every built-in pack when none is (or it cannot be read)."""
    from ..packs.pack import builtin_names, load_pack

    ref = ctx.params.get("pack_arg") or ctx.params.get("variant")
    if ref is None and "pack_arg" in ctx.params and ctx.args:
        # (completing an option's value, Click leaves the arguments before it unread)
        ref = ctx.args[0]
    names: list[str] = []
    for name in [ref] if ref else builtin_names():
        with contextlib.suppress(PhaseDSLError):
            worlds = load_pack(name).worlds
            names += [w.name for w in worlds if len(worlds) > 1]
    return [n for n in dict.fromkeys(names) if n.startswith(incomplete)]


# A command whose subject is a pack (show, simulate, play ...) takes it as its first
# argument; --variant (and --pack, -v), the older spelling, is still read but not shown.
PackArg = Annotated[str | None, typer.Argument(
    metavar="PACK", help="A built-in pack name (see 'phasedsl list') or a pack file.",
    autocompletion=complete_pack, show_default=False)]
# play and tournament play the printed game when no pack is named
OriginalPackArg = Annotated[str | None, typer.Argument(
    metavar="[PACK]", help="A built-in pack name (see 'phasedsl list') or a pack file "
                           "(default: original).",
    autocompletion=complete_pack, show_default=False)]
PackAlias = Annotated[str | None, typer.Option(
    "--variant", "--pack", "-v", metavar="PACK", hidden=True, autocompletion=complete_pack,
    help="The pack, as PACK names it (the older spelling).")]


def one_world(pack, world: str | None) -> None:
    """A game is played in one world: a pack of several given no --world is refused with
    their names, so that the next command can be typed from this answer."""
    if world is None and len(pack.worlds) > 1:
        import textwrap

        names = textwrap.wrap(", ".join(w.name for w in pack.worlds), 78, initial_indent="  ",
                              subsequent_indent="  ", break_on_hyphens=False)
        raise PhaseDSLError("\n".join([f"pack {quoted(pack.name, 30)} has several worlds; "
                                       "choose one with --world:", *names]))


def chosen_pack(pack: str | None, variant: str | None, default: str | None = None) -> str:
    """The pack a command of a pack is about: its first argument, or the --variant of the
    older spelling (both: they must name the same pack), or ``default``."""
    if pack is not None and variant is not None and pack != variant:
        raise PhaseDSLError(f"the pack is named twice, {quoted(pack, 30)} and --variant "
                            f"{quoted(variant, 30)}: name it once, as the first argument")
    got = pack if pack is not None else variant if variant is not None else default
    if got is None:
        raise PhaseDSLError("give a pack as the first argument: a built-in name (see "
                            "'phasedsl list') or a .yaml file")
    return got
