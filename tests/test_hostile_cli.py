"""Hostile and odd inputs through the command line: each is a clear error with exit 2 (a
JSON error object under --json, an error row in a batch), at once, never a traceback."""

import json

from typer.testing import CliRunner

from phasedsl.cli import app

runner = CliRunner()
LONG_NAME = "x" * 10_000  # longer than any file system allows a name


def run(*args, input=None):
    r = runner.invoke(app, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def refused(*args, says, input=None):
    """Exit 2 with ``says`` in the message, in text and in JSON."""
    r = run(*args, input=input)
    assert r.exit_code == 2 and says in r.stderr and len(r.stderr.splitlines()) <= 3, r.stderr
    r = run(*args, "--json", input=input)
    out = json.loads(r.stdout)
    assert r.exit_code == 2 and out["exit"] == 2 and says in out["error"], out
    return out


def test_a_batch_line_that_is_not_utf8_is_an_error_row_and_the_batch_goes_on(tmp_path):
    # it was a UnicodeDecodeError traceback, from a file or from stdin
    good = b'{"id": 1, "phase": "1 set of 3", "cards": "R5 B5 W"}\n'
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(good + b'{"id": 2, "phase": "1 set of 3", "cards": "R5 \xff"}\n' + good)
    for source, data in ((str(path), None), ("-", path.read_bytes())):
        r = run("check", "--batch", source, input=data)
        rows = [json.loads(x) for x in r.stdout.splitlines()]
        assert r.exit_code == 2 and [row["line"] for row in rows] == [1, 2, 3]
        assert rows[1] == {"line": 2, "id": None, "error": "not UTF-8 text: byte 0xff at column 47"}
        assert rows[0]["valid"] is True and rows[2]["valid"] is True
    path.write_bytes(b"2 sets of 3\n1 set \xfe of 3\n")
    rows = [json.loads(x) for x in run("parse", "--batch", str(path)).stdout.splitlines()]
    assert rows[1] == {"line": 2, "input": None, "error": "not UTF-8 text: byte 0xfe at column 7"}


def test_a_number_python_cannot_read_is_an_error_not_a_crash(tmp_path):
    # a whole number of over 4,300 digits was a ValueError traceback
    big = "9" * 5000
    line = '{"id": ' + big + ', "phase": "1 set of 3", "cards": "R5"}\n'
    rows = [json.loads(x) for x in run("check", "--batch", "-", input=line).stdout.splitlines()]
    assert rows == [{"line": 1, "id": None,
                     "error": "not a usable number: a whole number of 5,000 digits"}]
    log = tmp_path / "game.jsonl"
    log.write_text('{"type": "game", "variant": "original", "players": ["ann", "bob"], '
                   '"dealer": "bob", "seed": ' + big + "}\n")
    refused("replay", str(log), says="line 1: not JSON: a whole number of 5,000 digits")


def test_file_names_no_file_can_have(tmp_path):
    # a NUL in a name, or a name too long for the system, were tracebacks
    refused("replay", "a\x00b", says="a file name holds no NUL character")
    refused("check", "--batch", "a\x00b", says="a file name holds no NUL character")
    refused("check", "--variant", LONG_NAME, "--phase", "1", "R5", says="no pack")
    refused("check", "--variant", LONG_NAME + ".yaml", "--phase", "1", "R5",
            says="cannot read: File name too long")
    for cmd in ("lint", "validate"):
        r = run(cmd, LONG_NAME)
        assert r.exit_code == 2 and "no pack" in r.stdout + r.stderr


def test_a_log_of_too_many_lines_is_refused_before_it_is_read(tmp_path, monkeypatch):
    # a log of a million events was parsed whole (17 s) before the limit was said
    import phasedsl.game.moves as moves

    def unread(*_):
        raise AssertionError("a line was read")

    monkeypatch.setattr(moves, "move_from_log", unread)
    log = tmp_path / "long.jsonl"
    log.write_text('{"type": "game"}\n' * 250_001)
    refused("replay", str(log), says="has 250,001 lines; a log holds at most 250,000")


def test_lines_are_counted_as_splitlines_splits_them():
    # (the count the refusal gives is the lines the log would be read as)
    from phasedsl.cli.game import line_count

    for text in ("", "a", "a\n", "\n", "\n\n", "a\r\nb", "a\r\n", "a\r", "\r\r\n",
                 "a\u2028b\x85c\x1c", "a\n\r", "\v\f", "a\r\n\r\nb\n"):
        assert line_count(text) == len(text.splitlines()), repr(text)


def test_a_log_of_many_short_lines_is_refused_without_making_its_lines(tmp_path):
    # the lines were made before they were counted: a 60 MB log of 20 million "{}" lines
    # took 1.5 GB and 5 s to be refused; 4 million lines (12 MB) took 340 MB, now 55 MB
    import subprocess
    import sys

    log = tmp_path / "short.jsonl"
    log.write_text("{}\n" * 4_000_000)
    # the largest memory of the command alone, measured by a parent of its own
    probe = ("import resource, subprocess, sys; r = subprocess.run([sys.executable, '-m', "
             "'phasedsl', 'replay', sys.argv[1]], capture_output=True, text=True); "
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
             "print(r.stderr)")
    out = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True,
                         text=True, timeout=120).stdout
    code, kb = out.split("\n", 1)[0].split()
    assert code == "2" and "has 4,000,000 lines; a log holds at most 250,000" in out, out
    assert int(kb) < 150_000, out


