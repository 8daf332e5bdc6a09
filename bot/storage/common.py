"""Helpers every backend shares: reads under the store's lock, list names by use, what a newer schema is called."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from ..chat import Reply
from ..outbox import OutboxBacklog, destination, reply_to_json

Method = TypeVar("Method", bound=Callable[..., Any])

OUTBOX_COLUMNS = "destination, reply, created, due, expires, channel, claimed_by, edit_key"


def outbox_row(reply: Reply, created: float, due: float, claimed_by: str | None) -> list[Any]:
    """A reply as an outbox row, the values of ``OUTBOX_COLUMNS`` (``claimed_by``: the live process sending it)."""
    row = [destination(reply), reply_to_json(reply), created, due, reply.expires, reply.channel]
    return [*row, claimed_by, reply.edit_key]

# The migration that makes house words belong to a list (the same statements in every SQL backend):
# a change stored without its list is for the channel's list (the bundled fr when none is set).
HOUSE_WORDS_PER_LIST = (
    "update house_words set lexicon = coalesce("
    "(select c.lexicon from channels c where c.channel = house_words.channel), 'fr')"
    " where lexicon is null or lexicon = ''",
    "create index house_words_list on house_words (channel, lexicon, id)",
)

# The migration that lets the outbox keep dead letters (the same statements in every SQL backend): the
# channel a message is about (a private one's too, for that channel's /etat), when it was given up, and
# an index for pruning delivered rows.
DEAD_LETTERS = (
    "alter table outbox add column channel text",
    "alter table outbox add column dead double precision",
    "create index outbox_dead on outbox (channel, dead) where dead is not null",
    "create index outbox_done on outbox (delivered) where delivered is not null",
)
# The migration that lets claims name their process (the same statements in every SQL backend): who
# claimed a message (its heartbeat in ``outbox_processes`` says whether it lives: a dead one's claims are
# void at once), and which message an edit edits (a newer edit of it supersedes a waiting one).
OUTBOX_CLAIMS = (
    "alter table outbox add column claimed_by text",
    "alter table outbox add column edit_key text",
    "create table outbox_processes (owner text primary key, alive_until double precision not null)",
)
# The metrics' outbox backlog (``Storage.outbox_backlog``), one statement in every SQL backend, each half on
# its partial index: per platform (a destination's prefix before ":", the backend's {platform} expression),
# the messages waiting, the oldest one's creation, the dead letters kept.
BACKLOG = (
    "select platform, sum(waiting), min(created), sum(dead) from ("
    "select {platform} as platform, 1 as waiting, created, 0 as dead from outbox"
    " where delivered is null and dropped is null"
    " union all select {platform}, 0, null, 1 from outbox where dead is not null) backlog"
    " group by platform order by platform"
)
PLATFORM = {
    "sqlite": "substr(destination, 1, instr(destination || ':', ':') - 1)",
    "postgres": "split_part(destination, ':', 1)",
}


def backlog_rows(run: Callable[[str], Iterable[Sequence[Any]]], dialect: str) -> list[OutboxBacklog]:
    """``BACKLOG`` run by a backend of ``dialect`` (``run``: its rows for a statement), as values."""
    rows = run(BACKLOG.format(platform=PLATFORM[dialect]))
    return [OutboxBacklog(str(p), int(n), None if c is None else float(c), int(d)) for p, n, c, d in rows]


# rows whose reply still carries an image or a file (the JSON of ``reply_to_json``: a string, not null)
CARRIES_BYTES = ('%"image": "%', '%"document": "%')


def applying(statements: tuple[str, ...]) -> Callable[[Any], None]:
    """A migration that runs ``statements`` on a database (anything with ``execute``)."""

    def apply(db: Any) -> None:
        for statement in statements:
            db.execute(statement)

    return apply


def serialised(method: Method) -> Method:
    """Run a read under the store's lock: commands and the clock share one connection across threads."""

    @functools.wraps(method)
    def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked  # type: ignore[return-value]


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
