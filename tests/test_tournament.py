"""Issue 18: bots in any language (``--bot cmd:``, ``module:``) and ``phasedsl tournament``.

The failing bots are small Python programs written here; each writes its pid (and its
children's) to a file as it starts, so that a test can see that no process outlived its
game.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.simulate import play_game, simulate, summarize
from phasedsl.game import Game, view
from phasedsl.game.log import replay
from phasedsl.players.botspec import BotSpecError, parse_bot
from phasedsl.players.extbot import Forfeit, read_answer, view_json
from phasedsl.players.tournament import entry_names, line_ups, play_tournament, tournament

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "bot.py"
PACK = "short-game-5"  # short games: every bot process started here costs a few tens of ms

runner = CliRunner()


def cmd(*words: object) -> str:
    return "cmd:" + shlex.join([sys.executable, *map(str, words)])


def alive(pid: int) -> bool:
    """A process that still runs (a zombie, dead but not yet reaped by its new parent, is
    not running)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def assert_all_gone(path: Path, at_least: int = 1) -> None:
    started = pids(path)
    assert len(started) >= at_least, started
    deadline = time.monotonic() + 5
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in started if alive(p)] == []


BAD_BOT = textwrap.dedent('''
    import json, os, sys, time
    mode, pidfile = sys.argv[1], sys.argv[2]
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\\n")
    if mode == "crash":
        sys.stderr.write("Traceback (most recent call last):\\nRuntimeError: boom\\n")
        sys.exit(3)
    if mode == "stubborn":
        # ignores the end of its input and SIGTERM, and starts a child that does too
        import signal
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if os.fork() == 0:
            with open(pidfile, "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(1000)
            os._exit(0)
    if mode == "chatty":
        sys.stderr.write("x" * 300_000 + "\\n")  # more than a pipe holds
        sys.stderr.flush()
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] != "move":
            continue
        if mode == "garbage":
            print("I pick the red one", flush=True)
        elif mode == "illegal":
            # discarding before drawing
            print(json.dumps({"move": {"type": "discard", "card": req["view"]["hand"][0]}}),
                  flush=True)
        elif mode == "index":
            print(json.dumps({"move": len(req["moves"])}), flush=True)
        elif mode == "silent":
            time.sleep(1000)
        else:  # chatty, stubborn, first: the first move offered
            print(json.dumps({"move": 0}), flush=True)
    if mode == "stubborn":
        time.sleep(1000)
''')


@pytest.fixture
def bad_bot(tmp_path):
    script = tmp_path / "bad_bot.py"
    script.write_text(BAD_BOT)
    return script


# --------------------------------------------------------------------------- the example bot


@pytest.mark.parametrize(("pack", "players"), [("original", 2), ("masters", 3),
                                             ("dealers-choice", 3)])
def test_the_example_bot_plays_whole_games(pack, players):
    # whole games with the example program in every seat (Masters: declared phases and the
    # save pile; dealer's choice: giving the up-card), every game to its end
    records = simulate(pack, players, 2, cmd(EXAMPLE), seed=5, jobs=1, max_moves=20_000)
    for rec in records:
        assert rec.forfeit is None and not rec.capped and not rec.stalled
        assert rec.winner is not None and rec.hands >= 10


def test_the_example_bot_plays_a_tournament():
    result = tournament(PACK, [cmd(EXAMPLE), "greedy"], deals=2, seed=3)
    assert result["games"] == 4 and result["forfeited"] == []
    assert sum(r["wins"] for r in result["results"].values()) == 4
    assert all(r["finished"] == 4 for r in result["results"].values())


def test_the_example_bot_reads_the_protocol_as_documented():
    # the example reads only what docs/bot-protocol.md promises: the view's keys
    game = Game.new("original", ["ann", "bob"], seed=7)
    v = view(game.state, "ann")
    data = view_json(v)
    assert set(data) == {"me", "hand", "save", "laid", "phase", "done", "total", "players",
                         "discard", "draw_pile", "step", "dealer", "hands_played", "rules"}
    assert data["hand"] == [str(c) for c in v.hand] and len(data["players"]) == 2
    assert data["rules"]["phases"][0] == {"number": 1, "phase": "2 sets of 3"}
    json.dumps(data)  # plain JSON
    protocol = (ROOT / "docs" / "bot-protocol.md").read_text()
    for key in data:
        assert f"`{key}`" in protocol, key


# --------------------------------------------------------------------------- failures


