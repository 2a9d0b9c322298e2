"""A game against bots in the browser: the referee's state kept in memory by id, the bots
moving until it is the person's turn, the person's move given as ``play``'s command
text (or picked from the legal moves listed), the screen ``play`` shows.

A few games at most are kept (the oldest is dropped first): the server holds no record;
a person who wants one plays ``phasedsl play --log`` at the terminal.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from ..errors import PhaseDSLError

MAX_GAMES = 16
PLAYER = "you"
BOTS = ("ann", "bob", "cat", "dan", "eve")


class Games:
    """The games being played, by id (thread-safe: requests are answered in threads)."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, dict] = OrderedDict()
        self.lock = threading.Lock()

    def new(self, pack_name: str | None, players: int, seed: int | None = None) -> dict:
        from ..game import Game
        from ..players.botspec import as_spec, build
        from .answers import builtin

        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
            raise PhaseDSLError("players: 2 to 6")
        pack = builtin("original" if pack_name is None else pack_name)
        name = pack.name
        if pack.dice is not None:
            raise PhaseDSLError(f"{name} is a dice pack: phasedsl play plays it at the "
                                "terminal")
        seed = secrets.randbits(32) if seed is None else seed
        names = [PLAYER, *BOTS[:players - 1]]
        game = Game.new(pack, names, seed=seed, world=pack.worlds[0].name
                        if len(pack.worlds) > 1 else None)
        bots = {n: build(as_spec("greedy"), seed + k) for k, n in enumerate(names) if k}
        key = secrets.token_urlsafe(12)
        with self.lock:
            self.games[key] = {"game": game, "bots": bots, "said": [],
                               "lock": threading.Lock()}
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
        return self.advance(key)

    def _get(self, key: str) -> dict:
        with self.lock:
            got = self.games.get(key)
        if got is None:
            raise PhaseDSLError("no such game here (games are kept in memory, a few at most): "
                                "start a new one")
        return got

    def advance(self, key: str) -> dict:
        """The bots' moves until it is the person's turn or the game is over; the state."""
        from ..game import legal_moves, view
        from ..players.play import describe

        entry = self._get(key)
        game, said = entry["game"], entry["said"]
        for _ in range(5_000):
            if game.over:
                break
            state = game.state
            legal = legal_moves(state)
            who = state.to_move
            if who == PLAYER and len(legal) > 1:
                break
            move = legal[0] if len(legal) == 1 else entry["bots"][who].choose(view(state, who))
            said.append(describe(move, state, PLAYER))
            game = game.apply(move)
        entry["game"] = game
        del said[:-40]
        return self.state(key)

    def state(self, key: str) -> dict:
        from ..game import legal_moves, view
        from ..players.play import command_text, screen

        entry = self._get(key)
        game = entry["game"]
        state = game.state
        mine = not game.over and state.to_move == PLAYER
        moves = [command_text(m) for m in legal_moves(state)] if mine else []
        return {"id": key, "over": game.over, "winner": state.winner,
                "screen": screen(view(state, PLAYER)), "moves": moves,
                "said": list(entry["said"][-12:]),
                "scores": {s.name: s.total for s in state.seats}}

    def move(self, key: str, command: str) -> dict:
        """The person's move, as ``play``'s command text; then the bots'."""
        from ..players.play import parse_command

        entry = self._get(key)
        # one move of a game at a time: two requests at once (a double click, two tabs)
        # would both be made on the same state, one of them lost, the bots' turns told twice
        if not entry["lock"].acquire(blocking=False):
            raise PhaseDSLError("a move of this game is being made; wait for its answer")
        try:
            game = entry["game"]
            if game.over or game.state.to_move != PLAYER:
                raise PhaseDSLError("it is not your move")
            if not isinstance(command, str) or len(command) > 500:
                raise PhaseDSLError("a move: play's command text, such as 'draw deck'")
            move = parse_command(command, PLAYER, game.state.table.rules.deck)
            if isinstance(move, str):
                raise PhaseDSLError(f"{command!r} is a terminal command; here, give a move")
            from ..players.play import describe

            # (judged first: an illegal move raises IllegalMove, said as such, and is never
            # told as made; described from the state it was made in)
            entry["game"] = game.apply(move)
            entry["said"].append(describe(move, game.state, PLAYER))
            return self.advance(key)
        finally:
            entry["lock"].release()
