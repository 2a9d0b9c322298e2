"""Plain functions between the core and the edges: text in, values or JSON-ready dicts out.

The CLI is a thin layer over these; an app or another language (through the
batch mode) gets exactly the same answers.
"""

from __future__ import annotations

import json
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from itertools import pairwise
from typing import TYPE_CHECKING

from .errors import ArgumentError, CardError, PhaseDSLError, PhaseSyntaxError, quoted
from .melds.scoring import card_points, score
from .model.cards import CARD_TOKEN, STANDARD_DECK, Card, Deck, card_names, most_copies, parse_cards
from .model.coerce import as_cards, as_count, as_rules, meld_args
from .model.meld import LaidGroup
from .model.phase import Phase
from .model.rules import DEFAULT_RULES, Rules
from .model.words import plural_word

if TYPE_CHECKING:
    from .dice import Dice
    from .melds.layout import Verdict


def parse(text: str, rules: Rules = DEFAULT_RULES) -> Phase:
    return Phase.parse(text, as_rules(rules, "parse").deck)


def parse_json(text: str, rules: Rules = DEFAULT_RULES) -> dict:
    rules = as_rules(rules, "parse_json")
    return parse(text, rules).to_json(rules.deck)


def cards(text: str, rules: Rules = DEFAULT_RULES) -> list[Card]:
    return parse_cards(text, as_rules(rules, "cards").deck)


def hand(text: str, rules: Rules = DEFAULT_RULES, also: list[Card] = ()) -> list[Card]:
    """Cards that can be held together: no more copies of a card than the deck has."""
    rules = as_rules(rules, "hand")
    got = as_cards(text, rules.deck, "hand", "text")
    check_supply([*got, *as_cards(also, rules.deck, "hand", "also")], rules)
    return got


def held(text: str, rules: Rules = DEFAULT_RULES, also: list[Card] = ()) -> list[Card]:
    """A hand to judge (check, outs): some cards, each as it is in the hand.

    A wild in the hand stands for nothing yet (the player says what it stands
    for when laying it), so ``W=R7`` is refused rather than read as a plain wild.
    """
    got = left_in_hand(text, rules, also)
    if not got:
        raise CardError("give the cards of the hand, like R5 B5 W")
    return got


def left_in_hand(text: str, rules: Rules = DEFAULT_RULES, also: list[Card] = ()) -> list[Card]:
    """Cards held (to score, say), perhaps none: a hand the deck can hold, wilds plain."""
    got = hand(text, rules, also)
    for c in got:
        # a wild or a skip says what it stands for only when laid (W=R7, S=B)
        if (c.wild or c.skip) and (c.number is not None or c.color is not None):
            head = "W=" if c.wild else "S="
            col = next(m.start() + 1 for m in CARD_TOKEN.finditer(text)
                       if m.group().upper().startswith(head))
            if c.wild:
                raise CardError(f"{c} in a hand: a wild stands for a card only once it is "
                                "laid; write W here", text, col)
            raise CardError(f"{c} in a hand: a skip is a blue card only once it is laid in a "
                            "color group; write S here", text, col)
    return got


def check_supply(cards_: list[Card], rules: Rules) -> None:
    deck = rules.deck
    fewest = min(deck.copies, deck.wilds, deck.skips)
    most = most_copies(cards_)
    if most is None:
        counts = Counter(cards_)
        most = max(counts.values(), default=0)
    if most <= fewest:
        return  # no card is held more often than any card is printed
    counts = Counter(cards_)
    plain: Counter = Counter()
    for card, k in counts.items():
        plain[card.plain()] += k
    for card, k in plain.items():
        have = deck.supply(card)
        if k > have:
            raise CardError(f"{k} x {card} is more than the deck's {have}")


