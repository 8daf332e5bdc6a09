"""The club the Discord adapter's test modules share: the fake Discord with the club's server (two channels, and
Cleo, whose DMs are closed), the adapter as deployed on it (on the test's clock or on the fake's), the autouse
fixture that fails a test on any error the adapter logged, and the helpers that send a slash command, wait for
its answer, start a duplicate round and read what was played or posted publicly."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.discord_forms import form_options
from tests.fakes import DiscordUser, FakeDiscord, SentMessage, running_bot
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()  # the bundled lists, loaded once for the test modules


@pytest.fixture(autouse=True)
def no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The adapter logs (instead of raising) what it could not deliver: that fails a test too."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR and r.name.startswith("arbitre")]
    assert not errors, "adapter errors: " + "; ".join(r.getMessage() for r in errors)


class AdapterDiscord(ClubDiscord):
    """The club of these tests: its server has two channels, and a third member, Cleo, whose DMs are closed."""

    def __init__(self) -> None:
        super().__init__("Club de Scrabble", ("partie", "autre"))
        self.cleo = self.member("cleo", "Cleo", dms_open=False)


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[AdapterDiscord]:
    async with AdapterDiscord() as fake:
        yield fake
        # the adapter uses Discord's current paths only
        assert not fake.deprecations, fake.deprecations


def make_adapter(storage: SQLiteStorage, clock: Callable[[], float] | None = None, **options: Any) -> DiscordAdapter:
    """``clock``: the fake's, shared by the referee (deadlines) and the adapter (token ages)."""
    options = {"message_content": True, "edit_interval": 0.2, "tick_seconds": 0.05, **options}
    if clock is None:
        return DiscordAdapter(Referee(storage, LEXICONS), **options)
    return DiscordAdapter(Referee(storage, LEXICONS, now=clock), clock=clock, **options)


@pytest_asyncio.fixture
async def adapter(dc: AdapterDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    adapter = make_adapter(storage)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter


async def slash(
    dc: FakeDiscord, name: str, args: str | None = None, *, user: DiscordUser | None = None, channel: int | None = None
) -> int:
    """``/name args`` sent by ``user`` in ``channel``: by default Ana, in the club's channel."""
    command, options = form_options(name, args)
    if user is None or channel is None:
        assert isinstance(dc, ClubDiscord), "a user and a channel, or the club's"
        user, channel = user or dc.ana, channel or dc.channel
    return await dc.send_interaction(command, options, user=user, channel_id=channel)


async def answer(dc: FakeDiscord, iid: int, **kw: Any) -> SentMessage:
    """The interaction's visible answer (skipping the '…' of a removed placeholder)."""
    return await dc.wait_for_response(iid, lambda r: r.text != "…", **kw)


def plays(storage: SQLiteStorage, channel: int) -> list[dict[str, Any]]:
    record = storage.active_game(f"discord:{channel}")
    assert record is not None
    return [e.data for e in storage.events(record.id) if e.data.get("kind") == "play"]


def public_texts(dc: FakeDiscord) -> list[str]:
    return [r.text or "" for r in dc.log.records if r.action in ("send", "edit") and not r.ephemeral]


@pytest_asyncio.fixture
async def clocked(dc: AdapterDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    """An adapter whose referee (deadlines) and token ages follow the fake's clock."""
    adapter = make_adapter(storage, clock=dc.now)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter


async def start_duplicate(dc: AdapterDiscord, adapter: DiscordAdapter) -> tuple[int, SentMessage]:
    """``/duplicate`` by Ana (its referee): the interaction and the first draw it posted."""
    iid = await slash(dc, "duplicate")
    await answer(dc, iid)
    draw = await dc.wait_for_response(iid, lambda r: "<t:" in (r.text or ""))
    await settle(adapter)
    return iid, draw


async def settle(adapter: DiscordAdapter) -> None:
    """Wait until the adapter owes no answer (every command's replies handed over) and what its clock
    published is delivered: a command's last replies are out before a test moves the fake's clock."""
    await eventually(lambda: adapter.service.overload.load().waiting == 0, timeout=10.0)
    assert await adapter.service.drain(10.0)


async def eventually(condition: Callable[[], object], timeout: float = 2.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)
