"""A command's form (``bot.commands.options``) as a Discord slash command: typed options (strings, integers
and numbers with ``min_value``/``max_value``, choices, booleans, users), subcommands, autocompletion,
``default_member_permissions`` and ``contexts``. The values a user fills in are written back into the
command's argument text (``Form.line``), which runs as if typed: one grammar, one decision.

Discord (Application Commands > Application Command Object) takes an option's type and constraints from
what is registered and its client refuses a value outside them; discord.py builds that registration from
a callback's signature, so each command's callback is given one made from its form.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord import app_commands

from ...catalogs import CATALOGS
from ...commands import CommandSpec
from ...commands.options import Form, Kind, Label, Option, Sub, Suggest, Where
from ...messages import edition_name, language_name, say
from ..names import DEFAULT_LANGUAGE, platform_word
from ..text import short_text

DESCRIPTION_LIMIT = 100  # Application Command Option Structure: description, 1-100 characters
CHOICE_LIMIT = 100  # Application Command Option Choice Structure: a name of 1-100 characters
CHOICES_LIMIT = 25  # choices, and autocomplete's answers, at most
FREE_TEXT = "args"  # the option of a command without a form: its whole argument text

Run = Callable[[discord.Interaction, str], Awaitable[None]]
Suggestions = Callable[[discord.Interaction, Suggest, str], Awaitable[list[tuple[str, str | int]]]]


def usage_args(usage: str) -> str:
    """``/score REF WORD [claimed score]`` -> ``REF WORD [claimed score]``."""
    parts = usage.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


def choice_label(lang: str, label: Label, value: str) -> str:
    """A choice as ``lang`` shows it, within Discord's limits: a language by the name its own catalog gives it,
    an edition by its name, a word by the catalog's ``choice_<word>``, else the word itself (a proper name)."""
    if label is Label.LANGUAGE:
        shown = language_name(value)
    elif label is Label.EDITION:
        shown = edition_name(value)
    else:
        key = f"choice_{value.replace('-', '_')}"
        shown = say(lang, key) if key in CATALOGS.catalog(lang) else value
    return short_text(shown, CHOICE_LIMIT)


def text_in(lang: str, spec: CommandSpec, part: str, name: str, label: Label = Label.WORD) -> str:
    """An option's or a subcommand's name (``option``, ``sub``) or description (``about``, ``sub_about``), or
    a choice's label (``choice``, shown as ``label`` says), in ``lang``, within Discord's limits. The
    free-text option's description is the command's usage."""
    if part == "option":
        return platform_word(say(lang, f"option_{name}"), name)
    if part == "sub":
        return platform_word(say(lang, f"sub_{name}"), name)
    if part == "sub_about":
        return short_text(say(lang, f"sub_{spec.name}_{name}"), DESCRIPTION_LIMIT)
    if part == "choice":
        return choice_label(lang, label, name)
    if name == FREE_TEXT:
        return short_text(usage_args(spec.usage(lang)), DESCRIPTION_LIMIT)
    return short_text(say(lang, f"option_{name}_about"), DESCRIPTION_LIMIT)


def _text(spec: CommandSpec, part: str, name: str, label: Label = Label.WORD) -> app_commands.locale_str:
    """The default (English) text, carrying what the translator needs for the other languages."""
    return app_commands.locale_str(
        text_in(DEFAULT_LANGUAGE, spec, part, name, label), command=spec.name, part=part, option=name, label=label
    )


def _annotation(option: Option) -> Any:
    if option.kind is Kind.INTEGER:
        if option.low is None and option.high is None:
            return int
        return app_commands.Range[int, option.low, option.high]
    if option.kind is Kind.NUMBER:
        return app_commands.Range[float, option.low, option.high]
    if option.kind is Kind.FLAG:
        return bool
    if option.kind is Kind.MEMBER:
        return discord.User  # a member in a server (resolved), the user in a DM
    return str


