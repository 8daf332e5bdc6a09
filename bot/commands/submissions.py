"""A private /play in a running duplicate round, with the least work a durable acknowledgement needs.

The common case, a seated player or a newcomer whose first answer seats them, is read in one statement
(``Storage.play_state``: the game, its channel's settings, its seats, its last event, whether messages
wait for the player or the channel) and written in one transaction of one insert per table
(``Storage.record_play``: its events, the new seat, its replies), with the game taken from the cache
(a game not in memory, or behind the log, is brought up to date first). Every other case (a seat
claimed by name, a player taken off their seat, an answer just after a close, a refusal) returns None
and goes the command's usual way, which answers the same. The acknowledgement is committed before it
is delivered, as any reply. Answers that arrive together (``quick_plays``) share one transaction; on
PostgreSQL their states are read in one statement (``Storage.play_states``) and their writes sent in
one (``Storage.record_plays``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import TYPE_CHECKING

from core.duplicate import DuplicateEvent, SubmissionResult, event_to_dict
from core.game import find_player
from core.names import mixes_scripts

from ..chat import MAX_COMMAND_CHARS, CommandLine, Incoming, Reply
from ..messages import say
from ..outbox import GRACE_SECONDS, destination
from ..overload import Shed
from ..storage import ChannelLock, GameKind, PlayState, PlayWrite, Storage
from . import seats
from .duplicate import JUST_DRAWN_SECONDS
from .duplicate_sanctions import slip_receipt
from .duplicate_texts import count_reply, joins_reply, reason_text
from .formatting import split_claimed
from .services import Services
from .simultane_accounts import account_lock, seated_elsewhere
from .submissions_late import received_in_time

if TYPE_CHECKING:
    from core.duplicate import DuplicateGame


log = logging.getLogger("arbitre")


@dataclasses.dataclass(frozen=True)
class Pending:
    """A private /play decided, its game in memory changed, its writes not sent yet."""

    write: PlayWrite
    game: DuplicateGame


@dataclasses.dataclass(frozen=True)
class QuickPlay:
    """A private /play recorded the quick way: its stored replies, those nothing older waits before, and
    those left to the outbox worker (behind older ones)."""

    replies: list[Reply]
    first: list[int]
    left: list[int]


class UsualWay:
    """What ``quick_plays`` gives a private /play the quick way read and left to the command's usual way
    (an answer received before a closed round's end, a seat claimed by name, a topping round...): its
    caller runs the usual way at once, without trying the quick way again alone (under a backlog of late
    answers, that second try cost each of them a transaction and its reads for nothing)."""


USUAL_WAY = UsualWay()


def takes_quick_way(message: Incoming, command: CommandLine) -> bool:
    """Whether a message may be a private /play of the common case (else it goes the command's usual way)."""
    return message.private and bool(command.args.strip()) and len(message.text) <= MAX_COMMAND_CHARS


def quick_play(services: Services, message: Incoming, command: CommandLine) -> list[Reply] | None:
    """The stored replies to a private /play in the common case; None for the command's usual way."""
    if not takes_quick_way(message, command):
        return None
    try:
        with services.games.transaction(services.storage):
            stored = quick_play_in_transaction(services, message, command)
    except Exception:  # rolled back; the usual way answers (and explains a failure)
        log.debug("quick /play gave way to the usual command", exc_info=True)
        return None
    if not isinstance(stored, QuickPlay):
        return None
    services.first_in_line_known(stored.first, stored.left)  # committed: these numbers are theirs for good
    return stored.replies


def quick_plays(services: Services, plays: list[tuple[Incoming, CommandLine]]) -> list[list[Reply] | UsualWay | None]:
    """Several private /play recorded in one write transaction (one commit for all: what a burst of
    answers costs least), each the quick way; None for those that go the command's usual way (they wrote
    nothing), ``USUAL_WAY`` for those the quick way read and left to it (no quick try alone is worth
    making). If any fails, none is kept and all go the usual way (None)."""
    stored: list[QuickPlay | UsualWay | None] = [None] * len(plays)
    try:
        with services.games.transaction(services.storage):
            # PostgreSQL: every room's lock tried at once; a room another transaction holds goes on its own
            rooms = [m.channel for m, c in plays if takes_quick_way(m, c)]
            locks = services.storage.try_lock_channels(rooms) if rooms else {}
            chosen = [
                n for n, (m, c) in enumerate(plays)
                if takes_quick_way(m, c) and locks.get(m.channel, ChannelLock.BUSY) is not ChannelLock.BUSY
            ]
            # every state read at once (PostgreSQL: one statement); a game a second move goes to is read again
            states = services.storage.play_states([(plays[n][0].channel, plays[n][0].user) for n in chosen])
            games: set[int] = set()
            pending: list[Pending] = []  # the moves' writes, sent together (PostgreSQL: one statement)
            which: list[int] = []
            for n, state in zip(chosen, states):
                if state is not None:
                    again = state.game.id in games or state.game.channel != plays[n][0].channel
                    games.add(state.game.id)
                    if again:  # read again in the move's own way (after its game's channel's lock)
                        state = None
                if state is None:  # what it reads must follow the writes before it
                    stored = _flush(services, pending, which, stored)
                    stored[n] = quick_play_in_transaction(services, *plays[n], wait=False)
                    continue
                before = len(pending)
                left = quick_play_in_transaction(services, *plays[n], wait=False, state=state, pending=pending)
                which += [n] * (len(pending) - before)
                if isinstance(left, UsualWay):
                    stored[n] = left
            stored = _flush(services, pending, which, stored)
    except Exception:  # rolled back, with the games it changed in memory: each goes the usual way
        log.debug("a batch of quick /play gave way to the usual command", exc_info=True)
        return [None] * len(plays)
    for done in stored:
        if isinstance(done, QuickPlay):
            services.first_in_line_known(done.first, done.left)  # committed: these numbers are theirs for good
    return [done.replies if isinstance(done, QuickPlay) else done for done in stored]


def _flush(
    services: Services, pending: list[Pending], which: list[int], stored: list[QuickPlay | UsualWay | None]
) -> list[QuickPlay | UsualWay | None]:
    """``stored`` with the pending moves (those of the plays numbered ``which``) written; both lists emptied."""
    if pending:
        for n, done in zip(which, recorded(services, pending)):
            stored[n] = done
        pending.clear()
        which.clear()
    return stored


def quick_play_in_transaction(
    services: Services,
    message: Incoming,
    command: CommandLine,
    wait: bool = True,
    state: PlayState | None = None,
    pending: list[Pending] | None = None,
) -> QuickPlay | UsualWay | None:
    """A private /play recorded in the open transaction; None (nothing written) for the usual way, and
    without ``wait`` also when another transaction holds the game's channel (the caller took the lock of
    the channel it was sent from; ``state``: what it read for the move after that lock, if it did);
    ``USUAL_WAY`` (nothing written) when its game was read and the move is the usual way's to decide. With
    ``pending``, its writes are added there instead (None returned: the caller sends them, ``recorded``).
    Raises when it fails (the transaction must then be rolled back)."""
    storage = services.storage
    # PostgreSQL: the channel's commands, one at a time, and its game's channel's (sent from a private chat)
    held = storage.lock_play(message.channel, message.user) if wait else None
    if state is None:
        state = storage.play_state(message.channel, message.user)
    if state is not None and state.game.channel != message.channel:  # sent from a private chat
        if wait:  # read after both locks; the game found may have changed before they were held
            changed = held is not None and state.game.channel not in held and storage.lock_channel(state.game.channel)
        else:
            taken = storage.try_lock_channels([state.game.channel])[state.game.channel]
            if taken is ChannelLock.BUSY:
                return None
            changed = taken is ChannelLock.TAKEN
        if changed:  # it may have changed meanwhile: read again
            state = storage.play_state(message.channel, message.user)
    if state is None or state.game.kind is not GameKind.DUPLICATE:
        return None
    if state.seat is None and state.game.setup.simultane and not _first_seat(storage, state, message, wait, pending):
        return None  # a simultané's newcomer seated in another room, or whose lock is busy: the usual way
    game = services.duplicate_games.cached(state.game.id, state.stamp)
    if game is None:  # not in memory, or behind the log: read (once) what it misses
        game = services.duplicate_games.load(storage, state.game)
    played = _play(services, message, command, state, game)
    if played is None:
        return USUAL_WAY
    if pending is not None:  # written with the batch's others
        pending.append(played)
        return None
    return recorded(services, [played])[0]


def recorded(services: Services, pending: list[Pending]) -> list[QuickPlay]:
    """The moves' writes sent (each of another game; PostgreSQL: in one statement), their games in memory
    brought up to them, their replies numbered."""
    numbers = services.storage.record_plays([p.write for p in pending])
    done = []
    for move, ids in zip(pending, numbers):
        write = move.write
        services.duplicate_games.stored(write.game_id, move.game, (write.after + len(write.events), write.at))
        replies = [dataclasses.replace(r, outbox_id=i) for r, i in zip(write.replies, ids)]
        first = [i for i, due in zip(ids, write.dues) if due > write.created]
        done.append(QuickPlay(replies, first, [i for i in ids if i not in first]))
    return done


def _first_seat(
    storage: Storage, state: PlayState, message: Incoming, wait: bool, pending: list[Pending] | None
) -> bool:
    """Whether a simultané's newcomer may be seated the quick way: under its account's lock in the
    simultané, seated in no other room (``bot.commands.simultane_accounts``: one account, one room), nor
    by a move of this batch not written yet."""
    code, user = state.game.setup.simultane, message.user
    lock = account_lock(code, user)
    if wait:
        storage.lock_channel(lock)
    elif storage.try_lock_channels([lock])[lock] is ChannelLock.BUSY:
        return False
    if pending and any(p.write.seat is not None and p.write.seat[0] == user for p in pending):
        return False
    return not seated_elsewhere(storage, code, user, state.game.channel)


def _seat(message: Incoming, state: PlayState, game: DuplicateGame) -> tuple[str | None, bool]:
    """(the player's seat, whether the usual way must decide); None: a newcomer."""
    if state.seat is not None:
        name = state.seat
        if name in game.players:  # as it was bound (no accent folding over every seat)
            return name, False
        seat = find_player(game.players, name) if name != seats.RELEASED else None
        return seat, seat is None
    return None, seats.named_like(message, game.players) is not None  # a free seat claimed by name, or not


def _play(
    services: Services, message: Incoming, command: CommandLine, state: PlayState, game: DuplicateGame
) -> Pending | None:
    """The move made in the game in memory, its writes and replies to store; None: the usual way decides."""
    round_ = game.current
    if round_ is None or round_.draw is None or game.settings.format.timed:  # a topping try may close the round
        return None
    now = services.now()
    at = message.arrived(now)  # a move that waited behind others is timed by its arrival
    if received_in_time(game, at) is not None:
        return None  # received before the last round's end, stored after its close: the usual way counts it
    if game.closed_rounds and round_.opened_at is not None:
        if at - round_.opened_at < min(JUST_DRAWN_SECONDS, game.settings.seconds / 4):
            return None  # maybe meant for the round just closed (or sent before this draw)
    player, usual = _seat(message, state, game)
    if usual:
        return None
    record, lang = state.game, state.settings.language
    move, claimed = split_claimed(command.args.strip())
    events: list[DuplicateEvent] = []
    seat: tuple[str, str] | None = None
    arrived = player is None
    if player is None:
        wanted = seats.display_name(message)
        player = seats.free_name(wanted, [*game.players, *([wanted] if mixes_scripts(wanted) else [])])
        events.append(game.join(player))
        seat = (message.user, player)
    previous = next((s.move for s in reversed(round_.submissions) if s.player == player), None)
    events.append(game.submit(player, move, claimed, at=at))
    preview = game.preview(player, move)
    replies = [_ack(lang, game, move, claimed, preview, previous, at, message)]
    if arrived:
        welcome = "dup_late_arrival" if game.closed_rounds else "dup_first_play_joins"
        replies.append(_private(message, say(lang, welcome, player=player, n=round_.number)))
        joined = joins_reply(lang, record, game)
        if joined is not None and not services.sheds(Shed.JOINS):  # overloaded: the live lines can wait
            replies.append(joined)
    count = count_reply(lang, record, game)
    if count is not None and previous is None and not services.sheds(Shed.COUNTER):
        replies.append(count)
    waiting = {message.user: state.player_waiting, record.channel: state.channel_waiting}
    # a reply behind older ones goes with the outbox worker, after them; the others are the sender's first
    dues = [now if waiting.get(destination(r), True) else now + GRACE_SECONDS for r in replies]
    stamp = time.time()
    data = [(event_to_dict(event), message.user) for event in events]
    owner = services.claimer(now)  # what it sends itself is claimed by it (see Services.store)
    return Pending(PlayWrite(record.id, data, state.stamp[0], stamp, seat, replies, dues, now, owner), game)


def _private(message: Incoming, text: str) -> Reply:
    return Reply(text, to_user=message.user, channel=message.channel)


def _ack(
    lang: str,
    game: DuplicateGame,
    move: str,
    claimed: int | None,
    preview: SubmissionResult,
    previous: str | None,
    at: float,
    message: Incoming,
) -> Reply:
    """The acknowledgement of a move that arrived ``at``, as the usual /play says it."""
    round_ = game.current
    assert round_ is not None
    number, deadline = round_.number, game.deadline(round_)
    replaced = say(lang, "dup_ack_replaced", old=previous) if previous else ""
    receipt = slip_receipt(lang, game, move, claimed, replaced)  # FISF sanctions: nothing judged before the close
    if (preview.valid or receipt is not None) and deadline is not None and at > deadline:
        return _private(message, say(lang, "dup_late", n=number))
    if receipt is not None:
        return _private(message, receipt)
    if preview.valid:
        return _private(message, say(lang, "dup_ack", n=number, move=move, score=preview.score, replaced=replaced))
    reason = reason_text(lang, preview, game.notation)
    return _private(message, say(lang, "dup_ack_problem", n=number, move=move, reason=reason.rstrip(".") + "."))