@pytest.mark.parametrize(("mode", "reason", "says"), [
    ("crash", "crashed", "exited with code 3; its last stderr line: 'RuntimeError: boom'"),
    ("garbage", "malformed", "not JSON"),
    ("illegal", "illegal", "[must_draw_first]"),
    ("index", "malformed", "is not an index"),
    ("silent", "timeout", "no answer within 0.3 s"),
])
def test_a_failing_bot_forfeits_and_the_run_goes_on(bad_bot, tmp_path, mode, reason, says):
    pidfile = tmp_path / "pids"
    spec = parse_bot(cmd(bad_bot, mode, pidfile), timeout=0.3)
    started = time.monotonic()
    result = tournament(PACK, [spec, "greedy"], deals=2, seed=1)
    assert time.monotonic() - started < 60
    bad, good = result["results"].values()
    # every game was played (one per seat and deal), each lost by the failing bot
    assert result["games"] == 4 and bad["games"] == 4
    assert bad["forfeits"] == 4 and bad["wins"] == 0 and good["wins"] == 4
    assert len(result["forfeited"]) == 4
    for f in result["forfeited"]:
        assert f["reason"] == reason and says in f["message"], f
        assert f["bot"] == str(spec)
    assert_all_gone(pidfile, at_least=4)


def test_a_bot_that_ignores_its_end_and_its_children_are_killed(bad_bot, tmp_path):
    pidfile = tmp_path / "pids"
    result = tournament(PACK, [cmd(bad_bot, "stubborn", pidfile), "greedy"], deals=1)
    assert result["forfeited"] == [] and result["games"] == 2
    assert_all_gone(pidfile, at_least=4)  # two programs and their two children


def test_a_chatty_bot_neither_blocks_nor_floods(bad_bot, tmp_path, capfd):
    pidfile = tmp_path / "pids"
    result = tournament(PACK, [cmd(bad_bot, "chatty", pidfile), "greedy"], deals=1)
    assert result["forfeited"] == []
    out, err = capfd.readouterr()
    assert "xxxx" not in out + err
    assert_all_gone(pidfile, at_least=2)


def test_a_program_that_does_not_exist_is_refused_before_any_game():
    with pytest.raises(BotSpecError, match="no program 'no-such-bot-program' on the PATH"):
        parse_bot("cmd:no-such-bot-program --fast")
    with pytest.raises(BotSpecError, match="needs a command"):
        parse_bot("cmd:   ")
    with pytest.raises(BotSpecError, match="closing quotation"):
        parse_bot("cmd:python3 'bot.py")
    with pytest.raises(BotSpecError, match="unknown bot 'clever'"):
        parse_bot("clever")


def test_the_log_of_a_forfeited_game_says_so_and_replays(bad_bot, tmp_path):
    pidfile = tmp_path / "pids"
    spec = parse_bot(cmd(bad_bot, "illegal", pidfile))
    pack = Game.new(PACK, ["a", "b"]).state.table.pack
    rec = play_game(pack, 2, ["greedy", spec], seed=2, keep_log=True)
    assert rec.forfeit is not None and rec.forfeit.seat == 1 and rec.winner == 0
    header = json.loads(rec.log[0])
    assert header["forfeit"]["player"] == "bob" and header["forfeit"]["reason"] == "illegal"
    report = replay(list(rec.log))
    assert report.legal and report.winner is None
    summary = summarize([rec], 2)
    assert summary["finished"] == 0 and summary["forfeited"][0]["reason"] == "illegal"


def test_answers_are_read_strictly():
    game = Game.new("original", ["ann", "bob"], seed=7)
    v = view(game.state, "ann")
    table = game.state.table
    assert read_answer(b'{"move": 1}', v.moves, "ann", table) == v.moves[1]
    # an event, with or without the player
    move = read_answer(b'{"move": {"type": "draw", "from": "deck"}}', v.moves, "ann", table)
    assert move == v.moves[0]
    for line, reason in [(b'{"move": true}', "malformed"), (b'{"move": -1}', "malformed"),
                         (b'[0]', "malformed"), (b'{"mvoe": 0}', "malformed"),
                         (b'{"move": {"type": "deal", "hands": {}, "up": "R1"}}', "malformed"),
                         (b'{"move": {"type": "draw", "from": "deck", "card": "W"}}', "illegal"),
                         (b'{"move": {"type": "discard", "card": "X9"}}', "malformed")]:
        with pytest.raises(Forfeit) as e:
            read_answer(line, v.moves, "ann", table)
        assert e.value.reason == reason, line


