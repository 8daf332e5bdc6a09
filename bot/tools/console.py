"""``arbitre console``: the chat room in the terminal (the embedded default)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from ..catalogs import CATALOGS
from .common import add_http_options, add_metrics_options, add_web_options, start_log


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.adapters.console import run_console
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
