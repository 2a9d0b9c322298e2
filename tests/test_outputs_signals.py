"""Outputs, signals and the answer on stdout (issue 14, items 4-7, 22, 24, 27, 28).

Every file the command line writes goes through ``phasedsl.system.outfiles``: whole or not at
all, never over an existing file without --force, never through a symlink.  Every
``--jobs`` command stops at once on Ctrl-C (exit 130) and SIGTERM (exit 143) with no
worker left and no traceback.  An answer that cannot be written is exit 2, never a
verdict.  Batch answers from stdin are flushed only before a read that would wait.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.system import outfiles

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
LINE = json.dumps({"id": 1, "phase": "1 set of 3", "cards": "R5 B5 W"})


def run(*args, input=None):
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def cli(*args, **kw) -> subprocess.CompletedProcess:
    """The real command in its own process (signals, pipes and file descriptors are its own)."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "phasedsl.cli", *map(str, args)], cwd=ROOT,
                          timeout=120, **kw)


def full_disk(monkeypatch, after: int = 0) -> None:
    """Every fsync past the first ``after`` fails as on a full disk."""
    calls = [0]
    real = os.fsync

    def fsync(fd):
        calls[0] += 1
        if calls[0] > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a 256 kB tmpfs (where this runs as root and may mount one)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs",
                                            str(where)], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here (the injected failures still run)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> None:
    with contextlib.suppress(OSError), open(folder / "filler", "wb") as fh:
        while True:
            fh.write(b"x" * 65536)
            fh.flush()


# ------------------------------------------------------------------ outfiles


def test_a_file_is_never_replaced_without_force_and_never_through_a_symlink(tmp_path):
    path = tmp_path / "out.txt"
    assert outfiles.write_text(path, "first é\n") == len("first é\n".encode())
    with pytest.raises(outfiles.OutputError, match="already exists: give --force"):
        outfiles.write_text(path, "second\n")
    assert path.read_text() == "first é\n"
    outfiles.write_text(path, "second\n", force=True)
    assert path.read_text() == "second\n"
    secret = tmp_path / "secret"
    secret.write_text("keep\n")
    link = tmp_path / "link.txt"
    link.symlink_to(secret)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere")
    for target in (link, dangling):
        with pytest.raises(outfiles.OutputError, match="already exists"):
            outfiles.write_text(target, "x\n")
    assert not (tmp_path / "nowhere").exists()
    outfiles.write_text(link, "new\n", force=True)  # the link is replaced, not followed
    assert not link.is_symlink() and link.read_text() == "new\n"
    assert secret.read_text() == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.txt", "link.txt", "out.txt",
                                                          "secret"]


def test_a_ctrl_c_as_the_temporary_file_is_made_leaves_nothing_beside_it(tmp_path):
    # The signal lands in mkstemp's last steps: the file exists, its name is not yet back.
    # (A CI run of the interrupted simulate below left such a .tmp file.)  Run in a process
    # of its own, on its main thread: a test runner's worker may run tests on another one,
    # where a signal mask is only that thread's.
    import subprocess
    import sys

    code = f"""
import os, signal, sys, tempfile
from phasedsl.system import outfiles
real = tempfile.mkstemp
def mkstemp(*a, **kw):
    made = real(*a, **kw)
    os.kill(os.getpid(), signal.SIGINT)
    return made
tempfile.mkstemp = mkstemp
try:
    outfiles.write_text({str(tmp_path / "game-0005.jsonl")!r}, "{{}}\\n")
except KeyboardInterrupt:
    print("interrupted")
print(os.listdir({str(tmp_path)!r}))
print(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert r.stdout.split("\n")[:3] == ["interrupted", "[]", "False"], r.stdout + r.stderr


def test_a_device_or_folder_is_never_replaced(tmp_path):
    with pytest.raises(outfiles.OutputError, match="not a regular file"):
        outfiles.check_target("/dev/null", force=True)
    with pytest.raises(outfiles.OutputError, match="it is a folder"):
        outfiles.check_target(tmp_path, force=True)
    with pytest.raises(outfiles.OutputError, match="there is no folder"):
        outfiles.check_target(tmp_path / "no" / "x.txt", force=True)


@pytest.fixture
def closed(tmp_path, monkeypatch) -> Path:
    """A folder that takes no new file (read-only, as a root user cannot make one)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    real = outfiles.tempfile.mkstemp

    def mkstemp(*args, dir=None, **kw):
        if dir is not None and Path(dir) == folder:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(*args, dir=dir, **kw)

    monkeypatch.setattr(outfiles.tempfile, "mkstemp", mkstemp)
    return folder


