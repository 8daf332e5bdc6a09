"""One schema history for both SQL backends (issue 22, item 3): a fresh SQLite file and a fresh PostgreSQL
database end with the same tables, columns (types normalised), primary keys, indexes and unique constraints,
and databases the previous code made (its SQLite file at version 10, its PostgreSQL databases at its own
versions 8 and 1) are upgraded in place to that same schema, their rows kept. Nullability is not compared:
the SQLite tables sqlite-utils made first have no NOT NULL, and upgrading leaves them so."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.chat import Reply
from bot.storage import ChannelSettings, GameSetup, SQLiteStorage
from bot.storage.sql.migrations import MIGRATIONS

Schema = dict[str, Any]
SETUP = json.dumps(GameSetup("fr", "fisf", "fr", "Ana", manual=True).to_json())


def _type(declared: str) -> str:
    """A column type as both backends would agree on it: integer, real or text."""
    name = declared.lower()
    if "int" in name:
        return "integer"
    return "real" if name in ("real", "float", "double precision") else name


def _predicate(text: str | None) -> str | None:
    """A partial index's condition without parentheses, in lower case, on one line."""
    return None if text is None else " ".join(re.sub(r"[()]", " ", text.lower()).split())


def sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        tables = [
            n
            for (n,) in conn.execute("select name from sqlite_master where type = 'table'")
            if not n.startswith("sqlite_")
        ]
        columns, keys, indexes, uniques = set(), {}, set(), set()
        for table in tables:
            info = conn.execute(f'pragma table_info("{table}")').fetchall()
            columns |= {(table, name, _type(kind)) for _, name, kind, _, _, _ in info}
            keys[table] = tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
            for _, name, unique, origin, _ in conn.execute(f'pragma index_list("{table}")').fetchall():
                cols = tuple(r[2] for r in conn.execute(f'pragma index_info("{name}")').fetchall())
                if origin == "u":
                    uniques.add((table, cols))
                if origin != "c":
                    continue
                (sql,) = conn.execute("select sql from sqlite_master where name = ?", [name]).fetchone()
                where = re.split(r"\swhere\s", sql, maxsplit=1, flags=re.IGNORECASE)
                indexes.add((name, table, bool(unique), cols, _predicate(where[1] if len(where) > 1 else None)))
    finally:
        conn.close()
    return {"tables": set(tables), "columns": columns, "primary keys": keys, "indexes": indexes, "unique": uniques}


def postgres_schema(url: str) -> Schema:
    import psycopg

    with psycopg.connect(url) as conn:
        tables = {n for (n,) in conn.execute("select tablename from pg_tables where schemaname = 'public'")}
        columns = {
            (t, c, _type(kind))
            for t, c, kind in conn.execute(
                "select table_name, column_name, data_type from information_schema.columns"
                " where table_schema = 'public'"
            )
        }
        rows = conn.execute(
            "select ic.relname, c.relname, i.indisprimary, i.indisunique, pg_get_expr(i.indpred, i.indrelid),"
            " array(select a.attname from unnest(i.indkey) with ordinality k(attnum, ord)"
            " join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.ord)"
            " from pg_index i join pg_class c on c.oid = i.indrelid join pg_class ic on ic.oid = i.indexrelid"
            " join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'"
        ).fetchall()
        uniques = {
            (str(t), tuple(cols))
            for t, cols in conn.execute(
                "select conrelid::regclass::text,"
                " array(select a.attname from unnest(conkey) with ordinality k(attnum, ord)"
                " join pg_attribute a on a.attrelid = conrelid and a.attnum = k.attnum order by k.ord)"
                " from pg_constraint where contype = 'u' and connamespace = 'public'::regnamespace"
            )
        }
    keys = {t: () for t in tables} | {t: tuple(cols) for _, t, primary, _, _, cols in rows if primary}
    indexes = {
        (n, t, unique, tuple(cols), _predicate(where)) for n, t, primary, unique, where, cols in rows if not primary
    }
    return {"tables": tables, "columns": columns, "primary keys": keys, "indexes": indexes, "unique": uniques}


