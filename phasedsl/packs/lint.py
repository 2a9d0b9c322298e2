"""Lint: what a pack may legally say but surely does not mean."""

from __future__ import annotations

import json
from functools import lru_cache

from ..errors import PhaseDSLError
from ..model.group import Kind
from ..model.phase import Phase
from ..model.rules import Rules
from ..model.skipblue import takes_blue_skip
from ..model.supply import wild_need
from ..solver import impossible_group, sum_reach


def unmakeable_reasons(phase: Phase, rules: Rules) -> list[str]:
    """Why no hand of a game under these rules can ever make the phase (lint's words; the
    referee, ``simulate``, ``report`` and ``play`` say the same), or nothing.  Sound: a
    player holds at most the deal plus the card just drawn, and ``impossible_group``
    counts the whole deck."""
    out = []
    most = rules.hand_size + 1
    if phase.cards_needed > most:
        out.append(f"needs {phase.cards_needed} cards, but a player holds at most {most} "
                   f"(a hand of {rules.hand_size} plus the card just drawn)")
    never = impossible_group(phase, rules)
    if never:
        out.append(f"can never be made: {never}")
    elif phase.cards_needed <= most:
        for g in dict.fromkeys(phase.groups):
            # a sum of any count within a hand: the room the other groups leave it
            room = most - (phase.cards_needed - g.size)
            if g.kind.is_sum and g.any_count and sum_reach(g, rules, room) < (g.total or 0):
                color = " of one color" if g.kind.one_color else ""
                out.append(f"can never be made: a sum totalling {g.total} gets at most {room} "
                           f"cards{color} of a hand, which add up to at most "
                           f"{sum_reach(g, rules, room)}")
    return out


@lru_cache(maxsize=1024)
def unmakeable(phase: Phase, rules: Rules) -> str | None:
    """The first of ``unmakeable_reasons``, or None (cached: a game asks at every hand)."""
    return next(iter(unmakeable_reasons(phase, rules)), None)


def no_hit_reason(group, rules: Rules) -> str | None:
    """Why no laid group of this shape can ever take a hit (as ``hits.no_hit_rule`` says of a
    laid one), or None where a card may fit."""
    k = group.kind
    span = rules.deck.high - rules.deck.low + 1
    if k.is_sum:
        return "a card would change a sum's total"
    if k.is_pair_run:
        return "a run of pairs grows only by two cards of one number"
    if k.is_run and group.size >= span:
        return f"a run of {span} holds every number"
    return None


def _most_laid(group, rules: Rules) -> int | None:
    """The most cards a group of this shape holds when laid (None: no bound worth stating)."""
    k = group.kind
    span = rules.deck.high - rules.deck.low + 1
    if k.is_sum:
        return None if group.any_count else group.size
    if not rules.extras:
        return group.size
    if k.is_pair_run:
        return 2 * span
    if k.is_run and group.size >= span:
        return span
    return None


def going_out(phase: Phase, rules: Rules) -> tuple[str, bool] | None:
    """Where no group of ``phase`` ever takes a hit: why a player who lays it may not go out,
    and whether that is proven (True: no player who lays it can go out unless other players'
    groups take the cards left; False: only by laying a whole hand at once).  A hand holds
    ``hand_size`` cards after a turn's draw and discard, so a player who never hits goes out
    only on the turn they lay, by laying ``hand_size`` cards before the last discard."""
    why = [no_hit_reason(g, rules) for g in phase.groups]
    need = rules.hand_size
    if not why or None in why or phase.cards_needed >= need:
        return None
    said = "; ".join(dict.fromkeys(w for w in why if w))
    most = [_most_laid(g, rules) for g in phase.groups]
    if None not in most and sum(most) < need:  # type: ignore[arg-type]
        return (f"takes no hits ({said}) and holds at most {sum(most)} of the {need} cards "  # type: ignore[arg-type]
                "a player must play before the last discard: no player who lays it can go "
                "out, unless other players' groups take the rest"), True
    longer = (" (a longer run of pairs, as extras)"
              if rules.extras and any(g.kind.is_pair_run for g in phase.groups) else "")
    return (f"takes no hits ({said}): a player who lays it goes out only by laying all {need} "
            f"cards at once{longer} or by hitting other players' groups"), False


