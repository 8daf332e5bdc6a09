"""Discord adapter (discord.py 2.7): slash commands and ``!`` prefix commands in, replies out.

A thin translator. Every command of ``bot.commands.registry`` becomes a slash command (English name,
French localisation from its alias) with one free-text ``args`` option that the command layer parses;
``!score H8 VAGUE`` works too when the privileged message-content intent is enabled (and in DMs, where no
intent is needed). Replies go back through the interaction when there is one (ephemeral when private),
otherwise to the channel, or by DM for private replies, with a polite public fallback when DMs are closed.

A deferred "thinking..." answer is completed by editing the original response; once an interaction
token has lived its 15 minutes, later edits of its messages go through the channel. A channel that
refuses the bot's posts (missing access or permissions) is logged and reported once, by DM, to the
referee of the channel's game, until a post there succeeds again.

Nothing here knows the game: moves are recorded by the command layer before any Discord call, so a
failed send never loses a move. The slash commands are defined in ``discord_commands``, an interaction is
answered by ``discord_interactions`` (a lost first answer included), and ``discord_reconnect`` bounds the
waits between gateway reconnections.
"""

import asyncio
import contextvars
import io
import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from ..chat import Incoming, Reply, read_command
from ..commands import CommandSpec, find
from ..games.installed import COMMANDS
from ..messages import say
from ..operations.metrics import Metrics, rate_limit_trace
from ..outbox import Undelivered
from ..referee import Referee
from ..runtime.service import RefereeService
from .common import DEFAULT_LANGUAGE, TrackedMessage, TrackedMessages, first_things_first, platform_id, split_text
from .common import platform_name as platform_name  # the names the tests and tools import from here
from .common import platform_received as platform_received  # Discord's time of an answer, on the referee's clock
from .discord_commands import CommandTranslator, build_command
from .discord_commands import intents_for as intents_for
from .discord_interactions import FAILED, NO_MENTIONS, InteractionTurn
from .discord_pacing import Edit, Post, deliver_posts, merged
from .discord_reconnect import CONNECT_TIMEOUT, RECONNECT_CAP, BoundedBackoff, connect_bounded
from .discord_serial import one_at_a_time
from .discord_shards import ShardRange
from .ordering import ArrivalOrder, Turn

log = logging.getLogger("arbitre.discord")

TEXT_LIMIT = 2000
# Posts and edits in one channel (or through one interaction token) share a bucket of about 5 per 5 s
# (PLATFORMS.md): a live line (the counter, the join notice) takes at most one edit of it per 5 s.
LIVE_INTERVAL = 5.0

# Any other command is deferred if it has not answered after this many seconds (Discord allows 3).
DEFER_AFTER = 2.0

# JSON error codes of a channel refusing the bot (Missing Access, Missing Permissions) and the
# catalog message naming the permissions each one means is missing.
CHANNEL_REFUSALS = {50001: "discord_missing_access", 50013: "discord_missing_permissions"}
_MENTION = re.compile(r"<@!?([0-9]{1,20})>")  # a snowflake fits in 20 ASCII digits
MENTION_LOOKUPS = 25  # mentions of one message resolved at most; the others stay as typed
MENTION_LOOKUP_TIMEOUT = 5.0  # seconds the gateway has to answer the one members request


# --- routing replies --------------------------------------------------------------------


class _MessageTurn:
    """One ``!`` command being answered (no interaction: channel messages and DMs)."""

    def __init__(self, message: discord.Message, incoming: Incoming) -> None:
        self.message = message
        self.channel = incoming.channel
        self.user = incoming.user


_TURN: contextvars.ContextVar[InteractionTurn | _MessageTurn | None] = contextvars.ContextVar(
    "arbitre_discord_turn", default=None
)


