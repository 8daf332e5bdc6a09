"""Persistence of channels, games, players and each game's append-only event log.

``Storage`` is the interface the command layer talks to, the union of one protocol per aggregate
(``ChannelStore``, ``GameLog``, ``ClockStore``, ``OutboxStore``, ``HouseWordStore``, ``SeriesStore``, ``ViewStore``,
``SimultaneStore``, in ``Transactions``; ``protocol.py``): code that needs one part takes that part. What it keeps
and answers are the records of ``records.py``, ``outbox_records.py`` and ``simultane_records.py``.

The one implementation is SQL, in ``bot.storage.sql``: ``SQLiteStorage`` keeps everything in one SQLite file
through sqlite-utils (WAL mode, migrations applied on open), ``MemoryStorage`` is the same on a SQLite database in
memory, ``PostgresStorage`` (``bot.storage.sql.postgres``, loaded by ``open_storage("postgresql://...")``) a server
shared by several bot processes. A game's state is never stored: it is rebuilt by replaying its events through
``core``.

Every command runs inside ``transaction()``: with SQLite that is one
``BEGIN IMMEDIATE`` ... ``COMMIT``, so a crash leaves the whole command or none
of it, and two processes writing the same file serialise instead of losing events. Each command
also calls ``lock_channel``: with PostgreSQL that serialises the commands of one channel across
processes (SQLite's transactions, in a file or in memory, are exclusive already).
"""

from __future__ import annotations

from .open import open_storage
from .outbox_records import DeadLetter, OutboxBacklog, OutboxItem
from .protocol import (
    ChannelStore,
    ClockStore,
    GameLog,
    HouseWordStore,
    OutboxStore,
    SeriesStore,
    SimultaneStore,
    Storage,
    Transactions,
    ViewStore,
)
from .records import (
    ArrivalsSaid,
    ChannelLock,
    ChannelSettings,
    ConnectionLostError,
    Deadline,
    GameKind,
    GameRecord,
    GameRunningError,
    GameSetup,
    GameSetupError,
    GameStatus,
    OutsideTransactionError,
    PlayState,
    PlayWrite,
    RoundClosedTwiceError,
    SeriesEntry,
    SeriesRecord,
    SeriesStatus,
    StorageFullError,
    StorageOpenError,
    StoredEvent,
    ViewRecord,
    log_failure,
)
from .simultane_records import DONE_POST, Admission, HeldRound, SimultaneRecord, SimultaneRoom, SimultaneRoomProgress
from .sql.memory import MemoryStorage
from .sql.sqlite import MIGRATIONS, SQLiteStorage

__all__ = [
    "MIGRATIONS",
    "ArrivalsSaid",
    "ChannelLock",
    "ChannelSettings",
    "ChannelStore",
    "ConnectionLostError",
    "DeadLetter",
    "ClockStore",
    "Deadline",
    "GameKind",
    "GameLog",
    "GameRecord",
    "GameRunningError",
    "GameSetup",
    "GameSetupError",
    "GameStatus",
    "HouseWordStore",
    "MemoryStorage",
    "OutboxBacklog",
    "OutboxItem",
    "OutboxStore",
    "OutsideTransactionError",
    "PlayState",
    "PlayWrite",
    "RoundClosedTwiceError",
    "SQLiteStorage",
    "SeriesEntry",
    "SeriesRecord",
    "SeriesStatus",
    "SeriesStore",
    "Admission",
    "HeldRound",
    "SimultaneRecord",
    "SimultaneRoom",
    "DONE_POST",
    "SimultaneRoomProgress",
    "SimultaneStore",
    "Storage",
    "StorageFullError",
    "StorageOpenError",
    "StoredEvent",
    "Transactions",
    "ViewRecord",
    "ViewStore",
    "open_storage",
    "log_failure",
]
