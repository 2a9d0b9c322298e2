"""Helpers for hand-written game logs (events as the log writes them)."""

from __future__ import annotations

import json
from pathlib import Path

from phasedsl.game.log import Replay, replay

PLAYERS = ("ann", "bob", "cat")
# Dealt by cat, so ann plays first.  ann holds phase 1 with extras (two sets of four
# and two wilds); bob holds phase 1 exactly plus a skip; cat holds nothing useful.
ANN = "R5 B5 G5 Y5 R7 B7 G7 Y7 W W"
BOB = "R2 B2 G2 R9 B9 G9 Y11 S R12 B12"
CAT = "G1 Y1 R3 B3 G6 Y6 R8 G10 Y11 R10"


def game(variant: str = "original", players=PLAYERS, dealer: str = "cat", world=None) -> dict:
    return {"type": "game", "variant": variant, "world": world, "players": list(players),
            "dealer": dealer}


def deal(up: str = "G12", ann: str = ANN, bob: str = BOB, cat: str | None = CAT, **more) -> dict:
    hands = {"ann": ann.split(), "bob": bob.split()}
    if cat is not None:
        hands["cat"] = cat.split()
    hands.update({k: v.split() for k, v in more.items()})
    return {"type": "deal", "hands": hands, "up": up}


def draw(player: str, card: str | None = None, source: str = "deck") -> dict:
    out = {"type": "draw", "player": player, "from": source}
    if card is not None:
        out["card"] = card
    return out


def lay(player: str, *groups: str, phase: int | None = None) -> dict:
    out: dict = {"type": "lay", "player": player, "groups": [g.split() for g in groups]}
    if phase is not None:
        out["phase"] = phase
    return out


def hit(player: str, card: str, on: str, group: int) -> dict:
    return {"type": "hit", "player": player, "card": card, "on": {"player": on, "group": group}}


def discard(player: str, card: str, skip: str | None = None) -> dict:
    out = {"type": "discard", "player": player, "card": card}
    if skip is not None:
        out["skip"] = skip
    return out


def ann_goes_out() -> list[dict]:
    """ann's first turn: draw, lay both sets with extras and wilds, discard the last card."""
    return [draw("ann", "R1"), lay("ann", "R5 B5 G5 Y5 W", "R7 B7 G7 Y7 W"), discard("ann", "R1")]


def lines(events) -> list[str]:
    return [json.dumps(e) for e in events]


def run(*events: dict, header: dict | None = None, first_deal: dict | None = None) -> Replay:
    """Replay header + a deal (the standard one unless given) + events."""
    head = header if header is not None else game()
    start = [first_deal if first_deal is not None else deal()]
    return replay(lines([head, *start, *events]))


def illegal(*events: dict, **kw) -> str:
    """The rule code of the last event, which must be the first illegal one."""
    r = run(*events, **kw)
    assert not r.legal, "expected the last event to be illegal"
    assert r.error["line"] == len(events) + 2, r.error
    return r.error["rule"]


def legal(*events: dict, **kw) -> Replay:
    r = run(*events, **kw)
    assert r.legal, r.error
    return r


def write_pack(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\ntitle: {name}\ndescription: test pack\nsource: tests\n{body}",
                    encoding="utf-8")
    return str(path)
