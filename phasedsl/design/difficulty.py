"""How hard a phase is, measured two ways, each with its uncertainty.

* **Dealt**: the chance that a dealt hand makes the phase: exact wherever ``odds`` is exact
  (the same figure ``phasedsl odds`` prints), else sampled with a Wilson 95% interval.
  Cached in memory and on disk (``oddscache``): the same phase is asked for again and again.
* **In play**: from seeded games between greedy bots (``simulate``), the share of attempts
  that complete the phase and the hands a player spends on it.  This is the measure that
  orders phases: a phase rarely dealt complete may still be quick to finish by drawing.

A phase is *easier than the one before* when its completion share is above the previous
phase's and the two 95% intervals do not overlap; "maybe" when they overlap but the point
estimates differ by more than five points.  Where players choose their phase
(``phase_order: any``, or a declared phase as in the Masters Edition) order does not
matter, and callers say so instead of flagging (``order_matters``).

Pure apart from the odds cache: no terminal, no YAML.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal, Protocol

from ..model.phase import Phase
from ..model.rules import Rules, rules_fingerprint
from ..packs.pack import Pack
from .odds import Z95, Odds, odds, wilson
from .simulate import GameRecord, phase_tallies

Flag = bool | Literal["maybe"]
# Point estimates further apart than this, with overlapping intervals: "maybe easier".
MAYBE_GAP = 0.05
# The most games a simulation of the in-play measure plays by default (balance, report and
# generate alike, so all three flag the same phases from the same games; each stops sooner
# once settled, ``sampling``): at the cap, about +-4 points on the commonest phases of
# ``original`` at four players.
DEFAULT_GAMES = 80
DEFAULT_SEED = 1  # (balance's and report's: generate settles its order with the same games)
DEFAULT_PLAYERS = 4  # balance's table, where the pack allows it
# Bumped when what a cache entry means changes, so old entries are not read as new ones.
CACHE_VERSION = "dealt-2"
# Hands sampled for a dealt chance no exact count exists for: one figure for every command
# (``odds``' default too), cached; ``odds --samples`` asks for a figure of its own.
DEALT_SAMPLES = 20_000


@dataclass(frozen=True)
class Dealt:
    """The chance a dealt hand makes a phase; ``ci95`` is (p, p) for an exact figure."""

    probability: float
    method: Literal["exact", "sampled"]
    ci95: tuple[float, float]
    samples: int | None = None

    def to_json(self) -> dict:
        out: dict = {"probability": self.probability, "method": self.method,
                     "ci95": list(self.ci95)}
        if self.samples is not None:
            out["samples"] = self.samples
        return out

    def describe(self) -> str:
        if self.method == "exact":
            return f"{100 * self.probability:.4f}% (exact)"
        lo, hi = self.ci95
        return f"{100 * self.probability:.2f}% ({100 * lo:.2f}-{100 * hi:.2f})"


    @classmethod
    def of(cls, odds: Odds) -> Dealt:
        if odds.method == "exact":
            return cls(odds.probability, "exact", (odds.probability, odds.probability))
        return cls(odds.probability, "sampled", (odds.low, odds.high), odds.samples)


_MEMORY: dict[str, Odds] = {}


def _cache_key(phase: Phase, rules: Rules, cards: int, samples: int, seed: int) -> str:
    text = "\n".join([CACHE_VERSION, phase.canonical(rules.deck), rules_fingerprint(rules), str(cards),
                      str(samples), str(seed)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _from_entry(phase: Phase, cards: int, entry: dict) -> Odds | None:
    """A cache entry (``Odds.to_json``) read back, or None when it is not one we wrote."""
    try:
        p, method, note = entry["probability"], entry["method"], entry.get("note")
        if (not isinstance(p, float | int) or isinstance(p, bool) or not 0.0 <= p <= 1.0
                or entry["cards"] != cards or not isinstance(note, str | None)):
            return None
        if method == "exact":
            top, _, bottom = entry["fraction"].partition("/")
            frac = Fraction(int(top), int(bottom))
            if not 0 <= frac <= 1 or abs(float(frac) - p) > 1e-12:
                return None
            return Odds(phase, cards, "exact", float(frac), fraction=frac, note=note)
        lo, hi = entry["ci95"]
        samples, hits = entry["samples"], entry["hits"]
        if (method != "sampled" or not all(isinstance(x, int) and not isinstance(x, bool)
                                           for x in (samples, hits))
                or not 0 <= hits <= samples or samples < 1 or hits / samples != p
                or (lo, hi) != wilson(hits, samples)):
            return None
        return Odds(phase, cards, "sampled", p, low=lo, high=hi, samples=samples, hits=hits,
                    note=note)
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError):
        return None


def known_odds(phase: Phase, rules: Rules, cards: int | None = None, *,
               samples: int = DEALT_SAMPLES, seed: int = 1, jobs: int = 1,
               progress: Callable[[int], None] | None = None) -> Odds:
    """``odds`` of ``phase`` with ``cards`` cards (None: a dealt hand), kept in memory and
    on disk: the one source of a dealt figure, so that ``odds``, ``balance``, ``report``
    and ``generate`` print the same number for the same question (exact where ``odds`` is
    exact, else ``samples`` seeded hands with a Wilson 95% interval: the same figure for
    any number of ``jobs`` sharing the sampling).

    Raises what ``odds`` raises (a phase past the solver's budget: ``SearchLimit``;
    sampling that would take too long: ``PhaseDSLError``)."""
    from . import oddscache

    cards = rules.hand_size if cards is None else cards
    key = _cache_key(phase, rules, cards, samples, seed)
    got = _MEMORY.get(key)
    if got is None:
        entry = oddscache.read_all().get(key)
        got = _from_entry(phase, cards, entry) if entry is not None else None
        if got is None:
            got = odds(phase, rules, cards, samples=samples, seed=seed, jobs=jobs,
                       progress=progress)
            oddscache.store(key, got.to_json())
        _MEMORY[key] = got
    return got


def dealt(phase: Phase, rules: Rules, *, samples: int = DEALT_SAMPLES, seed: int = 1,
          jobs: int = 1) -> Dealt:
    """The chance that a dealt hand (``rules.hand_size`` cards) makes ``phase``
    (``known_odds``, as a ``Dealt``)."""
    return Dealt.of(known_odds(phase, rules, samples=samples, seed=seed, jobs=jobs))


def clear_memory() -> None:
    """Forget the in-memory answers (the disk cache stays): for tests and long runs."""
    _MEMORY.clear()


# --------------------------------------------------------------------------- in play


@dataclass(frozen=True)
class PhaseInPlay:
    """A phase's figures from simulated games.

    ``completed_ci95`` is the Wilson 95% interval of the completion share;
    ``hands_spent_ci95`` the normal-approximation 95% interval of the mean hands a player
    spends on the phase (mean +- 1.96 s / sqrt(n) over the players who attempted it, as
    ``simulate`` states game lengths; cut at 1, the fewest hands an attempt spends).  A
    phase nobody attempted has None figures."""

    number: int  # the printed phase number
    phase: str  # canonical text
    attempts: int
    completed: int
    completed_share: float | None
    completed_ci95: tuple[float, float] | None
    hands_spent_mean: float | None
    hands_spent_ci95: tuple[float, float] | None
    dealt: Dealt | None = None
    easier_than_previous: Flag = False
    players: int = 0  # players who attempted it (the n of the hands-spent mean)

    def to_json(self) -> dict:
        """The entry of ``balance --json``'s "phases"."""
        return {"number": self.number, "phase": self.phase,
                "dealt": self.dealt.to_json() if self.dealt else None,
                "completed_share": {"value": self.completed_share,
                                    "ci95": _list(self.completed_ci95),
                                    "attempts": self.attempts},
                "hands_spent": {"mean": self.hands_spent_mean,
                                "ci95": _list(self.hands_spent_ci95)},
                "easier_than_previous": self.easier_than_previous}


