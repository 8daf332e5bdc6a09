"""One outbox claim rule on both SQL backends (issue 22, item 3): the same calls answer the same messages
on a SQLite file and on the tests' PostgreSQL server, ``everything`` included (its own claims are a
process's own; what another process holds, and a new message nobody has tried before its time, are not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat import Reply
from bot.storage import SQLiteStorage, Storage

T = 4_000_000_000.0  # far after the real clock, which ``everything`` reads for due times
EVERYTHING = float("inf")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_claim_rule_is_the_same_on_both_backends(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    store: Storage
    if kind == "sqlite":
        store = SQLiteStorage(tmp_path / "arbitre.sqlite")
    else:
        from bot.storage.sql.postgres import PostgresStorage

        store = PostgresStorage(request.getfixturevalue("postgres_url"), pool_size=2)
    try:
        for process in ("A", "B"):
            store.outbox_alive(process, T + 1000)
        (sending,) = store.enqueue([Reply("A sends it", channel="c:1")], due=T + 30, created=T, owner="A")
        (fresh,) = store.enqueue([Reply("nobody's, in its grace", channel="c:2")], due=T + 30, created=T)
        (owed,) = store.enqueue([Reply("owed now", channel="c:3")], due=T, created=T)

        def due(owner: str, now: float = T) -> list[int]:
            return [item.id for item in store.outbox_due("c:", now, lease=30.0, owner=owner, at=T)]

        assert due("B") == [owed]
        assert due("B", EVERYTHING) == [owed]  # its own claim; A's message and the fresh one are left alone
        assert due("A", EVERYTHING) == [sending]
        assert due("A") == []  # its claims hold until T + 30, B's while B lives
        store.mark_failed(fresh, "429 Too Many Requests", T + 5)
        assert due("B", EVERYTHING) == [fresh, owed]  # tried once: everything takes it
        store.forget_process("B")
        assert due("A", T + 31) == [sending, fresh, owed]  # its lease ended; B is gone, its claims void
    finally:
        store.close()
