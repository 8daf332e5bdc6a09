"""Whole numbers typed in chat: ASCII digits only, bounded, so that no input can surprise the referee."""

from __future__ import annotations

import re

_INTEGER = re.compile(r"^[+-]?[0-9]{1,9}$")
_DECIMAL = re.compile(r"^[+-]?[0-9]{1,6}([.,][0-9]{1,3})?$")


def read_int(text: str) -> int | None:
    """``12``, ``+12``, ``-3`` as an int; None for anything else (other digits, 10 or more digits)."""
    stripped = text.strip()
    return int(stripped) if _INTEGER.match(stripped) else None


def read_decimal(text: str) -> float | None:
    """``1``, ``0.5``, ``2,5`` as a float; None for anything else."""
    stripped = text.strip()
    return float(stripped.replace(",", ".")) if _DECIMAL.match(stripped) else None


def is_number_token(text: str) -> bool:
    """Whether a word of a command looks like a number (so it is read as one, not as a word)."""
    return read_int(text) is not None


def looks_like_number(text: str) -> bool:
    """Whether a word was meant as a number, readable or not (``²``, ``٣``, 5,000 digits): such a
    word is refused as a number instead of being read as something else or ignored."""
    digits = text.strip().removeprefix("+").removeprefix("-")
    return digits.isnumeric()
