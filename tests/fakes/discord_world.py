"""The fake Discord's world model: Discord's numbers (API prefix, snowflake epoch, limits, intents, message
flags, permissions), its users (:class:`DiscordUser`) and guilds (:class:`FakeGuild`), and
:class:`DiscordWorld`, the base of :class:`tests.fakes.discord_server.FakeDiscord`: the fake's clock, snowflakes,
users, guilds, channels, members, DM channels, permissions and permission overwrites (Topics > Permissions), and
the user, member and guild payloads the gateway and the REST API send.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._common import FakeClock
from .discord_rules import ALL_PERMISSIONS, SEND_MESSAGES, channel_permissions
from .discord_sessions import _Gateway

API_PREFIX = "/api/v10"
DISCORD_EPOCH = 1420070400000
CONTENT_LIMIT = 2000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Gateway intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Permissions
PERM_ADMINISTRATOR = 1 << 3
DEFAULT_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 38)  # send messages in threads
)


def _iso(moment: dt.datetime | None = None) -> str:
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


@dataclass(eq=False)
class DiscordUser:
    """A Discord user. ``dms_open=False``: sending them a DM fails with 403 code 50007."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # the client's language, sent with each of the user's interactions

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


UserLike = DiscordUser | int


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: dict[int, dict[str, Any]] = field(default_factory=dict)
    members: dict[int, dict[str, Any]] = field(default_factory=dict)  # user id -> member payload (no 'user')
    roles: list[dict[str, Any]] = field(default_factory=list)
    joined_at: str = field(default_factory=_iso)
    # the community's language (GUILD_CREATE's preferred_locale, an interaction's guild_locale): a French
    # club's server by default, as the project's tests play
    preferred_locale: str = "fr"

    @property
    def channel_id(self) -> int:
        """The first text channel."""
        first: int = next(iter(self.channels))
        return first

    def channel_named(self, name: str) -> int:
        for channel_id, channel in self.channels.items():
            if channel["name"] == name:
                return channel_id
        raise KeyError(name)


