"""The referee: a game of Phase 10 under a pack's rules, as immutable values.

``Game`` is the convenient face (``Game.new``, ``Game.from_log``, ``legal_moves``,
``apply``, ``to_log``); ``engine.apply`` and ``engine.legal_moves`` are the plain
functions under it (``actions``: what each move does; ``legal``: which moves may be made;
``checks``: the questions both ask).  Pure: no files, no terminal (``phasedsl.game.log``
reads and referees logs).
"""

from .engine import IllegalMove, apply, legal_moves
from .game import Game
from .moves import Abandon, Deal, Declare, Discard, Draw, Give, Hit, Lay, Move, Save, Stop, Swap
from .state import GameState, HandResult, Seat, Table
from .view import PlayerView, view

__all__ = ["Abandon", "Deal", "Declare", "Discard", "Draw", "Game", "GameState", "Give",
           "HandResult", "Hit", "IllegalMove", "Lay", "Move", "PlayerView", "Save", "Seat", "Stop", "Swap",
           "Table", "apply", "legal_moves", "view"]
