"""Issue 8's slow cases and a seeded random search like the one that found them: answers,
exact or clearly labelled as a range, never a search that runs for minutes (the times are
in benchmarks/bench_batch.py; nothing here is timed)."""

import json
from collections import Counter

from randomcases import worst_cases
from typer.testing import CliRunner

from phasedsl import STANDARD_DECK, Phase, api, parse_cards, verify
from phasedsl.cli import app
from phasedsl.model.group import Part
from phasedsl.model.outs import assess

runner = CliRunner()


def _laid_legal(phase, groups, hand) -> bool:
    """Each laid group legal for its group of the phase (written order), from the hand's
    cards (group by group: ``verify`` would also try every order of ten groups)."""
    used = Counter(c.plain() for g in groups for c in g)
    if used - Counter(c.plain() for c in hand):
        return False
    return all(verify(Phase((Part(1, g),)), [cards]).valid
               for g, cards in zip(phase.groups, groups, strict=True))


def _completes(phase, hand, extra) -> bool:
    got = assess(phase, [*hand, *extra]).meld
    return got is not None and _laid_legal(phase, [g.cards for g in got.groups], [*hand, *extra])


def test_a_26_card_phase_against_12_cards():
    phrase = "3 color runs of 2 + 2 runs of 3 + 1 run of 4 + 2 runs of 4 + 1 set of 2"
    cards = "B3 B4 Y6 G9 Y8 G7 Y9 R5 G8 B10 G8 Y7"
    r = runner.invoke(app, ["check", phrase, cards, "--json"])
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["short_by"] == 14 and "exact" not in data
    assert data["completable"] and _completes(Phase.parse(phrase), parse_cards(cards),
                                              parse_cards(" ".join(data["example"])))


def test_no_single_card_completes_a_21_card_phase_from_11():
    r = runner.invoke(app, ["outs", "3 runs of 3 + 3 runs of 4",
                            "G11 Y10 R7 G9 B5 G6 W Y12 Y4 Y8 B11"])
    assert r.exit_code == 1 and "no single card completes it" in r.stdout


def test_ten_color_runs_from_the_whole_deck():
    deck_cards = STANDARD_DECK.all_cards()
    deck = " ".join(str(c) for c in deck_cards)
    r = runner.invoke(app, ["check", "10 color runs of 4", deck, "--json"])
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["valid"] and len(data["groups"]) == 10
    phase = Phase.parse("10 color runs of 4")
    assert _laid_legal(phase, [parse_cards(" ".join(g)) for g in data["groups"]], deck_cards)


def test_a_phase_out_of_exact_reach_says_so():
    phase = Phase.parse("5 color sets of 3 + 5 color runs of 5")
    hand = parse_cards("R1 R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12 R2 B3 G4 Y5 R6 B7 G8 Y9 R10 "
                       "B11 G12 Y1 R3 B4 G5 Y6 R7 W W")
    data = api.check_json(phase, hand)
    assert data["valid"] is False
    if data.get("exact") is False:  # a range, and the words say so
        assert data["short_by"] <= data["short_by_at_most"]
        assert data["reason"].startswith("at least") or "ran out" in data["reason"]
    else:
        assert data["completable"] is False or _completes(phase, hand,
                                                          parse_cards(" ".join(data["example"])))


# (valid, short_by) of seeded random phases of 1-15 groups (10 at most) against 10-12 cards
SMALL = [(False, 10), (False, 29), (False, 2), (False, 16), (False, 14), (False, 40), (False, 1),
         (False, 74), (False, 2), (True, None), (False, 25), (True, None), (False, 24), (True, None),
         (False, 42), (False, 12), (False, 11), (False, 24), (False, 2), (False, 23), (False, 14),
         (False, 39), (False, 7), (False, 23), (False, 8), (False, 23), (False, 29), (False, 15),
         (False, 5), (False, 20), (False, 44), (False, 18), (False, 19), (False, 20), (False, 1),
         (False, 2), (False, 9), (False, 5), (False, 15), (False, 1)]


def test_random_phases_against_small_hands():
    for (phase, hand), want in zip(worst_cases(11, len(SMALL)), SMALL, strict=True):
        data = api.check_json(phase, hand)
        assert (data["valid"], data.get("short_by")) == want, str(phase)
        assert "exact" not in data
        if data["valid"]:
            assert _laid_legal(phase, [parse_cards(" ".join(g)) for g in data["groups"]], hand)
        elif data["completable"] and data["short_by"] <= 3:
            assert _completes(phase, hand, parse_cards(" ".join(data["example"])))
        outs = api.outs_json(phase, hand, [])
        if data.get("short_by") == 1:
            assert outs["outs"] and all(_completes(phase, hand, parse_cards(o["card"]))
                                        for o in outs["outs"])
        else:
            assert not outs["outs"]


def test_random_phases_against_100_card_hands():
    for phase, hand in worst_cases(12, 12, big=True):
        data = api.check_json(phase, hand)
        assert data["valid"], str(phase)
        assert _laid_legal(phase, [parse_cards(" ".join(g)) for g in data["groups"]], hand)
