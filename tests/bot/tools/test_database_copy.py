"""``arbitre database copy`` (issue 40): a SQLite database with games, a simultané and an outbox, copied to
PostgreSQL by the real command, plays on there; a target that already holds rows is refused."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from bot.chat import Incoming
from bot.referee import Referee
from bot.storage import StorageOpenError
from bot.storage.sql.postgres import PostgresStorage
from tests.club import REGISTRY, START, Club
from tests.postgres_server import PostgresServer
from tests.processes import ROOT, cli_env

ROOM = "discord:111"  # the simultané's organiser's room


def copy(tmp_path: Path, source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "database", "copy", source, target],
        cwd=ROOT,
        env=cli_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


def a_club_night(club: Club) -> str:
    """A classic game, a duplicate game in a simultané with answers in, and replies in the outbox; the code."""
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    created = club.ok("Org", "/simultane creer 2 tirages ACEHNTZ", channel=ROOM, admin=True)
    found = re.search(r"code ([A-Z0-9]{6})", created)
    assert found is not None, created
    club.ok("Org", f"/simultane rejoindre {found.group(1)}", channel=ROOM, admin=True)
    club.ok("Cy", "/jouer H8 CHANTEZ", channel=ROOM, private=True)
    return found.group(1)


def counts(rows: str) -> dict[str, int]:
    return {table: int(n) for table, n in re.findall(r"^(\w+): (\d+) rows$", rows, re.MULTILINE)}


def test_a_sqlite_club_copied_to_postgresql_plays_on(tmp_path: Path, postgres_url: str) -> None:
    club = Club(tmp_path / "club.sqlite")
    code = a_club_night(club)
    club.close()
    with sqlite3.connect(tmp_path / "club.sqlite") as source:
        outbox = source.execute("select count(*) from outbox").fetchone()[0]
        games = source.execute("select max(id) from games").fetchone()[0]
    assert outbox > 0

    done = copy(tmp_path, str(tmp_path / "club.sqlite"), postgres_url)
    assert done.returncode == 0, done.stderr
    copied = counts(done.stdout)
    assert copied["outbox"] == outbox
    assert copied["simultanes"] == 1
    assert copied["events"] > 0
    assert done.stdout.strip().endswith(f"copied {sum(copied.values())} rows in {len(copied)} tables")

    storage = PostgresStorage(postgres_url)
    now = START + 30
    referee = Referee(storage, REGISTRY, now=lambda: now)
    try:

        def say(name: str, text: str, channel: str = "club", *, private: bool = False) -> str:
            message = Incoming(channel, f"u:{name.lower()}", name, text, private=private)
            return "\n".join(reply.text for reply in referee.handle(message))

        played = say("Ben", "/coup 8H VOGUE")
        assert "VOGUE 4+1+2+1+1x2 = 10" in played
        assert "Ana 20 · Ben 10" in played
        assert "Reçu pour le coup 1" in say("Dee", "/jouer H4 CHANT", channel=ROOM, private=True)
        standing = say("Org", f"/simultane etat {code}", channel=ROOM)
        assert code in standing
        new = say("Eve", "/nouvelle Eve Fay", channel="telegram:-5")  # a new game: the next id, not a copied one
        assert "Nouvelle partie" in new
        started = storage.active_game("telegram:-5")
        assert started is not None
        assert started.id > games
        assert storage.outbox_backlog()  # the copied messages still owed, as a process of the new database sees them
    finally:
        referee.clock.shutdown()
        storage.close()


def test_a_target_holding_rows_is_refused_and_left_alone(tmp_path: Path, postgres_url: str) -> None:
    club = Club(tmp_path / "club.sqlite")
    club.ok("Ana", "/nouvelle Ana Ben")
    club.close()
    assert copy(tmp_path, str(tmp_path / "club.sqlite"), postgres_url).returncode == 0
    again = copy(tmp_path, str(tmp_path / "club.sqlite"), postgres_url)
    assert again.returncode == 2
    refused = "the target already holds rows (in games, outbox, players): copy into an empty database"
    assert again.stderr == f"arbitre database copy: {refused}\n"
    with psycopg.connect(postgres_url) as target:
        assert target.execute("select count(*) from games").fetchone() == (1,)


def test_sqlites_online_backup_while_the_bot_runs_holds_the_latest_moves(tmp_path: Path) -> None:
    """docs/operating.md, Backing up: SQLite's backup of the file a running bot writes (its latest commits still in
    the -wal file) opens as a database with them."""
    club = Club(tmp_path / "club.sqlite")
    try:
        club.ok("Ana", "/nouvelle Ana Ben")
        club.ok("Ana", "/coup H8 VAGUE")
        assert (tmp_path / "club.sqlite-wal").stat().st_size > 0  # the move is in the log, not yet in the file
        with sqlite3.connect(tmp_path / "club.sqlite") as running, sqlite3.connect(tmp_path / "backup.sqlite") as copy:
            running.backup(copy)
    finally:
        club.close()
    restored = Club(tmp_path / "backup.sqlite")
    try:
        assert "Ana 20 · Ben 0" in restored.ok("Ben", "/feuille")
    finally:
        restored.close()


def test_a_postgresql_database_not_in_utf8_is_refused_in_one_line(postgres_server: PostgresServer) -> None:
    """Found by the container test: a cluster made without a locale is SQL_ASCII, where every text comes back as
    bytes (the console died on its room's language, b'fr')."""
    with psycopg.connect(postgres_server.url("postgres"), autocommit=True) as admin:
        admin.execute("create database ascii_club encoding 'SQL_ASCII' lc_collate 'C' lc_ctype 'C' template template0")
    with pytest.raises(StorageOpenError, match=r"encoding is SQL_ASCII; Arbitre needs UTF8 \(createdb --encoding"):
        PostgresStorage(postgres_server.url("ascii_club"))
