"""Crowded Telegram groups at a round's close (issue 36, "crowds"): real python-telegram-bot against the fake Bot
API with Telegram's flood control on (tests/fakes/telegram_limits.py), the adapter built as in production (its
pacer, python-telegram-bot's limiter as it builds it, its intervals), images on.

``test_twenty_standings_just_before_a_close``: twenty ``/classement`` in a group of 50 players, 4 s before each
round's deadline (15 players and 5 onlookers who never opened a private chat with the bot). Before, they made
twenty identical standings photos that took the group's budget (about 20 messages a minute) and the close waited
behind them: results 57 s after the deadline, one 429. Now a view asked again unchanged within a minute in the
same room is answered privately (``once_in_public``): one photo in the group, for one asker; the other players
get it in their private chat with the bot, as text under the line saying the group's copy is current; an
onlooker the bot may not write to (Telegram refuses: they never pressed Start) is named in the group's note with
the link that opens that chat, the photo above it in the group.

``test_two_groups_close_together``: two groups of 50 on one bot, three one-minute rounds, every answer in the
round's last 5 s. Before, the clock's next tick waited until the previous close's messages went out at the
platform's pace: the second group's draw came 5.9 s after the deadline, its results 7.9 s.

The clocks are the test's (as in ``test_closes_across_rooms``): the fake's clock, which the referee and the
adapter read, is frozen and moves with the event loop's only when the test moves them. At each deadline the test
waits, clocks still, until the closes are stored (their own work in real time: printed, never asserted), then
lets both clocks run until the draws and results are posted. Asserted, on the fake's clock where it stamps each
message: every next draw within 2 s of its opening (the round's deadline) and every result within 5 s of it, the
count exact in the results' first line, every acknowledgement once, no 429. The measured figures are printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.telegrambot.admins import ALLOWED_UPDATES
from bot.adapters.telegrambot.pacing import FloodPacer
from bot.messages import say
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.fakes import FakeTelegram, SentMessage, TgUser, running_application
from tests.fakes.telegram_limits import FloodRefusal
from tests.loop_time import LoopTime
from tests.ready_lists import ready_registry

LEXICONS = ready_registry()
PLAYERS = 50
ROUNDS = 3
DRAW_BOUND = 2.0  # seconds from a round's opening (the last one's deadline) to its draw in the group
RESULTS_BOUND = 5.0  # seconds from a round's deadline to its results in the group
REAL_WAIT = 120.0  # real seconds the test waits for anything at most (a busy machine); bounds asserted apart
CLOSE_WORK = 30.0  # real seconds a close may take, clocks still, before the test moves them (see ``closed``)
LINK = "https://t.me/TestBot?start=play"
SHOWN_ABOVE = say("fr", "view_shown_above", seconds=1).split(" 1 ")[0]  # "Déjà affiché dans le salon il y a"
# test_twenty_standings_just_before_a_close
ASKERS = 20
ONLOOKERS = 5  # of the askers, each round: members of the group who never opened a private chat with the bot
ASKED_BEFORE = 4.0  # seconds before the deadline
# test_two_groups_close_together
LAST_SECONDS = 5.0  # every answer comes in the round's last 5 s ...
SLICES = 10  # ... in ten slices of half a second, a tenth of each group's players in each


def is_draw(record: SentMessage, number: int) -> bool:
    text = record.text or ""
    return record.action == "send" and f"Coup {number} — tirage" in text and "Fin dans" in text


def is_results(record: SentMessage, number: int) -> bool:
    text = record.text or ""
    return record.action == "send" and text.startswith(f"Coup {number} clos : ") and "Top :" in text


CLOSE_IMAGES = re.compile(r"Coup \d+ : le résultat en image|Classement après \d+ coups?, en image")


def is_close_image(record: SentMessage, number: int | None = None) -> bool:
    """One of the two images a close posts after its results (the result, the standings), of round ``number``
    (None: any)."""
    text = record.text or ""
    if number is None:
        return record.method == "sendPhoto" and CLOSE_IMAGES.match(text) is not None
    return record.method == "sendPhoto" and (
        text == say("fr", "dup_result_image", n=number) or text == say("fr", "dup_standings_image", n=number)
    )


def counted(results: SentMessage) -> tuple[int, int]:
    """The count heading the results: "Coup N clos : X joueurs sur Y ont joué"."""
    first = (results.text or "").split("\n", 1)[0]
    found = re.match(r"Coup \d+ clos : (\d+) joueurs? sur (\d+) (?:a|ont) joué", first)
    assert found, first
    return int(found.group(1)), int(found.group(2))


def refusals(tg: FakeTelegram) -> list[FloodRefusal]:
    """The 429s the fake served."""
    assert tg.flood is not None
    return tg.flood.refused


def acknowledged(tg: FakeTelegram, person: TgUser) -> list[int]:
    """The rounds whose answer ``person`` was acknowledged in private, one entry per acknowledgement."""
    texts = [r.text or "" for r in tg.log.records if r.chat_id == person.id and r.action == "send"]
    return [int(m.group(1)) for t in texts if (m := re.match(r"Reçu pour le coup (\d+)", t))]


def all_acknowledged(tg: FakeTelegram, people: list[TgUser], number: int) -> Callable[[], bool]:
    """Whether every one of ``people`` had their answer to round ``number`` acknowledged."""
    return lambda: all(number in acknowledged(tg, p) for p in people)


def seconds(values: list[float]) -> str:
    return "[" + ", ".join(f"{v:.2f}" for v in values) + "] s"


class Clocks:
    """The fake's clock (frozen: the referee's and the adapter's) and the event loop's, moved by the test."""

    def __init__(self, tg: FakeTelegram, loop_time: LoopTime) -> None:
        self.tg, self.loop_time = tg, loop_time
        self.mover: asyncio.Task[None] | None = None
        tg.clock.freeze()

    @contextlib.asynccontextmanager
    async def moving_at_exit(self) -> AsyncIterator[None]:
        """On the way out (a failure included), both clocks moving on their own until :meth:`stop`: what still
        waits for Telegram's pace (a message held by the pacer) ends, and the application stops."""
        try:
            yield
        finally:
            self.mover = asyncio.ensure_future(self._move_on())

    async def _move_on(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.move(0.05)

    async def stop(self) -> None:
        if self.mover is not None:
            self.mover.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.mover

    def move(self, seconds: float) -> None:
        self.tg.advance(seconds)
        self.loop_time.jump(seconds)

    async def advance(self, seconds: float, step: float = 0.5) -> None:
        """Both clocks ``seconds`` further, by steps, letting what falls due in each step run."""
        while seconds > 1e-9:
            moved = min(step, seconds)
            self.move(moved)
            seconds -= moved
            for _ in range(5):
                await asyncio.sleep(0)

    async def to(self, at: float, step: float = 0.5) -> None:
        """Both clocks on to the fake's ``at`` (a deadline: the clock's next tick closes the round), by steps."""
        await self.advance(max(0.0, at - self.tg.now()), step)
        while self.tg.now() < at:  # a Unix time plus an offset rounds: a unit of the last place may be missing
            self.move(math.ulp(at))

    async def running(self, done: Callable[[], bool], what: str, *, limit: float | None = None) -> None:
        """Until ``done()``: the fake's clock following real time (the loop's does already), never past its
        ``limit``: what waits for Telegram's pace ends as it would, and the bot's own work counts as long as
        it takes. (Both clocks 0.05 s further at each 0.01 s of real time, as before, counted the bot's work
        five times over: a draw 2.5 s late in a loaded full run.)"""
        started = last = time.monotonic()
        while not done():
            if time.monotonic() - started > REAL_WAIT:
                raise AssertionError(f"never: {what}")
            await asyncio.sleep(0.01)
            now = time.monotonic()
            move = now - last if limit is None else min(now - last, limit - self.tg.now())
            last = now
            if move > 0:
                self.tg.advance(move)

    async def real_pace(self, done: Callable[[], bool], until: float) -> float | None:
        """The fake's clock going as real time does (the loop's does already) until ``done()`` or its ``until``;
        when ``done()`` held, the fake's time it first did, else None."""
        last = time.monotonic()
        while self.tg.now() < until:
            if done():
                return self.tg.now()
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.tg.advance(min(now - last, until - self.tg.now()))
            last = now
        return self.tg.now() if done() else None


async def still(done: Callable[[], bool], what: str, real: float = REAL_WAIT) -> None:
    """Until ``done()``, the clocks still (real time: the bot's own work), ``real`` seconds at most."""
    started = time.monotonic()
    while not done():
        if time.monotonic() - started > real:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.01)


