"""The bot's messages as the fake Telegram's methods handle them: the chat a call targets (refused as
Telegram refuses it), the message replied to, the message built with its inline keyboard, its text or
caption checked, the files stored, and the record of what the bot did.
"""

from __future__ import annotations

import re
from typing import Any

from ._common import SentFile, SentMessage
from .telegram_objects import _ApiError, _bad
from .telegram_text import CAPTION_LIMIT, TEXT_LIMIT, _plain_text, check_inline_keyboard, utf16_len
from .telegram_world import TelegramWorld


class BotMessages(TelegramWorld):
    """Helpers of the Bot API methods that send, edit and delete the bot's messages."""

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


def _extension(filename: str) -> str:
    match = re.search(r"\.[A-Za-z0-9]{1,5}$", filename or "")
    return match.group().lower() if match else ""
