"""The live pages' HTTP server: aiohttp, in the bot's own event loop, on a port of its own.

Why aiohttp: discord.py and python-telegram-bot's stack bring it already (no new dependency), and it runs
in the loop the referee service runs in, so a push is a call in that loop, with no thread or broker
between the command layer and the pages. Off unless a port is asked for (``--web-port`` or
``ARBITRE_WEB_PORT``); ``--web-prefix`` serves the pages under a path (behind a reverse proxy) and
``--web-url`` is the public address the links are given with.

Two routes, both under the prefix: ``/v/{token}`` (the page) and ``/v/{token}/events`` (its server-sent
events: the state at once, then each change). A token unknown or revoked is a bare 404, and nothing
lists the rooms. A crowd takes at most what ``bot.web.limits`` allows (connections, viewers per process and
per room: 503 beyond; late headers closed; descriptors kept for the bot).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection

from aiohttp import web
from aiohttp.typedefs import Handler

from ..operations.metrics import Metrics, add_metrics_routes
from ..storage import ViewRecord
from .address import WebAddress, clean_prefix
from .hub import REVOKED, Hub
from .limits import ACCEPT_BURST, HEADER_SECONDS, RETRY_AFTER, Caps, capped, quiet_descriptor_shortage
from .page import page_html
from .webhook import WebhookRoute, webhook_handler

KEEPALIVE_SECONDS = 15.0  # a comment line on an idle stream, so that proxies keep it open


def sse(event: str, data: str) -> bytes:
    """One server-sent event (``data`` on one line: JSON has no newline)."""
    return f"event: {event}\ndata: {data}\n\n".encode()


class WebServer:
    """The process's HTTP server: the pages of one referee's rooms, and with ``--http-port`` on the same port the
    health check and the metrics (``metrics``) and Telegram's webhook (``webhook``); ``start`` binds the port
    (``port`` is then the one bound) and gives the referee the links' address."""

    def __init__(
        self,
        hub: Hub | None,
        address: WebAddress,
        caps: Caps | None = None,
        *,
        metrics: Metrics | None = None,
        metrics_paths: Collection[str] = ("health", "metrics"),
        webhook: WebhookRoute | None = None,
    ) -> None:
        """``hub``: the rooms' pages (None: no page served); ``caps``: the connections and viewers it holds at
        once (by default, what the process's descriptor limit allows with the bot's reserve kept); ``metrics``:
        ``/healthz`` and ``/metrics`` served too (those of ``metrics_paths``); ``webhook``: Telegram's updates
        taken at its path."""
        self._hub = hub
        self.address = address
        self.port = address.port
        self.caps = caps or Caps.for_limit()
        self.refused = 0  # event streams answered 503 (the viewers' caps; connections beyond theirs are not counted)
        self._runner: web.AppRunner | None = None
        self._server: asyncio.Server | None = None
        self._busy: set[object] = set()  # the connections (their handlers) with a request under way
        self._entering: Counter[str] = Counter()  # by room, the streams admitted and not subscribed yet
        self._keeper: asyncio.Task[None] | None = None
        self._streams: set[asyncio.Task[object]] = set()  # the open event streams' handlers
        self.prefix = prefix = clean_prefix(address.prefix)
        self.app = web.Application(middlewares=[self._under_way])
        if hub is not None:
            self.app.router.add_get(prefix + "/v/{token}", self._page)
            self.app.router.add_get(prefix + "/v/{token}/events", self._events)
        self.serves_pages = hub is not None
        self.metrics_paths = frozenset(metrics_paths) if metrics is not None else frozenset()
        if metrics is not None:
            add_metrics_routes(self.app, metrics, metrics_paths)
        self.serves_webhook = webhook is not None
        if webhook is not None:
            self.app.router.add_post("/" + webhook.path.strip("/"), webhook_handler(webhook))

    @property
    def hub(self) -> Hub:
        """The rooms' pages' hub (only asked by the pages' routes, which exist when there is one)."""
        assert self._hub is not None
        return self._hub

    @property
    def url(self) -> str:
        """The public address of the prefix: the links are ``{url}/v/{token}``."""
        if self.address.public_url:
            return self.address.public_url.rstrip("/")
        return f"http://{self.address.host}:{self.port}{self.prefix}"

    async def start(self) -> None:
        """Serve (raises ``OSError`` when the address cannot be bound)."""
        loop = asyncio.get_running_loop()
        if self._hub is not None:
            self._hub.loop = loop
        quiet_descriptor_shortage(loop)
        # a connection that has not sent its whole request within HEADER_SECONDS (or idles as long after one) is closed
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, keepalive_timeout=HEADER_SECONDS)
        await self._runner.setup()
        handlers = self._runner.server
        assert handlers is not None
        factory = capped(handlers, lambda: handlers.connections, self._busy, self.caps.connections)
        self._server = await loop.create_server(
            factory, self.address.host, self.address.port, reuse_address=True, backlog=ACCEPT_BURST
        )
        self.port = int(self._server.sockets[0].getsockname()[1])  # the port bound (``port`` 0: any free one)
        if self._hub is not None:
            self._keeper = asyncio.get_running_loop().create_task(self._keep_alive())
            self._hub.listen()  # the changes other processes make (several processes on one PostgreSQL database)
            self._hub.referee.web_url = self.url

    async def close(self) -> None:
        """Stop serving: open streams end, the port is freed, and ``/view`` says the pages are off."""
        if self._hub is not None:
            self._hub.referee.web_url = None
        if self._keeper is not None:
            self._keeper.cancel()
            self._keeper = None
        for task in list(self._streams):  # else the runner waits for them to end by themselves
            task.cancel()
        if self._hub is not None:
            self._hub.close()
            await self._hub.stop_listening()
        if self._server is not None:
            self._server.close()  # no new connection; the runner closes the open ones
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _keep_alive(self) -> None:
        """A comment line to every page every ``KEEPALIVE_SECONDS`` (what it costs: one timer for them all)."""
        while True:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            await self.hub.keep_alive()

    @web.middleware
    async def _under_way(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Mark the request's connection busy while it is answered (or streamed to): never closed for a newer one."""
        protocol = request.protocol
        self._busy.add(protocol)
        try:
            return await handler(request)
        finally:
            self._busy.discard(protocol)

    async def _view(self, request: web.Request) -> ViewRecord:
        token = request.match_info["token"]
        view = await asyncio.to_thread(self.hub.referee.storage.view_by_token, token)
        if view is None:
            raise web.HTTPNotFound(text="Not found")
        return view

    async def _page(self, request: web.Request) -> web.Response:
        view = await self._view(request)
        lang = await asyncio.to_thread(lambda: self.hub.referee.storage.channel(view.channel).language)
        body = page_html(lang, f"{self.prefix}/v/{view.token}/events")
        return web.Response(
            text=body,
            content_type="text/html",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"},
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        view = await self._view(request)
        room = view.channel
        caps, entering = self.caps, self._entering
        if (
            self.hub.viewers() + sum(entering.values()) >= caps.viewers
            or self.hub.viewers(room) + entering[room] >= caps.room_viewers
        ):
            self.refused += 1
            busy = web.Response(
                status=503,
                text="Busy: too many viewers right now, try again in a moment.\n",
                headers={"Retry-After": RETRY_AFTER, "Cache-Control": "no-store"},
            )
            busy.force_close()  # its connection freed at once, not kept alive for the page's next try
            return busy
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        entering[room] += 1  # counted from here: the streams that come meanwhile see it
        try:
            await response.prepare(request)
            link = StreamLink(request, response)
            viewer = self.hub.subscribe(view, link)
        finally:
            entering[room] -= 1
            if not entering[room]:
                del entering[room]
        task = asyncio.current_task()
        if task is not None:
            self._streams.add(task)
        try:
            self.hub.send(viewer, await asyncio.to_thread(self.hub.payload, view))  # the snapshot
            await viewer.done.wait()  # the room's feed writes the states (no timer, no task of its own)
            if viewer.revoked and not link.closed():
                link.write(sse("revoked", REVOKED or "{}"))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.unsubscribe(viewer)
            if task is not None:
                self._streams.discard(task)
        return response


class StreamLink:
    """A page's event stream as the hub writes to it: straight to the connection's transport (a write that
    never waits; the chunk's framing added when the response is chunked, as HTTP/1.1's is), while the
    transport's buffer is at most at its low-water mark (``room``)."""

    def __init__(self, request: web.Request, response: web.StreamResponse) -> None:
        self.transport = request.transport
        self.chunked = response.headers.get("Transfer-Encoding", "").lower() == "chunked"

    def write(self, data: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            raise ConnectionResetError("the page went away")
        if self.chunked:
            transport.writelines((b"%x\r\n" % len(data), data, b"\r\n"))
        else:
            transport.write(data)

    def closed(self) -> bool:
        return self.transport is None or self.transport.is_closing()

    def room(self) -> bool:
        transport = self.transport
        if transport is None or transport.is_closing():
            return False
        low, _high = transport.get_write_buffer_limits()
        return transport.get_write_buffer_size() <= low

    def buffered(self) -> int:
        transport = self.transport
        return 0 if transport is None else transport.get_write_buffer_size()
