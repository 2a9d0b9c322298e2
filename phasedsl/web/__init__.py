"""``phasedsl serve``'s web workbench: the Starlette app (``app``), what each request
answers (``answers``, ``playing``: plain functions over the CLI's own core), the bounds on
its work (``work``) and on its connections (``connection``); the page itself in
``static/`` (no CDN: it works offline).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "Connection": "connection",
    "create_app": "app",
    "stop_work": "work",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
