"""What a crowd at the live pages may take from the bot: connections and viewers capped, late headers closed,
descriptors kept for the bot, a descriptor shortage said once.

A bot process is given a limit of open descriptors (often 1,024), and the pages' connections share it with what
the bot itself needs: its database (a SQLite file and a reader per thread, or PostgreSQL's pool), its platform's
connections, the files it writes. So the page server takes at most the limit less ``RESERVE`` descriptors
(``Caps``): at the cap, a new connection takes the place of the oldest one with no request under way, and is
answered 503 at once and closed (``Refusal``) when every one has; it never waits for a descriptor. A connection
whose request headers have not all come within ``HEADER_SECONDS`` is closed. Were
the process short of descriptors all the same, asyncio's "socket.accept() out of system resource" traceback,
repeated every second while it lasts, is said once, in one line (``quiet_descriptor_shortage``).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("arbitre")

# descriptors left to the rest of the process: the bot itself (database, platform, files, threads' connections),
# the metrics port's connections, refused connections lingering, and each listener's burst of accepts
RESERVE = 384
ACCEPT_BURST = 32  # connections a listener accepts at once before its factory decides (asyncio: its backlog)
MAX_CONNECTIONS = 4096  # the pages' connections of one process, whatever its limit
MAX_VIEWERS = 2000  # event streams of one process
MAX_ROOM_VIEWERS = 500  # event streams of one room (a hall's projector and its remote players)
PAGE_LOADS = 16  # connections kept for page loads once the viewers are at their cap
HEADER_SECONDS = 10.0  # a connection's request headers all come within this, else it is closed
SAID_AGAIN_SECONDS = 600.0  # a descriptor shortage said again at most this often
LINGER_SECONDS = 1.0  # a refused connection waits this long at most for its client to close first
MAX_LINGERING = 64  # refused connections waiting so at once, at most (taken from the bot's reserve)
RETRY_AFTER = "30"  # seconds a refused page is told to wait (its script reconnects by itself)
SHORTAGE = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

_BUSY = b"Busy: too many viewers right now, try again in a moment.\n"
BUSY_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: " + RETRY_AFTER.encode() + b"\r\nCache-Control: no-store\r\nConnection: close\r\n"
    b"Content-Length: " + str(len(_BUSY)).encode() + b"\r\n\r\n" + _BUSY
)


def descriptor_limit() -> int:
    """This process's soft limit of open descriptors (a large number when there is none)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MAX_CONNECTIONS + RESERVE if soft == resource.RLIM_INFINITY else int(soft)


@dataclass(frozen=True)
class Caps:
    """How many connections the page server holds at once, how many of them may be event streams, and how
    many streams one room may have; beyond any of them: 503."""

    connections: int
    viewers: int
    room_viewers: int = MAX_ROOM_VIEWERS

    @classmethod
    def for_limit(cls, limit: int | None = None) -> Caps:
        """The caps of a process whose descriptor limit is ``limit`` (by default its own): ``RESERVE`` left
        to the bot, a few connections to page loads."""
        budget = (descriptor_limit() if limit is None else limit) - RESERVE
        connections = max(2 * PAGE_LOADS, min(MAX_CONNECTIONS, budget))
        return cls(connections, min(MAX_VIEWERS, connections - PAGE_LOADS))


class Refusal(asyncio.Protocol):
    """A connection beyond the cap: answered 503 at once, then closed once the client has closed its side or
    after ``LINGER_SECONDS`` (closed at once, what it sends unread, its request would reset the connection
    before the client reads the answer). Beyond ``MAX_LINGERING`` lingering at once, closed at once all the
    same: a storm of connections never holds more descriptors than that."""

    lingering = 0  # refused connections open now, in this process

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(BUSY_RESPONSE)
        if Refusal.lingering >= MAX_LINGERING:
            transport.close()
            return
        Refusal.lingering += 1
        self.transport = transport
        transport.write_eof()
        self.timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)

    def data_received(self, data: bytes) -> None:
        """What it sends is read and dropped."""

    def eof_received(self) -> bool:
        return False  # the client closed its side: the connection is closed

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            Refusal.lingering -= 1
            self.transport = None
        if self.timer is not None:
            self.timer.cancel()


def capped(
    make: Callable[[], asyncio.BaseProtocol], opened: Callable[[], list[Any]], busy: Collection[Any], most: int
) -> Callable[[], Any]:
    """A protocol factory for ``loop.create_server``: ``make``'s protocol while fewer than ``most`` connections
    are open (``opened``: their handlers, oldest first); at the cap, the oldest one with no request under way
    (not in ``busy``: a half-sent request, a connection kept alive) is closed for the new one, and when every
    one has a request under way (event streams), the new one is a ``Refusal``. A crowd of idle connections
    thus never keeps a page or a health check out."""

    def protocol() -> asyncio.BaseProtocol:
        handlers = [h for h in opened() if h.transport is not None]  # those closed already go at the next turn
        if len(handlers) >= most:
            idle = next((h for h in handlers if h not in busy), None)
            if idle is None:
                return Refusal()
            idle.force_close()
        return make()

    return protocol


class ShortageSaid:
    """A loop's exception handler that says a descriptor shortage in one line, at most every
    ``SAID_AGAIN_SECONDS`` (asyncio logs a traceback each second it cannot accept); anything else goes to
    the handler that was there before."""

    def __init__(self, before: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object] | None) -> None:
        self.before = before
        self.said_at = float("-inf")
        self.times = 0  # how many shortages were seen (said or not)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in SHORTAGE:
            self.times += 1
            now = time.monotonic()
            if now - self.said_at >= SAID_AGAIN_SECONDS:
                self.said_at = now
                log.error(
                    "web: out of descriptors (%s): new page connections wait; raise the limit (ulimit -n) "
                    "or serve fewer viewers per process",
                    errno.errorcode.get(error.errno or 0, "?"),
                )
            return
        if self.before is not None:
            self.before(loop, context)
        else:
            loop.default_exception_handler(context)


def quiet_descriptor_shortage(loop: asyncio.AbstractEventLoop) -> ShortageSaid:
    """Install ``ShortageSaid`` on ``loop`` (once); the handler."""
    current = loop.get_exception_handler()
    if isinstance(current, ShortageSaid):
        return current
    handler = ShortageSaid(current)
    loop.set_exception_handler(handler)
    return handler
