"""Discord adapter (discord.py 2.7): slash commands and ``!`` prefix commands in, replies out.

A thin translator. Every command of ``bot.commands.registry`` becomes a slash command
(English name, French localisation from its alias) with one free-text ``args``
option that the command layer parses; ``!score H8 VAGUE`` works too when the
privileged message-content intent is enabled (and in DMs, where no intent is
needed). Replies go back through the interaction when there is one (ephemeral
when private), otherwise to the channel, or by DM for private replies, with a
polite public fallback when the user's DMs are closed.

On Discord's current paths: a deferred "thinking..." answer is completed by editing the
original response; once an interaction token has lived its 15 minutes, nothing goes through
it any more (later edits of its messages go through the channel). A channel that refuses the
bot's posts (missing access or permissions) is logged and reported once, by DM, to the
referee of the channel's game, until a post there succeeds again.

Nothing here knows the game: moves are recorded by the command layer before any
Discord call, so a failed send never loses a move.
"""

import asyncio
import contextvars
import io
import logging
import re
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from ..chat import Incoming, Reply, read_command
from ..commands import COMMANDS, CommandSpec, find
from ..commands.general import setting_named, setting_names, setting_values
from ..lexicons import BUNDLED
from ..messages import say
from ..metrics import Metrics, rate_limit_trace
from ..outbox import Failure, Undelivered
from ..referee import Referee
from ..service import RefereeService
from .common import (
    DEFAULT_LANGUAGE,
    TrackedMessage,
    TrackedMessages,
    language_of_locale,
    platform_id,
    platform_name,
    platform_word,
    short_text,
    split_text,
)
from .discord_pacing import Post, first_things_first, merged
from .discord_shards import ShardRange
from .ordering import ArrivalOrder, Turn
from .refusals import discord_refusal

log = logging.getLogger("arbitre.discord")

TEXT_LIMIT = 2000
DESCRIPTION_LIMIT = 100
CHOICES_LIMIT = 25
NO_MENTIONS = discord.AllowedMentions.none()
# Posts and edits in one channel (or through one interaction token) share a bucket of about 5 per 5 s
# (PLATFORMS.md): a live line (the counter, the join notice) takes at most one edit of it per 5 s.
LIVE_INTERVAL = 5.0

# Any other command is deferred if it has not answered after this many seconds (Discord allows 3).
DEFER_AFTER = 2.0

# Interactions > Receiving and Responding: an interaction token is valid for 15 minutes. The
# adapter stops using it a little earlier, so a request in flight never meets the deadline.
INTERACTION_TOKEN_SECONDS = 15 * 60
TOKEN_MARGIN_SECONDS = 30.0
# JSON error codes of a channel refusing the bot (Missing Access, Missing Permissions) and the
# catalog message naming the permissions each one means is missing.
CHANNEL_REFUSALS = {50001: "discord_missing_access", 50013: "discord_missing_permissions"}
NOTHING_TO_SAY = "✓"
_MENTION = re.compile(r"<@!?([0-9]{1,20})>")  # a snowflake fits in 20 ASCII digits
MENTION_LOOKUPS = 25  # mentions of one message resolved at most; the others stay as typed
MENTION_LOOKUP_TIMEOUT = 5.0  # seconds the gateway has to answer the one members request


def usage_args(usage: str) -> str:
    """``/score REF WORD [claimed score]`` -> ``REF WORD [claimed score]``."""
    parts = usage.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


# --- slash command definitions ------------------------------------------------------------


def localized(spec: CommandSpec, part: str, lang: str) -> str:
    """A part of a slash command in ``lang``, from the catalogs, within Discord's limits: its ``name``, its
    ``description``, its option's ``option`` name or ``args`` description."""
    if part == "name":
        return platform_name(spec, lang)
    if part == "option":
        return platform_word(say(lang, "option_args"), "args")
    if part == "args":
        return short_text(usage_args(spec.usage(lang)), DESCRIPTION_LIMIT)
    return short_text(spec.menu(lang), DESCRIPTION_LIMIT)


def _text(spec: CommandSpec, part: str) -> app_commands.locale_str:
    """The default (English) text of a part, carrying what the translator needs for other languages."""
    return app_commands.locale_str(localized(spec, part, DEFAULT_LANGUAGE), command=spec.name, part=part)


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands in each Discord locale with a catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = language_of_locale(locale.value)
        name = string.extras.get("command")
        if lang is None or lang == DEFAULT_LANGUAGE or not isinstance(name, str):
            return None
        spec = find(name)
        return localized(spec, str(string.extras.get("part", "")), lang) if spec is not None else None


