"""The phrasings of the kinds custom phase sets use (issue 19): sums, runs of pairs,
over/under, each read into one canonical form that reads back as itself."""

from __future__ import annotations

import pytest

from phasedsl.errors import PhaseSyntaxError, PhaseValueError
from phasedsl.model.group import Group, Kind
from phasedsl.model.phase import Phase

READS = [
    ("cards totalling 34", "cards totalling 34", Group(Kind.SUM, 3, total=34, any_count=True)),
    ("cards totaling 34", "cards totalling 34", Group(Kind.SUM, 3, total=34, any_count=True)),
    ("cards adding up to 34", "cards totalling 34", Group(Kind.SUM, 3, total=34, any_count=True)),
    ("cards that add up to 20", "cards totalling 20", Group(Kind.SUM, 2, total=20, any_count=True)),
    ("a 34-accumulation", "cards totalling 34", Group(Kind.SUM, 3, total=34, any_count=True)),
    ("5 cards totalling 34", "5 cards totalling 34", Group(Kind.SUM, 5, total=34)),
    ("cards of one color totalling 34", "cards of one color totalling 34",
     Group(Kind.COLOR_SUM, 3, total=34, any_count=True)),
    ("34-accumulation of one color", "cards of one color totalling 34",
     Group(Kind.COLOR_SUM, 3, total=34, any_count=True)),
    ("5 cards of one colour adding up to 30", "5 cards of one color totalling 30",
     Group(Kind.COLOR_SUM, 5, total=30)),
    ("1 run of 3 pairs", "1 run of 3 pairs", Group(Kind.PAIR_RUN, 6)),
    ("run of 3 pairs", "1 run of 3 pairs", Group(Kind.PAIR_RUN, 6)),
    ("3 consecutive pairs", "1 run of 3 pairs", Group(Kind.PAIR_RUN, 6)),
    ("1 color run of 4 pairs", "1 color run of 4 pairs", Group(Kind.COLOR_PAIR_RUN, 8)),
    ("a run of 3 pairs in one color", "1 color run of 3 pairs", Group(Kind.COLOR_PAIR_RUN, 6)),
    ("4 cards over 8", "4 cards over 8", Group(Kind.OVER, 4, bound=8)),
    ("4 over 8", "4 cards over 8", Group(Kind.OVER, 4, bound=8)),
    ("4 cards above 8", "4 cards over 8", Group(Kind.OVER, 4, bound=8)),
    ("4 cards higher than 8", "4 cards over 8", Group(Kind.OVER, 4, bound=8)),
    ("4 cards under 5", "4 cards under 5", Group(Kind.UNDER, 4, bound=5)),
    ("4 cards below 5", "4 cards under 5", Group(Kind.UNDER, 4, bound=5)),
    ("4 cards lower than 5", "4 cards under 5", Group(Kind.UNDER, 4, bound=5)),
]


@pytest.mark.parametrize(("phrase", "canonical", "group"), READS)
def test_each_phrasing_reads_as_its_group(phrase, canonical, group):
    phase = Phase.parse(phrase)
    assert phase.groups == (group,)
    assert str(phase) == canonical
    assert Phase.parse(canonical) == phase


@pytest.mark.parametrize(("phrase", "canonical"), [
    ("2 34-accumulations", "2 groups totalling 34"),
    ("2 groups of 5 totalling 34", "2 groups of 5 totalling 34"),
    ("2 color groups totalling 30", "2 color groups totalling 30"),
    ("2 runs of 3 pairs", "2 runs of 3 pairs"),
    ("2 groups of 4 cards over 8", "2 groups of 4 over 8"),
    ("1 set of 3 + cards totalling 34", "1 set of 3 + cards totalling 34"),
    ("4 cards over 8 and 1 run of 3 pairs", "4 cards over 8 + 1 run of 3 pairs"),
])
def test_several_groups_and_mixed_phases(phrase, canonical):
    phase = Phase.parse(phrase)
    assert str(phase) == canonical
    assert Phase.parse(canonical) == phase


def test_json_names_the_new_fields():
    assert Phase.parse("cards totalling 34").groups[0].to_json() == {
        "kind": "sum", "size": 3, "total": 34, "any_count": True}
    assert Phase.parse("1 run of 3 pairs").groups[0].to_json() == {
        "kind": "pair_run", "size": 6, "pairs": 3}
    assert Phase.parse("4 cards under 5").groups[0].to_json() == {
        "kind": "under", "size": 4, "bound": 5}


@pytest.mark.parametrize(("phrase", "column", "words"), [
    ("5 cards totalling 100", 1, "cannot total 100"),
    ("cards totalling 0", 17, "at least 1"),
    ("4 cards over 12", 1, "above 12"),
    ("4 cards under 1", 1, "below 1"),
    ("1 run of 13 pairs", 10, "13 pairs is impossible"),
    ("20 cards over 11", 1, "impossible"),
    ("99999-accumulation", 1, "far too large"),
])
def test_impossible_values_are_refused_at_their_column(phrase, column, words):
    with pytest.raises(PhaseValueError, match=words) as e:
        Phase.parse(phrase)
    assert e.value.column == column


def test_a_misspelling_is_pointed_at():
    with pytest.raises(PhaseSyntaxError, match="did you mean 'over'") as e:
        Phase.parse("4 cards ovr 8")
    assert e.value.column == 9
