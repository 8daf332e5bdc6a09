"""The webhook's HTTP server: each POST Telegram sends to the webhook's path is judged on its headers before
a byte of its body is read.

A request declaring a body over :data:`MAX_UPDATE_BYTES` is refused at once and its connection closed,
with 403 without the secret token (compared in constant time), else 413: nobody makes the process read
a large body. A body within that size is read; without the secret it is dropped as it arrives and
refused with 403 (never kept), with it given to ``receive`` as a JSON object. A body sent in chunks is
refused as soon as it passes that size.
Nothing of a body is ever logged (it may be a private duplicate submission).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

import tornado.web
from tornado.httpserver import HTTPServer

from .webhook import WebhookConfig

log = logging.getLogger("arbitre.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1 << 20  # an update is a few kB (a 4096-character message and its entities): 1 MiB is plenty
TIMEOUT_SECONDS = 60.0  # a connection idle, or a body still arriving, this long is closed

Receive = Callable[[dict[str, Any]], Awaitable[None]]


class UnreadableUpdateError(ValueError):
    """An authenticated body that is not a Telegram update (``reason`` says why, never what it held)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@tornado.web.stream_request_body
class UpdateHandler(tornado.web.RequestHandler):
    """One POST of an update: refused on its headers, or read (at most ``limit`` bytes) and received."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, secret: str, receive: Receive, limit: int) -> None:
        self.secret = secret.encode("utf-8")
        self.receive = receive
        self.limit = limit
        self.body = bytearray()
        self.received = 0
        self.refusal: HTTPStatus | None = None  # FORBIDDEN: the body is read and dropped, never kept

    def prepare(self) -> None:
        given = self.request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        if not hmac.compare_digest(given, self.secret):
            self.refusal = HTTPStatus.FORBIDDEN
        declared = self.request.headers.get("Content-Length", "0").strip()
        if not (declared.isascii() and declared.isdigit()) or int(declared) > self.limit:
            # at once, and the connection closes: not a byte of the body is read
            raise tornado.web.HTTPError(self.refusal or HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        # a small body is read (and dropped when refused): closing on unread data would cut the answer

    def data_received(self, chunk: bytes) -> None:
        if self._finished:
            return
        self.received += len(chunk)
        if self.received > self.limit:  # a chunked body longer than any update
            self.body.clear()
            self.send_error(self.refusal or HTTPStatus.REQUEST_ENTITY_TOO_LARGE)  # the rest is not read
        elif self.refusal is None:
            self.body += chunk

    async def post(self) -> None:
        if self.refusal is not None:
            raise tornado.web.HTTPError(self.refusal)
        size = len(self.body)
        try:
            data = json.loads(bytes(self.body))
            if not isinstance(data, dict):
                raise UnreadableUpdateError("not a JSON object")
            await self.receive(data)
        except ValueError as error:  # JSON or the update itself
            log.warning("webhook: a %d-byte body that is not an update refused (%s)", size, type(error).__name__)
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None
        self.set_status(HTTPStatus.OK)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(f"{status_code}\n")


def serve_updates(webhook: WebhookConfig, receive: Receive, *, limit: int = MAX_UPDATE_BYTES) -> HTTPServer:
    """Listen on ``webhook.listen:webhook.port`` for POSTs to the webhook's path (on the running loop)."""
    app = tornado.web.Application(
        [
            (
                rf"/{re.escape(webhook.url_path)}/?" if webhook.url_path else r"/",
                UpdateHandler,
                {"secret": webhook.secret, "receive": receive, "limit": limit},
            )
        ],
        log_function=lambda handler: None,  # no access log: refusals are many when someone probes the URL
    )
    # the size a request declares is judged by the handler (403 first, then 413), never by the server
    server = HTTPServer(
        app, max_body_size=1 << 62, idle_connection_timeout=TIMEOUT_SECONDS, body_timeout=TIMEOUT_SECONDS
    )
    server.listen(webhook.port, address=webhook.listen)
    return server
