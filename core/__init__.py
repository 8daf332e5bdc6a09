"""Arbitre's referee engine: pure Python, standard library only, no I/O.

Values in, values out: editions, the board, notation, placement, scoring,
lexicons, move generation, rule sets, classic and duplicate games, records.
"""

from .board import Board, Premium, Tile
from .edition import ENGLISH, FRENCH, Edition, edition_by_code, fold_accents
from .errors import ArbitreError, NotationError, PlacementError
from .notation import Move, Notation, Ref, format_move, format_ref, parse_move, parse_ref
from .placement import Placement, Word, apply_placement, validate_move, validate_tiles
from .scoring import MoveScore, WordScore, score_placement

__all__ = [
    "ArbitreError",
    "Board",
    "ENGLISH",
    "Edition",
    "FRENCH",
    "Move",
    "MoveScore",
    "Notation",
    "NotationError",
    "Placement",
    "PlacementError",
    "Premium",
    "Ref",
    "Tile",
    "Word",
    "WordScore",
    "apply_placement",
    "edition_by_code",
    "fold_accents",
    "format_move",
    "format_ref",
    "parse_move",
    "parse_ref",
    "score_placement",
    "validate_move",
    "validate_tiles",
]
