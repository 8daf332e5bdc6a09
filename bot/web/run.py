"""The live pages beside a chat adapter: the options' address read, the server started in the running
loop for as long as the adapter runs (``serving``)."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from .address import BadWebPortError, WebAddress, web_address

if TYPE_CHECKING:
    from ..operations.metrics import Metrics
    from ..referee import Referee
    from .server import WebServer


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


HTTP_PORT_ENV = "ARBITRE_HTTP_PORT"
HTTP_ADDRESS_ENV = "ARBITRE_HTTP_ADDRESS"
HTTP_PATHS_ENV = "ARBITRE_HTTP_PATHS"
PATHS = ("health", "metrics", "pages", "webhook")  # what the one port serves, each switchable


@dataclass(frozen=True)
class HttpPlan:
    """The process's one HTTP port (``--http-port``): where, and which of ``PATHS`` it serves."""

    address: WebAddress
    paths: frozenset[str]

    @property
    def metrics_paths(self) -> frozenset[str]:
        """Those of the paths that the process's metrics answer (``/healthz``, ``/metrics``)."""
        return self.paths & {"health", "metrics"}


def http_plan(args: argparse.Namespace, tool: str) -> HttpPlan | None:
    """The one port ``--http-port`` (or ``ARBITRE_HTTP_PORT``) asks for, with ``--http-address`` and
    ``--http-paths`` (None: not asked; the ports of their own then stand). Raises ``WebOptionsError`` (its line
    names ``tool``) when the port or a path is not one, or when a port of its own is asked for as well."""
    port = getattr(args, "http_port", None) or os.environ.get(HTTP_PORT_ENV, "").strip() or None
    if port is None:
        return None
    separate = [option for option in ("metrics_port", "web_port") if getattr(args, option, None) is not None]
    if separate:
        named = " and ".join("--" + option.replace("_", "-") for option in separate)
        raise WebOptionsError(f"arbitre {tool}: --http-port serves everything on one port: leave out {named}")
    chosen = getattr(args, "http_paths", None) or os.environ.get(HTTP_PATHS_ENV, "").strip() or ",".join(PATHS)
    paths = frozenset(part.strip() for part in chosen.split(",") if part.strip())
    unknown = sorted(paths - set(PATHS))
    if unknown:
        raise WebOptionsError(f"arbitre {tool}: --http-paths {','.join(unknown)}: among {', '.join(PATHS)}")
    host = getattr(args, "http_address", None) or os.environ.get(HTTP_ADDRESS_ENV, "").strip() or None
    try:
        address = web_address(port, host, getattr(args, "web_prefix", None), getattr(args, "web_url", None))
    except BadWebPortError as error:
        raise WebOptionsError(f"arbitre {tool}: {error}".replace("web port", "http port")) from None
    assert address is not None
    return HttpPlan(address, paths)


@contextlib.asynccontextmanager
async def serving(
    referee: Referee,
    address: WebAddress | None,
    tool: str,
    err: TextIO,
    *,
    plan: HttpPlan | None = None,
    metrics: Metrics | None = None,
) -> AsyncIterator[None]:
    """The pages of ``referee``'s rooms served meanwhile (nothing when ``address`` is None); their address said
    on ``err``. With ``plan`` (``--http-port``), what it names on its one port instead: the pages, and
    ``metrics``' health check and scrape. Raises ``WebOptionsError`` when the port cannot be bound."""
    if plan is not None:
        address = plan.address
    if address is None:
        yield
        return
    from .hub import Hub
    from .server import WebServer  # aiohttp, loaded only when the pages are served

    pages = plan is None or "pages" in plan.paths
    served = metrics if plan is not None and plan.metrics_paths else None
    paths = plan.metrics_paths if plan is not None else frozenset()
    server = WebServer(Hub(referee) if pages else None, address, metrics=served, metrics_paths=paths)
    try:
        await server.start()
    except OSError as error:
        raise WebOptionsError(f"arbitre {tool}: {'http' if plan else 'web'} port: {error.strerror or error}") from None
    if plan is None:
        print(f"arbitre {tool}: live pages under {server.url}/v/", file=err)
    else:
        say_served(server, tool, err)
    try:
        yield
    finally:
        await server.close()


def say_served(server: WebServer, tool: str, err: TextIO) -> None:
    """What ``server`` serves and where, in one line on ``err``."""
    base = f"http://{server.address.host}:{server.port}"
    served = []
    if server.serves_pages:
        served.append(f"live pages under {server.url}/v/")
    served += [f"{name} on {base}/{'healthz' if name == 'health' else name}" for name in sorted(server.metrics_paths)]
    if server.serves_webhook:
        served.append("Telegram's webhook")
    print(f"arbitre {tool}: {', '.join(served) or 'nothing'} (port {server.port})", file=err)


__all__ = ["BadWebPortError", "HttpPlan", "WebOptionsError", "address_of", "http_plan", "serving"]
