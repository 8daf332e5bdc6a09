"""A crowd at the live pages never stops the bot (issue 37, item 11): the real ``arbitre console`` under a soft
limit of 1,024 descriptors (``ulimit -n 1024``, a common service default), its page and metrics ports served,
held by 1,100 event streams, 1,100 half-sent requests and 900 idle connections to the metrics port at once.
The health check answers, commands that need the database and a file are answered, the streams beyond the caps
are told 503 at once, the half-sent requests are closed for newer ones or when their headers are late, the
metrics port spends no thread per connection, and stderr says nothing of descriptors."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import re
import resource
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest
import pytest_asyncio

from bot.web.limits import MAX_CONNECTIONS, RESERVE, Caps, quiet_descriptor_shortage
from bot.words.loader import LexiconRegistry
from tests.paths import REPO_ROOT
from tests.web_room import LINK, WebRoom

ROOT = REPO_ROOT
SOFT_LIMIT = 1024
CROWD = 1100  # of each kind
IDLE_SCRAPES = 900  # idle connections to the metrics port
WAIT = 60.0  # for what the process owes (never a measure: a guard against a hang)

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX descriptor limits")


def own_limit() -> None:
    """This test's process holds both crowds' sockets: its own soft limit raised for them (skipped if it cannot)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * CROWD + IDLE_SCRAPES + 200
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"the hard limit of descriptors ({hard}) is below {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def threads(pid: int) -> int:
    """How many threads the process runs (Linux: its /proc status; 0 elsewhere)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return 0
    return int(next(line.split()[1] for line in status.read_text().splitlines() if line.startswith("Threads:")))


def limited() -> None:
    """In the child before it runs: ``ulimit -n 1024``."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT_LIMIT, hard))


