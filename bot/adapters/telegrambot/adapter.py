"""Telegram adapter (python-telegram-bot 22): commands in, replies out.

A thin translator. Every command of ``bot.commands.registry`` has a handler under its
English name and its French alias (``/score`` and ``/coup``, also in the group form
``/score@BotName``; ``/score@OtherBot`` is ignored). Handlers do not block, so a
slow command in one chat never holds up another. Private replies (duplicate
submissions) go to the user's private chat with the bot; Telegram only lets a bot
write to users who pressed Start, so when it refuses, the group gets a deep link
to open that chat instead of the private text.

Nothing here knows the game: moves are recorded by the command layer before any
Telegram call, so a failed send never loses a move.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import re
import signal
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import (
    Chat,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    filters,
)

from ...chat import Incoming, Reply
from ...games.installed import COMMANDS
from ...menus import greeting_text
from ...messages import language_of_locale, say
from ...operations.metrics import Metrics
from ...outbox import Undelivered
from ...referee import Referee
from ..base import AdapterBase, Capabilities, Countdown, Post, PrivateReplies
from ..names import platform_names
from ..ordering import Turn
from ..tracking import POLL_SECONDS, TrackedMessage
from .admins import ALLOWED_UPDATES, GroupAdmins, read_administrators
from .buttons import ASK, DISMISS, confirmation, keyboard
from .menus import set_menus
from .pacing import FloodPacer, Priority, TelegramLimits, library_limiter
from .receiver import UnreadableUpdateError, serve_updates
from .refusals import telegram_refusal
from .text import api_url, file_url_for, telegram_text, utf16_len
from .transport import POLL_RETRY_CAP, telegram_requests
from .webhook import WebhookConfig

if TYPE_CHECKING:
    from ...web import WebServer

log = logging.getLogger("arbitre.telegram")

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# A group takes about 20 messages or edits a minute (PLATFORMS.md): a round's draw, its countdown (one edit per
# ``edit_interval``), results, standings and warnings leave room for about four edits of each live line (the
# counter, the join notice) a minute.
LIVE_INTERVAL = 15.0

_PRIORITY: contextvars.ContextVar[Priority] = contextvars.ContextVar("priority", default=Priority.MUST_SEE)
_BOT_NAME = re.compile(r"^(\s*/[A-Za-z0-9_]+)@[A-Za-z0-9_]+")


def start_text(lang: str) -> str:
    """The answer to /start in ``lang``: how to send duplicate moves here (/play under its other names too)."""
    play = next(spec for spec in COMMANDS if spec.name == "play")
    own = play.name_in(lang)
    others = ", ".join(dict.fromkeys(f"/{name}" for name in play.names().values() if name != own))
    return say(lang, "telegram_start", others=others)


@dataclass(frozen=True)
class _Turn:
    """The command being answered."""

    chat_id: int
    user_id: int
    message_id: int
    thread_id: int | None
    private: bool

    @property
    def channel(self) -> str:
        return f"telegram:{self.chat_id}"


class TelegramAdapter(AdapterBase[_Turn]):
    """Telegram <-> command layer. ``adapter.application`` is the PTB application to run."""

    platform = "telegram"
    capabilities = Capabilities(
        text_limit=TEXT_LIMIT,
        images=True,
        documents=True,
        edits=True,
        countdowns=Countdown.EDITED,
        private=PrivateReplies.PRIVATE_CHAT,
    )
    burst = TelegramLimits.chat_burst  # a longer batch goes what players must see first, at the chat's pace

    def __init__(
        self,
        referee: Referee,
        token: str,
        *,
        base_url: str | None = None,
        base_file_url: str | None = None,
        edit_interval: float = 10.0,
        live_interval: float = LIVE_INTERVAL,
        admin_ttl: float = 60.0,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        tick_seconds: float = 0.5,
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
        poll_retry_cap: float = POLL_RETRY_CAP,
    ) -> None:
        """``clock``: Unix time for the countdowns (the referee's, whose deadlines they show) and the
        pace of edits; ``live_interval``: seconds between two edits of a live line (the counter, the
        join notice); ``admin_ttl``: how long a group's administrators are remembered (``GroupAdmins``);
        ``rate_limiter``: python-telegram-bot's limiter after the pacer (default: ``library_limiter``, three
        retries of a 429 and no bucket: the pacer is the one limiter of messages); ``metrics``:
        where commands, 429s and the connection are reported (None: metrics off); ``poll_retry_cap``: the
        longest wait between two long polls while the Bot API does not answer (``.transport``)."""
        super().__init__(referee, tick_seconds=tick_seconds, metrics=metrics, clock=clock)
        self.edit_interval = edit_interval
        self.live_interval = live_interval
        self.admins = GroupAdmins(lambda chat_id: read_administrators(self.bot, chat_id), clock, admin_ttl)
        self.web: WebServer | None = None  # the rooms' live pages, served while the application runs (``bot.web``)
        # they count 429s and know whether the Bot API answers; the long poll comes back soon after an outage
        self.requests = telegram_requests(metrics, poll_retry_cap=poll_retry_cap)
        self._names: dict[int, str] = {}
        self._threads: dict[int, int] = {}
        self._notes_sent: dict[tuple[int, int], float] = {}
        self._notes_waiting: dict[int, list[int]] = {}  # group -> players the next private-chat note names
        self._notes_last: dict[int, float] = {}  # group -> when its last private-chat note went out
        self._keyboards: dict[str, InlineKeyboardMarkup | None] = {}  # an edited message's buttons, by its key
        builder = (
            ApplicationBuilder()
            .token(token)
            .rate_limiter(FloodPacer(rate_limiter or library_limiter(), clock))  # Telegram's limits
            .request(self.requests[0])
            .get_updates_request(self.requests[1])
            .post_init(self._post_init)
            .post_stop(self._post_stop)
            .post_shutdown(self._post_stop)
        )
        if base_url:
            builder = builder.base_url(api_url(base_url)).base_file_url(base_file_url or file_url_for(base_url))
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        new_messages = filters.UpdateType.MESSAGE  # never re-run an edited command
        self.application.add_handler(
            CommandHandler("start", self._on_start, filters=new_messages & filters.ChatType.PRIVATE, block=False)
        )
        for spec in COMMANDS:
            names = platform_names(spec)
            self.application.add_handler(CommandHandler(names, self._on_command, filters=new_messages, block=False))
        self.application.add_handler(ChatMemberHandler(self.admins.on_update, ChatMemberHandler.ANY_CHAT_MEMBER))
        self.application.add_handler(CallbackQueryHandler(self._on_press, block=False))
        added = ChatMemberHandler(self._on_added, ChatMemberHandler.MY_CHAT_MEMBER, block=False)
        self.application.add_handler(added, group=1)  # beside the administrators' handler, which sees it too
        self.application.add_error_handler(self._on_error)

    @property
    def bot(self) -> Any:
        return self.application.bot

    @property
    def admin_ttl(self) -> float:
        """How long a group's administrators are remembered, in seconds."""
        return self.admins.ttl

    @admin_ttl.setter
    def admin_ttl(self, seconds: float) -> None:
        self.admins.ttl = seconds

    # -- lifecycle --------------------------------------------------------------------

    async def _post_init(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        await self.set_commands()
        if self.web is not None:
            await self.web.start()
        self.service.start()
        log.info("connected to Telegram as @%s", self.bot.username)

    async def _post_stop(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        if self.web is not None:
            await self.web.close()
        await self.service.stop()
        self.stop_tasks()

    async def set_commands(self) -> None:
        """The command menus of each kind of chat, in each language, and the bot's descriptions (``.menus``)."""
        await set_menus(self.bot)

    def connection(self) -> str | None:
        """None while the application runs and its last requests reached the Bot API (the health check)."""
        if not self.application.running:
            return "the Telegram application is not running"
        failed = next((r.unreachable for r in self.requests if r.unreachable is not None), None)
        return None if failed is None else f"the Bot API does not answer: {failed}"

    def run(self, **polling: Any) -> None:
        """Long-poll until stopped (Ctrl-C / SIGTERM)."""
        self.application.run_polling(allowed_updates=list(ALLOWED_UPDATES), **polling)

    def run_webhook(self, webhook: WebhookConfig) -> None:
        """Set the webhook, then serve it until stopped (Ctrl-C / SIGTERM): Telegram's POSTs to
        ``webhook.url`` reach this process at ``webhook.local_address``; a request without the
        secret token, or declaring a body larger than any update, is refused before its body is read
        (``.receiver``). The webhook stays set when the process stops: other processes behind
        the same URL go on receiving the updates."""
        asyncio.run(self._serve_webhook(webhook))

    async def _serve_webhook(self, webhook: WebhookConfig) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await self.serve_webhook(webhook, stop)

    async def serve_webhook(self, webhook: WebhookConfig, stop: asyncio.Event) -> None:
        """What :meth:`run_webhook` does in the running loop, until ``stop`` is set."""
        application = self.application
        async with application:  # initialize() (getMe: a rejected token raises here), then shutdown()
            await self._post_init(application)
            server = None
            try:
                await self.bot.set_webhook(
                    webhook.url, allowed_updates=list(ALLOWED_UPDATES), secret_token=webhook.secret
                )
                if self.web is None or not self.web.serves_webhook:  # else the process's one HTTP port takes them
                    server = serve_updates(webhook, self.receive_update)
                await application.start()
                log.info("receiving updates for %s at %s", webhook.url, webhook.local_address)
                await stop.wait()
            finally:
                if server is not None:
                    server.stop()
                    await server.close_all_connections()
                if application.running:
                    await application.stop()
                await self._post_stop(application)

    async def receive_update(self, data: dict[str, Any]) -> None:
        """An update the webhook received, for the application's handlers."""
        try:
            update = Update.de_json(data, self.bot)
        except Exception as error:  # a body that has the secret but is no update: never logged
            raise UnreadableUpdateError(type(error).__name__) from None
        await self.application.update_queue.put(update)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling an update", exc_info=context.error)

    # -- incoming ---------------------------------------------------------------------

    async def _on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is not None:
            locale = user.language_code if user is not None else None
            chat = f"telegram:{message.chat_id}"
            lang = (language_of_locale(locale) if locale else None) or await self.language_of(chat)
            await self.bot.send_message(message.chat_id, start_text(lang), link_preview_options=NO_PREVIEW)

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user is the group's creator or an administrator. The group's administrators are
        read in one ``getChatAdministrators``, once per group at a time, and kept ``admin_ttl`` s, brought
        up to date by the membership updates (``GroupAdmins``): one look-up per group and period, however
        many speak at once."""
        return user_id in await self.admins.of(chat_id)

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user, chat = update.effective_message, update.effective_user, update.effective_chat
        if message is None or user is None or chat is None or not message.text:
            return
        text = message.text
        await self.arriving(user.id, lambda turn: self._on_command_in_turn(message, text, user, chat, turn))

    async def _on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button pressed: answered at once; *Cancel* takes the buttons off, a button that asks first shows
        *Confirm* and *Cancel* in its place, any other runs its line as its user typing it in that chat."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None or not isinstance(query.message, Message):
            return
        await query.answer()
        data, message = query.data or "", query.message
        if data == DISMISS:
            await query.edit_message_reply_markup(None)
        elif data.startswith(ASK):
            rows = message.reply_markup.inline_keyboard if message.reply_markup else ()
            label = next((b.text for row in rows for b in row if b.callback_data == data), data[len(ASK) :])
            cancel = say(await self.language_of(f"telegram:{message.chat_id}"), "action_cancel")
            await query.edit_message_reply_markup(confirmation(data[len(ASK) :], label, cancel))
        elif data.startswith("/"):
            chat = message.chat
            await self.arriving(user.id, lambda turn: self._on_command_in_turn(message, data, user, chat, turn, True))

    async def _on_added(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot added to a group: how to begin, in the language of who added it (else the group's)."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        gone = ("left", "kicked")
        if change.old_chat_member.status not in gone or change.new_chat_member.status in gone:
            return
        locale = change.from_user.language_code
        lang = (language_of_locale(locale) if locale else None) or await self.language_of(f"telegram:{change.chat.id}")
        await self.bot.send_message(change.chat.id, greeting_text(lang), link_preview_options=NO_PREVIEW)

    async def _on_command_in_turn(
        self, message: Message, text: str, user: User, chat: Chat, turn: Turn, pressed: bool = False
    ) -> None:
        """``pressed``: a button's line, ``message`` the bot's message it is under (the press is timed now)."""
        private = chat.type == ChatType.PRIVATE
        if private:
            admin = True  # the private chat with the bot is the user's own
        elif message.sender_chat is not None and message.sender_chat.id == chat.id:
            admin = True  # an anonymous administrator speaks as the group
        else:
            admin = await self.is_admin(chat.id, user.id)
        name = user.full_name or user.username or str(user.id)
        self._names[user.id] = name
        thread = message.message_thread_id if message.is_topic_message else None
        if thread is not None:
            self._threads[chat.id] = thread
        incoming = Incoming(
            channel=f"telegram:{chat.id}",
            user=f"telegram:{user.id}",
            name=name,
            text=_BOT_NAME.sub(r"\1", text),  # PTB already checked that "@Name" is us
            private=private,
            admin=admin,
            # Telegram's time, in whole seconds: the next second is the earliest it may have been sent by
            received=self.received_at(self.clock() if pressed else message.date.timestamp() + 1),
            locale=user.language_code,  # a private chat with no settings of its own speaks it
            room_locale=None if private else user.language_code,  # a new group starts in it
        )
        await self.receive(incoming, turn, _Turn(chat.id, user.id, message.message_id, thread, private))

    # -- outgoing ---------------------------------------------------------------------

    def counting_down(self) -> None:
        _PRIORITY.set(Priority.LIVE)  # a countdown's steps give way in the chat's budget (its task's own context)

    def measure(self, text: str) -> int:
        return utf16_len(text)  # Telegram counts UTF-16 code units

    def refusal(self, reply: Reply, error: Exception) -> Undelivered:
        return telegram_refusal(reply, error)

    def edit(self, tracked: TrackedMessage, reply: Reply) -> Coroutine[Any, Any, None] | None:
        return None if self.overtaken(tracked, reply) else self._edit(tracked, reply)

    async def _edit(self, tracked: TrackedMessage, reply: Reply) -> None:
        """Edit ``tracked`` now, a live line at the end of its interval (its countdown goes on from there)."""
        tracked.base, tracked.deadline = reply.text, reply.deadline
        if reply.edit_key is not None:  # the buttons the edit shows (none: taken off, as at a round's close)
            self._keyboards[reply.edit_key] = keyboard(reply.actions, self.bot.username)
        urgent = reply.deadline is None and not reply.live  # a live line waits for its interval
        priority = _PRIORITY.set(Priority.LIVE if reply.live else Priority.MUST_SEE)  # (and its timer's)
        try:
            await tracked.update(self.render(reply), urgent=urgent, owed=True)
        finally:
            _PRIORITY.reset(priority)
        self.start_countdown(tracked)

    async def post(self, post: Post, turn: _Turn | None) -> None:
        """Send ``post`` to its chat, or to the player's private chat (a deep link in the group when the
        player never opened it)."""
        reply = post.reply
        text = self.render(reply)
        channel_id = self.local_id(reply.channel or (turn.channel if turn else None))
        if reply.to_user is not None:
            user_id = self.local_id(reply.to_user)
            if user_id is None:
                log.warning("private reply to a non-Telegram user dropped: %s", reply.to_user)
                return
            try:
                sent = await self._send(user_id, text, reply)
            except Forbidden as error:  # never pressed Start, or blocked the bot
                log.info("cannot write to %s privately: %s", user_id, error)
                await self._open_chat_note(user_id, channel_id)
                return
            except BadRequest as error:
                if "chat not found" not in str(error).lower():
                    raise
                await self._open_chat_note(user_id, channel_id)
                return
        elif channel_id is not None:
            thread = turn.thread_id if turn and turn.chat_id == channel_id else self._threads.get(channel_id)
            reply_to = turn.message_id if turn and turn.chat_id == channel_id and not turn.private else None
            sent = await self._send(channel_id, text, reply, thread=thread, reply_to=reply_to)
        else:
            log.warning("reply with no channel dropped: %s", reply)
            return
        text_messages = [m for m in sent if m.text is not None]
        if text_messages and (reply.edit_key is not None or reply.deadline is not None):
            key = reply.edit_key or f"deadline:{text_messages[0].chat_id}:{text_messages[0].message_id}"
            self._track(key, reply, text, text_messages[0])

    async def _send(
        self, chat_id: int, text: str, reply: Reply, *, thread: int | None = None, reply_to: int | None = None
    ) -> list[Message]:
        chunks = self.pieces(text)
        sent: list[Message] = []
        common: dict[str, Any] = {"message_thread_id": thread} if thread is not None else {}
        if reply_to is not None:
            common["reply_parameters"] = ReplyParameters(reply_to, allow_sending_without_reply=True)
        if reply.image is not None:
            caption: str | None = None
            caption_entities: list[MessageEntity] = []
            if len(chunks) == 1:
                plain, entities = telegram_text(chunks[0])
                if utf16_len(plain) <= CAPTION_LIMIT:
                    caption, caption_entities, chunks = plain, entities, []
            sent.append(await self._send_image(chat_id, reply, caption, caption_entities, common))
            common.pop("reply_parameters", None)
        markup = keyboard(reply.actions, self.bot.username)
        shown = [piece for piece in (telegram_text(chunk) for chunk in chunks) if piece[0].strip()]
        for number, (plain, entities) in enumerate(shown):
            buttons = {"reply_markup": markup} if markup is not None and number == len(shown) - 1 else {}
            sent.append(
                await self.bot.send_message(
                    chat_id, plain, entities=entities or None, link_preview_options=NO_PREVIEW, **common, **buttons
                )
            )
            common.pop("reply_parameters", None)
        if reply.document is not None:  # an export: a file, after its text
            name = reply.document_name or "export.txt"
            sent.append(await self.bot.send_document(chat_id, reply.document, filename=name, **common))
        return sent

    async def _send_image(
        self, chat_id: int, reply: Reply, caption: str | None, entities: list[MessageEntity], common: dict[str, Any]
    ) -> Message:
        assert reply.image is not None
        name = reply.image_name or "board.png"
        extra = dict(common, caption=caption, caption_entities=entities or None)
        message: Message
        try:
            message = await self.bot.send_photo(chat_id, reply.image, filename=name, **extra)
        except BadRequest as error:  # too large or odd dimensions for a photo: send the file itself
            log.info("photo refused (%s); sending it as a document", error)
            message = await self.bot.send_document(chat_id, reply.image, filename=name, **extra)
        return message

    async def _open_chat_note(self, user_id: int, channel_id: int | None) -> None:
        """In the group: a deep link to the private chat (never the private text itself), once a minute
        per player. The players who need it within a live interval share one note: a private reply that
        could not go privately spends the group's budget once per interval, not once per player."""
        if channel_id is None or channel_id == user_id:
            return
        now = time.monotonic()
        if now - self._notes_sent.get((user_id, channel_id), -3600.0) < 60:
            return
        self._notes_sent[(user_id, channel_id)] = now
        waiting = self._notes_waiting.setdefault(channel_id, [])
        waiting.append(user_id)
        if len(waiting) > 1:
            return  # the note already on its way names this player too
        wait = self._notes_last.get(channel_id, -math.inf) + self.live_interval - self.clock()
        if wait <= 0:
            await self._post_chat_note(channel_id)
            return
        self.keep(asyncio.get_running_loop().create_task(self._chat_note_later(channel_id, wait)))

    async def _chat_note_later(self, channel_id: int, wait: float) -> None:
        await asyncio.sleep(min(wait, POLL_SECONDS))
        while 0 < (left := self._notes_last[channel_id] + self.live_interval - self.clock()) <= self.live_interval:
            await asyncio.sleep(min(left, POLL_SECONDS))
        await self._post_chat_note(channel_id)

    async def _post_chat_note(self, channel_id: int) -> None:
        """One note naming every player waiting for it in the group."""
        self._notes_last[channel_id] = self.clock()
        users = self._notes_waiting.pop(channel_id, [])
        name = ", ".join(n for n in (self._names.get(u, "") for u in users) if n)
        link = f"https://t.me/{self.bot.username}?start=play"
        lang = await self.language_of(f"telegram:{channel_id}")
        if name:
            text = say(lang, "telegram_private_chat_named", names=name, link=link)
        else:
            text = say(lang, "telegram_private_chat", link=link)
        thread = self._threads.get(channel_id)
        extra: dict[str, Any] = {"message_thread_id": thread} if thread is not None else {}
        try:
            await self.bot.send_message(channel_id, text, link_preview_options=NO_PREVIEW, **extra)
        except TelegramError as error:
            log.warning("could not post the private-chat link: %s", error)

    def _track(self, key: str, reply: Reply, text: str, message: Message) -> None:
        chat_id = message.chat_id
        holder = {"id": message.message_id}
        self._keyboards[key] = message.reply_markup

        async def edit(new_text: str) -> None:
            plain, entities = telegram_text(self.pieces(new_text)[0])
            try:
                await self.bot.edit_message_text(
                    plain,
                    chat_id=chat_id,
                    message_id=holder["id"],
                    entities=entities or None,
                    link_preview_options=NO_PREVIEW,
                    reply_markup=self._keyboards.get(key),
                    rate_limit_args=_PRIORITY.get(),  # a live line or countdown step gives way (FloodPacer)
                )
            except BadRequest as error:
                reason = str(error).lower()
                if "not modified" in reason:
                    return
                if "not found" in reason and reply.to_user is None:  # deleted: post it again
                    again = await self.bot.send_message(
                        chat_id, plain, entities=entities or None, link_preview_options=NO_PREVIEW
                    )
                    holder["id"] = again.message_id
                    return
                raise

        self.track(key, reply, text, edit, self.clock)
