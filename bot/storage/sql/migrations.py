"""The one schema history both SQL backends apply: an ordered list of numbered steps, each a few
statements written once (column types named ``{real}``, ``{id}``, ``{serial}``, ``{ref}``, spelled by the
backend's ``Dialect``) or, where the two servers need different statements, one set per backend.

Versions are rows of a ``migrations`` table (version, name, when applied) in the database itself. SQLite
files always counted in this history's numbers (1 to 10 before it was shared). PostgreSQL databases made
before it counted their own (1 to 8, its first steps folded together): such a database is known by the name
of its version 2, ``LEGACY_POSTGRES`` maps its versions onto this history, and its rows are renumbered on
its first open (the steps it has in another form are written so that running them again changes nothing).

Why a hand-written list rather than a migration tool: sqlite-utils, the one schema library among the
dependencies, speaks SQLite only and keeps no history (its migrations are a separate package); Alembic
(with SQLAlchemy) or yoyo would be new dependencies for a dozen steps, and neither reads the version
numbers already stored, nor applies a step inside the backend's own transaction and lock (PostgreSQL's
advisory lock, SQLite's ``BEGIN IMMEDIATE``), which this list does in 60 lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .dialect import POSTGRES, Dialect

Statements = tuple[str, ...]


class Migration(NamedTuple):
    """One step of the schema history: its version, what it does, its statements (or one set per backend)."""

    version: int
    name: str
    statements: Statements | dict[str, Statements]

    def for_dialect(self, dialect: Dialect) -> list[str]:
        """The statements this step runs on ``dialect``'s backend, with its column types."""
        chosen = self.statements if isinstance(self.statements, tuple) else self.statements[dialect.name]
        return [dialect.ddl(statement) for statement in chosen]


# a change stored without its list is for the channel's list (the bundled fr when none is set)
HOUSE_WORDS_PER_LIST = (
    "update house_words set lexicon = coalesce("
    "(select c.lexicon from channels c where c.channel = house_words.channel), 'fr')"
    " where lexicon is null or lexicon = ''",
    "create index house_words_list on house_words (channel, lexicon, id)",
)
# the channel a message is about (a private one's too, for that channel's /etat), when it was given up, and
# an index for pruning delivered rows
DEAD_LETTERS = (
    "alter table outbox add column channel text",
    "alter table outbox add column dead {real}",
    "create index outbox_dead on outbox (channel, dead) where dead is not null",
    "create index outbox_done on outbox (delivered) where delivered is not null",
)
# who claimed a message (its heartbeat in ``outbox_processes`` says whether it lives: a dead one's claims are
# void at once), and which message an edit edits (a newer edit of it supersedes a waiting one)
OUTBOX_CLAIMS = (
    "alter table outbox add column claimed_by text",
    "alter table outbox add column edit_key text",
    "create table outbox_processes (owner text primary key, alive_until {real} not null)",
)
_CLOSES = (
    "create table closes (game {ref} not null references games (id), round integer not null,"
    " at {real} not null, primary key (game, round))"
)

