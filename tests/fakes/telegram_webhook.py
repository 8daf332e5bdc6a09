"""The fake Telegram's webhook: ``setWebhook`` settings, and the sender that POSTs updates to them.

Bot API, setWebhook: "Whenever there is an update for the bot, we will send an HTTPS POST request
to the specified URL, containing a JSON-serialized Update. In case of an unsuccessful request (a
request with response HTTP status code different from 2XY), we will repeat the request and give
up after a reasonable number of attempts." With ``secret_token`` set, every request carries it in
the ``X-Telegram-Bot-Api-Secret-Token`` header. At most ``max_connections`` requests are open at
once; the fake keeps each chat's updates in order (one request at a time per chat). While a
webhook is set, getUpdates is refused with 409 (see the server).

A self-hosted Bot API server started with ``--local`` accepts an HTTP URL on any port; Telegram's
own wants HTTPS on port 443, 80, 88 or 8443 (``local_mode`` of :class:`FakeTelegram`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")  # setWebhook: 1-256 characters, A-Z a-z 0-9 _ -
WEBHOOK_PORTS = (443, 80, 88, 8443)  # "Ports currently supported for webhooks"
MAX_CONNECTIONS = (1, 100)  # setWebhook: "1-100. Defaults to 40"
DEFAULT_MAX_CONNECTIONS = 40
# getUpdates and setWebhook, allowed_updates: "Specify an empty list to receive all update types except
# chat_member, message_reaction, and message_reaction_count (default)": those come only when named.
NAMED_ONLY_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
REQUEST_TIMEOUT = 10.0  # seconds the sender waits for a webhook's answer


class WebhookRefused(ValueError):
    """setWebhook parameters the Bot API refuses (400); the message is Telegram's description."""


@dataclass(frozen=True)
class Webhook:
    """The settings of the webhook in place."""

    url: str
    secret_token: str | None = None
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    allowed_updates: tuple[str, ...] | None = None
    ip_address: str | None = None

    def wants(self, update: dict[str, Any]) -> bool:
        """Whether the update's kind is among ``allowed_updates`` (when not given, all but the named-only)."""
        return wanted(update, self.allowed_updates)


def wanted(update: dict[str, Any], allowed: Sequence[str] | None) -> bool:
    """Whether a bot that asked for ``allowed`` update kinds (None or empty: the default) gets ``update``."""
    if not allowed:
        return not any(kind in update for kind in NAMED_ONLY_UPDATES)
    return any(kind in update for kind in allowed)


