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
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .tools.common import EXIT_BROKEN_PIPE, EXIT_USAGE

# One module per subcommand in bot/tools/, each with register(subparsers).
TOOLS = ["console", "score", "check", "top", "duplicate", "replay", "discord", "telegram", "health", "database"]
# Subcommands declared by a module of another name.
DECLARED_BY = {"lexicon": "check"}
# The subcommands that run a bot and log: they also take the log options after their name.
LOGGING = ("console", "discord", "telegram")

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand registered, or only the one module declaring ``command``
    when ``command`` names a subcommand (the parse is the same for that subcommand)."""
    parser = argparse.ArgumentParser(prog="arbitre", description="Scrabble referee and scorekeeper.")
    parser.add_argument("--version", action=VersionAction, help="print the version of Arbitre and of Python, then exit")
    add_log_options(parser, None)
    sub = parser.add_subparsers(dest="command", required=True)
    module = DECLARED_BY.get(command or "", command)
    for name in [module] if module in TOOLS else TOOLS:
        importlib.import_module(f"bot.tools.{name}").register(sub)
    for name in LOGGING:
        if name in sub.choices:
            add_log_options(sub.choices[name], argparse.SUPPRESS)  # the global one stands unless given here
    return parser


def add_log_options(parser: argparse.ArgumentParser, default: object) -> None:
    """``--log-level`` and ``--log-format`` (``bot.operations.logs``)."""
    parser.add_argument(
        "--log-level",
        metavar="LEVEL",
        default=default,
        help="debug, info, warning or error (default: ARBITRE_LOG_LEVEL, else info; the console: warning)",
    )
    parser.add_argument(
        "--log-format",
        metavar="FORMAT",
        default=default,
        help="text, or json for one JSON object per line (default: ARBITRE_LOG_FORMAT, else text)",
    )


def version_line() -> str:
    """``arbitre VERSION (Python X.Y.Z, SYSTEM MACHINE)``: what a bug report says it ran."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("arbitre")
    except PackageNotFoundError:
        number = "(not installed)"
    return f"arbitre {number} (Python {platform.python_version()}, {platform.system()} {platform.machine()})"


class VersionAction(argparse.Action):
    """``--version``: the version line on standard output, exit status 0 (read when asked only)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version_line())
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arbitre`` command."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    problem = catalogs_problem()
    if problem is not None:
        print(f"arbitre: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        args = build_parser(arguments[0] if arguments else None).parse_args(arguments)
        from .operations.logs import BadLogOptionError, log_settings

        try:
            quiet = args.command == "console"  # a chat room in the terminal: only what goes wrong
            args.log = log_settings(args.log_level, args.log_format, "warning" if quiet else "info")
        except BadLogOptionError as error:
            print(f"arbitre: {error}", file=sys.stderr)
            return EXIT_USAGE
        handler: Handler = args.handler
        status = handler(args, sys.stdout, sys.stderr)
        sys.stdout.flush()
    except BrokenPipeError:
        return quiet_broken_pipe()
    return status


def catalogs_problem() -> str | None:
    """What is wrong with the catalogs ``ARBITRE_LOCALES`` adds, in one line (None: nothing, or none added):
    said at start rather than as a traceback at the first message in their language."""
    from .catalogs import CATALOGS, EXTRA_DIRS_VARIABLE

    if not os.environ.get(EXTRA_DIRS_VARIABLE, "").strip():
        return None
    problem = CATALOGS.problem()
    return None if problem is None else f"{EXTRA_DIRS_VARIABLE}: {problem}"


def quiet_broken_pipe() -> int:
    """The exit status once the reader of the output has gone (``arbitre ... | head -1``): what is left
    to print goes nowhere, without a traceback at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass
    finally:
        os.close(devnull)
    return EXIT_BROKEN_PIPE
