"""How many times one private /jouer, and one round's close, move from one module of the project to another
(issue 38: "one /jouer from Telegram changes module 187 times across 33 modules; a round close 489 times across
52"): a measure of how far a command travels through the layers, not of its speed.

A real ``RefereeService`` on a SQLite file, its draws seeded, with the bundled French list: a duplicate room of
five players; then, under ``sys.setprofile`` (Python calls and returns only), one private
``/jouer`` handled by the service as an adapter hands it over (a Telegram private chat), and one round close by
the clock's tick. A change is a call or return whose code lies in another of the project's modules (``core``,
``bot``) than the previous one; library and standard-library frames are skipped, so a call through sqlite-utils
back into ``bot`` counts once.

    .venv/bin/python bench/bench_module_changes.py
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.chat import Incoming, Reply  # noqa: E402
from bot.referee import Referee  # noqa: E402
from bot.runtime.service import RefereeService  # noqa: E402
from bot.storage import SQLiteStorage  # noqa: E402
from tests.ready_lists import ready_registry  # noqa: E402

START = 1_800_000_000.0
ROOM = "telegram:-100"
PROJECT = (str(ROOT / "bot") + "/", str(ROOT / "core") + "/")


class ModuleChanges:
    """Counts the moves between the project's modules seen by a profile function."""

    def __init__(self) -> None:
        self.current: dict[int, str] = {}  # thread -> the module it is in
        self.changes = 0
        self.modules: set[str] = set()
        self.readings = 0  # how many times the command line was read (``bot.chat.read_command``)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        filename = frame.f_code.co_filename
        if not filename.startswith(PROJECT):
            return
        module = str(Path(filename).relative_to(ROOT))
        if event == "call" and frame.f_code.co_name == "read_command" and module == "bot/chat.py":
            self.readings += 1
        if event == "return" and frame.f_back is not None:  # back to the caller's module
            caller = frame.f_back.f_code.co_filename
            if not caller.startswith(PROJECT):
                return
            module = str(Path(caller).relative_to(ROOT))
        self.modules.add(module)
        thread = threading.get_ident()
        if module != self.current.get(thread):
            self.changes += 1
            self.current[thread] = module


async def measured(step: Callable[[], Any]) -> ModuleChanges:
    """The module changes of ``step`` (a coroutine function), counted in the event loop's thread and in the
    threads it hands work to (a new default executor, whose threads start with the profile function)."""
    counter = ModuleChanges()
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(initializer=sys.setprofile, initargs=(counter,)))
    sys.setprofile(counter)
    try:
        await step()
    finally:
        sys.setprofile(None)
    return counter


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        now = [START]
        storage = SQLiteStorage(Path(folder) / "changes.sqlite")
        referee = Referee(storage, ready_registry(), now=lambda: now[0], images=False, draws=random.Random(7))
        delivered: list[Reply] = []

        async def deliver(replies: list[Reply]) -> None:
            delivered.extend(replies)

        service = RefereeService(referee, deliver)
        await service.handle(Incoming(ROOM, "u:ref", "Ref", "/duplicate 1", admin=True))
        for n in range(4):
            await service.handle(Incoming(f"telegram:{n}", f"u:{n}", f"P{n}", "/jouer H8 ZOO", private=True))
        await service.handle(Incoming("telegram:8", "u:8", "P8", "/jouer H8 ZZZ", private=True))  # warm
        (deadline,) = [d.at for d in storage.deadlines()]
        play = await measured(
            lambda: service.handle(Incoming("telegram:9", "u:9", "P9", "/jouer H8 ZOO", private=True, received=now[0]))
        )
        now[0] = deadline + 1.0
        close = await measured(lambda: asyncio.to_thread(referee.tick, now[0]))
        storage.close()
    print(
        f"one private /jouer: {play.changes} module changes across {len(play.modules)} modules; its command line"
        f" read {play.readings} time(s)"
    )
    print(f"one round close: {close.changes} module changes across {len(close.modules)} modules")



if __name__ == "__main__":
    asyncio.run(main())
