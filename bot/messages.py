"""Messages in the channel's language, from the catalogs (``bot.catalogs``), and the polite explanation
of every error the engine raises, written from its typed fields."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.edition import EDITIONS, fold_accents
from core.errors import (
    ArbitreError,
    BoardSyntaxError,
    DetachedWordError,
    DuplicatePlayerError,
    EditionDataError,
    EmptyThroughSquareError,
    FirstMoveError,
    GameOverError,
    GapError,
    IncompleteWordError,
    LetterMismatchError,
    NoNewTileError,
    NotationError,
    NotConnectedError,
    NotInLineError,
    OccupiedSquareError,
    OutOfBoardError,
    RackSyntaxError,
    RefSyntaxError,
    SyntaxProblem,
    TooManyTilesError,
    UnknownPlayerError,
    WordTooShortError,
)
from core.errors_boardless import (
    SheetNothingToUndoError,
    SheetOverError,
    SheetPlayerError,
    SheetPointsError,
    SheetRackError,
    SheetTurnError,
    SheetTwoWentOutError,
    SheetWordError,
)
from core.errors_classic import (
    AloneNoExchangeError,
    AlreadyChallengedError,
    ExchangeNotAllowedError,
    ExchangeSizeError,
    GameStartedError,
    NoClockError,
    NothingToChallengeError,
    NothingToUndoError,
    OutOfTimeError,
    PenaltyValueError,
    PlayerCountError,
    RackNotUnseenError,
    RackSpecError,
    RackTooLargeError,
    ScorelessEndError,
    SelfChallengeError,
    SettingAfterStartError,
    SettingNameError,
    SettingValueError,
    TooManyPlayersError,
    WordNotInMoveError,
)
from core.errors_duplicate import (
    ClockStateError,
    DrawJokerError,
    DrawPendingError,
    DrawSizeError,
    DuplicateSettingError,
    ExtensionError,
    JokerNotMarkedError,
    KeptLettersError,
    LateSubmissionError,
    LetterNotInBagError,
    LettersNotInDrawError,
    NegativeScoreError,
    NoDrawPossibleError,
    NoJokerLeftError,
    NoRoundOpenError,
    NoSanctionToLiftError,
    NotATiedTopError,
    NothingToReopenError,
    RoundNotClosedError,
    ScoreAboveTopError,
    SubmissionsMadeError,
    TableNumberError,
    TableTakenError,
    TooFewJokersError,
    TopClauseError,
    WordNotInLexiconError,
)
from core.errors_lexicon import AlphabetMismatchError, CorruptLexiconError, InvalidWordError
from core.errors_online import DealError, DealtUndoError, NotDealtError, NotOnRackError, TurnError
from core.errors_records import GcgEventError, GcgSyntaxError

from .catalogs import CATALOGS

UNSEEN_SHOWN = 21  # a refused end-of-game rack lists every unseen tile up to this many, else only its own letters'


def languages() -> tuple[str, ...]:
    """The languages a channel may speak: those with a catalog."""
    return CATALOGS.languages()


def say(lang: str, message_key: str, /, **values: Any) -> str:
    """The message ``message_key`` in ``lang``, filled with ``values``; MissingMessageError if that
    language's catalog lacks it (never another language's text)."""
    return CATALOGS.catalog(lang).say(message_key, values)


def join_notes(lang: str, notes: Iterable[str]) -> str:
    """Notes on one line, separated as ``lang`` writes a semicolon (French: ``a ; b``); empty ones left out."""
    joined = ""
    for note in notes:
        if note:
            joined = say(lang, "notes_joined", before=joined, after=note) if joined else note
    return joined


def say_counts(lang: str, message_key: str, /, counted: Iterable[str], **values: Any) -> str:
    """The message ``message_key`` with each count named in ``counted`` that ``values`` gives also said in
    words with its plural, as ``<count>_text``: from the plural message ``count_<count>``, which counts by the
    placeholder ``<count>`` (``games=1`` gives ``games_text`` "1 partie", ``games=2`` "2 parties"; 0 and 1
    as the language says them). ``bot.simultanes.names.say_counted`` is this with a simultané's counts."""
    for count in counted:
        if count in values:
            values[f"{count}_text"] = say(lang, f"count_{count}", **{count: values[count]})
    return say(lang, message_key, **values)


def keyword_form(word: str) -> str:
    """A typed word as keywords compare: accents folded, lowercase."""
    return fold_accents(word.strip()).lower()


def keywords(message_key: str, *, as_written: bool = False) -> frozenset[str]:
    """The words a command accepts for one meaning: those the message ``message_key`` lists (separated by
    spaces) in every catalog that has it, as ``keyword_form`` gives them (``as_written``: as the catalog
    writes them, for a command where another case means something else)."""
    words: set[str] = set()
    for lang in languages():
        catalog = CATALOGS.catalog(lang)
        if message_key in catalog:
            listed = catalog.say(message_key, {}).split()
            words.update(listed if as_written else (keyword_form(word) for word in listed))
    return frozenset(words)


