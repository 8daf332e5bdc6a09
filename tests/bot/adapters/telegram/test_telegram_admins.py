"""A Telegram group's administrators read once per group at a time (bot/adapters/telegrambot/admins.py), the
membership updates that keep them up to date by long poll and by webhook, and the pacer's part: reads stand
in no message queue, and a message counts in Telegram's windows until Telegram has answered it
(bot/adapters/telegrambot/pacing.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram import Update
from telegram.error import NetworkError

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.telegrambot.admins import ALLOWED_UPDATES, GroupAdmins
from bot.adapters.telegrambot.pacing import FloodPacer, TelegramLimits, library_limiter
from bot.adapters.telegrambot.webhook import WebhookConfig
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, TgUser, running_application
from tests.fakes._common import free_port
from tests.fakes.telegram_limits import fake_clock_rate_limiter
from tests.fakes.telegram_server import CHAT_MEMBER_FIELDS
from tests.ready_lists import ready_registry
from tests.waiting import eventually

LEXICONS = ready_registry()
GROUP = -4_000_000_512
OTHER_GROUP = -4_000_000_513
ANA, BEN = 1_000_101, 1_000_102
SECRET = "admins-Secret_for-the-tests"


class Clock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


class LookUps:
    """A ``getChatAdministrators`` the test answers: each look-up waits until :meth:`answer` (or :meth:`fail`)."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.admins: dict[int, frozenset[int]] = {GROUP: frozenset({ANA}), OTHER_GROUP: frozenset({BEN})}
        self._gate = asyncio.Event()
        self._failure: Exception | None = None

    async def __call__(self, chat_id: int) -> frozenset[int]:
        self.asked.append(chat_id)
        await self._gate.wait()
        if self._failure is not None:
            raise self._failure
        return self.admins[chat_id]

    def answer(self) -> None:
        """The look-ups on their way, and those to come, are answered."""
        self._failure = None
        self._gate.set()

    def fail(self, error: Exception) -> None:
        self._failure = error
        self._gate.set()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


# --- one look-up per group at a time ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_fifty_one_commands_of_a_group_share_one_look_up() -> None:
    look_ups, clock = LookUps(), Clock()
    admins = GroupAdmins(look_ups, clock, ttl=60.0)
    waiting = [asyncio.ensure_future(admins.of(GROUP)) for _ in range(51)]
    other = asyncio.ensure_future(admins.of(OTHER_GROUP))  # another group has its own look-up
    await settle()
    assert look_ups.asked == [GROUP, OTHER_GROUP]
    look_ups.answer()
    assert await asyncio.gather(*waiting) == [frozenset({ANA})] * 51
    assert await other == frozenset({BEN})
    clock.at += 59.0
    assert await admins.of(GROUP) == frozenset({ANA})  # remembered for the minute
    clock.at += 1.0
    again = asyncio.ensure_future(admins.of(GROUP))
    also = asyncio.ensure_future(admins.of(GROUP))
    assert list(await asyncio.gather(again, also)) == [frozenset({ANA})] * 2  # expired: read again, once
    clock.at -= 3600.0  # a clock set back: what was read is read again
    assert await admins.of(GROUP) == frozenset({ANA})
    admins.ttl = 0.0  # nothing kept: each command after a look-up has come back reads again
    assert await admins.of(GROUP) == frozenset({ANA})
    assert look_ups.asked == [GROUP, OTHER_GROUP, GROUP, GROUP, GROUP]
    assert admins.look_ups == 5


@pytest.mark.asyncio
async def test_a_command_given_up_leaves_the_look_up_to_the_others() -> None:
    look_ups = LookUps()
    admins = GroupAdmins(look_ups, Clock())
    first, second = asyncio.ensure_future(admins.of(GROUP)), asyncio.ensure_future(admins.of(GROUP))
    await settle()
    first.cancel()
    await settle()
    look_ups.answer()
    assert await second == frozenset({ANA})
    assert first.cancelled()
    assert look_ups.asked == [GROUP]


