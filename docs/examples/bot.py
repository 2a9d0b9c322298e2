#!/usr/bin/env python3
"""A complete phasedsl bot in plain Python (no phasedsl import): docs/bot-protocol.md.

    phasedsl tournament --bot "cmd:python3 docs/examples/bot.py" --bot greedy --games 10

It reads one JSON object a line on stdin and answers each "move" request with one line on
stdout.  Its play: lay the phase and hit whenever it can; take the top discard when it
matches a number it holds twice (else draw from the deck); discard the card it holds
fewest copies of, highest points first, never a wild; aim a skip at the leader.
"""

import json
import sys
from collections import Counter

POINTS = {"W": 25, "S": 15}


def points(card: str) -> int:
    if card in POINTS:
        return POINTS[card]
    number = int(card[1:]) if card[1:].isdigit() else 0
    return 5 if number < 10 else 10


def number(card: str) -> int | None:
    return int(card[1:]) if card[1:].isdigit() else None


def choose(view: dict, moves: list[dict]) -> int:
    kinds = [m["type"] for m in moves]
    for kind in ("lay", "hit"):  # the phase and every hit as soon as they are offered
        if kind in kinds:
            return kinds.index(kind)
    if "declare" in kinds:  # Masters: the lowest phase offered
        return min(range(len(moves)), key=lambda k: moves[k].get("phase", 0)
                   if kinds[k] == "declare" else 99)
    held = Counter(number(c) for c in view["hand"] if number(c) is not None)
    if "draw" in kinds:
        top = view["discard"][-1] if view["discard"] else None
        for k, m in enumerate(moves):
            if m["type"] == "draw" and m["from"] == "discard" and top and (
                    top == "W" or held.get(number(top), 0) >= 2):
                return k
        return next(k for k, m in enumerate(moves) if m["type"] == "draw")
    discards = [k for k, m in enumerate(moves) if m["type"] == "discard"]
    if not discards:
        return 0  # a save, a dealer's choice: the first is as good as any here
    leader = min(view["players"], key=lambda p: (-len(p["done"]), p["total"]))["name"]

    def worth(k: int) -> tuple:
        m = moves[k]
        card = m["card"]
        aimed = m.get("skip") in (None, leader)
        return (card != "W", aimed, -held.get(number(card), 0), points(card))

    return max(discards, key=worth)


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "move":
            answer = {"move": choose(request["view"], request["moves"])}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()  # an answer waiting in a buffer is a timeout
        elif request["type"] == "over":
            break  # "hello" needs no answer; after "over" nothing more comes


if __name__ == "__main__":
    main()
