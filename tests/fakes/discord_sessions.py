"""The fake Discord gateway's connections and sessions (Topics > Gateway), as data: :class:`_Gateway`, one
websocket connection (with zlib-stream compression when asked), :class:`_Session`, a session's sequence, shard
and the events it was given (kept for a RESUME to replay), and :class:`Dispatch`, the record of one event given
to a session. What the gateway does with them (identify, resume, dispatch) is in :mod:`tests.fakes.discord_gateway`.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .discord_rules import shard_of

# Topics > Gateway > Resuming: events kept per session for replay on RESUME.
SESSION_REPLAY = 2000
# Opcodes and Status Codes > Gateway Close Event Codes: closes after which a session cannot be
# resumed (4007 Invalid seq, 4009 Session timed out) and codes a bot must not reconnect after.
NON_RESUMABLE_CLOSES = frozenset({4007, 4009})


@dataclass(eq=False)
class _Session:
    """A gateway session (Topics > Gateway > Sessions): its sequence, the events dispatched to it
    (kept for a RESUME to replay), and the connection it is on now (None while disconnected)."""

    id: str
    intents: int
    shard: tuple[int, int] | None = None  # (shard_id, num_shards) from IDENTIFY; None: unsharded
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=SESSION_REPLAY))
    connection: _Gateway | None = None
    alive: bool = True  # False once invalidated: it gets no more events and cannot be resumed

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of guild ``guild_id`` (None: DMs, shard 0's only)."""
        return _shard_owns(self.shard, guild_id)


def _shard_owns(shard: tuple[int, int] | None, guild_id: int | None) -> bool:
    """Topics > Gateway > Sharding: a guild's events go to shard (guild_id >> 22) % num_shards, DMs
    to shard 0; an unsharded session is shard 0 of 1."""
    if shard is None:
        return True
    shard_id, count = shard
    return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


@dataclass(frozen=True)
class Dispatch:
    """One event dispatched to a gateway session (``fake.dispatches``), recorded once even if a
    RESUME replays it."""

    session_id: str
    shard: tuple[int, int] | None
    event: str
    data: dict[str, Any]


# a frame the client has not taken in this long: its connection is dropped (the event stays replayable on
# RESUME, Topics > Gateway > Resuming), never waited for forever
SEND_SECONDS = 10.0


class _Gateway:
    """One websocket connection; it carries a session once identified or resumed.

    Topics > Gateway > Transport Compression: with ``compress=zlib-stream`` every payload is
    a binary frame of one shared zlib stream, each ending in a Z_SYNC_FLUSH (``00 00 ff ff``).
    Other compressions (``zstd-stream``) are answered uncompressed: discord.py reads text
    frames whatever it asked for.
    """

    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression if compression == "zlib-stream" else None
        self.session: _Session | None = None
        self.closed_by_server: int | None = None
        self.transport: asyncio.Transport | None = None
        self._zlib = zlib.compressobj() if self.compression else None
        self._lock = asyncio.Lock()

    @property
    def identified(self) -> bool:
        return self.session is not None

    @property
    def intents(self) -> int:
        return self.session.intents if self.session is not None else 0

    @property
    def session_id(self) -> str | None:
        return self.session.id if self.session is not None else None

    async def send(self, payload: dict[str, Any] | str) -> bool:
        """Send one payload; False if the connection is gone (the event stays replayable)."""
        text = payload if isinstance(payload, str) else json.dumps(payload)
        async with self._lock:  # one zlib stream: frames leave in the order they were compressed
            if self.ws.closed:
                return False
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode("utf-8")) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await asyncio.wait_for(self.ws.send_bytes(data), SEND_SECONDS)
                else:
                    await asyncio.wait_for(self.ws.send_str(text), SEND_SECONDS)
            except (ConnectionError, RuntimeError):
                return False
            except TimeoutError:  # a client that stopped reading: dropped, as Discord drops it
                asyncio.get_running_loop().create_task(self.ws.close(code=4000))
                return False
        return True
