"""A bot that is another program: JSON lines over its stdin and stdout (docs/bot-protocol.md).

``ExternalBot`` starts the program (once per seat and game, no shell, in a process group
of its own) the first time it is asked, writes ``hello``, then one ``move`` request per
decision, and reads one answer line back.  Anything but a usable answer in time (the
program exited, wrote something that is not an answer, named an illegal move, took longer
than the timeout) raises ``Forfeit``: the caller ends that game for that seat and goes on.
``close`` ends the program and everything it started; on Linux the program is also killed
by the kernel should this process die without a word (a worker killed from outside).

The program's stderr is read beside its answers and kept only as its last line, which a
forfeit's message quotes: a chatty bot never floods the terminal, and never blocks on a
full pipe.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Sequence

from ..errors import PhaseDSLError, printable
from ..game import moves as mv
from ..game.engine import phase_rules
from ..game.state import Table
from ..game.view import PlayerView
from ..model.cards import Card
from ..packs.pack import board_document
from ..system.childproc import end, spawn

DEFAULT_TIMEOUT = 5.0
# Added to the first answer's time: the program starts (an interpreter loads) meanwhile.
STARTUP = 2.0
# An answer line longer than this is not an answer (a program writing without end).
MAX_ANSWER = 1_000_000
# Kept of the program's stderr, to quote in a forfeit's message.
STDERR_TAIL = 4096
# How long a program that played its game to the end may take to exit by itself.
EXIT_GRACE = 1.0

PROTOCOL = 1


class Forfeit(Exception):
    """A bot lost its game by failing the protocol: ``reason`` is one of ``crashed``,
    ``timeout``, ``malformed``, ``illegal``; ``message`` says what happened."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason, message)
        self.reason = reason
        self.message = message

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def table_json(table: Table) -> dict:
    """The pack's rules as a bot reads them: the phases in play and the rules as written."""
    world = table.pack.world(table.world)
    return {"pack": table.pack.name, "world": table.world,
            "hand_size": table.rules.hand_size,
            "phase_order": table.house.phase_order,
            "sequence": list(table.sequence),
            "phases": [{"number": e.number, "phase": str(e.phase)} for e in world.phases],
            "settings": world.settings,
            **({"board": board_document(table.board)} if table.board is not None else {})}


def view_json(v: PlayerView, rules: dict | None = None) -> dict:
    """What the player sees, as JSON (``rules``: ``table_json`` of the table, if known)."""
    return {"me": v.me, "hand": _cards(v.hand), "save": _cards(v.save),
            "laid": [g.to_json() for g in v.laid], "phase": v.phase, "done": list(v.done),
            "total": v.total,
            "players": [{"name": o.name, "hand_size": o.hand_size,
                         "laid": [g.to_json() for g in o.laid], "phase": o.phase,
                         "done": list(o.done), "total": o.total, "save_size": o.save_size,
                         "skipped": o.skipped,
                         **({"space": o.space} if v.table.board is not None else {})}
                        for o in v.players],
            "discard": _cards(v.discard), "draw_pile": v.draw_pile, "step": v.step,
            "dealer": v.dealer, "hands_played": v.hands_played,
            **({"piles": [_cards(p) for p in v.piles]} if v.table.board is not None else {}),
            **({"choices": [{"choice": c, "phase": str(phase_rules(v.table, n)[0]),
                             "twist": c == "twist"} for c, n in v.options]}
               if v.options else {}),
            "rules": rules if rules is not None else table_json(v.table)}


