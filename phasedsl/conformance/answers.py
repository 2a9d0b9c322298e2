"""phasedsl's answer to one case: the `expected` of the vectors and what the adapter says.

Each area's answer is a small JSON object of facts only (no messages, which are
phasedsl's own wording): docs/conformance.md gives each shape. Lists are in a documented
order, so that two implementations' answers compare as plain JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..errors import PhaseDSLError
from ..melds.scoring import score
from ..model.cards import Card, Deck, parse_cards
from ..model.phase import Phase
from ..model.rules import Rules
from ..solver import assess
from .ruleset import game_pack, solver_rules

AREAS = ("phrases", "hands", "layouts", "hits", "scoring", "games", "dice")


class CaseError(PhaseDSLError):
    """A case the answer cannot be given for (its input does not read under its rules)."""


def card_order(deck: Deck) -> Callable[[str], tuple]:
    """Cards in the vectors' order: numbers low to high, each in the deck's color order,
    then wilds, then skips."""
    def key(name: str) -> tuple:
        c = parse_cards(name, deck)[0]
        if c.wild:
            return (1, 0, 0)
        if c.skip:
            return (2, 0, 0)
        return (0, c.number, deck.colors.index(c.color))
    return key


def phrases(rules: Rules, case: dict) -> dict:
    try:
        p = Phase.parse(case["phrase"], rules.deck)
    except PhaseDSLError as e:
        column = getattr(e, "column", None)
        return {"error": {"column": column}}
    return {"canonical": p.canonical(rules.deck), "groups": [g.to_json(rules.deck) for g in p.groups]}


def _cards(names: list[str], deck: Deck) -> list[Card]:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CaseError("cards are a list of card names, like [\"R5\", \"W\"]")
    return parse_cards(" ".join(names), deck) if names else []


def hands(rules: Rules, case: dict) -> dict:
    phase = Phase.parse(case["phase"], rules.deck)
    got = assess(phase, _cards(case["hand"], rules.deck), rules)
    if got.meld is not None:
        return {"made": True, "short_by": 0, "outs": []}
    sf = got.shortfall
    if not sf.decided or not sf.exact:
        raise CaseError("the solver's search stopped at its budget")
    outs = sorted({str(o.card) for o in sf.outs}, key=card_order(rules.deck)) \
        if sf.missing == 1 else []
    return {"made": False, "short_by": sf.missing, "outs": outs}


def _problem_key(p: dict) -> tuple:
    return (p["group"] is not None, p["group"] or 0, p["rule"])


def layouts(rules: Rules, case: dict) -> dict:
    from ..melds.layout import verify

    phase = Phase.parse(case["phase"], rules.deck)
    groups = [_cards(g, rules.deck) for g in case["groups"]]
    v = verify(phase, groups, rules)
    problems = sorted(({"group": p["group"], "rule": p["rule"]}
                       for p in (q.to_json() for q in v.problems)), key=_problem_key)
    return {"legal": v.valid, "problems": [] if v.valid else problems}


END_ORDER = {None: 0, "low": 1, "high": 2}


def hits(rules: Rules, case: dict) -> dict:
    from ..melds.hits import laid_group, targets

    laid = [laid_group(f"{g.get('phrase') or g['kind']}: {' '.join(g['cards'])}", rules)
            for g in case["laid"]]
    card = _cards([case["card"]], rules.deck)
    if len(card) != 1:
        raise CaseError("a hits case holds one card")
    found = []
    for h in targets(laid, card[0], rules):
        d = h.to_json()
        del d["card"]
        found.append(d)
    found.sort(key=lambda d: (d["group"], END_ORDER[d["end"]], json.dumps(d, sort_keys=True)))
    return {"hits": found}


def scoring(rules: Rules, case: dict) -> dict:
    return {"points": score(_cards(case["cards"], rules.deck), rules)}


def games(rules_json: dict, case: dict) -> dict:
    from ..game.log import replay

    pack = game_pack(rules_json, case["phases"], case.get("board"))
    got = replay([json.dumps(e) for e in case["log"]], pack=pack)
    error = None if got.error is None else {"line": got.error["line"], "rule": got.error["rule"]}
    out = {"legal": got.legal, "error": error, "hands": [h.to_json() for h in got.hands],
           "winner": got.winner}
    if pack.board is not None:
        out["board"] = got.to_json()["board"]
    return out


def dice_of(spec: dict, deck: Deck):
    """The dice of a case's ``dice`` object (a pack's ``dice:`` section)."""
    from ..dice import Dice, DieKind, parse_face

    kinds = tuple(DieKind(str(k["name"]), int(k["count"]),
                          tuple(parse_face(f, deck) for f in k["faces"])) for k in spec["dice"])
    if not kinds or sum(k.count for k in kinds) > 12 or any(k.count < 1 for k in kinds):
        raise CaseError("dice: one to twelve dice")
    return Dice(kinds, int(spec.get("rolls", 3)))


def dice(rules: Rules, case: dict) -> dict:
    """A roll judged (made, its best score) or, with ``rolls_left``, a hold: the chance
    that the best keep makes the phase by the last roll."""
    from ..dice import advise, fits_dice, judge, parse_face

    d = dice_of(case["dice"], rules.deck)
    phase = Phase.parse(case["phase"], rules.deck)
    faces = [parse_face(f, rules.deck) for f in case["faces"]]
    if fits_dice(faces, d):
        raise CaseError(f"not a roll of these dice: {fits_dice(faces, d)}")
    left = case.get("rolls_left")
    if left is None:
        j = judge(phase, faces, rules)
        return {"made": j.made, "score": j.score}
    a = advise(phase, rules, d, faces, int(left), objectives=("chance",))
    return {"chance": f"{a.chance.numerator}/{a.chance.denominator}"}


_BY_AREA = {"phrases": phrases, "hands": hands, "layouts": layouts, "hits": hits,
            "scoring": scoring, "dice": dice}


def answer(area: str, rules: dict, case: dict) -> dict:
    """phasedsl's answer to one case. Raises CaseError (a PhaseDSLError) for an area it does
    not know or an input that does not read; PhaseDSLError for bad cards, phrases, packs."""
    if area not in AREAS:
        raise CaseError(f"no area {area!r}: the areas are {', '.join(AREAS)}")
    if not isinstance(rules, dict) or not isinstance(case, dict):
        raise CaseError("rules and input are JSON objects")
    try:
        if area == "games":
            return games(rules, case)
        return _BY_AREA[area](solver_rules(rules), case)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise CaseError(f"malformed {area} input: {type(e).__name__}: {e}") from None
