"""The table: the pack's rules read once for a game, and which phase each player is on."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..errors import PhaseDSLError
from ..model.board import TWIST, neighbours
from ..model.phase import Phase
from ..model.rules import Rules
from ..packs.pack import Pack
from .state import GameState, HouseRules, Seat, Table

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MASTERS_MAX_PLAYERS = 4
MAX_NAME = 40


def make_table(pack: Pack, players: Sequence[str], world: str | None = None) -> Table:
    """The fixed part of a game; raises PhaseDSLError for a table the rules refuse."""
    from ..packs.lint import game_rule_errors

    if pack.dice is not None:
        raise PhaseDSLError(f"{pack.name} is played with dice, not cards: play, simulate, "
                            "report, replay and odds treat it as Phase 10 Dice; this command "
                            "plays cards")
    w = pack.world(world)
    house = HouseRules.from_settings(w.settings)
    refused = [msg for _, msg in game_rule_errors(pack)]
    if refused:
        raise PhaseDSLError(f"the referee cannot play {pack.name} as written: "
                            + "; ".join(refused))
    players = tuple(players)
    most = MASTERS_MAX_PLAYERS if house.save_pile else MAX_PLAYERS
    if not MIN_PLAYERS <= len(players) <= most:
        raise PhaseDSLError(f"{pack.name} is played by {MIN_PLAYERS}-{most} players, not "
                            f"{len(players)}")
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise PhaseDSLError("players need distinct, non-empty names")
    if any(len(p) > MAX_NAME or not p.isprintable() for p in players):
        # every message about a player names them: a name is a name, not a payload
        raise PhaseDSLError(f"a player's name is at most {MAX_NAME} printable characters")
    rules = w.rules
    piles = pack.board.discard_piles if pack.board is not None else 1
    if len(players) * rules.hand_size + piles > rules.deck.size:
        raise PhaseDSLError(f"the deck of {rules.deck.size} cards cannot deal {rules.hand_size} "
                            f"cards to {len(players)} players and turn {piles} up")
    n = len(w.phases)
    order = house.phase_order
    if order == "even_only":
        seq = tuple(range(2, n + 1, 2))
    elif order == "odd_only":
        seq = tuple(range(1, n + 1, 2))
    else:
        seq = tuple(range(1, n + 1))
    if order != "any":
        seq = seq[:house.game_length]
    tie = None
    if house.tie_break_phase:
        tie = Phase.parse(house.tie_break_phase, rules.deck)
    deck = rules.deck
    if house.anti_phase_for_others:
        deck = dataclasses.replace(deck, anti=1)  # one rule card (the sources: "one rule card")
    return Table(pack, w.name if len(pack.worlds) > 1 else None, players, rules, house,
                 w.phases, seq, deck, tie, pack.board)


def start(table: Table, dealer: str, seed: int | None = None) -> GameState:
    if dealer not in table.players:
        raise PhaseDSLError(f"the dealer {dealer!r} is not one of the players "
                            f"({', '.join(table.players)})")
    return GameState(table, tuple(Seat(p) for p in table.players), table.index(dealer),
                     seed=seed)


def phase_rules(table: Table, number: int) -> tuple[Phase, Rules]:
    """The phase with that number in the list and the rules it is played under (postal
    makes the phase number wild)."""
    if number == 0:
        if table.tie_phase is not None:
            return table.tie_phase, table.rules
        number = tie_number(table)
    twist = table.twist_index(number)
    if twist is not None:
        return table.board.twist_phases[twist], table.rules
    entry, rules = table.pack.phase_entry(number, table.world)
    return entry.phase, rules


def tie_number(table: Table) -> int:
    """The phase a tie-break hand replays (phase 0 of ``current_phase``), by its number in
    the list (a ``tie_break_phase`` phrase has none: see ``phase_rules``)."""
    if table.house.tie_break == "replay_phase_10" and len(table.entries) >= 10:
        return 10
    return table.sequence[-1] if not table.any_order else len(table.entries)


def current_phase(state: GameState, i: int) -> int | None:
    """The phase number seat ``i`` attempts this hand (0: the tie-break phase), or None
    when the player chooses it (any order, not declared yet) or has none left."""
    seat = state.seats[i]
    if state.tie_break:
        # replay_last_phase: each tied player replays the phase they last made.
        if state.table.house.tie_break == "replay_last_phase" and seat.done \
                and state.table.tie_phase is None:
            return seat.done[-1]
        return 0
    if state.table.any_order:
        return seat.declared
    board = state.table.board
    if board is not None:
        space = board.spaces[seat.space - 1]
        return seat.declared if space == TWIST else space
    done = len(seat.done)
    return state.table.sequence[done] if done < len(state.table.sequence) else None


def board_choices(state: GameState, i: int) -> list[tuple[int | str, int]]:
    """A board game: the choices of a pawn on a twist space, as (what a ``Choose`` move
    says, the phase number it attempts): ``"twist"`` for the twist card turned for it, or
    a neighbouring space's number for that space's phase.  Empty off a twist space."""
    board, seat = state.table.board, state.seats[i]
    if board is None or board.spaces[seat.space - 1] != TWIST:
        return []
    out: list[tuple[int | str, int]] = []
    if seat.revealed is not None:
        out.append(("twist", seat.revealed))
    return out + [(n, board.spaces[n - 1]) for n in neighbours(board, seat.space)]


def phase_text(table: Table, number: int) -> str:
    """A phase number's phrase (a twist card's too), as a record shows it."""
    return str(phase_rules(table, number)[0])


def choosable(state: GameState, i: int) -> list[int]:
    """Phases seat ``i`` may still attempt (any-order games)."""
    done = set(state.seats[i].done)
    return [n for n in state.table.sequence if n not in done]


def wild_numbers(state: GameState, i: int) -> frozenset[int]:
    number = current_phase(state, i)
    if number is None:
        return frozenset()
    return phase_rules(state.table, number)[1].wild_numbers


def stuck(state: GameState) -> str | None:
    """Why this hand can never end, or None: nobody has laid a phase yet and every playing
    player's phase (or each phase they may still choose) is one no hand can make
    (``lint.unmakeable``) or one no player who lays it can go out after (``lint.going_out``,
    proven: its groups take no hits and it holds too few cards, so no group laid this hand
    takes one).  A hand ends only when someone goes out (sound, not complete: phases only
    change when a hand ends)."""
    from ..packs.lint import stuck_phase, unmakeable

    if state.stage != "turn":
        return None
    why: dict[int, str] = {}
    for i, seat in enumerate(state.seats):
        if not seat.playing:
            continue
        if seat.laid_phase is not None:
            return None
        n = current_phase(state, i)
        options = [n] if n is not None else (choosable(state, i) if state.table.any_order
                                             else [])
        for k in options:
            phase, rules = phase_rules(state.table, k)
            reason = stuck_phase(phase, rules)
            # (a save pile sheds a card a hand: going out is then not ruled out)
            if reason is None or (state.table.house.save_pile
                                  and unmakeable(phase, rules) is None):
                return None
            why.setdefault(k, f"phase {k} ({phase}) {reason}")
    return "; ".join(why.values()) or None

