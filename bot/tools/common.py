"""Options and helpers shared by the command-line tools."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.operations.exit_codes import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE  # the tools import them from here
from bot.operations.exit_codes import EXIT_METRICS as EXIT_METRICS
from bot.operations.exit_codes import EXIT_STORAGE as EXIT_STORAGE
from bot.operations.exit_codes import EXIT_USAGE as EXIT_USAGE

if TYPE_CHECKING:  # imported when a command runs: building the parser needs none of them
    from bot.operations.metrics import MetricsRun
    from bot.storage import Storage
    from bot.web.run import HttpPlan
    from core.edition import Edition
    from core.notation import Notation


def edition_codes() -> list[str]:
    """The codes of every known edition (those ``core/editions/index.json`` names, and any registered)."""
    from core.edition import EDITIONS

    return list(EDITIONS)


def add_edition_options(parser: argparse.ArgumentParser) -> None:
    """``--edition CODE`` (any known edition) and ``--notation fisf|gcg``."""
    parser.add_argument("--edition", default="fr", choices=edition_codes(), help="tile set (default fr)")
    parser.add_argument(
        "--notation", choices=["fisf", "gcg"], help="fisf or gcg (default: the edition's, fisf for fr, gcg for en)"
    )


def edition_and_notation(args: argparse.Namespace) -> tuple[Edition, Notation]:
    """The edition and notation chosen by ``add_edition_options``."""
    from core.edition import edition_by_code
    from core.notation import default_notation, notation_by_name

    edition = edition_by_code(args.edition)
    notation = notation_by_name(args.notation) if args.notation else default_notation(edition.code)
    return edition, notation


def data_dir() -> Path:
    """Where the bot keeps its database and the console's images by default (``ARBITRE_DATA``, else
    ``$XDG_DATA_HOME/arbitre``, else ~/.local/share/arbitre)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(os.environ.get("ARBITRE_DATA") or Path(base) / "arbitre")


def database_url(args: argparse.Namespace) -> str:
    """``--db``, else ``ARBITRE_DB``, else ``arbitre.sqlite`` in the data folder (``ARBITRE_DATA``,
    ~/.local/share/arbitre). A plain path is a SQLite file; ``sqlite:///PATH`` and ``memory:`` work too."""
    chosen = getattr(args, "db", None) or os.environ.get("ARBITRE_DB")
    return str(chosen) if chosen else str(data_dir() / "arbitre.sqlite")


def database_folder(url: str) -> Path:
    """Where files beside the database go (the console's images): the SQLite file's folder, else the data folder."""
    if url.startswith("sqlite://"):
        return Path(url.removeprefix("sqlite://")).parent
    if "://" in url or url.endswith(":"):
        return data_dir()
    return Path(url).parent


def open_database(url: str, tool: str, err: TextIO) -> Storage | None:
    """The store at ``url``; None after one line on ``err`` saying why it cannot be opened."""
    from bot.storage import StorageOpenError, open_storage
    from bot.storage.open import UnknownStorageError

    try:
        return open_storage(url)
    except (StorageOpenError, UnknownStorageError) as error:
        print(f"arbitre {tool}: {error}", file=err)
        return None


def start_log(args: argparse.Namespace, secrets: list[str] | None = None) -> None:
    """The process's log as the options (``--log-level``, ``--log-format``) or the environment ask, ``secrets``
    masked in it (``bot.operations.logs``)."""
    from bot.operations.logs import configure, log_settings

    configure(getattr(args, "log", None) or log_settings(), secrets or [])


def add_metrics_options(parser: argparse.ArgumentParser) -> None:
    """``--metrics-port PORT`` and ``--metrics-address HOST``: metrics and health check over HTTP (off by default)."""
    parser.add_argument(
        "--metrics-port",
        metavar="PORT",
        help="serve Prometheus metrics on /metrics and a health check on /healthz at this port, 0 for any free "
        "one (default: ARBITRE_METRICS_PORT, else off: no port opened)",
    )
    parser.add_argument(
        "--metrics-address",
        metavar="HOST",
        help="the address the metrics port is bound to (default: ARBITRE_METRICS_ADDRESS, else 127.0.0.1)",
    )


def start_metrics(args: argparse.Namespace, tool: str, err: TextIO) -> MetricsRun | None:
    """The metrics asked for by ``add_metrics_options`` (their address said on ``err``); an empty run when
    none were asked for; None after one line on ``err`` when the port is wrong or cannot be bound."""
    from bot.operations.metrics import BadMetricsPortError, metrics_address, serve_metrics

    try:
        address = metrics_address(getattr(args, "metrics_port", None), getattr(args, "metrics_address", None))
        run = serve_metrics(address)
    except BadMetricsPortError as error:
        print(f"arbitre {tool}: {error}", file=err)
        return None
    except OSError as error:
        print(f"arbitre {tool}: metrics port: {error.strerror or error}", file=err)
        return None
    if run.server is not None:
        url = run.server.url
        print(f"arbitre {tool}: metrics on {url}/metrics, health check on {url}/healthz", file=err)
    return run


def add_http_options(parser: argparse.ArgumentParser) -> None:
    """``--http-port``, ``--http-address``, ``--http-paths``: one port for all the process serves (``bot.web.run``)."""
    parser.add_argument(
        "--http-port",
        metavar="PORT",
        help="serve the health check (/healthz), the metrics (/metrics), the live pages (and Telegram's webhook) on "
        "this one port, 0 for any free one (default: ARBITRE_HTTP_PORT; instead of --metrics-port and --web-port)",
    )
    parser.add_argument(
        "--http-address",
        metavar="HOST",
        help="the address the one port is bound to (default: ARBITRE_HTTP_ADDRESS, else 127.0.0.1)",
    )
    parser.add_argument(
        "--http-paths",
        metavar="LIST",
        help="what the one port serves, among health,metrics,pages,webhook (default: ARBITRE_HTTP_PATHS, else all)",
    )


def http_metrics(args: argparse.Namespace, tool: str, err: TextIO) -> tuple[HttpPlan | None, MetricsRun | None]:
    """The one port ``add_http_options`` asks for and the process's metrics to serve on it (none when it does not
    serve them), or no plan and the metrics on a port of their own (``start_metrics``); no metrics run after one
    line on ``err`` when a port is wrong."""
    from bot.operations.metrics import Metrics, MetricsRun
    from bot.web.run import WebOptionsError, http_plan

    try:
        plan = http_plan(args, tool)
    except WebOptionsError as error:
        print(error.text, file=err)
        return None, None
    if plan is None:
        return None, start_metrics(args, tool, err)
    return plan, MetricsRun(Metrics() if plan.metrics_paths else None)


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """``--web-port``, ``--web-address``, ``--web-prefix``, ``--web-url``: the rooms' live pages (off by default)."""
    parser.add_argument(
        "--web-port",
        metavar="PORT",
        help="serve the rooms' live pages (the links /view gives) at this port, 0 for any free one "
        "(default: ARBITRE_WEB_PORT, else off: no port opened)",
    )
    parser.add_argument(
        "--web-address",
        metavar="HOST",
        help="the address the web port is bound to (default: ARBITRE_WEB_ADDRESS, else 127.0.0.1)",
    )
    parser.add_argument(
        "--web-prefix",
        metavar="PATH",
        help="serve the pages under this path, as a reverse proxy forwards them (default: ARBITRE_WEB_PREFIX, else /)",
    )
    parser.add_argument(
        "--web-url",
        metavar="URL",
        help="the public address of the pages' path, for the links /view gives (default: ARBITRE_WEB_URL, "
        "else http://HOST:PORT/PATH)",
    )
