"""The live pages beside a chat adapter: the options' address read, the server started in the running
loop for as long as the adapter runs (``serving``)."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, TextIO

from .address import BadWebPortError, WebAddress, web_address

if TYPE_CHECKING:
    from ..referee import Referee


class WebOptionsError(Exception):
    """The web options ask for a port that is not one, or that cannot be bound (the line said is ``text``)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def address_of(args: argparse.Namespace, tool: str) -> WebAddress | None:
    """The address ``add_web_options`` asked for (None: the pages are off). Raises ``WebOptionsError`` (its line
    names ``tool``) when the port is not one."""
    try:
        return web_address(
            getattr(args, "web_port", None),
            getattr(args, "web_address", None),
            getattr(args, "web_prefix", None),
            getattr(args, "web_url", None),
        )
    except BadWebPortError as error:
        raise WebOptionsError(f"arbitre {tool}: {error}") from None


@contextlib.asynccontextmanager
async def serving(referee: Referee, address: WebAddress | None, tool: str, err: TextIO) -> AsyncIterator[None]:
    """The pages of ``referee``'s rooms served meanwhile (nothing when ``address`` is None); their address said
    on ``err``. Raises ``WebOptionsError`` when the port cannot be bound."""
    if address is None:
        yield
        return
    from .hub import Hub
    from .server import WebServer  # aiohttp, loaded only when the pages are served

    server = WebServer(Hub(referee), address)
    try:
        await server.start()
    except OSError as error:
        raise WebOptionsError(f"arbitre {tool}: web port: {error.strerror or error}") from None
    print(f"arbitre {tool}: live pages under {server.url}/v/", file=err)
    try:
        yield
    finally:
        await server.close()


__all__ = ["BadWebPortError", "WebOptionsError", "address_of", "serving"]
