"""The chat commands: each declared once (``registry.command``), in modules by job.

Importing this package declares them all; ``COMMANDS`` lists them in /help order, ``find`` reads a
name or alias, ``suggest`` offers the nearest ones to a mistyped name.
"""

from __future__ import annotations

# They declare the commands, /help lists them in that order within a section: the duplicate commands first,
# then the arbiter's controls.
from . import duplicate  # noqa: F401  # isort: skip
from . import arbiter, boardless, classic, classic_kind, duplicate_kind, ending, general, history, series, views, words  # noqa: F401  # noqa: F401  # the kinds of game (game_kinds)

from . import simultane  # noqa: F401  # isort: skip  # after /series and /season in /help
from . import live_view  # noqa: F401  # isort: skip  # /view last in its section of /help
from .context import Context, UserError
from .registry import (
    Access,
    CommandSpec,
    Section,
    command_named,
    command_names,
    declared,
    find,
    suggest,
    unknown_command_text,
)
from .services import Services

COMMANDS = declared()

__all__ = [
    "COMMANDS",
    "Access",
    "CommandSpec",
    "Context",
    "Section",
    "Services",
    "UserError",
    "command_named",
    "command_names",
    "find",
    "suggest",
    "unknown_command_text",
]
