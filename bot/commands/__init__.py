"""The dispatch of chat commands: where each is declared (``registry.command``, ``spec``), what its
handler receives (``context``, ``services``). ``find`` reads a name or alias, ``suggest`` offers the
nearest ones to a mistyped name; the commands themselves are the kinds of game's (``bot.games``, whose
``COMMANDS`` lists them in /help order).
"""

from __future__ import annotations

from .context import Context, UserError
from .registry import (
    Access,
    CommandSpec,
    Section,
    command_named,
    command_names,
    find,
    suggest,
    unknown_command_text,
)
from .services import Services

__all__ = [
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
