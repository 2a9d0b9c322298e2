"""Hits onto the kinds of issue 19 and onto runs that wrap (``runs_wrap``): the plan and
the single-card targets against a brute force that judges every order of single hits by
``layout.read_group`` alone (the group with the card added must stay legal), and the
referee playing whole games of a pack that uses them."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from phasedsl import Card
from phasedsl.melds.hits import plan, targets
from phasedsl.melds.layout import read_group
from phasedsl.model.cards import WILD
from phasedsl.model.group import Group, Kind
from phasedsl.model.meld import LaidGroup
from phasedsl.model.rules import Rules

WRAP = Rules(runs_wrap=True)
COLORS = ("R", "B", "G", "Y")


@cache
def _after(group: Group, cards: tuple, card: Card, rules: Rules) -> frozenset:
    """Every group (its cards as read) ``card`` may make of a laid group by the rules of a
    group alone: the card added (a wild as each number it may stand for), still legal."""
    ways = [card] if not card.wild else [WILD, *(Card(n, None, wild=True)
                                                 for n in rules.deck.numbers)]
    out = set()
    for c in ways:
        read, problems = read_group(group, (*cards, c), rules.with_(extras=True))
        if read is not None and not problems:
            out.add(read)
    return frozenset(out)


def _ref_best(groups: tuple, hand: tuple, rules: Rules) -> int:
    @cache
    def best(state: tuple, hand: tuple) -> int:
        top = 0
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            for gi, (group, cards) in enumerate(state):
                for new in _after(group, cards, card, rules):
                    got = 1 + best((*state[:gi], (group, new), *state[gi + 1:]), tuple(rest))
                    top = max(top, got)
                    if top == len(hand):
                        return top
        return top

    return best(groups, tuple(sorted(hand, key=str)))


def _replay(state: tuple, hits, rules: Rules) -> None:
    """Each hit in turn is legal then: the card (a wild as what it stands for) at the end
    it names, the group read again by read_group."""
    groups = list(state)
    for h in hits:
        group, cards = groups[h.index]
        placed = h.card if h.stands is None else Card(h.stands, None, wild=True)
        new = (placed, *cards) if h.end == "low" else (*cards, placed)
        read, problems = read_group(group, new, rules.with_(extras=True))
        assert read is not None and not problems, (str(h), cards, problems)
        if h.end is not None and len(read) < len(rules.deck.numbers):
            # the card is at the end it names (a full circle reads 1-12)
            assert read[0 if h.end == "low" else -1].number == (placed.number or read[
                0 if h.end == "low" else -1].number)
        groups[h.index] = (group, read)


def _random_group(rng: random.Random, rules: Rules) -> LaidGroup | None:
    deck = rules.deck
    kind = rng.choice([Kind.RUN, Kind.RUN, Kind.COLOR_RUN, Kind.SET, Kind.OVER, Kind.UNDER,
                       Kind.PAIR_RUN, Kind.COLOR])
    one = rng.choice(COLORS)
    nums = list(deck.numbers)
    if kind.is_run or kind.is_pair_run:
        length = rng.randint(2, 4) if kind.is_run else rng.randint(1, 3)
        start = rng.randrange(len(nums))
        window = [nums[(start + i) % len(nums)] for i in range(length)]
        per = 2 if kind.is_pair_run else 1
        cards = [WILD if rng.random() < 0.2 else
                 Card(n, one if kind is Kind.COLOR_RUN or rules.runs_one_color else
                      rng.choice(COLORS)) for n in window for _ in range(per)]
        group = Group(kind, len(cards))
    elif kind.is_bounded:
        bound = rng.randint(3, 10)
        group = Group(kind, rng.randint(2, 4), bound=bound)
        fits = [n for n in nums if group.admits(n)]
        cards = [WILD if rng.random() < 0.2 else Card(rng.choice(fits), rng.choice(COLORS))
                 for _ in range(group.size)]
    else:
        num = rng.choice(nums)
        group = Group(kind, rng.randint(2, 4))
        cards = [WILD if rng.random() < 0.2 else
                 Card(num if kind is Kind.SET else rng.choice(nums),
                      one if kind is Kind.COLOR else rng.choice(COLORS))
                 for _ in range(group.size)]
    if not any(c.natural for c in cards):
        return None
    read, problems = read_group(group, cards, rules)
    return None if problems or read is None else LaidGroup(group, read)


def _random_case(rng: random.Random, rules: Rules):
    laid = []
    while len(laid) < rng.randint(1, 3):
        lg = _random_group(rng, rules)
        if lg is not None:
            laid.append(lg)
    near = {c.number for lg in laid for c in lg.cards if c.number is not None}
    near |= {(n + d - 1) % 12 + 1 for n in near for d in (-1, 1, 2)}
    hand = [WILD if rng.random() < 0.15 else
            Card(rng.choice(sorted(near)) if rng.random() < 0.8 else rng.randint(1, 12),
                 rng.choice(COLORS)) for _ in range(rng.randint(1, 5))]
    return laid, hand


@pytest.mark.parametrize("rules", [Rules(), WRAP, replace(WRAP, wild_hit_end="low"),
                                   replace(WRAP, runs_one_color=True)],
                         ids=["plain", "wrap", "wrap-low", "wrap-one-color"])
def test_plan_and_targets_agree_with_brute_force(rules):
    rng = random.Random(f"hits {rules.runs_wrap} {rules.wild_hit_end} {rules.runs_one_color}")
    for _ in range(250):
        laid, hand = _random_case(rng, rules)
        state = tuple((lg.group, lg.cards) for lg in laid)
        p = plan(laid, hand, rules)
        want = _ref_best(state, tuple(hand), rules)
        assert p.exact and len(p.hits) == want, ([str(g) for g in laid], hand,
                                                 [str(h) for h in p.hits])
        _replay(state, p.hits, rules)
        for card in set(hand):
            got = {h.index for h in targets(laid, card, rules)}
            ref = {gi for gi, (g, cards) in enumerate(state) if _after(g, cards, card, rules)}
            assert got == ref, ([str(g) for g in laid], card)


def test_hits_onto_the_new_kinds():
    def where(laid, card, rules=None):
        rules = Rules() if rules is None else rules
        return [str(h) for h in targets(laid, card, rules)]

    assert where(["4 cards over 8: R9 R10 W W"], "B11") == ["B11 onto group 1"]
    assert where(["4 cards over 8: R9 R10 W W"], "B8") == []
    assert where(["4 cards under 5: R1 R2 W W"], "W") == ["W onto group 1"]
    # a run of pairs takes no single card: a laid group stays legal, and one card cannot
    # add a number's two (under wild_take_back a natural may still take a laid wild back)
    assert where(["1 run of 2 pairs: R3 B3 R4 G4"], "Y5") == []
    assert where(["1 run of 2 pairs: R3 B3 R4 G4"], "W") == []
    assert where(["1 run of 2 pairs: R3 B3 R4 W"], "B4", Rules(wild_take_back=True)) == [
        "B4 replaces W=4 in group 1; the wild goes to your hand"]
    assert where(["run: R10 R11 R12"], "B1") == []
    assert where(["run: R10 R11 R12"], "B1", WRAP) == ["B1 onto group 1 at the high end"]
    assert where(["run: R1 R2 R3"], "W", WRAP) == ["W onto group 1 at the high end (as 4)",
                                                  "W onto group 1 at the low end (as 12)"]
    # a wrapped run of every number is the whole circle: closed at both ends
    full = "run: R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R1 R2"
    assert where([full], "W", WRAP) == []
    assert str(plan(["run: R10 R11 R12", "set: R5 B5 G5"], "B1 Y2 W R9 Y4", WRAP)).endswith(
        "all 5 cards placed")



def test_a_wrapped_run_longer_than_the_deck_s_numbers_is_refused_for_its_length():
    # rules page: a wrapped run still holds each number once, no run is longer than 12; the
    # refusal said "this run would need a 0", which no wrapping run needs
    from phasedsl import verify

    for layout in ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 W",
                   "R5 R6 R7 R8 R9 R10 R11 R12 R1 R2 R3 R4 W"):
        got = verify("1 run of 12", layout, WRAP)
        assert [p.rule for p in got.problems] == ["bounds"]
        assert "at most 12 cards, this group has 13" in got.problems[0].message
    assert verify("1 run of 12", "R5 R6 R7 R8 R9 R10 R11 R12 R1 R2 R3 R4", WRAP).valid
    assert "would need a 0" in verify("1 run of 12", "W R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 "
                                      "R12").problems[0].message  # (no wrap: an end passed)


PACK = """\
name: kinds-test
title: Runs of pairs, over/under and wrap-around runs
description: a test pack for issue 19's kinds
source: >-
  hitnrun30/phase10randomizer (runs of pairs, 4 over 8); Phazed's rules (wrap-around runs)
