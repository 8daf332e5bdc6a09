"""Under overload the bot sheds what can wait, and says so (issue 36, "What to build" 4, second half).

The real service and referee on a real SQLite file, the referee's clock the test's (it moves only when the
test moves it: no sleep times anything), the platform a ``deliver`` the test holds and releases. Overload is
late answers (``bot.overload``: ten answers or more waiting more than 3 s in the process), left once none has
been late for 10 s. While overloaded the live counter, the join notices and the results' images are not
produced (each counted in ``arbitre_shed_total{what}``, the state in ``arbitre_overloaded``); every
acknowledgement, draw and results text still goes, with the exact count heading the results. Busy comes first
(ten answers waiting more than 0.5 s): the live lines alone give way, still brought up to date at the close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import pytest
from prometheus_client import generate_latest

from bot.chat import Incoming, Reply
from bot.operations.metrics import Metrics
from bot.outbox import Undelivered
from bot.overload import BUSY_SECONDS, CALM_SECONDS, LATE_SECONDS, OverloadPolicy, Shed
from bot.referee import Referee
from bot.runtime.service import RefereeService
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
START = 1_800_000_000.0
ROOMS = 10
PLAYERS = 30  # per room: 300 answers in the same seconds
LIVE = ("dup-count-", "dup-joins-")  # the live lines' edit keys


class Platform:
    """The test's platform: takes what it is given, or holds every delivery while ``hold`` is on."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.delivered: list[Reply] = []
        self.held = 0  # deliveries waiting for the platform right now
        self.refuse: Callable[[Reply], bool] = lambda reply: False  # what it does not take (tried again later)

    def hold(self) -> None:
        self.open.clear()

    def release(self) -> None:
        self.open.set()

    async def deliver(self, replies: list[Reply]) -> Sequence[Reply | Undelivered] | None:
        self.held += 1
        try:
            await self.open.wait()
        finally:
            self.held -= 1
        refused = [r for r in replies if self.refuse(r)]
        self.delivered += [r for r in replies if r not in refused]
        return refused or None


def shed(metrics: Metrics, what: Shed) -> float:
    """``arbitre_shed_total{what}`` as the registry reads it."""
    value = metrics.registry.get_sample_value("arbitre_shed_total", {"what": what.value})
    assert value is not None
    return value


def overloaded(metrics: Metrics) -> float | None:
    return metrics.registry.get_sample_value("arbitre_overloaded")


def is_live(reply: Reply) -> bool:
    return (reply.edit_key or "").startswith(LIVE)


def live_rows(storage: SQLiteStorage) -> list[tuple[str, float]]:
    """Every live line (and its update at a close) ever stored in the outbox: its edit key, when it was stored."""
    rows = storage.db.execute(
        "select edit_key, created from outbox where edit_key like 'dup-count-%' or edit_key like 'dup-joins-%'"
    ).fetchall()
    return [(str(key), float(created)) for key, created in rows]


async def until(condition: Callable[[], bool], what: str) -> None:
    """Until ``condition`` holds (a bound on real time only as a guard: nothing is timed by it)."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


def overload_logs(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("overload")]


@dataclass
class Crowd:
    """Ten rooms of 30 players on the real service and referee (images on), each room's round 1 open and its
    warning given, the clock the test's (``now``)."""

    now: list[float]
    metrics: Metrics
    platform: Platform
    service: RefereeService
    rooms: list[str]
    users: dict[str, list[str]]
    deadline: float  # every room's round 1 ends at that moment

    async def queued(self) -> list[asyncio.Task[list[Reply]]]:
        """Every player answers at once while the platform holds its deliveries: each room's first answer is
        at the platform, the others queue behind it."""
        self.platform.hold()
        plays = [
            asyncio.ensure_future(
                self.service.handle(Incoming(room, user, f"P{user[2:]}", "/jouer H8 ZOO", private=True))
            )
            for room in self.rooms
            for user in self.users[room]
        ]
        await until(lambda: self.platform.held == ROOMS, "every room's first answer at the platform")
        return plays


@contextlib.asynccontextmanager
async def crowd(storage: SQLiteStorage) -> AsyncIterator[Crowd]:
    """``Crowd`` on ``storage``, stopped at the end."""
    now = [START]
    referee = Referee(storage, LEXICONS, now=lambda: now[0], images=True)
    metrics = Metrics(now=lambda: now[0])
    platform = Platform()
    service = RefereeService(referee, platform.deliver, metrics=metrics)
    rooms = [f"discord:{n}" for n in range(1, ROOMS + 1)]
    users = {room: [f"u:{r}-{p}" for p in range(PLAYERS)] for r, room in enumerate(rooms)}
    try:
        for room in rooms:
            await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 1", admin=True))
        (deadline,) = {d.at for d in storage.deadlines()}  # every room's round 1 ends at the same moment
        now[0] = deadline - 10
        await service.tick()  # the warnings
        await service.drain()  # delivered (the clock does not wait for its sends: the test does)
        yield Crowd(now, metrics, platform, service, rooms, users, deadline)
    finally:
        await service.stop()
        referee.clock.shutdown()


