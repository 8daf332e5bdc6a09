"""Helpers every backend shares: reads under the store's lock, list names by use, what a newer schema is called."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ...chat import Reply
from ..outbox_records import destination, reply_to_json

Method = TypeVar("Method", bound=Callable[..., Any])

OUTBOX_COLUMNS = "destination, reply, created, due, expires, channel, claimed_by, edit_key"
# a live line's stored reply (``reply_to_json``: a key is the only place an unescaped quote can stand)
LIVE_JSON = '%"live": true%'


def outbox_row(reply: Reply, created: float, due: float, claimed_by: str | None) -> list[Any]:
    """A reply as an outbox row, the values of ``OUTBOX_COLUMNS`` (``claimed_by``: the live process sending it)."""
    row = [destination(reply), reply_to_json(reply), created, due, reply.expires, reply.channel]
    return [*row, claimed_by, reply.edit_key]


# The metrics' outbox backlog (``Storage.outbox_backlog``), one statement in every SQL backend, each half on
# its partial index: per platform (a destination's prefix before ":", the dialect's {platform} expression),
# the messages waiting, the oldest one's creation, the dead letters kept.
BACKLOG = (
    "select platform, sum(waiting), min(created), sum(dead) from ("
    "select {platform} as platform, 1 as waiting, created, 0 as dead from outbox"
    " where delivered is null and dropped is null"
    " union all select {platform}, 0, null, 1 from outbox where dead is not null) backlog"
    " group by platform order by platform"
)

# rows whose reply still carries an image or a file (the JSON of ``reply_to_json``: a string, not null)
CARRIES_BYTES = ('%"image": "%', '%"document": "%')


def most_used(specs: list[Any]) -> list[str]:
    """The distinct list names among ``specs``, most frequent first."""
    counts: dict[str, int] = {}
    for spec in specs:
        if isinstance(spec, str) and spec:
            counts[spec] = counts.get(spec, 0) + 1
    return sorted(counts, key=lambda spec: -counts[spec])


def newer_version_reason(found: int, known: int) -> str:
    """Why a database migrated by a newer Arbitre is refused: this version would misread what it does not know."""
    return (
        f"a newer version of Arbitre wrote it (database version {found}; this version knows versions up to {known}):"
        " run that newer version"
    )
