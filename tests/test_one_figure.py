"""One figure for one question (issue 30): the chance a dealt hand makes a phase is the
same number, with the same interval, in `odds`, `balance`, `report` and `simulate` (and
`generate`'s comments: tests/test_generate.py), over three packs: every phase exact
(`original`), most sampled (`one-color-runs`), and a short list (`short-game-5`)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.difficulty import DEALT_SAMPLES

runner = CliRunner()


def _json(*args: str) -> dict:
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _figure(d: dict | None) -> tuple | None:
    """(probability, interval) of a dealt figure as any command writes it."""
    return None if d is None else (d["probability"], tuple(d["ci95"]) if d.get("ci95") else None)


@pytest.mark.parametrize("pack", ["original", "one-color-runs", "short-game-5"])
def test_odds_balance_report_and_simulate_give_one_dealt_figure(pack, tmp_path):
    odds = {int(p["number"]): (p["probability"], tuple(p["ci95"]) if "ci95" in p else None)
            for p in _json("odds", pack, "--json")["phases"]}
    balance = {p["number"]: _figure(p["dealt"])
               for p in _json("balance", pack, "--players", "2", "--games", "2", "--json",
                              "--jobs", "1")["phases"]}
    report = {p["number"]: _figure(p["dealt"])
              for p in _json("report", pack, "-o", str(tmp_path / "r.html"), "--games", "2",
                             "--json", "--jobs", "1")["figures"]["phases"]}
    simulated = _json("simulate", pack, "--games", "2", "--players", "2", "--json")["phases"]
    simulate = {p["phase"]: p["dealt_odds"] for p in simulated}
    # (and its interval, where the figure is sampled: simulate's text shows it too)
    assert {p["phase"]: _figure(p["dealt"]) for p in simulated} == {
        n: (odds[n][0], odds[n][1] or (odds[n][0], odds[n][0])) for n in simulate}
    # (an exact figure's interval is the point itself in balance and report)
    same = {n: (p, ci or (p, p)) for n, (p, ci) in odds.items()}
    assert balance == same and report == same
    assert {n: odds[n][0] for n in simulate} == simulate
    if pack == "one-color-runs":  # sampled, with the one sample size every command uses
        sampled = [n for n, (_, ci) in odds.items() if ci is not None]
        assert sampled
        r = _json("odds", pack, "--json")
        assert {p["samples"] for p in r["phases"] if p["method"] == "sampled"} == {DEALT_SAMPLES}


def test_the_odds_commands_default_samples_are_the_one_dealt_figures():
    import inspect

    from phasedsl.cli.odds import odds

    default = inspect.signature(odds).parameters["samples"].default
    assert default == DEALT_SAMPLES


def test_asking_odds_for_more_samples_is_a_figure_of_its_own():
    base = _json("odds", "1 color run of 4 + 1 set of 4", "--json")["phases"][0]
    more = _json("odds", "1 color run of 4 + 1 set of 4", "--samples", "40000",
                 "--json")["phases"][0]
    assert base["samples"] == DEALT_SAMPLES and more["samples"] == 40_000
    # chunks are seeded by their place: the larger sample begins with the smaller one
    assert more["hits"] >= base["hits"]
