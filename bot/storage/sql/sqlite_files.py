"""The SQLite file on disk: created for its owner only, and what is wrong with one that cannot be opened
or written (one line: a directory, a foreign, truncated or damaged file, a place that cannot be written,
a full disk)."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sqlite3
from pathlib import Path
from typing import Any

from ..records import StorageFullError, StorageOpenError
from .common import Method

SQLITE_MAGIC = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE = 100
WAL_HEADER_SIZE = 32
SQLITE_FULL = 13  # SQLite's primary result code for "database or disk is full"
SQLITE_IOERR = 10  # "disk I/O error"
MIN_FREE_BYTES = 1 << 20  # less room than this on the disk: an I/O error there is the disk being full
PRIVATE_FOLDER = 0o700  # the folders the bot creates: open duplicate submissions are kept there
PRIVATE_FILE = 0o600  # the database (SQLite gives its -wal and -shm files the same mode)
DISK_FULL = "the disk holding it is full: free some space and start again (nothing acknowledged is lost)"


def make_private_place(path: Path) -> None:
    """The folders leading to ``path`` (those missing, created for the owner only) and an empty
    database file readable by its owner only, when there is none yet."""
    missing = []
    for folder in (path.parent, *path.parent.parents):
        if folder.exists() or folder.is_symlink():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            folder.mkdir(mode=PRIVATE_FOLDER)
            folder.chmod(PRIVATE_FOLDER)  # whatever the umask
    if not path.exists() and not path.is_symlink():
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))


def is_disk_full(error: BaseException, folder: Path | None = None) -> bool:
    """Whether ``error`` says the disk (or the quota) is full; with ``folder``, also an I/O error where the
    disk holding ``folder`` has no room left (SQLite reports a shared-memory file it cannot grow so)."""
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT)
    if not isinstance(error, sqlite3.Error):
        return False
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if code == SQLITE_FULL or "disk is full" in str(error):
        return True
    return folder is not None and (code == SQLITE_IOERR or "disk I/O error" in str(error)) and _no_room(folder)


def _no_room(folder: Path) -> bool:
    """Whether the disk holding ``folder`` has almost no room left for this process."""
    try:
        disk = os.statvfs(folder)
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < MIN_FREE_BYTES


def _wal_pages(path: Path) -> bool:
    """Whether a write-ahead log beside ``path`` holds pages (a file shorter than its header says is
    then whole: SQLite copies those pages into it at its next checkpoint)."""
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > WAL_HEADER_SIZE
    except OSError:
        return False


def header_problem(path: Path) -> str | None:
    """What is wrong with an existing file's header, judged by its bytes (None if it looks sound)."""
    with path.open("rb") as file:
        header = file.read(SQLITE_HEADER_SIZE)
    size = path.stat().st_size
    if not header:
        return None
    if not header.startswith(SQLITE_MAGIC[: len(header)]):
        return "it is not a SQLite database (it does not start with SQLite's header)"
    if len(header) < SQLITE_HEADER_SIZE:
        return f"it is truncated: {size} bytes, less than SQLite's {SQLITE_HEADER_SIZE}-byte header"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    counted = header[24:28] == header[92:96]  # the page count is valid only then
    if counted and pages and size < pages * page_size and not _wal_pages(path):
        return f"it is truncated: {size} bytes where its header announces {pages} pages of {page_size} bytes"
    return None


def open_failure(path: Path, error: BaseException) -> str:
    """One line saying why ``path`` could not be opened as a database after ``error``."""
    if path.is_dir():
        return "it is a directory, not a file"
    if is_disk_full(error, path.parent):
        return DISK_FULL
    if isinstance(error, OSError) and not path.parent.is_dir():
        blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if blocking is not None:
            return f"{blocking} is a file, not a folder"
        return f"its folder {path.parent} cannot be created ({error.strerror or error})"
    try:
        problem = header_problem(path) if path.is_file() else None
    except OSError as unreadable:
        return f"it cannot be read ({unreadable.strerror or unreadable})"
    if problem:
        return problem
    text = str(error)
    if isinstance(error, sqlite3.DatabaseError) and ("malformed" in text or "not a database" in text):
        return f"it is damaged (SQLite: {text})"
    refused = isinstance(error, OSError) and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    if refused or "readonly" in text or "unable to open" in text:
        if not os.access(path.parent, os.W_OK):
            return f"its folder {path.parent} is not writable"
        if path.exists() and not os.access(path, os.W_OK):
            return "the file is not writable"
        return f"it cannot be opened for writing (SQLite: {text})"
    if "locked" in text:
        return f"another process holds it locked ({text})"
    if isinstance(error, OSError):
        return str(error.strerror or error)
    return f"SQLite: {text}"


def explains_open_failures(init: Method) -> Method:
    """``SQLiteStorage(path)`` raises :class:`StorageOpenError` instead of OSError or sqlite3.Error."""

    @functools.wraps(init)
    def opening(self: Any, path: str | Path, **options: Any) -> None:
        try:
            init(self, path, **options)
        except BaseException as error:
            with contextlib.suppress(Exception):
                self.db.close()
            if isinstance(error, StorageFullError):
                raise StorageOpenError(Path(path), DISK_FULL) from None
            if isinstance(error, (OSError, sqlite3.Error)):
                raise StorageOpenError(Path(path), open_failure(Path(path), error)) from None
            raise

    return opening  # type: ignore[return-value]