def players_of(storage: SQLiteStorage, group: int) -> int:
    record = storage.active_game(f"telegram:{group}")
    return 0 if record is None else len(storage.players(record.id))


def closes_of(storage: SQLiteStorage, number: int) -> int:
    ((closed,),) = storage.db.execute("select count(*) from closes where round = ?", (number,)).fetchall()
    return int(closed)


def answers_of(storage: SQLiteStorage, group: int) -> int:
    """The answers stored in the group's game, every round."""
    record = storage.active_game(f"telegram:{group}")
    assert record is not None
    return sum(e.data.get("kind") == "submit" for e in storage.events(record.id))


def deadline_of(storage: SQLiteStorage, groups: list[int], number: int) -> float:
    """When round ``number`` of every group's game closes (the same moment: their games began together)."""
    found = [d for d in storage.deadlines() if d.channel in {f"telegram:{g}" for g in groups}]
    assert sorted(d.round for d in found) == [number] * len(groups), found
    (at,) = {d.at for d in found}
    return at


def stored_after(storage: SQLiteStorage, before: dict[int, int]) -> Callable[[], bool]:
    """Whether each group's game holds a slice's answers more than ``before`` (group -> answers)."""
    return lambda: all(answers_of(storage, g) == n + PLAYERS // SLICES for g, n in before.items())


def drained(storage: SQLiteStorage) -> bool:
    return all(b.waiting == 0 for b in storage.outbox_backlog())


def built(tg: FakeTelegram, storage: SQLiteStorage) -> TelegramAdapter:
    """The adapter as in production (its pacer, the library's limiter, its intervals), but the clock's tick
    (0.05 s, not 0.5) and the fake's clock."""
    adapter = TelegramAdapter(
        Referee(storage, LEXICONS, now=tg.now, images=True),
        tg.token,
        base_url=tg.base_url,
        tick_seconds=0.05,
        clock=tg.now,
    )
    assert isinstance(adapter.application.bot.rate_limiter, FloodPacer)
    return adapter


async def opened(
    tg: FakeTelegram, clocks: Clocks, storage: SQLiteStorage, groups: dict[int, list[TgUser]], referee: TgUser
) -> None:
    """Every group's game begun at the same moment, the clocks still (the same deadlines), then every player
    joined."""
    for group in groups:
        await tg.send_user_message(group, referee, "/duplicate 1")
    await still(lambda: all(storage.active_game(f"telegram:{g}") is not None for g in groups), "the games begun")
    for group, people in groups.items():
        for person in people:
            await tg.send_user_message(group, person, "/rejoindre")
    await clocks.running(
        lambda: all(any(is_draw(r, 1) for r in tg.log.records if r.chat_id == g) for g in groups), "the first draws"
    )
    await still(lambda: all(players_of(storage, g) == len(p) for g, p in groups.items()), "every player joined")


async def closed(
    tg: FakeTelegram, clocks: Clocks, storage: SQLiteStorage, groups: list[int], number: int, since: int
) -> dict[int, tuple[SentMessage, SentMessage]]:
    """Round ``number`` closed in every group at its deadline (now): the closes stored, clocks still (their own
    work, in real time), then both clocks running until every group has its next draw and its results; each
    group's (draw, results). A close that waits for something held by Telegram's pace (the commands asked in the
    room before the deadline, when their answers queued at the group's pace) is never stored while the clocks
    stand still: after ``CLOSE_WORK`` real seconds the clocks run too, and that wait shows in the delays."""
    try:
        await still(lambda: closes_of(storage, number) >= len(groups), f"round {number} closed", CLOSE_WORK)
    except AssertionError:
        await clocks.running(lambda: closes_of(storage, number) >= len(groups), f"round {number} closed")

    def posts() -> dict[int, tuple[SentMessage, SentMessage]]:
        later = tg.log.records[since:]
        found = {}
        for group in groups:
            draw = next((r for r in later if r.chat_id == group and is_draw(r, number + 1)), None)
            results = next((r for r in later if r.chat_id == group and is_results(r, number)), None)
            if draw is not None and results is not None:
                found[group] = (draw, results)
        return found

    await clocks.running(lambda: len(posts()) == len(groups), f"round {number}'s draws and results")

    def pictured() -> bool:
        later = tg.log.records[since:]
        return all(sum(r.chat_id == g and is_close_image(r, number) for r in later) == 2 for g in groups)

    # then the images, drawn after the results (real time) and posted after them
    await clocks.running(pictured, f"round {number}'s images")
    return posts()


@dataclass
class Asked:
    """Twenty /classement asked in the group: who (user id -> their message's id), which of them never pressed
    Start, and where the fake's log and requests stood then."""

    tg: FakeTelegram
    group: int
    asked: dict[int, int]
    onlookers: list[TgUser]
    since: int  # in the fake's log
    since_request: int  # in the fake's requests

    def view_photos(self) -> list[SentMessage]:
        """The photos posted in the group since, but a close's images: the view's."""
        later = self.tg.log.records[self.since :]
        return [r for r in later if r.chat_id == self.group and r.method == "sendPhoto" and not is_close_image(r)]

    def private(self) -> list[int]:
        """The askers answered privately (the room's copy under the line saying it is current), once each."""
        later = self.tg.log.records[self.since :]
        return [r.chat_id for r in later if r.chat_id in self.asked and (r.text or "").startswith(SHOWN_ABOVE)]

    def refused(self) -> list[int]:
        """The askers the bot tried to write to privately and Telegram refused (they never pressed Start)."""
        ids = {u.id for u in self.onlookers}
        requests = self.tg.requests[self.since_request :]
        return [p["chat_id"] for m, p in requests if m == "sendMessage" and p.get("chat_id") in ids]

    def handled(self) -> bool:
        """Whether every asker has been answered as far as Telegram lets the bot: in the group or privately."""
        return len(self.view_photos()) + len(set(self.private()) | set(self.refused())) >= len(self.asked)

    def notes(self) -> str:
        """The group's notes with the link to the private chat since, joined."""
        later = self.tg.log.records[self.since :]
        return "\n".join(r.text or "" for r in later if r.chat_id == self.group and LINK in (r.text or ""))

    def named(self) -> bool:
        """Whether every asker the bot could not write to is named in a note of the group."""
        notes = self.notes()
        return all(self.tg.users[user].first_name in notes for user in self.refused())


@pytest.mark.long(41)
@pytest.mark.asyncio
async def test_twenty_standings_just_before_a_close(storage: SQLiteStorage, loop_time: LoopTime) -> None:
    group = -4_000_000_736
    async with FakeTelegram(bot_username="TestBot") as tg:  # Telegram's flood control on (telegram_limits)
        clocks = Clocks(tg, loop_time)
        tg.add_group(group, "Club")
        referee = tg.add_user(first_name="Arbitre", started=True)
        tg.set_member(group, referee, "creator")
        people = [tg.add_user(first_name=f"P{i + 1:02d}", started=True) for i in range(PLAYERS)]
        onlookers = [tg.add_user(first_name=f"Spectateur{i + 1:02d}") for i in range(ONLOOKERS * ROUNDS)]
        for person in people + onlookers:
            tg.set_member(group, person, "member")
        adapter = built(tg, storage)
        draw_delays: list[float] = []
        result_delays: list[float] = []
        answered_in: list[float] = []  # fake seconds from the twenty asked to each of them answered
        photos: list[int] = []  # view photos in the group, each round
        notes: list[int] = []  # notes in the group with the link to the private chat, each round
        per_round: list[int] = []  # messages and edits to the group, each round
        async with (
            running_application(adapter.application, tg, allowed_updates=list(ALLOWED_UPDATES)),
            clocks.moving_at_exit(),
        ):
            await opened(tg, clocks, storage, {group: people}, referee)
            for number in range(1, ROUNDS + 1):
                start = len(tg.log.records)
                for person in people:  # every answer, in private, at the round's start
                    await tg.send_user_message(None, person, "/jouer H8 ZZZ", chat_type="private")
                await clocks.running(all_acknowledged(tg, people, number), "the acks")
                deadline = deadline_of(storage, [group], number)
                await clocks.running(lambda: drained(storage), "the outbox drained", limit=deadline - ASKED_BEFORE)
                await clocks.to(deadline - ASKED_BEFORE)
                # twenty ask for the standings in the group in the same second: fifteen players, five onlookers
                since, since_request = len(tg.log.records), len(tg.requests)
                looking = onlookers[(number - 1) * ONLOOKERS : number * ONLOOKERS]
                askers = people[(number - 1) * 15 : number * 15] + looking
                asked = {p.id: (await tg.send_user_message(group, p, "/classement"))["message_id"] for p in askers}
                views = Asked(tg, group, asked, looking, since, since_request)
                assert len(asked) == ASKERS
                # the four seconds go by as real time does while the bot answers them
                at = await clocks.real_pace(views.handled, deadline)
                answered_in.append((at if at is not None else float("nan")) - (deadline - ASKED_BEFORE))
                await clocks.to(deadline)  # the round closes, the next opens
                draw, results = (await closed(tg, clocks, storage, [group], number, since))[group]
                draw_delays.append(draw.at - deadline)
                result_delays.append(results.at - deadline)
                print(
                    f"round {number}: draw {draw.at - deadline:.2f} s after the deadline, results "
                    f"{results.at - deadline:.2f} s, view photos so far {len(views.view_photos())}, "
                    f"429s so far {len(refusals(tg))}"
                )
                assert counted(results) == (PLAYERS, PLAYERS)  # the count, exact
                await clocks.running(views.handled, "every asker answered")
                # each onlooker the bot could not write to is named in the group's note with the link that opens
                # the private chat (one note a live interval, 15 s, names those who came meanwhile)
                await clocks.running(views.named, "the notes")
                view_photos = views.view_photos()
                photos.append(len(view_photos))
                assert len(view_photos) == 1, [r.short() for r in view_photos]  # one photo for the twenty
                private, refused = views.private(), views.refused()
                assert len(private) == len(set(private))  # once each
                assert len(refused) == len(set(refused))
                (shown,) = set(asked) - set(private) - set(refused)  # the one answered in the group
                assert set(private) == {p.id for p in askers if p not in looking} - {shown}
                assert set(refused) == {p.id for p in looking} - {shown}  # then named in a note (above)
                if view_photos[0].reply_to is not None:  # in reply to them when it went in their command's turn
                    assert view_photos[0].reply_to == asked[shown]
                # privately, the group's text under the line saying it is current (the group's copy: the photo's
                # caption when the text fits in it, as the first page of fifty players' standings does, else the
                # text message after the photo)
                caption = view_photos[0].text or ""
                view_text = (
                    caption
                    if caption.startswith("Classement")
                    else next(
                        r.text or ""
                        for r in tg.log.records[since:]
                        if r.chat_id == group and r.method == "sendMessage" and r.seq > view_photos[0].seq
                    )
                )
                assert view_text.startswith("Classement"), view_text
                assert "(page 1/2)" in view_text  # fifty players: read page by page, the image has them all
                for user in private:
                    (mine,) = [
                        r.text or ""
                        for r in tg.log.records[since:]
                        if r.chat_id == user and (r.text or "").startswith(SHOWN_ABOVE)
                    ]
                    assert mine.split("\n", 1)[1] == view_text, (user, mine)
                notes.append(views.notes().count(LINK))
                per_round.append(
                    sum(1 for r in tg.log.records[start:] if r.chat_id == group and r.action in ("send", "edit"))
                )
            await clocks.running(lambda: drained(storage), "the outbox drained")
        await clocks.stop()
        backlog = storage.outbox_backlog()
        print(
            f"twenty /classement 4 s before the deadline, {PLAYERS} players: answered after {seconds(answered_in)}"
            f" (fake's clock, as real time); view photos in the group {photos}, notes with the link {notes}; draws "
            f"after the deadline "
            f"{seconds(draw_delays)}, results {seconds(result_delays)}; group messages and edits per round "
            f"{per_round}; 429s {len(refusals(tg))}"
        )
        assert all(d <= DRAW_BOUND for d in draw_delays), draw_delays
        assert all(d <= RESULTS_BOUND for d in result_delays), result_delays
        assert refusals(tg) == [], refusals(tg)
        for person in people:  # every acknowledgement, once
            assert sorted(acknowledged(tg, person)) == list(range(1, ROUNDS + 1)), person
        assert all(b.waiting == 0 and b.dead == 0 for b in backlog), backlog


@pytest.mark.long(17)
@pytest.mark.asyncio
async def test_two_groups_close_together(storage: SQLiteStorage, loop_time: LoopTime) -> None:
    groups = [-4_000_000_811, -4_000_000_812]
    async with FakeTelegram(bot_username="TestBot") as tg:  # Telegram's flood control on (telegram_limits)
        clocks = Clocks(tg, loop_time)
        referee = tg.add_user(first_name="Arbitre", started=True)
        crowds: dict[int, list[TgUser]] = {}
        for g, group in enumerate(groups):
            tg.add_group(group, f"Club {g + 1}")
            tg.set_member(group, referee, "creator")
            crowds[group] = [tg.add_user(first_name=f"G{g + 1}P{i + 1:02d}", started=True) for i in range(PLAYERS)]
            for person in crowds[group]:
                tg.set_member(group, person, "member")
        adapter = built(tg, storage)
        draw_delays: dict[int, list[float]] = {g: [] for g in groups}
        result_delays: dict[int, list[float]] = {g: [] for g in groups}
        async with (
            running_application(adapter.application, tg, allowed_updates=list(ALLOWED_UPDATES)),
            clocks.moving_at_exit(),
        ):
            await opened(tg, clocks, storage, crowds, referee)  # the same moment: the same deadlines
            for number in range(1, ROUNDS + 1):
                deadline = deadline_of(storage, groups, number)
                last = deadline - LAST_SECONDS
                await clocks.running(lambda: drained(storage), "the outbox drained", limit=last)
                await clocks.to(last)  # the warnings on the way
                for piece in range(SLICES):  # the answers, all in the round's last 5 s
                    stored = {g: answers_of(storage, g) for g in groups}
                    for people in crowds.values():
                        for person in people[piece::SLICES]:
                            await tg.send_user_message(None, person, "/jouer H8 ZZZ", chat_type="private")
                    # each stored before the clocks go on: received in time (their acks go at Telegram's pace)
                    await still(stored_after(storage, stored), f"slice {piece} of round {number} stored")
                    # on to the slice's end, computed from the deadline (steps added one by one drift: the last
                    # slice ended a hair before the deadline)
                    await clocks.to(deadline - LAST_SECONDS * (SLICES - 1 - piece) / SLICES, step=LAST_SECONDS / SLICES)
                assert tg.now() >= deadline
                since = len(tg.log.records)
                posts = await closed(tg, clocks, storage, groups, number, since)
                for group, (draw, results) in posts.items():
                    draw_delays[group].append(draw.at - deadline)
                    result_delays[group].append(results.at - deadline)
                    assert counted(results) == (PLAYERS, PLAYERS)  # the count, exact
                    assert draw.seq < results.seq  # in each group, its draw first
                print(
                    f"round {number}: draws after the deadline "
                    f"{[round(d[-1], 2) for d in draw_delays.values()]} s, results "
                    f"{[round(r[-1], 2) for r in result_delays.values()]} s; 429s so far {len(refusals(tg))}"
                )
                everyone = [p for people in crowds.values() for p in people]
                await clocks.running(all_acknowledged(tg, everyone, number), "the acks")
            await clocks.running(lambda: drained(storage), "the outbox drained")
        await clocks.stop()
        backlog = storage.outbox_backlog()
        for g, group in enumerate(groups):
            print(
                f"group {g + 1} of 2 x {PLAYERS}, answers in the last {LAST_SECONDS:.0f} s: draws after the "
                f"deadline {seconds(draw_delays[group])}, results {seconds(result_delays[group])} (fake's clock)"
            )
        print(f"429s {len(refusals(tg))}")
        for group in groups:
            assert all(d <= DRAW_BOUND for d in draw_delays[group]), draw_delays
            assert all(d <= RESULTS_BOUND for d in result_delays[group]), result_delays
        assert refusals(tg) == [], refusals(tg)
        for people in crowds.values():  # every acknowledgement, once
            for person in people:
                assert sorted(acknowledged(tg, person)) == list(range(1, ROUNDS + 1)), person
        assert all(b.waiting == 0 and b.dead == 0 for b in backlog), backlog
        for group in groups:  # and every answer counted in its round
            assert answers_of(storage, group) == PLAYERS * ROUNDS
