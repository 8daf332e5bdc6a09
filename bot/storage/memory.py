"""Storage kept in dictionaries: the same protocol, for tests and tools (a transaction rolls back on
error)."""

from __future__ import annotations

import contextlib
import copy
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..chat import Reply
from ..house_words import HouseWordChange
from ..outbox import DeadLetter, OutboxBacklog, OutboxItem, destination, reply_from_json, reply_to_json
from .common import most_used, serialised
from .records import (
    ChannelSettings,
    Deadline,
    GameKind,
    GameRecord,
    GameRunningError,
    GameSetup,
    GameStatus,
    PlayState,
    RoundClosedTwiceError,
    StoredEvent,
)


class MemoryStorage:
    """The same interface kept in dictionaries (a transaction rolls back on error)."""

    def __init__(self) -> None:
        self._channels: dict[str, ChannelSettings] = {}
        self._games: dict[int, GameRecord] = {}
        self._events: dict[int, list[StoredEvent]] = {}
        self._deadlines: dict[tuple[int, int], Deadline] = {}
        self._closes: set[tuple[int, int]] = set()
        self._outbox: dict[int, dict[str, Any]] = {}
        self._players: dict[int, dict[str, str]] = {}
        self._house_words: list[HouseWordChange] = []
        self._leases: dict[str, tuple[str, float]] = {}  # channel -> (owner, expires)
        self._processes: dict[str, float] = {}  # outbox claimers -> when their heartbeat expires
        self._lock = threading.RLock()
        self._depth = 0
        self._owner = 0

    def close(self) -> None:
        """Nothing to close: the store lives as long as the process."""

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            saved = copy.deepcopy(
                (self._channels, self._games, self._events, self._deadlines, self._players, self._closes, self._outbox)
            )
            house_words = list(self._house_words)
            self._depth, self._owner = 1, threading.get_ident()
            try:
                yield
            except BaseException:
                (
                    self._channels,
                    self._games,
                    self._events,
                    self._deadlines,
                    self._players,
                    self._closes,
                    self._outbox,
                ) = saved
                self._house_words = house_words
                raise
            finally:
                self._depth, self._owner = 0, 0

    def lock_channel(self, channel: str) -> bool:
        """Nothing to do: a transaction holds the store's lock, so commands never interleave."""
        return False

    @serialised
    def hold_clocks(self, owner: str, channels: list[str], now: float, seconds: float) -> set[str]:
        held = set()
        for channel in set(channels):
            holder, expires = self._leases.get(channel, (owner, now))
            if holder == owner or expires < now:
                self._leases[channel] = (owner, now + seconds)
                held.add(channel)
        return held

    @serialised
    def release_clocks(self, owner: str, channels: list[str] | None = None) -> None:
        for channel, (holder, _) in list(self._leases.items()):
            if holder == owner and (channels is None or channel in channels):
                del self._leases[channel]

    @serialised
    def channel(self, channel: str) -> ChannelSettings:
        return self._channels.get(channel, ChannelSettings(channel))

    @serialised
    def has_channel(self, channel: str) -> bool:
        return channel in self._channels

    def save_channel(self, settings: ChannelSettings) -> None:
        with self.transaction():
            self._channels[settings.channel] = settings

    @serialised
    def active_game(self, channel: str) -> GameRecord | None:
        games = [g for g in self._games.values() if g.channel == channel and g.status is GameStatus.ACTIVE]
        return max(games, key=lambda g: g.id) if games else None

    @serialised
    def game(self, game_id: int) -> GameRecord:
        return self._games[game_id]

    @serialised
    def games(self, channel: str) -> list[GameRecord]:
        return sorted((g for g in self._games.values() if g.channel == channel), key=lambda g: g.id)

    def create_game(
        self, channel: str, kind: GameKind, referee: str, setup: GameSetup, *, abandon_running: bool = False
    ) -> GameRecord:
        with self.transaction():
            running = self.active_game(channel)
            if running is not None and not abandon_running:
                raise GameRunningError(channel, running)
            for key in [k for k, d in self._deadlines.items() if d.channel == channel]:
                self._deadlines.pop(key, None)
            for game in list(self._games.values()):
                if game.channel == channel and game.status is GameStatus.ACTIVE:
                    self._games[game.id] = replace(game, status=GameStatus.ABANDONED)
            record = GameRecord(
                len(self._games) + 1, channel, GameKind(kind), referee, GameStatus.ACTIVE, setup, time.time()
            )
            self._games[record.id] = record
            self._events[record.id] = []
            return record

    def set_game_status(self, game_id: int, status: GameStatus) -> None:
        status = GameStatus(status)
        with self.transaction():
            self._games[game_id] = replace(self._games[game_id], status=status)
            if status is not GameStatus.ACTIVE:
                for key in [k for k in self._deadlines if k[0] == game_id]:
                    self._deadlines.pop(key, None)

    @serialised
    def events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        return [e for e in self._events.get(game_id, []) if e.seq > after]

    def read_events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        """Without the lock: a rolled-back transaction replaces the dictionaries whole, never edits them."""
        return [e for e in list(self._events.get(game_id, ())) if e.seq > after]

    def read_stamp(self, game_id: int) -> tuple[int, float]:
        log = list(self._events.get(game_id, ()))
        return (log[-1].seq, log[-1].at) if log else (0, 0.0)

    def in_transaction(self) -> bool:
        return self._depth > 0 and self._owner == threading.get_ident()

    @serialised
    def last_stamp(self, game_id: int) -> tuple[int, float]:
        log = self._events.get(game_id, [])
        return (log[-1].seq, log[-1].at) if log else (0, 0.0)

    def append_event(self, game_id: int, data: dict[str, Any], author: str, at: float | None = None) -> StoredEvent:
        with self.transaction():
            log = self._events.setdefault(game_id, [])
            event = StoredEvent(game_id, len(log) + 1, dict(data), author, time.time() if at is None else at)
            log.append(event)
            return event

    def set_deadline(self, game_id: int, round_number: int, at: float | None) -> None:
        with self.transaction():
            if at is None:
                self._deadlines.pop((game_id, round_number), None)
            else:
                channel = self._games[game_id].channel
                self._deadlines[(game_id, round_number)] = Deadline(game_id, round_number, at, channel)

    def open_round(self, game_id: int, round_number: int, at: float | None) -> None:
        with self.transaction():
            for key in [k for k in self._deadlines if k[0] == game_id and k[1] != round_number]:
                self._deadlines.pop(key, None)
            self.set_deadline(game_id, round_number, at)

    def mark_closed(self, game_id: int, round_number: int) -> None:
        with self.transaction():
            if (game_id, round_number) in self._closes:
                raise RoundClosedTwiceError(game_id, round_number)
            self._closes.add((game_id, round_number))

    def mark_reopened(self, game_id: int, round_number: int) -> None:
        with self.transaction():
            self._closes.discard((game_id, round_number))

    @serialised
    def deadlines(self) -> list[Deadline]:
        return sorted(self._deadlines.values(), key=lambda d: d.at)

    def add_player(self, game_id: int, user: str, name: str) -> None:
        with self.transaction():
            self._players.setdefault(game_id, {})[user] = name

    @serialised
    def players(self, game_id: int) -> list[tuple[str, str]]:
        return list(self._players.get(game_id, {}).items())

    @serialised
    def active_games_of(self, user: str) -> list[GameRecord]:
        games = [
            self._games[g]
            for g, users in self._players.items()
            if user in users and self._games[g].status is GameStatus.ACTIVE
        ]
        return sorted(games, key=lambda g: -g.id)

    def play_state(self, channel: str, user: str) -> PlayState | None:
        """The state a private move goes to: the channel's running duplicate game, else the player's latest."""
        with self._lock:
            running = self.active_game(channel)
            if running is None or running.kind is not GameKind.DUPLICATE:
                mine = [g for g in self.active_games_of(user) if g.kind is GameKind.DUPLICATE]
                running = mine[0] if mine else None
            if running is None:
                return None
            waiting = {row["destination"] for _, row in self._waiting()}
            seats = tuple(self._players.get(running.id, {}).items())
            settings = self.channel(running.channel)
            stamp = self.last_stamp(running.id)
            return PlayState(running, settings, stamp, seats, user in waiting, running.channel in waiting)

    def record_play(
        self,
        game_id: int,
        events: list[tuple[dict[str, Any], str]],
        after: int,
        at: float,
        seat: tuple[str, str] | None,
        replies: list[Reply],
        dues: list[float],
        created: float,
        owner: str | None = None,
    ) -> list[int]:
        """A move's events, the seat it binds and its replies, in one transaction; their outbox numbers."""
        with self.transaction():
            for data, author in events:
                self.append_event(game_id, data, author, at)
            if seat is not None:
                self.add_player(game_id, *seat)
            return [
                self.enqueue([reply], due, created, owner if due > created else None)[0]
                for reply, due in zip(replies, dues)
            ]

    # --- outbox ------------------------------------------------------------------------

    def enqueue(
        self, replies: list[Reply], due: float, created: float | None = None, owner: str | None = None
    ) -> list[int]:
        ids = []
        with self.transaction():
            for reply in replies:
                outbox_id = max(self._outbox, default=0) + 1
                self._outbox[outbox_id] = {
                    "destination": destination(reply),
                    "reply": reply_to_json(reply),
                    "due": due,
                    "attempts": 0,
                    "delivered": None,
                    "dropped": None,
                    "created": time.time() if created is None else created,
                    "channel": reply.channel,
                    "dead": None,
                    "error": "",
                    "claimed_by": owner,
                    "edit_key": reply.edit_key,
                }
                ids.append(outbox_id)
        return ids

    def _waiting(self) -> list[tuple[int, dict[str, Any]]]:
        return sorted(
            (i, row) for i, row in self._outbox.items() if row["delivered"] is None and row["dropped"] is None
        )

    def outbox_due(
        self,
        scope: str,
        now: float,
        limit: int = 50,
        lease: float = 0.0,
        owner: str | None = None,
        at: float | None = None,
    ) -> list[OutboxItem]:
        alive_at = at if at is not None else now if math.isfinite(now) else time.time()
        with self.transaction():
            heads: dict[str, tuple[int, dict[str, Any]]] = {}
            for outbox_id, row in self._waiting():
                heads.setdefault(row["destination"], (outbox_id, row))

            def due(row: dict[str, Any]) -> bool:
                claimer = row["claimed_by"]
                if claimer is None or claimer == owner:
                    return bool(row["due"] <= now)
                return self._processes.get(claimer, float("-inf")) <= alive_at  # its claimer is dead

            chosen = [(i, r) for i, r in sorted(heads.values()) if r["destination"].startswith(scope) and due(r)]
            for _, row in chosen[:limit]:
                if lease > 0:
                    row["due"], row["claimed_by"] = alive_at + lease, owner
            return [
                OutboxItem(i, row["destination"], reply_from_json(row["reply"], i), row["attempts"], row["created"])
                for i, row in chosen[:limit]
            ]

    def outbox_alive(self, owner: str, until: float) -> None:
        with self.transaction():
            self._processes[owner] = until

    @serialised
    def outbox_processes(self) -> list[tuple[str, float]]:
        return sorted(self._processes.items())

    def forget_process(self, owner: str) -> None:
        with self.transaction():
            self._processes.pop(owner, None)

    @serialised
    def outbox_superseded(self, outbox_id: int, destination: str, edit_key: str) -> bool:
        same = [(i, r) for i, r in self._outbox.items() if (r["destination"], r["edit_key"]) == (destination, edit_key)]
        newer = any(i > outbox_id and r["delivered"] is None and r["dropped"] is None for i, r in same)
        return newer and any(i < outbox_id and r["delivered"] is not None for i, r in same)

    @serialised
    def outbox_waiting(self, destination: str, before: int) -> bool:
        return any(row["destination"] == destination and i < before for i, row in self._waiting())

    def mark_delivered(self, ids: list[int], at: float) -> None:
        with self.transaction():
            for outbox_id in ids:
                self._outbox[outbox_id]["delivered"] = at

    def mark_failed(self, outbox_id: int, error: str, due: float) -> None:
        with self.transaction():
            row = self._outbox[outbox_id]
            row["attempts"] += 1
            row["due"], row["claimed_by"] = due, None
            row["error"] = error[:300]

    def mark_dropped(self, outbox_id: int, at: float, reason: str) -> None:
        with self.transaction():
            self._outbox[outbox_id]["dropped"] = at

    def reschedule(self, ids: list[int], due: float) -> None:
        with self.transaction():
            for outbox_id in ids:
                self._outbox[outbox_id].update(due=due, claimed_by=None)

    def mark_dead(self, outbox_id: int, at: float, reason: str) -> None:
        with self.transaction():
            row = self._outbox[outbox_id]
            row.update(dropped=at, dead=at, error=reason[:300], attempts=row["attempts"] + 1)

    @serialised
    def dead_letters(self, channel: str, since: float) -> list[DeadLetter]:
        return [
            DeadLetter(i, reply_from_json(row["reply"], i), row["error"], row["dead"], row["attempts"])
            for i, row in sorted(self._outbox.items())
            if row["channel"] == channel and row["dead"] is not None and row["dead"] >= since
        ]

    def prune_outbox(self, images_before: float, rows_before: float) -> int:
        with self.transaction():
            for i, row in self._outbox.items():
                done = row["delivered"] if row["delivered"] is not None else row["dropped"]
                if done is not None and done < images_before:
                    row["reply"] = reply_to_json(replace(reply_from_json(row["reply"], i), image=None, document=None))
            gone = [
                i
                for i, row in self._outbox.items()
                if any(row[at] is not None and row[at] < rows_before for at in ("delivered", "dropped"))
            ]
            for i in gone:
                del self._outbox[i]
        return len(gone)

    @serialised
    def outbox_state(self, outbox_id: int) -> str:
        row = self._outbox.get(outbox_id)
        if row is None or (row["delivered"] is None and row["dropped"] is None):
            return "waiting"
        return "delivered" if row["delivered"] is not None else "dead" if row["dead"] is not None else "dropped"

    @serialised
    def outbox_backlog(self) -> list[OutboxBacklog]:
        """Per platform, how many messages wait, when the oldest was stored, and how many dead letters are kept."""
        waiting: dict[str, list[float]] = {}
        dead: dict[str, int] = {}
        for row in self._outbox.values():
            platform = row["destination"].split(":", 1)[0]
            if row["delivered"] is None and row["dropped"] is None:
                waiting.setdefault(platform, []).append(row["created"])
            elif row["dead"] is not None:
                dead[platform] = dead.get(platform, 0) + 1
        return [
            OutboxBacklog(p, len(waiting.get(p, [])), min(waiting[p]) if p in waiting else None, dead.get(p, 0))
            for p in sorted(set(waiting) | set(dead))
        ]

    # house words: a log of changes per channel and list, who and when

    def add_house_word_change(self, change: HouseWordChange) -> None:
        with self.transaction():
            self._house_words.append(change)

    @serialised
    def house_word_changes(self, channel: str, lexicon: str) -> list[HouseWordChange]:
        return [c for c in self._house_words if c.channel == channel and c.lexicon == lexicon]

    @serialised
    def lists_in_use(self) -> list[str]:
        running = [g.setup.lexicon for g in self._games.values() if g.status is GameStatus.ACTIVE]
        return list(dict.fromkeys(most_used(running) + most_used([s.lexicon for s in self._channels.values()])))
