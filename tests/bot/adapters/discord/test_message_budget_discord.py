"""A room's message budget on Discord: 20 and 50 players in one channel over three one-minute duplicate
rounds, real discord.py against the fake with Discord's rate limits on (tests/fakes/discord_limits.py: five
posts or edits per 5 s in a channel, five per 5 s through one interaction token, 50 requests a second in
all), the referee on the fake's clock. Each player submits with the slash command ``/play``, answered
ephemerally.

Issue 21 asks for every draw in the channel within 2 s of its round's opening and every result within 5 s
of the close. The test counts what decides whether Discord delays them, never how long anything took: at
every close the next draw is the first post the channel's bucket counts, everything up to the results fits
in that bucket's window (so discord.py never holds one back), and no 429 is served at all. Also: the
counter is exact at the close, one message edited at most once per live interval, every acknowledgement
arrives and every move is recorded. The delays themselves are printed (what is left of them is the close's
own work: its top and its images).

The fake's clock jumps a round's minute in a moment, but Discord's buckets (and discord.py's waits) run on
the event loop's clock. A real round lasts a minute, long enough for a channel's bucket to fill up again;
whenever the fake's clock passes 5 s the test lets the channel's current 5-s window end (class
``BucketTime``), which is that time as the buckets see it, and nothing more: once the fake has answered
every request it received, the loop's clock (``tests/loop_time.py``) jumps to the window's end.
"""

from __future__ import annotations

import asyncio
import functools
import math
import re
from collections.abc import Callable

import pytest

from bot.adapters.discordbot.adapter import LIVE_INTERVAL, DiscordAdapter
from bot.games.duplicate.games import WARNING_SECONDS
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, SentMessage, running_bot
from tests.fakes.discord_limits import CHANNEL_MESSAGES, Taken
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry
from tests.waiting import eventually, numbered, saying

LEXICONS = ready_registry()
ROUND_SECONDS = 60.0
ROUNDS = 3
WAIT = 30.0  # how long the test waits for anything at most (a busy machine); the bounds are asserted apart


def is_result(text: str, number: int) -> bool:
    """Round ``number``'s results: their text, the exact count first, then the top (or none) and every answer."""
    return text.startswith(f"Coup {number} clos : ") and ("Top :" in text or "aucun coup" in text)


def is_draw(record: SentMessage, number: int) -> bool:
    text = record.text or ""
    return not record.ephemeral and f"Coup {number} — tirage :" in text and "<t:" in text  # after rejected draws


def count_line(text: str) -> tuple[int, int] | None:
    found = re.search(r"(\d+) joueurs? sur (\d+) (?:a|ont) joué", text)
    return (int(found.group(1)), int(found.group(2))) if found else None


def counted_after(start: int, number: int, players: int) -> Callable[[SentMessage], bool]:
    """A message's condition: after action ``start``, round ``number``'s counter says all ``players`` played."""
    return lambda r: r.seq > start and r.text.startswith(f"Coup {number} :") and count_line(r.text) == (players,) * 2


def standings_image_after(start: int, number: int) -> Callable[[SentMessage], bool]:
    """A message's condition: after action ``start``, the standings after round ``number``, with its image."""
    return lambda r: r.text.startswith(f"Classement après {number} coup") and bool(r.files) and r.seq > start


async def seen_within(
    dc: FakeDiscord, predicate: Callable[[SentMessage], bool], started: float
) -> tuple[SentMessage, float]:
    """The first public post or edit matching ``predicate``, and the seconds (the loop's clock) from
    ``started`` until it was there."""
    record = await dc.log.wait_for(predicate, actions=("send", "edit"), timeout=WAIT, consume=False)
    return record, asyncio.get_running_loop().time() - started


def deadline_of(draw: SentMessage) -> float:
    found = re.search(r"<t:(\d+):R>", draw.text or "")
    assert found, draw.text
    return float(found.group(1))