@dataclass(frozen=True)
class Context:
    """Rules to judge under, and the pack's phase when one was chosen by number."""

    rules: Rules = DEFAULT_RULES
    phase: Phase | None = None
    label: str | None = None
    dice: Dice | None = None  # a Phase 10 Dice pack's: the words are faces, not cards

    @classmethod
    def load(cls, variant: str | None, phase_no: int | None, world: str | None) -> Context:
        """The context of ``--variant``, ``--phase`` and ``--world`` (each may be None)."""
        if variant is not None and not isinstance(variant, str):
            raise ArgumentError("Context.load(variant=...)", "a pack's name or file, or None",
                                variant)
        if phase_no is not None and (not isinstance(phase_no, int) or isinstance(phase_no,
                                                                                 bool)):
            raise ArgumentError("Context.load(phase_no=...)", "a phase's number, or None",
                                phase_no)
        if world is not None and not isinstance(world, str):
            raise ArgumentError("Context.load(world=...)", "a world's name, or None", world)
        if variant is None:
            if phase_no is not None or world is not None:
                raise PhaseDSLError("--phase and --world need --variant PACK")
            return cls()
        from .packs.pack import load_pack

        pack = load_pack(variant)
        if phase_no is None:
            if world is not None:
                pack.world(world)  # check the name even when no phase is chosen
            return cls(pack.rules_for(world), dice=pack.dice)
        entry, rules = pack.phase_entry(phase_no, world)
        return cls(rules, entry.phase, entry.label, pack.dice)

    def take_phase(self, words: list[str]) -> tuple[Phase, Rules, list[str]]:
        """The phase (the first word, unless the pack's phase was chosen by number), its
        rules, and the words left (the cards)."""
        if self.phase is not None:
            return self.phase, self.rules, words
        try:
            phase, rules = self.phase_and_rules(words[0] if words else None)
        except PhaseSyntaxError:
            if _cards_only(words[0], self.rules):
                shown = " ".join(words)
                raise PhaseSyntaxError(
                    f'the first argument is the phase, e.g. "1 set of 3"; {quoted(shown, 40)} '
                    "looks like cards", shown, 1) from None
            raise
        return phase, rules, words[1:]

    def phase_and_rules(self, phrase: str | None) -> tuple[Phase, Rules]:
        if self.phase is not None:
            return self.phase, self.rules
        if phrase is None:
            raise PhaseDSLError("give a phase (a phrase, or --variant PACK --phase N)")
        # Phase.parse reads each distinct phrase once (a batch repeats a few phrases)
        return parse(phrase, self.rules), self.rules


def _cards_only(text: str, rules: Rules) -> bool:
    """Whether ``text`` reads as cards (a phrase never does: it starts with a count or a word)."""
    try:
        return bool(parse_cards(text, rules.deck))
    except CardError:
        return False


def check_json(phase: Phase, hand: list[Card], rules: Rules = DEFAULT_RULES) -> dict:
    """Does the hand make the phase: the meld, or how many cards short and which complete it."""
    from .solver import assess  # (loaded by the commands that solve, not by parse)

    phase, hand, rules = meld_args("check_json", phase, hand, rules)
    got = assess(phase, hand, rules)
    meld = got.meld
    sf = got.shortfall
    # "valid" is null when the search stopped at its budget before it could tell
    valid = True if meld is not None else False if sf.decided else None
    out: dict = {"phase": phase.canonical(rules.deck), "valid": valid}
    if phase.ignored:
        out.update(_ignored(phase))
    if meld is not None:
        out["groups"] = meld.to_json()
        return out
    out["groups"] = []
    out["short_by"] = sf.missing
    out["outs"] = card_names([o.card for o in sf.outs]) if sf.outs else []
    out["example"] = card_names(sf.example)
    out["completable"] = sf.possible
    if sf.never:
        out["never"] = sf.never
    if not sf.exact:
        out["exact"] = False
        out["short_by_at_most"] = sf.at_most
    out["reason"] = sf.summary(phase, rules)
    return out


def _ignored(phase: Phase) -> dict:
    """What the phrase said that was not read (a remark, a 'Phase 2:' label), when anything."""
    return {"ignored": list(phase.ignored)} if phase.ignored else {}