class AdapterHooks(discord.Client):
    """The adapter's side of a discord.py client, mixed into the plain and the sharded client: an
    app command tree, prefix commands, the clock started once connected and stopped on close."""

    def __init__(self, adapter: "DiscordAdapter", intents: discord.Intents, **options: Any) -> None:
        # the bot never joins voice: no warnings about voice libraries at every start
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(intents=intents, allowed_mentions=NO_MENTIONS, **options)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(self)
        one_at_a_time(self.http)  # a channel's message requests one after another: discord.py's count exact
        self.backoffs: dict[int | None, BoundedBackoff] = {}  # per shard (None: the unsharded session)

    def backoff(self, shard_id: int | None) -> BoundedBackoff:
        """The reconnect backoff of one session, bounded by the adapter's ``reconnect_cap``."""
        if shard_id not in self.backoffs:
            self.backoffs[shard_id] = BoundedBackoff(self.adapter.reconnect_cap)
        return self.backoffs[shard_id]

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())

    async def on_ready(self) -> None:
        log.info("connected to Discord as %s (%d guilds)", self.user, len(self.guilds))
        self.adapter.gateway_up = True
        self.adapter.service.start()  # the clock; idempotent on reconnects
        self.backoff(self.shard_id).reset()

    async def on_resumed(self) -> None:
        self.adapter.gateway_up = True
        self.backoff(self.shard_id).reset()

    async def on_disconnect(self) -> None:
        self.adapter.gateway_up = False  # the health check says so until the gateway is back

    async def on_message(self, message: discord.Message) -> None:
        await self.adapter.on_message(message)

    async def close(self) -> None:
        await self.adapter.service.stop()
        self.adapter.tracked.close()
        await super().close()


class ArbitreClient(AdapterHooks):
    """The unsharded client: one gateway session gets every server the bot is in."""

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's gateway loop, its waits between attempts bounded (see ``discord_reconnect``)."""
        await connect_bounded(self, self.backoff(None), reconnect=reconnect, timeout=self.adapter.connect_timeout)


class ShardedArbitreClient(AdapterHooks, discord.AutoShardedClient):
    """The sharded client: one gateway session per shard of ``shards``, each getting its own
    servers' events (and shard 0 the DMs); replies go out through the REST API like the plain one's."""

    def __init__(self, adapter: "DiscordAdapter", intents: discord.Intents, shards: ShardRange, **options: Any) -> None:
        super().__init__(adapter, intents, shard_ids=list(shards.ids), shard_count=shards.count, **options)
        self.shard_range = shards

    async def launch_shard(self, gateway: Any, shard_id: int, *, initial: bool = False) -> None:
        """discord.py's, then the shard's reconnect backoff bounded like the unsharded session's."""
        await super().launch_shard(gateway, shard_id, initial=initial)
        shard = self.get_shard(shard_id)
        if shard is not None:
            shard._parent._backoff = self.backoff(shard_id)  # discord.py 2.7: each Shard keeps its own

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %d ready", shard_id, self.shard_range.count)
        self.backoff(shard_id).reset()

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.backoff(shard_id).reset()