# --------------------------------------------------------------------------- module: bots


@pytest.fixture
def bot_module(tmp_path, monkeypatch):
    (tmp_path / "t18_mybots.py").write_text(textwrap.dedent('''
        class First:
            def __init__(self, seed=0):
                self.seed = seed

            def choose(self, view):
                return view.moves[0]


        class Broken:
            def choose(self, view):
                raise ValueError("no idea")


        class Cheater:
            def choose(self, view):
                return "the winning move"


        class Quitter:
            def choose(self, view):
                raise SystemExit(3)


        NotABot = 3
    '''))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "t18_mybots"
    sys.modules.pop("t18_mybots", None)


def test_a_module_bot_plays(bot_module):
    result = tournament(PACK, [f"module:{bot_module}.First", "greedy"], deals=2)
    assert result["forfeited"] == [] and result["games"] == 4
    assert result["results"][f"module:{bot_module}.First"]["finished"] == 4


@pytest.mark.parametrize(("name", "reason", "says"), [
    ("Broken", "crashed", "raised ValueError: no idea"),
    ("Cheater", "malformed", "not a move"),
    ("Quitter", "crashed", "raised SystemExit: 3"),
])
def test_a_module_bot_that_fails_forfeits(bot_module, name, reason, says):
    result = tournament(PACK, [f"module:{bot_module}.{name}", "random"], deals=1)
    assert [(f["reason"], says in f["message"]) for f in result["forfeited"]] == \
        [(reason, True)] * 2


def test_a_bad_module_spec_is_refused(bot_module):
    (Path.cwd() / "t18_quits.py").write_text("raise SystemExit(4)\n")
    with pytest.raises(BotSpecError, match="importing t18_quits raised SystemExit: 4"):
        parse_bot("module:t18_quits.Bot")
    for spec, says in [(f"module:{bot_module}.Nope", "has no 'Nope'"),
                       (f"module:{bot_module}.NotABot", "is not a class"),
                       ("module:t18_no_such_module.Bot", "no module 't18_no_such_module'"),
                       ("module:Bot", "expected module:path.to.Class"),
                       ("module:a..b", "expected module:path.to.Class")]:
        with pytest.raises(BotSpecError, match=says):
            parse_bot(spec)


# --------------------------------------------------------------------------- the tournament


def test_names_and_seatings():
    assert entry_names(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]
    seatings = line_ups(3, 2)
    assert len(seatings) == 6
    # every bot plays every seat equally often
    for bot in range(3):
        assert [sum(s[k] == bot for s in seatings) for k in range(2)] == [2, 2]
    assert sorted(line_ups(2, 2)) == [(0, 1), (1, 0)]
    with pytest.raises(Exception, match="seats 2 to 2 players"):
        line_ups(2, 3)


def test_every_seating_of_a_deal_gets_the_same_cards():
    games = list(play_tournament(PACK, ["greedy", "random", "greedy"], 3, deals=2, seed=4,
                                 keep_logs=True))
    assert len(games) == 2 * 3
    for deal in range(2):
        firsts = {json.loads(g.record.log[1])["hands"].__repr__() for g in games
                  if g.deal == deal}
        assert len(firsts) == 1
    assert games[0].record.log[1] != games[3].record.log[1]  # another deal, other cards


def test_the_result_is_the_same_for_any_jobs(tmp_path):
    bots = ["greedy", "random", cmd(EXAMPLE)]
    one = tournament(PACK, bots, players=2, deals=2, seed=9, jobs=1)
    two = tournament(PACK, bots, players=2, deals=2, seed=9, jobs=2)
    assert one == two
    assert one["games"] == 2 * 6
    assert tournament(PACK, bots, players=2, deals=2, seed=10, jobs=1) != one


