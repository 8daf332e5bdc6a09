"""How a batch of replies to Discord channels is paced: what players must see first goes first, and short
notes ride along with the post before them.

Posts and edits in one channel share a bucket of five per 5 s (PLATFORMS.md). discord.py waits out a
bucket it has emptied before its call returns, so the post that takes a bucket's last request holds up
every later reply of its channel (the acknowledgements of the next round's first moves among them) for
the rest of the window. A round's close (next draw, results, the old draw's closed notice, standings,
a tie hint) would take all five; sent as four, the bucket is never emptied by a close.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..chat import Reply

JOINER = "\n\n"


@dataclass(frozen=True)
class Post:
    """One message to send, and the replies it carries (itself, and the notes merged into it)."""

    reply: Reply
    carries: tuple[Reply, ...]


def first_things_first(replies: Sequence[Reply], is_tracked: Callable[[Reply], bool]) -> list[Reply]:
    """The replies in the order players need them when a channel's bucket is short: new draws and
    deadlines, then warnings, then the rest (results, standings, edits), each kind in its own order.
    ``is_tracked``: whether a reply edits a message already sent."""

    def rank(reply: Reply) -> int:
        if reply.live:
            return 2
        if reply.deadline is not None and not is_tracked(reply):
            return 0
        return 1 if reply.expires is not None else 2

    return sorted(replies, key=rank)


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