extends: original
rules:
  game_length: 4
  runs:
    wrap: {wrap}
phases:
  - "1 run of 2 pairs + 3 cards over 8"
  - "1 run of 5 + 3 cards under 4"
  - "1 run of 3 pairs"
  - "2 groups of 3 over 6"
"""


@pytest.mark.parametrize("wrap", ["true", "false"])
def test_games_of_a_pack_with_the_new_kinds_play_to_the_end(tmp_path, wrap):
    """Bots play whole games, and every game's log replays through the referee as legal."""
    from phasedsl import load_pack
    from phasedsl.design.simulate import simulate
    from phasedsl.game.log import replay

    path = tmp_path / "kinds-test.yaml"
    path.write_text(PACK.format(wrap=wrap), encoding="utf-8")
    pack = load_pack(path)
    assert pack.worlds[0].rules.runs_wrap is (wrap == "true")
    records = simulate(pack, 3, 3, seed=19, keep_logs=True)
    assert all(r.winner is not None and not r.capped and not r.stalled for r in records)
    for r in records:
        got = replay(r.log, base_dir=tmp_path, pack=pack)
        assert got.legal, got.error


def test_a_big_wrapped_table_answers_in_time_and_says_when_the_search_stopped():
    import time

    rng = random.Random(5)
    laid = []
    for i in range(10):
        start = rng.randint(1, 12)
        laid.append("run: " + " ".join(f"{COLORS[i % 4]}{(start + k - 1) % 12 + 1}"
                                       for k in range(3)))
    hand = [Card(rng.randint(1, 12), rng.choice(COLORS)) for _ in range(36)] + [WILD] * 4
    began = time.monotonic()
    p = plan(laid, hand, WRAP)
    assert time.monotonic() - began < 20  # (well under two seconds on a quiet machine)
    assert len(p.hits) + len(p.left) == len(hand)
    _replay(tuple((lg.group, lg.cards) for lg in (read_laid_all(laid))), p.hits, WRAP)
    if not p.exact:
        assert "the search stopped at its limit" in str(p)