def stuck_phase(phase: Phase, rules: Rules) -> str | None:
    """Why a hand in which every player is on ``phase`` can never end, or None: it cannot
    be made (``unmakeable``), or no player who lays it can go out (``going_out``, proven)."""
    why = unmakeable(phase, rules)
    if why is not None:
        return why
    out = going_out(phase, rules)
    return out[0] if out is not None and out[1] else None


def unplayable(pack, world: str | None = None) -> str | None:
    """Why no game of ``pack`` (its world ``world``) can ever end, naming the phase that
    stops it; or None.  A hand ends only when someone goes out, and nobody can shed cards
    before laying their phase, so a phase no hand can make stops every player who reaches
    it.  Refused: a fixed-order game needing such a phase (only its first phase where
    ``fixed_hands`` may end the game before anyone reaches a later one); an any-order
    game with fewer makeable phases than a player must complete (none, with
    ``fixed_hands``).  Games that stall later are stopped by ``simulate`` as they go."""
    w = pack.world(world)
    name = w.name if len(pack.worlds) > 1 else None
    label = f"{pack.name}" + (f" (world {w.name})" if name else "")
    s = w.settings
    hr = s.get("house_rules") or {}
    fixed = hr.get("fixed_hands") is not None
    length = s.get("game_length", 10)
    played = list(w.played)
    if s.get("phase_order", "in_order") != "any":
        played = played[:length]
    dead = []
    for e in played:
        why = unmakeable(e.phase, pack.phase_entry(e.number, name)[1])
        if why is not None:
            dead.append((e, why))
    if not dead:
        return _no_first_hand_ends(pack, w, label, played, s.get("phase_order", "in_order"))
    e, why = dead[0]
    said = f"{label}: phase {e.number} ({e.phase}) {why}"
    if s.get("phase_order", "in_order") == "any":
        goal = 1 if fixed else min(length, len(played))
        if len(played) - len(dead) >= goal:
            return None
        return f"{said}, so no player can complete {goal} phase{'s' * (goal != 1)}: no game can end"
    if fixed and e is not played[0]:
        return None
    return f"{said}: no game can end"


def _no_first_hand_ends(pack, w, label: str, played: list, order: str) -> str | None:
    """Why the first hand of every game can never end, where no player who lays a phase the
    players start on can go out (all of them start on the first phase in a fixed order; in
    any order, every phase would have to be such a one)."""
    name = w.name if len(pack.worlds) > 1 else None
    if (w.settings.get("house_rules") or {}).get("save_pile"):
        return None  # (a save pile sheds a card a hand: going out is not ruled out)
    options = played if order == "any" else played[:1]
    found = []
    for e in options:
        out = going_out(e.phase, pack.phase_entry(e.number, name)[1])
        if out is None or not out[1]:
            return None
        found.append((e, out[0]))
    if not found:
        return None
    e, why = found[0]
    start = "every player starts on" if order != "any" else "every phase is like"
    return f"{label}: no hand can ever end: {start} phase {e.number} ({e.phase}), which {why}"


def refuse_unplayable(pack, world: str | None = None) -> None:
    """Raise PhaseDSLError (exit 2 on the command line) for a pack ``unplayable`` refuses."""
    why = unplayable(pack, world)
    if why is not None:
        raise PhaseDSLError(why)


def phase_warnings(phase: Phase, rules: Rules) -> list[str]:
    out = unmakeable_reasons(phase, rules)
    need = wild_need(phase.groups, rules.deck, rules.runs_wrap)
    if need.wilds > need.parts:  # the same words parse refuses with when the deck falls short
        out.append(need.message(rules.deck))
    out += degenerate_groups(phase, rules)
    out += [f"ignores {text!r}: a phase string holds only the phase (a remark goes in 'note')"
            for text in phase.ignored]
    out += [why for why, _ in filter(None, [going_out(phase, rules)])]
    for g in phase.groups:
        if g.kind is Kind.SKIP and g.size > rules.deck.skips:
            out.append(f"needs {g.size} skips; the deck has {rules.deck.skips}")
        if g.kind.needs_natural and rules.natural_scope == "group" and rules.min_naturals > g.size:
            out.append(f"a group of {g.size} cannot hold the {rules.min_naturals} natural cards "
                       "each group needs")
    need_w = sum(g.size for g in phase.groups if g.kind is Kind.WILD)
    if need_w > rules.deck.wilds:
        out.append(f"needs {need_w} wilds as a part; the deck has {rules.deck.wilds}")
    return list(dict.fromkeys(out))


