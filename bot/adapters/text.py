"""Text as chats take it: long text cut in pieces on line boundaries, short descriptions."""

from __future__ import annotations

from collections.abc import Callable

FENCE = "```"


def split_text(text: str, limit: int, measure: Callable[[str], int] = len) -> list[str]:
    """``text`` in pieces of at most ``limit`` (as ``measure`` counts), cut on line boundaries.

    A code block cut in two is closed at the end of one piece and reopened at the start of
    the next, so every piece has balanced ``` fences. A line longer than a piece is cut.
    """
    text = text.strip("\n")
    if not text.strip():
        return []
    if measure(text) <= limit:
        return [text]
    close = "\n" + FENCE
    piece = max(limit // 2, limit - 64)  # room left for fences around a cut line
    lines: list[tuple[str, bool]] = []  # (line, continues the line before: must start a piece)
    for line in text.split("\n"):
        continued = False
        while measure(line) > piece:
            cut = piece
            while cut > 1 and measure(line[:cut]) > piece:
                cut -= max(1, (measure(line[:cut]) - piece))
            lines.append((line[:cut], continued))
            line, continued = line[cut:], True
        lines.append((line, continued))

    chunks: list[str] = []
    current: list[str] = []
    size = 0
    fence: str | None = None  # the line that opened the code block we are in
    opened_at = -1  # its index in ``current``

    def flush() -> None:
        nonlocal current, size, opened_at
        carry: list[str] = []
        body_lines = current
        if fence is not None and opened_at == len(current) - 1:
            body_lines, carry = current[:-1], current[-1:]  # a block opening right at the cut
        elif fence is not None:
            body_lines = current + [FENCE]
        body = "\n".join(body_lines).strip("\n")
        if body.strip() and body.strip() != FENCE:
            chunks.append(body)
        current = carry or ([fence] if fence is not None else [])
        opened_at = 0 if fence is not None else -1
        size = measure("\n".join(current)) if current else 0

    for line, continued in lines:
        is_fence = line.strip().startswith(FENCE)
        after = fence
        if is_fence:
            after = None if fence is not None else line.strip()
        cost = measure(line) + (1 if current else 0)
        reserve = measure(close) if after is not None else 0
        if current and (continued or size + cost + reserve > limit):
            flush()
            cost = measure(line) + (1 if current else 0)
        current.append(line)
        size += cost
        if is_fence and fence is None:
            opened_at = len(current) - 1
        fence = after
    if fence is not None:
        opened_at = -1  # the text ends inside a block: close it
    flush()
    return chunks


def short_text(text: str, limit: int) -> str:
    """A description of at most ``limit`` characters: the whole text, its first sentence, or cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    first = text.split(". ")[0].rstrip(".") + "."
    if len(first) <= limit:
        return first
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"
