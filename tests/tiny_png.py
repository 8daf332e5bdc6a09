"""A valid PNG of a few pixels, built in memory: what a fake platform's upload tests send and check."""

from __future__ import annotations

import struct
import zlib


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A red image of ``width`` by ``height`` pixels, as PNG bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
