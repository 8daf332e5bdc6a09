"""``arbitre database copy SOURCE TARGET``: every game, simultané, series and message owed, copied from one database
into another, empty one (from the SQLite file of one process to the PostgreSQL database of several)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .common import EXIT_STORAGE


def run_copy(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.storage.copy import CopyError, copy_database

    def said(table: str, rows: int) -> None:
        print(f"{table}: {rows} rows", file=out, flush=True)

    try:
        copied = copy_database(args.source, args.target, said)
    except CopyError as error:
        print(f"arbitre database copy: {error}", file=err)
        return EXIT_STORAGE
    print(f"copied {sum(copied.rows.values())} rows in {len(copied.rows)} tables", file=out)
    return 0


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "database",
        help="copy a database into another (SQLite to PostgreSQL)",
        description="Copy every game, simultané, series and message owed from one database into another, empty "
        "one, for example from the SQLite file of one process to a PostgreSQL database shared by several. Stop "
        "the bots using the source first.",
    )
    actions = parser.add_subparsers(dest="action", required=True, help="copy: one database into another")
    copy = actions.add_parser(
        "copy",
        help="copy SOURCE into the empty TARGET",
        description="Copy SOURCE into TARGET, which must hold no row yet (both are brought to this version's "
        "schema first).",
    )
    copy.add_argument("source", metavar="SOURCE", help="the database to read: a SQLite file path or a URL")
    copy.add_argument("target", metavar="TARGET", help="the empty database to fill: postgresql://... or a path")
    copy.set_defaults(handler=run_copy)
