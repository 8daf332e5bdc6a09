"""An edit is a message owed like any other: real discord.py and python-telegram-bot against the fakes,
a connection reset on the edit route, then ``/prolonge 600`` and ``/cloture``. The draw's message must end
up showing the new deadline and then the close (before, the refused edit was marked delivered and never
sent again: the message kept its old countdown, and never said the round was closed)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.tracking import BudgetShortError, TrackedMessage
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests import waiting
from tests.discord_club import ClubDiscord
from tests.fakes import running_application, running_bot
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

LEXICONS = ready_registry()
GROUP = -1002100022


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` (``tests.waiting.eventually``, with a longer ``timeout``)."""
    await waiting.eventually(condition, timeout)


async def advancing(tg: ClubTelegram, condition: Callable[[], bool], most: float = 10.0) -> None:
    """Move the frozen fake clock a second at a time until ``condition`` holds, ``most`` seconds at most:
    a retry due now may still wait for the group's pace (a message a second, on this clock), which the
    close's own messages spend first, in whichever order the tasks ran."""
    moved = 0.0
    while True:
        try:
            await eventually(condition, timeout=0.5)
            return
        except AssertionError:
            assert moved < most, "condition not met within the fake clock's bound"
            tg.advance(1.0)
            moved += 1.0


def waiting_edits(storage: SQLiteStorage) -> int:
    row = storage.db.execute(
        "select count(*) from outbox where delivered is null and dropped is null and edit_key is not null"
    ).fetchone()
    return int(row[0])


def edit_retry_due(storage: SQLiteStorage, attempts: int) -> float | None:
    """When the outbox tries a waiting edit again, once it has failed ``attempts`` times (None before)."""
    row = storage.db.execute(
        "select max(due) from outbox where delivered is null and dropped is null and edit_key is not null"
        " and attempts = ?",
        [attempts],
    ).fetchone()
    return None if row[0] is None else float(row[0])


def refused_edits(caplog: pytest.LogCaptureFixture) -> int:
    """How many times the adapter said a reply of the draw (its edit) was not delivered."""
    said = [r.getMessage() for r in caplog.records]
    return sum(m.startswith("reply not delivered, to be tried again") and "Coup 1 — tirage" in m for m in said)


