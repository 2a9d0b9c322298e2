"""The README's examples run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


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
