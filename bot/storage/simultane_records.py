"""What storage keeps of the simultanés (one duplicate game played in many rooms): a simultané, a room that
joined it and where its game stands, a round held for the others, and the rooms' admission."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

DONE_POST = "done"  # the post saying a simultané's overall ranking has nothing left to post


class Admission(StrEnum):
    """Where a room stands with the organiser: admitted (it takes part), pending (a window's room waits
    for the organiser's word), refused."""

    ADMITTED = "admitted"
    PENDING = "pending"
    REFUSED = "refused"


@dataclass(frozen=True)
class SimultaneRecord:
    """A simultané as stored: its code, the organiser's room and account, its definition (JSON)."""

    id: int
    code: str
    channel: str
    organiser: str
    definition: dict[str, Any]
    created: float
    entries_closed: float | None = None  # when the entries closed (None: rooms may still join)


@dataclass(frozen=True)
class SimultaneRoom:
    """A room that joined a simultané, and its game once started there (None before)."""

    simultane: int
    channel: str
    game: int | None
    joined: float
    due: float | None = None  # together at a set time: when the clock starts its game (None: not by the clock)
    referee: str = ""  # the account of the admin who joined (the referee of a game the clock starts)
    referee_name: str = ""
    name: str = ""  # the centre's name its admin gave ("": none, the room is shown by its joining order)
    admission: Admission = Admission.ADMITTED
    held: int = 0  # played together: the round whose time is up here and whose close waits (0: none)
    centre: str = ""  # the federation's code of the centre ("": none given)

    @property
    def admitted(self) -> bool:
        return self.admission is Admission.ADMITTED


@dataclass(frozen=True)
class SimultaneRoomProgress:
    """Where a room's game of a simultané stands, as storage knows it: its game (None: not started), the
    game's status, how many rounds it has closed, the round whose close waits (``held``), its admission,
    and the open round's deadline."""

    channel: str
    game: int | None
    status: str | None
    closed: int
    held: int = 0
    admission: Admission = Admission.ADMITTED
    deadline: float | None = None  # the open round's, as the clock keeps it (None: no round, paused, or held)


@dataclass(frozen=True)
class HeldRound:
    """A room of a simultané played together whose round's time is up, its close waiting for the others."""

    simultane: int
    channel: str
    game: int
    round: int
