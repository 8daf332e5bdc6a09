"""Ten rooms closing in the same second (issue 36, finding 2): ten channels of one Discord guild, 50 players
each, every answer in the round's last 5 s, three one-minute rounds, images on, real discord.py against the
fake with Discord's rate limits on (tests/fakes/discord_limits.py: five posts or edits per 5 s in a channel,
50 requests a second in all).

Before, the clock closed the rooms one after another and each close drew its two images before its replies
went out: the k-th channel's next draw waited for k-1 closes and their images (round 2's draws 1.0 to 6.7 s
after the deadline, 8 of 20 over 2 s). Now every room's next draw is handed over as its close is stored,
the results of all the rooms once every close of the tick is, and the images after them, drawn off the clock.

The clocks are the test's: the fake's clock is frozen (the referee reads it: a round's deadline, when an
answer arrived) and moves with the event loop's (discord.py's rate-limit buckets) only when the test moves
them. Each round the test waits, clocks still, until the ten closes are stored (their own work: real time,
printed, never asserted), then lets both clocks run together until every draw and result is posted; a post's
time is the fake's, read from its message id (a snowflake). Asserted: every room's next draw within 2 s of
its round's deadline (its opening) and its results within 5 s, every room's draw handed over by the clock
before any room's results (and posted before its own room's), the count exact in the results, every
acknowledgement once, no 429.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.chat import Reply
from bot.games.duplicate.closes import ResultImages
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, SentMessage, running_bot
from tests.fakes.discord_server import DISCORD_EPOCH
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
ROOMS = 10
PLAYERS = 50
ROUNDS = 3
ROUND_SECONDS = 60.0
LAST_SECONDS = 5.0  # every answer comes in the round's last 5 s ...
SLICES = 10  # ... in ten slices of half a second, each room's players answering together
WAIT = 60.0  # how long the test waits for anything at most (a busy machine); the bounds are asserted apart
T = TypeVar("T")


def posted_at(record: SentMessage) -> float:
    """When the fake took a message: its id is a snowflake of the fake's clock (milliseconds)."""
    assert record.message_id is not None
    return ((record.message_id >> 22) + DISCORD_EPOCH) / 1000


def is_draw(record: SentMessage, number: int) -> bool:
    text = record.text or ""
    return record.action == "send" and not record.ephemeral and f"Coup {number} — tirage :" in text and "<t:" in text


def is_results(record: SentMessage, number: int) -> bool:
    text = record.text or ""
    return record.action == "send" and text.startswith(f"Coup {number} clos : ") and "Top :" in text


class Clocks:
    """The fake's clock (frozen: the referee's) and the event loop's, moved together by the test."""

    def __init__(self, dc: FakeDiscord, loop_time: LoopTime) -> None:
        self.dc, self.loop_time = dc, loop_time
        dc.clock.freeze()

    async def advance(self, seconds: float, step: float = 1.0) -> None:
        """Both clocks ``seconds`` further, by steps, letting what falls due in each step run."""
        while seconds > 1e-9:
            moved = min(step, seconds)
            self.dc.advance(moved)
            self.loop_time.jump(moved)
            seconds -= moved
            for _ in range(5):
                await asyncio.sleep(0)

    async def to(self, at: float, step: float) -> None:
        """Both clocks on to the fake's ``at``, by steps (a Unix time plus an offset rounds: a unit of the last
        place that would be missing is added)."""
        await self.advance(max(0.0, at - self.dc.now()), step)
        while self.dc.now() < at:
            self.dc.advance(math.ulp(at))
            self.loop_time.jump(math.ulp(at))

    async def running(self, awaitable: Awaitable[T], look: float = 0.01) -> T:
        """What ``awaitable`` gives, the fake's clock following the loop's while it waits, at the pace of real
        time: what waits for a rate limit ends as it would on the platform, and the bot's own work counts as
        long as it takes. (Both clocks moved by a step at each look, as before, let the loop's run ahead of
        the fake's by the real time of each look: on a loaded machine discord.py's buckets reset before the
        fake's, a 429.)"""
        task = asyncio.ensure_future(awaitable)
        loop = asyncio.get_running_loop()
        last, moved = loop.time(), 0.0
        while not task.done():
            await asyncio.wait([task], timeout=look)
            now = loop.time()
            if moved < 3 * WAIT:
                self.dc.advance(now - last)
                moved += now - last
            last = now
        return task.result()


