"""Each room in its people's language (issue 39, item 5): a new room takes its language, with the edition,
notation, rules and time zone that go with it, from what its platform says its people speak, and keeps it."""

from __future__ import annotations

from bot.chat import Incoming
from tests.club import Club


def said(club: Club, channel: str, text: str, room_locale: str | None, user: str = "u:ana") -> str:
    replies = club.referee.handle(Incoming(channel, user, "Ana", text, room_locale=room_locale))
    return "\n".join(r.text for r in replies)


def test_a_new_english_room_is_english_with_the_english_edition_and_gcg_notation(club: Club) -> None:
    assert said(club, "discord:7", "/settings", "en-US").startswith(
        "Settings: language en, edition en, notation gcg, rules box-en, list en"
    )
    stored = club.storage.channel("discord:7")
    assert (stored.language, stored.edition, stored.notation, stored.zone) == ("en", "en", "gcg", "UTC")
    assert said(club, "discord:7", "/new Ana Ben", "en-US").startswith("New game (en, rules box-en, gcg notation)")


def test_a_french_room_stays_french_whoever_speaks_next_and_a_room_without_locale_keeps_the_default(
    club: Club,
) -> None:
    assert said(club, "telegram:-5", "/reglages", "fr").startswith("Réglages : langue fr, édition fr")
    assert said(club, "telegram:-5", "/reglages", "en", user="u:ben").startswith("Réglages : langue fr")
    assert club.storage.has_channel("telegram:-5")
    assert said(club, "console", "/reglages", None).startswith("Réglages : langue fr")
    assert not club.storage.has_channel("console")


def test_a_room_with_settings_keeps_them_whatever_the_locale(club: Club) -> None:
    club.ok("Ana", "/reglages langue en", admin=True)
    assert said(club, "club", "/reglages", "fr").startswith("Settings: language en, edition fr")
