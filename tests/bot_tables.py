"""What the bot tests share: every table the referee plays, and a bot held to its moves."""

from phasedsl.errors import PhaseDSLError
from phasedsl.game import Game
from phasedsl.packs import load_pack
from phasedsl.resources import variants_dir


def _tables():
    """Every built-in pack (each world of a pack with several) the referee plays."""
    out = []
    for path in sorted(variants_dir().glob("*.yaml")):
        pack = load_pack(path.stem)
        worlds = [w.name for w in pack.worlds] if len(pack.worlds) > 1 else [None]
        for w in worlds:
            try:
                Game.new(pack, ["ann", "bob", "cat"], world=w)
            except PhaseDSLError:
                continue  # a pack the referee refuses (lint says why)
            out.append(f"{path.stem}/{w}" if w else path.stem)
    return out


TABLES = _tables()


class Checked:
    """A bot whose every choice must be one of the moves it was shown."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, v):
        m = self.bot.choose(v)
        assert m in v.moves, (m, v.moves)
        return m
