"""The kinds of game this bot plays: importing this module declares every command and registers every
kind. ``COMMANDS`` lists the commands in /help order (each command's section, then its rank).

Each package's modules that declare commands (``registry.command``, ``registry.handles``) or register a
``Kind`` are imported here, and only here: a new kind of game adds its package's lines.
"""

from __future__ import annotations

from ..commands.registry import check_handlers, declared
from .classic import commands as classic_commands
from .classic import ending as classic_ending
from .classic import kind as classic_kind
from .classic import settings as classic_settings
from .common import general, history, live_view, views, words
from .duplicate import arbiter as duplicate_arbiter
from .duplicate import commands as duplicate_commands
from .duplicate import kind as duplicate_kind
from .online import commands as online_commands
from .online import kind as online_kind
from .online import settings as online_settings
from .series import commands as series_commands
from .sheet import commands as sheet_commands
from .sheet import kind as sheet_kind
from .simultane import commands as simultane_commands

MODULES = (
    classic_commands,
    classic_ending,
    classic_kind,
    classic_settings,
    general,
    history,
    live_view,
    views,
    words,
    duplicate_arbiter,
    duplicate_commands,
    duplicate_kind,
    online_commands,
    online_kind,
    online_settings,
    series_commands,
    sheet_commands,
    sheet_kind,
    simultane_commands,
)

check_handlers()
COMMANDS = declared()

__all__ = ["COMMANDS", "MODULES"]
