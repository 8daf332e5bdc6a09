"""The duplicate game (FISF), one module per job:

- ``settings``: ``DuplicateSettings`` (clock, solo, vowel/consonant rule, notation);
- ``events``: the events a game is made of, and their plain-dict form;
- ``tops``: what the game needs from a move generator (``TopFinder``, ``movegen_top_finder``), and the
  close made of its answer (``close_of``);
- ``judging``: which submission of a player counts, lateness, and a submitted move checked against
  the round's board, draw and word list;
- ``rounds``: a round (``Round``) and a checked submission (``SubmissionResult``);
- ``clock``: a round's clock (pause, resume, extension, a reopening's time);
- ``replay``: the events in force after reopenings and chosen tops, and the take-back rules;
- ``ranking``: solos and standings (``DuplicateStanding``, ``standings_of``, ``percent_of``);
- ``sanctions``: the FISF sanction scale (``Sanctions``, ``Grade``, ``Fault`` and its clause);
- ``grading``: an answer graded on that scale (``grade_submission``);
- ``formats``: the formats of section 3.8 (``DuplicateFormat``) and the call of section 3.3;
- ``corrections``: a closed round's answer corrected or its points entered by the referee;
- ``closing``: a round's close (answers judged, topping's times, the top placed, the joker replaced);
- ``record``: the game record (``RecordLine``) and its plain data;
- ``game``: ``DuplicateGame``, rebuilt from its events, and why it ended (``EndReason``).

Every name is importable from ``core.duplicate``.
"""

from __future__ import annotations

from ..adjudication import WordList
from ..formats import EIGHT_BONUS, SEVEN_BONUS
from .clock import MAX_EXTENSION_SECONDS, check_extension, run_clock
from .closing import judge_round, place_top
from .corrections import correct_answer, record_score
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
    SanctionLifted,
    ScoreRecorded,
    SubmissionCorrected,
    TableAssigned,
    TimeCalled,
    TopChosen,
    event_from_dict,
    event_to_dict,
)
from .formats import (
    LONG_CALL_SECONDS,
    SHORT_CALL_SECONDS,
    TOPPING_MINUTES,
    TOPPING_PENALTY_SECONDS,
    DuplicateFormat,
    PlayRules,
    call_seconds,
)
from .game import RUNNERS_UP, DuplicateGame, EndReason
from .grading import grade_submission, reads_on
from .judging import (
    check_draw_letters,
    effective_submissions,
    evaluate_submission,
    late_by,
    place_submission,
    tiles_played,
)
from .ranking import (
    DuplicateStanding,
    percent_of,
    rank_players,
    solo_of,
    standings_of,
    timed_standings,
    warnings_of,
)
from .record import RecordedGame, RecordLine, record_data, record_lines
from .replay import (
    check_take_back,
    draws_before_reopening,
    draws_since_close,
    effective_events,
    last_close_index,
    take_back_block,
)
from .rounds import Round, SubmissionResult, lift_sanction
from .sanctions import (
    PENALTY_POINTS,
    WARNING_THRESHOLD,
    WARNING_THRESHOLD_SHORT,
    Fault,
    Grade,
    Sanctions,
    warning_deduction,
)
from .settings import BLITZ_MINUTES, DEFAULT_SETTINGS, DuplicateSettings, SoloRule
from .tops import TopFinder, TopPlay, TopResultLike, close_of, movegen_top_finder

__all__ = [
    "EIGHT_BONUS",
    "LONG_CALL_SECONDS",
    "SEVEN_BONUS",
    "SHORT_CALL_SECONDS",
    "TOPPING_MINUTES",
    "TOPPING_PENALTY_SECONDS",
    "DuplicateFormat",
    "PlayRules",
    "call_seconds",
    "judge_round",
    "correct_answer",
    "record_score",
    "place_top",
    "timed_standings",
    "DEFAULT_SETTINGS",
    "EVENT_TYPES",
    "MAX_EXTENSION_SECONDS",
    "RUNNERS_UP",
    "ClockExtended",
    "ClockPaused",
    "TimeCalled",
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
    "RecordedGame",
    "Round",
    "RoundClosed",
    "RoundReopened",
    "ScoreRecorded",
    "SubmissionCorrected",
    "TableAssigned",
    "SubmissionResult",
    "TopChosen",
    "TopFinder",
    "TopPlay",
    "TopResultLike",
    "WordList",
    "PENALTY_POINTS",
    "Fault",
    "Grade",
    "Sanctions",
    "SanctionLifted",
    "SoloRule",
    "grade_submission",
    "reads_on",
    "lift_sanction",
    "BLITZ_MINUTES",
    "WARNING_THRESHOLD",
    "WARNING_THRESHOLD_SHORT",
    "warning_deduction",
    "warnings_of",
    "check_draw_letters",
    "check_extension",
    "check_take_back",
    "close_of",
    "draws_before_reopening",
    "draws_since_close",
    "effective_events",
    "effective_submissions",
    "evaluate_submission",
    "event_from_dict",
    "event_to_dict",
    "last_close_index",
    "late_by",
    "movegen_top_finder",
    "percent_of",
    "place_submission",
    "rank_players",
    "record_data",
    "record_lines",
    "run_clock",
    "solo_of",
    "standings_of",
    "take_back_block",
    "tiles_played",
]
