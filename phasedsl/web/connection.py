"""``phasedsl serve``'s HTTP connections: uvicorn's HTTP/1.1 (h11), with a client's request
line and headers due within ``HEADER_SECONDS`` and at most ``MAX_CONNECTIONS`` open.

uvicorn waits for a request's headers for ever: clients sending them a byte at a time
(slowloris) each held a connection, and at the process's limit of open files the server
answered no one (and logged a traceback for each connection it could not take).  A client
too slow is answered 408 and let go; one past the bound is answered 503 at once.
"""

from __future__ import annotations

import asyncio
import json

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
# (a browser opens six connections to a server at most; file descriptors stay far from the
# usual limit of 1,024)
MAX_CONNECTIONS = 200


def _answer(status: str, error: str) -> bytes:
    body = json.dumps({"error": error, "exit": 2}).encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


class Connection(H11Protocol):
    """A connection whose client must send each request's headers within
    ``HEADER_SECONDS`` (of its opening, or of the answer before); refused past
    ``MAX_CONNECTIONS``."""

    headers_due: asyncio.TimerHandle | None = None
    timed: object = None  # (the request answered when the wait began: None, the first)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            transport.write(_answer("503 Service Unavailable", f"more than {MAX_CONNECTIONS} "
                                    "connections at once here; try again"))
            transport.close()
            return
        self._await_headers()

    def _await_headers(self) -> None:
        self.timed = self.cycle
        self.headers_due = self.loop.call_later(HEADER_SECONDS, self._headers_late)

    def _headers_late(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(_answer("408 Request Timeout", "the request's headers did "
                                         f"not come within {HEADER_SECONDS:g} s"))
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.headers_due is not None and self.cycle is not self.timed:  # (a request came)
            self.headers_due.cancel()
            self.headers_due = None

    def on_response_complete(self) -> None:
        if self.headers_due is None and not self.transport.is_closing():
            self._await_headers()  # (before the next request, which this call may begin)
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.headers_due is not None:
            self.headers_due.cancel()
        super().connection_lost(exc)
