"""Phase 10 Dice: the dice and their faces (``faces``), a roll judged against a phase by
the card solver (``rolls``), exact chances and holds under the best play (``odds``), the
game as values (``game``), its log (``log``) and its bots (``bots``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "Dice": "faces",
    "MOST_DICE": "faces",
    "DieKind": "faces",
    "DiceScoring": "faces",
    "Face": "faces",
    "parse_face": "faces",
    "parse_kept": "faces",
    "parse_roll": "faces",
    "fits_dice": "faces",
    "judge": "rolls",
    "colour_matters": "rolls",
    "Judged": "rolls",
    "unmakeable": "odds",
    "Space": "odds",
    "Table": "odds",
    "table": "odds",
    "advise": "odds",
    "solve": "odds",
    "BOTS": "bots",
    "make_bot": "bots",
    "DiceGame": "game",
    "DiceRuleError": "game",
    "Keep": "game",
    "Move": "game",
    "Roll": "game",
    "Score": "game",
    "Bonus": "game",
    "apply": "game",
    "score_move": "game",
    "DiceReplay": "log",
    "DiceLogError": "log",
    "replay_objects": "log",
    "log_lines": "log",
    "move_to_json": "log",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
