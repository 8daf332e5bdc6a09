"""A bot process for the multi-process tests and the scale benchmark: the referee service on a shared
database, driven through stdin instead of a chat platform.

``python -m tests.referee_worker --db URL --name NAME --out FILE [--lease S] [--tick S] [--deliver-seconds S]
[--grace S] [--no-images]``

Each stdin line is a JSON message ``{"id", "channel", "user", "name", "text", "private", "admin"}``;
it is handled as a chat platform would (commands of different channels at once, each channel's in
order), and once its transaction has committed one line is written to stdout:
``{"id", "ms", "error", "texts", "clock_cpu"}`` (``clock_cpu``: CPU seconds the clock's ticks have used
so far, so that a benchmark can tell the closes' cost from the commands'). Every reply the service
delivers is appended to ``--out`` as a JSON line ``{"at", "outbox", "channel", "to", "text", "image",
"passes"}`` (``image``: the name of its PNG, or null; ``passes``: how many outbox passes the service had
begun; ``--deliver-seconds``: a platform that takes that long to accept each batch). Results and standings
are drawn as images, as in production (``--no-images``: text only). The first stdout line is
``{"ready": NAME, "pid"}``; at the end of stdin the process finishes what it was given, stops cleanly,
says on stderr how large its batches of private /play were and what it shed, and exits 0.

``ARBITRE_WORKER_PROFILE=FOLDER``: the process runs under cProfile (the event loop's thread and the
threads it hands work to) and writes ``FOLDER/NAME.prof`` at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.chat import Incoming, Reply  # noqa: E402
from bot.games.duplicate.closes import ResultImages  # noqa: E402
from bot.overload import Shed  # noqa: E402
from bot.play.clock_lease import ClockLease  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.runtime.service import RefereeService  # noqa: E402
from bot.storage import open_storage  # noqa: E402
from bot.words.loader import LexiconRegistry  # noqa: E402


def _write(line: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
    sys.stdout.flush()


class Profiles:
    """cProfile in every thread that asks (the event loop's and its executor's), merged at the end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._all: list[cProfile.Profile] = []

    def start(self) -> None:
        profile = cProfile.Profile(time.thread_time)  # CPU, not waits
        with self._lock:
            self._all.append(profile)
        profile.enable()

    def dump(self, path: Path) -> None:
        with self._lock:
            for profile in self._all:
                profile.disable()
            stats = pstats.Stats(self._all[0])
            for profile in self._all[1:]:
                stats.add(profile)
        stats.dump_stats(str(path))


async def serve(args: argparse.Namespace, profiles: Profiles | None = None) -> int:
    if profiles is not None:
        profiles.start()
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(initializer=profiles.start))
    storage = open_storage(args.db)
    registry = LexiconRegistry()
    registry.get("fr")
    grace = {} if args.grace is None else {"outbox_grace": args.grace}
    referee = Referee(storage, registry, images=args.images, clock_lease=ClockLease(args.name, args.lease), **grace)
    out = Path(args.out).open("a", encoding="utf-8")
    clock_cpu = [0.0]  # CPU seconds the clock's ticks have used (closes, next draws), told in every answer
    ticking = referee.tick

    def timed_tick(
        now: float | None = None,
        publish: Callable[[list[Reply]], None] | None = None,
        images: Callable[[list[ResultImages]], None] | None = None,
    ) -> list[Reply]:
        started = time.thread_time()
        try:
            return ticking(now, publish, images)
        finally:
            clock_cpu[0] += time.thread_time() - started

    referee.tick = timed_tick  # type: ignore[method-assign]

    async def deliver(replies: list[Reply]) -> None:
        if args.deliver_seconds:
            await asyncio.sleep(args.deliver_seconds)
        at = time.time()
        for reply in replies:
            line = {
                "at": at,
                "outbox": reply.outbox_id,
                "channel": reply.channel,
                "to": reply.to_user,
                "image": reply.image_name if reply.image is not None else None,
            }
            line["passes"] = service.outbox_passes
            out.write(json.dumps({**line, "text": reply.text[:300]}, ensure_ascii=False) + "\n")
        out.flush()

    service = RefereeService(referee, deliver, tick_seconds=args.tick, outbox_seconds=0.2)
    service.start()
    _write({"ready": args.name, "pid": os.getpid()})
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()

    async def answer(request: dict[str, object]) -> None:
        started = time.perf_counter()
        message = Incoming(
            str(request["channel"]),
            str(request["user"]),
            str(request["name"]),
            str(request["text"]),
            private=bool(request.get("private")),
            admin=bool(request.get("admin")),
            # when the "platform" took it (the bench's sending time): an answer queued on its way is timed by it
            received=float(str(request["received"])) if request.get("received") is not None else None,
        )
        replies = await service.handle(message)
        elapsed = (time.perf_counter() - started) * 1000
        texts = [r.text[:200] for r in replies]
        error = any(r.error for r in replies)
        _write(
            {"id": request["id"], "ms": round(elapsed, 2), "error": error, "texts": texts, "clock_cpu": clock_cpu[0]}
        )

    reader = asyncio.StreamReader(limit=1 << 20)  # stdin read by the event loop: no thread hop per line
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode("utf-8")
        if not line:
            break
        if line.strip():
            task = loop.create_task(answer(json.loads(line)))
            pending.add(task)
            task.add_done_callback(pending.discard)
    if pending:
        await asyncio.wait(pending)
    await service.stop()
    storage.close()
    out.close()
    batches, answers = service.play_batches
    mean = answers / batches if batches else 0.0
    marks, marked = service.mark_batches
    shed = service.overload.shed
    sys.stderr.write(
        f"{args.name}: {answers} private /play in {batches} batches (mean {mean:.1f}); "
        f"{marked} commands' replies marked delivered in {marks} statements; clock CPU {clock_cpu[0]:.2f} s; "
        f"shed: {shed[Shed.COUNTER]} counter edits, {shed[Shed.JOINS]} join notices, {shed[Shed.IMAGES]} images\n"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--tick", type=float, default=0.1)
    parser.add_argument("--deliver-seconds", type=float, default=0.0)
    parser.add_argument("--grace", type=float, default=None)
    parser.add_argument("--no-images", dest="images", action="store_false", help="results as text only")
    args = parser.parse_args()
    folder = os.environ.get("ARBITRE_WORKER_PROFILE")
    profiles = Profiles() if folder else None
    code = asyncio.run(serve(args, profiles))
    if profiles is not None:
        profiles.dump(Path(folder or ".") / f"{args.name}.prof")
    return code


if __name__ == "__main__":
    sys.exit(main())
