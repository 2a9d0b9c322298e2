"""report, for an author and for the table (issue 16): exact dealt chances and in-play
completion shares with their intervals, balance's flags on the table and the chart, every
world of a pack on one page, a printed sheet sized from simulated games, phases and house
rules in plain words, and a page that reads on a 420 px phone."""

import json
import math
import re
import shutil
import subprocess
from html import escape

import pytest
from typer.testing import CliRunner

import phasedsl.design.report as report
from phasedsl.cli import app
from phasedsl.design.difficulty import Dealt
from phasedsl.design.odds import odds
from phasedsl.design.report import GAMES, house_rules_plain, pack_figures, player_counts, render_html
from phasedsl.design.svgchart import FLAG_COLOR, HEIGHT, two_scale_chart
from phasedsl.model.phase import Phase
from phasedsl.packs.pack import load_pack

runner = CliRunner()


# --------------------------------------------------------------------------- plain words


@pytest.mark.parametrize("phrase, words", [
    ("7 cards of one color", "7 cards of one color"),
    ("2 color even or odd of 4", "2 even-or-odd groups of 4 cards, each one color"),
    ("1 even or odd of 8", "8 cards, all even or all odd"),
    ("2 sets of 3", "2 groups of 3 cards, each of one number"),
    ("1 set of 3 + 1 run of 4", "3 cards of the same number and 4 numbers in a row"),
    ("1 color run of 4 + 3 sets of 2",
     "4 numbers in a row, all one color; and 3 groups of 2 cards, each of one number"),
    ("1 run of 3 + 1 set of 4 + 1 set of 3",
     "3 numbers in a row, 4 cards of the same number, and 3 cards of the same number"),
    ("1 color set of 3", "3 cards of the same number and color"),
    ("2 color groups of 4", "2 groups of 4 cards, each one color"),
    ("2 wilds + 1 set of 3", "2 wild cards and 3 cards of the same number"),
])
def test_a_phase_in_plain_words(phrase, words):
    assert Phase.parse(phrase).plain() == words


def test_house_rules_in_plain_sentences_say_the_value_not_the_option():
    thai = house_rules_plain(load_pack("thai").world(None))
    assert "A skip always skips the next player." in thai
    assert "You may not hit on the turn you lay your phase: wait a turn." in thai
    assert "A tie is settled by one more hand in which everyone tries 1 set of 5 + 1 set of 3." \
        in thai
    postal = house_rules_plain(load_pack("postal").world(None))
    assert postal[0] == ("The number of the phase you are working on is wild for you, "
                         "through phase 7.")
    assert house_rules_plain(load_pack("original").world(None)) == []
    # one or two sentences each, none of them the option's dotted name
    for pack in ("thai", "postal", "masters", "japanese-wild-rules", "floating", "even-phases"):
        for said in house_rules_plain(load_pack(pack).world(None)):
            assert 1 <= said.count(".") <= 2 and "house_rules" not in said, said


# --------------------------------------------------------------------------- the chart


def _points(svg: str, shape: str) -> list[float]:
    if shape == "circle":
        return [float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)]
    return [float(y) + 3.5 for y in re.findall(r'<rect x="[\d.]+" y="([\d.]+)" width="7"', svg)]


def test_dealt_and_in_play_each_have_their_own_scale_and_the_flags_show():
    svg = two_scale_chart("t", ["1", "2", "3"], ("dealt", [0.3, 29.8, 5.3], None),
                          ("completed", [80.0, 40.0, 65.0], [(75, 85), (35, 45), (60, 70)]),
                          flags={2: True, 1: False})
    dealt, done = _points(svg, "circle"), _points(svg, "rect")
    head, bottom = 62, HEIGHT - 44
    # the largest dealt chance (29.8%) is drawn near the top of its own axis (30%), not at
    # a third of a 0-100% one; the completion shares use the right axis (to 100%)
    assert min(dealt) < head + 0.05 * (bottom - head)
    assert min(done) < head + 0.25 * (bottom - head)
    assert ">30%</text>" in svg and ">100%</text>" in svg
    assert svg.count(f'fill="{FLAG_COLOR}" font-weight="bold">3</text>') == 1  # phase 3's label
    assert "<title>3: easier than the one before</title>" in svg
    assert svg.count("<title>") == 2  # the chart's own and the one flag
    assert svg.count("<path d=\"M") >= 3  # a whisker per interval


# --------------------------------------------------------------------------- original


