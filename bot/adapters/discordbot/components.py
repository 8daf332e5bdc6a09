"""Replies' actions as Discord shows them: buttons and select menus (message components) whose
``custom_id`` carries the command line they run, a confirmation asked privately where an action asks for
one, and the duplicate answer's form as a modal. A component used or a modal submitted is an interaction
(types 3 and 5) handled as its user running the line in that channel, answered like a slash command (a
private answer ephemerally). Nothing is kept in memory: the ids outlive a restart."""

from __future__ import annotations

from typing import Any

import discord

from ...actions import Action, ActionStyle, Form

RUN, ASK, FORM, MENU, DISMISS = "cmd:", "ask:", "form:", "menu:", "x"
STYLES = {
    ActionStyle.PRIMARY: discord.ButtonStyle.primary,
    ActionStyle.SECONDARY: discord.ButtonStyle.secondary,
    ActionStyle.DANGER: discord.ButtonStyle.danger,
}


def custom_id(action: Action) -> str:
    """What a press of ``action`` sends back."""
    if action.form is not None:
        return FORM + action.form.command
    if not action.command:
        return DISMISS
    return (ASK if action.confirm else RUN) + action.command


def _finished(view: discord.ui.View) -> discord.ui.View:
    view.stop()  # never kept by discord.py's view store: presses reach on_interaction, whatever restarts
    return view


def view_for(actions: tuple[Action, ...]) -> discord.ui.View | None:
    """The components of a reply's actions: its buttons, then a select menu per menu; None without actions."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    menus: dict[str, list[Action]] = {}
    for action in actions:
        if action.menu:
            menus.setdefault(action.menu, []).append(action)
        else:
            style = STYLES[action.style]
            view.add_item(discord.ui.Button(label=action.label[:80], custom_id=custom_id(action), style=style, row=0))
    for row, (name, choices) in enumerate(list(menus.items())[:4], start=1):
        options = [discord.SelectOption(label=a.label[:100], value=a.command) for a in choices[:25]]
        view.add_item(discord.ui.Select(custom_id=MENU + name, placeholder=name, options=options, row=row))
    return _finished(view)


def confirm_view(command: str, label: str, cancel: str) -> discord.ui.View:
    """*Confirm* (runs ``command``) and *Cancel*, shown only to who pressed a button that asks first."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=f"✓ {label}"[:80], custom_id=RUN + command, style=discord.ButtonStyle.danger))
    view.add_item(discord.ui.Button(label=cancel[:80], custom_id=DISMISS, style=discord.ButtonStyle.secondary))
    return _finished(view)


def modal_for(form: Form) -> discord.ui.Modal:
    """The form as a modal, its submission identified by the command it makes."""
    modal = discord.ui.Modal(title=form.title[:45], custom_id=FORM + form.command, timeout=None)
    for field in form.fields:
        modal.add_item(
            discord.ui.TextInput(
                label=field.label[:45], custom_id=field.name, required=field.required, max_length=field.max_length
            )
        )
    modal.stop()
    return modal


def pressed_label(message: discord.Message | None, wanted: str) -> str | None:
    """The label of the button ``wanted`` of ``message``."""
    for row in message.components if message is not None else ():
        for item in getattr(row, "children", ()):
            if getattr(item, "custom_id", None) == wanted:
                return getattr(item, "label", None)
    return None


def answers(data: Any) -> dict[str, str]:
    """A modal submission's answers, by text input (in action rows or in labels)."""
    found: dict[str, str] = {}
    for row in data.get("components", []):
        for item in [row.get("component")] if row.get("type") == 18 else row.get("components", []):
            if item and "custom_id" in item:
                found[item["custom_id"]] = str(item.get("value") or "")
    return found
