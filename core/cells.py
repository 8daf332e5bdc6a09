"""The text cells of the files the bot exports (CSV, the federation's SIGLES file): never a formula a
spreadsheet would evaluate, and, in a file written in Latin-1, only characters Latin-1 has.

``inert``: OWASP's rule for CSV injection. A text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return (``=HYPERLINK(...)``, ``+cmd|' /C calc'!A0``, ``@SUM(1)``) is written with a single
quote before it, which spreadsheets show as text; a cell whose first character after leading spaces is one
of these gets the quote too (a spreadsheet set to trim spaces would read ``" =1+1"`` as a formula).
Nothing else in the cell changes: a name keeps its leading characters. Only text that people typed goes
through it (names, centre names, words); the numbers the bot writes (a gap of ``-14``) stay numbers.

``latin1``: the SIGLES file is Latin-1. A letter it lacks is written as the nearest it has: the
ligatures ``Œ œ`` as ``OE oe``, ``Ÿ`` as ``Y``, typographic quotes and dashes as ``' " -``, ``Ł ł Đ đ
Ħ ħ ı ẞ`` as ``L l D d H h i SS``, any other letter as its base letter (its compatibility decomposition,
NFKD, without the accents Latin-1 cannot hold: ``ş`` -> ``s``, ``ő`` -> ``o``, ``ﬁ`` -> ``fi``).
A character with no such form (an emoji, a symbol, a letter of another script) is dropped, and the spaces
around it are tidied (``Zoé 🎲`` -> ``Zoé``); a name left with nothing is written ``?``.
"""

from __future__ import annotations

import unicodedata

DANGEROUS = frozenset("=+-@\t\r")  # a cell beginning with one of these is a formula to a spreadsheet
QUOTE = "'"  # what makes such a cell text

# the letters and marks Latin-1 lacks whose compatibility decomposition gives nothing Latin-1 has
_EQUIVALENTS = {
    "Œ": "OE", "œ": "oe", "Ÿ": "Y", "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i",
    "ẞ": "SS", "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "“": '"', "”": '"', "„": '"', "‟": '"',
    "″": '"', "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "‹": "<", "›": ">",
}  # fmt: skip
EMPTY_NAME = "?"  # a name of which Latin-1 keeps nothing


def inert(text: str) -> str:
    """``text`` as a spreadsheet reads it as text: with a single quote before it when it begins, or begins
    after spaces, with ``= + - @``, a tab or a carriage return; unchanged otherwise."""
    if text[:1] in DANGEROUS or text.lstrip()[:1] in DANGEROUS:
        return QUOTE + text
    return text


def _latin1_char(char: str) -> str:
    """One character as Latin-1 holds it: itself, its equivalent, its base letters, or "" (dropped)."""
    if ord(char) < 0x100:
        return char
    if char in _EQUIVALENTS:
        return _EQUIVALENTS[char]
    decomposed = unicodedata.normalize("NFKD", char)
    return "".join(part for part in decomposed if ord(part) < 0x100)


def latin1(text: str) -> str:
    """``text`` with only characters Latin-1 has (see the module): letters it lacks transliterated, the
    others dropped with the spaces around them tidied; ``?`` when nothing is left."""
    composed = unicodedata.normalize("NFC", text)
    if all(ord(char) < 0x100 for char in composed):
        return composed
    parts = [_latin1_char(char) for char in composed]
    written = "".join(parts)
    if any(not part for part in parts):  # a character dropped: no double nor dangling space left for it
        written = " ".join(written.split())
    return written or EMPTY_NAME