def _list(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)


class Completion(Protocol):
    number: int
    completed_share: float | None
    completed_ci95: tuple[float, float] | None


def order_matters(pack: Pack, world: str | None = None) -> bool:
    """Whether a game plays the phases in their printed order (not when players choose
    among them: ``phase_order: any``, or a phase declared as in the Masters Edition)."""
    settings = pack.world(world).settings
    declared = (settings.get("house_rules") or {}).get("declare_phase", "never")
    return settings.get("phase_order", "in_order") != "any" and declared == "never"


def easier(prev: Completion, cur: Completion) -> Flag:
    """Whether ``cur`` is easier than ``prev``, the phase played before it, in play: True
    when its completion share is higher and the 95% intervals do not overlap; "maybe"
    when they overlap but ``cur``'s share is more than five points higher; else False
    (also when either was never attempted)."""
    if prev.completed_share is None or cur.completed_share is None:
        return False
    if cur.completed_share <= prev.completed_share:
        return False
    if cur.completed_ci95[0] > prev.completed_ci95[1]:
        return True
    # (a hair of slack: 0.55 - 0.50 is 0.05000000000000004 in floating point, not "more")
    gap = cur.completed_share - prev.completed_share
    return "maybe" if gap > MAYBE_GAP + 1e-12 else False


# The most games ``games_to_settle`` names (and ``balance --settle`` plays): past it a
# difference is too small to be worth settling by play.
MOST_SETTLE_GAMES = 20_000


