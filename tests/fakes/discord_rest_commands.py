"""The fake Discord's application commands (Interactions > Application Commands): their REST routes (list,
bulk overwrite, create, delete; global or for one guild), each command validated as Discord does
(:func:`tests.fakes.discord_rules.validate_command`), names unique per type, and ids stable per name and guild.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ._common import json_response
from .discord_rest import _BODY, _ApiError, _error, _invalid_form
from .discord_rules import validate_command
from .discord_world import DiscordWorld


class DiscordRestCommands(DiscordWorld):
    """The application commands the bot registers: ``commands`` (global) and ``guild_commands``."""

    application_id: int
    commands: dict[str, dict[str, Any]]
    guild_commands: dict[int, dict[str, dict[str, Any]]]
    _command_ids: dict[str, int]

    # ------------------------------------------------------------------ REST: application commands

    def _command_id(self, name: str, guild_id: int | None) -> int:
        # stable per (name, guild) within one fake
        key = f"{guild_id}:{name}"
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        return self._command_ids[key]

    def _command_store(self, request: web.Request) -> tuple[dict[str, dict[str, Any]], int | None]:
        if int(request.match_info["application_id"]) != self.application_id:
            raise _error(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return self.commands, None
        if int(guild_id) not in self.guilds:
            raise _error(403, 50001, "Missing Access")
        return self.guild_commands.setdefault(int(guild_id), {}), int(guild_id)

    def _register(self, command: dict[str, Any], guild_id: int | None, index: int) -> dict[str, Any]:
        validate_command(command, index)  # every rule of Application Command Object, see discord_rules
        name = command["name"]
        kind = int(command.get("type", 1))
        stored = {
            "type": kind,
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "integration_types": [0],
            "contexts": None,
            **command,
            "id": str(self._command_id(name, guild_id)),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    async def _get_commands(self, request: web.Request) -> web.Response:
        store, _ = self._command_store(request)
        return json_response(list(store.values()))

    async def _put_commands(self, request: web.Request) -> web.Response:
        store, guild_id = self._command_store(request)
        body = request[_BODY] or []
        if not isinstance(body, list) or len(body) > 100:
            raise _ApiError(400, _invalid_form([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
        registered = [self._register(command, guild_id, index) for index, command in enumerate(body)]
        # Registering a Command: names are unique per type within a scope.
        seen: set[tuple[int, str]] = set()
        for index, command in enumerate(registered):
            key = (int(command["type"]), command["name"])
            if key in seen:
                raise _ApiError(
                    400,
                    _invalid_form(
                        [str(index), "name"],
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        "Application command names must be unique",
                    ),
                )
            seen.add(key)
        store.clear()
        for command in registered:
            store[command["name"]] = command
        return json_response(registered)

    async def _post_command(self, request: web.Request) -> web.Response:
        store, guild_id = self._command_store(request)
        command = self._register(request[_BODY] or {}, guild_id, 0)
        store[command["name"]] = command
        return json_response(command, 201)

    async def _delete_command(self, request: web.Request) -> web.Response:
        store, _ = self._command_store(request)
        for name, command in list(store.items()):
            if command["id"] == request.match_info["command_id"]:
                del store[name]
                return web.Response(status=204)
        raise _error(404, 10063, "Unknown application command")
