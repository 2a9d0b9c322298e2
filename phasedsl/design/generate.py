"""A new pack whose phases rise in difficulty: ``phasedsl generate``.

Pure apart from the ``progress`` callback.  The search, in four steps:

1. **Phrases.**  Every phrase of one or two groups of the kinds asked for (three where
   those are too few), written as text and read by ``Phase.parse`` (so only what the DSL
   accepts), kept when lint has nothing to say about it under the pack's rules and a
   dealt hand can hold it.
2. **Screen.**  A seeded sample of those is ranked by a fast sampled chance that the cards
   a player sees in a hand (the deal plus ``DRAWS`` draws) make the phase: in play a
   player sees about that many cards, and this chance orders phases more as play does
   than the dealt chance (7 cards of one color is dealt 2.8% of the time and completed
   in about three attempts of four); only a guide, which step 3 measures.
3. **Calibrate.**  N + 5 of them, spread along that ranking (the seed choosing among near
   neighbours), are played once as one pack by greedy bots (``simulate.simulate``) to
   measure each phase's in-play completion share.
4. **Settle.**  N phases whose shares are evenly spaced are picked (with ``length``, the
   window of shares moves until the simulated game length is near the target), put in
   the order of their shares and played again until ``difficulty.easier`` flags no phase
   after the one before (re-ordered by every round's shares together, or a flagged phase
   replaced by a spare that fits).  These rounds are the games ``balance`` plays at its
   defaults (``DEFAULT_GAMES`` games seeded ``DEFAULT_SEED``, whatever the search's
   seed), so the figures written beside the phases are the ones ``balance`` prints and
   an order settled here is one ``balance`` passes; where no order is found in
   ``ROUNDS`` rounds, the least flagged one is kept and its flags are said (never "try
   another seed").

Each chosen phase's dealt chance (exact wherever ``odds`` is exact; ``difficulty.dealt``,
cached) is written beside it in the pack's YAML, which ``pack_yaml`` renders.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import combinations_with_replacement

from ..errors import PhaseDSLError
from ..model.phase import Phase
from ..model.rules import Rules
from ..packs.lint import phase_warnings
from ..packs.pack import Pack, PhaseEntry, World, load_pack, rules_from
from ..system.workers import Pool, resolve_jobs
from .difficulty import (
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    Dealt,
    PhaseInPlay,
    dealt,
    easier,
    in_play,
    reason,
)
from .odds import sampled_odds
from .sampling import both, flags_settled, length_settled, play_until
from .simulate import simulate, summarize

# The printed game's kinds: generate's default.
DEFAULT_KINDS = ("set", "run", "color_run", "color", "even_odd", "color_even_odd", "color_set")
# Every kind the DSL has (issue 19's custom kinds too), and "wrap": runs that wrap around
# from the highest number to the lowest (a rule of the pack, so it brings runs with it).
KINDS = (*DEFAULT_KINDS, "sum", "color_sum", "pair_run", "color_pair_run", "over", "under",
         "wrap")
# The smallest group of each kind worth a phase: a pair is a set; a run, color or parity
# group of two is made by almost any two cards; a run of two pairs is four cards.
SMALLEST = {"set": 2, "color_set": 2, "pair_run": 2, "color_pair_run": 2}
# Kinds not sized by their cards: a sum by its total (the cards it takes, about the total
# over 6.5, the mean card), an over or under group by its cards past one bound.
TOTALS = {"sum": (20, 25, 30, 34), "color_sum": (20, 25, 30)}
BOUNDS = {"over": 8, "under": 5}
# Kinds a phrase holds one group of at most (the DSL reads "2 runs of 3 pairs" but "2 groups
# totalling 20" means something else).
SINGLE = {"sum", "color_sum", "pair_run", "color_pair_run", "over", "under"}
MOST_GROUPS = 3
FEW_ENOUGH = 40  # phases of one or two groups that are enough to choose from
DRAWS = 6  # cards a player sees in a hand beyond the deal, for the screen (about a hand's draws)
SCREEN_SAMPLES = 600
POOL = 90  # candidates screened (a seeded sample of every phrase that passes lint)
GAMES = DEFAULT_GAMES  # games per round that settles the order (balance's; its seed too)
ROUNDS = 6  # rounds of play that mend an order before the least flagged is kept
LENGTH_TRIES = 4  # windows tried to reach a --length target
CALIBRATION_EXTRA = 5  # phases measured beyond those asked for, to choose among
MOST_CALIBRATED = 40  # phases measured in play at most (one pack, played once)
MIN_GAP = 0.05  # the spacing of completion shares a --length window keeps at the least
EASY, HARD = 0.99, 0.15  # the ladder's ends on the screen's scale, before any --length shift
Progress = Callable[[str, int, int], None]


class GenerateError(PhaseDSLError):
    """Options no pack can satisfy (too few phrases of these kinds, an unreachable length)."""


def group_text(kind: str, count: int, size: int) -> str:
    """One part of a phrase, as a player writes it ("2 sets of 3", "7 cards of one color",
    "cards totalling 34", "1 run of 3 pairs", "4 cards over 8")."""
    s = "s" if count > 1 else ""
    if kind == "color":
        return f"{size} cards of one color" if count == 1 else f"{count} color groups of {size}"
    if kind == "sum":
        return f"cards totalling {size}"
    if kind == "color_sum":
        return f"cards of one color totalling {size}"
    if kind in ("pair_run", "color_pair_run"):
        return f"{count} {'color ' * (kind == 'color_pair_run')}run{s} of {size} pairs"
    if kind in BOUNDS:
        return f"{size} cards {kind} {BOUNDS[kind]}"
    word = {"set": f"set{s}", "run": f"run{s}", "color_run": f"color run{s}",
            "even_odd": "even or odd", "color_even_odd": "color even or odd",
            "color_set": f"color set{s}"}[kind]
    return f"{count} {word} of {size}"


def phrases(kinds: Sequence[str], hand_size: int, fewest_cards: int) -> list[str]:
    """Every phrase of 1 to ``MOST_GROUPS`` groups of these kinds holding ``fewest_cards``
    to ``hand_size`` cards, in a fixed order."""
    shapes = [(k, n) for k in kinds if k != "wrap"
              for n in TOTALS.get(k) or range(SMALLEST.get(k, 3), hand_size + 1)]
    out = []
    for groups in range(1, MOST_GROUPS + 1):
        for combo in combinations_with_replacement(shapes, groups):
            cards = sum(_cards(k, n) for k, n in combo)
            if not fewest_cards <= cards <= hand_size:
                continue
            parts: dict[tuple[str, int], int] = {}
            for shape in combo:
                parts[shape] = parts.get(shape, 0) + 1
            if any(c > 1 for (k, _), c in parts.items() if k in SINGLE):
                continue
            out.append(" + ".join(group_text(k, c, n) for (k, n), c in parts.items()))
    return out


def _cards(kind: str, size: int) -> int:
    """About how many cards a group of this kind and size takes."""
    if kind in TOTALS:
        return math.ceil(size / 6.5)
    return 2 * size if kind in ("pair_run", "color_pair_run") else size


def candidates(kinds: Sequence[str], rules: Rules) -> list[Phase]:
    """The phases of ``phrases`` the DSL reads and lint accepts under ``rules`` (no
    warning at all) that a dealt hand can hold, each once.  Phases of three groups only
    where those of one or two are too few to choose from: every three-group phase a
    greedy player meets in play is hard (completed in under two attempts of five), so
    they crowd the hard end and leave no room for a rising ladder."""
    out: dict[Phase, None] = {}
    for text in phrases(kinds, rules.hand_size, math.ceil(rules.hand_size / 2)):
        try:
            phase = Phase.parse(text, rules.deck)
        except PhaseDSLError:  # more than the deck can supply
            continue
        if phase.cards_needed <= rules.hand_size and not phase_warnings(phase, rules):
            out.setdefault(phase)
    few = [p for p in out if len(p.groups) < MOST_GROUPS]
    return few if len(few) >= FEW_ENOUGH else list(out)


def seen_chance(phase: Phase, rules: Rules, seed: int) -> float:
    """The screen: the sampled chance that the deal plus ``DRAWS`` cards make the phase."""
    return sampled_odds(phase, rules, rules.hand_size + DRAWS, SCREEN_SAMPLES, seed).probability


@dataclass(frozen=True)
class Rung:
    """A phase of the generated pack, with what was measured of it."""

    phase: Phase
    text: str  # canonical, as written in the pack
    screen: float
    dealt: Dealt | None = None
    play: PhaseInPlay | None = None


@dataclass(frozen=True)
class GeneratedWorld:
    name: str
    title: str
    rungs: tuple[Rung, ...]
    summary: dict  # simulate.summarize of the last round of play (hands_per_game, ...)
    rounds: int
    flags: tuple[str, ...] = ()  # what balance at its defaults still flags, and why
    # several worlds: the mean share of attempts that complete this world's phases, and
    # why it does not rise above the world before (None: it is harder, or the first)
    mean_share: float | None = None
    not_harder: str | None = None
    length_tries: tuple[float, ...] = ()  # --length: the game length of each window tried


@dataclass(frozen=True)
class Generated:
    """What ``generate`` made: the pack's worlds and how it was found."""

    worlds: tuple[GeneratedWorld, ...]
    kinds: tuple[str, ...]
    hand_size: int
    players: int
    seed: int
    games: int
    length: float | None
    argv: str  # the command that made it, for the pack's header
    pack: Pack = field(repr=False, compare=False, default=None)  # type: ignore[assignment]


