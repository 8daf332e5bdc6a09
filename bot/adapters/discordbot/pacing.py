"""How a batch of replies to Discord channels is paced: what players must see first goes first, and short
notes ride along with the post before them.

Posts and edits in one channel share a bucket of five per 5 s (PLATFORMS.md). discord.py waits out a
bucket it has emptied before its call returns, so the post that takes a bucket's last request holds up
every later reply of its channel (the acknowledgements of the next round's first moves among them) for
the rest of the window. A round's close (next draw, results, the old draw's closed notice, standings,
a tie hint) would take all five; sent as four, the bucket is never emptied by a close. Edits of messages
already sent (the old draw's closed notice, the counter's count at the close) go after the posts.
"""

import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...chat import Reply
from ...outbox import Failure, Undelivered
from .refusals import discord_refusal

log = logging.getLogger("arbitre.discord")

JOINER = "\n\n"


@dataclass(frozen=True)
class Post:
    """One message to send, and the replies it carries (itself, and the notes merged into it)."""

    reply: Reply
    carries: tuple[Reply, ...]


def _plain_post(reply: Reply) -> bool:
    """A new public post that nothing edits later and that never expires."""
    return (
        reply.to_user is None
        and reply.channel is not None
        and reply.edit_key is None
        and reply.deadline is None
        and reply.expires is None
        and not reply.live
    )


def _note(reply: Reply) -> bool:
    """A plain post of text alone (no image, no file), which can ride along with the post before it."""
    return _plain_post(reply) and reply.image is None and reply.document is None and not reply.error


def merged(replies: Sequence[Reply], limit: int) -> list[Post]:
    """The replies as posts: a text note to the same channel as the plain post before it is appended to
    that post when both fit in ``limit`` characters."""
    posts: list[Post] = []
    for reply in replies:
        if posts and _note(reply):
            last = posts[-1]
            text = last.reply.text + JOINER + reply.text
            if _plain_post(last.reply) and last.reply.channel == reply.channel and len(text) <= limit:
                posts[-1] = Post(replace(last.reply, text=text), (*last.carries, reply))
                continue
        posts.append(Post(reply, (reply,)))
    return posts


Edit = tuple[Post, Coroutine[Any, Any, None]]  # an edit to apply once the batch's posts are sent


def refused(post: Post, error: Exception) -> list[Undelivered]:
    """What Discord's refusal of ``post`` means for each reply it carries."""
    refusal = discord_refusal(post.reply, error)
    if refusal.failure is Failure.TRANSIENT:
        log.warning("reply not delivered, to be tried again: %s (%r)", post.reply, error)
    return [replace(refusal, reply=reply) for reply in post.carries]


async def deliver_posts(
    posts: Sequence[Post], send: Callable[[Post, list[Edit]], Awaitable[None]]
) -> list[Undelivered]:
    """Send each post (``send`` adds the edits it meets to its list), then the edits, in order; what
    Discord refused, for each reply. Never raises."""
    failed: list[Undelivered] = []
    edits: list[Edit] = []
    try:
        for post in posts:
            try:
                await send(post, edits)
            except Exception as error:
                failed.extend(refused(post, error))
        while edits:  # after the posts: an edit that takes a bucket's last request holds up no post
            post, edit = edits.pop(0)
            try:
                await edit
            except Exception as error:
                failed.extend(refused(post, error))
    finally:
        for _, edit in edits:  # cancelled meanwhile: never started
            edit.close()
    return failed
