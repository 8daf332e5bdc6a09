"""One slash command being answered through its interaction: the "thinking..." deferral, the first answer,
the follow-ups, and what to do when one of those requests is lost on the way.

Discord (Interactions > Receiving and Responding) takes one callback per interaction, within 3 seconds;
after it, the original response is edited and follow-ups are posted through the interaction's webhook
(``POST /webhooks/{application.id}/{interaction.token}``) for 15 minutes. A callback whose connection is
reset (or that times out) may or may not have reached Discord: it is tried once more, and Discord's
answer to that second try tells which (40060 "Interaction has already been acknowledged": the first one
did). A lost answer never keeps the command from running: the command layer records it first, and what
cannot go through the interaction goes directly (see ``bot.adapters.discordbot.adapter``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp
import discord

from ...chat import Reply

log = logging.getLogger("arbitre.discord")

NO_MENTIONS = discord.AllowedMentions.none()
NOTHING_TO_SAY = "✓"

# Interactions > Receiving and Responding: an interaction token is valid for 15 minutes. The
# adapter stops using it a little earlier, so a request in flight never meets the deadline.
INTERACTION_TOKEN_SECONDS = 15 * 60
TOKEN_MARGIN_SECONDS = 30.0

# JSON error code of a second callback (Opcodes and Status Codes > JSON Error Codes).
ALREADY_ACKNOWLEDGED = 40060
# Tries of one callback whose request was lost (the second tells whether the first reached Discord).
CALLBACK_TRIES = 2

# A request that got no answer: a connection reset or refused, a timeout (aiohttp's errors, not discord.py's).
LOST = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
# Any request that failed: refused by Discord (discord.py's errors) or lost.
FAILED = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def token_deadline(interaction: discord.Interaction) -> float:
    """The Unix time after which the adapter no longer uses ``interaction``'s token."""
    return interaction.created_at.timestamp() + INTERACTION_TOKEN_SECONDS - TOKEN_MARGIN_SECONDS


def asked_key(interaction: discord.Interaction) -> str:
    """Where a command is answered in place (``Incoming.asked``, ``Reply.answers``): its interaction."""
    return f"discord:interaction:{interaction.id}"


def already_acknowledged(error: BaseException) -> bool:
    """Discord's answer to a callback when an earlier one for the same interaction reached it."""
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


