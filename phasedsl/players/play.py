"""Playing in the terminal, the pure part: a person's commands as moves, and the screen as text.

``parse_command`` reads one line (``draw deck``, ``lay R5 B5 W | G7 G8 G9 G10``,
``hit G11 on bob 2``, ``discard S skip cat``, ``help``, ``quit`` ...) into a referee
``Move`` or a keyword, raising ``CommandError`` (saying what was expected) for a line it
cannot read; whether the move is legal is the referee's question.  ``command_text`` is
its inverse.  ``screen`` draws what one player sees at their turn, ``describe`` one move
as one line, ``hand_over`` the standings after a hand.  No terminal here: ``cli.play``
reads the lines and prints the text.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Sequence
from typing import Literal

from ..errors import PhaseDSLError, quoted
from ..game import moves as mv
from ..game.engine import phase_rules
from ..game.log import hand_standings
from ..game.state import GameState, HandResult, Table
from ..game.table import board_choices
from ..game.view import PlayerView
from ..model.board import TWIST
from ..model.cards import Card, Deck, format_cards, parse_cards
from ..model.words import possessive
from ..solver import shortfall

WIDTH = 80

Keyword = Literal["help", "quit"]

HELP = """\
commands (cards as in the CLI: R5 B12 G1 Y7, W a wild, S a skip):
  draw deck | draw discard       take the top card of the draw or discard pile
  draw save [CARD]               take a card back from your save pile (Masters)
  lay R5 B5 W | G7 G8 G9 G10     lay your whole phase, groups split by |
  lay ... as 4                   ... naming the phase you lay (phases in any order)
  hit G11 on bob 2               play a card onto bob's laid group 2 (W=6: a wild as a 6)
  swap R7 on bob 1 [low|high]    put a natural in place of a laid wild (Utah)
  discard R5                     discard a card; your turn ends
  discard S skip cat             discard a skip: cat loses their next turn
  save R5                        set a card aside on your save pile instead (Masters)
  abandon                        take back the phase you laid this turn (Masters 2)
  declare 4                      say which phase you attempt this hand
  give cat                       dealer: give the turned-up card to cat
  choose twist | choose 4        on a twist space (board games): the twist card, or the
                                 phase of neighbouring space 4
  draw pile 2 | discard R5 on 2  board games with several discard piles: which pile
  help | quit"""

VERBS = ("draw", "lay", "hit", "swap", "discard", "save", "abandon", "declare", "give", "choose",
         "help", "quit")


class CommandError(PhaseDSLError):
    """A command line that cannot be read; the message says what was expected."""


# --------------------------------------------------------------------------- commands


def _cards(text: str, deck: Deck, what: str) -> list[Card]:
    try:
        cards = parse_cards(text, deck)
    except PhaseDSLError as e:
        raise CommandError(f"{what}: {getattr(e, 'message', e)}") from None
    if not cards:
        raise CommandError(f"{what}: no cards given")
    return cards


def _one_card(words: Sequence[str], deck: Deck, example: str) -> Card:
    if len(words) != 1:
        raise CommandError(f"expected one card, like '{example}'")
    return _cards(words[0], deck, f"expected one card, like '{example}'")[0]


def _number(word: str, what: str) -> int:
    # ASCII digits only: str.isdigit() is true for '²' and '٣' as well, which int()
    # refuses or reads as another number than the one shown
    if not (word.isascii() and word.isdigit()):
        raise CommandError(f"{what} must be a number, not {quoted(word)}")
    if len(word) > 3:  # (no game has a phase, a pile or a group past 999)
        raise CommandError(f"{what}: {quoted(word)} is too large (999 at most)")
    return int(word)


def _target(words: Sequence[str], me: str, example: str) -> tuple[str, int]:
    """``on NAME N`` (``me`` names oneself)."""
    if len(words) != 3 or words[0].lower() != "on":
        raise CommandError(f"expected 'on PLAYER GROUP', like '{example}'")
    who = me if words[1].lower() == "me" else words[1]
    return who, _number(words[2], "the group (counted from 1 in that player's laid order)")


# The longest command line read: a lay of a whole 108-card deck is about 400 characters.
MAX_COMMAND = 10_000


def parse_command(line: str, me: str, deck: Deck) -> mv.Move | Keyword:
    """One command line of player ``me`` as a move, or ``"help"`` / ``"quit"``."""
    if len(line.rstrip("\r\n")) > MAX_COMMAND:
        raise CommandError(f"a command is at most {MAX_COMMAND:,} characters; this line has "
                           f"more (nothing of it was played)")
    words = line.split()
    if not words:
        raise CommandError("type a command (help lists them)")
    verb, rest = words[0].lower(), words[1:]
    if verb in ("help", "?", "quit", "exit"):
        if rest:
            raise CommandError(f"{verb!r} takes nothing after it")
        return "help" if verb in ("help", "?") else "quit"
    if verb == "draw":
        if rest and rest[0].lower() == "pile":
            if len(rest) == 1:
                # the screen calls the deck "draw pile", so a bare "draw pile" means the deck
                # far more often than a Twist discard pile: name both
                raise CommandError("'draw deck' takes the top card of the draw pile; 'draw pile "
                                   "N' the top of discard pile N (board games with several)")
            if len(rest) != 2:
                raise CommandError("expected 'draw pile N', like 'draw pile 2'")
            return mv.Draw(me, "discard", None, _number(rest[1], "the pile"))
        if not rest or rest[0].lower() not in ("deck", "discard", "save"):
            raise CommandError("draw from where? 'draw deck' or 'draw discard' (or 'draw save')")
        source = rest[0].lower()
        if source != "save" and len(rest) > 1:
            raise CommandError(f"'draw {source}' takes nothing after it (the card is the top one)")
        card = _one_card(rest[1:], deck, "draw save R5") if len(rest) > 1 else None
        return mv.Draw(me, source, card)
    if verb == "lay":
        return _lay(line.split(None, 1)[1] if rest else "", me, deck)
    if verb == "hit":
        if "on" not in [w.lower() for w in rest]:
            raise CommandError("expected 'hit CARD on PLAYER GROUP', like 'hit G11 on bob 2'")
        k = [w.lower() for w in rest].index("on")
        card = _one_card(rest[:k], deck, "hit G11 on bob 2")
        return mv.Hit(me, card, *_target(rest[k:], me, "hit G11 on bob 2"))
    if verb == "swap":
        end = rest[-1].lower() if rest and rest[-1].lower() in ("low", "high") else None
        words = rest[:-1] if end else rest
        k = [w.lower() for w in words].index("on") if "on" in [w.lower() for w in words] else -1
        if k < 0:
            raise CommandError("expected 'swap CARD on PLAYER GROUP [low|high]', like "
                               "'swap R7 on bob 1'")
        card = _one_card(words[:k], deck, "swap R7 on bob 1")
        return mv.Swap(me, card, *_target(words[k:], me, "swap R7 on bob 1"), end)
    if verb == "discard":
        skip, pile = None, 1
        if len(rest) >= 2 and rest[-2].lower() == "on":
            pile, rest = _number(rest[-1], "the pile after 'on'"), rest[:-2]
        if len(rest) >= 2 and rest[-2].lower() == "skip":
            skip, rest = rest[-1], rest[:-2]
        elif rest and rest[-1].lower() == "skip" and len(rest) > 1:
            raise CommandError("skip whom? 'discard S skip PLAYER'")
        return mv.Discard(me, _one_card(rest, deck, "discard R5' or 'discard S skip cat"), skip,
                          pile=pile)
    if verb == "save":
        return mv.Save(me, _one_card(rest, deck, "save R5"))
    if verb == "abandon":
        if rest:
            raise CommandError("'abandon' takes nothing after it (the cards drawn are the top ones)")
        return mv.Abandon(me)
    if verb == "declare":
        if len(rest) != 1:
            raise CommandError("expected 'declare N', like 'declare 4'")
        return mv.Declare(me, _number(rest[0], "the phase"))
    if verb == "give":
        if len(rest) != 1:
            raise CommandError("expected 'give PLAYER', like 'give cat'")
        return mv.Give(me, rest[0])
    if verb == "choose":
        if len(rest) != 1:
            raise CommandError("expected 'choose twist' or 'choose N' (a neighbouring space)")
        said = rest[0].lower()
        return mv.Choose(me, "twist" if said == "twist" else _number(said, "the space"))
    close = difflib.get_close_matches(verb, VERBS, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise CommandError(f"unknown command {quoted(words[0])}{hint} (the commands are "
                       f"{', '.join(VERBS)}; 'help' explains them)")


def _lay(text: str, me: str, deck: Deck) -> mv.Lay:
    phase = None
    words = text.split()
    low = [w.lower() for w in words]
    if len(words) >= 3 and low[-3:-1] == ["as", "phase"]:
        phase, words = _number(words[-1], "the phase after 'as phase'"), words[:-3]
    elif len(words) >= 2 and low[-2] == "as":
        phase, words = _number(words[-1], "the phase after 'as'"), words[:-2]
    text = " ".join(words)
    parts = text.split("|")
    if not text.strip() or any(not p.strip() for p in parts):
        raise CommandError("expected the groups of your phase split by |, like "
                           "'lay R5 B5 W | G7 G8 G9 G10'")
    groups = tuple(tuple(_cards(p, deck, f"group {k}")) for k, p in enumerate(parts, 1))
    return mv.Lay(me, groups, phase)


def command_text(move: mv.Move) -> str:
    """The command that makes ``move`` (the inverse of ``parse_command``)."""
    if isinstance(move, mv.Draw):
        if move.source == "discard" and move.pile != 1:
            return f"draw pile {move.pile}"
        card = f" {move.card}" if move.source == "save" and move.card is not None else ""
        return f"draw {move.source}{card}"
    if isinstance(move, mv.Lay):
        groups = " | ".join(format_cards(g) for g in move.groups)
        return f"lay {groups}" + (f" as {move.phase}" if move.phase is not None else "")
    if isinstance(move, mv.Hit):
        return f"hit {move.card} on {move.target} {move.group}"
    if isinstance(move, mv.Swap):
        return f"swap {move.card} on {move.target} {move.group}" + (
            f" {move.end}" if move.end else "")
    if isinstance(move, mv.Discard):
        return (f"discard {move.card}" + (f" skip {move.skip}" if move.skip else "")
                + (f" on {move.pile}" if move.pile != 1 else ""))
    if isinstance(move, mv.Choose):
        return f"choose {move.choice}"
    if isinstance(move, mv.Save):
        return f"save {move.card}"
    if isinstance(move, mv.Abandon):
        return "abandon"
    if isinstance(move, mv.Declare):
        return f"declare {move.phase}"
    if isinstance(move, mv.Give):
        return f"give {move.to}"
    raise ValueError(f"{move!r} is not a player's command")


# --------------------------------------------------------------------------- the screen


def sort_hand(cards: Sequence[Card], deck: Deck) -> list[Card]:
    """By number, then color in the deck's order; wilds and skips last."""
    return sorted(cards, key=lambda c: (c.skip, c.wild, c.number or 0,
                                        deck.colors.index(c.color) if c.natural else 0))


