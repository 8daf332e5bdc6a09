"""The versioned binary form of a compiled word list, written and read without rebuilding anything.

Binary form (little-endian): the 8-byte magic ``ARBLEX\\x1a\\n``, then
``version, flags`` (u16 each), ``name length, table length, root, anagram root,
word count, word graph length, alphabet length`` (u32 each), a CRC-32 (u32) of
everything before it and after it, the name in UTF-8 padded to 4 bytes, the table as
words, the ``LOOKAHEAD`` lookahead arrays of ``word graph length`` words each,
then the alphabet (JSON: ``{"labels": [...], "fold": {...}}``) in UTF-8.

Words are u32, or u64 when flag ``WIDE_WORDS`` is set: an alphabet of more than 32 tiles
(``core.lexicon_layout.typecode``); the flag must agree with the alphabet's size. Version 7 moved
the final flag from a node's head to its lengths word (so that 32 tiles fit u32 words) and keeps
only the words' keys in the anagram map; the versions before it are not read (a cache of them is
compiled again).
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from array import array

from .alphabet import LATIN, Alphabet
from .errors_lexicon import CorruptLexiconError
from .lexicon_layout import LOOKAHEAD, WIDE, Table, typecode

MAGIC = b"ARBLEX\x1a\n"
FORMAT_VERSION = 7
READABLE_VERSIONS = (7,)  # 5 and 6 held each word in the anagram map and the final flag in the head
WIDE_WORDS = 1  # the flag of u64 words
_HEADER = struct.Struct("<8sHHIIIIIII")
_CRC = struct.Struct("<I")
_PAYLOAD_START = _HEADER.size + _CRC.size


def _alphabet_bytes(alphabet: Alphabet) -> bytes:
    return json.dumps({"labels": list(alphabet.labels), "fold": dict(alphabet.folds)}, ensure_ascii=False).encode()


_LATIN_BYTES = _alphabet_bytes(LATIN)


def _alphabet_from_bytes(data: bytes) -> Alphabet:
    if data == _LATIN_BYTES:
        return LATIN
    try:
        spec = json.loads(data.decode("utf-8"))
        alphabet = Alphabet(tuple(spec["labels"]), spec["fold"])
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise CorruptLexiconError("alphabet is not readable") from None
    return LATIN if alphabet == LATIN else alphabet


def encode(
    name: str,
    table: Table,
    lookahead: tuple[Table, ...],
    root: int,
    anagram_root: int,
    count: int,
    alphabet: Alphabet,
) -> bytes:
    """The binary form of a lexicon's parts (see the module docstring)."""
    name_bytes = name.encode("utf-8")
    padded = name_bytes + b"\0" * (-len(name_bytes) % 4)
    alphabet_bytes = _alphabet_bytes(alphabet)
    code = typecode(len(alphabet))
    arrays: list[Table] = [table, *lookahead]
    if any(memoryview(a).format != code for a in arrays):
        raise ValueError(f"an alphabet of {len(alphabet)} tiles is stored in arrays of typecode {code!r}")
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        swapped = [array(code, a) for a in arrays]
        for part in swapped:
            part.byteswap()
        arrays = list(swapped)
    header = _HEADER.pack(
        MAGIC,
        FORMAT_VERSION,
        WIDE_WORDS if code == WIDE else 0,
        len(name_bytes),
        len(table),
        root,
        anagram_root,
        count,
        len(lookahead[0]),
        len(alphabet_bytes),
    )
    body = padded + b"".join(a.tobytes() for a in arrays) + alphabet_bytes
    crc = zlib.crc32(body, zlib.crc32(header))
    return header + _CRC.pack(crc) + body


def decode(
    data: bytes | bytearray | memoryview, *, copy: bool = True
) -> tuple[Table, int, int, tuple[Table, ...], int, str, Alphabet]:
    """The table, root, anagram root, lookahead arrays, word count, stored name and alphabet of the
    binary form; raises CorruptLexiconError on truncated or damaged data.

    With ``copy=False`` the arrays are views of ``data`` (on little-endian hosts; others copy anyway).
    """
    view = memoryview(data).cast("B")
    if len(view) < _PAYLOAD_START:
        raise CorruptLexiconError(f"{len(view)} bytes is shorter than the header")
    header = _HEADER.unpack_from(view)
    magic, version, flags, name_len, table_len, root, anagram_root, count, graph_len, alphabet_len = header
    if magic != MAGIC:
        raise CorruptLexiconError("not a compiled lexicon (bad magic)")
    if version not in READABLE_VERSIONS:
        raise CorruptLexiconError(f"format version {version}, this build reads {FORMAT_VERSION}")
    if flags & ~WIDE_WORDS:
        raise CorruptLexiconError(f"unknown flags {flags:#x}")
    wide = bool(flags & WIDE_WORDS)
    size = 8 if wide else 4
    padded_len = name_len + (-name_len % 4)
    alphabet_start = padded_len + size * (table_len + LOOKAHEAD * graph_len)
    expected = _PAYLOAD_START + alphabet_start + alphabet_len
    if len(view) != expected:
        raise CorruptLexiconError(f"{len(view)} bytes where the header announces {expected}")
    (stored_crc,) = _CRC.unpack_from(view, _HEADER.size)
    body = view[_PAYLOAD_START:]
    crc = zlib.crc32(body, zlib.crc32(view[: _HEADER.size]))
    if crc != stored_crc:
        raise CorruptLexiconError("checksum mismatch")
    if table_len < 2 or graph_len > table_len or root >= graph_len - 1 or anagram_root >= table_len - 1:
        raise CorruptLexiconError("root outside the table")
    try:
        stored_name = bytes(body[:name_len]).decode("utf-8")
    except UnicodeDecodeError:
        raise CorruptLexiconError("name is not UTF-8") from None
    alphabet = _alphabet_from_bytes(bytes(body[alphabet_start : alphabet_start + alphabet_len]))
    code = typecode(len(alphabet))
    if wide != (code == WIDE):
        raise CorruptLexiconError(f"{size * 8}-bit words for an alphabet of {len(alphabet)} tiles")
    share = not copy and sys.byteorder == "little"
    arrays: list[Table] = []
    offset = padded_len
    for length in [table_len] + [graph_len] * LOOKAHEAD:
        part = body[offset : offset + size * length]
        if share:
            arrays.append(part.cast(code))
        else:
            owned: array[int] = array(code)
            owned.frombytes(part)
            if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
                owned.byteswap()
            arrays.append(owned)
        offset += size * length
    return arrays[0], root, anagram_root, tuple(arrays[1:]), count, stored_name, alphabet
