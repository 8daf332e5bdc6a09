"""The fake Discord as the delivery tests set it up: a club's server, its channel and its members."""

from __future__ import annotations

from typing import Any

import discord

from tests.fakes import DiscordUser, FakeDiscord


class ClubDiscord(FakeDiscord):
    """A fake Discord with one server (``guild``) whose first channel is ``channel``; Ana (an admin) and Ben
    are its members. ``options``: the fake's own (``FakeDiscord``)."""

    def __init__(self, guild_name: str = "Club", channels: tuple[str, ...] = ("partie",), **options: Any) -> None:
        super().__init__(**options)
        self.guild = self.add_guild(name=guild_name, channels=channels)
        self.channel = self.guild.channel_id
        self.ana = self.member("ana", "Ana", admin=True)
        self.ben = self.member("ben", "Ben")

    def member(self, username: str, name: str, *, admin: bool = False, dms_open: bool = True) -> DiscordUser:
        """A new user, member of the club's server."""
        user = self.add_user(username=username, global_name=name, dms_open=dms_open)
        self.add_member(self.guild, user, admin=admin)
        return user


def identify_at_once(client: discord.Client) -> None:
    """``client`` identifies again at once: discord.py's own hook waits 5 s before any IDENTIFY but the first."""

    async def at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """No wait."""

    client.before_identify_hook = at_once  # type: ignore[method-assign]  # this client's hook, replaced