def wrap(head: str, text: str, indent: int = 4) -> list[str]:
    """``head`` + ``text`` in lines of at most 80 columns, continued ``indent`` in."""
    return textwrap.wrap(text, WIDTH, initial_indent=head, subsequent_indent=" " * indent,
                         break_on_hyphens=False) or [head.rstrip()]


def phase_label(table: Table, number: int) -> str:
    if number == 0:
        return f"the tie-break phase ({phase_rules(table, 0)[0]})"
    if table.twist_index(number) is not None:
        return f"twist phase ({phase_rules(table, number)[0]})"
    return f"phase {number} ({phase_rules(table, number)[0]})"


def _seen(v: PlayerView) -> list[Card]:
    """The cards every player can see: the discard pile and the laid groups."""
    return [*v.discard, *(c.plain() for p in v.players for g in p.laid for c in g.cards)]


def _progress(v: PlayerView) -> list[str]:
    """What the player's phase is short by (or their choices, when they choose one)."""
    if v.laid:
        return []
    table = v.table
    seen = _seen(v)
    numbers = [v.phase] if v.phase is not None else [
        n for n in table.sequence if n not in v.done]
    if len(numbers) == 1:
        phase, rules = phase_rules(table, numbers[0])
        return wrap("  ", shortfall(phase, v.hand, rules, seen).summary(phase, rules))
    short = []
    for n in numbers:
        phase, rules = phase_rules(table, n)
        s = shortfall(phase, v.hand, rules, seen)
        said = (s.missing or "made") if s.decided else f"undecided, at most {s.at_most}"
        short.append(f"{n}: {said}")
    return wrap("  cards short of each: ", "   ".join(short), 6)


