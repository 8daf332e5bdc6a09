"""The GCG files the tests read (tests/data/gcg), and how two replayed games are compared."""

from __future__ import annotations

from typing import Any

from core.game import ClassicGame
from core.gcg import GcgRecord, read_gcg
from tests.paths import TEST_DATA

DATA = TEST_DATA / "gcg"
SAMPLES = ["quackle_club.gcg", "woogles_csw21.gcg", "sixzero_nwl20.gcg"]


def load(name: str, **options: Any) -> GcgRecord:
    return read_gcg((DATA / name).read_bytes(), **options)


def sheet(game: ClassicGame) -> list[tuple[object, ...]]:
    return [
        (
            sheet_line.number,
            sheet_line.player,
            sheet_line.kind,
            sheet_line.move,
            sheet_line.tiles,
            sheet_line.went_out,
            sheet_line.points,
            sheet_line.total,
            sheet_line.removed,
            sheet_line.removal,
            sheet_line.removed_points,
            sheet_line.invalid,
        )
        for sheet_line in game.lines
    ]


def assert_same_game(one: ClassicGame, two: ClassicGame) -> None:
    assert sheet(one) == sheet(two)
    assert one.board == two.board
    assert one.totals() == two.totals()
    assert one.standings() == two.standings()
    assert one.ended == two.ended


# the players of a short game, and its first two moves, as GCG lines
HEADER = "#player1 ann Ann\n#player2 bob Bob\n"
OPENING = ">ann: EHLPRTU 8G HELP +18 18\n>bob: AOSSUWW J5 SOU. +8 8\n"