# --- Discord -----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_reset_edit_on_discord_is_sent_again_until_the_draw_shows_the_extension_and_the_close(
    discord_club: ClubDiscord, storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    dc = discord_club
    referee = Referee(storage, LEXICONS, now=dc.now, images=False)
    # the edit interval on the fake's clock too (pace_clock): the test passes it with dc.advance
    adapter = DiscordAdapter(referee, edit_interval=0.2, tick_seconds=0.05, clock=dc.now, pace_clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        await dc.send_interaction("duplicate", {"args": "1"}, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: any("Coup 1 — tirage :" in (m.get("content") or "") for m in dc.messages.values()))
        (draw_id,) = [i for i, m in dc.messages.items() if "Coup 1 — tirage :" in (m.get("content") or "")]
        (first,) = [d.at for d in storage.deadlines()]
        dc.advance(1)  # past the edit interval: the extension is edited at once
        dc.reset_next("PATCH *", count=1)  # the edit of the draw's message: connection reset
        await dc.send_interaction("extend", {"seconds": 600}, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: [d.at for d in storage.deadlines()] == [first + 600])
        deadline = first + 600
        await eventually(lambda: f"<t:{int(deadline)}:R>" in dc.messages[draw_id]["content"])
        assert refused_edits(caplog) == 1  # the reset was met, and the edit went again
        dc.advance(1)
        dc.reset_next("PATCH *", count=1)  # the close's edit: reset too
        await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
        await eventually(lambda: "manche close" in dc.messages[draw_id]["content"])
        assert "<t:" not in dc.messages[draw_id]["content"]  # no countdown left on a closed round
        await eventually(lambda: waiting_edits(storage) == 0)


# --- Telegram ----------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram(GROUP) as fake:
        yield fake


def draw_text(tg: ClubTelegram) -> str:
    """The text the group's draw message shows now ("" before it is posted)."""
    for (chat, _), message in tg.messages.items():
        if chat == GROUP and "Coup 1 — tirage" in str(message.get("text", "")):
            return str(message["text"])
    return ""


@pytest.mark.asyncio
async def test_a_reset_edit_on_telegram_is_sent_again_until_the_draw_shows_the_extension_and_the_close(
    tg: ClubTelegram, storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    # the fake's clock moves only when the test advances it: the countdown shown is exact however slow
    # the machine is, and the adapter's own countdown (a minute between edits) stays still (its edits
    # would otherwise meet the reset first, and mend the deadline by themselves)
    tg.clock.freeze()
    referee = Referee(storage, LEXICONS, now=tg.now, images=False)
    adapter = TelegramAdapter(
        referee, tg.token, base_url=tg.base_url, edit_interval=60, tick_seconds=0.05, clock=tg.now
    )
    adapter.service.outbox_seconds = 0.05
    async with running_application(adapter.application, tg):
        await tg.send_user_message(GROUP, tg.ana, "/duplicate 5")
        await eventually(lambda: draw_text(tg).endswith("\n⏳ 5:00"))
        # the adapter tracks the draw once its send has returned, its interval counted from then: advanced
        # sooner, the clock would start that interval a minute later, and the extension's edit would wait it
        await eventually(lambda: any(m.text.endswith("\n⏳ 5:00") for m in adapter.tracked.values()))
        tg.advance(61)  # past the edit interval: the extension is edited at once
        tg.reset_next("editMessageText", count=1)
        await tg.send_user_message(GROUP, tg.ana, "/prolonge 600")
        await eventually(lambda: edit_retry_due(storage, 1) is not None)  # the reset was met, the retry set
        assert refused_edits(caplog) == 1
        assert draw_text(tg).endswith("\n⏳ 5:00")  # the refused edit changed nothing shown
        due = edit_retry_due(storage, 1)
        assert due is not None
        assert 0 <= due - tg.now() <= 1
        # to the retry, and a second more: the group's pace (a message a second, on this clock) has room for it
        tg.advance(due - tg.now() + 1)
        # 3:59 left, ten minutes more, a few seconds gone: shown by whole minutes (the interval)
        await advancing(tg, lambda: draw_text(tg).endswith("\n⏳ 14:00"))
        await eventually(lambda: any(m.text.endswith("\n⏳ 14:00") for m in adapter.tracked.values()))
        assert refused_edits(caplog) == 1
        tg.advance(61)
        tg.reset_next("editMessageText", count=1)
        await tg.send_user_message(GROUP, tg.ana, "/cloture")
        # the close's edit: reset too, and said; nothing shown of the close until it is sent again
        await eventually(lambda: refused_edits(caplog) == 2)
        assert "manche close" not in draw_text(tg) or edit_retry_due(storage, 1) is None
        await advancing(tg, lambda: "manche close" in draw_text(tg))
        assert "⏳" not in draw_text(tg)
        assert refused_edits(caplog) == 2
        await eventually(lambda: waiting_edits(storage) == 0)


# --- the tracked message itself --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_an_edit_held_for_its_interval_that_fails_is_tried_again_and_a_newer_text_replaces_it() -> None:
    now = [100.0]
    shown: list[str] = []
    refusals = [ConnectionResetError("reset")]

    async def edit(text: str) -> None:
        if refusals:
            raise refusals.pop()
        shown.append(text)

    message = TrackedMessage(edit, "draw", 1.0, clock=lambda: now[0])
    await message.update("draw, 10 min more")  # within the interval: held
    assert shown == []
    now[0] += 1.5
    await eventually(lambda: not refusals)  # tried at the interval's end: refused
    assert shown == []
    assert message.text == "draw"
    await message.update("draw, closed")  # a newer text replaces the held one
    now[0] += 1.5
    await eventually(lambda: shown == ["draw, closed"], 5)
    assert message.text == "draw, closed"
    with pytest.raises(ConnectionResetError):  # an owed edit applied at once says it failed
        refusals.append(ConnectionResetError("reset"))
        await message.update("draw, reopened", urgent=True, owed=True)
    assert message.text == "draw, closed"


@pytest.mark.asyncio
async def test_a_live_edit_the_budget_has_no_room_for_is_shown_later_with_the_latest_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [100.0]
    shown: list[str] = []
    room = [False]

    async def edit(text: str) -> None:
        if not room[0]:
            raise BudgetShortError("the group's spare messages are spent")
        shown.append(text)

    counter = TrackedMessage(edit, "1 of 20 have played", 1.0, clock=lambda: now[0])
    now[0] += 1.5
    await counter.update("2 of 20 have played", urgent=True, owed=True)  # no room: held, not raised
    assert shown == []
    assert counter.text == "1 of 20 have played"
    await counter.update("3 of 20 have played")  # the latest count replaces the held one
    room[0] = True
    now[0] += 1.5
    await eventually(lambda: shown == ["3 of 20 have played"], 5)
    assert "could not edit" not in caplog.text  # giving way is not a failure
