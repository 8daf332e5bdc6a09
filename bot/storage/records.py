"""What storage keeps and answers: channel settings, game records, stored events, deadlines, and its
errors."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.notation import default_notation
from core.rules import box_rules


@dataclass(frozen=True)
class ChannelSettings:
    """A channel's settings; defaults are a French channel on the bundled list."""

    channel: str
    language: str = "fr"
    edition: str = "fr"
    notation: str = "fisf"
    rules: str = "box-fr"
    lexicon: str = "fr"
    minutes: float = 3.0
    timezone: str = ""  # IANA name; "" means the language's usual zone (see ``zone``)

    @property
    def zone(self) -> str:
        """The time zone every time in this channel is shown in."""
        return self.timezone or ("Europe/Paris" if self.language == "fr" else "UTC")

    def with_changes(self, **changes: Any) -> ChannelSettings:
        return replace(self, **changes)

    def with_edition(self, edition: str) -> ChannelSettings:
        """Another edition, with its usual notation, bundled list and box rules."""
        if edition == self.edition:
            return self
        return replace(
            self,
            edition=edition,
            notation=default_notation(edition).value,
            lexicon=edition,
            rules=box_rules(edition).code,
        )


@dataclass(frozen=True)
class GameRecord:
    """A stored game: where it is played, what kind, its set-up, and whether it is still on."""

    id: int
    channel: str
    kind: str  # classic | duplicate
    referee: str
    status: str  # active | ended | abandoned
    setup: dict[str, Any] = field(default_factory=dict)
    created: float = 0.0


class RoundClosedTwiceError(Exception):
    """A second close of a duplicate round (the database refuses it)."""

    def __init__(self, game_id: int, round_number: int) -> None:
        super().__init__(f"game {game_id}: round {round_number} is already closed")
        self.game_id = game_id
        self.round_number = round_number


class GameRunningError(Exception):
    """Creating a game in a channel whose game is still running (it is never replaced silently)."""

    def __init__(self, channel: str, running: GameRecord) -> None:
        super().__init__(f"{channel}: game {running.id} ({running.kind}) is still running")
        self.channel = channel
        self.running = running


@dataclass(frozen=True)
class StoredEvent:
    """One event of a game's log, in order."""

    game: int
    seq: int
    data: dict[str, Any]
    author: str
    at: float


@dataclass(frozen=True)
class Deadline:
    """An open duplicate round's deadline (absolute Unix time)."""

    game: int
    round: int
    at: float
    channel: str


class StorageOpenError(Exception):
    """A database that cannot be opened: a directory, a foreign, truncated or damaged file, a place
    that cannot be written, a server that cannot be reached. ``path`` is the file (or the server's URL,
    without its password); ``reason`` is one line saying which."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}")
        self.path = path
        self.reason = reason


class OutsideTransactionError(Exception):
    """A channel lock asked for outside any transaction (it would be released at once)."""

    def __init__(self, channel: str) -> None:
        super().__init__(f"lock_channel({channel!r}) outside a transaction")
        self.channel = channel