def test_a_fresh_sqlite_file_and_a_fresh_postgres_database_have_the_same_schema(
    tmp_path: Path, postgres_url: str
) -> None:
    from bot.storage.sql.postgres import PostgresStorage

    SQLiteStorage(tmp_path / "fresh.sqlite").close()
    PostgresStorage(postgres_url, pool_size=1).close()
    lite, postgres = sqlite_schema(tmp_path / "fresh.sqlite"), postgres_schema(postgres_url)
    for part in ("tables", "columns", "primary keys", "indexes", "unique"):
        assert lite[part] == postgres[part], part
    assert "outbox" in lite["tables"]
    assert ("outbox", "claimed_until", "real") in lite["columns"]
    assert ("events_game_seq_key", "events", True, ("game", "seq"), None) in lite["indexes"]
    waiting = ("outbox_waiting", "outbox", False, ("destination", "id"), "delivered is null and dropped is null")
    assert waiting in postgres["indexes"]


# The previous code's SQLite file at its last version (10), as sqlite-utils and its statements made it.
OLD_SQLITE = [
    'CREATE TABLE "migrations" ("version" INTEGER PRIMARY KEY, "name" TEXT, "applied" REAL)',
    'CREATE TABLE "channels" ("channel" TEXT PRIMARY KEY, "language" TEXT, "edition" TEXT, "notation" TEXT,'
    ' "rules" TEXT, "lexicon" TEXT, "minutes" REAL, "timezone" TEXT NOT NULL DEFAULT \'\')',
    'CREATE TABLE "games" ("id" INTEGER PRIMARY KEY, "channel" TEXT, "kind" TEXT, "referee" TEXT, "status" TEXT,'
    ' "setup" TEXT, "created" REAL)',
    'CREATE INDEX "idx_games_channel_status" ON "games" ("channel", "status")',
    'CREATE TABLE "events" ("id" INTEGER PRIMARY KEY, "game" INTEGER REFERENCES "games"("id"), "seq" INTEGER,'
    ' "kind" TEXT, "data" TEXT, "author" TEXT, "at" REAL)',
    'CREATE UNIQUE INDEX "idx_events_game_seq" ON "events" ("game", "seq")',
    'CREATE TABLE "players" ("game" INTEGER REFERENCES "games"("id"), "user" TEXT, "name" TEXT, "position" INTEGER,'
    ' PRIMARY KEY ("game", "user"))',
    'CREATE TABLE "deadlines" ("game" INTEGER REFERENCES "games"("id"), "round" INTEGER, "at" REAL, "channel" TEXT,'
    ' PRIMARY KEY ("game", "round"))',
    'CREATE TABLE "closes" ("game" INTEGER REFERENCES "games"("id"), "round" INTEGER, "at" REAL,'
    ' PRIMARY KEY ("game", "round"))',
    "CREATE TABLE outbox (id integer primary key autoincrement, destination text not null, reply text not null,"
    " created real not null, due real not null, expires real, attempts integer not null default 0, delivered real,"
    " dropped real, last_error text, channel text, dead double precision, claimed_by text, edit_key text)",
    "CREATE INDEX outbox_waiting on outbox (destination, id) where delivered is null and dropped is null",
    'CREATE TABLE "house_words" ("id" INTEGER PRIMARY KEY, "channel" TEXT, "action" TEXT, "word" TEXT,'
    ' "author" TEXT, "name" TEXT, "at" REAL, "lexicon" TEXT)',
    'CREATE INDEX "idx_house_words_channel_id" ON "house_words" ("channel", "id")',
    "CREATE TABLE clock_leases (channel text primary key, owner text not null, expires real not null)",
    "CREATE INDEX house_words_list on house_words (channel, lexicon, id)",
    "CREATE INDEX outbox_dead on outbox (channel, dead) where dead is not null",
    "CREATE INDEX outbox_done on outbox (delivered) where delivered is not null",
    "CREATE TABLE outbox_processes (owner text primary key, alive_until double precision not null)",
]

