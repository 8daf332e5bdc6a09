"""Exceptions of game records: GCG files that cannot be read or replayed."""

from __future__ import annotations

from .errors import ArbitreError

# --- GCG records --------------------------------------------------------------


class GcgError(ArbitreError):
    """A GCG game record that cannot be read or replayed."""


class GcgSyntaxError(GcgError, ValueError):
    """A line of a GCG file that cannot be read (or bytes that cannot be decoded)."""

    def __init__(self, line: int, text: str, reason: str) -> None:
        super().__init__(f"line {line}: {reason}: {text!r}")
        self.line = line
        self.text = text
        self.reason = reason


class GcgEventError(GcgError):
    """A GCG event line that the engine rejects (an illegal placement, an event after the end...)."""

    def __init__(self, line: int, text: str, cause: Exception) -> None:
        super().__init__(f"line {line}: {cause}: {text!r}")
        self.line = line
        self.text = text
        self.cause = cause
