"""The live page in a real browser (issue 27): Debian's chromium, headless, driven by selenium through
chromium-driver, at the projector's size (1920x1080) and the phone's (360x800), while a duplicate round is
played through the command layer. Checked from the rendered page: the draw, the count, the countdown moving,
the top after the close; the contrast of a tile read from the screenshot's pixels; the screenshots saved
beside the test's files, and to docs/images/ (docs/operating.md shows them) when ARBITRE_SCREENSHOTS=docs.
Skipped, saying why, where chromium or its driver is absent."""

from __future__ import annotations

import asyncio
import functools
import io
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.render.palette import AA_CONTRAST, contrast_ratio
from tests.paths import REPO_ROOT
from tests.web_room import CHANNEL, WebRoom

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
DOCS_IMAGES = REPO_ROOT / "docs" / "images"


def screenshots_folder(tmp_path: Path) -> Path:
    """Where the screenshots go: the test's own folder, or docs/images/ when asked for (a test run
    leaves the checkout as it found it)."""
    folder = DOCS_IMAGES if os.environ.get("ARBITRE_SCREENSHOTS") == "docs" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


WAIT = 20.0  # seconds at most for the page to show what must come (a failure, never a measure)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium or chromedriver on this machine (Debian: apt-get install chromium chromium-driver)",
)


@pytest.fixture
def browser() -> Iterator[Any]:
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--lang=fr"):
        options.add_argument(argument)
    options.add_argument("--window-size=1920,1080")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


async def until(check: Callable[[], Any], what: str) -> Any:
    """``check()``'s first true answer, asked in a thread (the page's server runs in this loop)."""
    deadline = time.monotonic() + WAIT
    while True:
        answer = await asyncio.to_thread(check)
        if answer:
            return answer
        assert time.monotonic() < deadline, f"the page never showed {what}"
        await asyncio.sleep(0.05)


async def drawn(room: WebRoom, browser: Any, change: Awaitable[object]) -> None:
    """Make ``change`` and wait until the organiser's simultané page has drawn what the hub made of it: the
    hub idle after a state built since the change, and the page at that state's version if it was written
    (a state the page shows already is not written again)."""
    await until(room.hub.idle, "the earlier changes pushed")
    built, pushes = room.hub.states_built, room.hub.pushes
    await change
    await until(lambda: room.hub.idle() and room.hub.states_built > built, "a state built since the change")
    if room.hub.pushes > pushes:
        (view,) = room.storage.simultane_views(CHANNEL)
        (_, events), _ = await asyncio.to_thread(room.hub.state, view)
        await until(lambda: browser.execute_script("return version") == [0, events], "the state on the page")


def texts(driver: Any, selector: str) -> list[str]:
    """The first text of each element matched (a tile's letter, without its value)."""
    script = "return [...document.querySelectorAll(arguments[0])].map(e => e.firstChild?.textContent ?? '')"
    return list(driver.execute_script(script, selector))


def text(driver: Any, element_id: str) -> str:
    return str(driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id))


def showing_rack(driver: Any, heading: str) -> list[str] | None:
    """The rack's tiles once the page's heading is ``heading`` (None before)."""
    return texts(driver, "#rack .tile") if text(driver, "heading") == heading else None


