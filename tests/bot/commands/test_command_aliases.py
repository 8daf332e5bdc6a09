"""Other names people type for a command (the catalogs' ``aliases_<name>``): /plateau works as /grille, /passer
as /passe, in every channel and on Telegram, while /help and the menus keep to each command's names."""

from __future__ import annotations

import re

import pytest

from bot.adapters.names import platform_names
from bot.commands import find
from bot.commands.spec import CommandSpec
from bot.games.installed import COMMANDS
from tests.club import Club

ALIASED = {spec.name: spec for spec in COMMANDS if spec.aliases()}


def test_the_usual_other_names_are_known() -> None:
    assert set(ALIASED) >= {"board", "exchange", "challenge", "undo", "pass", "end", "sheet"}
    assert {"scores", "points"} <= set(ALIASED["sheet"].aliases())  # a club night's /scores
    assert {"plateau", "grid"} <= set(ALIASED["board"].aliases())
    assert {"echange", "swap"} <= set(ALIASED["exchange"].aliases())


@pytest.mark.parametrize("spec", list(ALIASED.values()), ids=lambda spec: spec.name)
def test_each_alias_finds_its_command_and_no_other(spec: CommandSpec) -> None:
    for alias in spec.aliases():
        assert find(alias) is spec, alias
        assert find(f"/{alias.upper()}") is spec, alias
        assert alias not in spec.names().values()


@pytest.mark.parametrize("spec", list(ALIASED.values()), ids=lambda spec: spec.name)
def test_telegram_takes_the_aliases_typed(spec: CommandSpec) -> None:
    assert set(spec.aliases()) <= set(platform_names(spec))


def test_an_alias_runs_the_command_in_a_game(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    board = club.say("Ana", "/plateau")
    assert board.startswith("Coup 1 · à Ana de jouer"), board
    assert board in club.say("Ana", "/grille")  # the same view, told as already shown
    club.ok("Ana", "/coup H8 VAGUE")
    assert club.ok("Ben", "/passer").startswith("Ben passe.")
    assert club.ok("Ana", "/annuler").startswith("Annulé : le passe de Ben.")
    sheet = club.say("Ana", "/feuille")
    assert [line.split()[1:3] for line in sheet.splitlines() if line[:1].isdigit()] == [["Ana", "H8"]], sheet
    assert "À Ben de jouer." in sheet
    assert club.ok("Ben", "/contester").startswith("Contestation : VAGUE valable.")
    assert club.ok("Ana", "/echanger 3").startswith("Ana change 3 lettres.")


@pytest.mark.parametrize(("lang", "listing"), [("fr", "/aide"), ("en", "/help")])
def test_help_lists_names_not_aliases(club: Club, lang: str, listing: str) -> None:
    club.say("Admin", f"/reglages langue {lang}", admin=True)
    text = club.say("Ana", listing)
    for spec in ALIASED.values():
        for alias in spec.aliases():
            assert not re.search(rf"/{alias}\b", text), alias