def degenerate_groups(phase: Phase, rules: Rules) -> list[str]:
    """Groups of one card: any single card makes them, which no player reads them as."""
    out = []
    for g in dict.fromkeys(phase.groups):
        if g.size == 1 and g.kind.needs_natural and g.colors is None and not g.kind.is_sum:
            label = g.describe(rules.deck).removeprefix("1 ")
            out.append(f"has a {label}, which any one card makes (a group needs at least 2 "
                       "cards to mean something)")
    return out


def repeated_phases(phases, deck) -> list[tuple[object, str]]:
    """(entry, message) for each phase that asks for the same groups as an earlier one,
    also when written in another order ("1 run of 4 + 1 set of 3", "1 set of 3 + 1 run of 4")."""
    out = []
    seen: dict[Phase, object] = {}
    for e in phases:
        first = seen.setdefault(e.phase, e)
        if first is not e:
            canon = e.phase.canonical(deck)
            other = first.phase.canonical(deck)
            how = "" if canon == other else f", in another order ({other})"
            out.append((e, f"phase {e.number} repeats phase {first.number} ({canon}{how})"))
    return out


def lint(pack, raw: dict) -> list[tuple[tuple, str]]:
    """(path in the file, message) for every warning."""
    out: list[tuple[tuple, str]] = []
    own_worlds = "worlds" in raw
    own_phases = "phases" in raw
    found: list[tuple[str, tuple, str]] = []  # (world, path, message) of a world's rules
    for wi, world in enumerate(pack.worlds):
        base = ("worlds", wi, "phases") if own_worlds else ("phases",) if own_phases else ("extends",)
        # a phase of a world is "world NAME, phase N", as every pack message names it
        of = f"world {world.name}, " if len(pack.worlds) > 1 else ""

        def at(e, base=base):
            return (*base, e.number - 1) if base[0] != "extends" else base

        for e in world.phases:
            for msg in phase_warnings(e.phase, world.rules):
                if pack.dice is not None and "a player holds at most" in msg:
                    continue  # (a dice pack's hand is its dice: game_rule_errors says more)
                out.append((at(e), f"{of}phase {e.number} ({e.phase}) {msg}"))
        for e, msg in repeated_phases(world.phases, world.rules.deck):
            out.append((at(e), of + msg))
        s = world.settings
        order = s.get("phase_order", "in_order")
        length = s.get("game_length", 10)
        # the list as written: a phase that did not read (an error said apart) still counts
        written = (raw["worlds"][wi] if own_worlds else raw).get("phases")
        n = len(written) if (own_worlds or own_phases) and isinstance(written, list) else \
            len(world.phases)
        parity = {"even_only": 0, "odd_only": 1}.get(order)
        playable = sum(1 for k in range(1, n + 1) if parity is None or k % 2 == parity)
        if playable != length:
            what = {"even_only": "even-numbered phases", "odd_only": "odd-numbered phases"}.get(
                order, "phases")
            found.append((world.name, base, f"the list has {playable} {what} but game_length is {length}"))
        if (s.get("house_rules") or {}).get("baseball_short_game") and playable < 6:
            found.append((world.name, ("rules", "house_rules", "baseball_short_game"),
                          f"baseball_short_game makes 5.5 phases a complete game, but this "
                        f"game has only {playable} phases: the clock never gives a winner"))
        if (s.get("house_rules") or {}).get("skip_counts_as_blue"):
            why = _blue_skip_idle(world)
            if why:
                found.append((world.name, ("rules", "house_rules", "skip_counts_as_blue"),
                              f"skip_counts_as_blue is on, but {why}"))
        postal = s.get("postal") or {}
        if postal.get("enabled") and postal.get("through_phase", 7) > n:
            found.append((world.name, ("rules", "postal", "through_phase"), f"postal through_phase "
                        f"{postal['through_phase']} is past the last phase ({n})"))
    out += said_once(found, len(pack.worlds))
    s = pack.settings
    w = s.get("wilds") or {}
    hr = s.get("house_rules") or {}
    deck = s.get("deck") or {}
    if w.get("as_skip") and deck.get("wilds", 8) == 0:
        out.append((("rules", "wilds"), "wilds.as_skip is set but the deck has no wilds"))
    for key in ("wild_steal_penalty", "wild_reuse_same_turn"):
        if hr.get(key) not in (None, False) and not w.get("take_back"):
            out.append((("rules", "house_rules", key), f"house_rules.{key} is set but "
                        "wilds.take_back is false, so no wild is ever taken back"))
    if hr.get("floating") and hr.get("go_out_without_discard"):
        out.append((("rules", "house_rules"), "house_rules.floating (playing out every card "
                    "does not end the hand) contradicts go_out_without_discard (it does)"))
    if s.get("phase_order") in ("even_only", "odd_only") and hr.get("declare_phase") == "at_deal":
        out.append((("rules", "phase_order"), "phase_order restricts the phases but "
                    "declare_phase lets players pick any"))
    tb = hr.get("tie_break_phase")
    if isinstance(tb, str):
        try:
            Phase.parse(tb, pack.rules.deck)
        except Exception as e:  # a DSL error, reported as a warning with its words
            out.append((("rules", "house_rules", "tie_break_phase"),
                        f"tie_break_phase does not read as a phase: {getattr(e, 'message', e)}"))
    if (s.get("scoring") or {}).get("low", 5) > (s.get("scoring") or {}).get("high", 10):
        out.append((("rules", "scoring"), "scoring.low is more than scoring.high: low cards "
                    "would cost more than high ones"))
    return out


