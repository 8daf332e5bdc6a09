"""Discord adapter (discord.py 2.7): slash commands and ``!`` prefix commands in, replies out.

A thin translator. Every command of ``bot.commands.registry`` becomes a slash command (English name,
French localisation from its alias) whose filled form is written back into the typed line the command layer
parses (``.forms``; a command a client sends as registered before its form is read as typed: ``.former``);
``!score H8 VAGUE`` works too when the privileged message-content intent is enabled (and in DMs, where no
intent is needed). Replies go back through the interaction when there is one (ephemeral when private),
otherwise to the channel, or by DM for private replies, with a polite public fallback when DMs are closed.

A deferred "thinking..." answer is completed by editing the original response; once an interaction
token has lived its 15 minutes, later edits of its messages go through the channel. A channel that
refuses the bot's posts (missing access or permissions) is logged and reported once, by DM, to the
referee of the channel's game, until a post there succeeds again.

Nothing here knows the game: moves are recorded by the command layer before any Discord call, so a
failed send never loses a move. The slash commands are defined in ``.commands``, an interaction is
answered by ``.interactions`` (a lost first answer included), and ``.reconnect`` bounds the
waits between gateway reconnections.
"""

import asyncio
import io
import logging
import re
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord
from discord import app_commands

from ...actions import Action
from ...buttons import form_for
from ...chat import Incoming, Reply, read_command
from ...commands import CommandSpec, find
from ...commands.options import Suggest
from ...games.installed import COMMANDS
from ...messages import language_of_locale, say
from ...operations.metrics import Metrics, rate_limit_trace
from ...outbox import Undelivered
from ...referee import Referee
from ..base import AdapterBase, Capabilities, Countdown, Post, PrivateReplies, one_each
from ..names import DEFAULT_LANGUAGE
from ..ordering import Turn, first_things_first
from ..tracking import TrackedMessage
from .client import AdapterHooks, ArbitreClient, ShardedArbitreClient
from .commands import build_command, intents_for
from .components import ASK, DISMISS, FORM, MENU, RUN, answers, confirm_view, modal_for, pressed_label, view_for
from .interactions import FAILED, NO_MENTIONS, InteractionTurn
from .pacing import merged
from .reconnect import CONNECT_TIMEOUT, RECONNECT_CAP
from .refusals import discord_refusal
from .shards import ShardRange
from .suggestions import stored_suggestions

Image = Callable[[], discord.File] | None  # makes a reply's file, once per send

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


