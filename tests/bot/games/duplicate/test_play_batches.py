"""Private /jouer arriving together are recorded in one write transaction (one commit for the lot), on a real
SQLite file and on the tests' PostgreSQL server, through the real service (issue 21, item 3): none is lost or
stored twice, a failed batch falls back to each answer on its own, and a room another transaction holds is
left out of the batch instead of holding it up."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chat import Incoming, Reply
from bot.games.duplicate.games import game_of
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage, Storage
from tests.bot.games.duplicate.test_submissions import open_store
from tests.ready_lists import ready_registry
from tests.storage_backends import active_game

START = 1_800_000_000.0
MOST = 6  # statements per /jouer, BEGIN and COMMIT included (tests/bot/games/duplicate/test_submissions.py)
ROOMS = [f"discord:{n}" for n in range(20)]


@contextlib.asynccontextmanager
async def served(storage: Storage) -> AsyncIterator[tuple[Referee, RefereeService, list[Reply]]]:
    """A referee on ``storage`` behind the real service, what it delivered; all closed after."""
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    sent: list[Reply] = []

    async def deliver(replies: list[Reply]) -> None:
        sent.extend(replies)

    service = RefereeService(referee, deliver)
    try:
        yield referee, service, sent
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


def answers(rooms: list[str]) -> list[Incoming]:
    """One newcomer's first answer in each room (it also seats them)."""
    return [Incoming(room, f"u:{room}", f"P{n}", "/jouer H8 ZOO", private=True) for n, room in enumerate(rooms)]


def acknowledged(message: Incoming, replies: list[Reply]) -> bool:
    return any(r.to_user == message.user and r.text.startswith("Reçu pour le coup 1 : H8 ZOO") for r in replies)


def submitted(storage: Storage, room: str) -> list[str]:
    """The players whose answer the room's log holds."""
    return [e.data["player"] for e in storage.events(active_game(storage, room).id) if e.data["kind"] == "submit"]


