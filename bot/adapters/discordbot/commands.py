"""The slash commands of the Discord adapter: one per command of ``bot.commands.registry`` (English name,
French localisation from its alias), as its declared form (``.forms``: typed options, subcommands) or one
free-text ``args`` option; the suggestions offered while an option is typed; the gateway intents the
commands need.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from ...commands import CommandSpec, Section, find
from ...commands.options import Label, Suggest
from ...commands.registry import declared
from ...messages import edition_name, keyword_form, language_of_locale, say
from ...words.loader import bundled, list_edition
from ..names import DEFAULT_LANGUAGE, platform_name
from ..text import short_text
from .forms import CHOICE_LIMIT, CHOICES_LIMIT, DESCRIPTION_LIMIT, build_form_command, text_in


class SlashHost(Protocol):
    """What the slash commands call on the adapter that registers them (``DiscordAdapter``)."""

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, args: str) -> None:
        """Answer one slash command with its argument text."""

    async def suggestions(
        self, interaction: discord.Interaction, suggest: Suggest, current: str
    ) -> list[tuple[str, str | int]]:
        """What to offer for an option being typed: (shown, value) pairs."""


def intents_for(message_content: bool) -> discord.Intents:
    """Guilds and DMs; guild messages and their content only for ``!`` commands (privileged)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    intents.guild_messages = message_content
    intents.message_content = message_content
    return intents


def localized(spec: CommandSpec, part: str, lang: str, option: str = "", label: Label = Label.WORD) -> str:
    """A part of a slash command in ``lang``, from the catalogs, within Discord's limits: its ``name``, its
    ``description``, an option's or subcommand's name or description, a choice's label (``.forms.text_in``)."""
    if part == "name":
        return platform_name(spec, lang)
    if part == "description":
        return short_text(spec.menu(lang), DESCRIPTION_LIMIT)
    return text_in(lang, spec, part, option, label)


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands, their options and subcommands, and their choices' labels,
    in each Discord locale with a catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = language_of_locale(locale.value)
        name = string.extras.get("command")
        if lang is None or lang == DEFAULT_LANGUAGE or not isinstance(name, str):
            return None
        spec = find(name)
        if spec is None:
            return None
        label = string.extras.get("label", Label.WORD)
        part, option = str(string.extras.get("part", "")), str(string.extras.get("option", ""))
        return localized(spec, part, lang, option, label if isinstance(label, Label) else Label.WORD)


def matching(current: str, values: Sequence[str]) -> list[str]:
    """The values that start with what was typed, then those that contain it (accents and case aside)."""
    typed = keyword_form(current)
    first = [v for v in values if keyword_form(v).startswith(typed)]
    return (first + [v for v in values if typed in keyword_form(v) and v not in first])[:CHOICES_LIMIT]


def fixed_suggestions(suggest: Suggest, current: str, lang: str) -> list[tuple[str, str | int]]:
    """Suggestions that need no storage: /help's topics, the shipped lists, time zones."""
    if suggest is Suggest.TOPICS:
        sections = [say(lang, f"help_section_word_{s.value}").split()[0] for s in Section]
        topics = sections + [spec.name_in(lang) for spec in declared()]
        return [(t, t) for t in matching(current, topics)]
    if suggest is Suggest.LISTS:
        return [(list_shown(name), name) for name in matching(current, bundled())]
    if suggest is Suggest.ZONES:
        zones = sorted(zoneinfo.available_timezones())
        return [(z, z) for z in matching(current, zones)] if current else []
    return []


def list_shown(name: str) -> str:
    """A shipped list as offered: its name, then the name of the edition it is for (``fr · Français (FISF)``)."""
    edition = list_edition(name)
    return name if edition is None else short_text(f"{name} · {edition_name(edition)}", CHOICE_LIMIT)


def players_matching(current: str, players: Sequence[str]) -> list[tuple[str, str | int]]:
    """The game's players matching what was typed (an ``@`` aside)."""
    return [(p, p) for p in matching(current.lstrip("@"), players)]


def build_command(host: SlashHost, spec: CommandSpec) -> app_commands.Command[Any, Any, Any] | app_commands.Group:
    """The slash command for one command of the table."""

    async def run(interaction: discord.Interaction, args: str) -> None:
        await host.on_slash(interaction, spec, args)

    return build_form_command(spec, run, host.suggestions)
