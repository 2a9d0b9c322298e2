"""A pack's one-page report: its rules in words, its phases, how it plays (from games
between bots) and a printable phase and score sheet, as one self-contained HTML file.

Pure: ``pack_figures`` plays the games and works out the odds; ``render_html`` turns
pack and figures into the page (inline SVG charts, inline CSS, no script, nothing
fetched).  The CLI writes the file.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from .coerce import as_world
from .errors import ArgumentError, PhaseDSLError
from .game.state import HouseRules
from .game.table import MAX_PLAYERS, MIN_PLAYERS, make_table
from .packs import Pack, World, as_pack, describe_rules, schema
from .rules import Rules
from .simulate import PLAYER_NAMES, phase_odds, simulate, summarize
from .svgchart import bar_chart, line_chart

CURVE_PLAYERS = 4  # the table whose phase curve the report draws (or the largest allowed)
SCORE_ROWS = 18


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


def pack_figures(pack: Pack | str, world: str | None = None, games: int = 20, seed: int = 1,
                 jobs: int = 1, bot: str = "greedy",
                 progress: Callable[[int], None] | None = None) -> dict:
    """Simulated games for every table size and the odds of each phase (``pack`` may be a
    pack name or file)."""
    pack, world = as_pack(pack, "pack_figures"), as_world(world, "pack_figures")
    counts = player_counts(pack, world)
    if not counts:
        # make_table says why (a rule the referee cannot honor, a deck too small ...)
        make_table(pack, PLAYER_NAMES[:MIN_PLAYERS], world)
    done = 0

    def tick(k: int) -> None:
        if progress:
            progress(done + k)

    by_players = {}
    for n in counts:
        records = simulate(pack, n, games, bot, seed, world, jobs, progress=tick)
        done += games
        by_players[n] = summarize(records, n)
    curve = CURVE_PLAYERS if CURVE_PLAYERS in counts else counts[-1]
    return {"games": games, "seed": seed, "bot": bot, "players": by_players,
            "curve_players": curve, "odds": phase_odds(pack, world)}


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
