"""The Discord adapter in duplicate rounds, on the fake Discord's clock: submissions stay private until the round
closes, results posted after an interaction's token expired go through the channel, a gateway reconnect or an invalid
session in the middle of a round, and a channel losing the bot's send permission mid-round then getting it back."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.discord.discord_adapter_club import (
    LEXICONS,
    AdapterDiscord,
    answer,
    eventually,
    public_texts,
    settle,
    slash,
    start_duplicate,
)
from tests.bot.adapters.discord.discord_adapter_club import clocked as clocked  # the adapter on the fake's clock
from tests.bot.adapters.discord.discord_adapter_club import dc as dc  # the club's fake Discord
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse
from tests.discord_club import identify_at_once
from tests.fakes import DiscordUser, running_bot
from tests.fakes.discord_limits import CHANNEL_MESSAGES
from tests.loop_time import LoopTime
from tests.waiting import starting

# --- duplicate: private submissions ----------------------------------------------------


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_duplicate_round_submissions_stay_private_until_it_closes(
    dc: AdapterDiscord, clocked: DiscordAdapter, storage: SQLiteStorage
) -> None:
    iid = await slash(dc, "duplicate")
    assert not (await dc.wait_for_response(iid, actions=("defer",))).ephemeral
    started = await answer(dc, iid)
    assert not started.ephemeral
    draw = await dc.wait_for_message(lambda r: "<t:" in (r.text or ""), channel_id=dc.channel)
    stamp = re.search(r"<t:(\d+):R>", draw.text)
    assert stamp is not None
    deadline = int(stamp.group(1))
    assert dc.now() < deadline <= dc.now() + 10 * 60  # the round's clock runs on the fake's time

    secrets = {dc.ana: "QWERTA", dc.ben: "QWERTB", dc.cleo: "QWERTC"}
    for user, word in secrets.items():
        iid = await slash(dc, "play", f"H8 {word}", user=user)
        assert (await dc.wait_for_response(iid, actions=("defer",))).ephemeral
        ack = await answer(dc, iid)
        assert ack.ephemeral
        assert word in ack.text
    assert not any(word in text for text in public_texts(dc) for word in secrets.values())

    # the clock warns, then closes the round and posts the results in the channel
    dc.advance(deadline - dc.now() - 10)
    warning = await dc.wait_for_message(lambda r: "plus que" in (r.text or ""), channel_id=dc.channel)
    dc.advance(11)
    results = await dc.wait_for_message(lambda r: "QWERTA" in (r.text or ""), channel_id=dc.channel)
    assert not results.ephemeral
    assert all(word in results.text for word in secrets.values())
    assert draw.seq < warning.seq < results.seq
    # the first public line about anyone's move is the results
    assert all(
        r.seq >= results.seq
        for r in dc.log.records
        if not r.ephemeral and any(w in (r.text or "") for w in secrets.values())
    )


# --- the fake's clock: rounds and interaction tokens ---------------------------------------


async def play(dc: AdapterDiscord, adapter: DiscordAdapter, user: DiscordUser, move: str) -> str:
    """``/play`` by ``user``: its private acknowledgement, once the command's replies are all out."""
    iid = await slash(dc, "play", move, user=user)
    ack = await answer(dc, iid)
    assert ack.ephemeral
    await settle(adapter)
    return ack.text


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_results_posted_15_minutes_after_the_duplicate_command_go_through_the_channel(
    dc: AdapterDiscord, clocked: DiscordAdapter
) -> None:
    iid, draw = await start_duplicate(dc, clocked)
    assert draw.method.startswith("POST /webhooks/")  # the draw answered the command, through its token
    await play(dc, clocked, dc.ben, "H8 QWERTB")
    mark = len(dc.responses)
    dc.advance(16 * 60)  # past the 3-minute deadline, and past the token's 15 minutes
    assert dc.interaction_token_expired(iid)
    results = await dc.wait_for_message(lambda r: "QWERTB" in (r.text or ""), channel_id=dc.channel, timeout=3)
    assert results.method == "POST /channels/{channel_id}/messages"
    closed = await dc.wait_for_edit(lambda r: r.message_id == draw.message_id, channel_id=dc.channel)
    assert closed.method == "PATCH /channels/{channel_id}/messages/{message_id}"
    assert "close" in closed.text
    nothing_through_the_token = [r for r in dc.responses[mark:] if r[1].startswith("/webhooks/")]
    assert nothing_through_the_token == []
    assert all(status < 400 for _, _, status in dc.responses[mark:])