@pytest.mark.parametrize("command", [["report", "original", "-g", "2", "-o", "out.html"],
                                     ["balance", "original", "-g", "10", "--write", "o.yaml"],
                                     ["generate", "-p", "3", "-o", "out.yaml"]])
def test_a_folder_that_takes_no_new_file_is_refused_before_the_work(command, closed,
                                                                    monkeypatch):
    # (a read-only folder: the file was tried only after minutes of games, then refused)
    def written_after_the_work(*args, **kw):
        raise AssertionError("the folder was tried only once the work was done")

    monkeypatch.setattr(outfiles, "atomic", written_after_the_work)
    target = closed / command[-1]
    r = run(*command[:-1], target)
    assert r.exit_code == 2 and r.stderr == f"error: cannot write {target}: Permission denied\n"
    assert list(closed.iterdir()) == []


@pytest.mark.parametrize("command", [["simulate", "original", "-g", "3", "-j", "1", "--logs"],
                                     ["tournament", "--bot", "greedy", "--bot", "random", "-g",
                                      "2", "-j", "1", "--logs"]])
def test_a_logs_folder_that_takes_no_file_is_refused_before_a_game(command, closed,
                                                                   monkeypatch):
    # (the folder was tried at the first game's end)
    from phasedsl.design import simulate
    from phasedsl.players import tournament

    def played(*args, **kw):
        raise AssertionError("a game was played before the folder was tried")

    # Both names, the tournament's imported before: a first import under the patch bound
    # the planted function there for good, and a later test of the same process (a
    # tournament or play) failed with this AssertionError.
    monkeypatch.setattr(simulate, "play_game", played)
    monkeypatch.setattr(tournament, "play_game", played)
    r = run(*command, closed)
    assert r.exit_code == 2 and "Permission denied" in r.stderr, r.output
    assert list(closed.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc")
def test_a_folder_that_takes_no_file_at_all_is_refused_at_the_check(tmp_path):
    with pytest.raises(outfiles.OutputError, match=r"cannot write /proc/self/x\.html"):
        outfiles.check_target("/proc/self/x.html", force=True)
    assert outfiles.check_target(tmp_path / "x.html", force=False) == tmp_path / "x.html"
    assert list(tmp_path.iterdir()) == []  # (the probe leaves nothing behind)


def test_a_failed_write_leaves_the_old_file_whole_and_nothing_beside_it(tmp_path, monkeypatch):
    path = tmp_path / "report.html"
    path.write_text("old report\n")
    full_disk(monkeypatch)
    with pytest.raises(outfiles.OutputError, match=r"cannot write .*No space left"):
        outfiles.write_text(path, "new " * 1000, force=True)
    assert path.read_text() == "old report\n" and os.listdir(tmp_path) == ["report.html"]


def test_a_full_disk_leaves_the_old_file_whole(small_disk):
    path = small_disk / "report.html"
    path.write_text("old report\n")
    fill(small_disk)
    with pytest.raises(outfiles.OutputError, match="No space left"):
        outfiles.write_text(path, "new " * 100_000, force=True)
    assert path.read_text() == "old report\n"
    assert sorted(os.listdir(small_disk)) == ["filler", "report.html"]


# ------------------------------------------------------------------ play --log


def test_play_log_refuses_an_existing_file_or_symlink_without_force(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text("an earlier game\n")
    r = run("play", "--seed", "3", "--log", log, input="quit\n")
    assert r.exit_code == 2 and "already exists: give --force" in r.stderr
    assert log.read_text() == "an earlier game\n"
    secret = tmp_path / "secret.txt"
    secret.write_text("keep\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(secret)
    r = run("play", "--seed", "3", "--log", link, input="quit\n")
    assert r.exit_code == 2 and "--force" in r.stderr
    r = run("play", "--seed", "3", "--log", link, "--force", input="draw deck\nquit\n")
    assert r.exit_code == 0, r.output
    assert secret.read_text() == "keep\n" and not link.is_symlink()
    assert run("replay", link).exit_code == 0
    r = run("play", "--seed", "3", "--log", log, "--force", input="draw deck\nquit\n")
    assert r.exit_code == 0 and run("replay", log).exit_code == 0


def test_play_log_on_a_full_disk_keeps_the_game_so_far_whole(tmp_path, monkeypatch):
    log = tmp_path / "game.jsonl"
    full_disk(monkeypatch, after=1)  # the first writing (the deal) goes through
    r = run("play", "--seed", "3", "--log", log, input="draw deck\ndiscard W\nquit\n" * 5)
    assert r.exit_code == 2 and "cannot write" in r.stderr and "No space left" in r.stderr
    assert os.listdir(tmp_path) == ["game.jsonl"]
    monkeypatch.undo()
    lines = log.read_text().splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["game", "deal"]
    assert run("replay", log).exit_code == 0


def test_play_log_on_a_real_full_disk(small_disk):
    log = small_disk / "game.jsonl"
    r = cli("play", "--seed", "3", "--log", log, input=b"draw deck\n")
    assert r.returncode == 0 and cli("replay", log).returncode == 0
    fill(small_disk)
    before = log.read_bytes()
    r = cli("play", "--seed", "3", "--log", log, "--force", input=b"draw deck\n" * 3)
    assert r.returncode == 2 and b"No space left" in r.stderr and b"Traceback" not in r.stderr
    assert log.read_bytes() == before
    assert sorted(os.listdir(small_disk)) == ["filler", "game.jsonl"]


def test_an_interrupted_game_leaves_a_log_that_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        log.unlink(missing_ok=True)
        p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", "play", "--seed", "5",
                              "--log", str(log)], cwd=ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdin.write(b"draw deck\n")
        p.stdin.flush()
        deadline = time.time() + 30
        while time.time() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 3):
            time.sleep(0.05)
        p.send_signal(sig)
        _, err = p.communicate(timeout=10)
        assert p.returncode == code and b"Traceback" not in err, err
        assert cli("replay", log).returncode == 0
        assert sorted(os.listdir(tmp_path)) == ["game.jsonl"]


# ------------------------------------------------------------------ simulate, report, plots


def test_simulate_logs_refuse_a_folder_of_logs_and_force_clears_the_stale_ones(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(1, 6):
        (logs / f"game-{i:04d}.jsonl").write_text("an earlier run\n")
    (logs / "notes.txt").write_text("mine\n")
    args = ["simulate", "--variant", "short-game-5", "--players", "2", "--games", "2",
            "--logs", logs, "--jobs", "1"]
    r = run(*args)
    assert r.exit_code == 2 and "holds game logs already" in r.stderr and "--force" in r.stderr
    assert (logs / "game-0001.jsonl").read_text() == "an earlier run\n"
    r = run(*args, "--force")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in logs.iterdir()) == ["game-0001.jsonl", "game-0002.jsonl",
                                                      "notes.txt"]
    assert all(run("replay", p).exit_code == 0 for p in logs.glob("game-*.jsonl"))


def test_simulate_writes_each_log_as_its_game_ends(tmp_path, monkeypatch):
    import phasedsl.design.simulate as sim

    logs = tmp_path / "logs"
    seen = []
    real = sim.play_game

    def play_game(*a, **kw):
        seen.append(sorted(p.name for p in logs.glob("*")))
        return real(*a, **kw)

    monkeypatch.setattr(sim, "play_game", play_game)
    r = run("simulate", "-v", "short-game-5", "-n", "2", "-g", "3", "--jobs", "1", "--logs", logs)
    assert r.exit_code == 0
    assert seen == [[], ["game-0001.jsonl"], ["game-0001.jsonl", "game-0002.jsonl"]]


def test_an_interrupted_simulate_keeps_its_finished_games_whole(tmp_path):
    logs = tmp_path / "logs"
    p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", "simulate", "--variant",
                          "original", "--games", "500", "--jobs", "2", "--logs", str(logs)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list(logs.glob("game-*.jsonl"))) < 2:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=10)
    assert p.returncode == 130 and err == b"interrupted\n"
    written = sorted(logs.iterdir())
    assert 2 <= len(written) < 500 and all(w.name.startswith("game-") for w in written)
    assert [w.name for w in written] == [f"game-{i:04d}.jsonl" for i in range(1, len(written) + 1)]
    for w in written:
        assert cli("replay", w, "--json").returncode == 0