@pytest.fixture(scope="module")
def original_at_four():
    """``report original`` with the default games, played at 4 players only (the table
    whose figures the flags come from), and the figures behind it."""
    mp = pytest.MonkeyPatch()
    mp.setattr(report, "player_counts", lambda pack, world=None: [4])
    try:
        figures = pack_figures("original", seed=1, jobs=2)
    finally:
        mp.undo()
    return figures, render_html("original", None, figures)


def test_original_shows_the_exact_dealt_chance_odds_prints(original_at_four):
    figures, html = original_at_four
    assert figures["games"] == GAMES
    first = html[html.index('id="phase-1"'):html.index('id="phase-2"')]
    assert "18.2752%" in first and "exact" in first  # as `phasedsl odds --variant original`
    assert all(row["dealt"]["method"] == "exact" for row in figures["phases"])
    assert figures["phases"][0]["dealt"]["probability"] == \
        odds("2 sets of 3", load_pack("original").rules_for(None)).probability


def test_original_marks_phases_4_and_8_and_no_other(original_at_four):
    figures, html = original_at_four
    flagged = [r["number"] for r in figures["phases"] if r["easier_than_previous"] is True]
    assert flagged == [4, 8]
    assert re.findall(r'<tr id="phase-(\d+)" class="flagged"', html) == ["4", "8"]
    assert "easier than phase 3" in html and "easier than phase 7" in html
    eight = html[html.index('id="phase-8"'):html.index('id="phase-9"')]
    assert re.search(r"completed \d+\.\d% \(\d+\.\d-\d+\.\d\) vs \d+\.\d% \(\d+\.\d-\d+\.\d\) "
                     r"for phase 7", eight)
    # and on the chart: phases 4 and 8's labels in the flag color, a marker over each
    for n in ("4", "8"):
        assert f'fill="{FLAG_COLOR}" font-weight="bold">{n}</text>' in html
        assert f"<title>{n}: easier than the one before</title>" in html


def test_the_page_says_what_each_figure_rests_on(original_at_four):
    figures, html = original_at_four
    for row in figures["phases"]:
        lo, hi = row["completed_share"]["ci95"]
        tr = html[html.index(f'id="phase-{row["number"]}"'):]
        tr = tr[:tr.index("</tr>")]
        assert f'of {row["completed_share"]["attempts"]:,} attempts' in tr
        assert f'({100 * lo:.1f}-{100 * hi:.1f})' in tr
    # the games stop once every flag is settled (no "maybe"), at most GAMES of them
    played = figures["players"][4]["games"]
    assert played <= GAMES
    assert played == GAMES or all(r["easier_than_previous"] != "maybe"
                                  for r in figures["phases"])
    assert f"{played} seeded games at 4 players" in html
    assert f"at most {GAMES};" in html


def test_a_sampled_dealt_chance_shows_its_interval_and_its_hands():
    figures = _fake_world_figures("original", None)
    figures["phases"][0]["dealt"] = Dealt(0.0121, "sampled", (0.01163, 0.01259), 20_000).to_json()
    html = render_html("original", None, figures)
    first = html[html.index('id="phase-1"'):html.index('id="phase-2"')]
    assert "1.21% (1.16-1.26)" in first and "sampled, 20,000 hands" in first


def test_phases_made_in_any_order_are_not_flagged_and_the_page_says_why():
    figures = _fake_world_figures("masters", None)
    for row in figures["phases"]:
        row["easier_than_previous"] = True  # (whatever the figures, order is not judged)
    figures["order_matters"] = False
    html = render_html("masters", None, figures)
    assert "the order of the list is not judged" in html
    assert 'class="flagged"' not in html and FLAG_COLOR + '" font-weight' not in html


# --------------------------------------------------------------------------- the sheet


def _score_rows(html: str) -> list[int]:
    sheet = html[html.index('<table class="scores"'):]
    sheet = sheet[:sheet.index("</table>")]
    return [int(k) for k in re.findall(r'<tr><td class="n">(\d+)</td>', sheet)]