def verify_text(phase: Phase, groups: list[str], rules: Rules = DEFAULT_RULES) -> Verdict:
    """The laid groups, each a card string, judged against the phase (``verify``)."""
    rules = as_rules(rules, "verify_text")
    if isinstance(groups, str) or not isinstance(groups, list | tuple) or not all(
            isinstance(g, str) for g in groups):
        raise ArgumentError("verify_text(groups=...)", "a list of card strings, one a group",
                            groups)
    layout = []
    for i, text in enumerate(groups, 1):
        try:
            layout.append(parse_cards(text, rules.deck))
        except PhaseDSLError as e:
            raise type(e)(f"group {i}: {e}") from None
        if not layout[-1]:  # an empty argument is a mistake, not a group of no cards
            raise CardError(f"group {i} has no cards: give each laid group's cards, like "
                            "'R5 B5 W'")
    from .melds.layout import verify  # (the layout and hit checks load when first used)

    return verify(phase, layout, rules)


def verdict_json(phase: Phase, verdict: Verdict, rules: Rules = DEFAULT_RULES) -> dict:
    out: dict = {"phase": phase.canonical(rules.deck), "valid": verdict.valid, **_ignored(phase),
                 "layout": True,
                 "groups": verdict.meld.to_json() if verdict.valid and verdict.meld else []}
    if not verdict.valid:
        out["problems"] = [p.to_json() for p in verdict.problems]
        out["reason"] = "; ".join(str(p) for p in verdict.problems)
    return out


def _formats(what: str, *keys: str):
    """A function that prints a result (its last argument: the dict ``what`` gives, with
    ``keys``) as text, refusing anything else as an ArgumentError naming the argument,
    not a KeyError or TypeError from inside (``odds_text({})``)."""
    def deco(fn):
        name = fn.__code__.co_varnames[fn.__code__.co_argcount - 1]

        @wraps(fn)
        def checked(*args, **kwargs):
            result = kwargs.get(name, args[-1] if args else None)
            where = f"{fn.__name__}({name}=...)"
            if not isinstance(result, dict) or not all(k in result for k in keys):
                raise ArgumentError(where, what, result)
            try:
                return fn(*args, **kwargs)
            except ArgumentError as e:
                if e.where.startswith(f"{fn.__name__}("):
                    raise
                raise ArgumentError(where, what, result) from None  # (a helper's, inside)
            except PhaseDSLError:
                raise
            except (KeyError, TypeError, AttributeError, IndexError, ValueError):
                # a dict of the right keys with values of no use (a made-up result)
                raise ArgumentError(where, what, result) from None
        return checked
    return deco


@_formats("a result as check_json or verdict_json gives it", "phase", "valid")
def check_text(phase: Phase, result: dict, *, deck: Deck = STANDARD_DECK) -> str:
    """The words ``check`` prints for a result; each group is named under ``deck`` (the
    pack's: its color names, and what "any" color is, in a color map)."""
    if not isinstance(phase, Phase):
        raise ArgumentError("check_text(phase=...)", "a Phase", phase)
    if not isinstance(deck, Deck):
        raise ArgumentError("check_text(deck=...)", "a Deck", deck)
    lines = wrap(result["phase"], first="phase: ", indent="  ")
    if result["valid"]:
        lines.append("legal" if result.get("layout") else "made")
        for g, cards_ in zip(phase.groups, result["groups"], strict=False):
            lines.append(f"  {g.describe(deck):<24} {' '.join(cards_)}")
        return "\n".join(lines)
    if "problems" in result:
        lines.append("not legal")
        for p in result["problems"]:
            where = f"group {p['group']}" if p["group"] else "phase"
            lines += wrap(p["message"], first=f"  {where}: ", indent="    ")
    elif result["valid"] is None:
        lines += wrap(result["reason"], indent="  ")  # "undecided: ..."
    else:
        lines += wrap(result["reason"], first="not made: ", indent="  ")
    return "\n".join(lines)


MAX_LINE = 1_000_000


def _no_constant(name: str):
    raise PhaseDSLError(f"not JSON: {name} is not a number in JSON")


def _finite(text: str) -> float:
    value = float(text)
    # too large for a float, or too small (1e-400 would silently become 0.0)
    underflow = value == 0 and any(d in "123456789" for d in text.lower().partition("e")[0])
    if value in (float("inf"), float("-inf")) or underflow:
        raise PhaseDSLError(f"not a usable number: {text}")
    return value


