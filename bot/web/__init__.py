"""The live view: a read-only web page per room, for the hall's projector and for remote players.

``Hub`` (``bot.web.hub``) is told by the referee which room changed after each commit and pushes the
room's public state (``bot.web.state``) to its pages; ``WebServer`` (``bot.web.server``) serves the page
(``bot.web.page``) and its server-sent events, reached by the unguessable links ``/view`` gives. Where they
are served is read by ``bot.web.address``.

Each name is imported from its module when first asked for: a tool that serves no page (the console, most
runs of a bot) never loads the server's aiohttp (0.2 s of a console's start).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .address import BadWebPortError, WebAddress, web_address
    from .hub import Hub
    from .server import WebServer

_MODULES = {
    "BadWebPortError": "address",
    "WebAddress": "address",
    "web_address": "address",
    "Hub": "hub",
    "WebServer": "server",
}


def __getattr__(name: str) -> object:
    """One of the package's names, from its module."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)


__all__ = ["BadWebPortError", "Hub", "WebAddress", "WebServer", "web_address"]
