"""What a reply offers to press: an action runs a command line as the user who presses it (pressing is
typing that line, so both reach the same command), or opens a form whose answer is such a line (the
duplicate answer). Platforms show actions as buttons; the console shows them as text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

# a pressed action comes back as its command line: Telegram's callback data holds 64 bytes, Discord's
# custom id 100 characters; the marks in front of it take a few
MAX_COMMAND_BYTES = 60


class ActionStyle(Enum):
    """How prominent a button is."""

    PRIMARY = "primary"  # what most people press next (join, play)
    SECONDARY = "secondary"
    DANGER = "danger"  # what cannot be undone (confirm an end, a challenge that may cost a turn)


class ActionError(ValueError):
    """An action that no platform could carry back (its command line is too long)."""


@dataclass(frozen=True)
class FormField:
    """One text input of a form: its name in the command line's template, its label, whether it must be filled."""

    name: str
    label: str
    required: bool = True
    max_length: int = 40


@dataclass(frozen=True)
class Form:
    """A small form (a Discord modal; typed on platforms without one) whose answer is ``command`` followed
    by the fields' answers in order."""

    title: str
    command: str  # "/jouer"
    fields: tuple[FormField, ...]

    def command_line(self, answers: Mapping[str, str]) -> str | None:
        """The command line the answers make; None when a required field is empty."""
        parts = [self.command]
        for field in self.fields:
            answer = " ".join(answers.get(field.name, "").split())
            if not answer and field.required:
                return None
            if answer:
                parts.append(answer)
        return " ".join(parts)

    def as_text(self) -> str:
        """The form as a typed line: ``/jouer RÉF MOT [POINTS]``."""
        labels = [f.label.upper() if f.required else f"[{f.label.upper()}]" for f in self.fields]
        return " ".join([self.command, *labels])


@dataclass(frozen=True)
class Action:
    """A button: ``label`` (from the catalogs), the ``command`` line it runs as the user who presses it (empty:
    it only dismisses, as *Cancel* does), how it looks, whether the platform asks "sure?" first, the
    form it opens instead of running at once, and the select menu it is a choice of."""

    label: str
    command: str = ""
    style: ActionStyle = ActionStyle.SECONDARY
    confirm: bool = False
    form: Form | None = None
    menu: str = ""  # actions of one reply sharing a menu's name are the choices of one select menu

    def __post_init__(self) -> None:
        if len(self.command.encode("utf-8")) > MAX_COMMAND_BYTES:
            raise ActionError(f"an action's command line is {MAX_COMMAND_BYTES} bytes at most: {self.command[:80]!r}")

    def as_text(self) -> str:
        """How the console shows it: ``[Rejoindre → /rejoindre]``; a form, its typed line; *Cancel*, its label."""
        if self.form is not None:
            return f"[{self.label} → {self.form.as_text()}]"
        return f"[{self.label} → {self.command}]" if self.command else f"[{self.label}]"


def actions_text(actions: tuple[Action, ...]) -> str:
    """A reply's actions as the console shows them: the buttons on one line, each select menu on a line of
    its own (``Langue ▾ [fr → /reglages langue fr]  [en → /reglages langue en]``)."""
    menus: dict[str, list[Action]] = {}
    for action in actions:
        menus.setdefault(action.menu, []).append(action)
    lines = []
    for menu, choices in menus.items():
        shown = "  ".join(action.as_text() for action in choices)
        lines.append(f"{menu} ▾ {shown}" if menu else shown)
    return "\n".join(lines)


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as JSON-ready values (the outbox stores it with its reply)."""
    data: dict[str, Any] = {"label": action.label, "command": action.command, "style": action.style.value}
    if action.confirm:
        data["confirm"] = True
    if action.menu:
        data["menu"] = action.menu
    if action.form is not None:
        fields = [[f.name, f.label, f.required, f.max_length] for f in action.form.fields]
        data["form"] = {"title": action.form.title, "command": action.form.command, "fields": fields}
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The action ``action_to_dict`` wrote."""
    form = data.get("form")
    return Action(
        str(data["label"]),
        str(data.get("command", "")),
        ActionStyle(data.get("style", ActionStyle.SECONDARY.value)),
        bool(data.get("confirm", False)),
        None
        if form is None
        else Form(
            str(form["title"]),
            str(form["command"]),
            tuple(FormField(str(n), str(label), bool(r), int(m)) for n, label, r, m in form["fields"]),
        ),
        str(data.get("menu", "")),
    )
