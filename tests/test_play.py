"""`phasedsl play`: the command parser, the screen, and whole games from scripted input."""

import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.cli.play import BOT_NAMES, play_game
from phasedsl.game import Abandon, Declare, Discard, Draw, Game, Give, Hit, IllegalMove, Lay, Save, Swap, view
from phasedsl.game.log import replay
from phasedsl.model.cards import STANDARD_DECK, Card
from phasedsl.players.bots import BOTS
from phasedsl.players.play import CommandError, command_text, describe, parse_command, screen, skipped

runner = CliRunner()
W = Card(wild=True)
S = Card(skip=True)


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize("line, move", [
    ("draw deck", Draw("ann", "deck")),
    ("DRAW Discard", Draw("ann", "discard")),
    ("draw save", Draw("ann", "save")),
    ("draw save r5", Draw("ann", "save", c("R5"))),
    ("lay R5 B5 W | G7 G8 G9 G10", Lay("ann", ((c("R5"), c("B5"), W),
                                                 (c("G7"), c("G8"), c("G9"), c("G10"))))),
    ("lay R5,B5,W|G7 G8 G9 G10", Lay("ann", ((c("R5"), c("B5"), W),
                                               (c("G7"), c("G8"), c("G9"), c("G10"))))),
    ("lay R7 B7 G7 | Y1 Y2 Y3 as 4", Lay("ann", ((c("R7"), c("B7"), c("G7")),
                                                   (c("Y1"), c("Y2"), c("Y3"))), 4)),
    ("lay R7 B7 G7 as phase 2", Lay("ann", ((c("R7"), c("B7"), c("G7")),), 2)),
    ("hit G11 on bob 2", Hit("ann", c("G11"), "bob", 2)),
    ("hit W=6 on bob 1", Hit("ann", Card(6, wild=True), "bob", 1)),
    ("hit w on me 1", Hit("ann", W, "ann", 1)),
    ("swap R7 on bob 1", Swap("ann", c("R7"), "bob", 1)),
    ("swap R7 on bob 1 low", Swap("ann", c("R7"), "bob", 1, "low")),
    ("discard R5", Discard("ann", c("R5"))),
    ("discard S skip cat", Discard("ann", S, "cat")),
    ("discard W skip cat", Discard("ann", W, "cat")),
    ("discard s", Discard("ann", S)),
    ("save R5", Save("ann", c("R5"))),
    ("abandon", Abandon("ann")),
    ("declare 4", Declare("ann", 4)),
    ("give cat", Give("ann", "cat")),
    ("help", "help"),
    ("?", "help"),
    ("quit", "quit"),
    ("  exit  ", "quit"),
])
def test_every_command_form_is_read(line, move):
    assert parse_command(line, "ann", STANDARD_DECK) == move
    if not isinstance(move, str):
        assert parse_command(command_text(move), "ann", STANDARD_DECK) == move


@pytest.mark.parametrize("line, expected", [
    ("", "type a command"),
    ("dance", "unknown command 'dance'"),
    ("drwa deck", "did you mean 'draw'?"),
    ("draw", "'draw deck' or 'draw discard'"),
    # the screen says "draw pile 77" for the deck: a bare "draw pile" is pointed at 'draw deck'
    ("draw pile", "'draw deck' takes the top card of the draw pile"),
    ("draw pile 2 3", "expected 'draw pile N'"),
    ("draw heap", "'draw deck' or 'draw discard'"),
    ("draw deck R5", "'draw deck' takes nothing after it"),
    ("lay", "split by |, like 'lay R5 B5 W | G7 G8 G9 G10'"),
    ("lay R5 B5 | ", "split by |"),
    ("lay R5 X5", "group 1: unknown color 'X' in 'X5'"),
    ("lay R5 R5 R5 as four", "the phase after 'as' must be a number"),
    ("lay as 4", "expected the groups of your phase split by |"),
    ("lay as phase 4", "expected the groups of your phase split by |"),
    ("hit G11", "expected 'hit CARD on PLAYER GROUP'"),
    ("hit G11 on bob", "expected 'on PLAYER GROUP'"),
    ("hit G11 on bob two", "the group (counted from 1"),
    ("hit G11 G12 on bob 1", "expected one card, like 'hit G11 on bob 2'"),
    ("hit R13 on bob 1", "no card 'R13': numbers go from 1 to 12"),
    ("swap R7 bob 1", "expected 'swap CARD on PLAYER GROUP"),
    ("discard", "expected one card, like 'discard R5'"),
    ("discard R5 R6", "expected one card"),
    ("discard S skip", "skip whom?"),
    ("save", "expected one card, like 'save R5'"),
    ("abandon now", "'abandon' takes nothing after it"),
    ("declare", "expected 'declare N'"),
    ("declare x", "the phase must be a number"),
    ("declare 99999", "the phase: '99999' is too large (999 at most)"),
    ("give", "expected 'give PLAYER'"),
    ("quit now", "'quit' takes nothing after it"),
])
def test_an_unreadable_command_says_what_was_expected(line, expected):
    with pytest.raises(CommandError) as e:
        parse_command(line, "ann", STANDARD_DECK)
    assert expected in str(e.value)


