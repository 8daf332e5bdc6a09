"""The live page across processes (issue 27): one PostgreSQL server, a bot process that takes the commands
(``tests.referee_worker``) and this process serving the room's page (its keep-alives stopped); how long a
/jouer acknowledged by the other process takes to reach the page's event stream, one at a time, then in a
burst (the states the page got, the notifications sent on the channel: one per chat per statement, the
players' private chats included).

    PYTHONPATH=. .venv/bin/python bench/bench_web_processes.py [--plays 40] [--burst 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.chat import Incoming  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.storage.sql.postgres import PostgresStorage  # noqa: E402
from bot.web import Hub, WebAddress, WebServer  # noqa: E402
from bot.web.notify import ROOMS_CHANNEL  # noqa: E402
from tests.bot.web.test_web_view import Stream  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402
from tests.ready_lists import ready_registry  # noqa: E402
from tests.web_room import LINK  # noqa: E402
from tests.worker_pool import Worker, Workers, say, whisper  # noqa: E402

ROOM = "pg:1"


def heard(url: str, stop: threading.Event, counts: list[int]) -> None:
    """Count the notifications on the rooms' channel until ``stop``."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"listen {ROOMS_CHANNEL}")
        while not stop.is_set():
            counts[0] += sum(1 for _ in conn.notifies(timeout=0.2))


def told(workers: Workers, worker: Worker, message: dict[str, Any]) -> float:
    """The moment the other process acknowledged ``message`` (committed)."""
    sent = workers.send(worker, message)
    assert sent is not None
    ack = worker.wait_ack(sent)
    assert not ack.error, ack.texts
    return ack.received


async def measure(url: str, folder: Path, plays: int, burst: int) -> dict[str, float]:
    storage = await asyncio.to_thread(PostgresStorage, url)
    referee = Referee(storage, ready_registry(), images=False)
    hub = Hub(referee)
    server = WebServer(hub, WebAddress("127.0.0.1", 0, ""))
    await server.start()
    assert server._keeper is not None
    assert hub.listener is not None
    server._keeper.cancel()  # only a notification brings a state
    await asyncio.to_thread(hub.listener.listening.wait, 10)
    stop, counts = threading.Event(), [0]
    listening = threading.Thread(target=heard, args=(url, stop, counts), daemon=True)
    listening.start()
    figures: dict[str, float] = {}
    with Workers(url, folder, 1, lease=600.0) as workers:
        other = workers.all[0]

        async def tell(message: dict[str, Any]) -> float:
            return await asyncio.to_thread(told, workers, other, message)

        await tell(say(ROOM, "u:ref", "/duplicate 10 manuel", admin=True))
        await tell(say(ROOM, "u:ref", "/tirage ACEHNTZ", admin=True))
        for n in range(plays + burst):
            await tell(say(ROOM, f"u:p{n}", "/rejoindre"))
        replies = await asyncio.to_thread(referee.handle, Incoming(ROOM, "u:ref", "ref", "/vue", admin=True))
        link = next(m.group(0) for r in replies for m in LINK.finditer(r.text))
        async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
            stream = Stream(response)
            await stream.state()
            delays = []
            for n in range(plays):  # one at a time: acknowledged there, then seen here
                acked = await tell(whisper(f"u:p{n}", "/jouer H4 CHANTEZ"))
                while (await stream.state())["round"]["played"] != n + 1:
                    pass
                delays.append(time.time() - acked)
            before, states = counts[0], stream.raw.count(b"event: state")
            acks = [
                asyncio.to_thread(told, workers, other, whisper(f"u:p{n}", "/jouer H8 CHAT"))
                for n in range(plays, plays + burst)
            ]
            last = max(await asyncio.gather(*acks))
            while (await stream.state())["round"]["played"] != plays + burst:
                pass
            figures["burst_last_ack_to_page_ms"] = (time.time() - last) * 1000
            figures["burst_states"] = stream.raw.count(b"event: state") - states
            time.sleep(0.5)  # the counter has heard the last of them
            figures["burst_notifications"] = counts[0] - before
    stop.set()
    listening.join()
    figures["one_p50_ms"] = statistics.median(delays) * 1000
    figures["one_max_ms"] = max(delays) * 1000
    figures["keep_alives"] = 0 if b"keep-alive" not in stream.raw else 1
    await server.close()
    referee.clock.shutdown()
    await asyncio.to_thread(storage.close)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plays", type=int, default=40)
    parser.add_argument("--burst", type=int, default=40)
    args = parser.parse_args()
    server = PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            figures = asyncio.run(measure(server.create_database("bench"), Path(folder), args.plays, args.burst))
    finally:
        server.stop()
    print(f"one /jouer at a time ({args.plays}): acknowledged in the other process -> on this page:"
          f" p50 {figures['one_p50_ms']:.0f} ms, max {figures['one_max_ms']:.0f} ms")  # fmt: skip
    print(f"a burst of {args.burst}: last ack -> page {figures['burst_last_ack_to_page_ms']:.0f} ms,"
          f" {figures['burst_states']:.0f} states pushed,"
          f" {figures['burst_notifications']:.0f} notifications")  # fmt: skip
    print(f"keep-alives sent: {figures['keep_alives']:.0f} (stopped: every state came by notification)")


if __name__ == "__main__":
    main()
