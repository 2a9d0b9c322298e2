"""Players: the bots (``bots``, ``strong`` and its ``turnplan``), how a bot is named
(``botspec``), external programs as bots (``extbot``), the terminal player (``play``)
and tournaments (``tournament``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "command_text": "play",
    "play_dice": "diceplay",
    "Bot": "bots",
    "BotSpec": "botspec",
    "CommandError": "play",
    "DEFAULT_TIMEOUT": "extbot",
    "dice_bot": "botspec",
    "ExternalBot": "extbot",
    "Forfeit": "extbot",
    "GreedyBot": "bots",
    "HELP": "play",
    "MAX_COMMAND": "play",
    "as_spec": "botspec",
    "build": "botspec",
    "describe": "play",
    "entry_names": "tournament",
    "hand_over": "play",
    "line_ups": "tournament",
    "parse_bot": "botspec",
    "parse_command": "play",
    "play_tournament": "tournament",
    "screen": "play",
    "skipped": "play",
    "summary": "tournament",
    "wrap": "play",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
