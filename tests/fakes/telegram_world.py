"""The world the fake Telegram's bot lives in: users (who pressed Start, who blocked the bot), group chats
with their members and statuses (and the ``chat_member`` updates when one changes), private chats, and
each chat's message ids.
"""

from __future__ import annotations

import itertools
from typing import Any

from .telegram_objects import CHAT_MEMBER_FIELDS, TgUser, UserLike
from .telegram_state import TelegramState


class TelegramWorld(TelegramState):
    """Users, chats and members, as tests set them up and the Bot API methods read them."""

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

    def _chat_member(self, chat_id: int, user: TgUser) -> dict[str, Any]:
        member = self.members.get((chat_id, user.id))
        if member is None and user.id == self.bot_id:
            member = {"status": "member"}
        return {"user": user.to_dict(), **(member or {"status": "left"})}
