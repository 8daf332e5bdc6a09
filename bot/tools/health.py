"""``arbitre health``: ask a running bot's health check, for a container's or a service manager's probe.

It asks ``/healthz`` of the process's HTTP port on this machine (``--url``, else ``ARBITRE_HTTP_PORT`` and
``ARBITRE_HTTP_ADDRESS``, or ``ARBITRE_METRICS_PORT`` and ``ARBITRE_METRICS_ADDRESS``, as the bot reads them, an
address bound to every interface asked on 127.0.0.1),
prints the answer's line and exits 0 when it is ``ok``, 1 otherwise (2: no port to ask).
"""

from __future__ import annotations

import argparse
import os
from typing import Any, TextIO

from .common import EXIT_USAGE

EVERY_INTERFACE = {"0.0.0.0", "::", ""}
TIMEOUT_SECONDS = 5.0


def health_url(args: argparse.Namespace) -> str | None:
    """The health check's address: ``--url``, else the one HTTP port's, else the metrics port's, on this machine
    (None: none set)."""
    if args.url:
        return str(args.url)
    kind = "HTTP" if os.environ.get("ARBITRE_HTTP_PORT", "").strip() else "METRICS"
    port = os.environ.get(f"ARBITRE_{kind}_PORT", "").strip()
    if not port or port == "0":
        return None
    host = os.environ.get(f"ARBITRE_{kind}_ADDRESS", "").strip()
    host = "127.0.0.1" if host in EVERY_INTERFACE else host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}/healthz"


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import urllib.error
    import urllib.request

    url = health_url(args)
    if url is None:
        print("arbitre health: no port to ask: give --url, or set ARBITRE_HTTP_PORT as the bot has it", file=err)
        return EXIT_USAGE
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as answer:  # noqa: S310 (an http URL of ours)
            print(answer.read().decode("utf-8", "replace").strip(), file=out)
            return 0
    except urllib.error.HTTPError as error:
        print(error.read().decode("utf-8", "replace").strip() or f"HTTP {error.code}", file=out)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        print(f"arbitre health: {url}: {reason}", file=err)
    return 1


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "health",
        help="ask a running bot's health check (exit 0 when it answers ok)",
        description="Ask a running bot's /healthz on this machine: exit 0 when it answers ok, 1 otherwise. "
        "For a container's HEALTHCHECK or a service manager's probe.",
    )
    parser.add_argument(
        "--url",
        metavar="URL",
        help="the health check's address (default: http://127.0.0.1:PORT/healthz, PORT: ARBITRE_HTTP_PORT, else "
        "ARBITRE_METRICS_PORT)",
    )
    parser.set_defaults(handler=run)