def _object(pairs: list[tuple[str, object]]) -> dict:
    # a repeated key would silently drop the first value (two "cards": which hand?)
    got = dict(pairs)
    if len(got) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise PhaseDSLError(f"not a request: the key {json.dumps(key)} appears twice")
            seen.add(key)
    return got


def _whole(text: str) -> int:
    # Python refuses to read an integer of over 4,300 digits (a ValueError, not a JSON error)
    if len(text.lstrip("-")) > 4000:
        raise PhaseDSLError(f"not a usable number: a whole number of {len(text.lstrip('-')):,} "
                            "digits")
    return int(text)


# JSON read strictly, for requests from elsewhere (a batch line, the web workbench's
# bodies): no NaN or Infinity, no number Python cannot hold, no key twice.
STRICT_JSON = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite,
                               parse_int=_whole, object_pairs_hook=_object)


def utf8_text(text: str) -> str:
    """``text`` as read with errors="surrogateescape", refused where its bytes were not
    UTF-8 (each such byte became a lone surrogate): nothing is silently changed."""
    if text.isascii():  # (a flag of the string: no encoding needed to know)
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = ord(text[e.start])
        byte = f"byte 0x{bad - 0xDC00:02x}" if 0xDC80 <= bad <= 0xDCFF else "a lone surrogate"
        raise PhaseDSLError(f"not UTF-8 text: {byte} at column {e.start + 1}") from None
    return text


TOO_LONG = f"line too long (over {MAX_LINE} characters, the limit)"


def check_json_line(line: str | None, ctx: Context, number: int | None = None) -> dict:
    """One batch line in, one result out; a bad line gives {"id", "error"} and never raises.

    With ``number`` (the line's 1-based place in the input) every row starts with
    {"line": number}, so rows can be matched to lines even without an id.  ``line`` None
    stands for a line too long to be read at all (a batch skips such a line unread).
    """
    if not isinstance(ctx, Context):  # (the caller's mistake, not the line's: raised)
        raise ArgumentError("check_json_line(ctx=...)", "a Context, as Context.load gives",
                            ctx)
    head: dict = {} if number is None else {"line": number}
    rid = None
    try:
        # without the newline, so that an error at the end of the line has its column
        if line is not None and not isinstance(line, str):
            raise PhaseDSLError(f"a batch line is text, not {type(line).__name__}")
        text = "" if line is None else line.rstrip("\r\n")
        if line is None or len(text) > MAX_LINE:
            raise PhaseDSLError(TOO_LONG)
        utf8_text(text)
        try:
            req = STRICT_JSON.decode(text)
        except json.JSONDecodeError as e:
            raise PhaseDSLError(f"not JSON: {e.msg} at column {e.colno}") from None
        except RecursionError:
            raise PhaseDSLError("not a request: JSON nested too deeply") from None
        if not isinstance(req, dict):
            raise PhaseDSLError("each line must be a JSON object")
        rid = req.get("id")
        if not _LINE_KEYS.issuperset(req):
            unknown = [k for k in req if k not in _LINE_KEYS]
            raise PhaseDSLError(f"unknown key(s): {', '.join(sorted(unknown))}")
        phrase = req.get("phase")
        if ctx.phase is not None and phrase is not None:
            raise PhaseDSLError('this batch takes its phase from --phase; leave "phase" out of the line')
        if "cards" in req and "groups" in req:
            raise PhaseDSLError('give "cards" (a hand) or "groups" (a layout), not both')
        if ctx.phase is None and not isinstance(phrase, str):
            raise PhaseDSLError('"phase" must be a phase phrase (a string)')
        phase, rules = ctx.phase_and_rules(phrase if isinstance(phrase, str) else None)
        if "groups" in req:
            gs = req["groups"]
            if not isinstance(gs, list) or not all(isinstance(g, str) for g in gs):
                raise PhaseDSLError('"groups" must be a list of strings such as "R5 B5 W"')
            result = verdict_json(phase, verify_text(phase, gs, rules), rules)
        else:
            cs = req.get("cards")
            if isinstance(cs, list) and all(isinstance(c, str) for c in cs):
                cs = " ".join(cs)
            if not isinstance(cs, str):
                raise PhaseDSLError('"cards" must be a string or a list of card strings')
            # (under a dice pack the words are the faces showing, as for ``check``)
            result = (judge_roll(phase, cs.split(), rules, ctx.dice) if ctx.dice is not None
                      else check_json(phase, held(cs, rules), rules))
    except PhaseDSLError as e:
        result = {"error": str(e)}
    head["id"] = rid
    head.update(result)
    return head


