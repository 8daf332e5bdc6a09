"""Showing the game: monospace board and tables (text), board, result and standings images (PNG).

Every image is drawn with the bundled DejaVu Sans Bold (``fonts/``). Images are pure functions of typed
views: ``classic_board_png(ClassicBoardView)``, ``duplicate_board_png(DuplicateBoardView)``,
``round_result_png(RoundResultView)``, ``standings_png(StandingsView)``.
"""

from ..timefmt import UnknownTimeZoneError  # raised by DuplicateBoardView for an unknown zone name
from .board import (
    CELL,
    ClassicBoardView,
    DuplicateBoardView,
    NaiveDeadlineError,
    PlayerScore,
    board_png,
    classic_board_png,
    duplicate_board_png,
)
from .palette import JOKER_TILE, TILE_RECENT
from .results import RoundResultRow, RoundResultView, StandingsView, round_result_png, standings_png
from .text import board_text, table

__all__ = [
    "CELL",
    "JOKER_TILE",
    "TILE_RECENT",
    "ClassicBoardView",
    "DuplicateBoardView",
    "NaiveDeadlineError",
    "PlayerScore",
    "RoundResultRow",
    "RoundResultView",
    "StandingsView",
    "UnknownTimeZoneError",
    "board_png",
    "board_text",
    "classic_board_png",
    "duplicate_board_png",
    "round_result_png",
    "standings_png",
    "table",
]
