"""phasedsl serve: the API with Starlette's test client (the CLI's own answers and errors),
and the page in a real headless browser (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from phasedsl.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url="http://127.0.0.1:8765") as c:
        yield c


def test_the_page_and_its_files_come_from_the_package_with_no_cdn(client):
    r = client.get("/")
    assert r.status_code == 200 and "phasedsl workbench" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    # (another site could frame the page and have its visitor click it, clickjacking)
    assert "frame-ancestors 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
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


def test_a_path_or_method_no_route_takes_is_a_json_error(client):
    # Starlette answered these in plain text ("Not Found"), which the API's callers cannot read
    for method, path, status, said in (
            ("GET", "/api/pack/..%2F..%2Fetc%2Fpasswd", 404, "no such page or API route here"),
            ("POST", "/nope", 404, "no such page or API route here"),
            ("GET", "/api/phrase", 405, "this route takes POST only"),
            ("POST", "/api/packs", 405, "GET")):
        r = client.request(method, path)
        assert r.status_code == status and r.json()["exit"] == 2 and said in r.json()["error"]


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


def test_a_refused_move_is_a_400_and_never_told_as_made(client):
    # a draw from a pile that is not there was a 500 (an IndexError describing it), and a
    # refused move was added to the game's story before it was judged
    s = client.post("/api/play/new", json={"pack": "original", "players": 2}).json()
    before = s["said"]
    for move in ("draw pile 99", "discard R5", "hit R5 on ann 1", "lay R1 R1 R1 | R2 R2 R2"):
        r = client.post("/api/play/move", json={"id": s["id"], "move": move})
        assert r.status_code == 400 and r.json()["exit"] == 2, (move, r.text)
    s2 = client.post("/api/play/move", json={"id": s["id"], "move": "draw deck"}).json()
    told = s2["said"][len(before):] if s2["said"][:len(before)] == before else s2["said"]
    assert told and told[0].startswith("you drew"), s2["said"]
    assert not any(x.startswith(("you discarded R5", "you hit", "you laid")) for x in s2["said"])


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


def test_only_this_machines_own_page_is_answered(client):
    # any site's page could start minutes of work here (no Origin check), and a page that
    # renamed itself to 127.0.0.1 (DNS rebinding) could read the answers (no Host check)
    body = {"phrase": "1 set of 3"}
    for headers, says in (({"Origin": "http://evil.example"}, "not a page of another site"),
                          ({"Origin": "null"}, "not a page of another site"),
                          ({"Host": "evil.example"}, "not to 'evil.example'"),
                          ({"Host": "evil.example:8765"}, "not to 'evil.example'"),
                          # (an unclosed bracket was read as the address "::")
                          ({"Host": "[::1"}, "not to '[::1'"),
                          ({"Host": "[::1]x"}, "not to '[::1]x'"),
                          ({"Host": "::1"}, "not to '::1'"),
                          ({"Host": "localhost:x"}, "not to 'localhost:x'"),
                          ({"Host": ""}, "that name it in a Host header")):
        r = client.post("/api/phrase", json=body, headers=headers)
        assert r.status_code == 403 and says in r.json()["error"], (headers, r.text)
    for headers in ({}, {"Origin": "http://127.0.0.1:8765"}, {"Host": "localhost:8765",
                                                             "Origin": "http://localhost:8765"},
                    {"Host": "[::1]:9000"}, {"Host": "[::1]"}, {"Host": "127.0.0.1"},
                    {"Host": "LOCALHOST:8765",
                                             "Origin": "http://localhost:8765"}):
        assert client.post("/api/phrase", json=body, headers=headers).status_code == 200


def test_the_meld_checker_reads_a_hand_as_check_does_and_refuses_a_dice_pack(client):
    # W=R5 in a hand was read as a plain wild (check refuses it), an empty hand was "not
    # made", and a dice pack's faces were judged as cards
    for body, says in (({"phrase": "1 set of 3", "cards": "W=R5 B5 G5"}, "W=R5"),
                       ({"phrase": "1 set of 3", "cards": ""}, "give the cards of the hand"),
                       ({"phrase": "1 set of 3", "cards": "8 8 8", "pack": "dice"},
                        "dice is a Phase 10 Dice pack")):
        r = client.post("/api/check", json=body)
        assert r.status_code == 400 and says in r.json()["error"], (body, r.text)
    r = client.post("/api/dealt", json={"phrase": "1 set of 3", "pack": "dice"})
    assert r.status_code == 400 and "Phase 10 Dice pack" in r.json()["error"]


def test_work_waiting_its_turn_never_holds_up_a_quick_answer(client, monkeypatch):
    # six requests waiting for a turn to run took every thread of the default pool: a phrase
    # was answered only once they were
    from phasedsl.web import work

    held = threading.BoundedSemaphore(1)
    held.acquire()
    monkeypatch.setattr(work, "_RUNNING", held)  # (every turn taken)
    got: list[int] = []
    waiting = [threading.Thread(target=lambda: got.append(client.post(
        "/api/dealt", json={"phrase": "1 set of 3"}).status_code)) for _ in range(10)]
    for t in waiting:
        t.start()
    time.sleep(0.5)
    start = time.monotonic()
    r = client.post("/api/phrase", json={"phrase": "2 sets of 3"})
    took = time.monotonic() - start
    held.release()
    for t in waiting:
        t.join(60)
    assert r.status_code == 200 and took < 2, took
    assert got == [200] * 10


def test_a_body_is_read_as_strictly_as_a_batch_line(client):
    # NaN, Infinity and a key given twice were read (json.loads' defaults)
    for raw, says in (('{"phrase": NaN}', "NaN"), ('{"phrase": Infinity}', "Infinity"),
                      ('{"phrase": "1 set of 3", "phrase": "2 sets of 3"}', "appears twice")):
        r = client.post("/api/phrase", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "not usable JSON" in r.json()["error"] and \
            says in r.json()["error"] and "not a request" not in r.json()["error"], r.text


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_the_server_stops_within_two_seconds_with_a_slow_body_and_work_under_way(sig, tmp_path):
    # a client sending its body slowly held the stop for its 30 s, and a report under way
    # held the interpreter's exit for its thread; both end at once now
    import signal
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    pytest.importorskip("uvicorn")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "phasedsl", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "phasedsl serve:" in proc.stdout.readline()
        for _ in range(100):  # (the line is printed before the socket listens)
            try:
                slow = socket.create_connection(("127.0.0.1", port))
                break
            except ConnectionRefusedError:
                time.sleep(0.05)
        slow.sendall(b"POST /api/phrase HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99\r\n\r\n{")
        pack = (Path(__file__).parent.parent / "variants" / "twist.yaml").read_text()
        got: list[bytes] = []

        def report() -> None:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/report", method="POST",
                                         data=json.dumps({"yaml": pack, "games": 20}).encode())
            try:
                urllib.request.urlopen(req, timeout=30)
            except urllib.error.HTTPError as e:
                got.append(e.read())

        asker = threading.Thread(target=report)
        asker.start()
        time.sleep(1.0)
        start = time.monotonic()
        proc.send_signal(getattr(signal, sig))
        proc.wait(timeout=15)
        assert time.monotonic() - start < 2.5
        asker.join(5)
        assert got and json.loads(got[0]) == {"error": "this report: the server is stopping",
                                               "exit": 2}
        assert "Traceback" not in proc.stderr.read()
        slow.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_an_error_raised_in_works_child_is_said_not_a_500(client):
    # RulesError and ArgumentError did not survive the pipe from the child (pickled by their
    # message alone): the parent's unpickling raised TypeError, a 500 with a traceback logged
    pack = client.get("/api/pack/short-game-5").json()["yaml"]
    for world in (["a"], {}, 5):
        r = client.post("/api/report", json={"yaml": pack, "world": world, "games": 1})
        assert r.status_code == 400 and r.json()["exit"] == 2 and "expected" in r.json()["error"]
    from phasedsl.errors import PhaseDSLError
    from phasedsl.web.work import bounded

    with pytest.raises(PhaseDSLError, match="f: expected text, got function"):
        bounded(_fails_unpicklably, seconds=10, what="a failure")  # (said in its words)


def _fails_unpicklably() -> None:
    from phasedsl.errors import ArgumentError

    raise ArgumentError("f", "text", lambda: None)


def test_a_body_said_to_be_too_large_is_refused_at_once(server):
    # a Content-Length past the bound, with no body following, was waited for 30 s
    port = int(server.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        start = time.monotonic()
        s.sendall(b"POST /api/phrase HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Length: 99999999999\r\n\r\n{")
        got = b""
        while b"}" not in got:
            got += s.recv(4096) or b"}"
    assert time.monotonic() - start < 3
    assert got.startswith(b"HTTP/1.1 400") and b"a request holds at most 400,000 bytes" in got


def test_an_empty_host_is_refused_not_every_address(monkeypatch):
    # --host "" bound the socket to every address (printing http://:8010/), letting other
    # machines in unasked; a port in use is a clear error, exit 2
    from typer.testing import CliRunner

    from phasedsl.cli import app

    pytest.importorskip("uvicorn")
    for host in ("", " "):
        r = CliRunner().invoke(app, ["serve", "--host", host, "--port", "0"])
        assert r.exit_code == 2 and "--host" in r.output and "Traceback" not in r.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        r = CliRunner().invoke(app, ["serve", "--port", str(busy.getsockname()[1])])
        assert r.exit_code == 2 and "cannot listen on 127.0.0.1:" in r.output


def test_slow_clients_are_let_go_and_the_connections_open_bounded(monkeypatch):
    # uvicorn waited for a request's headers for ever: a few thousand clients sending them a
    # byte at a time used up the open files, and then no one was answered
    uvicorn = pytest.importorskip("uvicorn")
    from phasedsl.web import connection

    monkeypatch.setattr(connection, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(connection, "MAX_CONNECTIONS", 20)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                       log_level="warning", lifespan="off",
                                       http=connection.Connection))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        while not srv.started:
            time.sleep(0.05)
        slow = []
        for _ in range(25):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"POST /api/phrase HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(s)
        assert b"503 Service Unavailable" in slow[-1].recv(4096)  # (past the bound: at once)
        start = time.monotonic()
        assert b"408 Request Timeout" in slow[0].recv(4096)  # (too slow: let go)
        assert time.monotonic() - start < 3
        for s in slow:
            s.close()
        # a request kept alive is answered; its next one is held to the same time
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /api/packs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 200")
            s.sendall(b"GET /api/packs HTTP/1.1\r\n")
            got = b""
            while b"408" not in got:
                chunk = s.recv(65536)
                assert chunk, got[-200:]
                got += chunk
    finally:
        srv.should_exit = True
        thread.join(5)


def _long_report(text: str, world, games: int) -> dict:
    time.sleep(60)
    return {"html": ""}


def test_work_ends_when_its_client_goes_away(server, monkeypatch):
    # a page closed (or curl stopped) left its report or balance running in its child for up
    # to 180 s, holding one of the turns to run
    import multiprocessing

    from phasedsl.web import answers

    monkeypatch.setattr(answers, "report_work", _long_report)
    port = int(server.rsplit(":", 1)[1].strip("/"))
    for path, body in (("/api/report", {"yaml": "name: x\n", "games": 1}),
                       ("/api/balance", {"yaml": "name: x\n", "games": 1})):
        if path == "/api/balance":
            monkeypatch.setattr(answers, "balance_work", lambda *a, progress=None: _long_report(
                "", None, 1))
        raw = json.dumps(body).encode()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                      f"{len(raw)}\r\n\r\n".encode() + raw)
            for _ in range(100):
                if multiprocessing.active_children():
                    break
                time.sleep(0.05)
            assert multiprocessing.active_children(), path
            # (the child, forked from this process, holds this socket too: a close alone
            # would not end the connection)
            s.shutdown(socket.SHUT_RDWR)
        start = time.monotonic()
        while multiprocessing.active_children() and time.monotonic() - start < 5:
            time.sleep(0.1)
        assert not multiprocessing.active_children() and time.monotonic() - start < 3, path


def test_a_damaged_or_swollen_share_link_is_said_as_such(server, browser):
    # a damaged link was said as "TypeError: Failed to fetch" (a network fault, it read), and
    # a link unpacking to gigabytes was unpacked whole into the editor
    import base64
    import zlib

    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = deflate.compress(b"#" * 50_000_000) + deflate.flush()
    code = base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    page = browser.new_page()
    for fragment, says in (("AAAA", "the link is damaged or cut short"),
                           (code, "it unpacks to more than 800000 bytes")):
        page.goto(f"{server}#pack={fragment}")
        page.wait_for_selector("body[data-ready=yes]", timeout=30_000)
        text = page.input_value("#editor")
        assert text.startswith("# the link's pack could not be read") and says in text, text
        page.goto("about:blank")
    page.close()


def _naps_saying_its_pid(where: str) -> None:
    Path(where).write_text(str(os.getpid()))
    time.sleep(60)


def _serves_a_nap(where: str) -> None:
    from phasedsl.web.work import bounded

    bounded(_naps_saying_its_pid, where, seconds=60, what="a nap")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG: Linux")
def test_work_ends_when_the_server_is_killed(tmp_path):
    # a server killed (SIGKILL, out of memory) left its work's child running for minutes,
    # holding the server's listening socket: started again, the server found its port in use
    import multiprocessing
    import signal

    where = tmp_path / "pid"
    server = multiprocessing.get_context("fork").Process(target=_serves_a_nap,
                                                         args=(str(where),))
    server.start()
    for _ in range(200):
        if where.exists() and where.read_text():
            break
        time.sleep(0.05)
    child = int(where.read_text())
    os.kill(server.pid, signal.SIGKILL)
    server.join(5)

    def alive() -> bool:
        try:
            state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return state not in ("Z", "X")

    for _ in range(40):
        if not alive():
            break
        time.sleep(0.05)
    dead = not alive()
    if not dead:
        os.kill(child, signal.SIGKILL)
    assert dead


def test_two_moves_of_one_game_at_once_make_one_and_refuse_the_other():
    # (requests are answered in threads: a double click sent two moves on the same state)
    from phasedsl.errors import PhaseDSLError
    from phasedsl.web.playing import Games

    games = Games()
    s = games.new("original", 2, seed=7)
    lock = games.games[s["id"]]["lock"]
    with lock, pytest.raises(PhaseDSLError, match="being made"):  # a move under way
        games.move(s["id"], s["moves"][0])
    assert games.state(s["id"])["said"] == s["said"]  # nothing made
    after = games.move(s["id"], s["moves"][0])
    assert after["said"] != s["said"] and not lock.locked()
