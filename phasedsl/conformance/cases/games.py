"""The `games` cases: their families (see ``conformance.cases``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

from ...game import GameState
from ...game import moves as mv
from ...packs.pack import Pack, board_document
from ..ruleset import changes as changes_of
from ..ruleset import full, printed
from .common import Raw, pack_named, rng

# (pack, world) played by seeded greedy bots; append only.
GAME_PACKS: list[tuple[str, str | None]] = [
    ("original", None), ("short-game-5", None), ("masters", None), ("utah", None),
    ("postal", None), ("floating", None), ("thai", None), ("anti-phase", None),
    ("anti-phase-for-others", None), ("dealers-choice", None), ("even-phases", None),
    ("everyone-advances", None), ("japanese-wild-rules", None), ("masters-variant-1", None),
    ("masters-variant-2", None), ("one-color-runs", None), ("pick-a-phase", None),
    ("playing-cards", None), ("truly-wild", None), ("short-game-8", None),
    ("world-tour", "jazz-club"), ("japanese-lists", "japanese-list-2"), ("twist", None),
]


def _game_input(pack, world: str | None, log: tuple[str, ...]) -> tuple[dict, dict]:
    import json

    w = pack.world(world)
    ch = changes_of(full(w.settings))
    events = [json.loads(line) for line in log]
    # a case's pack is its phases and rules, one world: the log names none
    events[0] = {**events[0], "world": None}
    inp = {"phases": [e.text for e in w.phases], "log": events}
    if pack.board is not None:
        inp["board"] = board_document(pack.board)
    return ch, inp


def _played(name: str, world: str | None, seed: int, players: int, moves: int):
    from ...design.simulate import MAX_MOVES, play_game

    pack = pack_named(name)
    rec = play_game(pack, players, "greedy", seed=seed, index=0, world=world, keep_log=True,
                    max_moves=moves or MAX_MOVES)
    return pack, rec.log


def games_whole() -> Iterator[Raw]:
    for name, world in GAME_PACKS:
        for seed in (1,):
            pack, log = _played(name, world, seed, 2, 0)
            ch, inp = _game_input(pack, world, log)
            yield {"id": f"games-whole-{name}{'-' + world if world else ''}-{seed}",
                   "description": f"a whole game of {name}{' / ' + world if world else ''} "
                                  f"by two greedy bots (seed {seed})",
                   "changes": ch, "input": inp}


def games_fragments() -> Iterator[Raw]:
    for name, world in GAME_PACKS:
        for seed in (11, 12, 13, 14):
            moves = 60 + 25 * (seed - 11)
            pack, log = _played(name, world, seed, 3, moves)
            ch, inp = _game_input(pack, world, log)
            yield {"id": f"games-fragment-{name}{'-' + world if world else ''}-{seed}",
                   "description": f"the first {moves} moves of a game of {name} by three greedy bots",
                   "changes": ch, "input": inp}


def _mutations() -> list[tuple[str, Callable]]:
    """Ways to break a log at one event (each: log, index, rng -> new event list or None).
    Append only."""
    def wrong_player(log, i, r):
        ev = dict(log[i])
        players = log[0]["players"]
        if "player" not in ev:
            return None
        ev["player"] = r.choice([p for p in players if p != ev["player"]])
        return [*log[:i], ev, *log[i + 1:]]

    def drop(log, i, r):
        return [*log[:i], *log[i + 1:]] if log[i]["type"] == "draw" else None

    def double(log, i, r):
        return [*log[:i + 1], log[i], *log[i + 1:]] if log[i]["type"] == "draw" else None

    def other_card(log, i, r):
        ev = dict(log[i])
        if ev["type"] not in ("discard", "hit") or "card" not in ev:
            return None
        ev["card"] = r.choice(["R1", "B7", "G12", "Y4", "W", "S"])
        return [*log[:i], ev, *log[i + 1:]]

    def lay_less(log, i, r):
        ev = dict(log[i])
        if ev["type"] != "lay":
            return None
        groups = [list(g) for g in ev["groups"]]
        g = r.randrange(len(groups))
        groups[g].pop(r.randrange(len(groups[g])))
        if not groups[g]:
            return None
        ev["groups"] = groups
        return [*log[:i], ev, *log[i + 1:]]

    def no_group(log, i, r):
        ev = dict(log[i])
        if ev["type"] != "hit":
            return None
        ev["on"] = {**ev["on"], "group": 9}
        return [*log[:i], ev, *log[i + 1:]]

    def early_lay(log, i, r):
        # a lay moved before its player's draw
        if log[i]["type"] != "lay" or log[i - 1]["type"] != "draw":
            return None
        return [*log[:i - 1], log[i], log[i - 1], *log[i + 1:]]

    return [("wrong-player", wrong_player), ("drop-draw", drop), ("double-draw", double),
            ("other-card", other_card), ("lay-less", lay_less), ("no-group", no_group),
            ("early-lay", early_lay)]


def games_mutated() -> Iterator[Raw]:
    from ..answers import games as referee

    muts = _mutations()
    for name, world in GAME_PACKS:
        pack, log = _played(name, world, 21, 2, 150)
        ch, inp = _game_input(pack, world, log)
        events = inp["log"]
        r = rng(f"games-mutated-{name}-{world}")
        for mname, mutate in muts:
            for k in range(2):
                for _ in range(30):
                    i = r.randrange(2, len(events))
                    new = mutate(events, i, r)
                    if new is None:
                        continue
                    trial = {**inp, "log": new[:i + 4]}
                    try:
                        got = referee(full_rules(ch), trial)
                    except Exception:  # (a log that does not read: another place)
                        continue
                    if got["legal"]:
                        continue
                    yield {"id": f"games-mutated-{name}{'-' + world if world else ''}-{mname}-{k}",
                           "description": f"a game of {name} broken at line {i + 1} ({mname})",
                           "changes": ch, "input": trial, "expected": got}
                    break


PROBE_PLAYERS = ["ann", "bob", "cat"]


PROBE_MOVES = 160  # each probe game's length at most (a state is a log prefix)


PROBE_STATES = 6  # states sampled from each of a pack's two games


PROBES_PER_CODE = 2


LEGAL_PER_TYPE = 1


def _probe_games(name: str, world: str | None) -> list[list[str]]:
    """Two seeded games of a pack by three players, as logs: greedy bots, and random moves
    with plays (lays, hits, swaps) favoured, so that laid groups are on the table."""
    import json

    from ...game import Game, view
    from ...players.bots import GreedyBot

    pack = pack_named(name)
    r = rng(f"games-probe-play-{name}-{world}")
    logs = []
    for kind in ("greedy", "random"):
        g = Game.new(pack, PROBE_PLAYERS, seed=r.randrange(10_000), world=world)
        bots = {p: GreedyBot(k) for k, p in enumerate(PROBE_PLAYERS)}
        for _ in range(PROBE_MOVES):
            if g.over:
                break
            st = g.state
            if kind == "greedy":
                move = bots[st.to_move].choose(view(st, st.to_move))
            else:
                moves = g.legal_moves()
                plays = [m for m in moves if isinstance(m, (mv.Lay, mv.Hit, mv.Swap))]
                move = r.choice(plays) if plays and r.random() < 0.9 else r.choice(moves)
            g = g.apply(move)
        header, *events = g.to_log()
        # a case's pack is its phases and rules, one world: the log names none
        logs.append([json.dumps({**json.loads(header), "world": None}), *events])
    return logs


def _probe_states(log: list[str], pack: Pack, r: random.Random) -> list[tuple[int, GameState]]:
    """(events before it, state) for a seeded sample of the states a log passes through,
    as the referee reads the log (no seed: the draw pile known only as a multiset); states
    in a turn's play with groups on the table are favoured."""
    from ...game import IllegalMove, apply
    from ...game.log import read_log

    read = read_log(log, pack=pack)
    state = read.state
    seen = []
    for k, ev in enumerate(read.events):
        seen.append((k + 1, state))
        try:
            state = apply(state, ev.move)
        except IllegalMove:  # (a log the in-memory pack reads otherwise: stop there)
            break
    seen = [(k, st) for k, st in seen if st.stage not in ("deal", "over")]
    laid = [x for x in seen if x[1].step == "play" and any(s.laid for s in x[1].seats)]
    # (a state between deal and play, where a pack has one: the first of each)
    picked = list({st.stage: (k, st) for k, st in reversed(seen) if st.stage != "turn"}.values())
    picked += r.sample(seen, min(PROBE_STATES // 2, len(seen)))
    picked += r.sample(laid, min(PROBE_STATES - len(picked), len(laid)))
    return sorted({k: (k, st) for k, st in picked}.values(), key=lambda x: x[0])


def probe_moves(state: GameState) -> list[mv.Move]:
    """``game.candidates`` and the moves a log may hold that no player would list: a lay
    (each one the referee lists, one with a phase number, one of the first cards held), a
    draw after the draw, a card not held, a name that is no player, a deal or a stop mid-hand,
    a declaration in a turn."""
    from ...game import legal_moves
    from ...game.candidates import candidates

    out = candidates(state)
    me = state.to_move
    if state.pawns_due:  # (the next deal before the pawns' record)
        out.append(mv.Deal(tuple((s.name, s.hand) for s in state.seats),
                           state.table.deck.all_cards()[0]))
    if me is None or state.stage in ("deal", "over"):
        return out
    seat = state.seat(me)
    held = set(seat.hand)
    out.append(mv.Stop())
    out.append(mv.Deal(tuple((s.name, s.hand) for s in state.seats), seat.hand[0]))
    out += [mv.Declare(me, n) for n in (1, len(state.table.entries) + 1)]
    if state.stage != "turn":
        return out
    out.append(mv.Discard(me, seat.hand[0], "nobody-here"))
    if state.step == "draw":
        return out
    out += [mv.Draw(me, "deck"), mv.Draw(me, "discard")]
    gone = [c for c in dict.fromkeys(state.table.deck.all_cards()) if c not in held][:2]
    out += [mv.Discard(me, c) for c in gone]
    out += [mv.Hit(me, c, me, 1) for c in gone]
    out.append(mv.Hit(me, seat.hand[0], "nobody-here", 1))
    lays = [m for m in legal_moves(state) if isinstance(m, mv.Lay)][:2]
    out += lays
    out += [mv.Lay(me, lay.groups, n) for lay in lays[:1]
            for n in range(1, len(state.table.entries) + 2)]
    out.append(mv.Lay(me, (tuple(seat.hand[:3]),)))
    out.append(mv.Lay(me, (tuple(seat.hand),)))
    return out


def games_probes() -> Iterator[Raw]:
    """Each rule code the referee gives in a pack, probed: every candidate move
    (`game.candidates`) tried on sampled states of the pack's seeded games, the illegal
    ones grouped by rule code, up to two cases per code (the log to that state and the
    move), and a legal move of each type."""
    import json

    from ...game import IllegalMove, apply
    from ..answers import games as referee
    from ..ruleset import game_pack

    for name, world in GAME_PACKS:
        key = f"{name}{'-' + world if world else ''}"
        pack = pack_named(name)
        w = pack.world(world)
        ch = changes_of(full(w.settings))
        rules = full_rules(ch)
        phases = [e.text for e in w.phases]
        board = board_document(pack.board) if pack.board is not None else None
        mem = game_pack(rules, phases, board)
        r = rng(f"games-probe-{key}")
        illegal: dict[str, list[tuple[list[str], mv.Move]]] = {}
        legal: dict[str, list[tuple[list[str], mv.Move]]] = {}
        for log in _probe_games(name, world):
            for k, state in _probe_states(log, mem, r):
                for move in probe_moves(state):
                    try:
                        apply(state, move)
                    except IllegalMove as e:
                        illegal.setdefault(e.rule, []).append((log[:k], move))
                        continue
                    legal.setdefault(type(move).__name__, []).append((log[:k], move))
        picks = [(code, f"rule {code}", found) for code, found in sorted(illegal.items())]
        picks += [(f"legal-{t.lower()}", f"a legal {t.lower()}", found)
                  for t, found in sorted(legal.items())]
        for label, what, found in picks:
            want = LEGAL_PER_TYPE if label.startswith("legal-") else PROBES_PER_CODE
            # (spread over the states found: the first and then a seeded other)
            order = [found[0], *r.sample(found[1:], min(len(found) - 1, 8))]
            n = 0
            for prefix, move in order:
                if n == want:
                    break
                trial = {"phases": phases,
                         "log": [json.loads(line) for line in prefix] + [move.to_log()]}
                if board is not None:
                    trial["board"] = board
                got = referee(rules, trial)
                err = got["error"]
                if label.startswith("legal-") != got["legal"] or (
                        err is not None and (err["line"] != len(trial["log"])
                                             or err["rule"] != label)):
                    continue
                yield {"id": f"games-probe-{key}-{label.replace('_', '-')}-{n}",
                       "description": f"a game of {name}{' / ' + world if world else ''} "
                                      f"at line {len(prefix)}, then {what} "
                                      f"({type(move).__name__.lower()})",
                       "changes": ch, "input": trial, "expected": got}
                n += 1


ORIGINAL_PHASES = ["2 sets of 3", "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4",
                   "1 run of 7", "1 run of 8", "1 run of 9", "2 sets of 4",
                   "7 cards of one color", "1 set of 5 + 1 set of 2", "1 set of 5 + 1 set of 3"]


def fragment_event(text: str) -> dict:
    """One event of a hand-written fragment, in a short form (docs: FRAGMENTS)."""
    if text.startswith("{"):  # an event as the log writes it
        return json.loads(text)
    if text.startswith("deal "):
        rest, _, piles = text[5:].partition(" piles ")
        hands, _, up = rest.rpartition(" up ")
        ev = {"type": "deal", "up": up.strip(),
              "hands": {p.strip(): cards.split() for p, _, cards in
                        (h.partition(":") for h in (hands or rest).split("/"))}}
        if piles:  # deal ... piles R5 | S B7 | G12 (each pile bottom first)
            ev["piles"] = [p.split() for p in piles.split("|")]
            ev["up"] = ev["piles"][0][-1]
        return ev
    if text.startswith("pawns "):  # pawns ann 4 bob 1
        said = text.split()[1:]
        return {"type": "pawns", "spaces": {p: int(n) for p, n in zip(said[::2], said[1::2],
                                                                      strict=True)}}
    if text == "stop":
        return {"type": "stop"}
    player, _, rest = text.partition(": ")
    verb, *args = rest.split()
    ev: dict = {"type": verb, "player": player}
    if verb == "draw":  # draw deck R5 | draw discard [PILE] | draw save R5
        ev["from"] = args[0]
        if args[1:] and args[0] == "discard":
            ev["pile"] = int(args[1])
        elif args[1:]:
            ev["card"] = args[1]
    elif verb == "lay":  # lay R5 B5 W | G7 G8 G9 G10 [phase N]
        if "phase" in args:
            ev["phase"] = int(args[-1])
            args = args[:-2]
        ev["groups"] = [g.split() for g in " ".join(args).split("|")]
    elif verb in ("hit", "swap"):  # hit CARD OWNER GROUP | swap CARD OWNER GROUP [END]
        ev["card"] = args[0]
        ev["on"] = {"player": args[1], "group": int(args[2])}
        if args[3:]:
            ev["end"] = args[3]
    elif verb == "discard":  # discard CARD [skip P] [down P] [pile N]
        ev["card"] = args[0]
        for k in range(1, len(args) - 1, 2):
            ev[args[k]] = int(args[k + 1]) if args[k] == "pile" else args[k + 1]
    elif verb == "choose":  # choose twist | choose SPACE
        ev["choice"] = args[0] if args[0] == "twist" else int(args[0])
    elif verb == "save":
        ev["card"] = args[0]
    elif verb == "declare":
        ev["phase"] = int(args[0])
    elif verb == "give":
        ev["to"] = args[0]
    elif verb == "abandon":
        ev["cards"] = args
    return ev


# Hand-written fragments: explicit deals (no seed), so that the hands are chosen. A row:
# (name, description, rules changes, phases or None for the printed ten, players (the last
# deals), events one a line in a short form: "deal ann: R1 ... / bob: ... up G5",
# "ann: draw deck R5", "ann: draw discard", "ann: lay R5 B5 W | G7 G8 G9 G10",
# "ann: hit G11 bob 2", "ann: discard S skip bob", "ann: save R3", "ann: declare 4",
# "ann: swap R6 bob 1 low", "ann: abandon R1 R2", "stop"), and what the referee must say:
# "legal" or the rule code of the last line; "{deal3}" and "{deal2}" are FRAGMENT_DEALS' deals.
# Append only: a row's name is its id.
FRAGMENT_DEALS = {
    "deal3": "deal ann: S R1 R2 R3 R4 B6 B7 B8 B9 G10 / bob: S Y1 Y2 Y3 Y4 G6 G7 G8 G9 R10 / "
             "cat: R11 R12 B11 B12 G11 G12 Y11 Y12 Y10 B10 up R9",
    "deal2": "deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12",
}


# ann lays and hits until her last card is hit (going out by play).
OUT_BY_HIT = """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
    """


# The hand the tie-break fragments start from: a one-phase game ("2 sets of 3") that both
# players make in the first hand, ann going out with the lower total.
TIE_HAND = """
        deal ann: R5 B5 G5 R7 B7 G7 Y5 Y7 G5 G7 / bob: R9 B9 G9 R11 B11 G11 Y1 Y2 Y3 Y4 up R12
        ann: draw deck B1
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: discard B1
        bob: draw deck G1
        bob: lay R9 B9 G9 | R11 B11 G11
        bob: discard G1
        ann: draw deck Y5
        ann: hit Y5 ann 1
        ann: hit Y7 ann 2
        ann: hit G5 ann 1
        ann: hit G7 ann 2
        ann: discard Y5
"""


FRAGMENTS: list[tuple[str, str, dict, list[str] | None, str, str, str]] = [
    # -- skips (three players: cat deals, ann plays first)
    ("skip-twice", "a skip onto a player already due to lose a turn", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
        bob: draw deck G2
        bob: discard S skip cat
    """, "skip_twice_in_round"),
    ("skip-twice-allowed", "a player skipped twice in one round where the pack allows it",
     {"house_rules.skip_once_per_round": False}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
        bob: draw deck G2
        bob: discard S skip cat
        ann: draw deck G3
    """, "legal"),
    ("skip-self", "a skip naming the player who discards it", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip ann
    """, "skip_target"),
    ("skip-no-target", "a skip naming nobody where the discarder chooses", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
    """, "skip_target"),
    ("skip-next-player", "skip_target next_player: a skip naming nobody skips the next player",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
        cat: draw deck G2
    """, "legal"),
    ("skip-next-player-moves", "skip_target next_player: the skipped next player moves",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S
        bob: draw deck G2
    """, "not_your_turn"),
    ("skip-next-player-named-other", "skip_target next_player: a skip naming a player past the next",
     {"house_rules.skip_target": "next_player"}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip cat
    """, "skip_target"),
    ("skip-skipped-moves", "the skipped player moves in their lost turn", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip bob
        bob: draw deck G2
    """, "not_your_turn"),
    ("skip-from-discard", "taking a discarded skip from the pile", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard S skip bob
        cat: draw discard
    """, "skip_from_discard"),
    ("skip-on-a-natural", "a skip target on a card that is no skip", {}, None, "ann bob cat", """
        {deal3}
        ann: draw deck G1
        ann: discard G1 skip bob
    """, "not_a_skip"),
    # -- going out (two players: bob deals, ann plays first; phase 1 is two sets of three)
    ("out-by-discard", "going out: a lay, four hits onto one's own set, the last card discarded",
     {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
    """, "legal"),
    ("out-by-skip", "going out with a skip: it skips nobody", {}, None, "ann bob", """
        {deal2}
        ann: draw deck S
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard S skip bob
        deal ann: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 / bob: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 up R12
        bob: draw deck R9
    """, "legal"),
    ("out-by-hit", "the last card hit onto a group where a hand ends only with a discard",
     {}, None, "ann bob", OUT_BY_HIT, "cannot_go_out_by_play"),
    ("out-by-hit-allowed", "going out by a hit of the last card (go_out_without_discard)",
     {"house_rules.go_out_without_discard": True}, None, "ann bob", OUT_BY_HIT, "legal"),
    ("out-too-soon", "going out before play has come round to the dealer (postal rule)",
     {"house_rules.go_out_after_first_round": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
    """, "cannot_go_out_yet"),
    # -- tie-breaks: a one-phase game, both players make it in the first hand, ann goes out
    ("tie-lowest-score", "both finish the last phase in one hand: the lowest total wins",
     {}, ["2 sets of 3"], "ann bob", TIE_HAND, "legal"),
    ("tie-replay-last-phase", "both finish the last phase in one hand: both play a tie-break hand",
     {"house_rules.tie_break": "replay_last_phase"}, ["2 sets of 3"], "ann bob", TIE_HAND, "legal"),
    ("tie-replay-played", "the tie-break hand on the last phase made: the first out wins",
     {"house_rules.tie_break": "replay_last_phase"}, ["2 sets of 3"], "ann bob",
     TIE_HAND + """        {deal2}
        bob: draw deck R9
        bob: discard R9
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
    """, "legal"),
    ("tie-over", "no tie-break hand where the lowest total has won", {}, ["2 sets of 3"],
     "ann bob",
     TIE_HAND + """        {deal2}
    """, "game_over"),
    ("tie-break-phase", "a tie-break hand of its own phase: the first to lay it wins",
     {"house_rules.tie_break": "replay_last_phase",
       "house_rules.tie_break_phase": "1 set of 3"}, ["2 sets of 3"], "ann bob",
     TIE_HAND + """        {deal2}
        bob: draw deck R9
        bob: discard R9
        ann: draw deck R9
        ann: lay R5 B5 G5
    """, "legal"),
    # -- the save pile (Masters)
    ("save-no-pile", "a save without the save pile", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
    """, "no_save_pile"),
    ("save-and-draw-back", "a card saved, then drawn back from the save pile",
     {"house_rules.save_pile": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw save R9
    """, "legal"),
    ("save-twice", "a second save in one hand", {"house_rules.save_pile": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: save R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw deck Y11
        ann: save Y11
    """, "already_saved"),
    ("save-last-card", "saving the going-out card", {"house_rules.save_pile": True}, None,
     "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: save R9
    """, "cannot_save_last_card"),
    # -- declared phases (Masters)
    ("declare-missing", "a draw before the player has declared their phase",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
    """, "must_declare"),
    ("declare-and-lay", "phases declared at the deal, the declared phase laid",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 1
        bob: declare 2
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
    """, "legal"),
    ("declare-other-laid", "a lay naming a phase that is not the one declared",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 2
        bob: declare 1
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7 phase 1
    """, "wrong_phase"),
    ("declare-no-such-phase", "a declared phase the game does not have",
     {"phase_order": "any", "house_rules.declare_phase": "at_deal"}, None, "ann bob", """
        {deal2}
        ann: declare 11
    """, "phase_not_available"),
    ("declare-printed", "a declaration under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: declare 1
    """, "declare_not_allowed"),
    ("declare-when-laying-none", "a lay naming no phase where it is declared when laying",
     {"phase_order": "any", "house_rules.declare_phase": "when_laying"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
    """, "phase_not_declared"),
    ("declare-when-laying", "a lay naming its phase where it is declared when laying",
     {"phase_order": "any", "house_rules.declare_phase": "when_laying"}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7 phase 1
    """, "legal"),
    # -- the take-back (Japanese page)
    ("take-back-printed", "a natural swapped for a laid wild under the printed rules", {}, None,
     "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
    """, "swap_not_allowed"),
    ("take-back-reused", "a wild taken back and hit again the same turn",
     {"wilds.take_back": True, "house_rules.wild_reuse_same_turn": True}, None, "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
        ann: hit W ann 2
        ann: discard R9
    """, "legal"),
    ("take-back-discarded", "a wild taken back and discarded the same turn",
     {"wilds.take_back": True, "house_rules.wild_reuse_same_turn": True}, None, "ann bob", """
        deal ann: R5 B5 W R7 B7 G7 G5 Y5 R1 R2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 W | R7 B7 G7
        ann: swap G5 ann 1
        ann: discard W
    """, "must_reuse_wild"),
    # -- abandoning a phase (Masters variant 2)
    ("abandon-printed", "a phase abandoned under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: abandon R4 R6 R8 B4 B6 B8
    """, "abandon_not_allowed"),
    ("abandon", "a phase laid and abandoned in one turn, six cards drawn",
     {"house_rules.abandon_phase": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: abandon R4 R6 R8 B4 B6 B8
        ann: discard R9
    """, "legal"),
    ("abandon-later", "a phase abandoned a turn after it was laid",
     {"house_rules.abandon_phase": True}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: discard R9
        bob: draw deck Y1
        bob: discard Y1
        ann: draw deck Y11
        ann: abandon R4 R6 R8 B4 B6 B8
    """, "abandon_not_allowed"),
    # -- a plain wild hit onto a run open at both ends, then a natural only one end leaves room for
    ("hit-end", "a plain W onto 4-7 goes high (W=8): a 3 then fits below",
     {}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B3 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B3 ann 2
    """, "legal"),
    ("hit-end-low", "a plain W onto 4-7 goes low under hit_end low (W=3): a 3 no longer fits",
     {"wilds.hit_end": "low"}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B3 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B3 ann 2
    """, "hit_does_not_fit"),
    ("hit-end-low-high-card", "under hit_end low an 8 fits above a W hit onto 4-7",
     {"wilds.hit_end": "low"}, ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B8 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W ann 2
        ann: hit B8 ann 2
    """, "legal"),
    ("hit-end-stated", "a W=3 onto 4-7 says its end: an 8 then fits above", {},
     ["1 set of 3 + 1 run of 4", "2 sets of 3"], "ann bob", """
        deal ann: R5 B5 G5 R4 R5 R6 R7 W B8 Y2 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck Y9
        ann: lay R5 B5 G5 | R4 R5 R6 R7
        ann: hit W=3 ann 2
        ann: hit B8 ann 2
    """, "legal"),
    # -- deals, the end of a hand, the clock
    ("deal-short", "a hand dealt nine cards", {}, None, "ann bob", """
        deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
    """, "bad_deal"),
    ("deal-stranger", "a deal to a player who is not in the game", {}, None, "ann bob", """
        deal ann: R5 B5 G5 Y5 R5 B5 G5 R7 B7 G7 / zed: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
    """, "bad_deal"),
    ("no-deal-after-out", "a draw where the next hand's deal is due", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard R9
        bob: draw deck R9
    """, "not_now"),
    ("stop", "a stop where the clock rule is played", {"house_rules.baseball_short_game": True},
     None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: discard R9
        stop
    """, "legal"),
    ("stop-printed", "a stop under the printed rules", {}, None, "ann bob", """
        {deal2}
        ann: draw deck R9
        ann: discard R9
        stop
    """, "stop_not_allowed"),
    # -- dealer's choice of a turned-up wild
    ("dealer-choice-draw", "a draw before the dealer gives the turned-up wild",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        ann: draw deck R9
    """, "dealer_must_choose"),
    ("dealer-choice-given", "the turned-up wild given; its receiver discards",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: discard G7
        bob: draw deck R9
    """, "legal"),
    ("dealer-choice-draws", "the receiver of the turned-up wild draws instead of discarding",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: draw deck R9
    """, "must_discard"),
    ("dealer-choice-skip", "the receiver of the turned-up wild discards a skip",
     {"house_rules.dealer_chooses_wild_recipient": True}, None, "ann bob", """
        deal ann: S B5 G5 Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up W
        bob: give ann
        ann: discard S skip bob
    """, "skip_not_allowed"),
    # -- floating: every card played out, the floater goes on
    ("float-takes-playable", "a floater draws from the deck past a playable discard",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck Y7
        bob: discard Y7
        ann: draw deck R9
    """, "must_take_playable"),
    ("float-plays-drawn", "a floater discards a drawn card that fits a laid group",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck R4
        bob: discard R4
        ann: draw deck Y7
        ann: discard Y7
    """, "must_play_drawn"),
    ("float-out", "a floater goes out by discarding a drawn card that fits nothing",
     {"house_rules.floating": True}, None, "ann bob", """
        {deal2}
        ann: draw deck Y5
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: hit Y5 ann 1
        bob: draw deck R4
        bob: discard R4
        ann: draw deck Y9
        ann: discard Y9
    """, "legal"),
    # -- the anti-phase card (A)
    ("anti-phase-laid", "the anti-phase card laid in a group",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        deal ann: R5 B5 A Y5 R5 B5 G5 R7 B7 G7 / bob: R1 R2 R3 B1 B2 B3 G1 G2 G3 Y12 up R12
        ann: draw deck R9
        ann: lay R5 B5 A | R7 B7 G7
    """, "not_a_phase_card"),
    ("anti-phase-out", "going out with the anti-phase card, naming who moves down",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard A down bob
    """, "legal"),
    ("anti-phase-out-nobody", "going out with the anti-phase card naming nobody",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: lay R5 B5 G5 | R7 B7 G7
        ann: hit Y5 ann 1
        ann: hit R5 ann 1
        ann: hit B5 ann 1
        ann: hit G5 ann 1
        ann: discard A
    """, "anti_phase_target"),
    ("anti-phase-early", "the anti-phase card discarded naming a player while cards are held",
     {"house_rules.anti_phase_for_others": True}, None, "ann bob", """
        {deal2}
        ann: draw deck A
        ann: discard A down bob
    """, "anti_phase_not_last"),

]


# A board race for the board fragments: five spaces (phase 1, phase 2, a twist space,
# phase 3, phase 4), two twist cards, three discard piles, skips placed in front.
RACE_BOARD = {"spaces": [1, 2, "twist", 3, 4], "twist_phases": ["1 set of 2", "1 run of 3"],
              "moves": {"made_out": 3, "made": 2, "missed": 1, "twist_made_out": 6,
                        "twist_made": 4, "twist_missed": -1},
              "start_needs_phase": True, "discard_piles": 3, "skip_placement": "in_front"}
RACE_PHASES = ["2 sets of 3", "1 run of 4", "1 set of 4", "1 set of 3"]
_RACE_HANDS = ("ann: S R1 R2 R3 B4 B5 B6 G7 G8 G9 / bob: Y1 Y2 Y3 R10 B10 G10 Y10 R11 B11 G11 / "
               "cat: R12 B12 G12 Y12 R4 B7 G1 Y6 R8 B9")
RACE_DEAL = f"deal {_RACE_HANDS} piles R5 | S B7 | G11"
# A first hand on the race whose phase 1 is a set of nine: bob (first to play) makes it and
# keeps a card, ann makes it and goes out: bob's pawn moves 2 spaces onto the twist space,
# ann's 3.  The second hand turns a twist card for bob, who chooses before anyone plays.
SET_PHASES = ["1 set of 9", "1 run of 4", "1 set of 4", "1 set of 3"]
FIRST_HAND = """
        deal bob: R5 R5 B5 B5 G5 G5 Y5 Y5 W R1 / ann: R7 R7 B7 B7 G7 G7 Y7 Y7 W W piles R9 | B9 | G9
        bob: draw deck G2
        bob: lay R5 R5 B5 B5 G5 G5 Y5 Y5 W
        bob: discard R1 pile 2
        ann: draw deck R3
        ann: lay R7 R7 B7 B7 G7 G7 Y7 Y7 W
        ann: hit W ann 1
        ann: discard R3 pile 3"""
SECOND_DEAL = ('{"type": "deal", "hands": {"bob": ["R1", "R2", "R3", "B4", "B5", "B6", "G7", '
               '"G8", "G9", "G12"], "ann": ["Y1", "Y2", "Y3", "R10", "B10", "G10", "Y10", "R11", '
               '"B11", "G11"]}, "piles": [["R5"], ["B7"], ["G5"]], "twists": {"bob": "1 set of '
               '2"}}')

# Board fragments, as FRAGMENTS (name, description, board, phases, players, events, what the
# referee says); append only.
BOARD_FRAGMENTS: list[tuple[str, str, dict, list[str], str, str, str]] = [
    ("board-draw-each-pile", "draws from and discards onto three piles", RACE_BOARD,
     RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw discard 2
        ann: discard G9 pile 3
        bob: draw discard 3
        bob: discard G9 pile 3
        cat: draw discard 1
        cat: discard R4 pile 1
    """, "legal"),
    ("board-empty-pile", "a draw from a pile emptied (its last card taken, a skip placed "
     "instead of a discard)", RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw discard 3
        ann: discard S skip bob
        cat: draw discard 3
    """, "card_not_available"),
    ("board-emptied-pile", "a discard onto another pile after taking a pile's last card",
     RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw discard 1
        ann: discard G9 pile 2
    """, "must_discard_on_emptied"),
    ("board-skip-on-pile", "a skip discarded onto a pile where skips are placed in front",
     RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw deck Y4
        ann: discard S skip cat pile 2
    """, "skip_in_front"),
    ("board-skip-taken", "a skip taken from a pile (allowed where skips are placed in front)",
     RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw discard 2
        ann: discard G9 pile 2
        bob: draw discard 2
        bob: discard G11 pile 2
        cat: draw discard 2
        cat: discard R4 pile 2
        ann: draw discard 2
        ann: discard G8 pile 1
        bob: draw discard 2
    """, "legal"),
    ("board-two-skips-in-front", "a second skip in front of the same player (one taken from a "
     "pile)", RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: draw discard 2
        ann: discard S skip cat
        bob: draw discard 2
        bob: discard S skip cat
    """, "skip_in_front"),
    ("board-no-such-pile", "a draw from a second pile on a board of one",
     {**RACE_BOARD, "discard_piles": 1}, RACE_PHASES, "ann bob cat", f"""
        deal {_RACE_HANDS} up R5
        ann: draw discard 2
    """, "no_such_pile"),
    ("board-piles-of-deal", "a deal that starts two piles on a board of three", RACE_BOARD,
     RACE_PHASES, "ann bob cat", f"""
        deal {_RACE_HANDS} piles R5 | B7
    """, "bad_deal"),
    ("board-skip-on-top", "a pile started with a skip on top (a skip turned up is covered)",
     RACE_BOARD, RACE_PHASES, "ann bob cat", f"""
        deal {_RACE_HANDS} piles R5 | B7 S | G11
    """, "bad_deal"),
    ("board-choose-off-twist", "a twist chosen on a space that is no twist space", RACE_BOARD,
     RACE_PHASES, "ann bob cat", f"""
        {RACE_DEAL}
        ann: choose twist
    """, "not_a_twist_space"),
    ("board-hand-then-twist", "a hand played out, the pawns moved (one onto a twist space), "
     "the twist card turned and chosen", RACE_BOARD, SET_PHASES, "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 3
        {SECOND_DEAL}
        bob: choose twist
        ann: draw deck Y4
    """, "legal"),
    ("board-hand-then-neighbour", "a neighbouring space's phase chosen on a twist space",
     RACE_BOARD, SET_PHASES, "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 3
        {SECOND_DEAL}
        bob: choose 2
    """, "legal"),
    ("board-pawn-moved-wrong", "a pawn recorded one space too far", RACE_BOARD, SET_PHASES,
     "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 4
    """, "pawn_moved_wrong"),
    ("board-pawns-not-all", "a pawns' record that leaves out a player", RACE_BOARD, SET_PHASES,
     "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4
    """, "bad_pawns"),
    ("board-pawns-unrecorded", "the next deal before the pawns' moves are recorded",
     RACE_BOARD, SET_PHASES, "bob ann", f"""
        {FIRST_HAND}
        {SECOND_DEAL}
    """, "pawns_not_moved"),
    ("board-choose-far-space", "a twist choice of a space that is no neighbour", RACE_BOARD,
     SET_PHASES, "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 3
        {SECOND_DEAL}
        bob: choose 5
    """, "not_a_choice"),
    ("board-play-before-choosing", "a draw before the twist choice", RACE_BOARD, SET_PHASES,
     "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 3
        {SECOND_DEAL}
        ann: draw deck Y4
    """, "must_choose"),
    ("board-twist-not-turned", "a deal that turns no twist card for a pawn on a twist space",
     RACE_BOARD, SET_PHASES, "bob ann", f"""
        {FIRST_HAND}
        pawns ann 4 bob 3
        {SECOND_DEAL.replace(', "twists": {"bob": "1 set of 2"}', '')}
    """, "bad_deal"),
    ("board-no-board", "a twist choice in a game with no board", {}, RACE_PHASES, "ann bob cat",
     f"""
        deal {_RACE_HANDS} up R5
        ann: choose twist
    """, "no_board"),
]


def games_handwritten() -> Iterator[Raw]:
    # (each keeps the rules it was written under: its answer may be the printed rules' too,
    # for another reason, and a case cut to the printed rules no longer tests its corner)
    for name, description, ch, phases, players, events, _ in FRAGMENTS:
        names = players.split()
        header = {"type": "game", "variant": "original", "world": None, "players": names,
                  "dealer": names[-1]}
        lines = events.format_map(FRAGMENT_DEALS).strip().splitlines()
        log = [header] + [fragment_event(line.strip()) for line in lines]
        yield {"id": f"games-hand-{name}", "description": description, "changes": ch,
               "input": {"phases": phases or ORIGINAL_PHASES, "log": log}, "keep": True}
    for name, description, board, phases, players, events, _ in BOARD_FRAGMENTS:
        names = players.split()
        header = {"type": "game", "variant": "original", "world": None, "players": names,
                  "dealer": names[-1]}
        log = [header] + [fragment_event(line.strip()) for line in events.strip().splitlines()]
        inp = {"phases": phases, "log": log, **({"board": board} if board else {})}
        yield {"id": f"games-hand-{name}", "description": description, "changes": {},
               "input": inp, "keep": True}


def full_rules(ch: dict) -> dict:
    from ..ruleset import with_changes

    return with_changes(printed(), ch)
