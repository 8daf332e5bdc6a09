"""The replay of a duplicate game's event log: which events are in force once reopenings and chosen
tops have taken closes back, and whether the last close can still be taken back."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from ..errors_duplicate import NotATiedTopError, NothingToReopenError, TakeBackBlock
from ..notation import Notation
from ..tie import TieRule
from .clock import check_extension
from .events import (
    ClockExtended,
    ClockPaused,
    ClockResumed,
    DrawMade,
    DrawRejected,
    DuplicateEvent,
    MoveSubmitted,
    RoundClosed,
    RoundReopened,
    SanctionLifted,
    ScoreRecorded,
    SubmissionCorrected,
    TimeCalled,
    TopChosen,
)
from .rounds import Round

# Events after a round's close that taking the close back (reopen, another top) also takes back.
_UNDONE_WITH_CLOSE = (DrawMade, DrawRejected, ClockPaused, ClockResumed, ClockExtended, TimeCalled)
# Events after a close that forbid taking it back (someone played the next draw, or a correction).
_KEEPS_CLOSE = (MoveSubmitted, ScoreRecorded, SubmissionCorrected, SanctionLifted)


def last_close_index(events: Sequence[DuplicateEvent]) -> int | None:
    """The index of the last ``RoundClosed`` among the events, None without one."""
    return next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], RoundClosed)), None)


def effective_events(events: Iterable[DuplicateEvent]) -> list[DuplicateEvent]:
    """The events that make the state: a reopening removes the last close and the draws after it;
    a chosen top replaces the last close's top and removes the draws after it."""
    effective: list[DuplicateEvent] = []
    for event in events:
        if not isinstance(event, (RoundReopened, TopChosen)):
            effective.append(event)
            continue
        index = last_close_index(effective)
        if index is None:
            continue
        close = effective[index]
        assert isinstance(close, RoundClosed)
        tail = [e for e in effective[index + 1 :] if not isinstance(e, _UNDONE_WITH_CLOSE)]
        if isinstance(event, RoundReopened):
            effective = [*effective[:index], *tail, event]
        else:
            others = tuple(m for m in (close.top or "", *close.tied) if m and m != event.move)
            chosen = dataclasses.replace(close, top=event.move, tied=others, tie_rule=TieRule.ARBITER)
            effective = [*effective[:index], chosen, *tail]
    return effective


def take_back_block(effective: Sequence[DuplicateEvent]) -> TakeBackBlock | None:
    """Why the last close of the events in force cannot be taken back (None when it can)."""
    index = last_close_index(effective)
    if index is None:
        return TakeBackBlock.NO_ROUND_CLOSED
    for event in effective[index + 1 :]:
        if isinstance(event, _KEEPS_CLOSE):
            played = isinstance(event, MoveSubmitted)
            return TakeBackBlock.NEXT_DRAW_PLAYED if played else TakeBackBlock.CORRECTED_SINCE
    return None


def check_take_back(event: RoundReopened | TopChosen, effective: Sequence[DuplicateEvent], last: Round | None) -> None:
    """Raise unless the event may take back ``last``, the last closed round: the close is not kept,
    a reopening gives an allowed time, a chosen top is one of that round's tied tops."""
    number = last.number if last is not None else 0
    why = take_back_block(effective)
    if why is not None:
        raise NothingToReopenError(number, why)
    assert last is not None
    if isinstance(event, RoundReopened):
        check_extension(event.seconds)
        return
    placed = last.top.notation(Notation.FISF) if last.top is not None else ""
    choices = (placed, *last.tied)
    if event.round != number or event.move not in choices:
        raise NotATiedTopError(event.move, choices)


def draws_since_close(effective: Sequence[DuplicateEvent]) -> list[DuplicateEvent]:
    """The draws (and rejected draws) in force made since the last close, in order."""
    index = last_close_index(effective)
    if index is None:
        return []
    return [e for e in effective[index + 1 :] if isinstance(e, (DrawMade, DrawRejected))]


def draws_before_reopening(
    events: Sequence[DuplicateEvent], effective: Sequence[DuplicateEvent]
) -> list[DuplicateEvent]:
    """The draws (and rejected draws) shown before the last reopening that it sent back to the bag,
    once the reopened round has closed again and while no draw has been made since."""
    close = last_close_index(effective)
    reopened = next((i for i in range(len(effective) - 1, -1, -1) if isinstance(effective[i], RoundReopened)), None)
    if close is None or reopened is None or reopened > close:
        return []
    if any(isinstance(e, (DrawMade, DrawRejected)) for e in effective[close + 1 :]):
        return []
    at = max(i for i, e in enumerate(events) if isinstance(e, RoundReopened))
    return draws_since_close(effective_events(events[:at]))
