"""The live pages under load (issue 27): one room watched by N viewers, and 100 rooms watched at once, while
private /play arrive; the command latency with and without viewers, and the events the viewers received.

The bot's process: the real referee service on a SQLite file, the hub and the aiohttp server; the viewers
(aiohttp clients reading the raw event streams) in a process of their own, as they would be on other
machines (on a 2-core machine they still share its CPU). Run:

    PYTHONPATH=. .venv/bin/python bench/bench_web.py [--viewers 0,100,500] [--plays 60] [--rooms 100] [--settle 0.1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from asyncio.subprocess import PIPE
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.chat import Incoming, Reply  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.runtime.service import RefereeService  # noqa: E402
from bot.storage import SQLiteStorage  # noqa: E402
from bot.web import Hub, WebAddress, WebServer  # noqa: E402
from bot.web.hub import SETTLE_SECONDS  # noqa: E402
from tests.ready_lists import ready_registry  # noqa: E402

START = 1_800_000_000.0
MOVES = ["H4 CHANTEZ", "H8 CHAT", "H6 CHANT", "H8 ZETA", "8D TACHE"]


VIEWER_SCRIPT = """
import asyncio, sys
import aiohttp

async def main(urls):
    counts = [0]
    ready = [0]
    async def read(http, url):
        async with http.get(url) as response:
            ready[0] += 1
            if ready[0] == len(urls):
                print("ready", flush=True)
            async for line in response.content:
                if line.startswith(b"event: state"):
                    counts[0] += 1
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     timeout=aiohttp.ClientTimeout(total=None)) as http:
        tasks = [asyncio.create_task(read(http, url)) for url in urls]
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        print(counts[0], flush=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

asyncio.run(main(sys.argv[1:]))
"""


class Viewers:
    """Event streams read by another process (the viewers' cost is not the bot's), counting the events."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.process: asyncio.subprocess.Process | None = None

    async def open(self) -> None:
        if not self.urls:
            return
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", VIEWER_SCRIPT, *self.urls, stdin=PIPE, stdout=PIPE
        )
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        assert line.strip() == b"ready", line

    async def close(self) -> int:
        """How many state events the viewers read in all."""
        if self.process is None:
            return 0
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(b"\n")
        await self.process.stdin.drain()
        count = int(await self.process.stdout.readline())
        await self.process.wait()
        return count


async def setup(db: Path, rooms: list[str], settle: float) -> tuple[RefereeService, Hub, WebServer, dict[str, str]]:
    storage = SQLiteStorage(db)
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)

    async def deliver(replies: list[Reply]) -> None:
        return None

    service = RefereeService(referee, deliver)
    hub = Hub(referee, settle=settle)
    server = WebServer(hub, WebAddress("127.0.0.1", 0))
    await server.start()
    links = {}
    for room in rooms:
        await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 10 manuel", admin=True))
        await service.handle(Incoming(room, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        replies = await service.handle(Incoming(room, "u:ref", "Ref", "/vue", admin=True))
        links[room] = next(w for r in replies for w in r.text.split() if "/v/" in w)
    return service, hub, server, links


async def plays(service: RefereeService, rooms: list[str], count: int) -> list[float]:
    """``count`` private /play per room, one after the other; each one's seconds in the service."""
    seconds = []
    for n in range(count):
        for room in rooms:
            message = Incoming(room, f"u:p{n}", f"P{n:03d}", f"/jouer {MOVES[n % len(MOVES)]}", private=True)
            started = time.perf_counter()
            await service.handle(message)
            seconds.append(time.perf_counter() - started)
    return seconds


async def scenario(rooms: int, viewers_per_room: int, count: int, settle: float) -> dict[str, float]:
    names = [f"discord:{n}" for n in range(rooms)]
    with tempfile.TemporaryDirectory() as folder:
        service, hub, server, links = await setup(Path(folder) / "bench.sqlite", names, settle)
        viewers = Viewers([links[room] + "/events" for room in names for _ in range(viewers_per_room)])
        await viewers.open()
        await asyncio.sleep(0.5)  # the snapshots sent
        snapshots = len(viewers.urls)
        started = time.perf_counter()
        seconds = await plays(service, names, count)
        await asyncio.sleep(0.5)  # the last pushes sent
        elapsed = time.perf_counter() - started
        received = max(0, await viewers.close() - snapshots)
        built = hub.states_built
        await server.close()
        await service.stop()
        service.referee.clock.shutdown()
        service.referee.storage.close()
    ordered = sorted(seconds)
    return {
        "rooms": rooms,
        "viewers": rooms * viewers_per_room,
        "commands": len(seconds),
        "median_ms": 1000 * statistics.median(ordered),
        "p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
        "states_built": built,
        "events_received": received,
        "events_per_s": received / elapsed,
    }


def show(result: dict[str, float]) -> None:
    print(
        f"{int(result['rooms']):4d} rooms {int(result['viewers']):5d} viewers: {int(result['commands'])} /play,"
        f" median {result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms;"
        f" {int(result['states_built'])} states built, {int(result['events_received'])} events received"
        f" ({result['events_per_s']:.0f}/s)",
        flush=True,
    )


async def main(viewers: list[int], count: int, rooms: int, settle: float) -> None:
    print(f"the feeds gather changes for {settle} s", flush=True)
    for watching in viewers:
        show(await scenario(1, watching, count, settle))
    for per_room in (0, 5):
        show(await scenario(rooms, per_room, max(1, count // 20), settle))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", default="0,100,500")
    parser.add_argument("--plays", type=int, default=60)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--settle", type=float, default=SETTLE_SECONDS, help="the hub's gathering of changes (s)")
    options = parser.parse_args()
    viewers = [int(v) for v in options.viewers.split(",")]
    asyncio.run(main(viewers, options.plays, options.rooms, options.settle))