@dataclass(frozen=True)
class WebhookAttempt:
    """One POST of an update to the webhook, as it went (``fake.webhook_attempts``)."""

    update_id: int
    url: str
    status: int | None  # None: no HTTP answer (connection refused, reset, timeout)
    error: str  # "" for a 2XY answer, else what getWebhookInfo's last_error_message says
    secret_sent: bool
    at: float  # the fake's clock

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def webhook_settings(params: dict[str, Any], *, local_mode: bool) -> Webhook | None:
    """The webhook that setWebhook's ``params`` ask for; None for an empty URL (remove it).

    Raises :class:`WebhookRefused` for what the Bot API refuses."""
    url = str(params.get("url") or "")
    if not url:
        return None
    parts = urlsplit(url)
    schemes = ("https", "http") if local_mode else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise WebhookRefused("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookRefused("Bad Request: bad webhook: invalid port") from None
    if not local_mode and port not in WEBHOOK_PORTS:
        raise WebhookRefused("Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443")
    secret = params.get("secret_token")
    if secret is not None and not SECRET_TOKEN.fullmatch(str(secret)):
        raise WebhookRefused("Bad Request: secret token contains unallowed characters")
    connections = params.get("max_connections", DEFAULT_MAX_CONNECTIONS)
    if not isinstance(connections, int) or not MAX_CONNECTIONS[0] <= connections <= MAX_CONNECTIONS[1]:
        raise WebhookRefused("Bad Request: bad webhook: max_connections must be between 1 and 100")
    allowed = params.get("allowed_updates")
    if allowed is not None and not (isinstance(allowed, list) and all(isinstance(a, str) for a in allowed)):
        raise WebhookRefused("Bad Request: can't parse allowed updates")
    return Webhook(
        url=url,
        secret_token=str(secret) if secret else None,
        max_connections=connections,
        allowed_updates=tuple(allowed) if allowed else None,
        ip_address=params.get("ip_address") or None,
    )


def chat_of(update: dict[str, Any]) -> int | None:
    """The chat an update belongs to (its updates are delivered in order), None if none."""
    for kind in ("message", "edited_message", "channel_post", "edited_channel_post"):
        if kind in update:
            return int(update[kind]["chat"]["id"])
    query = update.get("callback_query")
    if query is not None:
        message = query.get("message")
        return int(message["chat"]["id"]) if message else int(query["from"]["id"])
    return None


@dataclass
class WebhookSender:
    """POSTs the pending updates of ``updates`` to ``webhook`` until it is removed.

    ``updates`` is the fake's live list of pending updates (the sender removes what the webhook
    took, or what it gave up on); ``now`` the fake's clock, on which failed requests are retried
    after ``retry_seconds`` (doubling, at most a minute), ``give_up_after`` attempts at most."""

    webhook: Webhook
    updates: list[dict[str, Any]]
    now: Callable[[], float]
    retry_seconds: float = 1.0
    give_up_after: int = 20
    attempts: list[WebhookAttempt] = field(default_factory=list)
    given_up: list[dict[str, Any]] = field(default_factory=list)
    last_error: tuple[float, str] | None = None  # (date, message) of the last failed request
    _failures: dict[int, int] = field(default_factory=dict)
    _retry_at: dict[int, float] = field(default_factory=dict)
    _in_flight: dict[int, int | None] = field(default_factory=dict)  # update id -> its chat
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    _requests: set[asyncio.Task[None]] = field(default_factory=set)

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop sending; requests under way are abandoned (their updates stay pending)."""
        tasks = [t for t in (self._task, *self._requests) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._task = None

    def wake(self) -> None:
        """Look at the pending updates again (a new one, a request over, the clock moved)."""
        self._wake.set()

    def pending_count(self) -> int:
        return len(self.updates)

    async def _run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while True:
                self._wake.clear()
                next_try = self._start_due(session)
                wait = None if next_try is None else max(0.01, next_try - self.now())
                try:
                    await asyncio.wait_for(self._wake.wait(), wait)
                except TimeoutError:
                    pass

    def _start_due(self, session: aiohttp.ClientSession) -> float | None:
        """Start a request for each update whose turn has come; when the next retry is due."""
        now = self.now()
        busy = set(self._in_flight.values())  # chats with a request under way wait for it
        next_try: float | None = None
        for update in list(self.updates):
            if not self.webhook.wants(update):
                self.updates.remove(update)
                continue
            update_id, chat = int(update["update_id"]), chat_of(update)
            if update_id in self._in_flight or (chat is not None and chat in busy):
                busy.add(chat)
                continue
            retry_at = self._retry_at.get(update_id, 0.0)
            if retry_at > now:
                next_try = retry_at if next_try is None else min(next_try, retry_at)
                busy.add(chat)  # the chat's later updates wait behind this one
                continue
            if len(self._in_flight) >= self.webhook.max_connections:
                break
            busy.add(chat)
            self._in_flight[update_id] = chat
            task = asyncio.get_running_loop().create_task(self._post(session, update))
            self._requests.add(task)
            task.add_done_callback(self._requests.discard)
        return next_try

    async def _post(self, session: aiohttp.ClientSession, update: dict[str, Any]) -> None:
        hook = self.webhook
        headers = {SECRET_HEADER: hook.secret_token} if hook.secret_token else {}
        status: int | None = None
        try:
            async with session.post(hook.url, json=update, headers=headers) as response:
                await response.read()
                status = response.status
                error = "" if 200 <= status < 300 else f"Wrong response from the webhook: {status} {response.reason}"
        except aiohttp.ClientConnectorError:
            error = "Connection refused"
        except TimeoutError:
            error = "Read timeout expired"
        except aiohttp.ClientError as failure:
            error = f"Connection failed: {type(failure).__name__}"
        update_id = int(update["update_id"])
        attempt = WebhookAttempt(update_id, hook.url, status, error, bool(headers), self.now())
        self.attempts.append(attempt)
        self._in_flight.pop(update_id, None)
        if attempt.delivered:
            self._forget(update, update_id)
        else:
            self.last_error = (attempt.at, error)
            failures = self._failures.get(update_id, 0) + 1
            self._failures[update_id] = failures
            if failures >= self.give_up_after:
                self.given_up.append(update)
                self._forget(update, update_id)
            else:
                self._retry_at[update_id] = self.now() + min(60.0, self.retry_seconds * 2 ** (failures - 1))
        self.wake()

    def _forget(self, update: dict[str, Any], update_id: int) -> None:
        if update in self.updates:
            self.updates.remove(update)
        self._failures.pop(update_id, None)
        self._retry_at.pop(update_id, None)

    def info(self) -> dict[str, Any]:
        """getWebhookInfo's WebhookInfo for this webhook."""
        info: dict[str, Any] = {
            "url": self.webhook.url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates),
            "max_connections": self.webhook.max_connections,
        }
        if self.webhook.ip_address:
            info["ip_address"] = self.webhook.ip_address
        if self.webhook.allowed_updates is not None:
            info["allowed_updates"] = list(self.webhook.allowed_updates)
        if self.last_error is not None:
            info["last_error_date"] = int(self.last_error[0])
            info["last_error_message"] = self.last_error[1]
        return info
