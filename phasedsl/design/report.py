"""A pack's one-page report: its rules in words, its phases, how it plays (from games
between bots) and a printable phase and score sheet, as one self-contained HTML file.

Pure: ``pack_figures`` plays the games and works out the odds; ``render_html`` turns
pack and figures into the page (inline SVG charts, inline CSS, no script, nothing
fetched).  The CLI writes the file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from html import escape

from ..errors import ArgumentError, PhaseDSLError
from ..game.state import HouseRules
from ..game.table import MAX_PLAYERS, MIN_PLAYERS, make_table
from ..model.coerce import as_count, as_world
from ..model.rules import Rules
from ..packs.pack import Pack, World, as_pack, describe_rules, schema_node
from .difficulty import DEFAULT_GAMES, dealt_or_none, in_play, order_matters, reason
from .sampling import LENGTH_PRECISION, both, flags_settled, length_settled, play_until
from .simulate import PLAYER_NAMES, summarize
from .svgchart import bar_chart, line_chart, two_scale_chart

CURVE_PLAYERS = 4  # the table whose phase curve the report draws (or the largest allowed)
# The most games per table size by default (each stops sooner once settled, as balance's
# do).  One world: balance's cap, so that the two flag the same phases from the same games;
# several worlds on one page share the time, so each world's figures rest on fewer games,
# and its intervals (printed) are wider.
GAMES = DEFAULT_GAMES
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


def planned_work(pack: Pack, world: str | None, games: int | None = None) -> int:
    """The steps ``pack_figures`` reports to ``progress``: every game, and every phase's
    dealt chance (an exact count can take seconds the first time; it is cached after)."""
    g = default_games(pack, world) if games is None else games
    return sum(g * max(1, len(player_counts(pack, w))) + len(pack.world(w).played)
               for w in report_worlds(pack, world))


def pack_figures(pack: Pack | str, world: str | None = None, games: int | None = None,
                 seed: int = 1, jobs: int = 1, bot: str = "greedy",
                 progress: Callable[[int], None] | None = None) -> dict:
    """Simulated games for every table size and each phase's two measures of difficulty
    (``pack`` may be a pack name or file).  ``games`` per table size (None: ``GAMES`` for one
    world, ``GAMES_PER_WORLD`` for each world of a pack of several given no ``world``);
    ``progress`` is called with the steps done (``planned_work`` counts them).

    One world: that world's figures.  Several: ``{"games", "seed", "bot", "worlds": [...]}``,
    each world's figures in the pack's order."""
    pack, world = as_pack(pack, "pack_figures"), as_world(world, "pack_figures")
    names = report_worlds(pack, world)
    games = default_games(pack, world) if games is None else as_count(
        games, "pack_figures(games=...)", 1, None, "a number of games (None: the default)")
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
        done += games * len(counts) + len(pack.world(name).played)
    if len(names) == 1:
        return out[0]
    return {"games": games, "seed": seed, "bot": bot, "worlds": out}


def _world_figures(pack: Pack, world: str | None, counts: list[int], games: int, seed: int,
                   jobs: int, bot: str, tick: Callable[[int], None]) -> dict:
    curve = CURVE_PLAYERS if CURVE_PLAYERS in counts else counts[-1]
    by_players: dict[int, dict] = {}
    done = 0
    for n in counts:
        # (each table until its game length is settled; the curve's, its flags too)
        rule = length_settled(n)
        if n == curve:
            rule = both(rule, flags_settled(pack, world, n, games))
        records = play_until(pack, n, games, seed, world, jobs, rule, bot,
                             progress=lambda k, before=done: tick(before + k))
        done += games  # (the steps planned: a table that settles early skips the rest)
        tick(done)
        by_players[n] = summarize(records, n)
        if n == curve:
            rows = in_play(records, pack, world, n, with_dealt=False)
    name = pack.world(world).name if len(pack.worlds) > 1 else None
    for k, row in enumerate(rows):  # (one step each: a first exact count takes a while)
        phase, rules = pack.phase_entry(row.number, name)
        rows[k] = replace(row, dealt=dealt_or_none(phase.phase, rules, jobs=jobs))
        tick(done + k + 1)
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
            "sheet_rows": math.ceil(largest["p90"]) if largest["n"] else FALLBACK_ROWS,
            **({"board": by_players[curve]["board"]} if "board" in by_players[curve] else {})}


# --------------------------------------------------------------------------- rules in words


def _schema_description(dotted: str) -> str | None:
    """The pack format's own description of a rule option (``house_rules.floating`` ...)."""
    node = schema_node(dotted)
    return None if node is None else node.get("description")


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
        out.append((key, text, rule_in_words(key, value, world.settings)))
    return out


def _name(name: str) -> str:
    """An option, pack or world name as HTML code that wraps only after its dots and
    underscores (``house_rules.go_out_without_discard``; a hyphen is a break already), never
    inside a word."""
    return ('<code class="name">'
            + re.sub(r"([._])", r"\1<wbr>", escape(name)) + "</code>")