def channel_posts(dc: FakeDiscord, channel: int, since: int) -> list[tuple[Taken, str]]:
    """The requests the channel's message bucket counted after the ``since``-th, each with its text."""
    posts = []
    for taken in dc.limits.taken[since:]:
        if taken.bucket == CHANNEL_MESSAGES.name and taken.resource == str(channel):
            body = dc.requests[taken.request][2]
            posts.append((taken, str(body.get("content") or "") if isinstance(body, dict) else ""))
    return posts


class BucketTime:
    """The fake's clock moved forward, and the channel's bucket with it: before the fake's time passes a
    bucket window (5 s) beyond the last wait, the channel's current window is let end in real time. A
    round's minute then fills the bucket again as a real minute would, however fast the test runs (the
    loop's clock jumps to the window's end once the fake has answered what it was sent)."""

    def __init__(self, dc: FakeDiscord, channel: int, loop_time: LoopTime) -> None:
        self.dc, self.channel, self.loop_time = dc, channel, loop_time
        self.since = 0.0  # the fake's seconds since the window last ended

    async def advance(self, seconds: float) -> None:
        if self.since + seconds >= CHANNEL_MESSAGES.window:
            await eventually(lambda: len(self.dc.responses) >= len(self.dc.requests), timeout=WAIT)
            for _ in range(5):  # discord.py reads the last answers' rate-limit headers
                await asyncio.sleep(0)
            left = self.dc.limits.reset_after("POST", "/channels/{channel_id}/messages", str(self.channel))
            assert left <= CHANNEL_MESSAGES.window
            self.loop_time.jump(left)
            await asyncio.sleep(0)  # what was due by the window's end runs
            self.since = 0.0
        self.since += seconds
        self.dc.advance(seconds)


@pytest.mark.long(4)
@pytest.mark.asyncio
@pytest.mark.parametrize("players", [20, 50])
async def test_a_crowded_discord_channel_sees_every_draw_and_result_in_time(
    storage: SQLiteStorage, players: int
) -> None:
    loop = asyncio.get_running_loop()
    loop_time = LoopTime(loop)
    try:
        await crowded_channel(storage, players, loop, loop_time)
    finally:
        loop_time.close()


