"""One account's commands reach the referee in the order they arrived (bot/adapters/ordering.py), on the
real python-telegram-bot against the fake server: a group command whose admin lookup is slow is not
overtaken by the same player's private command that needs none. Other accounts are not held up."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.ordering import ArrivalOrder
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.test_delivery_faults import eventually
from tests.fakes import FakeTelegram, running_application
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
GROUP = -1001234567


@pytest.mark.asyncio
async def test_a_slow_admin_lookup_does_not_let_the_same_players_private_move_overtake_the_join(
    storage: SQLiteStorage,
) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        tg.add_group(GROUP, "Club")
        ana, ben = tg.add_user(first_name="Ana"), tg.add_user(first_name="Ben")
        tg.set_member(GROUP, ana, "creator")
        referee = Referee(storage, LEXICONS, now=tg.now, images=False)
        adapter = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
        adapter.service.outbox_seconds = 0.05
        async with running_application(adapter.application, tg):
            await tg.send_user_message(GROUP, ana, "/duplicate 1")
            await eventually(lambda: any("Coup 1 — tirage :" in (r.text or "") for r in tg.log.records), 10)
            adapter.admin_ttl = 0  # the next group command looks the admins up again, and Telegram is slow
            tg.slow_next("getChatAdministrators", 1.0)
            await tg.send_user_message(GROUP, ben, "/rejoindre")
            await tg.send_user_message(None, ben, "/jouer H8 QWERTY", chat_type="private")
            await eventually(lambda: any("QWERTY" in (r.text or "") for r in tg.log.records), 10)
    private = [r.text or "" for r in tg.log.records if r.chat_id == ben.id]
    assert any("Reçu pour le coup 1" in text for text in private), private
    assert not any("Vous ne participez à aucune partie" in text for text in private), private


@pytest.mark.asyncio
async def test_each_account_waits_only_for_its_own_earlier_commands() -> None:
    order = ArrivalOrder()
    handled: list[str] = []
    gate = asyncio.Event()

    async def command(account: str, label: str, wait: asyncio.Event | None = None) -> None:
        turn = order.take(account)
        try:
            if wait is not None:
                await wait.wait()  # a slow lookup before the command may be handled
            async with turn:
                handled.append(label)
        finally:
            turn.finish()

    first = asyncio.create_task(command("ben", "ben: /rejoindre", gate))
    second = asyncio.create_task(command("ben", "ben: /jouer"))
    third = asyncio.create_task(command("ana", "ana: /etat"))
    await asyncio.wait_for(third, 10)  # Ana is not held up by Ben's lookup ...
    assert handled == ["ana: /etat"]  # ... and Ben's move waits for his join (its turn is behind it)
    gate.set()
    await asyncio.gather(first, second, third)
    assert handled == ["ana: /etat", "ben: /rejoindre", "ben: /jouer"]
    assert len(order) == 0  # nothing kept once every account is done


@pytest.mark.asyncio
async def test_a_command_that_fails_before_its_turn_lets_the_next_one_go() -> None:
    order = ArrivalOrder()
    handled: list[str] = []

    async def failing() -> None:
        turn = order.take("ben")
        try:
            raise ConnectionResetError("the admin lookup failed")
        finally:
            turn.finish()

    async def playing() -> None:
        turn = order.take("ben")
        try:
            async with turn:
                handled.append("/jouer")
        finally:
            turn.finish()

    results = await asyncio.gather(failing(), playing(), return_exceptions=True)
    assert isinstance(results[0], ConnectionResetError)
    assert handled == ["/jouer"]
    assert len(order) == 0