def _n(count: object, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


# Each rule option, as each of its values reads, in one or two sentences a player at the
# table follows: the schema's descriptions say what an option is, for the author, and read
# as the opposite beside a value that turns it off.  Every value of every option is here
# (numbers in ``_plain_value``); a test walks the schema to keep it so.
_PLAIN: dict[tuple[str, object], str | Callable[[dict], str]] = {
    ("wilds.natural_scope", "group"): "Each group needs its own natural cards.",
    ("wilds.natural_scope", "phase"): "Each phase needs its natural cards over the whole "
                                      "phase, not in every group.",
    ("wilds.swap", True): "Once down, you may swap the natural card for a wild in a laid run; "
                          "the wild moves to an end of that run.",
    ("wilds.swap", False): "A laid wild stays where it is: it may not be swapped for the "
                           "natural card.",
    ("wilds.take_back", True): "You may lay the natural card a laid wild stands for and take "
                               "the wild into your hand.",
    ("wilds.take_back", False): "A laid wild may not be taken back into a hand.",
    ("wilds.as_skip", True): "A wild may also be played as a skip.",
    ("wilds.as_skip", False): "A wild is never played as a skip.",
    ("wilds.hit_end", "low"): "A wild hit onto a run goes at its low end unless you say "
                              "otherwise.",
    ("wilds.hit_end", "high"): "A wild hit onto a run goes at its high end unless you say "
                               "otherwise.",
    ("postal.enabled", True): lambda st: "The number of the phase you are working on is wild "
                                         "for you, through phase "
                                         f"{(st.get('postal') or {}).get('through_phase', 7)}.",
    ("postal.enabled", False): "No number is wild: only the wild cards are.",
    ("sets.share_number", True): "Two sets of one phase may show the same number.",
    ("sets.share_number", False): "Two sets of one phase may not show the same number.",
    ("runs.one_color", True): "Every run must be all one color.",
    ("runs.one_color", False): "A run may mix colors.",
    ("runs.wrap", True): "Runs (and runs of pairs) may wrap from the top number to the bottom, "
                         "as 11 12 1 2, and hits may carry a run on past either end the same "
                         "way; a run of every number is a full circle.",
    ("runs.wrap", False): "Runs stop at the lowest and the highest number: they do not wrap.",
    ("lay_down.extras", True): "A group may be laid with more cards than it asks for.",
    ("lay_down.extras", False): "Lay exactly the cards each group asks for, no more; add "
                                "others later as hits.",
    ("phase_order", "in_order"): "Make the phases in order, one after another.",
    ("phase_order", "any"): "Make the phases in any order you like, each one once.",
    ("phase_order", "even_only"): "Only the even-numbered phases are played, in order.",
    ("phase_order", "odd_only"): "Only the odd-numbered phases are played, in order.",
    ("house_rules.floating", True): "You may play out every card without discarding, but the "
                                    "hand ends only with a discard: until then you keep "
                                    "drawing and playing.",
    ("house_rules.floating", False): "You may not play out every card and keep drawing: a "
                                     "hand must keep a card to discard.",
    ("house_rules.go_out_without_discard", True): "You may also go out by playing every card "
                                                  "onto laid phases, with no last discard; the "
                                                  "hand ends at once.",
    ("house_rules.go_out_without_discard", False): "A hand ends only with a discard.",
    ("house_rules.dealer_chooses_wild_recipient", True): "A wild or skip turned up to start "
                                                         "the discard pile goes to a player "
                                                         "the dealer chooses.",
    ("house_rules.dealer_chooses_wild_recipient", False): "A wild turned up to start the "
                                                          "discard pile stays there; a skip "
                                                          "turned up skips the first player.",
    ("house_rules.anti_phase", True): "Miss your phase in a hand and you go down one phase.",
    ("house_rules.anti_phase", False): "Missing your phase keeps you on it: nobody goes down "
                                       "a phase.",
    ("house_rules.anti_phase_for_others", True): "Going out with the anti-phase card as your "
                                                 "last discard sends a player you name down "
                                                 "one phase.",
    ("house_rules.anti_phase_for_others", False): "Going out never sends another player down "
                                                  "a phase.",
    ("house_rules.skip_target", "choose"): "Whoever plays a skip chooses the player skipped.",
    ("house_rules.skip_target", "next_player"): "A skip always skips the next player.",
    ("house_rules.skip_once_per_round", True): "A player may be skipped at most once in a "
                                               "round.",
    ("house_rules.skip_once_per_round", False): "A player may be skipped more than once in a "
                                                "round.",
    ("house_rules.hit_same_turn", True): "You may hit on the turn you lay your phase.",
    ("house_rules.hit_same_turn", False): "You may not hit on the turn you lay your phase: "
                                          "wait a turn.",
    ("house_rules.go_out_after_first_round", True): "Nobody may go out before play has gone "
                                                    "once round the table.",
    ("house_rules.go_out_after_first_round", False): "A player may go out on their first "
                                                     "turn.",
    ("house_rules.save_pile", True): "Each hand you may set one card aside on your own pile "
                                     "and draw it later.",
    ("house_rules.save_pile", False): "There is no save pile.",
    ("house_rules.declare_phase", "never"): "Nobody says beforehand which phase they are "
                                            "making.",
    ("house_rules.declare_phase", "at_deal"): "After the deal, say which phase you will try "
                                              "this hand.",
    ("house_rules.declare_phase", "when_laying"): "Say which phase you are making as you lay "
                                                  "it down.",
    ("house_rules.abandon_phase", True): "After laying a phase you may give it up, draw back "
                                         "to a full hand and start another.",
    ("house_rules.abandon_phase", False): "A laid phase stays laid: it may not be given up.",
    ("house_rules.everyone_advances", True): "Everyone moves up a phase after every hand, made "
                                             "or not; the lowest total score wins.",
    ("house_rules.everyone_advances", False): "Only the players who made their phase move up "
                                              "a phase.",
    ("house_rules.tie_break", "lowest_score_then_replay"): "A tie goes to the lowest score; "
                                                           "a tie on score too is settled by "
                                                           "one more hand.",
    ("house_rules.tie_break", "replay_phase_10"): "A tie is settled by one more hand of "
                                                  "phase 10.",
    ("house_rules.tie_break", "replay_last_phase"): "A tie is settled by one more hand of the "
                                                    "last phase.",
    ("house_rules.wild_points_in_phase", True): "Every wild in your own laid phase counts "
                                                "against you, even when you go out.",
    ("house_rules.wild_points_in_phase", False): "Only the cards left in hand count against "
                                                 "you.",
    ("house_rules.wild_reuse_same_turn", True): "A wild taken back must be played again, in a "
                                                "phase or a hit, the same turn.",
    ("house_rules.wild_reuse_same_turn", False): "A wild taken back may stay in your hand.",
    ("house_rules.skip_counts_as_blue", True): "A skip may also be laid as a blue card in a "
                                               "group of one color, which is then blue; it is "
                                               "not a natural card.",
    ("house_rules.skip_counts_as_blue", False): "A skip is never laid in a group.",
    ("house_rules.baseball_short_game", True): "If time runs out, 5.5 phases make a complete "
                                               "game and the leader wins.",
    ("house_rules.baseball_short_game", False): "A game is not cut short.",
}


def rule_in_words(key: str, value: object, settings: dict) -> str:
    """What the rule option ``key`` set to ``value`` means at the table, in plain words."""
    said = _PLAIN.get((key, value))
    if callable(said):
        return said(settings)
    if said is not None:
        return said
    return _plain_value(key, value) or (
        f"{_schema_description(key) or key} ({key.rsplit('.', 1)[-1]}: {value})")


def house_rules_plain(world: World) -> list[str]:
    """Each rule that differs from the printed game, in one or two plain sentences (for the
    printed sheet; ``house_rules_in_words`` gives the option names beside them)."""
    return [rule_in_words(key, value, world.settings)
            for key, value in describe_rules(world.settings)
            # the deck and scoring are the rules' own sentences; through_phase: postal's
            if not key.startswith(("deck.", "hand_size", "scoring.", "postal.through_phase"))]


def _plain_value(key: str, value: object) -> str | None:
    """The rules whose sentence carries their value."""
    if key == "game_length":
        return f"The first to make {_n(value, 'phase')} wins."
    if key == "house_rules.fixed_hands":
        return ("Play until someone makes the last phase." if value is None
                else f"Play {_n(value, 'hand')}; the lowest total score wins.")
    if key == "house_rules.tie_break_phase":
        return ("A tie is settled as the tie-break rule says." if value is None
                else f"A tie is settled by one more hand in which everyone tries {value}.")
    if key == "house_rules.wild_steal_penalty":
        return ("Taking a laid wild back costs nothing." if value is None
                else f"Taking a laid wild back costs {_n(value, 'penalty point')}.")
    if key == "wilds.natural_minimum":
        return ("Wilds alone may form a group." if value == 0
                else f"Each group needs at least {_n(value, 'natural card')} (not wild).")
    if key == "postal.through_phase":
        return f"Postal wilds last through phase {value}."
    return None


# --------------------------------------------------------------------------- the page

CSS = """
body { font-family: Georgia, 'DejaVu Serif', serif; color: #222; max-width: 60rem;
       margin: 1.5rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { margin-bottom: 0.2rem; }
h2 { border-bottom: 1px solid #bbb; margin-top: 2rem; }
section.world > h2 { border-bottom: 3px solid #888; margin-top: 3rem; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; white-space: nowrap; }
code { overflow-wrap: anywhere; }
code.name { overflow-wrap: normal; }
.note { font-size: 0.85em; color: #555; }
.plain { font-size: 0.9em; color: #333; font-style: italic; }
.muted, .sub { color: #666; font-size: 0.85em; }
.sub { display: block; white-space: normal; }
tr.flagged td { background: #fbeaea; }
tr.maybe td { background: #fdf5e6; }
.flag { color: #c0392b; font-weight: bold; }
.maybe .flag { color: #b7791f; }
svg.chart { width: 100%; max-width: 640px; height: auto; display: block; margin: 0.8rem 0; }
.sheet { border-top: 2px dashed #999; margin-top: 2.5rem; padding-top: 1rem; }
.sheet h2 { border: none; margin: 0.4rem 0; font-size: 1.1rem; }
.sheet ul { margin: 0.2rem 0; padding-left: 1.2rem; font-size: 0.85rem; }
.sheet table { width: 100%; font-size: 0.8rem; }
.sheet td, .sheet th { padding: 0.1rem 0.3rem; }
.sheet td.box, .sheet th.box { width: 2.6rem; }
.sheet .n { width: 2.8rem; text-align: right; }
.sheet .phase { width: auto; }
.sheet .label { float: right; font-weight: normal; }
.sheet tr.names th, .sheet tr.names td { height: 1.8rem; }
.sheet table.scores td { height: 1.6rem; }
/* A phone (420 px): every wide table becomes one card per row, each cell labelled. */
@media (max-width: 640px) {
  body { margin: 0.6rem auto; padding: 0 0.5rem; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack thead { display: none; }
  table.stack tr { border: 1px solid #bbb; margin: 0 0 0.6rem 0; }
  table.stack td { border: none; border-top: 1px solid #eee; text-align: left; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: bold;
                                        color: #444; }
  td.num { white-space: normal; }
  .sheet td.box, .sheet th.box { width: auto; }
  .sheet .n { width: 1.6rem; }
}
@media print {
  @page { margin: 10mm; }
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; }
  body > *:not(.sheet) { display: none !important; }
  .sheet { border: none; margin: 0; padding: 0; }
  .sheet + .sheet, .sheet h2.scores { break-before: page; }
  .sheet table.scores, .sheet table.scores tr { break-inside: avoid; }
  .sheet h1 { font-size: 13pt; margin: 0 0 2mm 0; }
  .sheet h2 { font-size: 11pt; margin: 3mm 0 1mm 0; }
  .sheet ul { font-size: 8pt; margin: 0 0 1mm 0; }
  .sheet table { font-size: 8pt; margin: 1mm 0; }
  .sheet .plain { display: inline; }
  .sheet .plain::before { content: " \\2014  "; }
  .sheet td, .sheet th { padding: 0.3mm 1.2mm; }
  .sheet tr.names th, .sheet tr.names td { height: 7mm; }
  .sheet table.scores td { height: var(--row, 6mm); }
}
"""

# The printed sheet is two pages a world: the rules and the phases to tick off, then the
# score sheet on a page of its own, whose rows share the height of a Letter page (the
# shorter of Letter and A4, less the margins and a little to spare) within these bounds
# (under 6 mm a score is hard to write in; over 9 mm the page looks empty).
PAGE_MM = 259.0 - 6.0
ROW_MM = (6.0, 9.0)


def _pct(p: float | None, digits: int = 1) -> str:
    return "-" if p is None else f"{100 * p:.{digits}f}%"


def _span(ci: list[float] | None, scale: float = 100, digits: int = 1) -> str:
    return "" if ci is None else f" ({scale * ci[0]:.{digits}f}-{scale * ci[1]:.{digits}f})"


def dealt_text(dealt: dict | None) -> tuple[str, str]:
    """A dealt chance as the page shows it, and what it rests on: an exact figure as
    ``phasedsl odds`` prints it (four decimals), a sampled one with its 95% interval."""
    if dealt is None:
        return "-", "not worked out: past the solver's budget"
    if dealt["method"] == "exact":
        return f"{100 * dealt['probability']:.4f}%", "exact"
    return (f"{100 * dealt['probability']:.2f}%{_span(dealt['ci95'], digits=2)}",
            f"sampled, {dealt.get('samples') or 0:,} hands")


def _flag_words(flag: bool | str, row: dict, previous: dict | None) -> str:
    before = f"phase {previous['number']}" if previous else "the phase before"
    return f"easier than {before}" if flag is True else f"maybe easier than {before}"


def render_html(pack: Pack | str, world_name: str | None, figures: dict) -> str:
    """The report page (one string of HTML, everything inline); ``pack`` may be a pack name
    or file, ``figures`` are ``pack_figures(pack, world_name)``: one world's, or (a pack of
    several worlds and no ``world_name``) every world's, on one page with a table comparing
    them."""
    pack, world_name = as_pack(pack, "render_html"), as_world(world_name, "render_html")
    worlds = _checked(pack, world_name, figures)
    several = len(pack.worlds) > 1
    one = len(worlds) == 1
    world = pack.world(worlds[0][0]) if one else None
    title = pack.title + (f": {world.title}" if several and one else "")
    e = escape
    h: list[str] = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                    '<meta name="viewport" content="width=device-width, initial-scale=1">',
                    f"<title>{e(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>"]
    h.append(f"<h1>{e(title)}</h1>")
    h.append(f'<p class="muted">pack {_name(pack.name)}'
             + (f", world {_name(world.name)}" if several and one else "")
             + (f", {len(worlds)} worlds" if not one else "") + "</p>")
    h.append(f"<p>{e(pack.description.strip())}</p>")
    h.append(f'<p class="note">Source: {e(pack.source.strip())}</p>')
    if one:
        h += _world_section(pack, world, worlds[0][1], nested=False)
    else:
        h += _comparison(pack, figures)
        for name, figs in worlds:
            h += _world_section(pack, pack.world(name), figs, nested=True)
    for name, figs in worlds:
        w = pack.world(name)
        h += _sheet(pack.title + (f": {w.title}" if several else ""), w,
                    max(figs["players"]), figs["sheet_rows"])
    h += ["</body>", "</html>"]
    return "\n".join(h) + "\n"