def _blue_skip_idle(world) -> str | None:
    """Why skip_counts_as_blue changes nothing in this world (it needs a blue color, a skip
    and a color group), or None."""
    rules = world.rules
    if rules.deck.color_letter("blue") is None:
        return "the deck has no blue color"
    if rules.deck.skips == 0:
        return "the deck has no skips"
    if not any(takes_blue_skip(g, rules) for e in world.phases for g in e.phase.groups):
        return "no phase has a color group (cards of one color), the only group a skip may join"
    return None


def game_rule_errors(pack, twists_refused: bool = False) -> list[tuple[tuple, str]]:
    """(path in the file, message) for every rule the referee cannot honor
    (``twists_refused``: the file's twist deck was given and refused, said already)."""
    found: list[tuple[str, tuple, str]] = []
    for world in pack.worlds:
        s = world.settings
        hr = s.get("house_rules") or {}
        order = s.get("phase_order", "in_order")
        if order == "any":
            # (Moving down in an any-order game is played: the phase made last is lost
            # and may be chosen again.  Advancing without a phase made names none.)
            if hr.get("everyone_advances"):
                found.append((world.name, ("rules", "house_rules", "everyone_advances"),
                            "house_rules.everyone_advances needs phases in a fixed "
                            "order; with phase_order 'any' there is no next phase to move on to"))
        elif hr.get("declare_phase", "never") != "never":
            found.append((world.name, ("rules", "house_rules", "declare_phase"),
                        f"declare_phase is {hr['declare_phase']!r} but phase_order is "
                        f"{order!r}: only players who choose their phases declare them"))
    if pack.board is not None:
        found += board_errors(pack, twists_refused)
        found += _board_rule_errors(pack)
    if pack.dice is not None:
        from ..dice import unmakeable

        for wi, world in enumerate(pack.worlds):
            for e in world.phases:
                why = unmakeable(e.phase, world.rules, pack.dice)
                if why:
                    i = e.number - 1
                    at = ("worlds", wi, "phases", i) if len(pack.worlds) > 1 else ("phases", i)
                    found.append((world.name, at, f"phase {e.number} ({e.phase}): no roll of "
                                                  f"these dice makes it: {why}"))
    return said_once(found, len(pack.worlds))


