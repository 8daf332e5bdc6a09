"""The Discord adapter when the platform gets in the way: a rate-limited answer retried with the move recorded
once, closed DMs answered with a public pointer (in the channel's language) that never shows the private text, long
texts split on lines with balanced code fences, and an edited message edited only on change and at most once per
interval."""

from __future__ import annotations

import time

import pytest

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.text import split_text
from bot.chat import Reply
from bot.storage import SQLiteStorage
from tests.bot.adapters.discord.discord_adapter_club import AdapterDiscord, answer, plays, public_texts, slash
from tests.bot.adapters.discord.discord_adapter_club import adapter as adapter  # the club's adapter
from tests.bot.adapters.discord.discord_adapter_club import dc as dc  # the club's fake Discord
from tests.bot.adapters.discord.discord_adapter_club import no_logged_errors as no_logged_errors  # autouse
from tests.waiting import DrivenClock

# --- platform failures -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_rate_limited_answer_is_retried_and_the_move_recorded_once(
    dc: AdapterDiscord, adapter: DiscordAdapter, storage: SQLiteStorage
) -> None:
    iid = await slash(dc, "new", "Ana Ben")
    await answer(dc, iid)
    dc.rate_limit_next("POST /interactions/{interaction_id}/{interaction_token}/callback", retry_after=0.05)
    iid = await slash(dc, "score", "H8 VAGUE")
    assert "= 20" in (await answer(dc, iid)).text
    callbacks = [r for r in dc.requests if r[0] == "POST" and r[1].startswith(f"/interactions/{iid}/")]
    assert len(callbacks) == 2
    assert len(plays(storage, dc.channel)) == 1


@pytest.mark.asyncio
async def test_closed_dms_get_a_public_pointer_not_the_private_text(
    dc: AdapterDiscord, adapter: DiscordAdapter
) -> None:
    channel = f"discord:{dc.channel}"
    await adapter.deliver(
        [
            Reply("SECRET for Ben", to_user=f"discord:{dc.ben.id}", channel=channel),
            Reply("SECRET for Cleo", to_user=f"discord:{dc.cleo.id}", channel=channel),
        ]
    )
    assert (await dc.wait_for_dm(dc.ben)).text == "SECRET for Ben"
    note = await dc.wait_for_message(channel_id=dc.channel)
    assert f"<@{dc.cleo.id}>" in note.text
    assert "/jouer" in note.text
    assert "MP fermés" in note.text
    assert "SECRET" not in note.text
    assert note.payload["allowed_mentions"]["parse"] == []
    assert not any("SECRET for Cleo" in text for text in public_texts(dc))


@pytest.mark.asyncio
async def test_the_closed_dms_pointer_speaks_the_channel_language(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    channel = f"discord:{dc.channel}"
    storage = adapter.referee.storage
    storage.save_channel(storage.channel(channel).with_changes(language="en"))
    await adapter.deliver([Reply("SECRET for Cleo", to_user=f"discord:{dc.cleo.id}", channel=channel)])
    note = await dc.wait_for_message(channel_id=dc.channel)
    assert f"<@{dc.cleo.id}>" in note.text
    assert "use /play here" in note.text
    assert "/jouer" not in note.text


@pytest.mark.asyncio
async def test_long_text_is_split_on_lines_with_balanced_code_fences(
    dc: AdapterDiscord, adapter: DiscordAdapter
) -> None:
    lines = [f"ligne {n:03d} " + "x" * 40 for n in range(120)]
    text = "Feuille :\n```\n" + "\n".join(lines) + "\n```\nFin."
    assert not await adapter.deliver([Reply(text, channel=f"discord:{dc.channel}")])  # every part sent when it returns
    sent = dc.messages_in(dc.channel)
    assert len(sent) >= 3
    for message in sent:
        assert len(message.text) <= 2000
        assert message.text.count("```") % 2 == 0
    joined = "\n".join(m.text for m in sent)
    assert [sheet_line for sheet_line in joined.split("\n") if sheet_line.startswith("ligne")] == lines
    assert joined.endswith("Fin.")


def test_split_text_unit_cases() -> None:
    assert split_text("", 10) == []
    assert split_text("abc", 10) == ["abc"]
    chunks = split_text("a\n```\n" + "\n".join("0123456789" for _ in range(10)) + "\n```\nb", 40)
    assert all(len(c) <= 40 and c.count("```") % 2 == 0 for c in chunks)
    assert "".join(chunks).count("0123456789") == 10
    assert all(len(c) <= 30 for c in split_text("y" * 100, 30))
    assert "".join(split_text("y" * 100, 30)) == "y" * 100


@pytest.mark.asyncio
async def test_edit_key_edits_only_on_change_and_throttled(dc: AdapterDiscord, adapter: DiscordAdapter) -> None:
    pace = DrivenClock()
    adapter.pace_clock = pace  # the interval between two edits counts on a clock only the test moves
    channel = f"discord:{dc.channel}"
    deadline = time.time() + 60
    await adapter.deliver([Reply("Tirage 1", channel=channel, edit_key="r1", deadline=deadline)])
    first = await dc.wait_for_message(channel_id=dc.channel)
    assert first.text == f"Tirage 1\n⏳ <t:{int(deadline)}:R>"
    await adapter.deliver([Reply("Tirage 1", channel=channel, edit_key="r1", deadline=deadline)])  # same text
    await adapter.deliver([Reply("Tirage 1 (b)", channel=channel, edit_key="r1", deadline=deadline)])
    await adapter.deliver([Reply("Tirage 1 (c)", channel=channel, edit_key="r1", deadline=deadline)])
    # within the interval: held (an edit made at once is made before ``deliver`` returns)
    assert dc.log.select(dc.channel, ("edit",)) == []
    pace.advance(adapter.edit_interval)  # the interval is over: the latest text goes, those between never
    edit = await dc.wait_for_edit(channel_id=dc.channel, timeout=2)
    assert edit.text.startswith("Tirage 1 (c)")
    assert edit.message_id == first.message_id
    await adapter.deliver([Reply("Tirage 1 : clos", channel=channel, edit_key="r1")])  # no deadline: at once
    assert (await dc.wait_for_edit(channel_id=dc.channel, timeout=0.5)).text == "Tirage 1 : clos"
    assert len(dc.log.select(dc.channel, ("edit",))) == 2
