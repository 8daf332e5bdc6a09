"""Options and helpers shared by the command-line tools."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # imported when a command runs: building the parser needs none of them
    from bot.storage import Storage
    from core.edition import Edition
    from core.notation import Notation

EXIT_STORAGE = 2  # the database cannot be opened (as for a missing token: nothing to retry)
EXIT_BROKEN_PIPE = 141  # the reader of the output went away (128 + SIGPIPE, as the shell's own tools)


def add_edition_options(parser: argparse.ArgumentParser) -> None:
    """``--edition fr|en`` and ``--notation fisf|gcg``."""
    parser.add_argument("--edition", default="fr", choices=["fr", "en"], help="tile set (default fr)")
    parser.add_argument("--notation", choices=["fisf", "gcg"], help="fisf (default for fr) or gcg (default for en)")


def edition_and_notation(args: argparse.Namespace) -> tuple[Edition, Notation]:
    """The edition and notation chosen by ``add_edition_options``."""
    from core.edition import edition_by_code
    from core.notation import default_notation, notation_by_name

    edition = edition_by_code(args.edition)
    notation = notation_by_name(args.notation) if args.notation else default_notation(edition.code)
    return edition, notation


def database_url(args: argparse.Namespace) -> str:
    """``--db``, else ``ARBITRE_DB``, else ``arbitre.sqlite`` in the data folder (``ARBITRE_DATA``,
    ~/.local/share/arbitre). A plain path is a SQLite file; ``sqlite:///PATH`` and ``memory:`` work too."""
    from bot.adapters.console import data_dir

    chosen = getattr(args, "db", None) or os.environ.get("ARBITRE_DB")
    return str(chosen) if chosen else str(data_dir() / "arbitre.sqlite")


def database_folder(url: str) -> Path:
    """Where files beside the database go (the console's images): the SQLite file's folder, else the data folder."""
    from bot.adapters.console import data_dir

    if url.startswith("sqlite://"):
        return Path(url.removeprefix("sqlite://")).parent
    if "://" in url or url.endswith(":"):
        return data_dir()
    return Path(url).parent


def open_database(url: str, tool: str, err: TextIO) -> Storage | None:
    """The store at ``url``; None after one line on ``err`` saying why it cannot be opened."""
    from bot.storage import StorageOpenError, open_storage
    from bot.storage.open import UnknownStorageError

    try:
        return open_storage(url)
    except (StorageOpenError, UnknownStorageError) as error:
        print(f"arbitre {tool}: {error}", file=err)
        return None
