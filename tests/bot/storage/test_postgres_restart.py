"""A PostgreSQL server restarted, or its sessions ended, under a running bot (issue 37, item 12): a server of
the test's own (``pg_ctl stop -m immediate``, then started again on the same port), the real storage, referee,
hub and page server. Connections are checked out of the pool (a dead one is replaced), a read whose connection
died under it is run again, a command whose transaction lost its connection before the commit runs again
whole (once), and a live page whose state could not be built is built again."""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import aiohttp
import psycopg
import pytest
import pytest_asyncio

from bot.chat import Incoming
from bot.messages import say
from bot.referee import Referee
from bot.storage.sql.postgres import PostgresStorage
from bot.web import Hub, WebAddress, WebServer
from tests.bot.web.test_web_view import Stream
from tests.postgres_server import PostgresServer, PostgresUnavailableError, find_binaries
from tests.ready_lists import ready_registry
from tests.web_room import LINK

ROOM = "pg:restart"
APOLOGY = say("fr", "apology")
KILL_ALL = (
    "select count(pg_terminate_backend(pid, 10000)) from pg_stat_activity"
    " where datname = current_database() and pid <> pg_backend_pid()"
)


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own: stopping it disturbs no other test."""
    try:
        find_binaries()
    except PostgresUnavailableError as missing:
        pytest.skip(f"no PostgreSQL server binaries: {missing.reason}")
    server = PostgresServer(settings={"fsync": "off"}).start()
    yield server
    server.stop()


@pytest.fixture
def url(own_server: PostgresServer) -> str:
    return own_server.create_database("restart")


class Killer:
    """A storage tracer that ends every other session of the database (and waits until they are gone) just
    before the next ``kills`` statements containing ``armed`` run: what they run on is dead."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.armed = ""
        self.kills = 0
        self.killed = 0
        self.lock = threading.Lock()

    def arm(self, text: str, kills: int) -> None:
        with self.lock:
            self.armed, self.kills = text, kills

    def __call__(self, sql: str, params: Sequence[Any]) -> None:
        with self.lock:
            if not self.kills or self.armed not in sql:
                return
            self.kills -= 1
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(KILL_ALL)
        self.killed += 1


