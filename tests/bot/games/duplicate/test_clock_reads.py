"""The clock reads the rounds' deadlines at every tick (up to 20 times a second while rounds close) on a
connection of its own, never on SQLite's one shared writer, where 300 rooms' deadlines held the answers'
writes back 150-170 ms at a time in a 50-player burst (issue 36); the ticks still close every room."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.chat import Incoming
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry

START = 1_800_000_000.0
ROOMS = 30


def test_a_tick_reads_the_deadlines_off_the_writer_and_still_closes_every_room(tmp_path: Path) -> None:
    on_writer: list[str] = []

    def trace(sql: str, params: Any) -> None:
        on_writer.append(" ".join(sql.split()).lower())

    storage = SQLiteStorage(tmp_path / "arbitre.sqlite", tracer=trace)
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    rooms = [f"discord:{n}" for n in range(ROOMS)]
    try:
        for room in rooms:
            referee.handle(Incoming(room, "u:ref", "Ref", "/duplicate 1", admin=True))
        on_writer.clear()
        assert referee.tick(START + 1) == []  # nothing due: nothing written, nothing read on the writer
        assert not [s for s in on_writer if "from deadlines" in s], on_writer
        closed = referee.tick(START + 61)
        assert {r.channel for r in closed if "Coup 2 — tirage :" in r.text} == set(rooms)
        assert not [s for s in on_writer if s.startswith("select") and "from deadlines order by" in s], on_writer
    finally:
        referee.clock.shutdown()
        storage.close()
