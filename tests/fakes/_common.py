"""Pieces shared by the fake Discord and Telegram servers.

Everything here runs inside the event loop of the test that started the fake.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from aiohttp import web

DEFAULT_TIMEOUT = 2.0


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (only used when a fixed port is wanted)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def json_response(data: Any, status: int = 200, headers: dict[str, Any] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    discord.py only parses bodies whose content type is exactly that string, and
    ``web.json_response`` appends a charset.
    """
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(body=json.dumps(data).encode("utf-8"), status=status, headers=all_headers)


def image_size(data: bytes) -> tuple[int | None, int | None]:
    """(width, height) of a PNG/GIF/JPEG, or (None, None) when unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    if data[:2] == b"\xff\xd8":
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                index += 1
                continue
            marker = data[index + 1]
            if marker in (0xC0, 0xC1, 0xC2):
                height, width = struct.unpack(">HH", data[index + 5 : index + 9])
                return width, height
            (length,) = struct.unpack(">H", data[index + 2 : index + 4])
            index += 2 + length
    return None, None


def guess_content_type(filename: str | None, data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:2] == b"\xff\xd8":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    name = (filename or "").lower()
    if name.endswith(".txt"):
        return "text/plain"
    if name.endswith(".json"):
        return "application/json"
    return "application/octet-stream"


@dataclass
class SentFile:
    """A file the bot uploaded."""

    filename: str
    data: bytes
    content_type: str | None = None
    field: str | None = None  # multipart field: 'photo', 'document', 'files[0]', ...

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class SentMessage:
    """One thing the bot did to a chat (a message sent, edited, deleted, ...).

    ``chat_id`` is the Telegram chat id or the Discord channel id (alias ``channel_id``);
    ``text`` is the message text, Discord content or Telegram caption (alias ``content``), empty if none.
    """

    platform: str
    action: str  # 'send', 'edit', 'delete', 'defer', 'react', 'autocomplete', 'modal', ...
    chat_id: int | None
    message_id: int | None
    text: str = ""  # empty when the action carries none
    files: list[SentFile] = field(default_factory=list)
    ephemeral: bool = False
    method: str = ""  # Telegram method or Discord route template
    interaction_id: int | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    reply_markup: Any = None  # Telegram reply_markup / Discord components
    reply_to: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)  # the parsed request parameters
    seq: int = 0
    at: float = 0.0  # when the fake took it, on the fake's clock (the Telegram fake sets it)

    @property
    def channel_id(self) -> int | None:
        return self.chat_id

    @property
    def content(self) -> str:
        return self.text

    @property
    def file(self) -> SentFile | None:
        return self.files[0] if self.files else None

    def short(self) -> str:
        text = (self.text or "").replace("\n", "\\n")
        if len(text) > 80:
            text = text[:77] + "..."
        extra = []
        if self.files:
            extra.append("files=" + ",".join(f.filename for f in self.files))
        if self.ephemeral:
            extra.append("ephemeral")
        return (
            f"#{self.seq} {self.action} chat={self.chat_id} msg={self.message_id} {text!r} {' '.join(extra)}".rstrip()
        )


class BotErrors(AssertionError):
    """Raised by the wait helpers when the bot under test reported an error."""


class MessageLog:
    """Ordered record of the bot's actions with 'wait for the next matching one' helpers.

    Each record is returned at most once by :meth:`wait_for`; the records stay in
    :attr:`records` for inspection.
    """

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.records: list[SentMessage] = []
        self.errors: list[BaseException] = []
        self._consumed: set[int] = set()
        self._changed: asyncio.Event | None = None
        self._seq = 0

    def _event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    def add(self, record: SentMessage) -> SentMessage:
        self._seq += 1
        record.seq = self._seq
        self.records.append(record)
        self._wake()
        return record

    def report_error(self, error: BaseException) -> None:
        """Record an error raised inside the bot; pending and later waits raise it."""
        self.errors.append(error)
        self._wake()

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def select(
        self,
        chat_id: int | None = None,
        actions: Iterable[str] | None = ("send",),
        predicate: Callable[[SentMessage], bool] | None = None,
    ) -> list[SentMessage]:
        wanted = None if actions is None else set([actions] if isinstance(actions, str) else actions)
        out = []
        for record in self.records:
            if wanted is not None and record.action not in wanted:
                continue
            if chat_id is not None and record.chat_id != chat_id:
                continue
            if predicate is not None and not predicate(record):
                continue
            out.append(record)
        return out

    def check_errors(self) -> None:
        if self.errors:
            first = self.errors[0]
            raise BotErrors(f"the bot reported {len(self.errors)} error(s); first: {first!r}") from first

    async def wait_for(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        chat_id: int | None = None,
        actions: Iterable[str] | None = ("send",),
        timeout: float = DEFAULT_TIMEOUT,
        consume: bool = True,
    ) -> SentMessage:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.check_errors()
            for record in self.select(chat_id, actions, predicate):
                if record.seq in self._consumed:
                    continue
                if consume:
                    self._consumed.add(record.seq)
                return record
            remaining = deadline - loop.time()
            if remaining <= 0:
                seen = "\n  ".join(r.short() for r in self.records) or "(nothing)"
                raise AssertionError(
                    f"{self.platform}: no bot action {tuple(actions) if actions else 'any'} "
                    f"in chat {chat_id} matching the predicate within {timeout}s. Bot actions so far:\n  {seen}"
                )
            try:
                await asyncio.wait_for(self._event().wait(), remaining)
            except TimeoutError:
                pass

    async def assert_quiet(self, duration: float = 0.1, *, chat_id: int | None = None) -> None:
        """Wait ``duration`` seconds and fail if an unconsumed message was sent meanwhile."""
        await asyncio.sleep(duration)
        self.check_errors()
        fresh = [r for r in self.select(chat_id, None) if r.seq not in self._consumed]
        if fresh:
            raise AssertionError(
                f"{self.platform}: expected no bot action, got:\n  " + "\n  ".join(r.short() for r in fresh)
            )

    def consume_all(self) -> None:
        """Mark everything recorded so far as seen."""
        self._consumed.update(r.seq for r in self.records)


class FakeClock:
    """A fake server's "now": the real Unix time (or the time it was frozen at) plus an offset that
    tests advance.

    Only what the fake decides from time follows it (interaction tokens' age, outages, snowflake
    and message dates); the bot under test keeps its own clock unless it is handed this one.
    """

    def __init__(self) -> None:
        self.offset = 0.0
        self.frozen_at: float | None = None  # the real time the clock stopped following (see freeze)

    def now(self) -> float:
        return (time.time() if self.frozen_at is None else self.frozen_at) + self.offset

    def freeze(self) -> None:
        """From now on the clock moves only when the test advances it (a text computed from it, such
        as a countdown, is then exact however slow the machine is)."""
        if self.frozen_at is None:
            self.frozen_at = time.time()

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the fake's clock only moves forward")
        self.offset += seconds


@dataclass
class Fault:
    """An injected failure served to the next ``count`` matching requests.

    ``method`` is the HTTP method (``"*"`` for any) for Discord, the lowercased Bot API method
    for Telegram; ``path`` a Discord route template or glob. ``reset``: the connection is
    dropped (TCP reset) instead of answered; with ``handled`` too, once the request has been
    handled (it took effect, its answer is lost).
    """

    method: str
    path: str | None
    status: int
    body: dict[str, Any] | None
    headers: dict[str, Any] = field(default_factory=dict)
    count: int = 1
    kind: str = "error"  # "error", "5xx", "429", "reset": what the fault log calls it
    reset: bool = False
    handled: bool = False


@dataclass
class Outage:
    """Every request refused until ``until`` (the fake's clock): ``mode`` "reset" drops the
    connections, "unavailable" answers HTTP 503."""

    until: float
    mode: str = "reset"


@dataclass(frozen=True)
class ServedFault:
    """One injected failure as it was served (``fake.faults_served``)."""

    kind: str  # "error", "5xx", "429", "reset", "outage", "gateway:7", "gateway:9", "gateway:4000", ...
    method: str
    path: str
    at: float  # the fake's clock


OUTAGE_MODES = ("reset", "unavailable")


class Outages:
    """A fake's outage (``outage_state``): begun for a while of its clock, ended early, or over once its clock
    passes its end. Mixed into each fake's faults, which say what an outage does to their connections."""

    outage_state: Outage | None

    def now(self) -> float:
        raise NotImplementedError  # the fake's clock (its world's ``now``)

    def _begin_outage(self, duration: float, mode: str) -> None:
        if mode not in OUTAGE_MODES:
            raise ValueError(f"mode is one of {OUTAGE_MODES}")
        self.outage_state = Outage(self.now() + duration, mode)

    def end_outage(self) -> None:
        self.outage_state = None

    def _in_outage(self) -> Outage | None:
        if self.outage_state is not None and self.now() >= self.outage_state.until:
            self.outage_state = None
        return self.outage_state


def reset_connection(request: web.Request) -> NoReturn:
    """Drop the request's TCP connection with a reset (RST), as a failing network does."""
    transport = request.transport
    if transport is not None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    raise asyncio.CancelledError("connection reset by the fake server")
