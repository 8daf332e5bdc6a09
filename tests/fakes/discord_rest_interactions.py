"""The fake Discord's interactions, from the bot's side (Interactions > Receiving and Responding): an
interaction's state (:class:`_Interaction`), its callback (a message, a deferral, an update of the component's
message, autocomplete choices, a modal), within 3 seconds, and its token's webhook routes (followups, the
original response's edits and deletion), valid for 15 minutes of the fake's clock.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from ._common import SentFile, json_response
from .discord_components import MESSAGE_COMPONENT, MODAL_SUBMIT, validate_modal
from .discord_rest import _BODY, _FILES, _ApiError, _error, _invalid_form
from .discord_rest_messages import DiscordRestMessages
from .discord_rules import INVALID_WEBHOOK_TOKEN, check_autocomplete_choices
from .discord_world import FLAG_EPHEMERAL, FLAG_LOADING, DiscordUser

# Interactions > Receiving and Responding: an interaction must be answered within 3 seconds, and
# its token is valid for 15 minutes (then webhook calls get 401 / 50027 Invalid Webhook Token).
INTERACTION_RESPONSE_SECONDS = 3.0
INTERACTION_TOKEN_SECONDS = 15 * 60


@dataclass(eq=False)
class _Interaction:
    id: int
    token: str
    name: str
    type: int
    channel_id: int
    guild_id: int | None
    user: DiscordUser
    created: float
    payload: dict[str, Any]
    response_type: int | None = None
    original_id: int | None = None
    loading: bool = False
    ephemeral: bool = False
    choices: asyncio.Future[list[dict[str, Any]]] | None = None
    modal: dict[str, Any] | None = None  # the modal its callback opened (type 9), which the user may submit
    message_id: int | None = None  # a component's interaction: the message whose component was used


class DiscordRestInteractions(DiscordRestMessages):
    """Interaction callbacks and the interaction tokens' webhook routes."""

    interaction_timeout: float
    deprecations: list[str]
    _interactions: dict[int, _Interaction]
    _tokens: dict[str, int]

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_by_token(self, token: str) -> _Interaction:
        interaction_id = self._tokens.get(token)
        if interaction_id is None:
            raise _error(404, 10015, "Unknown Webhook")
        interaction = self._interactions[interaction_id]
        # Receiving and Responding > Followup Messages: "Interaction tokens are valid for 15
        # minutes"; past that every call with the token gets 401 / 50027 Invalid Webhook Token.
        if self.now() - interaction.created > INTERACTION_TOKEN_SECONDS:
            raise _error(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return interaction

    def interaction_token_expired(self, interaction_id: int) -> bool:
        return self.now() - self._interactions[interaction_id].created > INTERACTION_TOKEN_SECONDS

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        interaction = self._interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["interaction_token"]:
            raise _error(404, 10062, "Unknown interaction")
        # Receiving and Responding > Responding to an Interaction: within 3 seconds.
        if self.now() - interaction.created > self.interaction_timeout:
            raise _error(404, 10062, "Unknown interaction")
        if interaction.response_type is not None:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        body, files = request[_BODY] or {}, request[_FILES]
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        route = "POST /interactions/{interaction_id}/{interaction_token}/callback"
        channel_id = interaction.channel_id
        resource: dict[str, Any] | None = None
        if interaction.type == 4 and kind != 8:
            raise _ApiError(400, _invalid_form(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid response type"))
        if kind == 4:
            self._validate_message(data, files, ("data",))
            if self._is_empty(data, files):
                raise _error(400, 50006, "Cannot send an empty message")
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._interaction_message(interaction, data, files, ephemeral)
            interaction.original_id = int(message["id"])
            interaction.ephemeral = ephemeral
            self._record(
                "send", route, channel_id, message, body, files, ephemeral=ephemeral, interaction_id=interaction.id
            )
            resource = {"type": 4, "message": message}
            if self.echo_bot_messages and not ephemeral:
                self._spawn(self._deliver_message(message))
        elif kind == 5:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._interaction_message(interaction, {"content": ""}, [], ephemeral, loading=True)
            interaction.original_id = int(message["id"])
            interaction.ephemeral = ephemeral
            interaction.loading = True
            self._record(
                "defer", route, channel_id, message, body, [], ephemeral=ephemeral, interaction_id=interaction.id
            )
            resource = {"type": 5, "message": message}
        elif kind in (6, 7):
            # Interaction Response Type: DEFERRED_UPDATE_MESSAGE and UPDATE_MESSAGE are "only valid for
            # component-based interactions" (and a modal submitted from a component)
            if interaction.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT) or interaction.message_id is None:
                raise _ApiError(
                    400, _invalid_form(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid response type")
                )
            if kind == 7:
                self._validate_message(data, files, ("data",))
                self._apply_edit(self.messages[interaction.message_id], data, files, channel_id)
            self._record(
                "defer_update" if kind == 6 else "edit",
                route,
                channel_id,
                None,
                body,
                files,
                interaction_id=interaction.id,
            )
        elif kind == 8:
            choices = data.get("choices") or []
            check_autocomplete_choices(choices)  # at most 25, each a choice Discord takes
            self._record("autocomplete", route, channel_id, None, body, [], interaction_id=interaction.id, text="")
            if interaction.choices is not None and not interaction.choices.done():
                interaction.choices.set_result(choices)
        elif kind == 9:
            # MODAL: "Not available for MODAL_SUBMIT and PING interactions"
            if interaction.type == MODAL_SUBMIT:
                raise _ApiError(
                    400, _invalid_form(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid response type")
                )
            validate_modal(data)
            interaction.modal = data
            self._record(
                "modal", route, channel_id, None, body, [], interaction_id=interaction.id, text=data.get("title")
            )
        else:
            raise _ApiError(400, _invalid_form(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid response type"))
        interaction.response_type = kind
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        result: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": interaction.ephemeral,
            }
        }
        if interaction.original_id is not None and kind in (4, 5):
            result["interaction"]["response_message_id"] = str(interaction.original_id)
        if resource is not None:
            result["resource"] = resource
        return json_response(result)

    def _interaction_message(
        self,
        interaction: _Interaction,
        body: dict[str, Any],
        files: list[SentFile],
        ephemeral: bool,
        *,
        loading: bool = False,
    ) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": interaction.user.to_dict(),
            "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            "name": interaction.name,
            "command_type": 1,
        }
        message = self._bot_message(
            interaction.channel_id,
            body,
            files,
            ephemeral=ephemeral,
            type=20,
            application_id=str(self.application_id),
            webhook_id=str(self.application_id),
            interaction_metadata=metadata,
        )
        if loading:
            message["flags"] |= FLAG_LOADING
        self.messages[int(message["id"])] = message
        return message

    async def _post_followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction_by_token(request.match_info["interaction_token"])
        if interaction.response_type is None:
            raise _error(404, 10015, "Unknown Webhook")
        body, files = request[_BODY] or {}, request[_FILES]
        self._validate_message(body, files)
        if self._is_empty(body, files):
            raise _error(400, 50006, "Cannot send an empty message")
        route = "POST /webhooks/{application_id}/{interaction_token}"
        if interaction.loading and interaction.original_id is not None:
            # Receiving and Responding > Create Followup Message: right after a deferred response,
            # a followup edits the loading message "for backwards compatibility. [...] This behavior
            # is deprecated": served, and recorded in ``deprecations``.
            self.deprecations.append(
                f"POST /webhooks/{{application_id}}/{{interaction_token}} filled the deferred response of "
                f"/{interaction.name}: edit the original response (PATCH .../messages/@original) instead"
            )
            message = self.messages[interaction.original_id]
            self._apply_edit(message, body, files, interaction.channel_id)
            message["flags"] &= ~FLAG_LOADING
            message["edited_timestamp"] = None
            interaction.loading = False
            ephemeral = interaction.ephemeral
        else:
            ephemeral = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._interaction_message(interaction, body, files, ephemeral)
        self._record(
            "send",
            route,
            interaction.channel_id,
            message,
            body,
            files,
            ephemeral=ephemeral,
            interaction_id=interaction.id,
        )
        if self.echo_bot_messages and not ephemeral:
            self._spawn(self._deliver_message(message))
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(message)
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request) -> tuple[_Interaction, dict[str, Any]]:
        interaction = self._interaction_by_token(request.match_info["interaction_token"])
        raw_id = request.match_info["message_id"]
        message_id = interaction.original_id if raw_id == "@original" else int(raw_id)
        message = self.messages.get(message_id) if message_id is not None else None
        if message is None or message.get("interaction_metadata", {}).get("id") != str(interaction.id):
            raise _error(404, 10008, "Unknown Message")
        return interaction, message

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_message(request)
        return json_response(message)

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        interaction, message = self._webhook_message(request)
        body, files = request[_BODY] or {}, request[_FILES]
        self._validate_message(body, files)
        route = "PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}"
        first_content = interaction.loading and int(message["id"]) == interaction.original_id
        self._apply_edit(message, body, files, interaction.channel_id)
        ephemeral = bool(message["flags"] & FLAG_EPHEMERAL)
        if first_content:
            message["flags"] &= ~FLAG_LOADING
            message["edited_timestamp"] = None
            interaction.loading = False
        self._record(
            "send" if first_content else "edit",
            route,
            interaction.channel_id,
            message,
            body,
            files,
            ephemeral=ephemeral,
            interaction_id=interaction.id,
        )
        if self.echo_bot_messages and not ephemeral:
            self._spawn(self._deliver_message(message, "MESSAGE_CREATE" if first_content else "MESSAGE_UPDATE"))
        return json_response(message)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction, message = self._webhook_message(request)
        del self.messages[int(message["id"])]
        self._record(
            "delete",
            "DELETE /webhooks/{application_id}/{interaction_token}/messages/{message_id}",
            interaction.channel_id,
            message,
            {},
            [],
            interaction_id=interaction.id,
        )
        return web.Response(status=204)
