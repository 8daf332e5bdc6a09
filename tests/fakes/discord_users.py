"""The fake Discord's users, as a test drives them: a message posted in a channel or DM, a slash command
(with its options typed from the registered command, refused where a Discord client would not offer it:
:meth:`available_command`), a button pressed or a select menu chosen, a modal submitted, an autocomplete; and
what the bot did, as a test reads and waits for it (``sent``, ``wait_for_message`` and the other ``wait_for_*``).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from typing import Any

from ._common import DEFAULT_TIMEOUT, SentMessage
from .discord_components import MESSAGE_COMPONENT, MODAL_SUBMIT, press_data, submit_data
from .discord_rest_commands import DiscordRestCommands
from .discord_rest_interactions import DiscordRestInteractions, _Interaction
from .discord_rules import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    GUILD_INSTALL,
    CommandUnavailable,
    command_contexts,
    command_integration_types,
    option_value_refused,
)
from .discord_world import ATTACHMENT_SIZE_LIMIT, DEFAULT_PERMISSIONS, PERM_ADMINISTRATOR, DiscordUser, UserLike


class DiscordUsers(DiscordRestInteractions, DiscordRestCommands):
    """What users do (the events a test sends) and the records of what the bot did."""

    # ------------------------------------------------------------------ user-side injection

    async def send_message(
        self,
        channel_id: int,
        author: UserLike,
        content: str,
        *,
        reply_to: int | None = None,
    ) -> dict[str, Any]:
        """``author`` posts ``content`` in a guild or DM channel; delivers MESSAGE_CREATE.

        For a DM, use ``channel_id=dc.dm_channel_id(user)``. Returns the message payload.
        """
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        user = self._user(author)
        message = self._message_payload(int(channel_id), user, content)
        if reply_to is not None:
            referenced = self.messages.get(int(reply_to))
            if referenced is None:
                raise ValueError(f"unknown message {reply_to}")
            message["type"] = 19
            message["message_reference"] = {"message_id": str(reply_to), "channel_id": str(channel_id), "type": 0}
            if channel.get("guild_id"):
                message["message_reference"]["guild_id"] = channel["guild_id"]
            message["referenced_message"] = dict(referenced)
        self.messages[int(message["id"])] = message
        channel["last_message_id"] = message["id"]
        await self._deliver_message(message)
        return message

    async def send_interaction(
        self,
        name: str,
        options: dict[str, Any] | list[Any] | None = None,
        user: UserLike | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        *,
        command_guild_id: int | None = None,
        resolved: dict[str, Any] | None = None,
        focused: str | None = None,
    ) -> int:
        """A user runs slash command ``name`` ("cmd" or "cmd sub" or "cmd group sub").

        ``options`` is ``{name: value}`` (types from the synced command, else str=3,
        bool=5, int=4, float=10, DiscordUser=6) or a raw option list. ``guild_id`` defaults
        to the channel's guild. ``focused`` makes it an autocomplete interaction (type 4)
        for that option. Returns the interaction id.

        Raises :class:`CommandUnavailable` when a Discord client would not offer the command
        there (see :meth:`available_command`).
        """
        if user is None or channel_id is None:
            raise TypeError("send_interaction needs user and channel_id")
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        if guild_id is None and channel.get("guild_id"):
            guild_id = int(channel["guild_id"])
        invoker = self._user(user)
        parts = name.split()
        top = parts[0]
        schema = self.available_command(top, int(channel_id), invoker, command_guild_id=command_guild_id)
        if command_guild_id is None and schema.get("guild_id"):
            command_guild_id = int(schema["guild_id"])
        resolved = dict(resolved or {})
        leaf_schema: dict[str, Any] | None = schema
        for sub in parts[1:]:
            options_of: list[dict[str, Any]] = (leaf_schema or {}).get("options", [])
            leaf_schema = next((o for o in options_of if o["name"] == sub), None)
            if schema and leaf_schema is None:  # the client offers the registered subcommands only
                raise CommandUnavailable(name, f"channel {channel_id}", f"no subcommand {sub}")
        if any(o.get("type") in (1, 2) for o in (leaf_schema or {}).get("options", [])):
            # Discord's client runs a command with subcommands through one of them, never bare
            raise CommandUnavailable(name, f"channel {channel_id}", "a subcommand must be chosen")
        built = self._build_options(options, leaf_schema, resolved, guild_id, focused)
        if focused is None:  # Discord's client sends no command without its required options
            given = {str(o.get("name")) for o in built}
            missing = [
                str(o["name"])
                for o in (leaf_schema or {}).get("options", [])
                if o.get("required") and o.get("type") not in (1, 2) and str(o["name"]) not in given
            ]
            if missing:
                raise CommandUnavailable(name, f"channel {channel_id}", f"required option {missing[0]} not given")
            declared = {str(o["name"]): o for o in (leaf_schema or {}).get("options", [])}
            for given_option in built:
                schema_option = declared.get(str(given_option.get("name")))
                if schema_option is None and leaf_schema is not None and "options" in leaf_schema:
                    raise CommandUnavailable(name, f"channel {channel_id}", f"no option {given_option.get('name')}")
                refused = option_value_refused(schema_option, given_option.get("value")) if schema_option else None
                if refused is not None:  # the client keeps the command until the value is right
                    raise CommandUnavailable(name, f"channel {channel_id}", f"option {given_option['name']}: {refused}")
        for depth, sub in reversed(list(enumerate(parts[1:], start=1))):
            kind = 1 if depth == len(parts) - 1 else 2
            built = [{"name": sub, "type": kind, "options": built}]
        data: dict[str, Any] = {
            "id": (schema or {}).get("id") or str(self._command_id(top, command_guild_id)),
            "name": top,
            "type": 1,
            "options": built,
        }
        if command_guild_id:
            data["guild_id"] = str(command_guild_id)
        if resolved:
            data["resolved"] = resolved
        if not guild_id:
            self.dm_channel_id(invoker)
        interaction_id, token, payload = self._interaction_payload(
            4 if focused else 2, data, int(channel_id), guild_id, invoker, None
        )
        state = _Interaction(
            id=interaction_id,
            token=token,
            name=name,
            type=payload["type"],
            channel_id=int(channel_id),
            guild_id=guild_id,
            user=invoker,
            created=self.now(),
            payload=payload,
        )
        if focused:
            state.choices = asyncio.get_running_loop().create_future()
        return await self._create_interaction(state)

    async def press(self, message_id: int, custom_id: str, user: UserLike, *, values: list[str] | None = None) -> int:
        """A user presses a button (or chooses ``values`` in a select menu) of a message the bot sent: an
        INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT) carrying the component's ``custom_id`` and the
        message. Only what a client shows can be used (see ``discord_components.press_data``). Returns the
        interaction id."""
        message = self.messages.get(int(message_id))
        if message is None:
            raise ValueError(f"unknown message {message_id}")
        data = press_data(message, custom_id, values)
        return await self._component_interaction(
            MESSAGE_COMPONENT, data, self._user(user), int(message["channel_id"]), message
        )

    async def submit_modal(self, interaction_id: int, answers: dict[str, str]) -> int:
        """The user the modal of interaction ``interaction_id`` was shown to submits it with ``answers`` (by
        text input ``custom_id``): an INTERACTION_CREATE of type 5 (MODAL_SUBMIT). Returns its id."""
        opened = self._interactions[interaction_id]
        if opened.modal is None:
            raise ValueError(f"interaction {interaction_id} opened no modal")
        message = self.messages.get(opened.message_id) if opened.message_id is not None else None
        data = submit_data(opened.modal, answers)
        return await self._component_interaction(MODAL_SUBMIT, data, opened.user, opened.channel_id, message)

    def modal_of(self, interaction_id: int) -> dict[str, Any] | None:
        """The modal interaction ``interaction_id``'s callback opened, if any."""
        return self._interactions[interaction_id].modal

    async def _component_interaction(
        self, kind: int, data: dict[str, Any], invoker: DiscordUser, channel_id: int, message: dict[str, Any] | None
    ) -> int:
        channel = self.channels[channel_id]
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        interaction_id, token, payload = self._interaction_payload(kind, data, channel_id, guild_id, invoker, message)
        state = _Interaction(
            id=interaction_id,
            token=token,
            name=str(data.get("custom_id", "")),
            type=kind,
            channel_id=channel_id,
            guild_id=guild_id,
            user=invoker,
            created=self.now(),
            payload=payload,
            message_id=int(message["id"]) if message is not None else None,
        )
        return await self._create_interaction(state)

    def _interaction_payload(
        self,
        kind: int,
        data: dict[str, Any],
        channel_id: int,
        guild_id: int | None,
        invoker: DiscordUser,
        message: dict[str, Any] | None,
    ) -> tuple[int, str, dict[str, Any]]:
        """A new interaction's id, token and gateway payload: in a guild with the invoker as its member and the
        bot's permissions in the channel, else in the bot's DM with the invoker."""
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel_id),
            "channel": dict(self.channels[channel_id]),
            "token": token,
            "version": 1,
            "locale": invoker.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = dict(message)
        if guild_id:
            guild = self.guilds[guild_id]
            payload["guild_id"] = str(guild_id)
            payload["guild"] = {"id": str(guild_id), "locale": guild.preferred_locale, "features": []}
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = self._member_payload(guild, invoker, permissions=True, channel_id=channel_id)
            payload["app_permissions"] = str(self.channel_permissions(channel_id, self.bot_user))
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
            payload["context"] = CONTEXT_GUILD
        else:
            payload["user"] = invoker.to_dict()
            payload["app_permissions"] = str(DEFAULT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = CONTEXT_BOT_DM
        return interaction_id, token, payload

    async def _create_interaction(self, state: _Interaction) -> int:
        """Keep an interaction (by id and token) and send its INTERACTION_CREATE; its id."""
        self._interactions[state.id] = state
        self._tokens[state.token] = state.id
        await self._dispatch_all("INTERACTION_CREATE", state.payload, guild_id=state.guild_id)
        return state.id

    async def autocomplete(
        self,
        name: str,
        options: dict[str, Any] | list[Any] | None = None,
        *,
        focused: str,
        user: UserLike,
        channel_id: int,
        guild_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[dict[str, Any]]:
        """Send an autocomplete interaction for option ``focused``; return the bot's choices."""
        interaction_id = await self.send_interaction(
            name, options, user=user, channel_id=channel_id, guild_id=guild_id, focused=focused
        )
        future = self._interactions[interaction_id].choices
        assert future is not None
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            self.log.check_errors()
            raise AssertionError(f"no autocomplete answer for /{name} within {timeout}s") from None

    def interaction_payload(self, interaction_id: int) -> dict[str, Any]:
        """The INTERACTION_CREATE payload sent for ``interaction_id``."""
        return self._interactions[interaction_id].payload

    def available_command(
        self, name: str, channel_id: int, user: UserLike, *, command_guild_id: int | None = None
    ) -> dict[str, Any]:
        """The registered command ``/name`` a user would run in that channel, or
        :class:`CommandUnavailable` when a Discord client would not offer it there.

        Interactions > Application Commands > Registering a Command: "Guild commands are not
        available in DMs"; global commands are available in DMs "if that app has a bot that
        shares a mutual guild with the user". Contexts: a global command's ``contexts`` and
        ``integration_types`` must include where it is used (the fake's app is installed to
        servers). Permissions: ``default_member_permissions`` hides a command from members who
        lack them (administrators excepted).
        """
        user = self._user(user)
        channel = self.channels[int(channel_id)]
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        if guild_id is not None:
            where = f"server {guild_id}"
            scope = int(command_guild_id or guild_id)
            command = self.guild_commands.get(scope, {}).get(name)
            if command is None:
                command = self.commands.get(name)
                if command is None:
                    raise CommandUnavailable(name, where, "it is not registered, globally or in this server")
                if CONTEXT_GUILD not in command_contexts(command):
                    raise CommandUnavailable(
                        name, where, f"its contexts {sorted(command_contexts(command))} exclude servers"
                    )
                if GUILD_INSTALL not in command_integration_types(command):
                    raise CommandUnavailable(name, where, "its integration_types exclude server installs")
            required = command.get("default_member_permissions")
            if required is not None:
                granted = self.channel_permissions(int(channel_id), user)
                if granted & int(required) != int(required) and not granted & PERM_ADMINISTRATOR:
                    raise CommandUnavailable(name, where, "default_member_permissions hide it from this member")
            return command
        where = "a DM with the bot"
        command = self.commands.get(name)
        if command is None:
            servers = sorted(gid for gid, commands in self.guild_commands.items() if name in commands)
            if servers:
                listed = ", ".join(str(gid) for gid in servers)
                raise CommandUnavailable(
                    name,
                    where,
                    f"it is registered in server {listed} only (a guild sync): commands registered for a server "
                    "only exist in that server; DMs with the bot need the global sync",
                )
            raise CommandUnavailable(name, where, "it is not registered")
        if CONTEXT_BOT_DM not in command_contexts(command):
            raise CommandUnavailable(name, where, f"its contexts {sorted(command_contexts(command))} exclude bot DMs")
        if GUILD_INSTALL not in command_integration_types(command):
            raise CommandUnavailable(name, where, "its integration_types exclude server installs")
        if not any(user.id in guild.members for guild in self.guilds.values()):
            raise CommandUnavailable(name, where, "the user shares no server with the bot")
        return command

    def _build_options(
        self,
        options: dict[str, Any] | list[Any] | None,
        schema: dict[str, Any] | None,
        resolved: dict[str, Any],
        guild_id: int | None,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        if options is None:
            options = {}
        if isinstance(options, list):
            return options
        schema_types = {o["name"]: o.get("type") for o in (schema or {}).get("options", [])}
        out = []
        for key, value in options.items():
            kind = schema_types.get(key)
            if kind is None:
                if isinstance(value, bool):
                    kind = 5
                elif isinstance(value, int):
                    kind = 4
                elif isinstance(value, float):
                    kind = 10
                elif isinstance(value, DiscordUser):
                    kind = 6
                else:
                    kind = 3
            if kind == 6:
                target = self._user(value)
                value = str(target.id)
                resolved.setdefault("users", {})[value] = target.to_dict()
                if guild_id and target.id in self.guilds[guild_id].members:
                    member = self._member_payload(self.guilds[guild_id], target, with_user=False, permissions=True)
                    resolved.setdefault("members", {})[value] = member
            elif kind == 4 and isinstance(value, str) and re.fullmatch(r"-?\d+", value) and key != focused:
                value = int(value)
            elif kind == 10 and isinstance(value, (int, str)) and key != focused:
                value = float(value)
            elif kind == 3 and not isinstance(value, str):
                value = str(value)
            option: dict[str, Any] = {"name": key, "type": kind, "value": value}
            if key == focused:
                option["focused"] = True
            out.append(option)
        if focused and focused not in options:
            out.append({"name": focused, "type": schema_types.get(focused) or 3, "value": "", "focused": True})
        return out

    # ------------------------------------------------------------------ records

    @property
    def sent(self) -> list[SentMessage]:
        return self.log.records

    def messages_in(self, channel_id: int, actions: Any = ("send",)) -> list[SentMessage]:
        return self.log.select(channel_id, actions)

    async def wait_for_message(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        channel_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        """The next (not yet returned) message the bot posted: channel messages, DMs,
        interaction responses and followups (a deferred response counts when its content arrives)."""
        return await self.log.wait_for(predicate, chat_id=channel_id, timeout=timeout)

    async def wait_for_dm(
        self,
        user: UserLike,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        return await self.log.wait_for(predicate, chat_id=self.dm_channel_id(user), timeout=timeout)

    async def wait_for_response(
        self,
        interaction_id: int,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        actions: tuple[str, ...] = ("send",),
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        """The next message answering interaction ``interaction_id`` (response or followup).
        Use ``actions=("defer",)`` to see a bare defer, ``("modal",)`` for a modal."""
        return await self.log.wait_for(
            lambda r: r.interaction_id == interaction_id and (predicate is None or predicate(r)),
            actions=actions,
            timeout=timeout,
        )

    async def wait_for_edit(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        channel_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        return await self.log.wait_for(predicate, chat_id=channel_id, actions=("edit",), timeout=timeout)

    async def wait_for_action(
        self,
        action: str,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        channel_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        return await self.log.wait_for(predicate, chat_id=channel_id, actions=(action,), timeout=timeout)

    async def assert_no_message(self, duration: float = 0.1, *, channel_id: int | None = None) -> None:
        await self.log.assert_quiet(duration, chat_id=channel_id)
