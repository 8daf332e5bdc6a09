"""What an operator of a public bot sees: metrics in Prometheus' text format and a health check, per process.

Off unless asked for (``--metrics-port`` or ``ARBITRE_METRICS_PORT``); served by a small HTTP
server (aiohttp, in an event loop of its own thread: idle connections cost no thread), on 127.0.0.1 unless
another address is given
(``--metrics-address`` / ``ARBITRE_METRICS_ADDRESS``):

- ``/metrics``: commands handled and their latency (from arrival to the first delivery of their
  replies), messages waiting in the outbox, the oldest one's age and the dead letters per platform
  (read from storage at scrape time, one query), 429s the platform answered, the clock leases held,
  whether the process is busy or overloaded, its late answers and what it shed meanwhile (``bot.overload``).
- ``/healthz``: 200 ``ok`` when the storage answers and the adapter is connected, else 503 and
  one line saying which is not.

Each process object has its own registry (never the library's global one), so several run in
one interpreter. Labels are a command's name and a platform's name, never a token, a channel
or a user.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import make_wsgi_app
from prometheus_client.registry import Collector

from ..overload import Shed
from .ports import BadPortError, port_number

if TYPE_CHECKING:
    import aiohttp
    import aiohttp.web

    from ..chat import CommandLine
    from ..overload import Overload
    from ..referee import Referee

log = logging.getLogger("arbitre")

PORT_ENV = "ARBITRE_METRICS_PORT"
ADDRESS_ENV = "ARBITRE_METRICS_ADDRESS"
DEFAULT_ADDRESS = "127.0.0.1"  # the metrics say how busy the bot is: not for the whole network unless asked
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
RATE_LIMITED = 429  # the HTTP status of a rate-limit answer
UNKNOWN_COMMAND = "unknown"  # the label of a command the bot does not know (never what was typed)

Connected = Callable[[], str | None]  # None: connected; else one line saying why not


class BadMetricsPortError(BadPortError):
    """A metrics port that is not a number from 0 to 65535."""

    def __init__(self, text: str) -> None:
        super().__init__("metrics", text)


@dataclass(frozen=True)
class MetricsAddress:
    """Where the metrics are served: ``port`` 0 takes any free port."""

    host: str
    port: int


@dataclass(frozen=True)
class Health:
    """The health check's answer: ``reason`` is ``ok`` or what does not answer."""

    ok: bool
    reason: str


def platform_of(channel: str) -> str:
    """A channel's or a user's platform: the part of its id before ``:`` (``console`` for the console)."""
    return channel.split(":", 1)[0] or "unknown"


def command_label(command: CommandLine | None) -> str | None:
    """The name a command is counted under: its canonical name (``/jouer`` and ``/play`` alike),
    ``unknown`` for a command the bot does not know; None for a message that is no command."""
    from ..commands import find

    if command is None:
        return None
    spec = find(command.name)
    return spec.name if spec is not None else UNKNOWN_COMMAND


def metrics_address(port: int | str | None, host: str | None = None) -> MetricsAddress | None:
    """The address asked for by the options, else by ``ARBITRE_METRICS_PORT`` and ``ARBITRE_METRICS_ADDRESS``;
    None (no port opened) when neither asks for a port."""
    chosen = port if port is not None else os.environ.get(PORT_ENV, "").strip() or None
    if chosen is None:
        return None
    number = port_number(chosen, BadMetricsPortError)
    return MetricsAddress(host or os.environ.get(ADDRESS_ENV, "").strip() or DEFAULT_ADDRESS, number)