MIGRATIONS: list[Migration] = [
    Migration(
        1,
        "channels, games, events, players",
        (
            "create table channels (channel text primary key, language text not null, edition text not null,"
            " notation text not null, rules text not null, lexicon text not null, minutes {real} not null)",
            "create table games (id {id}, channel text not null, kind text not null, referee text not null,"
            " status text not null, setup text not null, created {real} not null)",
            "create index games_channel_status on games (channel, status)",
            "create table events (id {id}, game {ref} not null references games (id), seq integer not null,"
            " kind text not null, data text not null, author text not null, at {real} not null)",
            "create unique index events_game_seq_key on events (game, seq)",
            'create table players (game {ref} not null references games (id), "user" text not null,'
            ' name text not null, position integer not null, primary key (game, "user"))',
        ),
    ),
    Migration(
        2,
        "duplicate deadlines",
        (
            "create table deadlines (game {ref} not null references games (id), round integer not null,"
            " at {real} not null, channel text not null, primary key (game))",
        ),
    ),
    Migration(
        3,
        "channel time zone",
        {  # PostgreSQL's first version had it already
            "sqlite": ("alter table channels add column timezone text not null default ''",),
            "postgres": ("alter table channels add column if not exists timezone text not null default ''",),
        },
    ),
    Migration(
        4,
        "deadlines per round, rounds closed once",
        {  # a constraint, not only code: each round is closed at most once
            "sqlite": (  # SQLite changes a primary key by copying the table
                "create table deadlines_per_round (game {ref} not null references games (id),"
                " round integer not null, at {real} not null, channel text not null, primary key (game, round))",
                "insert into deadlines_per_round (game, round, at, channel) select game, round, at, channel"
                " from deadlines",
                "drop table deadlines",
                "alter table deadlines_per_round rename to deadlines",
                _CLOSES,
            ),
            "postgres": (
                "alter table deadlines drop constraint deadlines_pkey",
                "alter table deadlines add primary key (game, round)",
                _CLOSES,
            ),
        },
    ),
    Migration(
        5,
        "outbox of messages owed to channels and players",
        (
            "create table outbox (id {serial}, destination text not null, reply text not null,"
            " created {real} not null, due {real} not null, expires {real}, attempts integer not null default 0,"
            " delivered {real}, dropped {real}, last_error text)",
            "create index outbox_waiting on outbox (destination, id) where delivered is null and dropped is null",
        ),
    ),
    Migration(
        6,
        "house words of each channel",
        (
            "create table house_words (id {id}, channel text not null, action text not null, word text not null,"
            " author text not null, name text not null, at {real} not null, lexicon text not null)",
            "create index house_words_channel on house_words (channel, id)",
        ),
    ),
    Migration(
        7,
        "clock leases",  # which process runs each channel's duplicate clock, until when
        ("create table clock_leases (channel text primary key, owner text not null, expires {real} not null)",),
    ),
    Migration(8, "house words per channel and list", HOUSE_WORDS_PER_LIST),
    Migration(9, "dead letters in the outbox", DEAD_LETTERS),
    Migration(10, "outbox claims named by process, edits by message", OUTBOX_CLAIMS),
    Migration(
        11,
        "indexes named alike in every backend, players found by account",
        {
            "sqlite": (  # the names sqlite-utils gave them when it made SQLite's first tables
                "drop index if exists idx_games_channel_status",
                "drop index if exists idx_events_game_seq",
                "drop index if exists idx_house_words_channel_id",
                "create index if not exists games_channel_status on games (channel, status)",
                "create unique index if not exists events_game_seq_key on events (game, seq)",
                "create index if not exists house_words_channel on house_words (channel, id)",
                'create index if not exists players_user on players ("user")',
            ),
            "postgres": (  # its events' key was a constraint: an index of the same name, as on SQLite
                "alter table events drop constraint if exists events_game_seq_key",
                "create unique index if not exists events_game_seq_key on events (game, seq)",
                'create index if not exists players_user on players ("user")',
            ),
        },
    ),
    Migration(
        12,
        "outbox claims held until a time of their own",  # PostgreSQL's outbox had it from the start
        {
            "sqlite": ("alter table outbox add column claimed_until {real}",),
            "postgres": ("alter table outbox add column if not exists claimed_until {real}",),
        },
    ),
    Migration(
        13,
        "edits of a message found by their key",  # whether a waiting edit is superseded, without a scan
        ("create index outbox_edits on outbox (destination, edit_key, id) where edit_key is not null",),
    ),
    Migration(
        14,
        "series of games with one cumulative ranking",
        (
            "create table series (id {id}, channel text not null, name text not null, status text not null,"
            " created {real} not null)",
            "create unique index series_channel_name on series (channel, name)",
            "create table series_games (series {ref} not null references series (id),"
            " game {ref} not null references games (id), position integer not null, primary key (series, game))",
        ),
    ),
    Migration(
        15,
        "links to a room's live web page",  # a token per room and game, revoked by /view stop
        (
            "create table views (token text primary key, channel text not null,"
            " game {ref} not null references games (id), created {real} not null, revoked {real})",
            "create index views_channel on views (channel) where revoked is null",
        ),
    ),
    Migration(
        16,
        "simultanes: one game in many rooms, the rooms that joined each",
        (
            "create table simultanes (id {id}, code text not null, channel text not null,"
            " organiser text not null, definition text not null, created {real} not null)",
            "create unique index simultanes_code on simultanes (code)",
            "create table simultane_rooms (simultane {ref} not null references simultanes (id),"
            " channel text not null, game {ref} references games (id), joined {real} not null,"
            " primary key (simultane, channel))",
            "create unique index simultane_rooms_game on simultane_rooms (game)",
            "create index simultane_rooms_channel on simultane_rooms (channel)",
        ),
    ),
    Migration(
        17,
        "links to a simultane's live ranking page",  # a token per organiser's room and simultane, revocable
        (
            "create table simultane_views (token text primary key, channel text not null,"
            " simultane {ref} not null references simultanes (id), created {real} not null, revoked {real})",
            "create index simultane_views_channel on simultane_views (channel) where revoked is null",
        ),
    ),
    Migration(
        18,
        "simultanes started by the clock, their tops searched once, their overall images posted once",
        (
            "alter table simultane_rooms add column due {real}",
            "alter table simultane_rooms add column referee text",
            "alter table simultane_rooms add column referee_name text",
            "create index simultane_rooms_due on simultane_rooms (due) where due is not null",
            "create table simultane_tops (simultane text not null, move integer not null, draw text not null,"
            " list text not null, owner text not null, claimed {real} not null, top text,"
            " primary key (simultane, move, draw, list))",
            "create table simultane_posts (simultane {ref} not null references simultanes (id),"
            " what text not null, at {real} not null, primary key (simultane, what))",
        ),
    ),
    Migration(
        19,
        "a simultane room's centre name",  # given at /simultane join or /simultane name; null: "Room N"
        ("alter table simultane_rooms add column name text",),
    ),
    Migration(
        20,
        "simultanes a federation can trust: rooms admitted, rounds held for pacing, entries closed, centre codes",
        (
            # a window's rooms wait for the organiser's word; the others are admitted as they join
            "alter table simultane_rooms add column admission text not null default 'admitted'",
            # played together: the round whose time is up in the room and whose close waits for the others (0: none)
            "alter table simultane_rooms add column held integer not null default 0",
            "alter table simultane_rooms add column centre text",  # the federation's code of the centre
            "alter table simultanes add column entries_closed {real}",  # when no room may join any more
        ),
    ),
    Migration(
        21,
        "simultanes in a series",  # ranked over every room; positions shared with the series' own games
        (
            "create table series_simultanes (series {ref} not null references series (id),"
            " simultane {ref} not null references simultanes (id), position integer not null,"
            " primary key (series, simultane))",
        ),
    ),
]