async def started(service: RefereeService, rooms: list[str]) -> None:
    """A duplicate game in each room, its first answer given (the game is then in the process's memory)."""
    for room in rooms:
        await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 2", admin=True))
        await service.handle(Incoming(room, "u:dan", "Dan", "/jouer H8 ZOO", private=True))


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_answers_that_arrive_together_share_one_transaction(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    statements: list[str] = []
    storage = open_store(kind, tmp_path, request, lambda sql, params: statements.append(" ".join(sql.split())))
    async with served(storage) as (_, service, sent):
        await started(service, ROOMS)
        statements.clear()
        burst = answers(ROOMS)
        replies = await asyncio.gather(*(service.handle(m) for m in burst))
        assert all(acknowledged(m, group) for m, group in zip(burst, replies)), replies
        moves = [s for s in statements if not s.startswith("update outbox set delivered")]
        if kind == "sqlite":  # one BEGIN and one COMMIT for the 20 answers (was 20 of each)
            assert sum(s.startswith("BEGIN") for s in moves) == 1, moves
            assert sum(s.startswith("COMMIT") for s in moves) == 1, moves
        else:  # psycopg's BEGIN and COMMIT are not traced: the rooms' locks tried in one statement, none waited for
            assert sum("pg_try_advisory_xact_lock" in s for s in moves) == 1, moves
            assert not any("pg_advisory_xact_lock" in s for s in moves), moves
        if kind == "sqlite":  # each answer: its state read, its events and seat, its replies
            assert len(moves) <= 3 * len(ROOMS) + 2, moves
        else:  # the locks, every state in one read, every answer's writes in one statement (was 42 for 20)
            assert sum("with ordinality" in s for s in moves) == 1, moves
            assert len(moves) == 3, moves
        for room in ROOMS:
            assert sorted(submitted(storage, room)) == ["Dan", f"P{ROOMS.index(room)}"]
        assert sorted(r.outbox_id or 0 for r in sent if r.to_user in {m.user for m in burst}) == sorted(
            r.outbox_id or 0 for group in replies for r in group if r.to_user is not None
        )


@pytest.mark.asyncio
async def test_a_batch_that_fails_falls_back_to_each_answer_and_keeps_nothing_unacknowledged(
    tmp_path: Path,
) -> None:
    """The file may grow by only a few pages (SQLite's ``max_page_count``): the batch's transaction fails,
    each answer then goes on its own; those stored are acknowledged, the others are told, and the games in
    memory hold exactly what the log holds."""
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    async with served(storage) as (referee, service, _):
        await started(service, ROOMS)
        pages = int(storage.db.execute("PRAGMA page_count").fetchone()[0])
        storage.db.execute(f"PRAGMA max_page_count = {pages + 2}")
        burst = answers(ROOMS)
        replies = await asyncio.gather(*(service.handle(m) for m in burst))
        storage.db.execute("PRAGMA max_page_count = 1073741823")
        taken = [m for m, group in zip(burst, replies) if acknowledged(m, group)]
        refused = [m for m, group in zip(burst, replies) if not acknowledged(m, group)]
        assert refused, "the file had room for every answer: the batch did not fail"
        for message, group in zip(burst, replies):  # every player heard something, in French
            assert any(r.to_user == message.user for r in group), group
        for room in ROOMS:
            stored = submitted(storage, room)
            mine = [m.name for m in taken if m.channel == room]
            assert sorted(stored) == sorted(["Dan", *mine]), (room, stored)
            in_memory = game_of(referee.services(), storage.game(active_game(storage, room).id))
            assert in_memory.current is not None
            assert sorted(s.player for s in in_memory.current.submissions) == sorted(stored), room
        again = answers([m.channel for m in refused])
        more = await asyncio.gather(*(service.handle(m) for m in again))
        assert all(acknowledged(m, group) for m, group in zip(again, more)), more
        for room in ROOMS:  # a fresh process reads the same log the cache holds
            fresh = Referee(storage, ready_registry(), now=lambda: START, images=False)
            try:
                rebuilt = game_of(fresh.services(), storage.game(active_game(storage, room).id))
                cached = game_of(referee.services(), storage.game(active_game(storage, room).id))
                assert rebuilt.current is not None
                assert cached.current is not None
                assert [s.player for s in rebuilt.current.submissions] == [s.player for s in cached.current.submissions]
                assert len(rebuilt.current.submissions) == 2, room
            finally:
                fresh.clock.shutdown()


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_a_room_another_transaction_holds_is_left_out_of_the_batch(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """PostgreSQL: another process holds room 0's lock; the batch does not wait for it (the other 19 answers
    are acknowledged meanwhile), and room 0's answer is recorded once the lock is given back."""
    import psycopg

    from bot.storage.sql.postgres import CHANNEL_LOCKS, PostgresStorage

    url = request.getfixturevalue("postgres_url")
    with psycopg.connect(url) as other:
        async with served(PostgresStorage(url)) as (_, service, _):
            storage = service.referee.storage
            await started(service, ROOMS)
            other.execute("select pg_advisory_xact_lock(%s, hashtext(%s))", [CHANNEL_LOCKS, ROOMS[0]])
            burst = answers(ROOMS)
            held_up = asyncio.ensure_future(service.handle(burst[0]))
            others = await asyncio.wait_for(asyncio.gather(*(service.handle(m) for m in burst[1:])), 60)
            assert all(acknowledged(m, group) for m, group in zip(burst[1:], others)), others
            assert not held_up.done()  # waiting for the room's lock, on its own
            other.rollback()  # the other process's transaction ends
            assert acknowledged(burst[0], await asyncio.wait_for(held_up, 60))
            assert sorted(submitted(storage, ROOMS[0])) == ["Dan", "P0"]


def test_sqlite_full_is_a_real_limit(tmp_path: Path) -> None:
    """The limit the batch test relies on is SQLite's own: a write past ``max_page_count`` fails."""
    conn = sqlite3.connect(tmp_path / "x.sqlite")
    conn.execute("create table t (a text)")
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        conn.execute("insert into t values (?)", ["x" * 100_000])
    conn.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("private_first", [False, True])
async def test_answers_to_one_game_from_its_room_and_a_private_chat_in_one_batch(
    kind: str, private_first: bool, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A batch whose states are read together holds two answers to one game (one sent in its room, one from
    a seated player's private chat): the second is read again after the first's writes; both are kept."""
    storage = open_store(kind, tmp_path, request, lambda sql, params: None)
    async with served(storage) as (_, service, _):
        await started(service, ROOMS[:2])
        await service.handle(Incoming(ROOMS[0], "u:cy", "Cy", "/rejoindre"))
        burst = [
            Incoming(ROOMS[1], "u:eve", "Eve", "/jouer H8 ZOO", private=True),  # alone first: the others batch
            Incoming(ROOMS[0], "u:ana", "Ana", "/jouer H8 ZOO", private=True),
            Incoming("discord:dm-cy", "u:cy", "Cy", "/jouer H8 ZOO", private=True),
        ]
        if private_first:
            burst[1], burst[2] = burst[2], burst[1]
        replies = await asyncio.gather(*(service.handle(m) for m in burst))
        assert all(acknowledged(m, group) for m, group in zip(burst, replies)), replies
        assert sorted(submitted(storage, ROOMS[0])) == ["Ana", "Cy", "Dan"]
        assert sorted(submitted(storage, ROOMS[1])) == ["Dan", "Eve"]


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_answers_received_in_time_and_handled_after_the_close_are_read_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Under a backlog, answers received before their round's end come after its close: the batch reads
    each one's state, leaves it to the usual way (which counts it for its round), and it is not tried the
    quick way again on its own (before: one more transaction each, its room's lock and its state read
    again for nothing; issue 36, a PostgreSQL process's CPU per answer under a backlog)."""
    statements: list[str] = []
    storage = open_store(kind, tmp_path, request, lambda sql, params: statements.append(" ".join(sql.split())))
    now = [START]
    referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False)

    async def deliver(replies: list[Reply]) -> None:
        pass

    service = RefereeService(referee, deliver)
    room = ROOMS[0]
    try:
        await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 1", admin=True))
        deadline = START + 60
        await service.handle(Incoming(room, "u:dan", "Dan", "/jouer H8 ZOO", private=True))
        now[0] += 61
        await service.tick()  # round 1 closed, round 2 drawn
        statements.clear()
        late = [
            Incoming(room, f"u:p{n}", f"P{n}", "/jouer H8 ZOO", private=True, received=deadline - 1) for n in range(5)
        ]
        replies = await asyncio.gather(*(service.handle(m) for m in late))
        for message, group in zip(late, replies):
            assert any("coup 1" in r.text for r in group if r.to_user == message.user), group
        round_1 = game_of(referee.services(), active_game(storage, room)).closed_rounds[0]
        assert {f"P{n}" for n in range(5)} <= set(round_1.results)
        states = [s for s in statements if 'from players where game = g.id and "user" =' in s]
        assert len(states) == len(late), states  # each read by its batch only (was twice)
        if kind == "postgres":  # the usual way's lock of the room; the quick way's own (lock_play) never taken
            assert sum("pg_advisory_xact_lock" in s for s in statements) == len(late), statements
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()