def games_to_settle(prev: Completion, cur: Completion, games: int) -> int | None:
    """The games (per simulation) at which a "maybe" flag would be settled one way, were
    the two shares to stay as measured: the count at which their 95% intervals part
    (each phase's attempts grow with the games).  None past ``MOST_SETTLE_GAMES``, or
    where the shares are not apart."""
    p, q = prev.completed_share, cur.completed_share
    n, m = getattr(prev, "attempts", 0), getattr(cur, "attempts", 0)
    if p is None or q is None or q <= p or not n or not m:
        return None

    def parted(k: float) -> bool:  # (attempts and hits scaled as reals: monotone in k)
        return wilson(q * m * k, m * k)[0] > wilson(p * n * k, n * k)[1]

    low, high = 1.0, 2.0
    while not parted(high):
        low, high = high, high * 2
        if high * games > 2 * MOST_SETTLE_GAMES:
            return None
    for _ in range(30):  # (bisect to a game)
        mid = (low + high) / 2
        low, high = (low, mid) if parted(mid) else (mid, high)
        if (high - low) * games < 1:
            break
    needed = math.ceil(high * games)
    return needed if needed <= MOST_SETTLE_GAMES else None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def reason(prev: Completion, cur: Completion) -> str:
    """One line saying what a flag rests on: "completed 73.8% (70.5-76.9) vs 36.9%
    (33.6-40.3) for phase 7"."""
    def said(c: Completion) -> str:
        if c.completed_share is None:
            return "never attempted"
        lo, hi = c.completed_ci95
        return f"{_pct(c.completed_share)}% ({_pct(lo)}-{_pct(hi)})"

    return f"completed {said(cur)} vs {said(prev)} for phase {prev.number}"


def in_play(records: list[GameRecord], pack: Pack, world: str | None, players: int, *,
            with_dealt: bool = True, dealt_samples: int = DEALT_SAMPLES,
            jobs: int = 1) -> list[PhaseInPlay]:
    """Every phase the pack plays (in play order), measured from ``records`` (a
    ``simulate`` run of this pack and world at ``players`` players; unfinished games are
    left out, as ``simulate.summarize`` leaves them out), each flagged against the phase
    before it when order matters.  ``with_dealt``: also the dealt chance (None where the
    solver or the sampler gives up; ``jobs`` processes share any sampling)."""
    del players  # (the records were played at it; kept so callers say which table they mean)
    w = pack.world(world)
    name = w.name if len(pack.worlds) > 1 else None
    finished = [r for r in records if not (r.capped or r.stalled)]
    tallies = phase_tallies(finished)
    matters = order_matters(pack, world)
    out: list[PhaseInPlay] = []
    for e in w.played:
        t = tallies.get(e.number)
        got = None
        if with_dealt:
            got = dealt_or_none(*_entry_phase(pack, e.number, name), samples=dealt_samples,
                                jobs=jobs)
        if t is None or not t.attempts:
            row = PhaseInPlay(e.number, str(e.phase), 0, 0, None, None, None, None, got)
        else:
            share = t.completed / t.attempts
            mean = statistics.fmean(t.spent)
            half = (Z95 * statistics.stdev(t.spent) / math.sqrt(len(t.spent))
                    if len(t.spent) > 1 else 0.0)
            row = PhaseInPlay(e.number, str(e.phase), t.attempts, t.completed, share,
                              wilson(t.completed, t.attempts), mean, (mean - half, mean + half),
                              got, players=len(t.spent))
        if matters and out:
            row = _flagged(row, easier(out[-1], row))
        out.append(row)
    return out


def _flagged(row: PhaseInPlay, flag: Flag) -> PhaseInPlay:
    return replace(row, easier_than_previous=flag)


def _entry_phase(pack: Pack, number: int, world: str | None) -> tuple[Phase, Rules]:
    entry, rules = pack.phase_entry(number, world)
    return entry.phase, rules


def dealt_or_none(phase: Phase, rules: Rules, *, samples: int = DEALT_SAMPLES,
                  seed: int = 1, jobs: int = 1) -> Dealt | None:
    """``dealt``, or None where no figure can be had (the solver's budget, a sampler
    that would take too long)."""
    from ..errors import PhaseDSLError
    from ..solver import SearchLimit

    try:
        return dealt(phase, rules, samples=samples, seed=seed, jobs=jobs)
    except (SearchLimit, PhaseDSLError):
        return None


def phase_odds(pack: Pack, world: str | None = None,
               samples: int = DEALT_SAMPLES) -> dict[int, Dealt]:
    """The chance a dealt hand makes each phase the pack plays (``dealt``: the figure
    ``odds``, ``balance`` and ``report`` give, exact or sampled with its interval), by
    printed number; a phase with no figure (``dealt_or_none``) is left out."""
    w = pack.world(world)
    name = w.name if len(pack.worlds) > 1 else None
    out = {}
    for e in w.played:  # (even_only / odd_only: the others are not played, so have no odds)
        got = dealt_or_none(*_entry_phase(pack, e.number, name), samples=samples)
        if got is not None:
            out[e.number] = got
    return out
