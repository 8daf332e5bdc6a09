"""How the Discord adapter paces a batch for a channel's bucket (bot/adapters/discordbot/pacing.py): the order,
the notes that ride along with the post before them, and what the outbox hears when such a post fails
(real discord.py against the fake, the adapter's own ``deliver``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.discordbot.adapter import TEXT_LIMIT, DiscordAdapter
from bot.adapters.discordbot.pacing import merged
from bot.adapters.ordering import first_things_first
from bot.chat import Reply
from bot.outbox import Failure
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeDiscord, running_bot
from tests.ready_lists import ready_registry

CHANNEL = "discord:1"


def untracked(reply: Reply) -> bool:
    return False


def test_draws_then_warnings_then_the_rest_each_in_its_order() -> None:
    results = Reply("results", channel=CHANNEL, image=b"png")
    warning = Reply("30 s left", channel=CHANNEL, expires=100.0)
    closed = Reply("round 1 closed", channel=CHANNEL, edit_key="dup-1-1")
    draw = Reply("round 2", channel=CHANNEL, edit_key="dup-1-2", deadline=160.0)
    counter = Reply("3 of 3", channel=CHANNEL, edit_key="count", live=True, expires=100.0)
    batch = [counter, closed, results, warning, draw]
    assert first_things_first(batch, untracked) == [draw, warning, counter, closed, results]
    # a deadline that edits a message already sent (a new countdown) is no new draw: it keeps its place
    assert first_things_first(batch, lambda r: r.edit_key == "dup-1-2")[:2] == [warning, counter]


def test_a_text_note_rides_along_with_the_plain_post_before_it_when_both_fit() -> None:
    standings = Reply("standings", channel=CHANNEL, image=b"png")
    hint = Reply("3 moves make the top", channel=CHANNEL)
    posts = merged([standings, hint], TEXT_LIMIT)
    assert [(p.reply.text, p.reply.image, p.carries) for p in posts] == [
        ("standings\n\n3 moves make the top", b"png", (standings, hint))
    ]
    # never into a message that is edited later, a private one, another channel's, or past the limit
    tracked = Reply("draw", channel=CHANNEL, edit_key="dup-1-2")
    private = Reply("yours", channel=CHANNEL, to_user="discord:7")
    elsewhere = Reply("there", channel="discord:2")
    long = Reply("x" * (TEXT_LIMIT - 5), channel=CHANNEL)
    for first in (tracked, private, elsewhere, long):
        assert len(merged([first, hint], TEXT_LIMIT)) == 2, first
    # and a note with an image, or a warning that may expire, goes on its own
    for second in (Reply("img", channel=CHANNEL, image=b"png"), Reply("soon", channel=CHANNEL, expires=1.0)):
        assert len(merged([standings, second], TEXT_LIMIT)) == 2, second


@pytest.mark.asyncio
async def test_a_refused_merged_post_is_refused_for_each_reply_it_carried(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "pacing.sqlite")
    try:
        async with FakeDiscord() as dc:
            guild = dc.add_guild(name="Club", channels=("partie",))
            channel = f"discord:{guild.channel_id}"
            adapter = DiscordAdapter(Referee(storage, ready_registry()), tick_seconds=0.05)
            async with running_bot(dc, adapter.client):
                first, second = Reply("standings", channel=channel), Reply("a hint", channel=channel)
                dc.fail_next("POST /channels/{channel_id}/messages", 400, 50035, "Invalid Form Body")
                refused = await adapter.deliver([first, second])
                assert [(u.reply, u.failure) for u in refused] == [
                    (first, Failure.PERMANENT),
                    (second, Failure.PERMANENT),
                ]
                assert await adapter.deliver([first, second]) == []
                assert [m.text for m in dc.messages_in(guild.channel_id)] == ["standings\n\na hint"]
    finally:
        storage.close()
