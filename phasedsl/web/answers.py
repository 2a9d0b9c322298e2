"""What each request of ``phasedsl serve`` answers, as plain functions of JSON-ready values
(the routes in ``app`` only read the request and write the response).  Every answer is the
CLI's own: the same parser, solver, lint, balance and report, and bad input raises the
same errors (``errors.error_json`` gives them the CLI's JSON form).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PhaseDSLError
from ..model.rules import Rules

if TYPE_CHECKING:
    from ..packs.pack import Pack

# The largest text a request may carry (a pack is a small file; the CLI reads up to 1 MB).
MAX_TEXT = 200_000
MAX_CARDS = 200
# The most games a simulation the browser asks for plays (balance's and report's cap).
MAX_GAMES = 80
# Seconds each kind of work may take here before it is refused with the reason.
PHRASE_SECONDS = 20.0
LINT_SECONDS = 20.0  # (lint asks the solver whether each phase can be made at all)
BALANCE_SECONDS = 180.0
REPORT_SECONDS = 180.0
DICE_SECONDS = 180.0  # (a dice phase's tables, the first time; cached on disk after)


def text_of(value, what: str, most: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise PhaseDSLError(f"{what}: expected text")
    if len(value) > most:
        raise PhaseDSLError(f"{what}: {len(value):,} characters, more than the {most:,} "
                            "a request may carry")
    return value


def builtin(name) -> Pack:
    """A built-in pack by name: the only packs a request may name."""
    from ..packs.pack import builtin_names, load_pack

    if not isinstance(name, str) or name not in builtin_names():
        raise PhaseDSLError(f"no built-in pack {str(name)[:60]!r} (the browser reads built-in "
                            "packs only; paste a pack of your own in the editor)")
    return load_pack(name)


def rules_of(pack_name: str | None) -> Rules:
    """The rules of a built-in pack (original by default)."""
    return builtin("original" if pack_name is None else pack_name).rules


def card_rules_of(pack_name: str | None) -> Rules:
    """``rules_of`` a pack of cards: a dice pack's words are faces, judged by the hold."""
    pack = builtin("original" if pack_name is None else pack_name)
    if pack.dice is not None:
        raise PhaseDSLError(f"{pack.name} is a Phase 10 Dice pack: its hands are rolls "
                            "(the dice tab judges them)")
    return pack.rules


def phrase(body: dict) -> dict:
    """A phrase read: its canonical form, plain words, groups and cards; the dealt chance
    comes apart (``dealt``), as it can take seconds."""
    from ..model.phase import Phase

    rules = rules_of(body.get("pack"))
    phase = Phase.parse(text_of(body.get("phrase"), "phrase", 2_000), rules.deck)
    return {"phrase": body["phrase"], "canonical": phase.canonical(rules.deck),
            "plain": phase.plain(rules.deck), "cards_needed": phase.cards_needed,
            "groups": [{"canonical": g.describe(rules.deck), **g.to_json(rules.deck)}
                       for g in phase.groups]}


def dealt(body: dict) -> dict:
    """The chance a dealt hand makes the phrase (``odds``' figure, from the same cache)."""
    from ..design.difficulty import known_odds
    from ..model.phase import Phase
    from .work import bounded

    rules = card_rules_of(body.get("pack"))
    phase = Phase.parse(text_of(body.get("phrase"), "phrase", 2_000), rules.deck)
    got = bounded(known_odds, phase, rules, seconds=PHRASE_SECONDS,
                  what=f"the dealt chance of {phase}")
    return got.to_json() | {"describe": got.describe()}


def check(body: dict) -> dict:
    """Whether the cards make the phrase, with the groups and what each wild stands for,
    or what is missing (``check --json``), and the words ``check`` prints."""
    from .. import api
    from ..model.phase import Phase

    rules = card_rules_of(body.get("pack"))
    phase = Phase.parse(text_of(body.get("phrase"), "phrase", 2_000), rules.deck)
    # (read as ``check`` reads a hand: W=R5 is refused, a wild in hand stands for nothing)
    hand = api.held(text_of(body.get("cards"), "cards", 4 * MAX_CARDS), rules)
    if len(hand) > MAX_CARDS:
        raise PhaseDSLError(f"{len(hand)} cards; a hand here holds at most {MAX_CARDS}")
    result = api.check_json(phase, hand, rules)
    return result | {"text": api.check_text(phase, result, deck=rules.deck)}


