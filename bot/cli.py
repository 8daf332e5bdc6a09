"""The ``arbitre`` command line: chat adapters and offline referee tools.

Each module of ``bot/tools/`` declares its subcommands with ``register(subparsers)``,
which only adds arguments: what a subcommand needs (the word lists, the engine, a
chat library) is imported by its handler when it runs. When the first argument names
a subcommand, only the module declaring it is imported; ``arbitre --help`` and
anything else build the whole parser.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

# One module per subcommand in bot/tools/, each with register(subparsers).
TOOLS = ["console", "score", "check", "top", "duplicate", "replay", "discord", "telegram"]
# Subcommands declared by a module of another name.
DECLARED_BY = {"lexicon": "check"}

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand registered, or only the one module declaring ``command``
    when ``command`` names a subcommand (the parse is the same for that subcommand)."""
    parser = argparse.ArgumentParser(prog="arbitre", description="Scrabble referee and scorekeeper.")
    sub = parser.add_subparsers(dest="command", required=True)
    module = DECLARED_BY.get(command or "", command)
    for name in [module] if module in TOOLS else TOOLS:
        importlib.import_module(f"bot.tools.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arbitre`` command."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(arguments[0] if arguments else None).parse_args(arguments)
    handler: Handler = args.handler
    return handler(args, sys.stdout, sys.stderr)
