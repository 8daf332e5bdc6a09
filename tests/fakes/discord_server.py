"""A fake Discord (REST + gateway websocket) for driving a real discord.py bot offline.

discord.py has no base-URL option: :meth:`FakeDiscord.patch_discord` (used by
:func:`running_bot`) points ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at this server and restores them.

Usage (inside a test's event loop)::

    async with FakeDiscord() as dc:
        guild = dc.add_guild(name="Scrabble club")
        alice = dc.add_user(username="alice")
        dc.add_member(guild, alice)
        bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        ...
        async with running_bot(dc, bot):
            await dc.send_message(guild.channel_id, alice, "!ping")
            reply = await dc.wait_for_message(channel_id=guild.channel_id)
            iid = await dc.send_interaction("score", {"word": "VAGUE"}, user=alice, channel_id=guild.channel_id)
            resp = await dc.wait_for_response(iid)

Route templates (for :meth:`FakeDiscord.rate_limit_next` / :meth:`FakeDiscord.fail_next` and the
other faults) are the Discord ones, e.g. ``"POST /channels/{channel_id}/messages"``,
``"POST /interactions/{interaction_id}/{interaction_token}/callback"``,
``"POST /webhooks/{application_id}/{interaction_token}"``; concrete paths with ``*`` globs
(``"POST /channels/123/messages"``) work too, and ``"* *"`` matches every request.

As strict as Discord where a bot could go wrong (each rule names the documentation section it
follows, here or in :mod:`tests.fakes.discord_rules`): command registrations are validated, a
command is only usable where it is registered, interaction tokens expire after 15 minutes of
the fake's clock (:meth:`FakeDiscord.advance`), an interaction's first answer after its 3 seconds is
404 / 10062 Unknown interaction, channel permissions are enforced, Discord's rate limits are on (5 posts
or edits per 5 s in a channel, 5 per 5 s through an interaction token, 50 requests in any second in all
but the interaction endpoints; see :mod:`tests.fakes.discord_limits`, the 429s served are in
``throttled``), 10,000 invalid requests (401, 403, 429) in 10 minutes ban the address for an hour, opening
more than 10 new DMs a minute is refused with 40003 (:mod:`tests.fakes.discord_global`), and the gateway resumes
sessions (with zlib-stream compression when asked). Sharded sessions (Topics > Gateway > Sharding) get
only their own guilds and their events
(DMs go to shard 0); ``add_guild(shard=(id, count))`` places a guild on a shard, and
:meth:`FakeDiscord.shards_given` tells which sessions an event was dispatched to. Faults:
:meth:`server_error_next`, :meth:`rate_limit_next`, :meth:`reset_next`, :meth:`outage`,
:meth:`gateway_reconnect`, :meth:`gateway_invalid_session`, :meth:`gateway_close`, :meth:`gateway_drop`;
what was served is in ``faults_served``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import fnmatch
import itertools
import json
import math
import re
import secrets
import zlib
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import unquote

from aiohttp import BodyPartReader, WSMsgType, web
from aiohttp.typedefs import Handler

from ._common import (
    DEFAULT_TIMEOUT,
    OUTAGE_MODES,
    FakeClock,
    Fault,
    MessageLog,
    Outage,
    SentFile,
    SentMessage,
    ServedFault,
    guess_content_type,
    image_size,
    json_response,
    reset_connection,
)
from .discord_components import (
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    press_data,
    submit_data,
    validate_components,
    validate_modal,
)
from .discord_global import DM_OPENS, DM_TOO_FAST, DM_TOO_FAST_MESSAGE, INVALID_LIMIT, DmOpenings, InvalidRequests
from .discord_limits import BucketRule, RateLimits, Throttle
from .discord_rules import (
    ADD_REACTIONS,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    GUILD_INSTALL,
    GUILDS_PER_SHARD_MAX,
    INVALID_SHARD,
    INVALID_WEBHOOK_TOKEN,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SHARDING_REQUIRED,
    VIEW_CHANNEL,
    ApiError,
    CommandUnavailable,
    api_error,
    channel_permissions,
    check_autocomplete_choices,
    command_contexts,
    command_integration_types,
    identify_shard,
    invalid_form,
    option_value_refused,
    recommended_shards,
    shard_of,
    validate_command,
)

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

# Interactions > Receiving and Responding: an interaction must be answered within 3 seconds, and
# its token is valid for 15 minutes (then webhook calls get 401 / 50027 Invalid Webhook Token).
INTERACTION_RESPONSE_SECONDS = 3.0
INTERACTION_TOKEN_SECONDS = 15 * 60

# Topics > Gateway > Resuming: events kept per session for replay on RESUME.
SESSION_REPLAY = 2000
# Opcodes and Status Codes > Gateway Close Event Codes: closes after which a session cannot be
# resumed (4007 Invalid seq, 4009 Session timed out) and codes a bot must not reconnect after.
NON_RESUMABLE_CLOSES = frozenset({4007, 4009})

# Keys for per-request storage (aiohttp >= 3.12 prefers typed keys).
_RequestKey = getattr(web, "RequestKey", None)
_BODY: Any = _RequestKey("body", object) if _RequestKey else "body"
_FILES: Any = _RequestKey("files", list) if _RequestKey else "files"

_MENTION_RE = re.compile(r"<@!?(\d+)>")


def _iso(moment: dt.datetime | None = None) -> str:
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


_invalid_form = invalid_form
_ApiError = ApiError
_error = api_error


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


@dataclass(eq=False)
class _Session:
    """A gateway session (Topics > Gateway > Sessions): its sequence, the events dispatched to it
    (kept for a RESUME to replay), and the connection it is on now (None while disconnected)."""

    id: str
    intents: int
    shard: tuple[int, int] | None = None  # (shard_id, num_shards) from IDENTIFY; None: unsharded
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=SESSION_REPLAY))
    connection: _Gateway | None = None
    alive: bool = True  # False once invalidated: it gets no more events and cannot be resumed

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of guild ``guild_id`` (None: DMs, shard 0's only)."""
        return _shard_owns(self.shard, guild_id)