def test_the_json_has_its_documented_shape():
    got = runner.invoke(app, ["tournament", "--bot", "greedy", "--bot", "greedy",
                              "--bot", "random", "-n", "2", "-g", "2", "-v", PACK, "--json",
                              "--jobs", "1"])
    assert got.exit_code == 0, got.output
    s = json.loads(got.output)
    assert s["bots"] == ["greedy#1", "greedy#2", "random"]
    assert s["players"] == 2 and s["games"] == 12 and s["deals"] == 2
    for name in s["bots"]:
        r = s["results"][name]
        assert {"wins", "share", "ci95", "mean_score", "forfeits", "mean_hands",
                "games"} <= set(r)
        assert r["games"] == 8 and 0 <= r["ci95"][0] <= r["share"] <= r["ci95"][1] <= 1
    assert s["pairwise"]["greedy#1"]["random"]["games"] == 4
    h = s["pairwise"]["greedy#1"]["greedy#2"]
    assert h["wins"] + h["losses"] <= h["games"] == 4
    assert s["pairwise"]["greedy#2"]["greedy#1"] == {"games": 4, "wins": h["losses"],
                                                      "losses": h["wins"]}


def test_the_text_shows_the_table_the_head_to_head_and_the_forfeits(bad_bot, tmp_path):
    pidfile = tmp_path / "pids"
    got = runner.invoke(app, ["tournament", "--bot", "greedy", "--bot", "random",
                              "--bot", cmd(bad_bot, "garbage", pidfile), "-n", "2", "-g", "1",
                              "-v", PACK, "--jobs", "1"])
    assert got.exit_code == 0, got.output
    lines = got.output.splitlines()
    assert lines[0] == f"{PACK}: 3 bots, 2 players, 1 deal x 6 seatings = 6 games, seed 1"
    assert lines[1].split()[:3] == ["games", "wins", "win"] and lines[1].endswith("bot")
    assert lines[2].split()[0] == "4" and lines[2].endswith(" greedy")
    assert "head to head (wins of each in the games both played):" in lines
    assert "forfeited (the bot loses; with 2 players the other wins): 4 game(s)" in lines
    assert "malformed: the answer is not JSON: 'I pick the red one'" in " ".join(
        x.strip() for x in lines)
    assert f"  bot 3: {cmd(bad_bot, 'garbage', pidfile)}".split()[:3] == lines[5].split()[:3]
    assert "  greedy 2 - 0 bot 3 (of 2 games)" in lines
    assert max(map(len, lines)) <= 80
    assert_all_gone(pidfile, at_least=4)


@pytest.mark.parametrize(("args", "says"), [
    (["--bot", "greedy"], "at least 2 bots"),
    (["--bot", "greedy", "--bot", "clever"], "unknown bot 'clever'"),
    (["--bot", "greedy", "--bot", "random", "-n", "3"], "seats 2 to 2 players, not 3"),
    (["--bot", "greedy", "--bot", "cmd:no-such-bot-program"], "no program"),
    (["--bot", "greedy", "--bot", "random", "-v", "orignal"], "did you mean 'original'"),
    (["--bot", "greedy", "--bot", "random", "--bot-timeout", "0"], "--bot-timeout"),
    (["--bot", "greedy"] * 200, "seatings of a deal; a tournament plays at most 1,000,000"),
    (["--bot", "greedy", "--bot", "random", "-g", "600000"], "at most 1,000,000 games"),
    (["--bot", "greedy", "--bot", "cmd:'unclosed"], "No closing quotation"),
    (["--bot", "greedy", "--bot", "x" * 5000], "--bot is 5,000 characters long"),
    ([], "--bot"),
])
def test_bad_usage_is_one_error_line(args, says):
    got = runner.invoke(app, ["tournament", "-g", "1", *args])
    assert got.exit_code == 2, got.output
    lines = got.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], got.output
    as_json = runner.invoke(app, ["tournament", "-g", "1", *args, "--json"])
    assert as_json.exit_code == 2
    error = json.loads(as_json.output)
    assert error["exit"] == 2 and says in error["error"]


def test_logs_are_written_whole_and_never_over_a_record(tmp_path, bad_bot):
    logs = tmp_path / "logs"
    args = ["tournament", "--bot", "greedy", "--bot", cmd(bad_bot, "illegal", tmp_path / "p"),
            "-g", "2", "-v", PACK, "--logs", str(logs), "--jobs", "1"]
    got = runner.invoke(app, args)
    assert got.exit_code == 0, got.output
    files = sorted(logs.glob("game-*.jsonl"))
    assert [f.name for f in files] == [f"game-000{k}.jsonl" for k in range(1, 5)]
    for k, f in enumerate(files):
        header = json.loads(f.read_text().splitlines()[0])
        seats = ["greedy", cmd(bad_bot, "illegal", tmp_path / "p")]
        if k % 2:
            seats.reverse()
        assert list(header["bots"].values()) == seats
        assert header["forfeit"]["reason"] == "illegal"
        assert replay(f.read_text().splitlines(), base_dir=logs).legal
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "give --force" in again.output
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0