class DiscordAdapter(AdapterBase[InteractionTurn | _MessageTurn]):
    """Discord <-> command layer. ``adapter.client`` is the discord.py client to run."""

    platform = "discord"
    capabilities = Capabilities(
        text_limit=TEXT_LIMIT,
        images=True,
        documents=True,
        edits=True,
        countdowns=Countdown.NATIVE,
        private=PrivateReplies.EPHEMERAL,
    )
    edits_after_posts = True  # posts and edits of a channel share a bucket (``.pacing``)

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
        the longest one attempt takes (so the bot is back soon after Discord, see ``.reconnect``)."""
        super().__init__(referee, tick_seconds=tick_seconds, metrics=metrics, clock=clock)
        self.message_content = message_content
        self.edit_interval = edit_interval
        self.live_interval = live_interval
        self.pace_clock = pace_clock
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
        self.tree = self.client.tree
        self.refused_channels: dict[int, int] = {}  # channel id -> the error code that refused a post
        self._actions: dict[str, tuple[Action, ...]] = {}  # an edited message's buttons, by its edit key
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
        await self.arriving(interaction.user.id, lambda turn: self._on_slash_in_turn(interaction, spec, args, turn))

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
            received=self.received_at(interaction.created_at.timestamp()),
            room_locale=interaction.guild_locale.value if interaction.guild_locale is not None else None,
            asked=turn.asked,  # its private answers go through this interaction, whatever else waits for the user
        )
        try:
            await self.receive(incoming, arrival, turn)
        finally:
            if not turn.watchdog_fired:
                watchdog.cancel()
        await turn.finish()

    async def on_component(self, interaction: discord.Interaction) -> None:
        """A component used or a modal submitted: *Cancel* takes the buttons off; a button that asks first
        shows *Confirm* and *Cancel* to its presser only; the form's button opens its modal; any other line
        (a button's, a menu's choice, a submitted form's) runs as its user typing it, answered like a slash
        command (``components``)."""
        data: Any = interaction.data or {}
        wanted, channel = str(data.get("custom_id", "")), f"discord:{interaction.channel_id}"
        line: str | None = None
        if interaction.type is discord.InteractionType.modal_submit:
            form = form_for(await self.language_of(channel), wanted.removeprefix(FORM))
            line = form.command_line(answers(data)) if form is not None else None
        elif wanted == DISMISS:
            await interaction.response.edit_message(view=None)
        elif wanted.startswith(ASK):
            label = pressed_label(interaction.message, wanted) or wanted.removeprefix(ASK)
            cancel = say(await self.language_of(channel), "action_cancel")
            view = confirm_view(wanted.removeprefix(ASK), label, cancel)
            await interaction.response.send_message(f"{label} ?", view=view, ephemeral=True)
        elif wanted.startswith(FORM):
            form = form_for(await self.language_of(channel), wanted.removeprefix(FORM))
            if form is not None:
                await interaction.response.send_modal(modal_for(form))
        elif wanted.startswith(MENU):
            line = str((data.get("values") or [""])[0])
        elif wanted.startswith(RUN):
            line = wanted.removeprefix(RUN)
        command = read_command(line) if line else None
        spec = find(command.name) if command is not None else None
        if command is not None and spec is not None:
            await self.on_slash(interaction, spec, command.args)

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
        await self.arriving(message.author.id, lambda arrival: self._on_message_in_turn(message, in_dm, arrival))

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
            received=self.received_at(message.created_at.timestamp()),
            room_locale=message.guild.preferred_locale.value if message.guild is not None else None,
        )
        await self.receive(incoming, arrival, _MessageTurn(message, incoming))

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

    async def suggestions(
        self, interaction: discord.Interaction, suggest: Suggest, current: str
    ) -> list[tuple[str, str | int]]:
        """What to offer for an option being typed (``.suggestions``; read only, nothing on a failure)."""
        channel = f"discord:{interaction.channel_id}"
        lang = language_of_locale(str(interaction.locale)) or DEFAULT_LANGUAGE
        storage = self.referee.storage
        try:
            return await asyncio.to_thread(stored_suggestions, storage, channel, suggest, current, lang)
        except Exception:
            log.exception("could not read the suggestions of %s", channel)
            return []

    # -- outgoing ---------------------------------------------------------------------

    def time_left(self, deadline: float, now: float | None = None) -> str:
        return f"⏳ <t:{int(deadline)}:R>"  # a countdown every client draws itself

    def arrange(self, replies: Sequence[Reply], answering: InteractionTurn | _MessageTurn | None) -> list[Post]:
        """Through the interaction being answered, in its order; the clock's and the outbox's, paced for the
        channel's bucket (``.pacing``)."""
        if isinstance(answering, InteractionTurn):
            return one_each(answering.order(replies))
        return merged(first_things_first(replies, self.is_tracked), TEXT_LIMIT)

    def refusal(self, reply: Reply, error: Exception) -> Undelivered:
        return discord_refusal(reply, error)

    async def post(self, post: Post, turn: InteractionTurn | _MessageTurn | None) -> None:
        """Send ``post``: through the interaction being answered, to its channel, or by DM."""
        reply = post.reply
        text = self.render(reply)
        chunks = self.pieces(text)
        if not chunks and reply.image is None and reply.document is None:
            return
        image = self._file_maker(reply)
        view = view_for(reply.actions)
        want = reply.edit_key is not None
        messages: list[Any] = []
        channel_id = self.local_id(reply.channel or (turn.channel if turn else None))
        ephemeral = turn.visibility(reply) if isinstance(turn, InteractionTurn) else None
        token_until: float | None = None
        if isinstance(turn, InteractionTurn) and ephemeral is not None and turn.token_alive():
            try:
                messages = await turn.send(chunks, image, ephemeral, want, view)
                token_until = turn.token_until
            except FAILED as error:  # expired interaction, a lost request...: go direct
                log.warning("interaction answer failed (%r); sending directly", error)
                messages = []
                if ephemeral:
                    messages = await self._send_private(reply, chunks, image, channel_id, view)
                elif channel_id is not None:
                    messages = await self._send_channel(channel_id, chunks, image, view)
        elif reply.to_user is not None:
            messages = await self._send_private(reply, chunks, image, channel_id, view)
        elif channel_id is not None:
            messages = await self._send_channel(channel_id, chunks, image, view)
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
        self, channel_id: int, chunks: Sequence[str], image: Image, view: discord.ui.View | None = None
    ) -> list[discord.Message]:
        """Post in a channel; a channel that refuses the bot is reported (see :meth:`_channel_refused`)."""
        channel = self.client.get_partial_messageable(channel_id)
        try:
            sent = await self._send_to(channel, chunks, image, view)
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
        referee_id = self.local_id(referee)
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
        target: discord.abc.Messageable, chunks: Sequence[str], image: Image, view: discord.ui.View | None = None
    ) -> list[discord.Message]:
        sent = []
        pieces: list[str | None] = list(chunks) or [None]
        for index, chunk in enumerate(pieces):
            extra: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
            if index == 0 and image is not None:
                extra["file"] = image()
            if index == len(pieces) - 1 and view is not None:  # the buttons under the last piece
                extra["view"] = view
            sent.append(await target.send(chunk, **extra))
        return sent

    async def _send_private(
        self,
        reply: Reply,
        chunks: Sequence[str],
        image: Image,
        channel_id: int | None,
        view: discord.ui.View | None = None,
    ) -> list[discord.Message]:
        """A DM; if the user does not accept DMs, a short public note (never the private text)."""
        user_id = self.local_id(reply.to_user)
        if user_id is None:
            log.warning("private reply to a non-Discord user dropped: %s", reply.to_user)
            return []
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            return await self._send_to(user, chunks, image, view)
        except discord.Forbidden as error:
            if error.code == 40003:  # "You are opening direct messages too fast": the DMs are open, the outbox
                raise  # tries again later (a 403 is transient, .refusals): no closed-DMs note
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

    def edit(self, tracked: TrackedMessage, reply: Reply) -> Coroutine[Any, Any, None] | None:
        if self.overtaken(tracked, reply):  # (nor its buttons)
            return None
        if reply.edit_key is not None:  # an edit shows the buttons of its reply (a round's close: none)
            self._actions[reply.edit_key] = reply.actions
        return super().edit(tracked, reply)

    def _track(self, reply: Reply, text: str, message: Any, *, private: bool, token_until: float | None) -> None:
        """Keep a sent message for the replies that edit it. ``token_until``: set when it was sent
        through an interaction, whose token may edit it until then; later, the channel does."""
        client = self.client
        holder = {"message": message, "token_until": token_until}
        key = reply.edit_key or ""
        self._actions[key] = reply.actions

        async def edit(new_text: str) -> None:
            content = self.pieces(new_text)[:1] or ["…"]
            current = holder["message"]
            until = holder["token_until"]
            view = view_for(self._actions.get(key, ()))  # the buttons the edit shows (none: taken off)
            if until is None or self.clock() < until:
                try:
                    await current.edit(content=content[0], allowed_mentions=NO_MENTIONS, view=view)
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
                await channel.get_partial_message(current.id).edit(
                    content=content[0], allowed_mentions=NO_MENTIONS, view=view
                )
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

        assert reply.edit_key is not None
        self.track(reply.edit_key, reply, text, edit, self.pace_clock)

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
