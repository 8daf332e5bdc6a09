"""The Telegram adapter's HTTP requests, which tell the metrics (``bot.metrics``) every rate-limit answer
(HTTP 429) the Bot API sends, seen before python-telegram-bot's rate limiter retries it, and whether the
Bot API answers at all (the health check).
"""

from __future__ import annotations

from typing import Any

import httpx
from telegram.error import NetworkError
from telegram.request import HTTPXRequest

from ..metrics import RATE_LIMITED, Metrics

TELEGRAM_POOL = 256  # python-telegram-bot's own default for requests other than getUpdates


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


def telegram_requests(metrics: Metrics | None) -> tuple[WatchedRequest, WatchedRequest]:
    """The requests for the bot's calls and for getUpdates, with python-telegram-bot's default pool sizes."""
    return WatchedRequest(metrics, connection_pool_size=TELEGRAM_POOL), WatchedRequest(metrics, connection_pool_size=1)
