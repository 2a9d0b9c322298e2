"""What the bot tests share: every table the referee plays, a bot held to its moves, a game
between such bots."""

from phasedsl.design.simulate import playable_tables
from phasedsl.game import Game, view
from phasedsl.players.bots import make_bot

TABLES = playable_tables(3)


class Checked:
    """A bot whose every choice must be one of the moves it was shown."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, v):
        m = self.bot.choose(v)
        assert m in v.moves, (m, v.moves)
        return m


def play(table: str, kinds: list[str], seed: int, max_moves: int = 20_000) -> Game:
    """A seeded game at ``table`` (``pack`` or ``pack/world``) between the built-in bots
    ``kinds`` (one a seat), each held to its moves; stopped after ``max_moves``."""
    name, _, world = table.partition("/")
    names = ["ann", "bob", "cat", "dan"][:len(kinds)]
    g = Game.new(name, names, seed=seed, world=world or None)
    bots = {n: Checked(make_bot(k, seed + i)) for i, (n, k) in enumerate(zip(names, kinds, strict=True))}
    for _ in range(max_moves):
        if g.over:
            break
        g = g.apply(bots[g.state.to_move].choose(view(g.state, g.state.to_move)))
    return g
