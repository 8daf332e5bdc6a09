"""The Telegram adapter's HTTP requests, which tell the metrics (``bot.operations.metrics``) every rate-limit answer
(HTTP 429) the Bot API sends, seen before python-telegram-bot's rate limiter retries it, and whether the
Bot API answers at all (the health check).

The long poll's request also keeps python-telegram-bot's polling loop from waiting long after an outage:
that loop (``network_retry_loop``, 22.x) waits 1 s after a network error, then 1.5 times longer at each
one in a row, up to 30 s, while it retries a timeout at once. :class:`PollingRequest` tries a connection
that failed (or a 5xx) again itself, a jittered time below ``min(cap, 2^n)`` seconds apart, and reports a
timeout once it has tried for a while: the poll is back within ``cap`` seconds of the Bot API.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import httpx
from telegram.error import NetworkError, TimedOut
from telegram.request import HTTPXRequest

from ...backoff import ceiling, full_jitter
from ...operations.metrics import RATE_LIMITED, Metrics

log = logging.getLogger("arbitre.telegram")

TELEGRAM_POOL = 256  # python-telegram-bot's own default for requests other than getUpdates
POLL_RETRY_CAP = 10.0  # seconds: the longest wait between two long polls while the Bot API does not answer
POLL_RETRY_BUDGET = 60.0  # seconds one long poll keeps trying before python-telegram-bot is told it timed out
SERVER_ERROR = 500


class WatchedRequest(HTTPXRequest):
    """python-telegram-bot's HTTP requests, counting 429 answers and remembering whether the last
    request reached the Bot API (``unreachable``: the error's class when it did not)."""

    def __init__(self, metrics: Metrics | None, **options: Any) -> None:
        super().__init__(**options)
        self.metrics = metrics
        self.unreachable: str | None = None

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, payload = await super().do_request(*args, **kwargs)
        except (NetworkError, httpx.HTTPError) as error:  # never its text: it may quote the URL, token included
            self.unreachable = type(error).__name__
            raise
        self.unreachable = None
        if status == RATE_LIMITED and self.metrics is not None:
            self.metrics.rate_limit_seen("telegram")
        return status, payload


class PollingRequest(WatchedRequest):
    """The long poll's request: a lost connection or a 5xx is tried again here, at most ``cap`` seconds
    apart, and after ``budget`` seconds of that python-telegram-bot is told the poll timed out (which it
    retries at once)."""

    def __init__(
        self,
        metrics: Metrics | None,
        *,
        cap: float = POLL_RETRY_CAP,
        budget: float = POLL_RETRY_BUDGET,
        rand: random.Random | None = None,
        **options: Any,
    ) -> None:
        super().__init__(metrics, **options)
        self.cap = cap
        self.budget = budget
        self.rand = rand or random.Random()

    def ceiling(self, failures: int) -> float:
        """The longest wait after ``failures`` failed polls in a row."""
        return ceiling(failures, self.cap)

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        data = kwargs.get("request_data", args[2] if len(args) > 2 else None)
        if data is None or str(data.parameters.get("timeout", "0")) in ("0", "0.0"):
            return await super().do_request(*args, **kwargs)  # not a long poll (python-telegram-bot's last, at stop)
        loop = asyncio.get_running_loop()
        until = loop.time() + self.budget
        failures = 0
        while True:
            try:
                status, payload = await super().do_request(*args, **kwargs)
                if status < SERVER_ERROR:
                    return status, payload
                failure = f"HTTP {status}"
            except TimedOut:
                raise  # python-telegram-bot polls again at once
            except NetworkError as error:
                failure = type(error.__cause__ or error).__name__
            failures += 1
            wait = full_jitter(failures, self.cap, self.rand)
            if loop.time() + wait > until:
                raise TimedOut(f"the Bot API did not answer {failures} long polls ({failure})")
            log.info("long poll failed (%s, %d in a row); polling again in %.2fs", failure, failures, wait)
            await asyncio.sleep(wait)


def telegram_requests(
    metrics: Metrics | None, *, poll_retry_cap: float = POLL_RETRY_CAP
) -> tuple[WatchedRequest, PollingRequest]:
    """The requests for the bot's calls and for getUpdates, with python-telegram-bot's default pool sizes."""
    return (
        WatchedRequest(metrics, connection_pool_size=TELEGRAM_POOL),
        PollingRequest(metrics, cap=poll_retry_cap, connection_pool_size=1),
    )
