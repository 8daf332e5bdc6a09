"""The live page's HTML: one document, its CSS (``bot.web.page_style``) and script (``bot.web.page_script``)
inline (no CDN, nothing else to fetch but its event stream), its words from the room's catalog, its colours
those of the images (``bot.render.palette``).

Two layouts by media query: the projector's (a wide screen, 1920x1080 seen from the back of a hall: the
board the full height, the draw and the clock large beside it, long tables paged by themselves) and the
phone's (360 px wide: one column, every row, the page scrolls). The script draws what the server pushes;
the countdown runs in the page from the deadline it was sent (corrected by the gap between the server's
clock and the page's).
"""

from __future__ import annotations

import html
import json

from core.board import Premium

from ..messages import say
from ..render import palette as p
from ..render.labels import CENTRE_STAR, premium_label
from .page_script import SCRIPT
from .page_style import STYLE
from .state import PREMIUM_CODES, premium_grid

# the catalog messages the page uses, with the placeholders the script fills
LABELS = {
    "title": {},
    "move": {"n": "{n}"},
    "draw": {},
    "kept": {},
    "new": {},
    "waiting_draw": {},
    "played_one": {"played": "{played}", "players": "{players}"},
    "played_other": {"played": "{played}", "players": "{players}"},
    "paused": {},
    "no_clock": {},
    "time_up": {},
    "top": {"n": "{n}", "top": "{top}", "points": "{points}"},
    "no_top": {"n": "{n}"},
    "results": {"n": "{n}"},
    "standings": {},
    "tops_total": {"total": "{total}"},
    "scores": {},
    "to_move": {"player": "{player}"},
    "bag": {"n": "{n}"},
    "finished": {},
    "gone": {},
    "revoked": {},
    "reconnecting": {},
    "call": {"seconds": "{seconds}"},
    "stopwatch": {"time": "{time}"},
    "overtime": {"time": "{time}", "points": "{points}"},
    "flagged": {},
    "simultane_title": {"code": "{code}"},
    "simultane_ranking": {"rounds": "{rounds}", "rooms": "{rooms}", "players": "{players}"},
    "simultane_hidden_together": {},
    "simultane_hidden_window": {},
    "room": {},
    "rooms_one": {"rooms": "{rooms}"},
    "rooms_other": {"rooms": "{rooms}"},
    "players_one": {"players": "{players}"},
    "players_other": {"players": "{players}"},
    "rounds_one": {"rounds": "{rounds}"},
    "rounds_other": {"rounds": "{rounds}"},
    "clock_paused": {},
    "held": {},
    "page": {"page": "{page}", "pages": "{pages}"},
}


def _rgb(colour: p.RGB) -> str:
    red, green, blue = colour[:3]
    return f"#{red:02x}{green:02x}{blue:02x}"


def labels(lang: str) -> dict[str, str]:
    """The page's words in ``lang``, placeholders left for the script."""
    words = {key: say(lang, f"web_{key}", **values) for key, values in LABELS.items()}
    for premium in Premium:
        code = PREMIUM_CODES[premium.name]
        if code:
            words[f"premium_{code}"] = premium_label(lang, premium)
    for column in ("col_player", "col_total", "col_gap", "col_solos"):  # the chat tables' column names
        words[column] = say(lang, column)
    words["stopped"] = say(lang, "simultane_stopped", n="{n}")  # a room that ended early, as the chat marks it
    words["star"] = CENTRE_STAR
    return words


def colours() -> str:
    """The palette as CSS custom properties."""
    square = {PREMIUM_CODES[k.name] or "plain": v for k, v in p.SQUARE.items()}
    ink = {PREMIUM_CODES[k.name] or "plain": v for k, v in p.SQUARE_INK.items()}
    names = {
        "page": p.PAGE,
        "ink": p.INK,
        "muted": p.MUTED,
        "rule": p.RULE,
        "frame": p.BOARD_FRAME,
        "line": p.SQUARE_LINE,
        "tile": p.TILE,
        "tile-edge": p.TILE_EDGE,
        "recent": p.TILE_RECENT,
        "recent-edge": p.RECENT_EDGE,
        "joker": p.JOKER_TILE,
        "joker-edge": p.JOKER_EDGE,
        "joker-ink": p.JOKER_INK,
        "kept": p.KEPT_TILE,
        "chip": p.CHIP,
        "turn": p.CHIP_TURN,
        "turn-ink": p.CHIP_TURN_INK,
        "stripe": p.ROW_STRIPE,
        "row-top": p.ROW_TOP,
        "zero-ink": p.ZERO_INK,
    }
    names.update({f"sq-{k}": v for k, v in square.items()})
    names.update({f"sq-ink-{k}": v for k, v in ink.items()})
    return ";".join(f"--{name}:{_rgb(value)}" for name, value in names.items())


def page_html(lang: str, events_url: str) -> str:
    """The whole page of a room in ``lang``, reading its state from ``events_url``."""
    config = {"labels": labels(lang), "premiums": premium_grid(), "events": events_url, "lang": lang}
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    title = html.escape(say(lang, "web_title"))
    return (
        _TEMPLATE.replace("__LANG__", html.escape(lang))
        .replace("__TITLE__", title)
        .replace("__STYLE__", STYLE.replace("__COLOURS__", colours()))
        .replace("__SCRIPT__", SCRIPT.replace("__CONFIG__", data))
    )


_TEMPLATE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>__TITLE__</title>
<style>
__STYLE__</style>
</head>
<body>
<div id="app">
<div id="board" role="img"></div>
<div id="side">
<h1 id="heading"></h1>
<div id="status"></div>
<div id="notice" role="status"></div>
<div id="rack" aria-live="polite"></div>
<div id="legend"></div>
<div id="clocks"></div>
<div id="pace"><div id="clock"></div><div id="call" role="status"></div><div id="count" aria-live="polite"></div></div>
<div id="top"></div>
<div id="tables"><div id="results"></div><div id="standings"></div></div>
<div id="overall"></div>
</div>
</div>
<script>
__SCRIPT__</script>
</body>
</html>
"""
