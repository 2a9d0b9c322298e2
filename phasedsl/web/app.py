"""``phasedsl serve``'s web app (Starlette): one page and its JSON API.

Every route reads a JSON body (at most ``MAX_BODY`` bytes, within ``BODY_SECONDS``),
answers with ``answers``' function of it, and turns bad input into the CLI's JSON error
(``{"error", "exit": 2, ...}``, status 400), never a traceback.  Long work (balance) streams
its progress as lines of JSON.  No file is read but the page's own and the built-in packs.

The server is for the person at this machine: a request must name it by ``localhost`` or
an address (a page elsewhere that renames itself to one of ours, DNS rebinding, names its
own domain) and, where a browser says the page it comes from, come from this server's page
(another site's page cannot start work here, or read what it answers).  Work that waits
for a turn to run (``work.bounded``) waits in threads of its own, so that a few long
requests never hold up a phrase or a check.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import PhaseDSLError, error_json
from . import answers
from .playing import Games
from .work import asked_by, bounded, stopping

MAX_BODY = 400_000
BODY_SECONDS = 30.0
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}
# Threads for bounded work (most of them waiting their turn at ``work.bounded``'s limit),
# apart from the default ones the quick answers run in.
WAITING = 32


def _static(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


async def _body(request: Request) -> dict:
    said = request.headers.get("content-length", "")
    # (refused now, not waited for 30 s; a number of thousands of digits is past int())
    if said.isdecimal() and (len(said) > 12 or int(said) > MAX_BODY):
        raise PhaseDSLError(f"a request holds at most {MAX_BODY:,} bytes")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BODY_SECONDS
    read = asyncio.ensure_future(_read(request))
    try:
        # (a client sending its body slowly must not hold up the server's stop: the wait
        # looks up every 0.2 s)
        while not (await asyncio.wait({read}, timeout=0.2))[0]:
            if stopping():
                raise PhaseDSLError("the server is stopping")
            if loop.time() >= deadline:
                raise PhaseDSLError(f"the request's body did not come within "
                                    f"{BODY_SECONDS:g} s")
        raw = read.result()
    except ClientDisconnect:  # (no one to answer: said to no one, never a traceback)
        raise PhaseDSLError("the request ended before its body did") from None
    finally:
        read.cancel()
    from ..api import STRICT_JSON

    try:
        body = STRICT_JSON.decode(raw.decode("utf-8") or "{}")
    except PhaseDSLError as e:  # (NaN, a key twice, a number past holding: said as such)
        why = str(e).removeprefix("not a request: ").removeprefix("not JSON: ")
        raise PhaseDSLError(f"the request is not usable JSON: {why}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise PhaseDSLError("the request is not JSON") from None
    if not isinstance(body, dict):
        raise PhaseDSLError("the request is a JSON object")
    return body


async def _read(request: Request) -> bytes:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise PhaseDSLError(f"a request holds at most {MAX_BODY:,} bytes")
    return raw


def _host_port(host: str) -> tuple[str, str | None]:
    """A Host header's name and port ("" when none is given; None: no name and port, as
    ``[::1`` with its bracket unclosed or ``localhost:x``)."""
    if host.startswith("["):
        close = host.find("]")
        if close < 0:
            return host, None
        name, rest = host[1:close], host[close + 1:]
    elif host.count(":") > 1:  # an IPv6 address is written in brackets
        return host, None
    else:
        name, colon, port = host.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and rest[1:].isdecimal() and rest[1:].isascii()):
        return name, None
    return name, rest[1:]


def _foreign(host: str, origin: str | None) -> str | None:
    """Why a request is not from this machine's own page (None: it is)."""
    if not host:  # (HTTP/1.0 may send none)
        return ("this server answers requests that name it in a Host header (localhost or "
                "an address)")
    name, port = _host_port(host)
    if port is None:
        return f"this server answers requests to localhost or an address, not to {host[:60]!r}"
    if name.lower() != "localhost":
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return (f"this server answers requests to localhost or an address, not to "
                    f"{name[:60]!r}")
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        return "this server answers its own page only, not a page of another site"
    return None