class InteractionTurn:
    """One slash command being answered: its interaction, and what was said through it so far."""

    def __init__(
        self, interaction: discord.Interaction, channel: str, user: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.interaction = interaction
        self.channel = channel
        self.user = user
        self.asked = asked_key(interaction)  # the command's ``Incoming.asked``: its private answers say it
        self.clock = clock
        self.lock = asyncio.Lock()
        self.deferred: bool | None = None  # the defer's ``ephemeral`` flag once deferred
        self.filled = False  # the deferred "thinking..." message has been used (or removed)
        self.answered = False  # the callback carried a message (as far as Discord knows)
        self.lost_defer: bool | None = None  # the ``ephemeral`` flag of a defer whose request was lost
        self.read_original = False  # discord.py keeps the original response once read: a second read is stale
        self.watchdog_fired = False

    @property
    def token_until(self) -> float:
        """When the adapter stops using this interaction's token (its 15 minutes, less a margin)."""
        return token_deadline(self.interaction)

    def token_alive(self) -> bool:
        return self.clock() < self.token_until

    @property
    def acknowledged(self) -> bool:
        """Discord has taken this interaction's one callback (a deferral or a message)."""
        return self.deferred is not None or self.answered or self.interaction.response.is_done()

    def visibility(self, reply: Reply) -> bool | None:
        """``ephemeral`` for a reply answered through this interaction; None if it goes elsewhere. A private
        reply that answers a command in place (``Reply.answers``) goes through that command's interaction
        only, never through another of its asker's; one that answers none, through its player's."""
        if reply.to_user is not None:
            if reply.answers is not None:
                return True if reply.answers == self.asked else None
            return True if reply.to_user == self.user else None
        return False if reply.channel in (None, self.channel) else None

    def order(self, replies: Sequence[Reply]) -> list[Reply]:
        """The replies, one that fits the deferred placeholder first (so nothing private fills a
        public placeholder, and the other way round)."""
        out = list(replies)
        if self.deferred is None or self.filled:
            return out
        for index, reply in enumerate(out):
            if self.visibility(reply) is self.deferred:
                out.insert(0, out.pop(index))
                break
        return out

    def _name(self) -> str | None:
        return self.interaction.command.name if self.interaction.command is not None else None

    async def defer(self, ephemeral: bool) -> None:
        """Answer "thinking..."; a lost request is tried once more, and a failure is only logged (the
        command runs anyway, its answer finds another way)."""
        async with self.lock:
            if self.acknowledged:
                return
            for attempt in range(1, CALLBACK_TRIES + 1):
                try:
                    await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
                except discord.HTTPException as error:
                    if self.lost_defer is not None and already_acknowledged(error):
                        self.deferred, self.lost_defer = self.lost_defer, None  # the lost one got there
                        return
                    log.warning("could not defer /%s: %s", self._name(), error)
                    return
                except LOST as error:
                    self.lost_defer = ephemeral
                    log.warning(
                        "deferring /%s got no answer (%r), try %d of %d", self._name(), error, attempt, CALLBACK_TRIES
                    )
                    continue
                self.deferred, self.lost_defer = ephemeral, None
                return

    async def defer_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.watchdog_fired = True  # no cancelling from here: a request may be under way
        await self.defer(ephemeral=False)

    async def _clear_placeholder(self) -> None:
        """Remove the "thinking..." message (fill it, then delete it: works on every client)."""
        self.filled = True
        try:
            await self.interaction.edit_original_response(content="…", allowed_mentions=NO_MENTIONS)
            await self.interaction.delete_original_response()
        except FAILED as error:
            log.warning("could not remove a deferred response: %r", error)

    async def _answer(
        self, chunk: str | None, ephemeral: bool, extra: Callable[[], dict[str, Any]], want_message: bool
    ) -> Any | None:
        """The interaction's callback carrying a message: the message, or None once the callback turned
        out to be taken already by a deferral whose answer was lost (the caller then edits it)."""
        lost = False
        for attempt in range(1, CALLBACK_TRIES + 1):
            try:
                callback = await self.interaction.response.send_message(chunk, ephemeral=ephemeral, **extra())
            except discord.HTTPException as error:
                if not already_acknowledged(error) or not (lost or self.lost_defer is not None):
                    raise
                # A lost request got there: this answer's first try, or a deferral (its message is loading).
                current = await self.interaction.original_response() if lost else None
                self.read_original = self.read_original or lost
                if current is not None and not (self.lost_defer is not None and current.flags.loading):
                    self.answered = True
                    return current
                self.deferred, self.lost_defer = self.lost_defer, None
                return None
            except LOST as error:
                if attempt == CALLBACK_TRIES:
                    raise
                lost = True
                log.warning("answering /%s got no answer (%r); trying again", self._name(), error)
                continue
            self.answered = True
            message: Any = callback.resource if isinstance(callback.resource, discord.InteractionMessage) else None
            if message is None and want_message:
                message = await self.interaction.original_response()
            return message
        raise AssertionError("unreachable")  # pragma: no cover

    async def _fill(self, chunk: str | None, extra: Callable[[], dict[str, Any]]) -> Any:
        """Edit the deferred "thinking..." message into ``chunk``; a lost edit is made again (the same
        edit twice leaves the same message), and when that one is lost too, the message is read: if it
        says ``chunk``, an edit got there."""
        for attempt in range(1, CALLBACK_TRIES + 1):
            made = extra()
            if "file" in made:
                made["attachments"] = [made.pop("file")]
            try:
                return await self.interaction.edit_original_response(
                    content=chunk if chunk is not None else discord.utils.MISSING, **made
                )
            except LOST as error:
                log.warning("filling the answer to /%s got no answer (%r)", self._name(), error)
                if attempt == CALLBACK_TRIES:
                    if self.read_original or chunk is None:
                        raise
                    self.read_original = True
                    current = await self.interaction.original_response()
                    if current.content == chunk:
                        return current
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def send(
        self,
        chunks: Sequence[str],
        image: Callable[[], discord.File] | None,
        ephemeral: bool,
        want_message: bool,
        view: discord.ui.View | None = None,
    ) -> list[Any]:
        """Send through the interaction (response or followups); the messages, for later edits. ``view``:
        the buttons, under the last piece."""
        sent: list[Any] = []
        async with self.lock:
            pieces: list[str | None] = list(chunks) or [None]
            for index, chunk in enumerate(pieces):

                def extra(first: bool = index == 0, last: bool = index == len(pieces) - 1) -> dict[str, Any]:
                    made: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
                    if first and image is not None:
                        made["file"] = image()
                    if last and view is not None:
                        made["view"] = view
                    return made

                if not self.acknowledged:
                    message = await self._answer(chunk, ephemeral, extra, want_message)
                    if self.answered:
                        sent.append(message)
                        continue
                if self.deferred is not None and not self.filled:
                    if ephemeral == self.deferred:
                        # The deferred "thinking..." message is the original response: edit it (a
                        # followup filling it is deprecated).
                        message = await self._fill(chunk, extra)
                        self.filled = True
                        sent.append(message)
                        continue
                    await self._clear_placeholder()
                message = await self.interaction.followup.send(
                    chunk if chunk is not None else discord.utils.MISSING, ephemeral=ephemeral, wait=True, **extra()
                )
                self.filled = True
                sent.append(message)
        return sent

    async def finish(self) -> None:
        """Leave no interaction unanswered and no "thinking..." message behind."""
        async with self.lock:
            try:
                if not self.acknowledged:
                    await self._answer(NOTHING_TO_SAY, True, lambda: {}, False)
                if self.deferred is not None and not self.filled:
                    await self._clear_placeholder()
            except FAILED as error:
                log.warning("could not close an interaction: %r", error)