def test_an_empty_laid_group_is_an_input_error():
    # --groups "" was judged as a group of no cards (exit 1)
    refused("check", "1 set of 3", "--groups", "", says="group 1 has no cards")
    refused("check", "2 sets of 3", "--groups", "R5 B5 W", "--groups", " ",
            says="group 2 has no cards")
    line = json.dumps({"id": 1, "phase": "1 set of 3", "groups": [""]})
    row = json.loads(run("check", "--batch", "-", input=line).stdout)
    assert row["error"].startswith("group 1 has no cards")


def test_a_report_or_plot_that_cannot_be_written_is_refused_before_the_games(tmp_path,
                                                                             monkeypatch):
    # a folder, or a missing folder, was found out only after every game was played
    import phasedsl.design.report as report
    import phasedsl.design.simulate as simulate

    def no_games(*_, **__):
        raise AssertionError("games were played")

    monkeypatch.setattr(report, "pack_figures", no_games)
    monkeypatch.setattr(simulate, "simulate", no_games)
    for target, says in ((tmp_path, "it is a folder"), (tmp_path / "no" / "r.html",
                                                        "there is no folder")):
        r = run("report", "original", "-o", str(target))
        assert r.exit_code == 2 and says in r.stderr, r.stderr
    r = run("report", "original", "-o", "")
    assert r.exit_code == 2 and "an empty name names no file" in r.stderr
    refused("simulate", "--variant", "original", "-n", "2", "-g", "1", "--plot",
            str(tmp_path / "no" / "p.svg"), says="there is no folder")


def test_play_refuses_an_endless_or_huge_command_line_without_echoing_it():
    # a 2 MB line was read whole and echoed back twice (4 MB, seconds); /dev/zero never ended
    r = run("play", "--variant", "original", "--seed", "3", input="x" * 2_000_000 + "\nquit\n")
    assert r.exit_code == 0 and len(r.stdout) < 20_000
    assert "? a command is at most 10,000 characters" in r.stdout
    r = run("play", "--variant", "original", "--seed", "3", input="y" * 12_000_000)
    assert "the input has a line with no end: the game stops" in r.stdout
    assert len(r.stdout) < 20_000
    r = run("play", "--variant", "original", "--seed", "3", input="z" * 5000 + "\nquit\n")
    assert "unknown command 'zzzzzzzzzzzzzzzzzzzzzzzz'... (5,000 characters)" in r.stdout