def _hints(v: PlayerView) -> list[str]:
    """What the player may do now, in command syntax."""
    kinds = {type(m) for m in v.moves}
    out: list[str] = []
    if mv.Draw in kinds:
        draws = [command_text(m) for m in v.moves if isinstance(m, mv.Draw)]
        out += wrap("  you may: ", " | ".join(dict.fromkeys(draws)))
    for m in v.moves:
        if isinstance(m, mv.Lay):
            out += wrap("  you can lay: ", command_text(m), 6)
    hits = [f"{m.card} on {m.target} {m.group}" for m in v.moves if isinstance(m, mv.Hit)]
    if hits:
        out += wrap("  you can hit: ", ", ".join(hits), 6)
    if mv.Declare in kinds:
        choices = [str(m.phase) for m in v.moves if isinstance(m, mv.Declare)]
        out += wrap("  declare one of: ", " ".join(choices))
    if mv.Give in kinds:
        out += wrap("  give the up-card to: ", " ".join(m.to for m in v.moves
                                                           if isinstance(m, mv.Give)))
    if mv.Choose in kinds:
        out.append("  you stand on a twist space: choose the phase you attempt this hand")
        moves = v.table.board.moves
        for said, number in v.options:
            what = (f"the twist card, {phase_rules(v.table, number)[0]} (made: +"
                    f"{moves.twist_made}, made and out: +{moves.twist_made_out}, missed: "
                    f"{moves.twist_missed:+d})" if said == "twist" else
                    f"space {said}'s {phase_label(v.table, number)}")
            out += wrap(f"    choose {said:<6} ", what, 18)
    extra = [word for kind, word in ((mv.Swap, "swap"), (mv.Save, "save"),
                                     (mv.Abandon, "abandon")) if kind in kinds]
    if mv.Discard in kinds:
        onto = sorted({m.pile for m in v.moves if isinstance(m, mv.Discard)})
        piles = f" onto pile {' or '.join(map(str, onto))} ('discard R5 on 2')" \
            if len(v.piles) > 1 else ""
        out.append("  then: discard a card" + piles
                   + (f" (or {', '.join(extra)})" if extra else ""))
    return out