async def closes_stored(storage: SQLiteStorage, number: int) -> None:
    """Until every room's round ``number`` is closed in storage (the clocks still: the closes' own work)."""
    for _ in range(int(WAIT * 100)):
        ((closed,),) = storage.db.execute("select count(*) from closes where round = ?", (number,)).fetchall()
        if closed >= ROOMS:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"round {number} never closed everywhere")


@pytest.mark.long(31)
@pytest.mark.asyncio
async def test_ten_discord_channels_of_fifty_see_every_draw_and_result_in_time(storage: SQLiteStorage) -> None:
    loop = asyncio.get_running_loop()
    loop_time = LoopTime(loop)
    try:
        await ten_rooms(storage, loop, loop_time)
    finally:
        loop_time.close()


async def ten_rooms(storage: SQLiteStorage, loop: asyncio.AbstractEventLoop, loop_time: LoopTime) -> None:
    async with FakeDiscord() as dc:
        clocks = Clocks(dc, loop_time)
        guild = dc.add_guild(name="Ligue", channels=tuple(f"salle-{n + 1}" for n in range(ROOMS)))
        channels = list(guild.channels)
        referee_user = dc.add_user(username="arbitre", global_name="Arbitre")
        dc.add_member(guild, referee_user, admin=True)
        players = {
            channel: [dc.add_user(username=f"s{c}p{i:02d}", global_name=f"S{c}P{i:02d}") for i in range(PLAYERS)]
            for c, channel in enumerate(channels)
        }
        for people in players.values():
            for person in people:
                dc.add_member(guild, person)
        referee = Referee(storage, LEXICONS, now=dc.now, images=True)
        published: list[Reply] = []  # what the clock handed over, in its order
        ticking = referee.tick

        def tick(
            now: float | None = None,
            publish: Callable[[list[Reply]], None] | None = None,
            images: Callable[[list[ResultImages]], None] | None = None,
        ) -> list[Reply]:
            def seen(replies: list[Reply]) -> None:
                published.extend(replies)
                if publish is not None:
                    publish(replies)

            return ticking(now, seen, images)

        referee.tick = tick  # type: ignore[method-assign]
        adapter = DiscordAdapter(referee, message_content=True, tick_seconds=0.05, clock=dc.now)
        async with running_bot(dc, adapter.client):
            await adapter.sync(guild.id)
            for channel in channels:  # every room starts its game at the same moment: the same deadlines
                await dc.send_interaction("duplicate", {"args": "1"}, user=referee_user, channel_id=channel)
            await dc.log.wait_for(  # the clocks still: each room's first round ends at the same moment
                lambda r: sum(is_draw(x, 1) for x in dc.log.records) >= ROOMS, timeout=WAIT, consume=False
            )
            acks: dict[int, int] = {}  # interaction -> the round it answered
            draw_delays: list[float] = []
            result_delays: list[float] = []
            closing: list[float] = []  # real seconds until every room's close was stored (printed only)
            for number in range(1, ROUNDS + 1):
                (deadline,) = {d.at for d in storage.deadlines()}  # every room's round ends at the same moment
                await clocks.advance(deadline - LAST_SECONDS - dc.now())  # the warnings on the way
                for piece in range(SLICES):  # the answers, all in the round's last 5 s
                    sent = [
                        (
                            await dc.send_interaction(
                                "play", {"position": "H8", "word": "ZZZ"}, user=person, channel_id=channel
                            )
                        )
                        for channel, people in players.items()
                        for person in people[piece::SLICES]
                    ]
                    for iid in sent:
                        acks[iid] = number
                    await asyncio.gather(  # answered through their interactions: no clock to wait for
                        *(
                            dc.wait_for_response(
                                iid, lambda r: r.ephemeral and "coup" in (r.text or "").lower(), timeout=WAIT
                            )
                            for iid in sent
                        )
                    )
                    # on to the slice's end, computed from the deadline (steps added one by one drift: the last
                    # slice ended a hair before the deadline)
                    await clocks.to(deadline - LAST_SECONDS * (SLICES - 1 - piece) / SLICES, LAST_SECONDS / SLICES)
                assert dc.now() >= deadline  # the answers arrived before the deadline (asserted below: counted)
                since = len(dc.log.records)
                started = loop.time()
                await closes_stored(storage, number)
                closing.append(loop.time() - started)

                def done(record: SentMessage, n: int = number, s: int = since) -> bool:
                    later = dc.log.records[s:]
                    drawn = sum(is_draw(r, n + 1) for r in later)
                    return drawn >= ROOMS and sum(is_results(r, n) for r in later) >= ROOMS

                await clocks.running(dc.log.wait_for(done, actions=("send", "edit"), timeout=3 * WAIT, consume=False))
                later = dc.log.records[since:]
                new_draws = {r.chat_id: r for r in later if is_draw(r, number + 1)}
                results = {r.chat_id: r for r in later if is_results(r, number)}
                assert set(new_draws) == set(results) == set(channels)
                for channel in channels:
                    draw_delays.append(posted_at(new_draws[channel]) - deadline)
                    result_delays.append(posted_at(results[channel]) - deadline)
                    text = results[channel].text or ""
                    found = re.match(rf"Coup {number} clos : (\d+) joueurs sur (\d+) ont joué", text)
                    assert found, text
                    assert found.groups() == (str(PLAYERS), str(PLAYERS)), text  # the count, exact
                    assert new_draws[channel].seq < results[channel].seq  # in each room, its draw first
                # the clock handed every room's next draw over before any room's results (the rooms' posts then
                # go side by side, each room's at its own pace)
                texts = [r.text for r in published]
                handed = [n for n, t in enumerate(texts) if f"Coup {number + 1} — tirage :" in t]
                told = [n for n, t in enumerate(texts) if t.startswith(f"Coup {number} clos : ")]
                assert len(handed) == len(told) == ROOMS
                assert max(handed) < min(told)

                def pictured(record: SentMessage, n: int = number, s: int = since) -> bool:
                    later = dc.log.records[s:]
                    return sum((r.text or "").startswith(f"Classement après {n} coup") for r in later) >= ROOMS

                # then the images, drawn after the results (real time) and posted after them; a real minute
                # leaves them the time the test's compressed one may not
                await clocks.running(dc.log.wait_for(pictured, timeout=3 * WAIT, consume=False))
            await clocks.running(adapter.service.stop())
        print(
            f"{ROOMS} discord channels x {PLAYERS}: closes stored after {[round(c, 2) for c in closing]} s (real);"
            f" draws after the deadline (fake's clock) up to {max(draw_delays):.2f} s, results up to"
            f" {max(result_delays):.2f} s; requests counted by the limits {len(dc.limits.taken)},"
            f" 429s {len(dc.throttled)}"
        )
        assert all(d <= 2.0 for d in draw_delays), draw_delays
        # Results within 5 s of the close in every room (issue 36). Before, in some runs (1 in 31 earlier, 5 of 45
        # on one day), rooms posted their results 5.0-5.9 s after the deadline: the close's count waited
        # behind the counter's older updates left to the outbox worker (its batch with it, the results), and the
        # worker delivered the rooms one after another, behind a room waiting out its channel's bucket
        # (tests/bot/runtime/test_outbox_worker.py, tests/bot/outbox/test_stored_outbox.py). Since, in 16 runs
        # (8 alone, 8 two at a time), every room's results within 0.29-0.99 s.
        late = [round(d, 2) for d in result_delays if d > 5.0]
        print(f"results past 5 s: {len(late)} of {len(result_delays)} {late}")
        assert all(d <= 5.0 for d in result_delays), result_delays
        # No 429 at all: before a channel's requests went one at a time (bot/adapters/discordbot/channel_requests.py),
        # one or two edits got one in about one run in four.
        assert not dc.throttled, dc.throttled
