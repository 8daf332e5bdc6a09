"""Opening a store by URL: ``sqlite:///path/to/file.sqlite`` (or a plain path), ``memory:``,
``postgresql://USER:PASSWORD@HOST:PORT/DATABASE`` (or ``postgres://``)."""

from __future__ import annotations

from pathlib import Path

from .protocol import Storage
from .sql.memory import MemoryStorage
from .sql.sqlite import SQLiteStorage


class UnknownStorageError(Exception):
    """A storage URL whose scheme no backend serves."""

    def __init__(self, url: str, schemes: tuple[str, ...]) -> None:
        super().__init__(f"{url!r}: unknown storage; use {', '.join(schemes)}")
        self.url = url
        self.schemes = schemes


SCHEMES = ("sqlite:///PATH", "memory:", "postgresql://USER@HOST:PORT/DATABASE")


def open_storage(url: str | Path) -> Storage:
    """The store a URL names; a plain path is a SQLite file."""
    text = str(url)
    if text == "memory:":
        return MemoryStorage()
    if text.startswith(("postgresql://", "postgres://")):
        from .sql.postgres import PostgresStorage  # psycopg is loaded only by those who use it

        return PostgresStorage(text)
    if text.startswith("sqlite://"):
        return SQLiteStorage(Path(text.removeprefix("sqlite://")))
    if "://" in text or text.endswith(":"):
        raise UnknownStorageError(text, SCHEMES)
    return SQLiteStorage(Path(text))