# The previous code's PostgreSQL versions, in its own numbering (1 to 8).
OLD_POSTGRES: list[tuple[int, str, tuple[str, ...]]] = [
    (
        1,
        "channels, games, events, players",
        (
            "create table channels (channel text primary key, language text not null, edition text not null,"
            " notation text not null, rules text not null, lexicon text not null, minutes double precision not null,"
            " timezone text not null default '')",
            "create table games (id bigint generated by default as identity primary key, channel text not null,"
            " kind text not null, referee text not null, status text not null, setup text not null,"
            " created double precision not null)",
            "create index games_channel_status on games (channel, status)",
            "create table events (id bigint generated by default as identity primary key,"
            " game bigint not null references games (id), seq integer not null, kind text not null,"
            " data text not null, author text not null, at double precision not null, unique (game, seq))",
            'create table players (game bigint not null references games (id), "user" text not null,'
            ' name text not null, position integer not null, primary key (game, "user"))',
            'create index players_user on players ("user")',
        ),
    ),
    (
        2,
        "deadlines per round, rounds closed once",
        (
            "create table deadlines (game bigint not null references games (id), round integer not null,"
            " at double precision not null, channel text not null, primary key (game, round))",
            "create table closes (game bigint not null references games (id), round integer not null,"
            " at double precision not null, primary key (game, round))",
        ),
    ),
    (
        3,
        "outbox of messages owed to channels and players",
        (
            "create table outbox (id bigint generated by default as identity primary key,"
            " destination text not null, reply text not null, created double precision not null,"
            " due double precision not null, expires double precision, attempts integer not null default 0,"
            " delivered double precision, dropped double precision, last_error text,"
            " claimed_until double precision)",
            "create index outbox_waiting on outbox (destination, id) where delivered is null and dropped is null",
        ),
    ),
    (
        4,
        "house words of each channel",
        (
            "create table house_words (id bigint generated by default as identity primary key,"
            " channel text not null, action text not null, word text not null, author text not null,"
            " name text not null, at double precision not null, lexicon text not null)",
            "create index house_words_channel on house_words (channel, id)",
        ),
    ),
    (
        5,
        "clock leases",
        (
            "create table clock_leases"
            " (channel text primary key, owner text not null, expires double precision not null)",
        ),
    ),
    (
        6,
        "house words per channel and list",
        (
            "update house_words set lexicon = coalesce((select c.lexicon from channels c"
            " where c.channel = house_words.channel), 'fr') where lexicon is null or lexicon = ''",
            "create index house_words_list on house_words (channel, lexicon, id)",
        ),
    ),
    (
        7,
        "dead letters in the outbox",
        (
            "alter table outbox add column channel text",
            "alter table outbox add column dead double precision",
            "create index outbox_dead on outbox (channel, dead) where dead is not null",
            "create index outbox_done on outbox (delivered) where delivered is not null",
        ),
    ),
    (
        8,
        "outbox claims named by process, edits by message",
        (
            "alter table outbox add column claimed_by text",
            "alter table outbox add column edit_key text",
            "create table outbox_processes (owner text primary key, alive_until double precision not null)",
        ),
    ),
]


