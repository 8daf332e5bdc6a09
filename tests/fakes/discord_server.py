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
other faults) are the Discord ones, e.g. ``"POST /channels/{channel_id}/messages"``; concrete paths with
``*`` globs (``"POST /channels/123/messages"``) work too, and ``"* *"`` matches every request.

As strict as Discord where a bot could go wrong (each rule names the documentation section it follows):
command registrations are validated, a command is only usable where it is registered, interaction tokens
expire after 15 minutes of the fake's clock (:meth:`FakeDiscord.advance`), an interaction's first answer
after its 3 seconds is 404 / 10062, channel permissions are enforced, Discord's rate limits are on
(:mod:`tests.fakes.discord_limits`; the 429s served are in ``throttled``), too many invalid requests ban the
address and opening DMs too fast is refused (:mod:`tests.fakes.discord_global`), the gateway resumes sessions
and shards guilds (``add_guild(shard=(id, count))``, :meth:`FakeDiscord.shards_given`). Faults:
:meth:`server_error_next`, :meth:`rate_limit_next`, :meth:`reset_next`, :meth:`outage`,
:meth:`gateway_reconnect`, :meth:`gateway_invalid_session`, :meth:`gateway_close`, :meth:`gateway_drop`;
what was served is in ``faults_served``.

:class:`FakeDiscord` is composed of layers with one job each, each a class in its own module built on the
layers it uses: ``discord_world`` (users, guilds, channels, members, permissions and their payloads, the
clock), ``discord_faults`` (injected faults, the outage, rate-limit headers), ``discord_sessions`` and
``discord_gateway`` (the gateway), ``discord_rest`` (the REST API's HTTP side and its reads),
``discord_rest_messages``, ``discord_rest_interactions``, ``discord_rest_commands``, and ``discord_users``
(what users do, and the ``wait_for_*`` helpers). This module holds :class:`FakeDiscord` itself (its state,
its server, its routes) and :func:`running_bot`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Self

from aiohttp import web

from ._common import DEFAULT_TIMEOUT, FakeClock, Fault, MessageLog, Outage, SentFile, ServedFault
from .discord_global import DM_OPENS, INVALID_LIMIT, DmOpenings, InvalidRequests
from .discord_limits import RateLimits
from .discord_rest import DiscordRest
from .discord_rest_interactions import INTERACTION_RESPONSE_SECONDS, _Interaction
from .discord_rules import GUILDS_PER_SHARD_MAX
from .discord_sessions import Dispatch, _Gateway, _Session
from .discord_users import DiscordUsers
from .discord_world import API_PREFIX, DISCORD_EPOCH, DiscordUser, FakeGuild

__all__ = ["DISCORD_EPOCH", "DiscordUser", "Dispatch", "FakeDiscord", "FakeGuild", "running_bot"]


class FakeDiscord(DiscordUsers, DiscordRest):
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

    # ------------------------------------------------------------------ routes (every layer's)

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
