"""The storage protocol, split by aggregate: what the command layer, the clock and the outbox need from a
store. ``Storage`` is all of them together; a caller may type against the part it uses."""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

from ..chat import Reply
from ..words.house import HouseWordChange
from .outbox_records import DeadLetter, OutboxBacklog, OutboxItem
from .records import (
    ArrivalsSaid,
    ChannelLock,
    ChannelSettings,
    Deadline,
    GameKind,
    GameRecord,
    GameSetup,
    GameStatus,
    PlayState,
    PlayWrite,
    SeriesEntry,
    SeriesRecord,
    SeriesStatus,
    StoredEvent,
    ViewRecord,
)
from .simultane_records import Admission, HeldRound, SimultaneRecord, SimultaneRoom, SimultaneRoomProgress


class Transactions(Protocol):
    """The store's write transactions (one per command), the channel locks inside them, and its end."""

    def close(self) -> None: ...
    def transaction(self) -> contextlib.AbstractContextManager[None]: ...
    def in_transaction(self) -> bool: ...
    def lock_channel(self, channel: str) -> bool:
        """Inside a transaction: serialise it with every other transaction that locks the same channel, in
        any process, until it ends (a no-op where write transactions are exclusive already); whether it
        may have waited for another one (then what this transaction read before may have changed)."""
        ...

    def lock_play(self, channel: str, user: str) -> frozenset[str] | None:
        """Inside a transaction: ``lock_channel`` of ``channel`` and of the channel of the game a private move
        of ``user`` sent from it goes to (as ``play_state`` finds it), in one statement; the channels locked
        (None: nothing to lock, write transactions are exclusive already)."""
        ...

    def try_lock_channels(self, channels: list[str]) -> dict[str, ChannelLock]:
        """Inside a transaction: ``lock_channel`` for each channel no other transaction holds, without waiting
        (one statement for them all)."""
        ...


class ChannelStore(Protocol):
    """Each channel's settings (language, edition, rules, word list, clock, time zone), and the word
    lists in use."""

    def channel(self, channel: str) -> ChannelSettings: ...
    def has_channel(self, channel: str) -> bool:
        """Whether ``channel``'s settings were ever saved (``channel`` answers the defaults for a new one)."""
        ...

    def save_channel(self, settings: ChannelSettings) -> None: ...
    def lists_in_use(self) -> list[str]: ...


class GameLog(Protocol):
    """The games of each channel, each game's append-only event log and its seated players, and a private
    duplicate move read and written at once."""

    def active_game(self, channel: str) -> GameRecord | None: ...
    def game(self, game_id: int) -> GameRecord: ...
    def create_game(
        self,
        channel: str,
        kind: GameKind,
        referee: str,
        setup: GameSetup,
        *,
        abandon_running: bool = False,
        beside: bool = False,
    ) -> GameRecord: ...
    def games(self, channel: str) -> list[GameRecord]: ...
    def set_game_status(self, game_id: int, status: GameStatus) -> None: ...
    def events(self, game_id: int, after: int = 0) -> list[StoredEvent]: ...
    def read_events(self, game_id: int, after: int = 0) -> list[StoredEvent]: ...
    def read_stamp(self, game_id: int) -> tuple[int, float]: ...
    def last_stamp(self, game_id: int) -> tuple[int, float]: ...
    def append_event(self, game_id: int, data: dict[str, Any], author: str, at: float | None = None) -> StoredEvent: ...
    def add_player(self, game_id: int, user: str, name: str) -> None: ...
    def players(self, game_id: int) -> list[tuple[str, str]]: ...
    def players_of(self, games: list[int]) -> dict[int, set[str]]:
        """The accounts seated in each of ``games`` (one statement)."""
        ...

    def active_games_of(self, user: str) -> list[GameRecord]: ...
    def play_state(self, channel: str, user: str) -> PlayState | None:
        """What a private move of ``user`` from ``channel`` needs, in one read: the channel's running duplicate
        game, else the player's latest (None: neither); inside the move's transaction."""
        ...

    def play_states(self, moves: list[tuple[str, str]]) -> list[PlayState | None]:
        """``play_state`` of several moves (channel, account), in order, in the fewest statements."""
        ...

    def record_plays(self, writes: list[PlayWrite]) -> list[list[int]]:
        """Store private moves, each of another game: their events (data, author; numbered after ``after``,
        each at ``at``), the seat each binds (account, name) if any, and their replies due at ``dues``, in the
        fewest statements (PostgreSQL: one; SQLite: two); each one's outbox numbers, in order."""
        ...