# House rules that choose, move or keep phases another way than a board does (each a
# path of the pack and the value under which it takes no part).
NOT_ON_A_BOARD = (
    (("phase_order",), "in_order"), (("house_rules", "declare_phase"), "never"),
    (("house_rules", "everyone_advances"), False), (("house_rules", "anti_phase"), False),
    (("house_rules", "anti_phase_for_others"), False), (("house_rules", "save_pile"), False),
    (("house_rules", "abandon_phase"), False),
    (("house_rules", "dealer_chooses_wild_recipient"), False),
)


def _board_rule_errors(pack) -> list[tuple[str, tuple, str]]:
    out = []
    for world in pack.worlds:
        for path, off in NOT_ON_A_BOARD:
            value = world.settings
            for key in path:
                value = (value or {}).get(key, off) if isinstance(value, dict) else off
            if value != off:
                out.append((world.name, ("rules", *path),
                            f"{'.'.join(path)} is {json.dumps(value)}, but on a board the phase "
                            "a player attempts is their pawn's space's: it does not combine "
                            "with a board"))
    return out


def board_errors(pack, twists_refused: bool = False) -> list[tuple[str, tuple, str]]:
    """(world, path, message) for a board the referee cannot play: a space naming a phase
    the pack lacks, a twist space with no twist deck (unless the deck was given and
    ``twists_refused``: its phrases' errors say why), a start or finish that is no phase, a
    twist phase no hand makes, moves that never reach the finish."""
    from ..model.board import TWIST

    b = pack.board
    out: list[tuple[str, tuple, str]] = []
    whole: list[tuple[tuple, str]] = []  # (said of the pack: once for every world)
    if pack.dice is not None:
        whole.append((("board",), "a pack is played with dice or on a board, not both"))
    for world in pack.worlds:
        n = len(world.played)
        for i, space in enumerate(b.spaces):
            at = ("board", "spaces", i)
            if space == TWIST:
                if i in (0, len(b.spaces) - 1):
                    out.append((world.name, at, f"space {i + 1} is a twist space: the "
                                f"{'start' if i == 0 else 'last space'} must name a phase"))
                elif not b.twist_phases and not twists_refused:
                    out.append((world.name, at, f"space {i + 1} is a twist space, and the "
                                "board has no twist deck (board.twist_phases)"))
            elif space > n:
                out.append((world.name, at, f"space {i + 1} names phase {space}, and the pack "
                                            f"has {n} phase{'s' * (n != 1)}"))
        for i, phase in enumerate(b.twist_phases):
            for why in unmakeable_reasons(phase, world.rules):
                out.append((world.name, ("board", "twist_phases", i),
                            f"twist phase {i + 1} ({phase}) {why}"))
    # (no spaces: the schema refused them and has said so; there is no track to judge)
    if b.spaces and not b.reaches_end():
        m = b.moves
        whole.append((("board", "moves"), "no run of hands takes a pawn from the start to the "
                      f"last space (moves: {m.made_out} made and out, {m.made} made, "
                      f"{m.missed} missed; twist {m.twist_made_out} / {m.twist_made} / "
                      f"{m.twist_missed})"))
    return out + [(w.name, at, msg) for at, msg in whole for w in pack.worlds]


def said_once(found: list[tuple[str, tuple, str]], worlds: int) -> list[tuple[tuple, str]]:
    """(path, message) for what was found in each world: said once when it holds for every
    world (a rule the pack sets for all of them), else once per world, naming it."""
    by: dict[tuple[tuple, str], list[str]] = {}
    for name, at, msg in found:
        names = by.setdefault((at, msg), [])
        if name not in names:
            names.append(name)
    out: list[tuple[tuple, str]] = []
    for (at, msg), names in by.items():
        if worlds == 1 or len(names) == worlds:
            out.append((at, msg))
        else:
            out += [(at, f"world {n}: {msg}") for n in names]
    return out
