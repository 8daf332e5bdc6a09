"""Files an operator names on the command line or in the environment (``--house FILE``, a catalog of
``ARBITRE_LOCALES``): read whole only when they are regular files of a bounded size, so that ``/dev/zero``,
``/dev/urandom``, a FIFO or a 2 GB file is one line of refusal, never a memory error or a wait. The errors
name the file and what is wrong with it, never what it holds."""

from __future__ import annotations

import os
import stat
from pathlib import Path

CHUNK = 1 << 16


class OperatorFileError(Exception):
    """A file that cannot be used: ``reason`` says why in a few words (never quoting its content)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def read_bounded(path: Path, most: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``most`` of them; ``OperatorFileError`` for anything
    else: missing or unreadable, not a regular file (a device, a FIFO, a directory: opened without waiting
    and never read), or larger."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise OperatorFileError(path, error.strerror or type(error).__name__) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise OperatorFileError(path, "not a regular file")
        if info.st_size > most:
            raise OperatorFileError(path, f"larger than {most:,} bytes")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(descriptor, min(CHUNK, most + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > most:  # it grew while read
                raise OperatorFileError(path, f"larger than {most:,} bytes")
        return b"".join(chunks)
    except OSError as error:
        raise OperatorFileError(path, error.strerror or type(error).__name__) from None
    finally:
        os.close(descriptor)


def read_text_bounded(path: Path, most: int) -> str:
    """``read_bounded`` as UTF-8 text (a byte-order mark dropped); ``OperatorFileError`` when it is not UTF-8."""
    try:
        return read_bounded(path, most).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OperatorFileError(path, "not a UTF-8 text file") from None
