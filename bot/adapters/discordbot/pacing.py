"""How a batch of replies to Discord channels is paced: what players must see first goes first, and short
notes ride along with the post before them.

Posts and edits in one channel share a bucket of five per 5 s (PLATFORMS.md). discord.py waits out a
bucket it has emptied before its call returns, so the post that takes a bucket's last request holds up
every later reply of its channel (the acknowledgements of the next round's first moves among them) for
the rest of the window. A round's close (next draw, results, the old draw's closed notice, standings,
a tie hint) would take all five; sent as four, the bucket is never emptied by a close. Edits of messages
already sent (the old draw's closed notice, the counter's count at the close) go after the posts.
"""

from collections.abc import Sequence
from dataclasses import replace

from ...chat import Reply
from ..base import Post

JOINER = "\n\n"


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
