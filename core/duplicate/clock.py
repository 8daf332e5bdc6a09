"""A round's clock: pausing, resuming and extending it, calling time, and the time a reopening gives."""

from __future__ import annotations

from ..errors_duplicate import ClockAction, ClockStateError, ExtensionError
from .events import ClockExtended, ClockPaused, ClockResumed, RoundReopened, TimeCalled
from .rounds import Round

MAX_EXTENSION_SECONDS = 600


def check_extension(seconds: float) -> None:
    """Raise unless ``seconds`` is more time a round may be given (an extension or a reopening)."""
    if not 0 < seconds <= MAX_EXTENSION_SECONDS:
        raise ExtensionError(seconds, MAX_EXTENSION_SECONDS)


ClockEvent = ClockPaused | ClockResumed | ClockExtended | TimeCalled | RoundReopened


def run_clock(round_: Round, event: ClockEvent) -> None:
    """Apply a clock event to the open round, or raise when its clock is not in the state it needs."""
    if isinstance(event, TimeCalled):
        if round_.deadline is None and round_.paused_left is None:
            raise ClockStateError(ClockAction.CALL, False)
        round_.deadline = event.at if round_.deadline is None else min(round_.deadline, event.at)
        round_.paused_left = None
    elif isinstance(event, RoundReopened):
        round_.deadline = event.at + event.seconds
        round_.paused_left = None
    elif isinstance(event, ClockExtended):
        check_extension(event.seconds)
        if round_.paused_left is not None:
            round_.paused_left += event.seconds
        elif round_.deadline is not None:
            round_.deadline += event.seconds
        else:
            raise ClockStateError(ClockAction.EXTEND, False)
    elif isinstance(event, ClockPaused):
        if round_.paused_left is not None or round_.deadline is None:
            raise ClockStateError(ClockAction.PAUSE, round_.paused_left is not None)
        round_.paused_left = max(0.0, round_.deadline - event.at)
        round_.deadline = None
    else:
        if round_.paused_left is None:
            raise ClockStateError(ClockAction.RESUME, False)
        round_.deadline = event.at + round_.paused_left
        round_.paused_left = None
