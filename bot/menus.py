"""What a platform shows around the commands: the command menu of each kind of chat (a private chat with
the bot, a group's members, its administrators), the bot's descriptions, and the greeting a group reads
when the bot is added to it, each in a language of the catalogs."""

from __future__ import annotations

from enum import Enum

from .commands.registry import declared
from .commands.spec import Access, CommandSpec
from .messages import say

# what a player does in the private chat with the bot: answer a draw, see where the game stands, look up
PRIVATE_COMMANDS = frozenset({"play", "rack", "status", "help", "check", "calc", "standings", "moves"})
MEMBERS_ACCESS = frozenset({Access.ANYONE, Access.PLAYER, Access.START})


class MenuScope(Enum):
    """A kind of chat, with its own command menu."""

    PRIVATE = "private"  # the private chat with the bot
    MEMBERS = "members"  # a group, as its members see it
    ADMINS = "admins"  # a group, as its administrators see it


def menu_commands(scope: MenuScope) -> tuple[CommandSpec, ...]:
    """The commands a scope's menu lists, in /help's order: in private, the player's; a group's members,
    every command they may use there (a private answer, /play, is typed in private); its administrators,
    every command a group takes."""
    specs = declared()
    if scope is MenuScope.PRIVATE:
        return tuple(spec for spec in specs if spec.name in PRIVATE_COMMANDS)
    in_groups = tuple(spec for spec in specs if not spec.private)
    if scope is MenuScope.ADMINS:
        return in_groups
    return tuple(spec for spec in in_groups if spec.access in MEMBERS_ACCESS or spec.read_without_args)


def greeting_text(lang: str) -> str:
    """What a group reads when the bot is added to it: how to begin, in the group's language."""
    names = {name: say(lang, f"name_{name}") for name in ("new", "duplicate", "help", "settings")}
    return say(lang, "greeting_group", **names)


def description_text(lang: str) -> str:
    """The bot's description (Telegram shows it before *Start*; at most 512 characters)."""
    return say(lang, "bot_description")


def short_description_text(lang: str) -> str:
    """The bot's short description (its profile; at most 120 characters)."""
    return say(lang, "bot_short_description")