def end_every_session(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        ((count,),) = conn.execute(KILL_ALL).fetchall()
    return int(count)


def texts(replies: list[Any]) -> str:
    return "\n".join(r.text for r in replies)


def penalties(storage: PostgresStorage) -> list[int]:
    game = storage.active_game(ROOM)
    assert game is not None
    return [int(e.data["points"]) for e in storage.events(game.id) if e.data.get("kind") == "penalty"]


@pytest.mark.long(18)
def test_answers_after_a_restart_or_with_every_session_ended_are_real_replies(
    own_server: PostgresServer, url: str
) -> None:
    killer = Killer(url)
    storage = PostgresStorage(url, tracer=killer)
    referee = Referee(storage, ready_registry(), images=False)

    def send(text: str) -> str:
        return texts(referee.handle(Incoming(ROOM, "u:ana", "Ana", text, admin=True)))

    try:
        assert "Nouvelle partie" in send("/nouvelle Ana Ben")
        with ThreadPoolExecutor(4) as pool:  # several connections in the pool, all of which the restart breaks
            assert all("Ben perd" in a for a in pool.map(send, [f"/penalite Ben {n}" for n in range(1, 9)]))
        own_server.crash()
        own_server.start_again()
        after = [send(f"/penalite Ben {n}") for n in range(10, 34)]
        assert end_every_session(url) >= 1  # the pool's sessions, and the notifier's
        after += [send(f"/penalite Ben {n}") for n in range(34, 58)]
        assert not [a for a in after if APOLOGY in a]
        assert all(f"Ben perd {n} points" in a for n, a in zip(range(10, 58), after)), after
        # a session ended in the middle of a command's transaction: the command runs again, whole, once
        killer.arm("pg_advisory_xact_lock", 1)
        answer = send("/penalite Ben 99")
        assert killer.killed == 1, (killer.killed, answer)
        assert "Ben perd 99 points" in answer, answer
        assert sorted(penalties(storage)) == [*range(1, 9), *range(10, 58), 99]  # each kept once
    finally:
        referee.clock.shutdown()
        storage.close()


def test_a_pooled_connection_is_checked_without_a_round_trip_unless_its_socket_speaks(url: str) -> None:
    """The pool looks at a connection's socket before handing it out: a live idle session says nothing there
    and costs no query; a session the server ended is readable (closed), asked, and replaced."""
    storage = PostgresStorage(url)
    referee = Referee(storage, ready_registry(), images=False)

    def send(text: str) -> str:
        return texts(referee.handle(Incoming(ROOM, "u:ana", "Ana", text, admin=True)))

    try:
        assert "Nouvelle partie" in send("/nouvelle Ana Ben")
        with ThreadPoolExecutor(4) as pool:  # several connections in the pool
            assert all("Ben perd" in a for a in pool.map(send, [f"/penalite Ben {n}" for n in range(1, 21)]))
        assert storage.pool_check.asked == 0
        assert end_every_session(url) >= 1
        assert "Ben perd 21 points" in send("/penalite Ben 21")
        assert storage.pool_check.asked >= 1  # the dead session's socket said so: asked, and replaced
        assert sorted(penalties(storage)) == list(range(1, 22))
    finally:
        referee.clock.shutdown()
        storage.close()


def test_the_check_holds_past_a_thousand_open_descriptors(url: str) -> None:
    """A busy process (web viewers, chat connections) may hold more than FD_SETSIZE (1024) descriptors: the
    check polls, which has no such limit (``select()`` would raise on the pool's sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1400:
        pytest.skip(f"this system allows {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    gc.collect()  # an earlier test's sockets closed now, not later (a low descriptor freed for the pool)
    pipes = [os.pipe()]
    while pipes[-1][1] < 1100:  # every descriptor up to past 1100 taken: the pool's connections come after
        pipes.append(os.pipe())
    storage = PostgresStorage(url)
    referee = Referee(storage, ready_registry(), images=False)
    try:
        with storage.pool.connection() as conn:
            assert conn.fileno() > 1024
        started = referee.handle(Incoming(ROOM, "u:ana", "Ana", "/nouvelle Ana Ben", admin=True))
        assert "Nouvelle partie" in texts(started)
        assert storage.pool_check.asked == 0
    finally:
        referee.clock.shutdown()
        storage.close()
        for read, write in pipes:
            os.close(read)
            os.close(write)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@dataclass
class Served:
    storage: PostgresStorage
    referee: Referee
    hub: Hub
    server: WebServer
    killer: Killer

    async def say(self, text: str) -> str:
        message = Incoming(ROOM, "u:ana", "Ana", text, admin=True)
        return texts(await asyncio.to_thread(self.referee.handle, message))

    async def stream_of_a_game(self, http: aiohttp.ClientSession) -> tuple[aiohttp.ClientResponse, Stream]:
        assert "Nouvelle partie" in await self.say("/nouvelle Ana Ben")
        found = LINK.findall(await self.say("/vue"))
        assert len(found) == 1
        response = await http.get(found[0] + "/events")
        return response, Stream(response)


async def serve(url: str, listening: bool) -> Served:
    killer = Killer(url)
    storage = await asyncio.to_thread(PostgresStorage, url, tracer=killer)
    referee = Referee(storage, ready_registry(), images=False)
    if not listening:
        referee.notifier = None  # no listener: only the hub's own retry can bring the state
    hub = Hub(referee)
    server = WebServer(hub, WebAddress("127.0.0.1", 0, ""))
    await server.start()
    if hub.listener is not None:
        await asyncio.to_thread(hub.listener.rooms_heard.wait, 10)
    return Served(storage, referee, hub, server, killer)


@pytest_asyncio.fixture
async def served(url: str, request: pytest.FixtureRequest) -> AsyncIterator[Served]:
    served = await serve(url, listening=request.param)
    yield served
    await served.server.close()
    served.referee.clock.shutdown()
    await asyncio.to_thread(served.storage.close)


async def state_where(stream: Stream, check: Any) -> dict[str, Any]:
    while True:
        state = await stream.state()
        if check(state):
            return state


def ben(state: dict[str, Any]) -> int:
    return next(int(s["total"]) for s in state["scores"] if s["player"] == "Ben")


@pytest.mark.asyncio
@pytest.mark.parametrize("served", [True], indirect=True)
async def test_the_page_updates_after_the_server_restarted(served: Served, own_server: PostgresServer) -> None:
    async with aiohttp.ClientSession() as http:
        response, stream = await served.stream_of_a_game(http)
        async with response:
            assert ben(await stream.state()) == 0
            await asyncio.to_thread(own_server.crash)
            await asyncio.to_thread(own_server.start_again)
            answer = await served.say("/penalite Ben 7")
            assert "Ben perd 7 points" in answer, answer
            assert ben(await state_where(stream, lambda s: ben(s) != 0)) == -7


@pytest.mark.asyncio
@pytest.mark.parametrize("served", [False], indirect=True)
async def test_a_page_whose_state_could_not_be_built_is_built_again(served: Served) -> None:
    async with aiohttp.ClientSession() as http:
        response, stream = await served.stream_of_a_game(http)
        async with response:
            assert ben(await stream.state()) == 0
            served.killer.arm("from views where channel", 2)  # the build's read, and the one more it gets
            answer = await served.say("/penalite Ben 7")
            assert "Ben perd 7 points" in answer, answer
            assert ben(await state_where(stream, lambda s: ben(s) != 0)) == -7
            assert served.killer.killed == 2