def _random_states(pack: str, seed: int, steps: int):
    game = Game.new(pack, ["ann", "bob", "cat"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return
        yield game.state
        game = game.apply(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("pack", ["original", "masters-variant-2", "utah", "dealers-choice",
                                  "truly-wild", "pick-a-phase", "japanese-wild-rules"])
def test_every_legal_move_has_a_command_that_reads_back_as_it(pack):
    kinds = set()
    for state in _random_states(pack, 5, 400):
        me = state.to_move
        deck = state.table.rules.deck
        for m in view(state, me).moves:
            assert parse_command(command_text(m), me, deck) == m, m
            kinds.add(type(m))
    assert {Draw, Discard} <= kinds


def _first_legal_script(pack: str, seed: int, bots: int = 2, name: str = "ann"
                        ) -> tuple[list[str], Game]:
    """Play a game as ``phasedsl play`` does, the person answering each prompt with the
    first legal move of what they see; return their commands and the game."""
    names = [n for n in BOT_NAMES if n != name][:bots]
    game = Game.new(pack, [name, *names], seed=seed)
    now = [game]
    commands: list[str] = []

    def read(prompt: str) -> str:
        commands.append(command_text(view(now[0].state, name).moves[0]))
        return commands[-1]

    players = {n: BOTS["greedy"](seed=seed + k) for k, n in enumerate(names, 1)}
    game, finished = play_game(game, name, players, read, lambda text: None,
                               lambda g, new: now.__setitem__(0, g))
    assert finished
    return commands, game


def test_a_whole_game_from_scripted_input_reaches_the_end_and_its_log_replays(tmp_path):
    commands, game = _first_legal_script("short-game-5", 3)
    log = tmp_path / "game.jsonl"
    r = runner.invoke(app, ["play", "--variant", "short-game-5", "--bots", "2", "--seed", "3",
                            "--log", str(log)], input="\n".join(commands) + "\n")
    assert r.exit_code == 0, r.output
    assert f"winner: {game.winner}" in r.output
    assert "hand 1: cat deals; the up-card is" in r.output
    assert "ann> draw deck\n  you drew " in r.output  # piped commands are echoed
    assert "bob drew from the deck\n" in r.output  # a bot's deck draw keeps its card hidden
    assert "hand 1: " in r.output and "went out" in r.output
    assert all(len(line) <= 80 for line in r.output.splitlines()[:-1])
    assert r.output.splitlines()[-1] == f"the log is in {log}"
    written = log.read_text().splitlines()
    assert written == game.to_log()
    result = replay(written)
    assert result.legal and result.winner == game.winner


@pytest.mark.parametrize("pack, command", [("masters", "declare "), ("dealers-choice", "give "),
                                           ("pick-a-phase", " as ")])
def test_whole_games_of_packs_with_choices_reach_the_end(pack, command, tmp_path):
    commands, game = _first_legal_script(pack, 11, bots=1)
    assert any(command in line for line in commands)  # the pack's own choice was typed
    log = tmp_path / "game.jsonl"
    r = runner.invoke(app, ["play", "--variant", pack, "--bots", "1", "--seed", "11",
                            "--log", str(log)], input="\n".join(commands) + "\n")
    assert r.exit_code == 0
    assert f"winner: {game.winner}" in r.output
    assert all(len(line) <= 80 for line in r.output.splitlines()[:-1])
    assert not re.search(r"bob (drew \S+ from the deck|saved [^a])", r.output)  # hidden cards
    if pack != "dealers-choice":  # phases in any order: the screen lists those done
        assert "\n  done so far: phase " in r.output
    assert replay(log.read_text().splitlines()).legal


def test_an_illegal_command_shows_the_referees_reason_and_asks_again(tmp_path):
    r = runner.invoke(app, ["play", "--variant", "original", "--seed", "3"],
                      input="discard R5\nlay R1 R1 R1 | R2 R2 R2\ndraw deck\nlay G2 Y2 B3 | B3 "
                            "B4 G5\nhit G2 on bob 1\ndiscard R12\ndrwa\n")
    assert r.exit_code == 0
    out = r.output
    assert ("ann> discard R5\n  not allowed: ann must draw a card (from the deck or the discard "
            "pile) before\n    anything else\nann> lay R1") in out
    assert "ann> lay R1 R1 R1 | R2 R2 R2\n  not allowed: ann must draw a card" in out
    assert ("  not allowed: G2 Y2 B3 | B3 B4 G5 does not make phase 1 (2 sets of 3): group 1:\n"
            "    a set shows one number, this group has 2 and 3; group 2:") in out
    assert "  not allowed: ann must lay their own phase before hitting (tried G2)" in out
    assert "  not allowed: ann does not hold R12" in out
    assert "ann> drwa\n  ? unknown command 'drwa'; did you mean 'draw'?" in out
    assert out.count("ann> ") == 8  # asked again after each refusal, and once more at the end
    assert out.rstrip().endswith("game stopped")


def test_the_screen_shows_hand_discard_groups_and_shortfall():
    game = Game.new("original", ["ann", "bob", "cat"], seed=3)
    text = screen(view(game.state, "ann"))
    lines = text.splitlines()
    assert lines[0].startswith("--- hand 1, dealer cat: draw pile 77, discard R2 ---")
    assert lines[1].startswith("ann  phase 1   10 cards     0 points  <- you")
    assert "your phase 1 (2 sets of 3):" in lines
    assert "  1 card short: any 2, R3, G3, Y3 or a wild completes 1 set of 3" in lines
    assert "your hand: G2 Y2 B3 B3 B4 G5 G6 R8 B10 W" in lines
    assert lines[-1] == "  you may: draw deck | draw discard"


def test_laid_groups_are_numbered_as_hit_names_them():
    game = Game.new("original", ["ann", "bob", "cat"], seed=3)
    while not any(s.laid for s in game.state.seats):
        game = game.apply(game.legal_moves()[-1] if game.state.step == "draw"
                          else game.legal_moves()[0])
    owner = next(s for s in game.state.seats if s.laid)
    text = screen(view(game.state, "ann"))
    for k, laid in enumerate(owner.laid, 1):
        assert f"  {k}) {laid.group}   [" in text


@pytest.mark.parametrize("stop", ["quit\n", ""])
def test_quit_or_end_of_input_stops_cleanly_with_the_log_so_far(stop, tmp_path):
    log = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["play", "--seed", "2", "--log", str(log)],
                      input="draw deck\ndiscard R1\n" + stop)
    assert r.exit_code == 0, r.output
    assert f"game stopped; the log so far is in {log}" in r.output
    lines = log.read_text().splitlines()
    assert len(lines) >= 4  # the header, the deal, ann's draw and discard, the bots' moves
    result = replay(lines)
    assert result.legal and result.winner is None


def test_help_lists_the_commands():
    r = runner.invoke(app, ["play", "--seed", "1"], input="help\n")
    assert "hit G11 on bob 2" in r.output and "discard S skip cat" in r.output


@pytest.mark.parametrize("args, message", [
    (["--bot", "clever"], "unknown bot 'clever' (the bots are: greedy, random"),
    (["--variant", "nosuchpack"], "nosuchpack"),
    (["--variant", "masters", "--bots", "4"], "played by 2-4 players, not 5"),
    (["--name", "bob smith"], "--name must be one word"),
    (["--name", "x" * 10_000], "at most 20"),
    (["--variant", "world-tour"], "has several worlds; choose one with --world"),
    (["--variant", "world-tour", "--world", "europe"], "has no world 'europe'"),
    (["--log", "/nonexistent/dir/g.jsonl"], "cannot write /nonexistent/dir/g.jsonl"),
])
def test_bad_options_exit_2_with_a_message(args, message):
    r = runner.invoke(app, ["play", *args], input="quit\n")
    assert r.exit_code == 2
    assert message in r.output


def test_each_lost_turn_is_said_also_when_a_skip_passes_play_over_two_players():
    # seed 7: bob and cat hold skips; bob skips ann, then cat skips bob, so ann and bob
    # both lose their turns and cat plays again.
    game = Game.new("original", ["ann", "bob", "cat"], seed=7)
    for line in ["draw deck", "discard Y12", "draw deck", "discard S skip ann", "draw deck"]:
        game = game.apply(parse_command(line, game.state.to_move, STANDARD_DECK))
        assert skipped(game.state, game.state) == []
    after = game.apply(Discard("cat", S, "bob"))
    assert skipped(game.state, after.state) == ["ann", "bob"] and after.state.to_move == "cat"
    card = next(x for x in game.state.seat("cat").hand if not x.skip)
    plain = game.apply(Discard("cat", card))  # ann still loses the turn bob's skip took
    assert skipped(game.state, plain.state) == ["ann"] and plain.state.to_move == "bob"


def test_describe_gives_one_line_a_move_and_hides_what_others_draw_or_save():
    game = Game.new("masters", ["ann", "bob"], seed=4)
    rng = random.Random(4)
    seen = set()
    for _ in range(300):
        move = rng.choice(game.legal_moves())
        after = game.apply(move)
        made = after.moves[len(game.moves)]  # a deck draw here names its card
        for viewer in ("ann", "bob"):
            line = describe(made, game.state, viewer)
            assert "\n" not in line and len(line) <= 78
            hidden = made.player != viewer and (
                isinstance(made, Save) or (isinstance(made, Draw) and made.source == "deck"))
            if hidden:
                assert str(made.card) not in line.split(), line
            seen.add(type(made))
        game = after
    assert {Declare, Draw, Lay, Discard, Save} <= seen
    assert describe(Draw("bob", "deck", c("R3")), game.state, "ann") == "bob drew from the deck"
    assert describe(Draw("bob", "deck", c("R3")), game.state, "bob") == "you drew R3 from the deck"


@pytest.mark.parametrize("pack", ["masters-variant-2", "utah", "pick-a-phase", "truly-wild"])
def test_random_command_lines_are_read_or_refused_never_crash(pack):
    words = ["draw", "deck", "discard", "save", "lay", "hit", "swap", "on", "bob", "ann", "me",
             "1", "2", "0", "999", "|", "W", "S", "R5", "W=6", "as", "phase", "low", "skip",
             "declare", "give", "abandon", "G11", "x", "R5,B5", "|R5"]
    rng = random.Random(pack)
    for state in _random_states(pack, 2, 120):
        me = state.to_move
        for _ in range(10):
            line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 7)))
            try:
                move = parse_command(line, me, state.table.rules.deck)
                if not isinstance(move, str):
                    Game(state, {}).apply(move)
            except (CommandError, IllegalMove):
                pass


