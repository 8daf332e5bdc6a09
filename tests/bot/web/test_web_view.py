"""The live page (issue 27): its server on an ephemeral port in the test's loop, a duplicate round played
through the command layer, the raw server-sent events read with aiohttp's client. The snapshot, the count,
the close's top; never an answer before the close; links revoked; a path prefix; the pure state."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.cli import build_parser
from bot.tools.console import run_console
from bot.web.address import BadWebPortError, clean_prefix, web_address
from bot.web.state import duplicate_state
from core.duplicate import DuplicateGame
from core.duplicate.settings import DuplicateSettings
from core.notation import Notation
from tests.web_room import WebRoom

WAIT = 10.0  # seconds at most for an event that must come (never a measure: the test fails if it does not)


class Stream:
    """The raw event stream of one page: every byte kept, events read one at a time."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.raw = b""

    async def event(self) -> tuple[str, Any]:
        """The next event that is not a comment: its name and its data (JSON)."""
        while True:
            block = await asyncio.wait_for(self.response.content.readuntil(b"\n\n"), WAIT)
            self.raw += block
            lines = block.decode().strip().splitlines()
            fields = dict(line.split(": ", 1) for line in lines if not line.startswith(":"))
            if fields:
                return fields["event"], json.loads(fields["data"])

    async def state(self) -> dict[str, Any]:
        name, data = await self.event()
        assert name == "state", (name, data)
        state: dict[str, Any] = data["state"]
        return state


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[WebRoom]:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    yield room
    await room.stop()


async def open_round(room: WebRoom) -> str:
    await room.say("/duplicate 1 manuel", admin=True)
    await room.say("/tirage ACEHNTZ", admin=True)
    return await room.link()


@pytest.mark.asyncio
async def test_the_stream_gives_the_snapshot_the_count_then_the_top(room: WebRoom) -> None:
    link = await open_round(room)
    async with aiohttp.ClientSession() as http:
        async with http.get(link) as page:
            assert page.status == 200
            body = await page.text()
            assert "<html" in body
            assert "EventSource" in body
            assert "Coup {n}" in body
            assert "http://" not in body.split("<script>", 1)[1].split("</script>")[0]  # nothing fetched elsewhere
        async with http.get(link + "/events") as response:
            assert response.headers["Content-Type"] == "text/event-stream"
            stream = Stream(response)
            snapshot = await stream.state()
            assert snapshot["kind"] == "duplicate"
            assert snapshot["round"]["number"] == 1
            letters = [t[0] for t in snapshot["round"]["draw"]["kept"] + snapshot["round"]["draw"]["new"]]
            assert sorted(letters) == sorted("ACEHNTZ")
            assert snapshot["round"]["deadline"] == room.clock[0] + 60
            assert snapshot["round"]["played"] == 0
            assert snapshot["last"] is None

            pushes = room.hub.pushes
            await room.say("/aide")  # changes nothing: no push
            await room.say("bonjour à tous")
            assert room.hub.pushes == pushes
            await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
            assert (await stream.state())["round"]["played"] == 1
            assert room.hub.pushes == pushes + 1
            await room.say("/rejoindre", "Ben")  # seated in the room, Ben answers from the bot's private chat
            assert (await stream.state())["round"]["players"] == 2
            pushes = room.hub.pushes
            acked = await room.say("/jouer H8 CHAT", "Ben", chat="u:ben")
            assert any("H8 CHAT" in r.text and r.to_user == "u:ben" and not r.error for r in acked), acked
            counted = await stream.state()  # the room's page is told, not the private chat's
            assert (counted["round"]["played"], counted["round"]["players"]) == (2, 2)
            assert room.hub.pushes > pushes

            await room.close_round()
            closed = await stream.state()
            last = closed["last"]
            assert last["number"] == 1
            assert last["top"]
            assert last["top_points"] > 0
            assert len(last["top_cells"]) == 7  # the top's squares, to light
            on_board = {(c[0], c[1]) for c in closed["board"]}
            assert {tuple(c) for c in last["top_cells"]} <= on_board
            assert [r["player"] for r in last["results"]] == ["Ana", "Ben"]
            assert last["results"][0]["move"] == "H4 CHANTEZ"
            assert [s["player"] for s in closed["standings"]] == ["Ana", "Ben"]


