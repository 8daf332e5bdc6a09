"""What a private /play in an open duplicate round decides, in one place for both ways it is handled.

A private /play is handled the quick way (``bot.games.duplicate.submissions``: one read, one write, answers that
arrive together in one transaction) or the command's usual way (``bot.games.duplicate.commands.cmd_play``).
Both call ``decide_play`` once they know the seat the move is for: the move made in the game in memory,
the events to store and the replies it owes (its acknowledgement, a newcomer's welcome, the live lines).
Neither builds a reply of its own for what the other answers too.

The quick way decides only the common case; ``hand_over`` and ``HandOver`` name every case it leaves to
the usual way (which decides it and explains a refusal): it gives way on these declared reasons only.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable

from core.duplicate import DuplicateEvent, DuplicateGame, SubmissionResult

from ...chat import Incoming, Reply
from ...messages import say
from ...overload import Shed
from ...play import seats
from ...storage import GameRecord
from ..common.formatting import split_claimed
from .sanctions import slip_receipt
from .submissions_late import received_in_time
from .texts import count_reply, joins_reply, reason_text

JUST_DRAWN_SECONDS = 15  # a first answer this soon after a draw is shown may be meant for the round before


class HandOver(enum.Enum):
    """Why the quick way leaves a private /play to the command's usual way (which decides it)."""

    NO_GAME = "no running duplicate game for this account and room (the usual way says which is missing)"
    NO_ROUND = "no round open for answers (between rounds, a draw awaited, the game over): refused there"
    TOPPING = "a topping round: the answer is judged against the top and may close the round"
    RECEIVED_IN_TIME = "received before a closed round's end: it counts for that round"
    JUST_DRAWN = "sent just after a draw: it may be meant for the round just closed"
    SEAT_BY_NAME = "a free seat claimed by name, a seat the game no longer names, or an account taken off its seat"
    OTHER_ROOM = "a simultané's newcomer seated in another room, or by an answer of the same batch"
    ROOM_BUSY = "another transaction holds the room (the batch does not wait): tried again on its own"
    NOT_KEPT = "the transaction failed and kept nothing (a full disk, a lost connection): tried again on its own"


@dataclasses.dataclass(frozen=True)
class PlayDecision:
    """A private /play decided: the seat it plays for, the newcomer's seat to bind (None: seated already),
    the events the game in memory applied (to store in this order) and its replies (in order)."""

    player: str
    seat: str | None
    events: list[DuplicateEvent]
    replies: list[Reply]


def just_drawn(game: DuplicateGame, at: float) -> bool:
    """Whether an answer that arrived ``at`` came so soon after the open round's draw that it may be meant
    for the round closed before it (there is one)."""
    round_ = game.current
    if round_ is None or round_.opened_at is None or not game.closed_rounds:
        return False
    return at - round_.opened_at < min(JUST_DRAWN_SECONDS, game.settings.seconds / 4)


def hand_over(game: DuplicateGame, at: float) -> HandOver | None:
    """What in the game's state leaves an answer that arrived ``at`` to the usual way; None: ``decide_play``
    decides it, whoever sends it."""
    round_ = game.current
    if round_ is None or round_.draw is None or game.finished:
        return HandOver.NO_ROUND
    if game.settings.format.timed:
        return HandOver.TOPPING
    if received_in_time(game, at) is not None:
        return HandOver.RECEIVED_IN_TIME
    if just_drawn(game, at):
        return HandOver.JUST_DRAWN
    return None


def decide_play(
    lang: str,
    record: GameRecord,
    game: DuplicateGame,
    message: Incoming,
    args: str,
    at: float,
    player: str | None,
    sheds: Callable[[Shed], bool],
    topping: Callable[[str], str | None] | None = None,
) -> PlayDecision:
    """``message``'s move (``args``: the move and the score it claims), arrived ``at``, made in the open round
    of ``game`` for ``player`` (None: a newcomer, seated under a free variant of their display name): the
    game in memory applies its events, nothing is stored or sent. ``sheds``: whether overload sheds a live
    line; ``topping``: a topping round's answer to the player's move, if the top is known (None: the usual
    acknowledgement). Reads nothing but its arguments: the quick way and the usual way answer alike."""
    round_ = game.current
    assert round_ is not None  # hand_over: an open round
    move, claimed = split_claimed(args.strip())
    events: list[DuplicateEvent] = []
    seat = None
    previous = None  # the player's answer this one replaces
    if player is None:
        wanted = seats.display_name(message)
        player = seat = seats.newcomer_name(wanted, game.has_player_like)
        events.append(game.join(player))
    else:
        previous = next((s.move for s in reversed(round_.submissions) if s.player == player), None)
    events.append(game.submit(player, move, claimed, at=at))
    preview = game.preview(player, move)
    topped = topping(player) if topping is not None else None
    ack = _ack(lang, game, move, claimed, preview, previous, at, topped)
    if seat is not None:  # a newcomer's welcome in the same message: one notification, one message to send
        welcome = "dup_late_arrival" if game.closed_rounds else "dup_first_play_joins"
        ack = f"{ack}\n{say(lang, welcome, player=player, n=round_.number)}"
    replies = [_private(message, ack)]
    # the live lines (a round is open: both have a text); under load they wait, not even written
    if seat is not None and not sheds(Shed.JOINS) and (joined := joins_reply(lang, record, game)) is not None:
        replies.append(joined)
    if previous is None and not sheds(Shed.COUNTER) and (count := count_reply(lang, record, game)) is not None:
        replies.append(count)
    return PlayDecision(player, seat, events, replies)


def _private(message: Incoming, text: str) -> Reply:
    """A reply to the mover alone, answering their command in place where the platform does (``Reply.answers``)."""
    return Reply(text, to_user=message.user, channel=message.channel, answers=message.asked)


def _ack(
    lang: str,
    game: DuplicateGame,
    move: str,
    claimed: int | None,
    preview: SubmissionResult,
    previous: str | None,
    at: float,
    topped: str | None,
) -> str:
    """The acknowledgement of a move that arrived ``at`` (``previous``: the player's answer it replaces;
    ``topped``: a topping round's answer)."""
    round_ = game.current
    assert round_ is not None
    number, deadline = round_.number, game.deadline(round_)
    replaced = say(lang, "dup_ack_replaced", old=previous) if previous else ""
    receipt = slip_receipt(lang, game, move, claimed, replaced)  # FISF sanctions: nothing judged before the close
    if (preview.valid or receipt is not None) and deadline is not None and at > deadline:
        return say(lang, "dup_late", n=number)
    if topped is not None:
        return topped
    if receipt is not None:
        return receipt
    if preview.valid:
        return say(lang, "dup_ack", n=number, move=move, score=preview.score, replaced=replaced)
    reason = reason_text(lang, preview, game.notation)
    return say(lang, "dup_ack_problem", n=number, move=move, reason=reason.rstrip(".") + ".")
