"""A slash command whose first answer to Discord fails (the interaction callback reset, or a 5xx) still runs,
is recorded, and its answer reaches the player once, through the interaction's other paths (the original
response, its follow-up webhook) or the adapter's fallback (a DM).

Real discord.py against the fake Discord (tests/fakes); the fake resets a request before it is handled,
as a failing network does (Receiving and Responding > Responding to an Interaction: the callback must
come within 3 seconds, else the interaction is unknown).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import FakeDiscord, running_bot
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry
from tests.waiting import eventually, shown

LEXICONS = ready_registry()
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def texts(dc: FakeDiscord) -> list[str]:
    return [r.text or "" for r in dc.log.records if r.action in ("send", "edit")]


def acks(dc: FakeDiscord, word: str) -> list[str]:
    """The acknowledgements of a move with ``word`` that reached Discord (sent, or filling a deferred answer)."""
    return [
        r.text or ""
        for r in dc.log.records
        if r.action == "send" and "Reçu pour le coup" in (r.text or "") and word in (r.text or "")
    ]


def moves_recorded(storage: SQLiteStorage, channel: str) -> list[str]:
    """The words of the submissions the channel's duplicate game recorded."""
    record = storage.games(channel)[-1]
    return [str(e.data["move"]) for e in storage.events(record.id) if e.data["kind"] == "submit"]


async def start_duplicate(dc: ClubDiscord, adapter: DiscordAdapter, minutes: int) -> None:
    await adapter.sync(dc.guild.id)
    await dc.send_interaction("duplicate", {"args": str(minutes)}, user=dc.ana, channel_id=dc.channel)
    await eventually(lambda: any("Coup 1 — tirage :" in t for t in texts(dc)), 15)
    await dc.send_interaction("join", None, user=dc.ben, channel_id=dc.channel)
    await eventually(lambda: any("Ben rejoint" in t for t in texts(dc)), 15)


async def outbox_drained(storage: SQLiteStorage, advance: Callable[[float], None] | None = None) -> None:
    """Until the outbox holds nothing left to send: a second copy of an answer can no longer come from it."""
    await eventually(lambda: all(b.waiting == 0 for b in storage.outbox_backlog()), 10, advance=advance)


def new_adapter(dc: ClubDiscord, storage: SQLiteStorage) -> DiscordAdapter:
    referee = Referee(storage, LEXICONS, now=dc.now, images=False)
    adapter = DiscordAdapter(referee, tick_seconds=0.05, edit_interval=0.2, clock=dc.now)
    adapter.service.outbox_seconds = 0.05
    return adapter


@pytest.mark.asyncio
async def test_a_reset_on_the_first_answer_does_not_drop_the_command(
    discord_club: ClubDiscord, storage: SQLiteStorage
) -> None:
    dc = discord_club
    adapter = new_adapter(dc, storage)
    async with running_bot(dc, adapter.client):
        await start_duplicate(dc, adapter, 3)
        dc.reset_next(CALLBACK, count=1)  # the /jouer's "thinking..." never reaches Discord
        await dc.send_interaction("play", {"args": "H8 QWERTY"}, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: acks(dc, "QWERTY"), 10)
        await outbox_drained(storage)  # a second copy would have come by now, from the outbox
    assert len(dc.faults_of("reset")) == 1
    assert len(acks(dc, "QWERTY")) == 1, acks(dc, "QWERTY")
    assert any("QWERTY" in m for m in moves_recorded(storage, f"discord:{dc.channel}"))


EDIT_ORIGINAL = "PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}"
FAULTS = [
    lambda dc: dc.reset_next(CALLBACK, count=1),  # the deferral lost; its second try goes
    lambda dc: dc.reset_next(CALLBACK, count=2),  # both tries of the deferral lost; the answer is the callback
    lambda dc: dc.server_error_next(CALLBACK, status=503),  # discord.py does not retry a 503
    lambda dc: dc.reset_next(EDIT_ORIGINAL, count=1),  # the answer filling "thinking..." lost: made again
    lambda dc: dc.reset_next(CALLBACK, count=3),  # the deferral's tries and the answer's first try lost
    lambda dc: dc.server_error_next(CALLBACK, status=500),  # retried by discord.py a second later
    lambda dc: dc.reset_next(EDIT_ORIGINAL, count=2, handled=True),  # applied twice, neither heard of: read back
    lambda dc: dc.reset_next(CALLBACK, count=3, handled=True),  # the deferral applied; neither it nor 2 more heard of
]