def read_answer(line: bytes, moves: Sequence[mv.Move], player: str, table: Table) -> mv.Move:
    """The move an answer line names: ``{"move": K}`` or ``{"move": {event}}``; raises
    ``Forfeit`` (malformed) for anything else.  Whether an event is legal is the referee's
    question, asked when the move is applied."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        raise Forfeit("malformed", f"the answer is not JSON: {_shown(line)}") from None
    if not isinstance(obj, dict) or "move" not in obj:
        raise Forfeit("malformed", f"the answer is not {{\"move\": ...}}: {_shown(line)}")
    pick = obj["move"]
    if isinstance(pick, int) and not isinstance(pick, bool):
        if not 0 <= pick < len(moves):
            raise Forfeit("malformed", f"move {pick} is not an index of the {len(moves)} "
                                       "moves offered")
        return moves[pick]
    if not isinstance(pick, dict):
        raise Forfeit("malformed", "\"move\" is an index into \"moves\" or a game-log event, "
                                   f"not {_shown(json.dumps(pick))}")
    event = {"player": player, **pick}
    if event.get("type") in ("deal", "stop", "pawns"):
        raise Forfeit("malformed", f"a {event['type']!r} event is no player's move")
    try:
        move = mv.move_from_log(event, table.deck)
    except PhaseDSLError as e:  # a missing field, a bad card
        raise Forfeit("malformed", f"the event cannot be read: {e}") from None
    except (TypeError, ValueError, KeyError, AttributeError):  # a shape no log would have
        raise Forfeit("malformed", f"the event cannot be read: {_shown(line)}") from None
    if isinstance(move, mv.Draw) and move.source == "deck" and move.card is not None:
        raise Forfeit("illegal", "a draw from the deck cannot name its card (no player "
                                 "sees it)")
    return move


def _shown(data: bytes | str, limit: int = 80) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = printable(text.strip())
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


class ExternalBot:
    """``choose(view)`` asks the program ``argv``; ``finish(result)`` tells it the game is
    over; ``close()`` ends it.  Raises ``Forfeit`` for every failure of the program."""

    forfeits = True  # an illegal move it names loses its game (it is not built in)

    def __init__(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.failed = False
        self._out = b""
        self._err = b""
        self._err_closed = False
        self._rules: dict | None = None
        self._sel: selectors.BaseSelector | None = None

    # ------------------------------------------------------------------ the process

    def _start(self, hello: dict) -> None:
        try:
            self.proc = spawn(self.argv, bufsize=0)
        except OSError as e:
            self.failed = True
            raise Forfeit("crashed", f"cannot start {self.argv[0]!r}: "
                                     f"{e.strerror or e}") from None
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(f.fileno(), False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self._sel.register(self.proc.stderr, selectors.EVENT_READ)
        self._send(hello, time.monotonic() + self.timeout + STARTUP)

    def _exited(self, closed: str) -> str:
        assert self.proc is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(0.2)
        code = self.proc.returncode
        # (a program still running says only which pipe it closed: "has not exited" alone
        # told nothing of what went wrong)
        how = (f"closed its {closed} and has not exited" if code is None else
               f"was killed by signal {-code}" if code < 0 else f"exited with code {code}")
        tail = self._err.decode("utf-8", "replace").strip().splitlines()
        return f"the program {how}" + (f"; its last stderr line: {_shown(tail[-1])}"
                                       if tail else "")

    def _fail(self, reason: str, message: str) -> Forfeit:
        self.failed = True
        return Forfeit(reason, message)

    def _drain_stderr(self) -> None:
        assert self.proc is not None and self._sel is not None
        if self._err_closed:
            return
        try:
            while chunk := self.proc.stderr.read(65536):
                self._err = (self._err + chunk)[-STDERR_TAIL:]
        except OSError:
            chunk = b""
        if chunk == b"":  # closed: no more waiting on it (it would be ready forever)
            self._err_closed = True
            self._sel.unregister(self.proc.stderr)

    def _send(self, obj: dict, deadline: float) -> None:
        assert self.proc is not None and self._sel is not None
        data = (json.dumps(obj) + "\n").encode()
        fd = self.proc.stdin.fileno()
        while data:
            try:
                data = data[os.write(fd, data):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                self._drain_stderr()
                raise self._fail("crashed", self._exited("stdin")) from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail("timeout", f"the program read no request for "
                                            f"{self.timeout:g} s")
            # wait for room in the pipe, reading the program's stderr meanwhile (it may be
            # blocked writing there)
            writer = selectors.DefaultSelector()
            try:
                writer.register(fd, selectors.EVENT_WRITE)
                if not self._err_closed:
                    writer.register(self.proc.stderr, selectors.EVENT_READ)
                writer.select(min(left, 0.5))
            finally:
                writer.close()
            self._drain_stderr()

    def _receive(self, deadline: float) -> bytes:
        assert self.proc is not None and self._sel is not None
        while b"\n" not in self._out:
            if len(self._out) > MAX_ANSWER:
                raise self._fail("malformed", f"an answer line longer than {MAX_ANSWER:,} "
                                              "bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail("timeout", f"no answer within {self.timeout:g} s")
            for key, _ in self._sel.select(left):
                if key.fileobj is self.proc.stderr:
                    self._drain_stderr()
                    continue
                try:
                    chunk = self.proc.stdout.read(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if chunk is None:  # (not ready after all)
                    continue
                if not chunk:  # the program closed its stdout: it has ended
                    self._drain_stderr()
                    raise self._fail("crashed", self._exited("stdout"))
                self._out += chunk
        line, self._out = self._out.split(b"\n", 1)
        return line

    # ------------------------------------------------------------------ the protocol

    def ask(self, hello: Callable[[], dict], request: Callable[[], dict]) -> bytes:
        """Send ``request()`` (``hello()`` first, as the program starts) and return the
        answer line; a Forfeit for any failure."""
        if self.failed:
            raise Forfeit("crashed", "the program failed earlier in this game")
        first = self.proc is None
        if first:
            self._start(hello())
        deadline = time.monotonic() + self.timeout + (STARTUP if first else 0.0)
        self._out = b""  # (lines the program wrote unasked are not answers to this)
        self._send(request(), deadline)
        return self._receive(deadline)

    def choose(self, v: PlayerView) -> mv.Move:
        def hello() -> dict:
            self._rules = table_json(v.table)
            table = v.table
            return {"type": "hello", "protocol": PROTOCOL, "player": v.me,
                    "pack": table.pack.name, "world": table.world,
                    "players": list(table.players), "seat": table.index(v.me),
                    "rules": self._rules}

        moves = v.moves
        line = self.ask(hello, lambda: {"type": "move", "player": v.me,
                                        "view": view_json(v, self._rules),
                                        "moves": [m.to_log() for m in moves]})
        try:
            return read_answer(line, moves, v.me, v.table)
        except Forfeit:
            self.failed = True
            raise

    def keep(self, g) -> tuple | None:
        """A Phase 10 Dice decision (``dice.bots``' interface): the faces to keep before
        the next roll, or None to score.  docs/bot-protocol.md, "Phase 10 Dice"."""
        from ..dice import parse_face

        left = g.dice.rolls - g.rolls
        if left <= 0:
            return None
        def hello() -> dict:
            return {"type": "hello", "protocol": PROTOCOL, "game": "dice", "player": g.player,
                    "players": list(g.players), "seat": g.players.index(g.player),
                    "dice": [{"name": k.name, "count": k.count,
                              "faces": [str(f) for f in k.faces]} for k in g.dice.kinds],
                    "rolls": g.dice.rolls, "phases": [str(p) for p in g.phases]}

        def request() -> dict:
            return {"type": "roll", "player": g.player, "phase": g.place[g.turn] + 1,
                    "showing": [str(f) for f in g.showing], "rolls_left": left,
                    "totals": dict(zip(g.players, g.totals, strict=True)),
                    "phases_made": dict(zip(g.players, g.place, strict=True))}

        line = self.ask(hello, request)
        try:
            ans = json.loads(line)
        except (ValueError, RecursionError):
            raise self._fail("malformed", f"not JSON: {_shown(line)}") from None
        if not isinstance(ans, dict) or ("keep" in ans) == ("score" in ans):
            raise self._fail("malformed", "answer {\"keep\": [faces]} or {\"score\": true}, "
                                          f"not {_shown(line)}")
        if "score" in ans:
            if ans["score"] is not True:
                raise self._fail("malformed", f"\"score\" is true, not {_shown(line)}")
            return None
        faces = ans["keep"]
        if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
            raise self._fail("malformed", f"\"keep\" is a list of faces, not {_shown(line)}")
        try:
            kept = tuple(parse_face(f, g.rules.deck) for f in faces)
        except PhaseDSLError as e:
            raise self._fail("malformed", str(e)) from None
        extra = Counter(kept) - Counter(g.showing)
        if extra:
            raise self._fail("illegal", "kept dice must be showing: "
                                        f"{' '.join(str(f) for f in sorted(extra.elements()))}")
        return kept

    def finish(self, result: dict) -> None:
        """The last line: the game is over (``result``: winner, scores, forfeit)."""
        if self.proc is None or self.failed:
            return
        with contextlib.suppress(Forfeit):
            self._send({"type": "over", **result}, time.monotonic() + EXIT_GRACE)

    def close(self, wait: bool = True) -> None:
        """End the program and all it started (its process group), and reap it; ``wait``:
        give a program that played its game to the end a moment to exit by itself."""
        proc = self.proc
        if proc is None:
            return
        try:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            if wait and not self.failed:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(EXIT_GRACE)
        finally:  # (also when Ctrl-C comes during that moment)
            end(proc)
            if self._sel is not None:
                self._sel.close()
                self._sel = None
            self.proc = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close(wait=False)
