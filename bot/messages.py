"""Messages in the channel's language, from the catalogs (``bot.catalogs``), and the polite explanation
of every error the engine raises, written from its typed fields."""

from __future__ import annotations

from typing import Any

from core import errors as E

from .catalogs import CATALOGS

UNSEEN_SHOWN = 21  # a refused end-of-game rack lists every unseen tile up to this many, else only its own letters'


def languages() -> tuple[str, ...]:
    """The languages a channel may speak: those with a catalog."""
    return CATALOGS.languages()


def say(lang: str, message_key: str, /, **values: Any) -> str:
    """The message ``message_key`` in ``lang``, filled with ``values``; MissingMessageError if that
    language's catalog lacks it (never another language's text)."""
    return CATALOGS.catalog(lang).say(message_key, values)


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


def example_move(notation: str) -> str:
    return "H8 VAGUE" if notation == "fisf" else "8H VAGUE"


def _listed(value: object) -> object:
    return ", ".join(str(item) for item in value) if isinstance(value, tuple) else value


def _fields(error: E.ArbitreError) -> dict[str, Any]:
    """The error's typed fields, tuples joined with commas."""
    return {name: _listed(value) for name, value in vars(error).items()}


def _syntax(lang: str, error: E.NotationError, notation: str) -> str:
    example = example_move(notation)
    if isinstance(error, E.RefSyntaxError):
        ref = example.split()[0]
        return say(lang, "err_ref", text=error.text, example=f"{ref} / {ref[::-1]}")
    if error.problem is E.SyntaxProblem.MOVE_FORM:
        return say(lang, "err_move_syntax", text=error.text, example=example)
    reason = say(lang, f"syntax_{error.problem}", detail=error.detail)
    if isinstance(error, E.RackSyntaxError):
        return say(lang, "err_draw_syntax", text=error.text, reason=reason)
    return say(lang, "err_word", text=error.text, reason=reason, example=example)


def _setting(lang: str, error: E.DuplicateSettingError) -> str:
    values = {"name": error.name, "value": error.value, "low": number(lang, error.low)}
    if error.high is not None:
        return say(lang, "err_dup_setting_range", high=number(lang, error.high), **values)
    return say(lang, "err_dup_setting_at_least", **values)


# Errors explained by one message filled with their fields (the first class that matches wins).
_BY_FIELDS: list[tuple[type[E.ArbitreError], str]] = [
    (E.OutOfBoardError, "err_out_of_board"),
    (E.LetterMismatchError, "err_mismatch"),
    (E.EmptyThroughSquareError, "err_empty_through"),
    (E.NoNewTileError, "err_no_new_tile"),
    (E.TooManyTilesError, "err_too_many"),
    (E.NotInLineError, "err_not_in_line"),
    (E.GapError, "err_gap"),
    (E.OccupiedSquareError, "err_occupied"),
    (E.IncompleteWordError, "err_incomplete"),
    (E.WordTooShortError, "err_too_short"),
    (E.FirstMoveError, "err_first_move"),
    (E.NotConnectedError, "err_not_connected"),
    (E.GameOverError, "err_game_over"),
    (E.UnknownPlayerError, "err_unknown_player"),
    (E.TooManyPlayersError, "err_too_many_players"),
    (E.PlayerCountError, "err_player_count"),
    (E.DuplicatePlayerError, "err_duplicate_player"),
    (E.GameStartedError, "err_started"),
    (E.NothingToChallengeError, "err_nothing_to_challenge"),
    (E.WordNotInMoveError, "err_word_not_in_move"),
    (E.NothingToUndoError, "err_nothing_to_undo"),
    (E.ExchangeNotAllowedError, "err_exchange_bag"),
    (E.ExchangeSizeError, "err_exchange_size"),
    (E.RackSpecError, "err_rack"),
    (E.SelfChallengeError, "err_self_challenge"),
    (E.AlreadyChallengedError, "err_already_challenged"),
    (E.PenaltyValueError, "err_penalty_value"),
    (E.RackNotUnseenError, "err_rack_not_unseen"),
    (E.RackTooLargeError, "err_rack_too_large"),
    (E.EditionDataError, "err_edition_data"),
    (E.InvalidWordError, "err_invalid_word"),
    (E.AlphabetMismatchError, "err_alphabet_mismatch"),
    (E.CorruptLexiconError, "err_corrupt_lexicon"),
    (E.LetterNotInBagError, "err_not_in_bag"),
    (E.KeptLettersError, "err_kept"),
    (E.DrawSizeError, "err_draw_size"),
    (E.NoDrawPossibleError, "err_no_draw_possible"),
    (E.DrawPendingError, "err_draw_pending"),
    (E.NoRoundOpenError, "dup_no_round"),
    (E.SubmissionsMadeError, "err_submissions_made"),
    (E.RoundNotClosedError, "err_round_not_closed"),
    (E.ScoreAboveTopError, "err_score_above_top"),
    (E.NegativeScoreError, "err_negative_score"),
    (E.NotATiedTopError, "err_not_tied_top"),
    (E.ExtensionError, "err_extension"),
    (E.GcgSyntaxError, "err_gcg_syntax"),
    (E.GcgEventError, "err_gcg_event"),
]


def explain(error: E.ArbitreError, lang: str, notation: str = "fisf") -> str:
    """A polite explanation of an engine error in the channel's language, from its typed fields only."""
    if isinstance(error, E.NotationError):
        return _syntax(lang, error, notation)
    if isinstance(error, E.DuplicateSettingError):
        return _setting(lang, error)
    if isinstance(error, E.ClockStateError):
        state = say(lang, "clock_paused" if error.paused else "clock_running")
        return say(lang, "err_clock_state", action=command_name(lang, str(error.action)), state=state)
    if isinstance(error, E.NothingToReopenError):
        reason = say(lang, f"reopen_{error.reason}")
        return say(lang, "err_no_reopen", round_number=error.round_number, reason=reason)
    if isinstance(error, E.LettersNotInDrawError):  # letters one by one: "O, O"
        values = {**_fields(error), "letters": _listed(tuple(error.letters))}
        if isinstance(error, E.JokerNotMarkedError):
            first = error.letters[:1]
            return say(lang, "err_joker_not_marked", lower=first.lower(), upper=first, **values)
        key = "err_no_joker_left" if isinstance(error, E.NoJokerLeftError) else "err_letters_not_in_draw"
        return say(lang, key, **values)
    if isinstance(error, E.KeptLettersError) and not error.reliquat:
        return say(lang, "err_kept_none", draw=error.draw)
    if isinstance(error, E.RackNotUnseenError) and not error.unseen:
        return say(lang, "err_rack_none_unseen", player=error.player, letters=error.letters)
    if isinstance(error, E.RackNotUnseenError) and len(error.unseen) > UNSEEN_SHOWN:  # not 90 letters
        left = error.left or say(lang, "rack_left_none")
        return say(lang, "err_rack_not_unseen_left", player=error.player, letters=error.asked, left=left)
    if isinstance(error, E.WordNotInLexiconError):
        return say(lang, "err_word_not_in_lexicon", move=error.move, words=_listed(error.words), count=len(error.words))
    if isinstance(error, E.LateSubmissionError):
        return say(lang, "err_late_submission", player=error.player, move=error.move, seconds=f"{error.seconds_late:.1f}")
    for cls, key in _BY_FIELDS:
        if isinstance(error, cls):
            return say(lang, key, **_fields(error))
    return say(lang, "err_refused")