SETTINGS_SUGGESTED = ("language", "edition", "notation", "rules", "lexicon", "minutes")
SUGGESTED_MINUTES = ("1", "2", "3")


def suggested_values(setting: str) -> tuple[str, ...]:
    if setting == "minutes":
        return SUGGESTED_MINUTES
    if setting == "lexicon":
        return BUNDLED
    return setting_values().get(setting, ())


def settings_choices(current: str, lang: str) -> list[str]:
    """``/settings`` suggestions for what the user typed so far: ``key value`` pairs, the keys in the
    user's language first, then (once something is typed) in the other languages."""
    typed = " ".join(current.lower().split())
    keys = [setting_names(setting, lang)[0] for setting in SETTINGS_SUGGESTED]
    if typed:
        others = [name for setting in SETTINGS_SUGGESTED for name in setting_names(setting, lang)[1:]]
        keys += [k for k in others if k not in keys]
    out: list[str] = []
    for key in keys:
        canonical = setting_named(key) or key
        for value in suggested_values(canonical):
            option = f"{key} {value}"
            if option.startswith(typed) or (typed and " " not in typed and key.startswith(typed)):
                out.append(option)
    return out[:CHOICES_LIMIT]


def penalty_choices(current: str, players: Sequence[str]) -> list[str]:
    """``/penalty`` suggestions: the game's players matching what was typed, with the points."""
    words = current.split()
    points = words.pop() if words and words[-1].lstrip("-").isdigit() else ""
    typed = " ".join(words).lstrip("@").lower()
    names = [p for p in players if p.lower().startswith(typed)] or [p for p in players if typed in p.lower()]
    return [f"{name} {points}".strip() for name in names][:CHOICES_LIMIT]


def _slash_callback(adapter: "DiscordAdapter", spec: CommandSpec, takes_args: bool, required: bool) -> Any:
    """The coroutine discord.py calls for one command (its signature declares the option)."""
    if not takes_args:

        async def run_plain(interaction: discord.Interaction) -> None:
            await adapter.on_slash(interaction, spec, "")

        return run_plain
    if required:

        async def run_required(interaction: discord.Interaction, args: str) -> None:
            await adapter.on_slash(interaction, spec, args)

        return run_required

    async def run_optional(interaction: discord.Interaction, args: str | None = None) -> None:
        await adapter.on_slash(interaction, spec, args or "")

    return run_optional


