"""`--help`: paragraphs that wrap cleanly at any width, and help asked beside a mistake."""

from __future__ import annotations

import itertools
import json
import os

import pytest
from typer.testing import CliRunner

from phasedsl.cli import COMMANDS, app, command

runner = CliRunner()



def _names() -> list[list[str]]:
    import typer.main

    group = typer.main.get_command(app)
    out = [[name] for name in group.commands if name != "conformance"]
    out += [["conformance", name] for name in command("conformance").commands]
    return [*out, ["conformance"], []]


def help_text(words: list[str], width: int) -> str:
    r = runner.invoke(app, [*words, "--help"], env={"COLUMNS": str(width)})
    assert r.exit_code == 0, r.output
    return r.stdout


def ragged(text: str, width: int) -> list[tuple[str, str]]:
    """Pairs of prose lines (before the first box) where the second line's first word
    would have fitted at the end of the first: a line broken where the terminal did not
    need to break it."""
    prose = text.split("╭")[0].splitlines()
    room = width - 2  # Rich pads the text by one column on each side
    out = []
    for a, b in itertools.pairwise(prose):
        a, b = a.rstrip(), b.rstrip()
        if not a.strip() or not b.strip() or a.startswith("  ") or b.startswith("  "):
            continue  # a blank line or an example
        if a.strip().startswith("Usage:"):
            continue
        if len(a) + 1 + len(b.split()[0]) <= room + 1:
            out.append((a, b))
    return out


@pytest.mark.parametrize("width", [60, 80, 117])
def test_help_paragraphs_wrap_cleanly_at_any_width(width):
    bad = {" ".join(words) or "phasedsl": ragged(help_text(words, width), width)
           for words in _names()}
    assert not {k: v for k, v in bad.items() if v}


def test_the_command_list_gives_each_command_one_line_where_there_is_room():
    import typer.main

    rows = [line for line in help_text([], 500).split("Commands")[1].splitlines()
            if line.startswith("│")]
    assert len(rows) == len(typer.main.get_command(app).commands)


def test_option_help_is_text_not_markup():
    # "[default: 80 ...]" in an option's help was read as a Rich style and vanished
    text = " ".join(help_text(["report"], 200).split())
    assert "[default: 80, as balance; 20 for each world of a pack of several]" in text


@pytest.mark.parametrize("args", [["play", "--help", "--json"], ["play", "--json", "--help"],
                                  ["play", "--help", "--no-such-option"],
                                  ["schema", "--help", "--bogus"]])
def test_help_beside_an_option_the_command_lacks_is_help(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert f"Usage: phasedsl {args[0]}" in r.stdout
    assert '"error"' not in r.stdout and not r.stderr


def test_without_help_a_missing_option_is_still_an_error():
    r = runner.invoke(app, ["play", "--json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["error"] == "No such option: --json"


def test_the_root_help_lists_each_command_by_its_own_first_paragraph():
    # (the list is written without loading the commands: each summary is kept beside its
    # name, and must be what the command's own help says first)
    for name, (_, _, summary) in COMMANDS.items():
        loaded = command(name)
        first = (loaded.short_help or loaded.help or "").split("\n\n")[0]
        assert " ".join(first.split()) == summary, name


def test_a_command_loads_only_what_it_needs():
    import subprocess
    import sys

    probe = ("import sys\nfrom phasedsl.cli import main\nsys.argv = ['phasedsl'] + sys.argv[1:]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "import json\nmods = sorted(m for m in sys.modules if m.startswith('phasedsl.'))\n"
             "print(json.dumps(mods), file=sys.stderr)")

    def loaded(*args: str) -> set[str]:
        r = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True)
        return set(json.loads(r.stderr.strip().splitlines()[-1]))

    assert not {m for m in loaded("--version") if m.split(".")[1] not in ("cli", "errors")}
    assert not {m for m in loaded("--help") if m.split(".")[1] not in ("cli", "errors")}
    # (help is drawn without Rich, whose import took longer than the rest of --help)
    r = subprocess.run([sys.executable, "-c", probe.replace("'phasedsl.'", "'rich'"), "--help"],
                       capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert json.loads(r.stderr.strip().splitlines()[-1]) == []
    checked = loaded("check", "1 set of 3", "R5", "B5", "G5")
    assert "phasedsl.solver" in checked
    assert not {m for m in checked if m.split(".")[1] in ("game", "players", "design", "dice")}


@pytest.mark.parametrize("width", [40, 57, 80])
def test_every_panel_is_a_closed_box_at_any_width(width):
    for words in _names():
        text = help_text(words, width)
        boxed = [line for line in text.splitlines() if line and line[0] in "╭│╰"]
        assert boxed, words
        assert {len(line) for line in boxed} == {width}, (words, width)
        assert all(line[-1] in "╮│╯" for line in boxed)


def test_help_where_the_output_cannot_carry_box_characters_is_drawn_in_ascii():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "phasedsl", "check", "--help"],
                       capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii",
                                                 "COLUMNS": "70"})
    assert r.returncode == 0, r.stderr
    assert b"+- Arguments -" in r.stdout and b"| [PHASE] CARDS...  " in r.stdout


def test_a_command_given_nothing_shows_its_help_on_stdout_and_exits_2():
    for words in ([], ["conformance"]):
        r = runner.invoke(app, words)
        assert r.exit_code == 2 and "Usage: phasedsl" in r.stdout and not r.stderr, words


def test_an_argument_taking_several_words_is_named_once():
    text = help_text(["check"], 80)
    assert "[PHASE] CARDS..." in text and "CARDS......" not in text


def test_every_default_and_range_typer_would_state_is_stated():
    # (help is drawn here, no longer by Typer's Rich panels: each option's default, as
    # Typer words it by its own rule, is in the help, and the help states no other; each
    # range as Click words it)
    import re

    import typer.main

    stated = ranges = 0
    for words in _names():
        cmd = typer.main.get_command(app)
        for w in words:
            cmd = cmd.commands[w] if w in getattr(cmd, "commands", {}) else command(w)
            if w in getattr(cmd, "commands", {}):
                cmd = cmd.commands[w]
        ctx = cmd.make_context(" ".join(words) or "phasedsl", [], resilient_parsing=True)
        want = []
        for p in cmd.get_params(ctx):
            if getattr(p, "hidden", False) or not hasattr(p, "_extract_default_help_str"):
                continue
            # (an option's own words may say its default: report's --games)
            want += re.findall(r"\[default: [^\]]*\]", " ".join((p.help or "").split()))
            value = p._extract_default_help_str(ctx=ctx)
            fixed = isinstance(p.show_default, str)
            if hasattr(p.type, "_describe_range"):  # (an int or float range, as Click words it)
                ranges += 1
                assert f"[{p.type._describe_range()}]" in help_text(words, 300), (words, p.name)
            if fixed or (value is not None and (p.show_default or ctx.show_default)):
                said = p._get_default_string(ctx=ctx, show_default_is_str=fixed,
                                             default_value=value)
                if said:
                    want.append(f"[default: {said}]")
        text = " ".join(help_text(words, 300).replace("│", " ").split())
        assert sorted(re.findall(r"\[default: [^\]]*\]", text)) == sorted(want), words
        stated += len(want)
    assert stated >= 30 and ranges >= 25  # (not an empty comparison: 36 and 29 today)