@pytest.mark.asyncio
async def test_a_failed_look_up_answers_everyone_waiting_and_is_tried_again_soon() -> None:
    look_ups, clock = LookUps(), Clock()
    admins = GroupAdmins(look_ups, clock, ttl=60.0, failure_ttl=5.0)
    waiting = [asyncio.ensure_future(admins.of(GROUP)) for _ in range(3)]
    await settle()
    look_ups.fail(NetworkError("the Bot API does not answer"))
    assert await asyncio.gather(*waiting) == [frozenset()] * 3  # nobody is an administrator meanwhile
    clock.at += 4.0
    assert await admins.of(GROUP) == frozenset()
    assert look_ups.asked == [GROUP]
    clock.at += 1.0
    look_ups.answer()
    assert await admins.of(GROUP) == frozenset({ANA})
    assert look_ups.asked == [GROUP, GROUP]


@pytest.mark.asyncio
async def test_a_change_seen_while_the_look_up_is_on_its_way_is_kept() -> None:
    look_ups = LookUps()
    admins = GroupAdmins(look_ups, Clock())
    waiting = asyncio.ensure_future(admins.of(GROUP))
    await settle()
    admins.member_changed(GROUP, BEN, admin=True)  # promoted after Telegram read the list
    admins.member_changed(GROUP, ANA, admin=False)
    look_ups.answer()
    assert await waiting == frozenset({BEN})
    admins.member_changed(GROUP, ANA, admin=True)  # and after it came back
    assert await admins.of(GROUP) == frozenset({ANA, BEN})
    assert look_ups.asked == [GROUP]


def member_update(kind: str, chat: dict[str, Any], user: dict[str, Any], old: str, new: str) -> Update:
    """An ``Update`` carrying a ChatMemberUpdated (``kind``: "chat_member" or "my_chat_member")."""

    def member(status: str) -> dict[str, Any]:
        return {"user": user, "status": status, **CHAT_MEMBER_FIELDS[status]}

    changed = {"chat": chat, "from": user, "date": 1_800_000_000, "old_chat_member": member(old)}
    changed["new_chat_member"] = member(new)
    update = Update.de_json({"update_id": 1, kind: changed}, None)
    assert update is not None
    return update


@pytest.mark.asyncio
async def test_membership_updates_keep_the_list_up_to_date() -> None:
    look_ups = LookUps()
    look_ups.answer()
    admins = GroupAdmins(look_ups, Clock())
    group = {"id": GROUP, "type": "supergroup", "title": "Club"}
    ben = {"id": BEN, "is_bot": False, "first_name": "Ben"}
    bot = {"id": 42, "is_bot": True, "first_name": "Arbitre"}
    assert await admins.of(GROUP) == frozenset({ANA})
    admins.follow(member_update("chat_member", group, ben, "member", "administrator"))
    assert await admins.of(GROUP) == frozenset({ANA, BEN})
    admins.follow(member_update("chat_member", group, ben, "administrator", "restricted"))
    assert await admins.of(GROUP) == frozenset({ANA})
    private = {"id": BEN, "type": "private", "first_name": "Ben"}  # the bot blocked in a private chat
    admins.follow(member_update("my_chat_member", private, bot, "member", "kicked"))
    assert look_ups.asked == [GROUP]
    admins.follow(member_update("my_chat_member", group, bot, "member", "left"))  # the bot left: forgotten
    assert await admins.of(GROUP) == frozenset({ANA})
    assert look_ups.asked == [GROUP, GROUP]


# --- the pacer: reads stand in no queue, messages count until answered ---------------------------------------


