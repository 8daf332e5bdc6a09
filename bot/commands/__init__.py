"""The chat commands: each declared once (``registry.command``), in modules by job.

Importing this package declares them all; ``COMMANDS`` lists them in /help order, ``find`` reads a
name or alias, ``suggest`` offers the nearest ones to a mistyped name.
"""

from __future__ import annotations

from . import arbiter, classic, duplicate, general, history, views, words  # noqa: F401 - they declare the commands
from .context import Context, UserError, command_names, unknown_command_text
from .registry import Access, CommandSpec, Section, command_named, declared, find, suggest

COMMANDS = declared()

__all__ = [
    "COMMANDS",
    "Access",
    "CommandSpec",
    "Context",
    "Section",
    "UserError",
    "command_named",
    "command_names",
    "find",
    "suggest",
    "unknown_command_text",
]
