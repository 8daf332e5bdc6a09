"""Outbox claims that name their process, and edits that supersede each other, on SQLite, memory and
PostgreSQL: a live claimer's message is no other process's to send, whatever its due time; a dead one's
is due at once; a waiting edit of a delivered message gives way to a newer one. Also how a claimer is
known dead on this host."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable

import pytest

from bot.chat import Reply
from bot.outbox import known_dead, process_name
from bot.storage import Storage

A, B = "hostA:1:aa", "hostB:2:bb"


def test_a_live_claimers_message_waits_for_it_and_a_dead_ones_is_due_at_once(
    open_store: Callable[[], Storage],
) -> None:
    one, two = open_store(), open_store()
    one.outbox_alive(A, 110.0)
    two.outbox_alive(B, 110.0)
    (owed, other) = one.enqueue([Reply("draw", channel="c:1"), Reply("ack", to_user="c:9")], due=120.0, owner=A)
    # long past its grace, while A lives: B leaves it (A is still sending it), everything asked or not
    assert two.outbox_due("c:", 200.0, lease=30.0, owner=B, at=100.0) == []
    assert two.outbox_due("c:", float("inf"), lease=30.0, owner=B, at=100.0) == []
    assert [i.id for i in one.outbox_due("c:", 200.0, lease=30.0, owner=A, at=100.0)] == [owed, other]  # its own
    one.mark_failed(owed, "reset", 150.0)  # a failed try is anyone's once due
    assert [i.id for i in two.outbox_due("c:1", 150.0, lease=30.0, owner=B, at=105.0)] == [owed]
    assert one.outbox_due("c:1", 160.0, lease=30.0, owner=A, at=105.0) == []  # now B's claim, and B lives
    # A dies (its heartbeat expired at 110, or it is forgotten): what it claimed is due at once, before its time
    assert [i.id for i in two.outbox_due("c:", 111.0, owner=B, at=111.0)] == [other]
    one.outbox_alive(A, 300.0)  # alive again: a new claim holds
    later = one.enqueue([Reply("top", channel="c:2")], due=500.0, owner=A)[0]
    assert two.outbox_due("c:2", 400.0, owner=B, at=200.0) == []
    two.forget_process(A)  # found dead
    assert [i.id for i in two.outbox_due("c:2", 201.0, owner=B, at=201.0)] == [later]
    assert sorted(owner for owner, _ in two.outbox_processes()) == [B]


def test_a_waiting_edit_of_a_delivered_message_is_superseded_by_a_newer_one(
    open_store: Callable[[], Storage],
) -> None:
    store = open_store()
    first, edit, newer, elsewhere = store.enqueue(
        [
            Reply("draw", channel="c:1", edit_key="dup-1-1", deadline=160.0),
            Reply("draw, ten more minutes", channel="c:1", edit_key="dup-1-1", deadline=760.0),
            Reply("draw, closed", channel="c:1", edit_key="dup-1-1"),
            Reply("draw in another channel", channel="c:2", edit_key="dup-1-1"),
        ],
        due=100.0,
    )
    # the message itself was never delivered: its first send is not superseded (nothing to edit yet)
    assert not store.outbox_superseded(first, "c:1", "dup-1-1")
    store.mark_delivered([first], 101.0)
    assert store.outbox_superseded(edit, "c:1", "dup-1-1")
    assert not store.outbox_superseded(newer, "c:1", "dup-1-1")  # the latest edit is owed
    assert not store.outbox_superseded(elsewhere, "c:2", "dup-1-1")


def test_the_referee_drops_a_superseded_edit_and_hands_over_the_newer_one(
    open_store: Callable[[], Storage],
) -> None:
    from bot.referee import Referee
    from bot.words.loader import LexiconRegistry

    store = open_store()
    referee = Referee(store, LexiconRegistry(), now=lambda: 1000.0)
    first, edit, newer = store.enqueue(
        [Reply(text, channel="c:1", edit_key="dup-1-1") for text in ("draw", "draw +10 min", "draw, closed")],
        due=900.0,
    )
    store.mark_delivered([first], 901.0)
    assert [item.id for item in referee.outbox.claim_due()] == [newer]
    assert store.outbox_state(edit) == "dropped"


def test_a_claimer_is_known_dead_on_its_host_when_its_pid_is_gone_or_reused_by_this_process() -> None:
    me = process_name()
    host = socket.gethostname()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert known_dead(f"{host}:{gone.pid}:0123abcd", me)  # exited and reaped: no such process
    assert known_dead(f"{host}:{os.getpid()}:0123abcd", me)  # this pid under another name: an earlier run
    assert not known_dead(me, me)
    assert not known_dead(f"{host}:{os.getppid()}:0123abcd", me)  # a process that runs
    assert not known_dead(f"elsewhere-{host}:{gone.pid}:0123abcd", me)  # another host: its heartbeat decides


@pytest.mark.parametrize("name", ["garbage", ":", "host"])
def test_a_claimer_name_that_is_not_one_is_never_known_dead(name: str) -> None:
    assert not known_dead(name, process_name())


def test_this_process_name_says_host_and_pid() -> None:
    host, pid, token = process_name().split(":")
    assert (host, pid) == (socket.gethostname(), str(os.getpid()))
    assert len(token) == 8
    assert process_name() != process_name()  # each run of a process is its own claimer
