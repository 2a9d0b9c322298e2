"""report: the pack's one-page HTML report, checked as text and in a real browser."""

import os
import re
import shutil
import struct
import subprocess
import zlib
from functools import cache

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.report import (
    house_rules_in_words,
    pack_figures,
    player_counts,
    render_html,
    rule_in_words,
    rules_in_words,
)
from phasedsl.packs.pack import load_pack, schema

runner = CliRunner()


@cache
def _original_figures():
    return pack_figures(load_pack("original"), games=1, seed=3)


def test_player_counts_follow_the_referee():
    assert player_counts(load_pack("original")) == [2, 3, 4, 5, 6]
    assert player_counts(load_pack("masters")) == [2, 3, 4]


def test_the_page_is_self_contained_and_says_everything():
    pack = load_pack("original")
    figures = _original_figures()
    html = render_html(pack, None, figures)
    assert "<script" not in html.lower()
    # nothing fetched: no external source, stylesheet or link (the SVG namespace is a name)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "@import" not in html and "url(" not in html
    assert pack.title in html and "108 cards" in html and "10 cards to each player" in html
    for entry in pack.world(None).phases:
        assert f'id="phase-{entry.number}"' in html
        assert entry.phase.canonical() in html
    assert html.count("<svg") == 3
    assert "@media print" in html and 'class="sheet"' in html
    assert html.count('<th class="box"></th>') == 6  # a column for each of up to 6 players
    for n in (2, 3, 4, 5, 6):
        mean = figures["players"][n]["hands_per_game"]["mean"]
        assert f"{mean:.1f} (" in html


def test_house_rules_are_said_in_words():
    pack = load_pack("masters")
    words = " ".join(rules_in_words(pack, pack.world(None)))
    assert "in any order" in words
    html = render_html(pack, None, {"games": 1, "seed": 1, "bot": "greedy", "curve_players": 2,
                                    "phases": [], "order_matters": False, "sheet_rows": 18,
                                    "players": {2: _empty_summary()}})
    assert "house_<wbr>rules.<wbr>save_<wbr>pile" in html
    assert "Each hand you may set one card aside on your own pile" in html
    assert "no game finished" in html
    assert html.count('<th class="box"></th>') == 2


def _empty_summary():
    from phasedsl.design.simulate import summarize

    return summarize([], 2)


def test_cli_writes_the_report(tmp_path):
    out = tmp_path / "short.html"
    res = runner.invoke(app, ["report", "short-game-5", "-o", str(out), "--games", "1"])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "short-game-5" in html


