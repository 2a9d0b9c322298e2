"""``phasedsl serve``: the workbench in a browser, on this machine."""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import PhaseDSLError


def serve(
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, metavar="N",
                                      help="The port to listen on (0: any free one).")] = 8010,
    host: Annotated[str, typer.Option(
        "--host", metavar="ADDRESS",
        help="The address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets "
             "other machines in, with no password, by this machine's address: a request "
             "naming it by another name is refused).")] = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the default "
                                                              "browser.")] = False,
) -> None:
    """Start a local web workbench for authors: a phrase box, a meld checker, a pack editor
    that lints as you type, balance with a button that applies its proposed order, the
    report, a game against bots, and links that carry a pack in their fragment.

    It reads no file but its own page and the built-in packs, bounds the work of every
    request (a balance or report that would take minutes is refused with the reason), and
    answers bad input with the command line's errors. Ctrl-C stops it.

    Examples:

        phasedsl serve --open

        phasedsl serve --port 9000
    """
    import importlib.util

    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec(
            "starlette") is None:
        raise PhaseDSLError("serve needs starlette and uvicorn: pip install 'phasedsl[serve]'")
    if not host.strip():  # (bound as given, "" is every address: other machines let in)
        raise PhaseDSLError("--host: give an address to listen on (127.0.0.1: this machine "
                            "only; 0.0.0.0: every address)")
    import socket

    import uvicorn

    from ..web import Connection, create_app, stop_work

    try:  # (a port in use is said now, as bad input, not as a server log)
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        raise PhaseDSLError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    port = sock.getsockname()[1]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    typer.echo(f"phasedsl serve: {url} (Ctrl-C stops it)")
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, (url,)).start()
    # (a client sending its body slowly kept the server from stopping until it went, 30 s,
    # and work under way kept the interpreter's exit waiting for its thread, up to a
    # report's 180 s: both end within a poll of Ctrl-C or SIGTERM; the grace is a backstop)
    # (Connection: a client's headers are due within seconds, the connections open bounded)
    config = uvicorn.Config(create_app(), log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=2, http=Connection)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            stop_work()  # (now, not when the connections have closed: they wait on it)
            super().handle_exit(sig, frame)

    server = Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        stop_work()
