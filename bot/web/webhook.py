"""Telegram's webhook as a route of the process's one HTTP server (``--http-port``): each POST judged on its
headers before a byte of its body is read.

A request declaring a body over ``MAX_UPDATE_BYTES`` is refused at once and its connection closed, with 403
without the secret token (compared in constant time), else 413. A body within that size is read; without the
secret it is dropped as it arrives and refused with 403 (never kept), with it given to ``receive`` as a JSON
object. A body sent in chunks is refused as soon as it passes that size. Nothing of a body is ever logged (it
may be a private duplicate submission).
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from aiohttp import web

log = logging.getLogger("arbitre.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1 << 20  # an update is a few kB (a 4096-character message and its entities): 1 MiB is plenty
READ_BYTES = 1 << 16

Receive = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class WebhookRoute:
    """Where Telegram posts (``path``, the webhook URL's own), the secret it sends, and who takes the updates."""

    path: str
    secret: str = field(repr=False)
    receive: Receive
    limit: int = MAX_UPDATE_BYTES


def _answer(status: HTTPStatus, *, close: bool = False) -> web.Response:
    response = web.Response(status=status, text=f"{int(status)}\n")
    if close:
        response.force_close()  # what is left of the body is not read
    return response


def webhook_handler(route: WebhookRoute) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The aiohttp handler of ``route``'s POSTs."""
    secret = route.secret.encode("utf-8")

    async def handle(request: web.Request) -> web.StreamResponse:
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        refusal = None if hmac.compare_digest(given, secret) else HTTPStatus.FORBIDDEN
        declared = request.headers.get("Content-Length")
        if declared is not None:
            declared = declared.strip()
            if not (declared.isascii() and declared.isdigit()) or int(declared) > route.limit:
                return _answer(refusal or HTTPStatus.REQUEST_ENTITY_TOO_LARGE, close=True)
        body = bytearray()
        received = 0
        while chunk := await request.content.read(READ_BYTES):
            received += len(chunk)
            if received > route.limit:  # a chunked body longer than any update
                return _answer(refusal or HTTPStatus.REQUEST_ENTITY_TOO_LARGE, close=True)
            if refusal is None:
                body += chunk
        if refusal is not None:
            return _answer(refusal)
        try:
            data = json.loads(bytes(body))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            await route.receive(data)
        except ValueError as error:  # JSON or the update itself
            log.warning("webhook: a %d-byte body that is not an update refused (%s)", len(body), type(error).__name__)
            return _answer(HTTPStatus.BAD_REQUEST)
        return _answer(HTTPStatus.OK)

    return handle
