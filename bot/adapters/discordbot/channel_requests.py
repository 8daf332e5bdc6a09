"""One request at a time to a channel's messages: what keeps discord.py's count of a channel's bucket exact.

Posts and edits in a channel share a bucket of five per 5 s (PLATFORMS.md), and discord.py paces them by
the ``X-RateLimit-Remaining`` of each answer. Its count (``discord.http.Ratelimit.update``, 2.7) is right
only while one request of the bucket is under way: an answer's ``Remaining`` was counted before the
requests Discord took after it, and discord.py then keeps ``min(Remaining, limit - outgoing)``, which
forgets the requests of the window already answered. Two requests of a channel under way together (the
clock's posts and a live line's edit, or a close's images, or a command's post) can therefore raise the
count it had right: e.g. a window with one request answered, then a post and an edit sent together; the
post's answer says 3 left, ``limit - outgoing`` says 3, the bucket has 2; the sixth request of the window
gets a 429. The same goes for the first answer after a window's reset, which is taken as it is.

So the requests to a channel's messages (posts, edits, deletions; not reactions, a bucket of their own)
are made one after another, in the order they come: discord.py's count is then the bucket's, and its
own wait for an emptied bucket paces them. A channel's requests were mostly sequential already (a batch
is sent in order); this adds only the waits of those that came together. Interactions' answers go through
discord.py's webhook adapter, which already takes a bucket's requests one at a time.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord

MESSAGES = "/channels/{channel_id}/messages"


def channel_bucket(route: discord.http.Route) -> str | None:
    """The channel whose messages bucket ``route`` draws on (None: another bucket)."""
    if route.channel_id is None or not route.path.startswith(MESSAGES) or "/reactions" in route.path:
        return None
    return str(route.channel_id)


def one_at_a_time(http: discord.http.HTTPClient) -> None:
    """Make ``http`` send a channel's message requests one after another (module docstring)."""
    request: Callable[..., Awaitable[Any]] = http.request
    locks: dict[str, tuple[asyncio.Lock, int]] = {}  # channel -> its lock, and the requests holding or awaiting it

    async def serial(route: discord.http.Route, **kwargs: Any) -> Any:
        channel = channel_bucket(route)
        if channel is None:
            return await request(route, **kwargs)
        lock, users = locks.get(channel) or (asyncio.Lock(), 0)
        locks[channel] = (lock, users + 1)
        try:
            async with lock:
                return await request(route, **kwargs)
        finally:
            lock, users = locks[channel]
            if users > 1:
                locks[channel] = (lock, users - 1)
            else:  # the last one: no channel keeps a lock it no longer uses (a DM's, a channel left)
                del locks[channel]

    http.request = serial  # type: ignore[method-assign]
