"""Telegram's flood control kept by the bot itself: a message or an edit leaves only when the Bot API FAQ's
limits leave room for it ("My bot is hitting limits, how do I avoid this?": about one message a second in
a chat, short bursts allowed; no more than 20 messages a minute to one group; about 30 a second overall),
so that the bot is not answered 429 and never sends during a flood wait, which Telegram lengthens.

python-telegram-bot's ``AIORateLimiter`` keeps a leaky bucket per group, which lets up to 40 messages into
a minute after a burst and has no per-chat pace; this pacer comes first and reads the limits strictly
(any 60 s, any second), then hands the request to the library's limiter, which still retries a 429.

A message counts in the windows from when it leaves until Telegram has answered it, then as of that answer:
Telegram counts it when it arrives, which may be later than it left (the network, a retry), and a window
kept by the moments messages left could let the 31st of a second arrive within the same second as the
first (the crowd test saw it with 50 acknowledgements at once, and python-telegram-bot's retries of the
429s then fell inside the flood wait, which grew to an hour).

The pacer is the one limiter of a group's messages, the one that knows what comes first: the library's
limiter behind it keeps no bucket of its own (:func:`library_limiter`). Its buckets count every request
that names a chat, reads included: fifty ``getChatAdministrators`` filled a group's 20 a minute and held
the draw behind them for 96 s. A request that posts nothing (a read, a chat action, a deletion) never
waits here, and reaches the library's limiter without its chat, so that no bucket of any limiter placed
there holds it either; it still gets the library's retries of a 429.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

from ..tracking import POLL_SECONDS, BudgetShortError

# What Telegram counts: every method that posts a message in a chat or changes one (reads, chat actions,
# deletions post nothing).
MESSAGE_METHODS = frozenset(
    {
        "sendMessage", "sendPhoto", "sendDocument", "sendAudio", "sendVideo", "sendAnimation", "sendVoice",
        "sendVideoNote", "sendMediaGroup", "sendLocation", "sendVenue", "sendContact", "sendPoll", "sendDice",
        "sendSticker", "copyMessage", "copyMessages", "forwardMessage", "forwardMessages", "editMessageText",
        "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup",
    }
)  # fmt: skip


@dataclass(frozen=True)
class TelegramLimits:
    """The limits the pacer keeps. Telegram does not say how long a burst may be: three is a guess on the
    safe side (a round's close fits its first messages in it, the rest follow one a second)."""

    chat_per_second: float = 1.0
    chat_burst: int = 3
    group_per_minute: int = 20
    overall_per_second: int = 30


class Priority(Enum):
    """A request's rank in a chat's budget: what players must see waits its turn; a live line's edit or a
    countdown step goes only if it can go at once and leaves a group room for what they must see."""

    MUST_SEE = "must see"
    LIVE = "live"


# Of a group's 20 messages a minute, how many a live edit may never take: a round's close (the next draw, the
# results, the closed draw message, the standings) and a warning always find room.
LIVE_RESERVE = 10
# Of a chat's burst, how many messages a live edit leaves in hand: a close's first two (the closed draw's edit and
# the next draw) leave at once, not one chat pace after the counter's last edit each.
LIVE_BURST_RESERVE = 2


def library_limiter(max_retries: int = 3) -> AIORateLimiter:
    """python-telegram-bot's limiter as the pacer's inner one in production: it retries a 429 up to
    ``max_retries`` times (after its ``retry_after``, holding every request meanwhile) and keeps no bucket
    (``overall_max_rate=0``, ``group_max_rate=0``): the pacer alone paces messages."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=max_retries)


class _Sent:
    """One message in the windows: when Telegram answered it (None while it is on its way: it counts as now)."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at: float | None = None


class _Chat:
    """One chat's allowance: tokens of its burst (refilled at the chat's pace) and, for a group, its messages
    of the last minute."""

    def __init__(self, burst: int, now: float) -> None:
        self.tokens = float(burst)
        self.at = now
        self.minute: deque[_Sent] = deque()
        self.lock = asyncio.Lock()  # the chat's messages wait their turn in the order they came


class FloodPacer(BaseRateLimiter[Any]):
    """A rate limiter for python-telegram-bot that holds each message until Telegram's limits allow it, by
    ``clock`` (Unix time; the adapter's), then passes it to ``inner`` (the library's limiter, or None)."""

    def __init__(
        self,
        inner: BaseRateLimiter[Any] | None,
        clock: Callable[[], float],
        limits: TelegramLimits = TelegramLimits(),
    ) -> None:
        self.inner = inner
        self.clock = clock
        self.limits = limits
        self._chats: dict[int | str, _Chat] = {}
        self.group_waits = 0  # messages players must see that waited for a group's minute to free a slot
        self.holds = 0  # times a message looked at the clock and found no room yet (each a pause before the next)
        self._second: deque[_Sent] = deque()

    async def initialize(self) -> None:
        if self.inner is not None:
            await self.inner.initialize()

    async def shutdown(self) -> None:
        if self.inner is not None:
            await self.inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Any,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat_id = data.get("chat_id")
        priority = rate_limit_args if isinstance(rate_limit_args, Priority) else Priority.MUST_SEE
        if isinstance(rate_limit_args, Priority):
            rate_limit_args = None  # the library's limiter takes a number of retries there
        sent: _Sent | None = None
        if endpoint not in MESSAGE_METHODS:  # posts nothing: no chat's queue, here or in the library's limiter
            data = {key: value for key, value in data.items() if key != "chat_id"}
        elif chat_id is not None:
            if priority is Priority.LIVE:
                sent = self.take_spare(_chat_key(chat_id))
            else:
                sent = await self.wait_turn(_chat_key(chat_id))
        try:
            if self.inner is None:
                return await callback(*args, **kwargs)
            return await self.inner.process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
        finally:
            if sent is not None:
                sent.at = self.clock()  # answered (or given up): it counts as of now

    def take_spare(self, chat_id: int | str) -> _Sent:
        """Count a live edit to ``chat_id`` if it may leave at once without eating into the group's reserve
        or the burst's (``LIVE_BURST_RESERVE``); else raise :class:`BudgetShortError` (nothing counted: the edit
        is tried at its next interval)."""
        chat = self._chat(chat_id)
        now = self.clock()
        if chat.lock.locked() or self._wait(chat_id, chat, now) > 0:
            raise BudgetShortError(f"chat {chat_id}: a message waits or the pace is spent")
        if self._tokens(chat, now) < 1.0 + min(LIVE_BURST_RESERVE, self.limits.chat_burst - 1):
            raise BudgetShortError(f"chat {chat_id}: the burst is kept for what players must see")
        if _is_group(chat_id) and len(chat.minute) >= self.limits.group_per_minute - LIVE_RESERVE:
            raise BudgetShortError(f"group {chat_id}: the minute's spare messages are spent")
        return self._count(chat_id, chat, now)

    async def wait_turn(self, chat_id: int | str) -> _Sent:
        """Return when a message to ``chat_id`` may leave (it is then counted, as on its way)."""
        chat = self._chat(chat_id)
        async with chat.lock:
            held = False
            while (wait := self._wait(chat_id, chat, self.clock())) > 0:
                if not held and _is_group(chat_id) and len(chat.minute) >= self.limits.group_per_minute:
                    held = True  # the group's minute is spent: what players must see waits for it
                    self.group_waits += 1
                self.holds += 1
                await asyncio.sleep(min(wait, POLL_SECONDS))
            return self._count(chat_id, chat, self.clock())

    def _count(self, chat_id: int | str, chat: _Chat, now: float) -> _Sent:
        sent = _Sent()
        chat.tokens, chat.at = self._tokens(chat, now) - 1.0, now
        if _is_group(chat_id):
            chat.minute.append(sent)
        self._second.append(sent)
        return sent

    def _wait(self, chat_id: int | str, chat: _Chat, now: float) -> float:
        """Seconds before the next message to the chat stays within every limit (0: now)."""
        limits = self.limits
        waits = [(1.0 - self._tokens(chat, now)) / limits.chat_per_second]
        if (oldest := _window(self._second, 1.0, now, limits.overall_per_second)) is not None:
            waits.append(oldest + 1.0 - now)
        if _is_group(chat_id) and (oldest := _window(chat.minute, 60.0, now, limits.group_per_minute)) is not None:
            waits.append(oldest + 60.0 - now)
        return max(waits)

    def _tokens(self, chat: _Chat, now: float) -> float:
        burst = float(self.limits.chat_burst)
        return min(burst, chat.tokens + max(0.0, now - chat.at) * self.limits.chat_per_second)

    def _chat(self, chat_id: int | str) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            now = self.clock()
            if len(self._chats) > 10_000:  # forget the chats whose allowance is whole again
                self._chats = {
                    k: c
                    for k, c in self._chats.items()
                    if c.lock.locked() or _window(c.minute, 60.0, now, 1) is not None or self._tokens(c, now) < 1.0
                }
            chat = self._chats[chat_id] = _Chat(self.limits.chat_burst, now)
        return chat


def _window(sent: deque[_Sent], seconds: float, now: float, limit: int) -> float | None:
    """Forget the messages answered ``seconds`` ago or more, wherever they stand (messages are answered out of
    the order they left in: a photo's upload, a slow answer); if ``limit`` or more are left, when the message
    whose leaving the window makes room for one more was answered (now for those on their way), else None."""
    if any(x.at is not None and x.at <= now - seconds for x in sent):
        kept = [x for x in sent if x.at is None or x.at > now - seconds]
        sent.clear()
        sent.extend(kept)
    if len(sent) < limit:
        return None
    answered = sorted(now if x.at is None else x.at for x in sent)
    return answered[len(sent) - limit]


def _chat_key(chat_id: object) -> int | str:
    try:
        return int(str(chat_id))
    except ValueError:
        return str(chat_id)  # a channel's @username


def _is_group(chat_id: int | str) -> bool:
    """Groups, supergroups and channels: negative ids, or a channel's @username."""
    return isinstance(chat_id, str) or chat_id < 0