async def crowded_channel(
    storage: SQLiteStorage, players: int, loop: asyncio.AbstractEventLoop, loop_time: LoopTime
) -> None:
    async with FakeDiscord() as dc:
        guild = dc.add_guild(name="Club", channels=("partie",))
        referee_user = dc.add_user(username="arbitre", global_name="Arbitre")
        dc.add_member(guild, referee_user, admin=True)
        people = [dc.add_user(username=f"p{i + 1:02d}", global_name=f"P{i + 1:02d}") for i in range(players)]
        for person in people:
            dc.add_member(guild, person)
        adapter = DiscordAdapter(
            Referee(storage, LEXICONS, now=dc.now), message_content=True, tick_seconds=0.05, clock=dc.now
        )
        async with running_bot(dc, adapter.client):
            await adapter.sync(guild.id)
            channel = guild.channel_id
            time = BucketTime(dc, channel, loop_time)
            opened = loop.time()
            iid = await dc.send_interaction("duplicate", {"args": "1"}, user=referee_user, channel_id=channel)
            draw, delay = await seen_within(dc, lambda r: is_draw(r, 1), opened)
            draw_delays = [delay]
            result_delays: list[float] = []
            per_round: list[int] = []
            acks = 0
            start = len(dc.log.records)
            for number in range(1, ROUNDS + 1):
                deadline = deadline_of(draw)
                for person in people:
                    await time.advance(ROUND_SECONDS / (4 * players))  # 15 s of it: real time passes too
                    iid = await dc.send_interaction(
                        "play", {"position": "H8", "word": "ZZZ"}, user=person, channel_id=channel
                    )
                    # the bucket's time runs while the answer is awaited, as it would in a real round
                    ack = await loop_time.hurried(
                        dc.wait_for_response(
                            iid, lambda r: r.ephemeral and "coup" in (r.text or "").lower(), timeout=WAIT
                        ),
                        at_most=CHANNEL_MESSAGES.window,
                    )
                    assert f"coup {number}" in (ack.text or "").lower()
                    acks += 1
                assert dc.now() < deadline - WARNING_SECONDS  # every move in before the warning
                await time.advance(deadline - WARNING_SECONDS + 1 - dc.now())  # the warning, 30 s before the close
                # the warning may wait for the channel's window (a counter's edit took its last post): the
                # bucket's time runs while it is awaited, as it would in a real round
                await loop_time.hurried(
                    dc.log.wait_for(saying(f"Coup {number} : plus que"), timeout=WAIT),
                    at_most=CHANNEL_MESSAGES.window,
                )
                mark = len(dc.limits.taken)
                await time.advance(ROUND_SECONDS)  # past the deadline: the round closes, the next one opens
                closed = loop.time()
                result_delays.append((await seen_within(dc, numbered(is_result, number), closed))[1])
                if number < ROUNDS:
                    draw, delay = await seen_within(dc, functools.partial(is_draw, number=number + 1), closed)
                    draw_delays.append(delay)
                # What the close posted in the channel, as the channel's bucket counted it: the next draw
                # first, and everything up to the results within the bucket's first window (a fresh one),
                # so neither waited for the bucket, nor for a 429 (none served: asserted below).
                posts = channel_posts(dc, channel, mark)
                texts = [text for _, text in posts]
                results_at = next(i for i, text in enumerate(texts) if is_result(text, number))
                if number < ROUNDS:
                    assert f"Coup {number + 1} — tirage :" in texts[0], texts
                assert [t.remaining for t, _ in posts[: results_at + 1]] == list(
                    range(CHANNEL_MESSAGES.limit - 1, CHANNEL_MESSAGES.limit - 2 - results_at, -1)
                ), posts
                await loop_time.hurried(  # the counter's exact count, an edit of its own that nothing waits for
                    dc.log.wait_for(  # (the results say it too: their first line)
                        counted_after(start, number, players),
                        actions=("send", "edit"),
                        timeout=WAIT,
                        consume=False,
                    ),
                    at_most=CHANNEL_MESSAGES.window,
                )
                # the close's images, drawn after its results (off the clock: real time) and posted after them; a
                # real minute leaves them the time the test's compressed minute may not
                await loop_time.hurried(
                    dc.log.wait_for(
                        standings_image_after(start, number),
                        timeout=WAIT,
                        consume=False,
                    ),
                    at_most=CHANNEL_MESSAGES.window,
                )
                public = [r for r in dc.log.records[start:] if not r.ephemeral and r.action in ("send", "edit")]
                counter = [r for r in public if (r.text or "").startswith(f"Coup {number} :") and not r.files]
                counts = [count_line(r.text or "") for r in counter]
                assert counts
                assert counts[-1] == (players, players)
                # one counter message, then at most one edit per live interval of the minute, and the close's
                assert len(counts) <= 1 + math.ceil(ROUND_SECONDS / LIVE_INTERVAL) + 1, len(counts)
                per_round.append(len(public))
                start = len(dc.log.records)
            assert acks == ROUNDS * players  # every acknowledgement arrived
            game = storage.games(f"discord:{channel}")[-1]
            plays = [e.data for e in storage.events(game.id) if e.data.get("kind") == "submit"]
            assert len(plays) == ROUNDS * players  # nothing lost
            # the service stops before the bot does, the loop's time running as for the answers
            await loop_time.hurried(adapter.service.stop(), at_most=CHANNEL_MESSAGES.window)
        print(
            f"discord, {players} players: draws after {[round(d, 2) for d in draw_delays]} s, results after"
            f" {[round(d, 2) for d in result_delays]} s, public posts and edits per round {per_round},"
            f" requests counted by the limits {len(dc.limits.taken)}, 429s {len(dc.throttled)}"
        )
        assert not dc.throttled, dc.throttled  # discord.py never had to sleep out a 429
        # nor to hold back a draw or results: what waited for the channel's next window, behind a request that
        # took the bucket's last one, was an edit or an image (50 players: the draw, the closed notice and the
        # results' three posts take a window; the counter's last edit and the two images go in the next)
        counted = channel_posts(dc, channel, 0)
        held = [text for (taken, _), (_, text) in zip(counted, counted[1:]) if taken.remaining == 0]
        assert not any("— tirage" in text for text in held), held
