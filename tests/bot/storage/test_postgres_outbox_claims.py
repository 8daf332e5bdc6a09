"""Claims on the outbox name their process, on a real PostgreSQL server with ``tests.referee_worker``
processes: a reply whose sender was killed between its commit and its delivery is taken over at the
restarted process's first outbox pass (before, it waited out the 20 s grace, and the destination's later
replies behind it), and two live processes never deliver the same message however long the platform
takes (before, the other process took it once the grace was over: sent twice)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.worker_pool import Worker, say

HELP = "/aide classement"  # a short help text: one reply, no game needed


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout:.0f} s: {what}")
        time.sleep(0.05)


def rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


def test_postgres_a_reply_its_killed_sender_owed_goes_at_the_restarted_process_first_pass(
    postgres_url: str, tmp_path: Path
) -> None:
    victim = Worker("victim", postgres_url, tmp_path, deliver_seconds=600.0).start()  # a platform that hangs
    heir = Worker("heir", postgres_url, tmp_path)
    try:
        victim.wait_ready()
        victim.send(1, say("chan:1", "chan:ana", HELP))
        wait_until(lambda: bool(rows(postgres_url, "select id from outbox")), 60, "the reply is committed")
        ((owed, claimer),) = rows(postgres_url, "select id, claimed_by from outbox where delivered is null")
        assert str(claimer).split(":")[1] == str(victim.pid)  # claimed by its sender, by name
        victim.kill()  # between the commit and the delivery
        heir.start().wait_ready()
        wait_until(lambda: bool(heir.delivered()), 60, "the dead process's reply is delivered")
        (taken,) = heir.delivered()
        assert taken["outbox"] == owed
        assert taken["passes"] == 1
        heir.send(2, say("chan:1", "chan:ana", HELP))  # the restarted process's own first answer
        heir.wait_ack(2)
        assert len(heir.delivered()) == 2  # sent with its command, nothing older in the way
        assert heir.finish() == 0
    finally:
        for worker in (victim, heir):
            if worker.process is not None and worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(30)
    assert rows(postgres_url, "select count(*) from outbox where delivered is null") == [(0,)]
    assert rows(postgres_url, "select count(*) from outbox_processes") == [(0,)]  # the heir stopped cleanly


@pytest.mark.long(4)
def test_postgres_two_live_processes_never_send_the_same_message_when_the_platform_is_slow(
    postgres_url: str, tmp_path: Path
) -> None:
    # a platform that takes 3 s to accept a message, a grace of 0.5 s: the other process's outbox worker
    # (every 0.2 s) finds each message past its grace while its sender is still sending it
    slow = Worker("slow", postgres_url, tmp_path, deliver_seconds=3.0, grace=0.5).start()
    other = Worker("other", postgres_url, tmp_path, grace=0.5).start()
    try:
        slow.wait_ready()
        other.wait_ready()
        for number in range(1, 4):
            slow.send(number, say(f"chan:{number}", "chan:ana", HELP))
        slow.wait_all(120)  # each answered once its slow delivery is over
        assert slow.finish() == 0
        assert other.finish() == 0
    finally:
        for worker in (slow, other):
            if worker.process is not None and worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(30)
    sent = Counter(line["outbox"] for worker in (slow, other) for line in worker.delivered())
    stored = {int(i) for (i,) in rows(postgres_url, "select id from outbox")}
    assert set(sent) == stored
    assert len(stored) == 3
    assert set(sent.values()) == {1}, sent  # each message sent once
    assert other.delivered() == []