def read_laid_all(texts):
    from phasedsl.melds.hits import laid_group

    out = []
    for t in texts:
        lg = laid_group(t, WRAP)
        out.append(LaidGroup(lg.group, read_group(lg.group, lg.cards, WRAP)[0]))
    return out


def test_the_report_says_runs_wrap_in_plain_words(tmp_path):
    from phasedsl import load_pack
    from phasedsl.design.report import house_rules_in_words, house_rules_plain

    path = tmp_path / "kinds-test.yaml"
    path.write_text(PACK.format(wrap="true"), encoding="utf-8")
    world = load_pack(path).worlds[0]
    said = {key: text for key, _, text in house_rules_in_words(world)}
    assert "may wrap from the top number to the bottom" in said["runs.wrap"]
    assert any("may wrap from the top number to the bottom" in line
               for line in house_rules_plain(world))


def test_a_wild_closing_a_wrapping_run_into_a_circle_is_logged_as_what_it_stands_for():
    # the run 9-12, 1-7 read again with W=8 lies 1-12: its last card is the 12, not the wild
    from phasedsl.game.game import placed_wild
    from phasedsl.melds.hits import laid_group

    lg = laid_group("run: R9 R10 R11 R12 R1 R2 R3 R4 R5 R6 R7", WRAP)
    old = read_group(lg.group, lg.cards, WRAP)[0]
    [h] = {h.stands: h for h in targets([lg], WILD, WRAP)}.values()
    assert h.stands == 8
    new = read_group(lg.group, (*old, Card(8, None, wild=True)), WRAP.with_(extras=True))[0]
    assert [c.number for c in new] == list(range(1, 13))
    assert placed_wild(old, new) == Card(8, None, wild=True)
    assert placed_wild(("R5", "R6"), ("W", "R5", "R6")) == "W"


@pytest.mark.parametrize(("laid", "card", "end"), [
    ("run: R9 R10 R11 R12 W", "R8", "low"),
    ("run: R9 R10 R11 R12 W", "R2", "high"),
    ("run: R9 R10 R11 R12 W", "R7", None),   # the W is 1, not 8: 7 fits nowhere
    ("run: R9 R10 R11 R12 W", "R1", None),
    ("run: W B1 B2 B3", "R11", "low"),       # the W is 12, not 4
    ("run: W B1 B2 B3", "R4", "high"),
    ("run: W B1 B2 B3", "R12", None),
])
def test_an_unstated_wild_in_a_wrapping_run_stands_where_it_lies(laid, card, end):
    # the wild laid after 12 was read as the lowest number the run could take (8), and the
    # one laid before 1 as 4: a laid run is read by position, in lay, hit and the log
    import json

    from typer.testing import CliRunner

    from phasedsl import load_pack
    from phasedsl.cli import app
    from phasedsl.melds.hits import laid_group

    rules = load_pack("community-kinds").rules_for(None)
    lg = laid_group(laid, rules)
    got = [h.end for h in targets([lg], Card.parse(card), rules)]
    assert got == ([end] if end else []), (laid, card, got)
    r = CliRunner().invoke(app, ["hit", card, "--variant", "community-kinds", "--on", laid,
                                 "--json"])
    data = json.loads(r.stdout)
    assert [h["end"] for h in data["hits"]] == ([end] if end else []), data


def test_a_wrapping_run_laid_by_position_in_a_game():
    # the referee reads a laid run the same way: W after 12 stands for 1
    from phasedsl import load_pack
    from phasedsl.melds.hits import laid_group as read_laid_group

    rules = load_pack("community-kinds").rules_for(None)
    g = read_laid_group("run: R9 R10 R11 R12 W", rules)
    laid, problems = read_group(g.group, g.cards, rules)[:2]
    assert not problems and [c.number for c in laid] == [9, 10, 11, 12, 1]
    g = read_laid_group("run: W B1 B2 B3", rules)
    assert [c.number for c in read_group(g.group, g.cards, rules)[0]] == [12, 1, 2, 3]
