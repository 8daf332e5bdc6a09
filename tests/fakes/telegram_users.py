"""The test's side of the fake Telegram: users write in chats and press inline buttons (updates pushed
to the bot, hidden by privacy mode as Telegram hides them), and the records of what the bot did with the
waits on them (``wait_for_message``, ``assert_no_message``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._common import DEFAULT_TIMEOUT, SentMessage
from .telegram_objects import UserLike
from .telegram_text import callback_data_of, command_entities
from .telegram_world import TelegramWorld


class TelegramUsers(TelegramWorld):
    """What users do, and what the bot was seen doing."""

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
