"""The live page across processes (issue 27): on one PostgreSQL database, the page served by this test's
process is pushed what another bot process (``tests.referee_worker``) commits, through ``pg_notify`` and the
hub's listener; the server's keep-alives are stopped, so that only a notification can bring a state. Real
processes, a real server (the ``postgres_server`` fixture), the page's raw event stream read."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
import pytest
import pytest_asyncio

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage.sql.postgres import PostgresStorage
from bot.web import Hub, WebAddress, WebServer
from bot.web.notify import ROOMS_CHANNEL, VIEWS_CHANNEL, RoomListener
from tests.bot.web.test_web_view import Stream
from tests.ready_lists import ready_registry
from tests.web_room import LINK
from tests.worker_pool import Workers, say, whisper

ROOM = "pg:1"
ORGANISER = "pg:org"


@dataclass
class Served:
    """This process: a referee on the database and its pages, with no keep-alive."""

    storage: PostgresStorage
    referee: Referee
    hub: Hub
    server: WebServer

    async def say(self, channel: str, user: str, text: str) -> list[Reply]:
        message = Incoming(channel, user, user.split(":")[-1], text, admin=True)
        return await asyncio.to_thread(self.referee.handle, message)

    async def link(self, channel: str, text: str = "/vue") -> str:
        replies = await self.say(channel, "u:ref", text)
        found = [m.group(0) for r in replies for m in LINK.finditer(r.text)]
        assert len(found) == 1, [r.text for r in replies]
        return found[0]

    @property
    def listener(self) -> RoomListener:
        assert self.hub.listener is not None
        return self.hub.listener


@pytest_asyncio.fixture
async def served(postgres_url: str) -> AsyncIterator[Served]:
    storage = await asyncio.to_thread(PostgresStorage, postgres_url)
    referee = Referee(storage, ready_registry(), images=False)
    hub = Hub(referee)
    server = WebServer(hub, WebAddress("127.0.0.1", 0, ""))
    await server.start()
    keeper = server._keeper
    assert keeper is not None
    keeper.cancel()  # no keep-alive at all: only a notification from the other process can bring a state
    if hub.listener is not None:  # (None only where the pages hear no other process: the test then fails)
        await asyncio.to_thread(hub.listener.rooms_heard.wait, 10)
    yield Served(storage, referee, hub, server)
    await server.close()
    referee.clock.shutdown()
    await asyncio.to_thread(storage.close)


@dataclass
class Other:
    """The other bot process, which takes the commands (its clock too)."""

    workers: Workers

    def told(self, message: dict[str, Any]) -> list[str]:
        """What it answered to ``message`` (once it committed); never an error."""
        worker = self.workers.all[0]
        sent = self.workers.send(worker, message)
        assert sent is not None
        ack = worker.wait_ack(sent)
        assert not ack.error, ack.texts
        return ack.texts


@pytest.fixture
def other(postgres_url: str, tmp_path: Path) -> Iterator[Other]:
    with Workers(postgres_url, tmp_path, 1, lease=30.0) as workers:
        yield Other(workers)


async def in_other(other: Other, message: dict[str, Any]) -> list[str]:
    return await asyncio.to_thread(other.told, message)


async def state_where(stream: Stream, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first state the stream brings for which ``check`` holds (a notification may bring one unchanged)."""
    while True:
        state = await stream.state()
        if check(state):
            return state


async def open_round(served: Served, worker: Other) -> str:
    """A game started in the other process, its link given here (heard there: it tells this room from now
    on; three of its commands follow before the page opens), a round drawn there; the link."""
    await in_other(worker, say(ROOM, "u:ref", "/duplicate 1 manuel", admin=True))
    link = await served.link(ROOM)
    assert served.referee.notifier is not None
    assert await asyncio.to_thread(served.referee.notifier.flush)
    await in_other(worker, say(ROOM, "u:ref", "/tirage ACEHNTZ", admin=True))
    for player in ("u:ana", "u:ben"):
        await in_other(worker, say(ROOM, player, "/rejoindre"))
    return link


@pytest.mark.asyncio
async def test_another_process_play_and_close_reach_the_page_by_notification(served: Served, other: Other) -> None:
    link = await open_round(served, other)
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        snapshot = await stream.state()
        assert (snapshot["round"]["played"], snapshot["round"]["players"]) == (0, 2)
        await in_other(other, whisper("u:ana", "/jouer H4 CHANTEZ"))
        counted = await state_where(stream, lambda s: s["round"]["played"] == 1)
        assert counted["round"]["players"] == 2
        assert counted["last"] is None
        await in_other(other, say(ROOM, "u:ref", "/cloture", admin=True))
        closed = await state_where(stream, lambda s: s["last"] is not None)
        assert closed["last"]["number"] == 1
        assert closed["last"]["top"]
        assert [r["player"] for r in closed["last"]["results"]] == ["ana"]
        assert b"keep-alive" not in stream.raw
    assert served.hub.changes_elsewhere >= 2
    assert served.referee.notifier is not None
    assert served.referee.notifier.statements >= 1
    assert served.listener.own_heard >= 1  # and heard back, not passed on: its hub knew already


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_a_round_the_other_process_s_clock_closes_reaches_the_page(served: Served, other: Other) -> None:
    """Real time: a 3-second round (the shortest clock) drawn and closed by the other process's clock."""
    await in_other(other, say(ROOM, "u:ref", "/duplicate 0.05 manuel", admin=True))
    link = await served.link(ROOM)
    assert served.referee.notifier is not None
    assert await asyncio.to_thread(served.referee.notifier.flush)
    await in_other(other, say(ROOM, "u:ana", "/rejoindre"))
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        assert (await stream.state())["last"] is None
        await in_other(other, say(ROOM, "u:ref", "/tirage ACEHNTZ", admin=True))
        await in_other(other, whisper("u:ana", "/jouer H4 CHANTEZ"))
        closed = await state_where(stream, lambda s: s["last"] is not None)  # the clock's close, told
        assert closed["last"]["number"] == 1
        assert [r["player"] for r in closed["last"]["results"]] == ["ana"]
        assert b"keep-alive" not in stream.raw


