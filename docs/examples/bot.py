#!/usr/bin/env python3
"""A complete phasedsl bot in plain Python (no phasedsl import): docs/bot-protocol.md.

    phasedsl tournament --bot "cmd:python3 docs/examples/bot.py" --bot greedy --games 10

It reads one JSON object a line on stdin and answers each "move" request with one line on
stdout.  Its play: lay the phase and hit whenever it can; otherwise keep the cards that
suit the phase it is on (pairs and triples for sets, the fullest window of numbers for a
run, the commonest color for a color group), so it takes the top discard when that makes
its hand better and discards the card it misses least (a skip first, a wild never),
aiming a skip at the leader.
"""

import json
import re
import sys
from collections import Counter


def number(card: str) -> int | None:
    return int(card[1:]) if card[1:].isdigit() else None


def points(card: str) -> int:
    return {"W": 25, "S": 15}.get(card) or (5 if (number(card) or 0) < 10 else 10)


def quality(phase: str, hand: list[str]) -> int:
    """How near the hand is to the phase, roughly: higher is nearer."""
    numbers = Counter(number(c) for c in hand if number(c) is not None)
    score = 0
    if "set" in phase:
        score += sum(min(n, 5) ** 2 for n in numbers.values())
    for length in map(int, re.findall(r"run of (\d+)", phase)):
        score += 4 * max(sum(1 for n in range(low, low + length) if numbers[n])
                         for low in range(1, 14 - length))
    if "color" in phase or "even or odd" in phase:
        colors = Counter(c[0] for c in hand if number(c) is not None)
        score += 3 * max(colors.values(), default=0)
    return score


def choose(view: dict, moves: list[dict]) -> int:
    kinds = [m["type"] for m in moves]
    for kind in ("lay", "hit"):  # the phase and every hit as soon as they are offered
        if kind in kinds:
            return kinds.index(kind)
    if "declare" in kinds:  # Masters: the lowest phase offered
        return min((k for k in range(len(moves)) if kinds[k] == "declare"),
                   key=lambda k: moves[k]["phase"])
    phases = {p["number"]: p["phase"] for p in view["rules"]["phases"]}
    # once the phase is down, nothing is worth keeping but low points
    phase = "" if view["laid"] else phases.get(view["phase"], "")
    hand = view["hand"]

    def best_without(cards: list[str]) -> int:
        # the best hand after a discard (never of a wild: see worth below)
        return max(quality(phase, cards[:i] + cards[i + 1:])
                   for i in range(len(cards)) if cards[i] != "W")

    if "draw" in kinds:
        top = view["discard"][-1] if view["discard"] else None
        for k, m in enumerate(moves):
            if m["type"] == "draw" and m["from"] == "discard" and top and phase and (
                    top == "W" or best_without(hand + [top]) > quality(phase, hand)):
                return k
        return next(k for k, m in enumerate(moves) if m["type"] == "draw")
    discards = [k for k, m in enumerate(moves) if m["type"] == "discard"]
    if not discards:
        return 0  # a save, a dealer's choice: the first is as good as any here
    leader = min(view["players"], key=lambda p: (-len(p["done"]), p["total"]))["name"]

    def worth(k: int) -> tuple:
        m = moves[k]
        card = m["card"]
        rest = list(hand)
        rest.remove(card)
        aimed = m.get("skip") in (None, leader)
        return (card != "W", card == "S" and aimed, quality(phase, rest), points(card))

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