def _shard_owns(shard: tuple[int, int] | None, guild_id: int | None) -> bool:
    """Topics > Gateway > Sharding: a guild's events go to shard (guild_id >> 22) % num_shards, DMs
    to shard 0; an unsharded session is shard 0 of 1."""
    if shard is None:
        return True
    shard_id, count = shard
    return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


@dataclass(frozen=True)
class Dispatch:
    """One event dispatched to a gateway session (``fake.dispatches``), recorded once even if a
    RESUME replays it."""

    session_id: str
    shard: tuple[int, int] | None
    event: str
    data: dict[str, Any]


# a frame the client has not taken in this long: its connection is dropped (the event stays replayable on
# RESUME, Topics > Gateway > Resuming), never waited for forever
SEND_SECONDS = 10.0


class _Gateway:
    """One websocket connection; it carries a session once identified or resumed.

    Topics > Gateway > Transport Compression: with ``compress=zlib-stream`` every payload is
    a binary frame of one shared zlib stream, each ending in a Z_SYNC_FLUSH (``00 00 ff ff``).
    Other compressions (``zstd-stream``) are answered uncompressed: discord.py reads text
    frames whatever it asked for.
    """

    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression if compression == "zlib-stream" else None
        self.session: _Session | None = None
        self.closed_by_server: int | None = None
        self.transport: asyncio.Transport | None = None
        self._zlib = zlib.compressobj() if self.compression else None
        self._lock = asyncio.Lock()

    @property
    def identified(self) -> bool:
        return self.session is not None

    @property
    def intents(self) -> int:
        return self.session.intents if self.session is not None else 0

    @property
    def session_id(self) -> str | None:
        return self.session.id if self.session is not None else None

    async def send(self, payload: dict[str, Any] | str) -> bool:
        """Send one payload; False if the connection is gone (the event stays replayable)."""
        text = payload if isinstance(payload, str) else json.dumps(payload)
        async with self._lock:  # one zlib stream: frames leave in the order they were compressed
            if self.ws.closed:
                return False
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode("utf-8")) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await asyncio.wait_for(self.ws.send_bytes(data), SEND_SECONDS)
                else:
                    await asyncio.wait_for(self.ws.send_str(text), SEND_SECONDS)
            except (ConnectionError, RuntimeError):
                return False
            except TimeoutError:  # a client that stopped reading: dropped, as Discord drops it
                asyncio.get_running_loop().create_task(self.ws.close(code=4000))
                return False
        return True


