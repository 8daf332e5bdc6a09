"""What the outbox does at every delivery reads the messages still waiting, never the table's delivered
history (issue 36: the claim of due messages scanned the whole outbox on SQLite, 30-220 ms a claim under
the store's one lock in a 50-player burst, and the answers' writes waited behind it). Each statement the
outbox sends on a real SQLite file is planned again by SQLite (``explain query plan``): none scans the table."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.chat import Reply
from bot.storage import SQLiteStorage

DELIVERED = 2_000  # a day's history of a busy bot is larger; the plan does not depend on the size
OWNER = "vm:1:test"


def test_no_statement_of_a_delivery_scans_the_outbox(tmp_path: Path) -> None:
    path = tmp_path / "arbitre.sqlite"
    store = SQLiteStorage(path)
    now = time.time()
    for start in range(0, DELIVERED, 500):  # a history of delivered messages, to 50 channels
        ids = store.enqueue([Reply(f"old {n}", channel=f"discord:{n % 50}") for n in range(start, start + 500)], now)
        store.mark_delivered(ids, now)
    store.close()
    statements: list[tuple[str, list[Any]]] = []
    store = SQLiteStorage(path, tracer=lambda sql, params: statements.append((sql, list(params or []))))
    try:
        store.outbox_alive(OWNER, now + 60)
        live = Reply("3/20", channel="discord:1", edit_key="counter", live=True)
        waiting = store.enqueue([Reply("draw", channel="discord:1"), live, Reply("hi", to_user="u:1")], now)
        statements.clear()  # what each delivery does from here on
        due = store.outbox_due("discord:", now, lease=30.0, owner=OWNER)
        assert [i.id for i in due] == waiting[:1]
        store.outbox_due("", float("inf"), owner=OWNER, at=now)
        store.outbox_waiting("discord:1", waiting[1])
        store.outbox_waiting("discord:1", waiting[1], "counter")
        store.outbox_superseded(waiting[1], "discord:1", "counter")
        store.mark_delivered(waiting, now)
        store.outbox_backlog()
    finally:
        store.close()
    reads = [(sql, params) for sql, params in statements if "outbox" in sql and not sql.lower().startswith("insert")]
    assert len(reads) >= 7, reads
    plans = sqlite3.connect(str(path))
    try:
        for sql, params in reads:
            plan = [str(step[3]) for step in plans.execute("explain query plan " + sql, params).fetchall()]
            # "SCAN outbox" or "SCAN o" (an alias) without an index: every row read
            scans = [step for step in plan if re.fullmatch(r"SCAN (outbox|o|p)( AS \w+)?", step)]
            assert not scans, (sql, plan)
    finally:
        plans.close()