def test_the_score_sheet_has_as_many_rows_as_the_90th_percentile_game_at_six(monkeypatch):
    played = []
    real = report.play_until

    def kept(*args, **kw):
        played.append(real(*args, **kw))
        return played[-1]

    monkeypatch.setattr(report, "play_until", kept)
    monkeypatch.setattr(report, "player_counts", lambda pack, world=None: [6])
    figures = pack_figures("original", games=40, jobs=2)
    # the 90th percentile by hand (linear between closest ranks) over the finished games
    hands = sorted(r.hands for r in played[-1] if not (r.capped or r.stalled))
    pos = 0.9 * (len(hands) - 1)
    p90 = hands[int(pos)] + (hands[min(int(pos) + 1, len(hands) - 1)] - hands[int(pos)]) * (
        pos - int(pos))
    assert figures["sheet_rows"] == math.ceil(p90)
    assert 20 <= figures["sheet_rows"] <= 24  # original at 6 players: about 22
    html = render_html("original", None, figures)
    assert _score_rows(html) == list(range(1, figures["sheet_rows"] + 1))
    assert '<tr class="names"><th class="n">name</th>' in html  # the name row, labelled


def test_a_five_phase_world_gets_a_short_sheet_with_rules_and_notes_in_words():
    figures = pack_figures("short-game-5", games=30, jobs=2)
    assert max(figures["players"]) == 6
    assert 6 <= figures["sheet_rows"] <= 9  # about 7
    html = render_html("short-game-5", None, figures)
    assert len(_score_rows(html)) == figures["sheet_rows"]
    sheet = html[html.index('<section class="sheet">'):]
    assert "The first to make 5 phases wins." in sheet
    pack = load_pack("short-game-5")
    for entry in pack.world(None).played:
        assert escape(entry.phase.plain()) in sheet
    # a world whose phases carry notes shows them on the sheet
    disco = _fake_world_figures("world-tour", "disco-fever")
    sheet = render_html("world-tour", "disco-fever", disco)
    sheet = sheet[sheet.index('<section class="sheet">'):]
    assert escape("The source's \"1 odd or even out of 8\".") in sheet
    assert "Lay exactly the cards each group asks for" in sheet
    assert "8 cards, all even or all odd" in sheet


def _fake_world_figures(pack_name: str, world: str | None, games: int = 1) -> dict:
    """Real figures of one game at each table size, with every dealt chance left out (an
    exact count of every world's phases takes minutes; the tests above check the real
    ones for original)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(report, "dealt_or_none", lambda *a, **k: None)
    try:
        return pack_figures(pack_name, world, games=games)
    finally:
        mp.undo()


# --------------------------------------------------------------------------- several worlds


@pytest.fixture(scope="module")
def world_tour(tmp_path_factory):
    """``report world-tour`` without --world (one game per table size, dealt chances from a
    quick stand-in: the games and the page are what is checked here)."""
    out = tmp_path_factory.mktemp("wt") / "world-tour.html"
    mp = pytest.MonkeyPatch()
    mp.setattr(report, "dealt_or_none",
               lambda *a, **k: Dealt(0.25, "sampled", (0.2, 0.3), 100))
    try:
        r = runner.invoke(app, ["report", "world-tour", "-o", str(out), "--games", "1",
                                "--jobs", "1", "--json"])
    finally:
        mp.undo()
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), out


def test_world_tour_without_world_covers_all_14_worlds(world_tour):
    got, out = world_tour
    pack = load_pack("world-tour")
    assert len(pack.worlds) == 14
    html = out.read_text()
    figures = got["figures"]
    assert [f["world"] for f in figures["worlds"]] == [w.name for w in pack.worlds]
    compare = html[html.index("<h2>The worlds compared</h2>"):html.index('<section class="world"')]
    assert compare.count('<tr><td data-label="world">') == 14
    for w, f in zip(pack.worlds, figures["worlds"], strict=True):
        assert f'<a href="#world-{w.name}">{escape(w.title)}</a>' in compare
        assert f'<section class="world" id="world-{w.name}">' in html
        for entry in w.played:
            assert f'id="{w.name}-phase-{entry.number}"' in html
        for n in player_counts(pack, w.name):
            assert f'data-label="hands, {n} players">{f["players"][str(n)]["hands_per_game"]["mean"]:.1f}' \
                in compare
    assert html.count('<section class="sheet">') == 14
    assert html.count("<svg") == 14 * 3


def test_the_comparison_names_each_worlds_hardest_phase_and_its_flags(world_tour):
    got, out = world_tour
    pack = load_pack("world-tour")
    figures = json.loads(json.dumps(got["figures"]))  # (as report --json wrote them)
    assert render_html(pack, None, figures) == out.read_text()  # the same page again
    first = figures["worlds"][0]
    for row in first["phases"]:
        row["easier_than_previous"] = False
    first["phases"][3]["easier_than_previous"] = True
    first["phases"][5]["easier_than_previous"] = "maybe"
    hardest = min((r for r in first["phases"] if r["completed_share"]["value"] is not None),
                  key=lambda r: r["completed_share"]["value"])
    html = render_html(pack, None, figures)
    row = html[html.index('<a href="#world-island-paradise">'):]
    row = row[:row.index("</tr>")]
    assert f'{hardest["number"]}: {escape(hardest["phase"])}' in row
    assert '<td data-label="easier than the one before">4<span class="sub">maybe: 6</span>' in row
    with pytest.raises(Exception, match="figures"):
        render_html(pack, None, {**figures, "worlds": figures["worlds"][:2]})  # not all 14


def test_a_world_given_still_reports_that_world_alone(tmp_path):
    figures = _fake_world_figures("world-tour", "jazz-club")
    html = render_html("world-tour", "jazz-club", figures)
    assert "The worlds compared" not in html and html.count('<section class="sheet">') == 1
    assert "Phase 10: World Tour phase sets: Jazz Club" in html
    with pytest.raises(Exception, match="several worlds"):
        render_html("world-tour", None, figures)


# --------------------------------------------------------------------------- on a phone


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    import os

    path = _browser()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no chromium binary under CI: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no chromium binary on this machine")
    return path


# A test harness, not the page: the report has no script.  Headless chromium will not
# make a window narrower than 500 px, so the page is laid out in a 420 px frame and
# every element's right edge is measured against the frame's width.
_PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" style="border:0;width:420px;height:900px" srcdoc="{page}"></iframe>
<pre id="probe">pending</pre>
<script>
document.getElementById('f').addEventListener('load', function () {{
  var d = this.contentDocument, w = this.contentWindow.innerWidth, bad = [];
  d.querySelectorAll('body *').forEach(function (el) {{
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 0.5) bad.push(el.tagName + '.' + el.className + ':'
                                                   + Math.round(r.right));
  }});
  document.getElementById('probe').textContent = JSON.stringify(
    {{width: w, scroll: d.documentElement.scrollWidth, bad: bad.slice(0, 20)}});
}});
</script></body></html>"""


