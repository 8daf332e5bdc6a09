"""What storage keeps and answers: channel settings, game records, stored events, deadlines, and its
errors."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.edition import EDITIONS
from core.notation import default_notation
from core.rules import box_rules

if TYPE_CHECKING:
    from ..chat import Reply

from ..catalogs import usual_zone

NEW_CHANNEL_LANGUAGE = "fr"  # of a channel that never chose one
NEW_CHANNEL_EDITION = "fr"  # of a channel that never chose one; its file gives the notation and rules


@dataclass(frozen=True)
class ChannelSettings:
    """A channel's settings; defaults are a French channel on the bundled list."""

    channel: str
    language: str = NEW_CHANNEL_LANGUAGE
    edition: str = NEW_CHANNEL_EDITION
    notation: str = default_notation(NEW_CHANNEL_EDITION).value
    rules: str = box_rules(NEW_CHANNEL_EDITION).code
    lexicon: str = NEW_CHANNEL_EDITION  # the edition's bundled list
    minutes: float = 3.0
    timezone: str = ""  # IANA name; "" means the language's usual zone (see ``zone``)

    @property
    def zone(self) -> str:
        """The time zone every time in this channel is shown in (the language's catalog names its usual one)."""
        return self.timezone or usual_zone(self.language)

    def with_changes(self, **changes: Any) -> ChannelSettings:
        return replace(self, **changes)

    def in_language(self, language: str) -> ChannelSettings:
        """A new room's settings for people who speak ``language``: its edition when one ships (with the
        edition's notation, list and rules), the language's usual time zone."""
        settings = replace(self, language=language, timezone="")
        return settings.with_edition(language) if language in EDITIONS else settings

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


class ChannelLock(StrEnum):
    """What trying a channel's lock without waiting gave."""

    BUSY = "busy"  # another transaction holds it: nothing taken
    TAKEN = "taken"  # held until the transaction ends (what it read before may have changed)
    EXCLUSIVE = "exclusive"  # nothing to take: write transactions exclude each other already


class GameKind(StrEnum):
    """What kind of game a record is; the value is what the database stores."""

    CLASSIC = "classic"
    DUPLICATE = "duplicate"
    BOARDLESS = "boardless"  # a score sheet without a board (core.boardless)
    ONLINE = "online"  # a classic game the referee deals (core.online)


class GameStatus(StrEnum):
    """Whether a stored game is still on; the value is what the database stores."""

    ACTIVE = "active"
    ENDED = "ended"
    ABANDONED = "abandoned"


class SeriesStatus(StrEnum):
    """Whether a series still takes games; the value is what the database stores."""

    OPEN = "open"
    ENDED = "ended"


@dataclass(frozen=True)
class SeriesRecord:
    """A series of a channel: a tournament of games with one cumulative ranking."""

    id: int
    channel: str
    name: str
    status: SeriesStatus
    created: float


@dataclass(frozen=True)
class SeriesEntry:
    """One entry of a series, in the order entries were added: a game of the series' channel (``game``), or
    a simultané ranked over every room (``simultane``, its id); the other is None."""

    game: int | None = None
    simultane: int | None = None


@dataclass(frozen=True)
class ViewRecord:
    """A link to a room's live web page: its token, the room and the game it shows, whether revoked; or, with
    ``simultane`` (``game`` 0), the organiser's page of that simultané's overall ranking."""

    token: str
    channel: str
    game: int
    created: float
    revoked: float | None = None
    simultane: int | None = None


UNKNOWN_REFEREE = "?"  # the referee's name shown for a set-up stored without one


class GameSetupError(Exception):
    """A stored set-up whose ``key`` holds a value of the wrong type (a damaged or foreign record)."""

    def __init__(self, key: str, value: object) -> None:
        super().__init__(f"game set-up: {key!r} cannot be {value!r}")
        self.key = key
        self.value = value


