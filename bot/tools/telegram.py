"""``arbitre telegram``: run the referee as a Telegram bot (long polling).

``--base-url`` points it at a self-hosted Bot API server (``telegram-bot-api``),
e.g. ``http://localhost:8081/bot``; the default is Telegram's own.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from bot.tools.common import EXIT_STORAGE, database_url, open_database

EXIT_TOKEN = 2


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.tokens import TokenError, configure_logging, load_token, mask

    try:
        token = load_token("telegram", args.config)
    except TokenError as error:
        print(f"arbitre telegram: {error}", file=err)
        return EXIT_TOKEN
    configure_logging([token])

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

    from bot.adapters.telegram import TelegramAdapter
    from bot.lexicons import LexiconRegistry
    from bot.referee import Referee
    from bot.word_lists import prepare_at_start

    storage = open_database(database_url(args), "telegram", err)
    if storage is None:
        return EXIT_STORAGE
    try:
        registry = LexiconRegistry()
        prepare_at_start(registry, storage)  # in the background: commands say so until it is done
        adapter = TelegramAdapter(Referee(storage, registry, clock_scope="telegram:"), token, base_url=args.base_url)
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
        reason = mask(str(error).splitlines()[0] if str(error) else repr(error), [token])
        where = args.base_url or "api.telegram.org"
        print(f"arbitre telegram: cannot use the Bot API at {where}: {reason}", file=err)
        return 1
    finally:
        storage.close()


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "telegram",
        help="run the referee as a Telegram bot (long polling)",
        description="Run the referee as a Telegram bot; its token comes from ARBITRE_TELEGRAM_TOKEN or the token file.",
    )
    parser.add_argument(
        "--base-url", metavar="URL", help="Bot API server, for a self-hosted telegram-bot-api (default: Telegram's)"
    )
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
    parser.set_defaults(handler=run)