def test_a_sqlite_file_of_the_previous_code_is_upgraded_to_the_fresh_schema(tmp_path: Path) -> None:
    old = tmp_path / "v10.sqlite"
    conn = sqlite3.connect(old)
    for statement in OLD_SQLITE:
        conn.execute(statement)
    conn.executemany("insert into migrations values (?, ?, 0)", [(m.version, m.name) for m in MIGRATIONS[:10]])
    conn.execute("insert into channels values ('c1', 'en', 'en', 'gcg', 'naspa', 'en', 2.0, 'Europe/Paris')")
    conn.execute("insert into games values (1, 'c1', 'classic', 'ana', 'active', ?, 10.0)", [SETUP])
    conn.execute("insert into events values (1, 1, 1, 'pass', '{\"kind\": \"pass\"}', 'Ann', 11.0)")
    conn.execute("insert into house_words values (1, 'c1', 'add', 'ZEF', 'u:ana', 'Ana', 12.0, 'en')")
    conn.execute(  # a message another process claimed the old way, moving its due time to its lease's end
        "insert into outbox (destination, reply, created, due, channel) values ('c1', ?, 100.0, 130.0, 'c1')",
        [json.dumps({"text": "Coup 1", "channel": "c1"})],
    )
    conn.commit()
    conn.close()
    SQLiteStorage(tmp_path / "fresh.sqlite").close()
    store = SQLiteStorage(old)
    try:
        assert store.schema_version == MIGRATIONS[-1].version
        assert store.channel("c1") == ChannelSettings("c1", "en", "en", "gcg", "naspa", "en", 2.0, "Europe/Paris")
        assert [(e.seq, e.data) for e in store.events(1)] == [(1, {"kind": "pass"})]
        assert [c.word for c in store.house_word_changes("c1", "en")] == ["ZEF"]
        assert store.outbox_due("c", 129.0) == []  # the old claim still holds until its end
        assert [i.reply.text for i in store.outbox_due("c", 130.0)] == ["Coup 1"]
        store.append_event(1, {"kind": "pass"}, "Bob", 13.0)
    finally:
        store.close()
    upgraded, fresh = sqlite_schema(old), sqlite_schema(tmp_path / "fresh.sqlite")
    for part in ("tables", "columns", "primary keys", "indexes", "unique"):
        assert upgraded[part] == fresh[part], part


# The previous code's SQLite file at version 3: deadlines keyed by game only, no closes, outbox, house words.
OLD_SQLITE_3 = [
    *OLD_SQLITE[:7],
    'CREATE TABLE "deadlines" ("game" INTEGER PRIMARY KEY REFERENCES "games"("id"), "round" INTEGER, "at" REAL,'
    ' "channel" TEXT)',
]


def test_a_sqlite_file_of_version_3_gets_deadlines_per_round_by_a_copy_of_the_table(tmp_path: Path) -> None:
    old = tmp_path / "v3.sqlite"
    conn = sqlite3.connect(old)
    for statement in OLD_SQLITE_3:
        conn.execute(statement)
    conn.executemany("insert into migrations values (?, ?, 0)", [(m.version, m.name) for m in MIGRATIONS[:3]])
    conn.execute("insert into channels values ('c1', 'en', 'en', 'gcg', 'naspa', 'en', 2.0, '')")
    conn.execute("insert into games values (1, 'c1', 'duplicate', 'ana', 'active', ?, 10.0)", [SETUP])
    conn.execute("insert into deadlines values (1, 4, 500.0, 'c1')")
    conn.commit()
    conn.close()
    SQLiteStorage(tmp_path / "fresh.sqlite").close()
    store = SQLiteStorage(old)
    try:
        assert [(d.game, d.round, d.at, d.channel) for d in store.deadlines()] == [(1, 4, 500.0, "c1")]
        store.set_deadline(1, 5, 600.0)  # a second round of the same game: the key is (game, round) now
        assert [(d.game, d.round) for d in store.deadlines()] == [(1, 4), (1, 5)]
    finally:
        store.close()
    upgraded, fresh = sqlite_schema(old), sqlite_schema(tmp_path / "fresh.sqlite")
    for part in ("tables", "columns", "primary keys", "indexes", "unique"):
        assert upgraded[part] == fresh[part], part


