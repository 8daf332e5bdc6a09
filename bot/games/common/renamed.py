"""The line an export's reply adds when its file holds some names otherwise than the game has them (the
SIGLES file, ``core.duplicate.results_file``: in Latin-1, inert for a spreadsheet), so that the arbiter
knows what the federation will read."""

from __future__ import annotations

from collections.abc import Iterable

from ...messages import say


def renamed_note(lang: str, renamed: Iterable[tuple[str, str]]) -> str:
    """``"\\n"`` and the line listing each name as played and as written (a pair once), in ``lang``; ""
    when the file wrote every name as played."""
    pairs = list(dict.fromkeys(renamed))
    if not pairs:
        return ""
    items = ", ".join(say(lang, "sigles_renamed_item", name=name, written=written) for name, written in pairs)
    return "\n" + say(lang, "sigles_renamed", names=items)