_LINE_KEYS = frozenset(("id", "phase", "cards", "groups"))


def __getattr__(name: str):
    # ``laid_group`` reads a group as the hits do, so it lives with them (phasedsl.melds.hits);
    # ``from phasedsl.api import laid_group`` keeps working, loading the hit checks only then
    if name == "laid_group":
        from .melds.hits import laid_group

        return laid_group
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def hit_json(laid: list[LaidGroup], hand: list[Card], rules: Rules = DEFAULT_RULES) -> dict:
    """Every place each card fits now ("hits"), and an order that places the most ("plan").

    "exact" is false only when the search stopped at its budget: more cards may fit.
    """
    from .melds.hits import as_laid, closed_groups, plan, targets

    rules = as_rules(rules, "hit_json")
    laid = as_laid(laid, rules, "hit_json")
    hand = as_cards(hand, rules.deck, "hit_json", "hand")
    p = plan(laid, hand, rules)
    hits = [h.to_json() for c in dict.fromkeys(c.plain() for c in hand)
            for h in targets(laid, c, rules)]
    out = {"hits": hits, "plan": [h.to_json() for h in p.hits], "left": [str(c) for c in p.left],
           "placed": p.placed, "exact": p.exact}
    closed = closed_groups(laid, rules)
    if closed:  # why those groups take nothing (a sum, a run of pairs, a run of every number)
        out["closed"] = [{"group": i + 1, "kind": laid[i].group.kind.value, "reason": why}
                         for i, why in closed]
    return out


@_formats("a result as hit_json gives it", "hits", "plan", "left", "placed", "exact")
def hit_text(result: dict) -> str:
    from .melds.hits import closed_words, plan_lines

    lines = ["fits now:"] + ["  " + _hit_words(h) for h in result["hits"]]
    if not result["hits"]:
        lines[0] += " nothing"
    taken = {h["card"] for h in result["hits"] if h.get("wild_to_hand")}
    lines += plan_lines([_hit_words(h) for h in result["plan"]], result["left"],
                        result["placed"], result["exact"], taken)
    lines += [closed_words(c["group"], c["reason"]) for c in result.get("closed", ())]
    return "\n".join(lines)


def _hit_words(h: dict) -> str:
    from .melds.hits import hit_words

    card = h["card"]
    return hit_words(card, h["group"], h["end"], h.get("swap"), h.get("stands"),
                     natural=card not in ("W", "S") and not card.startswith("W="))


def score_json(hand: list[Card], rules: Rules = DEFAULT_RULES) -> dict:
    """The penalty points of the cards left in a hand, and each card's."""
    rules = as_rules(rules, "score_json")
    hand = as_cards(hand, rules.deck, "score_json", "hand")
    return {"points": score(hand, rules),
            "cards": [[str(c), card_points(c, rules.scoring)] for c in hand]}


# ---------------------------------------------------------------------------- odds and outs


