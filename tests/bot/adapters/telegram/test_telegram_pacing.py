"""The Telegram adapter's pacer (bot/adapters/telegrambot/pacing.py) on a clock the test drives: a chat's burst then
one message a second, 20 in any minute to a group, 30 a second overall, reads never held; and the order a long
batch of replies is sent in."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.adapters.ordering import shown_first
from bot.adapters.telegrambot.pacing import LIVE_RESERVE, FloodPacer, Priority, TelegramLimits
from bot.adapters.tracking import BudgetShortError
from bot.chat import Reply
from tests.waiting import held_again

GROUP = -4_000_000_999


def untracked(reply: Reply) -> bool:
    return False  # no reply of these batches edits a message already sent


class Clock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


class Api:
    """What python-telegram-bot's request would do: here, note which request left and when (the clock's)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.sent: list[tuple[str, Any, float]] = []

    async def request(
        self, pacer: FloodPacer, endpoint: str, chat_id: Any, text: str = "", priority: Priority | None = None
    ) -> None:
        async def callback(name: str) -> bool:
            self.sent.append((name, chat_id, self.clock()))
            return True

        await pacer.process_request(callback, (text or endpoint,), {}, endpoint, {"chat_id": chat_id}, priority)


@pytest.mark.asyncio
async def test_a_chat_gets_its_burst_then_one_message_a_second() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock)
    user = 1_000_001
    tasks = [asyncio.ensure_future(api.request(pacer, "sendMessage", user, f"m{i}")) for i in range(5)]
    await held_again(pacer)  # m3 looked at the clock and waits
    assert [name for name, _, _ in api.sent] == ["m0", "m1", "m2"]  # the burst (3)
    clock.at += 1.0
    await held_again(pacer)  # a look at the moved clock: m3 went, m4 waits
    assert [name for name, _, _ in api.sent] == ["m0", "m1", "m2", "m3"]  # one more a second, in order
    clock.at += 1.0
    await asyncio.wait_for(asyncio.gather(*tasks), 2.0)
    assert [name for name, _, _ in api.sent][-1] == "m4"
    # another chat was never held by this one's pace
    await asyncio.wait_for(api.request(pacer, "sendMessage", 1_000_002, "other"), 1.0)


@pytest.mark.asyncio
async def test_a_group_gets_twenty_messages_in_any_minute() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock, TelegramLimits(chat_burst=100))
    for number in range(20):
        await asyncio.wait_for(api.request(pacer, "editMessageText", GROUP, f"m{number}"), 1.0)
        clock.at += 1.0  # 20 in 20 s
    late = asyncio.ensure_future(api.request(pacer, "sendPhoto", str(GROUP), "m20"))  # the id as a string too
    clock.at += 39.0  # 59 s after the first: still 20 in the last minute
    await held_again(pacer)  # a look at the moved clock: still held
    assert not late.done()
    clock.at += 1.0
    await asyncio.wait_for(late, 2.0)
    assert api.sent[-1][2] - api.sent[0][2] >= 60.0


@pytest.mark.asyncio
async def test_thirty_messages_a_second_overall() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock)
    for user in range(30):
        await asyncio.wait_for(api.request(pacer, "sendMessage", 2_000_000 + user), 1.0)
    late = asyncio.ensure_future(api.request(pacer, "sendMessage", 3_000_000))
    await held_again(pacer)
    assert not late.done()
    clock.at += 1.0
    await asyncio.wait_for(late, 2.0)


@pytest.mark.asyncio
async def test_reads_and_chat_actions_are_never_held() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock, TelegramLimits(chat_burst=1))
    await api.request(pacer, "sendMessage", GROUP)
    for endpoint in ("getChatAdministrators", "getChatMember", "sendChatAction", "deleteMessage"):
        for _ in range(25):
            await asyncio.wait_for(api.request(pacer, endpoint, GROUP), 1.0)
    assert len(api.sent) == 1 + 4 * 25


def test_a_long_batch_shows_what_counts_down_first() -> None:
    channel = "telegram:-4000000999"
    counter = Reply("Coup 1 : 3 joueurs sur 3 ont joué.", channel=channel, edit_key="count", live=True, deadline=9.0)
    closed = Reply("Coup 1 — manche close.", channel=channel, edit_key="dup-1-1")
    results = Reply("Coup 1 — Top : VAGUE", channel=channel)
    standings = Reply("Classement", channel=channel)
    draw = Reply("Coup 2 — tirage", channel=channel, edit_key="dup-1-2", deadline=100.0)
    batch = [counter, closed, results, standings, draw]
    assert shown_first(batch, untracked, TelegramLimits.chat_burst) == [draw, counter, closed, results, standings]
    # a batch that fits in the chat's burst keeps its order (a game's announcement, then its first draw)
    assert shown_first([results, draw], untracked, TelegramLimits.chat_burst) == [results, draw]