def written(value: object) -> object:
    """A value as the grammar reads it: a member by their display name."""
    if isinstance(value, (discord.User, discord.Member)):
        return value.display_name
    return value


def _callback(spec: CommandSpec, run: Run, form: Form, options: tuple[Option, ...], sub: Sub | None) -> Any:
    """The coroutine discord.py calls, its signature made from the options (required ones first)."""

    async def answer(interaction: discord.Interaction, **values: Any) -> None:
        filled: Mapping[str, object] = {name: written(value) for name, value in values.items()}
        await run(interaction, form.line(filled, sub.name if sub is not None else None))

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    for option in sorted(options, key=lambda o: not o.required):
        default = inspect.Parameter.empty if option.required else None
        parameters.append(
            inspect.Parameter(
                option.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=_annotation(option)
            )
        )
    answer.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    if options:
        names = {o.name: _text(spec, "option", o.name) for o in options}
        abouts = {o.name: _text(spec, "about", o.name) for o in options}
        answer = app_commands.rename(**names)(answer)
        answer = app_commands.describe(**abouts)(answer)
        choices = {
            o.name: [
                app_commands.Choice(name=_text(spec, "choice", c, o.label), value=c) for c in o.choices[:CHOICES_LIMIT]
            ]
            for o in options
            if o.kind is Kind.CHOICE
        }
        if choices:
            answer = app_commands.choices(**choices)(answer)
    return answer


def _suggester(suggest: Suggest, suggestions: Suggestions) -> Any:
    async def complete(interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[Any]]:
        found = await suggestions(interaction, suggest, str(current or ""))
        return [app_commands.Choice(name=name[:CHOICE_LIMIT], value=value) for name, value in found[:CHOICES_LIMIT]]

    return complete


def _command(
    spec: CommandSpec,
    run: Run,
    suggestions: Suggestions,
    form: Form,
    options: tuple[Option, ...],
    sub: Sub | None,
) -> app_commands.Command[Any, Any, Any]:
    callback = _callback(spec, run, form, options, sub)
    name = (
        _text(spec, "sub", sub.name)
        if sub is not None
        else app_commands.locale_str(spec.name, command=spec.name, part="name")
    )
    description = (
        _text(spec, "sub_about", sub.name)
        if sub is not None
        else app_commands.locale_str(
            short_text(spec.menu(DEFAULT_LANGUAGE), DESCRIPTION_LIMIT), command=spec.name, part="description"
        )
    )
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name=name, description=description, callback=callback
    )
    for option in options:
        if option.suggest is not Suggest.NONE:
            command.autocomplete(option.name)(_suggester(option.suggest, suggestions))
    return command


def _placed(item: app_commands.Command[Any, Any, Any] | app_commands.Group, form: Form) -> None:
    """Who sees the command (``default_member_permissions``) and where it may run (``contexts``)."""
    if form.admin:
        item.default_permissions = discord.Permissions(manage_guild=True)
    if form.where is Where.GROUP:
        item.guild_only = True
        item.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def build_form_command(
    spec: CommandSpec, run: Run, suggestions: Suggestions
) -> app_commands.Command[Any, Any, Any] | app_commands.Group:
    """The slash command of ``spec``: its form's options or subcommands, else one free-text option (when
    its usage takes arguments)."""
    form = spec.form
    if form is None:
        takes = bool(usage_args(spec.usage(DEFAULT_LANGUAGE)))
        form = Form((Option(FREE_TEXT),)) if takes else Form()
    if not form.subs:
        command = _command(spec, run, suggestions, form, form.options, None)
        _placed(command, form)
        return command
    group = app_commands.Group(
        name=app_commands.locale_str(spec.name, command=spec.name, part="name"),
        description=app_commands.locale_str(
            short_text(spec.menu(DEFAULT_LANGUAGE), DESCRIPTION_LIMIT), command=spec.name, part="description"
        ),
    )
    for sub in form.subs:
        group.add_command(_command(spec, run, suggestions, form, sub.options, sub))
    _placed(group, form)
    return group
