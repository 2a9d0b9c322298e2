"""Variant packs: loading a pack (``pack``: ``load_pack``, ``Pack``, ``World``, the schema
and the printed rules' defaults), reading YAML safely (``yamlsafe``) and the author's
warnings (``lint``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "check_text": "pack",
    "DEFAULT_SETTINGS": "pack",
    "Diagnostic": "pack",
    "MAX_EXTENDS": "pack",
    "Pack": "pack",
    "PhaseEntry": "pack",
    "World": "pack",
    "as_pack": "pack",
    "builtin_names": "pack",
    "check_file": "pack",
    "describe_rules": "pack",
    "game_rule_errors": "lint",
    "going_out": "lint",
    "is_file_ref": "pack",
    "load_pack": "pack",
    "pack_document": "pack",
    "dice_document": "pack",
    "board_document": "pack",
    "board_of": "pack",
    "pack_from_document": "pack",
    "phase_warnings": "lint",
    "refuse_unplayable": "lint",
    "rules_from": "pack",
    "schema": "pack",
    "schema_node": "pack",
    "stuck_phase": "lint",
    "unmakeable": "lint",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
