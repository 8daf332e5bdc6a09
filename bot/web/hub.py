"""The in-process hub between the command layer and the live pages: the referee tells it which room
changed once the change is committed (``Referee.changed``), and that is all the command does: the hub
marks the room and wakes the room's feed, a task in the event loop that builds the room's public state
once (in a worker thread) and writes it to every page watching the room. No viewer ever reads the
database: a page gets one snapshot when it connects, then what its room's feed writes.

The feed coalesces: it waits ``SETTLE_SECONDS`` after a change, and the changes that arrive meanwhile, or
while it builds or writes, make one state, the newest (a burst of answers: a few states a second). A
write never waits for a viewer: a page whose connection has not taken its last states yet (its buffer
above the low-water mark) is skipped and keeps only the newest state, sent when it has room again (at the
next change or keep-alive); one whose buffer passes ``DROP_BYTES`` is disconnected (its page reconnects
and gets a snapshot). The feed yields to the loop every ``CHUNK`` pages, so that 500 viewers of a room
never hold a command's reply back for long. A page is sent a state only when what it shows differs from
the last state it was sent (the server's time left out): another room of a simultané playing on wakes
this room's feed, whose state then changes nothing here and goes nowhere. States carry a version (the
game shown, then its event count, the simultané's games' added) so that a page never goes back to an
older one; a room's link follows the room from game to game (``Storage.room_game``). With several
processes on one PostgreSQL database, the rooms the others change arrive the same way, from the referee's
notifier's listener (``bot.web.notify``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from core.duplicate import DuplicateGame

from ..storage import (
    ChannelStore,
    GameKind,
    GameRecord,
    GameStatus,
    Transactions,
    ViewRecord,
    ViewStore,
)
from .notify import RoomListener
from .simultane_state import SimultaneReads, overall_state, related_channels, simultane_room_of_game
from .state import State, classic_state, duplicate_state, gone_state

if TYPE_CHECKING:
    from ..referee import Referee

log = logging.getLogger("arbitre")

REVOKED = ""  # the payload that ends a viewer's stream (its link was revoked)
CHUNK = 50  # pages written to before the feed lets the loop run its other tasks (a command's reply)
DROP_BYTES = 1 << 20  # a page this far behind is disconnected rather than kept
SETTLE_SECONDS = 0.1  # a feed waits this long after a change for the ones that follow (a burst of /play)
RETRY_SECONDS = 1.0  # a state that could not be built (the database away) is built again this much later

Version = tuple[int, int]  # the game shown (0: a simultané's page), then a count that grows as it changes


class PageReads(Transactions, ChannelStore, ViewStore, SimultaneReads, Protocol):
    """What the pages read of storage: a room's settings, its links, its games (through the games in memory),
    its simultanés and their rooms."""


@dataclass(frozen=True)
class Payload:
    """One state as sent: its JSON, the version it was built at, and the digest of what it shows (its JSON
    without the server's time): a page already shown that is not sent it again."""

    version: Version
    text: str
    digest: bytes = b""

    @functools.cached_property
    def event(self) -> bytes:
        """The server-sent event that carries it (encoded once for all its viewers)."""
        return f"event: state\ndata: {self.text}\n\n".encode()


class Link(Protocol):
    """Where a viewer's bytes go (the server's stream): a write that does not wait while ``room()`` says
    the connection has room, and the bytes it still holds."""

    def write(self, data: bytes) -> None:
        """Hand ``data`` to the connection at once (raises ``ConnectionError`` once the page went away)."""
        ...

    def room(self) -> bool:
        """Whether the connection takes more at once (its buffer at or under the low-water mark)."""
        ...

    def buffered(self) -> int: ...

    def closed(self) -> bool:
        """Whether the page went away."""
        ...


@dataclass(eq=False)
class Viewer:
    """One page's connection: the version and the digest of the state it was last sent, the newest state it
    skipped, and ``done`` set when its stream must end (revoked, or too far behind)."""

    view: ViewRecord
    link: Link
    sent_version: Version = (-1, -1)
    sent_digest: bytes | None = None
    pending: Payload | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    revoked: bool = False

    @property
    def room_key(self) -> str:
        """What the hub files it under: its room, or the organiser's room for a simultané's page."""
        return self.view.channel


@dataclass(eq=False)
class Feed:
    """One room's delivery: its pages, whether a change waits to be built, the task that delivers."""

    viewers: set[Viewer] = field(default_factory=set)
    dirty: bool = False
    related: bool = False  # the change to build is the room's own: the other rooms of its simultanés are told
    task: asyncio.Task[None] | None = None
    failing: bool = False  # its last build failed: it is tried again (said once in the log, then once it works)
    retrying: asyncio.TimerHandle | None = None  # when it is tried again


class Hub:
    """Who watches which room, and the delivery of each committed change to them."""

    def __init__(self, referee: Referee, settle: float = SETTLE_SECONDS, retry: float = RETRY_SECONDS) -> None:
        self.referee = referee
        self.settle = settle  # seconds a feed gathers changes before it builds (the page: within a second)
        self.retry = retry  # seconds before a failed build is tried again
        self.loop: asyncio.AbstractEventLoop | None = None
        self._feeds: dict[str, Feed] = {}  # by room
        self._lock = threading.Lock()
        self.states_built = 0  # how many states were built for pushes (a benchmark and tests count them)
        self.pushes = 0  # states written to a page (one a page has already is not written again)
        self.unchanged = 0  # states not written to a page because it shows them already
        self.skipped = 0  # states a page was too busy to take at once (it got the newest one later)
        self.dropped = 0  # pages disconnected for being too far behind
        self.changes = 0  # changes the referee told of while some page was open
        self.simultanes_watched = False  # a page shows a simultané's ranking: a room's change may change it
        self._overall_rooms: set[str] = set()  # the rooms whose pages show a simultané's ranking
        self.listener: RoomListener | None = None  # the other processes' changes (PostgreSQL), once listening
        self.changes_elsewhere = 0  # rooms other processes told of (``listen``)
        referee.changed = self.changed

    def watched(self, channel: str) -> bool:
        feed = self._feeds.get(channel)
        return feed is not None and bool(feed.viewers)

    def viewers(self, channel: str | None = None) -> int:
        """How many pages are connected (to ``channel``, or in all)."""
        with self._lock:
            if channel is not None:
                feed = self._feeds.get(channel)
                return 0 if feed is None else len(feed.viewers)
            return sum(len(f.viewers) for f in self._feeds.values())

    def subscribe(self, view: ViewRecord, link: Link) -> Viewer:
        """A new page of ``view``'s room (in the event loop)."""
        self.loop = asyncio.get_running_loop()
        viewer = Viewer(view, link)
        with self._lock:
            self._feeds.setdefault(viewer.room_key, Feed()).viewers.add(viewer)
        return viewer

    def unsubscribe(self, viewer: Viewer) -> None:
        with self._lock:
            feed = self._feeds.get(viewer.room_key)
            if feed is not None:
                feed.viewers.discard(viewer)
                if not feed.viewers and (feed.task is None or feed.task.done()):
                    del self._feeds[viewer.room_key]

    def changed(self, channel: str) -> None:
        """A committed change of ``channel`` (any thread; what the command pays: a wake-up of the loop).
        Never raises."""
        loop = self.loop
        if loop is None or not self._feeds:
            return
        self.changes += 1
        try:
            loop.call_soon_threadsafe(self._wake, channel, True)
        except RuntimeError:  # the loop is closed: the server stopped
            return

    def listen(self) -> None:
        """Be told of the rooms other processes on the same database change, as of the referee's own
        (PostgreSQL; nothing to do for a store of one process). In the loop, once."""
        self.loop = asyncio.get_running_loop()
        notifier = self.referee.notifier
        if self.listener is None and notifier is not None:
            self.listener = notifier.listener
            self.listener.listen(self.changed_elsewhere, self.changed_everywhere)

    async def stop_listening(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.unlisten()

    def changed_elsewhere(self, channel: str) -> None:
        """A change of ``channel`` another process committed (the listener's thread)."""
        if self._feeds:
            self.changes_elsewhere += 1
        self.changed(channel)

    def changed_everywhere(self) -> None:
        """Any room may have changed unheard (the listener connected again): every page's room built again."""
        with self._lock:
            rooms = list(self._feeds)
        for channel in rooms:
            self.changed(channel)

    def _wake(self, channel: str, origin: bool) -> None:
        """Mark ``channel`` changed and make sure its feed runs (in the loop). ``origin``: the room's own
        change (its simultanés' other pages are told too), not one passed on from another room."""
        with self._lock:
            feed = self._feeds.get(channel)
            if feed is None:
                if not origin or not self.simultanes_watched:
                    return
                feed = self._feeds[channel] = Feed()  # no page of its own, but maybe its simultané's
            feed.dirty = True
            feed.related = feed.related or origin
            if feed.task is None or feed.task.done():
                feed.task = asyncio.get_running_loop().create_task(self._deliver(channel, feed))

    async def _deliver(self, channel: str, feed: Feed) -> None:
        """Build and write the room's newest state while changes keep coming."""
        related = False
        try:
            while feed.dirty:
                if self.settle:
                    await asyncio.sleep(self.settle)  # the changes of a burst make one state
                feed.dirty, related = False, feed.related
                feed.related = False
                with self._lock:
                    viewers = list(feed.viewers)
                offers, others = await asyncio.to_thread(self._build, channel, viewers, related)
                if feed.failing:
                    feed.failing = False
                    log.warning("web: the state of %s is pushed again", channel)
                for other in others:
                    self._wake(other, False)
                await self.fan_out(offers)
        except Exception as error:
            if not feed.failing:  # once, not at every try while the database is away
                log.error("web: could not push the state of %s (tried again)", channel, exc_info=error)
            feed.failing, feed.dirty, feed.related = True, True, feed.related or related
            feed.retrying = asyncio.get_running_loop().call_later(self.retry, self._wake, channel, False)
        finally:
            with self._lock:
                if not feed.viewers and self._feeds.get(channel) is feed and not feed.dirty:
                    del self._feeds[channel]

    def _build(
        self, channel: str, viewers: list[Viewer], related: bool
    ) -> tuple[list[tuple[Viewer, Payload]], list[str]]:
        """Each viewer's payload (one built per game shown) and the rooms to tell next (in a worker thread)."""
        storage: PageReads = self.referee.storage
        others = sorted(related_channels(storage, channel)) if related else []
        others = [c for c in others if self.watched(c)]
        if not viewers:
            return [], others
        live = {v.token for v in storage.channel_views(channel)} | {v.token for v in storage.simultane_views(channel)}
        shown = storage.room_game(channel) if any(v.view.simultane is None for v in viewers) else None
        payloads: dict[int | None, Payload] = {}  # by simultané (None: the room's game)
        offers: list[tuple[Viewer, Payload]] = []
        for viewer in viewers:
            view = viewer.view
            if view.token not in live:
                offers.append((viewer, Payload((0, 0), REVOKED)))
                continue
            if view.simultane not in payloads:
                payloads[view.simultane] = self.payload(view, shown)
                self.states_built += 1
            offers.append((viewer, payloads[view.simultane]))
        return offers, others

    async def fan_out(self, offers: list[tuple[Viewer, Payload]] | list[tuple[Viewer, None]]) -> None:
        """Write each viewer its payload, yielding to the loop every ``CHUNK`` pages."""
        for n, (viewer, payload) in enumerate(offers):
            if n and n % CHUNK == 0:
                await asyncio.sleep(0)
            self.send(viewer, payload)

    def send(self, viewer: Viewer, payload: Payload | None) -> None:
        """Write ``payload`` to ``viewer`` now if its connection has room (else keep it as the newest state
        it skipped); None: its skipped state if any, else a keep-alive line. Never waits for the viewer."""
        if viewer.done.is_set():
            return
        if viewer.link.closed():
            viewer.done.set()
            return
        if payload is not None and payload.text == REVOKED:
            viewer.revoked = True
            viewer.done.set()
            return
        if payload is not None and payload.version < viewer.sent_version:
            return  # an older state than the page's (a snapshot built before the feed's last one)
        if payload is not None and payload.digest == viewer.sent_digest:
            self.unchanged += 1  # nothing the page shows has changed (another room of its simultané played)
            return
        if not viewer.link.room():
            if payload is not None:
                viewer.pending = payload
                self.skipped += 1
            if viewer.link.buffered() > DROP_BYTES:
                self.dropped += 1
                viewer.done.set()
            return
        payload, viewer.pending = payload or viewer.pending, None
        try:
            if payload is None:
                viewer.link.write(b": keep-alive\n\n")
                return
            viewer.sent_version, viewer.sent_digest = payload.version, payload.digest
            self.pushes += 1
            viewer.link.write(payload.event)
        except (ConnectionError, RuntimeError):  # the page went away meanwhile
            viewer.done.set()

    async def keep_alive(self) -> None:
        """Every page its skipped state, or a keep-alive line (the server does it every few seconds); the
        pages showing a simultané's ranking built again (a window's end shows it with no event)."""
        with self._lock:
            viewers = [v for feed in self._feeds.values() for v in feed.viewers]
            overall = [c for c in self._overall_rooms if c in self._feeds]
        await self.fan_out([(v, None) for v in viewers])
        for channel in overall:
            self._wake(channel, False)

    def idle(self) -> bool:
        """Whether no feed is building or writing (in the loop)."""
        with self._lock:
            return all(f.task is None or f.task.done() for f in self._feeds.values())

    def close(self) -> None:
        """Stop the feeds (the server stops; in the loop)."""
        with self._lock:
            tasks = [f.task for f in self._feeds.values() if f.task is not None]
            retries = [f.retrying for f in self._feeds.values() if f.retrying is not None]
        for task in tasks:
            task.cancel()
        for retry in retries:
            retry.cancel()

    def payload(self, view: ViewRecord, shown: GameRecord | None = None) -> Payload:
        """The state of what ``view`` shows as it stands, in JSON (``shown``: the room's game, if read)."""
        version, state = self.state(view, shown)
        now = state.pop("now")
        content = json.dumps(state, ensure_ascii=False, separators=(",", ":"))  # what the page shows
        digest = hashlib.blake2b(content.encode(), digest_size=16).digest()
        rest = "," + content[1:] if state else "}"
        text = f'{{"version":[{version[0]},{version[1]}],"state":{{"now":{json.dumps(now)}{rest}}}'
        return Payload(version, text, digest)

    def state(self, view: ViewRecord, shown: GameRecord | None = None) -> tuple[Version, State]:
        """The version and the public state of what ``view`` shows (``bot.web.state``): a simultané's
        ranking, or the room's game (``shown``, else read: its running game, else its last one)."""
        referee = self.referee
        storage: PageReads = referee.storage
        language = storage.channel(view.channel).language
        now = referee.now()

        def load(record: GameRecord) -> DuplicateGame:
            game: DuplicateGame = referee.games.load(storage, record)
            return game

        if view.simultane is not None:
            self.simultanes_watched = True
            self._overall_rooms.add(view.channel)
            version, overall = overall_state(storage, load, storage.simultane_by_id(view.simultane), now, language)
            return (0, version), {"kind": "simultane", "language": language, "now": now, "overall": overall}
        record = shown or storage.room_game(view.channel)
        if record is None or record.kind not in (GameKind.DUPLICATE, GameKind.CLASSIC, GameKind.ONLINE):
            game_id = view.game if record is None else record.id
            return (game_id, 0), gone_state(game_id, language, now)
        game = referee.games.load(storage, record)
        ended = record.status is not GameStatus.ACTIVE  # /end sets it, not the game's own flag
        count = len(game.events) + ended
        if record.kind is GameKind.ONLINE:  # a game the bot deals: its board and scores, never a rack
            return (record.id, count), classic_state(
                game.classic, game_id=record.id, language=language, now=now, ended=ended
            )
        if record.kind is GameKind.CLASSIC:
            return (record.id, count), classic_state(game, game_id=record.id, language=language, now=now, ended=ended)
        found = simultane_room_of_game(storage, view.channel, record.id)
        held = 0 if found is None or ended else found[1].held
        state = duplicate_state(game, game_id=record.id, language=language, now=now, ended=ended, held=held)
        if found is not None:
            self.simultanes_watched = True
            self._overall_rooms.add(view.channel)
            overall_version, state["overall"] = overall_state(storage, load, found[0], now, language)
            count += overall_version + bool(held)
        return (record.id, count), state