@pytest.mark.asyncio
async def test_the_listener_connects_again_after_its_connection_is_killed(
    served: Served, other: Other, postgres_url: str
) -> None:
    link = await open_round(served, other)
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        assert (await stream.state())["round"]["played"] == 0
        listener = served.listener
        killed = listener.backend_pid
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            ((done,),) = conn.execute("select pg_terminate_backend(%s)", [killed]).fetchall()
        assert done
        again = lambda: listener.connections == 2 and listener.rooms_heard.is_set()  # noqa: E731
        await asyncio.to_thread(wait_for, again, "the listener connects again")
        assert listener.backend_pid != killed
        await in_other(other, whisper("u:ben", "/jouer H4 CHANTEZ"))
        counted = await state_where(stream, lambda s: s["round"]["played"] == 1)
        assert counted["round"]["players"] == 2
        assert b"keep-alive" not in stream.raw


@pytest.mark.asyncio
async def test_a_simultane_room_closing_in_another_process_reaches_the_organisers_page(
    served: Served, other: Other
) -> None:
    """The organiser's page (served here) is woken by the close of a room of the simultané in the other
    process: the notification names that room, the hub here passes it on to the simultané's pages."""
    created = await served.say(ORGANISER, "u:org", "/simultane creer 1 tirages ACEHNTZ")
    words = [m.group(1) for r in created for m in re.finditer(r"\b([A-Z2-9]{6})\b", r.text)]
    code = next(w for w in words if w != "ACEHNTZ")
    link = await served.link(ORGANISER, "/vue simultane")
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        whole = Stream(response)
        assert (await whole.state())["overall"]["rounds"] == 0
        await in_other(other, say(ROOM, "u:ref", f"/simultane rejoindre {code} Club de Vichy", admin=True))
        await in_other(other, say(ROOM, "u:bertrand", "/rejoindre"))
        await in_other(other, whisper("u:bertrand", "/jouer H8 CHANT"))
        assert b"bertrand" not in whole.raw.lower()  # nothing of the room's move before its close
        await in_other(other, say(ROOM, "u:ref", "/cloture", admin=True))  # held: the entries are open (paced)
        await served.say(ORGANISER, "u:org", f"/simultane clore {code}")  # the other process's clock closes it
        shown = (await state_where(whole, lambda s: s["overall"]["rounds"]))["overall"]
        assert [(s["player"], s["room"], s["total"]) for s in shown["standings"]] == [("bertrand", "Club de Vichy", 22)]
        assert b"keep-alive" not in whole.raw


def wait_for(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not after {timeout:.0f} s: {what}")
        time.sleep(0.02)


@pytest.mark.long(3)
def test_only_watched_rooms_are_told_once_per_statement_by_their_key(postgres_url: str) -> None:
    """What another process hears: one notification per watched room however many changes, its payload the
    room's key; a room with no live link costs nothing (no statement)."""
    storage = PostgresStorage(postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f"listen {ROOMS_CHANNEL}")
            conn.execute(f"listen {VIEWS_CHANNEL}")
            referee = Referee(storage, ready_registry(), images=False)
            referee.web_url = "https://club.example/arbitre"  # /vue gives links (no server needed here)
            notifier = referee.notifier
            assert notifier is not None
            with notifier.held():  # six changes told while the sender waits
                for text in ("/duplicate 1 manuel", "/tirage ACEHNTZ", "/vue", "/rejoindre", "/jouer H4 CHANTEZ"):
                    referee.handle(Incoming(ROOM, "u:ref", "ref", text, admin=True))
                referee.handle(Incoming(ORGANISER, "u:ref", "ref", "/duplicate 1 manuel", admin=True))
            assert notifier.flush()
            heard = [(n.channel, n.payload) for n in conn.notifies(timeout=1.0)]
            assert sorted(heard) == [(ROOMS_CHANNEL, ROOM), (VIEWS_CHANNEL, "")]  # the watched room, once
            assert (notifier.statements, notifier.notified, notifier.live) == (1, 1, frozenset({ROOM}))
            referee.handle(Incoming(ORGANISER, "u:ref", "ref", "/tirage ACEHNTZ", admin=True))  # nobody watches it
            assert notifier.flush()
            assert notifier.statements == 1
            assert not list(conn.notifies(timeout=0.5))
            referee.handle(Incoming(ROOM, "u:ref", "ref", "/vue stop", admin=True))  # its pages are told it ended
            assert notifier.flush()
            assert sorted((n.channel, n.payload) for n in conn.notifies(timeout=1.0)) == heard
            assert notifier.live == frozenset()
        referee.clock.shutdown()
    finally:
        storage.close()
