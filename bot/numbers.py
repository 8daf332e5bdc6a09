"""Numbers typed in chat: ASCII digits only, bounded, so that no input can surprise the referee.

One reading for every command that takes a number (minutes, seconds, points, a game or move number):
a decimal mark is a point or a comma alike (``1,5`` and ``1.5`` are one and a half, in every language),
and a quantity that must be whole refuses ``1,5`` as such instead of reading ``1`` or ``15``.
"""

from __future__ import annotations

import re

MAX_WHOLE_DIGITS = 9  # 999,999,999 at most: beyond, nobody meant a score or a time
_NUMBER = re.compile(rf"^([+-]?)([0-9]{{0,{MAX_WHOLE_DIGITS}}})(?:[.,]([0-9]{{1,3}}))?$")
MAX_DECIMAL_DIGITS = 6  # digits before the decimal mark of a number that has one
_BETWEEN_WORDS = re.compile(r"\s+|(?<![0-9]),|,(?![0-9])")


class NumberError(Exception):
    """A word of a command that should have been a number and is not the kind wanted.

    ``key`` is the catalog message that explains the refusal (with ``text``, the word, shortened)."""

    key = "bad_decimal"

    def __init__(self, text: str) -> None:
        super().__init__(f"not a number: {text!r}")
        self.text = text.strip()[:20]


class NotANumberError(NumberError):
    """Not a number at all (letters, other digits than ASCII, too many digits)."""

    key = "bad_decimal"


class NotAWholeNumberError(NumberError):
    """A number with a decimal part (``1,5``) or not a number, where only a whole number will do."""

    key = "bad_number"


def parse_decimal(text: str) -> float:
    """``1``, ``0.5``, ``0,5``, ``.5``, ``-2,25`` as a float; NotANumberError for anything else."""
    match = _NUMBER.match(text.strip())
    if match is None:
        raise NotANumberError(text)
    sign, whole, fraction = match.groups()
    if not whole and fraction is None:
        raise NotANumberError(text)
    if fraction is not None and len(whole) > MAX_DECIMAL_DIGITS:
        raise NotANumberError(text)
    value = float(f"{whole or '0'}.{fraction or '0'}")
    return -value if sign == "-" else value


def parse_whole(text: str) -> int:
    """``12``, ``+12``, ``-3`` as an int; NotAWholeNumberError for ``1,5``, ``1.5`` or anything else."""
    match = _NUMBER.match(text.strip())
    if match is None or match.group(3) is not None or not match.group(2):
        raise NotAWholeNumberError(text)
    return int(match.group(1) + match.group(2))


def read_int(text: str) -> int | None:
    """``12``, ``+12``, ``-3`` as an int; None for anything else (``1,5``, other digits, 10 or more digits)."""
    try:
        return parse_whole(text)
    except NumberError:
        return None


def read_decimal(text: str) -> float | None:
    """``1``, ``0.5``, ``2,5`` as a float; None for anything else."""
    try:
        return parse_decimal(text)
    except NumberError:
        return None


def looks_like_number(text: str) -> bool:
    """Whether a word was meant as a number, readable or not (``²``, ``٣``, 5,000 digits, ``1,5``):
    such a word is refused as a number instead of being read as something else or ignored."""
    digits = text.strip().removeprefix("+").removeprefix("-")
    for mark in ".,":
        whole, found, fraction = digits.partition(mark)
        if found and (whole + fraction).isnumeric():
            return True
    return digits.isnumeric()


def split_words(text: str) -> list[str]:
    """The words of a command's arguments: spaces and commas separate them, but a comma between two
    digits is a decimal mark (``1,5 manuel`` is two words, ``Ana,Ben`` is two)."""
    return [word for word in _BETWEEN_WORDS.split(text) if word]