@pytest.mark.asyncio
async def test_no_answer_is_in_the_page_or_its_events_before_the_close(room: WebRoom) -> None:
    link = await open_round(room)
    secrets = ("CHANTEZ", "H4", "ZETA", "H8")
    async with aiohttp.ClientSession() as http:
        async with http.get(link + "/events") as response:
            stream = Stream(response)
            await stream.state()
            await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
            await stream.state()
            await room.say("/jouer H8 ZETA", "Ben", private=True)
            await stream.state()
            async with http.get(link) as page:
                body = await page.text()
            before = stream.raw.decode()
            token = link.rsplit("/", 1)[-1]  # random: "H8" is in about one link in 130
            body, before = body.replace(token, ""), before.replace(token, "")
            for secret in secrets:
                assert secret not in before, secret
                assert secret not in body, secret
            await room.close_round()
            await stream.state()
            assert "H4 CHANTEZ" in stream.raw.decode()  # the close made it public: the test can see it


@pytest.mark.asyncio
async def test_a_revoked_link_ends_its_stream_and_is_a_404(room: WebRoom) -> None:
    link = await open_round(room)
    async with aiohttp.ClientSession() as http:
        async with http.get(link + "/events") as response:
            stream = Stream(response)
            await stream.state()
            replies = await room.say("/vue stop", admin=True)
            assert any("révoqués (1)" in r.text for r in replies), [r.text for r in replies]
            name, _ = await stream.event()
            assert name == "revoked"
        for url in (link, link + "/events"):
            async with http.get(url) as gone:
                assert gone.status == 404
                assert room.storage.channel_views("discord:100") == []
        assert room.hub.viewers() == 0
        again = await room.link()  # a new link for the same game
        assert again != link


@pytest.mark.asyncio
async def test_a_classic_game_streams_its_board_scores_and_turn(room: WebRoom) -> None:
    await room.say("/nouvelle Ana Ben", "Ana")
    link = await room.link()
    async with aiohttp.ClientSession() as http:
        async with http.get(link + "/events") as response:
            stream = Stream(response)
            first = await stream.state()
            assert (first["kind"], first["to_move"], first["board"]) == ("classic", "Ana", [])
            await room.say("/coup H8 VAGUE", "Ana")
            played = await stream.state()
            assert played["to_move"] == "Ben"
            assert played["scores"] == [{"player": "Ana", "total": 20}, {"player": "Ben", "total": 0}]
            assert [c[2] for c in played["board"]] == list("VAGUE")
            assert len(played["top_cells"]) == 5
            assert played["last_move"]["points"] == 20


@pytest.mark.asyncio
async def test_unknown_tokens_and_other_paths_list_nothing(room: WebRoom) -> None:
    link = await open_round(room)
    base = link.rsplit("/v/", 1)[0]
    async with aiohttp.ClientSession() as http:
        for url in (base + "/", base + "/v/", base + "/v/nope", base + "/v/nope/events", link + "x"):
            async with http.get(url) as response:
                assert response.status == 404, url
                assert link.rsplit("/", 1)[1] not in await response.text()


@pytest.mark.asyncio
async def test_only_the_referee_or_an_admin_gets_a_link(room: WebRoom) -> None:
    await room.say("/duplicate 1 manuel", "Ref")
    refused = await room.say("/vue", "Ana")
    assert refused
    assert refused[0].error
    assert "/v/" not in refused[0].text
    nothing = await room.say("/vue stop", "Ana")
    assert nothing[0].error
    assert room.storage.channel_views("discord:100") == []
    assert "/v/" in (await room.say("/vue", "Ref"))[0].text  # the game's referee


@pytest.mark.asyncio
async def test_the_pages_work_under_a_path_prefix(tmp_path: Path) -> None:
    room = await WebRoom(tmp_path / "arbitre.sqlite", prefix="/arbitre/").start()
    try:
        link = await open_round(room)
        assert f":{room.server.port}/arbitre/v/" in link
        async with aiohttp.ClientSession() as http:
            async with http.get(link) as page:
                assert page.status == 200
                assert '"/arbitre/v/' in await page.text()  # the page reads its events under the prefix
            async with http.get(link + "/events") as response:
                assert (await Stream(response).state())["round"]["number"] == 1
            async with http.get(link.replace("/arbitre", "")) as outside:
                assert outside.status == 404
    finally:
        await room.stop()