class Console:
    """The console process: lines in, its output read as it comes, its stderr kept."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.out = ""
        self.err = ""
        self._err_task = asyncio.get_running_loop().create_task(self._drain_err())
        self.err_lines: asyncio.Queue[str] = asyncio.Queue()

    async def _drain_err(self) -> None:
        assert self.process.stderr is not None
        while line := (await self.process.stderr.readline()).decode(errors="replace"):
            self.err += line
            self.err_lines.put_nowait(line)

    async def err_line(self, pattern: str) -> re.Match[str]:
        while True:
            line = await asyncio.wait_for(self.err_lines.get(), WAIT)
            if found := re.search(pattern, line):
                return found

    async def say(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()

    async def answer(self, pattern: str) -> re.Match[str]:
        """The output up to what matches ``pattern``."""
        assert self.process.stdout is not None
        while not (found := re.search(pattern, self.out)):
            line = await asyncio.wait_for(self.process.stdout.readline(), WAIT)
            assert line, self.out[-2000:] + self.err[-2000:]
            self.out += line.decode()
        self.out = self.out[found.end() :]
        return found

    async def finish(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.stdout is not None
        self.out += (await asyncio.wait_for(self.process.stdout.read(), WAIT)).decode()
        code = await asyncio.wait_for(self.process.wait(), WAIT)
        await self._err_task
        return code


@pytest_asyncio.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    LexiconRegistry().get("fr")  # the list's cache exists before the process needs it
    own_limit()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(ARBITRE_DATA=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "club.sqlite"), "--admin", "Ana",
        "--web-port", "0", "--metrics-port", "0",
        cwd=ROOT, env=env, preexec_fn=limited,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    console = Console(process)
    try:
        yield console
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def connection(host: str, port: int, request: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(request)
    await writer.drain()
    return reader, writer


async def status_of(reader: asyncio.StreamReader) -> int:
    """The HTTP status a connection was answered (0: closed without one)."""
    line = await asyncio.wait_for(reader.readline(), WAIT)
    return int(line.split()[1]) if line.startswith(b"HTTP/") else 0


async def end_of(reader: asyncio.StreamReader) -> bytes:
    """What a connection was sent before it was closed (a reset: nothing)."""
    try:
        return await asyncio.wait_for(reader.read(), WAIT)
    except ConnectionResetError:
        return b""


@pytest.mark.long(42)
@pytest.mark.asyncio
async def test_a_crowd_of_streams_and_half_sent_requests_under_1024_descriptors(console: Console) -> None:
    metrics = (await console.err_line(r"health check on (\S+)/healthz"))[1]
    await console.err_line(r"live pages under")
    await console.say("Ana: /nouvelle Ana Ben")
    await console.answer(r"Nouvelle partie")
    await console.say("Ana: /vue")
    link = urlsplit((await console.answer(LINK.pattern))[0])
    host, port = link.hostname or "127.0.0.1", link.port or 80
    stream = f"GET {link.path}/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    half = f"GET {link.path} HTTP/1.1\r\nHost: {host}\r\n".encode()  # the headers never end
    streams, halves, statuses = [], [], []
    try:
        for _ in range(CROWD):  # each one answered at once: its stream, or 503
            streams.append(await connection(host, port, stream))
            statuses.append(await status_of(streams[-1][0]))
        for _ in range(CROWD):
            halves.append(await connection(host, port, half))
        scrapes = urlsplit(metrics)
        for _ in range(IDLE_SCRAPES):  # connections to the metrics port that never send anything
            halves.append(await connection(scrapes.hostname or "127.0.0.1", scrapes.port or 80, b""))
        assert threads(console.process.pid) < 100  # not a thread per connection
        served, refused = statuses.count(200), statuses.count(503)
        assert served + refused == CROWD, (served, refused)
        assert served >= 100, (served, refused)
        assert refused >= CROWD - SOFT_LIMIT, (served, refused)
        # everything held open: the health check answers, and so do commands that need the database and a file
        async with aiohttp.ClientSession() as http, http.get(metrics + "/healthz") as health:
            assert (health.status, await health.text()) == (200, "ok\n")
        await console.say("Ana: /penalite Ben 3")
        await console.answer(r"Ben perd 3 points")
        await console.say("Ana: /grille")
        image = await console.answer(r"\(image: ([^)]*)\)")
        assert Path(image[1]).is_file(), image[1]
        # the half-sent requests end: closed for newer ones, or once their headers are late
        ends = await asyncio.gather(*(end_of(reader) for reader, _ in halves))
        assert all(end == b"" or end.startswith(b"HTTP/1.1 503") for end in ends)
    finally:
        for _, writer in [*streams, *halves]:
            writer.close()
    assert await console.finish() == 0, console.err[-3000:]
    assert "Traceback" not in console.err, console.err[-3000:]
    said = [line for line in console.err.splitlines() if "descriptor" in line.lower() or "open files" in line]
    assert len(said) <= 2, said[:5]


# --- the caps, in the test's own loop ---------------------------------------------------------------


@pytest_asyncio.fixture
async def capped_room(tmp_path: Path) -> AsyncIterator[WebRoom]:
    room = WebRoom(tmp_path / "arbitre.sqlite")
    room.server.caps = Caps(connections=8, viewers=4, room_viewers=3)
    await room.start()
    yield room
    await room.stop()


@pytest.mark.asyncio
async def test_viewers_beyond_a_room_s_cap_are_told_503_and_idle_connections_keep_no_page_out(
    capped_room: WebRoom,
) -> None:
    room = capped_room
    await room.say("/nouvelle Ana Ben", admin=True)
    link = urlsplit(await room.link())
    host, port = link.hostname or "127.0.0.1", link.port or 80
    stream = f"GET {link.path}/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    opened, statuses = [], []
    try:
        for _ in range(4):
            opened.append(await connection(host, port, stream))
            statuses.append(await status_of(opened[-1][0]))
        assert statuses == [200, 200, 200, 503]
        refused = await asyncio.wait_for(opened[-1][0].read(), WAIT)  # and its connection closed
        assert b"Retry-After: 30" in refused
        assert room.hub.viewers() == 3
        assert room.server.refused == 1
        # idle connections fill the rest: each new one closes the oldest idle one, and the page still loads
        half = f"GET {link.path} HTTP/1.1\r\nHost: {host}\r\n".encode()
        idle = [await connection(host, port, half) for _ in range(20)]
        opened += idle
        async with aiohttp.ClientSession() as http, http.get(link.geturl()) as page:
            assert page.status == 200
        assert [await asyncio.wait_for(reader.read(), WAIT) for reader, _ in idle[:10]] == [b""] * 10
    finally:
        for _, writer in opened:
            writer.close()


def test_the_caps_keep_the_bot_s_reserve_of_descriptors() -> None:
    caps = Caps.for_limit(1024)
    assert caps.connections == 1024 - RESERVE
    assert caps.viewers < caps.connections
    assert Caps.for_limit(100).connections >= 32  # a tiny limit still serves a few pages
    assert Caps.for_limit(1 << 20).connections == MAX_CONNECTIONS


@pytest.mark.asyncio
async def test_a_descriptor_shortage_is_said_once_and_other_loop_errors_as_before(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    seen: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    try:
        handler = quiet_descriptor_shortage(loop)
        assert quiet_descriptor_shortage(loop) is handler
        with caplog.at_level(logging.ERROR, logger="arbitre"):
            for _ in range(1000):  # asyncio's accept says it every second while it lasts
                loop.call_exception_handler(
                    {"message": "socket.accept() out of system resource", "exception": OSError(errno.EMFILE, "")}
                )
        said = [r for r in caplog.records if "out of descriptors" in r.getMessage()]
        assert len(said) == 1
        assert said[0].exc_info is None
        assert handler.times == 1000
        loop.call_exception_handler({"message": "something else"})
        assert [c["message"] for c in seen] == ["something else"]
    finally:
        loop.set_exception_handler(before)