def viewport(driver: Any, width: int, height: int) -> None:
    """The page's inner size (the window's frame added to it)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def tile_contrast(driver: Any, selector: str) -> float:
    """The contrast of a tile's letter on its background, from the screenshot's pixels: its most frequent
    colour against the pixel that differs most from it."""
    from PIL import Image

    rect = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom, window.devicePixelRatio]",
        selector,
    )
    scale = rect[4]
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    box = tuple(int(v * scale) for v in rect[:4])
    inner = shot.crop((box[0] + 4, box[1] + 4, box[2] - 4, box[3] - 4))  # inside the tile's edge
    pixels = [(int(p[0]), int(p[1]), int(p[2])) for p in inner.get_flattened_data() if isinstance(p, tuple)]
    background = Counter(pixels).most_common(1)[0][0]
    return max(contrast_ratio(background, pixel) for pixel in set(pixels))


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_a_round_seen_on_the_projector_and_on_a_phone(tmp_path: Path, browser: Any) -> None:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        await room.say("/duplicate 1 manuel", admin=True)
        await room.say("/tirage ACEHNTZ", admin=True)
        link = await room.link()
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, link)

        rack = await until(lambda: texts(browser, "#rack .tile"), "the draw")
        assert sorted(rack) == sorted("ACEHNTZ")
        assert text(browser, "count") == "0 joueur sur 0 a joué"
        first = await until(lambda: text(browser, "clock"), "the countdown")
        assert first in ("1:00", "0:59")
        await until(lambda: text(browser, "clock") not in ("", first), "the countdown moving")

        await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
        await room.say("/jouer H8 CHAT", "Ben", private=True)
        await until(lambda: text(browser, "count") == "2 joueurs sur 2 ont joué", "the count")
        assert "CHANTEZ" not in browser.page_source  # nothing of an answer before the close

        await room.close_round()
        top = await until(lambda: text(browser, "top"), "the top")
        assert top.startswith("Top du coup 1 : ")
        assert "CHANTEZ (112)" in top
        assert len(texts(browser, "#board .tile.lit")) == 7  # the top placed and lit
        assert "Ana" in text(browser, "results")
        assert "Ana" in text(browser, "standings")

        # the next move: kept letters and new ones told apart, one answer counted
        await room.say("/tirage BCDFGAE", admin=True)
        await until(lambda: text(browser, "heading") == "Coup 2", "the next move")
        await room.say("/jouer G10 SI", "Ana", private=True)
        await until(lambda: text(browser, "count").startswith("1 joueur sur 2"), "the next count")
        assert len(texts(browser, "#rack .tile.new")) == 7
        await room.close_round()
        kept = await asyncio.to_thread(reliquat, room)
        assert kept, "the move's top left letters on the rack"
        await room.say(f"/tirage {kept}+{'AEINRST'[: 7 - len(kept)]}", admin=True)
        await until(lambda: text(browser, "heading") == "Coup 3", "the third move")
        await room.say("/jouer G10 SI", "Ben", private=True)
        await until(lambda: text(browser, "count").startswith("1 joueur sur 2"), "the third count")
        assert texts(browser, "#rack .tile.kept") == list(kept)  # the kept letters apart from the new ones
        assert len(texts(browser, "#rack .tile.new")) == 7 - len(kept)

        assert tile_contrast(browser, "#rack .tile.new") >= AA_CONTRAST
        assert tile_contrast(browser, "#board .tile.lit") >= AA_CONTRAST
        images = screenshots_folder(tmp_path)
        browser.save_screenshot(str(images / "web-projector.png"))

        viewport(browser, 360, 800)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360  # one column, nothing wider than the phone
        assert sorted(texts(browser, "#rack .tile")) == sorted(rack_after(room))
        assert tile_contrast(browser, "#rack .tile.new") >= AA_CONTRAST
        browser.save_screenshot(str(images / "web-phone.png"))
    finally:
        await room.stop()


def game_of(room: WebRoom) -> Any:
    record = room.storage.active_game("discord:100")
    assert record is not None
    return room.referee.games.load(room.storage, record)


def reliquat(room: WebRoom) -> str:
    """The letters the last top left on the rack."""
    return str(game_of(room).reliquat)


def rack_after(room: WebRoom) -> list[str]:
    """The open round's letters as the referee's game has them."""
    draw = game_of(room).current.draw
    return list(draw.kept + draw.new)


@pytest.mark.asyncio
async def test_the_call_then_the_end_show_as_the_countdown_reaches_them(tmp_path: Path, browser: Any) -> None:
    """FISF 3.3 "chrono – trente secondes – terminé": the call shown from 30 s before the end, "Terminé" at 0
    until the close comes. The referee's clock is moved by the test; each change the page is sent carries the
    server's time, from which the page counts."""
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        await room.say("/duplicate 1 manuel", admin=True)
        await room.say("/tirage ACEHNTZ", admin=True)
        await asyncio.to_thread(browser.get, await room.link())
        await until(lambda: text(browser, "clock") in ("1:00", "0:59"), "the countdown")
        assert text(browser, "call") == ""  # not yet
        room.clock[0] += 31
        await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
        assert await until(lambda: text(browser, "call"), "the call") == "30 secondes"
        assert text(browser, "clock") in ("0:29", "0:28")
        room.clock[0] += 30
        await room.say("/jouer H8 CHAT", "Ben", private=True)
        await until(lambda: text(browser, "clock") == "Terminé", "the end of the time")
        assert text(browser, "call") == ""
        await room.close_round(1)
        await until(lambda: text(browser, "top"), "the top after the close")
        assert text(browser, "clock") != "Terminé"
    finally:
        await room.stop()