@pytest.mark.asyncio
async def test_without_a_web_server_view_says_it_is_off(tmp_path: Path) -> None:
    room = WebRoom(tmp_path / "arbitre.sqlite")  # never started
    try:
        await room.say("/duplicate 1 manuel", admin=True)
        replies = await room.say("/view", admin=True)
        assert replies[0].error
        assert "--web-port" in replies[0].text
    finally:
        await room.stop()


def test_the_state_of_an_open_round_has_counts_and_no_answer() -> None:
    game = DuplicateGame(players=["Ana", "Ben"])
    game.draw_manual("ACEHNTZ", at=100.0)
    game.submit("Ana", "H4 CHANTEZ")
    state = duplicate_state(game, game_id=1, language="fr", now=100.0)
    assert state["round"]["played"] == 1
    assert state["round"]["players"] == 2
    assert "CHANTEZ" not in json.dumps(state)
    assert state == duplicate_state(game, game_id=1, language="fr", now=100.0)  # a function of the game


@pytest.mark.parametrize(("notation", "first_row", "first_col"), [(Notation.FISF, "A", "1"), (Notation.GCG, "1", "A")])
def test_the_board_is_named_as_the_images_name_it(notation: Notation, first_row: str, first_col: str) -> None:
    game = DuplicateGame(players=["Ana"], settings=DuplicateSettings(notation=notation))
    coords = duplicate_state(game, game_id=1, language="fr", now=0)["coords"]
    assert (coords["rows"][0], coords["cols"][0], len(coords["rows"]), len(coords["cols"])) == (
        first_row,
        first_col,
        15,
        15,
    )