class Metrics:
    """One process's metrics and health: counters the service and adapters add to, and gauges read
    from the watched referee's storage at scrape time."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        """``now``: Unix time as the storage stamps outbox rows (for the oldest message's age)."""
        self.now = now
        self.registry = CollectorRegistry(auto_describe=True)
        self.commands = Counter(
            "arbitre_commands",
            "Commands handled, by command and platform",
            ["command", "platform"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "arbitre_command_seconds",
            "Seconds from a command's arrival to the delivery of its replies",
            ["command", "platform"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "arbitre_rate_limited",
            "Rate-limit answers (HTTP 429) received from the platform",
            ["platform"],
            registry=self.registry,
        )
        self.shed = Counter(
            "arbitre_shed",
            "Items left out: live counter edits and join notices while busy, result and standings images while"
            " overloaded",
            ["what"],
            registry=self.registry,
        )
        for what in Shed:  # each shown from the start, at 0
            self.shed.labels(what.value)
        self.overloaded = Gauge(
            "arbitre_overloaded", "1 while the process is overloaded (it sheds what can wait)", registry=self.registry
        )
        self.busy = Gauge(
            "arbitre_busy", "1 while answers queue in the process (its live lines give way)", registry=self.registry
        )
        self.answers_late = Gauge(
            "arbitre_answers_late",
            "Answers that have waited in the process longer than the overload's threshold, now",
            registry=self.registry,
        )
        self.referee: Referee | None = None
        self.connected: Connected = lambda: "no adapter"
        self.registry.register(_StorageCollector(self))

    def watch(self, referee: Referee, connected: Connected) -> None:
        """Read the outbox and the clock leases from ``referee``, and the connection from ``connected``."""
        self.referee = referee
        self.connected = connected

    def watch_overload(self, overload: Overload) -> None:
        """Show ``overload``'s state and its late answers (read at scrape time)."""
        self.overloaded.set_function(lambda: float(overload.overloaded))
        self.busy.set_function(lambda: float(overload.busy))
        self.answers_late.set_function(lambda: float(overload.load().late))

    def shed_items(self, what: Shed, count: int = 1) -> None:
        """Count ``count`` items of ``what`` left out (busy or overloaded)."""
        self.shed.labels(what.value).inc(count)

    def command_done(self, command: str, platform: str, seconds: float) -> None:
        """Count one command handled and how long it took."""
        self.commands.labels(command, platform).inc()
        self.latency.labels(command, platform).observe(seconds)

    def rate_limit_seen(self, platform: str) -> None:
        """Count one 429 answer of ``platform``."""
        self.rate_limited.labels(platform).inc()

    def health(self) -> Health:
        """200-worthy when the storage answers one query and the adapter says it is connected."""
        if self.referee is None:
            return Health(False, "not started")
        try:
            self.referee.outbox.backlog()
        except Exception as error:  # the class only: a database error may quote its URL, password included
            return Health(False, f"storage does not answer ({type(error).__name__})")
        reason = self.connected()
        if reason is not None:
            return Health(False, f"adapter not connected ({reason})")
        return Health(True, "ok")

    def wsgi_app(self) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
        """``/healthz`` and ``/metrics`` (anything else: the metrics, as the library serves them)."""
        metrics_app = make_wsgi_app(self.registry)

        def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            if environ.get("PATH_INFO") == "/healthz":
                health = self.health()
                status = "200 OK" if health.ok else "503 Service Unavailable"
                start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
                return [health.reason.encode() + b"\n"]
            return metrics_app(environ, start_response)  # type: ignore[no-any-return]

        return app


def add_metrics_routes(
    app: aiohttp.web.Application, metrics: Metrics, paths: Collection[str] = ("health", "metrics")
) -> None:
    """``/healthz`` (``health`` in ``paths``) and ``/metrics`` (``metrics``) on ``app`` (the process's one HTTP
    server), answered in a worker thread (the storage's query may wait)."""
    import asyncio

    from aiohttp import web
    from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

    async def healthz(request: web.Request) -> web.Response:
        health = await asyncio.to_thread(metrics.health)
        return web.Response(status=200 if health.ok else 503, text=health.reason + "\n")

    async def scrape(request: web.Request) -> web.Response:
        body = await asyncio.to_thread(generate_latest, metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    if "health" in paths:
        app.router.add_get("/healthz", healthz)
    if "metrics" in paths:
        app.router.add_get("/metrics", scrape)


def rate_limit_trace(metrics: Metrics, platform: str) -> aiohttp.TraceConfig:
    """An aiohttp trace (discord.py's ``http_trace``) that counts the 429 answers its session receives,
    before the library sleeps them out."""
    import aiohttp

    async def on_request_end(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        if params.response.status == RATE_LIMITED:
            metrics.rate_limit_seen(platform)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


class _StorageCollector(Collector):
    """The gauges read at scrape time: the outbox's backlog (one query) and the clock leases held."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.storage_down = False  # said in the log once when the storage stops answering, once when it is back

    def describe(self) -> Iterable[Metric]:
        return []  # read at scrape time only: registering must not query the storage

    def collect(self) -> Iterator[Metric]:
        referee = self.metrics.referee
        up = GaugeMetricFamily("arbitre_storage_up", "1 when the storage answered this scrape's query")
        waiting = GaugeMetricFamily(
            "arbitre_outbox_waiting", "Messages stored and not yet delivered, by platform", labels=["platform"]
        )
        oldest = GaugeMetricFamily(
            "arbitre_outbox_oldest_seconds",
            "Age of the oldest message not yet delivered, by platform",
            labels=["platform"],
        )
        dead = GaugeMetricFamily(
            "arbitre_outbox_dead_letters",
            "Messages given up as never deliverable, kept for the retention period, by platform",
            labels=["platform"],
        )
        leases = GaugeMetricFamily("arbitre_clock_leases", "Channels whose duplicate clock this process holds")
        if referee is not None:
            leases.add_metric([], len(referee.clock.held))
            try:
                backlog = referee.outbox.backlog()
            except Exception as error:  # its class only: a database error may quote its URL
                if not self.storage_down:
                    log.warning("metrics: the storage does not answer (%s)", type(error).__name__)
                self.storage_down = True
                up.add_metric([], 0)
            else:
                if self.storage_down:
                    log.warning("metrics: the storage answers again")
                self.storage_down = False
                up.add_metric([], 1)
                now = self.metrics.now()
                for row in backlog:
                    waiting.add_metric([row.platform], row.waiting)
                    dead.add_metric([row.platform], row.dead)
                    age = 0.0 if row.oldest_created is None else max(0.0, now - row.oldest_created)
                    oldest.add_metric([row.platform], age)
        yield from (up, waiting, oldest, dead, leases)


MAX_SCRAPES = 64  # connections the metrics port holds at once; one beyond is answered 503 and closed at once
SCRAPE_SECONDS = 5.0  # a connection whose request has not all come within this (or idle as long after one) is closed

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def wsgi_answer(app: Wsgi, environ: dict[str, Any]) -> tuple[int, list[tuple[str, str]], bytes]:
    """What the WSGI ``app`` answers to ``environ``: its status, headers and body."""
    said: list[Any] = []
    body = b"".join(app(environ, lambda status, headers, exc_info=None: said.extend((status, headers))))
    return int(str(said[0]).split()[0]), list(said[1]), body


class MetricsServer:
    """The HTTP server of one process's metrics, in a thread of its own running an event loop (aiohttp): an
    idle or slow connection costs a descriptor, never a thread; at most ``MAX_SCRAPES`` are held (503 beyond),
    and one whose request is late is closed. The answers are the library's WSGI app's, built in a worker
    thread (the storage's query may wait). ``port`` is the one bound; raises ``OSError`` when it cannot be."""

    def __init__(self, metrics: Metrics, address: MetricsAddress) -> None:
        import asyncio

        self.host = address.host
        self.port = address.port
        self._app = metrics.wsgi_app()
        self._server: Any = None  # the listening server, once bound
        self._busy: set[Any] = set()  # the connections (their handlers) with a request under way
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, args=(address,), name="arbitre-metrics", daemon=True)
        self._thread.start()
        self._started.wait()
        if self._failure is not None:
            self._thread.join()
            raise self._failure

    def _serve(self, address: MetricsAddress) -> None:
        loop = self._loop
        try:
            runner = loop.run_until_complete(self._start(address))
        except BaseException as error:  # the address cannot be bound: said by the constructor
            self._failure = error
            self._started.set()
            loop.close()
            return
        self._started.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.close()

    async def _start(self, address: MetricsAddress) -> Any:
        import asyncio

        from aiohttp import web

        from ..web.limits import ACCEPT_BURST, capped, quiet_descriptor_shortage

        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._answer)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, keepalive_timeout=SCRAPE_SECONDS)
        await runner.setup()
        handlers = runner.server
        assert handlers is not None
        factory = capped(handlers, lambda: handlers.connections, self._busy, MAX_SCRAPES)
        loop = asyncio.get_running_loop()
        quiet_descriptor_shortage(loop)
        try:
            server = await loop.create_server(factory, address.host, address.port, backlog=ACCEPT_BURST)
        except BaseException:
            await runner.cleanup()
            raise
        self.port = int(server.sockets[0].getsockname()[1])
        self._server = server
        return runner

    async def _answer(self, request: Any) -> Any:
        """The WSGI app's answer; the connection marked busy meanwhile (never closed for a newer one)."""
        self._busy.add(request.protocol)
        try:
            return await self._wsgi(request)
        finally:
            self._busy.discard(request.protocol)

    async def _wsgi(self, request: Any) -> Any:
        """The request as a WSGI environ, answered in a worker thread."""
        import asyncio

        from aiohttp import web

        environ = {
            "REQUEST_METHOD": request.method,
            "PATH_INFO": request.path,
            "QUERY_STRING": request.query_string,
            "HTTP_ACCEPT": request.headers.get("Accept", ""),
            "HTTP_ACCEPT_ENCODING": request.headers.get("Accept-Encoding", ""),
        }
        status, headers, body = await asyncio.get_running_loop().run_in_executor(None, wsgi_answer, self._app, environ)
        return web.Response(status=status, body=body, headers=headers)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def close(self) -> None:
        """Stop serving and free the port."""
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()


@dataclass(frozen=True)
class MetricsRun:
    """A process's metrics and their server, or neither (metrics off: no port opened)."""

    metrics: Metrics | None = None
    server: MetricsServer | None = None

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def serve_metrics(address: MetricsAddress | None) -> MetricsRun:
    """The process's metrics and their server when ``address`` asks for them, else nothing.
    Raises ``OSError`` when the address cannot be bound."""
    if address is None:
        return MetricsRun()
    metrics = Metrics()
    return MetricsRun(metrics, MetricsServer(metrics, address))