class DiscordWorld:
    """The world the fake serves: its clock, users, guilds, channels, members and their permissions. Every
    attribute is set by ``FakeDiscord.__init__``; each layer of the fake declares those it uses."""

    clock: FakeClock
    bot_user: DiscordUser
    users: dict[int, DiscordUser]
    guilds: dict[int, FakeGuild]
    channels: dict[int, dict[str, Any]]
    gateways: list[_Gateway]
    _dm_channels: dict[int, int]
    _tasks: set[asyncio.Task[Any]]
    _last_snowflake: int
    _increment: itertools.count[int]
    _names: itertools.count[int]

    if TYPE_CHECKING:  # the gateway's (discord_gateway): guilds and channel changes are announced to its sessions

        async def _announce_guild(self, guild: FakeGuild) -> None: ...

        async def _announce_channel(self, channel: dict[str, Any]) -> None: ...

    # ------------------------------------------------------------------ the fake's clock

    def now(self) -> float:
        """The fake's Unix time (real time plus what tests advanced)."""
        return self.clock.now()

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward: interaction tokens age, outages end."""
        self.clock.advance(seconds)

    # ------------------------------------------------------------------ ids and world model

    def snowflake(self) -> int:
        ms = int(self.now() * 1000) - DISCORD_EPOCH
        value = (ms << 22) | (1 << 17) | (next(self._increment) & 0xFFF)
        if value <= self._last_snowflake:
            value = self._last_snowflake + 1
        self._last_snowflake = value
        return value

    def snowflake_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake whose guild would belong to shard ``shard_id`` of ``shard_count``."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"no shard {shard_id} among {shard_count}")
        value = self.snowflake()
        moment = value >> 22
        moment += (shard_id - moment) % shard_count  # a few milliseconds later at most
        value = (moment << 22) | (value & ((1 << 22) - 1))
        self._last_snowflake = max(self._last_snowflake, value)
        return value

    def add_user(
        self,
        user_id: int | None = None,
        username: str | None = None,
        *,
        global_name: str | None = None,
        dms_open: bool = True,
        bot: bool = False,
    ) -> DiscordUser:
        user_id = user_id or self.snowflake()
        user = DiscordUser(
            id=user_id,
            username=username or f"user{next(self._names)}",
            global_name=global_name,
            bot=bot,
            dms_open=dms_open,
        )
        self.users[user_id] = user
        return user

    def _user(self, user: UserLike) -> DiscordUser:
        if isinstance(user, DiscordUser):
            self.users.setdefault(user.id, user)
            return user
        if int(user) in self.users:
            return self.users[int(user)]
        return self.add_user(int(user))

    def _target_id(self, target: UserLike, role: bool) -> int:
        """A permission overwrite's target: a role's id as given, or a member's user id."""
        if role and isinstance(target, int):
            return target
        return self._user(target).id

    def close_dms(self, user: UserLike) -> None:
        """The user does not accept DMs from the bot (403 code 50007)."""
        self._user(user).dms_open = False

    def add_guild(
        self,
        guild_id: int | None = None,
        name: str = "Test Guild",
        *,
        channels: tuple[str, ...] = ("general",),
        owner: UserLike | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild the bot is in, with text channels. Add it before the bot connects
        (guilds added later are announced with GUILD_CREATE to the sessions that own them).
        ``shard=(shard_id, num_shards)``: an id that puts the guild on that shard."""
        if guild_id is None and shard is not None:
            guild_id = self.snowflake_on_shard(*shard)
        guild_id = guild_id or self.snowflake()
        owner_user = self._user(owner) if owner is not None else self.add_user(username=f"owner{guild_id % 1000}")
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner_user.id)
        guild.roles.append(
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(DEFAULT_PERMISSIONS),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        )
        guild.roles.append(
            {
                "id": str(guild_id + 1),
                "name": "Admin",
                "permissions": str(PERM_ADMINISTRATOR),
                "position": 1,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        )
        self.guilds[guild_id] = guild
        self.add_member(guild, owner_user)
        self.add_member(guild, self.bot_user)
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        if self.gateways:
            self._spawn(self._announce_guild(guild))
        return guild

    def _guild(self, guild: FakeGuild | int) -> FakeGuild:
        return guild if isinstance(guild, FakeGuild) else self.guilds[int(guild)]

    def add_channel(self, guild: FakeGuild | int, name: str) -> int:
        guild = self._guild(guild)
        channel_id = self.snowflake()
        channel = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild.id),
            "name": name,
            "position": len(guild.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        guild.channels[channel_id] = channel
        self.channels[channel_id] = channel
        return channel_id

    def add_member(
        self, guild: FakeGuild | int, user: UserLike, *, admin: bool = False, nick: str | None = None
    ) -> dict[str, Any]:
        guild = self._guild(guild)
        user = self._user(user)
        member = guild.members.get(user.id)
        if member is None:
            member = {
                "roles": [],
                "joined_at": _iso(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": nick,
                "pending": False,
                "avatar": None,
                "communication_disabled_until": None,
            }
            guild.members[user.id] = member
        if admin and str(guild.id + 1) not in member["roles"]:
            member["roles"].append(str(guild.id + 1))
        return member

    def _permissions(self, guild: FakeGuild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id) or {"roles": []}
        value = 0
        for role in guild.roles:
            if role["id"] == str(guild.id) or role["id"] in member["roles"]:
                value |= int(role["permissions"])
        return ALL_PERMISSIONS if value & PERM_ADMINISTRATOR else value

    def channel_permissions(self, channel_id: int, user: UserLike) -> int:
        """``user``'s permissions in a channel, overwrites included (Topics > Permissions)."""
        user = self._user(user)
        channel = self.channels[int(channel_id)]
        if not channel.get("guild_id"):
            return DEFAULT_PERMISSIONS  # a DM: everything a DM allows
        guild = self.guilds[int(channel["guild_id"])]
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user.id) or {"roles": []}
        return channel_permissions(
            self._permissions(guild, user.id),
            channel.get("permission_overwrites") or [],
            everyone_id=guild.id,
            role_ids=list(member["roles"]),
            user_id=user.id,
        )

    def set_permission_overwrite(
        self, channel_id: int, target: UserLike, *, allow: int = 0, deny: int = 0, role: bool = False
    ) -> None:
        """Set a channel's permission overwrite for a member (or a role id with ``role=True``) and
        announce it with CHANNEL_UPDATE, as Discord does."""
        channel = self.channels[int(channel_id)]
        target_id = self._target_id(target, role)
        overwrites = [o for o in channel["permission_overwrites"] if int(o["id"]) != target_id]
        overwrites.append({"id": str(target_id), "type": 0 if role else 1, "allow": str(allow), "deny": str(deny)})
        channel["permission_overwrites"] = overwrites
        self._spawn(self._announce_channel(channel))

    def remove_permission_overwrite(self, channel_id: int, target: UserLike, *, role: bool = False) -> None:
        channel = self.channels[int(channel_id)]
        target_id = self._target_id(target, role)
        channel["permission_overwrites"] = [o for o in channel["permission_overwrites"] if int(o["id"]) != target_id]
        self._spawn(self._announce_channel(channel))

    def deny_bot(self, channel_id: int, permissions: int = SEND_MESSAGES) -> None:
        """The bot loses ``permissions`` in the channel (default Send Messages: posts get 403 /
        50013; without View Channel everything there gets 403 / 50001)."""
        self.set_permission_overwrite(channel_id, self.bot_user, deny=permissions)

    def allow_bot(self, channel_id: int) -> None:
        """Remove the bot's own overwrite in the channel: its role permissions apply again."""
        self.remove_permission_overwrite(channel_id, self.bot_user)

    def _member_payload(
        self,
        guild: FakeGuild,
        user: DiscordUser,
        *,
        with_user: bool = True,
        permissions: bool = False,
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        member = dict(self.add_member(guild, user))
        member["roles"] = list(member["roles"])
        if with_user:
            member["user"] = user.to_dict()
        if permissions:
            # Receiving and Responding > Interaction Object: "total permissions of the member in
            # the channel, including overwrites".
            value = self.channel_permissions(channel_id, user) if channel_id else self._permissions(guild, user.id)
            member["permissions"] = str(value)
        return member

    def dm_channel_id(self, user: UserLike) -> int:
        """The id of the bot's DM channel with ``user`` (created if needed)."""
        user = self._user(user)
        channel_id = self._dm_channels.get(user.id)
        if channel_id is None:
            channel_id = self.snowflake()
            self._dm_channels[user.id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.to_dict()],
                "last_message_id": None,
                "flags": 0,
            }
        return channel_id

    def _dm_recipient(self, channel_id: int) -> DiscordUser | None:
        for user_id, dm_id in self._dm_channels.items():
            if dm_id == channel_id:
                return self.users[user_id]
        return None

    def _guild_payload(self, guild: FakeGuild, intents: int) -> dict[str, Any]:
        if intents & INTENT_GUILD_MEMBERS:
            member_ids = list(guild.members)
        else:
            member_ids = [self.bot_user.id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [dict(r) for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(guild.channel_id) if guild.channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [self._member_payload(guild, self.users[uid]) for uid in member_ids],
            "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in guild.channels.values()],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