@pytest.mark.asyncio
async def test_a_backlog_sheds_counters_joins_and_images_and_never_an_answer_a_draw_or_results(
    storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten rooms of 30 players answer round 1 in the same second while the platform holds its deliveries:
    each room's first answer is at the platform, the 290 others queue behind it. 4 s later the 290 are
    late: overloaded at the clock's look. The platform lets go: the 290 are recorded and acknowledged with
    no counter edit nor join notice, the ten closes post their next draw and results (exact counts) with no
    update of the live lines and no image; shed: 300 counter edits, 300 join notices, 20 images, exactly.
    Once no answer has been late for 10 s, overload ends: round 2's counter comes back, and its close's
    images. The log says when overload started and ended, once each, with no name in it."""
    caplog.set_level(logging.INFO, logger="arbitre")
    async with crowd(storage) as c:
        now, metrics, platform, service = c.now, c.metrics, c.platform, c.service
        rooms, users, deadline = c.rooms, c.users, c.deadline
        assert overloaded(metrics) == 0
        assert all(shed(metrics, what) == 0 for what in Shed)
        plays = await c.queued()
        load = service.overload.load()
        assert (load.waiting, load.late) == (ROOMS * PLAYERS, 0)
        now[0] += LATE_SECONDS + 1  # every answer has waited 4 s: the 290 queued, and the 10 at the platform
        await service.tick()  # the clock's look (the deadline is 6 s away: no close)
        assert service.overload.overloaded
        assert overloaded(metrics) == 1
        assert metrics.registry.get_sample_value("arbitre_answers_late") == ROOMS * PLAYERS
        entered = now[0]

        platform.release()
        answers = await asyncio.gather(*plays)
        firsts = {r * PLAYERS for r in range(ROOMS)}  # each room's first answer, at the platform before overload
        assert all(sum(map(is_live, answers[n])) == 2 for n in firsts)  # its counter and join notice
        assert not any(is_live(r) for n, replies in enumerate(answers) if n not in firsts for r in replies)
        assert shed(metrics, Shed.COUNTER) == shed(metrics, Shed.JOINS) == ROOMS * (PLAYERS - 1)

        now[0] = deadline + 0.1
        before = len(platform.delivered)
        closes = await service.tick()  # the closes, overloaded still (no answer late, not for 10 s yet)
        await service.drain()  # their draws, results and (none: shed) images
        await service.flush_outbox(everything=True)  # whatever was left to the outbox worker
        assert service.overload.overloaded
        after = platform.delivered[before:]

        # every acknowledgement, once per player; every room's next draw and results, the exact count first
        for room in rooms:
            for user in users[room]:
                acks = [r for r in platform.delivered if r.to_user == user and "pour le coup 1" in r.text]
                assert len(acks) == 1, (user, [r.text for r in platform.delivered if r.to_user == user])
            texts = [r.text for r in after if r.channel == room and r.to_user is None]
            assert any("Coup 2 — tirage :" in t for t in texts), texts
            assert any(t.startswith(f"Coup 1 clos : {PLAYERS} joueurs sur {PLAYERS} ont joué.") for t in texts)
        assert {r.outbox_id for r in closes} <= {r.outbox_id for r in after}
        # nothing that can wait was produced while overloaded: the live lines are the first answers' (10 + 10)
        rows = live_rows(storage)
        assert len(rows) == 2 * ROOMS, rows
        assert all(created < entered for _, created in rows), rows
        assert not any(r.image is not None for r in platform.delivered)  # no image drawn
        assert [shed(metrics, what) for what in Shed] == [ROOMS * PLAYERS, ROOMS * PLAYERS, 2 * ROOMS]
        assert dict(service.overload.shed) == {Shed.COUNTER: 300, Shed.JOINS: 300, Shed.IMAGES: 20}
        text = generate_latest(metrics.registry).decode()
        assert 'arbitre_shed_total{what="images"} 20.0' in text
        assert "arbitre_overloaded 1.0" in text

        # the backlog drained: no answer late for 10 s, overload ends at the clock's next look
        now[0] += CALM_SECONDS + 0.1
        await service.tick()
        assert not service.overload.overloaded
        assert overloaded(metrics) == 0
        again = await service.handle(Incoming(rooms[0], users[rooms[0]][0], "P0-0", "/jouer H8 ZOO", private=True))
        assert [r.text for r in again if (r.edit_key or "").startswith("dup-count-")] == [
            f"Coup 2 : 1 joueur sur {PLAYERS} a joué."
        ]
        (deadline,) = {d.at for d in storage.deadlines()}
        now[0] = deadline + 0.1
        before = len(platform.delivered)
        await service.tick()
        await service.drain()
        images = [r for r in platform.delivered[before:] if r.image is not None]
        assert len(images) == 2 * ROOMS  # each room's result and standings, drawn again
        assert [shed(metrics, what) for what in Shed] == [ROOMS * PLAYERS, ROOMS * PLAYERS, 2 * ROOMS]

        said = overload_logs(caplog)
        assert len(said) == 2, said
        assert said[0].startswith(f"overload: {ROOMS * PLAYERS} answers have waited more than 3 s (the oldest 4.0 s)")
        assert said[1].startswith("overload over after "), said
        assert said[1].endswith("s: 300 counter edits, 300 join notices and 20 images were shed"), said
        assert not any("P0" in message or "u:" in message for message in said)


def busy_logs(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("busy")]


@pytest.mark.asyncio
async def test_a_queue_of_a_second_sheds_the_live_lines_alone_and_the_close_still_brings_them_up_to_date(
    storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten rooms of 30 players answer in the same second while the platform holds its deliveries for 1 s:
    busy (the 290 queued have waited more than 0.5 s), not overloaded. The 290 are acknowledged with no counter
    edit nor join notice (290 of each shed); at the close, busy still, each room's counter and join line are
    brought up to date once, exact, and both images are drawn. Busy ends once no answer has waited for 10 s:
    round 2's counter comes back. The log says when busy started and ended, with no name in it."""
    caplog.set_level(logging.INFO, logger="arbitre")
    async with crowd(storage) as c:
        now, metrics, platform, service = c.now, c.metrics, c.platform, c.service
        rooms, users, deadline = c.rooms, c.users, c.deadline
        assert metrics.registry.get_sample_value("arbitre_busy") == 0
        plays = await c.queued()
        now[0] += BUSY_SECONDS + 0.5  # every answer has waited 1 s
        await service.tick()
        assert service.overload.busy
        assert not service.overload.overloaded
        assert metrics.registry.get_sample_value("arbitre_busy") == 1
        entered = now[0]
        assert overloaded(metrics) == 0

        platform.release()
        answers = await asyncio.gather(*plays)
        firsts = {r * PLAYERS for r in range(ROOMS)}
        assert all(sum(map(is_live, answers[n])) == 2 for n in firsts)
        assert not any(is_live(r) for n, replies in enumerate(answers) if n not in firsts for r in replies)
        assert all(len(replies) == 1 for n, replies in enumerate(answers) if n not in firsts)  # the ack alone

        now[0] = deadline + 0.1
        before = len(platform.delivered)
        await service.tick()
        await service.drain()
        await service.flush_outbox(everything=True)
        assert service.overload.busy
        after = platform.delivered[before:]
        for room in rooms:
            lines = {r.edit_key: r.text for r in after if r.channel == room and r.edit_key and not r.live}
            count = next(text for key, text in lines.items() if key.startswith("dup-count-"))
            joins = next(text for key, text in lines.items() if key.startswith("dup-joins-"))
            assert count.startswith(f"Coup 1 : {PLAYERS} joueurs sur {PLAYERS} ont joué"), count
            assert joins.count(",") == PLAYERS - 2, joins
            assert "rejoignent la partie au coup 1" in joins, joins
        assert sum(r.image is not None for r in after) == 2 * ROOMS  # results and standings, drawn
        expected = [ROOMS * (PLAYERS - 1), ROOMS * (PLAYERS - 1), 0]
        assert [shed(metrics, what) for what in Shed] == expected

        now[0] += CALM_SECONDS + 0.1
        await service.tick()
        assert not service.overload.busy
        again = await service.handle(Incoming(rooms[0], users[rooms[0]][0], "P0-0", "/jouer H8 ZOO", private=True))
        assert [r.text for r in again if (r.edit_key or "").startswith("dup-count-")] == [
            f"Coup 2 : 1 joueur sur {PLAYERS} a joué."
        ]
        said = busy_logs(caplog)
        assert len(said) == 2, said
        assert said[1] == f"busy over after {now[0] - entered:.0f} s: 580 live lines were shed", said
        assert overload_logs(caplog) == []
        assert not any("P0" in message or "u:" in message for message in said)


@pytest.mark.asyncio
async def test_twenty_players_answering_over_a_minute_shed_nothing(
    storage: SQLiteStorage, caplog: pytest.LogCaptureFixture
) -> None:
    """A room of 20 answering round 1 over a minute, a few at a time, the clock looking every second: never
    overloaded; every counter edit and join notice produced (20 each, and their update at the close), the
    close's two images drawn and delivered; nothing counted as shed, nothing said in the log."""
    caplog.set_level(logging.INFO, logger="arbitre")
    now = [START]
    referee = Referee(storage, LEXICONS, now=lambda: now[0], images=True)
    metrics = Metrics(now=lambda: now[0])
    platform = Platform()
    service = RefereeService(referee, platform.deliver, metrics=metrics)
    room, players = "discord:1", 20
    try:
        await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 2", admin=True))
        (deadline,) = {d.at for d in storage.deadlines()}
        for second in range(60):
            now[0] = START + second
            answering = [p for p in range(players) if p * 3 == second or (p * 3 + 1 == second and p % 2)]
            await asyncio.gather(
                *(service.handle(Incoming(room, f"u:{p}", f"P{p}", "/jouer H8 ZOO", private=True)) for p in answering)
            )
            await service.tick()
            assert not service.overload.overloaded
            assert overloaded(metrics) == 0
        now[0] = deadline + 0.1
        await service.tick()
        await service.drain()
        live = [r for r in platform.delivered if is_live(r)]
        assert sum((r.edit_key or "").startswith("dup-count-") for r in live) == players + 1  # and the close's
        assert sum((r.edit_key or "").startswith("dup-joins-") for r in live) == players + 1
        assert any(r.text.startswith(f"Coup 1 clos : {players} joueurs sur {players}") for r in platform.delivered)
        assert sum(r.image is not None for r in platform.delivered) == 2
        assert [shed(metrics, what) for what in Shed] == [0, 0, 0]
        assert overload_logs(caplog) == []
    finally:
        await service.stop()
        referee.clock.shutdown()


@pytest.mark.asyncio
async def test_while_overloaded_a_join_is_answered_privately_and_waiting_live_lines_are_dropped(
    storage: SQLiteStorage,
) -> None:
    """Overloaded (here at one late answer: a room's /etat the platform holds 4 s), in another room: a
    /rejoindre is answered to the joiner alone, with no join notice in the channel; and the live lines that
    were stored before overload and wait in the outbox (the platform refused them for now) are dropped by
    the outbox worker instead of sent, each counted as shed."""
    now = [START]
    referee = Referee(storage, LEXICONS, now=lambda: now[0], images=False)
    metrics = Metrics(now=lambda: now[0])
    platform = Platform()
    service = RefereeService(referee, platform.deliver, metrics=metrics, overload=OverloadPolicy(enter_late=1))
    busy, calm = "discord:1", "discord:2"
    try:
        for room in (busy, calm):
            await service.handle(Incoming(room, "u:ref", "Ref", "/duplicate 3", admin=True))
        platform.refuse = is_live  # not taken for now: they wait in the outbox
        await service.handle(Incoming(calm, "u:ana", "Ana", "/jouer H8 ZOO", private=True))
        platform.refuse = lambda reply: False
        waiting = [key for key, _ in live_rows(storage)]
        assert len(waiting) == 2  # the counter and the join notice, not delivered

        platform.hold()
        held = asyncio.ensure_future(service.handle(Incoming(busy, "u:ben", "Ben", "/etat")))
        await until(lambda: platform.held == 1, "Ben's answer at the platform")
        now[0] += LATE_SECONDS + 1
        await service.tick()
        assert service.overload.overloaded

        platform.release()  # the platform takes Ben's answer; no answer is late now, overload lasts 10 s more
        await held
        joined = await service.handle(Incoming(calm, "u:cy", "Cy", "/rejoindre"))
        assert [(r.to_user, r.text) for r in joined] == [("u:cy", "Vous voici inscrit à la partie sous le nom Cy.")]
        await service.flush_outbox(everything=True)
        assert not any(is_live(r) for r in platform.delivered)
        dropped = storage.db.execute("select count(*) from outbox where last_error = 'shed' and dropped is not null")
        assert dropped.fetchone()[0] == 2
        assert [shed(metrics, what) for what in Shed] == [1, 2, 0]  # Ana's counter; her notice and Cy's
    finally:
        await service.stop()
        referee.clock.shutdown()
