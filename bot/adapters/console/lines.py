"""The console's input: lines read as bytes and decoded, silent lines (blank, comments) skipped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO, TextIO

REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class InputLine:
    """A line of the console's input, decoded; ``had_invalid_bytes``: some bytes were not UTF-8
    (each run of them became U+FFFD)."""

    text: str
    had_invalid_bytes: bool = False


def decode_line(raw: bytes) -> InputLine:
    """``raw`` as UTF-8, invalid bytes replaced by U+FFFD (and said so)."""
    try:
        return InputLine(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return InputLine(raw.decode("utf-8", errors="replace"), had_invalid_bytes=True)


def read_line(stdin: TextIO) -> InputLine | None:
    """The next line of ``stdin`` (None at its end), read as bytes when it has them so that an
    invalid byte is replaced instead of stopping the console."""
    buffer: BinaryIO | None = getattr(stdin, "buffer", None)
    if buffer is None:
        text = stdin.readline()
        return InputLine(text) if text else None
    raw = buffer.readline()
    return decode_line(raw) if raw else None


def is_silent(text: str) -> bool:
    """Whether a line says nothing to the room: blank, or a ``#`` comment."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def next_line(stdin: TextIO) -> tuple[InputLine | None, int]:
    """The next line of ``stdin`` that says something (None at its end), and how many silent lines came
    before it: a run of blank lines or comments costs one call, not one hand-over each."""
    skipped = 0
    while True:
        line = read_line(stdin)
        if line is None or line.had_invalid_bytes or not is_silent(line.text):
            return line, skipped
        skipped += 1
