"""The live pages, second round (issue 27), read from the raw event streams of a real server: a classic
game's clocks, a simultané's overall ranking (never before its visibility rule allows it, the organiser's
page), and the delivery that leaves the command path (coalesced, never waiting for a busy viewer)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.chat import Incoming, Reply
from bot.web.hub import Payload, Viewer
from tests.bot.web.test_web_view import Stream
from tests.web_room import LINK, WebRoom

OTHER = "discord:200"  # a second room of the simultané


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[WebRoom]:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    yield room
    await room.stop()


async def say_in(room: WebRoom, channel: str, text: str, user: str = "Boss", **options: Any) -> list[Reply]:
    """One message to another room than the fixture's."""
    message = Incoming(channel, f"u:{user.lower()}", user, text, **options)
    return await room.service.handle(message)


async def state_where(stream: Stream, check: Any) -> dict[str, Any]:
    """The first state the stream brings for which ``check`` holds (more may come: another room's change)."""
    while True:
        state = await stream.state()
        if check(state):
            return state


def link_in(replies: list[Reply]) -> str:
    found = [m.group(0) for r in replies for m in LINK.finditer(r.text)]
    assert len(found) == 1, [r.text for r in replies]
    return found[0]


# --- a classic game's clocks ------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_classic_game_streams_its_clocks_after_each_move_and_pause(room: WebRoom) -> None:
    await room.say("/nouvelle naspa Ana Ben", "Ana")
    await room.say("/reglages pendule 25", "Ana")
    link = await room.link()
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        first = (await stream.state())["clocks"]
        assert (first["mode"], first["running"], first["paused"]) == ("chess", "Ana", False)
        assert [p["left"] for p in first["players"]] == [25 * 60, 25 * 60]
        assert (first["overtime_per_minute"], first["overtime_limit"]) == (10, 10)  # NASPA: 10 a minute
        room.clock[0] += 90
        await room.say("/coup H8 VAGUE", "Ana")
        moved = await stream.state()
        assert moved["clocks"]["running"] == "Ben"
        assert [p["left"] for p in moved["clocks"]["players"]] == [25 * 60 - 90, 25 * 60]
        assert moved["now"] == room.clock[0]  # the page ticks Ben's clock from this moment
        room.clock[0] += 26 * 60  # Ben one minute over
        await room.say("/pause", admin=True)
        paused = (await stream.state())["clocks"]
        assert paused["paused"]
        assert paused["running"] is None
        ben = paused["players"][1]
        assert (ben["left"], ben["points"]) == (-60, 10)  # as /status shows it: "+1:00 (overtime, -10)"


# --- a simultané's overall ranking ------------------------------------------------------------


async def simultane_of_two(room: WebRoom) -> str:
    """A simultané the fixture's room organises and plays, joined by ``OTHER``; its code."""
    created = await room.say("/simultane creer 1 tirages ACEHNTZ", "Org", admin=True)
    words = [m.group(1) for r in created for m in re.finditer(r"\b([A-Z2-9]{6})\b", r.text)]
    code = next(w for w in words if w != "ACEHNTZ")
    await room.say(f"/simultane rejoindre {code}", "Org", admin=True)
    await say_in(room, OTHER, f"/simultane rejoindre {code} Club de Vichy", admin=True)  # its centre's name
    return code