# --------------------------------------------------------------------------- everywhere --bot is


def test_simulate_and_play_take_every_kind_of_bot(bad_bot, tmp_path, bot_module):
    got = runner.invoke(app, ["simulate", "-v", PACK, "-n", "2", "-g", "2", "--jobs", "1",
                              "--bot", cmd(EXAMPLE), "--json"])
    assert got.exit_code == 0, got.output
    s = json.loads(got.output)
    assert s["finished"] == 2 and s["forfeited"] == []
    got = runner.invoke(app, ["simulate", "-v", PACK, "-n", "2", "-g", "2", "--jobs", "1",
                              "--bot", f"module:{bot_module}.First"])
    assert got.exit_code == 0, got.output
    got = runner.invoke(app, ["simulate", "-v", PACK, "-n", "2", "-g", "2", "--jobs", "1",
                              "--bot", cmd(bad_bot, "silent", tmp_path / "p"),
                              "--bot-timeout", "0.2"])
    assert got.exit_code == 0, got.output
    assert "forfeited (a bot failed; not counted): 2 game(s)" in got.output
    assert "timeout: no answer within 0.2 s" in got.output
    got = runner.invoke(app, ["simulate", "-v", PACK, "--bot", "module:nowhere.Bot"])
    assert got.exit_code == 2 and "no module 'nowhere'" in got.output
    # play: the bots' moves come from the program; its failure ends the game, said so
    got = runner.invoke(app, ["play", "-v", PACK, "--seed", "3", "--bots", "1",
                              "--bot", cmd(EXAMPLE)], input="draw deck\nquit\n")
    assert got.exit_code == 0, got.output
    got = runner.invoke(app, ["play", "-v", PACK, "--seed", "3", "--bots", "1",
                              "--bot", cmd(bad_bot, "crash", tmp_path / "q")],
                        input="draw deck\ndiscard G2\ndraw deck\nquit\n")
    assert got.exit_code == 0, got.output
    assert "bob forfeits the game: crashed: the program exited with code 3" in got.output
    assert_all_gone(tmp_path / "p", at_least=2)
    assert_all_gone(tmp_path / "q", at_least=1)


def test_simulate_of_external_bots_is_the_same_for_any_jobs():
    pack = Game.new(PACK, ["a", "b"]).state.table.pack
    one = simulate(pack, 2, 3, cmd(EXAMPLE), seed=2, jobs=1)
    two = simulate(pack, 2, 3, cmd(EXAMPLE), seed=2, jobs=2)
    assert one == two and all(r.forfeit is None for r in one)


# --------------------------------------------------------------------------- the real command


