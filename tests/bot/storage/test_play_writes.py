"""A batch of private moves (``Storage.record_plays``) is written in a fixed number of statements whatever
its size (issue 36: SQLite wrote two per move, a quarter of a 50-player burst's CPU), and reads back as
each move wrote it: its events, the seat it binds, its replies numbered in order. On a real SQLite file and
on the tests' PostgreSQL server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage import SQLiteStorage, Storage
from bot.storage.records import PlayWrite
from tests.ready_lists import ready_registry
from tests.storage_backends import active_game

START = 1_800_000_000.0
ROOMS = 30


def open_traced(kind: str, tmp_path: Path, request: pytest.FixtureRequest, seen: list[str]) -> Storage:
    def trace(sql: str, params: Any) -> None:
        seen.append(" ".join(sql.split()).lower())

    if kind == "sqlite":
        return SQLiteStorage(tmp_path / "arbitre.sqlite", tracer=trace)
    from bot.storage.sql.postgres import PostgresStorage

    return PostgresStorage(request.getfixturevalue("postgres_url"), tracer=trace)


def move(game: int, after: int, n: int, replies: int) -> PlayWrite:
    """Move ``n``: one event or two, a seat every other move, ``replies`` replies to its player."""
    user = f"u:p{n}"
    events = [({"kind": "note", "n": n, "part": part}, user) for part in range(1 + n % 2)]
    texts = [f"move {n} reply {r}" for r in range(replies)]
    return PlayWrite(
        game_id=game,
        events=events,
        after=after,
        at=START + n,
        seat=(user, f"P{n}") if n % 2 == 0 else None,
        replies=[Reply(text, to_user=user, channel=f"discord:{n}") for text in texts],
        dues=[START] * replies,
        created=START,
    )


def started(storage: Storage, rooms: int) -> list[tuple[int, int]]:
    """``rooms`` duplicate games started through the referee: each one's number and last event."""
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    try:
        for n in range(rooms):
            referee.handle(Incoming(f"discord:{n}", "u:ref", "Ref", "/duplicate 2", admin=True))
    finally:
        referee.clock.shutdown()
    games = [active_game(storage, f"discord:{n}").id for n in range(rooms)]
    return [(game, storage.read_stamp(game)[0]) for game in games]


def delivered_texts(storage: Storage) -> dict[int, str]:
    """Every waiting reply to a player, by outbox number (each destination's in line, taken in turns)."""
    texts: dict[int, str] = {}
    while items := storage.outbox_due("", START + 1e6, limit=1000):
        texts.update({i.id: i.reply.text for i in items if i.reply.to_user})
        storage.mark_delivered([i.id for i in items], START)
    return texts


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("replies", [0, 3, 140])  # 140 x 30 rows: over SQLite's limit of bound parameters
def test_a_batch_of_moves_is_written_in_a_fixed_number_of_statements(
    kind: str, replies: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    seen: list[str] = []
    storage = open_traced(kind, tmp_path, request, seen)
    try:
        games = started(storage, ROOMS)
        delivered_texts(storage)  # the starts' own messages out of the way
        writes = [move(game, after, n, replies) for n, (game, after) in enumerate(games)]
        seen.clear()
        numbered = storage.record_plays(writes)
        writing = [s for s in seen if not s.startswith(("begin", "commit", "savepoint", "release"))]
        chunks = 1 + (replies * ROOMS * 8 > 30_000)
        # SQLite: the events with their seats, then the replies (chunked); PostgreSQL: one statement
        expected = 1 if kind == "postgres" else 1 + (chunks if replies else 0)
        assert len(writing) == expected, writing
        assert [len(ids) for ids in numbered] == [replies] * ROOMS
        every = [i for ids in numbered for i in ids]
        assert every == sorted(every)
        assert len(set(every)) == len(every)
        texts = delivered_texts(storage)
        for n, ((game, after), ids) in enumerate(zip(games, numbered)):
            assert [texts[i] for i in ids] == [f"move {n} reply {r}" for r in range(replies)]
            assert [(e.seq, e.data, e.author, e.at) for e in storage.events(game, after)] == [
                (after + 1 + part, {"kind": "note", "n": n, "part": part}, f"u:p{n}", START + n)
                for part in range(1 + n % 2)
            ]
            assert ((f"u:p{n}", f"P{n}") in storage.players(game)) == (n % 2 == 0)
    finally:
        storage.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_batch_of_one_move_and_an_empty_batch(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    seen: list[str] = []
    storage = open_traced(kind, tmp_path, request, seen)
    try:
        [(game, after)] = started(storage, 1)
        seen.clear()
        assert storage.record_plays([]) == []
        assert seen == []
        [ids] = storage.record_plays([move(game, after, 0, 2)])
        assert len(ids) == 2
        assert ("u:p0", "P0") in storage.players(game)
        assert [e.data["n"] for e in storage.events(game, after)] == [0]
    finally:
        storage.close()

