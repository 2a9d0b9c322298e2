"""The one-page report of a Phase 10 Dice pack: ``phasedsl report dice``.

Its figures: each phase's exact chance with one, two and every roll under the best holds,
the expected turns and the best expected score of a turn (``dice.odds``, exact), the most a
roll scores for it and the highest possible game; then seeded games between best-chance
bots (``dicesim``): turns, scores, the five-phase bonus and wins by seat, each with its 95%
interval and the games it rests on; and a printable scorepad.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from html import escape

from ..dice.odds import Space, table
from ..packs.pack import Pack
from .dicesim import simulate_dice, summarize_dice
from .report import CSS


def highest_score(dice, best_rolls: list[int]) -> int:
    """The most a game can score: each phase's best roll, the five-phase bonus where those
    pass its mark, and the first-finish bonus."""
    sc = dice.scoring
    five = sc.five_phase_bonus if sum(best_rolls[:5]) > sc.five_phase_over else 0
    return sum(best_rolls) + five + sc.first_finish_bonus


def hold_advice(pack: Pack, phase_no: int, faces: list[str], rolls_left: int):
    """``phasedsl hold``'s answer: (the phase's entry, ``dice.advise``'s advice) for the
    faces showing (every die's) with ``rolls_left`` re-rolls left; bad input raises
    ``PhaseDSLError`` as the CLI says it."""
    from ..dice import advise, colour_matters, fits_dice, parse_roll
    from ..errors import PhaseDSLError

    if pack.dice is None:
        raise PhaseDSLError(f"hold: pack {pack.name!r} is not played with dice (it has no "
                            "`dice:`)")
    if pack.dice.rolls < 2:
        # (else "rolls left: 1 to 0", a range with nothing in it)
        raise PhaseDSLError(f"hold: {pack.name}'s dice are rolled once a turn: no re-roll "
                            "is left to keep dice for")
    entry, rules = pack.phase_entry(phase_no, None)
    showing = parse_roll(faces, rules.deck, pack.dice,
                         colour_free=not colour_matters(entry.phase, rules))
    why = fits_dice(showing, pack.dice)
    if why or len(showing) != pack.dice.count:
        raise PhaseDSLError(f"give the face of every die ({pack.dice.count})"
                            + (f": {why}" if why else f", not {len(showing)}"))
    if not 1 <= rolls_left < pack.dice.rolls:
        raise PhaseDSLError(f"rolls left: 1 to {pack.dice.rolls - 1}, not {rolls_left}")
    return entry, advise(entry.phase, rules, pack.dice, showing, rolls_left, Space(pack.dice))


def dice_tables(pack: Pack, rules, phases: list,
                progress: Callable[[int], None] | None = None) -> list:
    """``odds DICEPACK``'s tables: (number, ``dice.table``) of each (number, phase);
    ``progress(done)`` after each phase (one not cached takes seconds)."""
    space = Space(pack.dice)
    out = []
    for i, p in phases:
        out.append((i, table(p, rules, pack.dice, space)))
        if progress:
            progress(len(out))
    return out


def dice_figures(pack: Pack, world: str | None, games: int, players: int, seed: int,
                 progress: Callable[[int], None] | None = None,
                 preparing: Callable[[int, int], None] | None = None) -> dict:
    """The report's figures; ``preparing(done, phases)`` as each phase's tables are
    worked out (or read), then ``progress(games)`` as the games are played."""
    w = pack.world(world)
    tables = [t for _, t in dice_tables(pack, w.rules, [(None, e.phase) for e in w.played],
                                         preparing and (lambda k: preparing(k, len(w.played))))]
    records = simulate_dice(pack, players, games, "best-chance", seed, world, progress)
    solo = sum((t.expected_turns for t in tables if t.expected_turns), Fraction(0))
    return {"phases": [t.to_json(i + 1) for i, t in enumerate(tables)],
            "highest_score": highest_score(pack.dice, [t.best_roll for t in tables]),
            "expected_turns_solo": None if any(t.expected_turns is None for t in tables)
            else float(solo),
            "play": summarize_dice(records, players), "players": players, "seed": seed,
            "bot": "best-chance"}


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _ci(d: dict, digits: int = 1) -> str:
    if not d["n"]:
        return "-"
    lo, hi = d["ci95"]
    return f"{d['mean']:.{digits}f} <span class=\"muted\">({lo:.{digits}f}-{hi:.{digits}f})</span>"


def render_dice_html(pack: Pack, world: str | None, figures: dict) -> str:
    e = escape
    w = pack.world(world)
    d = pack.dice
    rolls = d.rolls
    h = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
         '<meta name="viewport" content="width=device-width, initial-scale=1">',
         f"<title>{e(pack.title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
         f"<h1>{e(pack.title)}</h1>", f'<p class="muted">pack {e(pack.name)}: played with '
         f"dice</p>", f"<p>{e(pack.description.strip())}</p>",
         f'<p class="note">Source: {e(pack.source.strip())}</p>',
         "<h2>The dice</h2>", "<ul>"]
    h += [f"<li>{k.count} {e(k.name)} dice: {e(' '.join(map(str, k.faces)))}</li>" for k in d.kinds]
    h += ["</ul>", f"<p>{rolls} rolls a turn, keeping any dice before each re-roll. A made "
          "phase scores the total of the dice used in it (a wild 0); "
          f"+{d.scoring.five_phase_bonus} when the total after phase 5 is over "
          f"{d.scoring.five_phase_over}; +{d.scoring.first_finish_bonus} to the first to "
          "make the last phase.</p>"]
    h += ["<h2>Phases: the exact chance of a turn</h2>",
          "<p>Keeping the best dice before each re-roll (an exact decision process over the "
          "faces showing; every figure is exact, the fraction in the last column).</p>",
          "<table><tr><th>#</th><th>phase</th>"
          + "".join(f"<th>{r} roll{'s' * (r > 1)}</th>" for r in range(1, rolls + 1))
          + "<th>expected turns</th><th>best expected score</th><th>best roll</th>"
          "<th>exact chance</th></tr>"]
    for p in figures["phases"]:
        cells = "".join(f"<td>{_pct(float(Fraction(p['by_rolls'][str(r)])))}</td>"
                        for r in range(1, rolls + 1))
        turns = "never" if p["expected_turns"] is None else f"{p['expected_turns']:.2f}"
        h.append(f"<tr><td>{p['index']}</td><td>{e(p['phase'])}</td>{cells}<td>{turns}</td>"
                 f"<td>{p['expected_score']:.2f}</td><td>{p['best_roll']}</td>"
                 f"<td class=\"muted\">{e(p['exact'])}</td></tr>")
    h.append("</table>")
    solo = figures["expected_turns_solo"]
    h.append(f"<p>Highest possible score: <b>{figures['highest_score']}</b> (each phase's best "
             "roll, with both bonuses). A whole game solo: "
             + ("never ends (a phase no roll makes)." if solo is None else
                f"<b>{solo:.2f}</b> turns expected.") + "</p>")
    s = figures["play"]
    h += [f"<h2>In play: {s['games']} games of {figures['players']} {figures['bot']} bots "
          f"(seed {figures['seed']})</h2>",
          f"<p class=\"muted\">{s['finished']} finished; 95% intervals in brackets.</p>",
          "<table>",
          f"<tr><td>turns per game (every player's)</td><td>{_ci(s['turns_per_game'])}</td></tr>",
          f"<tr><td>turns of the first seat</td><td>{_ci(s['turns_of_first_seat'])}</td></tr>",
          f"<tr><td>final score</td><td>{_ci(s['final_score'])}</td></tr>",
          f"<tr><td>winning score</td><td>{_ci(s['winning_score'])}</td></tr>"]
    f = s["five_phase_bonus_share"]
    if f["share"] is not None:
        h.append(f"<tr><td>five-phase bonus</td><td>{_pct(f['share'])} of {f['players']} "
                 f"players <span class=\"muted\">({_pct(f['ci95'][0])}-{_pct(f['ci95'][1])})"
                 "</span></td></tr>")
    for seat in s["win_share_by_seat"]:
        if seat["share"] is not None:
            h.append(f"<tr><td>seat {seat['seat']} wins</td><td>{_pct(seat['share'])} "
                     f"<span class=\"muted\">({_pct(seat['ci95'][0])}-{_pct(seat['ci95'][1])})"
                     "</span></td></tr>")
    h += ["</table>", '<p class="note">A tie counts as a win for each tied player.</p>']
    players = max(2, figures["players"])
    h += ['<h2 class="sheet">Scorepad</h2>', '<table class="sheet"><tr><th>#</th><th>phase</th>'
          + "".join("<th>&nbsp;</th>" for _ in range(players)) + "</tr>"]
    for i, entry in enumerate(w.played, 1):
        h.append(f"<tr><td>{i}</td><td>{e(str(entry.phase))}</td>"
                 + "".join("<td></td>" for _ in range(players)) + "</tr>")
        if i == 5:
            h.append("<tr><td></td><td><i>total after phase 5 (bonus over "
                     f"{d.scoring.five_phase_over}: +{d.scoring.five_phase_bonus})</i></td>"
                     + "".join("<td></td>" for _ in range(players)) + "</tr>")
    h += [f"<tr><td></td><td><i>first to finish: +{d.scoring.first_finish_bonus}</i></td>"
          + "".join("<td></td>" for _ in range(players)) + "</tr>",
          "<tr><td></td><td><b>total</b></td>" + "".join("<td></td>" for _ in range(players))
          + "</tr>", "</table>", "</body>", "</html>"]
    return "\n".join(h) + "\n"