@pytest.mark.asyncio
async def test_no_other_rooms_name_or_score_before_the_rule_allows_the_overall_ranking(room: WebRoom) -> None:
    code = await simultane_of_two(room)
    own = await room.link()
    organiser = link_in(await room.say("/vue simultane", "Org", admin=True))
    assert code in (await room.say("/vue simultane", "Org", admin=True))[0].text  # the same link, again
    async with aiohttp.ClientSession() as http:
        async with http.get(own + "/events") as mine, http.get(organiser + "/events") as overall:
            page, whole = Stream(mine), Stream(overall)
            assert (await page.state())["overall"] == {
                "code": code,
                "window": False,
                "rounds": 0,
                "rooms": 2,
                "standings": [],
            }
            first = await whole.state()
            assert first["kind"] == "simultane"
            assert first["overall"]["rounds"] == 0
            await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
            await say_in(room, OTHER, "/jouer H8 CHANT", "Bertrand", private=True)
            await say_in(room, OTHER, "/cloture", admin=True)  # its time is up: it waits for this room (paced)
            await room.say("/cloture", "Org", admin=True)  # this room closes round 1, the other not yet
            closed = await state_where(page, lambda s: s["last"] is not None)
            assert closed["last"]["results"][0]["player"] == "Ana"
            assert closed["overall"]["rounds"] == 0
            async with http.get(organiser) as html:
                body = await html.text()
            for raw in (page.raw.decode(), whole.raw.decode(), body):
                assert "Bertrand" not in raw
                assert "H8 CHANT" not in raw
                assert '"total":22' not in raw

            await room.service.tick()  # the clock closes the round the other room held: the rule allows it
            shown = (await state_where(page, lambda s: s["overall"]["rounds"]))["overall"]
            await state_where(whole, lambda s: s["overall"]["rounds"])
            assert shown["rounds"] == 1
            said = (await room.say("/simultane classement", "Zoé"))[0].text  # what the chat shows, the same
            rows = [re.split(r"\s{2,}", line.strip())[:4] for line in said.split("```")[1].strip().splitlines()[2:]]
            assert [[str(s["place"]), s["player"], s["room"], str(s["total"])] for s in shown["standings"]] == rows
            rooms = [(s["player"], s["room"]) for s in shown["standings"]]
            assert rooms == [("Ana", "Salon 1"), ("Bertrand", "Club de Vichy")]  # never a channel's key
            assert "Bertrand" in whole.raw.decode()  # the organiser's page updated on the other room's close


@pytest.mark.asyncio
async def test_a_windows_ranking_shows_on_the_organisers_page_when_the_window_ends(room: WebRoom) -> None:
    """A window (the room's clock is 09:00 in Paris, the window 10:00 to 12:00): each room plays at its own
    time; the overall ranking is hidden until 12:00, then shown with no event, at the server's next round
    of keep-alives."""
    created = await room.say("/simultane creer 2027-01-15T10:00 2027-01-15T12:00 tirages ACEHNTZ", "Org", admin=True)
    words = [m.group(1) for r in created for m in re.finditer(r"\b([A-Z2-9]{6})\b", r.text)]
    code = next(w for w in words if w != "ACEHNTZ")
    link = link_in(await room.say("/vue simultane", "Org", admin=True))
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        whole = Stream(response)
        assert (await whole.state())["overall"]["window"] is True
        for channel, player, move in (("discord:100", "Ana", "H4 CHANTEZ"), (OTHER, "Bertrand", "H8 CHANT")):
            room.clock[0] += 3600  # each room at its own time in the window
            await say_in(room, channel, f"/simultane rejoindre {code}", admin=True)
            if channel == OTHER:  # a window's room waits for the organiser's word
                await room.say(f"/simultane admettre {code} 2", "Org", admin=True)
            await say_in(room, channel, "/simultane commencer", admin=True)
            await say_in(room, channel, f"/jouer {move}", player, private=True)
            await say_in(room, channel, "/cloture", admin=True)
        await room.hub.keep_alive()
        while not room.hub.idle():  # the feeds have built and written what they would
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # and the client has read it
        whole.raw += response.content.read_nowait()
        assert b"Bertrand" not in whole.raw
        assert b"Ana" not in whole.raw
        assert whole.raw.count(b"event: state") >= 2
        room.clock[0] += 3600  # 12:00: the window has ended
        await room.hub.keep_alive()
        shown = await state_where(whole, lambda s: s["overall"]["rounds"])
        assert [s["player"] for s in shown["overall"]["standings"]] == ["Ana", "Bertrand"]


@pytest.mark.asyncio
async def test_a_windows_end_reaches_the_organisers_page_at_the_clocks_tick(room: WebRoom) -> None:
    """The clock's tick that posts the window's end wakes the organiser's page at once: its state arrives
    with no keep-alive (the server's, every 15 s, are stopped here); the test's clock alone moves."""
    created = await room.say("/simultane creer 2027-01-15T10:00 2027-01-15T12:00 tirages ACEHNTZ", "Org", admin=True)
    words = [m.group(1) for r in created for m in re.finditer(r"\b([A-Z2-9]{6})\b", r.text)]
    code = next(w for w in words if w != "ACEHNTZ")
    link = link_in(await room.say("/vue simultane", "Org", admin=True))
    keeper = room.server._keeper
    assert keeper is not None
    keeper.cancel()  # no keep-alive at all in this test: only the tick can bring the state
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        whole = Stream(response)
        assert (await whole.state())["overall"]["rounds"] == 0
        room.clock[0] += 3600  # 10:00: the window opens
        await say_in(room, OTHER, f"/simultane rejoindre {code} Club de Vichy", admin=True)
        await room.say(f"/simultane admettre {code} 1", "Org", admin=True)  # a window's room waits for it
        await say_in(room, OTHER, "/simultane commencer", admin=True)
        await say_in(room, OTHER, "/jouer H8 CHANT", "Bertrand", private=True)
        await say_in(room, OTHER, "/cloture", admin=True)
        room.clock[0] += 2 * 3600  # 12:00: the window has ended
        built = room.hub.states_built
        posted = await room.service.tick()  # the tick posts the overall ranking to the organiser's room
        assert any(r.channel == "discord:100" and "Bertrand" in r.text for r in posted)
        shown = await asyncio.wait_for(state_where(whole, lambda s: s["overall"]["rounds"]), 5)
        assert [(s["player"], s["room"]) for s in shown["overall"]["standings"]] == [("Bertrand", "Club de Vichy")]
        assert room.hub.states_built > built  # built for the tick's post