class _OwnPage:
    """ASGI middleware: ``_foreign`` requests refused (403) before any route."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            why = _foreign(headers.get(b"host", b"").decode("latin-1"),
                           None if origin is None else origin.decode("latin-1"))
            if why is not None:
                await JSONResponse({"error": why, "exit": 2}, status_code=403)(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)


def _bad(e: Exception) -> JSONResponse:
    return JSONResponse(error_json(e), status_code=400)


async def _no_route(request: Request, exc: HTTPException) -> JSONResponse:
    # (Starlette's own answer to a path or method no route takes is plain text; the API's
    # callers read every answer as JSON)
    allow = (exc.headers or {}).get("Allow", "")
    said = {404: "no such page or API route here",
            405: f"this route takes {allow or 'another method'} only"}
    return JSONResponse({"error": said.get(exc.status_code, exc.detail), "exit": 2},
                        status_code=exc.status_code, headers=exc.headers)


def _route(func, pool: ThreadPoolExecutor | None = None):
    """A POST route answering ``func(body)`` in a thread (the answers are CPU work): of
    ``pool`` for work that may wait its turn, else a default one."""
    async def handler(request: Request) -> Response:
        gone = threading.Event()

        def answer(body: dict):
            with asked_by(gone):
                return func(body)

        try:
            body = await _body(request)
            got = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(
                pool, answer, body))
            # (a client gone, a page closed, ends the work it started: looked up every 0.5 s)
            while not (await asyncio.wait({got}, timeout=0.5))[0]:
                if await request.is_disconnected():
                    gone.set()
            got = got.result()
        except PhaseDSLError as e:
            return _bad(e)
        return JSONResponse(got)

    return handler


def create_app() -> Starlette:
    games = Games()
    waiting = ThreadPoolExecutor(WAITING, thread_name_prefix="phasedsl-work")

    async def page(request: Request) -> Response:
        # (frame-ancestors: another site framing the page could have its visitor click its
        # buttons, starting work here, clickjacking)
        return HTMLResponse(_static("index.html"), headers={
            "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                       "img-src 'self' data:; frame-src 'self' data: blob:; "
                                       "frame-ancestors 'self'",
            "X-Frame-Options": "SAMEORIGIN", "X-Content-Type-Options": "nosniff"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return JSONResponse({"error": "not found", "exit": 2}, status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    async def balance(request: Request) -> Response:
        """NDJSON: {"progress": [done, total]} lines, then {"result": ...} or {"error"...}."""
        try:
            body = await _body(request)
            text = answers.text_of(body.get("yaml"), "pack")
            games_n = answers.games_of(body)
            world = body.get("world")
        except PhaseDSLError as e:
            return _bad(e)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def tick(done: int, total: int) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, {"progress": [done, total]})

        gone = threading.Event()

        def work() -> None:
            try:
                with asked_by(gone):
                    got = bounded(answers.balance_work, text, world, games_n,
                                  seconds=answers.BALANCE_SECONDS, what="this balance",
                                  progress=tick)
            except PhaseDSLError as e:
                got = error_json(e)
            loop.call_soon_threadsafe(queue.put_nowait, {"done": got})

        async def lines():
            task = asyncio.ensure_future(loop.run_in_executor(waiting, work))
            try:
                while True:
                    item = await queue.get()
                    if "done" in item:
                        yield json.dumps(item["done"]) + "\n"
                        break
                    yield json.dumps(item) + "\n"
                await task
            finally:  # (closed early when the client goes away: its work ends too)
                gone.set()

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    def report(body: dict) -> dict:
        text = answers.text_of(body.get("yaml"), "pack")
        return bounded(answers.report_work, text, body.get("world"),
                       min(answers.games_of(body), 20), seconds=answers.REPORT_SECONDS,
                       what="this report")

    async def pack_list(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(answers.packs))

    async def pack_text(request: Request) -> Response:
        try:
            return JSONResponse(answers.builtin_text(request.path_params["name"]))
        except PhaseDSLError as e:
            return _bad(e)

    def dice(body: dict) -> dict:
        name = answers.dice_pack(body.get("pack")).name
        return bounded(answers.dice_table_work, name, seconds=answers.DICE_SECONDS,
                       what="the dice tables")

    def hold(body: dict) -> dict:
        name = answers.dice_pack(body.get("pack")).name
        return bounded(answers.hold_work, name, body.get("phase"), body.get("faces"),
                       body.get("rolls_left", 2), seconds=answers.DICE_SECONDS,
                       what="the hold advice")

    routes = [
        Route("/", page),
        Route("/api/dice", _route(dice, waiting), methods=["POST"]),
        Route("/api/hold", _route(hold, waiting), methods=["POST"]),
        Route("/api/board", _route(answers.board), methods=["POST"]),
        Route("/api/packs", pack_list),
        Route("/api/pack/{name}", pack_text),
        Route("/static/{name}", static),
        Route("/api/phrase", _route(answers.phrase), methods=["POST"]),
        Route("/api/dealt", _route(answers.dealt, waiting), methods=["POST"]),
        Route("/api/check", _route(answers.check), methods=["POST"]),
        Route("/api/lint", _route(lambda b: bounded(answers.lint, b, seconds=answers.LINT_SECONDS,
                                                    what="linting this pack"), waiting),
              methods=["POST"]),
        Route("/api/balance", balance, methods=["POST"]),
        Route("/api/report", _route(report, waiting), methods=["POST"]),
        Route("/api/play/new", _route(lambda b: games.new(b.get("pack"), b.get("players", 3))),
              methods=["POST"]),
        Route("/api/play/move", _route(lambda b: games.move(str(b.get("id")), b.get("move"))),
              methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(_OwnPage)],
                     exception_handlers={HTTPException: _no_route})
