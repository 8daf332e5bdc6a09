"""Duplicate rounds played through platform faults, on Discord and on Telegram (the real libraries
against the fake servers): HTTP 500s, 429 bursts with ``retry_after``, connection resets, gateway
closes 4000 and 4009, and a 30-second outage. Every draw and every result must reach the channel,
every acknowledgement its player, each round must close once, and the adapter must recover by itself.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord, identify_at_once
from tests.fakes import DiscordUser, running_application, running_bot
from tests.fakes.telegram_limits import fake_clock_rate_limiter
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram
from tests.waiting import shown

LEXICONS = ready_registry()
ROUNDS = 5
CHANNEL_POST = "POST /channels/{channel_id}/messages"


async def eventually(
    condition: Callable[[], object],
    timeout: float = 5.0,
    step: float = 0.02,
    advance: Callable[[float], None] | None = None,
) -> None:
    """Wait for ``condition``; ``advance(seconds)`` moves a fake clock along (retries come sooner).

    ``timeout`` is what an idle machine needs; a loaded one gets three times as long (the wait ends as soon as
    the condition holds, so only a failure takes the whole time: python-telegram-bot retries in real time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 3 * timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(step)
        if advance is not None:
            advance(0.05)


def closes(storage: SQLiteStorage, channel: str) -> list[int]:
    """How many close events each round of the channel's duplicate game has."""
    record = storage.games(channel)[-1]
    counted: dict[int, int] = {}
    round_number = 0
    for event in storage.events(record.id):
        if event.data["kind"] == "draw":
            round_number += 0
        if event.data["kind"] == "close":
            round_number += 1
            counted[round_number] = counted.get(round_number, 0) + 1
    return [counted[n] for n in sorted(counted)]


def assert_everything_arrived(texts: list[str], closed: list[int]) -> None:
    """Each closed round's draw and results reached the channel, each move's acknowledgement its
    player, and each round was closed once."""
    assert set(closed) == {1}, closed
    assert len(closed) >= 6, closed
    for number in range(1, 7):  # the rounds the test closed (a later one may be closing as it ends)
        assert any(f"Coup {number} — tirage :" in t for t in texts), f"draw {number} never posted"
        assert any(f"Coup {number} — tirage" in t and "Top :" in t for t in texts), f"results {number} never posted"
    for number in range(1, ROUNDS + 1):
        assert any("Reçu pour le coup" in t and f"H8 QWERT{number}" in t for t in texts), f"ack {number} lost"


def left_about_the_rounds(storage: SQLiteStorage) -> list[str]:
    """What waits in the outbox about the rounds the test closed (a later round may be closing)."""
    waiting = storage.db.execute(
        "select reply from outbox where delivered is null and dropped is null and expires is null"
    ).fetchall()
    return [r for (r,) in waiting if any(f"Coup {n} " in r or f"coup {n} " in r for n in range(1, 7))]


def assert_nothing_left(storage: SQLiteStorage) -> None:
    """Nothing about the rounds the test closed waits in the outbox."""
    about_them = left_about_the_rounds(storage)
    assert about_them == [], about_them


# --- Discord ---------------------------------------------------------------------------------


async def discord_play(dc: ClubDiscord, user: DiscordUser, move: str) -> None:
    position, word = move.split()
    await dc.send_interaction("play", {"position": position, "word": word}, user=user, channel_id=dc.channel)


def discord_texts(dc: ClubDiscord) -> list[str]:
    return [r.text or "" for r in dc.log.records if r.action in ("send", "edit")]


@pytest.mark.asyncio
async def test_duplicate_rounds_survive_discord_faults(dc: ClubDiscord, storage: SQLiteStorage) -> None:
    referee = Referee(storage, LEXICONS, now=dc.now, images=False)
    adapter = DiscordAdapter(referee, message_content=True, edit_interval=0.2, tick_seconds=0.05, clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    loop_time = LoopTime()  # discord.py's own waits (its backoffs after a 500, a reset, a gateway close) hurried

    def hurry(seconds: float) -> None:  # the loop's clock ten times as fast as the test's looks
        loop_time.jump(10 * seconds)

    def both(seconds: float) -> None:  # the fake's clock (the referee's, the outbox's) and the loop's
        dc.advance(seconds)
        hurry(seconds)

    async with running_bot(dc, adapter.client, reconnect=True, ignore_errors=(Exception,), fail_on_errors=False):
        identify_at_once(adapter.client)
        await adapter.sync(dc.guild.id)
        await dc.send_interaction("duplicate", {"args": "1"}, user=dc.ana, channel_id=dc.channel)
        faults: list[Callable[[], Coroutine[Any, Any, int] | None]] = [
            lambda: dc.server_error_next(CHANNEL_POST, count=1),  # discord.py retries a 500 itself
            lambda: dc.rate_limit_next(CHANNEL_POST, retry_after=0.3, count=3),  # a 429 burst
            lambda: dc.reset_next(CHANNEL_POST, count=2),  # resets: the outbox tries again
            lambda: dc.gateway_close(4000),  # resumable
            lambda: dc.gateway_close(4009),  # a new session
        ]
        for number in range(1, ROUNDS + 1):
            await eventually(shown(lambda: discord_texts(dc), f"Coup {number} — tirage :"), 15, advance=hurry)
            await discord_play(dc, dc.ben, f"H8 QWERT{number}")
            await eventually(  # the ack
                shown(lambda: discord_texts(dc), f"QWERT{number}"), 10, advance=hurry
            )
            closing = faults[number - 1]()
            if closing is not None:
                assert await closing == 1  # the gateway closed the bot's connection: the round closes meanwhile
            dc.advance(61)  # the round's minute is over: the clock closes it, its results are posted
            await eventually(
                shown(lambda: discord_texts(dc), f"Coup {number} — tirage", "Top :"),
                20,
                advance=both,
            )
        # an outage in round 6 (its clock runs out 61 s into it): nothing reaches Discord; afterwards, all does
        await eventually(lambda: any("Coup 6 — tirage :" in t for t in discord_texts(dc)), 15, advance=hurry)
        refused = len(dc.faults_of("outage"))
        dc.outage(91)
        dc.advance(61)  # round 6 closes during the outage: its results wait in the outbox
        # checked once it happened (not after a fixed sleep): the results wait in the outbox, a post was refused
        await eventually(lambda: any("Coup 6 " in r and "Top :" in r for r in left_about_the_rounds(storage)), 10)
        await eventually(
            lambda: any(f.method == "POST" and "/messages" in f.path for f in dc.faults_of("outage")[refused:]),
            10,
            advance=hurry,
        )
        assert not any("Coup 6 — tirage" in t and "Top :" in t for t in discord_texts(dc))
        dc.advance(30)  # the outage's last 30 s pass, and it ends; the gateway reconnects, the outbox delivers
        await eventually(
            lambda: any("Coup 6 — tirage" in t and "Top :" in t for t in discord_texts(dc)), 30, advance=both
        )
        await eventually(lambda: any("Coup 7 — tirage :" in t for t in discord_texts(dc)), 15, advance=hurry)
        await dc.send_interaction("status", None, user=dc.ben, channel_id=dc.channel)  # the adapter works again
        await eventually(lambda: sum("Coup 7 — tirage :" in t for t in discord_texts(dc)) >= 2, 15, advance=hurry)
    loop_time.close()
    assert_everything_arrived(discord_texts(dc), closes(storage, f"discord:{dc.channel}"))
    assert_nothing_left(storage)


# --- Telegram --------------------------------------------------------------------------------

GROUP = -1001234567


class TelegramWithBen(ClubTelegram):
    """The club's group, and Ben, who plays."""

    def __init__(self) -> None:
        super().__init__(GROUP)
        self.ben = self.add_user(first_name="Ben")


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[TelegramWithBen]:
    async with TelegramWithBen() as fake:
        yield fake


def telegram_texts(tg: TelegramWithBen) -> list[str]:
    return [r.text or "" for r in tg.log.records if r.action in ("send", "edit")]


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_duplicate_rounds_survive_telegram_faults(tg: TelegramWithBen, storage: SQLiteStorage) -> None:
    referee = Referee(storage, LEXICONS, now=tg.now, images=False)
    # the library's limiter leaks by the fake's clock: its group bucket waited 65 s of real time here
    limiter = fake_clock_rate_limiter(tg.now, max_retries=3)
    adapter = TelegramAdapter(
        referee, tg.token, base_url=tg.base_url, edit_interval=0.2, tick_seconds=0.05, clock=tg.now,
        rate_limiter=limiter,
    )  # fmt: skip
    adapter.service.outbox_seconds = 0.05

    loop_time = LoopTime()  # the library's sleep after a 429 (retry_after, whole seconds, real) hurried

    def faster(seconds: float) -> None:
        """The fake's clock three times as far as the test's looks (the pacer's one-a-second turns, the
        outbox's backoff), the loop's as far as the looks (a 5-s read timeout still far off)."""
        tg.advance(3 * seconds)
        loop_time.jump(seconds)

    async with running_application(adapter.application, tg):
        await tg.send_user_message(GROUP, tg.ana, "/duplicate 1")
        await tg.send_user_message(GROUP, tg.ben, "/rejoindre")
        faults = [
            lambda: tg.server_error_next("sendMessage", count=3),  # three 500s
            lambda: tg.rate_limit_next("sendMessage", retry_after=1, count=2),  # a 429 burst (whole seconds)
            lambda: tg.reset_next("sendMessage", count=2),  # connection resets
            lambda: tg.server_error_next("sendMessage", count=2, status=502),  # a proxy's 502 page
            lambda: tg.rate_limit_next("sendMessage", retry_after=1, count=1),
        ]
        for number in range(1, ROUNDS + 1):
            # the fake's clock moves while the test waits: the pacer's one-a-second turns come sooner (a few
            # seconds of the round's minute)
            await eventually(shown(lambda: telegram_texts(tg), f"Coup {number} — tirage :"), 20, advance=faster)
            await tg.send_user_message(None, tg.ben, f"/jouer H8 QWERT{number}", chat_type="private")
            await eventually(shown(lambda: telegram_texts(tg), f"QWERT{number}"), 15, advance=faster)
            faults[number - 1]()
            tg.advance(61)
            await eventually(
                shown(lambda: telegram_texts(tg), f"Coup {number} — tirage", "Top :"),
                25,
                advance=faster,
            )
        await eventually(lambda: any("Coup 6 — tirage :" in t for t in telegram_texts(tg)), 20, advance=faster)
        refused = len(tg.faults_of("outage"))
        tg.outage(91)
        tg.advance(61)  # round 6 closes during the outage
        # checked once it happened (not after a fixed sleep): the results wait in the outbox, a send was refused
        await eventually(lambda: any("Coup 6 " in r and "Top :" in r for r in left_about_the_rounds(storage)), 10)
        await eventually(lambda: any(f.method.lower() == "sendmessage" for f in tg.faults_of("outage")[refused:]), 10)
        assert not any("Coup 6 — tirage" in t and "Top :" in t for t in telegram_texts(tg))
        tg.advance(30)  # the outage ends
        await eventually(
            lambda: any("Coup 6 — tirage" in t and "Top :" in t for t in telegram_texts(tg)), 30, advance=faster
        )
        await tg.send_user_message(GROUP, tg.ben, "/etat")
        await eventually(lambda: sum("Coup 7 — tirage :" in t for t in telegram_texts(tg)) >= 2, 20, advance=faster)
        # an edit refused during the outage (round 6's draw saying it closed) is owed: it comes on its retry,
        # which the jittered backoff may put after round 7's draw
        await eventually(lambda: left_about_the_rounds(storage) == [], 20, advance=faster)
    loop_time.close()
    assert_everything_arrived(telegram_texts(tg), closes(storage, f"telegram:{GROUP}"))
    assert_nothing_left(storage)


# --- what the operator's log shows of a private reply that failed ------------------------------------

SECRET_WORD = "QWERTZ"  # an open duplicate submission: nobody may read it before the close


def assert_no_private_text(caplog: pytest.LogCaptureFixture) -> None:
    """A failed private reply was logged, by its number and length, never by its text."""
    failures = [r.getMessage() for r in caplog.records if r.getMessage().startswith("reply not delivered")]
    private = [line for line in failures if "(private #" in line]
    assert private
    assert all(re.search(r"\(private #\d+ to \w+:\d+\) \d+ characters \(", line) for line in private)
    assert SECRET_WORD not in caplog.text, caplog.text
    assert "Reçu pour le coup" not in caplog.text, caplog.text


@pytest.mark.asyncio
async def test_a_failed_private_reply_on_telegram_is_logged_without_its_text(
    tg: TelegramWithBen, storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG", logger="arbitre")
    referee = Referee(storage, LEXICONS, now=tg.now, images=False)
    adapter = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    adapter.service.outbox_seconds = 0.05
    async with running_application(adapter.application, tg):
        await tg.send_user_message(GROUP, tg.ana, "/duplicate 3")
        await tg.send_user_message(GROUP, tg.ben, "/rejoindre")
        await eventually(lambda: any("Coup 1 — tirage :" in t for t in telegram_texts(tg)), 20)
        await eventually(lambda: any("Ben rejoint" in t for t in telegram_texts(tg)), 20)
        tg.reset_next("sendMessage", count=2)  # the acknowledgement, and its first retry
        await tg.send_user_message(None, tg.ben, f"/jouer H8 {SECRET_WORD}", chat_type="private")
        await eventually(lambda: any(SECRET_WORD in t for t in telegram_texts(tg)), 20, advance=lambda _: tg.advance(1))
    assert_no_private_text(caplog)


@pytest.mark.asyncio
async def test_a_failed_private_reply_on_discord_is_logged_without_its_text(
    dc: ClubDiscord, storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG", logger="arbitre")
    referee = Referee(storage, LEXICONS, now=dc.now, images=False)
    adapter = DiscordAdapter(referee, message_content=True, tick_seconds=0.05, clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        await dc.send_interaction("duplicate", {"args": "3"}, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 — tirage :" in t for t in discord_texts(dc)), 15)
        await dc.send_interaction("join", None, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: any("Ben rejoint" in t for t in discord_texts(dc)), 15)
        dm = dc.dm_channel_id(dc.ben)
        dc.reset_next(f"POST /channels/{dm}/messages", count=2)  # the acknowledgement, and its first retry
        await dc.send_message(dm, dc.ben, f"!jouer H8 {SECRET_WORD}")
        await eventually(lambda: any(SECRET_WORD in t for t in discord_texts(dc)), 20, advance=lambda _: dc.advance(1))
    assert_no_private_text(caplog)