class Api:
    """What python-telegram-bot's request would do: note which request left and when (the clock's)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.sent: list[tuple[str, float]] = []
        self.gate: asyncio.Event | None = None  # set: Telegram answers the requests held on it

    async def request(self, limiter: Any, endpoint: str, chat_id: Any) -> None:
        gate = self.gate

        async def callback(name: str) -> bool:
            self.sent.append((name, self.clock()))
            if gate is not None:
                await gate.wait()
            return True

        await limiter.process_request(callback, (endpoint,), {}, endpoint, {"chat_id": chat_id}, None)


@pytest.mark.asyncio
async def test_reads_never_stand_in_a_groups_message_queue_whatever_limiter_is_behind_the_pacer() -> None:
    clock = Clock()
    api = Api(clock)
    # python-telegram-bot's limiter with its own buckets (20 a minute per group), leaking by the test's clock
    pacer = FloodPacer(fake_clock_rate_limiter(clock, max_retries=0), clock, TelegramLimits(chat_burst=100))
    for _ in range(30):
        await asyncio.wait_for(api.request(pacer, "getChatAdministrators", GROUP), 1.0)
        await asyncio.wait_for(api.request(pacer, "answerCallbackQuery", None), 1.0)
    for endpoint in ("getChatMember", "getChat", "setMyCommands", "sendChatAction"):
        await asyncio.wait_for(api.request(pacer, endpoint, GROUP), 1.0)
    # the group's 20 messages are whole: a read took none of them
    for _ in range(20):
        await asyncio.wait_for(api.request(pacer, "sendMessage", GROUP), 1.0)
    assert len(api.sent) == 84
    assert {at for _, at in api.sent} == {clock.at}


@pytest.mark.asyncio
async def test_the_library_limiter_behind_the_pacer_keeps_no_bucket() -> None:
    clock = Clock()
    api = Api(clock)
    limiter = library_limiter()
    for _ in range(100):  # no group's minute, no overall second: the pacer alone paces messages
        await asyncio.wait_for(api.request(limiter, "sendMessage", GROUP), 1.0)
    assert len(api.sent) == 100


@pytest.mark.asyncio
async def test_a_message_counts_until_telegram_has_answered_it() -> None:
    """Telegram counts a message when it arrives: 30 messages still on their way a second after they left
    still hold the overall second, and once answered count from their answer."""
    clock = Clock()
    api = Api(clock)
    pacer = FloodPacer(None, clock, TelegramLimits(chat_burst=100))
    answered = api.gate = asyncio.Event()
    on_their_way = [asyncio.ensure_future(api.request(pacer, "sendMessage", 2_000_000 + n)) for n in range(30)]
    await eventually(lambda: len(api.sent) == 30)
    api.gate = None
    clock.at += 1.0  # a second after they left
    late = asyncio.ensure_future(api.request(pacer, "sendMessage", 3_000_000))
    await asyncio.sleep(0.4)  # longer than the pacer's look at the clock (0.25 s)
    assert not late.done()
    clock.at += 0.5
    answered.set()  # Telegram answers them 1.5 s after they left: they count from then
    await asyncio.wait_for(asyncio.gather(*on_their_way), 1.0)
    clock.at += 0.9
    await asyncio.sleep(0.4)
    assert not late.done()
    clock.at += 0.1
    await asyncio.wait_for(late, 2.0)
    assert api.sent[-1] == ("sendMessage", clock.at)


# --- the membership updates reach the adapter, by long poll and by webhook ---------------------------------


def members(tg: FakeTelegram) -> tuple[TgUser, TgUser]:
    """The group with the bot as an administrator (so that Telegram sends it ``chat_member``), Ana who created
    it and Ben, a member."""
    tg.add_group(GROUP, "Club")
    ana, ben = tg.add_user(first_name="Ana"), tg.add_user(first_name="Ben")
    tg.set_member(GROUP, ana, "creator")
    tg.set_member(GROUP, ben, "member")
    tg.set_member(GROUP, tg.bot_user, "administrator")
    return ana, ben


async def promotion_is_followed(tg: FakeTelegram, ana: TgUser, ben: TgUser) -> None:
    """Ben, refused, is made an administrator: his next command is his without the list read again; demoted,
    refused again."""
    await tg.send_user_message(GROUP, ben, "/reglages minutes 2")
    assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text
    assert tg.change_member(GROUP, ben, "administrator", by=ana) is not None
    await eventually(lambda: not tg.pending_updates, 5)  # the bot took the update
    await tg.send_user_message(GROUP, ben, "/reglages minutes 2")
    assert ", 2 min par coup" in (await tg.wait_for_message(chat_id=GROUP)).text
    tg.change_member(GROUP, ben, "member", by=ana)
    await eventually(lambda: not tg.pending_updates, 5)
    await tg.send_user_message(GROUP, ben, "/reglages minutes 3")
    assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text
    assert [m for m, _ in tg.requests if m == "getChatAdministrators"] == ["getChatAdministrators"]


def adapter_for(tg: FakeTelegram, storage: SQLiteStorage) -> TelegramAdapter:
    return TelegramAdapter(
        Referee(storage, LEXICONS, now=tg.now, images=False),
        tg.token,
        base_url=tg.base_url,
        tick_seconds=0.05,
        clock=tg.now,
    )


@pytest.mark.asyncio
async def test_without_asking_for_them_the_bot_gets_no_chat_member_updates(storage: SQLiteStorage) -> None:
    """Telegram's default leaves ``chat_member`` out: the fake does too, so the tests below show that the
    adapter asks for it."""
    async with FakeTelegram(bot_username="TestBot") as tg:
        ana, ben = members(tg)
        adapter = adapter_for(tg, storage)
        async with running_application(adapter.application, tg):  # no allowed_updates: the default
            await tg.send_user_message(GROUP, ben, "/reglages minutes 2")
            assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text
            tg.change_member(GROUP, ben, "administrator", by=ana)
            await tg.send_user_message(GROUP, ben, "/reglages minutes 2")
            assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text  # the list read before


@pytest.mark.asyncio
async def test_membership_updates_reach_the_adapter_by_long_poll(storage: SQLiteStorage) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        ana, ben = members(tg)
        adapter = adapter_for(tg, storage)
        async with running_application(adapter.application, tg, allowed_updates=list(ALLOWED_UPDATES)):
            await promotion_is_followed(tg, ana, ben)


@pytest.mark.asyncio
async def test_run_polling_asks_for_the_membership_updates(storage: SQLiteStorage) -> None:
    """``adapter.run()`` itself (python-telegram-bot's ``run_polling``, in a thread with its own loop)."""
    async with FakeTelegram(bot_username="TestBot") as tg:
        ana, ben = members(tg)
        adapter = adapter_for(tg, storage)
        loop = asyncio.new_event_loop()

        def polling() -> None:
            asyncio.set_event_loop(loop)
            adapter.run(stop_signals=None, close_loop=False, poll_interval=0, timeout=1)

        running = asyncio.ensure_future(asyncio.to_thread(polling))
        try:
            await eventually(lambda: adapter.application.running or running.done(), 20)
            await promotion_is_followed(tg, ana, ben)
        finally:
            loop.call_soon_threadsafe(adapter.application.stop_running)
            await asyncio.wait_for(running, 30)
            loop.close()
        polls = [p.get("allowed_updates") for m, p in tg.requests if m == "getUpdates"]
        assert polls, polls
        assert all(asked == list(ALLOWED_UPDATES) for asked in polls), polls


@pytest.mark.asyncio
async def test_the_webhook_asks_for_the_membership_updates(storage: SQLiteStorage) -> None:
    async with FakeTelegram(bot_username="TestBot", local_mode=True) as tg:  # an HTTP webhook on any port
        ana, ben = members(tg)
        adapter = adapter_for(tg, storage)
        port, stop = free_port(), asyncio.Event()
        webhook = WebhookConfig(f"http://127.0.0.1:{port}/arbitre", SECRET, port=port)
        serving = asyncio.ensure_future(adapter.serve_webhook(webhook, stop))
        try:
            await eventually(lambda: adapter.application.running or serving.done(), 20)
            await promotion_is_followed(tg, ana, ben)
        finally:
            stop.set()
            await asyncio.wait_for(serving, 30)
        assert tg.webhook_sender is not None
        assert tg.webhook_sender.info()["allowed_updates"] == list(ALLOWED_UPDATES)
