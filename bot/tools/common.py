"""Options and helpers shared by the command-line tools."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from core.edition import Edition, edition_by_code
from core.notation import Notation, default_notation, notation_by_name

if TYPE_CHECKING:
    from bot.storage import SQLiteStorage

EXIT_STORAGE = 2  # the database cannot be opened (as for a missing token: nothing to retry)


def add_edition_options(parser: argparse.ArgumentParser) -> None:
    """``--edition fr|en`` and ``--notation fisf|gcg``."""
    parser.add_argument("--edition", default="fr", choices=["fr", "en"], help="tile set (default fr)")
    parser.add_argument("--notation", choices=["fisf", "gcg"], help="fisf (default for fr) or gcg (default for en)")


def edition_and_notation(args: argparse.Namespace) -> tuple[Edition, Notation]:
    """The edition and notation chosen by ``add_edition_options``."""
    edition = edition_by_code(args.edition)
    notation = notation_by_name(args.notation) if args.notation else default_notation(edition.code)
    return edition, notation


def database_path(args: argparse.Namespace) -> Path:
    """``--db``, else ``arbitre.sqlite`` in the data folder (``ARBITRE_DATA``, ~/.local/share/arbitre)."""
    from bot.console import data_dir

    return Path(args.db) if args.db else data_dir() / "arbitre.sqlite"


def open_storage(path: Path, tool: str, err: TextIO) -> SQLiteStorage | None:
    """The database at ``path``; None after one line on ``err`` saying why it cannot be opened."""
    from bot.storage import SQLiteStorage, StorageOpenError

    try:
        return SQLiteStorage(path)
    except StorageOpenError as error:
        print(f"arbitre {tool}: {error}", file=err)
        return None
