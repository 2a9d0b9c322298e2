"""Phase 10 Dice: the dice and their faces (``faces``), a roll judged against a phase by
the card solver (``rolls``), and exact chances and holds under the best play (``odds``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "Dice": "faces",
    "DieKind": "faces",
    "DiceScoring": "faces",
    "Face": "faces",
    "parse_face": "faces",
    "parse_roll": "faces",
    "fits_dice": "faces",
    "judge": "rolls",
    "colour_matters": "rolls",
    "Judged": "rolls",
    "Space": "odds",
    "Table": "odds",
    "table": "odds",
    "advise": "odds",
    "solve": "odds",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