class DiscordAdapter:
    """Discord <-> command layer. ``adapter.client`` is the discord.py client to run."""

    def __init__(
        self,
        referee: Referee,
        *,
        message_content: bool = False,
        edit_interval: float = 5.0,
        live_interval: float = LIVE_INTERVAL,
        tick_seconds: float = 0.5,
        clock: Callable[[], float] = time.time,
        shards: ShardRange | None = None,
        metrics: Metrics | None = None,
        pace_clock: Callable[[], float] = time.monotonic,
        reconnect_cap: float = RECONNECT_CAP,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        """``clock``: Unix time as Discord counts it, for the age of interaction tokens; ``pace_clock``:
        the time Discord's rate limits run on, which spaces the edits of a message; ``shards``: the
        shards this process runs (discord.py's sharded client), None for one unsharded session;
        ``metrics``: where commands, 429s and the gateway's connection are reported (None: metrics off);
        ``live_interval``: seconds between two edits of a live line (the counter, the join notice);
        ``reconnect_cap``: the longest wait between two attempts to reach the gateway, ``connect_timeout``
        the longest one attempt takes (so the bot is back soon after Discord, see ``discord_reconnect``)."""
        self.referee = referee
        self.message_content = message_content
        self.edit_interval = edit_interval
        self.live_interval = live_interval
        self.clock = clock
        self.pace_clock = pace_clock
        self.service = RefereeService(referee, self.deliver, tick_seconds=tick_seconds, metrics=metrics)
        self.shards = shards
        self.reconnect_cap = reconnect_cap
        self.connect_timeout = connect_timeout
        self.gateway_up = False  # between a ready (or resumed) and a disconnect
        traced: dict[str, Any] = {"http_trace": rate_limit_trace(metrics, "discord")} if metrics is not None else {}
        self.client: AdapterHooks = (
            ArbitreClient(self, intents_for(message_content), **traced)
            if shards is None
            else ShardedArbitreClient(self, intents_for(message_content), shards, **traced)
        )
        if metrics is not None:
            metrics.watch(referee, self.connection)
        self.tree = self.client.tree
        self.tracked = TrackedMessages()
        self.arrivals = ArrivalOrder()
        self.refused_channels: dict[int, int] = {}  # channel id -> the error code that refused a post
        self._fallback_sent: dict[tuple[str, str], float] = {}
        for spec in COMMANDS:
            self.tree.add_command(build_command(self, spec))

    # -- incoming ---------------------------------------------------------------------

    @staticmethod
    def interaction_admin(interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            return True  # a DM with the bot is the user's own channel
        permissions = interaction.permissions
        return permissions.administrator or permissions.manage_guild

    @staticmethod
    async def names_for_mentions(text: str, guild: discord.Guild | None, known: dict[int, str]) -> str:
        """``<@123>`` -> the member's display name (players are known by name to the command layer).

        Names come from ``known`` (a message's own mentions), then the member cache, then one
        gateway request for at most :data:`MENTION_LOOKUPS` members (never one REST call per
        mention); a mention left unresolved stays as typed."""
        ids = list(dict.fromkeys(int(found) for found in _MENTION.findall(text)))  # in order, once
        if not ids:
            return text
        names = dict(known)
        if guild is not None:
            for user_id in ids:
                member = guild.get_member(user_id) if user_id not in names else None
                if member is not None:
                    names[user_id] = member.display_name
            wanted = [user_id for user_id in ids if user_id not in names][:MENTION_LOOKUPS]
            if wanted:
                names.update(await DiscordAdapter.member_names(guild, wanted))
        return _MENTION.sub(lambda match: names.get(int(match.group(1)), match.group(0)), text)

    @staticmethod
    async def member_names(guild: discord.Guild, user_ids: list[int]) -> dict[int, str]:
        """Display names of some members, asked in one gateway request (Request Guild Members by id,
        no privileged intent needed); {} if the gateway cannot answer in time."""
        try:
            members = await asyncio.wait_for(
                guild.query_members(user_ids=user_ids, limit=max(5, len(user_ids)), cache=False),
                MENTION_LOOKUP_TIMEOUT,
            )
        except (TimeoutError, discord.ClientException, RuntimeError, ValueError) as error:
            log.info("could not look up %d mentioned members of guild %s: %r", len(user_ids), guild.id, error)
            return {}
        return {member.id: member.display_name for member in members}

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, args: str) -> None:
        arrival = self.arrivals.take(interaction.user.id)  # before any await: the account's commands keep order
        try:
            await self._on_slash_in_turn(interaction, spec, args, arrival)
        finally:
            arrival.finish()

    async def _on_slash_in_turn(
        self, interaction: discord.Interaction, spec: CommandSpec, args: str, arrival: Turn
    ) -> None:
        channel, user = f"discord:{interaction.channel_id}", f"discord:{interaction.user.id}"
        turn = InteractionTurn(interaction, channel, user, self.clock)
        if spec.slow:  # declared with the command: answer "thinking..." at once
            await turn.defer(ephemeral=spec.private)
        watchdog = asyncio.get_running_loop().create_task(turn.defer_after(DEFER_AFTER))
        args = await self.names_for_mentions(args, interaction.guild, {})
        incoming = Incoming(
            channel=channel,
            user=user,
            name=interaction.user.display_name,
            text=f"/{spec.name} {args}".strip(),
            private=True,  # the answer can be ephemeral
            admin=self.interaction_admin(interaction),
            received=platform_received(self.referee.now(), self.clock(), interaction.created_at.timestamp()),
        )
        token = _TURN.set(turn)
        try:
            async with arrival:
                await self.service.handle(incoming)
        finally:
            _TURN.reset(token)
            if not turn.watchdog_fired:
                watchdog.cancel()
        await turn.finish()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.content:
            return
        in_dm = message.guild is None
        prefixes = ("!", "/") if in_dm else ("!",)
        if not message.content.lstrip().startswith(prefixes):
            return
        if not in_dm and not self.message_content:
            return
        command = read_command(message.content)
        if command is None or find(command.name) is None:
            return  # another bot's "!" command, or chat
        arrival = self.arrivals.take(message.author.id)  # before any await: the account's commands keep order
        try:
            await self._on_message_in_turn(message, in_dm, arrival)
        finally:
            arrival.finish()

    async def _on_message_in_turn(self, message: discord.Message, in_dm: bool, arrival: Turn) -> None:
        admin = in_dm
        if not in_dm and isinstance(message.author, discord.Member):
            permissions = message.channel.permissions_for(message.author)
            admin = permissions.administrator or permissions.manage_guild
        incoming = Incoming(
            channel=f"discord:{message.channel.id}",
            user=f"discord:{message.author.id}",
            name=message.author.display_name,
            text=await self.names_for_mentions(
                message.content.strip(), message.guild, {m.id: m.display_name for m in message.mentions}
            ),
            private=in_dm,
            admin=admin,
            received=platform_received(self.referee.now(), self.clock(), message.created_at.timestamp()),
        )
        token = _TURN.set(_MessageTurn(message, incoming))
        try:
            async with arrival:
                await self.service.handle(incoming)
        finally:
            _TURN.reset(token)

    async def referee_of(self, channel: str) -> tuple[str | None, str]:
        """The referee of the channel's active game (``"discord:ID"``, None without a game) and the
        channel's language (read only)."""

        def read() -> tuple[str | None, str]:
            storage = self.referee.storage
            with storage.transaction():
                record = storage.active_game(channel)
                return (record.referee if record is not None else None), storage.channel(channel).language

        try:
            return await asyncio.to_thread(read)
        except Exception:
            log.exception("could not read the referee of %s", channel)
            return None, DEFAULT_LANGUAGE

    async def language_of(self, channel: str) -> str:
        """The channel's language (the default one when storage cannot say)."""
        try:
            return await asyncio.to_thread(lambda: self.referee.storage.channel(channel).language)
        except Exception:
            log.exception("could not read the language of %s", channel)
            return DEFAULT_LANGUAGE

    async def players(self, channel: str) -> list[str]:
        """Player names of the channel's game (for autocompletion; read only)."""

        def read() -> list[str]:
            storage = self.referee.storage
            with storage.transaction():
                record = storage.active_game(channel)
                if record is None:
                    return []
                names = list(record.setup.players)
                return names or [name for _, name in storage.players(record.id)]

        try:
            return await asyncio.to_thread(read)
        except Exception:
            log.exception("could not read the players of %s", channel)
            return []

    # -- outgoing ---------------------------------------------------------------------

    def render(self, reply: Reply) -> str:
        text = reply.text
        if reply.deadline is not None:
            text += f"\n⏳ <t:{int(reply.deadline)}:R>"  # a countdown every client draws itself
        return text

    async def deliver(self, replies: list[Reply]) -> list[Undelivered]:
        """Send replies: through the interaction being answered, to channels, or by DM. Never raises;
        the replies Discord did not take are returned, with why and whether for good (the outbox tries
        the others again)."""
        turn = _TURN.get()
        if isinstance(turn, InteractionTurn):
            posts = [Post(reply, (reply,)) for reply in turn.order(replies)]
        else:  # the clock's and the outbox's: paced for the channel's bucket (bot.adapters.discord_pacing)
            posts = merged(first_things_first(replies, lambda r: self.tracked.get(r.edit_key) is not None), TEXT_LIMIT)
        return await deliver_posts(posts, lambda post, edits: self._deliver_one(post, turn, edits))

    async def _deliver_one(self, post: Post, turn: InteractionTurn | _MessageTurn | None, edits: list[Edit]) -> None:
        """Send ``post``, or, for an edit of a message already sent, add it to ``edits``."""
        reply = post.reply
        text = self.render(reply)
        tracked = self.tracked.get(reply.edit_key)
        if tracked is not None:
            tracked.deadline = reply.deadline
            if reply.live:  # a live line never waits: its timer applies the latest text (bot.chat.Reply)
                tracked.offer(text)
            else:
                edits.append((post, tracked.update(text, urgent=reply.deadline is None, owed=True)))
            return
        chunks = split_text(text, TEXT_LIMIT)
        if not chunks and reply.image is None and reply.document is None:
            return
        image = self._file_maker(reply)
        want = reply.edit_key is not None
        messages: list[Any] = []
        channel_id = platform_id(reply.channel or (turn.channel if turn else None), "discord")
        ephemeral = turn.visibility(reply) if isinstance(turn, InteractionTurn) else None
        token_until: float | None = None
        if isinstance(turn, InteractionTurn) and ephemeral is not None and turn.token_alive():
            try:
                messages = await turn.send(chunks, image, ephemeral, want)
                token_until = turn.token_until
            except FAILED as error:  # expired interaction, a lost request...: go direct
                log.warning("interaction answer failed (%r); sending directly", error)
                messages = []
                if ephemeral:
                    messages = await self._send_private(reply, chunks, image, channel_id)
                elif channel_id is not None:
                    messages = await self._send_channel(channel_id, chunks, image)
        elif reply.to_user is not None:
            messages = await self._send_private(reply, chunks, image, channel_id)
        elif channel_id is not None:
            messages = await self._send_channel(channel_id, chunks, image)
        else:
            log.warning("reply with no channel dropped: %s", reply)
        if reply.edit_key is not None and messages and messages[0] is not None:
            self._track(reply, text, messages[0], private=reply.to_user is not None, token_until=token_until)

    @staticmethod
    def _file_maker(reply: Reply) -> Callable[[], discord.File] | None:
        if reply.image is not None:
            data, name = reply.image, reply.image_name or "board.png"
        elif reply.document is not None:  # an export goes as a file attached to its text
            data, name = reply.document, reply.document_name or "export.txt"
        else:
            return None
        return lambda: discord.File(io.BytesIO(data), filename=name)

    async def _send_channel(
        self, channel_id: int, chunks: Sequence[str], image: Callable[[], discord.File] | None
    ) -> list[discord.Message]:
        """Post in a channel; a channel that refuses the bot is reported (see :meth:`_channel_refused`)."""
        channel = self.client.get_partial_messageable(channel_id)
        try:
            sent = await self._send_to(channel, chunks, image)
        except discord.Forbidden as error:
            if error.code in CHANNEL_REFUSALS:
                await self._channel_refused(channel_id, error)
            raise  # not delivered: the outbox tries again (once the permissions are back, it goes through)
        self._channel_accepted(channel_id)
        return sent

    async def _channel_refused(self, channel_id: int, error: discord.Forbidden) -> None:
        """Log a channel refusing the bot's posts and tell the referee of its game by DM, once
        until a post there succeeds again."""
        if channel_id in self.refused_channels:
            log.info("channel %s still refuses the bot's posts (%s)", channel_id, error.code)
            return
        self.refused_channels[channel_id] = error.code
        referee, lang = await self.referee_of(f"discord:{channel_id}")
        log.warning(
            "channel %s refuses the bot's posts (%s %s); telling the game's referee: %s",
            channel_id,
            error.code,
            error.text,
            referee or "no game, nobody",
        )
        referee_id = platform_id(referee, "discord")
        if referee_id is None:
            return
        missing = say(lang, CHANNEL_REFUSALS[error.code])
        text = say(lang, "discord_channel_refused", channel=channel_id, missing=missing)
        try:
            user = self.client.get_user(referee_id) or await self.client.fetch_user(referee_id)
            await user.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as dm_error:
            log.warning("could not tell %s that channel %s refuses the bot: %s", referee, channel_id, dm_error)

    def _channel_accepted(self, channel_id: int) -> None:
        if self.refused_channels.pop(channel_id, None) is not None:
            log.info("channel %s accepts the bot's posts again", channel_id)

    @staticmethod
    async def _send_to(
        target: discord.abc.Messageable, chunks: Sequence[str], image: Callable[[], discord.File] | None
    ) -> list[discord.Message]:
        sent = []
        pieces: list[str | None] = list(chunks) or [None]
        for index, chunk in enumerate(pieces):
            extra: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
            if index == 0 and image is not None:
                extra["file"] = image()
            sent.append(await target.send(chunk, **extra))
        return sent

    async def _send_private(
        self, reply: Reply, chunks: Sequence[str], image: Callable[[], discord.File] | None, channel_id: int | None
    ) -> list[discord.Message]:
        """A DM; if the user does not accept DMs, a short public note (never the private text)."""
        user_id = platform_id(reply.to_user, "discord")
        if user_id is None:
            log.warning("private reply to a non-Discord user dropped: %s", reply.to_user)
            return []
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            return await self._send_to(user, chunks, image)
        except discord.Forbidden as error:
            if error.code == 40003:  # "You are opening direct messages too fast": the DMs are open, the outbox
                raise  # tries again later (a 403 is transient, bot.adapters.refusals): no closed-DMs note
            log.info("DMs closed for %s (%s)", reply.to_user, error.code)
        except discord.NotFound:
            log.warning("unknown Discord user %s", reply.to_user)
            return []
        if channel_id is not None and reply.to_user is not None:
            await self._dms_closed(reply.to_user, user_id, channel_id)
        return []

    async def _dms_closed(self, user: str, user_id: int, channel_id: int) -> None:
        key = (user, str(channel_id))
        now = time.monotonic()
        if now - self._fallback_sent.get(key, -3600.0) < 60:
            return  # one note a minute is plenty
        self._fallback_sent[key] = now
        try:
            lang = await self.language_of(f"discord:{channel_id}")
            text = say(lang, "discord_dms_closed", mention=f"<@{user_id}>")
            await self._send_channel(channel_id, [text], None)
        except discord.HTTPException as error:
            log.warning("could not post the closed-DMs note: %s", error)

    def _track(self, reply: Reply, text: str, message: Any, *, private: bool, token_until: float | None) -> None:
        """Keep a sent message for the replies that edit it. ``token_until``: set when it was sent
        through an interaction, whose token may edit it until then; later, the channel does."""
        client = self.client
        holder = {"message": message, "token_until": token_until}

        async def edit(new_text: str) -> None:
            content = split_text(new_text, TEXT_LIMIT)[:1] or ["…"]
            current = holder["message"]
            until = holder["token_until"]
            if until is None or self.clock() < until:
                try:
                    await current.edit(content=content[0], allowed_mentions=NO_MENTIONS)
                    return
                except discord.HTTPException as error:
                    if private:  # an ephemeral message cannot be reached any other way
                        log.warning("could not edit a private message: %s", error)
                        return
                    log.info("editing through the interaction failed (%s); trying the channel", error)
            elif private:
                log.info("an ephemeral message outlived its interaction token: no more edits")
                return
            channel_id = current.channel.id
            channel = client.get_partial_messageable(channel_id)
            try:
                await channel.get_partial_message(current.id).edit(content=content[0], allowed_mentions=NO_MENTIONS)
            except discord.NotFound:
                posted = await self._send_channel(channel_id, content[:1], None)
                if posted:
                    holder["message"], holder["token_until"] = posted[0], None
                return
            except discord.Forbidden as error:
                if error.code not in CHANNEL_REFUSALS:
                    raise
                await self._channel_refused(channel_id, error)
                return
            self._channel_accepted(channel_id)

        interval = self.live_interval if reply.live else self.edit_interval
        item = TrackedMessage(edit, text, interval, private=private, clock=self.pace_clock)
        item.base, item.deadline = reply.text, reply.deadline
        assert reply.edit_key is not None
        self.tracked.add(reply.edit_key, item)

    # -- running ----------------------------------------------------------------------

    def connection(self) -> str | None:
        """None while the gateway is connected (the health check); else why not."""
        if self.client.is_closed():
            return "the Discord client is closed"
        return None if self.gateway_up else "the Discord gateway is not connected"

    async def sync(self, guild_id: int | None = None) -> list[app_commands.AppCommand]:
        """Register the slash commands with Discord: in one guild (instant) or globally (up to an hour).

        The client must be logged in (``await adapter.client.login(token)``).
        """
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()