@pytest.mark.parametrize("args, message", [
    (["nope", "-o", "x.html"], "nope"),
    (["world-tour", "-o", "x.html", "--world", "jaz-club"], "jazz-club"),
])
def test_cli_bad_input_exits_2(args, message, tmp_path):
    res = runner.invoke(app, ["report", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_cli_unwritable_output_exits_2(tmp_path):
    res = runner.invoke(app, ["report", "short-game-5", "-o", str(tmp_path / "no" / "x.html"),
                              "--games", "1"])
    assert res.exit_code == 2 and "cannot write" in res.output


# --------------------------------------------------------------------------- in a browser


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    path = _browser()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no chromium binary under CI: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no chromium binary on this machine")
    return path


def _run(browser: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--no-first-run", "--disable-dev-shm-usage", *args],
                          capture_output=True, timeout=120, check=False)


def _png_pixels(data: bytes) -> tuple[int, int, list[int]]:
    """Decode an 8-bit RGB/RGBA PNG (what a screenshot is) into its gray levels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and color in (2, 6)
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    gray: list[int] = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        gray += [sum(line[x:x + 3]) // 3 for x in range(0, stride, bpp * 4)]  # every 4th pixel
        prev = line
    return width, height, gray


def _densest_world() -> tuple[str, str | None]:
    """The pack world with the most phase text: the hardest to fit on one printed page."""
    from phasedsl.system.resources import variants_dir

    best = (0, "original", None)
    for path in sorted(variants_dir().glob("*.yaml")):
        pack = load_pack(path.stem)
        for w in pack.worlds:
            size = sum(len(e.phase.canonical(w.rules.deck)) + len(e.name or "") + 40
                       for e in w.phases)
            if size > best[0]:
                best = (size, path.stem, w.name if len(pack.worlds) > 1 else None)
    return best[1], best[2]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    out = {}
    dense, world = _densest_world()
    for name, w in (("original", None), (dense, world)):
        path = folder / f"{name}.html"
        args = ["report", name, "-o", str(path), "--games", "1"] + (["--world", w] if w else [])
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        out[name] = (path, load_pack(name).world(w))
    return out


def test_browser_renders_every_phase(browser, pages):
    for path, world in pages.values():
        res = _run(browser, "--dump-dom", path.as_uri())
        dom = res.stdout.decode()
        assert "</html>" in dom, res.stderr.decode()[-2000:]
        for entry in world.phases:
            assert f'id="phase-{entry.number}"' in dom
            assert entry.phase.canonical(world.rules.deck).replace("&", "&amp;") in dom


def test_browser_screenshot_is_not_blank(browser, pages, tmp_path):
    path, _ = pages["original"]
    shot = tmp_path / "shot.png"
    res = _run(browser, "--window-size=1000,1400", f"--screenshot={shot}", path.as_uri())
    assert shot.exists(), res.stderr.decode()[-2000:]
    width, height, gray = _png_pixels(shot.read_bytes())
    assert (width, height) == (1000, 1400)
    mean = sum(gray) / len(gray)
    variance = sum((g - mean) ** 2 for g in gray) / len(gray)
    assert variance > 100  # text, tables and charts; a blank page is one color
    assert sum(g < 128 for g in gray) > 0.005 * len(gray)


def test_browser_prints_the_sheets_on_two_pages(browser, pages, tmp_path):
    # the phase sheet (with the rules in words) on one page, the score sheet on the next
    for name, (path, _) in pages.items():
        pdf = tmp_path / f"{name}.pdf"
        res = _run(browser, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", path.as_uri())
        assert pdf.exists(), res.stderr.decode()[-2000:]
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF")
        assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data)) == 2, name


def _options(node: dict, defs: dict, prefix: str = ""):
    """(dotted key, every value the schema allows, sampled for numbers) of each rule option."""
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    if "properties" in node:
        for k, sub in node["properties"].items():
            yield from _options(sub, defs, f"{prefix}.{k}" if prefix else k)
        return
    kinds = node.get("oneOf") or node.get("anyOf") or [node]
    values: list = []
    for kind in kinds:
        if "enum" in kind:
            values += kind["enum"]
        elif kind.get("type") == "boolean":
            values += [True, False]
        elif kind.get("type") == "null":
            values.append(None)
        elif kind.get("type") == "integer":
            values += sorted({kind.get("minimum", 0), kind.get("minimum", 0) + 1, 3})
        elif kind.get("type") == "string":
            values.append("1 set of 3")
    yield prefix, values


def test_every_value_of_every_rule_option_is_said_for_what_it_means():
    # the table of rule options gave the schema's description of the option whatever its
    # value, so that 'hit_same_turn off' read "A player may hit ... on the turn they lay"
    s = schema()
    said: dict[str, set[str]] = {}
    for key, values in _options(s["$defs"]["rules"], s["$defs"]):
        if key.startswith(("deck.", "scoring.", "hand_size")) or not values:
            continue
        for value in values:
            text = rule_in_words(key, value, {})
            assert text and f"({key.rsplit('.', 1)[-1]}: " not in text, (key, value, text)
            said.setdefault(key, set()).add(text)
        assert len(said[key]) == len(values), (key, said[key])  # each value its own sentence
    assert "house_rules.hit_same_turn" in said and "runs.wrap" in said


def test_an_option_turned_off_reads_as_off():
    pack = load_pack("thai")
    rows = {k: (v, d) for k, v, d in house_rules_in_words(pack.world(None))}
    value, meaning = rows["house_rules.hit_same_turn"]
    assert value == "off" and meaning.startswith("You may not hit on the turn you lay")


def test_option_names_wrap_only_between_words():
    pack = load_pack("thai")
    html = render_html(pack, None, {"games": 1, "seed": 1, "bot": "greedy", "curve_players": 2,
                                    "phases": [], "order_matters": False, "sheet_rows": 18,
                                    "players": {2: _empty_summary()}})
    assert '<code class="name">house_<wbr>rules.<wbr>hit_<wbr>same_<wbr>turn</code>' in html
    assert "code.name { overflow-wrap: normal; }" in html
