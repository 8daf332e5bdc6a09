"""``arbitre telegram``: run the referee as a Telegram bot (long polling, or a webhook).

``--base-url`` points it at a self-hosted Bot API server (``telegram-bot-api``),
e.g. ``http://localhost:8081/bot``; the default is Telegram's own.

``--webhook URL --listen HOST --port P`` receives the updates by webhook instead: Telegram POSTs
them to ``URL`` (HTTPS, a reverse proxy forwarding them to ``HOST:P`` with the same path), with a
secret token taken from ``ARBITRE_TELEGRAM_WEBHOOK_SECRET`` or the token file (``webhook_secret``
in ``[telegram]``). Several processes may serve one bot behind one URL over one database.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, TextIO

from bot.tools.common import (
    EXIT_METRICS,
    EXIT_STORAGE,
    add_http_options,
    add_metrics_options,
    add_web_options,
    database_url,
    http_metrics,
    open_database,
    start_log,
)

if TYPE_CHECKING:
    from bot.adapters.telegrambot.webhook import WebhookConfig
    from bot.operations.metrics import Metrics
    from bot.referee import Referee
    from bot.web import WebAddress, WebServer
    from bot.web.run import HttpPlan
    from bot.web.webhook import Receive

EXIT_TOKEN = 2


def _webhook(args: argparse.Namespace, secret: str | None) -> WebhookConfig | None:
    """The webhook asked for (None: long polling); ValueError (one line) for options that cannot work."""
    if args.webhook is None:
        if args.listen is not None or args.port is not None:
            raise ValueError("--listen and --port go with --webhook URL")
        return None
    from bot.adapters.telegrambot.webhook import DEFAULT_LISTEN, DEFAULT_PORT, WebhookConfig

    assert secret is not None
    listen = args.listen if args.listen is not None else DEFAULT_LISTEN
    return WebhookConfig(args.webhook, secret, listen, args.port if args.port is not None else DEFAULT_PORT)


def http_port_asked(args: argparse.Namespace) -> bool:
    """Whether the one HTTP port is asked for (``--http-port`` or ``ARBITRE_HTTP_PORT``)."""
    from bot.web.run import HTTP_PORT_ENV

    return bool(args.http_port or os.environ.get(HTTP_PORT_ENV, "").strip())


def one_server(
    plan: HttpPlan, referee: Referee, metrics: Metrics | None, webhook: WebhookConfig | None, receive: Receive
) -> WebServer:
    """The process's one HTTP server: what ``plan`` names of the pages, the health check and metrics, and the
    webhook (at its URL's path)."""
    from bot.web import Hub, WebServer
    from bot.web.webhook import WebhookRoute

    route = None
    if webhook is not None and "webhook" in plan.paths:
        route = WebhookRoute(webhook.url_path, webhook.secret, receive)
    return WebServer(
        Hub(referee) if "pages" in plan.paths else None,
        plan.address,
        metrics=metrics if plan.metrics_paths else None,
        metrics_paths=plan.metrics_paths,
        webhook=route,
    )


def webhook_plan(webhook: WebhookConfig, pages: WebAddress | None) -> HttpPlan:
    """The webhook's own port (``--listen``, ``--port``) served by the process's aiohttp server, with the pages
    when they are asked for on the same port."""
    from bot.web.address import WebAddress
    from bot.web.run import HttpPlan

    if pages is None:
        return HttpPlan(WebAddress(webhook.listen, webhook.port), frozenset({"webhook"}))
    address = WebAddress(webhook.listen, webhook.port, pages.prefix, pages.public_url)
    return HttpPlan(address, frozenset({"webhook", "pages"}))


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.operations.tokens import TokenError, load_token, load_webhook_secret, mask

    try:
        token = load_token("telegram", args.config)
        secret = load_webhook_secret(args.config) if args.webhook is not None else None
        webhook = _webhook(args, secret)
    except (TokenError, ValueError) as error:
        print(f"arbitre telegram: {error}", file=err)
        return EXIT_TOKEN
    start_log(args, [token, secret or ""])

    import logging

    from telegram.error import InvalidToken, NetworkError, TelegramError

    def not_token_trouble(record: logging.LogRecord) -> bool:
        """PTB logs a rejected token or an unreachable server at start-up with a traceback;
        the one-line error below says it all."""
        error = record.exc_info[1] if record.exc_info else None
        starting = "Bootstrap" in record.getMessage()
        return not (isinstance(error, InvalidToken) or (starting and isinstance(error, NetworkError)))

    for handler in logging.getLogger().handlers:
        handler.addFilter(not_token_trouble)

    from bot.adapters.telegrambot.adapter import TelegramAdapter
    from bot.referee import Referee
    from bot.web.run import WebOptionsError, address_of
    from bot.words.game_lists import prepare_at_start
    from bot.words.loader import LexiconRegistry

    try:
        web = address_of(args, "telegram")
    except WebOptionsError as error:
        print(error.text, file=err)
        return EXIT_METRICS
    if webhook is not None and (args.listen is not None or args.port is not None) and http_port_asked(args):
        print("arbitre telegram: --http-port takes the webhook: leave out --listen and --port", file=err)
        return EXIT_METRICS
    storage = open_database(database_url(args), "telegram", err)
    if storage is None:
        return EXIT_STORAGE
    plan, metrics = http_metrics(args, "telegram", err)
    if metrics is None:
        storage.close()
        return EXIT_METRICS
    try:
        registry = LexiconRegistry()
        prepare_at_start(registry, storage)  # in the background: commands say so until it is done
        referee = Referee(storage, registry, clock_scope="telegram:")
        adapter = TelegramAdapter(referee, token, base_url=args.base_url, metrics=metrics.metrics)
        if plan is None and webhook is not None and (web is None or web.port == webhook.port):
            plan = webhook_plan(webhook, web)  # the webhook's own port, on the same server as the pages
            web = None
        if plan is not None:
            adapter.web = one_server(plan, referee, metrics.metrics, webhook, adapter.receive_update)
            print(f"arbitre telegram: {', '.join(sorted(plan.paths))} on port {plan.address.port}", file=err)
        elif web is not None:
            from bot.web import Hub, WebServer

            adapter.web = WebServer(Hub(referee), web)
            print(f"arbitre telegram: live pages on port {web.port} under {web.prefix or '/'}", file=err)
        if webhook is not None:
            adapter.run_webhook(webhook)
        else:
            adapter.run()
        return 0
    except InvalidToken:
        print(
            "arbitre telegram: Telegram rejected the token (401 Unauthorized on getMe); "
            "check ARBITRE_TELEGRAM_TOKEN or the token file",
            file=err,
        )
        return EXIT_TOKEN
    except (TelegramError, OSError) as error:
        reason = mask(str(error).splitlines()[0] if str(error) else repr(error), [token, secret or ""])
        where = args.base_url or "api.telegram.org"
        print(f"arbitre telegram: cannot use the Bot API at {where}: {reason}", file=err)
        return 1
    finally:
        metrics.close()
        storage.close()


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "telegram",
        help="run the referee as a Telegram bot (long polling, or a webhook)",
        description="Run the referee as a Telegram bot; its token comes from ARBITRE_TELEGRAM_TOKEN or the token file.",
    )
    parser.add_argument(
        "--base-url", metavar="URL", help="Bot API server, for a self-hosted telegram-bot-api (default: Telegram's)"
    )
    parser.add_argument(
        "--webhook",
        metavar="URL",
        help="receive updates by webhook at this public HTTPS URL (its secret token: "
        "ARBITRE_TELEGRAM_WEBHOOK_SECRET or webhook_secret in the token file); default: long polling",
    )
    parser.add_argument(
        "--listen", metavar="HOST", help="with --webhook: the address to serve it on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, metavar="P", help="with --webhook: the port to serve it on (default 8080)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database: a SQLite file path, sqlite:///PATH or memory: (default: ARBITRE_DB, else "
        "~/.local/share/arbitre/arbitre.sqlite)",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="token file (default: ~/.config/arbitre/tokens.toml; ARBITRE_TELEGRAM_TOKEN otherwise)",
    )
    add_http_options(parser)
    add_metrics_options(parser)
    add_web_options(parser)
    parser.set_defaults(handler=run)
