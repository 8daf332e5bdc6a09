"""Replies' actions as Telegram shows them: inline keyboards whose buttons carry the command line they run
(``callback_data``, at most 64 bytes: an action's line is 60 at most), a confirmation first where an action
asks for one, and the duplicate answer's form as a deep link to the private chat (Telegram has no form);
a press is a ``callback_query``, answered, then handled as its user typing the line in that chat."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...actions import Action

ASK = "?"  # callback data: "?/fin !" asks "sure?" before running "/fin !"
DISMISS = "x"  # callback data of *Cancel*
PLAY_START = "play"  # the deep link's payload: /start play in the private chat
MENU_ROW = 4  # choices of a menu per row


def callback_data(action: Action) -> str:
    """What a press of ``action`` sends back."""
    if not action.command:
        return DISMISS
    return ASK + action.command if action.confirm else action.command


def button(action: Action, bot_username: str | None) -> InlineKeyboardButton:
    if action.form is not None and bot_username:  # the private chat, ready for the move
        return InlineKeyboardButton(action.label, url=f"https://t.me/{bot_username}?start={PLAY_START}")
    label = f"{action.menu} {action.label}" if action.menu else action.label
    return InlineKeyboardButton(label, callback_data=callback_data(action))


def keyboard(actions: tuple[Action, ...], bot_username: str | None) -> InlineKeyboardMarkup | None:
    """The inline keyboard of a reply's actions: its buttons on one row, each menu's choices on rows of their
    own; None without actions."""
    if not actions:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    plain = [button(a, bot_username) for a in actions if not a.menu]
    if plain:
        rows.append(plain)
    menus: dict[str, list[InlineKeyboardButton]] = {}
    for action in actions:
        if action.menu:
            menus.setdefault(action.menu, []).append(button(action, bot_username))
    for choices in menus.values():
        rows += [choices[start : start + MENU_ROW] for start in range(0, len(choices), MENU_ROW)]
    return InlineKeyboardMarkup(rows)


def confirmation(command: str, label: str, cancel: str) -> InlineKeyboardMarkup:
    """The keyboard that replaces a pressed button asking "sure?": confirm (runs ``command``) or cancel."""
    confirm = InlineKeyboardButton(f"✓ {label}", callback_data=command)
    return InlineKeyboardMarkup([[confirm, InlineKeyboardButton(cancel, callback_data=DISMISS)]])
