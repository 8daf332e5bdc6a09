"""A club night in the command layer: a referee on a real SQLite file, a clock the test moves.

Shared by the command-layer tests (the ``club`` fixture of ``conftest.py``): every reply is checked
not to be the apology, and a refused command is checked to change nothing stored.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, TypedDict, Unpack

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage import SQLiteStorage
from bot.words.loader import LexiconRegistry
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()
CHANNEL = "club"
START = 1_800_000_000.0  # 2027-01-15 08:00 UTC, 09:00 in Paris
APOLOGY = "Désolé, quelque chose s'est mal passé"


class MessageOptions(TypedDict, total=False):
    """Who sends a message and how (``Club.send``'s keywords but the channel): the account, an admin, privately."""

    user: str | None
    admin: bool
    private: bool


class SendOptions(MessageOptions, total=False):
    """``Club.send``'s keywords: ``MessageOptions`` and the channel."""

    channel: str


class Club:
    """A referee on a real SQLite file, a clock the test moves, the word lists of ``registry``."""

    def __init__(self, path: Path, registry: LexiconRegistry = REGISTRY, *, images: bool = False) -> None:
        self.path = path
        self.registry = registry
        self.images = images
        self.now = START
        self.storage = SQLiteStorage(path)
        self.referee = Referee(self.storage, registry, now=lambda: self.now, images=images)

    def restart(self, registry: LexiconRegistry | None = None) -> None:
        """The process stops and starts again on the same file (with another registry if given)."""
        self.close()
        self.registry = registry or self.registry
        self.storage = SQLiteStorage(self.path)
        self.referee = Referee(self.storage, self.registry, now=lambda: self.now, images=self.images)

    def close(self) -> None:
        self.referee.clock.shutdown()
        self.storage.close()

    def send(
        self,
        name: str,
        text: str,
        *,
        user: str | None = None,
        channel: str = CHANNEL,
        admin: bool = False,
        private: bool = False,
    ) -> list[Reply]:
        """The replies to one message from ``name`` (account ``u:<name>`` unless ``user`` is given)."""
        account = user or f"u:{name.lower()}"
        message = Incoming(channel, account, name, text, private=private, admin=admin)
        replies = self.referee.handle(message)
        assert replies, text
        assert not any(APOLOGY in r.text for r in replies), (text, replies)
        return replies

    def say(self, name: str, text: str, **options: Unpack[SendOptions]) -> str:
        """The text of the replies to one message (private ones included)."""
        return "\n".join(r.text for r in self.send(name, text, **options))

    def ok(self, name: str, text: str, **options: Unpack[SendOptions]) -> str:
        """A command that must be accepted; the text of its replies."""
        replies = self.send(name, text, **options)
        assert not any(r.error for r in replies), (text, replies)
        return "\n".join(r.text for r in replies)

    def refused(self, name: str, text: str, **options: Unpack[SendOptions]) -> str:
        """A command that must be refused and change nothing stored; its answer."""
        before = dump(self.path)
        replies = self.send(name, text, **options)
        assert all(r.error for r in replies), (text, replies)
        assert dump(self.path) == before, text
        return replies[0].text

    def tick(self, seconds: float) -> list[Reply]:
        self.now += seconds
        return self.referee.tick(self.now)

    def events(self, kind: str | None = None, channel: str = CHANNEL) -> list[dict[str, Any]]:
        """The stored events of the channel's last game (of one kind if given)."""
        game = self.storage.games(channel)[-1]
        return [e.data for e in self.storage.events(game.id) if kind is None or e.data["kind"] == kind]

    def wait_for_tops_list(self, channel: str = CHANNEL, spec: str = "fr") -> None:
        """Wait until the channel's list with its house words is compiled (a bot's players would think)."""
        self.registry.get(self.referee.lists.movegen_name(spec, channel))


def dump(path: Path) -> list[str]:
    """Every stored row but the outbox's (what the bot owes the channel is not game state)."""
    with sqlite3.connect(path) as conn:
        return [line for line in conn.iterdump() if '"outbox"' not in line and "sqlite_sequence" not in line]
