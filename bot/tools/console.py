"""``arbitre console``: the chat room in the terminal (the embedded default), on a SQLite file and the
bundled word lists (the room itself: ``bot.adapters.console``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from ..catalogs import CATALOGS
from .common import (
    EXIT_METRICS,
    EXIT_STORAGE,
    EXIT_USAGE,
    add_http_options,
    add_metrics_options,
    add_web_options,
    database_folder,
    database_url,
    http_metrics,
    open_database,
    start_log,
)

if TYPE_CHECKING:
    from ..adapters.console.clock import ConsoleClock
    from ..adapters.console.room import ConsoleRoom
    from ..operations.metrics import Metrics
    from ..web.run import HttpPlan


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.operations.logs import log_settings

    if getattr(args, "log", None) is None:  # not through the command line's main
        args.log = log_settings(default_level="warning")
    start_log(args)
    return run_console(args, sys.stdin, out, err)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "console",
        help="a chat room in the terminal (the embedded default)",
        description="A chat room in the terminal: each line is NAME: MESSAGE (NAME> MESSAGE for a private "
        "message to the bot); images and files the bot sends are written beside the database.",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database: a SQLite file path, sqlite:///PATH or memory: (default: ARBITRE_DB, else "
        "~/.local/share/arbitre/arbitre.sqlite)",
    )
    parser.add_argument(
        "--lang",
        choices=CATALOGS.languages(),
        help="language of a new room, with its edition, list, notation, rules and time zone (default fr); "
        "a room already in the database keeps its settings (/settings changes them)",
    )
    parser.add_argument(
        "--room",
        metavar="NAME",
        help="be the room NAME (1-32 letters, digits, - or _): several consoles on one database are each "
        "their own room, with its own games, settings, clock and files; speakers are the same accounts in "
        "every room (default: the room console)",
    )
    parser.add_argument(
        "--admin",
        action="append",
        metavar="NAME",
        help="a speaker who administers the room (repeatable); others are ordinary players",
    )
    add_http_options(parser)
    add_metrics_options(parser)
    add_web_options(parser)
    parser.set_defaults(handler=run)


def run_console(
    args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO, clock: ConsoleClock | None = None
) -> int:
    """``arbitre console``: the chat room on a SQLite file and the bundled word lists; ``clock``: the time it
    runs on (the machine's by default)."""
    import asyncio  # imported when the room runs: its parser needs none of these
    import logging

    from ..adapters.console.clock import ConsoleClock
    from ..adapters.console.room import ConsoleRoom
    from ..adapters.console.rooms import room_key, start_room
    from ..messages import say
    from ..referee import Referee
    from ..storage import StorageFullError
    from ..words.game_lists import prepare_at_start
    from ..words.loader import LexiconRegistry

    clock = clock or ConsoleClock()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    key = room_key(getattr(args, "room", None))
    if key is None:
        print(f"arbitre console: --room {args.room[:40]!r}: a room's name is 1 to 32 letters, digits, - or _", file=err)
        return EXIT_USAGE
    db_url = database_url(args)
    storage = open_database(db_url, "console", err)
    if storage is None:
        return EXIT_STORAGE
    try:
        start_room(storage, args.lang, err, key.channel)
    except StorageFullError as error:  # a new room on a full disk: said in one line, like a database that cannot open
        print(f"arbitre console: {error}", file=err)
        storage.close()
        return EXIT_STORAGE
    plan, metrics = http_metrics(args, "console", err)
    if metrics is None:
        storage.close()
        return EXIT_METRICS
    registry = LexiconRegistry()
    prepare_at_start(registry, storage)  # compiled in the background; commands say so until it is done
    referee = Referee(storage, registry, now=clock.now, clock_scope=key.channel, outbox_scopes=key.outbox_scopes)
    admins = tuple(args.admin or ())
    lang = storage.channel(key.channel).language
    default_name = say(lang, "console_default_name")
    room = ConsoleRoom(
        referee,
        out,
        key.image_dir(database_folder(db_url)),
        default_name,
        admins,
        script=not stdin.isatty(),
        metrics=metrics.metrics,
        key=key,
        clock=clock,
    )
    if stdin.isatty():
        shown = ", ".join(admins) or say(lang, "console_no_admin")
        lines = [say(lang, "console_banner"), say(lang, "console_admins", admins=shown)]
        if key.name:
            lines.append(say(lang, "console_room", room=key.name))
        out.write("\n".join([*lines, say(lang, "console_database", url=db_url)]) + "\n\n")
    try:
        return asyncio.run(_run_served(room, stdin, args, err, plan, metrics.metrics))
    finally:
        metrics.close()
        storage.close()


async def _run_served(
    room: ConsoleRoom,
    stdin: TextIO,
    args: argparse.Namespace,
    err: TextIO,
    plan: HttpPlan | None = None,
    metrics: Metrics | None = None,
) -> int:
    """The room, and its live page when the web options ask for it, or what the one port ``plan`` names
    (``bot.web``)."""
    from ..web.run import WebOptionsError, address_of, serving

    try:
        address = None if plan is not None else address_of(args, "console")
        async with serving(room.referee, address, "console", err, plan=plan, metrics=metrics):
            return await room.run(stdin)
    except WebOptionsError as error:
        print(error.text, file=err)
        return EXIT_METRICS