def screen(v: PlayerView) -> str:
    """Player ``v.me``'s screen at their move: everyone's table, the discard, their hand."""
    table = v.table
    deck = table.rules.deck
    tops = [str(p[-1]) if p else "(empty)" for p in v.piles]
    shown = (f"discard {tops[0]}" if len(tops) == 1 else
             "piles " + " ".join(f"{k}:{t}" for k, t in enumerate(tops, 1)))
    lines = [f"--- hand {v.hands_played + 1}, dealer {v.dealer}: draw pile {v.draw_pile}, "
             f"{shown} ".ljust(WIDTH, "-")]
    board = table.board
    if board is not None:  # the race: each pawn's space
        last = len(board.spaces)
        lines += wrap("board: ", ", ".join(
            f"{p.name} on space {p.space}/{last}"
            + (" (twist)" if board.spaces[p.space - 1] == TWIST else "") for p in v.players))
    width = max(len(p.name) for p in v.players)
    for p in v.players:
        you = p.name == v.me
        flags = ", skipped next turn" if p.skipped else ""
        flags += f", save pile {p.save_size}" if p.save_size else ""
        label = ("twist" if p.phase and table.twist_index(p.phase) is not None
                 else f"phase {p.phase}" if p.phase else "tie-break" if p.phase == 0
                 else "choosing")
        cards = f"{p.hand_size:>2} card" + ("s" if p.hand_size != 1 else " ")
        lines.append(f"{p.name:<{width}}  {label:<9} {cards}  "
                     f"{p.total:>4} points{flags}" + ("  <- you" if you else ""))
        for k, g in enumerate(p.laid, 1):
            lines += wrap(f"  {k}) ", f"{g}   [{g.group.describe(deck)}]", 7)
    if v.phase is None and not v.laid:
        lines.append("your phase: not chosen yet")
    else:
        lines.append(f"your {phase_label(table, v.phase)}" + (" is laid" if v.laid else ":"))
    if table.any_order and v.done:  # in order, the phase number says it
        lines += wrap("  done so far: phase ", ", ".join(map(str, v.done)))
    lines += _progress(v)
    if v.save:
        lines += wrap("save pile: ", format_cards(v.save))
    lines += wrap("your hand: ", format_cards(sort_hand(v.hand, deck)), 11)
    lines += _hints(v)
    return "\n".join(lines)


