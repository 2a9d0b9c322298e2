"""The game as an immutable value: the table (pack, players, phases) and the hand in play.

``Table`` is fixed for a whole game (the pack's rules read once); ``Seat`` is one
player; ``GameState`` is everything else.  The engine makes new states with ``replace``
(below); nothing here changes in place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..model.board import Attempt, Board
from ..model.cards import Card, Deck
from ..model.meld import LaidGroup
from ..model.phase import Phase
from ..model.rules import Rules
from ..packs.pack import Pack, PhaseEntry

# The attribute under which a value here keeps what was worked out from it (a state:
# the moves ``judged`` listed for it; a seat: how others see it, ``view``): not a field,
# so it takes no part in equality, and ``replace`` leaves it behind.
MEMO = "_memo"


def replace(value, **changes):
    """``dataclasses.replace`` for the frozen values here, without a call to ``__init__``
    (the referee makes tens of thousands of states a game; the fields need no checks).
    ``GameState`` and ``Seat`` keep a ``__dict__`` (no slots) so that this is a copy of it."""
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.pop(MEMO, None)  # (worked out from the old value, not the new)
    for name, v in changes.items():
        if name not in fields:  # (every field is there: ``__init__`` set them all)
            raise TypeError(f"{type(value).__name__} has no field {name!r}")
        fields[name] = v
    return new


def _without_memo(value) -> dict:
    """A value's fields as pickle and ``copy`` take them: what was worked out from it (its
    memo) stays behind (it is made again where needed, and would carry whole states)."""
    return {k: v for k, v in value.__dict__.items() if k != MEMO}


Stage = Literal["deal", "choose_up", "declare", "turn", "over"]
Step = Literal["draw", "play", "recipient_discard"]


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The pack's game rules (``phase_order``, ``game_length``, ``house_rules.*``), typed."""

    phase_order: str = "in_order"
    game_length: int = 10
    floating: bool = False
    go_out_without_discard: bool = False
    dealer_chooses: bool = False
    anti_phase: bool = False
    anti_phase_for_others: bool = False
    skip_target: str = "choose"
    skip_once_per_round: bool = True
    hit_same_turn: bool = True
    go_out_after_first_round: bool = False
    save_pile: bool = False
    declare_phase: str = "never"
    abandon_phase: bool = False
    everyone_advances: bool = False
    fixed_hands: int | None = None
    tie_break: str = "lowest_score_then_replay"
    tie_break_phase: str | None = None
    wild_points_in_phase: bool = False
    wild_steal_penalty: int | None = None
    wild_reuse_same_turn: bool = False
    skip_counts_as_blue: bool = False
    baseball_short_game: bool = False

    @classmethod
    def from_settings(cls, settings: dict) -> HouseRules:
        hr = settings.get("house_rules") or {}
        return cls(
            phase_order=settings.get("phase_order", "in_order"),
            game_length=settings.get("game_length", 10),
            floating=hr.get("floating", False),
            go_out_without_discard=hr.get("go_out_without_discard", False),
            dealer_chooses=hr.get("dealer_chooses_wild_recipient", False),
            anti_phase=hr.get("anti_phase", False),
            anti_phase_for_others=hr.get("anti_phase_for_others", False),
            skip_target=hr.get("skip_target", "choose"),
            skip_once_per_round=hr.get("skip_once_per_round", True),
            hit_same_turn=hr.get("hit_same_turn", True),
            go_out_after_first_round=hr.get("go_out_after_first_round", False),
            save_pile=hr.get("save_pile", False),
            declare_phase=hr.get("declare_phase", "never"),
            abandon_phase=hr.get("abandon_phase", False),
            everyone_advances=hr.get("everyone_advances", False),
            fixed_hands=hr.get("fixed_hands"),
            tie_break=hr.get("tie_break", "lowest_score_then_replay"),
            tie_break_phase=hr.get("tie_break_phase"),
            wild_points_in_phase=hr.get("wild_points_in_phase", False),
            wild_steal_penalty=hr.get("wild_steal_penalty"),
            wild_reuse_same_turn=hr.get("wild_reuse_same_turn", False),
            skip_counts_as_blue=hr.get("skip_counts_as_blue", False),
            baseball_short_game=hr.get("baseball_short_game", False),
        )


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed for a game: the pack, its world, the players in seat order."""

    pack: Pack
    world: str | None
    players: tuple[str, ...]
    rules: Rules
    house: HouseRules
    entries: tuple[PhaseEntry, ...]
    # Phase numbers a player goes through, in order (in_order / even_only / odd_only);
    # for phase_order "any" the pool to choose from.
    sequence: tuple[int, ...]
    # The cards the game is dealt from: the pack's deck, plus the anti-phase rule card
    # under anti_phase_for_others (the pack's ``rules.deck`` stays as the solver knows it).
    deck: Deck
    tie_phase: Phase | None = None
    board: Board | None = None  # a board game (Twist): the phase attempted is the space's

    @property
    def piles(self) -> int:
        """Discard piles a hand starts with."""
        return self.board.discard_piles if self.board is not None else 1

    @property
    def skips_in_front(self) -> bool:
        """Skips are placed in front of the player skipped, not discarded onto a pile."""
        return self.board is not None and self.board.skip_placement == "in_front"

    def twist_number(self, k: int) -> int:
        """The phase number that stands for the twist deck's card ``k`` (from 0): numbers
        past the pack's list, so that a twist phase is attempted, laid and recorded as any
        other phase is."""
        return len(self.entries) + 1 + k

    def twist_index(self, number: int) -> int | None:
        """The twist deck's card a phase number stands for (from 0), or None."""
        k = number - len(self.entries) - 1
        if self.board is None or not 0 <= k < len(self.board.twist_phases):
            return None
        return k

    @property
    def any_order(self) -> bool:
        return self.house.phase_order == "any"

    @property
    def goal(self) -> int:
        """Phases a player completes to finish the game."""
        return len(self.sequence) if not self.any_order else min(self.house.game_length,
                                                                  len(self.sequence))

    def index(self, name: str) -> int:
        return self.players.index(name)


