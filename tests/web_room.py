"""A room with its live page served: the real referee service on a real SQLite file, the hub and the aiohttp
server on an ephemeral port in the test's event loop, the clock driven by the test (tests/test_web_*.py)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage
from bot.web import Hub, WebAddress, WebServer
from tests.ready_lists import ready_registry

CHANNEL = "discord:100"
START = 1_800_000_000.0
LINK = re.compile(r"https?://\S+/v/[A-Za-z0-9_-]+")


class WebRoom:
    """One room, its referee, its page's server; ``now`` is the referee's clock."""

    def __init__(self, db: Path, prefix: str = "", now: float = START) -> None:
        self.clock = [now]
        self.storage = SQLiteStorage(db)
        self.referee = Referee(self.storage, ready_registry(), now=lambda: self.clock[0], images=False)
        self.delivered: list[Reply] = []
        self.service = RefereeService(self.referee, self._deliver)
        self.hub = Hub(self.referee)
        self.server = WebServer(self.hub, WebAddress("127.0.0.1", 0, prefix))

    async def _deliver(self, replies: list[Reply]) -> None:
        self.delivered.extend(replies)

    async def start(self) -> WebRoom:
        await self.server.start()
        return self

    async def say(
        self, text: str, user: str = "Ref", *, admin: bool = False, private: bool = False, chat: str | None = None
    ) -> list[Reply]:
        """One message to the room (``user`` is the name; the account is ``u:`` and the name lowercased), or to
        the bot's private chat ``chat`` with that user."""
        account = f"u:{user.lower()}"
        message = Incoming(chat or CHANNEL, account, user, text, admin=admin, private=private or chat is not None)
        return await self.service.handle(message)

    async def link(self) -> str:
        """The page's link, as /vue gives it to the referee."""
        replies = await self.say("/vue", admin=True)
        found = [m.group(0) for r in replies for m in LINK.finditer(r.text)]
        assert len(found) == 1, [r.text for r in replies]
        return found[0]

    async def close_round(self, seconds: float = 61) -> list[Reply]:
        """Past the deadline, and the clock's tick that closes the round."""
        self.clock[0] += seconds
        return await self.service.tick()

    async def stop(self) -> None:
        await self.server.close()
        await self.service.stop()
        self.referee.clock.shutdown()
        await asyncio.to_thread(self.storage.close)
