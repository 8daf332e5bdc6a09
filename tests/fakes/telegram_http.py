"""The HTTP plumbing of the fake Telegram: the aiohttp server on 127.0.0.1 (started, stopped, its URLs
for ``ApplicationBuilder``), the parameters of a call read as Telegram reads them (JSON, form or
multipart), and each call answered: outage, fault, unknown method, flood control, or its handler.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from aiohttp import BodyPartReader, web

from ._common import SentFile, json_response, reset_connection
from .telegram_faults import TelegramFaults
from .telegram_objects import _ApiError, _bad, _Outage

if TYPE_CHECKING:
    from telegram.ext._applicationbuilder import InitApplicationBuilder

# Parameters that Telegram expects as JSON-serialised objects when sent form-encoded.
_JSON_FIELDS = {
    "reply_markup",
    "entities",
    "caption_entities",
    "reply_parameters",
    "link_preview_options",
    "allowed_updates",
    "commands",
    "scope",
    "media",
    "reaction",
}
_INT_FIELDS = {
    "message_id",
    "reply_to_message_id",
    "offset",
    "limit",
    "message_thread_id",
    "user_id",
    "max_connections",
}
_BOOL_FIELDS = {
    "disable_notification",
    "protect_content",
    "allow_sending_without_reply",
    "drop_pending_updates",
    "show_alert",
    "disable_web_page_preview",
    "has_spoiler",
    "disable_content_type_detection",
}


def _proxy_error(status: int) -> web.Response:
    """What the proxy in front of the Bot API answers when the server behind it is down."""
    reason = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Time-out"}.get(status, "Error")
    page = f"<html><head><title>{status} {reason}</title></head><body><h1>{status} {reason}</h1></body></html>"
    return web.Response(status=status, text=page, content_type="text/html")


class TelegramHttp(TelegramFaults):
    """The server and its requests; the handlers are ``_METHODS`` (:class:`TelegramMethods`)."""

    _METHODS: ClassVar[dict[str, Callable[..., Any]]]

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Self:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.*}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Release pending long polls, then shut the server down."""
        self._stopping = True
        self._wake_pollers("stop")
        if self.webhook_sender is not None:
            await self.webhook_sender.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    def application_builder(self) -> InitApplicationBuilder:
        """An ``ApplicationBuilder`` with token, base_url and base_file_url set for this fake."""
        from telegram.ext import ApplicationBuilder

        return ApplicationBuilder().token(self.token).base_url(self.base_url).base_file_url(self.base_file_url)

    # ------------------------------------------------------------------ HTTP plumbing

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        path = request.match_info["path"]
        for sent, file_path in self._files.values():
            if file_path == path:
                return web.Response(body=sent.data, content_type=sent.content_type or "application/octet-stream")
        return json_response({"ok": False, "error_code": 404, "description": "Not Found"}, 404)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, SentFile]]:
        params: dict[str, Any] = dict(request.query)
        files: dict[str, SentFile] = {}
        ctype = request.content_type
        if request.method == "POST" and request.can_read_body:
            if ctype == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    params.update(body)
            elif ctype.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if not isinstance(part, BodyPartReader) or part.name is None:
                        continue  # python-telegram-bot sends named fields only, none of them multipart
                    if part.filename is not None:
                        data = await part.read(decode=False)
                        files[part.name] = SentFile(
                            filename=part.filename,
                            data=bytes(data),
                            content_type=part.headers.get("Content-Type"),
                            field=part.name,
                        )
                    else:
                        params[part.name] = await part.text()
            else:
                form = await request.post()
                for key, value in form.items():
                    params[key] = value if isinstance(value, str | bytes | bytearray) else value.file.read()
        for key, value in list(params.items()):
            if not isinstance(value, str):
                continue
            if key in _JSON_FIELDS:
                try:
                    params[key] = json.loads(value)
                except ValueError:
                    raise _bad(f"can't parse {key} JSON object") from None
            elif key in _INT_FIELDS or key == "chat_id":
                if re.fullmatch(r"-?\d+", value):
                    params[key] = int(value)
            elif key in _BOOL_FIELDS:
                params[key] = value.lower() in ("true", "1")
            elif key == "timeout":
                params[key] = float(value)
        if isinstance(params.get("chat_id"), str) and re.fullmatch(r"-?\d+", params["chat_id"]):
            params["chat_id"] = int(params["chat_id"])
        return params, files

    async def _handle_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        outage = self._in_outage()
        if outage is not None:
            self._served("outage", method)
            if outage.mode == "reset":
                reset_connection(request)
            return _proxy_error(502)
        if request.match_info["token"] != self.token:
            return json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        key = method.lower()
        try:
            params, files = await self._read_params(request)
        except _ApiError as err:
            return self._error_response(err)
        self.requests.append((method, params))
        self.requested_at.append(self.now())
        slow = next((i for i, (name, _) in enumerate(self._slow) if name in (key, "*")), None)
        if slow is not None:
            await asyncio.sleep(self._slow.pop(slow)[1])
        fault = self._match_fault(key)
        if fault is not None:
            self._served(fault.kind, method)
            if fault.reset:
                reset_connection(request)
            if fault.body is None:
                return _proxy_error(fault.status)
            return json_response(fault.body, fault.status)
        handler = self._METHODS.get(key)
        if handler is None:
            self.unhandled.append((method, params))
            return json_response({"ok": False, "error_code": 404, "description": "Not Found"}, 404)
        if self.flood is not None:
            too_many = self.flood.check(key, params.get("chat_id"), self.now())
            if too_many is not None:
                return json_response(too_many, 429)
        try:
            result = await handler(self, params, files)
        except _ApiError as err:
            return self._error_response(err)
        except _Outage:
            self._served("outage", method)
            reset_connection(request)
        return json_response({"ok": True, "result": result})

    @staticmethod
    def _error_response(err: _ApiError) -> web.Response:
        body: dict[str, Any] = {"ok": False, "error_code": err.code, "description": err.description}
        if err.parameters:
            body["parameters"] = err.parameters
        return json_response(body, err.code)
