"""A fake Telegram Bot API server for driving a real python-telegram-bot ``Application`` offline.

Usage (inside a test's event loop)::

    async with FakeTelegram(bot_username="TestBot") as tg:
        app = tg.application_builder().rate_limiter(AIORateLimiter(max_retries=2)).build()
        app.add_handler(CommandHandler("start", start))
        async with running_application(app, tg):
            alice = tg.add_user(first_name="Alice")
            await tg.send_user_message(-100, alice, "/start@TestBot")
            reply = await tg.wait_for_message(chat_id=-100)
            assert reply.text == "hello"

The server listens on 127.0.0.1 on a random free port. It implements the methods a
referee bot needs (see ``_METHODS``); unknown methods answer 404 and are listed in
:attr:`FakeTelegram.unhandled`.

As strict as the Bot API (https://core.telegram.org/bots/api) where a bot could go wrong, each
rule next to the section it follows: ``retry_after`` is whole seconds (ResponseParameters),
``setMyCommands`` takes two-letter ISO 639-1 language codes, ``getChatMember`` answers every
ChatMember status in its documented shape. Faults: :meth:`FakeTelegram.server_error_next`,
:meth:`~FakeTelegram.rate_limit_next`, :meth:`~FakeTelegram.flood_wait` (a wait held, tens of
seconds), :meth:`~FakeTelegram.reset_next`,
:meth:`~FakeTelegram.outage` (ended by :meth:`~FakeTelegram.advance` or
:meth:`~FakeTelegram.end_outage`); what was served is in ``faults_served``.

Webhooks (setWebhook, deleteWebhook, getWebhookInfo): once one is set, updates are POSTed to it
with the secret token header and retried while it answers an error (see
:mod:`tests.fakes.telegram_webhook`; every request is in ``webhook_attempts``), and getUpdates
is refused with 409. Flood control (:mod:`tests.fakes.telegram_limits`) is on by default: a bot
over Telegram's documented limits gets 429s, counted in ``flood``. ``local_mode=True`` is a
self-hosted Bot API server started with ``--local``: an HTTP webhook on any port.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from aiohttp import BodyPartReader, web

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
from .telegram_limits import FloodControl, FloodLimits
from .telegram_webhook import WebhookAttempt, WebhookRefused, WebhookSender, wanted, webhook_settings

if TYPE_CHECKING:
    from telegram.ext import Application
    from telegram.ext._applicationbuilder import InitApplicationBuilder

    AnyApplication = Application[Any, Any, Any, Any, Any, Any]  # as the Telegram adapter types its own

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024

# Parameters that Telegram expects as JSON-serialised objects when sent form-encoded.
_JSON_FIELDS = {
    "reply_markup",
    "entities",
    "caption_entities",
    "reply_parameters",
    "link_preview_options",
    "allowed_updates",
    "commands",
    "scope",
    "media",
    "reaction",
}
_INT_FIELDS = {
    "message_id",
    "reply_to_message_id",
    "offset",
    "limit",
    "message_thread_id",
    "user_id",
    "max_connections",
}
_BOOL_FIELDS = {
    "disable_notification",
    "protect_content",
    "allow_sending_without_reply",
    "drop_pending_updates",
    "show_alert",
    "disable_web_page_preview",
    "has_spoiler",
    "disable_content_type_detection",
}

_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a content and reply markup of the current message"
)

_COMMAND_RE = re.compile(r"(?<![^\s])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")
_MENTION_RE = re.compile(r"(?<![^\s])@[A-Za-z0-9_]{4,32}(?![A-Za-z0-9_])")
_COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_HTML_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
    "a", "code", "pre", "blockquote", "tg-emoji", "tg-time",
}  # fmt: skip
_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")

# setMyCommands: "language_code: A two-letter ISO 639-1 language code" (ISO 639-1's codes).
ISO_639_1 = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de
    dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie
    ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg
    mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro
    ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty
    ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split()
)

# ChatMember: the six statuses a bot may meet, with the fields each shape must carry (Bot API
# ChatMemberOwner, ChatMemberAdministrator, ChatMemberMember, ChatMemberRestricted,
# ChatMemberLeft, ChatMemberBanned; python-telegram-bot refuses a shape missing one).
CHAT_MEMBER_FIELDS: dict[str, dict[str, Any]] = {
    "creator": {"is_anonymous": False},
    "administrator": {
        "can_be_edited": False,
        "is_anonymous": False,
        "can_manage_chat": True,
        "can_delete_messages": True,
        "can_manage_video_chats": True,
        "can_restrict_members": True,
        "can_promote_members": False,
        "can_change_info": True,
        "can_invite_users": True,
        "can_post_stories": False,
        "can_edit_stories": False,
        "can_delete_stories": False,
        "can_pin_messages": True,
        "can_manage_topics": False,
    },
    "member": {},
    "restricted": {
        "is_member": True,
        "can_send_messages": False,
        "can_send_audios": False,
        "can_send_documents": False,
        "can_send_photos": False,
        "can_send_videos": False,
        "can_send_video_notes": False,
        "can_send_voice_notes": False,
        "can_send_polls": False,
        "can_send_other_messages": False,
        "can_add_web_page_previews": False,
        "can_change_info": False,
        "can_invite_users": False,
        "can_pin_messages": False,
        "can_manage_topics": False,
        "can_edit_tag": False,
        "can_react_to_messages": False,
        "until_date": 0,
    },
    "left": {},
    "kicked": {"until_date": 0},
}


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: Telegram's unit for entity offsets and lengths."""
    return len(text.encode("utf-16-le")) // 2


def command_entities(text: str, *, mentions: bool = True) -> list[dict[str, Any]]:
    """Entities Telegram attaches to an incoming text: ``bot_command`` (and ``mention``)."""
    entities: list[dict[str, Any]] = []
    for match in _COMMAND_RE.finditer(text):
        entities.append(
            {"type": "bot_command", "offset": utf16_len(text[: match.start()]), "length": utf16_len(match.group())}
        )
    if mentions:
        for match in _MENTION_RE.finditer(text):
            entities.append(
                {"type": "mention", "offset": utf16_len(text[: match.start()]), "length": utf16_len(match.group())}
            )
    entities.sort(key=lambda e: e["offset"])
    return entities


class _ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


def _bad(description: str) -> _ApiError:
    return _ApiError(400, "Bad Request: " + description)


# InlineKeyboardButton: "You must use exactly one of the optional fields"; callback_data "1-64 bytes";
# url "HTTP or tg:// URL". The Bot API answers a wrong button with these descriptions.
_BUTTON_FIELDS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
CALLBACK_DATA_BYTES = 64