@pytest.mark.parametrize("version", [8, 1])
def test_a_postgres_database_of_the_previous_numbering_is_upgraded_to_the_fresh_schema(
    version: int, postgres_server: Any
) -> None:
    import psycopg

    from bot.storage.sql.postgres import PostgresStorage

    old_url, fresh_url = postgres_server.create_database(), postgres_server.create_database()
    with psycopg.connect(old_url, autocommit=True) as conn:
        conn.execute(
            "create table migrations"
            " (version integer primary key, name text not null, applied double precision not null)"
        )
        for number, name, statements in OLD_POSTGRES[:version]:
            for statement in statements:
                conn.execute(statement)
            conn.execute("insert into migrations values (%s, %s, 0)", [number, name])
        conn.execute("insert into channels values ('c1', 'en', 'en', 'gcg', 'naspa', 'en', 2.0, 'Europe/Paris')")
        conn.execute(
            "insert into games (channel, kind, referee, status, setup, created)"
            " values ('c1', 'duplicate', 'ana', 'active', %s, 10.0)",
            [SETUP],
        )
        conn.execute(
            "insert into events (game, seq, kind, data, author, at)"
            " values (1, 1, 'pass', '{\"kind\": \"pass\"}', 'Ann', 11.0)"
        )
    PostgresStorage(fresh_url, pool_size=1).close()
    store = PostgresStorage(old_url, pool_size=1)
    try:
        assert store.schema_version == MIGRATIONS[-1].version
        versions = store._execute("select version, name from migrations order by version")
        assert [(int(v), n) for v, n in versions] == [(m.version, m.name) for m in MIGRATIONS]
        assert store.channel("c1").timezone == "Europe/Paris"
        assert [(e.seq, e.data) for e in store.events(1)] == [(1, {"kind": "pass"})]
        store.set_deadline(1, 1, 50.0)
        store.mark_closed(1, 1)
        assert [(d.game, d.round) for d in store.deadlines()] == [(1, 1)]
        (owed,) = store.enqueue([Reply("Coup 1", channel="c1")], due=0.0, created=1.0)
        assert [i.id for i in store.outbox_due("c", 2.0)] == [owed]
    finally:
        store.close()
    upgraded, fresh = postgres_schema(old_url), postgres_schema(fresh_url)
    for part in ("tables", "columns", "primary keys", "indexes", "unique"):
        assert upgraded[part] == fresh[part], part
    again = PostgresStorage(old_url, pool_size=1)  # opened again: nothing left to do
    try:
        assert again.schema_version == MIGRATIONS[-1].version
        assert again.channel("c1").language == "en"
    finally:
        again.close()


def test_expected_schema_follows_the_statements_it_is_given() -> None:
    """What a file must hold is worked out once per list of statements: a shorter history (as a test patching
    the migrations gives) gets its own tables, each equal to what those statements make, and a caller changing
    the answer it got does not change the next one."""
    import sqlite_utils

    from bot.storage.sql.dialect import SQLITE
    from bot.storage.sql.sqlite_schema import expected_schema

    def made_by(steps: list[Any]) -> dict[str, set[str]]:
        db = sqlite_utils.Database(memory=True)
        for step in steps:
            for statement in step.for_dialect(SQLITE):
                db.execute(statement)
        return {table.name: set(table.columns_dict) for table in db.tables}

    for steps in (MIGRATIONS[:3], MIGRATIONS, MIGRATIONS[:3]):
        statements = [s for step in steps for s in step.for_dialect(SQLITE)]
        assert expected_schema(iter(statements)) == made_by(steps)
    short = expected_schema(s for step in MIGRATIONS[:3] for s in step.for_dialect(SQLITE))
    assert "outbox_processes" not in short
    assert "outbox_processes" in made_by(MIGRATIONS)
    short["games"].add("not a column")
    short.pop("events")
    again = expected_schema(s for step in MIGRATIONS[:3] for s in step.for_dialect(SQLITE))
    assert again == made_by(MIGRATIONS[:3])