def outs_json(phase: Phase, hand: list[Card], seen: list[Card], rules: Rules = DEFAULT_RULES) -> dict:
    """Single-card outs with unseen counts, and the chance the next draw is one of them."""
    from .solver import assess, unseen_counts

    phase, hand, rules = meld_args("outs_json", phase, hand, rules)
    seen = as_cards(seen, rules.deck, "outs_json", "seen")
    got = assess(phase, hand, rules, seen)
    sf = got.shortfall
    # null: the search stopped at its budget before it could tell
    made = True if got.meld is not None else False if sf.decided else None
    found = sf.outs
    pool = sum(unseen_counts(hand, seen, rules).values())
    good = sum(o.unseen for o in found)
    out = {
        "phase": phase.canonical(rules.deck), "made": made,
        "outs": [{"card": str(o.card), "unseen": o.unseen} for o in found],
        "unseen_cards": pool, "next_draw": (good / pool) if pool else 0.0,
        "next_draw_fraction": f"{good}/{pool}",
    }
    if made is False:
        # how far off: "no single card completes it" alone does not say it is 2 short
        out["short_by"] = sf.missing
        if not sf.exact:
            out["short_by_at_most"] = sf.at_most
    if not made and not sf.exact and sf.missing <= 1:
        # a single card may complete it, but the list of those that do is out of reach
        # (at least 2 short: surely none does)
        out.update(exact=False, reason=sf.summary(phase, rules))
    return out


@_formats("a result as outs_json gives it", "phase", "made")
def outs_text(result: dict) -> str:
    head = result["phase"]
    if result["made"]:
        return f"{head}: already made"
    if result["made"] is None:
        return "\n".join(wrap(f"{head}: {result['reason']}", indent="  "))
    n = len(result["outs"])
    if not n:
        short = result["short_by"]
        far = (f"at least {plural(short, 'card')} short" if "short_by_at_most" in result
               else f"{plural(short, 'card')} short")
        if not result.get("exact", True):
            lines = [f"{head}: no card found that completes it"]
        elif short == 1:  # every card that would complete it is seen
            lines = [f"{head}: no unseen card completes it ({far})"]
        else:
            lines = [f"{head}: no single card completes it ({far})"]
    else:
        lines = [f"{head}: {plural(n, 'card')} complete{'s' if n == 1 else ''} it"]
        lines += [f"  {o['card']:>4}  {o['unseen']} unseen" for o in result["outs"]]
        lines.append(f"next draw completes it: {100 * result['next_draw']:.2f}% "
                     f"({result['next_draw_fraction']} unseen cards)")
    if result.get("exact") is False:
        lines += wrap(f"not exact, other cards may complete it: {result['reason']}", indent="  ")
    return "\n".join(lines)


def odds_report(results: list, cards: int, draws: int) -> dict:
    """Figures per phase, their rank (1 = easiest) and the phases easier than the one before."""
    if not isinstance(results, list | tuple) or not all(
            isinstance(r, list | tuple) and len(r) == 2 and isinstance(r[0], str | None)
            and callable(getattr(r[1], "to_json", None)) for r in results):
        raise ArgumentError("odds_report(results=...)", "a list of (label, Odds) pairs, each "
                            "Odds as odds() gives it", results)
    as_count(cards, "odds_report(cards=...)", 1, None, "a number of cards")
    as_count(draws, "odds_report(draws=...)", 0, None, "a number of draws")
    rows = [{"number": label or None, **o.to_json()} for label, o in results]
    order = sorted(range(len(rows)), key=lambda i: -rows[i]["probability"])
    for rank, i in enumerate(order, 1):
        rows[i]["rank"] = rank
    flags = []
    for prev, cur in pairwise(rows):
        if cur["number"] and cur["probability"] > prev["probability"]:
            cur["easier_than_previous"] = True
            flags.append(cur["number"])
    return {"cards": cards, "draws": draws, "phases": rows, "easier_than_previous": flags}