@pytest.mark.asyncio
async def test_only_the_organisers_room_gets_the_simultane_page(room: WebRoom) -> None:
    code = await simultane_of_two(room)
    refused = await say_in(room, OTHER, f"/vue simultane {code}", admin=True)
    assert refused[0].error
    assert "/v/" not in refused[0].text
    assert f"simultané {code}" in refused[0].text
    unknown = await room.say("/vue simultane ZZZZZZ", "Org", admin=True)
    assert unknown[0].error
    assert "ZZZZZZ" in unknown[0].text
    assert room.storage.simultane_views("discord:100") == []
    link = link_in(await room.say(f"/vue simultane {code.lower()}", "Org", admin=True))
    await room.say("/vue stop", admin=True)  # revokes the room's links, the simultané's page's too
    async with aiohttp.ClientSession() as http, http.get(link) as gone:
        assert gone.status == 404


# --- the delivery, off the command path -------------------------------------------------------


class BusyLink:
    """A viewer's connection that takes nothing at once (a page on a slow network): the transport's side
    of the hub's writes, which the test plays."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.free = False
        self.held = 0

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def room(self) -> bool:
        return self.free

    def buffered(self) -> int:
        return self.held

    def closed(self) -> bool:
        return False


@pytest.mark.asyncio
async def test_the_command_only_tells_the_hub_and_the_feed_coalesces(room: WebRoom) -> None:
    link = await open_round(room)
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        await stream.state()
        built = room.hub.states_built
        for player in ("Ana", "Ben", "Cyd"):  # three answers handled here, the loop held: what the command does
            message = Incoming("discord:100", f"u:{player.lower()}", player, "/jouer H4 CHANTEZ", private=True)
            room.referee.handle(message)
        assert room.hub.states_built == built  # the commands built no state: the room's feed will
        assert room.hub.changes >= 3
        counted = await stream.state()
        assert counted["round"]["played"] == 3  # the newest state, not one per answer
        assert room.hub.states_built - built == 1  # one state for the three changes


@pytest.mark.asyncio
async def test_a_busy_viewer_is_skipped_to_the_newest_state_and_never_holds_the_others(room: WebRoom) -> None:
    link = await open_round(room)
    view = room.storage.view_by_token(link.rsplit("/", 1)[1])
    assert view is not None
    busy = BusyLink()
    viewer = room.hub.subscribe(view, busy)
    async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
        stream = Stream(response)
        await stream.state()
        await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
        assert (await stream.state())["round"]["played"] == 1  # the other page got it at once
        await room.say("/jouer H8 CHAT", "Ben", private=True)
        assert (await stream.state())["round"]["played"] == 2
        assert busy.sent == []
        assert viewer.pending is not None
        assert room.hub.skipped >= 2
        busy.free = True
        await room.hub.keep_alive()  # room again: the newest state only
        assert len(busy.sent) == 1
        assert b'"played":2' in busy.sent[0]
        busy.free, busy.held = False, 2 << 20  # far behind: disconnected, its page reconnects
        room.hub.send(viewer, Payload((10**6, 0), '{"x":1}'))
        assert viewer.done.is_set()
        assert room.hub.dropped == 1
    room.hub.unsubscribe(viewer)
    assert isinstance(viewer, Viewer)


async def open_round(room: WebRoom) -> str:
    await room.say("/duplicate 1 manuel", admin=True)
    await room.say("/tirage ACEHNTZ", admin=True)
    return await room.link()
