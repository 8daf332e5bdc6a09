"""A private /jouer does the least work a durable acknowledgement needs: statements counted per move on a
real SQLite file and on the tests' PostgreSQL server, through the real referee (issue 21, item 3)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.chat import Incoming, Reply
from bot.games.duplicate.games import game_of
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage, Storage
from tests.ready_lists import ready_registry
from tests.storage_backends import active_game

CHANNEL = "discord:100"
START = 1_800_000_000.0
MOST = 6  # statements per /jouer, BEGIN and COMMIT included


def open_store(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, tracer: Callable[[str, Any], None]
) -> Storage:
    if kind == "sqlite":
        return SQLiteStorage(tmp_path / "arbitre.sqlite", tracer=tracer)
    from bot.storage.sql.postgres import PostgresStorage

    return PostgresStorage(request.getfixturevalue("postgres_url"), tracer=tracer)


def delivered(referee: Referee, replies: list[Reply]) -> list[Reply]:
    """What the service does once a command committed: send what is first in line, mark it delivered."""
    ready = referee.outbox.first_in_line(replies)
    referee.outbox.sent(ready, [])
    return ready


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_private_play_issues_at_most_six_statements(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    statements: list[str] = []
    storage = open_store(kind, tmp_path, request, lambda sql, params: statements.append(" ".join(sql.split())))
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    # psycopg opens and commits the transaction itself: the tracer never sees BEGIN and COMMIT
    unseen = 2 if kind == "postgres" else 0
    try:
        delivered(referee, referee.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 2", admin=True)))
        # the process's first command on the game reads its log once (the game is then kept in memory)
        delivered(referee, referee.handle(Incoming(CHANNEL, "u:dan", "Dan", "/jouer H8 ZOO", private=True)))
        counts: dict[str, int] = {}
        for case, user, text in [
            ("newcomer", "u:ana", "/jouer H8 ZOO"),
            ("newcomer", "u:ben", "/jouer H8 ZOO 12"),
            ("replacement", "u:ana", "/jouer H8 ZOO 3"),
        ]:
            statements.clear()
            replies = referee.handle(Incoming(CHANNEL, user, user[2:].title(), text, private=True))
            sent = delivered(referee, replies)
            assert sent == replies
            assert all(r.outbox_id is not None for r in sent)
            assert any(r.to_user == user and "coup 1" in r.text for r in sent), [r.text for r in sent]
            counts[case] = max(counts.get(case, 0), len(statements) + unseen)
            assert sum(s.lower().startswith(("begin", "commit")) for s in statements) <= 2, statements
        delivered(referee, referee.handle(Incoming(CHANNEL, "u:cy", "Cy", "/rejoindre")))
        statements.clear()
        delivered(referee, referee.handle(Incoming(CHANNEL, "u:cy", "Cy", "/jouer H8 ZOO", private=True)))
        counts["seated"] = len(statements) + unseen
        statements.clear()  # from the player's private chat: the game's channel is locked too
        delivered(referee, referee.handle(Incoming("discord:dm-cy", "u:cy", "Cy", "/jouer H8 ZOO 3", private=True)))
        counts["private chat"] = len(statements) + unseen
        # every case: BEGIN, the locks (PostgreSQL: the channel's and its game's in one statement), one read,
        # the writes (one statement on PostgreSQL; on SQLite the events and the seat in one, the replies in
        # another), COMMIT, the mark of their delivery
        assert all(n <= MOST for n in counts.values()), (counts, statements)
        submitted = [e.data for e in storage.events(active_game(storage, CHANNEL).id) if e.data["kind"] == "submit"]
        assert [(d["player"], d["move"]) for d in submitted] == [
            ("Dan", "H8 ZOO"),
            ("Ana", "H8 ZOO"),
            ("Ben", "H8 ZOO"),
            ("Ana", "H8 ZOO"),
            ("Cy", "H8 ZOO"),
            ("Cy", "H8 ZOO"),
        ]
        seated = sorted(name for _, name in storage.players(active_game(storage, CHANNEL).id))
        assert seated == ["Ana", "Ben", "Cy", "Dan"]
    finally:
        referee.clock.shutdown()
        storage.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_burst_of_first_answers_issues_at_most_six_statements_each(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """20 newcomers answer at once in 20 rooms, through the service: each answer's transaction (which
    also seats its player) takes at most 6 statements, and the marks of what was delivered are shared (measured,
    the answers batched: SQLite 24 statements for the 20, PostgreSQL 43 round trips)."""
    statements: list[str] = []
    storage = open_store(kind, tmp_path, request, lambda sql, params: statements.append(" ".join(sql.split())))
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    sent: list[Reply] = []

    async def deliver(replies: list[Reply]) -> None:
        sent.extend(replies)

    service = RefereeService(referee, deliver)
    rooms = [f"discord:{n}" for n in range(20)]
    try:
        for room in rooms:
            await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 2", admin=True))
            await service.handle(Incoming(room, "u:dan", "Dan", "/jouer H8 ZOO", private=True))  # in memory now
        statements.clear()
        sent.clear()
        answers = [Incoming(room, f"u:{room}", f"P{n}", "/jouer H8 ZOO", private=True) for n, room in enumerate(rooms)]
        replies = await asyncio.gather(*(service.handle(m) for m in answers))
        marks = [s for s in statements if s.startswith("update outbox set delivered")]
        assert 1 <= len(marks) < len(rooms), marks  # one shared by the answers delivered meanwhile
        moves = [s for s in statements if s not in marks]
        unseen = 2 * len(rooms) if kind == "postgres" else 0  # psycopg's BEGIN and COMMIT, one transaction each
        assert len(moves) + unseen <= MOST * len(rooms), moves  # each answer's transaction: at most 6
        assert sorted(r.outbox_id or 0 for r in sent) == sorted(r.outbox_id or 0 for group in replies for r in group)
        assert all(storage.outbox_state(r.outbox_id) == "delivered" for r in sent if r.outbox_id is not None)
        for message, group in zip(answers, replies):
            assert any(r.to_user == message.user and "coup 1" in r.text for r in group), [r.text for r in group]
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["quick", "usual"])
async def test_a_move_that_waited_behind_others_past_the_deadline_counts_from_its_arrival(
    path: str, tmp_path: Path
) -> None:
    """Ana's /jouer arrives 10 s before the deadline but waits behind Ben's in its room, and the deadline
    passes meanwhile: it is acknowledged and scored as in time, since the service times a move by its
    arrival. ``usual``: Ana is seated by name (the command's usual way, not the quick one)."""
    clock = [START]
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    referee = Referee(storage, ready_registry(), now=lambda: clock[0], images=False)
    sent: list[Reply] = []

    async def deliver(replies: list[Reply]) -> None:
        sent.extend(replies)
        if any(r.to_user == "u:ben" for r in replies):  # Ben's answer took its time: the deadline passes
            clock[0] = START + 75

    service = RefereeService(referee, deliver)
    try:
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        await service.handle(Incoming(CHANNEL, "u:ben", "Ben", "/rejoindre"))
        if path == "usual":
            await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/rejoindre Ana", admin=True))
        clock[0] = START + 50
        ben = Incoming(CHANNEL, "u:ben", "Ben", "/jouer H8 CHAT", private=True)
        ana = Incoming(CHANNEL, "u:ana", "Ana", "/jouer H8 CHANT", private=True)
        await asyncio.gather(service.handle(ben), service.handle(ana))
        assert clock[0] > START + 60  # Ana's move was handled after the deadline
        to_ana = [r.text for r in sent if r.to_user == "u:ana"]
        assert any(t.startswith("Reçu pour le coup 1 : H8 CHANT") for t in to_ana), to_ana
        assert not any("Trop tard" in t for t in to_ana), to_ana
        await service.tick()
        results = game_of(referee.services(), storage.game(active_game(storage, CHANNEL).id)).closed_rounds[0].results
        assert results["Ana"].valid, results["Ana"]
        assert results["Ana"].score > 0, results["Ana"]
    finally:
        await service.stop()
        referee.clock.shutdown()
        storage.close()
