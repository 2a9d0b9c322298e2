import sys
from pathlib import Path

# The brute-force reference lives beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

# The dealt-odds cache (phasedsl.design.oddscache) of a test run lives in a folder of its own,
# never the user's: every test and every command a test starts sees the same one.
if "PHASEDSL_CACHE" not in __import__("os").environ:
    import os
    import tempfile

    os.environ["PHASEDSL_CACHE"] = tempfile.mkdtemp(prefix="phasedsl-test-cache-")

import pytest

# The quick tier (`pytest -m "not slow"`, README): tests measured slow are listed in
# slow.txt, by id, so that the tier follows the measurement rather than a guess per file.
SLOW = {line.strip() for line in (Path(__file__).parent / "slow.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of the quick tier (pytest -m 'not slow')")


# README examples are named by their line, which moves as the README is edited: the ones
# that play games (a simulation, a balance, a report, a tournament) or solve a dice phase's
# tables (hold) are slow by their command.
PLAYS_GAMES = ("phasedsl simulate", "phasedsl balance", "phasedsl report", "phasedsl tournament",
               "phasedsl generate", "phasedsl hold")  # (hold: a dice phase's tables, cold)


def pytest_collection_modifyitems(config, items):
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.nodeid in SLOW or str(params.get("command", "")).startswith(PLAYS_GAMES):
            item.add_marker(pytest.mark.slow)
        elif params.get("name", "README.md") != "README.md" and "command" in params:
            # (the documentation's examples: each a whole process; the README's stay quick)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _sigint_as_python_sets_it():
    # pytest-xdist's workers run with SIGINT ignored, and a program started with a signal
    # ignored keeps it ignored: the tests that send Ctrl-C to phasedsl need it back
    # (and neither may be left blocked: a blocked signal stays blocked in a program started
    # meanwhile; the workers' tests let them through where they hold them)
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, set()) & {signal.SIGINT, signal.SIGTERM}
    if blocked:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, blocked)
    yield


@pytest.fixture
def played_afresh(monkeypatch):
    """Every game played, none read from the games kept on disk (``gamecache``): for a
    test that compares two runs, which the second would otherwise read from the first."""
    from phasedsl.design import gamecache

    monkeypatch.setattr(gamecache, "read", lambda key: {})
