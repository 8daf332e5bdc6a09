"""Rooms changed in one process told to the others on the same PostgreSQL database (the live pages of
``bot.web``): ``RoomNotifier`` sends each committed change's rooms as ``pg_notify`` on ``ROOMS_CHANNEL``,
``RoomListener`` LISTENs on it in a process serving pages and wakes that process's hub.

The sender is a thread of its own that borrows one of the storage's pooled connections: a command only
adds its rooms to a set (no statement, no round trip, no notify in its transaction: PostgreSQL
serialises the commits of the transactions that notify). The rooms told meanwhile go in one statement,
one notification per room, at most every ``PACE_SECONDS``. The listener is a thread blocked on a
dedicated connection (psycopg's synchronous ``notifies``: the storage is synchronous, and a thread serves
every adapter's event loop alike); it connects again after its connection drops, and then wakes every
room (what was said meanwhile is lost). A notification carries a room's key and nothing else.
SQLite and memory stores are one process: ``notifier_for`` and ``listener_for`` give None for them.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..backoff import ceiling

if TYPE_CHECKING:
    import psycopg

    from .postgres import PostgresStorage
    from .protocol import Storage

log = logging.getLogger("arbitre")

ROOMS_CHANNEL = "arbitre_rooms"  # the LISTEN channel: each payload is one room's key
PACE_SECONDS = 0.05  # a sender's statements are at least this far apart (the rooms told meanwhile: one)
POLL_SECONDS = 0.5  # how often the listener looks whether it must stop
IDLE_SECONDS = 1.0  # how often an idle sender looks whether its storage was closed
MOST_BYTES = 7999  # PostgreSQL refuses a payload of 8000 bytes or more: a longer key is not told


def _postgres(storage: Storage) -> PostgresStorage | None:
    url = getattr(storage, "url", None)
    if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
        return None
    from .postgres import PostgresStorage

    return storage if isinstance(storage, PostgresStorage) else None


def notifier_for(storage: Storage) -> RoomNotifier | None:
    """The sender of ``storage``'s changes to the other processes (None: a store of one process)."""
    found = _postgres(storage)
    return None if found is None else RoomNotifier(found)


def listener_for(
    storage: Storage, wake: Callable[[str], None], everything: Callable[[], None], own: RoomNotifier | None = None
) -> RoomListener | None:
    """A listener (not started) that calls ``wake`` with each room another process changed (not what ``own``
    sent: this process's hub was told already), and ``everything`` after it connected again (None: a store of
    one process)."""
    found = _postgres(storage)
    return None if found is None else RoomListener(found.url, wake, everything, own)


class RoomNotifier:
    """Tells the other processes which rooms changed (``tell``: any thread, never waits)."""

    def __init__(self, storage: PostgresStorage, pace: float = PACE_SECONDS) -> None:
        self.storage = storage
        self.pace = pace
        self.statements = 0  # statements sent (a test and the report count them)
        self.notified = 0  # notifications sent (one per room per statement)
        self.sessions: set[int] = set()  # the server processes of the connections it sent from
        self._pending: set[str] = set()
        self._wanted = threading.Condition(threading.RLock())  # ``held`` and ``tell`` in one thread
        self._thread: threading.Thread | None = None

    def tell(self, rooms: Iterable[str]) -> None:
        """Rooms whose change was committed: sent soon (once each, however many changes meanwhile)."""
        rooms = [r for r in rooms if r and len(r.encode()) <= MOST_BYTES]
        if not rooms or self.storage.pool.closed:
            return
        with self._wanted:
            self._pending.update(rooms)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arbitre-notify", daemon=True)
                self._thread.start()
            self._wanted.notify()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Nothing sent meanwhile (in this thread): what is told goes in one statement after."""
        with self._wanted:
            yield

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until what was told is sent (tests); whether it was."""
        with self._wanted:
            return self._wanted.wait_for(lambda: not self._pending, timeout)

    def _run(self) -> None:
        stopped = threading.Event()
        while not self.storage.pool.closed:
            with self._wanted:
                if not self._pending:
                    self._wanted.wait(IDLE_SECONDS)
                    continue
                rooms = sorted(self._pending)
            try:
                self._send(rooms)
            except Exception as error:  # the server went away or the pool closed: these wake-ups are lost
                if not self.storage.pool.closed:
                    log.warning("could not tell the other processes of %d rooms: %s", len(rooms), error)
            with self._wanted:
                self._pending.difference_update(rooms)
                self._wanted.notify_all()
            stopped.wait(self.pace)
        with self._wanted:
            self._thread = None

    def _send(self, rooms: list[str]) -> None:
        with self.storage.pool.connection() as conn:
            self.sessions.add(conn.info.backend_pid)  # before: its listener may hear it at once
            conn.execute("select pg_notify(%s, r) from unnest(cast(%s as text[])) r", [ROOMS_CHANNEL, rooms])
        self.statements += 1
        self.notified += len(rooms)


class RoomListener:
    """A thread listening for the rooms other processes changed, on a connection of its own."""

    def __init__(
        self, url: str, wake: Callable[[str], None], everything: Callable[[], None], own: RoomNotifier | None = None
    ) -> None:
        self.url = url
        self.wake = wake
        self.everything = everything
        self.own = own
        self.connections = 0  # how many times it connected (a reconnection counts)
        self.received = 0  # notifications of other processes
        self.own_heard = 0  # notifications this process sent, not passed on
        self.backend_pid: int | None = None  # its session's server process (a test terminates it)
        self.listening = threading.Event()  # set while LISTEN holds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="arbitre-listen", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 2 * POLL_SECONDS + 1) -> None:
        """Stop listening (waits for the thread a moment)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self._listen()
                failures = 0
            except Exception as error:
                self.listening.clear()
                if self._stop.is_set():
                    return
                failures += 1
                log.warning("web: lost the notifications of the other processes (%s); connecting again", error)
                self._stop.wait(ceiling(failures - 3, 5.0) if failures > 1 else 0.1)

    def _listen(self) -> None:
        import psycopg

        conn: psycopg.Connection[Any]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"listen {ROOMS_CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connections += 1
            self.listening.set()
            if self.connections > 1:
                self.everything()  # what other processes said while it was away is lost
            while not self._stop.is_set():
                for note in conn.notifies(timeout=POLL_SECONDS):
                    if self.own is not None and note.pid in self.own.sessions:
                        self.own_heard += 1
                        continue
                    self.received += 1
                    self.wake(note.payload)
                if conn.closed or conn.broken:
                    raise ConnectionError("the connection closed")