@pytest.mark.asyncio
async def test_rounds_with_lost_answers_record_and_acknowledge_every_move(
    discord_club: ClubDiscord, storage: SQLiteStorage
) -> None:
    dc = discord_club
    adapter = new_adapter(dc, storage)
    words: list[str] = []
    loop_time = LoopTime()  # discord.py's waits (the channel's bucket, a webhook's backoff after a reset) hurried

    def both(seconds: float) -> None:  # the fake's clock (the referee's) and the loop's, ten times as fast
        dc.advance(seconds)
        loop_time.jump(10 * seconds)

    try:
        async with running_bot(dc, adapter.client):
            await start_duplicate(dc, adapter, 1)  # one-minute rounds
            for number in range(1, 5):
                await eventually(shown(lambda: texts(dc), f"Coup {number} — tirage :"), 15)
                for attempt in range(2):
                    word = f"QWERT{'AB'[attempt]}{number}"
                    words.append(word)
                    FAULTS[len(words) - 1](dc)
                    await dc.send_interaction("play", {"args": f"H8 {word}"}, user=dc.ben, channel_id=dc.channel)
                    await eventually(functools.partial(acks, dc, word), 10, advance=loop_time.jump)
                dc.advance(61)  # the round's minute is over: the clock closes it
                await eventually(
                    shown(lambda: texts(dc), f"Coup {number} — tirage", "Top :"),
                    20,
                    advance=both,
                )
            await outbox_drained(storage, loop_time.jump)  # a second copy of an acknowledgement would be out
    finally:
        loop_time.close()
    recorded = moves_recorded(storage, f"discord:{dc.channel}")
    for word in words:
        assert len(acks(dc, word)) == 1, (word, acks(dc, word))
        assert any(word in move for move in recorded), (word, recorded)
    # every fault injected was met: 1 + 2 + 1 + 3 + 2 + 3 requests reset, two answered 5xx
    assert (len(dc.faults_of("reset")), len(dc.faults_of("5xx"))) == (12, 2), dc.faults_served


def answers(dc: FakeDiscord, iid: int) -> list[str]:
    """What the bot said to the command's user about interaction ``iid``: through it, or directly after it."""
    through = [r for r in dc.log.records if r.action == "send" and r.interaction_id == iid]
    first = min((r.seq for r in dc.log.records if r.interaction_id == iid), default=0)
    direct = [r for r in dc.log.records if r.action == "send" and r.interaction_id is None and r.seq > first]
    return [r.text or "" for r in through + direct]


@pytest.mark.asyncio
async def test_a_lost_answer_that_reached_discord_is_not_sent_again(
    discord_club: ClubDiscord, storage: SQLiteStorage
) -> None:
    dc = discord_club
    adapter = new_adapter(dc, storage)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        dc.reset_next(CALLBACK, handled=True)  # Discord shows the answer; the bot never hears it did
        iid = await dc.send_interaction("status", None, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: answers(dc, iid), 10)
        await outbox_drained(storage)  # a second copy would have come by now, through the channel or the outbox
        said = answers(dc, iid)
    assert len(dc.faults_of("reset")) == 1
    assert len(said) == 1, said


@pytest.mark.asyncio
async def test_a_lost_deferral_that_reached_discord_is_filled_by_the_answer(
    discord_club: ClubDiscord, storage: SQLiteStorage
) -> None:
    dc = discord_club
    adapter = new_adapter(dc, storage)
    async with running_bot(dc, adapter.client):
        await start_duplicate(dc, adapter, 3)
        dc.reset_next(CALLBACK, handled=True)  # "thinking..." is shown; the bot never hears it was
        iid = await dc.send_interaction("play", {"args": "H8 QWERTY"}, user=dc.ben, channel_id=dc.channel)
        await eventually(lambda: acks(dc, "QWERTY"), 10)
        await outbox_drained(storage)
    deferrals = [r for r in dc.log.records if r.action == "defer" and r.interaction_id == iid]
    filled = [r for r in dc.log.records if r.action == "send" and r.interaction_id == iid and r.ephemeral]
    assert len(deferrals) == 1
    assert deferrals[0].ephemeral
    assert [r.message_id for r in filled] == [deferrals[0].message_id], filled  # the placeholder holds the ack
    assert len(acks(dc, "QWERTY")) == 1
    assert any("QWERTY" in m for m in moves_recorded(storage, f"discord:{dc.channel}"))
