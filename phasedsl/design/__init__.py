"""Designing a pack: exact dealt odds and their cache (``odds``, ``oddscache``), how hard
each phase is (``difficulty``), whole games simulated (``simulate``), balancing and
reordering a world (``balance``, ``reorder``), sequential sampling (``sampling``),
generating a pack and improving one (``generate``, ``improve``) and the HTML report with
its charts (``report``, ``svgchart``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "reordered_text": "reorder",
    "DEFAULT_GAMES": "balance",
    "MIN_SPACE_HANDS": "balance",
    "MOST_SETTLE_GAMES": "difficulty",
    "GameRecord": "simulate",
    "ROUNDS": "generate",
    "MAX_MOVES": "simulate",
    "PLAYER_NAMES": "simulate",
    "balance": "balance",
    "balance_command": "generate",
    "balance_worlds": "balance",
    "check_writable": "reorder",
    "dice_figures": "dicereport",
    "dice_tables": "dicereport",
    "hold_advice": "dicereport",
    "dice_summary_text": "dicesim",
    "comparison": "balance",
    "failing": "generate",
    "generate": "generate",
    "highest_score": "dicereport",
    "improve": "improve",
    "known_odds": "difficulty",
    "length_words": "generate",
    "odds": "odds",
    "pack_figures": "report",
    "pack_yaml": "generate",
    "parse_kinds": "generate",
    "phase_odds": "difficulty",
    "planned_work": "report",
    "describe_values": "simulate",
    "play_game": "simulate",
    "play_games": "simulate",
    "render_dice_html": "dicereport",
    "render_html": "report",
    "simulate_dice": "dicesim",
    "summarize": "simulate",
    "summarize_dice": "dicesim",
    "to_json": "generate",
    "wilson": "odds",
    "write_reordered": "reorder",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
