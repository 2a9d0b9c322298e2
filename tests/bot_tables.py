"""What the bot tests share: every table the referee plays, and a bot held to its moves."""

from phasedsl.simulate import playable_tables

TABLES = playable_tables(3)


class Checked:
    """A bot whose every choice must be one of the moves it was shown."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, v):
        m = self.bot.choose(v)
        assert m in v.moves, (m, v.moves)
        return m
