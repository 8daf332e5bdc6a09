"""The game cache reads a game's log only past what it holds: a cached game whose last event is the log's
last costs one read of the log (its last event), in a transaction or outside one; a game another process
changed is brought up to the log. Statements counted on a real SQLite file and on the tests' PostgreSQL
server, the other process being a second store on the same database."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat import Incoming
from bot.referee import Referee
from tests.bot.games.duplicate.test_submissions import open_store
from tests.ready_lists import ready_registry

ROOM = "discord:300"


def log_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if " from events " in s]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_game_whose_log_did_not_change_is_read_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    statements: list[str] = []
    storage = open_store(kind, tmp_path, request, lambda sql, params: statements.append(" ".join(sql.split())))
    other_storage = open_store(kind, tmp_path, request, lambda sql, params: None)
    referee = Referee(storage, ready_registry(), now=lambda: 1_800_000_000.0, images=False)
    other = Referee(other_storage, ready_registry(), now=lambda: 1_800_000_001.0, images=False)
    try:
        referee.handle(Incoming(ROOM, "u:ana", "Ana", "/nouvelle Ana Ben"))
        referee.handle(Incoming(ROOM, "u:ana", "Ana", "/score H8 VAGUE"))
        record = storage.active_game(ROOM)
        assert record is not None
        cache = referee.classic_games
        game = cache.load(storage, record)
        assert game.to_move == "Ben"

        statements.clear()
        with referee.games.transaction(storage):
            assert cache.load(storage, record) is game
        assert len(log_reads(statements)) == 1, statements  # its last event: the game holds it
        if kind == "postgres":  # (SQLite reads outside a transaction on a connection of its own, untraced)
            statements.clear()
            assert cache.load(storage, record) is game
            assert len(log_reads(statements)) == 1, statements

        other.handle(Incoming(ROOM, "u:ben", "Ben", "/score 8H VELO"))  # another process plays on
        statements.clear()
        with referee.games.transaction(storage):
            assert cache.load(storage, record).to_move == "Ana"
        assert len(log_reads(statements)) == 2, statements  # its last event, then the one it lacked
        assert cache.builds == 1  # brought up to the log, never rebuilt
    finally:
        for made in (referee, other):
            made.clock.shutdown()
        storage.close()
        other_storage.close()
