"""An answer received before a round's end but stored after its close (a crowd, a process that fell
behind, a platform that delivered it late): FISF counts an answer handed in before the end, so it counts
for that round, as the arbiter's correction of the closed round would (its board and draw, the words of
the round's list), and the room is told its results changed. An answer received before the end of a
round whose close already holds a later answer of the same player changes nothing (the later one stands,
as in an open round).

Which round an answer belongs to is read from when it was received (``Incoming.received``: the platform's
time where it gives one, else when this process received it), never from when its turn came.
"""

from __future__ import annotations

from core.duplicate import DuplicateGame
from core.duplicate.rounds import Round

from ...commands.context import Context, UserError
from ...messages import say
from ...storage import GameRecord
from ...timefmt import clock_time
from .games import round_lists, save
from .texts import reason_text


def received_in_time(game: DuplicateGame, at: float) -> Round | None:
    """The closed round whose time an answer received at ``at`` came within (opened, not yet at its end);
    None: it came within none (after the last close, or before any). Not only the last closed round: an
    answer that waited behind a crowd while several rounds closed counts for the round it was sent in. A
    round closed early ended when it closed (its time was called then); an answer received at that very
    instant, ordered after the close, is the next round's."""
    for round_ in reversed(game.closed_rounds):
        if round_.draw is None or round_.deadline is None:
            continue
        if at >= round_.deadline:
            return None  # after this round's end: a later round's (open, or its own close already said)
        if round_.opened_at is None or round_.opened_at <= at:
            return round_
    return None


def count_after_close(
    ctx: Context,
    record: GameRecord,
    game: DuplicateGame,
    round_: Round,
    player: str,
    move: str,
    claimed: int | None,
    at: float,
) -> None:
    """Count ``player``'s answer (``claimed``: the score they claimed), received at ``at`` before ``round_``'s
    end, in that closed round; the player told privately, the room told publicly that its results changed."""
    settings = ctx.storage.channel(record.channel)
    lang = settings.language
    reason = say(lang, "dup_in_time_reason", time=clock_time(at, settings.zone))
    mine = [s for s in round_.submissions if s.player == player and s.at is not None]
    if any(s.at == at and s.move == move for s in mine) or round_.corrections.get(player) == reason:
        # this very answer again (a platform delivers a message again when the process that read it died before
        # saying so): it already counts, nothing stored
        raise UserError("dup_in_time_already", n=round_.number, move=move, score=round_.score_of(player))
    if any(s.at is not None and s.at >= at for s in mine):  # a later answer, in time, already counted
        raise UserError("dup_in_time_superseded", n=round_.number, move=move)
    verdicts, _ = round_lists(ctx.services, record)
    event = game.correct(player, round_.number, move, verdicts, reason, claimed)
    save(ctx.services, record, game, [event], ctx.message.user)
    result = round_.results.get(player)
    score = round_.score_of(player)
    if result is not None and not result.valid:
        why = reason_text(lang, result, game.notation).rstrip(".") + "."
        ctx.private(say(lang, "dup_in_time_counted_zero", n=round_.number, move=move, reason=why))
    else:
        ctx.private(say(lang, "dup_in_time_counted", n=round_.number, move=move, score=score))
    ctx.reply(say(lang, "dup_in_time_public", n=round_.number, player=player, score=score), channel=record.channel)
