"""``phasedsl serve``'s web app (Starlette): one page and its JSON API.

Every route reads a JSON body (at most ``MAX_BODY`` bytes), answers with ``answers``'
function of it, and turns bad input into the CLI's JSON error (``{"error", "exit": 2,
...}``, status 400), never a traceback.  Long work (balance) streams its progress as
lines of JSON.  No file is read but the page's own and the built-in packs.
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import PhaseDSLError, error_json
from . import answers
from .playing import Games
from .work import bounded

MAX_BODY = 400_000
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}


def _static(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


async def _body(request: Request) -> dict:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise PhaseDSLError(f"a request holds at most {MAX_BODY:,} bytes")
    try:
        body = json.loads(raw.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise PhaseDSLError("the request is not JSON") from None
    if not isinstance(body, dict):
        raise PhaseDSLError("the request is a JSON object")
    return body


def _bad(e: Exception) -> JSONResponse:
    return JSONResponse(error_json(e), status_code=400)


def _route(func):
    """A POST route answering ``func(body)`` (in a thread: the answers are CPU work)."""
    async def handler(request: Request) -> Response:
        try:
            body = await _body(request)
            got = await asyncio.to_thread(func, body)
        except PhaseDSLError as e:
            return _bad(e)
        return JSONResponse(got)

    return handler


def create_app() -> Starlette:
    games = Games()

    async def page(request: Request) -> Response:
        return HTMLResponse(_static("index.html"), headers={
            "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                       "img-src 'self' data:; frame-src 'self' data: blob:",
            "X-Content-Type-Options": "nosniff"})

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

        def work() -> None:
            try:
                got = bounded(answers.balance_work, text, world, games_n,
                              seconds=answers.BALANCE_SECONDS, what="this balance",
                              progress=tick)
            except PhaseDSLError as e:
                got = error_json(e)
            loop.call_soon_threadsafe(queue.put_nowait, {"done": got})

        async def lines():
            task = asyncio.create_task(asyncio.to_thread(work))
            while True:
                item = await queue.get()
                if "done" in item:
                    yield json.dumps(item["done"]) + "\n"
                    break
                yield json.dumps(item) + "\n"
            await task

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
        Route("/api/dice", _route(dice), methods=["POST"]),
        Route("/api/hold", _route(hold), methods=["POST"]),
        Route("/api/board", _route(answers.board), methods=["POST"]),
        Route("/api/packs", pack_list),
        Route("/api/pack/{name}", pack_text),
        Route("/static/{name}", static),
        Route("/api/phrase", _route(answers.phrase), methods=["POST"]),
        Route("/api/dealt", _route(answers.dealt), methods=["POST"]),
        Route("/api/check", _route(answers.check), methods=["POST"]),
        Route("/api/lint", _route(lambda b: bounded(answers.lint, b, seconds=answers.LINT_SECONDS,
                                                    what="linting this pack")),
              methods=["POST"]),
        Route("/api/balance", balance, methods=["POST"]),
        Route("/api/report", _route(report), methods=["POST"]),
        Route("/api/play/new", _route(lambda b: games.new(b.get("pack"), b.get("players", 3))),
              methods=["POST"]),
        Route("/api/play/move", _route(lambda b: games.move(str(b.get("id")), b.get("move"))),
              methods=["POST"]),
    ]
    return Starlette(routes=routes)
