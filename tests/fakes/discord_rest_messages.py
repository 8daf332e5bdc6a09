"""The fake Discord's messages: the message and attachment payloads (a user's or the bot's), the checks of
what the bot sends (Resources > Message: content, embeds, components, files and their limits), and the REST
routes of channel messages: post, read, list, edit, delete, react, each refused without the permissions it
needs (Topics > Permissions), and recorded in ``log`` (:class:`SentMessage`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from aiohttp import web

from ._common import SentFile, SentMessage, guess_content_type, image_size, json_response
from .discord_components import validate_components
from .discord_gateway import DiscordGateway
from .discord_rest import _BODY, _FILES, _ApiError, _error, _invalid_form
from .discord_rules import (
    ADD_REACTIONS,
    ATTACH_FILES,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from .discord_world import ATTACHMENT_SIZE_LIMIT, CONTENT_LIMIT, FLAG_EPHEMERAL, FLAG_LOADING, DiscordUser, _iso

_MENTION_RE = re.compile(r"<@!?(\d+)>")


class DiscordRestMessages(DiscordGateway):
    """Message payloads and the channel messages' routes."""

    messages: dict[int, dict[str, Any]]
    attachments: dict[int, SentFile]
    echo_bot_messages: bool

    if TYPE_CHECKING:  # FakeDiscord's (discord_server): where the fake listens

        @property
        def http_base(self) -> str: ...

    # ------------------------------------------------------------------ message payloads

    def _now_iso(self) -> str:
        return _iso(dt.datetime.fromtimestamp(self.now(), dt.UTC))

    def _message_payload(self, channel_id: int, author: DiscordUser, content: str, **extra: Any) -> dict[str, Any]:
        channel = self.channels[channel_id]
        mentions: list[dict[str, Any]] = []
        for match in _MENTION_RE.finditer(content or ""):
            target = self.users.get(int(match.group(1)))
            if target is not None and all(m["id"] != str(target.id) for m in mentions):
                entry = target.to_dict()
                if channel.get("guild_id") and target.id in self.guilds[int(channel["guild_id"])].members:
                    entry["member"] = self._member_payload(
                        self.guilds[int(channel["guild_id"])], target, with_user=False
                    )
                mentions.append(entry)
        message: dict[str, Any] = {
            "id": str(self.snowflake()),
            "channel_id": str(channel_id),
            "author": author.to_dict(),
            "content": content or "",
            "timestamp": self._now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
        }
        if channel.get("guild_id"):
            guild = self.guilds[int(channel["guild_id"])]
            message["guild_id"] = channel["guild_id"]
            message["member"] = self._member_payload(guild, author, with_user=False)
        message.update(extra)
        return message

    def _attachment_payloads(
        self, channel_id: int, files: list[SentFile], ephemeral: bool = False
    ) -> list[dict[str, Any]]:
        out = []
        for sent in files:
            attachment_id = self.snowflake()
            self.attachments[attachment_id] = sent
            url = f"{self.http_base}/attachments/{channel_id}/{attachment_id}/{sent.filename}"
            item: dict[str, Any] = {
                "id": str(attachment_id),
                "filename": sent.filename,
                "size": len(sent.data),
                "url": url,
                "proxy_url": url,
                "content_type": sent.content_type or guess_content_type(sent.filename, sent.data),
            }
            width, height = image_size(sent.data)
            if width:
                item["width"], item["height"] = width, height
            if ephemeral:
                item["ephemeral"] = True
            out.append(item)
        return out

    @staticmethod
    def _validate_message(body: dict[str, Any], files: list[SentFile], path: tuple[str, ...] = ()) -> None:
        content = body.get("content")
        if content is not None and len(content) > CONTENT_LIMIT:
            raise _ApiError(
                400, _invalid_form([*path, "content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
            )
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            raise _ApiError(
                400, _invalid_form([*path, "embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
            )
        total = 0
        for index, embed in enumerate(embeds):
            where = [*path, "embeds", str(index)]
            for key, limit in (("title", 256), ("description", 4096)):
                value = embed.get(key) or ""
                total += len(value)
                if len(value) > limit:
                    raise _ApiError(
                        400,
                        _invalid_form([*where, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
                    )
            fields = embed.get("fields") or []
            if len(fields) > 25:
                raise _ApiError(
                    400, _invalid_form([*where, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
                )
            for number, item in enumerate(fields):
                for key, limit in (("name", 256), ("value", 1024)):
                    value = item.get(key) or ""
                    total += len(value)
                    if len(value) > limit:
                        raise _ApiError(
                            400,
                            _invalid_form(
                                [*where, "fields", str(number), key],
                                "BASE_TYPE_MAX_LENGTH",
                                f"Must be {limit} or fewer in length.",
                            ),
                        )
            total += len((embed.get("footer") or {}).get("text") or "")
            total += len((embed.get("author") or {}).get("name") or "")
        if total > 6000:
            raise _ApiError(
                400,
                _invalid_form([*path, "embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"),
            )
        validate_components(body.get("components"), path)  # see discord_components
        if len(files) > 10:
            raise _ApiError(
                400, _invalid_form([*path, "files"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
            )
        if sum(len(f.data) for f in files) > ATTACHMENT_SIZE_LIMIT:
            raise _error(413, 40005, "Request entity too large")

    @staticmethod
    def _is_empty(body: dict[str, Any], files: list[SentFile]) -> bool:
        return not (
            body.get("content")
            or body.get("embeds")
            or files
            or body.get("sticker_ids")
            or body.get("components")
            or body.get("poll")
        )

    # ------------------------------------------------------------------ REST: channel messages

    def _require(self, channel_id: int, *needed: int) -> None:
        """Refuse a channel action the bot lacks permissions for: 403 / 50001 Missing Access
        without View Channel, 403 / 50013 Missing Permissions otherwise (Topics > Opcodes and
        Status Codes > JSON Error Codes; Topics > Permissions)."""
        channel = self.channels[channel_id]
        if not channel.get("guild_id"):
            return
        granted = self.channel_permissions(channel_id, self.bot_user)
        if not granted & VIEW_CHANNEL:
            raise _error(403, MISSING_ACCESS, "Missing Access")
        for permission in needed:
            if not granted & permission:
                raise _error(403, MISSING_PERMISSIONS, "Missing Permissions")

    def _channel_for_send(
        self, channel_id: int, body: dict[str, Any] | None = None, files: list[SentFile] | None = None
    ) -> dict[str, Any]:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise _error(404, 10003, "Unknown Channel")
        if channel["type"] == 1:
            recipient = self._dm_recipient(channel_id)
            if recipient is None or not recipient.dms_open or recipient.bot:
                raise _error(403, 50007, "Cannot send messages to this user")
        # Resources > Message > Create Message: Send Messages in a guild channel; Attach Files to
        # upload; Read Message History to reply to a message.
        needed = [SEND_MESSAGES]
        if files:
            needed.append(ATTACH_FILES)
        if isinstance((body or {}).get("message_reference"), dict):
            needed.append(READ_MESSAGE_HISTORY)
        self._require(channel_id, *needed)
        return channel

    def _bot_message(
        self, channel_id: int, body: dict[str, Any], files: list[SentFile], *, ephemeral: bool = False, **extra: Any
    ) -> dict[str, Any]:
        message = self._message_payload(channel_id, self.bot_user, body.get("content") or "", **extra)
        message["embeds"] = list(body.get("embeds") or [])
        message["components"] = list(body.get("components") or [])
        message["tts"] = bool(body.get("tts", False))
        message["flags"] = int(body.get("flags") or 0) & ~FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0)
        message["attachments"] = self._attachment_payloads(channel_id, files, ephemeral)
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        return message

    def _record(
        self,
        action: str,
        route: str,
        channel_id: int,
        message: dict[str, Any] | None,
        body: Any,
        files: list[SentFile],
        **extra: Any,
    ) -> SentMessage:
        body = body if isinstance(body, dict) else {}
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        record = SentMessage(
            platform="discord",
            action=action,
            chat_id=channel_id,
            message_id=int(message["id"]) if message else None,
            text=extra.pop("text", message.get("content") if message else data.get("content")) or "",
            files=list(files),
            embeds=list(data.get("embeds") or []),
            reply_markup=data.get("components") or None,
            reply_to=int(data["message_reference"]["message_id"])
            if isinstance(data.get("message_reference"), dict) and data["message_reference"].get("message_id")
            else None,
            method=route,
            payload=body,
            **extra,
        )
        return self.log.add(record)

    async def _post_channel_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        body, files = request[_BODY] or {}, request[_FILES]
        channel = self._channel_for_send(channel_id, body, files)
        self._validate_message(body, files)
        if self._is_empty(body, files):
            raise _error(400, 50006, "Cannot send an empty message")
        extra: dict[str, Any] = {}
        reference = body.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            referenced = self.messages.get(int(reference["message_id"]))
            if referenced is None and reference.get("fail_if_not_exists", True):
                raise _ApiError(
                    400, _invalid_form(["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
                )
            if referenced is not None:
                extra["type"] = 19
                extra["message_reference"] = {
                    "message_id": referenced["id"],
                    "channel_id": referenced["channel_id"],
                    "type": 0,
                }
                extra["referenced_message"] = dict(referenced)
        message = self._bot_message(channel_id, body, files, **extra)
        self.messages[int(message["id"])] = message
        channel["last_message_id"] = message["id"]
        self._record("send", "POST /channels/{channel_id}/messages", channel_id, message, body, files)
        if self.echo_bot_messages:
            self._spawn(self._deliver_message(message))
        return json_response(message)

    def _channel_message(self, request: web.Request, *needed: int) -> dict[str, Any]:
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.channels:
            raise _error(404, 10003, "Unknown Channel")
        self._require(channel_id, *needed)
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None or message["channel_id"] != request.match_info["channel_id"]:
            raise _error(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, request: web.Request) -> web.Response:
        # Resources > Message > Get Channel Message: needs Read Message History.
        return json_response(self._channel_message(request, READ_MESSAGE_HISTORY))

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["channel_id"]
        if int(channel_id) not in self.channels:
            raise _error(404, 10003, "Unknown Channel")
        self._require(int(channel_id))
        if self.channels[int(channel_id)].get("guild_id") and not (
            self.channel_permissions(int(channel_id), self.bot_user) & READ_MESSAGE_HISTORY
        ):
            return json_response([])  # Get Channel Messages: no history without the permission
        limit = int(request.query.get("limit", 50))
        found = [m for m in self.messages.values() if m["channel_id"] == channel_id and not m["flags"] & FLAG_EPHEMERAL]
        found.sort(key=lambda m: int(m["id"]), reverse=True)
        return json_response(found[:limit])

    def _apply_edit(
        self, message: dict[str, Any], body: dict[str, Any], files: list[SentFile], channel_id: int
    ) -> None:
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                message[key] = body[key]
            elif key in body and body[key] is None:
                message[key] = "" if key == "content" else []
        if "attachments" in body or files:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in message["attachments"] if a["id"] in keep_ids]
            message["attachments"] = kept + self._attachment_payloads(
                channel_id, files, bool(message["flags"] & FLAG_EPHEMERAL)
            )
        if "flags" in body and body["flags"] is not None:
            message["flags"] = (message["flags"] & (FLAG_EPHEMERAL | FLAG_LOADING)) | int(body["flags"])
        message["edited_timestamp"] = self._now_iso()

    async def _edit_channel_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if int(message["author"]["id"]) != self.bot_user.id:
            raise _error(403, 50005, "Cannot edit a message authored by another user")
        body, files = request[_BODY] or {}, request[_FILES]
        self._validate_message(body, files)
        channel_id = int(message["channel_id"])
        self._apply_edit(message, body, files, channel_id)
        self._record("edit", "PATCH /channels/{channel_id}/messages/{message_id}", channel_id, message, body, files)
        if self.echo_bot_messages:
            self._spawn(self._deliver_message(message, "MESSAGE_UPDATE"))
        return json_response(message)

    async def _delete_channel_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        del self.messages[int(message["id"])]
        self._record(
            "delete", "DELETE /channels/{channel_id}/messages/{message_id}", int(message["channel_id"]), message, {}, []
        )
        return web.Response(status=204)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        # Resources > Message > Create Reaction: Read Message History, and Add Reactions.
        message = self._channel_message(request, READ_MESSAGE_HISTORY, ADD_REACTIONS)
        emoji = unquote(request.match_info["emoji"])
        self.log.add(
            SentMessage(
                platform="discord",
                action="react",
                chat_id=int(message["channel_id"]),
                message_id=int(message["id"]),
                text=emoji,
                method="PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            )
        )
        return web.Response(status=204)