def parse_kinds(values: Iterable[str] | None) -> tuple[str, ...]:
    """The kinds asked for (``set,run`` or several values), in KINDS order; the printed
    game's (``DEFAULT_KINDS``) by default.  "wrap" brings runs with it."""
    if not values:
        return DEFAULT_KINDS
    asked = []
    for value in values:
        for word in value.replace(",", " ").split():
            key = _kind_key(word)
            if key not in KINDS:
                from difflib import get_close_matches

                near = get_close_matches(key, KINDS, 1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise GenerateError(f"--kinds: no group kind {word[:40]!r}{hint}; the kinds are "
                                    + ", ".join(KINDS))
            asked.append(key)
    if not asked:
        raise GenerateError("--kinds: name at least one kind: " + ", ".join(KINDS))
    if "wrap" in asked:
        asked.append("run")
    return tuple(k for k in KINDS if k in asked)


def pins_of(pin: Sequence[str], phases: int) -> tuple[list[str], dict[str, int]]:
    """``--pin N=PHRASE`` values as (the phrases, each phrase's place from 0)."""
    texts, places = [], {}
    for value in pin:
        number, sep, text = value.partition("=")
        if not sep or not number.strip().isdigit() or not text.strip():
            raise GenerateError(f"--pin {value[:60]!r}: expected N=PHRASE, like '10=2 sets of 4'")
        n = int(number)
        if not 1 <= n <= phases:
            raise GenerateError(f"--pin {value[:60]!r}: place {n} of a pack of {phases} phases")
        if n - 1 in places.values():
            raise GenerateError(f"--pin: place {n} is pinned twice")
        texts.append(text.strip())
        places[text.strip()] = n - 1
    return texts, places


def instructions(include: Sequence[str], exclude: Sequence[str], kinds: Sequence[str],
                 rules: Rules, phases: int) -> tuple[list[Phase], tuple[str, ...], set[Phase]]:
    """The phases ``--include`` asks for (read by the DSL; each must fit a dealt hand and
    leave lint nothing to say), the kinds left once ``--exclude`` takes its kinds out, and
    the phases it leaves out (the phrases it names, in canonical form)."""
    wanted: list[Phase] = []
    for text in include:
        try:
            phase = Phase.parse(text, rules.deck)
        except PhaseDSLError as e:
            raise GenerateError(f"--include {text[:60]!r}: {getattr(e, 'message', e)}") from None
        if phase.cards_needed > rules.hand_size:
            raise GenerateError(f"--include {text[:60]!r}: {phase.cards_needed} cards, more "
                                f"than the {rules.hand_size} dealt")
        said = phase_warnings(phase, rules)
        if said:
            raise GenerateError(f"--include {text[:60]!r}: lint would say: {said[0]} (a "
                                "generated pack is one lint passes)")
        if phase not in wanted:
            wanted.append(phase)
    if len(wanted) > phases:
        raise GenerateError(f"--include names {len(wanted)} phases; --phases {phases} holds "
                            f"{phases}")
    left, dropped = list(kinds), set()
    for value in _kinds_apart(exclude):
        key = _kind_key(value)
        if key in KINDS:
            left = [k for k in left if k != key]
            # a kind kept out and a phase of that kind asked for cannot both be honoured;
            # writing the phase anyway would break the --exclude the user gave
            for phase in wanted:
                if any(g.kind == key for g in phase.groups):
                    raise GenerateError(f"--exclude {value.strip()[:40]!r}: {phase}, asked for "
                                        "by --include or --pin, is made of that kind")
            continue
        try:
            dropped.add(Phase.parse(value, rules.deck))
        except PhaseDSLError as e:
            raise GenerateError(f"--exclude {value[:60]!r}: neither a group kind ("
                                f"{', '.join(KINDS)}) nor a phrase the DSL reads: "
                                f"{getattr(e, 'message', e)}") from None
    if not left:
        raise GenerateError("--exclude leaves no group kind to make phases of")
    clash = [p for p in wanted if p in dropped]
    if clash:
        raise GenerateError(f"--include and --exclude both name {clash[0]}")
    return wanted, tuple(left), dropped


def _kinds_apart(exclude: Sequence[str]) -> list[str]:
    """``--exclude``'s values, one comma-separated list of kinds read as its kinds (as
    ``--kinds`` reads one); any other value is one kind or one phrase, commas and all."""
    out = []
    for value in exclude:
        parts = value.split(",")
        if len(parts) > 1 and all(_kind_key(p) in KINDS for p in parts):
            out += [p.strip() for p in parts]
        else:
            out.append(value)
    return out


def _kind_key(value: str) -> str:
    return value.strip().lower().replace("-", "_")


def base_pack(hand_size: int, phases: int, wrap: bool = False) -> tuple[dict, Rules]:
    """The settings (original's, with this hand size and game length, and runs that wrap
    around where ``wrap``) and their rules."""
    settings = dict(load_pack("original").settings, hand_size=hand_size, game_length=phases)
    if wrap:
        settings["runs"] = dict(settings["runs"], wrap=True)
    return settings, rules_from(settings)


def build_pack(name: str, worlds: Sequence[tuple[str, str, Sequence[str]]], settings: dict,
               rules: Rules, description: str = "", source: str = "", title: str = "") -> Pack:
    """A Pack of these worlds (name, title, phase texts), as loading its YAML gives."""
    made = []
    for wname, wtitle, texts in worlds:
        entries = tuple(PhaseEntry(i + 1, t, Phase.parse(t, rules.deck))
                        for i, t in enumerate(texts))
        made.append(World(wname if len(worlds) > 1 else name, wtitle, entries, rules, settings))
    return Pack(name, title or worlds[0][1], description, source,
                tuple(made), rules, settings, "original")


def _screen_one(phase: Phase, rules: Rules, seed: int) -> float | None:
    try:
        return seen_chance(phase, rules, seed)
    except PhaseDSLError:  # a hand past the solver's budget: not a phase to print
        return None


def _dealt_one(phase: Phase, rules: Rules) -> Dealt:
    return dealt(phase, rules)


def screen(sample: list[Phase], rules: Rules, seed: int, jobs: int,
           progress: Progress) -> list[Rung]:
    """Each phase of ``sample`` with its screen (``seen_chance``), easiest first; a phase past
    the solver's budget is left out."""
    screens = _mapped(partial(_screen_one, rules=rules, seed=seed), sample, jobs,
                      lambda done: progress("screening phrases", done, len(sample)))
    pool = [Rung(p, p.canonical(rules.deck), s) for p, s in zip(sample, screens, strict=True)
            if s is not None]
    return sorted(pool, key=lambda r: (-r.screen, r.text))


def _mapped(func: Callable, items: list, jobs: int, tick: Callable[[int], None]) -> list:
    """``func`` over ``items`` in order, in ``jobs`` processes (the answers do not depend
    on how many)."""
    out = []
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            out.append(func(item))
            tick(len(out))
        return out
    with Pool(func, min(jobs, len(items))) as pool:
        for value in pool.map(items):
            out.append(value)
            tick(len(out))
    return out


def ladder(pool: list[Rung], m: int, easy: float, hard: float, rng: random.Random) -> list[Rung]:
    """M rungs evenly spaced on the screen's scale from ``easy`` down to ``hard``: for each
    target one of the three nearest phases not yet taken (the seed chooses), easiest first."""
    chosen: list[Rung] = []
    for i in range(min(m, len(pool))):
        target = easy + (hard - easy) * (i / (m - 1) if m > 1 else 0.5)
        near = sorted((r for r in pool if r not in chosen),
                      key=lambda r: (abs(r.screen - target), r.text))[:3]
        chosen.append(rng.choice(near))
    return sorted(chosen, key=lambda r: (-r.screen, r.text))


def share_of(r: Rung) -> float:
    """A rung's completion share in play (-1: never attempted)."""
    share = r.play.completed_share if r.play is not None else None
    return -1.0 if share is None else share


def _flag(rows: Sequence[Rung], i: int) -> bool | str:
    """Phase ``i`` (from 0) against the one before it: True where ``difficulty.easier``
    says so or no one attempted it, "maybe", or False."""
    if share_of(rows[i]) < 0:
        return True
    if i == 0 or share_of(rows[i - 1]) < 0:
        return False
    return easier(rows[i - 1].play, rows[i].play)


def flags(rows: Sequence[Rung]) -> list[int]:
    """The places (from 0) of the phases ``difficulty.easier`` flags (True or "maybe")
    against the phase before them, and of any phase no one attempted."""
    return [i for i in range(len(rows)) if _flag(rows, i) is not False]


def _badness(rows: Sequence[Rung]) -> tuple[int, int]:
    # (flags balance fails an order for first, then its "maybe"s)
    marks = [_flag(rows, i) for i in range(len(rows))]
    return marks.count(True), len(marks) - marks.count(False)


def failing(rows: Sequence[Rung]) -> int:
    """How many phases of this order ``balance`` flags (its "maybe"s not counted)."""
    return _badness(rows)[0]


def flag_words(rows: Sequence[Rung], games: int) -> tuple[str, ...]:
    """Each flag of this order in words, as ``balance`` gives its reasons."""
    out = []
    for i in flags(rows):
        if share_of(rows[i]) < 0:
            out.append(f"phase {i + 1} ({rows[i].text}) was never attempted in {games} games")
            continue
        how = "is easier than" if _flag(rows, i) is True else "may be easier than (not settled)"
        out.append(f"phase {i + 1} ({rows[i].text}) {how} phase {i}: "
                   f"{reason(rows[i - 1].play, rows[i].play)}")
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """What a round of play needs besides the phases."""

    name: str
    settings: dict
    rules: Rules
    players: int
    games: int
    seed: int
    jobs: int
    progress: Progress


def measure(rungs: Sequence[Rung], t: Table, stage: str, sequential: bool = True
            ) -> tuple[list[Rung], dict]:
    """Play a pack of these phases in this order: each rung with its in-play figures, and
    the run's summary (game length).  ``sequential``: until its flags and game length are
    settled, at most ``t.games`` games, as ``balance`` plays (else ``t.games`` games)."""
    settings = dict(t.settings, game_length=len(rungs))
    pack = build_pack(t.name, [(t.name, t.name, [r.text for r in rungs])], settings,
                      rules_from(settings))
    def tick(done: int) -> None:
        t.progress(stage, done, t.games)

    if sequential:
        rule = both(flags_settled(pack, None, t.players, t.games), length_settled(t.players))
        records = play_until(pack, t.players, t.games, t.seed, None, t.jobs, rule,
                             progress=tick)
    else:
        records = simulate(pack, t.players, t.games, seed=t.seed, jobs=t.jobs, progress=tick)
    # (the dealt odds come later, for the chosen phases only)
    rows = {row.number: row for row in in_play(records, pack, None, t.players, with_dealt=False)}
    return ([Rung(r.phase, r.text, r.screen, r.dealt, rows.get(i + 1))
             for i, r in enumerate(rungs)], summarize(records, t.players))


def pick(measured: Sequence[Rung], n: int, top: float, bottom: float) -> list[Rung]:
    """N phases whose measured completion shares lie nearest N targets evenly spaced from
    ``top`` down to ``bottom``, hardest last."""
    free = [r for r in measured if share_of(r) >= 0]
    chosen: list[Rung] = []
    for i in range(n):
        target = top + (bottom - top) * (i / (n - 1) if n > 1 else 0.5)
        chosen.append(min((r for r in free if r not in chosen),
                          key=lambda r: (abs(share_of(r) - target), r.text)))
    return sorted(chosen, key=lambda r: (-share_of(r), r.text))


def placed(rows: Sequence[Rung], pins: dict[Phase, int]) -> list[Rung]:
    """``rows`` with each pinned phase moved to its place (``--pin``)."""
    if not pins:
        return list(rows)
    out = [r for r in rows if r.phase not in pins]
    for r in sorted((r for r in rows if r.phase in pins), key=lambda r: pins[r.phase]):
        out.insert(pins[r.phase], r)
    return out


def settle(order: list[Rung], spare: list[Rung], t: Table, label: str,
           keep: frozenset[Phase] = frozenset(), pins: dict[Phase, int] | None = None
           ) -> tuple[list[Rung], dict, int]:
    """Play the order; while a phase is flagged, put the phases in the order of the shares
    just measured and play again (the same seeds every round: a phase's share moves a
    little with its place), or where that order is the one played, put in a flagged
    phase's place the spare phase whose calibrated share lies nearest the middle of its
    neighbours'; at most ROUNDS rounds.  The first order played with no flag, with its
    figures and the round; else the least flagged one played.  A phase of ``keep``
    (``--include``) is moved, never replaced; one of ``pins`` (``--pin``) stays at its
    place."""
    pins = pins or {}
    order, spare = list(order), list(spare)
    tally: dict[Phase, list[int]] = {}  # attempts and completions over every round
    tried: set[tuple[Phase, ...]] = set()
    best: tuple[list[Rung], dict, int] | None = None
    for rnd in range(1, ROUNDS + 1):
        played, summary = measure(order, t, f"{label}checking the order, round {rnd}")
        bad = flags(played)
        if best is None or _badness(played) < _badness(best[0]):
            best = played, summary, rnd
        if not bad:
            return best
        for r in played:
            seen = tally.setdefault(r.phase, [0, 0])
            seen[0] += r.play.attempts if r.play else 0
            seen[1] += r.play.completed if r.play else 0

        def pooled(r: Rung) -> float:
            attempts, completed = tally[r.phase]
            return completed / attempts if attempts else -1.0

        tried.add(_key(played))
        # A phase's share moves with its place and its neighbours, so the smallest change
        # is tried first: each flagged phase replaced by the spare whose calibrated share
        # lies nearest the middle of its neighbours' (the others keep their places), or
        # where no spare fits, swapped with the one before it; then each flagged phase
        # swapped (as balance's proposal does); then every phase in the order of every
        # round's shares together.
        calibrated = {r.phase: r for r in [*order, *spare]}
        replaced, left = list(order), list(spare)
        for i in bad:
            above = share_of(played[i - 1]) if i else 1.0
            below = share_of(played[i + 1]) if i + 1 < len(played) else max(0.0, above - 0.2)
            fits = [r for r in left if below < share_of(r) < above]
            if fits and replaced[i].phase not in keep:
                new = min(fits, key=lambda r: (abs(share_of(r) - (above + below) / 2), r.text))
                left.remove(new)
                left.append(replaced[i])
                replaced[i] = new
            elif i and replaced[i - 1].phase == played[i - 1].phase:
                replaced[i - 1], replaced[i] = replaced[i], replaced[i - 1]
        swapped = list(played)
        for i in bad:
            if i:
                swapped[i - 1], swapped[i] = swapped[i], swapped[i - 1]
        resorted = sorted(played, key=lambda r: (-pooled(r), r.text))
        for rows, rest in ((replaced, left), (swapped, spare), (resorted, spare)):
            rows = placed(rows, pins)
            if _key(rows) not in tried:
                order, spare = [calibrated[r.phase] for r in rows], rest
                break
        else:
            break
    assert best is not None  # (ROUNDS >= 1)
    return best


def _key(rows: Sequence[Rung]) -> tuple[Phase, ...]:
    return tuple(r.phase for r in rows)


def generate(phases: int, kinds: Sequence[str] = DEFAULT_KINDS, hand_size: int = 10, players: int = 4,
             length: float | None = None, seed: int = 1, worlds: int = 1, jobs: int = 1,
             games: int = GAMES, name: str = "generated", argv: str = "",
             progress: Progress | None = None, include: Sequence[str] = (),
             exclude: Sequence[str] = (), pin: Sequence[str] = ()) -> Generated:
    """A pack of ``worlds`` lists of ``phases`` phases each, rising in difficulty; every
    world holds each phase of ``include`` (at its place by difficulty), and none of the
    kinds or phrases of ``exclude``; ``pin`` (``N=PHRASE``) holds a phase at place N."""
    progress = progress or (lambda stage, done, total: None)
    kinds = parse_kinds(kinds)
    if not 2 <= phases <= 30:
        raise GenerateError(f"--phases: a pack of 2 to 30 phases, not {phases}")
    if not 1 <= worlds <= 20:
        raise GenerateError(f"--worlds: 1 to 20 worlds, not {worlds}")
    if length is not None and length < phases:
        raise GenerateError(f"--length: a game of {phases} phases takes at least {phases} hands "
                            f"(one a phase), not {length:g}")
    settings, rules = base_pack(hand_size, phases, "wrap" in kinds)
    jobs = resolve_jobs(jobs)
    pinned, places = pins_of(pin, phases)
    wanted, kinds, dropped = instructions([*include, *pinned], exclude, kinds, rules, phases)
    pins = {Phase.parse(text, rules.deck): k for text, k in places.items()}
    found = [p for p in candidates(kinds, rules) if p not in dropped and p not in wanted]
    found += wanted  # (screened and measured like the rest; then in every world)
    if len(found) < phases:
        raise GenerateError(
            f"only {len(found)} phase{'s' * (len(found) != 1)} of {', '.join(kinds)} fit a hand "
            f"of {hand_size} cards with nothing for lint to say; --phases {phases} asks for "
            f"{phases}: allow more --kinds or a larger --hand-size")
    rng = random.Random(f"phasedsl-generate:{seed}")
    sample = found if len(found) <= POOL else (
        rng.sample(found[:len(found) - len(wanted)], POOL) + wanted)
    pool = screen(sample, rules, seed, jobs, progress)
    if len(pool) < phases:
        raise GenerateError(f"only {len(pool)} phases of {', '.join(kinds)} could be measured; "
                            f"--phases {phases} asks for {phases}")
    # (the order is settled in the games balance plays at its defaults; the search's seed
    # chooses the phrases and the calibration's games)
    table = Table(name, settings, rules, players, games, DEFAULT_SEED, jobs, progress)
    # Calibration: one pack of more phases than asked, spread over the screen's scale and
    # played once, measures each in play; the worlds are picked from what it measured.
    extra = min(len(pool), phases * worlds + CALIBRATION_EXTRA, MOST_CALIBRATED)
    rungs = ladder(pool, extra, EASY, HARD, rng)
    rungs += [r for r in pool if r.phase in wanted and r not in rungs]
    measured, _ = measure(sorted(rungs, key=lambda r: (-r.screen, r.text)),
                          replace(table, games=max(2, games // 2), seed=seed),
                          "measuring phases in play", sequential=False)
    if any(p not in {r.phase for r in pool} for p in wanted):
        missing = next(p for p in wanted if p not in {r.phase for r in pool})
        raise GenerateError(f"--include {missing}: past the solver's budget for a dealt hand "
                            "(its chance cannot be measured)")
    out: list[GeneratedWorld] = []
    used: set[Phase] = set()
    for w in range(worlds):
        wname = f"world-{w + 1}" if worlds > 1 else name
        title = f"World {w + 1}" if worlds > 1 else f"Generated ({phases} phases, seed {seed})"
        label = f"world {w + 1}: " if worlds > 1 else ""
        # (an included phase is in every world, even one no player attempted in calibration)
        free = [r for r in measured if r.phase in wanted
                or (r.phase not in used and share_of(r) >= 0)]
        if len(free) < phases:  # (more worlds than phrases: phases repeat across worlds only)
            free = [r for r in measured if r.phase in wanted or share_of(r) >= 0]
        if len(free) < phases:
            raise GenerateError(f"only {len(free)} phases of {', '.join(kinds)} were completed "
                                f"in play; --phases {phases} asks for {phases}")
        # (several worlds rise: each is picked from a window further toward the hard end)
        at = w / (worlds - 1) if worlds > 1 else None
        (rungs, summary, rounds), tries = _world(free, phases, table, length, label,
                                                 frozenset(wanted), pins, at)
        dealts = _mapped(partial(_dealt_one, rules=rules), [r.phase for r in rungs], jobs,
                         lambda done, label=label: progress(f"{label}dealt odds", done,
                                                            phases))
        rungs = [Rung(r.phase, r.text, r.screen, d, r.play)
                 for r, d in zip(rungs, dealts, strict=True)]
        used.update(r.phase for r in rungs)
        mean = _mean_share(rungs)
        before = out[-1] if out else None
        worse = None
        if before is not None and mean is not None and before.mean_share is not None \
                and mean >= before.mean_share:
            worse = (f"{title} is not harder than {before.title}: its phases complete "
                     f"{100 * mean:.1f}% of attempts on average, {before.title}'s "
                     f"{100 * before.mean_share:.1f}%")
        out.append(GeneratedWorld(wname, title, tuple(rungs), summary, rounds,
                                  flag_words(rungs, games), mean, worse, tries))
    gen = Generated(tuple(out), tuple(kinds), hand_size, players, seed, games, length, argv)
    title = (out[0].title if worlds == 1 else
             f"Generated ({worlds} worlds of {phases} phases, seed {seed})")
    pack = build_pack(name, [(w.name, w.title, [r.text for r in w.rungs]) for w in out],
                      settings, rules, description(gen), argv or "phasedsl generate", title)
    return Generated(gen.worlds, gen.kinds, hand_size, players, seed, games, length, argv, pack)


def _mean_share(rungs: Sequence[Rung]) -> float | None:
    shares = [r.play.completed_share for r in rungs
              if r.play is not None and r.play.completed_share is not None]
    return sum(shares) / len(shares) if shares else None


def _world(free: list[Rung], phases: int, t: Table, length: float | None, label: str,
           keep: frozenset[Phase] = frozenset(), pins: dict[Phase, int] | None = None,
           at: float | None = None) -> tuple[tuple[list[Rung], dict, int], tuple[float, ...]]:
    """One world: phases picked from the calibrated ones, settled in play, and the game
    length of each window tried.  With ``length``, the window of shares they are picked
    from is moved (by bisection, up to LENGTH_TRIES windows) until ``length`` is met (in
    the game length's 95% interval, or within half a hand of its mean), and the nearest
    is kept."""
    shares = sorted((share_of(r) for r in free if r.phase not in keep), reverse=True) or [1.0, 0.0]
    top, bottom = shares[0], shares[-1]
    span = top - bottom
    width = span if length is None and at is None else max(span * 0.6,
                                                             min(span, phases * MIN_GAP))
    lo, hi = 0.0, 1.0  # where the window lies: 0 at the easy end (short games), 1 at the hard
    where = 0.5 if at is None else at
    best = None
    tries: list[float] = []

    def worse(got: tuple[list[Rung], dict, int]) -> tuple:
        # (an order with fewer flags first, then the one nearer the length asked)
        off = 0.0 if length is None else abs(got[1]["hands_per_game"]["mean"] - length)
        return _badness(got[0]), off

    for _ in range(LENGTH_TRIES if length is not None else 1):
        start = top - where * (span - width)
        kept = [r for r in free if r.phase in keep]
        others = [r for r in free if r.phase not in keep]
        order = placed(sorted(kept + (pick(others, phases - len(kept), start, start - width)
                                      if phases > len(kept) else []),
                              key=lambda r: (-share_of(r), r.text)), pins or {})
        spare = [r for r in others if r not in order]
        got = settle(order, spare, t, label, keep, pins)
        if best is None or worse(got) < worse(best):
            best = got
        if length is None:
            break
        mean = got[1]["hands_per_game"]["mean"]
        tries.append(mean)
        if length_met(got[1], length) and not flags(got[0]):
            break
        if mean > length:
            hi = where
        else:
            lo = where
        where = (lo + hi) / 2
    assert best is not None
    return best, tuple(tries)


def length_met(summary: dict, length: float) -> bool:
    """Whether a run's game length meets ``length``: in its 95% interval, or within half a
    hand of its mean."""
    h = summary["hands_per_game"]
    return h["ci95"][0] <= length <= h["ci95"][1] or abs(h["mean"] - length) <= 0.5


def description(gen: Generated) -> str:
    kinds = ("the printed game's group kinds" if gen.kinds == DEFAULT_KINDS
             else "groups of kinds " + ", ".join(gen.kinds))
    n = len(gen.worlds[0].rungs)
    return (f"{n} phases{f' in each of {len(gen.worlds)} worlds' if len(gen.worlds) > 1 else ''}"
            f" made by phasedsl generate from {kinds}, each makeable by a dealt hand of "
            f"{gen.hand_size} cards (phrases chosen with seed {gen.seed}), in the order of the "
            f"share of attempts that complete them in simulated games of {gen.players} "
            f"greedy bots (seed {DEFAULT_SEED}, the games balance plays: until settled, at "
            f"most {gen.games}), played under the original rules"
            + (", with runs that wrap around from 12 to 1." if "wrap" in gen.kinds else "."))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def dealt_words(d: Dealt) -> str:
    if d.method == "exact":
        return f"dealt {100 * d.probability:.4f}% (exact)"
    return (f"dealt {100 * d.probability:.2f}% (sampled, 95% CI {100 * d.ci95[0]:.2f}-"
            f"{100 * d.ci95[1]:.2f}%, {d.samples:,} hands)")


def play_words(p: PhaseInPlay) -> str:
    lo, hi = p.completed_ci95
    return f"completed {_pct(p.completed_share)}% ({_pct(lo)}-{_pct(hi)}) of {p.attempts} attempts"


def length_words(gen: Generated, w: GeneratedWorld) -> str:
    h = w.summary["hands_per_game"]
    text = (f"{h['mean']:.2f} hands per game (95% CI {h['ci95'][0]:.2f}-{h['ci95'][1]:.2f}, "
            f"median {h['median']:g}) at {gen.players} players, {w.summary['games']} games")
    if gen.length is not None:
        text += f"; target {gen.length:g}, " + (
            "met" if length_met(w.summary, gen.length) else
            f"not met (off by {h['mean'] - gen.length:+.2f}): {_why_not(gen.length, w)}")
    return text


def _why_not(length: float, w: GeneratedWorld) -> str:
    """Why a --length target was not met, from the game lengths of the windows tried."""
    tried = w.length_tries or (w.summary["hands_per_game"]["mean"],)
    low, high = min(tried), max(tried)
    said = (f"{len(tried)} window{'s' * (len(tried) != 1)} of phases tried, games of "
            f"{low:.1f} to {high:.1f} hands")
    if length < low:
        return (f"shorter than any game these phases made ({said}); fewer --phases or "
                "easier --kinds make shorter games")
    if length > high:
        return (f"longer than any game these phases made ({said}); more --phases or "
                "harder --kinds make longer games")
    return (f"between the windows tried ({said}): swapping a phase moves a game's length "
            "in steps larger than the distance left")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _folded(key: str, text: str, indent: str = "") -> list[str]:
    import textwrap

    lines = textwrap.wrap(text, 88 - len(indent) - 2)
    return [f"{indent}{key}: >-"] + [f"{indent}  {line}" for line in lines]


def _phase_lines(w: GeneratedWorld, indent: str) -> list[str]:
    out = []
    for r in w.rungs:
        said = [dealt_words(r.dealt)] if r.dealt else []
        said += [play_words(r.play)] if r.play else []
        out.append(f"{indent}- {_quote(r.text)}" + (f"  # {'; '.join(said)}" if said else ""))
    return out


def pack_yaml(gen: Generated) -> str:
    """The pack as YAML: an ordinary pack extending original, every phase's dealt chance
    and in-play completion share beside it in a comment."""
    pack = gen.pack
    lines = [f"# made by: {gen.argv}"] if gen.argv else []
    lines.append("# each phase: the chance a dealt hand makes it, and the share of attempts that")
    lines.append(f"# complete it in games of {gen.players} greedy bots (95% intervals; until "
                 f"settled, at most {gen.games}),")
    lines.append(f"# the games `{balance_command(gen)}` plays")
    for w in gen.worlds:
        lines.append(f"# {w.title if len(gen.worlds) > 1 else 'game length'}: "
                     f"{length_words(gen, w)}")
        lines += [f"# under balance, {line}" for line in w.flags]
    lines += [f"name: {pack.name}", f"title: {_quote(pack.title)}"]
    lines += _folded("description", pack.description)
    lines += _folded("source", gen.argv or "phasedsl generate")
    lines += ["extends: original", "rules:", f"  hand_size: {gen.hand_size}",
              f"  game_length: {len(gen.worlds[0].rungs)}"]
    if "wrap" in gen.kinds:
        lines += ["  runs:", "    wrap: true"]
    if len(gen.worlds) == 1:
        lines.append("phases:")
        lines += _phase_lines(gen.worlds[0], "  ")
    else:
        lines.append("worlds:")
        for w in gen.worlds:
            lines += [f"  - name: {w.name}", f"    title: {_quote(w.title)}", "    phases:"]
            lines += _phase_lines(w, "      ")
    return "\n".join(lines) + "\n"


def balance_command(gen: Generated) -> str:
    """The ``balance`` command whose games settled the order (the pack passes it, or its
    flags are said)."""
    name = f"{gen.pack.name}.yaml" if gen.argv and " -o " in gen.argv else "PACK"
    return " ".join(["phasedsl balance", name]
                    + ([f"--players {gen.players}"] if gen.players != DEFAULT_PLAYERS else [])
                    + ([f"--games {gen.games}"] if gen.games != DEFAULT_GAMES else []))


def to_json(gen: Generated) -> dict:
    def rung(i: int, r: Rung) -> dict:
        out: dict = {"number": i + 1, "phase": r.text,
                     "dealt": r.dealt.to_json() if r.dealt else None}
        if r.play is not None:
            out["completed_share"] = {"value": r.play.completed_share,
                                      "ci95": list(r.play.completed_ci95),
                                      "attempts": r.play.attempts}
        return out

    return {"pack": gen.pack.name, "kinds": list(gen.kinds), "hand_size": gen.hand_size,
            "players": gen.players, "games": gen.games, "seed": gen.seed,
            "balance": balance_command(gen),
            "worlds": [{"name": w.name, "title": w.title, "rounds": w.rounds,
                        "flags": list(w.flags),
                        **({"mean_completed_share": w.mean_share,
                            "not_harder_than_previous": w.not_harder}
                           if len(gen.worlds) > 1 else {}),
                        "phases": [rung(i, r) for i, r in enumerate(w.rungs)],
                        "hands_per_game": {k: w.summary["hands_per_game"][k]
                                           for k in ("mean", "ci95", "median")},
                        **({"length": {"target": gen.length,
                                       "off_by": w.summary["hands_per_game"]["mean"] - gen.length,
                                       "met": length_met(w.summary, gen.length),
                                       "tried": list(w.length_tries),
                                       "why_not": (None if length_met(w.summary, gen.length)
                                                   else _why_not(gen.length, w))}}
                           if gen.length is not None else {})}
                       for w in gen.worlds]}
