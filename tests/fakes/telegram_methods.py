"""The Bot API methods the fake Telegram implements, one handler each, and ``_METHODS``, their table by
lower-case method name: getUpdates and the webhook, sending, editing and deleting messages, callback
answers, the bot's commands and descriptions, chats, members and files.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any, ClassVar

from ._common import SentMessage, guess_content_type, image_size
from .telegram_bot_messages import BotMessages
from .telegram_objects import _ApiError, _bad, _Outage
from .telegram_text import check_inline_keyboard
from .telegram_webhook import WebhookRefused, WebhookSender, wanted, webhook_settings

_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a content and reply markup of the current message"
)

_COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")

# setMyCommands: "language_code: A two-letter ISO 639-1 language code" (ISO 639-1's codes).
ISO_639_1 = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de
    dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie
    ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg
    mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro
    ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty
    ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split()
)


class TelegramMethods(BotMessages):
    """The Bot API methods' handlers, called as ``handler(fake, params, files)``."""

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