def describe(move: mv.Move, before: GameState, viewer: str) -> str:
    """One line for a move made from ``before`` (a deck draw by someone else hides the card)."""
    who = "you" if move.player == viewer else move.player
    if isinstance(move, mv.Deal):
        return (f"{before.seats[before.dealer].name} deals hand {before.hands_played + 1}; "
                f"the up-card is {move.up}")
    if isinstance(move, mv.Draw):
        if move.source == "discard":
            pile = (before.discard, *before.more_piles)[move.pile - 1]
            which = "the discard pile" if before.table.piles == 1 else f"discard pile {move.pile}"
            return f"{who} took {pile[-1]} from {which}"
        shown = f" {move.card}" if move.card is not None and move.player == viewer else ""
        return f"{who} drew{shown} from the {'save pile' if move.source == 'save' else 'deck'}"
    if isinstance(move, mv.Lay):
        what = f" phase {move.phase}" if move.phase is not None else ""
        return f"{who} laid{what}: " + " | ".join(format_cards(g) for g in move.groups)
    if isinstance(move, mv.Hit | mv.Swap):
        whose = "your" if move.target == viewer else possessive(move.target)
    if isinstance(move, mv.Hit):
        return f"{who} hit {move.card} on {whose} group {move.group}"
    if isinstance(move, mv.Swap):
        return f"{who} swapped {move.card} for a wild in {whose} group {move.group}"
    if isinstance(move, mv.Discard):
        if move.skip and before.table.skips_in_front:
            return f"{who} placed {move.card} in front of {move.skip}, who loses their next turn"
        skip = f", skipping {move.skip}" if move.skip else ""
        onto = f" onto pile {move.pile}" if before.table.piles > 1 else ""
        return f"{who} discarded {move.card}{onto}{skip}"
    if isinstance(move, mv.Choose):
        chosen = [n for said, n in board_choices(before, before.table.index(move.player))
                  if said == move.choice]
        what = phase_label(before.table, chosen[0]) if chosen else str(move.choice)
        return (f"{who} chose the twist card: {what}" if move.choice == "twist" else
                f"{who} chose space {move.choice}'s {what}")
    if isinstance(move, mv.Pawns):
        return "the pawns move: " + ", ".join(f"{p} to space {n}" for p, n in move.spaces)
    if isinstance(move, mv.Save):
        return f"{who} saved {move.card if move.player == viewer else 'a card'}"
    if isinstance(move, mv.Abandon):
        return f"{who} abandoned the phase laid this turn"
    if isinstance(move, mv.Declare):
        return f"{who} declared phase {move.phase}"
    if isinstance(move, mv.Give):
        return f"{who} gave the up-card to {move.to}"
    raise ValueError(f"{move!r} is not a move")


def skipped(before: GameState, after: GameState) -> list[str]:
    """Players who lost their turn (to a skip) when a move ended a turn: those seated
    between the player who moved and the player now to move."""
    if not (before.stage == after.stage == "turn" and before.step == "play"
            and after.step == "draw" and after.hands_played == before.hands_played):
        return []
    seats = after.seats
    out = []
    k = (before.turn + 1) % len(seats)
    while k != after.turn:
        if seats[k].playing:
            out.append(seats[k].name)
        k = (k + 1) % len(seats)
    return out


def hand_over(number: int, result: HandResult) -> str:
    """The standings after a hand (the replay report's words) under a rule."""
    head, *rest = hand_standings(number, result)
    return "\n".join([f"=== {head} ".ljust(WIDTH, "="), *rest])