def check_inline_keyboard(markup: Any) -> None:
    """An InlineKeyboardMarkup as the Bot API accepts it (``inline_keyboard``: an array of button rows)."""
    if not isinstance(markup, dict) or "inline_keyboard" not in markup:
        return  # another kind of markup (a reply keyboard, its removal): not modelled
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays')
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not button.get("text"):
                raise _bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
            used = [name for name in _BUTTON_FIELDS if name in button]
            if len(used) != 1:
                raise _bad("can't parse inline keyboard button: exactly one of the optional fields must be used")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode("utf-8")) <= CALLBACK_DATA_BYTES:
                raise _bad("BUTTON_DATA_INVALID")
            url = button.get("url")
            if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
                raise _bad("BUTTON_URL_INVALID")


def callback_data_of(message: dict[str, Any]) -> set[str]:
    """The callback data of a message's inline buttons (what a user can press under it)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
    return {str(b["callback_data"]) for row in rows for b in row if "callback_data" in b}


class _Outage(Exception):
    """A pending long poll cut by an outage."""


def _proxy_error(status: int) -> web.Response:
    """What the proxy in front of the Bot API answers when the server behind it is down."""
    reason = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Time-out"}.get(status, "Error")
    page = f"<html><head><title>{status} {reason}</title></head><body><h1>{status} {reason}</h1></body></html>"
    return web.Response(status=status, text=page, content_type="text/html")


@dataclass(frozen=True)
class TgUser:
    """A Telegram user (a human unless ``is_bot``)."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "fr"  # a French club plays in the project's tests unless a test says otherwise
    is_bot: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


UserLike = TgUser | int | dict[str, Any]


def _plain_text(text: str, parse_mode: str | None) -> str:
    """The text Telegram would display (markup removed), validating the markup like Telegram."""
    if not parse_mode:
        return text
    mode = parse_mode.lower()
    if mode == "html":
        return _check_html(text)
    if mode == "markdownv2":
        return _check_markdown_v2(text)
    if mode == "markdown":
        return re.sub(r"[*_`\[\]]", "", text)
    raise _bad(f"unsupported parse_mode {parse_mode!r}")


