"""The chat commands: each declared once (``registry.command``), in modules by job.

Importing this package declares them all; ``COMMANDS`` lists them in /help order, ``find`` reads a
name or alias, ``suggest`` offers the nearest ones to a mistyped name.
"""

from __future__ import annotations

from ..games.common import (
    general,  # noqa: F401
    history,  # noqa: F401
    live_view,  # noqa: F401
    views,  # noqa: F401
    words,  # noqa: F401
)

# They declare the commands (and the kinds of game); /help's order is each command's section and rank.
from . import (
    arbiter,  # noqa: F401
    boardless,  # noqa: F401
    classic,  # noqa: F401
    classic_kind,  # noqa: F401
    duplicate,  # noqa: F401
    duplicate_kind,  # noqa: F401
    ending,  # noqa: F401
    series,  # noqa: F401
    simultane,  # noqa: F401
)
from .context import Context, UserError
from .registry import (
    Access,
    CommandSpec,
    Section,
    check_handlers,
    command_named,
    command_names,
    declared,
    find,
    suggest,
    unknown_command_text,
)
from .services import Services

check_handlers()
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
