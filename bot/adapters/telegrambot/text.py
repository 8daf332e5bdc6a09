"""Telegram's text: its length unit, code blocks as ``pre`` entities, and the Bot API's URLs."""

from __future__ import annotations

from telegram import MessageEntity


def utf16_len(text: str) -> int:
    """Telegram's length unit: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def telegram_text(text: str) -> tuple[str, list[MessageEntity]]:
    """Plain text and ``pre`` entities for the ``` code blocks (no parse mode, nothing to escape)."""
    parts: list[str] = []
    entities: list[MessageEntity] = []
    position = 0  # UTF-16 length of "\n".join(parts)
    block: str | None = None  # language of the open block ("" for none)
    start: int | None = None
    end = 0

    def close_block() -> None:
        if start is not None and end > start:
            entities.append(MessageEntity(MessageEntity.PRE, start, end - start, language=block or None))

    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            if block is None:
                block, start = stripped[3:].strip(), None
            else:
                close_block()
                block = None
            continue
        if parts:
            position += 1
        if block is not None and start is None:
            start = position
        parts.append(line)
        position += utf16_len(line)
        end = position
    if block is not None:
        close_block()
    return "\n".join(parts), entities


def file_url_for(base_url: str) -> str:
    """The file URL of a Bot API server from its method URL (``.../bot`` -> ``.../file/bot``)."""
    root = base_url.rstrip("/")
    return root.removesuffix("/bot") + "/file/bot"


def api_url(base_url: str) -> str:
    """``http://host:8081`` or ``http://host:8081/bot`` -> ``http://host:8081/bot``."""
    root = base_url.rstrip("/")
    return root if root.endswith("/bot") else root + "/bot"
