"""What GCG reading and writing share: players, event lines as read, Arbitre's notes, the tile pattern."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .events import Event
from .notation import Move

TURN_TYPES = frozenset({"play", "pass", "exchange", "withdrawn"})

LOST_TURN_NOTE = "arbitre: turn lost (challenge)"
UNKNOWN_EXCHANGE_NOTE = "arbitre: exchange of unknown tiles"
CHALLENGED_NOTE = "arbitre: challenged by {nick}, invalid {words}"
CHALLENGED_NOTE_RE = re.compile(r"^arbitre: challenged by (\S+), invalid (.+)$")
# a chess clock run out under FISF rules: that player plays no more, the other plays on alone (several turns
# in a row), what a GCG line cannot say
FLAGGED_NOTE = "arbitre: {nick} out of time, the other plays on alone (FISF)"
FLAGGED_NOTE_RE = re.compile(r"^arbitre: (\S+) out of time, the other plays on alone \(FISF\)$")

# the tiles of a plain (ASCII) alphabet as GCG writes them, ``?`` for blanks
TILES = re.compile(r"^[A-Za-z?]+$")


@dataclass(frozen=True)
class GcgPlayer:
    """A player of a record: the nick used on event lines and the full name."""

    nick: str
    name: str

    def __str__(self) -> str:
        return self.nick if self.name == self.nick else f"{self.nick} ({self.name})"


@dataclass
class GcgEntry:
    """One event line of a record, with what the file says and what the engine computed.

    ``status``: ``ok`` or ``mismatch`` once replayed, ``rejected`` for the line that
    stopped the replay, ``skipped`` for the lines after it. ``synthetic`` entries stand
    for end-of-game adjustments the engine made that no line of the file records.
    """

    line: int
    text: str
    player: str  # the nick
    type: str  # play, pass, exchange, withdrawn, challenge_bonus, end_rack, penalty or time_penalty
    label: str  # the event as written, without the rack: "8D ZAX", "-", "-QO", "(OPEG)"...
    rack: str = ""
    recorded: int | None = None
    recorded_cumulative: int | None = None
    move: str | None = None  # plays: position and word as in the file
    tiles: str = ""  # exchanged tiles, or the letters in brackets of an end-of-game line
    notes: list[str] = field(default_factory=list)
    event: Event | None = None
    computed: int | None = None
    cumulative: int | None = None  # the player's recomputed total after this line
    status: str = "pending"
    synthetic: bool = False
    parsed_move: Move | None = field(default=None, repr=False)
    keyword: str = ""  # (challenge), (time) or (penalty)
    gains: bool = False  # end-of-game line written with a + (the player who went out)

    @property
    def mismatch(self) -> bool:
        """Whether the engine disagrees with the file on this line (or refused it)."""
        return self.status in ("mismatch", "rejected")
