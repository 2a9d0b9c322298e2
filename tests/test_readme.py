"""The README's examples run as written and print what the README shows.

Every ``$ phasedsl ...`` line in a fenced block is run by bash (so pipes work as shown),
with ``phasedsl`` being this checkout's ``python -m phasedsl.cli``; what it prints
(stdout and stderr together) must equal the lines under it, and its exit code the
``[exit N]`` marker (0 when there is none).
"""

import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def examples() -> list[tuple[int, str, list[str], int]]:
    """(README line number, command, expected output lines, expected exit code)."""
    found = []
    lines = README.read_text(encoding="utf-8").splitlines()
    in_block = False
    current = None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_block = not in_block
            if current:
                found.append(current)
            current = None
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            if current:
                found.append(current)
            current = (number, line[2:], [])
        elif current:
            current[2].append(line)
    out = []
    for number, command, shown in found:
        while shown and not shown[-1].strip():
            shown.pop()
        code = 0
        if shown and (m := re.fullmatch(r"\[exit (\d+)\]", shown[-1])):
            code = int(m.group(1))
            shown = shown[:-1]
        if command.split()[0] == "phasedsl" or "| phasedsl " in command:
            out.append((number, command, shown, code))
    return out


EXAMPLES = examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 10


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    """A PATH on which ``phasedsl`` is this checkout's CLI."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "phasedsl"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m phasedsl.cli "$@"\n')
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=str(ROOT), COLUMNS="80", NO_COLOR="1")
    return env


@pytest.mark.parametrize(("line", "command", "shown", "code"), EXAMPLES,
                         ids=[f"README:{e[0]}" for e in EXAMPLES])
def test_readme_example(line, command, shown, code, shell_env):
    # run from the checkout's root, as the README's paths (docs/examples/...) are written
    got = subprocess.run(["bash", "-c", command], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=shell_env, cwd=ROOT,
                         timeout=600)
    printed = got.stdout.rstrip("\n").splitlines()
    if printed != shown or got.returncode != code:
        diff = "\n".join(difflib.unified_diff(shown, printed, "README.md", "printed now", lineterm=""))
        pytest.fail(f"README.md line {line}: $ {command}\n"
                    f"exit code: README {code}, now {got.returncode}\n{diff or '(same output)'}",
                    pytrace=False)


def test_python_example_runs(capsys):
    block = re.search(r"```python\n(.*?)```", README.read_text(), flags=re.S).group(1)
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "R5 B5 W=5 | G7 G8 W=9 G10" in out
    assert "['R3 onto group 1 at the low end']" in out


def test_package_docstring_example():
    import doctest

    import phasedsl

    assert doctest.testmod(phasedsl).failed == 0


def test_bot_example_runs(capsys):
    text = README.read_text()
    section = text[text.index("## How does my pack play?"):text.index("## Benchmarks")]
    block = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    assert len(block.splitlines()) <= 30
    exec(compile(block, "README.md", "exec"), {})
    assert re.search(r"(ann|bob) won after \d+ hands", capsys.readouterr().out)