@pytest.mark.asyncio
async def test_a_classic_game_with_its_clocks_on_the_projector_and_on_a_phone(tmp_path: Path, browser: Any) -> None:
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        await room.say("/nouvelle naspa Ana Ben", "Ana")
        await room.say("/reglages pendule 25", "Ana")
        room.clock[0] += 95
        await room.say("/coup H8 VAGUE", "Ana")
        room.clock[0] += 26 * 60  # Ben past his 25 minutes: overtime
        await room.say("/coup 9H AS", "Ben")
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, await room.link())
        await until(lambda: text(browser, "clocks").startswith("Ana "), "the clocks")
        ana = text(browser, "clocks")
        assert "Ben +1:00 (dépassement, -10)" in text(browser, "clocks")  # as /status says it
        chips = browser.execute_script("return [...document.querySelectorAll('#clocks .chip')].map(e=>e.className)")
        assert chips[0].split() == ["chip", "turn"]  # Ana's clock runs
        assert ana.startswith("Ana 23:2")
        await until(lambda: text(browser, "clocks") != ana, "Ana's clock ticking")  # the text changes
        assert text(browser, "heading") == "Au tour de Ana"
        assert tile_contrast(browser, "#board .tile.lit") >= AA_CONTRAST
        assert tile_contrast(browser, "#clocks .chip.turn") >= AA_CONTRAST
        assert tile_contrast(browser, "#clocks .chip.over") >= AA_CONTRAST  # the overtime, in red
        images = screenshots_folder(tmp_path)
        browser.save_screenshot(str(images / "web-classic.png"))

        viewport(browser, 360, 800)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 360
        assert tile_contrast(browser, "#clocks .chip.turn") >= AA_CONTRAST
        browser.save_screenshot(str(images / "web-classic-phone.png"))
        await room.say("/pause", admin=True)
        await until(lambda: "en pause" in text(browser, "clocks"), "the pause")
        paused = text(browser, "clocks")
        # the page's time moved ten minutes on (its clock is Date.now), and its clocks drawn again: a paused
        # clock does not move (Ana's, running, moved above by the second)
        browser.execute_script("const now = Date.now; Date.now = () => now() + 600000; tick();")
        assert text(browser, "clocks") == paused
    finally:
        await room.stop()


