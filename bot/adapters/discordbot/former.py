"""Commands sent as registered before their forms. Until ``arbitre discord --sync`` registers the forms after an
upgrade, Discord's clients keep sending each command as it was registered before: one free-text option
``args`` (``.forms.FREE_TEXT``), or none when it was left empty. discord.py would refuse such a command as out of
date (a required option missing, or a command that has subcommands now, sent bare); the tree here reads
``args`` as the typed line instead, and the command runs as if typed (the same path as a filled form's)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord import app_commands

from ...commands import CommandSpec, find
from .forms import FREE_TEXT

log = logging.getLogger("arbitre.discord")

STRING_OPTION = 3  # Application Command Option Type: STRING
SUBCOMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP

Run = Callable[[discord.Interaction, CommandSpec, str], Awaitable[None]]


def former_line(spec: CommandSpec, data: Mapping[str, Any]) -> str | None:
    """The typed line of a command sent in its former shape (``args`` alone, or nothing for a command that has
    subcommands now); None when it is sent as its form is registered today."""
    form = spec.form
    if form is None or any(option.name == FREE_TEXT for option in form.options):
        return None  # ``args`` is still one of its options: its own form reads it
    options = list(data.get("options") or [])
    if any(option.get("type") in SUBCOMMAND_TYPES for option in options):
        return None
    if not options:  # bare: today's form may need a subcommand or an option
        return "" if form.subs or any(option.required for option in form.options) else None
    if len(options) == 1 and options[0].get("name") == FREE_TEXT and options[0].get("type") == STRING_OPTION:
        return str(options[0].get("value") or "")
    return None


class FormerFormsTree(app_commands.CommandTree):
    """discord.py's command tree, which also takes the commands sent as registered before the forms (``run``:
    the adapter's slash-command answer, given the typed line)."""

    def __init__(self, client: discord.Client, run: Run) -> None:
        super().__init__(client)
        self.run = run
        self.reported: set[str] = set()  # the commands found in their former shape, logged once each

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        data: Any = interaction.data or {}
        if interaction.type is not discord.InteractionType.application_command or data.get("type", 1) != 1:
            return True
        spec = find(str(data.get("name", "")))
        line = former_line(spec, data) if spec is not None else None
        if spec is None or line is None:
            return True
        if spec.name not in self.reported:
            self.reported.add(spec.name)
            log.info("/%s sent as registered before its form: read as typed (run `arbitre discord --sync`)", spec.name)
        await self.run(interaction, spec, line)
        return False  # answered here: discord.py does not look for the form's options