def test_a_simulation_of_one_game_says_game():
    r = run("simulate", "--variant", "short-game-5", "-n", "2", "--games", "1")
    assert r.exit_code == 0 and "short-game-5: 1 game of 2 greedy bots" in r.stdout


def test_a_log_value_or_name_is_never_echoed_whole(tmp_path):
    # a 100,000-character world, player or field was echoed whole in the error
    head = {"type": "game", "variant": "world-tour", "world": "x" * 100_000,
            "players": ["ann", "bob"], "dealer": "bob"}
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(head) + "\n")
    out = refused("replay", str(log), says="has no world 'xxxxxxxx")
    assert "(100,000 characters)" in out["error"] and len(out["error"]) < 1000
    head.update(variant="original", world=None, players=["ann", "b" * 100_000])
    log.write_text(json.dumps(head) + "\n")
    refused("replay", str(log), says="a player's name is at most 40 printable characters")
    head.update(players=["ann", "bob"])
    deal = '{"type": "deal", "hands": ' + "[" * 900 + "]" * 900 + "}"
    log.write_text(json.dumps(head) + "\n" + deal + "\n")
    out = refused("replay", str(log), says="line 2: 'hands' of a 'deal' event must be")
    assert "(1,800 characters)" in out["error"] and len(out["error"]) < 1000
    r = run("check", "--variant", "world-tour", "--world", "y" * 100_000, "--phase", "1", "R5")
    assert r.exit_code == 2 and len(r.stderr) < 1000


def test_a_deck_the_schema_refuses_is_never_built(tmp_path, monkeypatch):
    # numbers 1 to a billion: the phases were read against that deck, which took minutes
    # and gigabytes before the schema's error was said
    from phasedsl.model.cards import STANDARD_DECK
    from phasedsl.model.phase import Phase

    read = Phase.parse
    decks = []

    def spy(text, deck=STANDARD_DECK):
        decks.append(deck)
        return read(text, deck)

    monkeypatch.setattr(Phase, "parse", staticmethod(spy))
    pack = tmp_path / "huge.yaml"
    pack.write_text("name: huge\ntitle: t\ndescription: d\nsource: s\nphases: ['2 sets of 3']\n"
                    "rules:\n  deck: {numbers: {low: 1, high: 1000000000}}\n")
    r = run("validate", str(pack))
    assert r.exit_code == 1 and "1000000000 is too large: the most allowed is 30" in r.stdout
    r = run("check", "--variant", str(pack), "--phase", "1", "R5")
    assert r.exit_code == 2 and "the most allowed is 30" in r.stderr
    assert decks and all(d == STANDARD_DECK for d in decks)


def test_a_usage_mistake_is_one_line_like_every_other_error():
    # Typer drew a five-line box under the usage line; --json already gave one object
    for args, says in ((["simulate", "-v", "original", "-n", str(10**9), "-g", "1"],
                        "Invalid value for '--players' / '-n': 1000000000 is not in the range "
                        "1<=x<=6"),
                       (["odds", "2 sets of 3", "--draws", "-1"], "-1 is not in the range 0<=x<=50"),
                       (["check", "-v", "original", "-p", "99999999999999999999999x", "R5"],
                        "Invalid value for '--phase'"),
                       (["hit", "R5"], "Missing option '--on'")):
        out = refused(*args, says=says)
        assert "--help" not in out["error"]
        r = run(*args)
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr
        assert r.stderr.rstrip().endswith(f" {args[0]} --help')"), r.stderr
    r = run("report", "original", "-o", "r.html", "--games", str(10**9))  # (no --json there)
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1
    assert "is not in the range 1<=x<=100000" in r.stderr


def test_a_game_log_that_cannot_be_written_stops_the_game_with_an_error():
    # a full disk was an OSError traceback when the log was flushed or closed
    import os

    import pytest

    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    # a device is never replaced by a log, even with --force (a full disk itself is in
    # test_outputs_signals.py)
    for force in ([], ["--force"]):
        r = run("play", "--variant", "original", "--seed", "3", "--log", "/dev/full", *force,
                input="draw deck\nquit\n")
        assert r.exit_code == 2 and r.stderr == ("error: cannot write /dev/full: it is not a "
                                                 "regular file\n")


