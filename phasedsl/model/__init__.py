"""The values: cards and decks, the pieces of a phase and the phase itself (read by the
DSL, ``grammar/phase.lark``), the rule options, what a deck can supply, melds and laid
groups, and what the Python API accepts for each.

Inside, bottom to top: ``words`` (plurals, and a player's name as owner or subject);
``cards``; ``group`` (kinds, groups, parts); ``rephrase`` (the
phrasings the DSL reads, for suggestions); ``supply``; ``dsl``; ``phase``; ``rules``;
``skipblue``; ``meld``; ``outs``; ``coerce``; ``board`` (a board game's board: Twist).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from ..system.face import lazy

FACE = {
    "Attempt": "board",
    "Board": "board",
    "moved": "board",
    "neighbours": "board",
    "Moves": "board",
    "TWIST": "board",
    "CARD_TOKEN": "cards",
    "Card": "cards",
    "ColorMap": "group",
    "DEFAULT_RULES": "rules",
    "Deck": "cards",
    "Group": "group",
    "Kind": "group",
    "LaidGroup": "meld",
    "Meld": "meld",
    "Out": "outs",
    "Part": "group",
    "Phase": "phase",
    "Rules": "rules",
    "rules_fingerprint": "rules",
    "SKIP": "cards",
    "STANDARD_DECK": "cards",
    "Scoring": "rules",
    "Shortfall": "outs",
    "WILD": "cards",
    "acting_text": "meld",
    "as_card": "coerce",
    "as_cards": "coerce",
    "as_count": "coerce",
    "as_layout": "coerce",
    "as_phase": "coerce",
    "as_players": "coerce",
    "as_rules": "coerce",
    "as_seed": "coerce",
    "as_world": "coerce",
    "blue_of": "skipblue",
    "blue_skip": "skipblue",
    "card_names": "cards",
    "dsl": "dsl",
    "format_cards": "cards",
    "hand_args": "coerce",
    "interned": "cards",
    "meld_args": "coerce",
    "most_copies": "cards",
    "natural_cap": "supply",
    "not_cards": "coerce",
    "outs": "outs",
    "parse_cards": "cards",
    "plural_word": "words",
    "possessive": "words",
    "pronoun": "words",
    "subject": "words",
    "shortfall": "outs",
    "skipblue": "skipblue",
    "takes_blue_skip": "skipblue",
    "wild_need": "supply",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
