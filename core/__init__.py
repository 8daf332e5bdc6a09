"""Arbitre's referee engine: pure Python, standard library only, no I/O.

Values in, values out: editions (data files) and their alphabets, the board, notation, placement, scoring,
lexicons, move generation, rule sets, classic and duplicate games, GCG records.
Modules are imported on first use of their names, so ``import core.board`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "alphabet": ["LATIN", "Alphabet"],
    "board": ["Board", "Premium", "Tile"],
    "edition": ["EDITIONS", "ENGLISH", "FRENCH", "Edition", "edition_by_code", "edition_from_json", "fold_accents"],
    "errors": ["ArbitreError", "EditionDataError", "GameError", "NotationError", "PlacementError"],
    "notation": ["Move", "Notation", "Ref", "format_move", "format_ref", "parse_move", "parse_ref"],
    "placement": ["Placement", "Word", "apply_placement", "validate_move", "validate_tiles"],
    "scoring": ["MoveScore", "WordScore", "score_placement"],
    "adjudication": ["Verdict", "adjudicate", "check_words"],
    "lexicon": ["Lexicon", "normalise_word"],
    "movegen": ["Play", "TopResult", "find_top", "generate_plays"],
    "rules": ["RULE_SETS", "RuleSet", "rule_set_by_code"],
    "events": ["Event", "event_from_dict", "event_to_dict"],
    "game": ["ClassicGame", "SheetLine", "Standing"],
    "draw": ["Bag", "Draw", "DrawRule"],
    "duplicate": ["DuplicateGame", "DuplicateSettings"],
    "gcg": ["GcgRecord", "read_gcg", "write_gcg"],
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    return getattr(importlib.import_module(f"core.{module}"), name)