def test_sampling_that_would_run_for_hours_is_refused_with_the_estimate(monkeypatch, tmp_path):
    # --draws 50 on a phase of ten groups sampled 200,000 hands of 60 cards, for as long
    # as that took; the limit is lowered here so that any sampled figure passes it (a
    # cache of its own: a figure another test worked out would be read back, not sampled)
    import phasedsl.design.odds as odds
    from phasedsl.design import difficulty

    monkeypatch.setenv("PHASEDSL_CACHE", str(tmp_path))
    difficulty.clear_memory()
    monkeypatch.setattr(odds, "MAX_SAMPLING_SECONDS", 1e-9)
    out = refused("odds", "1 color run of 4", "--samples", "5000", says="sampling 5,000 hands of "
                  "10 cards for 1 color run of 4 would take about")
    assert "ms a hand): --samples" in out["error"] and "takes about a minute" in out["error"]
    monkeypatch.setattr(odds, "MAX_SAMPLING_SECONDS", 300.0)
    assert run("odds", "1 color run of 4", "--samples", "5000").exit_code == 0


def test_show_refuses_an_empty_world_and_a_pack_name_is_never_echoed_whole():
    # --world "" was taken as no world at all (the whole pack shown, exit 0)
    refused("show", "original", "--world", "", says="pack 'original' has no world ''")
    # a 5,000-character pack name was echoed twice
    out = refused("show", "x" * 5000, says="no pack 'xxxxxxxx")
    assert "(5,000 characters)" in out["error"] and len(out["error"]) < 1000


def test_play_with_an_empty_log_name_is_an_error_not_a_game_without_a_log():
    # --log "" played the whole game and wrote no log, silently
    r = run("play", "--variant", "original", "--log", "", input="quit\n")
    assert r.exit_code == 2 and r.stderr == "error: cannot write '': an empty name names no file\n"


def test_replay_of_an_empty_name_says_so_not_the_current_folder():
    # replay "" said "cannot read .: not a regular file" (a Path of "" is the current folder)
    refused("replay", "", says="give a game log: an empty name names no file (- for stdin)")


