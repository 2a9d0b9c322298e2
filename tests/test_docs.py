"""The README's and the documentation's examples run as written and print what they show.

Every ``$ phasedsl ...`` line in a fenced block of README.md or of a page under docs/ is
run by bash (so pipes work as shown), with ``phasedsl`` being this checkout's ``python -m
phasedsl.cli``; what it prints (stdout and stderr together) must equal the lines under it,
and its exit code the ``[exit N]`` marker (0 when there is none).  Every ``python`` block
runs too.  A ``sh`` block is a command to type (an install, ``serve``, a program of one's
own under ``conformance run``): not run here; where the page shows what one writes (the
pack ``generate`` writes), a test of that command compares it.
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
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]


def page(name: str) -> str:
    """A documentation page's text (``"README.md"`` or a path under docs/)."""
    return (ROOT / name if name == "README.md" else ROOT / "docs" / name).read_text(
        encoding="utf-8")


def examples() -> list[tuple[str, int, str, list[str], int]]:
    """(page, line number, command, expected output lines, expected exit code)."""
    out = []
    for path in PAGES:
        name = str(path.relative_to(ROOT))
        found = []
        in_block = False
        current = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
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
        for number, command, shown in found:
            while shown and not shown[-1].strip():
                shown.pop()
            code = 0
            if shown and (m := re.fullmatch(r"\[exit (\d+)\]", shown[-1])):
                code = int(m.group(1))
                shown = shown[:-1]
            if command.split()[0] == "phasedsl" or "| phasedsl " in command:
                out.append((name, number, command, shown, code))
    return out


EXAMPLES = examples()


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 30
    assert sum(e[0] == "README.md" for e in EXAMPLES) >= 4


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


@pytest.mark.parametrize(("name", "line", "command", "shown", "code"), EXAMPLES,
                         ids=[f"{e[0]}:{e[1]}" for e in EXAMPLES])
def test_docs_example(name, line, command, shown, code, shell_env):
    # run from the checkout's root, as the pages' paths (docs/examples/...) are written
    got = subprocess.run(["bash", "-c", command], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=shell_env, cwd=ROOT,
                         timeout=600)
    printed = got.stdout.rstrip("\n").splitlines()
    if printed != shown or got.returncode != code:
        diff = "\n".join(difflib.unified_diff(shown, printed, name, "printed now", lineterm=""))
        pytest.fail(f"{name} line {line}: $ {command}\n"
                    f"exit code: the page {code}, now {got.returncode}\n{diff or '(same output)'}",
                    pytrace=False)


def test_python_example_runs(capsys):
    block = re.search(r"```python\n(.*?)```", page("reference/python-api.md"),
                      flags=re.S).group(1)
    exec(compile(block, "docs/reference/python-api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "R5 B5 W=5 | G7 G8 W=9 G10" in out
    assert "['R3 onto group 1 at the low end']" in out


def test_package_docstring_example():
    import doctest

    import phasedsl

    assert doctest.testmod(phasedsl).failed == 0


def test_bot_example_runs(capsys):
    section = page("tutorials/how-it-plays.md")
    block = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    assert len(block.splitlines()) <= 30
    exec(compile(block, "docs/tutorials/how-it-plays.md", "exec"), {})
    assert re.search(r"(ann|bob) won after \d+ hands", capsys.readouterr().out)


PYTHON = [(str(p.relative_to(ROOT)), k, block) for p in PAGES
          for k, block in enumerate(re.findall(r"```python\n(.*?)```",
                                               p.read_text(encoding="utf-8"), flags=re.S))]


@pytest.mark.parametrize(("name", "k", "block"), PYTHON, ids=[f"{n}#{k}" for n, k, _ in PYTHON])
def test_every_python_block_runs(name, k, block, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # (as the pages' paths are written)
    exec(compile(block, f"{name} (python block {k + 1})", "exec"), {})


def _hooks():
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_is_written_from_every_command_and_option():
    from phasedsl.cli import COMMANDS, command

    text = _hooks().cli_reference()
    for name in COMMANDS:
        assert f"## `phasedsl {name}`" in text, name
        cmd = command(name)
        for inner in getattr(cmd, "commands", {}).values() or [cmd]:
            for p in inner.params:
                if p.param_type_name == "option" and not getattr(p, "hidden", False) \
                        and p.name != "help":
                    assert f"`{p.opts[0]}" in text, (name, p.opts)
    assert "phasedsl balance original" in text  # (the examples, as code)


def test_the_schema_reference_lists_every_key_of_the_schema():
    from phasedsl.packs.pack import schema

    text = _hooks().schema_reference()
    s = schema()
    for key in s["properties"]:
        assert f"| `{key}` |" in text, key
    for key in s["$defs"]["rules"]["properties"]:
        assert f"| `rules.{key}` |" in text, key


def test_every_page_is_in_the_sites_navigation():
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]

    def pages(items):
        for item in items:
            for value in item.values():
                yield from pages(value) if isinstance(value, list) else [value]

    listed = set(pages(nav))
    on_disk = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert on_disk == listed


def test_the_first_pack_tutorial_runs_as_written(tmp_path, shell_env):
    """tutorials/first-pack.md: the pack saved as mine.yaml validates and shows as the page
    prints it (its commands are in a ``sh`` block: they run in the reader's folder, not the
    checkout's), and with the two misspellings the page names, validate says what it shows."""
    text = page("tutorials/first-pack.md")
    pack = re.search(r"```yaml\n(name: mine\n.*?)```", text, flags=re.S).group(1)
    commands = re.search(r"```sh\n(phasedsl validate mine\.yaml\n.*?)```", text,
                         flags=re.S).group(1)
    shown = [body for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)
             if not lang]

    def run(command):
        got = subprocess.run(["bash", "-c", command], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=shell_env,
                             cwd=tmp_path, timeout=120)
        return got.stdout, got.returncode

    (tmp_path / "mine.yaml").write_text(pack)
    outputs = [run(c) for c in commands.splitlines()]
    assert [code for _, code in outputs] == [0, 0]
    assert "".join(out for out, _ in outputs) == shown[0]
    (tmp_path / "mine.yaml").write_text(
        pack.replace("one_color: true", "one_colour: true").replace("1 run of 8", "1 rn of 8"))
    out, code = run("phasedsl validate mine.yaml")
    assert code == 1 and out == shown[1]
