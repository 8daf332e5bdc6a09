"""Where the live pages are served, as the options and the ``ARBITRE_WEB_*`` variables ask (``web_address``):
read without loading the server (aiohttp), which a tool loads only when a port is asked for."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..operations.ports import BadPortError, port_number

PORT_ENV = "ARBITRE_WEB_PORT"
ADDRESS_ENV = "ARBITRE_WEB_ADDRESS"
PREFIX_ENV = "ARBITRE_WEB_PREFIX"
URL_ENV = "ARBITRE_WEB_URL"
DEFAULT_ADDRESS = "127.0.0.1"  # a reverse proxy in front, unless another address is given


class BadWebPortError(BadPortError):
    """A web port that is not a number from 0 to 65535."""

    def __init__(self, text: str) -> None:
        super().__init__("web", text)


@dataclass(frozen=True)
class WebAddress:
    """Where the pages are served (``port`` 0: any free port), under which path, and the public address
    of that path (None: ``http://host:port`` and the prefix)."""

    host: str
    port: int
    prefix: str = ""
    public_url: str | None = None


def clean_prefix(prefix: str | None) -> str:
    """A path prefix as the routes use it: ``/arbitre`` (leading slash, no trailing one), or empty."""
    text = (prefix or "").strip().strip("/")
    return f"/{text}" if text else ""


def web_address(
    port: int | str | None, host: str | None = None, prefix: str | None = None, url: str | None = None
) -> WebAddress | None:
    """The address the options ask for, else the ``ARBITRE_WEB_*`` variables; None when no port is asked."""
    chosen = port if port is not None else os.environ.get(PORT_ENV, "").strip() or None
    if chosen is None:
        return None
    number = port_number(chosen, BadWebPortError)
    return WebAddress(
        host or os.environ.get(ADDRESS_ENV, "").strip() or DEFAULT_ADDRESS,
        number,
        clean_prefix(prefix if prefix is not None else os.environ.get(PREFIX_ENV)),
        (url or os.environ.get(URL_ENV, "").strip() or None),
    )