def lint(body: dict) -> dict:
    """A pack's text checked as ``lint`` checks a file: every problem at its line and
    column, and each phase's canonical form (of what reads)."""
    from ..packs.pack import check_text

    text = text_of(body.get("yaml"), "pack")
    pack, diags = check_text(text)
    worlds = []
    if pack is not None:
        for w in pack.worlds:
            worlds.append({"name": w.name, "title": w.title,
                           "phases": [{"number": e.number, "text": e.text,
                                       "canonical": e.phase.canonical(w.rules.deck)}
                                      for e in w.phases]})
    return {"ok": pack is not None and not any(d.severity == "error" for d in diags),
            "problems": [d.to_json() for d in diags], "worlds": worlds}


def loaded(text: str):
    """The pack of an editor's text, or the CLI's error for it (``PackError``)."""
    from ..errors import PackError
    from ..packs.pack import check_text

    pack, diags = check_text(text_of(text, "pack"), strict=False)
    errors = [d for d in diags if d.severity == "error"]
    if pack is None or errors:
        raise PackError(errors or diags)
    return pack


def balance_work(text: str, world: str | None, games: int, progress=None) -> dict:
    """``balance`` of the editor's pack (one world) and its proposed order written into the
    text (``reorder.reordered_text``): run in a child by ``app``."""
    from ..cli.design import balance_text
    from ..design.balance import balance
    from ..design.reorder import reordered_text

    pack = loaded(text)
    name = world if len(pack.worlds) > 1 else None
    tick = progress and (lambda done, total: progress(done, total))
    b = balance(pack, name, None, games, jobs=1, all_sizes=False, progress=tick)
    proposed = None
    if b.proposed.order != b.current.order:
        proposed = reordered_text(pack, text, {name: b.proposed.order},
                                  f"phasedsl balance (in phasedsl serve, {games} games at most)")
    return {"result": b.to_json(), "text": balance_text(b, pack), "proposed_yaml": proposed}


def report_work(text: str, world: str | None, games: int) -> dict:
    """The HTML report of the editor's pack (``report``'s page)."""
    from ..design.report import pack_figures, render_html

    pack = loaded(text)
    figures = pack_figures(pack, world, games=games, jobs=1)
    return {"html": render_html(pack, world, figures)}


def games_of(body: dict) -> int:
    games = body.get("games", MAX_GAMES)
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise PhaseDSLError(f"games: a number of games from 1 to {MAX_GAMES}")
    return games


def packs() -> list[dict]:
    """The built-in packs a page may name (cards and Twist: dice packs play at the
    terminal)."""
    from ..packs.pack import builtin_names, load_pack

    out = []
    for name in builtin_names():
        pack = load_pack(name)
        out.append({"name": name, "title": pack.title, "dice": pack.dice is not None,
                    "board": pack.board is not None,
                    "worlds": [w.name for w in pack.worlds] if len(pack.worlds) > 1 else []})
    return out


def builtin_text(name: str) -> dict:
    """A built-in pack's file, to start the editor from (no other file is read)."""
    from pathlib import Path

    return {"name": name, "yaml": Path(builtin(name).path).read_text(encoding="utf-8")}


def dice_pack(name: str | None):
    """A built-in dice pack by name (``dice`` by default)."""
    pack = builtin(name or "dice")
    if pack.dice is None:
        raise PhaseDSLError(f"{pack.name} is not played with dice (it has no `dice:`)")
    return pack


def dice_table_work(name: str) -> dict:
    """``odds DICEPACK --json``: each phase's exact chance of a turn under the best holds."""
    from ..design.dicereport import dice_tables, highest_score

    pack = dice_pack(name)
    tables = dice_tables(pack, pack.rules_for(None),
                         [(e.number, e.phase) for e in pack.world(None).phases])
    return {"pack": pack.name, "dice": pack.dice.describe(), "rolls": pack.dice.rolls,
            "phases": [t.to_json(i) for i, t in tables],
            "highest_score": highest_score(pack.dice, [t.best_roll for _, t in tables])}


def hold_work(name: str, phase: int, faces: str, rolls_left: int) -> dict:
    """``hold``: which dice to keep before a re-roll, and the exact chance it gives."""
    from ..design.dicereport import hold_advice

    for value, what in ((phase, "phase"), (rolls_left, "rolls left")):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PhaseDSLError(f"{what}: a number")
    entry, advice = hold_advice(dice_pack(name), phase, text_of(faces, "faces", 200).split(),
                                rolls_left)
    return advice.to_json() | {"phase": str(entry.phase)}


def board(body: dict) -> dict:
    """A board pack's track (``show``'s), space by space, and the board as data."""
    from ..packs.pack import board_document

    pack = builtin("twist" if body.get("pack") is None else body["pack"])
    if pack.board is None:
        raise PhaseDSLError(f"{pack.name} is not played on a board (it has no `board:`)")
    w = pack.worlds[0]
    return {"pack": pack.name, "track": list(pack.board.track(tuple(e.phase for e in w.played))),
            "board": board_document(pack.board)}
