"""What is said of FISF sanctions in a duplicate game: an answer's grade and clause in the round's results
and in the private feedback after the close, the warnings of the standings and the record's notes.

Nothing is said in a game without sanctions: its texts read as before sanctions existed.
"""

from __future__ import annotations

from core.duplicate import DuplicateGame, Fault, MoveSubmitted, Round, Sanctions, SubmissionResult, grade_submission

from ..chat import Reply
from ..messages import say
from ..storage import GameRecord, Storage
from . import seats


def sanctioned(game: DuplicateGame) -> bool:
    """Whether the game grades answers on a sanction scale."""
    return game.settings.sanctions is not Sanctions.NONE


def fault_text(lang: str, fault: Fault, template: str = "dup_sanction") -> str:
    """A fault with its grade and clause (`` — avertissement (§ 5.5 : joker non indiqué)``)."""
    return say(
        lang,
        template,
        grade=say(lang, f"grade_{fault.grade}"),
        section=fault.section,
        fault=say(lang, f"fault_{fault}"),
    )


def sanction_text(lang: str, round_: Round, player: str) -> str:
    """What follows a player's line in the round's results: the sanction and its clause, or the lifted
    sanction's reason ("" for a clean answer or a game without sanctions)."""
    if player in round_.lifted:
        return say(lang, "dup_sanction_lifted", reason=round_.lifted[player] or "-")
    fault = round_.grade_of(player)
    if fault is None or fault is Fault.CLEAN:
        return ""
    return fault_text(lang, fault)


def sanction_note(lang: str, round_: Round, player: str) -> str:
    """The sanction as a short note for the result image ("" when there is none)."""
    fault = round_.grade_of(player)
    if fault is None or fault is Fault.CLEAN:
        return ""
    return fault_text(lang, fault, "dup_sanction_short")


def feedback_replies(storage: Storage, record: GameRecord, game: DuplicateGame, round_: Round) -> list[Reply]:
    """After the close, each sanctioned player's private note (5.9): the answer, what it scores, the
    grade and clause, and the warnings counted so far."""
    if not sanctioned(game):
        return []
    lang = storage.channel(record.channel).language
    warnings = {s.player: s.warnings for s in game.standings()}
    replies = []
    for player in game.players:
        fault = round_.grade_of(player)
        result = round_.results.get(player)
        owner = seats.owner_of(storage, record, player)
        if fault is None or fault is Fault.CLEAN or result is None or owner is None:
            continue
        text = say(
            lang,
            "dup_feedback",
            n=round_.number,
            move=result.move,
            score=round_.score_of(player),
            sanction=fault_text(lang, fault),
        )
        if fault.is_warning:
            count = warnings.get(player, 0)
            threshold = game.settings.warning_threshold
            text += " " + say(lang, "dup_feedback_warnings", count=count, threshold=threshold)
        replies.append(Reply(text, to_user=owner, channel=record.channel))
    return replies


def graded_preview(game: DuplicateGame, submission: MoveSubmitted) -> SubmissionResult | None:
    """How the sanctions grade an answer the plain preview scores 0 (its words taken as valid): the paid
    reading when a slip fault makes it a warning or a penalty, else None."""
    round_ = game.current
    if not sanctioned(game) or round_ is None or round_.draw is None:
        return None
    graded = grade_submission(
        game.board,
        round_.draw.letters,
        submission,
        lambda w: True,
        game.edition,
        game.notation,
        game.settings.sanctions,
    )
    return graded if graded.valid and graded.fault is not None and graded.fault is not Fault.CLEAN else None


def sanctioned_ack(lang: str, game: DuplicateGame, submission: MoveSubmitted, replaced: str) -> str | None:
    """The acknowledgement of an answer the plain preview scores 0 but the sanctions pay with a warning or
    a penalty (None otherwise): what it will score and the sanction."""
    graded = graded_preview(game, submission)
    round_ = game.current
    if graded is None or graded.fault is None or round_ is None:
        return None
    values = {"n": round_.number, "move": submission.move, "score": graded.score, "replaced": replaced}
    return say(lang, "dup_ack_sanctioned", sanction=fault_text(lang, graded.fault), **values)
