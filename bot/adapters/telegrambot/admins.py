"""Who administers each Telegram group, read once per group at a time and remembered.

A group command needs to know whether its sender may referee (the group's creator or an administrator).
``getChatAdministrators`` answers for the whole group at once; :class:`GroupAdmins` asks it once per group
and period (``ttl``), and a command that comes while its group's look-up is on its way awaits that same
look-up (single flight): fifty players joining in the same second cost one request, not fifty-one.

Between two look-ups the Bot API's membership updates keep what is remembered up to date (``ALLOWED_UPDATES``
asks for them): ``chat_member`` (a member promoted, demoted, gone; sent only to a bot that administers the
group) and ``my_chat_member`` (the bot's own status: removed from a group, its list is forgotten). A change
seen while a look-up is on its way is applied to what that look-up brings back, which may predate it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import ChatMember, ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

log = logging.getLogger("arbitre.telegram")

# The updates the adapter asks for, by long poll and by webhook alike: messages (the commands) and the
# membership changes that keep the groups' administrators up to date (the Bot API sends ``chat_member`` only
# to a bot that asks for it by name, and an explicit list must name ``my_chat_member`` too).
ALLOWED_UPDATES: tuple[str, ...] = (Update.MESSAGE, Update.MY_CHAT_MEMBER, Update.CHAT_MEMBER)

ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
GONE_STATUSES = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})
GROUP_TYPES = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})

LookUp = Callable[[int], Awaitable[frozenset[int]]]


def is_admin_member(member: ChatMember) -> bool:
    """Whether a chat member may referee: the group's creator or one of its administrators."""
    return member.status in ADMIN_STATUSES


async def read_administrators(bot: Any, chat_id: int) -> frozenset[int]:
    """The ids of the group's creator and administrators, in one ``getChatAdministrators``."""
    members = await bot.get_chat_administrators(chat_id)
    return frozenset(m.user.id for m in members if is_admin_member(m))


@dataclass
class _Known:
    admins: frozenset[int]
    until: float  # by the clock; past it, the group's list is read again


class GroupAdmins:
    """Each group's administrators: :meth:`of` reads them through ``look_up`` (the group's id -> their user
    ids) at most once per group at a time and keeps them ``ttl`` s by ``clock`` (a failed look-up counts as
    no administrator for ``failure_ttl`` s, so that a refused read is not repeated by every command); 0 keeps
    nothing (every command after a look-up has come back starts a new one)."""

    def __init__(
        self,
        look_up: LookUp,
        clock: Callable[[], float],
        ttl: float = 60.0,
        *,
        failure_ttl: float = 5.0,
        capacity: int = 10_000,
    ) -> None:
        self.look_up = look_up
        self.clock = clock
        self.ttl = ttl
        self.failure_ttl = failure_ttl
        self.capacity = capacity
        self.look_ups = 0  # look-ups started by this cache
        self._known: dict[int, _Known] = {}
        self._flights: dict[int, asyncio.Task[frozenset[int]]] = {}
        self._seen: dict[int, dict[int, bool]] = {}  # group -> changes seen while its look-up is on its way

    async def of(self, chat_id: int) -> frozenset[int]:
        """The ids of the group's administrators: remembered, or read (the read on its way, if there is one)."""
        known = self._known.get(chat_id)
        if known is not None and self._fresh(known, self.clock()):
            return known.admins
        flight = self._flights.get(chat_id)
        if flight is None or flight.done():  # (done and still here: cancelled before it began)
            flight = self._flights[chat_id] = asyncio.ensure_future(self._read(chat_id))
        # shielded: a command cancelled while it waits leaves the look-up to the others
        return await asyncio.shield(flight)

    async def _read(self, chat_id: int) -> frozenset[int]:
        self.look_ups += 1
        self._seen[chat_id] = {}
        ttl = self.ttl
        try:
            admins = await self.look_up(chat_id)
        except TelegramError as error:
            log.info("could not read the administrators of %s: %s", chat_id, error)
            admins, ttl = frozenset(), min(self.ttl, self.failure_ttl)
        finally:
            self._flights.pop(chat_id, None)
            seen = self._seen.pop(chat_id, {})
        admins = _changed(admins, seen)
        self._remember(chat_id, admins, ttl)
        return admins

    def _fresh(self, known: _Known, now: float) -> bool:
        """Whether a list may still be used (``ttl`` lowered since it was read, or a clock set back: no)."""
        return 0 < known.until - now <= self.ttl

    def _remember(self, chat_id: int, admins: frozenset[int], ttl: float) -> None:
        now = self.clock()
        if len(self._known) >= self.capacity:  # forget the lists that have expired; all of them if none has
            self._known = {k: v for k, v in self._known.items() if self._fresh(v, now)}
            if len(self._known) >= self.capacity:
                self._known.clear()
        self._known[chat_id] = _Known(admins, now + ttl)

    # -- what the membership updates say --------------------------------------------------------------

    def member_changed(self, chat_id: int, user_id: int, admin: bool) -> None:
        """``user_id`` is (or is no longer) one of the group's administrators, as an update says."""
        seen = self._seen.get(chat_id)
        if seen is not None:
            seen[user_id] = admin
        known = self._known.get(chat_id)
        if known is not None:
            known.admins = _changed(known.admins, {user_id: admin})

    def forget(self, chat_id: int) -> None:
        """The group's list is read again at its next command (the bot left it or was removed)."""
        self._known.pop(chat_id, None)

    def follow(self, update: Update) -> None:
        """Apply a ``chat_member`` or ``my_chat_member`` update (other updates change nothing)."""
        changed: ChatMemberUpdated | None = update.chat_member or update.my_chat_member
        if changed is None or changed.chat.type not in GROUP_TYPES:
            return
        member = changed.new_chat_member
        if update.my_chat_member is not None and member.status in GONE_STATUSES:
            self.forget(changed.chat.id)
            return
        self.member_changed(changed.chat.id, member.user.id, is_admin_member(member))

    async def on_update(self, update: Update, context: object) -> None:
        """python-telegram-bot's callback for a ``ChatMemberHandler``."""
        self.follow(update)


def _changed(admins: frozenset[int], changes: dict[int, bool]) -> frozenset[int]:
    if not changes:
        return admins
    added = {user for user, admin in changes.items() if admin}
    return (admins - changes.keys()) | added