def build_command(adapter: "DiscordAdapter", spec: CommandSpec) -> app_commands.Command[Any, Any, Any]:
    """The slash command for one command of the table."""
    arguments = usage_args(spec.usage(DEFAULT_LANGUAGE))
    takes_args = bool(arguments)
    required = bool(re.sub(r"\[[^\]]*\]", "", arguments).strip())  # a word outside [...] must be given
    callback = _slash_callback(adapter, spec, takes_args, required)
    if takes_args:
        callback = app_commands.rename(args=_text(spec, "option"))(callback)
        callback = app_commands.describe(args=_text(spec, "args"))(callback)
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name=app_commands.locale_str(spec.name, command=spec.name, part="name"),
        description=_text(spec, "description"),
        callback=callback,
    )
    if spec.name == "settings":

        async def complete_settings(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            lang = language_of_locale(str(interaction.locale)) or DEFAULT_LANGUAGE
            return [app_commands.Choice(name=c, value=c) for c in settings_choices(current, lang)]

        command.autocomplete("args")(complete_settings)
    elif spec.name == "penalty":

        async def complete_penalty(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            players = await adapter.players(f"discord:{interaction.channel_id}")
            return [app_commands.Choice(name=c[:100], value=c[:100]) for c in penalty_choices(current, players)]

        command.autocomplete("args")(complete_penalty)
    return command


# --- routing replies --------------------------------------------------------------------


class _InteractionTurn:
    """One slash command being answered: its interaction, and what was said through it so far."""

    def __init__(
        self, interaction: discord.Interaction, channel: str, user: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.interaction = interaction
        self.channel = channel
        self.user = user
        self.clock = clock
        self.lock = asyncio.Lock()
        self.deferred: bool | None = None  # the defer's ``ephemeral`` flag once deferred
        self.filled = False  # the deferred "thinking..." message has been used (or removed)
        self.watchdog_fired = False

    @property
    def token_until(self) -> float:
        """When the adapter stops using this interaction's token (its 15 minutes, less a margin)."""
        return token_deadline(self.interaction)

    def token_alive(self) -> bool:
        return self.clock() < self.token_until

    def visibility(self, reply: Reply) -> bool | None:
        """``ephemeral`` for a reply answered through this interaction; None if it goes elsewhere."""
        if reply.to_user is not None:
            return True if reply.to_user == self.user else None
        return False if reply.channel in (None, self.channel) else None

    def order(self, replies: Sequence[Reply]) -> list[Reply]:
        """The replies, one that fits the deferred placeholder first (so nothing private fills a
        public placeholder, and the other way round)."""
        out = list(replies)
        if self.deferred is None or self.filled:
            return out
        for index, reply in enumerate(out):
            if self.visibility(reply) is self.deferred:
                out.insert(0, out.pop(index))
                break
        return out

    async def defer(self, ephemeral: bool) -> None:
        async with self.lock:
            if self.interaction.response.is_done():
                return
            try:
                await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
                self.deferred = ephemeral
            except discord.HTTPException as error:
                log.warning(
                    "could not defer /%s: %s", self.interaction.command and self.interaction.command.name, error
                )

    async def defer_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.watchdog_fired = True  # no cancelling from here: a request may be under way
        await self.defer(ephemeral=False)

    async def _clear_placeholder(self) -> None:
        """Remove the "thinking..." message (fill it, then delete it: works on every client)."""
        self.filled = True
        try:
            await self.interaction.edit_original_response(content="…", allowed_mentions=NO_MENTIONS)
            await self.interaction.delete_original_response()
        except discord.HTTPException as error:
            log.warning("could not remove a deferred response: %s", error)

    async def send(
        self, chunks: Sequence[str], image: Callable[[], discord.File] | None, ephemeral: bool, want_message: bool
    ) -> list[Any]:
        """Send through the interaction (response or followups); the messages, for later edits."""
        sent: list[Any] = []
        async with self.lock:
            response = self.interaction.response
            pieces: list[str | None] = list(chunks) or [None]
            for index, chunk in enumerate(pieces):
                extra: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
                if index == 0 and image is not None:
                    extra["file"] = image()
                if not response.is_done():
                    callback = await response.send_message(chunk, ephemeral=ephemeral, **extra)
                    message: Any = (
                        callback.resource if isinstance(callback.resource, discord.InteractionMessage) else None
                    )
                    if message is None and want_message:
                        message = await self.interaction.original_response()
                    sent.append(message)
                    continue
                if self.deferred is not None and not self.filled:
                    if ephemeral == self.deferred:
                        # The deferred "thinking..." message is the original response: edit it (a
                        # followup filling it is deprecated).
                        if "file" in extra:
                            extra["attachments"] = [extra.pop("file")]
                        message = await self.interaction.edit_original_response(
                            content=chunk if chunk is not None else discord.utils.MISSING, **extra
                        )
                        self.filled = True
                        sent.append(message)
                        continue
                    await self._clear_placeholder()
                message = await self.interaction.followup.send(
                    chunk if chunk is not None else discord.utils.MISSING, ephemeral=ephemeral, wait=True, **extra
                )
                self.filled = True
                sent.append(message)
        return sent

    async def finish(self) -> None:
        """Leave no interaction unanswered and no "thinking..." message behind."""
        async with self.lock:
            try:
                if self.deferred is not None and not self.filled:
                    await self._clear_placeholder()
                elif not self.interaction.response.is_done():
                    await self.interaction.response.send_message(NOTHING_TO_SAY, ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not close an interaction: %s", error)


def token_deadline(interaction: discord.Interaction) -> float:
    """The Unix time after which the adapter no longer uses ``interaction``'s token."""
    return interaction.created_at.timestamp() + INTERACTION_TOKEN_SECONDS - TOKEN_MARGIN_SECONDS


class _MessageTurn:
    """One ``!`` command being answered (no interaction: channel messages and DMs)."""

    def __init__(self, message: discord.Message, incoming: Incoming) -> None:
        self.message = message
        self.channel = incoming.channel
        self.user = incoming.user


_TURN: contextvars.ContextVar[_InteractionTurn | _MessageTurn | None] = contextvars.ContextVar(
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

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())

    async def on_ready(self) -> None:
        log.info("connected to Discord as %s (%d guilds)", self.user, len(self.guilds))
        self.adapter.gateway_up = True
        self.adapter.service.start()  # the clock; idempotent on reconnects

    async def on_resumed(self) -> None:
        self.adapter.gateway_up = True

    async def on_disconnect(self) -> None:
        self.adapter.gateway_up = False  # the health check says so until the gateway is back

    async def on_message(self, message: discord.Message) -> None:
        await self.adapter.on_message(message)

    async def close(self) -> None:
        await self.adapter.service.stop()
        self.adapter.tracked.close()
        self.adapter.drop_edits()
        await super().close()


class ArbitreClient(AdapterHooks):
    """The unsharded client: one gateway session gets every server the bot is in."""


class ShardedArbitreClient(AdapterHooks, discord.AutoShardedClient):
    """The sharded client: one gateway session per shard of ``shards``, each getting its own
    servers' events (and shard 0 the DMs); replies go out through the REST API like the plain one's."""

    def __init__(
        self, adapter: "DiscordAdapter", intents: discord.Intents, shards: ShardRange, **options: Any
    ) -> None:
        super().__init__(adapter, intents, shard_ids=list(shards.ids), shard_count=shards.count, **options)
        self.shard_range = shards

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %d ready", shard_id, self.shard_range.count)


def intents_for(message_content: bool) -> discord.Intents:
    """Guilds and DMs; guild messages and their content only for ``!`` commands (privileged)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    intents.guild_messages = message_content
    intents.message_content = message_content
    return intents


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
    ) -> None:
        """``clock``: Unix time as Discord counts it, for the age of interaction tokens; ``pace_clock``:
        the time Discord's rate limits run on, which spaces the edits of a message; ``shards``: the
        shards this process runs (discord.py's sharded client), None for one unsharded session;
        ``metrics``: where commands, 429s and the gateway's connection are reported (None: metrics off);
        ``live_interval``: seconds between two edits of a live line (the counter, the join notice)."""
        self.referee = referee
        self.message_content = message_content
        self.edit_interval = edit_interval
        self.live_interval = live_interval
        self.clock = clock
        self.pace_clock = pace_clock
        self.service = RefereeService(referee, self.deliver, tick_seconds=tick_seconds, metrics=metrics)
        self.shards = shards
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
        self._edits: set[asyncio.Task[None]] = set()  # edits under way, off the delivery path
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
        turn = _InteractionTurn(interaction, channel, user, self.clock)
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
        if isinstance(turn, _InteractionTurn):
            posts = [Post(reply, (reply,)) for reply in turn.order(replies)]
        else:  # the clock's and the outbox's: paced for the channel's bucket (bot.adapters.discord_pacing)
            posts = merged(first_things_first(replies, lambda r: self.tracked.get(r.edit_key) is not None), TEXT_LIMIT)
        failed: list[Undelivered] = []
        edits: list[Coroutine[Any, Any, None]] = []
        try:
            for post in posts:
                try:
                    await self._deliver_one(post.reply, turn, edits)
                except Exception as error:
                    refusal = discord_refusal(post.reply, error)
                    if refusal.failure is Failure.TRANSIENT:
                        log.warning("reply not delivered, to be tried again: %s (%r)", post.reply, error)
                    failed.extend(replace(refusal, reply=reply) for reply in post.carries)
        finally:
            for edit in edits:  # after the posts: if an edit takes a bucket's last request, it waits alone
                self._in_background(edit)
        return failed

    async def _deliver_one(
        self, reply: Reply, turn: _InteractionTurn | _MessageTurn | None, edits: list[Coroutine[Any, Any, None]]
    ) -> None:
        """Send ``reply``, or, for an edit of a message already sent, add it to ``edits``."""
        text = self.render(reply)
        tracked = self.tracked.get(reply.edit_key)
        if tracked is not None:
            tracked.deadline = reply.deadline
            # An edit never holds up what follows (draws, results): the message's bucket (its channel
            # or the interaction token it was sent through) may be spent for seconds. Each message
            # applies its own edits in order, the latest text of a live line winning.
            if reply.live:
                tracked.offer(text)
            else:
                edits.append(tracked.update(text, urgent=reply.deadline is None))
            return
        chunks = split_text(text, TEXT_LIMIT)
        if not chunks and reply.image is None and reply.document is None:
            return
        image = self._file_maker(reply)
        want = reply.edit_key is not None
        messages: list[Any] = []
        channel_id = platform_id(reply.channel or (turn.channel if turn else None), "discord")
        ephemeral = turn.visibility(reply) if isinstance(turn, _InteractionTurn) else None
        token_until: float | None = None
        if isinstance(turn, _InteractionTurn) and ephemeral is not None and turn.token_alive():
            try:
                messages = await turn.send(chunks, image, ephemeral, want)
                token_until = turn.token_until
            except discord.HTTPException as error:  # expired interaction, ...: go direct
                log.warning("interaction answer failed (%s); sending directly", error)
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

    def drop_edits(self) -> None:
        """Give up the edits still under way (the client is closing)."""
        for task in list(self._edits):
            task.cancel()

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

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
