"""The slash commands of the Discord adapter: one per command of ``bot.commands.registry`` (English name,
French localisation from its alias), each with one free-text ``args`` option the command layer parses; the
suggestions ``/settings`` and ``/penalty`` offer while it is typed; the gateway intents the commands need.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from ...commands import CommandSpec, find
from ...games.common.general import setting_named, setting_names, setting_values
from ...messages import language_of_locale, say
from ...words.loader import bundled
from ..names import DEFAULT_LANGUAGE, platform_name, platform_word
from ..text import short_text


class SlashHost(Protocol):
    """What the slash commands call on the adapter that registers them (``DiscordAdapter``)."""

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, args: str) -> None:
        """Answer one slash command with its free-text arguments."""

    async def players(self, channel: str) -> list[str]:
        """Player names of the channel's game (for autocompletion)."""

DESCRIPTION_LIMIT = 100
CHOICES_LIMIT = 25


def intents_for(message_content: bool) -> discord.Intents:
    """Guilds and DMs; guild messages and their content only for ``!`` commands (privileged)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    intents.guild_messages = message_content
    intents.message_content = message_content
    return intents


def usage_args(usage: str) -> str:
    """``/score REF WORD [claimed score]`` -> ``REF WORD [claimed score]``."""
    parts = usage.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


def localized(spec: CommandSpec, part: str, lang: str) -> str:
    """A part of a slash command in ``lang``, from the catalogs, within Discord's limits: its ``name``, its
    ``description``, its option's ``option`` name or ``args`` description."""
    if part == "name":
        return platform_name(spec, lang)
    if part == "option":
        return platform_word(say(lang, "option_args"), "args")
    if part == "args":
        return short_text(usage_args(spec.usage(lang)), DESCRIPTION_LIMIT)
    return short_text(spec.menu(lang), DESCRIPTION_LIMIT)


def _text(spec: CommandSpec, part: str) -> app_commands.locale_str:
    """The default (English) text of a part, carrying what the translator needs for other languages."""
    return app_commands.locale_str(localized(spec, part, DEFAULT_LANGUAGE), command=spec.name, part=part)


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands in each Discord locale with a catalog."""

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
        return localized(spec, str(string.extras.get("part", "")), lang) if spec is not None else None


SETTINGS_SUGGESTED = ("language", "edition", "notation", "rules", "lexicon", "minutes")
SUGGESTED_MINUTES = ("1", "2", "3")


def suggested_values(setting: str) -> tuple[str, ...]:
    if setting == "minutes":
        return SUGGESTED_MINUTES
    if setting == "lexicon":
        return bundled()
    return setting_values().get(setting, ())


def settings_choices(current: str, lang: str) -> list[str]:
    """``/settings`` suggestions for what the user typed so far: ``key value`` pairs, the keys in the
    user's language first, then (once something is typed) in the other languages."""
    typed = " ".join(current.lower().split())
    keys = [setting_names(setting, lang)[0] for setting in SETTINGS_SUGGESTED]
    if typed:
        others = [name for setting in SETTINGS_SUGGESTED for name in setting_names(setting, lang)[1:]]
        keys += [k for k in others if k not in keys]
    out: list[str] = []
    for key in keys:
        canonical = setting_named(key) or key
        for value in suggested_values(canonical):
            option = f"{key} {value}"
            if option.startswith(typed) or (typed and " " not in typed and key.startswith(typed)):
                out.append(option)
    return out[:CHOICES_LIMIT]


def penalty_choices(current: str, players: Sequence[str]) -> list[str]:
    """``/penalty`` suggestions: the game's players matching what was typed, with the points."""
    words = current.split()
    points = words.pop() if words and words[-1].lstrip("-").isdigit() else ""
    typed = " ".join(words).lstrip("@").lower()
    names = [p for p in players if p.lower().startswith(typed)] or [p for p in players if typed in p.lower()]
    return [f"{name} {points}".strip() for name in names][:CHOICES_LIMIT]


def _slash_callback(adapter: SlashHost, spec: CommandSpec, takes_args: bool, required: bool) -> Any:
    """The coroutine discord.py calls for one command (its signature declares the option)."""
    if not takes_args:

        async def run_plain(interaction: discord.Interaction) -> None:
            await adapter.on_slash(interaction, spec, "")

        return run_plain
    if required:

        async def run_required(interaction: discord.Interaction, args: str) -> None:
            await adapter.on_slash(interaction, spec, args)

        return run_required

    async def run_optional(interaction: discord.Interaction, args: str | None = None) -> None:
        await adapter.on_slash(interaction, spec, args or "")

    return run_optional


def optional_removed(usage: str) -> str:
    """A usage line without its optional parts, nested ones included (``[stop | simultane [CODE]]`` goes
    whole): what must be typed."""
    previous = None
    while previous != usage:  # the innermost [...] first, until none is left
        previous, usage = usage, re.sub(r"\[[^\[\]]*\]", "", usage)
    return usage


def build_command(adapter: SlashHost, spec: CommandSpec) -> app_commands.Command[Any, Any, Any]:
    """The slash command for one command of the table."""
    arguments = usage_args(spec.usage(DEFAULT_LANGUAGE))
    takes_args = bool(arguments)
    required = bool(optional_removed(arguments).strip())  # a word outside [...] must be given
    callback = _slash_callback(adapter, spec, takes_args, required)
    if takes_args:
        callback = app_commands.rename(args=_text(spec, "option"))(callback)
        callback = app_commands.describe(args=_text(spec, "args"))(callback)
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name=app_commands.locale_str(spec.name, command=spec.name, part="name"),
        description=_text(spec, "description"),
        callback=callback,
    )
    if spec.name == "settings":

        async def complete_settings(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            lang = language_of_locale(str(interaction.locale)) or DEFAULT_LANGUAGE
            return [app_commands.Choice(name=c, value=c) for c in settings_choices(current, lang)]

        command.autocomplete("args")(complete_settings)
    elif spec.name == "penalty":

        async def complete_penalty(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            players = await adapter.players(f"discord:{interaction.channel_id}")
            return [app_commands.Choice(name=c[:100], value=c[:100]) for c in penalty_choices(current, players)]

        command.autocomplete("args")(complete_penalty)
    return command
