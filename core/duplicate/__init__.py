"""The duplicate game (FISF), one module per job:

- ``settings``: ``DuplicateSettings`` (clock, solo, vowel/consonant rule, notation);
- ``events``: the events a game is made of, and their plain-dict form;
- ``tops``: what the game needs from a move generator (``TopFinder``, ``movegen_top_finder``);
- ``judging``: a submitted move checked against the round's board, draw and word list;
- ``rounds``: a round (``Round``) and a checked submission (``SubmissionResult``);
- ``ranking``: standings (``DuplicateStanding``, ``rank_players``, ``percent_of``);
- ``record``: the game record (``RecordLine``) and its plain data;
- ``game``: ``DuplicateGame``, rebuilt from its events, and why it ended (``EndReason``).

Every name is importable from ``core.duplicate``.
"""

from __future__ import annotations

from ..adjudication import WordList
from .clock import MAX_EXTENSION_SECONDS
from .events import (
    EVENT_TYPES,
    ClockExtended,
    ClockPaused,
    ClockResumed,
    DrawMade,
    DrawRejected,
    DuplicateEvent,
    DuplicateStarted,
    MoveSubmitted,
    PlayerJoined,
    RoundClosed,
    RoundReopened,
    ScoreRecorded,
    SubmissionCorrected,
    TopChosen,
    event_from_dict,
    event_to_dict,
)
from .game import RUNNERS_UP, DuplicateGame, EndReason
from .judging import check_draw_letters, evaluate_submission, place_submission, tiles_played
from .ranking import DuplicateStanding, percent_of, rank_players
from .record import RecordLine, record_data, record_lines
from .rounds import Round, SubmissionResult
from .settings import DEFAULT_SETTINGS, DuplicateSettings
from .tops import TopFinder, TopPlay, TopResultLike, movegen_top_finder

__all__ = [
    "DEFAULT_SETTINGS",
    "EVENT_TYPES",
    "MAX_EXTENSION_SECONDS",
    "RUNNERS_UP",
    "ClockExtended",
    "ClockPaused",
    "ClockResumed",
    "DrawMade",
    "DrawRejected",
    "DuplicateEvent",
    "DuplicateGame",
    "DuplicateSettings",
    "DuplicateStanding",
    "DuplicateStarted",
    "EndReason",
    "MoveSubmitted",
    "PlayerJoined",
    "RecordLine",
    "Round",
    "RoundClosed",
    "RoundReopened",
    "ScoreRecorded",
    "SubmissionCorrected",
    "SubmissionResult",
    "TopChosen",
    "TopFinder",
    "TopPlay",
    "TopResultLike",
    "WordList",
    "check_draw_letters",
    "evaluate_submission",
    "place_submission",
    "event_from_dict",
    "event_to_dict",
    "movegen_top_finder",
    "percent_of",
    "rank_players",
    "record_data",
    "record_lines",
    "tiles_played",
]
