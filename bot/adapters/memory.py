"""A platform in memory: the delivery every adapter shares, tested without a server (httpx's ``MockTransport``
is the model).

``MemoryAdapter`` is a whole adapter whose platform is a function: each message it posts and each edit it
makes is a :class:`Request` handed to the ``handler`` a test gives (by default, every request is taken). The
handler says no by raising :class:`RefusedError`, for now or for good, and may wait (an async handler) to
hold a request up. What the platform shows afterwards is in :attr:`MemoryAdapter.messages`, and every
request made, taken or not, in :attr:`MemoryAdapter.requests`. Its ids are ``memory:<number>``.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

from ..chat import Reply
from ..operations.metrics import Metrics
from ..outbox import Failure, Undelivered
from ..referee import Referee
from .base import AdapterBase, Capabilities, Countdown, Post, PrivateReplies

EVERYTHING = Capabilities(
    text_limit=2000,
    images=True,
    documents=True,
    edits=True,
    countdowns=Countdown.NATIVE,
    private=PrivateReplies.PRIVATE_CHAT,
)


class Action(Enum):
    """What a request asks of the platform."""

    POST = "post"
    EDIT = "edit"


@dataclass(frozen=True)
class Request:
    """One request to the platform: a new message (to ``channel``, or privately to ``user``) or an edit of
    the message numbered ``message``."""

    action: Action
    text: str
    channel: str | None = None
    user: str | None = None
    message: int | None = None
    image: bytes | None = None
    document: bytes | None = None


@dataclass
class Shown:
    """A message as the platform shows it now."""

    number: int
    channel: str | None
    user: str | None
    text: str
    image: bytes | None = None
    document: bytes | None = None


class RefusedError(Exception):
    """The platform did not take a request: ``permanent`` when it never will (a dead letter), else for now."""

    def __init__(self, reason: str, *, permanent: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent


Handler = Callable[[Request], Awaitable[None] | None]


def take_everything(request: Request) -> None:
    """The default handler: the platform takes every request."""


class MemoryAdapter(AdapterBase[None]):
    """An adapter whose platform is ``handler`` (see the module's docstring)."""

    platform = "memory"

    def __init__(
        self,
        referee: Referee,
        handler: Handler = take_everything,
        *,
        capabilities: Capabilities = EVERYTHING,
        burst: int | None = 3,
        edit_interval: float = 5.0,
        live_interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        """``clock``: the time the intervals between two edits of a message run on (a test's);
        ``burst``: how many replies of a batch keep their order (``AdapterBase``)."""
        super().__init__(referee, metrics=metrics, clock=clock)
        self.handler = handler
        self.capabilities = capabilities
        self.burst = burst
        self.edit_interval = edit_interval
        self.live_interval = live_interval
        self.requests: list[Request] = []
        self.messages: list[Shown] = []

    def seen_in(self, channel: str) -> list[str]:
        """The texts of ``channel``'s messages as the platform shows them now, oldest first."""
        return [m.text for m in self.messages if m.channel == channel and m.user is None]

    def seen_by(self, user: str) -> list[str]:
        """The texts of the private messages to ``user`` as the platform shows them now, oldest first."""
        return [m.text for m in self.messages if m.user == user]

    async def _ask(self, request: Request) -> None:
        self.requests.append(request)
        answer = self.handler(request)
        if inspect.isawaitable(answer):
            await answer

    async def post(self, post: Post, answering: None) -> None:
        reply = post.reply
        channel = None if reply.to_user is not None else reply.channel
        pieces = self.pieces(self.render(reply)) or [""]
        first: Shown | None = None
        for index, text in enumerate(pieces):
            image, document = (reply.image, reply.document) if index == 0 else (None, None)  # with the first piece
            await self._ask(Request(Action.POST, text, channel, reply.to_user, image=image, document=document))
            shown = Shown(len(self.messages) + 1, channel, reply.to_user, text, image, document)
            self.messages.append(shown)
            first = first or shown
        if reply.edit_key is not None and first is not None and self.capabilities.edits:
            self._track(reply, first)

    def _track(self, reply: Reply, shown: Shown) -> None:
        async def edit(text: str) -> None:
            text = self.pieces(text)[0]
            await self._ask(Request(Action.EDIT, text, shown.channel, shown.user, message=shown.number))
            shown.text = text

        assert reply.edit_key is not None
        self.track(reply.edit_key, reply, shown.text, edit, self.clock)

    def time_left(self, deadline: float, now: float | None = None) -> str:
        if self.capabilities.countdowns is Countdown.NATIVE:
            return f"⏳ <{deadline:g}>"  # as a client would draw it
        return super().time_left(deadline, now)

    def refusal(self, reply: Reply, error: Exception) -> Undelivered:
        if isinstance(error, RefusedError):
            failure = Failure.PERMANENT if error.permanent else Failure.TRANSIENT
            return Undelivered(reply, failure, f"memory: {error.reason}")
        return super().refusal(reply, error)
