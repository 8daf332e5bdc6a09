"""The fake Telegram as the delivery tests set it up: a club's groups and their creator."""

from __future__ import annotations

from typing import Any

from tests.fakes import FakeTelegram


class ClubTelegram(FakeTelegram):
    """A fake Bot API whose bot is ``@TestBot``, with the club's groups (``groups``, named ``title``) created by
    ``ana`` (first name ``creator``). ``options``: the fake's own (``FakeTelegram``)."""

    def __init__(
        self,
        *groups: int,
        title: str = "Club de Scrabble",
        creator: str = "Ana",
        creator_username: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(bot_username="TestBot", **options)
        for group in groups:
            self.add_group(group, title.format(group=group))
        self.ana = self.add_user(first_name=creator, username=creator_username)
        for group in groups:
            self.set_member(group, self.ana, "creator")
