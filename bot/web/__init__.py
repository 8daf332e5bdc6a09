"""The live view: a read-only web page per room, for the hall's projector and for remote players.

``Hub`` (``bot.web.hub``) is told by the referee which room changed after each commit and pushes the
room's public state (``bot.web.state``) to its pages; ``WebServer`` (``bot.web.server``) serves the page
(``bot.web.page``) and its server-sent events, reached by the unguessable links ``/view`` gives.
"""

from __future__ import annotations

from .hub import Hub
from .server import BadWebPortError, WebAddress, WebServer, web_address

__all__ = ["BadWebPortError", "Hub", "WebAddress", "WebServer", "web_address"]
