"""`phasedsl docs`: the reference pages help names, as installed (a wheel has no docs/)."""

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from phasedsl.cli import COMMANDS, app, command
from phasedsl.cli.docs import PAGES

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_the_list_names_every_page_and_each_prints_as_written():
    r = runner.invoke(app, ["docs"])
    assert r.exit_code == 0
    listed = [line.split()[0] for line in r.stdout.splitlines() if not line.startswith(" ")]
    assert listed[:len(PAGES)] == list(PAGES)
    assert max(map(len, r.stdout.splitlines())) <= 80  # bot-protocol.md's line was 87
    for page in PAGES:
        r = runner.invoke(app, ["docs", page])
        assert r.exit_code == 0, r.output
        assert r.stdout == (ROOT / "docs" / page).read_text(encoding="utf-8").rstrip("\n") + "\n"


def test_a_page_by_its_name_alone_its_path_and_json():
    r = runner.invoke(app, ["docs", "game-log", "--path"])
    assert r.exit_code == 0 and Path(r.stdout.strip()) == ROOT / "docs" / "game-log.md"
    r = runner.invoke(app, ["docs", "conformance", "--json"])
    got = json.loads(r.stdout)
    assert r.exit_code == 0 and got["page"] == "conformance.md"
    assert got["text"] == (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    listed = json.loads(runner.invoke(app, ["docs", "--json"]).stdout)["pages"]
    assert [p["page"] for p in listed] == list(PAGES)
    # --path with no page: the folder the pages and examples are in (it listed them)
    r = runner.invoke(app, ["docs", "--path"])
    assert r.exit_code == 0 and Path(r.stdout.strip()) == ROOT / "docs"
    assert json.loads(runner.invoke(app, ["docs", "--path", "--json"]).stdout) == {
        "path": str(ROOT / "docs")}


def test_a_page_not_installed_is_refused_with_the_list_exit_2():
    for name in ("nope", "../README.md", "x" * 5000, "/etc/passwd"):
        r = runner.invoke(app, ["docs", name])
        assert r.exit_code == 2 and "the pages are bot-protocol.md" in r.output
        assert "x" * 100 not in r.output and "passwd" not in r.output.split("the pages")[1]
    r = runner.invoke(app, ["docs", "nope", "--json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["exit"] == 2


def test_help_and_errors_name_a_page_phasedsl_docs_prints_not_a_checkouts_file():
    # a wheel's user was sent to docs/bot-protocol.md, which a wheel does not hold
    said = []
    for name in COMMANDS:
        cmd = command(name)
        subs = getattr(cmd, "commands", {}) or {name: cmd}
        for sub in subs.values():
            said.append(sub.help or "")
            said += [getattr(p, "help", None) or "" for p in sub.params]
    said.append(runner.invoke(app, ["simulate", "--bot", "nope"]).output)
    text = "\n".join(said)
    assert not re.search(r"docs/[\w/-]+\.(md|py|jsonl)", text), re.findall(r"docs/\S+", text)
    for page in re.findall(r"phasedsl docs ([\w/.-]+)", text):
        assert runner.invoke(app, ["docs", page.rstrip(".)")]).exit_code == 0, page