def test_report_and_plots_replace_a_file_only_with_force(tmp_path):
    out = tmp_path / "r.html"
    out.write_text("my report\n")
    r = run("report", "short-game-5", "-o", out, "--games", "1")
    assert r.exit_code == 2 and "already exists: give --force" in r.stderr
    assert out.read_text() == "my report\n"
    r = run("report", "short-game-5", "-o", out, "--games", "1", "--force", "--jobs", "1")
    assert r.exit_code == 0 and r.stdout == f"wrote {out} ({out.stat().st_size:,} bytes)\n"
    pytest.importorskip("matplotlib")
    plot = tmp_path / "p.svg"
    plot.write_text("my plot\n")
    sim = ["simulate", "-v", "short-game-5", "-n", "2", "-g", "1", "--plot", plot]
    r = run(*sim)
    assert r.exit_code == 2 and "--force" in r.stderr and plot.read_text() == "my plot\n"
    r = run(*sim, "--force")
    assert r.exit_code == 0 and r.stdout.endswith(f"wrote {plot}\n")
    assert plot.read_text().startswith("<?xml")
    r = run(*sim, "--force", "--json")
    assert json.loads(r.stdout)["plot"] == str(plot)


def test_report_json_says_what_it_wrote_in_bytes(tmp_path):
    out = tmp_path / "r.html"
    r = run("report", "world-tour", "--world", "jazz-club", "-o", out, "--games", "1", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    size = out.stat().st_size
    assert data["path"] == str(out) and data["bytes"] == size
    assert len(out.read_text(encoding="utf-8")) < size  # the page holds non-ASCII text
    assert set(data["figures"]) >= {"games", "players", "phases"} and data["variant"] == "world-tour"
    r = run("report", "nope", "-o", out, "--json")
    assert r.exit_code == 2 and json.loads(r.stdout)["exit"] == 2


def test_every_command_but_play_takes_json():
    import typer.main

    command = typer.main.get_command(app)
    # a group's commands are looked at one by one (`conformance adapter` speaks JSON lines
    # whatever it is given: it is the protocol)
    leaves = [(f"{name} {sub}", c) for name, cmd in command.commands.items()
              for sub, c in getattr(cmd, "commands", {}).items()]
    leaves += [(name, cmd) for name, cmd in command.commands.items() if not hasattr(cmd, "commands")]
    without = [name for name, cmd in leaves
               if "--json" not in {o for p in cmd.params for o in getattr(p, "opts", [])}]
    assert sorted(without) == ["conformance adapter", "play", "serve"]  # (serve: a server)


def test_report_on_a_full_disk_keeps_the_old_report(tmp_path, monkeypatch):
    out = tmp_path / "r.html"
    out.write_text("my report\n")
    full_disk(monkeypatch)
    r = run("report", "short-game-5", "-o", out, "--games", "1", "--force", "--jobs", "1")
    assert r.exit_code == 2 and r.stderr.startswith(f"error: cannot write {out}: No space")
    assert out.read_text() == "my report\n" and os.listdir(tmp_path) == ["r.html"]


def test_report_on_a_real_full_disk_keeps_the_old_report(small_disk):
    out = small_disk / "r.html"
    out.write_text("my report\n")
    fill(small_disk)
    r = cli("report", "short-game-5", "-o", out, "--games", "1", "--force", "--jobs", "1")
    assert r.returncode == 2 and b"No space left" in r.stderr and b"Traceback" not in r.stderr
    assert out.read_text() == "my report\n"
    assert sorted(os.listdir(small_disk)) == ["filler", "r.html"]


# ------------------------------------------------------------------ defaults (item 22)


def test_simulate_defaults_and_one_jobs_default_everywhere(monkeypatch):
    import typer.main

    import phasedsl.design.simulate as sim

    got = {}

    def play_games(pack, players, games, bot, seed, world, jobs, keep_logs=False):
        got.update(players=players, games=games, jobs=jobs)
        yield from ()

    monkeypatch.setattr(sim, "play_games", play_games)
    r = run("simulate", "--variant", "original")
    assert r.exit_code == 0 and got == {"players": 4, "games": 100, "jobs": 0}
    command = typer.main.get_command(app)
    for name in ("check", "simulate", "report", "odds"):
        (jobs,) = [p for p in command.commands[name].params if p.name == "jobs"]
        assert jobs.default == 0, name


def test_sampled_odds_are_the_same_whatever_the_jobs():
    args = ["odds", "1 color run of 4 + 1 set of 4", "--samples", "30000", "--json"]
    figures = {json.loads(run(*args, "--jobs", j).stdout)["phases"][0]["hits"]
               for j in ("1", "2", "0")}
    assert len(figures) == 1


# ------------------------------------------------------------------ signals (item 6)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(entry))
    return found


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.fixture(scope="module")
def big_batch(tmp_path_factory):
    path = tmp_path_factory.mktemp("batch") / "hands.jsonl"
    hands = ["R5 B5 W G9 G9 Y9 R1 R2 R3 B7 Y12", "R3 B4 G5 Y9 Y10 R11 B11 G1 G2 W S"]
    with open(path, "w") as fh:
        for i in range(200_000):
            fh.write(json.dumps({"id": i, "phase": "1 set of 3 + 1 run of 4",
                                 "cards": hands[i % 2]}) + "\n")
    return path


JOBS_COMMANDS = {
    "check --batch": lambda tmp, big: ["check", "--batch", big, "--jobs", "2"],
    "simulate": lambda tmp, big: ["simulate", "--variant", "original", "--games", "400",
                                  "--jobs", "2", "--logs", tmp / "logs", "--force"],
    # (seeds no other test plays: games played before are read from the cache, with no
    # worker to stop)
    "report": lambda tmp, big: ["report", "original", "-o", tmp / "r.html", "--games", "200",
                                "--jobs", "2", "--force", "--seed", "9191"],
    "balance": lambda tmp, big: ["balance", "original", "--games", "400", "--jobs", "2",
                                 "--seed", "9292"],
    "odds": lambda tmp, big: ["odds", "1 color run of 4 + 1 set of 4", "--samples", "5000000",
                              "--jobs", "2"],
}


@pytest.mark.parametrize("command", list(JOBS_COMMANDS))
def test_every_jobs_command_stops_at_once_on_ctrl_c_and_sigterm(command, tmp_path, big_batch):
    args = JOBS_COMMANDS[command](tmp_path, big_batch)
    # to the process group as a terminal sends Ctrl-C; to the parent alone as `kill` does
    tries = [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143), (signal.SIGINT, False, 130),
             (signal.SIGTERM, True, 143), (signal.SIGINT, True, 130)]
    for sig, group, code in tries:
        p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", *map(str, args)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            deadline = time.time() + 60
            while time.time() < deadline and len(_children(p.pid)) < 2:
                time.sleep(0.02)
            workers = _children(p.pid)
            assert len(workers) >= 2, f"{command}: no workers started"
            time.sleep(0.2)  # at work, holding whatever they hold
            sent = time.time()
            (os.killpg if group else os.kill)(p.pid, sig)
            _, err = p.communicate(timeout=15)
            took = time.time() - sent
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
        assert p.returncode == code, (command, sig, group, p.returncode, err[-2000:])
        assert err == (b"interrupted\n" if code == 130 else b"terminated\n"), err[-2000:]
        assert took < 3, (command, sig, group, took)
        deadline = time.time() + 2
        while time.time() < deadline and any(_running(w) for w in workers):
            time.sleep(0.02)
        assert not any(_running(w) for w in workers), (command, sig, group)


