"""A message the platform refuses for good does not jam its channel: real discord.py and python-telegram-bot
against the fakes, with a 400 or 404 injected for one message, on SQLite and on a real PostgreSQL server.
The refused message becomes a dead letter: never sent again, said once in the log, listed in the channel's
/etat; what the channel is owed next goes on at once (before, it waited behind the refused one forever)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage, Storage
from tests.discord_club import ClubDiscord
from tests.fakes import running_application, running_bot
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

LEXICONS = ready_registry()
GROUP = -1002100021
CHANNEL_POST = "POST /channels/{channel_id}/messages"
HELP = "/aide classement"  # a short help text: one message


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "postgres":
        from bot.storage.sql.postgres import PostgresStorage

        store: Storage = PostgresStorage(request.getfixturevalue("postgres_url"))
    else:
        store = SQLiteStorage(tmp_path / "dead.sqlite")
    yield store
    store.close()


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


def dead_letter_logs(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("outbox: dead letter")]


# --- Telegram --------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram(GROUP) as fake:
        yield fake


def telegram_sent(tg: ClubTelegram) -> list[str]:
    return [str(p.get("text", "")) for m, p in tg.requests if m == "sendMessage"]


@pytest.mark.asyncio
async def test_a_message_telegram_refuses_for_good_does_not_jam_the_group(
    tg: ClubTelegram, storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="arbitre")
    referee = Referee(storage, LEXICONS, now=tg.now)
    adapter = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    adapter.service.outbox_seconds = 0.05
    async with running_application(adapter.application, tg):
        tg.fail_next("sendMessage", 400, "Bad Request: can't parse entities", count=1)
        await tg.send_user_message(GROUP, tg.ana, HELP)
        await eventually(lambda: len(telegram_sent(tg)) == 1)
        refused = telegram_sent(tg)[0]
        await tg.send_user_message(GROUP, tg.ana, "/etat")  # goes at once, not behind the refused one
        status = (await tg.wait_for_message(chat_id=GROUP, timeout=10)).text
        assert "1 message n'a pas pu être remis" in status
        assert "Telegram: Can't parse entities (1 essai)" in status  # the library drops "Bad Request: "
        assert f"« {refused.splitlines()[0][:60]} »" in status
        for _ in range(3):  # an hour later, and later still: the refused message is never sent again
            tg.advance(3600)
            await adapter.service.flush_outbox(everything=True)
        await tg.send_user_message(GROUP, tg.ana, "/etat")
        assert "1 message n'a pas pu être remis" in (await tg.wait_for_message(chat_id=GROUP, timeout=10)).text
    assert telegram_sent(tg).count(refused) == 1
    said = dead_letter_logs(caplog)
    assert len(said) == 1, said
    assert "Can't parse entities" in said[0], said


# --- Discord ---------------------------------------------------------------------------------


def discord_sent(dc: ClubDiscord) -> list[str]:
    return [r.text or "" for r in dc.log.records if r.action == "send"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "code", "message"), [(400, 50035, "Invalid Form Body"), (404, 10003, "Unknown Channel")]
)
async def test_a_message_discord_refuses_for_good_does_not_jam_the_channel(
    dc: ClubDiscord, storage: Storage, caplog: pytest.LogCaptureFixture, status: int, code: int, message: str
) -> None:
    caplog.set_level("INFO", logger="arbitre")
    referee = Referee(storage, LEXICONS, now=dc.now)
    adapter = DiscordAdapter(referee, message_content=True, tick_seconds=0.05, clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    async with running_bot(dc, adapter.client):
        dc.fail_next(CHANNEL_POST, status, code, message, count=1)
        await dc.send_message(dc.channel, dc.ana, "!" + HELP[1:])
        await eventually(lambda: any(r[0] == "POST" and "/messages" in r[1] for r in dc.requests))
        await dc.send_message(dc.channel, dc.ana, "!etat")  # goes at once, not behind the refused one
        status_text = (await dc.wait_for_message(channel_id=dc.channel, timeout=10)).text
        assert "1 message n'a pas pu être remis" in status_text
        assert f"Discord {status} ({code}): {message} (1 essai)" in status_text
        for _ in range(3):  # an hour later, and later still: the refused message is never sent again
            dc.advance(3600)
            await adapter.service.flush_outbox(everything=True)
        await dc.send_message(dc.channel, dc.ana, "!etat")
        assert "1 message n'a pas pu être remis" in (await dc.wait_for_message(channel_id=dc.channel, timeout=10)).text
    sent = discord_sent(dc)
    assert len(sent) == 2, sent
    assert all("n'a pas pu être remis" in text for text in sent), sent  # help: never
    said = dead_letter_logs(caplog)
    assert len(said) == 1, said
    assert message in said[0], said