@dataclass(frozen=True, slots=True)
class Laid:
    """A group on the table, in two readings of the same cards in the same places (a run
    low to high, each wild with what it stands for).  ``group`` holds the real cards, as a
    player sees them; ``played`` holds them as they were read when laid or hit: a card of a
    postal wild number played as a wild is there the wild it stands for (``W=1``), at the
    indices ``acting``.  Hits are judged against ``played``, so a group keeps the reading
    it was laid with whoever hits it, whatever their own wild number."""

    group: LaidGroup
    played: LaidGroup = None  # type: ignore[assignment]  # (None: the same as ``group``)
    acting: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.played is None:
            object.__setattr__(self, "played", self.group)

    @classmethod
    def read(cls, played: LaidGroup, real: dict[int, Card]) -> Laid:
        """The group read as ``played``, with the real cards ``real`` (index: card) where
        a card of a wild number stands as a wild."""
        if not real:
            return cls(played, played)
        shown = LaidGroup(played.group, tuple(real.get(k, c) for k, c in enumerate(played.cards)))
        return cls(shown, played, tuple(sorted(real)))

    def real(self, shift: int = 0) -> dict[int, Card]:
        """The cards played as wilds, by index (moved on by ``shift``: a card put in front)."""
        return {k + shift: self.group.cards[k] for k in self.acting}


@dataclass(frozen=True)
class Seat:
    """One player: hand, table, progress and score."""

    name: str
    hand: tuple[Card, ...] = ()
    laid: tuple[Laid, ...] = ()
    laid_phase: int | None = None  # the phase laid this hand (0: the tie-break phase)
    done: tuple[int, ...] = ()  # phases completed in earlier hands, in order
    declared: int | None = None  # the phase named this hand (Masters)
    total: int = 0
    save: tuple[Card, ...] = ()  # Masters save pile (kept from hand to hand)
    saved: bool = False  # has set a card aside this hand
    taken_wilds: int = 0  # wilds taken from the table this hand (penalty rule)
    phase_wilds: int = 0  # wilds in the phase as laid (Japanese page: 25 points each)
    floating: bool = False  # played every card without a discard (floating rule)
    playing: bool = True  # False for players sitting out a tie-break hand
    space: int = 1  # a board game: the space the pawn stands on (from 1, the start)
    revealed: int | None = None  # a board game: the twist card turned for this hand (its number)

    def __getstate__(self) -> dict:
        return _without_memo(self)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: the standings the replay report prints."""

    went_out: str | None
    points: tuple[tuple[str, int], ...]
    totals: tuple[tuple[str, int], ...]
    completed: tuple[tuple[str, bool], ...]
    next_phase: tuple[tuple[str, int | None], ...]
    tie_break: bool = False
    # The phase each player attempted (None: chose none), for statistics; not in the
    # replay JSON, whose shape is fixed.
    attempted: tuple[tuple[str, int | None], ...] = ()
    board: tuple[Attempt, ...] = ()  # a board game: each player's hand on the board

    def to_json(self) -> dict:
        return {"went_out": self.went_out, "points": dict(self.points),
                "totals": dict(self.totals), "completed": dict(self.completed),
                "next_phase": dict(self.next_phase)}


@dataclass(frozen=True)
class GameState:
    table: Table
    seats: tuple[Seat, ...]
    dealer: int
    stage: Stage = "deal"
    turn: int = 0  # seat index of the player to move
    step: Step = "draw"
    laid_now: bool = False  # the player to move laid their phase this turn
    drawn: Card | None = None  # the card drawn this turn (floating: it must be played)
    # The draw pile: in order (top last) when the game was dealt here from a seed,
    # else the multiset of cards it holds, in no particular order.
    stock: tuple[Card, ...] = ()
    stock_known: bool = False
    discard: tuple[Card, ...] = ()  # top last (a board game's first discard pile)
    more_piles: tuple[tuple[Card, ...], ...] = ()  # a board game's other discard piles
    emptied: int | None = None  # the pile (from 1) whose last card this turn's draw took
    # the first discard pile's top card is a wild played as a skip (Truly Wild): a skip
    # there, which no one takes from the pile
    skip_on_top: bool = False
    # skips placed in front of players this hand (``skip_placement: in_front``): out of
    # play until the next deal, on no pile
    placed: tuple[Card, ...] = ()
    pending_skips: tuple[str, ...] = ()  # players who lose their next turn
    dealer_reached: bool = False  # the dealer's turn has come this hand (postal)
    hands_played: int = 0
    results: tuple[HandResult, ...] = ()
    tie_break: tuple[str, ...] = ()  # players of the tie-break hand now being played
    winner: str | None = None
    seed: int | None = None
    shuffles: int = 0  # shuffles so far (each seeded from ``seed``)
    reuse_owed: int = 0  # wilds taken from the table this turn that must still be played
    stopped: bool = False  # the clock ended the game (baseball_short_game)
    pawns_due: bool = False  # a board game: the last hand's pawn moves are not recorded yet

    def __getstate__(self) -> dict:
        return _without_memo(self)

    def seat(self, name: str) -> Seat:
        return self.seats[self.table.index(name)]

    @property
    def to_move(self) -> str | None:
        if self.stage == "turn" or self.stage == "declare":
            return self.seats[self.turn].name
        if self.stage in ("deal", "choose_up"):
            return self.seats[self.dealer].name
        return None

    @property
    def over(self) -> bool:
        return self.stage == "over"
