"""phasedsl serve: the API with Starlette's test client (the CLI's own answers and errors),
and the page in a real headless browser (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time

import pytest

starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from phasedsl.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def test_the_page_and_its_files_come_from_the_package_with_no_cdn(client):
    r = client.get("/")
    assert r.status_code == 200 and "phasedsl workbench" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert "http" not in r.text.replace("http-equiv", "")  # (nothing fetched from elsewhere)
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../../pack.schema.json").status_code == 404
    assert client.get("/static/index.html").status_code == 404


def test_a_phrase_gives_its_canonical_form_and_the_dealt_chance_odds_gives(client):
    r = client.post("/api/phrase", json={"phrase": "two sets of three"})
    assert r.status_code == 200 and r.json()["canonical"] == "2 sets of 3"
    assert r.json()["groups"][0]["canonical"] == "1 set of 3"
    d = client.post("/api/dealt", json={"phrase": "two sets of three"}).json()
    assert d["method"] == "exact" and d["fraction"] and d["describe"] == "18.2752% (exact)"


def test_bad_input_gets_the_command_lines_error_never_a_traceback(client):
    r = client.post("/api/phrase", json={"phrase": "1 set of 3 + 1 rn of 4"})
    assert r.status_code == 400
    got = r.json()
    assert got["exit"] == 2 and got["column"] == 16 and "run" in got["error"]
    for body in (b"not json", b"[1]", json.dumps({"phrase": 5}).encode(),
                 json.dumps({"phrase": "x" * 3_000}).encode()):
        r = client.post("/api/phrase", content=body)
        assert r.status_code == 400 and "Traceback" not in r.text and r.json()["exit"] == 2
    r = client.post("/api/phrase", content=b"{" + b" " * 500_000 + b"}")
    assert r.status_code == 400 and "at most" in r.json()["error"]
    r = client.post("/api/phrase", json={"phrase": "2 sets of 3", "pack": "../../etc/passwd"})
    assert r.status_code == 400 and "built-in packs only" in r.json()["error"]


def test_the_meld_checker_says_made_and_why(client):
    got = client.post("/api/check", json={"phrase": "1 set of 3 + 1 run of 4",
                                           "cards": "R5 B5 G7 G8 G10 W W Y2"}).json()
    assert got["valid"] is True and "\nmade\n" in got["text"]
    got = client.post("/api/check", json={"phrase": "1 run of 4", "cards": "R3 B4 G5 Y9 Y10"})
    assert got.json()["valid"] is False
    r = client.post("/api/check", json={"phrase": "1 set of 3", "cards": "R5 X5"})
    assert r.status_code == 400 and r.json()["column"] == 4


def test_lint_of_the_editor_text_points_at_line_and_column(client):
    good = client.get("/api/pack/short-game-5").json()["yaml"]
    got = client.post("/api/lint", json={"yaml": good}).json()
    assert got["ok"] and got["worlds"][0]["phases"][0]["canonical"] == "2 sets of 3"
    bad = good.replace('"2 sets of 3"', '"2 sets of 3 + 1 rn of 4"')
    got = client.post("/api/lint", json={"yaml": bad}).json()
    assert not got["ok"]
    problem = got["problems"][0]
    line = next(i for i, t in enumerate(bad.splitlines(), 1) if "rn of 4" in t)
    assert problem["line"] == line and problem["column"] and "run" in problem["message"]


def test_the_editor_reads_no_file_a_pack_names(client, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("name: secret\ntitle: s\ndescription: s\nsource: s\nphases: ['2 sets of 3']\n")
    text = (f"name: mine\ntitle: t\ndescription: d\nsource: s\nextends: {secret}\n")
    got = client.post("/api/lint", json={"yaml": text}).json()
    assert not got["ok"] and "built-in" in got["problems"][0]["message"]


def test_balance_streams_progress_then_the_figures_and_the_proposed_pack(client):
    text = client.get("/api/pack/short-game-5").json()["yaml"]
    r = client.post("/api/balance", json={"yaml": text, "games": 4})
    assert r.status_code == 200
    lines = [json.loads(x) for x in r.text.splitlines() if x.strip()]
    assert any("progress" in x for x in lines[:-1])
    done = lines[-1]
    assert done["result"]["games"] == 4 and "phases" in done["result"]
    assert done["text"].startswith("short-game-5: 5 phases")
    r = client.post("/api/balance", json={"yaml": text, "games": 500})
    assert r.status_code == 400 and "games" in r.json()["error"]


def test_a_game_against_bots_is_played_to_your_move_and_refuses_an_illegal_one(client):
    s = client.post("/api/play/new", json={"pack": "original", "players": 2}).json()
    assert s["moves"] and not s["over"] and "hand" in s["screen"].lower()
    r = client.post("/api/play/move", json={"id": s["id"], "move": "lay 2 sets of 3 R1"})
    assert r.status_code == 400 and r.json()["exit"] == 2
    s2 = client.post("/api/play/move", json={"id": s["id"], "move": s["moves"][0]}).json()
    assert s2["id"] == s["id"]


def test_dice_hold_advice_and_the_twist_board(client):
    a = client.post("/api/hold", json={"pack": "dice", "phase": 1, "rolls_left": 2,
                                        "faces": "8 8 8 10 W W 1 2 5 6"}).json()
    assert a["chance"] == "1/1" and a["phase"] == "2 sets of 3"  # (hold's own answer)
    r = client.post("/api/hold", json={"pack": "dice", "phase": 1, "faces": "8 8"})
    assert r.status_code == 400 and "every die" in r.json()["error"]
    r = client.post("/api/hold", json={"pack": "original", "phase": 1, "faces": "8"})
    assert r.status_code == 400 and "not played with dice" in r.json()["error"]
    board = client.post("/api/board", json={"pack": "twist"}).json()
    assert board["track"][0].strip().startswith("1. phase 1") and "twist" in board["track"][1]
    s = client.post("/api/play/new", json={"pack": "twist", "players": 3}).json()
    assert "board: you on space 1" in s["screen"] and "draw pile 2" in s["moves"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    uvicorn = pytest.importorskip("uvicorn")
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                       log_level="warning", lifespan="off"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(5)


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    sync = pytest.importorskip("playwright.sync_api")
    path = _chromium()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI: Debian's chromium is needed for the browser test (.ci/run installs it)")
        pytest.skip("no chromium on this machine")
    with sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def test_in_a_real_browser_phrase_lint_balance_and_a_share_link(server, browser):
    # (the page's CSP allows no eval; Playwright's waits evaluate their predicates)
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector("body[data-ready=yes]")
    # a phrase: its canonical form
    page.fill("#phrase", "two sets of three")
    page.wait_for_function("document.getElementById('canonical')?.textContent === '2 sets of 3'")
    # a pack with an error: shown at its line
    text = page.input_value("#editor")
    bad = text.replace('"2 sets of 3"', '"2 sets of 3 + 1 rn of 4"')
    line = next(i for i, t in enumerate(bad.splitlines(), 1) if "rn of 4" in t)
    page.fill("#editor", bad)
    page.wait_for_selector(f"#problems li[data-line='{line}']")
    assert "run" in page.inner_text(f"#problems li[data-line='{line}']")
    # a balance proposal applied to the editor (a pack whose order balance changes)
    swapped = text.replace('"2 sets of 3"', '"TMP"').replace('"1 run of 8"', '"2 sets of 3"') \
        .replace('"TMP"', '"1 run of 8"')
    page.fill("#editor", swapped)
    page.fill("#balance-games", "40")
    page.click("#balance-run")
    page.wait_for_selector("#balance-apply:not([hidden])", timeout=120_000)
    page.click("#balance-apply")
    applied = page.input_value("#editor")
    assert applied != swapped and "(reordered by phasedsl balance)" in applied
    # a share link opened in a fresh page gives the same pack
    page.click("#share")
    page.wait_for_function("document.getElementById('share-url').value.includes('#pack=')")
    url = page.input_value("#share-url")
    other = context.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=yes]")
    assert other.input_value("#editor") == applied
    context.close()


def _sleeps(seconds: float, progress=None) -> str:
    if progress:
        progress(1, 2)
    time.sleep(seconds)
    return "done"


def _fails() -> None:
    from phasedsl.errors import PhaseDSLError

    raise PhaseDSLError("bad input, as the CLI says it")


def test_work_past_its_time_is_refused_and_its_child_killed():
    from phasedsl.errors import PhaseDSLError
    from phasedsl.web.work import Refused, bounded

    seen = []
    assert bounded(_sleeps, 0.0, seconds=10, what="a nap", progress=lambda d, t: seen.append(
        (d, t))) == "done" and seen == [(1, 2)]
    start = time.monotonic()
    with pytest.raises(Refused, match=r"a long nap would take longer than 0\.5 s"):
        bounded(_sleeps, 60.0, seconds=0.5, what="a long nap")
    assert time.monotonic() - start < 5  # (a hang guard: the child is killed, not waited for)
    with pytest.raises(PhaseDSLError, match="bad input, as the CLI says it"):
        bounded(_fails, seconds=10, what="a failure")
