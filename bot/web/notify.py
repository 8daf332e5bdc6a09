"""Rooms changed in one process told to the others on the same PostgreSQL database (the live pages of
``bot.web``): each referee's ``RoomNotifier`` sends the watched rooms of each committed change as
``pg_notify`` on ``ROOMS_CHANNEL``; a process serving pages listens on it and wakes its hub.

Only rooms a page may show are told: those with a live link (``views``, ``simultane_views``) and the rooms
and organisers' rooms of their simultanés, a set each process keeps (``live``), read again after any
process changed the links or a simultané's rooms (a ``/vue`` or ``/simultane`` command sends ``VIEWS_CHANNEL``,
which every process hears). A room nobody can watch costs a command nothing: no statement, no wake-up.

The sender is a thread of its own that borrows one of the storage's pooled connections: a command only
adds its rooms to a set (no statement on its connection, no round trip, no notify in its transaction:
PostgreSQL serialises the commits of the transactions that notify). The rooms told meanwhile go in one
statement, one notification per room, at most every ``PACE_SECONDS``. The listener is a thread blocked on
a dedicated connection (psycopg's synchronous ``notifies``: the storage is synchronous, and a thread serves
every adapter's event loop alike); it connects again after its connection drops, and then reads the links
again and wakes every page (what was said meanwhile is lost). A notification carries a room's key and
nothing else. SQLite and memory stores are one process: ``notifier_for`` gives None for them.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..backoff import ceiling

if TYPE_CHECKING:
    from ..storage import Storage
    from ..storage.sql.postgres import PostgresStorage

log = logging.getLogger("arbitre")

ROOMS_CHANNEL = "arbitre_rooms"  # each payload is one room's key
VIEWS_CHANNEL = "arbitre_views"  # a process changed the links or a simultané's rooms (no payload)
PACE_SECONDS = 0.05  # a sender's statements are at least this far apart (the rooms told meanwhile: one)
POLL_SECONDS = 0.5  # how often the listener looks whether it must stop or listen to more
IDLE_SECONDS = 1.0  # how often an idle sender looks whether its storage was closed
MOST_BYTES = 7999  # PostgreSQL refuses a payload of 8000 bytes or more: a longer key is not told

# The rooms a page may show: those with a live link, and every room (the organiser's too) of their simultanés.
LIVE_ROOMS = """
with watched as (
    select channel from views where revoked is null
    union select channel from simultane_views where revoked is null),
shared as (
    select id from simultanes where channel in (select channel from watched)
    union select simultane from simultane_rooms where channel in (select channel from watched))
select channel from watched
union select channel from simultanes where id in (select id from shared)
union select channel from simultane_rooms where simultane in (select id from shared)
"""

Wake = Callable[[str], None]


def notifier_for(storage: Storage) -> RoomNotifier | None:
    """The sender of ``storage``'s changes to the other processes (None: a store of one process)."""
    url = getattr(storage, "url", None)
    if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
        return None
    from ..storage.sql.postgres import PostgresStorage  # psycopg is loaded only by those who use it

    return RoomNotifier(storage) if isinstance(storage, PostgresStorage) else None