class ClockStore(Protocol):
    """The duplicate clock: each round's deadline, the rounds closed, and which process runs each
    channel's clock (its lease)."""

    def hold_clocks(
        self, owner: str, channels: list[str], now: float, seconds: float, most: int | None = None
    ) -> set[str]:
        """Among ``channels``, those whose duplicate clock ``owner`` holds from now on: the leases it held
        already, and up to ``most`` (None: all) of those that were free, expired or left by an owner known
        to be dead (PostgreSQL: its session is gone), each renewed or taken until ``now + seconds``."""
        ...

    def clock_owners(self, owner: str, scope: str, *, count: bool = True) -> int | None:
        """How many live processes run the clock of the channels under ``scope``, ``owner`` (this process)
        counted from now on; None where storage cannot tell (SQLite: each takes every due channel free) or
        when not ``count`` (only said)."""
        ...

    def release_clocks(self, owner: str, channels: list[str] | None = None) -> None:
        """Give up ``owner``'s clock leases on ``channels`` (None: all of them, a clean stop)."""
        ...

    arrivals_shared: bool  # whether other processes may hold this store's answers (then they say so)
    concurrent_transactions: bool  # whether write transactions of different channels run side by side

    def hold_arrivals(self, channels: set[str], said: ArrivalsSaid) -> None:
        """Say to every process that this one holds messages sent in ``channels`` and not answered yet (and
        none any more in the channels it said before), as of ``said.at``; nothing where ``arrivals_shared``
        is false."""
        ...

    def arrivals_said_through(self, me: str, now: float) -> float:
        """The earliest time as of which every process alive at ``now`` other than ``me`` (as their
        heartbeats name them) said what it holds (``hold_arrivals``): the answers any of them received before
        it are said; -inf when one of them said nothing yet, inf when there is none (or where
        ``arrivals_shared`` is false)."""
        ...

    def arrivals_elsewhere(self, game_id: int, channel: str) -> bool:
        """Whether a process said (``hold_arrivals``) it holds messages not answered yet sent in ``channel``
        or in a private chat of one of the game's players (False where ``arrivals_shared`` is false)."""
        ...

    def arrivals_elsewhere_of(self, rounds: list[tuple[int, str]]) -> set[int]:
        """Among (game, channel) pairs, the games for which ``arrivals_elsewhere`` holds (one statement)."""
        ...

    def set_deadline(self, game_id: int, round_number: int, at: float | None) -> None: ...
    def open_round(self, game_id: int, round_number: int, at: float | None) -> None: ...
    def deadlines(self) -> list[Deadline]: ...
    def read_deadlines(self) -> list[Deadline]:
        """``deadlines`` read on a connection of its own: committed rounds only, no lock taken."""
        ...

    def mark_closed(self, game_id: int, round_number: int) -> None: ...
    def mark_reopened(self, game_id: int, round_number: int) -> None: ...


class OutboxStore(Protocol):
    """The messages owed to channels and players: queued, claimed by a live process, delivered, retried,
    dropped or kept as dead letters, pruned."""

    def enqueue(
        self, replies: list[Reply], due: float, created: float | None = None, owner: str | None = None
    ) -> list[int]: ...
    def outbox_due(
        self,
        scope: str,
        now: float,
        limit: int = 50,
        lease: float = 0.0,
        owner: str | None = None,
        at: float | None = None,
    ) -> list[OutboxItem]:
        """The first waiting message of each destination of ``scope`` due at ``now``, claimed for ``lease``
        by ``owner``; what a live process (see ``outbox_alive``) claimed is left alone, what a dead one
        claimed is due at once."""
        ...

    def outbox_alive(self, owner: str, until: float) -> None:
        """``owner``'s heartbeat: its claims on the outbox hold until ``until`` unless it beats again."""
        ...

    def outbox_processes(self) -> list[tuple[str, float]]: ...
    def forget_process(self, owner: str) -> None: ...
    def outbox_superseded(self, outbox_id: int, destination: str, edit_key: str) -> bool:
        """Whether a waiting edit of a delivered message is superseded by a newer text of it (waiting, or
        delivered already)."""
        ...

    def outbox_waiting(self, destination: str, before: int, edit_key: str | None = None) -> bool: ...
    def mark_delivered(self, ids: list[int], at: float) -> None: ...
    def mark_failed(self, outbox_id: int, error: str, due: float) -> None: ...
    def reschedule(self, ids: list[int], due: float) -> None: ...
    def mark_dropped(self, outbox_id: int, at: float, reason: str) -> None: ...
    def mark_dead(self, outbox_id: int, at: float, reason: str) -> None: ...
    def dead_letters(self, channel: str, since: float) -> list[DeadLetter]: ...
    def prune_outbox(self, images_before: float, rows_before: float) -> int: ...
    def outbox_state(self, outbox_id: int) -> str: ...
    def outbox_backlog(self) -> list[OutboxBacklog]: ...  # per platform: waiting, oldest, dead (one statement)


class HouseWordStore(Protocol):
    """Each channel's house words: the log of words added and removed, per word list, who and when."""

    def add_house_word_change(self, change: HouseWordChange) -> None: ...
    def house_word_changes(self, channel: str, lexicon: str) -> list[HouseWordChange]: ...


