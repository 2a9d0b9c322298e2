"""The end of a hand: scores, who advances, and whether the game is over (and who won)."""

from __future__ import annotations

from ..melds.scoring import score
from .boardplay import attempts, pawns_moved, race_winners
from .state import GameState, HandResult, Seat, replace
from .table import choosable, current_phase


def hand_points(state: GameState, i: int) -> int:
    seat = state.seats[i]
    house = state.table.house
    rules = state.table.rules
    # The anti-phase card left in hand scores as a skip (the deck's other card that is
    # no number), on top of the phase it costs.
    anti = sum(1 for c in seat.hand if c.anti)
    pts = score([c for c in seat.hand if not c.anti], rules) + anti * rules.scoring.skip
    if house.wild_points_in_phase:
        pts += seat.phase_wilds * rules.scoring.wild
    if house.wild_steal_penalty is not None:
        pts += seat.taken_wilds * house.wild_steal_penalty
    return pts


def next_phase(state: GameState, i: int) -> int | None:
    seat = state.seats[i]
    if state.table.any_order:
        left = choosable(state, i)
        return left[0] if left else None
    n = len(seat.done)
    return state.table.sequence[n] if n < len(state.table.sequence) else None


def end_hand(state: GameState, went_out: str | None, winner: str | None = None,
             sent_down: str | None = None) -> GameState:
    """Score the hand ``went_out`` ended (None: nobody), advance the players, pass the deal.
    ``sent_down``: the player the anti-phase card, discarded as the going-out card, named."""
    table = state.table
    house = table.house
    seats = list(state.seats)
    playing = [k for k, s in enumerate(seats) if s.playing]
    points = {k: hand_points(state, k) for k in playing}
    attempted = tuple((seats[k].name, seats[k].laid_phase if seats[k].laid_phase is not None
                       else current_phase(state, k)) for k in playing)
    for k in playing:
        s = seats[k]
        done = s.done
        if not state.tie_break:
            current = current_phase(state, k)
            if s.laid_phase is not None:
                done = (*done, s.laid_phase)
            elif house.everyone_advances and current is not None:
                done = (*done, current)
            elif house.anti_phase and done:
                done = done[:-1]
            # Anti-phase for others: the player named by the card, and whoever is caught
            # holding it, each move down one phase (after advancing for a phase laid).
            down = (s.name == sent_down) + sum(1 for c in s.hand if c.anti)
            if down:
                done = done[:max(0, len(done) - down)]
        seats[k] = replace(s, done=done, total=s.total + points[k])
    race = attempts(state, went_out) if table.board is not None and not state.tie_break else ()
    seats = list(pawns_moved(seats, race))
    new = replace(state, seats=tuple(seats))
    result = HandResult(
        went_out,
        tuple((seats[k].name, points[k]) for k in playing),
        tuple((s.name, s.total) for s in seats),
        tuple((state.seats[k].name, state.seats[k].laid_phase is not None) for k in playing),
        tuple((s.name, next_phase(new, k)) for k, s in enumerate(seats)),
        bool(state.tie_break),
        attempted,
        race,
    )
    new = replace(new, results=(*state.results, result), hands_played=state.hands_played + 1,
                  dealer=(state.dealer + 1) % len(seats), stage="deal", stock=(), discard=(),
                  skip_on_top=False,
                  more_piles=(), emptied=None, placed=(), pending_skips=(),
                  pawns_due=bool(race),
                  laid_now=False, drawn=None, reuse_owed=0, stock_known=False)
    new = replace(new, seats=tuple(replace(s, hand=(), laid=(), laid_phase=None, floating=False,
                                           declared=None if table.board else s.declared,
                                           revealed=None)
                                   for s in new.seats))
    if state.tie_break:
        decided = winner or went_out
        if decided is not None:
            return _finish(new, decided)
        return new  # nobody went out: the tied players play the tie-break hand again
    return game_end(new)


def _finish(state: GameState, winner: str) -> GameState:
    seats = tuple(replace(s, playing=True) for s in state.seats)
    return replace(state, seats=seats, stage="over", winner=winner, tie_break=())


def game_end(state: GameState) -> GameState:
    """Over (with a winner), on to a tie-break hand, or on to the next deal."""
    table = state.table
    house = table.house
    seats = state.seats
    goal = table.goal
    if table.board is not None:
        # a race: won by making the last space's phase (several that hand: the tie rule)
        finishers = race_winners(state, state.results[-1].board) if state.results else []
        if house.fixed_hands is not None and state.hands_played >= house.fixed_hands:
            return _decide(state, list(seats), by_score=True)
        if finishers:
            return _decide(state, finishers, by_score=house.tie_break == "lowest_score_then_replay")
        return state
    finishers = [s for s in seats if len(s.done) >= goal]
    if house.fixed_hands is not None and state.hands_played >= house.fixed_hands:
        return _decide(state, list(seats), by_score=True)
    if house.everyone_advances and all(len(s.done) >= goal for s in seats):
        return _decide(state, list(seats), by_score=True)
    if finishers:
        by_score = house.tie_break == "lowest_score_then_replay" or house.everyone_advances
        return _decide(state, finishers, by_score=by_score)
    return state


def _decide(state: GameState, candidates: list[Seat], by_score: bool) -> GameState:
    if by_score:
        low = min(s.total for s in candidates)
        candidates = [s for s in candidates if s.total == low]
    if len(candidates) == 1:
        return _finish(state, candidates[0].name)
    names = tuple(s.name for s in candidates)
    seats = tuple(replace(s, playing=s.name in names) for s in state.seats)
    return replace(state, seats=seats, tie_break=names)


# "5.5 phases make a complete game" (Japanese page): phases are made whole, so the half
# is a phase laid in the hand the clock stops, which is never scored.
COMPLETE_GAME = 5.5


def stop(state: GameState) -> GameState:
    """Time is up (``baseball_short_game``): the hand in progress is not scored.  With
    someone at 5.5 phases or more the game is complete and the leader wins (most phases,
    then the lowest total, the printed tie rule); leaders still tied, or nobody at 5.5:
    the game ends without a winner."""
    half = 0.0 if state.tie_break else 0.5
    reached = {s.name: len(s.done) + (half if s.laid_phase is not None else 0.0)
               for s in state.seats}
    best = max(reached.values())
    winner = None
    if best >= COMPLETE_GAME:
        leaders = [s for s in state.seats if reached[s.name] == best]
        low = min(s.total for s in leaders)
        leaders = [s for s in leaders if s.total == low]
        winner = leaders[0].name if len(leaders) == 1 else None
    seats = tuple(replace(s, playing=True) for s in state.seats)
    return replace(state, seats=seats, stage="over", winner=winner, tie_break=(), stopped=True)
