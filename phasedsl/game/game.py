"""``Game``: a game state with the moves that made it, so that it can write its log.

``Game.to_log`` and ``Game.from_log`` write and read its record with ``log.py``, which
knows nothing of the ``Game``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path

from ..model.cards import Card
from ..packs.pack import Pack
from . import engine
from .log import log_lines, read_log
from .moves import Abandon, Draw, Hit, Lay, Move
from .state import GameState


def as_read(before: GameState, after: GameState, move: Lay | Hit) -> Lay | Hit:
    """``move`` as the log should record it: as the referee read it, so that the log says
    by itself what the engine meant.  A lay's groups in their reading order (a run low to
    high, so a card of a postal wild number played as a wild lies at the number it stands
    for), each wild stating what it stands for (``W=8``); a plain wild hit onto a run
    stating the number it took (and so the end).  Where the hand ended at once (nothing
    left on the table to read) the move is kept as made: it reads back the same."""
    if isinstance(move, Lay):
        seat = after.seat(move.player)
        if len(seat.laid) != len(move.groups) or after.hands_played != before.hands_played:
            return move
        return replace(move, groups=tuple(laid.group.cards for laid in seat.laid))
    if not (move.card.wild and move.card.number is None) or after.hands_played != \
            before.hands_played:
        return move
    old = before.seat(move.target).laid[move.group - 1].played
    new = after.seat(move.target).laid[move.group - 1].played
    if not new.group.kind.is_run:
        return move
    placed = placed_wild(old.cards, new.cards)
    return replace(move, card=Card(placed.number, move.card.color, wild=True))


def placed_wild(old: Sequence[Card], new: Sequence[Card]) -> Card:
    """The card a hit added to a run, ``new`` as read again: at one end, or, where the hit
    closed a wrapping run into the full circle (read again 1 to 12, not from where it
    started), the one card ``new`` holds that ``old`` did not."""
    if tuple(new[1:]) == tuple(old):
        return new[0]
    if tuple(new[:-1]) == tuple(old):
        return new[-1]
    added = Counter(new) - Counter(old)
    return next(iter(added)) if len(added) == 1 else new[-1]


@dataclass(frozen=True, slots=True)
class Game:
    state: GameState
    header: dict
    # The moves so far as a chain (earlier chain, last move): adding a move copies
    # nothing, so a game of thousands of moves is not quadratic.
    trail: tuple | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        out = []
        link = self.trail
        while link is not None:
            link, move = link
            out.append(move)
        return tuple(reversed(out))

    @classmethod
    def new(cls, pack: Pack | str, players: Sequence[str], dealer: str | None = None,
            seed: int | None = 0, world: str | None = None) -> Game:
        """A game dealt from a seeded shuffle (the same seed, the same cards).

        ``pack`` is a loaded ``Pack`` (pure) or a built-in name or file, loaded here.
        ``dealer`` defaults to the last player, so the first listed plays first."""
        from ..model.coerce import as_players, as_seed, as_world
        from ..packs.pack import as_pack
        from ..system.resources import variants_dir

        pack = as_pack(pack, "Game.new")
        players, world = as_players(players, "Game.new"), as_world(world, "Game.new")
        # (the log writes the seed, and reads a number of at most 4,000 digits back)
        seed = 0 if seed is None else as_seed(seed, "Game.new(seed=...)")
        table = engine.make_table(pack, players, world)
        dealer = dealer if dealer is not None else table.players[-1]
        state = engine.start(table, dealer, seed)
        builtin = pack.path is not None and Path(pack.path).parent == variants_dir()
        variant = pack.name if builtin or pack.path is None else str(pack.path)
        # the seed that dealt it: the log says how to deal the same game again
        header = {"type": "game", "variant": variant, "world": table.world,
                  "players": list(table.players), "dealer": dealer, "seed": seed}
        if not builtin:  # a pack of one's own travels with the log, so that it replays anywhere
            from ..packs.pack import pack_document

            header["pack"] = pack_document(pack)
        return cls(state, header)._deal_if_due()

    @classmethod
    def from_log(cls, lines: Iterable[str], base_dir: str | Path | None = None,
                 pack: Pack | str | None = None) -> Game:
        """Replay a log (its pack: ``pack``, a Pack or a built-in name or file, else the one
        its header names); raise LogError
        (unreadable) or IllegalMove (with ``line`` set).  ``lines``: the log's lines, or its
        whole text."""
        from itertools import islice

        from ..errors import ArgumentError
        from .log import MAX_EVENTS

        if isinstance(lines, str):
            lines = lines.splitlines()
        if not isinstance(lines, Iterable) or isinstance(lines, bytes | dict):
            raise ArgumentError("Game.from_log(lines=...)", "the log's lines (strings) or its "
                                "text", lines)
        if base_dir is not None and not isinstance(base_dir, str | PathLike):
            raise ArgumentError("Game.from_log(base_dir=...)", "the log's folder (a str or "
                                "Path), or None", base_dir)
        if pack is not None:  # (a name or a file, as Game.new takes, is loaded here)
            from ..packs.pack import as_pack

            pack = as_pack(pack, "Game.from_log")
        lines = list(islice(lines, MAX_EVENTS + 1))  # (read_log refuses a longer log)
        if not all(isinstance(x, str) for x in lines):
            raise ArgumentError("Game.from_log(lines=...)", "lines that are strings (a dict is "
                                "json.dumps'ed first)", next(x for x in lines
                                                             if not isinstance(x, str)))
        log = read_log(lines, base_dir, pack)
        header = {k: log.header.get(k) for k in ("type", "variant", "world", "players", "dealer")}
        if log.header.get("seed") is not None:  # (who dealt it: kept, not read)
            header["seed"] = log.header["seed"]
        game = cls(log.state, header)
        for ev in log.events:
            try:
                game = game.apply(ev.move)
            except engine.IllegalMove as e:
                e.line = ev.line
                raise
        return game

    def legal_moves(self) -> list[Move]:
        return engine.legal_moves(self.state)

    def apply(self, move: Move) -> Game:
        state = engine.apply(self.state, move)
        # The log names every card taken from the draw pile, also when the move let
        # the engine take the top card.
        if isinstance(move, Draw) and move.source != "discard" and move.card is None:
            move = Draw(move.player, move.source, state.drawn)  # (a Draw's every field)
        elif isinstance(move, Abandon) and move.cards is None:
            before = len(self.state.seat(move.player).hand)
            move = replace(move, cards=state.seat(move.player).hand[before:])
        elif isinstance(move, (Lay, Hit)):
            move = as_read(self.state, state, move)
        return Game(state, self.header, (self.trail, move))._deal_if_due()

    def _deal_if_due(self) -> Game:
        if self.state.pawns_due and self.state.seed is not None:
            # a board game played here: the hand's pawn moves, recorded (a log read in
            # records them itself)
            record = engine.legal_moves(self.state)[0]
            self = Game(engine.apply(self.state, record), self.header, (self.trail, record))
        if self.state.stage == "deal" and self.state.seed is not None:
            # the deal the referee lists, so that it is judged once
            deal = engine.legal_moves(self.state)[0]
            return Game(engine.apply(self.state, deal), self.header, (self.trail, deal))
        return self

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def to_log(self) -> list[str]:
        """The game log, one JSON object a line (see docs/game-log.md)."""
        return log_lines(self.header, self.moves)
