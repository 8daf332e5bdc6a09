"""A Telegram private chat speaks its player's language (issue 37, item 17): an English group's player was
answered in French in their private chat (/help, and /play before /join), the private chat having no
settings of its own; it now speaks the language of the game the player plays, else the one Telegram says
they use; /help play says that on Telegram /join in the group comes first."""

from __future__ import annotations

from bot.chat import Incoming
from tests.club import Club

GROUP, PRIVATE = "telegram:-100", "telegram:42"


def private(club: Club, text: str, locale: str | None) -> str:
    replies = club.referee.handle(Incoming(PRIVATE, "telegram:42", "Ann", text, private=True, locale=locale))
    return "\n".join(r.text for r in replies)


def test_a_private_chat_speaks_the_player_s_language(club: Club) -> None:
    # before any game: Telegram's language for the user
    assert private(club, "/help", "en-GB").startswith("Commands (the French names work too):")
    assert private(club, "/help", "fr").startswith("Commandes (les noms anglais marchent aussi) :")
    assert "On Telegram, first" not in private(club, "/help play", "fr")  # French for a French speaker
    assert "(sur Telegram, tapez d'abord /rejoindre" in private(club, "/aide jouer", "fr")
    assert "(on Telegram, first type /join in the game's group" in private(club, "/help play", "en")
    refused = private(club, "/play H8 VAGUE", "en")  # no game yet: told in English
    assert "game" in refused
    assert "partie" not in refused
    # an English group's duplicate, joined in the group: its language, whatever Telegram says
    club.ok("Admin", "/settings language en", channel=GROUP, admin=True)
    club.ok("Ref", "/duplicate 1", channel=GROUP)
    club.send("Ann", "/join", user="telegram:42", channel=GROUP)
    assert private(club, "/help", "fr").startswith("Commands (the French names work too):")
