"""A duplicate game's rounds: the next draw, closing a round, ending the game, and the clock.

The clock (``clock_tick``) reads the open rounds' deadlines storage keeps, calls 30 s (or 20) before,
closes rounds when time is up (also after a restart) and draws the next.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from core.duplicate import DrawMade, DuplicateEvent, DuplicateGame
from core.errors import ArbitreError
from core.errors_duplicate import NoDrawPossibleError
from core.simultane import SimultaneDefinition, next_draw

from ...chat import Reply
from ...commands.services import Services
from ...messages import say
from ...render.record import end_reason_text, standings_text
from ...storage import Deadline, GameRecord, GameStatus, RoundClosedTwiceError, Storage
from ...words.game_lists import VERDICT_KEY, ListUsed, preparing_name
from ...words.loader import ListPreparingError
from ..kinds import kind_of
from ..simultane import pacing as simultane_pacing
from .closes import TickReplies, handed_over, owing, result_images
from .games import (
    WARNING_SECONDS,
    game_of,
    round_lists,
    save,
    start_top,
    sync_deadline,
    top_finder,
    warning_lead,
)
from .sanctions import feedback_replies
from .texts import draw_reply, live_line_kind, live_lines_at_close, played_count, results_reply, tie_hint

ANSWERS_AWAITED_SECONDS = 5.0  # a round waits at most this long past its deadline for answers still in the process
# with other live processes on the store: how long they may take to say the answers they received (the
# service says them every ARRIVALS_SECONDS, 0.1 s: one statement after the change, or once a deadline it knows
# passed), so that a close never misses one received just before its deadline (one that comes later still counts:
# stored as a correction of its round); less when every one of them said, as of a time past the deadline
# (``ClockStore.arrivals_said_through``), what it holds
ARRIVALS_SAID_SECONDS = 0.25
SAID_POLL_SECONDS = 0.05  # while a close waits for the others to say, how often it asks whether they did
# rounds one process closes side by side (their tops overlap, and on PostgreSQL their round trips): more take the
# interpreter from the answers still arriving for the rounds that close later (300 rooms of 50 players closing
# within 3 s, three PostgreSQL processes: p99 of the acknowledgements 0.48-0.61 s with 8 at once, 0.25-0.27 s
# with 4, and the closes posted no later: within 0.9 s of their deadline instead of 0.8-1.1 s)
CLOSES_AT_ONCE = 4
OWNERS_SECONDS = 1.0  # how often the processes running the clock are counted again (while there are clocks to share)


def open_next_round(
    services: Services, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float
) -> list[Reply]:
    """Draw the next move (automatic mode) and set its deadline; or end the game. After a reopened
    round closes again, the draw shown before the reopening is made again (its clock restarting now),
    when the letters left allow it; otherwise the channel is told it no longer stands."""
    notes: list[Reply] = []
    shown = game.draws_before_reopening()
    if shown:
        spelled = [e.draw for e in shown if isinstance(e, DrawMade)][-1]
        try:
            again = game.draw_again(shown, at=now)
        except ArbitreError:
            note = say(lang, "dup_draw_not_kept", n=game.move_number, draw=spelled)
            notes.append(Reply(note, channel=record.channel))
        else:
            save(services, record, game, again, "clock")
            return [_shown_again(services, storage, record, game, lang, now)]
    if record.setup.manual:
        return [*notes, Reply(say(lang, "dup_wait_draw"), channel=record.channel)]
    try:
        events = draw_of(services, record, game, now)
    except NoDrawPossibleError as error:
        letters = game.edition.spell_tiles(error.letters)
        return notes + finish(services, record, game, lang, say(lang, "dup_end_no_valid_draw", letters=letters))
    save(services, record, game, events, "clock")
    start_top(services, record, game)
    claim_clock(services, record.channel, now)
    zone = storage.channel(record.channel).zone
    return [*notes, draw_reply(lang, zone, record, game, record.channel, now)]


def draw_of(services: Services, record: GameRecord, game: DuplicateGame, now: float) -> list[DuplicateEvent]:
    """The next move's draw: a simultané's sealed one for a game of a simultané, else at random."""
    if record.setup.simultane:
        stored = services.storage.simultane(record.setup.simultane)
        if stored is not None:
            return next_draw(SimultaneDefinition.from_json(stored.definition), game, at=now)
    return game.draw(services.draws, at=now)


def _shown_again(
    services: Services, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float
) -> Reply:
    """The draw made again after a reopening, said to be the one already shown."""
    start_top(services, record, game)
    claim_clock(services, record.channel, now)
    reply = draw_reply(lang, storage.channel(record.channel).zone, record, game, record.channel, now)
    round_ = game.current
    number = round_.number if round_ is not None else game.move_number
    return dataclasses.replace(reply, text=say(lang, "dup_draw_kept", n=number) + "\n" + reply.text)


def finish(services: Services, record: GameRecord, game: DuplicateGame, lang: str, reason: str) -> list[Reply]:
    """End the game: its standings; its game and tops leave memory (it is rebuilt if anyone looks again)."""
    services.storage.set_game_status(record.id, GameStatus.ENDED)
    services.duplicate_games.forget(record.id)
    services.clock.forget_game(record.id)
    text = say(lang, "dup_over", reason=reason) + "\n" + standings_text(lang, game)
    return [Reply(text, channel=record.channel)]


def _unshed(services: Services, live_lines: list[Reply]) -> list[Reply]:
    """The live lines' update at a close, but those the process leaves out while overloaded (the exact count
    heads the results all the same); a busy process still sends them (one edit a room brings each up to date)."""
    return [line for line in live_lines if not services.sheds(live_line_kind(line), at_close=True)]


def close_round(
    services: Services,
    storage: Storage,
    record: GameRecord,
    game: DuplicateGame,
    lang: str,
    now: float,
    author: str,
    end_reason: str | None = None,
) -> list[Reply]:
    """Close the open round: the draw's message says it is closed and the next draw comes (what players
    need at once), then the results as text (the exact count, the top, every answer, the standings), or the
    end; the results' images are owed for later (``bot.games.duplicate.closes``). In a room of a
    simultané played together, a round whose time is up waits while other rooms still play it: it is held,
    not closed (``bot.games.simultane.pacing``: the room is told what it waits for). ``end_reason``: the
    game ends after this round (its referee ended it while the round was held).

    Raises ListPreparingError, before any change, while the round's list is being prepared.
    """
    verdicts, _ = round_lists(services, record)
    live_lines = live_lines_at_close(lang, record, game)
    held = simultane_pacing.before_close(services, record, game, now, author)
    if held is not None:
        return _unshed(services, live_lines) + held if held else []
    played = played_count(game)
    called = _time_called(game, now)
    event = game.close_round(top_finder(services, record, game), verdicts)
    closed = game.closed_rounds[-1]
    storage.mark_closed(record.id, closed.number)  # the database refuses a second close of a round
    used = ListUsed(verdicts.spec, verdicts.house)  # kept with the close: replaying needs no word list
    save(services, record, game, [*called, event], author, {VERDICT_KEY: used.to_data(round=closed.number)})
    services.clock.warned.discard((record.id, closed.number))
    services.clock.waiting_for_list.discard((record.id, closed.number))
    draw = closed.draw.spelled(game.edition) if closed.draw else ""
    first = [
        Reply(  # the draw's message stops counting down
            say(lang, "dup_round_closed", n=closed.number, draw=draw),
            channel=record.channel,
            edit_key=f"dup-{record.id}-{closed.number}",
        )
    ]
    # a simultané's top is every room's: /top N is refused there
    hint = tie_hint(lang, closed) if closed.tied and not record.setup.simultane else ""
    results = [  # the tie's hint in the results' message: one post less (a room's budget)
        *_unshed(services, live_lines),
        results_reply(lang, record.channel, game, closed, played, hint),
        *feedback_replies(storage, record, game, closed),
    ]
    images = result_images(lang, record.channel, record.id, game, closed) if services.images else None
    if closed.top is None and not game.finished:  # FISF 3.6: the letters go back, a different draw
        first.append(Reply(say(lang, "dup_move_cancelled", n=closed.number), channel=record.channel))
    if game.finished or end_reason is not None:
        ending = finish(services, record, game, lang, end_reason or end_reason_text(lang, game))
        return handed_over(first, results + ending, images)
    following = open_next_round(services, storage, record, game, lang, now)
    if game.current is not None and game.current.draw is not None:  # the next draw, before the results
        return handed_over(first + following, results, images)
    return handed_over(first, results + following, images)


def _time_called(game: DuplicateGame, now: float) -> list[DuplicateEvent]:
    """A round closed before its deadline (or while paused) ends now: its time is called, so that an answer
    received after the close is never taken for one received before the round's end
    (``bot.games.duplicate.submissions_late``); none for a round already past its deadline, or without a clock."""
    round_ = game.current
    if round_ is None or (round_.deadline is not None and round_.deadline <= now):
        return []
    if round_.deadline is None and round_.paused_left is None:
        return []
    return [game.call_time(now)]


def clock_tick(
    services: Services,
    now: float,
    publish: Callable[[list[Reply]], None] | None = None,
    ticked: TickReplies | None = None,
) -> list[Reply]:
    """Warnings and closings due at ``now``, for every open round in storage whose channel's clock
    lease this process holds or can take (see ``bot.play.clock_lease``); ``publish`` is given stored replies as
    soon as they may go: a warning, a close's notice and next draw once its transaction commits (300 closes
    in one tick: the first draw is not held back), the results of every close of the tick once all of them
    are committed (``TickReplies``). ``ticked``: the tick's replies, when the caller gathers more steps
    before the results go (the simultanés'), and finishes it; else this call finishes its own (the images
    drawn at once); every reply of the tick so far.

    The rounds due close side by side (``CLOSES_AT_ONCE``): their tops and what they draw overlap; on a
    store with one writer (SQLite) their transactions still go one at a time.

    Storage's deadline is only a pointer: each round is re-read in a transaction, and closed only if it
    is still open and its own deadline has passed; otherwise storage's copy is brought back in line.
    """
    own = ticked is None
    ticked = ticked if ticked is not None else TickReplies(services, publish)
    storage = services.storage
    stored = storage.read_deadlines()  # a pointer only (see above): what is committed
    services.clock.deadlines = sorted({d.at for d in stored})  # every scope's: another may close its rounds sooner
    open_rounds = [d for d in stored if d.channel.startswith(services.clock_scope)]
    due = [d for d in open_rounds if d.at - now <= WARNING_SECONDS]
    channels, due_channels = {d.channel for d in open_rounds}, {d.channel for d in due}
    quiet = services.clock.quiet
    if quiet:
        keys = {(d.game, d.round, d.at) for d in open_rounds}
        services.clock.quiet = quiet = {k: t for k, t in quiet.items() if k in keys}
    held = _hold_clocks(services, channels, due_channels, now)
    closing = any(now >= d.at for d in due)  # a storm of closes: the tops of later rounds wait
    checked, waiting = _answers_awaited(services, [d for d in due if now >= d.at and d.channel in held], now)
    closes: list[Deadline] = []  # rounds to close, side by side
    acted: set[tuple[int, int]] = set()  # rounds past their deadline this tick closed (or tried to)
    with services.clock.searches.closing() if closing else contextlib.nullcontext():
        for deadline in due:
            if deadline.channel not in held:
                continue  # another live process runs this channel's clock
            if time.monotonic() - services.clock.renewed > services.clock_lease.seconds / 3:  # a long tick
                held = _hold_clocks(services, channels, due_channels, services.now())  # keeps its leases
                if deadline.channel not in held:
                    continue
            if now < deadline.at and (deadline.game, deadline.round) in services.clock.warned:
                continue  # warned already: nothing to do until the deadline (no transaction for nothing)
            if now < quiet.get((deadline.game, deadline.round, deadline.at), now):
                continue  # its warning is not due yet
            if now >= deadline.at and deadline.game in checked:
                if deadline.game in waiting:
                    continue  # closed at a later tick, once they are recorded
            elif now >= deadline.at and _answers_on_their_way(services, deadline, now):
                continue
            if now >= deadline.at:
                acted.add((deadline.game, deadline.round))
                closes.append(deadline)  # closed below, several at once
                continue
            _act(services, deadline, now, ticked)
            time.sleep(0)  # the commands waiting for the store's one writer (SQLite) go between two steps
        _close_all(services, closes, now, ticked, (channels, due_channels))
    services.clock.next_due = _next_due(services, [d for d in open_rounds if (d.game, d.round) not in acted], now)
    return ticked.finish() if own else list(ticked.replies)


def _close_all(
    services: Services, closes: list[Deadline], now: float, ticked: TickReplies, rounds: tuple[set[str], set[str]]
) -> None:
    """Close these rounds, ``CLOSES_AT_ONCE`` at a time: what needs no writer (the top awaited, the views
    of the results) overlaps, and on PostgreSQL the transactions too; on SQLite they take the store's one
    writer in turn. A long run renews the clock's leases (``rounds``: the channels with an open round, and
    those due) and leaves out a channel whose lease it lost."""
    renewing = threading.Lock()

    def close(deadline: Deadline) -> None:
        with renewing:
            held = services.clock.held
            if time.monotonic() - services.clock.renewed > services.clock_lease.seconds / 3:
                held = _hold_clocks(services, *rounds, services.now())
            if deadline.channel not in held:
                return
        _act(services, deadline, now, ticked)

    if len(closes) > 1:
        with ThreadPoolExecutor(CLOSES_AT_ONCE, thread_name_prefix="arbitre-close") as pool:
            list(pool.map(close, closes))
    elif closes:
        _act(services, closes[0], now, ticked)


def _next_due(services: Services, open_rounds: list[Deadline], now: float) -> float:
    """The earliest moment after ``now`` at which one of these rounds has clock work: its warning, its
    deadline, or, past its deadline, the next look at whether the other processes said the answers they hold."""
    moments: list[float] = []
    for deadline in open_rounds:
        if now >= deadline.at:  # soon, while it may wait for the other processes to say what they hold
            if now < deadline.at + ARRIVALS_SAID_SECONDS:
                moments.append(min(deadline.at + ARRIVALS_SAID_SECONDS, now + SAID_POLL_SECONDS))
        elif (deadline.game, deadline.round) in services.clock.warned:
            moments.append(deadline.at)
        else:
            quiet = services.clock.quiet.get((deadline.game, deadline.round, deadline.at))
            moments.append(quiet if quiet is not None else max(deadline.at - WARNING_SECONDS, now))
            moments.append(deadline.at)
    return min((m for m in moments if m > now), default=math.inf)


def _act(services: Services, deadline: Deadline, now: float, ticked: TickReplies) -> None:
    """The clock's step for one deadline (a close: its top found first, outside the transaction), its
    stored replies given to ``ticked``."""
    if now >= deadline.at:  # what its kind needs before the transaction opens (a closing round's top)
        record = services.storage.game(deadline.game)
        kind_of(record.kind).before_clock(services, record)
    try:
        with owing() as owed:
            step = _clock_step(services, deadline, now)
    except RoundClosedTwiceError:  # another process closed it first: nothing to do
        return
    if step:
        ticked.step(step, owed)


def _answers_on_their_way(services: Services, deadline: Deadline, now: float) -> bool:
    """Whether this process holds messages received in time for the round and not answered yet (sent in the
    round's channel, or privately by one of its players), or another live process says it holds messages
    sent there: the round waits for them, at most ``ANSWERS_AWAITED_SECONDS`` past its deadline, so that a
    burst queued in any process loses no answer."""
    if now - deadline.at > ANSWERS_AWAITED_SECONDS:
        return False
    early = [m for m in services.arriving() if m.received is not None and m.received <= deadline.at]
    if any(m.channel == deadline.channel for m in early):
        return True
    senders = {m.user for m in early if m.private}
    if senders and any(user in senders for user, _ in services.storage.players(deadline.game)):
        return True
    if not (services.storage.arrivals_shared and services.clock.others_alive):
        return False
    # answers another process received in time (FISF: an answer handed in before the end counts)
    if now - deadline.at < ARRIVALS_SAID_SECONDS:  # unless every one of them said since the deadline
        if services.storage.arrivals_said_through(services.outbox.owner, now) < deadline.at:
            return True
    return services.storage.arrivals_elsewhere(deadline.game, deadline.channel)


def _answers_awaited(services: Services, overdue: list[Deadline], now: float) -> tuple[set[int], set[int]]:
    """``_answers_on_their_way`` of every round past its deadline, in two statements for them all (a burst
    of 300 closes asked two per round at every tick): the games checked, and those whose close waits."""
    recent = [d for d in overdue if now - d.at <= ANSWERS_AWAITED_SECONDS]
    checked = {d.game for d in overdue}
    if not recent:
        return checked, set()
    in_channel: dict[str, float] = {}  # the earliest message not answered yet in each channel, by each sender
    privately: dict[str, float] = {}
    for message in services.arriving():
        if message.received is None:
            continue
        in_channel[message.channel] = min(in_channel.get(message.channel, math.inf), message.received)
        if message.private:
            privately[message.user] = min(privately.get(message.user, math.inf), message.received)
    waiting = {d.game for d in recent if in_channel.get(d.channel, math.inf) <= d.at}
    rest = [d for d in recent if d.game not in waiting]
    if privately and rest:
        seated = services.storage.players_of([d.game for d in rest])
        waiting |= {d.game for d in rest if any(privately.get(u, math.inf) <= d.at for u in seated[d.game])}
        rest = [d for d in rest if d.game not in waiting]
    if not (rest and services.storage.arrivals_shared and services.clock.others_alive):
        return checked, waiting
    if any(now - d.at < ARRIVALS_SAID_SECONDS for d in rest):  # said since, by every other process?
        said = services.storage.arrivals_said_through(services.outbox.owner, now)
        waiting |= {d.game for d in rest if now - d.at < ARRIVALS_SAID_SECONDS and said < d.at}
        rest = [d for d in rest if d.game not in waiting]
    waiting |= services.storage.arrivals_elsewhere_of([(d.game, d.channel) for d in rest])
    return checked, waiting


def _hold_clocks(services: Services, channels: set[str], due: set[str], now: float) -> set[str]:
    """Renew this process's leases on channels with an open round (every third of the lease time), take
    those of ``due`` channels (clock work within ``WARNING_SECONDS``) that are free, expired or left by a
    dead process, up to this process's share of the due ones where storage knows how many processes run
    the clock (the live ones close a burst of rounds in parallel); give up the leases of channels whose
    round is over; the channels whose clock this process runs."""
    storage, lease, clock = services.storage, services.clock_lease, services.clock
    # a round this process opened lately is open, though the deadlines read may not show it yet (read before it
    # was stored, or before the command that opened it was committed), and its lease is kept even if another
    # thread's update of ``held`` was lost
    recent = clock.recent_claims(lease.seconds)
    channels = channels | recent
    over = clock.held - channels
    if over:
        storage.release_clocks(lease.owner, sorted(over))
    kept = (clock.held & channels) | recent
    wanted, free = kept | due, due - kept
    room: int | None = None  # unknown: every due channel that is free
    if channels:  # counted while it runs open rounds' clocks (before any is due: the others leave it its share)
        owners = _clock_owners(services, bool(free))
        if owners is not None:
            room = max(0, -(-len(due) // owners) - len(kept & due))
    renew = time.monotonic() - clock.renewed > lease.seconds / 3
    if not wanted or (not renew and not (free and room != 0)):
        clock.held = kept  # nothing to take, and the leases hold until the next renewal
        return clock.held
    clock.held = storage.hold_clocks(lease.owner, sorted(wanted), now, lease.seconds, room)
    clock.renewed = time.monotonic()
    return clock.held


def _clock_owners(services: Services, needed: bool) -> int | None:
    """How many processes run this clock (storage's count, read again at most every ``OWNERS_SECONDS``
    and only when ``needed``: channels this process might take); this one said to run it."""
    clock, lease = services.clock, services.clock_lease
    counted, at = clock.owners
    if not needed or time.monotonic() - at < OWNERS_SECONDS:
        services.storage.clock_owners(lease.owner, services.clock_scope, count=False)
        return counted
    counted = services.storage.clock_owners(lease.owner, services.clock_scope)
    clock.owners = (counted, time.monotonic())
    return counted


def claim_clock(services: Services, channel: str, now: float) -> None:
    """The process that opens a round runs its clock if it can (it is searching the round's top)."""
    if not channel.startswith(services.clock_scope):
        return
    clock, lease = services.clock, services.clock_lease
    if channel not in clock.held:  # held: renewed by ticks
        clock.held |= services.storage.hold_clocks(lease.owner, [channel], now, lease.seconds)
    if channel in clock.held:
        clock.claimed(channel)


def _waiting_for_list(
    services: Services, record: GameRecord, number: int, lang: str, preparing: ListPreparingError
) -> list[Reply]:
    """Said once when a round's time is up while its list is being prepared."""
    if (record.id, number) in services.clock.waiting_for_list:
        return []
    services.clock.waiting_for_list.add((record.id, number))
    name, seconds = preparing_name(lang, preparing), preparing.expected_seconds
    return [Reply(say(lang, "dup_waiting_list", n=number, name=name, seconds=seconds), channel=record.channel)]


def _clock_step(services: Services, deadline: Deadline, now: float) -> list[Reply]:
    """One stored deadline, re-read and acted on in a transaction of its own (its replies stored with it)."""
    with services.games.transaction(services.storage), services.lists.remembering():
        services.storage.lock_channel(deadline.channel)
        record = services.storage.game(deadline.game)
        return services.outbox.enqueue(kind_of(record.kind).clock(services, record, deadline, now))


def clock_decision(services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
    """What the clock does about one stored deadline of a duplicate game: nothing, bring storage in line,
    warn, or close."""
    storage = services.storage
    lang = storage.channel(deadline.channel).language
    game = game_of(services, record)
    current = game.current
    due = game.deadline(current) if current is not None else None
    if record.status is not GameStatus.ACTIVE or current is None or due is None or current.number != deadline.round:
        if record.status is not GameStatus.ACTIVE:
            storage.open_round(record.id, 0, None)
        else:  # the round read is no longer the open one: storage's copy follows the game
            sync_deadline(storage, record, game)
        return []
    if now >= due:
        try:
            round_lists(services, record)
        except ListPreparingError as preparing:  # the round closes at a later tick, once its list is ready
            return _waiting_for_list(services, record, current.number, lang, preparing)
        return close_round(services, storage, record, game, lang, now, "clock")
    if due != deadline.at:
        sync_deadline(storage, record, game)
    key = (record.id, current.number)
    if key in services.clock.warned:
        return []
    if due - now > warning_lead(game):  # nothing to do before the warning: the ticks until then skip it
        services.clock.quiet[(deadline.game, deadline.round, deadline.at)] = due - warning_lead(game)
        return []
    services.clock.warned.add(key)
    seconds = max(1, round(due - now))
    warning = say(lang, "dup_warning", n=current.number, seconds=seconds)
    return [Reply(warning, channel=record.channel, expires=due)]
