"""A duplicate round with 500 players whose private submissions all arrive in the last seconds.

Measures, through the same async service the adapters use (one SQLite file, the
bundled French list, the real move generator): how long the 500 private /play
commands take to be scored, stored and acknowledged, and how long after the
deadline the round's results and ranking are posted (target: within 2 s).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.chat import Incoming, Reply  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.runtime.service import RefereeService  # noqa: E402
from bot.storage import SQLiteStorage  # noqa: E402
from bot.words.loader import LexiconRegistry  # noqa: E402

PLAYERS = 500
CHANNEL = "telegram:-100"
MOVES = ["H4 CHANTEZ", "H8 CHANT", "H6 HANTEZ", "H7 ZETA", "H8 ZZZ", "H5 TACHE", "8H CHAT"]


class Clock:
    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


async def main() -> None:
    registry = LexiconRegistry()
    registry.get("fr")
    with tempfile.TemporaryDirectory() as folder:
        clock = Clock()
        storage = SQLiteStorage(Path(folder) / "load.sqlite")
        referee = Referee(storage, registry, now=clock, images=False)
        posted: list[tuple[float, Reply]] = []

        async def deliver(replies: list[Reply]) -> None:
            now = time.perf_counter()
            posted.extend((now, r) for r in replies)

        service = RefereeService(referee, deliver)
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/duplicate 1 manuel", admin=True))
        await service.handle(Incoming(CHANNEL, "u:ref", "Ref", "/tirage ACEHNTZ", admin=True))
        for i in range(PLAYERS):
            await service.handle(Incoming(CHANNEL, f"u:{i}", f"P{i:03d}", "/join"))
        clock.t += 55  # the last five seconds of the round
        start = time.perf_counter()
        latencies: list[float] = []

        async def submit(i: int) -> None:
            sent = time.perf_counter()
            message = Incoming(f"telegram:{i}", f"u:{i}", f"P{i:03d}", f"/play {MOVES[i % len(MOVES)]}", private=True)
            replies = await service.handle(message)
            assert replies, i
            assert replies[0].to_user == f"u:{i}", replies[0]
            latencies.append(time.perf_counter() - sent)

        await asyncio.gather(*(submit(i) for i in range(PLAYERS)))
        submitted = time.perf_counter() - start
        stored = sum(1 for e in storage.events(1) if e.data["kind"] == "submit")
        clock.t += 5  # the deadline
        deadline = time.perf_counter()
        await service.tick()
        # the clock publishes from its thread: its sends are tasks on this loop, waited for here; what waited
        # behind earlier messages to the channel (the played counts of concurrent submissions) goes out as the
        # service's outbox worker sends it
        await service.drain()
        await service.flush_outbox(everything=True)
        results = next(t for t, r in posted if "Top :" in r.text or "aucun coup" in r.text)
        closing = results - deadline
        text = next(r.text for _, r in posted if "Top :" in r.text or "aucun coup" in r.text)
        storage.close()
    print(
        f"duplicate load: {PLAYERS} private submissions scored, stored and acknowledged in {submitted:.2f} s "
        f"({PLAYERS / submitted:.0f}/s; per command median {statistics.median(latencies) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms)"
    )
    print(f"duplicate load: {stored} submissions in the event log")
    print(
        f"duplicate load: results and ranking posted {closing:.2f} s after the deadline "
        f"(target 2 s; ratio {closing / 2:.2f}); results message {len(text)} characters"
    )
    if stored != PLAYERS:
        raise SystemExit("lost submissions")


if __name__ == "__main__":
    asyncio.run(main())