@pytest.mark.asyncio
async def test_the_organisers_page_shows_the_overall_ranking_once_every_room_closed(
    tmp_path: Path, browser: Any
) -> None:
    from bot.chat import Incoming

    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    other = "discord:200"

    async def elsewhere(text_: str, user: str = "Boss", **options: Any) -> None:
        await room.service.handle(Incoming(other, f"u:{user.lower()}", user, text_, **options))

    try:
        created = await room.say("/simultane creer 1 tirages ACEHNTZ", "Org", admin=True)
        codes = [w.strip("«».,:;()") for w in created[0].text.split()]
        code = next(w for w in codes if len(w) == 6 and w.isupper() and w.isalnum() and w != "ACEHNTZ")
        await room.say(f"/simultane rejoindre {code}", "Org", admin=True)
        await elsewhere(f"/simultane rejoindre {code} Club de Vichy", admin=True)  # a centre's name
        replies = await room.say("/vue simultane", "Org", admin=True)
        link = next(w for w in replies[0].text.split() if "/v/" in w)
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, link)
        await until(lambda: text(browser, "heading") == f"Simultané {code}", "the simultané's heading")
        assert "quand chaque salon aura clos une manche" in text(browser, "overall")
        await room.say("/jouer H4 CHANTEZ", "Ana", private=True)
        await elsewhere("/jouer H8 CHANT", "Bertrand", private=True)
        await elsewhere("/cloture", admin=True)  # its time is up: it waits for the organiser's room (paced)
        # the room's close is pushed and the page has drawn it: still nothing of the other room
        await drawn(room, browser, room.say("/cloture", "Org", admin=True))
        assert "Bertrand" not in browser.page_source
        assert "Ana" not in text(browser, "overall")
        await room.service.tick()  # the clock closes the other room's held round
        shown = await until(lambda: "Bertrand" in text(browser, "overall") and text(browser, "overall"), "the ranking")
        assert shown.index("Ana") < shown.index("Bertrand")
        assert "Club de Vichy" in shown
        assert "Salon 1" in shown
        assert "discord:" not in shown  # a room by its name or its joining order, never its channel's key
        assert "après 1 manche\u00a0: 2 salons, 2 joueurs" in shown
        assert tile_contrast(browser, "#overall tr.best") >= AA_CONTRAST
        viewport(browser, 360, 800)  # a remote player's phone
        await until(lambda: browser.execute_script("return window.innerWidth") == 360, "the phone's width")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 360
        heads = "[...document.querySelectorAll('#overall th')]"
        right = f"return Math.max(...{heads}.map(c => c.getBoundingClientRect().right))"
        assert browser.execute_script(right) <= 360  # every column on the screen, none cut off
        assert "Club de Vichy" in text(browser, "overall")
        assert tile_contrast(browser, "#overall tr.best") >= AA_CONTRAST
    finally:
        await room.stop()


# --- issue 35, "The page": a game over, a link that follows its room, a simultané of 35 players -------------

ROWS = "[...document.querySelectorAll(arguments[0] + ' tbody tr')]"


def rows_shown(driver: Any, box: str) -> list[str]:
    """The text of each row of ``box``'s table the page shows now (a long table shows a page of them)."""
    return list(driver.execute_script(f"return {ROWS}.filter(r => !r.hidden).map(r => r.textContent)", box))


def box_of(driver: Any, selector: str) -> dict[str, float]:
    """Where an element is drawn."""
    script = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return r.toJSON()"
    return dict(driver.execute_script(script, selector))


def too_wide(driver: Any, width: int) -> list[str]:
    """What reaches past the screen's right edge (the page wider than the screen, a cell cut off)."""
    script = (
        "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > arguments[0]"
        " && e.offsetParent !== null).map(e => e.tagName + '#' + e.id + '.' + e.className + ' '"
        " + Math.round(e.getBoundingClientRect().right) + ' ' + (e.textContent || '').slice(0, 30))"
    )
    return list(driver.execute_script(script, width))


@pytest.mark.asyncio
async def test_a_game_over_then_the_rooms_next_game_on_the_same_link(tmp_path: Path, browser: Any) -> None:
    """``/fin`` ends the game's record, not the game (its next round drawn): the page says the game is over,
    with its final standings, no draw and no clock; the room's next game comes on the same page; a game
    that ends by itself (the bot's draws run out) is shown over the same way."""
    from tests.web_simultane import plays_of

    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        await room.say("/duplicate 1 manuel", admin=True)
        link = await room.link()
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, link)
        for number, draw in ((1, "ACEHNTZ"), (2, "BCDFGAE")):
            await room.say(f"/tirage {draw}", admin=True)
            heading = f"Coup {number}"
            await until(functools.partial(showing_rack, browser, heading), heading)
            plays = plays_of(room, "discord:100")
            for n, name in enumerate(("Ana", "Ben", "Cyd", "Dan", "Eve")):
                await room.say(f"/jouer {plays[n * n % len(plays)][0]}", name, private=True)
            await room.close_round()
        kept = await asyncio.to_thread(reliquat, room)
        await room.say(f"/tirage {kept}+{'AEINRST'[: 7 - len(kept)]}", admin=True)
        await until(lambda: text(browser, "heading") == "Coup 3" and texts(browser, "#rack .tile"), "round 3's draw")
        await room.say("/fin", admin=True)
        await until(lambda: text(browser, "heading") == "Partie terminée", "the game over")
        assert texts(browser, "#rack .tile") == []
        assert text(browser, "clock") == ""
        assert text(browser, "count") == ""
        assert text(browser, "status").startswith("Tops : ")
        assert len(rows_shown(browser, "#standings")) == 5
        images = screenshots_folder(tmp_path)
        browser.save_screenshot(str(images / "web-game-over.png"))
        viewport(browser, 390, 844)
        assert too_wide(browser, 390) == []
        assert len(rows_shown(browser, "#standings")) == 5
        browser.save_screenshot(str(images / "web-game-over-phone.png"))
        viewport(browser, 1920, 1080)

        await room.say("/duplicate 1", admin=True)  # the room's next game: the same link shows it
        await until(lambda: text(browser, "heading") == "Coup 1" and len(texts(browser, "#rack .tile")) == 7, "game 2")
        assert texts(browser, "#board .tile") == []
        assert text(browser, "clock") in ("1:00", "0:59")
        for _ in range(40):  # nobody answers: the tops fill the board until no draw can be made
            await room.close_round()
            if room.storage.active_game("discord:100") is None:
                break
        await until(lambda: text(browser, "heading") == "Partie terminée", "the end of game 2 by itself")
        assert texts(browser, "#rack .tile") == []
        assert text(browser, "clock") == ""
        assert texts(browser, "#board .tile")
    finally:
        await room.stop()