@_formats("a report as odds_report gives it", "phases", "draws", "cards")
def odds_text(report: dict) -> str:
    """The report as a table that fits an 80-column terminal; with several phases, each
    with its rank (1 = easiest) and a bar of the curve, starred when easier than the one before."""
    rows = report["phases"]
    k = report["draws"]
    draws = f" (a hand and {plural(k, 'draw')}: an upper view)" if k else " from the deck"
    lines = wrap(f"chance that {report['cards']} cards{draws} make the phase", indent="  ")
    many = len(rows) > 1
    top = max((r["probability"] for r in rows), default=0) or 1
    cells: list = [["#", "phase", "chance", "95% CI", "rank", "curve"]] if many else []
    for r in rows:
        pct = f"{r['percent']:.4f}%"
        lo, hi = r.get("ci95") or (None, None)
        ci = "exact" if lo is None else f"{100 * lo:.3f}-{100 * hi:.3f}%"
        if not many:
            cells.append([r["phase"], pct, ci if lo is None else f"sampled, 95% CI {ci}"])
            continue
        bar = "#" * max(1 if r["probability"] > 0 else 0, round(CURVE * r["probability"] / top))
        star = " *" if r.get("easier_than_previous") else ""
        cells.append([r["number"] or "", r["phase"], pct, ci, str(r["rank"]), bar.ljust(CURVE) + star])
    lines += table(cells, "><><><" if many else "<><", flex=1 if many else 0)
    sampled = [r["samples"] for r in rows if r["method"] == "sampled"]
    if sampled:
        lines.append(f"sampled figures: {sampled[0]:,} hands each, seeded")
    for note in dict.fromkeys(r["note"] for r in rows if r.get("note")):
        lines.append(f"note: {note}")
    if many and report["easier_than_previous"]:
        lines.append("* easier than the phase before: " + ", ".join(report["easier_than_previous"]))
    return "\n".join(lines)


CURVE = 10  # characters of the longest bar in odds_text
WIDTH = 80  # text output fits a terminal this wide


def table(rows: list, aligns: str, flex: int, width: int = WIDTH) -> list[str]:
    """Rows of cells as columns (``aligns``: ``<`` or ``>`` per column) no wider than
    ``width``: column ``flex`` gets the room the others leave and wraps onto more lines.
    A row that is a plain str is printed as it is (a note under a row)."""
    from rich.cells import cell_len

    gap = 2
    grid = [r for r in rows if not isinstance(r, str)]
    widths = [max((cell_len(r[i]) for r in grid), default=0) for i in range(len(aligns))]
    room = width - sum(widths) + widths[flex] - gap * (len(aligns) - 1)
    widths[flex] = min(widths[flex], max(20, room))
    out = []
    for r in rows:
        if isinstance(r, str):
            out.append(r)
            continue
        cols = [wrap(c, widths[i]) if i == flex else [c] for i, c in enumerate(r)]
        for k in range(max(len(c) for c in cols)):
            parts = []
            for c, w, a in zip(cols, widths, aligns, strict=True):
                text = c[k] if k < len(c) else ""
                pad = " " * (w - cell_len(text))
                parts.append(pad + text if a == ">" else text + pad)
            out.append((" " * gap).join(parts).rstrip())
    return out


def wrap(text: str, width: int = WIDTH, first: str = "", indent: str = "") -> list[str]:
    """Lines of at most ``width`` terminal cells (a Japanese character takes two, a Thai
    vowel mark none), broken at spaces; a word longer than a line is cut. ``first`` and
    ``indent`` start the first and the other lines."""
    from rich.cells import cell_len, chop_cells

    for name, value in (("text", text), ("first", first), ("indent", indent)):
        if not isinstance(value, str):
            raise ArgumentError(f"wrap({name}=...)", "text", value)
    as_count(width, "wrap(width=...)", 1, None, "a width in terminal cells")

    lines: list[str] = []
    line = first
    for word in text.split():
        lead = indent if lines else first
        if line != lead and cell_len(line) + 1 + cell_len(word) <= width:
            line += " " + word
            continue
        if line != lead:
            lines.append(line)
            line = indent
        pieces = chop_cells(word, max(1, width - cell_len(line)))
        for piece in pieces[:-1]:
            lines.append(line + piece)
            line = indent
        line += pieces[-1]
    lines.append(line)
    return lines


def plural(n: int, word: str) -> str:
    """'1 phase', '2 phases'."""
    as_count(n, "plural(n=...)", None, None, "a whole number")
    if not isinstance(word, str):
        raise ArgumentError("plural(word=...)", "a word", word)
    return f"{n} {plural_word(word, n)}"