@pytest.mark.asyncio
async def test_live_edits_give_way_and_leave_a_group_room_for_what_players_must_see() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock, TelegramLimits(chat_burst=100))
    spare = TelegramLimits().group_per_minute - LIVE_RESERVE
    for number in range(spare):  # live lines and countdown steps take what is spare, never more
        await api.request(pacer, "editMessageText", GROUP, f"live{number}", Priority.LIVE)
        clock.at += 1.0
    with pytest.raises(BudgetShortError):
        await api.request(pacer, "editMessageText", GROUP, "one live edit too many", Priority.LIVE)
    for number in range(LIVE_RESERVE):  # a round's close still finds its room at once
        await asyncio.wait_for(api.request(pacer, "sendMessage", GROUP, f"close{number}"), 1.0)
    assert [name for name, _, _ in api.sent][spare:] == [f"close{n}" for n in range(LIVE_RESERVE)]


@pytest.mark.asyncio
async def test_a_live_edit_never_waits_behind_nor_ahead_of_a_message_that_waits_its_turn() -> None:
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock)
    user = 1_000_003
    for number in range(3):  # the chat's burst is spent
        await api.request(pacer, "sendMessage", user, f"m{number}")
    waiting = asyncio.ensure_future(api.request(pacer, "sendMessage", user, "the draw"))
    await held_again(pacer)  # the draw waits its turn
    with pytest.raises(BudgetShortError):  # refused at once: it would have to wait (and the draw waits)
        await asyncio.wait_for(api.request(pacer, "editMessageText", user, "counter", Priority.LIVE), 1.0)
    clock.at += 1.0
    await asyncio.wait_for(waiting, 2.0)
    assert [name for name, _, _ in api.sent] == ["m0", "m1", "m2", "the draw"]


@pytest.mark.asyncio
async def test_a_message_answered_late_never_keeps_the_others_in_the_window() -> None:
    """Messages are answered out of the order they left in (a photo's upload takes longer than a line): one on its
    way, or answered late, counts for itself only. Before, the window forgot a message only once every message
    that left before it was forgotten: a photo still uploading held every other message of the bot (overall
    window full) until a second after its answer, and two groups' next draws waited up to 1.9 s behind it."""
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock)
    uploaded, uploading = asyncio.Event(), asyncio.Event()

    async def upload(name: str) -> bool:
        uploading.set()  # it left: counted in the window, on its way
        await uploaded.wait()
        api.sent.append((name, GROUP, clock()))
        return True

    photo = asyncio.ensure_future(pacer.process_request(upload, ("photo",), {}, "sendPhoto", {"chat_id": GROUP}, None))
    await asyncio.wait_for(uploading.wait(), 1.0)
    for user in range(29):  # the rest of the second's 30, answered at once
        await asyncio.wait_for(api.request(pacer, "sendMessage", 2_000_000 + user), 1.0)
    clock.at += 1.0  # the 29 are a second old: only the photo, on its way, is in the window
    await asyncio.wait_for(api.request(pacer, "sendMessage", 3_000_000, "while it uploads"), 1.0)
    uploaded.set()
    await asyncio.wait_for(photo, 1.0)  # answered now: it counts from now, the others do not
    await asyncio.wait_for(api.request(pacer, "sendMessage", 3_000_001, "after it"), 1.0)
    assert [name for name, _, _ in api.sent][-3:] == ["while it uploads", "photo", "after it"]


@pytest.mark.asyncio
async def test_live_edits_keep_the_burst_for_a_close() -> None:
    """The counter edited as often as it may while answers come in, then the deadline: the closed draw's edit and
    the next draw leave at once (they waited a second each when the counter had spent the burst)."""
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock)
    shown = refused = 0
    for step in range(16):  # 4 s of a counter tried four times a second (within the group's spare minute)
        try:
            await api.request(pacer, "editMessageText", GROUP, f"count{step}", Priority.LIVE)
            shown += 1
        except BudgetShortError:
            refused += 1
        clock.at += 0.25
    assert shown >= 4  # about one a second: the chat's pace
    assert refused > 0
    closing = [("editMessageText", "closed draw"), ("sendMessage", "next draw")]
    for endpoint, name in closing:  # the clock does not move: each must leave now
        await asyncio.wait_for(api.request(pacer, endpoint, GROUP, name), 1.0)
    assert [name for name, _, at in api.sent if at == clock.at] == [name for _, name in closing]
