"""A Phase 10 Dice bot in plain Python (no phasedsl import), speaking
docs/bot-protocol.md ("Phase 10 Dice"): keeps the dice of its most common number (wilds
too) and scores once nothing is left to roll.

    phasedsl simulate dice --bot "cmd:python3 docs/examples/dicebot.py" --players 2 --games 5
"""

import json
import sys
from collections import Counter

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "roll":
        continue  # hello and over need no answer
    showing = msg["showing"]
    numbers = Counter(f for f in showing if not f.startswith("W"))
    keep = [f for f in showing if f.startswith("W")]
    if numbers:
        best = numbers.most_common(1)[0][0]
        keep += [f for f in showing if f == best]
    print(json.dumps({"keep": keep}), flush=True)