def pyplot():
    """matplotlib's pyplot drawing to files (matplotlib is an optional extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PhaseDSLError("plotting needs matplotlib: pip install 'phasedsl[plot]'") from None
    return plt


@contextmanager
def drawing(path, what: str, force: bool = False, **subplots):
    """``(figure, axes)`` of ``plt.subplots(**subplots)``, written to ``path`` (format from
    its suffix; whole, and over an existing file only with ``force``: outfiles) when the
    block ends; any failure to draw or write is a PhaseDSLError."""
    from pathlib import Path

    from .system.outfiles import write_with

    plt = pyplot()
    fig, axes = plt.subplots(**subplots)
    try:
        yield fig, axes
        fig.tight_layout()
        kind = Path(path).suffix.lower().lstrip(".") or None
        write_with(path, force, lambda fh: fig.savefig(fh, format=kind))
    except PhaseDSLError:  # (a ValueError, but already said)
        raise
    except OSError as e:
        raise PhaseDSLError(f"cannot write {path}: {e.strerror or e}") from None
    except (ValueError, RuntimeError) as e:  # matplotlib's own complaints
        raise PhaseDSLError(f"cannot draw {what} to {path}: {e}") from None
    finally:
        plt.close(fig)


def plot_curve(report: dict, path, force: bool = False) -> None:
    """The difficulty curve as an image (matplotlib, an optional extra); any failure to
    draw or write it is a PhaseDSLError."""
    rows = report["phases"]
    xs = list(range(1, len(rows) + 1))
    ys = [100 * r["probability"] for r in rows]
    with drawing(path, "the curve", force, figsize=(8, 4.5)) as (_, ax):
        ax.plot(xs, ys, marker="o")
        for x, y, r in zip(xs, ys, rows, strict=True):
            if r.get("easier_than_previous"):
                ax.annotate("easier", (x, y), textcoords="offset points", xytext=(0, 8),
                            ha="center", color="crimson")
            if r["method"] == "sampled":
                lo, hi = r["ci95"]
                ax.errorbar([x], [y], yerr=[[y - 100 * lo], [100 * hi - y]], fmt="none", ecolor="gray")
        positive = [y for y in ys if y > 0]
        if len(positive) < len(ys):
            # a log scale cannot show 0%: linear below the smallest figure shown, so a
            # phase no sampled hand made is drawn at 0, not left out
            ax.set_yscale("symlog", linthresh=min(positive, default=1e-3))
        else:
            ax.set_yscale("log")
        ax.set_xticks(xs, [r["number"] or str(i) for i, r in zip(xs, rows, strict=True)])
        ax.set_xlabel("phase")
        ax.set_ylabel(f"chance {report['cards']} cards make it (%, log scale)")
        ax.set_title("difficulty curve")
        ax.grid(True, which="both", alpha=0.3)


def judge_roll(phase: Phase, words: list[str], rules: Rules, dice: Dice) -> dict:
    """A Phase 10 Dice roll (faces as text) judged against a phase: ``dice.judge``'s
    answer as JSON, with ``valid`` (made) as ``check_json`` gives it."""
    from .dice import colour_matters, fits_dice, judge, parse_roll

    if isinstance(words, str):
        words = words.split()
    if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
        raise ArgumentError("judge_roll(words=...)", "the faces showing, as text ('8 8 W') or "
                            "a list of words", words)
    faces = parse_roll(words, rules.deck, dice, colour_free=not colour_matters(phase, rules))
    if not faces:
        raise PhaseDSLError("give the faces showing, like: 8 8 8 10 W W")
    why = fits_dice(faces, dice)
    if why:
        raise PhaseDSLError(f"not a roll of these dice: {why}")
    out = judge(phase, faces, rules).to_json()
    out["valid"] = out["made"]
    return out


@_formats("a result as judge_roll gives it", "made", "phase", "faces")
def roll_text(result: dict) -> str:
    if not result["made"]:
        return f"not made: {result['phase']} from {' '.join(result['faces'])}"
    return (f"made: {' | '.join(result['groups'])}  scores {result['score']}"
            + (f" (not used: {' '.join(result['unused'])})" if result["unused"] else ""))
