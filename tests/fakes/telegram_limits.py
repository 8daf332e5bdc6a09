"""Telegram's flood control, as the fake Bot API enforces it, each rule next to the documentation it follows.

Bot API FAQ, "My bot is hitting limits, how do I avoid this?" (https://core.telegram.org/bots/faq):

* "In a single chat, avoid sending more than one message per second. We may allow short bursts that go
  over this limit, but eventually you'll begin receiving 429 errors." -> per chat (private or group), a
  bucket of ``chat_burst`` messages refilled at ``chat_per_second``.
* "your bot will not be able to send more than 20 messages per minute to the same group." -> per group
  (negative chat id: groups, supergroups, channels), at most ``group_per_minute`` in any 60 s.
* "If you're sending bulk notifications to multiple users, the API will not allow more than 30 messages
  per second or so." -> over the whole bot, at most ``overall_per_second`` in any second.

What counts: every message the bot sends (``send*`` methods that post a message, ``copyMessage``,
``forwardMessage``) and every edit (``editMessage*``): each changes what the chat shows. Reads
(``getChatMember``, ``getChatAdministrators``, ``getChat``), ``sendChatAction``, ``deleteMessage`` and
``answerCallbackQuery`` post nothing and are not counted (python-telegram-bot's limiter counts every
request naming a group, which is its own, stricter choice). A counted request is counted when it is
let through, whether or not its method then refuses it (a 400 still cost Telegram the attempt).

A request over a limit is answered HTTP 429 (Bot API, "Making requests": ``error_code`` and
``description``; ResponseParameters: ``retry_after``, an Integer, "the number of seconds left to wait
before the request can be repeated")::

    {"ok": false, "error_code": 429, "description": "Too Many Requests: retry after N",
     "parameters": {"retry_after": N}}

with N whole seconds, at least 1, and puts the chat (or, for the overall limit, the bot) in a flood wait
of N s. A counted request during a flood wait is refused too and doubles the wait (an *escalation*):
Telegram lengthens the flood wait of a client that ignores ``retry_after`` (its MTProto
``FLOOD_WAIT_X`` errors grow the same way). Everything is measured on the fake's clock, which tests
advance, so a minute of flood control takes no minute of the test.

Long flood waits: a group's minute overrun at the chat's pace is refused until the minute has room,
tens of seconds (20 messages in 25 s: the 21st is told "retry after 35"), as bots report of the real
Telegram ("Too Many Requests: retry after 34", flathunters/flathunter#88, for a bot over the FAQ's
limits; a group's 429 that wants a minute's wait, TelegramBots/Telegram.Bot#178). Telegram also decides
flood waits the FAQ does not predict (another process of the bot, its own load): :meth:`FloodControl.trip`
serves one on demand, held and escalated like the others.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

COUNTED_METHODS = frozenset(
    {
        "sendmessage", "sendphoto", "senddocument", "sendaudio", "sendvideo", "sendanimation", "sendvoice",
        "sendvideonote", "sendmediagroup", "sendlocation", "sendvenue", "sendcontact", "sendpoll",
        "senddice", "sendsticker", "sendinvoice", "sendpaidmedia", "copymessage", "copymessages",
        "forwardmessage", "forwardmessages", "editmessagetext", "editmessagecaption", "editmessagemedia",
        "editmessagereplymarkup", "editmessagelivelocation",
    }
)  # fmt: skip

MAX_WAIT = 3600  # an escalated wait stops growing at an hour


@dataclass(frozen=True)
class FloodLimits:
    """The limits the fake enforces (the FAQ's figures; Telegram does not publish the size of a burst)."""

    chat_per_second: float = 1.0
    chat_burst: int = 5
    group_per_minute: int = 20
    overall_per_second: int = 30


@dataclass(frozen=True)
class FloodRefusal:
    """One 429 the fake served: when (fake's clock), to which method and chat, the scope whose limit or
    wait refused it ("chat", "group", "overall"), the ``retry_after`` it said, and whether it was an
    escalation (a request during a flood wait)."""

    at: float
    method: str
    chat_id: int | None
    scope: str
    retry_after: int
    escalated: bool
    injected: bool = False  # a flood wait a test asked for (:meth:`FloodControl.trip`)


@dataclass
class _Wait:
    until: float
    length: int
    scope: str


@dataclass
class FloodControl:
    """Flood control of one fake Bot API: :meth:`check` each request; what was refused is in ``refused``."""

    limits: FloodLimits = field(default_factory=FloodLimits)
    refused: list[FloodRefusal] = field(default_factory=list)
    counted: Counter[int | None] = field(default_factory=Counter)  # chat id -> requests let through
    _tokens: dict[int, tuple[float, float]] = field(default_factory=dict)  # chat -> (tokens, at)
    _group_times: dict[int, deque[float]] = field(default_factory=dict)
    _overall_times: deque[float] = field(default_factory=deque)
    _waits: dict[int | None, _Wait] = field(default_factory=dict)  # chat id, or None for the bot
    _trips: dict[int | None, int] = field(default_factory=dict)  # chat id (None: any) -> its next flood wait

    # -- what tests read ----------------------------------------------------------------------

    @property
    def escalations(self) -> list[FloodRefusal]:
        """The requests sent during a flood wait (each made the wait longer)."""
        return [r for r in self.refused if r.escalated]

    def refused_in(self, chat_id: int | None) -> list[FloodRefusal]:
        """The 429s served to requests naming ``chat_id``."""
        return [r for r in self.refused if r.chat_id == chat_id]

    def per_chat(self) -> Counter[int | None]:
        """429s served per chat id."""
        return Counter(r.chat_id for r in self.refused)

    def trip(self, seconds: int, chat_id: int | None = None) -> None:
        """The next counted request naming ``chat_id`` (any chat when None) is refused with a flood wait of
        ``seconds`` (``retry_after``, whole seconds >= 1), which then holds that chat (None: the whole bot)
        like any other: a counted request during it is refused and doubles it."""
        if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 1:
            raise ValueError(f"Telegram's retry_after is a whole number of seconds >= 1, not {seconds!r}")
        self._trips[chat_id] = seconds

    # -- the rules ----------------------------------------------------------------------------

    def check(self, method: str, chat_id: Any, now: float) -> dict[str, Any] | None:
        """None when the request may go (it is then counted), else the body of its 429."""
        key = method.lower()
        if key not in COUNTED_METHODS:
            return None
        chat = chat_id if isinstance(chat_id, int) and not isinstance(chat_id, bool) else None
        for holder in (None, chat):
            wait = self._waits.get(holder)
            if wait is None:
                continue
            if now < wait.until:
                length = min(wait.length * 2, MAX_WAIT)
                self._waits[holder] = _Wait(now + length, length, wait.scope)
                return self._refuse(now, method, chat, wait.scope, length, escalated=True)
            del self._waits[holder]
        for holder in (chat, None):
            if holder in self._trips:
                length = self._trips.pop(holder)
                scope = "overall" if holder is None else "group" if holder < 0 else "chat"
                self._waits[holder] = _Wait(now + length, length, scope)
                return self._refuse(now, method, chat, scope, length, escalated=False, injected=True)
        over = self._over_limit(chat, now)
        if over is not None:
            scope, retry_after = over
            self._waits[None if scope == "overall" else chat] = _Wait(now + retry_after, retry_after, scope)
            return self._refuse(now, method, chat, scope, retry_after, escalated=False)
        self._take(chat, now)
        return None

    def _over_limit(self, chat: int | None, now: float) -> tuple[str, int] | None:
        limits = self.limits
        overall = self._overall_times
        while overall and overall[0] <= now - 1.0:
            overall.popleft()
        if len(overall) >= limits.overall_per_second:
            return "overall", _whole(overall[0] + 1.0 - now)
        if chat is None:
            return None
        tokens = self._refilled(chat, now)
        if tokens < 1.0:
            return "chat", _whole((1.0 - tokens) / limits.chat_per_second)
        if chat < 0:
            times = self._group_times.setdefault(chat, deque())
            while times and times[0] <= now - 60.0:
                times.popleft()
            if len(times) >= limits.group_per_minute:
                return "group", _whole(times[0] + 60.0 - now)
        return None

    def _refilled(self, chat: int, now: float) -> float:
        tokens, at = self._tokens.get(chat, (float(self.limits.chat_burst), now))
        return min(float(self.limits.chat_burst), tokens + max(0.0, now - at) * self.limits.chat_per_second)

    def _take(self, chat: int | None, now: float) -> None:
        self._overall_times.append(now)
        self.counted[chat] += 1
        if chat is None:
            return
        self._tokens[chat] = (self._refilled(chat, now) - 1.0, now)
        if chat < 0:
            self._group_times.setdefault(chat, deque()).append(now)

    def _refuse(
        self,
        now: float,
        method: str,
        chat: int | None,
        scope: str,
        retry_after: int,
        *,
        escalated: bool,
        injected: bool = False,
    ) -> dict[str, Any]:
        self.refused.append(FloodRefusal(now, method, chat, scope, retry_after, escalated, injected))
        return too_many_requests(retry_after)


def _whole(seconds: float) -> int:
    """ResponseParameters.retry_after: whole seconds, at least 1."""
    return max(1, math.ceil(seconds - 1e-9))


def too_many_requests(retry_after: int) -> dict[str, Any]:
    """The Bot API's 429 body (Making requests; ResponseParameters)."""
    return {
        "ok": False,
        "error_code": 429,
        "description": f"Too Many Requests: retry after {retry_after}",
        "parameters": {"retry_after": retry_after},
    }


# --- python-telegram-bot's limiter on the fake's clock ------------------------------------------------

POLL_SECONDS = 0.05  # a waiting limiter looks at the fake's clock again this often (real time)


class _ClockLoop:
    """The event loop as aiolimiter sees it, telling the fake's time: a limiter's bucket leaks as the
    fake's clock moves (jumps included), and a waiter looks again every ``POLL_SECONDS``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: Callable[[], float]) -> None:
        self._loop = loop
        self._clock = clock
        self.timers = 0  # how many times a waiter found its bucket full and set a timer to look again

    def time(self) -> float:
        return self._clock()

    def is_closed(self) -> bool:
        return self._loop.is_closed()

    def create_future(self) -> asyncio.Future[None]:
        return self._loop.create_future()

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> asyncio.Handle:
        return self._loop.call_soon(callback, *args)

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> asyncio.TimerHandle:
        self.timers += 1
        return self._loop.call_later(min(max(when - self._clock(), 0.0), POLL_SECONDS), callback, *args)


def fake_clock_rate_limiter(clock: Callable[[], float], **settings: Any) -> Any:
    """python-telegram-bot's ``AIORateLimiter(**settings)`` (its rates, its leaky buckets, its retries of a
    429) whose buckets leak by ``clock`` (the fake's) instead of the loop's real time: a test that moves the
    fake's clock a minute gives the group's bucket a minute. Its sleep after a 429 stays real time.

    Call inside the test's running loop. Relies on two internals, a limiter's ``_event_loop`` (aiolimiter)
    and ``AIORateLimiter._get_group_limiter``; ``test_telegram_limits`` is their canary.
    """
    from telegram.ext import AIORateLimiter

    # aiolimiter calls only the few methods _ClockLoop has: it stands in for the loop where a limiter keeps one
    clock_loop = _ClockLoop(asyncio.get_running_loop(), clock)
    loop = cast(asyncio.AbstractEventLoop, clock_loop)

    class FakeClockRateLimiter(AIORateLimiter):
        clock_loop: _ClockLoop

        def _get_group_limiter(self, group_id: str | int | bool) -> Any:
            limiter = super()._get_group_limiter(group_id)
            limiter._event_loop = loop
            return limiter

    limiter = FakeClockRateLimiter(**settings)
    limiter.clock_loop = clock_loop  # its ``timers``: a test waits for a request held by a full bucket
    for bucket in (limiter._base_limiter, limiter._apb_limiter):
        if bucket is not None:
            bucket._event_loop = loop
    return limiter
