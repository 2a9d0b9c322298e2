"""A pack's one-page report: its rules in words, its phases, how it plays (from games
between bots) and a printable phase and score sheet, as one self-contained HTML file.

Pure: ``pack_figures`` plays the games and works out the odds; ``render_html`` turns
pack and figures into the page (inline SVG charts, inline CSS, no script, nothing
fetched).  The CLI writes the file.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from .coerce import as_pack, as_world
from .errors import ArgumentError, PhaseDSLError
from .game.state import HouseRules
from .game.table import MAX_PLAYERS, MIN_PLAYERS, make_table
from .packs import Pack, World, describe_rules, schema
from .rules import Rules
from .difficulty import in_play, order_matters, reason
from .simulate import PLAYER_NAMES, simulate, summarize
from .svgchart import bar_chart, line_chart, two_scale_chart

CURVE_PLAYERS = 4  # the table whose phase curve the report draws (or the largest allowed)
# Games per table size by default.  One world: enough that the commonest phases' completion
# shares at the curve table have 95% intervals of about +-4 points (original: phases 4 and
# 8 stand clear of the phase before); several worlds on one page share the time, so each
# world's figures rest on fewer games, and its intervals (printed) are wider.
GAMES = 100
GAMES_PER_WORLD = 20
FALLBACK_ROWS = 18  # score sheet rows when no simulated game finished


def player_counts(pack: Pack, world: str | None = None) -> list[int]:
    """Table sizes the referee lets this pack be played by (2-6, Masters 2-4, fewer when
    the deck cannot deal every hand)."""
    out = []
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            make_table(pack, PLAYER_NAMES[:n], world)
        except PhaseDSLError:
            continue
        out.append(n)
    return out


def report_worlds(pack: Pack, world: str | None) -> list[str | None]:
    """The worlds a report covers: the one named, the only one, or every world of the pack
    (each by name)."""
    if world is not None or len(pack.worlds) == 1:
        return [world]
    return [w.name for w in pack.worlds]


def default_games(pack: Pack, world: str | None) -> int:
    return GAMES if len(report_worlds(pack, world)) == 1 else GAMES_PER_WORLD


def planned_games(pack: Pack, world: str | None, games: int | None = None) -> int:
    """How many games ``pack_figures`` plays (for a progress bar)."""
    g = games or default_games(pack, world)
    return sum(g * max(1, len(player_counts(pack, w))) for w in report_worlds(pack, world))


def pack_figures(pack: Pack | str, world: str | None = None, games: int | None = None,
                 seed: int = 1, jobs: int = 1, bot: str = "greedy",
                 progress: Callable[[int], None] | None = None) -> dict:
    """Simulated games for every table size and each phase's two measures of difficulty
    (``pack`` may be a pack name or file).  ``games`` per table size (None: ``GAMES`` for one
    world, ``GAMES_PER_WORLD`` for each world of a pack of several given no ``world``).

    One world: that world's figures.  Several: ``{"games", "seed", "bot", "worlds": [...]}``,
    each world's figures in the pack's order."""
    pack, world = as_pack(pack, "pack_figures"), as_world(world, "pack_figures")
    names = report_worlds(pack, world)
    games = games or default_games(pack, world)
    done = 0

    def tick(k: int) -> None:
        if progress:
            progress(done + k)

    out = []
    for name in names:
        counts = player_counts(pack, name)
        if not counts:
            # make_table says why (a rule the referee cannot honor, a deck too small ...)
            make_table(pack, PLAYER_NAMES[:MIN_PLAYERS], name)
        out.append(_world_figures(pack, name, counts, games, seed, jobs, bot, tick))
        done += games * len(counts)
    if len(names) == 1:
        return out[0]
    return {"games": games, "seed": seed, "bot": bot, "worlds": out}


def _world_figures(pack: Pack, world: str | None, counts: list[int], games: int, seed: int,
                   jobs: int, bot: str, tick: Callable[[int], None]) -> dict:
    curve = CURVE_PLAYERS if CURVE_PLAYERS in counts else counts[-1]
    by_players: dict[int, dict] = {}
    done = 0
    for n in counts:
        records = simulate(pack, n, games, bot, seed, world, jobs,
                           progress=lambda k: tick(done + k))
        done += games
        by_players[n] = summarize(records, n)
        if n == curve:
            rows = in_play(records, pack, world, n)
    phases = []
    for k, row in enumerate(rows):
        entry = row.to_json()
        entry["players"] = row.players
        entry["reason"] = (reason(rows[k - 1], row) if row.easier_than_previous else None)
        phases.append(entry)
    largest = by_players[counts[-1]]["hands_per_game"]
    return {"world": world, "games": games, "seed": seed, "bot": bot, "players": by_players,
            "curve_players": curve, "order_matters": order_matters(pack, world),
            "phases": phases,
            "sheet_rows": math.ceil(largest["p90"]) if largest["n"] else FALLBACK_ROWS}


# --------------------------------------------------------------------------- rules in words


def _schema_description(dotted: str) -> str | None:
    """The pack format's own description of a rule option (``house_rules.floating`` ...)."""
    s = schema()
    node = s["properties"]["rules"]
    for part in dotted.split("."):
        while "$ref" in node:
            node = s["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        node = node.get("properties", {}).get(part)
        if node is None:
            return None
    return node.get("description")


def _color_list(rules: Rules) -> str:
    names = [rules.deck.color_name(c) for c in rules.deck.colors]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def rules_in_words(pack: Pack, world: World) -> list[str]:
    """Sentences for the deck, the deal, the wilds, the order of phases and the scoring."""
    rules = world.rules
    deck = rules.deck
    st = world.settings
    copies = {1: "one", 2: "two", 3: "three", 4: "four"}.get(deck.copies, str(deck.copies))
    out = [f"Deck: {deck.size} cards: {deck.low}-{deck.high} in {_color_list(rules)} "
           f"({copies} of each), {deck.wilds} wilds and {deck.skips} skips.",
           f"Deal: {rules.hand_size} cards to each player; the player left of the dealer starts."]
    scope = "each group" if rules.natural_scope == "group" else "the whole phase"
    wild = (f"Wilds stand for any card; {scope} needs at least {rules.min_naturals} natural "
            f"card{'s' * (rules.min_naturals != 1)}.")
    if rules.wild_swap:
        wild += " A laid wild may be swapped for the natural card it stands for."
    if rules.wild_as_skip:
        wild += " A wild may be played as a skip."
    postal = st.get("postal") or {}
    if postal.get("enabled"):
        wild += (" Postal: the number of the phase a player is working on is also wild for them "
                 f"(through phase {postal.get('through_phase', 7)}).")
    out.append(wild)
    house = HouseRules.from_settings(st)
    order = house.phase_order
    phases = {"in_order": "in order", "any": "in any order", "even_only": "the even ones only",
              "odd_only": "the odd ones only"}.get(order, order)
    if house.everyone_advances:
        goal = "everyone moves up a phase each hand; the lowest score wins"
    elif house.fixed_hands:
        goal = f"{house.fixed_hands} hands are played; the lowest score wins"
    else:
        goal = (f"the first to complete {min(house.game_length, len(world.phases))} phases wins "
                "(a tie goes to the lowest score)")
    out.append(f"Phases: {len(world.phases)}, made {phases}; {goal}.")
    sc = rules.scoring
    out.append(f"Scoring: cards left in hand cost {sc.low} points (1-{sc.high_from - 1}), "
               f"{sc.high} ({sc.high_from} and up), {sc.skip} a skip, {sc.wild} a wild.")
    return out


def house_rules_in_words(world: World) -> list[tuple[str, str, str]]:
    """(option, value, what it means) for every setting that differs from the printed rules."""
    out = []
    for key, value in describe_rules(world.settings):
        if key.startswith(("deck.", "hand_size", "scoring.")):
            continue  # said in the sentences above
        text = "on" if value is True else "off" if value is False else str(value)
        out.append((key, text, _schema_description(key) or ""))
    return out


def _n(count: object, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


# Each house rule, as its setting reads, in one or two sentences a player at the table
# follows (the schema's descriptions say what an option is, for the author, not what it
# now means).  An option missing here is said by its schema description.
_PLAIN: dict[tuple[str, object], str | Callable[[dict], str]] = {
    ("wilds.natural_scope", "phase"): "Each phase needs its natural cards over the whole "
                                      "phase, not in every group.",
    ("wilds.swap", True): "Once down, you may swap the natural card for a wild in a laid run; "
                          "the wild moves to an end of that run.",
    ("wilds.take_back", True): "You may lay the natural card a laid wild stands for and take "
                               "the wild into your hand.",
    ("wilds.as_skip", True): "A wild may also be played as a skip.",
    ("wilds.hit_end", "low"): "A wild hit onto a run goes at its low end unless you say "
                              "otherwise.",
    ("postal.enabled", True): lambda st: "The number of the phase you are working on is wild "
                                         "for you, through phase "
                                         f"{(st.get('postal') or {}).get('through_phase', 7)}.",
    ("sets.share_number", False): "Two sets of one phase may not show the same number.",
    ("runs.one_color", True): "Every run must be all one color.",
    ("lay_down.extras", False): "Lay exactly the cards each group asks for, no more; add "
                                "others later as hits.",
    ("phase_order", "any"): "Make the phases in any order you like, each one once.",
    ("phase_order", "even_only"): "Only the even-numbered phases are played, in order.",
    ("phase_order", "odd_only"): "Only the odd-numbered phases are played, in order.",
    ("house_rules.floating", True): "You may play out every card without discarding, but the "
                                    "hand ends only with a discard: until then you keep "
                                    "drawing and playing.",
    ("house_rules.go_out_without_discard", True): "You may also go out by playing every card "
                                                  "onto laid phases, with no last discard; the "
                                                  "hand ends at once.",
    ("house_rules.dealer_chooses_wild_recipient", True): "A wild or skip turned up to start "
                                                         "the discard pile goes to a player "
                                                         "the dealer chooses.",
    ("house_rules.anti_phase", True): "Miss your phase in a hand and you go down one phase.",
    ("house_rules.anti_phase_for_others", True): "Going out with the anti-phase card as your "
                                                 "last discard sends a player you name down "
                                                 "one phase.",
    ("house_rules.skip_target", "next_player"): "A skip always skips the next player.",
    ("house_rules.skip_once_per_round", False): "A player may be skipped more than once in a "
                                                "round.",
    ("house_rules.hit_same_turn", False): "You may not hit on the turn you lay your phase: "
                                          "wait a turn.",
    ("house_rules.go_out_after_first_round", True): "Nobody may go out before play has gone "
                                                    "once round the table.",
    ("house_rules.save_pile", True): "Each hand you may set one card aside on your own pile "
                                     "and draw it later.",
    ("house_rules.declare_phase", "at_deal"): "After the deal, say which phase you will try "
                                              "this hand.",
    ("house_rules.declare_phase", "when_laying"): "Say which phase you are making as you lay "
                                                  "it down.",
    ("house_rules.abandon_phase", True): "After laying a phase you may give it up, draw back "
                                         "to a full hand and start another.",
    ("house_rules.everyone_advances", True): "Everyone moves up a phase after every hand, made "
                                             "or not; the lowest total score wins.",
    ("house_rules.tie_break", "replay_phase_10"): "A tie is settled by one more hand of "
                                                  "phase 10.",
    ("house_rules.tie_break", "replay_last_phase"): "A tie is settled by one more hand of the "
                                                    "last phase.",
    ("house_rules.wild_points_in_phase", True): "Every wild in your own laid phase counts "
                                                "against you, even when you go out.",
    ("house_rules.wild_reuse_same_turn", True): "A wild taken back must be played again, in a "
                                                "phase or a hit, the same turn.",
    ("house_rules.skip_counts_as_blue", True): "A skip may also be played as a blue card.",
    ("house_rules.baseball_short_game", True): "If time runs out, 5.5 phases make a complete "
                                               "game and the leader wins.",
}


def house_rules_plain(world: World) -> list[str]:
    """Each rule that differs from the printed game, in one or two plain sentences (for the
    printed sheet; ``house_rules_in_words`` gives the option names beside them)."""
    out = []
    for key, value in describe_rules(world.settings):
        if key.startswith(("deck.", "hand_size", "scoring.", "postal.through_phase")):
            continue  # the deck and scoring are the rules' own sentences; through_phase: postal's
        said = _PLAIN.get((key, value))
        if callable(said):
            said = said(world.settings)
        elif said is None:
            said = _plain_value(key, value) or (
                f"{_schema_description(key) or key} ({key.rsplit('.', 1)[-1]}: {value})")
        out.append(said)
    return out


def _plain_value(key: str, value: object) -> str | None:
    """The rules whose sentence carries their value."""
    if key == "game_length":
        return f"The first to make {_n(value, 'phase')} wins."
    if key == "house_rules.fixed_hands" and value is not None:
        return f"Play {_n(value, 'hand')}; the lowest total score wins."
    if key == "house_rules.tie_break_phase" and value is not None:
        return f"A tie is settled by one more hand in which everyone tries {value}."
    if key == "house_rules.wild_steal_penalty" and value is not None:
        return f"Taking a laid wild back costs {_n(value, 'penalty point')}."
    if key == "wilds.natural_minimum":
        return f"Each group needs at least {_n(value, 'natural card')} (not wild)."
    return None


# --------------------------------------------------------------------------- the page

CSS = """
body { font-family: Georgia, 'DejaVu Serif', serif; color: #222; max-width: 60rem;
       margin: 1.5rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { margin-bottom: 0.2rem; }
h2 { border-bottom: 1px solid #bbb; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; }
.note { font-size: 0.85em; color: #555; }
.muted { color: #666; font-size: 0.9em; }
svg.chart { width: 100%; max-width: 640px; height: auto; display: block; margin: 0.8rem 0; }
.sheet { border-top: 2px dashed #999; margin-top: 2.5rem; padding-top: 1rem; }
.sheet h2 { border: none; margin: 0.4rem 0; font-size: 1.1rem; }
.sheet table { width: 100%; font-size: 0.8rem; }
.sheet td, .sheet th { padding: 0.1rem 0.3rem; height: 1.1rem; }
.sheet td.box, .sheet th.box { width: 2.2rem; }
.sheet .n { width: 2.6rem; text-align: right; }
.sheet .phase { width: auto; }
@media print {
  @page { margin: 10mm; }
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; }
  body > *:not(.sheet) { display: none !important; }
  .sheet { border: none; margin: 0; padding: 0; }
  .sheet h1 { font-size: 13pt; margin: 0 0 2mm 0; }
  .sheet h2 { font-size: 11pt; margin: 3mm 0 1mm 0; }
  .sheet table { font-size: 8pt; margin: 1mm 0; }
  .sheet td, .sheet th { height: 4.6mm; padding: 0.3mm 1.2mm; }
}
"""


def _pct(p: float | None, digits: int = 1) -> str:
    return "-" if p is None else f"{100 * p:.{digits}f}%"


def render_html(pack: Pack | str, world_name: str | None, figures: dict) -> str:
    """The report page (one string of HTML, everything inline); ``pack`` may be a pack name
    or file, ``figures`` are ``pack_figures(pack, world_name)``."""
    pack, world_name = as_pack(pack, "render_html"), as_world(world_name, "render_html")
    if not isinstance(figures, dict) or not {"players", "curve_players", "odds"} <= figures.keys():
        raise ArgumentError("render_html(figures=...)", "the figures pack_figures(pack) returns",
                            figures)
    world = pack.world(world_name)
    deck = world.rules.deck
    several = len(pack.worlds) > 1
    title = pack.title + (f": {world.title}" if several else "")
    curve_n = figures["curve_players"]
    curve = {row["phase"]: row for row in figures["players"][curve_n]["phases"]}
    odds = figures["odds"]
    e = escape
    h: list[str] = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                    f"<title>{e(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>"]
    h.append(f"<h1>{e(title)}</h1>")
    h.append(f'<p class="muted">pack <code>{e(pack.name)}</code>'
             + (f", world <code>{e(world.name)}</code>" if several else "") + "</p>")
    h.append(f"<p>{e(pack.description.strip())}</p>")
    if world.note:
        h.append(f'<p class="note">{e(world.note.strip())}</p>')
    h.append(f'<p class="note">Source: {e(pack.source.strip())}</p>')

    h.append("<h2>Rules</h2><ul>")
    h += [f"<li>{e(s)}</li>" for s in rules_in_words(pack, world)]
    h.append("</ul>")
    house = house_rules_in_words(world)
    if house:
        h.append("<p>Rules that differ from the printed game:</p><table>"
                 "<tr><th>option</th><th>value</th><th>what it means</th></tr>")
        h += [f"<tr><td><code>{e(k)}</code></td><td>{e(v)}</td><td>{e(d)}</td></tr>"
              for k, v, d in house]
        h.append("</table>")
    else:
        h.append("<p>No house rules: the printed game's rules throughout.</p>")

    h.append("<h2>Phases</h2>")
    h.append(f'<table class="phases"><tr><th>#</th><th>phase</th><th>cards</th>'
             f"<th>a dealt hand makes it</th><th>attempts completed ({curve_n} players)</th>"
             f"<th>hands spent on it</th></tr>")
    for entry in world.played:
        row = curve.get(entry.number)
        spent = f"{row['hands_spent']:.2f}" if row else "-"
        name = f" <em>({e(entry.name)})</em>" if entry.name else ""
        note = f'<div class="note">{e(entry.note.strip())}</div>' if entry.note else ""
        h.append(f'<tr id="phase-{entry.number}"><td class="num">{entry.number}</td>'
                 f"<td>{e(entry.phase.canonical(deck))}{name}{note}</td>"
                 f'<td class="num">{entry.phase.cards_needed}</td>'
                 f'<td class="num">{_pct(odds.get(entry.number))}</td>'
                 f'<td class="num">{_pct(row["completed_share"]) if row else "-"}</td>'
                 f'<td class="num">{spent}</td></tr>')
    h.append("</table>")
    h.append(f'<p class="note">The chance a dealt hand of {world.rules.hand_size} cards makes '
             "each phase is sampled (4,000 seeded hands a phase; <code>phasedsl odds</code> gives "
             "exact figures). The other columns come from the games below.</p>")

    played = world.played  # (even_only / odd_only: the phases a game plays)
    labels = [str(en.number) for en in played]
    h.append("<h2>Difficulty</h2>")
    h.append(line_chart("How hard is each phase?", labels, [
        ("dealt hand makes it", [100 * odds[en.number] if en.number in odds else None
                                 for en in played]),
        (f"attempts completed ({curve_n} players)",
         [100 * curve[en.number]["completed_share"] if en.number in curve else None
          for en in played])],
        x_label="phase", y_label="%", percent=True))
    h.append(line_chart(f"Hands spent on each phase ({curve_n} players)", labels, [
        ("hands a player spends on it",
         [curve[en.number]["hands_spent"] if en.number in curve else None
          for en in played])], x_label="phase", y_label="hands"))

    h.append("<h2>How long is a game?</h2>")
    games = f'{figures["games"]} seeded game{"s" * (figures["games"] != 1)}'
    h.append(f'<p class="muted">{games} per table size between '
             f'{e(figures["bot"])} bots (seed {figures["seed"]}); '
             "<code>phasedsl simulate</code> plays more.</p>")
    h.append("<table><tr><th>players</th><th>hands per game (mean, 95% interval)</th>"
             "<th>median</th><th>10th-90th percentile</th><th>turns per hand</th>"
             "<th>mean final score</th></tr>")
    means = []
    for n, s in figures["players"].items():
        hp = s["hands_per_game"]
        if not hp["n"]:
            h.append(f'<tr><td class="num">{n}</td><td colspan="5">no game finished</td></tr>')
            means.append(0.0)
            continue
        means.append(hp["mean"])
        h.append(f'<tr><td class="num">{n}</td><td class="num">{hp["mean"]:.1f} '
                 f'({hp["ci95"][0]:.1f}-{hp["ci95"][1]:.1f})</td>'
                 f'<td class="num">{hp["median"]:g}</td>'
                 f'<td class="num">{hp["p10"]:g}-{hp["p90"]:g}</td>'
                 f'<td class="num">{s["turns_per_hand"]["mean"]:.1f}</td>'
                 f'<td class="num">{s["mean_final_score"]:.0f}</td></tr>')
    h.append("</table>")
    h.append(bar_chart("Hands per game by table size", [str(n) for n in figures["players"]],
                       means, x_label="players", y_label="hands (mean)"))

    h += _sheet(title, world, deck, max(figures["players"]))
    h += ["</body>", "</html>"]
    return "\n".join(h) + "\n"


def _sheet(title: str, world: World, deck, players: int) -> list[str]:
    """The printable page: phases to tick off and a score table, a column a player."""
    e = escape
    boxes = '<td class="box"></td>' * players
    out = ['<section class="sheet">', f"<h1>{e(title)}</h1>", "<h2>Phase sheet</h2>",
           '<p class="note">Write each player\'s name at the top of a column; tick a phase '
           "when it is made.</p>",
           '<table><tr><th class="n">#</th><th class="phase">phase</th>'
           + '<th class="box"></th>' * players + "</tr>"]
    for entry in world.played:
        name = f" ({e(entry.name)})" if entry.name else ""
        out.append(f'<tr><td class="n">{entry.number}</td>'
                   f'<td class="phase">{e(entry.phase.canonical(deck))}{name}</td>{boxes}</tr>')
    out.append("</table>")
    out.append("<h2>Score sheet</h2>")
    out.append('<table><tr><th class="n">hand</th>' + "<th></th>" * players + "</tr>")
    out += [f'<tr><td class="n">{k}</td>' + "<td></td>" * players + "</tr>"
            for k in range(1, SCORE_ROWS + 1)]
    out.append('<tr><th class="n">total</th>' + "<td></td>" * players + "</tr></table>")
    out.append("</section>")
    return out