def test_a_world_of_a_pack_is_played_and_logged(tmp_path):
    log = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["play", "--variant", "world-tour", "--world", "jazz-club", "--log",
                            str(log)], input="draw deck\n")
    assert "your phase 1 (1 even or odd of 8):" in r.output
    lines = log.read_text().splitlines()
    assert '"world": "jazz-club"' in lines[0] and replay(lines).legal


def _greedy_script(pack: str, seed: int, name: str = "ann") -> list[str]:
    """The commands of a person who types what the greedy bot would choose, and once,
    where a hit is the choice, a hit of a card that fits no group first."""
    names = [n for n in BOT_NAMES if n != name][:2]
    game = Game.new(pack, [name, *names], seed=seed)
    now = [game]
    commands: list[str] = []
    me = BOTS["greedy"](seed=seed)
    tried = [False]

    def read(prompt: str) -> str:
        v = view(now[0].state, name)
        move = me.choose(v)
        if not tried[0] and isinstance(move, Hit):
            tried[0] = True
            wrong = next(h for o in v.players for g in range(1, len(o.laid) + 1)
                         for c in v.hand if not c.wild
                         if (h := Hit(name, c, o.name, g)) not in v.moves)
            commands.append(command_text(wrong))
            return commands[-1]
        commands.append(command_text(move))
        return commands[-1]

    players = {n: BOTS["greedy"](seed=seed + k) for k, n in enumerate(names, 1)}
    play_game(game, name, players, read, lambda text: None,
              lambda g, new: now.__setitem__(0, g))
    return commands


def test_the_tutorials_excerpt_is_what_play_prints():
    page = (Path(__file__).resolve().parents[1] / "docs" / "tutorials" / "play.md").read_text()
    start = page.index("`phasedsl play short-game-5 --seed 7`")
    block = page[page.index("```\n", start) + 4:]
    block = block[:block.index("\n```")]
    r = runner.invoke(app, ["play", "short-game-5", "--seed", "7"],
                      input="\n".join(_greedy_script("short-game-5", 7)) + "\n")
    assert r.exit_code == 0
    for part in block.split("\n[...]\n"):
        assert part in r.output, part