def _text(data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise GameSetupError(key, value)
    return value


@dataclass(frozen=True)
class GameSetup:
    """How a game was set up when it started: what it plays with and who referees it.

    Stored as a JSON object in the ``setup`` column. ``from_json`` reads every object earlier versions
    wrote (classic: edition, rules, notation, lexicon, players, referee_name; duplicate: edition, lexicon,
    notation, manual, referee_name). A missing key (or null) takes its default: edition ``fr``; notation
    the edition's usual one; lexicon the edition's bundled list (its code); rules None; players none;
    referee_name ``?``; manual false; simultane none. Unknown keys are ignored (a set-up is never written back, so
    nothing a newer version stored is lost). A value of the wrong type raises GameSetupError.
    """

    edition: str
    notation: str
    lexicon: str
    referee_name: str = UNKNOWN_REFEREE
    rules: str | None = None  # classic games: the rule set's code (None: the edition's box rules)
    players: tuple[str, ...] = ()  # classic games: the seats named at the start, in turn order
    manual: bool = False  # duplicate games: the referee draws each round's tiles
    simultane: str = ""  # duplicate games: the code of the simultané the game plays ("": none)

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored (``rules`` left out when None, as duplicate games always had)."""
        data: dict[str, Any] = {"edition": self.edition}
        if self.rules is not None:
            data["rules"] = self.rules
        data |= {
            "notation": self.notation,
            "lexicon": self.lexicon,
            "players": list(self.players),
            "referee_name": self.referee_name,
            "manual": self.manual,
        }
        if self.simultane:
            data["simultane"] = self.simultane
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        """The set-up a stored JSON object describes (see the class for defaults)."""
        if not isinstance(data, dict):
            raise GameSetupError("setup", data)
        edition = _text(data, "edition", NEW_CHANNEL_EDITION)
        players = data.get("players") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise GameSetupError("players", players)
        manual = data.get("manual") or False
        if not isinstance(manual, bool):
            raise GameSetupError("manual", manual)
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, str):
            raise GameSetupError("rules", rules)
        return cls(
            edition=edition,
            notation=_text(data, "notation", default_notation(edition).value),
            lexicon=_text(data, "lexicon", edition),
            referee_name=_text(data, "referee_name", UNKNOWN_REFEREE),
            rules=rules,
            players=tuple(players),
            manual=manual,
            simultane=_text(data, "simultane", ""),
        )


@dataclass(frozen=True)
class GameRecord:
    """A stored game: where it is played, what kind, its set-up, and whether it is still on."""

    id: int
    channel: str
    kind: GameKind
    referee: str
    status: GameStatus
    setup: GameSetup
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


@dataclass(frozen=True)
class ArrivalsSaid:
    """Who says what it holds (``ClockStore.hold_arrivals``), and as of when: every message this process
    received before ``at`` (absolute Unix time) is in what it says, or answered."""

    owner: str  # the process, as its heartbeat names it (``OutboxStore.outbox_alive``)
    at: float


class StorageOpenError(Exception):
    """A database that cannot be opened: a directory, a foreign, truncated or damaged file, a place
    that cannot be written, a server that cannot be reached. ``path`` is the file (or the server's URL,
    without its password); ``reason`` is one line saying which."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"cannot open the database {path}: {reason}")
        self.path = path
        self.reason = reason


class StorageFullError(Exception):
    """A write refused because the disk holding the database is full: the command's transaction rolled
    back (nothing of it was kept; everything acknowledged before it is still there)."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(
            f"the disk holding the database {path} is full: this command was not kept (nothing acknowledged is lost)"
        )
        self.path = path


class ConnectionLostError(Exception):
    """The database connection broke (the server restarted, or ended the session) before the transaction
    committed: nothing of it was kept, and it may run again as a whole on another connection."""

    def __init__(self, url: str) -> None:
        super().__init__(f"the connection to the database {url} was lost before the commit: nothing was kept")
        self.url = url


def log_failure(logger: logging.Logger, what: str, error: BaseException) -> None:
    """Say that ``what`` failed: in one line when the disk is full (the operator has space to free, and a
    traceback each time would fill the log too), else with its traceback."""
    if isinstance(error, StorageFullError):
        logger.error("%s: %s", what, error)
    else:
        logger.error("%s", what, exc_info=error)


class OutsideTransactionError(Exception):
    """A channel lock asked for outside any transaction (it would be released at once)."""

    def __init__(self, channel: str) -> None:
        super().__init__(f"lock_channel({channel!r}) outside a transaction")
        self.channel = channel


@dataclass(frozen=True)
class PlayState:
    """What a private /play needs from storage, read in one statement: the running duplicate game it goes
    to, the settings of that game's channel, the game's last stored event (sequence number and time, as
    ``last_stamp``), the seat the player's account is bound to (None: none), and whether older messages still wait for
    the player's private destination and for the game's channel."""

    game: GameRecord
    settings: ChannelSettings
    stamp: tuple[int, float]
    seat: str | None
    player_waiting: bool
    channel_waiting: bool


@dataclass(frozen=True)
class PlayWrite:
    """What one private move writes (an item of ``Storage.record_plays``): its events (data, author),
    numbered after ``after`` and each at ``at``, the seat it binds (account, name) if any, and its replies
    due at ``dues``, created at ``created`` and claimed by ``owner`` when due later."""

    game_id: int
    events: list[tuple[dict[str, Any], str]]
    after: int
    at: float
    seat: tuple[str, str] | None
    replies: list[Reply]
    dues: list[float]
    created: float
    owner: str | None = None