# PostgreSQL's versions before the history was shared, and the version of this history each one is
LEGACY_POSTGRES = {1: 1, 2: 4, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9, 8: 10}
_LEGACY_POSTGRES_2 = "deadlines per round, rounds closed once"  # PostgreSQL's old version 2 (this history's 4)

Row = tuple[Any, ...]
Run = Callable[..., list[Row]]  # (statement with ``?`` placeholders, parameters) -> rows


def _renumbered(rows: Sequence[Row], dialect: Dialect) -> dict[int, float] | None:
    """The versions of this history a PostgreSQL database of the old numbering is at (None: not one)."""
    names = {int(version): str(name) for version, name, _ in rows}
    if dialect is not POSTGRES or max(names, default=0) > max(LEGACY_POSTGRES) or names.get(2) != _LEGACY_POSTGRES_2:
        return None
    applied = max(float(at) for _, _, at in rows)
    return {version: applied for version in range(1, LEGACY_POSTGRES[max(names)] + 1)}


def upgrade(run: Run, dialect: Dialect, history: Sequence[Migration], refuse: Callable[[int, int], None]) -> None:
    """Bring a database to the end of ``history`` (inside the caller's transaction and lock): the steps it
    lacks, each recorded; ``refuse(found, known)`` is called first for a database a newer version wrote."""
    run(dialect.ddl("create table if not exists migrations (version integer primary key, name text, applied {real})"))
    rows = run("select version, name, applied from migrations")
    renumbered = _renumbered(rows, dialect)
    if renumbered is not None:
        run("delete from migrations")
        for step in history:
            if step.version in renumbered:
                record = [step.version, step.name, renumbered[step.version]]
                run("insert into migrations (version, name, applied) values (?, ?, ?)", record)
    done = set(renumbered) if renumbered is not None else {int(row[0]) for row in rows}
    known = max((step.version for step in history), default=0)  # the newest step, wherever the list has it
    if max(done, default=0) > known:
        refuse(max(done), known)
    for step in history:
        if step.version not in done:
            for statement in step.for_dialect(dialect):
                run(statement)
            record = [step.version, step.name, time.time()]
            run("insert into migrations (version, name, applied) values (?, ?, ?)", record)