def test_an_empty_name_names_no_file_and_dash_is_stdout_only_where_it_can_be(tmp_path,
                                                                              monkeypatch):
    # --logs "" and -o "" were read as the current folder (a Path of ""), and --plot - or
    # -o - wrote a file called "-"
    monkeypatch.chdir(tmp_path)
    for args in (["simulate", "original", "-g", "1", "--logs", ""],
                 ["tournament", "original", "-g", "1", "--logs", ""],
                 ["report", "original", "-g", "1", "-o", ""],
                 ["generate", "--phases", "3", "-o", ""],
                 ["balance", "original", "-g", "1", "--write", ""],
                 ["odds", "1 set of 3", "--plot", ""]):
        refused(*args, says="an empty name names no file")
    for args in (["simulate", "original", "-g", "1", "--plot", "-"],
                 ["odds", "1 set of 3", "--plot", "-"],
                 ["generate", "--phases", "3", "-o", "-"],
                 ["balance", "original", "-g", "1", "--write", "-"]):
        refused(*args, says="does not write to standard output ('-'): give a name")
    assert list(tmp_path.iterdir()) == []
    r = run("report", "short-game-5", "-g", "2", "-o", "-")
    assert r.exit_code == 0 and r.stdout.startswith("<!DOCTYPE html>"), r.stdout[:200]
    assert r.stdout.rstrip().endswith("</html>") and "wrote" not in r.stdout
    r = run("report", "short-game-5", "-g", "2", "-o", "./-")  # (a file called -)
    assert r.exit_code == 0 and r.stdout.startswith("wrote ") and (tmp_path / "-").is_file()
    (tmp_path / "-").unlink()
    r = run("report", "short-game-5", "-g", "2", "-o", "-", "--json")
    assert r.exit_code == 2 and "-o - writes the page to standard output, where --json would " \
        "write too" in json.loads(r.stdout)["error"]
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_utf8_or_yaml_text_is_pointed_at_by_line_and_column(tmp_path):
    # a pack said only "not UTF-8 text"; a log named a byte position from the decoder; a NUL
    # in a pack gave PyYAML's character position; YAML nested past what Python recurses
    # through had no line
    pack = tmp_path / "u.yaml"
    pack.write_bytes(b"name: u\ntitle: \xc3\xa9t\xc3\xa9 \xff\n")
    r = run("validate", str(pack))
    assert r.exit_code == 2 and f"{pack}:2:12: error: not UTF-8 text: byte 0xff" in r.stdout, \
        r.stdout
    out = refused("check", "--variant", str(pack), "1 set of 3", "R1", "R1", "R1",
                  says="not UTF-8 text: byte 0xff (save the file as UTF-8)")
    assert out["error"].startswith(f"{pack}:2:12: "), out
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b'{"type": "game"}\n{"type": "\xe9"}\n')
    for args, data in (([str(log)], None), (["-"], log.read_bytes())):
        refused("replay", *args, input=data,
                says="line 2, column 11: not UTF-8 text: byte 0xe9 (save the file as UTF-8)")
    nul = tmp_path / "nul.yaml"
    nul.write_text('name: nul\nphases:\n  - "1 set of 3\x00"\n')
    r = run("validate", str(nul))
    assert r.exit_code == 1 and f"{nul}:3:16: error: the character U+0000 is not allowed" \
        in r.stdout, r.stdout
    deep = tmp_path / "deep.yaml"
    deep.write_text("name: deep\n\nphases: " + "[" * 3000 + "]" * 3000 + "\n")
    r = run("validate", str(deep))
    assert r.exit_code == 1 and f"{deep}:3:41: error: nested too deeply (the limit is 32" \
        in r.stdout, r.stdout


def test_a_pack_of_thousands_of_keys_is_one_problem_not_one_a_key(tmp_path):
    # 60,000 unknown keys (or a key given 60,000 times) were each a problem quoting the keys
    # allowed: a file within the size limit printed 12 MB of problems over 20 s
    head = "name: keys\ntitle: t\ndescription: d\nsource: s\nphases: ['2 sets of 3']\n"
    pack = tmp_path / "keys.yaml"
    for body, line in (("rules:\n" + "".join(f"  k{i}: {i}\n" for i in range(60_000)), 5007),
                       ("title: t\n" * 60_000, 5001)):
        pack.write_text(head + body, encoding="utf-8")
        r = run("validate", str(pack))
        assert r.exit_code == 1 and len(r.stdout) < 1000, r.stdout[:500]
        assert f"{pack}:{line}:" in r.stdout and "keys: too many for a pack (at most 5,000 " \
            "are read)" in r.stdout, r.stdout
        out = refused("odds", str(pack), says="keys: too many")
        assert out["problems"][0]["line"] == line
    # up to 5,000 keys each unknown key is still said (test_pack_problems_at_once)


def test_a_plot_name_with_no_suffix_is_named_in_the_error(tmp_path):
    # --plot DIR said "--plot writes .png or .svg files, not no suffix"
    for command in (["odds", "2 sets of 3"], ["simulate", "original", "-g", "1"]):
        refused(*command, "--plot", str(tmp_path), says="--plot writes .png or .svg files: name "
                                                        "one (like plot.svg), not '")
        refused(*command, "--plot", "p.html", says="--plot writes .png or .svg files, not .html")


def test_a_pack_name_that_is_a_folder_here_says_so(tmp_path, monkeypatch):
    # `validate dd` of a folder dd said only "no pack 'dd'"
    (tmp_path / "dd").mkdir()
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["validate", "dd"])
    assert r.exit_code == 2 and "a folder of that name is here" in r.output
    r = runner.invoke(app, ["validate", "ee"])
    assert r.exit_code == 2 and "folder" not in r.output
