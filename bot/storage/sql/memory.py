"""Storage in a SQLite database kept in memory: the SQLite store itself, for tests, tools and
``--db memory:`` (nothing survives ``close``)."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from .sqlite import SQLiteStorage


class MemoryStorage(SQLiteStorage):
    """``SQLiteStorage`` on a database in memory of its own, gone when the store is closed.

    Every connection of the store (its writer, and one lock-free reader per thread) opens the same
    in-memory database through SQLite's shared cache. A reader in another thread never waits for a
    transaction under way and may see its writes before they are committed (the game cache tells a
    rolled-back event from a stored one by its sequence number and time).
    """

    _migrated: ClassVar[sqlite3.Connection | None] = None  # the first store's fresh schema, copied by the next
    _migrated_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, *, tracer: Callable[[str, Any], None] | None = None) -> None:
        """A fresh store, migrated."""
        self.uri = f"file:arbitre-{uuid.uuid4().hex}?mode=memory&cache=shared"
        super().__init__(Path(":memory:"), tracer=tracer)

    def _connect(self) -> sqlite3.Connection:
        """Another connection to this store's database."""
        return sqlite3.connect(self.uri, uri=True, isolation_level=None, check_same_thread=False)

    def _open_writer(self) -> sqlite3.Connection:
        """The store's shared connection to its database in memory."""
        return self._connect()

    def _open_reader(self) -> sqlite3.Connection:
        """A read-only connection that takes no table lock (it reads uncommitted rows)."""
        conn = self._connect()
        conn.execute("PRAGMA read_uncommitted = ON")
        conn.execute("PRAGMA query_only = ON")
        return conn

    def _prepare_schema(self) -> None:
        """The migrations, run by the first store of the process; the next ones copy its pages."""
        with MemoryStorage._migrated_lock:
            if MemoryStorage._migrated is None:
                self._migrate()
                MemoryStorage._migrated = sqlite3.connect(":memory:", check_same_thread=False)
                self.db.conn.backup(MemoryStorage._migrated)
            else:  # the same pages, without running every migration again
                MemoryStorage._migrated.backup(self.db.conn)
        _ = self.db.supports_on_conflict  # probed once here (it creates a table), not mid-command