class SeriesStore(Protocol):
    """Each channel's series: tournaments of games with one cumulative ranking, the games (and simultanés)
    each holds."""

    def create_series(self, channel: str, name: str) -> SeriesRecord: ...
    def channel_series(self, channel: str) -> list[SeriesRecord]: ...
    def set_series_status(self, series_id: int, status: SeriesStatus) -> None: ...
    def add_series_game(self, series_id: int, game_id: int) -> bool:
        """Put a game in a series, after its others; whether it was not in it already."""
        ...

    def remove_series_game(self, series_id: int, game_id: int) -> bool: ...
    def series_games(self, series_id: int) -> list[int]: ...
    def add_series_simultane(self, series_id: int, simultane_id: int) -> bool:
        """Put a simultané in a series, after its other entries; whether it was not in it already."""
        ...

    def remove_series_simultane(self, series_id: int, simultane_id: int) -> bool: ...
    def series_entries(self, series_id: int) -> list[SeriesEntry]:
        """The games and simultanés of a series, in the order they were added."""
        ...


class ViewStore(Protocol):
    """The links to each room's live web page (``bot.web``)."""

    def create_view(self, token: str, channel: str, game: int, at: float) -> ViewRecord: ...
    def view_by_token(self, token: str) -> ViewRecord | None:
        """The link of ``token`` if it exists and is not revoked."""
        ...

    def channel_views(self, channel: str) -> list[ViewRecord]:
        """The channel's links not revoked, oldest first."""
        ...

    def room_game(self, channel: str) -> GameRecord | None:
        """The game a room's page shows: its running game, else its last one (None: the room has none)."""
        ...

    def revoke_views(self, channel: str, at: float) -> list[str]:
        """Revoke every link of the channel (its simultanés' pages too); the tokens revoked."""
        ...

    def create_simultane_view(self, token: str, channel: str, simultane: int, at: float) -> ViewRecord: ...
    def simultane_views(self, channel: str) -> list[ViewRecord]:
        """The channel's links to its simultanés' ranking pages not revoked, oldest first."""
        ...


class SimultaneStore(Protocol):
    """The simultanés (one game played in many rooms) and the rooms that joined each, with their games."""

    def create_simultane(
        self, code: str, channel: str, organiser: str, definition: dict[str, Any]
    ) -> SimultaneRecord: ...
    def simultane(self, code: str) -> SimultaneRecord | None: ...
    def simultane_by_id(self, simultane_id: int) -> SimultaneRecord: ...
    def join_simultane(
        self,
        simultane_id: int,
        channel: str,
        due: float | None = None,
        referee: str = "",
        referee_name: str = "",
        name: str = "",
        admission: Admission = Admission.ADMITTED,
    ) -> bool:
        """Put a room in a simultané; whether it was not in it already."""
        ...

    def name_simultane_room(self, simultane_id: int, channel: str, name: str) -> bool: ...
    def admit_simultane_room(self, simultane_id: int, channel: str, admission: Admission) -> bool: ...
    def set_simultane_centre(self, simultane_id: int, channel: str, centre: str) -> bool: ...
    def close_simultane_entries(self, simultane_id: int, at: float) -> bool: ...
    def hold_simultane_round(self, simultane_id: int, channel: str, round_number: int) -> bool: ...
    def simultane_held(self, simultane_id: int, channel: str) -> int: ...
    def simultane_holds(self, scope: str = "") -> list[HeldRound]: ...
    def simultane_rooms_of_account(self, code: str, user: str) -> list[str]: ...

    def set_simultane_game(self, simultane_id: int, channel: str, game_id: int) -> None: ...
    def simultane_rooms(self, simultane_id: int) -> list[SimultaneRoom]: ...
    def channel_simultanes(self, channel: str) -> list[SimultaneRecord]: ...
    def simultane_work_due(self, now: float) -> tuple[bool, bool, bool]: ...
    def simultane_starts_due(self, now: float, scope: str = "") -> list[SimultaneRoom]: ...
    def leave_simultane(self, simultane_id: int, channel: str) -> None: ...
    def simultane_posts(self, simultane_id: int) -> set[str]: ...
    def simultane_progress(self, simultane_id: int) -> list[SimultaneRoomProgress]: ...
    def simultanes_to_post(self) -> list[SimultaneRecord]: ...
    def claim_simultane_post(self, simultane_id: int, what: str, at: float) -> bool: ...
    def simultane_top(self, code: str, move: int, draw: str, lexicon: str) -> str | None: ...
    def claim_simultane_top(
        self, code: str, move: int, draw: str, lexicon: str, owner: str, now: float, stale: float
    ) -> bool: ...
    def set_simultane_top(self, code: str, move: int, draw: str, lexicon: str, top: str) -> None: ...


class Storage(
    Transactions,
    ChannelStore,
    GameLog,
    ClockStore,
    OutboxStore,
    HouseWordStore,
    SeriesStore,
    ViewStore,
    SimultaneStore,
    Protocol,
):
    """What the command layer needs from a store: every aggregate, in transactions."""