class RoomNotifier:
    """Tells the other processes which watched rooms changed (``tell``: any thread, never waits), and
    hears what they tell (``listen``)."""

    def __init__(self, storage: PostgresStorage, pace: float = PACE_SECONDS) -> None:
        self.storage = storage
        self.pace = pace
        self.statements = 0  # statements sent (a test and the report count them)
        self.notified = 0  # notifications sent (one per room per statement)
        self.sessions: set[int] = set()  # the server processes of the connections it sent from
        self.live: frozenset[str] = frozenset()
        self._stale = True  # ``live`` must be read before it filters
        self._pending: set[str] = set()
        self._views_told = False  # this process changed the links: the others are to read theirs again
        self._forced: set[str] = set()  # rooms of such a change: told even if no longer watched (a link revoked)
        self._wanted = threading.Condition(threading.RLock())  # ``held`` and ``tell`` in one thread
        self._thread: threading.Thread | None = None
        self.listener = RoomListener(storage.url, self)

    def tell(self, rooms: Iterable[str], views: bool = False) -> None:
        """Rooms whose change was committed: sent soon if a page may show them (once each, however many
        changes meanwhile). ``views``: the change may have made or revoked a link, or changed a simultané's
        rooms."""
        wanted = {r for r in rooms if r and len(r.encode()) <= MOST_BYTES}
        if self.storage.pool.closed:
            return
        with self._wanted:
            if views:
                self._stale = self._views_told = True
                self._forced.update(wanted)
            elif not self._stale:
                wanted &= self.live
            if not wanted and not views:
                return
            self._pending.update(wanted)
            self._start()
            self._wanted.notify()

    def start(self) -> None:
        """Listen (and be ready to send) at once rather than at the first change."""
        with self._wanted:
            self._start()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="arbitre-notify", daemon=True)
            self._thread.start()

    def links_changed(self) -> None:
        """Some process changed the links (the listener's thread): ``live`` is read again before it filters."""
        with self._wanted:
            self._stale = True

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Nothing sent meanwhile (in this thread): what is told goes in one statement after."""
        with self._wanted:
            yield

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until what was told is sent (tests); whether it was."""
        with self._wanted:
            return self._wanted.wait_for(lambda: not self._pending and not self._views_told, timeout)

    def _run(self) -> None:
        pause = threading.Event()
        self.listener.start()
        self.listener.listening.wait(5.0)  # a link made elsewhere from now on is heard
        while not self.storage.pool.closed:
            with self._wanted:
                if not self._pending and not self._views_told:
                    self._wanted.wait(IDLE_SECONDS)
                    continue
                rooms, views, stale, forced = set(self._pending), self._views_told, self._stale, set(self._forced)
                self._stale = False  # a change heard from now on marks it again
            try:
                if stale:
                    live = frozenset(str(row[0]) for row in self._query(LIVE_ROOMS, []))
                    with self._wanted:
                        self.live = live
                self._send(sorted(rooms & self.live | forced), views)
            except Exception as error:  # the server went away or the pool closed: these wake-ups are lost
                if not self.storage.pool.closed:
                    log.warning("could not tell the other processes of %d rooms: %s", len(rooms), error)
                with self._wanted:
                    self._stale = True
            with self._wanted:
                self._pending.difference_update(rooms)
                self._forced.difference_update(forced)
                self._views_told = self._views_told and not views
                self._wanted.notify_all()
            pause.wait(self.pace)
        self.listener.close()
        with self._wanted:
            self._thread = None

    def _query(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        with self.storage.pool.connection() as conn:
            self.sessions.add(conn.info.backend_pid)  # before it notifies: its listener may hear it at once
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def _send(self, rooms: list[str], views: bool) -> None:
        if not rooms and not views:
            return
        channels = [ROOMS_CHANNEL] * len(rooms) + [VIEWS_CHANNEL] * views
        self._query(
            "select pg_notify(c, p) from unnest(cast(%s as text[]), cast(%s as text[])) as n(c, p)",
            [channels, [*rooms, ""][: len(channels)]],
        )
        self.statements += 1
        self.notified += len(rooms)


class RoomListener:
    """A thread hearing what the other processes tell, on a connection of its own: the links changed (for
    its notifier), and, once ``listen`` asked, the rooms changed (for the hub of a process serving pages)."""

    def __init__(self, url: str, notifier: RoomNotifier) -> None:
        self.url = url
        self.notifier = notifier
        self.wake: Wake | None = None
        self.everything: Callable[[], None] | None = None
        self.connections = 0  # how many times it connected (a reconnection counts)
        self.received = 0  # rooms other processes told of
        self.own_heard = 0  # what this process told, not passed on (its hub knew already)
        self.backend_pid: int | None = None  # its session's server process (a test terminates it)
        self.listening = threading.Event()  # set while LISTEN holds
        self.rooms_heard = threading.Event()  # set while it listens to the rooms too
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def listen(self, wake: Wake, everything: Callable[[], None]) -> None:
        """Call ``wake`` with each room another process changed, ``everything`` after connecting again."""
        self.wake, self.everything = wake, everything
        self.start()

    def unlisten(self) -> None:
        """Pass no room on any more (the pages stopped; the links are still heard)."""
        self.wake = self.everything = None

    def start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arbitre-listen", daemon=True)
                self._thread.start()

    def close(self, timeout: float = 2 * POLL_SECONDS + 1) -> None:
        """Stop listening (waits for the thread a moment)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set() and not self.notifier.storage.pool.closed:
            try:
                self._listen()
                failures = 0
            except Exception as error:
                self.listening.clear()
                self.rooms_heard.clear()
                if self._stop.is_set():
                    return
                failures += 1
                log.warning("lost the notifications of the other processes (%s); connecting again", error)
                self._stop.wait(ceiling(failures - 3, 5.0) if failures > 1 else 0.1)

    def _listen(self) -> None:
        import psycopg

        conn: psycopg.Connection[Any]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"listen {VIEWS_CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connections += 1
            self.notifier.links_changed()  # what changed before is read again
            self.listening.set()
            rooms = False
            while not self._stop.is_set() and not self.notifier.storage.pool.closed:
                if self.wake is not None and not rooms:
                    conn.execute(f"listen {ROOMS_CHANNEL}")
                    rooms = True
                    self.rooms_heard.set()
                    if self.connections > 1 and self.everything is not None:
                        self.everything()  # what other processes said while it was away is lost
                for note in conn.notifies(timeout=POLL_SECONDS):
                    self._heard(note.channel, note.payload, note.pid)

    def _heard(self, channel: str, payload: str, pid: int) -> None:
        if pid in self.notifier.sessions:  # this process's: its hub and its links were told already
            self.own_heard += 1
            return
        if channel == VIEWS_CHANNEL:
            self.notifier.links_changed()
            return
        self.received += 1
        if self.wake is not None:
            self.wake(payload)
