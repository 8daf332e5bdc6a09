"""The chat commands: each declared once (``registry.command``), in modules by job.

Importing this package declares them all; ``COMMANDS`` lists them in /help order, ``find`` reads a
name or alias, ``suggest`` offers the nearest ones to a mistyped name.
"""

from __future__ import annotations

# They declare the commands (and the kinds of game); /help's order is each command's section and rank.
from . import (  # noqa: F401
    arbiter,
    boardless,
    classic,
    classic_kind,
    duplicate,
    duplicate_kind,
    ending,
    general,
    history,
    live_view,
    series,
    simultane,
    views,
    words,
)
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
