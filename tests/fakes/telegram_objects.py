"""The Bot API objects and errors the parts of the fake Telegram share: a user (:class:`TgUser`), the
fields of each ChatMember status, and the error a method answers (``_ApiError``, a Bad Request built by
``_bad``; ``_Outage`` cuts a pending long poll).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


class _ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


def _bad(description: str) -> _ApiError:
    return _ApiError(400, "Bad Request: " + description)


class _Outage(Exception):
    """A pending long poll cut by an outage."""


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
