"""Duplicate commands (placeholder until the duplicate engine is wired in)."""

from __future__ import annotations

from typing import Any

from core.board import Board

from .referee import Context, Referee, UserError
from .storage import GameRecord


def _none(ctx: Context, record: GameRecord | None = None) -> None:
    raise UserError("no_game")


join = end = sheet = board = unseen = export = _none


def current_board(ctx: Context, record: GameRecord | None) -> Board:
    return Board()


def clock_tick(referee: Referee, now: float) -> list[Any]:
    return []


HANDLERS = {"duplicate": _none, "draw": _none, "play": _none, "close": _none, "standings": _none}
