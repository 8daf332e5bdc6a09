"""The events of a duplicate game, as values that serialise to plain dicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..events import record_from_dict, record_to_dict
from ..tie import TieRule
from .settings import DuplicateSettings

# --- events -------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateStarted:
    """The game starts: edition code, players, settings, and the name of the word list used."""

    kind: ClassVar[str] = "start"
    edition: str = "fr"
    players: tuple[str, ...] = ()
    settings: DuplicateSettings = DuplicateSettings()
    lexicon: str = ""

    def __str__(self) -> str:
        return f"duplicate ({self.edition}) {', '.join(self.players)}".rstrip()


@dataclass(frozen=True)
class PlayerJoined:
    """A player joins; the rounds already closed count 0 for them."""

    kind: ClassVar[str] = "join"
    player: str

    def __str__(self) -> str:
        return f"{self.player} joins"


@dataclass(frozen=True)
class DrawMade:
    """The draw of the next move, ``KEPT+NEW`` or all its letters; ``at`` starts the clock (seconds)."""

    kind: ClassVar[str] = "draw"
    draw: str
    at: float | None = None

    def __str__(self) -> str:
        return f"draw {self.draw}"


@dataclass(frozen=True)
class DrawRejected:
    """The current draw goes back to the bag, kept letters included."""

    kind: ClassVar[str] = "reject"

    def __str__(self) -> str:
        return "draw rejected"


@dataclass(frozen=True)
class MoveSubmitted:
    """A player's move as typed; ``notation`` None means the game's; ``at`` in seconds like ``DrawMade.at``."""

    kind: ClassVar[str] = "submit"
    player: str
    move: str
    claimed: int | None = None
    at: float | None = None
    notation: str | None = None

    def __str__(self) -> str:
        return f"{self.player}: {self.move}"


@dataclass(frozen=True)
class RoundClosed:
    """The round ends: the top placed (FISF notation, None when no play exists), how a tie was
    broken and the other tied plays (the first ones), the words of submitted moves the word list
    rejected, the best plays under the top (FISF notation, score), and how many plays score the top
    (0 in games stored before it was kept: the top and ``tied``)."""

    kind: ClassVar[str] = "close"
    top: str | None
    tie_rule: TieRule = TieRule.NONE
    tied: tuple[str, ...] = ()
    invalid_words: tuple[str, ...] = ()
    runners_up: tuple[tuple[str, int], ...] = ()
    top_count: int = 0

    def __str__(self) -> str:
        return f"top {self.top}" if self.top else "no play possible"


@dataclass(frozen=True)
class ScoreRecorded:
    """The referee enters a player's score for a closed round (physical clubs, corrections)."""

    kind: ClassVar[str] = "score"
    player: str
    round: int
    score: int
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.player}: {self.score} on move {self.round}"


@dataclass(frozen=True)
class SubmissionCorrected:
    """The referee replaces a player's answer for a closed round (a misread slip), with the reason;
    ``invalid_words`` are the words of ``move`` the word list rejected."""

    kind: ClassVar[str] = "correct"
    player: str
    round: int
    move: str
    reason: str = ""
    invalid_words: tuple[str, ...] = ()
    claimed: int | None = None  # the score the player claimed (an answer received in time, stored late)

    def __str__(self) -> str:
        return f"{self.player}: {self.move} on move {self.round} (corrected)"


@dataclass(frozen=True)
class SanctionLifted:
    """The referee lifts the warning or penalty a player's answer got on a closed round, with the reason."""

    kind: ClassVar[str] = "lift"
    player: str
    round: int
    reason: str

    def __str__(self) -> str:
        return f"{self.player}: sanction on move {self.round} lifted ({self.reason})"


@dataclass(frozen=True)
class ClockPaused:
    """The open round's clock stops at ``at``; the time left is kept."""

    kind: ClassVar[str] = "pause"
    at: float

    def __str__(self) -> str:
        return "clock paused"


@dataclass(frozen=True)
class ClockResumed:
    """The paused clock starts again at ``at`` with the time that was left."""

    kind: ClassVar[str] = "resume"
    at: float

    def __str__(self) -> str:
        return "clock resumed"


@dataclass(frozen=True)
class ClockExtended:
    """The open round gets ``seconds`` more."""

    kind: ClassVar[str] = "extend"
    seconds: float

    def __str__(self) -> str:
        return f"clock extended by {self.seconds:g} s"


@dataclass(frozen=True)
class TimeCalled:
    """The open round's time ends at ``at`` (its deadline, when later, or its paused clock): answers sent
    after it are late. A simultané's room whose players have all answered calls time before the deadline,
    then waits for the other rooms before closing."""

    kind: ClassVar[str] = "time"
    at: float

    def __str__(self) -> str:
        return "time called"


@dataclass(frozen=True)
class RoundReopened:
    """The last closed round opens again until ``at + seconds``; the draw made after it (nobody played
    it) goes back to the bag."""

    kind: ClassVar[str] = "reopen"
    at: float
    seconds: float

    def __str__(self) -> str:
        return "round reopened"


@dataclass(frozen=True)
class TopChosen:
    """The arbiter places another of the plays tied for the top of the last closed round (FISF
    notation); the draw made after it (nobody played it) goes back to the bag."""

    kind: ClassVar[str] = "choose_top"
    round: int
    move: str

    def __str__(self) -> str:
        return f"top of move {self.round}: {self.move}"


@dataclass(frozen=True)
class TableAssigned:
    """The arbiter gives a player a table number (the federation's results file lists players by table)."""

    kind: ClassVar[str] = "table"
    player: str
    table: int

    def __str__(self) -> str:
        return f"{self.player}: table {self.table}"


DuplicateEvent = (
    DuplicateStarted
    | PlayerJoined
    | DrawMade
    | DrawRejected
    | MoveSubmitted
    | RoundClosed
    | ScoreRecorded
    | SubmissionCorrected
    | SanctionLifted
    | ClockPaused
    | ClockResumed
    | ClockExtended
    | TimeCalled
    | RoundReopened
    | TopChosen
    | TableAssigned
)

EVENT_TYPES: Mapping[str, type[DuplicateEvent]] = {
    cls.kind: cls
    for cls in (
        DuplicateStarted,
        PlayerJoined,
        DrawMade,
        DrawRejected,
        MoveSubmitted,
        RoundClosed,
        ScoreRecorded,
        SubmissionCorrected,
        SanctionLifted,
        ClockPaused,
        ClockResumed,
        ClockExtended,
        TimeCalled,
        RoundReopened,
        TopChosen,
        TableAssigned,
    )
}


def event_to_dict(event: DuplicateEvent) -> dict[str, Any]:
    """A plain dict with a ``kind`` key, ready for JSON."""
    return record_to_dict(event)


def event_from_dict(data: Mapping[str, Any]) -> DuplicateEvent:
    """The event a dict from ``event_to_dict`` describes."""
    return record_from_dict(
        EVENT_TYPES[data["kind"]], data, {"settings": DuplicateSettings.from_dict, "tie_rule": TieRule.read}
    )