def number(lang: str, value: float) -> str:
    """A number as short as it goes (``3``, ``0.05``), with the language's decimal mark: ``0,05``."""
    return f"{value:g}".replace(".", say(lang, "decimal_mark"))


def decimal(lang: str, value: float) -> str:
    """A number to one decimal, with the language's decimal mark: ``92,3`` / ``92.3``."""
    return f"{value:.1f}".replace(".", say(lang, "decimal_mark"))


def mid_sentence(text: str) -> str:
    """A sentence to be set after « : » or « — » in another: its first word lowercased unless it is a name
    written in capitals (``Le premier coup…`` -> ``le premier coup…``; ``VAGUE…``, ``H8…`` unchanged)."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and any(char.islower() for char in first[1:]):
        return text[0].lower() + text[1:]
    return text


def command_name(lang: str, name: str) -> str:
    """The name of the command ``name`` (its English name) in ``lang``, without the slash."""
    return say(lang, f"name_{name}")


def language_name(code: str) -> str:
    """A language as a choice shows it: by the name its own catalog gives it (``Français``), the same to every
    reader; its code when no catalog names it."""
    return say(code, "language_name") if code in languages() and "language_name" in CATALOGS.catalog(code) else code


def edition_name(code: str) -> str:
    """An edition as a choice shows it: by its name (``Français (FISF)``); its code when it is not known."""
    return EDITIONS[code].name if code in EDITIONS else code


def example_move(notation: str) -> str:
    return "H8 VAGUE" if notation == "fisf" else "8H VAGUE"


def _listed(value: object) -> object:
    return ", ".join(str(item) for item in value) if isinstance(value, tuple) else value


def _fields(error: ArbitreError) -> dict[str, Any]:
    """The error's typed fields, tuples joined with commas."""
    return {name: _listed(value) for name, value in vars(error).items()}


def _syntax(lang: str, error: NotationError, notation: str) -> str:
    example = example_move(notation)
    if isinstance(error, RefSyntaxError):
        ref = example.split()[0]
        return say(lang, "err_ref", text=error.text, example=f"{ref} / {ref[::-1]}")
    if error.problem is SyntaxProblem.MOVE_FORM:
        return say(lang, "err_move_syntax", text=error.text, example=example)
    reason = say(lang, f"syntax_{error.problem}", detail=error.detail)
    if isinstance(error, RackSyntaxError):
        return say(lang, "err_draw_syntax", text=error.text, reason=reason)
    if isinstance(error, BoardSyntaxError):
        return say(lang, "err_board_syntax", text=error.text, reason=reason)
    return say(lang, "err_word", text=error.text, reason=reason, example=example)


def _setting(lang: str, error: DuplicateSettingError) -> str:
    values = {"name": error.name, "value": error.value, "low": number(lang, error.low)}
    if error.high is not None:
        return say(lang, "err_dup_setting_range", high=number(lang, error.high), **values)
    return say(lang, "err_dup_setting_at_least", **values)


# Errors explained by one message filled with their fields (the first class that matches wins).
_BY_FIELDS: list[tuple[type[ArbitreError], str]] = [
    (SheetPointsError, "sheet_err_points"),  # the sheet without a board (core.boardless)
    (SheetWordError, "sheet_err_word"),
    (SheetTurnError, "not_their_turn"),
    (SheetOverError, "game_over_hint"),
    (SheetNothingToUndoError, "err_nothing_to_undo"),
    (SheetRackError, "sheet_err_rack"),
    (SheetTwoWentOutError, "sheet_err_two_out"),
    (SheetPlayerError, "sheet_err_racks_player"),
    (NotOnRackError, "online_not_on_rack_public"),  # the game the referee deals (core.online): no rack shown
    (TurnError, "online_not_your_turn"),
    (NotDealtError, "online_no_game"),
    (DealtUndoError, "online_no_undo"),
    (DealError, "online_err_deal"),
    (OutOfBoardError, "err_out_of_board"),
    (LetterMismatchError, "err_mismatch"),
    (EmptyThroughSquareError, "err_empty_through"),
    (NoNewTileError, "err_no_new_tile"),
    (DetachedWordError, "err_detached_word"),
    (TooManyTilesError, "err_too_many"),
    (NotInLineError, "err_not_in_line"),
    (GapError, "err_gap"),
    (OccupiedSquareError, "err_occupied"),
    (IncompleteWordError, "err_incomplete"),
    (WordTooShortError, "err_too_short"),
    (FirstMoveError, "err_first_move"),
    (NotConnectedError, "err_not_connected"),
    (GameOverError, "err_game_over"),
    (UnknownPlayerError, "err_unknown_player"),
    (TooManyPlayersError, "err_too_many_players"),
    (PlayerCountError, "err_player_count"),
    (DuplicatePlayerError, "err_duplicate_player"),
    (GameStartedError, "err_started"),
    (NothingToChallengeError, "err_nothing_to_challenge"),
    (WordNotInMoveError, "err_word_not_in_move"),
    (NothingToUndoError, "err_nothing_to_undo"),
    (ExchangeNotAllowedError, "err_exchange_bag"),
    (ExchangeSizeError, "err_exchange_size"),
    (RackSpecError, "err_rack"),
    (SelfChallengeError, "err_self_challenge"),
    (AlreadyChallengedError, "err_already_challenged"),
    (PenaltyValueError, "err_penalty_value"),
    (RackNotUnseenError, "err_rack_not_unseen"),
    (RackTooLargeError, "err_rack_too_large"),
    (SettingNameError, "err_setting_name"),
    (SettingValueError, "err_setting_value"),
    (SettingAfterStartError, "err_setting_started"),
    (NoClockError, "err_no_clock"),
    (OutOfTimeError, "err_out_of_time"),
    (AloneNoExchangeError, "err_alone_no_exchange"),
    (ScorelessEndError, "err_scoreless_end"),
    (EditionDataError, "err_edition_data"),
    (InvalidWordError, "err_invalid_word"),
    (AlphabetMismatchError, "err_alphabet_mismatch"),
    (CorruptLexiconError, "err_corrupt_lexicon"),
    (LetterNotInBagError, "err_not_in_bag"),
    (KeptLettersError, "err_kept"),
    (DrawSizeError, "err_draw_size"),
    (DrawJokerError, "err_draw_joker"),
    (NoDrawPossibleError, "err_no_draw_possible"),
    (DrawPendingError, "err_draw_pending"),
    (NoRoundOpenError, "dup_no_round"),
    (SubmissionsMadeError, "err_submissions_made"),
    (RoundNotClosedError, "err_round_not_closed"),
    (ScoreAboveTopError, "err_score_above_top"),
    (NoSanctionToLiftError, "err_no_sanction"),
    (NegativeScoreError, "err_negative_score"),
    (NotATiedTopError, "err_not_tied_top"),
    (TopClauseError, "err_top_clause"),
    (TableNumberError, "err_table_number"),
    (TableTakenError, "err_table_taken"),
    (ExtensionError, "err_extension"),
    (GcgSyntaxError, "err_gcg_syntax"),
    (GcgEventError, "err_gcg_event"),
]