def _checked(pack: Pack, world_name: str | None, figures: object) -> list[tuple[str | None, dict]]:
    """(world name, its figures) for each world on the page; figures of the wrong shape are
    refused as an argument error, not a KeyError deep in the page."""
    want = "the figures pack_figures(pack, world) returns"
    keys = {"players", "curve_players", "phases", "sheet_rows"}
    if not isinstance(figures, dict):
        raise ArgumentError("render_html(figures=...)", want, figures)
    if "worlds" in figures:
        got = figures["worlds"]
        if (world_name is not None or not isinstance(got, list)
                or not all(isinstance(f, dict) and keys <= f.keys() for f in got)
                or [f.get("world") for f in got] != [w.name for w in pack.worlds]):
            raise ArgumentError("render_html(figures=...)", want, figures)
        return [(f["world"], _int_keys(f)) for f in got]
    if not keys <= figures.keys():
        raise ArgumentError("render_html(figures=...)", want, figures)
    pack.world(world_name)  # (a pack of several worlds: the one meant must be named)
    return [(world_name, _int_keys(figures))]


def _int_keys(figs: dict) -> dict:
    """The figures with table sizes as numbers again (``report --json`` wrote them as text),
    so that figures read back from JSON make the same page."""
    try:
        return {**figs, "players": {int(n): s for n, s in figs["players"].items()}}
    except (AttributeError, TypeError, ValueError):
        raise ArgumentError("render_html(figures=...)", "the figures pack_figures returns",
                            figs) from None