@pytest.mark.parametrize(
    ("port", "prefix", "expected"),
    [("8080", "arbitre/", ("127.0.0.1", 8080, "/arbitre")), (0, "/", ("127.0.0.1", 0, "")), (None, None, None)],
)
def test_the_web_options(port: Any, prefix: Any, expected: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITRE_WEB_PORT", raising=False)
    address = web_address(port, prefix=prefix)
    assert (None if address is None else (address.host, address.port, address.prefix)) == expected
    assert clean_prefix("//a/b//") == "/a/b"


@pytest.mark.parametrize("port", ["http", "-1", "65536"])
def test_a_bad_web_port_is_refused(port: str) -> None:
    with pytest.raises(BadWebPortError):
        web_address(port)


def links_kept_and_revoked(storage: Any) -> None:
    """Migration 15's table through the store: a link found by its token until revoked, per room."""
    from bot.storage import GameKind, GameSetup

    record = storage.create_game("discord:100", GameKind.DUPLICATE, "u:ref", GameSetup("fr", "fisf", "fr", "Ref"))
    storage.create_view("tok-1", "discord:100", record.id, 10.0)
    storage.create_view("tok-2", "discord:200", record.id, 11.0)
    assert storage.view_by_token("tok-1").game == record.id
    assert [v.token for v in storage.channel_views("discord:100")] == ["tok-1"]
    assert storage.revoke_views("discord:100", 12.0) == ["tok-1"]
    assert storage.view_by_token("tok-1") is None
    assert storage.channel_views("discord:100") == []
    assert storage.revoke_views("discord:100", 13.0) == []
    assert storage.view_by_token("tok-2") is not None  # another room's link stands
    assert storage.view_by_token("nope") is None
    # migration 17's table: an organiser's page of a simultané's ranking, revoked with the room's links
    simultane = storage.create_simultane("ABCDEF", "discord:300", "u:org", {"minutes": 1})
    storage.create_view("tok-3", "discord:300", record.id, 14.0)
    storage.create_simultane_view("tok-s", "discord:300", simultane.id, 15.0)
    found = storage.view_by_token("tok-s")
    assert (found.simultane, found.channel, found.game) == (simultane.id, "discord:300", 0)
    assert [v.token for v in storage.simultane_views("discord:300")] == ["tok-s"]
    assert [v.token for v in storage.channel_views("discord:300")] == ["tok-3"]
    assert storage.revoke_views("discord:300", 16.0) == ["tok-3", "tok-s"]
    assert storage.view_by_token("tok-s") is None
    assert storage.simultane_views("discord:300") == []


def test_links_are_stored_and_revoked_sqlite(tmp_path: Path) -> None:
    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    try:
        links_kept_and_revoked(storage)
    finally:
        storage.close()


def test_links_are_stored_and_revoked_postgres(postgres_url: str) -> None:
    from bot.storage.sql.postgres import PostgresStorage

    storage = PostgresStorage(postgres_url)
    try:
        links_kept_and_revoked(storage)
    finally:
        storage.close()


@pytest.mark.asyncio
async def test_a_telegram_bot_serves_the_pages_while_it_runs(tmp_path: Path) -> None:
    """The real python-telegram-bot against the local fake: the pages start with the application, /vue in
    a group gives a link that answers, and the port is closed once the application stops."""
    from bot.adapters.telegrambot.adapter import TelegramAdapter
    from bot.referee import Referee
    from bot.storage import SQLiteStorage
    from bot.web import Hub, WebAddress, WebServer
    from tests.fakes import FakeTelegram, running_application
    from tests.ready_lists import ready_registry
    from tests.waiting import eventually

    group = -1001234567
    storage = SQLiteStorage(tmp_path / "arbitre.sqlite")
    try:
        async with FakeTelegram(bot_username="TestBot") as tg:
            tg.add_group(group, "Club de Scrabble")
            ana = tg.add_user(first_name="Ana")
            tg.set_member(group, ana, "creator")
            referee = Referee(storage, ready_registry(), now=tg.now, images=False)
            adapter = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
            adapter.web = WebServer(Hub(referee), WebAddress("127.0.0.1", 0, "/arbitre"))

            def links() -> list[str]:
                return [w for r in tg.log.records if r.action == "send" for w in (r.text or "").split() if "/v/" in w]

            async with running_application(adapter.application, tg):
                await tg.send_user_message(group, ana, "/duplicate 1 manuel")
                await tg.send_user_message(group, ana, "/vue")
                await eventually(lambda: bool(links()), 10)
                (link,) = links()
                assert "/arbitre/v/" in link
                async with aiohttp.ClientSession() as http, http.get(link) as page:
                    assert page.status == 200
            async with aiohttp.ClientSession() as http:
                with pytest.raises(aiohttp.ClientConnectionError):
                    async with http.get(link):
                        pass
            assert referee.web_url is None  # /vue says the pages are off once they stopped
    finally:
        storage.close()


@pytest.mark.asyncio
async def test_stopping_the_server_ends_the_open_streams(tmp_path: Path) -> None:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        link = await open_round(room)
        async with aiohttp.ClientSession() as http, http.get(link + "/events") as response:
            stream = Stream(response)
            await stream.state()
            assert room.hub.viewers("discord:100") == 1
            await room.hub.keep_alive()  # what the server's timer does every 15 s: a comment line, for the proxies
            assert await asyncio.wait_for(response.content.readuntil(b"\n\n"), WAIT) == b": keep-alive\n\n"
            await room.server.close()
            rest = await asyncio.wait_for(response.content.read(), WAIT)  # the end of the stream, not a hang
            assert b"event: state" not in rest
            assert room.hub.viewers() == 0
    finally:
        await room.stop()


def test_a_wrong_web_port_is_said_in_one_line(tmp_path: Path) -> None:
    args = build_parser().parse_args(["console", "--db", str(tmp_path / "a.sqlite"), "--web-port", "http"])
    err = io.StringIO()
    assert run_console(args, io.StringIO(""), io.StringIO(), err) == 2
    assert err.getvalue() == "arbitre console: web port 'http': a number from 0 to 65535 is needed\n"


@pytest.mark.asyncio
async def test_an_online_game_streams_its_board_and_scores_never_a_rack(room: WebRoom) -> None:
    dealt = await room.say("/nouvelle en-ligne Ana robot", "Ana")
    racks = [r.text.rsplit(":", 1)[1].strip() for r in dealt if r.to_user is not None]
    assert racks
    link = await room.link()
    async with aiohttp.ClientSession() as http:
        async with http.get(link + "/events") as response:
            stream = Stream(response)
            first = await stream.state()
            assert (first["kind"], first["to_move"]) == ("classic", "Ana")
            assert sorted(s["player"] for s in first["scores"]) == ["Ana", "Robot"]
            for rack in racks:
                assert rack not in stream.raw.decode()