class FakeDiscord:
    """Fake Discord REST API and gateway. ``async with FakeDiscord() as dc:`` or ``await dc.start()``.

    Worth knowing:

    * ``log`` / ``sent``: every bot action (:class:`SentMessage`), ``requests``: every REST call
      ``(method, path, body)``, ``unhandled``: calls to routes the fake does not implement,
      ``responses``: ``(method, path, status)`` of every REST answer.
    * ``commands``: synced global commands by name; ``guild_commands[guild_id]``: per guild.
    * ``bot_user``, ``application_id``, ``token``.
    * ``clock`` (:meth:`now`, :meth:`advance`): the fake's time, for token expiry and outages.
    * ``deprecations``: deprecated API uses the bot made (Discord still serves them).
    * ``gateway_log``: "identify", "ready", "resume", "resumed", "invalid_session:<resumable>",
      "reconnect", "close:<code>", "drop" in order; :meth:`wait_for_gateway` waits for one.
    * ``faults_served``: every injected fault as it was served (:class:`ServedFault`).
    * ``limits`` (:class:`RateLimits`): the buckets; ``limits.taken``: every request they counted;
      ``throttled``: the 429s they served.
    * ``invalid_requests``: the 401/403/429 answers counted towards the invalid-request limit, and its
      ``bans`` (the address then gets Cloudflare's 429 for an hour of the fake's clock);
      ``dm_openings``: the DM channels opened, and the openings refused as too fast (40003).
    * ``dispatches``: every gateway event given to a session (:class:`Dispatch`), with its shard;
      ``identifies``: how many sessions were started (GET /gateway/bot counts them down).
    """

    def __init__(
        self,
        *,
        token: str = "fake-discord-bot-token",
        bot_username: str = "TestBot",
        bot_id: int = 900_000_000_000_000_001,
        application_id: int | None = None,
        privileged_intents_enabled: bool = True,
        interaction_timeout: float = INTERACTION_RESPONSE_SECONDS,
        echo_bot_messages: bool = True,
        rate_limits: dict[str, tuple[int, float]] | None = None,
        enforce_rate_limits: bool = True,
        max_concurrency: int = 1,
        session_start_total: int = 1000,
        guilds_per_shard: int = GUILDS_PER_SHARD_MAX,
        invalid_request_limit: int = INVALID_LIMIT,
        dm_opens: tuple[int, float] = DM_OPENS,
    ) -> None:
        """``rate_limits``: ``{"METHOD /route": (limit, seconds)}`` for routes a test wants tighter or looser
        than Discord's (:mod:`tests.fakes.discord_limits`); ``enforce_rate_limits=False`` only reports the
        headers (a test about something else that must flood, saying so);
        ``max_concurrency``, ``session_start_total``: GET /gateway/bot's ``session_start_limit``;
        ``guilds_per_shard``: past this many guilds, an IDENTIFY is closed with 4011 Sharding
        required (Discord's 2500; lower it to see that close without adding thousands of guilds);
        ``invalid_request_limit``: the invalid requests (401, 403, 429) in 10 minutes past which the
        address is banned (Discord's 10,000; lower it to see the ban without ten thousand requests);
        ``dm_opens``: ``(new DM channels, seconds)`` past which opening a DM is refused with 40003
        (:mod:`tests.fakes.discord_global`)."""
        self.token = token
        self.bot_user = DiscordUser(id=bot_id, username=bot_username, bot=True, dms_open=False)
        self.application_id = application_id or bot_id
        self.privileged_intents_enabled = privileged_intents_enabled
        self.interaction_timeout = interaction_timeout
        self.echo_bot_messages = echo_bot_messages
        self.limits = RateLimits(
            {self._split_route(k): v for k, v in (rate_limits or {}).items()}, application_id=self.application_id
        )
        self.enforce_rate_limits = enforce_rate_limits
        self.invalid_requests = InvalidRequests(limit=invalid_request_limit)
        self.dm_openings = DmOpenings(*dm_opens)
        self.max_concurrency = max_concurrency
        self.session_start_total = session_start_total
        self.guilds_per_shard = guilds_per_shard
        self.identifies = 0
        self.dispatches: list[Dispatch] = []
        self.clock = FakeClock()
        self.log = MessageLog("discord")
        self.requests: list[tuple[str, str, Any]] = []
        self.responses: list[tuple[str, str, int]] = []
        self.unhandled: list[tuple[str, str, Any]] = []
        self.deprecations: list[str] = []
        self.faults_served: list[ServedFault] = []
        self.gateway_log: list[str] = []
        self.commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.users: dict[int, DiscordUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.attachments: dict[int, SentFile] = {}
        self.gateways: list[_Gateway] = []
        self.sessions: dict[str, _Session] = {}
        self.outage_state: Outage | None = None
        self._dm_channels: dict[int, int] = {}
        self._interactions: dict[int, _Interaction] = {}
        self._tokens: dict[str, int] = {}
        self._faults: list[Fault] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._command_ids: dict[str, int] = {}
        self._app_owner: DiscordUser | None = None
        self._identified: asyncio.Event | None = None
        self._gateway_changed: asyncio.Event | None = None
        self._last_snowflake = 0
        self._increment = itertools.count()
        self._names = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Self:
        self._identified = asyncio.Event()
        self._gateway_changed = asyncio.Event()
        app = web.Application(client_max_size=100 * 1024 * 1024, middlewares=[self._middleware])
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/gateway/", self._handle_gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for session in self.sessions.values():
            session.alive = False
        for gateway in list(self.gateways):
            if not gateway.ws.closed:
                await gateway.ws.close(code=1001, message=b"fake server stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.http_base + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py at this fake (class attributes, restored on exit)."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url + "/")
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    async def wait_until_identified(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        assert self._identified is not None, "start the fake first"
        await asyncio.wait_for(self._identified.wait(), timeout)

    async def wait_for_gateway(self, event: str, count: int = 1, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``gateway_log`` holds ``event`` at least ``count`` times in all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.gateway_log.count(event) < count:
            self.log.check_errors()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"gateway: {event!r} x{count} not seen within {timeout}s; log: {self.gateway_log}")
            assert self._gateway_changed is not None, "start the fake first"
            try:
                await asyncio.wait_for(self._gateway_changed.wait(), remaining)
            except TimeoutError:
                pass

    def _gateway_event(self, event: str) -> None:
        self.gateway_log.append(event)
        if self._gateway_changed is not None:
            self._gateway_changed.set()
            self._gateway_changed = asyncio.Event()

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

    async def _announce_channel(self, channel: dict[str, Any]) -> None:
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        await self._dispatch_all("CHANNEL_UPDATE", dict(channel), guild_id=guild_id, intents=INTENT_GUILDS)

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

    # ------------------------------------------------------------------ fault injection

    def rate_limit_next(
        self,
        route: str,
        retry_after: float = 0.2,
        *,
        is_global: bool = False,
        scope: str | None = None,
        count: int = 1,
    ) -> None:
        """The next ``count`` requests matching ``route`` ("METHOD /path-template") get a 429.

        Topics > Rate Limits: the body carries ``retry_after`` (seconds, a float) and ``global``;
        the headers ``Retry-After``, ``X-RateLimit-*`` and ``X-RateLimit-Scope`` ("user",
        "global" or "shared"), plus ``Via``, without which discord.py takes a 429 for a
        Cloudflare ban and does not retry.
        """
        method, path = self._split_route(route)
        scope = scope or ("global" if is_global else "user")
        if scope not in ("user", "global", "shared"):
            raise ValueError("scope is 'user', 'global' or 'shared'")
        headers = self._rate_limit_headers(0, retry_after, "fakebucket" + secrets.token_hex(4))
        headers.update(
            {"Retry-After": str(max(1, math.ceil(retry_after))), "X-RateLimit-Scope": scope, "Via": "1.1 google"}
        )
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
        self._faults.append(Fault(method, path, 429, body, headers, count, kind="429"))

    def fail_next(self, route: str, status: int, code: int = 0, message: str = "error", *, count: int = 1) -> None:
        """The next ``count`` requests matching ``route`` fail with ``status`` / JSON error ``code``."""
        method, path = self._split_route(route)
        kind = "5xx" if status >= 500 else "error"
        self._faults.append(Fault(method, path, status, {"message": message, "code": code}, {}, count, kind=kind))

    def server_error_next(self, route: str = "* *", *, count: int = 1, status: int = 500) -> None:
        """The next ``count`` requests matching ``route`` get an HTTP ``status`` server error
        (discord.py retries 500, 502, 504 and 524 itself, after 1, 3, 5, 7 s)."""
        if status < 500:
            raise ValueError("a server error is 5xx")
        self.fail_next(route, status, 0, f"{status}: Internal Server Error", count=count)

    def reset_next(self, route: str = "* *", *, count: int = 1, handled: bool = False) -> None:
        """The next ``count`` requests matching ``route`` have their connection reset (no answer);
        ``handled``: after Discord acted on them (a reset on the way back: the request took effect)."""
        method, path = self._split_route(route)
        self._faults.append(Fault(method, path, 0, None, {}, count, kind="reset", reset=True, handled=handled))

    def outage(self, duration: float = 30.0, *, mode: str = "reset") -> None:
        """Refuse everything for ``duration`` seconds of the fake's clock (end it early with
        :meth:`advance` or :meth:`end_outage`): REST calls are reset (``mode="reset"``) or answered
        503 (``"unavailable"``), gateway connections are dropped and new ones refused."""
        if mode not in OUTAGE_MODES:
            raise ValueError(f"mode is one of {OUTAGE_MODES}")
        self.outage_state = Outage(self.now() + duration, mode)
        for gateway in list(self.gateways):
            self._abort_gateway(gateway)

    def end_outage(self) -> None:
        self.outage_state = None

    def _in_outage(self) -> Outage | None:
        if self.outage_state is not None and self.now() >= self.outage_state.until:
            self.outage_state = None
        return self.outage_state

    def _served(self, kind: str, method: str, path: str) -> None:
        self.faults_served.append(ServedFault(kind, method, path, self.now()))

    def faults_of(self, kind: str) -> list[ServedFault]:
        return [f for f in self.faults_served if f.kind == kind]

    async def gateway_reconnect(self) -> int:
        """Send op 7 Reconnect on every open connection (Gateway Events > Reconnect): the bot
        should reconnect and RESUME. Returns how many connections got it."""
        sent = 0
        for gateway in list(self.gateways):
            if gateway.identified and await gateway.send({"op": 7, "d": None, "s": None, "t": None}):
                sent += 1
                self._served("gateway:7", "GATEWAY", "reconnect")
        self._gateway_event("reconnect")
        return sent

    async def gateway_invalid_session(self, resumable: bool = False) -> int:
        """Send op 9 Invalid Session (Gateway Events > Invalid Session). With ``resumable=False``
        the session is gone: the bot must IDENTIFY again; with True it may RESUME."""
        sent = 0
        for gateway in list(self.gateways):
            if gateway.session is None:
                continue
            if not resumable:
                gateway.session.alive = False
            if await gateway.send({"op": 9, "d": resumable, "s": None, "t": None}):
                sent += 1
                self._served("gateway:9", "GATEWAY", f"invalid_session:{resumable}")
        self._gateway_event(f"invalid_session:{str(resumable).lower()}")
        return sent

    async def gateway_close(self, code: int = 4000, reason: str = "") -> int:
        """Close every open connection with ``code`` (Opcodes and Status Codes > Gateway Close
        Event Codes: 4000 Unknown error, resumable; 4009 Session timed out, a new session needed)."""
        closed = 0
        for gateway in list(self.gateways):
            if gateway.ws.closed:
                continue
            if gateway.session is not None and code in NON_RESUMABLE_CLOSES:
                gateway.session.alive = False
            gateway.closed_by_server = code
            await gateway.ws.close(code=code, message=(reason or f"fake close {code}").encode())
            closed += 1
            self._served(f"gateway:{code}", "GATEWAY", "close")
        self._gateway_event(f"close:{code}")
        return closed

    async def gateway_drop(self) -> int:
        """Reset every gateway connection (no close frame: an abnormal closure); sessions stay
        resumable."""
        dropped = 0
        for gateway in list(self.gateways):
            if not gateway.ws.closed:
                self._abort_gateway(gateway)
                dropped += 1
        self._gateway_event("drop")
        return dropped

    def _abort_gateway(self, gateway: _Gateway) -> None:
        gateway.closed_by_server = 1006
        if gateway.transport is not None:
            gateway.transport.abort()
        self._served("gateway:drop", "GATEWAY", "drop")

    @staticmethod
    def _split_route(route: str) -> tuple[str, str]:
        method, _, path = route.strip().partition(" ")
        if not path:
            raise ValueError("route must look like 'POST /channels/{channel_id}/messages'")
        return method.upper(), path.removeprefix(API_PREFIX)

    @staticmethod
    def _template(request: web.Request) -> str | None:
        resource = request.match_info.route.resource
        return resource.canonical[len(API_PREFIX) :] if resource is not None else None

    def _route_matches(self, method: str, path_pattern: str, request: web.Request) -> bool:
        if method not in ("*", request.method):
            return False
        path = request.path.removeprefix(API_PREFIX)
        return path_pattern in ("*", self._template(request)) or fnmatch.fnmatchcase(path, path_pattern)

    def _match_fault(self, request: web.Request) -> Fault | None:
        for fault in self._faults:
            if fault.count <= 0:
                continue
            assert fault.path is not None
            if self._route_matches(fault.method, fault.path, request):
                fault.count -= 1
                if fault.count == 0:
                    self._faults.remove(fault)
                return fault
        return None

    # ------------------------------------------------------------------ rate-limit headers

    def _rate_limit_headers(self, remaining: int, reset_after: float, bucket: str, limit: int = 5) -> dict[str, str]:
        """Topics > Rate Limits > Header Format (an injected 429's own bucket)."""
        return self.limits.headers(BucketRule(bucket, limit, reset_after), remaining, reset_after, self.now()) | {
            "X-RateLimit-Bucket": bucket
        }

    def _limit_args(self, request: web.Request) -> tuple[str, str, str, dict[str, str]]:
        template = self._template(request) or request.path
        return request.method, template, request.path.removeprefix(API_PREFIX), dict(request.match_info)

    @property
    def throttled(self) -> list[Throttle]:
        """The 429s the rate limits served (injected ones are in ``faults_served``)."""
        return self.limits.throttled

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
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": 4 if focused else 2,
            "data": data,
            "channel_id": str(channel_id),
            "channel": dict(channel),
            "token": token,
            "version": 1,
            "locale": invoker.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild_id:
            guild = self.guilds[guild_id]
            payload["guild_id"] = str(guild_id)
            payload["guild"] = {"id": str(guild_id), "locale": guild.preferred_locale, "features": []}
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = self._member_payload(guild, invoker, permissions=True, channel_id=int(channel_id))
            payload["app_permissions"] = str(self.channel_permissions(int(channel_id), self.bot_user))
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
            payload["context"] = CONTEXT_GUILD
        else:
            self.dm_channel_id(invoker)
            payload["user"] = invoker.to_dict()
            payload["app_permissions"] = str(DEFAULT_PERMISSIONS)
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["context"] = CONTEXT_BOT_DM
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
        self._interactions[interaction_id] = state
        self._tokens[token] = interaction_id
        await self._dispatch_all("INTERACTION_CREATE", payload, guild_id=guild_id)
        return interaction_id

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
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel_id),
            "channel": dict(channel),
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
        self._interactions[interaction_id] = state
        self._tokens[token] = interaction_id
        await self._dispatch_all("INTERACTION_CREATE", payload, guild_id=guild_id)
        return interaction_id

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

    def _command_id(self, name: str, guild_id: int | None) -> int:
        # stable per (name, guild) within one fake
        key = f"{guild_id}:{name}"
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        return self._command_ids[key]

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

    # ------------------------------------------------------------------ gateway

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        outage = self._in_outage()
        if outage is not None:
            self._served("outage", "GET", "/gateway")
            if outage.mode == "reset":
                reset_connection(request)
            return web.Response(status=503, text="upstream connect error")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        gateway = _Gateway(ws, request.query.get("compress"))
        gateway.transport = request.transport
        self.gateways.append(gateway)
        try:
            await gateway.send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await gateway.send({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    await self._identify(gateway, data["d"])
                elif op == 6:
                    await self._resume(gateway, data["d"])
                elif op == 8:
                    await self._request_members(gateway, data["d"])
        finally:
            self.gateways.remove(gateway)
            session = gateway.session
            if session is not None and session.connection is gateway:
                session.connection = None
                # Topics > Gateway > Disconnecting: a client closing with 1000 or 1001 ends its
                # session; any other close (or none) leaves it resumable.
                if gateway.closed_by_server is None and ws.close_code in (1000, 1001):
                    session.alive = False
        return ws

    async def _identify(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        if data.get("token", "").removeprefix("Bot ") != self.token:
            await gateway.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.privileged_intents_enabled:
            await gateway.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self._gateway_event("identify")
        if gateway.session is not None:  # Gateway > Identifying: once per connection
            await gateway.ws.close(code=4005, message=b"Already authenticated.")
            return
        shard = identify_shard(data["shard"]) if "shard" in data else None
        if "shard" in data and shard is None:
            await gateway.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        guilds = [guild for guild in self.guilds.values() if _shard_owns(shard, guild.id)]
        if len(guilds) > self.guilds_per_shard:
            await gateway.ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return
        self.identifies += 1
        session = _Session(id=secrets.token_hex(16), intents=intents, shard=shard, connection=gateway)
        self.sessions[session.id] = session
        gateway.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.to_dict(), "verified": True, "mfa_enabled": False, "bot": True},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._dispatch_session(session, "READY", ready)
        for guild in guilds:
            await self._dispatch_session(session, "GUILD_CREATE", self._guild_payload(guild, intents))
        self._gateway_event("ready")
        if self._identified is not None:
            self._identified.set()

    async def _resume(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        """Topics > Gateway > Resuming: the missed events are replayed in order, then RESUMED;
        a session that cannot be resumed gets op 9 Invalid Session (d=false)."""
        self._gateway_event("resume")
        if str(data.get("token", "")).removeprefix("Bot ") != self.token:
            await gateway.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.alive:
            self._gateway_event("invalid_session:false")
            await gateway.send({"op": 9, "d": False, "s": None, "t": None})
            return
        previous = session.connection
        session.connection = gateway
        gateway.session = session
        if previous is not None and previous is not gateway and not previous.ws.closed:
            previous.closed_by_server = 4000
            await previous.ws.close(code=4000, message=b"Session resumed elsewhere")
        seq = int(data.get("seq") or 0)
        for number, frame in list(session.sent):
            if number > seq and not await gateway.send(frame):
                return
        await self._dispatch_session(session, "RESUMED", {})
        self._gateway_event("resumed")

    async def _request_members(self, gateway: _Gateway, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None or gateway.session is None or not gateway.session.owns(guild.id):
            return  # Topics > Gateway > Sharding: a guild is only known to the shard that owns it
        user_ids = data.get("user_ids")
        members = [
            self._member_payload(guild, self.users[uid])
            for uid in guild.members
            if not user_ids or str(uid) in [str(x) for x in user_ids]
        ]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch_session(gateway.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _dispatch_session(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        """Give a session the next event: sent now if it is connected, replayed on RESUME if not."""
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.sent.append((session.seq, frame))
        self.dispatches.append(Dispatch(session.id, session.shard, event, data))
        if session.connection is not None:
            await session.connection.send(frame)

    def _live_sessions(self) -> list[_Session]:
        return [session for session in self.sessions.values() if session.alive]

    async def _announce_guild(self, guild: FakeGuild) -> None:
        for session in self._live_sessions():
            if session.owns(guild.id):
                await self._dispatch_session(session, "GUILD_CREATE", self._guild_payload(guild, session.intents))

    async def _dispatch_all(self, event: str, data: dict[str, Any], *, guild_id: int | None, intents: int = 0) -> None:
        """``event`` to every live session with ``intents`` that owns ``guild_id`` (None: a DM's)."""
        for session in self._live_sessions():
            if session.intents & intents == intents and session.owns(guild_id):
                await self._dispatch_session(session, event, data)

    def shards_given(
        self, event: str, predicate: Callable[[dict[str, Any]], bool] | None = None
    ) -> list[tuple[int, int] | None]:
        """The shards (``(shard_id, num_shards)``, None for an unsharded session) of the sessions that
        were dispatched ``event`` with data matching ``predicate``, once per dispatch, in order."""
        return [d.shard for d in self.dispatches if d.event == event and (predicate is None or predicate(d.data))]

    def interaction_shards(self, interaction_id: int) -> list[tuple[int, int] | None]:
        """The shards of the sessions that received interaction ``interaction_id``."""
        return self.shards_given("INTERACTION_CREATE", lambda data: data.get("id") == str(interaction_id))

    async def _deliver_message(self, message: dict[str, Any], event: str = "MESSAGE_CREATE") -> None:
        guild_message = "guild_id" in message
        guild_id = int(message["guild_id"]) if guild_message else None
        author_id = int(message["author"]["id"])
        mentioned = any(int(m["id"]) == self.bot_user.id for m in message.get("mentions", []))
        for session in self._live_sessions():
            needed = INTENT_GUILD_MESSAGES if guild_message else INTENT_DIRECT_MESSAGES
            if not session.intents & needed or not session.owns(guild_id):
                continue
            data = message
            visible = (
                not guild_message
                or session.intents & INTENT_MESSAGE_CONTENT
                or mentioned
                or author_id == self.bot_user.id
            )
            if not visible:
                data = {**message, "content": "", "embeds": [], "attachments": [], "components": []}
            await self._dispatch_session(session, event, data)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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

    def _add_routes(self, router: web.UrlDispatcher) -> None:
        p = API_PREFIX
        add = router.add_route
        add("GET", p + "/users/@me", self._get_me)
        add("GET", p + "/oauth2/applications/@me", self._get_application)
        add("GET", p + "/applications/@me", self._get_application)
        add("GET", p + "/gateway", self._get_gateway)
        add("GET", p + "/gateway/bot", self._get_gateway_bot)
        add("POST", p + "/users/@me/channels", self._create_dm)
        add("GET", p + "/users/{user_id}", self._get_user)
        add("GET", p + "/channels/{channel_id}", self._get_channel)
        add("POST", p + "/channels/{channel_id}/messages", self._post_channel_message)
        add("GET", p + "/channels/{channel_id}/messages", self._list_messages)
        add("GET", p + "/channels/{channel_id}/messages/{message_id}", self._get_message)
        add("PATCH", p + "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        add("DELETE", p + "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message)
        add("POST", p + "/channels/{channel_id}/typing", self._no_content)
        add("PUT", p + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction)
        add("DELETE", p + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._no_content)
        add("GET", p + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        add("GET", p + "/guilds/{guild_id}/channels", self._get_guild_channels)
        add("POST", p + "/interactions/{interaction_id}/{interaction_token}/callback", self._interaction_callback)
        add("POST", p + "/webhooks/{application_id}/{interaction_token}", self._post_followup)
        add(
            "GET", p + "/webhooks/{application_id}/{interaction_token}/messages/{message_id}", self._get_webhook_message
        )
        add(
            "PATCH",
            p + "/webhooks/{application_id}/{interaction_token}/messages/{message_id}",
            self._edit_webhook_message,
        )
        add(
            "DELETE",
            p + "/webhooks/{application_id}/{interaction_token}/messages/{message_id}",
            self._delete_webhook_message,
        )
        for prefix in (p + "/applications/{application_id}", p + "/applications/{application_id}/guilds/{guild_id}"):
            add("GET", prefix + "/commands", self._get_commands)
            add("PUT", prefix + "/commands", self._put_commands)
            add("POST", prefix + "/commands", self._post_command)
            add("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        add("*", p + "/{tail:.*}", self._unhandled)

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

    # ------------------------------------------------------------------ REST: application commands

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


@asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    bot: Any,
    *,
    tree: Any = None,
    fail_on_errors: bool = True,
    ignore_errors: tuple[type[BaseException], ...] = (),
    guild_ready_timeout: float | None = 0.05,
    ready_timeout: float = DEFAULT_TIMEOUT,
    reconnect: bool = False,
) -> AsyncIterator[Any]:
    """Log ``bot`` (a discord.py ``Client``/``commands.Bot``) in to ``fake`` and run it until exit.

    * patches discord.py's base URL and gateway for the duration;
    * waits for ``on_ready`` (``guild_ready_timeout`` shortens discord.py's 2 s wait);
    * with ``fail_on_errors``, errors from prefix commands (``on_command_error``, except
      ``CommandNotFound``), from the app command tree (``tree.on_error``, the bot's ``tree``
      unless ``tree`` is given) and from event handlers (``on_error``) are reported to
      ``fake.log``: wait helpers raise :class:`BotErrors` right away, and so does leaving the block.
    * ``reconnect``: passed to ``bot.connect``. discord.py always follows op 7, op 9 and
      resumable closes; ``reconnect=True`` also retries after network errors (an outage).
    """
    import discord
    from discord.ext import commands

    restore: list[Callable[[], None]] = []
    if fail_on_errors:
        ignored: tuple[type[BaseException], ...] = (commands.CommandNotFound, *ignore_errors)

        async def on_command_error(ctx: Any, error: BaseException) -> None:
            if not isinstance(error, ignored):
                fake.log.report_error(error)

        if isinstance(bot, commands.bot.BotBase):
            bot.add_listener(on_command_error, "on_command_error")
            restore.append(lambda: bot.remove_listener(on_command_error, "on_command_error"))

        app_tree = tree if tree is not None else getattr(bot, "tree", None)
        if app_tree is not None:
            original_tree_error = app_tree.on_error
            had_instance_attr = "on_error" in vars(app_tree)

            async def tree_error(interaction: Any, error: BaseException) -> None:
                if not isinstance(error, ignore_errors):
                    fake.log.report_error(error)
                await original_tree_error(interaction, error)

            app_tree.on_error = tree_error

            def restore_tree() -> None:
                if had_instance_attr:
                    app_tree.on_error = original_tree_error
                else:
                    del app_tree.on_error

            restore.append(restore_tree)

        original_on_error = bot.on_error
        had_on_error = "on_error" in vars(bot)

        async def on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            import sys

            error = sys.exc_info()[1]
            if error is not None and not isinstance(error, ignore_errors):
                fake.log.report_error(error)
            await original_on_error(event_method, *args, **kwargs)

        bot.on_error = on_error

        def restore_on_error() -> None:
            if had_on_error:
                bot.on_error = original_on_error
            else:
                del bot.on_error

        restore.append(restore_on_error)

    if guild_ready_timeout is not None and hasattr(bot, "_connection"):
        bot._connection.guild_ready_timeout = guild_ready_timeout

    failed = False
    with fake.patch_discord():
        try:
            await bot.login(fake.token)
            task = asyncio.get_running_loop().create_task(bot.connect(reconnect=reconnect))
            ready = asyncio.get_running_loop().create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if task in done:
                    task.result()  # raises the connection error
                raise AssertionError(f"discord bot not ready within {ready_timeout}s")
            try:
                yield bot
            except BaseException:
                failed = True
                raise
            finally:
                await bot.close()
                try:
                    await asyncio.wait_for(task, 2.0)
                except (TimeoutError, discord.ConnectionClosed):
                    pass
        finally:
            if not bot.is_closed():
                await bot.close()
            for undo in reversed(restore):
                undo()
    if fail_on_errors and not failed:
        fake.log.check_errors()
