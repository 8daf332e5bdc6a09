"""Persistence of channels, games, players and each game's append-only event log.

``Storage`` is the small interface the command layer talks to; ``SQLiteStorage``
keeps everything in one SQLite file through sqlite-utils (WAL mode, migrations
applied on open), ``MemoryStorage`` is its in-memory twin, ``PostgresStorage`` (``bot.storage.postgres``, loaded
by ``open_storage("postgresql://...")``) a server shared by several bot processes. A game's state is
never stored: it is rebuilt by replaying its events through ``core``.

Every command runs inside ``transaction()``: with SQLite that is one
``BEGIN IMMEDIATE`` ... ``COMMIT``, so a crash leaves the whole command or none
of it, and two processes writing the same file serialise instead of losing events. Each command
also calls ``lock_channel``: with PostgreSQL that serialises the commands of one channel across
processes (SQLite's and memory's transactions are exclusive already).
"""

from __future__ import annotations

from .memory import MemoryStorage
from .open import open_storage
from .protocol import Storage
from .records import (
    ChannelSettings,
    Deadline,
    GameKind,
    GameRecord,
    GameRunningError,
    GameSetup,
    GameSetupError,
    GameStatus,
    OutsideTransactionError,
    PlayState,
    RoundClosedTwiceError,
    StorageFullError,
    StorageOpenError,
    StoredEvent,
)
from .sqlite import MIGRATIONS, SQLiteStorage

__all__ = [
    "MIGRATIONS",
    "ChannelSettings",
    "Deadline",
    "GameKind",
    "GameRecord",
    "GameRunningError",
    "GameSetup",
    "GameSetupError",
    "GameStatus",
    "MemoryStorage",
    "OutsideTransactionError",
    "PlayState",
    "RoundClosedTwiceError",
    "SQLiteStorage",
    "Storage",
    "StorageFullError",
    "StorageOpenError",
    "StoredEvent",
    "open_storage",
]
