"""What is said of FISF sanctions in a duplicate game: an answer's receipt (a copy of the slip, nothing
judged before the close), its grade and clause in the round's results and in the private feedback after
the close, the warnings of the standings and the record's notes.

Nothing is said in a game without sanctions: its texts read as before sanctions existed.
"""

from __future__ import annotations

from core.duplicate import DuplicateGame, Fault, Round, Sanctions
from core.notation import Notation, format_ref

from ...chat import Reply
from ...messages import say
from ...play import seats
from ...storage import GameRecord, Storage


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


def first_move_place(lang: str, round_: Round, player: str, notation: Notation, template: str) -> str:
    """Where a first move written elsewhere was counted, its word's best place (5.4.2.a): ``template``'s text
    (`` — premier coup : compté à sa meilleure place, H6 (§ 5.4.2.a)``; after a warning, `` — compté en H6``),
    or "" when it was counted where written or the referee entered its points (only a game with sanctions moves
    it)."""
    result = round_.results.get(player)
    if result is None or not result.relocated or result.placement is None or player in round_.recorded:
        return ""
    if round_.grade_of(player) not in (Fault.CLEAN, None):
        template += "_warned"  # said after the warning and its clause
    return say(lang, template, ref=format_ref(result.placement.ref, notation))


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


def slip_receipt(lang: str, game: DuplicateGame, move: str, claimed: int | None, replaced: str) -> str | None:
    """Under FISF sanctions, the receipt of an answer received in time: a copy of the slip, the move and the
    score claimed, judged at the close as a slip is (5.3 to 5.9: no score, zero, warning or penalty before
    it, so that no fault is cured by a second answer the receipt prompted); None in a game without them."""
    round_ = game.current
    if not sanctioned(game) or round_ is None:
        return None
    said = say(lang, "dup_slip_claimed", score=claimed) if claimed is not None else ""
    return say(lang, "dup_ack_slip", n=round_.number, move=move, claimed=said, replaced=replaced)
