"""The live page, third round (issue 35, "The page"), read from the raw event streams of a real server while
games are played through the command layer: a game over is shown as over (``/end`` too, which sets the
game's record and not the game's own flag); a room's link follows the room to its next game; a page is sent
a frame only when what it shows changes (another room of its simultané playing on sends it none); a round
held for the other rooms of a simultané says so, with nothing of its answers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.bot.web.test_web_view import Stream
from tests.web_room import CHANNEL, WebRoom
from tests.web_simultane import FIRST_MOVES, answer, close_everywhere, create, link_in, plays_of, say_in

OTHER = "discord:200"  # a second room of the simultané


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[WebRoom]:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    yield room
    await room.stop()


async def state_where(stream: Stream, check: Any) -> dict[str, Any]:
    """The first state the stream brings for which ``check`` holds."""
    while True:
        state = await stream.state()
        if check(state):
            return state


def frames(stream: Stream) -> int:
    """The states the page has been sent so far."""
    return stream.raw.count(b"event: state")


async def settled(room: WebRoom) -> None:
    """Once the feeds woken by the commands so far have built and written what they would."""
    await asyncio.sleep(0)  # the wake-ups the commands asked for run in the loop
    while not room.hub.idle():
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_game_ended_by_the_referee_shows_game_over_with_no_draw_and_no_clock(room: WebRoom) -> None:
    await room.say("/duplicate 1", admin=True)  # the draws made by the bot: the next one comes at each close
    link = await room.link()
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        assert (await stream.state())["round"]["number"] == 1
        move, points = plays_of(room, CHANNEL)[0]
        await room.say(f"/jouer {move}", "Ana", private=True)
        await room.close_round()
        second = await state_where(stream, lambda s: s["round"] and s["round"]["number"] == 2)
        assert second["round"]["draw"]
        assert second["round"]["deadline"]
        assert not second["finished"]
        await room.say("/fin", admin=True)  # the record is ended; the game's own flag is not (round 2 unplayed)
        over = await stream.state()
        assert over["finished"]
        assert over["round"] is None
        assert over["last"]["number"] == 1
        assert over["standings"] == [{"place": 1, "player": "Ana", "total": points, "gap": 0}]
        assert (await room.say("/vue", admin=True))[0].text.endswith(link)  # no game running: the room's last one


@pytest.mark.asyncio
async def test_a_rooms_link_follows_the_room_to_its_next_game(room: WebRoom) -> None:
    await room.say("/duplicate 1 manuel", admin=True)
    await room.say("/tirage ACEHNTZ", admin=True)
    link = await room.link()
    first = room.storage.games(CHANNEL)[-1].id
    room.storage.create_view("an-old-link-of-the-first-game", CHANNEL, first, room.clock[0] + 1)  # another
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        assert (await stream.state())["game"] == first
        await room.say("/fin", admin=True)
        assert (await stream.state())["finished"]
        await room.say("/duplicate 1 manuel", admin=True)  # the room's next game
        await room.say("/tirage BCDFGAE", admin=True)
        shown = await state_where(stream, lambda s: s["round"] and s["round"]["draw"])
        second = room.storage.games(CHANNEL)[-1].id
        assert second != first
        assert shown["game"] == second
        assert not shown["finished"]
        assert shown["board"] == []
        assert sorted(t[0] for t in shown["round"]["draw"]["new"]) == sorted("BCDFGAE")
        assert await room.link() == link  # /vue gives the same link again
    old = link.rsplit("/", 1)[0] + "/an-old-link-of-the-first-game"
    async with aiohttp.ClientSession() as http, http.get(old + "/events") as response:
        assert (await Stream(response).state())["game"] == second  # an old link follows too


@pytest.mark.asyncio
async def test_another_rooms_answers_send_no_frame_to_a_page_they_do_not_change(room: WebRoom) -> None:
    """Two rooms of a simultané: the answers in this room change nothing the other room's page or the
    organiser's page shows (the overall ranking waits for round 1's close): they are sent no frame (before,
    one each: the other rooms' pages showed this room's pace)."""
    await create(room, {CHANNEL: "Vichy", OTHER: "Club de Sète"})
    theirs = link_in(await say_in(room, OTHER, "/vue", admin=True))
    organiser = link_in(await room.say("/vue simultane", "Org", admin=True))
    async with aiohttp.ClientSession() as http:
        async with http.get(theirs + "/events") as one, http.get(organiser + "/events") as two:
            page, whole = Stream(one), Stream(two)
            assert (await page.state())["round"]["played"] == 0
            assert (await whole.state())["overall"]["rounds"] == 0
            players = ["Ana", "Aa0", "Aa1", "Aa2"]
            for player, (move, _) in zip(players, FIRST_MOVES, strict=False):
                await answer(room, CHANNEL, player, move)  # this room's count changes, nothing of the other's
                await settled(room)  # each answer built on its own (the other room's feed woken each time)
            assert room.hub.unchanged >= 2 * len(players)
            await answer(room, OTHER, "Bertrand", "H8 CHANT")  # a change the other room's page shows
            counted = await page.state()
            assert counted["round"]["played"] == 1
            assert frames(page) == 2
            await close_everywhere(room, [CHANNEL, OTHER])  # round 1 closed in both: the ranking shows
            shown = await whole.state()
            assert shown["overall"]["rounds"] == 1
            assert frames(whole) == 2


@pytest.mark.asyncio
async def test_a_held_round_says_it_waits_and_shows_nothing_of_its_answers(room: WebRoom) -> None:
    await create(room, {CHANNEL: "Vichy", OTHER: "Club de Sète"})
    link = await room.link()
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        assert (await stream.state())["round"]["held"] is False
        await answer(room, CHANNEL, "Ana", "H6 CHANTEZ")
        await answer(room, OTHER, "Bertrand", "H4 CHANTEZ")
        await room.say("/cloture", admin=True)  # every player of this room answered: its time is up, it waits
        held = await state_where(stream, lambda s: s["round"]["held"])
        assert held["round"]["number"] == 1
        assert held["last"] is None
        assert [(s["player"], s["total"]) for s in held["standings"]] == [("Ana", 0)]
        assert b"CHANTEZ" not in stream.raw  # nothing of an answer, no top
        await say_in(room, OTHER, "/cloture", admin=True)  # the last room: it closes, the clock closes this one
        await room.service.tick()
        closed = await state_where(stream, lambda s: s["last"] is not None)
        assert closed["last"]["top"] == "H6 CHANTEZ"
        assert closed["round"]["number"] == 2
        assert closed["round"]["held"] is False


def room_games(storage: Any) -> None:
    """The game a room's link shows, through the store: its running game, else its last one."""
    from bot.storage import GameKind, GameSetup, GameStatus

    setup = GameSetup("fr", "fisf", "fr", "Ref")
    assert storage.room_game(CHANNEL) is None  # no game yet
    first = storage.create_game(CHANNEL, GameKind.DUPLICATE, "u:ref", setup)
    storage.create_game(OTHER, GameKind.DUPLICATE, "u:ref", setup)  # another room's, later
    assert storage.room_game(CHANNEL).id == first.id
    storage.set_game_status(first.id, GameStatus.ENDED)
    assert storage.room_game(CHANNEL).id == first.id  # over: still the room's last
    second = storage.create_game(CHANNEL, GameKind.CLASSIC, "u:ref", setup)
    assert storage.room_game(CHANNEL).id == second.id
    third = storage.create_game(CHANNEL, GameKind.DUPLICATE, "u:ref", setup, abandon_running=True)
    storage.set_game_status(third.id, GameStatus.ENDED)
    assert storage.room_game(CHANNEL).id == third.id


def test_a_rooms_game_sqlite(tmp_path: Path) -> None:
    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    try:
        room_games(storage)
    finally:
        storage.close()


def test_a_rooms_game_postgres(postgres_url: str) -> None:
    from bot.storage.sql.postgres import PostgresStorage

    storage = PostgresStorage(postgres_url)
    try:
        room_games(storage)
    finally:
        storage.close()
