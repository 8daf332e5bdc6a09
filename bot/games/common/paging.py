"""Long views read page by page (/games, /standings, /moves, like /sheet): a ``pN`` word asks for page N, and
the answer offers *Previous* and *Next* buttons that run the same command on the page before or after."""

from __future__ import annotations

from collections.abc import Sequence

from ... import buttons
from ...commands.context import Context, UserError
from ...numbers import read_int

MOVES_PAGE = 20  # a player's lines (classic) or rounds (duplicate) a /moves page shows


def is_page_word(token: str) -> bool:
    """Whether a word asks for a page (``p2``)."""
    return token[:1].lower() == "p" and read_int(token[1:]) is not None


def page_window(
    ctx: Context, command: str, count: int, per_page: int, *, last: bool = False, words: Sequence[str] = ()
) -> tuple[slice, str]:
    """The items of the page asked for (``pN``; else the first, or the ``last``) among ``count``, and the line
    that says which (empty when they all fit). Sets the page buttons (``ctx.offered``); ``words``: the
    command's other words, kept on the buttons."""
    pages = max(1, -(-count // per_page))
    page = pages if last else 1
    for token in ctx.tokens:
        number = read_int(token[1:]) if is_page_word(token) else None
        if number is not None:
            if not 1 <= number <= pages:
                raise UserError("no_such_page", page=number, pages=pages)
            page = number
    if pages == 1:
        return slice(None), ""  # all of them, however they are counted
    window = slice((page - 1) * per_page, min(count, page * per_page))
    ctx.offered = buttons.page_actions(ctx.lang, command, page, pages, words)
    line = ctx.say("paged_lines", first=window.start + 1, last=window.stop, count=count, page=page, pages=pages)
    return window, line


def without_pages(words: Sequence[str]) -> list[str]:
    """The words of a command, its ``pN`` left out."""
    return [w for w in words if not is_page_word(w)]