# ------------------------------------------------------------------ the answer on stdout (item 7)


def test_an_answer_that_cannot_be_written_is_exit_2_not_a_verdict(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    cases = [["check", "1 set of 3", "R5", "B5", "W"],        # made: would be 0
             ["check", "1 run of 4", "R3", "B4", "G5", "Y9"],  # not made: would be 1
             ["check", "1 set of 3", "R5", "X5", "--json"],    # an error, as JSON on stdout
             ["replay", ROOT / "docs" / "examples" / "hand.jsonl"],
             ["parse", "two sets of three", "--json"],
             ["list"], ["schema"], ["score", "R5", "W"]]
    for args in cases:
        with open("/dev/full", "w") as full:
            r = cli(*args, stdout=full)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr == b"error: cannot write the output: No space left on device\n", args
    batch = tmp_path / "b.jsonl"
    batch.write_text(LINE + "\n")
    with open("/dev/full", "w") as full:
        r = cli("check", "--batch", batch, stdout=full)
    assert r.returncode == 2 and r.stderr.endswith(b"No space left on device\n")
    with open("/dev/full", "w") as full:
        r = cli("check", "--batch", "-", stdout=full, input=(LINE + "\n").encode())
    assert r.returncode == 2 and r.stderr.endswith(b"No space left on device\n")


def test_a_closed_stdout_is_exit_2_with_one_line():
    r = cli("check", "1 set of 3", "R5", "B5", "W", stdout=None,
            preexec_fn=lambda: os.close(1))
    assert r.returncode == 2
    assert r.stderr == b"error: cannot write the output: standard output is closed\n"


def test_a_reader_that_goes_away_is_exit_2_with_one_line(big_batch):
    for args in (["check", "--batch", big_batch, "--jobs", "2"], ["check", "--batch", big_batch,
                                                                   "--jobs", "1"]):
        p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", *map(str, args)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.close()  # as `| head -1` does
        err = p.stderr.read()
        assert p.wait(timeout=30) == 2
        assert err == b"error: cannot write the output: Broken pipe\n", err[-2000:]


# ------------------------------------------------------------------ batch flushing (item 28)


def test_stdin_batch_answers_each_line_at_once_to_a_program_that_waits():
    p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", "check", "--batch", "-",
                          "--jobs", "2"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        for i in range(4):
            line = json.dumps({"id": i, "phase": "1 set of 3", "cards": "R5 B5 W"})
            p.stdin.write(line.encode() + b"\n")
            p.stdin.flush()
            # the next line is written only once this answer is read: with no flush, this
            # waits forever (the timeout below ends the test)
            answer = _readline(p.stdout, timeout=20)
            assert json.loads(answer)["id"] == i
        p.stdin.close()
        assert p.wait(timeout=20) == 0
    finally:
        p.kill()
        p.wait()


def _readline(stream, timeout: float) -> bytes:
    import select

    line = b""
    deadline = time.time() + timeout
    while not line.endswith(b"\n"):
        left = deadline - time.time()
        assert left > 0 and select.select([stream], [], [], left)[0], "no answer came"
        chunk = os.read(stream.fileno(), 1)
        assert chunk, "the batch ended"
        line += chunk
    return line


def test_a_piped_batch_is_answered_as_a_file_is(tmp_path, big_batch):
    lines = big_batch.read_text().splitlines()[:3001]
    lines[7] = "not json"
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(lines) + "\n")
    from_file = cli("check", "--batch", path)
    with open(path, "rb") as fh:
        piped = cli("check", "--batch", "-", stdin=fh)
    cat = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
    through_cat = cli("check", "--batch", "-", stdin=cat.stdout)
    cat.wait()
    assert from_file.returncode == piped.returncode == through_cat.returncode == 2
    assert from_file.stdout == piped.stdout == through_cat.stdout
    assert len(from_file.stdout.splitlines()) == 3001