def _on_a_phone(browser: str, html: str, folder) -> dict:
    probe = folder / "probe.html"
    probe.write_text(_PROBE.format(page=escape(html, quote=True)))
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-dev-shm-usage", "--window-size=800,1000",
                          "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                         capture_output=True, timeout=180, check=False)
    got = re.search(r'<pre id="probe">(.*?)</pre>', res.stdout.decode())
    assert got and got.group(1) != "pending", res.stderr.decode()[-2000:]
    return json.loads(got.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_no_column_is_pushed_off_a_420px_phone(browser, world_tour, original_at_four,
                                                tmp_path):
    _, out = world_tour
    for html in (original_at_four[1], out.read_text()):
        got = _on_a_phone(browser, html, tmp_path)
        assert got["width"] == 420
        assert got["bad"] == [] and got["scroll"] <= 420, got


def test_the_phone_check_catches_a_table_that_does_not_fit(browser, original_at_four, tmp_path):
    # the same page without its narrow-screen rules: the phase table runs off the side
    html = original_at_four[1].replace("@media (max-width: 640px)", "@media (max-width: 10px)")
    got = _on_a_phone(browser, html, tmp_path)
    assert got["scroll"] > 420 and any(b.startswith("TABLE.stack phases") for b in got["bad"])


def test_a_phone_screenshot_is_not_blank(browser, original_at_four, tmp_path):
    from test_report import _png_pixels

    page = tmp_path / "original.html"
    page.write_text(original_at_four[1])
    shot = tmp_path / "phone.png"
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-dev-shm-usage", "--window-size=420,900", "--hide-scrollbars",
                          f"--screenshot={shot}", page.as_uri()],
                         capture_output=True, timeout=180, check=False)
    assert shot.exists(), res.stderr.decode()[-2000:]
    width, _, gray = _png_pixels(shot.read_bytes())
    assert width == 420
    assert sum(g < 128 for g in gray) > 0.005 * len(gray)


def test_the_world_tour_sheets_print_two_pages_each(browser, world_tour, tmp_path):
    # each world: its phase sheet on a page, its score sheet on the next, none spilling over
    _, out = world_tour
    pdf = tmp_path / "wt.pdf"
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-dev-shm-usage", "--no-pdf-header-footer",
                          f"--print-to-pdf={pdf}", out.as_uri()],
                         capture_output=True, timeout=180, check=False)
    assert pdf.exists(), res.stderr.decode()[-2000:]
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf.read_bytes())) == 2 * 14