def _hardest(figs: dict) -> dict | None:
    rows = [r for r in figs["phases"] if r["completed_share"]["value"] is not None]
    return min(rows, key=lambda r: r["completed_share"]["value"]) if rows else None


def _flagged(figs: dict) -> tuple[list[int], list[int]]:
    rows = figs["phases"] if figs["order_matters"] else []
    return ([r["number"] for r in rows if r["easier_than_previous"] is True],
            [r["number"] for r in rows if r["easier_than_previous"] == "maybe"])


def _comparison(pack: Pack, figures: dict) -> list[str]:
    """The worlds side by side: game length at each table size, the hardest phase and the
    phases flagged easier than the one before."""
    e = escape
    worlds = figures["worlds"]
    sizes = sorted({n for f in worlds for n in f["players"]})
    out = ["<h2>The worlds compared</h2>",
           f'<p class="muted">Hands per game: the mean of seeded games (at most '
           f'{figures["games"]}; each world\'s section says how many) at each table size '
           f'between {e(figures["bot"])} bots (seed {figures["seed"]}), with its 95% '
           "interval. The hardest phase has the lowest completion share in play; a flagged "
           "phase is completed more often than the phase before it, beyond the intervals "
           "(\"maybe\": within them, by more than 5 points). Each world's section below has "
           "the figures and the games they rest on.</p>",
           '<table class="stack compare"><thead><tr><th>world</th><th>phases</th>'
           + "".join(f"<th>hands, {n} players</th>" for n in sizes)
           + "<th>hardest phase</th><th>easier than the one before</th></tr></thead><tbody>"]
    for f in worlds:
        w = pack.world(f["world"])
        cells = [f'<td data-label="world"><a href="#world-{e(w.name)}">{e(w.title)}</a></td>',
                 f'<td class="num" data-label="phases">{len(w.played)}</td>']
        for n in sizes:
            hp = f["players"].get(n, {}).get("hands_per_game") or {"n": 0}
            text = (f'{hp["mean"]:.1f}<span class="sub">{_span(hp["ci95"], 1).strip()}</span>'
                    if hp["n"] else "-")
            cells.append(f'<td class="num" data-label="hands, {n} players">{text}</td>')
        hard = _hardest(f)
        cells.append('<td data-label="hardest phase">' + (
            f'{hard["number"]}: {e(hard["phase"])} <span class="sub">completed '
            f'{_pct(hard["completed_share"]["value"])} of {hard["completed_share"]["attempts"]:,} '
            f'attempts ({f["curve_players"]} players)</span>' if hard else "-") + "</td>")
        sure, maybe = _flagged(f)
        if not f["order_matters"]:
            flags = "order not judged (players choose their phase)"
        else:
            flags = ", ".join(map(str, sure)) or "none"
            if maybe:
                flags += f'<span class="sub">maybe: {", ".join(map(str, maybe))}</span>'
        cells.append(f'<td data-label="easier than the one before">{flags}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return out


def _board_play(figs: dict) -> list[str]:
    """How the board played in the report's games (``simulate.board_figures``)."""
    b = figs.get("board")
    if not b or not b["spaces_per_hand"]["n"]:
        return []
    g, t = b["spaces_per_hand"], b["twist"]
    played = figs["players"][figs["curve_players"]]["games"]
    out = [f"<p>In play ({figs['curve_players']} players, {played:,} games): a pawn gains "
           f"{g['mean']:.2f}{_span(g['ci95'], 1, 2)} spaces a hand ({g['n']:,} hands)."]
    if t["offered"]:
        out.append(f" On a twist space the twist card was taken in {_pct(t['taken_share'])}"
                   f"{_span(t['taken_ci95'])} of {t['offered']:,} hands"
                   + (f", and made {_pct(t['paid_share'])}{_span(t['paid_ci95'])} of the "
                      f"{t['taken']:,} times" if t["taken"] else "") + ".")
    out.append('</p><table class="stack"><thead><tr><th>space</th><th>hands there</th>'
               "<th>spaces gained a hand</th></tr></thead><tbody>")
    out += [f'<tr><td class="num" data-label="space">{r["space"]}</td>'
            f'<td class="num" data-label="hands there">{r["hands"]:,}</td>'
            f'<td class="num" data-label="spaces gained a hand">{r["mean_gain"]:+.2f}'
            f'{_span(r["ci95"], 1, 2)}</td></tr>' for r in b["spaces"]]
    out.append("</tbody></table>")
    return out


def _board_section(board, world: World, h2: str) -> list[str]:
    """A board game's board drawn as a track, its move table and its twist deck."""
    from .svgchart import board_track

    e = escape
    m = board.moves
    labels = {i + 1: str(entry.phase) for i, entry in enumerate(world.played)}
    out = [f"<{h2}>The board</{h2}>", board_track(board.spaces, labels),
           f"<p>After a hand a pawn moves {m.made_out} spaces for making its phase and going "
           f"out, {m.made} for making it, {m.missed} for missing it; on a twist card "
           f"{m.twist_made_out} / {m.twist_made} / {m.twist_missed}. "
           + ("A pawn on the start moves only when its phase is made. " if board.start_needs_phase
              else "") + "On the last space a miss does not move; making its phase wins.</p>"]
    if board.twist_phases:
        out.append("<p>Twist deck: " + "; ".join(e(str(p)) for p in board.twist_phases) + ".</p>")
    return out


def _world_section(pack: Pack, world: World, figs: dict, nested: bool) -> list[str]:
    """Rules, phases (both measures, flags), charts and game length of one world."""
    e = escape
    deck = world.rules.deck
    h2 = "h3" if nested else "h2"
    out: list[str] = []
    if nested:
        out.append(f'<section class="world" id="world-{e(world.name)}">')
        out.append(f"<h2>{e(world.title)} <small>{_name(world.name)}</small></h2>")
    if world.note:
        out.append(f'<p class="note">{e(world.note.strip())}</p>')
    if world.source and nested:
        out.append(f'<p class="note">Source: {e(world.source.strip())}</p>')

    out.append(f"<{h2}>Rules</{h2}><ul>")
    out += [f"<li>{e(s)}</li>" for s in rules_in_words(pack, world)]
    out.append("</ul>")
    if pack.board is not None:
        out += _board_section(pack.board, world, h2) + _board_play(figs)
    house = house_rules_in_words(world)
    if house:
        out.append('<p>Rules that differ from the printed game:</p><table class="stack">'
                   "<thead><tr><th>option</th><th>value</th><th>what it means</th></tr></thead>"
                   "<tbody>")
        out += [f'<tr><td data-label="option">{_name(k)}</td>'
                f'<td data-label="value">{e(v)}</td><td data-label="what it means">{e(d)}</td></tr>'
                for k, v, d in house]
        out.append("</tbody></table>")
    else:
        out.append("<p>No house rules: the printed game's rules throughout.</p>")

    curve_n = figs["curve_players"]
    games = figs["players"][curve_n]["games"]
    matters = figs["order_matters"]
    rows = {r["number"]: r for r in figs["phases"]}
    out.append(f"<{h2}>Phases</{h2}>")
    played = world.played  # (even_only / odd_only: the phases a game plays)
    head = ("<th>#</th><th>phase</th><th>a dealt hand makes it</th>"
            f"<th>attempts completed ({curve_n} players)</th><th>hands spent on it</th>"
            + ("<th>easier than the one before</th>" if matters else ""))
    out.append(f'<table class="stack phases"><thead><tr>{head}</tr></thead><tbody>')
    previous = None
    for entry in played:
        row = rows.get(entry.number)
        flag = row["easier_than_previous"] if row and matters else False
        cls = {True: ' class="flagged"', "maybe": ' class="maybe"'}.get(flag, "")
        name = f" <em>({e(entry.name)})</em>" if entry.name else ""
        note = f'<div class="note">{e(entry.note.strip())}</div>' if entry.note else ""
        figure, basis = dealt_text(row["dealt"] if row else None)
        share = row["completed_share"] if row else {"value": None, "attempts": 0, "ci95": None}
        spent = row["hands_spent"] if row else {"mean": None, "ci95": None}
        cells = [f'<td class="num" data-label="phase #">{entry.number}</td>',
                 f'<td data-label="phase">{e(entry.phase.canonical(deck))}{name}'
                 f'<div class="plain">{e(entry.phase.plain(deck))}</div>'
                 f'<span class="sub">{entry.phase.cards_needed} cards</span>{note}</td>',
                 f'<td class="num" data-label="a dealt hand makes it">{e(figure)}'
                 f'<span class="sub">{e(basis)}</span></td>']
        if share["value"] is None:
            cells.append('<td class="num" data-label="attempts completed">-'
                         '<span class="sub">never attempted</span></td>')
            cells.append('<td class="num" data-label="hands spent on it">-</td>')
        else:
            cells.append(f'<td class="num" data-label="attempts completed">'
                         f'{_pct(share["value"])}{_span(share["ci95"])}'
                         f'<span class="sub">of {share["attempts"]:,} attempts</span></td>')
            cells.append(f'<td class="num" data-label="hands spent on it">{spent["mean"]:.2f}'
                         f'{_span(spent["ci95"], 1, 2)}<span class="sub">by '
                         f'{row.get("players", 0):,} players</span></td>')
        if matters:
            said = ""
            if flag:
                said = (f'<span class="flag">{e(_flag_words(flag, row, previous))}</span>'
                        f'<span class="sub">{e(row.get("reason") or "")}</span>')
            cells.append(f'<td data-label="easier than the one before">{said or "no"}</td>')
        out.append(f'<tr id="{_anchor(world, nested, entry.number)}"{cls}>' + "".join(cells)
                   + "</tr>")
        previous = row
    out.append("</tbody></table>")
    out.append(f'<p class="note">A dealt hand is {world.rules.hand_size} cards. Its chance of '
               "making each phase is exact (the figure <code>phasedsl odds</code> prints) where "
               "the hands can be counted, otherwise sampled from seeded hands, with its 95% "
               f"interval. Completion shares and hands spent come from {games} seeded games at "
               f'{curve_n} players between {e(figs["bot"])} bots (seed {figs["seed"]}): each '
               "figure says how many attempts or players it rests on, with its 95% interval "
               "(Wilson for a share, normal for a mean).</p>")
    if matters:
        out.append('<p class="note">A phase is flagged <span class="flag">easier than the one '
                   "before</span> when its attempts are completed more often than the previous "
                   "phase's and the two intervals do not overlap; \"maybe\" when they overlap "
                   "but the shares differ by more than 5 points. <code>phasedsl balance</code> "
                   "proposes an order without flags.</p>")
    else:
        out.append('<p class="note">Players choose which phase to make here, so the order '
                   "of the list is not judged: no phase is flagged.</p>")

    labels = [str(en.number) for en in played]
    got = [rows.get(en.number) for en in played]
    out.append(f"<{h2}>Difficulty</{h2}>")
    out.append(two_scale_chart(
        "How hard is each phase?", labels,
        (f"dealt hand makes it ({world.rules.hand_size} cards)",
         [100 * r["dealt"]["probability"] if r and r["dealt"] else None for r in got],
         [tuple(100 * x for x in r["dealt"]["ci95"]) if r and r["dealt"] else None
          for r in got]),
        (f"attempts completed ({curve_n} players)",
         [100 * r["completed_share"]["value"] if r and r["completed_share"]["value"] is not None
          else None for r in got],
         [tuple(100 * x for x in r["completed_share"]["ci95"])
          if r and r["completed_share"]["ci95"] else None for r in got]),
        flags={i: r["easier_than_previous"] for i, r in enumerate(got) if r and matters},
        x_label="phase"))
    out.append(line_chart(f"Hands spent on each phase ({curve_n} players)", labels, [
        ("hands a player spends on it",
         [r["hands_spent"]["mean"] if r else None for r in got])],
        x_label="phase", y_label="hands"))

    out.append(f"<{h2}>How long is a game?</{h2}>")
    out.append(f'<p class="muted">Seeded games at each table size between {e(figs["bot"])} '
               f'bots (seed {figs["seed"]}), played until the hands per game are known to '
               f"{100 * LENGTH_PRECISION:g}% of the mean (at {curve_n} players, also until no "
               f'phase is only maybe easier than the one before), at most {figs["games"]}; '
               "<code>phasedsl simulate</code> plays more.</p>")
    out.append('<table class="stack"><thead><tr><th>players</th><th>games finished</th>'
               "<th>hands per game (mean, 95% interval)</th><th>median</th>"
               "<th>10th-90th percentile</th><th>turns per hand (mean, 95% interval)</th>"
               "<th>mean final score (95% interval)</th>"
               "</tr></thead><tbody>")
    means = []
    for n, s in figs["players"].items():
        hp = s["hands_per_game"]
        if not hp["n"]:
            out.append(f'<tr><td class="num" data-label="players">{n}</td>'
                       f'<td colspan="6" data-label="games">no game finished</td></tr>')
            means.append(0.0)
            continue
        means.append(hp["mean"])
        out.append(f'<tr><td class="num" data-label="players">{n}</td>'
                   f'<td class="num" data-label="games finished">{s["finished"]} of {s["games"]}</td>'
                   f'<td class="num" data-label="hands per game">{hp["mean"]:.1f}{_span(hp["ci95"], 1)}</td>'
                   f'<td class="num" data-label="median">{hp["median"]:g}</td>'
                   f'<td class="num" data-label="10th-90th percentile">{hp["p10"]:g}-{hp["p90"]:g}</td>'
                   f'<td class="num" data-label="turns per hand">{s["turns_per_hand"]["mean"]:.1f}'
                   f'{_span(s["turns_per_hand"]["ci95"], 1)}</td>'
                   f'<td class="num" data-label="mean final score">{s["mean_final_score"]:.0f}'
                   f'{_span(s.get("mean_final_score_ci95"), 1, 0)}</td></tr>')
    out.append("</tbody></table>")
    stopped = {w["why"]: n for n, s in figs["players"].items()
               for w in s.get("why_stopped", [])}
    if stopped:  # a game not finished: why it stopped (the phases that held it, lint's words)
        out.append('<p class="note">Games not finished stopped because:</p><ul class="note">'
                   + "".join(f"<li>{e(w)} ({n} players)</li>" for w, n in stopped.items())
                   + "</ul>")
    out.append(bar_chart("Hands per game by table size", [str(n) for n in figs["players"]],
                         means, x_label="players", y_label="hands (mean)"))
    if nested:
        out.append("</section>")
    return out


def _anchor(world: World, nested: bool, number: int) -> str:
    return f"{world.name}-phase-{number}" if nested else f"phase-{number}"


def _row_mm(rows: int) -> float:
    """A score row's printed height: the page, less its title and the name row (measured
    in chromium's print layout: 30 mm), shared by the hand rows and the total row, less
    each row's padding and border (0.9 mm), within ``ROW_MM``."""
    return max(ROW_MM[0], min(ROW_MM[1], (PAGE_MM - 30.0) / (rows + 1) - 0.9))


def _sheet(title: str, world: World, players: int, rows: int) -> list[str]:
    """The printable pages: the house rules and the phases to tick off (in the DSL and in
    plain words, with their notes), then a score table with a labelled name row and as
    many rows as the simulated games' 90th-percentile length at the largest table."""
    e = escape
    deck = world.rules.deck
    rules = house_rules_plain(world)
    boxes = '<td class="box"></td>' * players
    out = ['<section class="sheet">', f"<h1>{e(title)}</h1>"]
    if rules:
        out.append("<ul>" + "".join(f"<li>{e(r)}</li>" for r in rules) + "</ul>")
    else:
        out.append('<p class="note">The printed rules, no house rules.</p>')
    out += ["<h2>Phase sheet</h2>",
            '<p class="note">Write each player\'s name at the top of a column; tick a phase '
            "when it is made.</p>",
            '<table><tr class="names"><th class="n">#</th>'
            '<th class="phase">phase<span class="label">name:</span></th>'
            + '<th class="box"></th>' * players + "</tr>"]
    for entry in world.played:
        name = f" ({e(entry.name)})" if entry.name else ""
        note = f'<div class="note">{e(entry.note.strip())}</div>' if entry.note else ""
        out.append(f'<tr><td class="n">{entry.number}</td>'
                   f'<td class="phase">{e(entry.phase.canonical(deck))}{name}'
                   f'<div class="plain">{e(entry.phase.plain(deck))}</div>{note}</td>{boxes}</tr>')
    out.append("</table>")
    out.append(f'<h2 class="scores">Score sheet: {e(title)}</h2>')
    out.append(f'<table class="scores" style="--row: {_row_mm(rows):.1f}mm">'
               '<tr class="names"><th class="n">name</th>' + "<td></td>" * players + "</tr>")
    out += [f'<tr><td class="n">{k}</td>' + "<td></td>" * players + "</tr>"
            for k in range(1, rows + 1)]
    out.append('<tr><th class="n">total</th>' + "<td></td>" * players + "</tr></table>")
    out.append(f'<p class="note">{rows} rows: 9 in 10 simulated games at {players} players '
               "ended within them.</p>")
    out.append("</section>")
    return out
