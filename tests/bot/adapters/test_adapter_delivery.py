"""The delivery every adapter shares (bot/adapters/base.py), on a platform in memory (bot/adapters/memory.py):
one account's commands in the order they came, a batch's order, retries through the outbox, edits, private
replies, and what a platform cannot show. What each platform does of its own is tested against its fake."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from bot.adapters.base import Adapter, Countdown, PrivateReplies
from bot.adapters.console.room import ConsoleRoom
from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.adapters.memory import EVERYTHING, Action, MemoryAdapter, RefusedError, Request
from bot.adapters.ordering import Turn
from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.chat import Incoming, Reply
from bot.outbox import Failure
from tests.club import Club
from tests.loop_time import LoopTime

ROOM = "memory:1"
ANA = "memory:7"
TURNS = 200  # turns of the event loop a test lets go by for what is due now (no clock moves)


def incoming(text: str) -> Incoming:
    return Incoming(ROOM, ANA, "Ana", text)


async def settled(condition: Callable[[], bool]) -> None:
    """Let the event loop run what is ready until ``condition`` holds."""
    for _ in range(TURNS):
        if condition():
            return
        await asyncio.sleep(0)
    assert condition()


def waiting(club: Club) -> int:
    """How many messages to memory channels wait in the outbox."""
    return sum(b.waiting for b in club.storage.outbox_backlog() if b.platform == "memory")


@pytest.mark.asyncio
async def test_every_adapter_keeps_the_contract(club: Club, tmp_path: Path) -> None:
    adapters: list[Adapter] = [
        MemoryAdapter(club.referee),
        ConsoleRoom(club.referee, io.StringIO(), tmp_path, "Ana"),
        DiscordAdapter(club.referee),
        TelegramAdapter(club.referee, "123:abc"),
    ]
    assert all(isinstance(adapter, Adapter) for adapter in adapters)  # the protocol, at run time too
    assert [a.platform for a in adapters] == ["memory", "console", "discord", "telegram"]
    assert [a.capabilities.countdowns for a in adapters[1:]] == [Countdown.PRINTED, Countdown.NATIVE, Countdown.EDITED]
    private = [a.capabilities.private for a in adapters[1:]]
    assert private == [PrivateReplies.NAMED, PrivateReplies.EPHEMERAL, PrivateReplies.PRIVATE_CHAT]


@pytest.mark.asyncio
async def test_one_accounts_commands_are_answered_in_the_order_they_came(club: Club) -> None:
    adapter = MemoryAdapter(club.referee)
    looked_up = asyncio.Event()
    second_in = asyncio.Event()

    async def first(turn: Turn) -> None:
        await looked_up.wait()  # something asked of the platform first (a group's administrators)
        await adapter.receive(incoming("/calcul H8 ZAX"), turn)

    async def second(turn: Turn) -> None:
        second_in.set()
        await adapter.receive(incoming("/calcul H8 VAGUE"), turn)

    tasks = [asyncio.create_task(adapter.arriving(ANA, first)), asyncio.create_task(adapter.arriving(ANA, second))]
    await second_in.wait()
    looked_up.set()
    await asyncio.gather(*tasks)
    assert [text.split("\n")[0] for text in adapter.seen_in(ROOM)] == [
        "Calcul (non enregistré) : H8 ZAX",
        "Calcul (non enregistré) : H8 VAGUE",
    ]
    assert len(adapter.arrivals) == 0


@pytest.mark.asyncio
async def test_a_long_batch_goes_what_players_must_see_first(club: Club) -> None:
    adapter = MemoryAdapter(club.referee, burst=3)
    results, standings = Reply("Résultats", channel=ROOM), Reply("Classement", channel=ROOM)
    warning = Reply("30 secondes", channel=ROOM, expires=2e9)
    draw = Reply("Coup 2", channel=ROOM, deadline=2e9)
    await adapter.deliver([results, standings, warning])
    assert adapter.seen_in(ROOM) == ["Résultats", "Classement", "30 secondes"]  # a short batch keeps its order
    await adapter.deliver([results, standings, warning, draw])
    assert adapter.seen_in(ROOM)[3:] == ["Coup 2\n⏳ <2e+09>", "30 secondes", "Résultats", "Classement"]


@pytest.mark.asyncio
async def test_a_reply_refused_for_now_is_sent_again_by_the_outbox(club: Club) -> None:
    refusals = [RefusedError("connection reset")]

    def platform(request: Request) -> None:
        if refusals:
            raise refusals.pop()

    adapter = MemoryAdapter(club.referee, platform)
    await adapter.arriving(ANA, partial(adapter.receive, incoming("/calcul H8 ZAX")))
    assert adapter.seen_in(ROOM) == []
    assert waiting(club) == 1
    assert await adapter.service.flush_outbox(everything=True) == 1
    assert [r.text.split("\n")[0] for r in adapter.requests] == ["Calcul (non enregistré) : H8 ZAX"] * 2
    assert len(adapter.seen_in(ROOM)) == 1
    assert waiting(club) == 0


@pytest.mark.asyncio
async def test_a_reply_refused_for_good_is_a_dead_letter(club: Club) -> None:
    def platform(request: Request) -> None:
        raise RefusedError("message too long", permanent=True)

    adapter = MemoryAdapter(club.referee, platform)
    await adapter.arriving(ANA, partial(adapter.receive, incoming("/calcul H8 ZAX")))
    assert [letter.reason for letter in club.storage.dead_letters(ROOM, 0.0)] == ["memory: message too long"]
    assert await adapter.service.flush_outbox(everything=True) == 0
    assert len(adapter.requests) == 1


@pytest.mark.asyncio
async def test_a_message_is_edited_only_when_its_text_changes(club: Club) -> None:
    adapter = MemoryAdapter(club.referee)
    for text in ["Coup 1 : personne n'a joué", "Coup 1 : 1 a joué", "Coup 1 : 1 a joué"]:
        assert await adapter.deliver([Reply(text, channel=ROOM, edit_key="count")]) == []
    assert [(r.action, r.message) for r in adapter.requests] == [(Action.POST, None), (Action.EDIT, 1)]
    assert adapter.seen_in(ROOM) == ["Coup 1 : 1 a joué"]


@pytest.mark.asyncio
async def test_where_posts_and_edits_share_a_bucket_a_batchs_edits_go_after_its_posts(club: Club) -> None:
    in_order, posts_first = MemoryAdapter(club.referee), MemoryAdapter(club.referee)
    posts_first.edits_after_posts = True  # as on Discord
    for adapter in (in_order, posts_first):
        await adapter.deliver([Reply("Coup 1 — tirage : ACEHNTZ", channel=ROOM, edit_key="draw")])
        await adapter.deliver([Reply("Coup 1 — terminé", channel=ROOM, edit_key="draw"), Reply("Coup 2", channel=ROOM)])
    assert [r.action for r in in_order.requests] == [Action.POST, Action.EDIT, Action.POST]
    assert [r.action for r in posts_first.requests] == [Action.POST, Action.POST, Action.EDIT]
    assert posts_first.seen_in(ROOM) == in_order.seen_in(ROOM) == ["Coup 1 — terminé", "Coup 2"]


@pytest.mark.asyncio
async def test_a_live_line_is_edited_once_an_interval_the_latest_text_winning(club: Club) -> None:
    time = LoopTime()
    try:
        adapter = MemoryAdapter(club.referee, live_interval=5.0, clock=time.now)
        await adapter.deliver([Reply("personne n'a joué", channel=ROOM, edit_key="count")])
        for text in ["1 a joué", "2 ont joué"]:
            await adapter.deliver([Reply(text, channel=ROOM, edit_key="count", live=True)])
        assert adapter.seen_in(ROOM) == ["personne n'a joué"]  # within the interval: nothing edited yet
        await asyncio.sleep(0)  # the edit's timer starts waiting for the interval's end
        time.jump(5.0)
        await settled(lambda: adapter.seen_in(ROOM) == ["2 ont joué"])
        assert [r.text for r in adapter.requests if r.action is Action.EDIT] == ["2 ont joué"]
    finally:
        time.close()


@pytest.mark.asyncio
async def test_a_lower_count_delivered_after_the_closes_count_is_left_out(club: Club) -> None:
    """The outbox worker may hand over a counter's older update after the close's count (its claim came
    first): older by its outbox number, it is not shown, and no timer shows it later (issue 36: the count
    exact at the results)."""
    time = LoopTime()
    try:
        adapter = MemoryAdapter(club.referee, live_interval=5.0, clock=time.now)
        first, lower, final = club.referee.outbox.enqueue(
            [
                Reply("1 of 50 played", channel=ROOM, edit_key="count"),
                Reply("49 of 50 played", channel=ROOM, edit_key="count", live=True),
                Reply("50 of 50 played", channel=ROOM, edit_key="count"),
            ]
        )
        await adapter.deliver([first])
        await adapter.deliver([final])
        assert adapter.seen_in(ROOM) == ["50 of 50 played"]
        await adapter.deliver([lower])
        await asyncio.sleep(0)
        time.jump(10.0)
        for _ in range(TURNS):
            await asyncio.sleep(0)
        assert adapter.seen_in(ROOM) == ["50 of 50 played"]
        assert [r.text for r in adapter.requests if r.action is Action.EDIT] == ["50 of 50 played"]
    finally:
        time.close()


@pytest.mark.asyncio
async def test_an_edit_refused_is_owed_and_the_old_text_stays(club: Club) -> None:
    refuse = [True]

    def platform(request: Request) -> None:
        if request.action is Action.EDIT and refuse[0]:
            raise RefusedError("connection reset")

    adapter = MemoryAdapter(club.referee, platform)
    await adapter.deliver([Reply("Coup 1 — tirage : ACEHNTZ", channel=ROOM, edit_key="draw")])
    closed = Reply("Coup 1 — terminé", channel=ROOM, edit_key="draw")
    failed = await adapter.deliver([closed])
    assert [(f.reply, f.failure) for f in failed] == [(closed, Failure.TRANSIENT)]
    assert adapter.seen_in(ROOM) == ["Coup 1 — tirage : ACEHNTZ"]
    refuse[0] = False
    assert await adapter.deliver([closed]) == []
    assert adapter.seen_in(ROOM) == ["Coup 1 — terminé"]


@pytest.mark.asyncio
async def test_a_private_reply_goes_to_its_player_only(club: Club) -> None:
    adapter = MemoryAdapter(club.referee)
    await adapter.deliver([Reply("H8 VAGUE : 24 points", to_user=ANA, channel=ROOM), Reply("1 a joué", channel=ROOM)])
    assert adapter.seen_by(ANA) == ["H8 VAGUE : 24 points"]
    assert adapter.seen_in(ROOM) == ["1 a joué"]
    assert [(r.channel, r.user) for r in adapter.requests] == [(None, ANA), (ROOM, None)]


@pytest.mark.asyncio
async def test_what_a_platform_cannot_show_is_left_out_and_long_text_cut(club: Club) -> None:
    adapter = MemoryAdapter(club.referee, capabilities=replace(EVERYTHING, images=False, text_limit=200))
    board = Reply("Grille :\n" + "A" * 120 + "\n" + "B" * 120, image=b"PNG", channel=ROOM, document=b"GCG")
    assert await adapter.deliver([board]) == []
    assert [(r.text, r.image, r.document) for r in adapter.requests] == [
        ("Grille :\n" + "A" * 120, None, b"GCG"),
        ("B" * 120, None, None),
    ]


@pytest.mark.asyncio
async def test_the_time_left_is_shown_unless_the_platform_only_prints_the_text(club: Club) -> None:
    draw = Reply("Coup 1", channel=ROOM, deadline=1000.0)
    assert MemoryAdapter(club.referee).render(draw) == "Coup 1\n⏳ <1000>"  # drawn by the clients
    printed = MemoryAdapter(club.referee, capabilities=replace(EVERYTHING, countdowns=Countdown.PRINTED))
    assert printed.render(draw) == "Coup 1"


@pytest.mark.asyncio
async def test_where_clients_draw_no_countdown_the_time_left_is_edited_at_each_step(club: Club) -> None:
    time = LoopTime()
    try:
        edited = replace(EVERYTHING, countdowns=Countdown.EDITED)
        adapter = MemoryAdapter(club.referee, capabilities=edited, edit_interval=10.0, clock=time.now)
        await adapter.deliver([Reply("Coup 1", channel=ROOM, edit_key="draw", deadline=time.now() + 30.0)])
        assert adapter.seen_in(ROOM) == ["Coup 1\n⏳ 0:30"]
        await asyncio.sleep(0)  # the countdown starts waiting for its next step
        time.jump(10.0)
        await settled(lambda: adapter.seen_in(ROOM) == ["Coup 1\n⏳ 0:20"])
        time.jump(20.0)
        await settled(lambda: adapter.seen_in(ROOM) == ["Coup 1\n⌛ 0:00"])
        await settled(lambda: adapter.tracked.values()[0].countdown is None)  # over with the deadline
        assert [r.text for r in adapter.requests] == ["Coup 1\n⏳ 0:30", "Coup 1\n⏳ 0:20", "Coup 1\n⌛ 0:00"]
    finally:
        time.close()