def _cli(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "phasedsl.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_the_command_runs_as_a_program():
    p = _cli("tournament", "--bot", "greedy", "--bot", "random", "-g", "3", "-v", PACK)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and err == ""
    assert out.splitlines()[0] == f"{PACK}: 2 bots, 2 players, 3 deals x 2 seatings = 6 games, seed 1"
    assert out.splitlines()[2].endswith("  greedy")


SLOW_BOT = textwrap.dedent('''
    import json, os, signal, sys, time
    # deaf to SIGTERM and to the end of its input: only a kill ends it
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with open(sys.argv[1], "a") as f:
        f.write(f"{os.getpid()}\\n")
    for line in sys.stdin:
        if json.loads(line)["type"] == "move":
            time.sleep(0.02)
            print(json.dumps({"move": 0}), flush=True)
    time.sleep(1000)
''')


@pytest.mark.parametrize(("sig", "code", "jobs"), [(signal.SIGTERM, 143, "2"),
                                                   (signal.SIGINT, 130, "1"),
                                                   (signal.SIGINT, 130, "2")])
def test_stopping_the_command_ends_every_bot(tmp_path, sig, code, jobs):
    script = tmp_path / "slow.py"
    script.write_text(SLOW_BOT)
    pidfile = tmp_path / "pids"
    p = _cli("tournament", "--bot", cmd(script, pidfile), "--bot", cmd(script, pidfile),
             "-g", "50", "-v", PACK, "--jobs", jobs)
    deadline = time.monotonic() + 60
    # under way: every worker has its programs running
    while len(pids(pidfile)) < 2 * int(jobs) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert p.poll() is None, p.communicate()
    time.sleep(0.3)  # (the programs are answering moves)
    p.send_signal(sig)
    started = time.monotonic()
    _, err = p.communicate(timeout=30)
    assert time.monotonic() - started < 5
    assert p.returncode == code and err.strip() in ("terminated", "interrupted"), err
    assert "Traceback" not in err
    assert_all_gone(pidfile, at_least=2)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_command_ends_what_the_bots_started_too(bad_bot, tmp_path, sig):
    # a worker killed outright took only its programs with it (PR_SET_PDEATHSIG), and a
    # child each program had started kept running: the worker ends their groups first
    pidfile = tmp_path / "pids"
    bot = cmd(bad_bot, "stubborn", pidfile)
    p = _cli("tournament", "--bot", bot, "--bot", bot, "-g", "50", "-v", PACK, "--jobs", "2")
    deadline = time.monotonic() + 60
    while len(pids(pidfile)) < 8 and time.monotonic() < deadline:  # 2 programs, 2 children
        time.sleep(0.05)                                               # in each worker
    assert p.poll() is None, p.communicate()
    p.send_signal(sig)
    started = time.monotonic()
    _, err = p.communicate(timeout=30)
    assert time.monotonic() - started < 5
    assert err.strip() in ("terminated", "interrupted") and "Traceback" not in err, err
    assert_all_gone(pidfile, at_least=8)


def test_a_bot_that_closes_its_stderr_is_not_waited_on_busily(tmp_path, monkeypatch):
    # a program that shuts its stderr and then thinks: the wait for its answer sleeps
    # (a closed pipe is always "ready": waiting on it would spin, reading nothing)
    script = tmp_path / "quiet.py"
    script.write_text(textwrap.dedent('''
        import json, os, sys, time
        os.close(2)
        for line in sys.stdin:
            if json.loads(line)["type"] == "move":
                time.sleep(0.3)
                print(json.dumps({"move": 0}), flush=True)
    '''))
    from phasedsl.players.extbot import ExternalBot

    reads = []
    drain = ExternalBot._drain_stderr
    monkeypatch.setattr(ExternalBot, "_drain_stderr", lambda self: reads.append(1) or drain(self))
    game = Game.new("original", ["ann", "bob"], seed=7)
    bot = ExternalBot([sys.executable, str(script)], timeout=5)
    try:
        bot.choose(view(game.state, "ann"))  # started, answered once
        reads.clear()
        assert bot.choose(view(game.state, "ann")) in view(game.state, "ann").moves
        assert len(reads) < 20
    finally:
        bot.close(wait=False)


def test_forfeits_come_back_from_worker_processes(bad_bot, tmp_path):
    bots = [cmd(bad_bot, "illegal", tmp_path / "p"), "greedy"]
    one = tournament(PACK, bots, deals=2, seed=2, jobs=1)
    two = tournament(PACK, bots, deals=2, seed=2, jobs=2)
    assert one == two and len(one["forfeited"]) == 4
    assert_all_gone(tmp_path / "p", at_least=8)


def test_the_means_carry_their_intervals_in_text_and_json():
    # (the final score and hands per game were shown as bare means)
    from phasedsl.players.tournament import tournament

    got = tournament("short-game-5", ["greedy", "random"], deals=4, seed=2)
    for r in got["results"].values():
        lo, hi = r["score_ci95"]
        assert lo <= r["mean_score"] <= hi
        lo, hi = r["hands_ci95"]
        assert lo <= r["mean_hands"] <= hi
    r = runner.invoke(app, ["tournament", "short-game-5", "--bot", "greedy", "--bot", "random",
                            "-g", "4", "--seed", "2", "-j", "1"])
    assert r.exit_code == 0
    greedy = got["results"]["greedy"]
    assert (f"{greedy['mean_score']:.1f} ({greedy['score_ci95'][0]:.1f}-"
            f"{greedy['score_ci95'][1]:.1f})") in r.output
    assert all(len(line) <= 80 for line in r.output.splitlines())


def test_a_bot_that_closes_its_stdout_and_lives_on_is_told_so(tmp_path):
    script = tmp_path / "closes.py"
    script.write_text("import os, time\nos.close(1)\ntime.sleep(30)\n")
    records = simulate(PACK, players=2, games=1, jobs=1, bot=parse_bot(cmd(script)))
    (f,) = summarize(records, 2)["forfeited"]
    assert (f["reason"], f["message"]) == \
        ("crashed", "the program closed its stdout and has not exited"), f
