"""The state every part of the fake Telegram shares (:class:`TelegramState`, the base of the others):
every attribute, set up in one ``__init__``, the fake's clock, and the queue of updates waiting for the
bot (woken long polls, the webhook told).
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from aiohttp import web

from ._common import FakeClock, Fault, MessageLog, Outage, SentFile, ServedFault
from .telegram_limits import FloodControl, FloodLimits
from .telegram_objects import TgUser
from .telegram_webhook import WebhookAttempt, WebhookSender


class TelegramState:
    """The fake's state, shared by the parts :class:`tests.fakes.telegram_server.FakeTelegram` is made of."""

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

    @property
    def bot_username(self) -> str:
        return self.bot_user.username or ""

    # ------------------------------------------------------------------ the fake's clock

    def now(self) -> float:
        """The fake's Unix time (real time plus what tests advanced)."""
        return self.clock.now()

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (an outage ends when it passes its end, a failed webhook
        request is repeated when its wait is over)."""
        self.clock.advance(seconds)
        if self.webhook_sender is not None:
            self.webhook_sender.wake()

    # ------------------------------------------------------------------ the queue of updates

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
