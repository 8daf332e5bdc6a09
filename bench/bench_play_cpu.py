"""CPU per private /jouer in one process, PostgreSQL against SQLite: batched answers through
``Referee.handle_plays`` (as the service batches a burst), under cProfile (issue 21, item 2).

ROOMS duplicate rooms, PLAYERS newcomers each answering once in each (every answer seats its player),
batches of ``batch`` across rooms; the PostgreSQL server is the tests' (``tests.postgres_server``).
Reports the process CPU per /jouer (without and with the profiler) and the profile's top functions.

    .venv/bin/python bench/bench_play_cpu.py [--rooms 100] [--players 20] [--only pg|sqlite] [--top 25] [--batch 100]
        [--service] [--busy]

``--service``: through ``RefereeService.handle``, each room's players answering in waves (one answer per
room arriving together), delivered at once (the service's clock, outbox worker and heartbeat not started;
cProfile sees only the event loop's thread, the CPU figures count every thread). ``--busy``: as if the process were
busy the whole time (``bot.overload``: each answer's live counter edit and join notice left out).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.chat import Incoming, Reply  # noqa: E402
from bot.overload import LIVE_LINES, Shed, Shedder, keeps_all  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.runtime.service import PLAYS_AT_ONCE, RefereeService  # noqa: E402
from bot.storage import SQLiteStorage, Storage  # noqa: E402
from bot.storage.sql.postgres import PostgresStorage  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402
from tests.ready_lists import ready_registry  # noqa: E402

START = 1_800_000_000.0


def as_if_busy(what: Shed, count: int = 1, *, at_close: bool = False) -> bool:
    """A process busy the whole time: each answer's live lines left out, as ``bot.overload`` does."""
    return what in LIVE_LINES and not at_close


def plays(
    storage: Storage, rooms: int, players: int, profile: cProfile.Profile | None, service: bool = False,
    batch: int = PLAYS_AT_ONCE, shedding: Shedder = keeps_all,
) -> tuple[float, int]:
    """CPU seconds spent in ``handle_plays`` (``service``: in the service, the answers of each round of
    players arriving together) and how many answers were acknowledged."""
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    referee.shedding = shedding
    try:
        names = [f"discord:{n}" for n in range(rooms)]
        for room in names:
            referee.handle(Incoming(room, "u:ref", "Ref", "/duplicate 5", admin=True))
            referee.handle(Incoming(room, "u:dan", "Dan", "/jouer H8 ZOO", private=True))  # its game in memory
        burst = [
            Incoming(room, f"u:{r}x{p}", f"P{r}x{p}", f"/jouer H8 ZOO {p + 1}", private=True)
            for p in range(players)
            for r, room in enumerate(names)
        ]
        batches = [burst[n : n + batch] for n in range(0, len(burst), batch)]
        done = 0
        began = time.process_time()
        if profile is not None:
            profile.enable()
        if service:
            waves = [burst[n : n + rooms] for n in range(0, len(burst), rooms)]
            done = asyncio.run(served(referee, waves, shedding))
        else:
            for chunk in batches:
                done += sum(r is not None for r in referee.handle_plays(chunk))
        if profile is not None:
            profile.disable()
        return time.process_time() - began, done
    finally:
        referee.clock.shutdown()
        storage.close()


async def served(referee: Referee, waves: list[list[Incoming]], shedding: Shedder = keeps_all) -> int:
    """The waves of answers through the real service (each wave arrives together), delivered at once."""

    async def deliver(replies: list[Reply]) -> None:
        pass

    service = RefereeService(referee, deliver)
    if shedding is not keeps_all:  # the service's own overload would find it calm (the clock stands still)
        referee.shedding = shedding
    done = 0
    try:
        for wave in waves:
            answered = await asyncio.gather(*(service.handle(m) for m in wave))
            done += sum(bool(r) for r in answered)
    finally:
        await service.stop()
    return done


def measure(
    name: str, open_store: object, rooms: int, players: int, top: int, service: bool, batch: int = PLAYS_AT_ONCE,
    shedding: Shedder = keeps_all,
) -> None:
    assert callable(open_store)
    cpu, done = plays(open_store(), rooms, players, None, service, batch, shedding)
    print(f"{name}: {done} /jouer acknowledged, {cpu * 1e6 / done:.0f} µs CPU each (no profiler)")
    profile = cProfile.Profile()
    cpu, done = plays(open_store(), rooms, players, profile, service, batch, shedding)
    print(f"{name}: {cpu * 1e6 / done:.0f} µs CPU each under cProfile")
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(top)
    print(text.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--only", choices=["pg", "sqlite"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--batch", type=int, default=PLAYS_AT_ONCE, help="answers per handle_plays")
    parser.add_argument("--service", action="store_true", help="through the service, not handle_plays alone")
    parser.add_argument("--busy", action="store_true", help="as if busy: each answer's live lines left out")
    args = parser.parse_args()
    shedding: Shedder = as_if_busy if args.busy else keeps_all
    if args.only != "pg":
        with tempfile.TemporaryDirectory() as folder:
            files = iter(range(1_000))
            measure("SQLite", lambda: SQLiteStorage(Path(folder) / f"{next(files)}.sqlite"), args.rooms,
                    args.players, args.top, args.service, args.batch, shedding)
    if args.only != "sqlite":
        server = PostgresServer().start()
        try:
            measure("PostgreSQL", lambda: PostgresStorage(server.create_database()), args.rooms, args.players,
                    args.top, args.service, args.batch, shedding)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