@pytest.mark.parametrize("dice", [False, True])
def test_odds_progress_counts_phases_and_time_left(tmp_path, dice, monkeypatch):
    import re

    pack = tmp_path / "two.yaml"
    pack.write_text("name: two\ntitle: Two\ndescription: two phases\nsource: a test\n"
                    + ("extends: dice\n" if dice else "") +
                    "phases:\n  - 1 color run of 4\n  - 1 color set of 3\n")
    # (a dice pack's tables, counted once, are cached: an empty cache of the test's own)
    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path / "cache"))
    code, text = _on_a_terminal(["odds", "--variant", str(pack), "--samples", "150000",
                                 "--jobs", "1"])
    assert code == 0
    assert "0/2 phases" in text and "1/2 phases  50%" in text, text[-500:]
    assert re.search(r"phases +\d+% +(-:--:--|\d+:\d\d:\d\d)", text)  # the time left


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run phasedsl with stderr on a pseudo-terminal: its exit code and what it showed there
    (the escape sequences taken out)."""
    import pty
    import re

    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([sys.executable, "-m", "phasedsl.cli", *args], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        shown = b""
        with contextlib.suppress(OSError):
            while chunk := os.read(master, 4096):
                shown += chunk
        p.wait(timeout=120)
    finally:
        os.close(master)
    return p.returncode, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode(errors="replace"))


@pytest.mark.parametrize("command", ["simulate", "report", "simulate-naive"])
def test_a_dice_pack_shows_its_phases_worked_out_then_its_games(tmp_path, command,
                                                                 monkeypatch):
    # the phases' tables took 20 s before the first game ended, shown as a bar at 0 (simulate
    # showed nothing at all)
    pack = tmp_path / "two.yaml"
    pack.write_text("name: two\ntitle: Two\ndescription: two phases\nsource: a test\n"
                    "extends: dice\nphases:\n  - 1 set of 3\n  - 1 color set of 3\n")
    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path / "cache"))
    args = ([command, str(pack), "-g", "3", "-o", str(tmp_path / "r.html")]
            if command == "report" else ["simulate", str(pack), "-g", "3"])
    if command == "simulate-naive":  # (a bot with nothing to work out first: games at once)
        code, text = _on_a_terminal([*args, "--bot", "naive", "-g", "2000"])
        assert code == 0 and "playing games" in text, text[-800:]
        return
    code, text = _on_a_terminal(args)
    assert code == 0, text[-500:]
    assert "counting phases" in text and "playing games" in text, text[-800:]
    assert text.index("counting phases") < text.index("playing games")


def test_a_piped_batch_is_not_flushed_line_by_line(tmp_path, big_batch):
    # every answer was flushed (a write to the pipe per line): half the speed of a file
    if not os.path.exists("/proc/self/io"):
        pytest.skip("needs /proc/self/io to count write calls")
    path = tmp_path / "b.jsonl"
    path.write_text("".join(big_batch.read_text().splitlines(keepends=True)[:3000]))
    counting = ("import os, sys\n"
                "from phasedsl.cli import main\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "sys.stdout.flush()\n"
                "io = dict(x.split(': ') for x in open('/proc/self/io').read().splitlines())\n"
                "sys.stderr.write(io['syscw'])\n")
    with open(path, "rb") as fh:
        r = subprocess.run([sys.executable, "-c", counting, "check", "--batch", "-", "--jobs", "1"],
                           cwd=ROOT, stdin=fh, capture_output=True, timeout=120)
    assert len(r.stdout.splitlines()) == 3000
    assert int(r.stderr) < 300, r.stderr  # about 3000 lines of 150 bytes in 8 kB writes


# ------------------------------------------------------------------ the worker pool itself


def _square(x: int) -> int:
    if x == 13:
        from phasedsl.errors import RulesError

        raise RulesError("natural_scope", "'group' or 'phase'", x)  # does not pickle back as is
    if x == 99:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.001 * (x % 3))  # answers come back out of order
    return x * x


def test_the_pool_answers_in_order_with_barriers_and_says_what_went_wrong():
    from phasedsl.errors import PhaseDSLError
    from phasedsl.system.workers import BARRIER, Pool, WorkerError

    items = [*range(10), BARRIER, *range(10, 13), BARRIER]
    with Pool(_square, 3) as pool:
        got = list(pool.map(items))
        workers = list(pool.workers)
    assert got == [*(x * x for x in range(10)), BARRIER, 100, 121, 144, BARRIER]
    assert not any(p.is_alive() for p in workers)
    with pytest.raises(PhaseDSLError, match="natural_scope"), Pool(_square, 2) as pool:
        list(pool.map(range(20)))
    with pytest.raises(WorkerError), Pool(_square, 2) as pool:
        list(pool.map([1, 2, 99, 3, 4, 5]))
    assert not any(p.is_alive() for p in pool.workers)