@pytest.mark.asyncio
async def test_an_expired_token_the_adapter_did_not_expect_falls_back_to_the_channel(
    dc: AdapterDiscord, storage: SQLiteStorage
) -> None:
    # the referee follows the fake's clock, the adapter its own: it still believes in the token
    adapter = DiscordAdapter(Referee(storage, LEXICONS, now=dc.now), edit_interval=0.2, tick_seconds=0.05)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        _, draw = await start_duplicate(dc, adapter)
        dc.advance(16 * 60)
        closed = await dc.wait_for_edit(lambda r: r.message_id == draw.message_id, channel_id=dc.channel, timeout=3)
    assert closed.method == "PATCH /channels/{channel_id}/messages/{message_id}"
    refused = [r for r in dc.responses if r[1].startswith("/webhooks/") and r[2] == 401]
    assert len(refused) == 1  # one try through the expired token (401 / 50027), then the channel


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_gateway_reconnect_and_invalid_session_in_the_middle_of_a_round(
    dc: AdapterDiscord, clocked: DiscordAdapter, storage: SQLiteStorage
) -> None:
    await start_duplicate(dc, clocked)
    assert dc.gateways[0].compression == "zlib-stream"
    # op 7: discord.py reconnects and resumes; what was sent meanwhile is replayed
    assert await dc.gateway_reconnect() == 1
    ana_plays = asyncio.create_task(play(dc, clocked, dc.ana, "H8 QWERTA"))
    await dc.wait_for_gateway("resumed")
    assert "QWERTA" in await ana_plays
    # op 9 (not resumable): discord.py identifies again, a new session (without the 5 s its
    # default before_identify_hook waits before a second IDENTIFY)
    identify_at_once(clocked.client)
    assert await dc.gateway_invalid_session(resumable=False) == 1
    await dc.wait_for_gateway("ready", count=2)
    assert "QWERTB" in await play(dc, clocked, dc.ben, "H8 QWERTB")
    assert dc.gateway_log.count("identify") == 2
    assert dc.gateway_log.count("resume") == 1
    dc.advance(3 * 60)  # the round's deadline: the clock still runs, once
    results = await dc.wait_for_message(lambda r: "QWERTA" in (r.text or ""), channel_id=dc.channel, timeout=3)
    assert "QWERTB" in results.text
    # a duplicated clock or event would post the results twice: the close's last message, the standings' image,
    # is posted after them (a channel's posts go in order), so a second copy of the results would be out by then
    await dc.wait_for_message(starting("Classement après 1 coup"), channel_id=dc.channel, timeout=30)
    assert len([r for r in dc.messages_in(dc.channel) if "QWERTA" in (r.text or "") and not r.ephemeral]) == 1


@pytest.mark.asyncio
async def test_a_channel_losing_send_permission_mid_round_and_getting_it_back(
    dc: AdapterDiscord, clocked: DiscordAdapter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="arbitre")
    await start_duplicate(dc, clocked)
    await play(dc, clocked, dc.ben, "H8 QWERTB")
    dc.deny_bot(dc.channel)  # Send Messages removed in the game's channel
    dc.advance(3 * 60)  # round 1 closes: its results and the next draw cannot be posted
    told = await dc.wait_for_dm(dc.ana, timeout=3)  # Ana started the game: its referee
    assert f"<#{dc.channel}>" in told.text
    assert "Envoyer des messages" in told.text
    assert "Send Messages" not in told.text
    await eventually(lambda: len([r for r in dc.responses if r[2] == 403]) >= 2)  # results, next draw
    assert dc.channel in clocked.refused_channels
    assert len(dc.messages_in(dc.dm_channel_id(dc.ana))) == 1  # told once, not once per refused post
    warnings = [r.getMessage() for r in caplog.records if "telling the game's referee" in r.getMessage()]
    assert len(warnings) == 1
    assert f"discord:{dc.ana.id}" in warnings[0]
    # interactions still answer: they need no channel permission
    assert "QWERTB" in await play(dc, clocked, dc.ben, "H8 QWERTB")
    dc.allow_bot(dc.channel)
    # round 2 closes; the outbox posts what the channel refused, in order, at the channel's pace (five
    # posts per 5 s: the refused tries spent the bucket too, as Discord counts them)
    dc.advance(3 * 60)
    loop_time = LoopTime()  # the channel's window, which discord.py waits out, on a hurried clock
    try:
        first = await loop_time.hurried(
            dc.wait_for_message(lambda r: "QWERTB" in (r.text or ""), channel_id=dc.channel, timeout=15),
            at_most=CHANNEL_MESSAGES.window,
        )
        assert first.text.startswith("Coup 1")  # round 1's results, kept in the outbox, come first
        second = await loop_time.hurried(
            dc.wait_for_message(
                lambda r: (r.text or "").startswith("Coup 2 clos") and "QWERTB" in r.text,  # round 2's results
                channel_id=dc.channel,
                timeout=15,
            ),
            at_most=CHANNEL_MESSAGES.window,
        )
    finally:
        loop_time.close()
    assert second.seq > first.seq
    assert dc.channel not in clocked.refused_channels
    assert any("accepts the bot's posts again" in r.getMessage() for r in caplog.records)
    assert len(dc.messages_in(dc.dm_channel_id(dc.ana))) == 1
