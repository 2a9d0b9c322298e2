"""The meld commands: parse, check, hit, score and outs."""

from __future__ import annotations

import json
from functools import partial
from typing import Annotated

import typer

from .. import api
from ..errors import PhaseDSLError
from ..model import plural_word
from .common import (
    JobsOpt,
    JsonOpt,
    PhaseNoOpt,
    VariantOpt,
    WorldOpt,
    emit,
    fail,
    pack_context,
    print_notes,
    say,
)

# --------------------------------------------------------------------------- parse


def parse(
    phrase: Annotated[str | None, typer.Argument(help="A phase, e.g. '1 set of 3 + 1 run of 4'.")] = None,
    batch: Annotated[
        str | None, typer.Option("--batch", metavar="FILE",
                                 help="Read one phrase per line from FILE ('-': stdin).")
    ] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Read a phase phrase and print its canonical form and groups.

    Examples:

        phasedsl parse "two sets of three"

        phasedsl parse "1 color run of 4 + 3 of one color" --json

        printf '2 sets of 3\\nrun of 4, set of 3\\n' | phasedsl parse --batch -

        phasedsl parse --variant my-pack.yaml "1 run of 3 with colors {1: purple, 2: any, 3: red}"

    --variant reads the phrase under a pack's deck (its own colors and numbers).

    --batch reads one phrase per line (plain text, not JSON) and writes one JSON
    object per line with the input's line number; exit code 0 when every phrase
    reads, 2 when some does not.

    Exit code 0, or 2 for bad input.
    """
    rules = api.DEFAULT_RULES if variant is None else pack_context(variant, None, None).rules
    if batch is not None:
        if phrase is not None:
            fail(PhaseDSLError("--batch reads the phrases from FILE; give no phrase with it"), as_json)
        from .batch import parse_row, run_batch  # (worker processes: loaded for --batch)

        run_batch(batch, partial(parse_row, rules=rules))
    if phrase is None:
        fail(PhaseDSLError("give a phrase, or --batch FILE"), as_json)
    phase = api.parse(phrase, rules)
    deck = rules.deck
    if as_json:  # (parse_json's answer, of the phase read once)
        say(json.dumps({"input": phrase, **phase.to_json(deck)}))
        return
    print_notes(phase, as_json)
    say(phase.canonical(deck))
    for i, g in enumerate(phase.groups, 1):
        say(f"  group {i}: {g.describe(deck)}  [{g.kind.value}, {g.size} {plural_word('card', g.size)}]")
    say(f"  cards needed: {phase.cards_needed}")


# --------------------------------------------------------------------------- check


def check(
    args: Annotated[
        list[str] | None,
        typer.Argument(help="PHASE then CARDS (or only CARDS with --phase N).", show_default=False,
                       metavar="[PHASE] CARDS..."),
    ] = None,
    groups: Annotated[
        list[str] | None,
        typer.Option("--groups", "-g", metavar="CARDS",
                     help="A laid group, e.g. 'G7 G8 W G10'; repeat per group."),
    ] = None,
    batch: Annotated[
        str | None, typer.Option("--batch", metavar="FILE", help="JSON lines from FILE ('-': stdin).")
    ] = None,
    jobs: JobsOpt = 0,
    variant: VariantOpt = None,
    phase_no: PhaseNoOpt = None,
    world: WorldOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Does a hand make a phase? Or, with --groups, is a laid-down layout legal?

    Examples:

        phasedsl check "1 set of 3 + 1 run of 4" R5 B5 G7 G8 G10 W W Y2

        phasedsl check "2 sets of 3" --groups "R5 B5 W" --groups "G9 G9 Y9"

        phasedsl check --variant twist --phase 8 R1 R2 R3 R4 W

        phasedsl check --variant dice "2 sets of 3" 8 8 8 10 W W

        phasedsl check --batch hands.jsonl

    Under a dice pack the words are the faces showing (G7, WG; a bare 8 or W where the
    dice leave no doubt) and the answer gives the best score.

    Exit code 0 made/legal, 1 not (or undecided: the search stopped at its budget), 2 bad
    input.

    --batch reads one JSON object per line ({"id", "phase", "cards"} or {"id", "phase",
    "groups"}) and writes one per line, each with the input's line number; exit code 0 when
    every line is made or legal, 1 when some line is not, 2 when some line is an error.
    """
    ctx = pack_context(variant, phase_no, world)
    if batch is not None:
        if args or groups:
            fail(PhaseDSLError("--batch reads every hand from FILE; give no phase, cards or "
                                "--groups with it"), as_json)
        from .batch import run_batch

        run_batch(batch, lambda line, number: api.check_json_line(line, ctx, number), jobs)
    words = list(args or [])
    phase, rules, words = ctx.take_phase(words)
    if ctx.dice is not None and not groups:
        result = api.judge_roll(phase, words, rules, ctx.dice)
        emit(result, as_json, api.roll_text, ok=result["made"])
        return
    if groups:
        if words:
            raise PhaseDSLError("give the cards either as arguments or as --groups, not both")
        verdict = api.verify_text(phase, groups, rules)
        result = api.verdict_json(phase, verdict, rules)
    else:
        result = api.check_json(phase, api.held(" ".join(words), rules), rules)
    print_notes(phase, as_json)
    emit(result, as_json, lambda r: api.check_text(phase, r, deck=rules.deck),
         ok=result["valid"] is True)


# --------------------------------------------------------------------------- hit


def hit(
    cards: Annotated[list[str], typer.Argument(help="The cards to play (one or more).", show_default=False)],
    on: Annotated[
        list[str],
        typer.Option("--on", "-o", metavar="GROUP",
                     help="A laid group as 'KIND: CARDS', e.g. 'run: R3 R4 W=5 R6'."),
    ],
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which laid groups take these cards, and where? And an order that places the most.

    KIND is set, run, color, color_run, even_odd, color_even_odd, color_set,
    wild or skip (or a phase phrase for one group, like 'color run of 4').

    A laid group that breaks a rule is refused. A wild may take either open end of a run.

    The plan places as many cards as any order can, and says what each wild stands for.

    Examples:

        phasedsl hit R3 --on "run: R4 R5 W=6 R7" --on "set: B9 G9 W"

        phasedsl hit R3 R2 W --on "run: R4 R5 R6 R7" --json

    Exit code 0 when every card finds a place, 1 when some do not, 2 bad input.
    """
    ctx = pack_context(variant, None, None, "hit")
    rules = ctx.rules
    laid = [api.laid_group(text, rules) for text in on]
    hand = api.hand(" ".join(cards), rules, also=[c for g in laid for c in g.cards])
    if not hand:
        raise PhaseDSLError("give the card(s) to play, like R3 or W")
    result = api.hit_json(laid, hand, rules)
    emit(result, as_json, api.hit_text, ok=not result["left"])


# --------------------------------------------------------------------------- score


def score(
    cards: Annotated[list[str] | None, typer.Argument(help="Cards left in hand.")] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Penalty points of the cards left in hand (5 for 1-9, 10 for 10-12, 15 a skip, 25 a wild).

    Examples:

        phasedsl score R5 B12 W S

        phasedsl score --variant masters R5 B12 W --json

    Exit code 0, or 2 for bad input.
    """
    ctx = pack_context(variant, None, None, "score")
    # no more copies of a card than the deck holds, as check and outs refuse
    hand = api.left_in_hand(" ".join(cards or []), ctx.rules)
    result = api.score_json(hand, ctx.rules)
    if as_json:
        say(json.dumps(result))
    else:
        say(f"{result['points']} points")
        for card, pts in result["cards"]:
            say(f"  {card:>4}  {pts}")



def outs(
    args: Annotated[list[str], typer.Argument(help="PHASE then CARDS (or only CARDS with --phase N).",
                                              metavar="[PHASE] CARDS...")],
    seen: Annotated[str | None, typer.Option("--seen", metavar="CARDS",
                                             help="Cards known to be out of reach, "
                                                  "such as the discard pile.")] = None,
    variant: VariantOpt = None,
    phase_no: PhaseNoOpt = None,
    world: WorldOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which single cards complete the phase, how many are unseen, the chance the next draw does.

    Examples:

        phasedsl outs "1 set of 3 + 1 run of 4" R5 B5 G7 G8 G10 Y2 W --seen "W W W"

        phasedsl outs --variant original --phase 2 R5 B5 G7 G8 G10 Y2 W --json

    Exit code 0 when the hand is made or some card completes it, 1 when none does (or
    none was found before the search stopped at its budget: the answer says so).
    """
    ctx = pack_context(variant, phase_no, world, "outs")
    words = list(args)
    phase, rules, words = ctx.take_phase(words)
    seen_cards = api.cards(seen or "", rules)
    hand = api.held(" ".join(words), rules, also=seen_cards)
    result = api.outs_json(phase, hand, seen_cards, rules)
    emit(result, as_json, api.outs_text, ok=result["made"] or bool(result["outs"]))
