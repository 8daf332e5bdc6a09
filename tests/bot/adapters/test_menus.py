"""Menus per kind of chat, the bot's descriptions and a group's greeting (issue 39, item 4)."""

from __future__ import annotations

import pytest

from bot.games.installed import COMMANDS
from bot.menus import MenuScope, description_text, greeting_text, menu_commands, short_description_text


def names(scope: MenuScope) -> list[str]:
    return [spec.name for spec in menu_commands(scope)]


def test_a_private_chat_lists_the_players_commands_and_a_group_its_own() -> None:
    assert names(MenuScope.PRIVATE) == ["rack", "play", "calc", "standings", "moves", "status", "help", "check"]
    members, admins = names(MenuScope.MEMBERS), names(MenuScope.ADMINS)
    assert "play" not in members + admins  # a private answer is typed in private
    assert {"new", "score", "challenge", "join", "duplicate", "settings", "help"} <= set(members)
    assert not {"undo", "penalty", "close", "pause", "correct"} & set(members)  # the referee's controls
    assert set(members) < set(admins)
    assert len(admins) == len(COMMANDS) - len([spec for spec in COMMANDS if spec.private])  # /play, /rack


@pytest.mark.parametrize(("lang", "start"), [("fr", "Bonjour ! Je suis Arbitre"), ("en", "Hello! I am Arbitre")])
def test_the_greeting_and_descriptions_are_in_the_groups_language_and_within_the_platforms_sizes(
    lang: str, start: str
) -> None:
    greeting = greeting_text(lang)
    assert greeting.startswith(start)
    assert ("/nouvelle Ana Ben" if lang == "fr" else "/new Ana Ben") in greeting
    assert len(description_text(lang)) <= 512
    assert len(short_description_text(lang)) <= 120
