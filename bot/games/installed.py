"""The kinds of game this bot plays: importing this module declares every command and registers every
kind. ``COMMANDS`` lists the commands in /help order (each command's section, then its rank)."""


from __future__ import annotations

from ..commands.registry import check_handlers, declared
from .classic import commands as classic
from .classic import ending
from .classic import kind as classic_kind
from .common import general, history, live_view, views, words
from .duplicate import arbiter
from .duplicate import commands as duplicate
from .duplicate import kind as duplicate_kind

# One line per package: importing the module declares the package's commands and registers its kind.
from .series import commands as series
from .sheet import commands as sheet
from .sheet import kind as boardless
from .simultane import commands as simultane

# The modules whose import declared the commands and registered the kinds.
MODULES = (
    arbiter,
    boardless,
    sheet,
    classic,
    classic_kind,
    duplicate,
    duplicate_kind,
    ending,
    series,
    simultane,
    general,
    history,
    live_view,
    views,
    words,
)

check_handlers()
COMMANDS = declared()

__all__ = ["COMMANDS"]
