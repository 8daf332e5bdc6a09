"""The fake Discord REST API's HTTP side: the middleware every API request goes through (the address's
ban, an outage, authentication, injected faults, Discord's rate limits, the invalid-request count), request
bodies (JSON or multipart with files), attachments' downloads, routes the fake does not implement, and the
routes that read the bot's identity and the world (users, application, gateway, channels, members) or open a
DM. Messages, interactions and commands have their own modules (``discord_rest_*``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web
from aiohttp.typedefs import Handler

from ._common import SentFile, json_response, reset_connection
from .discord_faults import DiscordFaults
from .discord_global import DM_TOO_FAST, DM_TOO_FAST_MESSAGE, DmOpenings, InvalidRequests
from .discord_rules import ApiError, api_error, invalid_form, recommended_shards
from .discord_world import API_PREFIX, DiscordUser

# Keys for per-request storage (aiohttp >= 3.12 prefers typed keys).
_RequestKey = getattr(web, "RequestKey", None)
_BODY: Any = _RequestKey("body", object) if _RequestKey else "body"
_FILES: Any = _RequestKey("files", list) if _RequestKey else "files"

_invalid_form = invalid_form
_ApiError = ApiError
_error = api_error


class DiscordRest(DiscordFaults):
    """The REST API's plumbing and its routes that read the world."""

    requests: list[tuple[str, str, Any]]
    responses: list[tuple[str, str, int]]
    unhandled: list[tuple[str, str, Any]]
    invalid_requests: InvalidRequests
    enforce_rate_limits: bool
    token: str
    application_id: int
    attachments: dict[int, SentFile]
    dm_openings: DmOpenings
    identifies: int
    max_concurrency: int
    session_start_total: int
    _app_owner: DiscordUser | None

    if TYPE_CHECKING:  # FakeDiscord's (discord_server): where the fake listens

        @property
        def gateway_url(self) -> str: ...

    # ------------------------------------------------------------------ HTTP plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        path = request.path[len(API_PREFIX) :]
        if self.invalid_requests.banned(self.now()):  # tests.fakes.discord_global: Cloudflare answers, not the API
            self.requests.append((request.method, path, None))
            status, ban_body, ban_headers = self.invalid_requests.ban_answer()
            self.responses.append((request.method, path, status))
            return json_response(ban_body, status, ban_headers)
        outage = self._in_outage()
        if outage is not None:
            self.requests.append((request.method, path, None))
            self._served("outage", request.method, path)
            if outage.mode == "reset":
                reset_connection(request)
            self.responses.append((request.method, path, 503))
            return web.Response(status=503, text="upstream connect error or disconnect/reset before headers")
        body, files = await self._read_body(request)
        request[_BODY], request[_FILES] = body, files
        self.requests.append((request.method, path, body))
        response = await self._answer(request, handler, path)
        self.responses.append((request.method, path, response.status))
        # Topics > Rate Limits > Invalid Request Limit: every 401, 403 and (not shared) 429 counts
        self.invalid_requests.record(request.method, path, response.status, response.headers, self.now())
        return response

    async def _answer(self, request: web.Request, handler: Handler, path: str) -> web.StreamResponse:
        needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        fault = self._match_fault(request)
        if fault is not None:
            self._served(fault.kind, request.method, path)
            if fault.reset and fault.handled:
                try:
                    await handler(request)
                except _ApiError:
                    pass  # refused: it took no effect, and the answer is lost all the same
            if fault.reset:
                reset_connection(request)
            headers = fault.headers or self.limits.peek(*self._limit_args(request), self.now())
            return json_response(fault.body, fault.status, headers)
        if self.enforce_rate_limits:  # tests.fakes.discord_limits: Discord's buckets and global limit
            headers, refused = self.limits.take(*self._limit_args(request), self.now(), len(self.requests) - 1)
            if refused is not None:
                return json_response(refused[1], refused[0], refused[2])
        else:
            headers = self.limits.peek(*self._limit_args(request), self.now())
        try:
            response = await handler(request)
        except _ApiError as err:
            response = json_response(err.body, err.status)
        if request.match_info.route.resource is not None and "{tail" not in request.match_info.route.resource.canonical:
            response.headers.update(headers)  # Topics > Rate Limits > Header Format: on every answer
        return response

    async def _read_body(self, request: web.Request) -> tuple[Any, list[SentFile]]:
        files: list[SentFile] = []
        if not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            body: Any = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue  # a nested multipart: neither discord.py nor the bot sends one
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                elif part.filename is not None:
                    data = bytes(await part.read(decode=False))
                    files.append(
                        SentFile(
                            filename=part.filename,
                            data=data,
                            content_type=part.headers.get("Content-Type"),
                            field=part.name,
                        )
                    )
                else:
                    body[part.name] = await part.text()
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode("utf-8", "replace"), files

    async def _handle_attachment(self, request: web.Request) -> web.Response:
        sent = self.attachments.get(int(request.match_info["attachment_id"]))
        if sent is None:
            return web.Response(status=404)
        return web.Response(body=sent.data, content_type=sent.content_type or "application/octet-stream")

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path[len(API_PREFIX) :], request.get(_BODY)))
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: identity

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.bot_user.to_dict(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_application(self, request: web.Request) -> web.Response:
        if self._app_owner is None:
            self._app_owner = self.add_user(username="app-owner")
        owner = self._app_owner
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": owner.to_dict(),
                "team": None,
                "bot": self.bot_user.to_dict(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "integration_types_config": {"0": {}, "1": {}},
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        """Topics > Gateway > Get Gateway: the URL only (no authentication needed)."""
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        """Topics > Gateway > Get Gateway Bot: the URL, the recommended shard count, and the session
        start limit (IDENTIFYs left in the current day; ``max_concurrency`` IDENTIFYs per 5 s)."""
        remaining = max(0, self.session_start_total - self.identifies)
        return json_response(
            {
                "url": self.gateway_url,
                "shards": recommended_shards(len(self.guilds)),
                "session_start_limit": {
                    "total": self.session_start_total,
                    "remaining": remaining,
                    "reset_after": 86_400_000 if self.identifies else 0,  # milliseconds
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _error(404, 10013, "Unknown User")
        return json_response(user.to_dict())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body = request[_BODY] or {}
        recipient = body.get("recipient_id")
        if recipient is None or int(recipient) not in self.users:
            raise _ApiError(400, _invalid_form(["recipient_id"], "NUMBER_TYPE_COERCE", "Value is not snowflake."))
        # Resources > User > Create DM: an existing DM channel is returned; opening new ones too fast is refused
        # (tests.fakes.discord_global: DM_OPENS, 403 / 40003 "You are opening direct messages too fast")
        if int(recipient) not in self._dm_channels and not self.dm_openings.take(int(recipient), self.now()):
            raise _error(403, DM_TOO_FAST, DM_TOO_FAST_MESSAGE)
        channel_id = self.dm_channel_id(int(recipient))
        return json_response(self.channels[channel_id])

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise _error(404, 10003, "Unknown Channel")
        return json_response(channel)

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise _error(404, 10004, "Unknown Guild")
        user_id = int(request.match_info["user_id"])
        if user_id not in guild.members:
            raise _error(404, 10007, "Unknown Member")
        return json_response(self._member_payload(guild, self.users[user_id]))

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise _error(404, 10004, "Unknown Guild")
        return json_response(list(guild.channels.values()))