def _game_setting_word(lang: str, name: str) -> str:
    """A game setting's name as ``lang`` types it (``clock`` is ``pendule`` in French); else the name."""
    key = f"game_setting_words_{name}"
    return say(lang, key).split()[0] if key in CATALOGS.catalog(lang) else name


def explain(error: ArbitreError, lang: str, notation: str = "fisf") -> str:
    """A polite explanation of an engine error in the channel's language, from its typed fields only."""
    if isinstance(error, NotationError):
        return _syntax(lang, error, notation)
    if isinstance(error, DuplicateSettingError):
        return _setting(lang, error)
    if isinstance(error, SettingAfterStartError | SettingValueError):  # the setting named as the room types it
        return say(
            lang, dict(_BY_FIELDS)[type(error)], **{**_fields(error), "name": _game_setting_word(lang, error.name)}
        )
    if isinstance(error, ClockStateError):
        state = say(lang, "clock_paused" if error.paused else "clock_running")
        return say(lang, "err_clock_state", action=command_name(lang, str(error.action)), state=state)
    if isinstance(error, NothingToReopenError):
        reason = say(lang, f"reopen_{error.reason}")
        return say(lang, "err_no_reopen", round_number=error.round_number, reason=reason)
    if isinstance(error, LettersNotInDrawError):  # letters one by one: "O, O"
        values = {**_fields(error), "letters": _listed(tuple(error.letters))}
        if isinstance(error, JokerNotMarkedError):
            first = error.letters[:1]
            return say(lang, "err_joker_not_marked", lower=first.lower(), upper=first, **values)
        if isinstance(error, TooFewJokersError):
            return say(lang, "err_too_few_jokers", **values)
        key = "err_no_joker_left" if isinstance(error, NoJokerLeftError) else "err_letters_not_in_draw"
        return say(lang, key, **values)
    if isinstance(error, KeptLettersError) and not error.reliquat:
        return say(lang, "err_kept_none", draw=error.draw)
    if isinstance(error, RackNotUnseenError) and not error.unseen:
        return say(lang, "err_rack_none_unseen", player=error.player, letters=error.letters)
    if isinstance(error, RackNotUnseenError) and len(error.unseen) > UNSEEN_SHOWN:  # not 90 letters
        left = error.left or say(lang, "rack_left_none")
        return say(lang, "err_rack_not_unseen_left", player=error.player, letters=error.asked, left=left)
    if isinstance(error, WordNotInLexiconError):
        return say(lang, "err_word_not_in_lexicon", move=error.move, words=_listed(error.words), count=len(error.words))
    if isinstance(error, LateSubmissionError):
        return say(
            lang, "err_late_submission", player=error.player, move=error.move, seconds=f"{error.seconds_late:.1f}"
        )
    for cls, key in _BY_FIELDS:
        if isinstance(error, cls):
            return say(lang, key, **_fields(error))
    return say(lang, "err_refused")


def language_of_locale(code: str) -> str | None:
    """The catalog language of a platform's locale code (``fr``, ``en-US``, ``pt_BR``), if there is one."""
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in languages() else None
