"""The metrics and health check of the Telegram and Discord adapters (the real libraries against the
fake servers): commands counted per platform, the 429s the platform answered, the connection lost in
an outage and found again."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.operations.metrics import Metrics, MetricsAddress, MetricsServer
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.test_delivery_faults import eventually
from tests.bot.runtime.test_metrics import Samples, get, scrape
from tests.discord_club import ClubDiscord, identify_at_once
from tests.fakes import FakeTelegram, running_application, running_bot
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
GROUP = -1001234567
FOLLOW_UP = "POST /webhooks/{application_id}/{interaction_token}"  # the draw follows the deferred /duplicate


async def health(server: MetricsServer) -> tuple[int, str]:
    return await asyncio.to_thread(get, server.url + "/healthz")


def counted(metrics: Metrics, command: str, platform: str) -> float:
    """Commands counted so far (a command is counted once its replies were handed to the platform)."""
    return metrics.registry.get_sample_value("arbitre_commands_total", {"command": command, "platform": platform}) or 0


def commands_of(samples: Samples, platform: str) -> dict[str, float]:
    return {
        dict(labels)["command"]: value
        for (name, labels), value in samples.items()
        if name == "arbitre_commands_total" and dict(labels)["platform"] == platform
    }


@pytest.mark.asyncio
async def test_telegram_429s_commands_and_the_bot_api_lost_in_an_outage(storage: SQLiteStorage) -> None:
    async with FakeTelegram(bot_username="TestBot") as tg:
        tg.add_group(GROUP, "Club de Scrabble")
        ana, ben = tg.add_user(first_name="Ana"), tg.add_user(first_name="Ben")
        tg.set_member(GROUP, ana, "creator")
        metrics = Metrics()
        referee = Referee(storage, LEXICONS, now=tg.now, images=False)
        adapter = TelegramAdapter(
            referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now, metrics=metrics
        )
        server = MetricsServer(metrics, MetricsAddress("127.0.0.1", 0))
        loop_time = LoopTime()  # python-telegram-bot's backoff while the Bot API is away runs on the loop's clock
        try:
            assert await health(server) == (503, "adapter not connected (the Telegram application is not running)\n")
            async with running_application(adapter.application, tg):
                tg.rate_limit_next("sendMessage", retry_after=1, count=2)  # the rate limiter retries them
                await tg.send_user_message(GROUP, ana, "/duplicate 1")
                await eventually(
                    lambda: any("Coup 1 — tirage :" in (r.text or "") for r in tg.log.records),
                    20,
                    advance=loop_time.jump,  # the limiter sleeps out each 429's retry_after on the loop's clock
                )
                await tg.send_user_message(GROUP, ben, "/rejoindre")
                await eventually(lambda: any("Ben rejoint" in (r.text or "") for r in tg.log.records), 15)
                await tg.send_user_message(None, ben, "/jouer H8 QWERTY", chat_type="private")
                await eventually(lambda: any("QWERTY" in (r.text or "") for r in tg.log.records), 15)
                await eventually(lambda: counted(metrics, "play", "telegram") == 1)
                samples = await asyncio.to_thread(scrape, server.url)
                assert samples[("arbitre_rate_limited_total", (("platform", "telegram"),))] == 2
                assert commands_of(samples, "telegram") == {"duplicate": 1, "join": 1, "play": 1}
                assert samples[("arbitre_clock_leases", ())] == 1
                assert await health(server) == (200, "ok\n")

                tg.outage(90)  # long polls are cut, new calls reset
                await eventually(lambda: get(server.url + "/healthz")[0] == 503, 20, advance=loop_time.jump)
                status, reason = await health(server)
                assert reason.startswith("adapter not connected (the Bot API does not answer: ")
                tg.end_outage()
                await eventually(  # the polls' backoff hurried: the loop's clock four times as far as the looks
                    lambda: get(server.url + "/healthz")[0] == 200,
                    30,
                    advance=lambda seconds: loop_time.jump(4 * seconds),
                )
            assert await health(server) == (503, "adapter not connected (the Telegram application is not running)\n")
            text = (await asyncio.to_thread(get, server.url + "/metrics"))[1]
            assert tg.token not in text
            assert tg.token.split(":")[0] not in text
        finally:
            loop_time.close()
            server.close()


@pytest.mark.asyncio
async def test_discord_429s_commands_and_the_gateway_lost_in_an_outage(dc: ClubDiscord, storage: SQLiteStorage) -> None:
    metrics = Metrics()
    referee = Referee(storage, LEXICONS, now=dc.now, images=False)
    adapter = DiscordAdapter(referee, edit_interval=0.2, tick_seconds=0.05, clock=dc.now, metrics=metrics)
    server = MetricsServer(metrics, MetricsAddress("127.0.0.1", 0))
    try:
        assert (await health(server))[0] == 503
        async with running_bot(dc, adapter.client, reconnect=True, ignore_errors=(Exception,), fail_on_errors=False):
            identify_at_once(adapter.client)
            await adapter.sync(dc.guild.id)
            dc.rate_limit_next(FOLLOW_UP, retry_after=0.3, count=2)  # discord.py sleeps them out itself
            await dc.send_interaction("duplicate", {"args": "1"}, user=dc.ana, channel_id=dc.channel)
            await eventually(lambda: any("Coup 1 — tirage :" in (r.text or "") for r in dc.log.records), 15)
            await dc.send_interaction("play", {"args": "H8 QWERTY"}, user=dc.ben, channel_id=dc.channel)
            await eventually(lambda: any("QWERTY" in (r.text or "") for r in dc.log.records), 10)
            await eventually(lambda: counted(metrics, "play", "discord") == 1)
            samples = await asyncio.to_thread(scrape, server.url)
            assert samples[("arbitre_rate_limited_total", (("platform", "discord"),))] == 2
            assert len(dc.faults_of("429")) == 2  # both were served
            assert commands_of(samples, "discord") == {"duplicate": 1, "play": 1}
            assert await health(server) == (200, "ok\n")

            dc.outage(90)  # the gateway is dropped and new connections refused
            await eventually(lambda: get(server.url + "/healthz")[0] == 503, 20)
            assert await health(server) == (503, "adapter not connected (the Discord gateway is not connected)\n")
            dc.end_outage()
            await eventually(lambda: get(server.url + "/healthz")[0] == 200, 60)
        assert await health(server) == (503, "adapter not connected (the Discord client is closed)\n")
    finally:
        server.close()