def _check_html(text: str) -> str:
    out = []
    stack: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "<":
            match = re.match(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>", text[index:])
            if not match:
                raise _bad(
                    f'can\'t parse entities: Unsupported start tag "" at byte offset {len(text[:index].encode())}'
                )
            closing, tag = match.group(1), match.group(2).lower()
            if tag not in _HTML_TAGS:
                raise _bad(
                    f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset {len(text[:index].encode())}'
                )
            if closing:
                if not stack or stack[-1] != tag:
                    raise _bad(
                        f"can't parse entities: Unmatched end tag at byte offset {len(text[:index].encode())}, "
                        f'expected "</{stack[-1] if stack else ""}>", found "</{tag}>"'
                    )
                stack.pop()
            else:
                stack.append(tag)
            index += match.end()
        elif char == "&":
            match = re.match(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);", text[index:])
            if match:
                out.append(html.unescape(match.group()))
                index += match.end()
            else:
                out.append(char)
                index += 1
        elif char == ">":
            # Telegram accepts a bare '>' but not a bare '<'
            out.append(char)
            index += 1
        else:
            out.append(char)
            index += 1
    if stack:
        raise _bad(f"can't parse entities: Can't find end tag corresponding to start tag \"{stack[-1]}\"")
    return "".join(out)


def _check_markdown_v2(text: str) -> str:
    """Approximate MarkdownV2 validation: reserved characters must be escaped outside code."""
    out = []
    index = 0
    in_code = False
    in_pre = False
    in_link_url = False
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            out.append(text[index + 1])
            index += 2
            continue
        if text.startswith("```", index):
            in_pre = not in_pre
            index += 3
            continue
        if in_pre:
            out.append(char)
            index += 1
            continue
        if char == "`":
            in_code = not in_code
            index += 1
            continue
        if in_code:
            out.append(char)
            index += 1
            continue
        if in_link_url:
            if char == ")":
                in_link_url = False
            index += 1
            continue
        if char == "]" and text.startswith("](", index):
            in_link_url = True
            index += 2
            continue
        if char in "*_~|[" or (char == ">" and (index == 0 or text[index - 1] == "\n")):
            index += 1  # formatting markers; balance is not checked
            continue
        if char in _MDV2_RESERVED:
            raise _bad(
                f"can't parse entities: Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )
        out.append(char)
        index += 1
    return "".join(out)


class FakeTelegram:
    """Fake Bot API server. Use as ``async with FakeTelegram() as tg:`` or ``await tg.start()``.

    Attributes worth knowing:

    * ``base_url`` / ``base_file_url``: pass to ``ApplicationBuilder`` (or use :meth:`application_builder`).
    * ``log``: :class:`MessageLog` of everything the bot did; ``sent`` is ``log.records``.
    * ``requests``: every API call as ``(method, params)``; ``unhandled``: calls to unknown methods.
    * ``commands``: the last ``setMyCommands`` list per scope key (``"default"``, ``"all_group_chats"``, ...).
    """

    def __init__(
        self,
        *,
        token: str = "123456789:TEST-token_for_the_fake_server",
        bot_username: str = "TestBot",
        bot_first_name: str = "Test Bot",
        privacy_mode: bool = True,
        local_mode: bool = False,
        webhook_retry_seconds: float = 1.0,
        webhook_give_up_after: int = 20,
        flood_control: bool = True,
        flood_limits: FloodLimits | None = None,
    ) -> None:
        """``local_mode``: a self-hosted Bot API server (``--local``), which takes HTTP webhooks on any
        port; ``webhook_retry_seconds``: the first wait (fake's clock) before a failed webhook request
        is repeated, doubling after each failure; ``webhook_give_up_after``: attempts per update;
        ``flood_control``: Telegram's flood control (:mod:`tests.fakes.telegram_limits`, with
        ``flood_limits``), on unless a test about something else turns it off and says why."""
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_user = TgUser(
            id=self.bot_id, first_name=bot_first_name, username=bot_username, language_code=None, is_bot=True
        )
        self.privacy_mode = privacy_mode
        self.local_mode = local_mode
        self.webhook_retry_seconds = webhook_retry_seconds
        self.webhook_give_up_after = webhook_give_up_after
        self.webhook_sender: WebhookSender | None = None
        self.clock = FakeClock()
        self.log = MessageLog("telegram")
        self.faults_served: list[ServedFault] = []
        self.flood = FloodControl(flood_limits or FloodLimits()) if flood_control else None
        self.outage_state: Outage | None = None
        self.members: dict[tuple[int, int], dict[str, Any]] = {}  # (chat id, user id) -> ChatMember without "user"
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.requested_at: list[float] = []  # the fake's time of each of ``requests``
        self.unhandled: list[tuple[str, dict[str, Any]]] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.descriptions: dict[str, str] = {}  # "description/fr", "short_description": as set, by language
        self.webhook_url: str | None = None
        self.users: dict[int, TgUser] = {}
        self.chats: dict[int, dict[str, Any]] = {}
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat_id, message_id) -> message
        self.callback_answers: dict[str, dict[str, Any]] = {}
        self._started_users: set[int] = set()
        self._delivered: set[tuple[int, int]] = set()
        self._blocked_users: set[int] = set()
        self._kicked_from: set[int] = set()
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(100_000_001)
        self._user_ids = itertools.count(1_000_001)
        self._group_ids = itertools.count(1)
        self._callback_ids = itertools.count(5_000_000_001)
        self._pollers: list[asyncio.Future[str]] = []
        self._faults: list[Fault] = []
        self._slow: list[tuple[str, float]] = []  # (method, real seconds) answered late, in order
        self._files: dict[str, tuple[SentFile, str]] = {}  # file_id -> (file, file_path)
        self._file_ids = itertools.count(1)
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Self:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.*}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Release pending long polls, then shut the server down."""
        self._stopping = True
        self._wake_pollers("stop")
        if self.webhook_sender is not None:
            await self.webhook_sender.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    @property
    def bot_username(self) -> str:
        return self.bot_user.username or ""

    def application_builder(self) -> InitApplicationBuilder:
        """An ``ApplicationBuilder`` with token, base_url and base_file_url set for this fake."""
        from telegram.ext import ApplicationBuilder

        return ApplicationBuilder().token(self.token).base_url(self.base_url).base_file_url(self.base_file_url)

    # ------------------------------------------------------------------ world model

    def add_user(
        self,
        user_id: int | None = None,
        first_name: str | None = None,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "fr",
        started: bool = False,
    ) -> TgUser:
        """Create a user. ``started=True`` means they pressed Start in a private chat with the bot."""
        if user_id is None:
            user_id = next(self._user_ids)
        user = TgUser(
            id=user_id,
            first_name=first_name or f"User{user_id}",
            username=username,
            last_name=last_name,
            language_code=language_code,
        )
        self.users[user_id] = user
        if started:
            self.mark_started(user)
        return user

    def _user(self, user: UserLike) -> TgUser:
        if isinstance(user, TgUser):
            self.users.setdefault(user.id, user)
            return user
        if isinstance(user, dict):
            known = TgUser(
                id=int(user["id"]),
                first_name=user.get("first_name", f"User{user['id']}"),
                username=user.get("username"),
                last_name=user.get("last_name"),
                language_code=user.get("language_code", "fr"),
                is_bot=user.get("is_bot", False),
            )
            self.users[known.id] = known
            return known
        if user in self.users:
            return self.users[user]
        return self.add_user(int(user))

    def mark_started(self, user: UserLike) -> None:
        """The user pressed Start: the bot may now write to them privately."""
        user = self._user(user)
        self._started_users.add(user.id)
        self._blocked_users.discard(user.id)
        self._private_chat(user)

    def block_bot(self, user: UserLike) -> None:
        """The user blocked the bot: private sends fail with 403 'bot was blocked by the user'."""
        user = self._user(user)
        self._blocked_users.add(user.id)

    def has_started(self, user: UserLike) -> bool:
        return self._user(user).id in self._started_users

    def add_group(
        self, chat_id: int | None = None, title: str | None = None, *, supergroup: bool = False
    ) -> dict[str, Any]:
        """Create a group chat (negative id; supergroups get -100... ids)."""
        if chat_id is None:
            number = next(self._group_ids)
            chat_id = -(1_000_000_000_000 + number) if supergroup else -(4_000_000_000 + number)
        chat = {"id": chat_id, "type": "supergroup" if supergroup else "group", "title": title or f"Group {chat_id}"}
        self.chats[chat_id] = chat
        return chat

    def set_member(self, chat_id: int, user: UserLike, status: str = "member", **fields: Any) -> dict[str, Any]:
        """Give ``user`` a ChatMember ``status`` in a group ("creator", "administrator", "member",
        "restricted", "left", "kicked"); ``fields`` override the shape's defaults (e.g.
        ``custom_title``, ``can_restrict_members``, ``until_date``)."""
        if status not in CHAT_MEMBER_FIELDS:
            raise ValueError(f"status is one of {sorted(CHAT_MEMBER_FIELDS)}")
        user = self._user(user)
        member = {"status": status, **CHAT_MEMBER_FIELDS[status], **fields}
        self.members[(chat_id, user.id)] = member
        return member

    def change_member(
        self, chat_id: int, user: UserLike, status: str, *, by: UserLike | None = None, **fields: Any
    ) -> dict[str, Any] | None:
        """``user``'s status in a group changes, by ``by``'s doing (default: their own), as :meth:`set_member`
        sets it, and the bot is told as the Bot API tells it (Update): ``my_chat_member`` when ``user`` is the
        bot itself (``self.bot_user`` or its id), ``chat_member`` when the bot administers the group ("The bot
        must be an administrator in the chat and must explicitly specify "chat_member" in the list of
        allowed_updates to receive these updates"), nothing otherwise. Returns the update pushed, if any."""
        user_id = user.id if isinstance(user, TgUser) else int(user["id"]) if isinstance(user, dict) else int(user)
        target = self.bot_user if user_id == self.bot_id else self._user(user)
        if status not in CHAT_MEMBER_FIELDS:
            raise ValueError(f"status is one of {sorted(CHAT_MEMBER_FIELDS)}")
        old = self._chat_member(chat_id, target)
        self.members[(chat_id, target.id)] = {"status": status, **CHAT_MEMBER_FIELDS[status], **fields}
        if target.id == self.bot_id:
            kind = "my_chat_member"
        elif self.members.get((chat_id, self.bot_id), {}).get("status") in ("creator", "administrator"):
            kind = "chat_member"
        else:
            return None
        changed = {  # ChatMemberUpdated
            "chat": dict(self.chats[chat_id]),
            "from": (target if by is None else self._user(by)).to_dict(),
            "date": int(self.now()),
            "old_chat_member": old,
            "new_chat_member": self._chat_member(chat_id, target),
        }
        return self._push_update({kind: changed})

    def kick_bot(self, chat_id: int) -> None:
        """The bot was removed from a group: sends fail with 403 'bot was kicked from the group chat'."""
        self._kicked_from.add(chat_id)

    def _private_chat(self, user: TgUser) -> dict[str, Any]:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = {"id": user.id, "type": "private", "first_name": user.first_name}
            if user.last_name:
                chat["last_name"] = user.last_name
            if user.username:
                chat["username"] = user.username
            self.chats[user.id] = chat
        return chat

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    # ------------------------------------------------------------------ the fake's clock

    def flood_control(self) -> FloodControl:
        """The fake's flood control (one started with ``flood_control=False`` has none)."""
        assert self.flood is not None, "the fake was started without flood control"
        return self.flood

    def now(self) -> float:
        """The fake's Unix time (real time plus what tests advanced)."""
        return self.clock.now()

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (an outage ends when it passes its end, a failed webhook
        request is repeated when its wait is over)."""
        self.clock.advance(seconds)
        if self.webhook_sender is not None:
            self.webhook_sender.wake()

    # ------------------------------------------------------------------ fault injection
    # ``method`` is a Bot API method name (any case) or "*" for every method.

    def rate_limit_next(self, method: str, retry_after: int = 1, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` get a 429 flood-control answer.

        ResponseParameters: ``retry_after`` is an Integer, "the number of seconds left to wait";
        Telegram's answers say at least 1, so anything else is refused here.
        """
        if isinstance(retry_after, bool) or not isinstance(retry_after, int) or retry_after < 1:
            raise ValueError(f"Telegram's retry_after is a whole number of seconds >= 1, not {retry_after!r}")
        body = {
            "ok": False,
            "error_code": 429,
            "description": f"Too Many Requests: retry after {retry_after}",
            "parameters": {"retry_after": retry_after},
        }
        self._faults.append(Fault(method.lower(), None, 429, body, count=count, kind="429"))

    def flood_wait(self, seconds: int = 35, chat_id: int | None = None) -> None:
        """A flood wait of ``seconds`` served at the next message or edit to ``chat_id`` (to any chat when
        None): answered "Too Many Requests: retry after N" and then held, unlike :meth:`rate_limit_next`'s
        single answer: that chat (None: the whole bot) is refused for N s of the fake's clock, and a request
        during the wait doubles it (:meth:`tests.fakes.telegram_limits.FloodControl.trip`). Needs flood
        control on."""
        if self.flood is None:
            raise ValueError("flood_wait needs flood control (FakeTelegram(flood_control=True), the default)")
        self.flood.trip(seconds, chat_id)

    def fail_next(self, method: str, error_code: int, description: str, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` fail with the given error."""
        body = {"ok": False, "error_code": error_code, "description": description}
        kind = "5xx" if error_code >= 500 else "error"
        self._faults.append(Fault(method.lower(), None, error_code, body, count=count, kind=kind))

    def server_error_next(self, method: str = "*", *, count: int = 1, status: int = 500) -> None:
        """The next ``count`` calls of ``method`` get an HTTP ``status`` server error: a JSON 500
        like the Bot API's, or the HTML page of the proxy in front of it (502, 503, 504)."""
        if status < 500:
            raise ValueError("a server error is 5xx")
        if status == 500:
            self.fail_next(method, 500, "Internal Server Error", count=count)
            return
        self._faults.append(Fault(method.lower(), None, status, None, count=count, kind="5xx"))

    def reset_next(self, method: str = "*", *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` have their connection reset (no answer)."""
        self._faults.append(Fault(method.lower(), None, 0, None, count=count, kind="reset", reset=True))

    def slow_next(self, method: str, seconds: float, *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` are answered normally, after ``seconds`` of real time
        (a Bot API under load: the call is slow, not refused)."""
        self._slow.extend([(method.lower(), seconds)] * count)

    def outage(self, duration: float = 30.0, *, mode: str = "reset") -> None:
        """Refuse every call for ``duration`` seconds of the fake's clock (end it early with
        :meth:`advance` or :meth:`end_outage`): connections reset (``mode="reset"``) or HTTP 502
        (``"unavailable"``). Pending long polls are cut too."""
        if mode not in OUTAGE_MODES:
            raise ValueError(f"mode is one of {OUTAGE_MODES}")
        self.outage_state = Outage(self.now() + duration, mode)
        self._wake_pollers("outage")

    def end_outage(self) -> None:
        self.outage_state = None

    def _in_outage(self) -> Outage | None:
        if self.outage_state is not None and self.now() >= self.outage_state.until:
            self.outage_state = None
        return self.outage_state

    def faults_of(self, kind: str) -> list[ServedFault]:
        return [f for f in self.faults_served if f.kind == kind]

    def _served(self, kind: str, method: str) -> None:
        self.faults_served.append(ServedFault(kind, method, method, self.now()))

    def _match_fault(self, key: str) -> Fault | None:
        for fault in self._faults:
            if fault.method in (key, "*") and fault.count > 0:
                fault.count -= 1
                if fault.count == 0:
                    self._faults.remove(fault)
                return fault
        return None

    # ------------------------------------------------------------------ user-side injection

    async def send_user_message(
        self,
        chat_id: int | None,
        user: UserLike,
        text: str,
        chat_type: str = "group",
        *,
        reply_to_message_id: int | None = None,
        title: str | None = None,
    ) -> dict[str, Any]:
        """A user writes ``text`` in a chat; returns the message (delivered per privacy mode).

        ``chat_type``: 'group', 'supergroup' or 'private' (for 'private', ``chat_id`` may be
        None and defaults to the user's id). Messages starting with '/' get ``bot_command``
        entities. Whether the bot got it: ``self.delivered(message)``.
        """
        sender = self._user(user)
        if chat_type == "private":
            chat_id = sender.id if chat_id is None else chat_id
            if chat_id != sender.id:
                raise ValueError("a private chat's id is the user's id")
            self.mark_started(sender)
            chat = self._private_chat(sender)
        else:
            if chat_id is None or chat_id > 0:
                raise ValueError("group chats need a negative chat_id")
            if chat_id in self._kicked_from:
                raise ValueError(f"the bot is not in chat {chat_id}")
            known = self.chats.get(chat_id)
            chat = self.add_group(chat_id, title, supergroup=chat_type == "supergroup") if known is None else known
            self.members.setdefault((chat_id, sender.id), {"status": "member"})
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "from": sender.to_dict(),
            "chat": dict(chat),
            "date": int(self.now()),  # Telegram's time, on the fake's clock (what tests advanced included)
            "text": text,
        }
        entities = command_entities(text)
        if entities:
            message["entities"] = entities
        if reply_to_message_id is not None:
            replied = self.messages.get((chat["id"], reply_to_message_id))
            if replied is None:
                raise ValueError(f"no message {reply_to_message_id} in chat {chat['id']}")
            message["reply_to_message"] = dict(replied)
        self.messages[(chat["id"], message["message_id"])] = message
        if self._bot_sees(message):
            self._delivered.add((chat["id"], message["message_id"]))
            self._push_update({"message": message})
        return message

    async def send_callback_query(self, chat_id: int, user: UserLike, message_id: int, data: str) -> str:
        """A user presses an inline button with callback ``data`` under bot message ``message_id``."""
        sender = self._user(user)
        message = self.messages.get((chat_id, message_id))
        if message is None:
            raise ValueError(f"no message {message_id} in chat {chat_id}")
        if data not in callback_data_of(message):  # a client presses only the buttons a message shows
            raise ValueError(f"message {message_id} in chat {chat_id} has no button with callback data {data!r}")
        query_id = str(next(self._callback_ids))
        self._push_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": sender.to_dict(),
                    "message": dict(message),
                    "chat_instance": str(abs(chat_id) * 7 + 3),
                    "data": data,
                }
            }
        )
        return query_id

    def _bot_sees(self, message: dict[str, Any]) -> bool:
        chat = message["chat"]
        if chat["type"] == "private" or not self.privacy_mode:
            return True
        text = message.get("text") or ""
        username = self.bot_username.lower()
        if text.startswith("/"):
            first = text.split(maxsplit=1)[0]
            if "@" not in first:
                return True
            return first.split("@", 1)[1].lower() == username
        replied = message.get("reply_to_message")
        if replied and replied.get("from", {}).get("id") == self.bot_id:
            return True
        return f"@{username}" in text.lower()

    def delivered(self, message: dict[str, Any]) -> bool:
        """Whether an injected message was handed to the bot (privacy mode may hide it)."""
        return (message["chat"]["id"], message["message_id"]) in self._delivered

    def _push_update(self, payload: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": next(self._update_ids), **payload}
        self._updates.append(update)
        self._wake_pollers("update")
        if self.webhook_sender is not None:
            self.webhook_sender.wake()
        return update

    @property
    def webhook_attempts(self) -> list[WebhookAttempt]:
        """Every POST of an update to a webhook, in the order they ended."""
        return self.webhook_sender.attempts if self.webhook_sender is not None else []

    @property
    def long_polling(self) -> bool:
        """Whether a getUpdates is waiting for updates now (the bot is in its long poll)."""
        return any(not future.done() for future in self._pollers)

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates not yet taken by the bot (by getUpdates or the webhook)."""
        return list(self._updates)

    def _wake_pollers(self, reason: str) -> None:
        pollers, self._pollers = self._pollers, []
        for future in pollers:
            if not future.done():
                future.set_result(reason)

    # ------------------------------------------------------------------ records

    @property
    def sent(self) -> list[SentMessage]:
        return self.log.records

    def messages_in(self, chat_id: int, actions: Any = ("send",)) -> list[SentMessage]:
        """Bot actions in one chat, in order."""
        return self.log.select(chat_id, actions)

    async def wait_for_message(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        chat_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        """The next (not yet returned) message the bot sent, optionally in ``chat_id`` and matching."""
        return await self.log.wait_for(predicate, chat_id=chat_id, timeout=timeout)

    async def wait_for_edit(
        self,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        chat_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        return await self.log.wait_for(predicate, chat_id=chat_id, actions=("edit",), timeout=timeout)

    async def wait_for_action(
        self,
        action: str,
        predicate: Callable[[SentMessage], bool] | None = None,
        *,
        chat_id: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> SentMessage:
        return await self.log.wait_for(predicate, chat_id=chat_id, actions=(action,), timeout=timeout)

    async def assert_no_message(self, duration: float = 0.1, *, chat_id: int | None = None) -> None:
        await self.log.assert_quiet(duration, chat_id=chat_id)

    def file_bytes(self, file_id: str) -> bytes:
        return self._files[file_id][0].data

    # ------------------------------------------------------------------ HTTP plumbing

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        path = request.match_info["path"]
        for sent, file_path in self._files.values():
            if file_path == path:
                return web.Response(body=sent.data, content_type=sent.content_type or "application/octet-stream")
        return json_response({"ok": False, "error_code": 404, "description": "Not Found"}, 404)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, SentFile]]:
        params: dict[str, Any] = dict(request.query)
        files: dict[str, SentFile] = {}
        ctype = request.content_type
        if request.method == "POST" and request.can_read_body:
            if ctype == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    params.update(body)
            elif ctype.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if not isinstance(part, BodyPartReader) or part.name is None:
                        continue  # python-telegram-bot sends named fields only, none of them multipart
                    if part.filename is not None:
                        data = await part.read(decode=False)
                        files[part.name] = SentFile(
                            filename=part.filename,
                            data=bytes(data),
                            content_type=part.headers.get("Content-Type"),
                            field=part.name,
                        )
                    else:
                        params[part.name] = await part.text()
            else:
                form = await request.post()
                for key, value in form.items():
                    params[key] = value if isinstance(value, str | bytes | bytearray) else value.file.read()
        for key, value in list(params.items()):
            if not isinstance(value, str):
                continue
            if key in _JSON_FIELDS:
                try:
                    params[key] = json.loads(value)
                except ValueError:
                    raise _bad(f"can't parse {key} JSON object") from None
            elif key in _INT_FIELDS or key == "chat_id":
                if re.fullmatch(r"-?\d+", value):
                    params[key] = int(value)
            elif key in _BOOL_FIELDS:
                params[key] = value.lower() in ("true", "1")
            elif key == "timeout":
                params[key] = float(value)
        if isinstance(params.get("chat_id"), str) and re.fullmatch(r"-?\d+", params["chat_id"]):
            params["chat_id"] = int(params["chat_id"])
        return params, files

    async def _handle_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        outage = self._in_outage()
        if outage is not None:
            self._served("outage", method)
            if outage.mode == "reset":
                reset_connection(request)
            return _proxy_error(502)
        if request.match_info["token"] != self.token:
            return json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        key = method.lower()
        try:
            params, files = await self._read_params(request)
        except _ApiError as err:
            return self._error_response(err)
        self.requests.append((method, params))
        self.requested_at.append(self.now())
        slow = next((i for i, (name, _) in enumerate(self._slow) if name in (key, "*")), None)
        if slow is not None:
            await asyncio.sleep(self._slow.pop(slow)[1])
        fault = self._match_fault(key)
        if fault is not None:
            self._served(fault.kind, method)
            if fault.reset:
                reset_connection(request)
            if fault.body is None:
                return _proxy_error(fault.status)
            return json_response(fault.body, fault.status)
        handler = self._METHODS.get(key)
        if handler is None:
            self.unhandled.append((method, params))
            return json_response({"ok": False, "error_code": 404, "description": "Not Found"}, 404)
        if self.flood is not None:
            too_many = self.flood.check(key, params.get("chat_id"), self.now())
            if too_many is not None:
                return json_response(too_many, 429)
        try:
            result = await handler(self, params, files)
        except _ApiError as err:
            return self._error_response(err)
        except _Outage:
            self._served("outage", method)
            reset_connection(request)
        return json_response({"ok": True, "result": result})

    @staticmethod
    def _error_response(err: _ApiError) -> web.Response:
        body: dict[str, Any] = {"ok": False, "error_code": err.code, "description": err.description}
        if err.parameters:
            body["parameters"] = err.parameters
        return json_response(body, err.code)

    # ------------------------------------------------------------------ helpers for methods

    def _target_chat(self, params: dict[str, Any]) -> dict[str, Any]:
        if "chat_id" not in params:
            raise _bad("chat_id is empty")
        chat_id = params["chat_id"]
        if isinstance(chat_id, str):
            for named in self.chats.values():
                if named.get("username") and "@" + named["username"].lower() == chat_id.lower():
                    return named
            raise _bad("chat not found")
        if chat_id > 0:
            if chat_id in self._blocked_users:
                raise _ApiError(403, "Forbidden: bot was blocked by the user")
            if chat_id == self.bot_id:
                raise _ApiError(403, "Forbidden: bot can't send messages to bots")
            if chat_id not in self._started_users:
                if chat_id in self.users:
                    raise _ApiError(403, "Forbidden: bot can't initiate conversation with a user")
                raise _bad("chat not found")
        if chat_id in self._kicked_from:
            kind = self.chats.get(chat_id, {}).get("type", "group")
            raise _ApiError(403, f"Forbidden: bot was kicked from the {kind} chat")
        chat = self.chats.get(chat_id)
        if chat is None:
            raise _bad("chat not found")
        return chat

    def _reply_target(self, chat: dict[str, Any], params: dict[str, Any]) -> dict[str, Any] | None:
        reply_id = params.get("reply_to_message_id")
        allow = params.get("allow_sending_without_reply", False)
        parameters = params.get("reply_parameters")
        if isinstance(parameters, dict):
            reply_id = parameters.get("message_id", reply_id)
            allow = parameters.get("allow_sending_without_reply", allow)
            if parameters.get("chat_id") not in (None, chat["id"]):
                raise _bad("message to be replied not found")
        if reply_id is None:
            return None
        replied = self.messages.get((chat["id"], int(reply_id)))
        if replied is None and not allow:
            raise _bad("message to be replied not found")
        return replied

    def _new_bot_message(self, chat: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat["id"]),
            "from": self.bot_user.to_dict(),
            "chat": dict(chat),
            "date": int(self.now()),  # Telegram's time, on the fake's clock (what tests advanced included)
        }
        replied = self._reply_target(chat, params)
        if replied is not None:
            message["reply_to_message"] = dict(replied)
        markup = params.get("reply_markup")
        check_inline_keyboard(markup)
        if isinstance(markup, dict) and "inline_keyboard" in markup:
            message["reply_markup"] = markup
        return message

    def _record(
        self,
        action: str,
        method: str,
        chat_id: int | None,
        message: dict[str, Any] | None,
        params: dict[str, Any],
        **extra: Any,
    ) -> SentMessage:
        text = None
        if message is not None:
            text = message.get("text", message.get("caption"))
        record = SentMessage(
            platform="telegram",
            action=action,
            chat_id=chat_id,
            message_id=message.get("message_id") if message else params.get("message_id"),
            text=extra.pop("text", text) or "",
            method=method,
            reply_markup=params.get("reply_markup"),
            reply_to=(message.get("reply_to_message") or {}).get("message_id") if message else None,
            payload=params,
            at=self.now(),
            **extra,
        )
        return self.log.add(record)

    def _store_file(self, sent: SentFile, kind: str) -> tuple[str, str, str]:
        number = next(self._file_ids)
        file_id = f"FAKE{kind.upper()}{number:08d}"
        unique_id = f"U{number:08d}"
        file_path = f"{kind}s/file_{number}{_extension(sent.filename)}"
        self._files[file_id] = (sent, file_path)
        return file_id, unique_id, file_path

    def _input_file(self, params: dict[str, Any], files: dict[str, SentFile], name: str) -> SentFile:
        if name in files:
            return files[name]
        value = params.get(name)
        if isinstance(value, str):
            if value.startswith("attach://"):
                attached = files.get(value[len("attach://") :])
                if attached is None:
                    raise _bad("wrong file identifier/HTTP URL specified")
                return attached
            if value in self._files:
                return self._files[value][0]
            if value.startswith(("http://", "https://")):
                return SentFile(filename=value.rsplit("/", 1)[-1] or "file", data=b"", field=name)
            raise _bad("wrong remote file identifier specified: Wrong string length")
        raise _bad(f"there is no {name} in the request")

    def _check_caption(self, params: dict[str, Any]) -> str | None:
        caption = params.get("caption")
        if caption is None or caption == "":
            return None
        plain = _plain_text(caption, params.get("parse_mode"))
        if utf16_len(plain) > CAPTION_LIMIT:
            raise _bad("message caption is too long")
        return plain

    @staticmethod
    def _check_text(params: dict[str, Any]) -> str:
        text = params.get("text")
        if text is None or text == "":
            raise _bad("message text is empty")
        plain = _plain_text(str(text), params.get("parse_mode"))
        if not plain.strip():
            raise _bad("message text is empty")
        if utf16_len(plain) > TEXT_LIMIT:
            raise _bad("message is too long")
        return plain

    def _find_message(self, params: dict[str, Any], what: str) -> dict[str, Any]:
        if params.get("inline_message_id"):
            raise _bad(f"message to {what} not found")
        chat = self.chats.get(params.get("chat_id", 0))  # no chat 0: a missing id finds none
        if chat is None:
            raise _bad("chat not found")
        if "message_id" not in params:
            raise _bad("message identifier is not specified")
        message = self.messages.get((chat["id"], int(params["message_id"])))
        if message is None:
            raise _bad(f"message to {what} not found")
        return message

    # ------------------------------------------------------------------ methods

    async def _get_me(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        me = self.bot_user.to_dict()
        me.pop("language_code", None)
        me.update(
            {
                "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": False,
                "can_connect_to_business": False,
                "has_main_web_app": False,
            }
        )
        return me

    async def _get_updates(self, params: dict[str, Any], files: dict[str, Any]) -> list[Any]:
        if self.webhook_url:
            raise _ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active;"
                " use deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        limit = max(1, min(100, int(params.get("limit") or 100)))
        timeout = float(params.get("timeout") or 0)
        allowed = params.get("allowed_updates") or None
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        # A new getUpdates terminates a pending one, like Telegram does.
        conflicting, self._pollers = self._pollers, []
        for future in conflicting:
            if not future.done():
                future.set_result("conflict")

        def pending() -> list[dict[str, Any]]:
            out = [u for u in self._updates if wanted(u, allowed)]
            return out[:limit]

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = pending()
            remaining = deadline - loop.time()
            if found or remaining <= 0 or self._stopping:
                return found
            future = loop.create_future()
            self._pollers.append(future)
            try:
                reason = await asyncio.wait_for(future, remaining)
            except TimeoutError:
                return pending()
            finally:
                if future in self._pollers:
                    self._pollers.remove(future)
            if reason == "conflict":
                raise _ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
                )
            if reason == "stop":
                return pending()
            if reason == "outage":
                raise _Outage()

    async def _delete_webhook(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        """deleteWebhook: updates wait for getUpdates again (``drop_pending_updates``: forgotten)."""
        self.webhook_url = None
        if self.webhook_sender is not None:
            await self.webhook_sender.stop()
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _set_webhook(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        """setWebhook: an empty URL removes the webhook; otherwise updates are POSTed to it."""
        try:
            webhook = webhook_settings(params, local_mode=self.local_mode)
        except WebhookRefused as refused:
            raise _bad(str(refused).removeprefix("Bad Request: ")) from None
        if webhook is None:
            return await self._delete_webhook(params, files)
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook_url = webhook.url
        if self.webhook_sender is None:
            self.webhook_sender = WebhookSender(
                webhook,
                self._updates,
                self.now,
                retry_seconds=self.webhook_retry_seconds,
                give_up_after=self.webhook_give_up_after,
            )
        self.webhook_sender.webhook = webhook
        self.webhook_sender.updates = self._updates  # getUpdates may have replaced the list
        self.webhook_sender.start()
        self.webhook_sender.wake()
        return True

    async def _get_webhook_info(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        """getWebhookInfo: WebhookInfo (an empty URL when updates go through getUpdates)."""
        if self.webhook_url is None or self.webhook_sender is None:
            return {"url": "", "has_custom_certificate": False, "pending_update_count": len(self._updates)}
        return self.webhook_sender.info()

    async def _send_message(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        chat = self._target_chat(params)
        self._check_text(params)
        message = self._new_bot_message(chat, params)
        message["text"] = params["text"]
        self.messages[(chat["id"], message["message_id"])] = message
        self._record("send", "sendMessage", chat["id"], message, params)
        return message

    async def _send_photo(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        chat = self._target_chat(params)
        upload = self._input_file(params, files, "photo")
        self._check_caption(params)
        if upload.data and len(upload.data) > 10 * 1024 * 1024:
            raise _bad("file is too big")
        message = self._new_bot_message(chat, params)
        file_id, unique_id, _ = self._store_file(upload, "photo")
        width, height = image_size(upload.data)
        width, height = width or 1, height or 1
        sizes = []
        if max(width, height) > 90:
            scale = 90 / max(width, height)
            sizes.append(
                {
                    "file_id": file_id + "s",
                    "file_unique_id": unique_id + "s",
                    "file_size": max(1, len(upload.data) // 20),
                    "width": max(1, int(width * scale)),
                    "height": max(1, int(height * scale)),
                }
            )
        sizes.append(
            {
                "file_id": file_id,
                "file_unique_id": unique_id,
                "file_size": len(upload.data),
                "width": width,
                "height": height,
            }
        )
        message["photo"] = sizes
        if params.get("caption"):
            message["caption"] = params["caption"]
        self.messages[(chat["id"], message["message_id"])] = message
        self._record("send", "sendPhoto", chat["id"], message, params, files=[upload])
        return message

    async def _send_document(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        chat = self._target_chat(params)
        upload = self._input_file(params, files, "document")
        self._check_caption(params)
        if len(upload.data) > 50 * 1024 * 1024:
            raise _ApiError(413, "Request Entity Too Large")
        message = self._new_bot_message(chat, params)
        file_id, unique_id, _ = self._store_file(upload, "document")
        message["document"] = {
            "file_id": file_id,
            "file_unique_id": unique_id,
            "file_name": upload.filename,
            "mime_type": upload.content_type or guess_content_type(upload.filename, upload.data),
            "file_size": len(upload.data),
        }
        if params.get("caption"):
            message["caption"] = params["caption"]
        self.messages[(chat["id"], message["message_id"])] = message
        self._record("send", "sendDocument", chat["id"], message, params, files=[upload])
        return message

    async def _edit_message_text(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        message = self._find_message(params, "edit")
        if message.get("from", {}).get("id") != self.bot_id:
            raise _bad("message can't be edited")
        if "text" not in message:
            raise _bad("there is no text in the message to edit")
        self._check_text(params)
        check_inline_keyboard(params.get("reply_markup"))
        new_markup = params.get("reply_markup") if isinstance(params.get("reply_markup"), dict) else None
        if params["text"] == message["text"] and new_markup == message.get("reply_markup"):
            raise _bad(_NOT_MODIFIED.split("Bad Request: ", 1)[1])
        message["text"] = params["text"]
        if new_markup is not None:
            message["reply_markup"] = new_markup
        else:
            message.pop("reply_markup", None)
        message["edit_date"] = int(time.time())
        self._record("edit", "editMessageText", message["chat"]["id"], message, params)
        return message

    async def _edit_message_caption(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        message = self._find_message(params, "edit")
        if message.get("from", {}).get("id") != self.bot_id:
            raise _bad("message can't be edited")
        if "text" in message:
            raise _bad("there is no caption in the message to edit")
        self._check_caption(params)
        caption = params.get("caption") or ""
        check_inline_keyboard(params.get("reply_markup"))
        new_markup = params.get("reply_markup") if isinstance(params.get("reply_markup"), dict) else None
        if caption == message.get("caption", "") and new_markup == message.get("reply_markup"):
            raise _bad(_NOT_MODIFIED.split("Bad Request: ", 1)[1])
        if caption:
            message["caption"] = caption
        else:
            message.pop("caption", None)
        message["edit_date"] = int(time.time())
        self._record("edit", "editMessageCaption", message["chat"]["id"], message, params)
        return message

    async def _edit_message_reply_markup(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        message = self._find_message(params, "edit")
        check_inline_keyboard(params.get("reply_markup"))
        new_markup = params.get("reply_markup") if isinstance(params.get("reply_markup"), dict) else None
        if new_markup == message.get("reply_markup"):
            raise _bad(_NOT_MODIFIED.split("Bad Request: ", 1)[1])
        if new_markup is None:
            message.pop("reply_markup", None)
        else:
            message["reply_markup"] = new_markup
        message["edit_date"] = int(time.time())
        self._record("edit", "editMessageReplyMarkup", message["chat"]["id"], message, params)
        return message

    async def _delete_message(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        message = self._find_message(params, "delete")
        del self.messages[(message["chat"]["id"], message["message_id"])]
        self._record("delete", "deleteMessage", message["chat"]["id"], message, params)
        return True

    async def _send_chat_action(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        self._target_chat(params)
        return True

    async def _answer_callback_query(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        if query_id in self.callback_answers:
            raise _bad("query is too old and response timeout expired or query ID is invalid")
        self.callback_answers[query_id] = params
        chat_id = None
        for update in self._updates:
            query = update.get("callback_query")
            if query and query["id"] == query_id:
                chat_id = query["message"]["chat"]["id"]
        self.log.add(
            SentMessage(
                platform="telegram",
                action="answer_callback",
                chat_id=chat_id,
                message_id=None,
                text=params.get("text") or "",
                method="answerCallbackQuery",
                payload=params,
                at=self.now(),
            )
        )
        return True

    @staticmethod
    def _scope_key(params: dict[str, Any]) -> str:
        language = params.get("language_code")
        # setMyCommands / getMyCommands / deleteMyCommands: "A two-letter ISO 639-1 language code";
        # anything else (fr-FR, french, FR) is refused.
        if language and language not in ISO_639_1:
            raise _bad("invalid language code specified")
        scope = params.get("scope") or {"type": "default"}
        key = scope.get("type", "default")
        if "chat_id" in scope:
            key += f":{scope['chat_id']}"
        if "user_id" in scope:
            key += f":{scope['user_id']}"
        if params.get("language_code"):
            key += f"/{params['language_code']}"
        return str(key)

    async def _set_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad("can't parse commands JSON object")
        if len(commands) > 100:
            raise _bad("too many commands specified")
        for command in commands:
            name = command.get("command", "")
            description = command.get("description", "")
            if not _COMMAND_NAME_RE.match(name):
                raise _bad("BOT_COMMAND_INVALID")
            if not (1 <= len(description) <= 256):
                raise _bad("command description is empty" if not description else "BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._scope_key(params)] = commands
        return True

    async def _set_my_description(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        return self._set_description(params, "description", 512)

    async def _set_my_short_description(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        return self._set_description(params, "short_description", 120)

    def _set_description(self, params: dict[str, Any], field: str, longest: int) -> bool:
        """setMyDescription (0-512 characters) and setMyShortDescription (0-120), per ISO 639-1 language."""
        language = params.get("language_code")
        if language and language not in ISO_639_1:
            raise _bad("invalid language code specified")
        text = str(params.get(field) or "")
        if len(text) > longest:
            raise _bad(f"{field.upper()}_INVALID")
        self.descriptions[field + (f"/{language}" if language else "")] = text
        return True

    async def _get_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> list[Any]:
        return self.commands.get(self._scope_key(params), [])

    async def _delete_my_commands(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        self.commands.pop(self._scope_key(params), None)
        return True

    async def _get_chat(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        chat = self.chats.get(params.get("chat_id", 0))  # no chat 0: a missing id finds none
        if chat is None:
            raise _bad("chat not found")
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _group_for_members(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = params.get("chat_id")
        chat = self.chats.get(chat_id or 0)  # no chat 0: a missing id finds none
        if chat is None:
            raise _bad("chat not found")
        if chat_id in self._kicked_from:
            raise _ApiError(403, f"Forbidden: bot was kicked from the {chat['type']} chat")
        return chat

    def _chat_member(self, chat_id: int, user: TgUser) -> dict[str, Any]:
        member = self.members.get((chat_id, user.id))
        if member is None and user.id == self.bot_id:
            member = {"status": "member"}
        return {"user": user.to_dict(), **(member or {"status": "left"})}

    async def _get_chat_member(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        """getChatMember: "Returns a ChatMember object on success", one of the six shapes."""
        chat = self._group_for_members(params)
        user = self.users.get(params.get("user_id", 0))  # no user 0: a missing id finds none
        if user is None and params.get("user_id") == self.bot_id:
            user = self.bot_user
        if user is None:
            raise _bad("user not found")
        return self._chat_member(chat["id"], user)

    async def _get_chat_administrators(self, params: dict[str, Any], files: dict[str, Any]) -> list[Any]:
        """getChatAdministrators: the creator and administrators (bots included)."""
        chat = self._group_for_members(params)
        admins = []
        for (chat_id, user_id), member in self.members.items():
            if chat_id == chat["id"] and member["status"] in ("creator", "administrator"):
                user = self.bot_user if user_id == self.bot_id else self.users[user_id]
                admins.append({"user": user.to_dict(), **member})
        return admins

    async def _get_file(self, params: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
        file_id = str(params.get("file_id", ""))
        if file_id not in self._files:
            raise _bad("invalid file_id")
        sent, file_path = self._files[file_id]
        return {
            "file_id": file_id,
            "file_unique_id": "U" + file_id,
            "file_size": len(sent.data),
            "file_path": file_path,
        }

    async def _true(self, params: dict[str, Any], files: dict[str, Any]) -> bool:
        return True

    _METHODS: ClassVar[dict[str, Callable[..., Any]]] = {
        "getme": _get_me,
        "getupdates": _get_updates,
        "deletewebhook": _delete_webhook,
        "setwebhook": _set_webhook,
        "getwebhookinfo": _get_webhook_info,
        "sendmessage": _send_message,
        "sendphoto": _send_photo,
        "senddocument": _send_document,
        "editmessagetext": _edit_message_text,
        "editmessagecaption": _edit_message_caption,
        "editmessagereplymarkup": _edit_message_reply_markup,
        "deletemessage": _delete_message,
        "sendchataction": _send_chat_action,
        "answercallbackquery": _answer_callback_query,
        "setmycommands": _set_my_commands,
        "getmycommands": _get_my_commands,
        "deletemycommands": _delete_my_commands,
        "getchat": _get_chat,
        "getchatmember": _get_chat_member,
        "getchatadministrators": _get_chat_administrators,
        "getfile": _get_file,
        "setmydescription": _set_my_description,
        "setmyshortdescription": _set_my_short_description,
        "setmyname": _true,
        "setchatmenubutton": _true,
        "close": _true,
        "logout": _true,
    }


def _extension(filename: str) -> str:
    match = re.search(r"\.[A-Za-z0-9]{1,5}$", filename or "")
    return match.group().lower() if match else ""


@asynccontextmanager
async def running_application(
    app: AnyApplication,
    fake: FakeTelegram,
    *,
    fail_on_errors: bool = True,
    run_post_init: bool = True,
    poll_timeout: int = 10,
    allowed_updates: list[str] | None = None,
) -> AsyncIterator[AnyApplication]:
    """Run a PTB ``Application`` against ``fake`` the way ``run_polling`` would, inside this loop.

    Calls ``post_init`` (which only ``run_polling``/``run_webhook`` call otherwise), starts the
    updater's long poll and the application, and on exit stops and shuts everything down.
    With ``fail_on_errors`` an error handler is added that makes the fake's wait helpers raise
    :class:`BotErrors` as soon as a handler raises. ``allowed_updates``: the update kinds the long poll asks
    for, as ``run_polling(allowed_updates=...)`` would (None: Telegram's default, which leaves out
    ``chat_member``).
    """
    if fail_on_errors:

        async def _report(update: object, context: Any) -> None:
            fake.log.report_error(context.error)

        app.add_error_handler(_report)
    await app.initialize()
    try:
        if run_post_init and app.post_init:
            await app.post_init(app)
        assert app.updater is not None, "an application built with an updater"
        await app.updater.start_polling(poll_interval=0, timeout=poll_timeout, allowed_updates=allowed_updates)
        await app.start()
        try:
            yield app
        finally:
            if app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
                if app.post_stop:
                    await app.post_stop(app)
    finally:
        await app.shutdown()
        if app.post_shutdown:
            await app.post_shutdown(app)
