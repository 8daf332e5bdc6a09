"""The ``arbitre`` command line: chat adapters and offline referee tools."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

# One module per subcommand in bot/tools/, each with register(subparsers).
TOOLS = ["console", "score", "check", "top", "duplicate", "replay", "discord", "telegram"]

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="arbitre", description="Scrabble referee and scorekeeper.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in TOOLS:
        importlib.import_module(f"bot.tools.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arbitre`` command."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    return handler(args, sys.stdout, sys.stderr)