ROOM_ONE = ["Ana", "Aline", "Bruno", "Camille", "Denis", "Élodie", "Fabien", "Gisèle", "Hugo", "Inès", "Jules"]
ROOM_ONE += ["Karine", "Léon", "Maëlle", "Nadia", "Olivier"]  # 16 players: a solo counts in the room too
ROOM_TWO = ["Pascal", "Quentin", "Rose", "Sylvain", "Thérèse", "Ugo", "Valérie", "William", "Xavier", "Yvette"]
ROOM_TWO += ["Marie-Charlotte de La Rochefoucauld"]
ROOM_THREE = ["Adrien", "Béatrice", "Cédric", "Delphine", "Étienne", "Françoise", "Gaston", "Hélène"]


@pytest.mark.long(4)
@pytest.mark.asyncio
async def test_a_simultane_of_35_players_on_the_projector_and_on_a_phone(tmp_path: Path, browser: Any) -> None:
    """Three rooms, 35 players; round 1 held in the first room while the others play it; the third room ends
    after round 1; round 3 open. The organiser's page pages its 35 rows by itself on the projector, with the
    solos and the third room's mark, every row on a phone; a room's page keeps its own standings beside the
    overall ranking; a positive gap reads "+10"."""
    from tests.web_simultane import FIRST_MOVES, answer, close_everywhere, create, link_in, plays_of, say_in

    one, two, three = "discord:100", "discord:200", "discord:300"
    room = await WebRoom(tmp_path / "arbitre.sqlite").start()
    try:
        await create(room, {one: "Vichy", two: "Club de Sète", three: "Montpellier"})
        own = await room.link()
        organiser = link_in(await room.say("/vue simultane", "Org", admin=True))
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, own)
        for channel, players in ((one, ROOM_ONE), (two, ROOM_TWO), (three, ROOM_THREE)):
            for n, player in enumerate(players):
                await answer(room, channel, player, "H6 CHANTEZ" if player == "Ana" else FIRST_MOVES[n % 14][0])
        await room.say("/cloture", admin=True)  # this room's time is up: it waits for the two others
        await until(lambda: text(browser, "clock") == "Temps écoulé — en attente des autres salons", "the wait")
        assert text(browser, "top") == ""
        assert texts(browser, "#board .tile") == []
        assert text(browser, "call") == ""
        assert text(browser, "count") == "16 joueurs sur 16 ont joué"
        browser.save_screenshot(str(tmp_path / "web-held.png"))
        await close_everywhere(room, [two, three])
        await say_in(room, three, "/fin", admin=True)  # the third room stops after round 1
        for channel, players in ((one, ROOM_ONE), (two, ROOM_TWO)):
            plays = plays_of(room, channel)
            for n, player in enumerate(players):
                await answer(room, channel, player, plays[0 if player == "Ana" else (2 * n + 1) % len(plays)][0])
        await close_everywhere(room, [one, two])
        plays = plays_of(room, one)
        for player in ROOM_ONE[1:4]:
            await answer(room, one, player, plays[5][0])
        await until(lambda: text(browser, "heading") == "Coup 3", "round 3")
        await until(lambda: "après 2 manches" in text(browser, "overall"), "the overall ranking after round 2")

        # the room's page: its own standings beside the overall ranking, both readable
        images = screenshots_folder(tmp_path)
        await until(lambda: len(rows_shown(browser, "#standings")) >= 4, "the room's standings")
        mine, overall = box_of(browser, "#standings"), box_of(browser, "#overall")
        assert len(rows_shown(browser, "#overall")) >= 4
        assert mine["bottom"] <= overall["top"] <= overall["bottom"] <= 1080  # one under the other, on the screen
        assert re.fullmatch(r"1Ana\d+\+\d+", rows_shown(browser, "#standings")[0])  # her solos: a gap above 0, "+N"
        browser.save_screenshot(str(images / "web-simultane-room.png"))
        viewport(browser, 390, 844)
        browser.execute_script("document.getElementById('standings').scrollIntoView()")  # under the board
        browser.save_screenshot(str(images / "web-simultane-room-phone.png"))
        assert too_wide(browser, 390) == []
        assert len(rows_shown(browser, "#standings")) == 16
        assert len(rows_shown(browser, "#overall")) == 35

        # the organiser's page: 35 rows, a page at a time on the projector, turning by itself
        viewport(browser, 1920, 1080)
        await asyncio.to_thread(browser.get, organiser + "?turn=2")  # a page every 2 s (10 unless asked)
        await until(lambda: len(rows_shown(browser, "#overall")) > 1, "the overall ranking")
        assert [th.text for th in browser.find_elements("css selector", "#overall th")][-1] == "solos"
        first = rows_shown(browser, "#overall")
        found = re.search(r"page 1 sur (\d+)", text(browser, "overall"))
        assert found is not None
        assert 10 <= len(first) < 35
        pages = int(found.group(1))
        bottom = "return Math.max(...[...document.querySelectorAll('#overall tbody tr')].filter(r => !r.hidden)" + (
            ".map(r => r.getBoundingClientRect().bottom))"
        )
        assert browser.execute_script(bottom) <= 1080  # every row shown fits on the screen
        await until(lambda: rows_shown(browser, "#overall") != first, "the next page, by itself")
        browser.execute_script("clearInterval(pageTimer)")  # then each page in turn, as the timer shows them
        seen: list[str] = []
        marked = 0  # the first page with a row of the room that stopped
        for page in range(pages + 1):
            browser.execute_script("turns = arguments[0]; layoutPagers()", page)
            shown = rows_shown(browser, "#overall")
            assert shown
            assert text(browser, "overall").count(f"page {page % pages + 1} sur {pages}") == 1
            if page < pages:
                assert not set(shown) & set(seen)
                seen += shown
                marked = marked or (page if any("arrêt" in row for row in shown) else 0)
        assert shown == first  # round again
        assert len(seen) == 35
        assert re.fullmatch(r"1AnaVichy\d+\+\d+[\d,]+[12]", seen[0])
        stopped = [row for row in seen if "Montpellier" in row]
        assert len(stopped) == 8
        assert all("arrêt au coup 1" in row for row in stopped)
        assert tile_contrast(browser, "#overall tr.best") >= AA_CONTRAST
        browser.execute_script("turns = arguments[0]; layoutPagers()", marked)  # docs/operating.md shows the marks
        browser.save_screenshot(str(images / "web-simultane.png"))
        viewport(browser, 390, 844)  # a remote player's phone: every row, the page scrolls
        await until(lambda: len(rows_shown(browser, "#overall")) == 35, "every row on the phone")
        assert browser.execute_script("return document.documentElement.scrollHeight") > 844
        assert too_wide(browser, 390) == []
        browser.save_screenshot(str(images / "web-simultane-phone.png"))
    finally:
        await room.stop()
