"""Duplicate commands over chat: /duplicate /draw /play /close, the clock, and the duplicate side of
/join /end and the views (record, board, unseen tiles, export, standings).

Submissions are private: a /play sent in the open is refused unrecorded, and
nothing a player submitted appears in the channel before the round closes.
Deadlines are absolute times kept in the game's events; storage keeps a copy of
the open round's deadline for the clock (``sync_deadline``), rewritten from the
game after every change, so the clock (``clock_tick``) warns 30 s before, closes
rounds when time is up (also after a restart) and draws the next.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from core.board import Board
from core.draw import Shortfall, unseen_tiles
from core.duplicate import (
    DrawMade,
    DuplicateEvent,
    DuplicateGame,
    DuplicateSettings,
    MoveSubmitted,
    PlayerJoined,
    Round,
    RoundClosed,
    RoundReopened,
    SubmissionResult,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
)
from core.edition import edition_by_code
from core.errors import (
    ArbitreError,
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoDrawPossibleError,
    NoJokerLeftError,
    NotationError,
    WordNotInLexiconError,
)
from core.game import find_player, player_key
from core.movegen import TopResult
from core.names import mixes_scripts
from core.notation import Notation, notation_by_name
from core.tie import TieRule

from ..chat import Reply
from ..house_words import HouseList
from ..lexicons import ListPreparingError
from ..messages import decimal, explain, mid_sentence, number, say
from ..numbers import looks_like_number
from ..render import (
    DuplicateBoardView,
    RoundResultRow,
    RoundResultView,
    StandingsView,
    board_text,
    duplicate_board_png,
    round_result_png,
    standings_png,
    table,
)
from ..render.record import end_reason_text, record_table, standings_text
from ..storage import Deadline, GameKind, GameRecord, GameSetup, GameStatus, RoundClosedTwiceError, Storage
from ..timefmt import clock_time, time_left
from ..word_lists import VERDICT_KEY, ListUsed, preparing_name
from . import seats
from .context import Context, UserError
from .formatting import breakdown, split_claimed, tiles_text
from .registry import Access, Section, command

if TYPE_CHECKING:
    from ..referee import Referee

WARNING_SECONDS = 30
JUST_DRAWN_SECONDS = 15  # a first answer this soon after a draw is shown may be meant for the round before
MIN_MINUTES, MAX_MINUTES = 0.05, 10.0  # time per move: 3 seconds (training, tests) to 10 minutes
TOPS_KEPT = 64  # tops searched ahead, at most (one per open round)
TOP_PLAYS = 12  # plays asked of the move generator: the top, those tied with it, the best under it

# --- loading and saving ------------------------------------------------------------------


def load_game(storage: Storage, record: GameRecord) -> DuplicateGame:
    """The game rebuilt from all its stored events (no cache)."""
    return build_from_data(record, [e.data for e in storage.events(record.id)])


def build_from_data(record: GameRecord, events: list[dict[str, Any]]) -> DuplicateGame:
    return DuplicateGame.from_events(event_from_dict(data) for data in events)


def apply_data(game: DuplicateGame, data: dict[str, Any]) -> None:
    game.apply(event_from_dict(data))


def game_of(referee: Referee, record: GameRecord) -> DuplicateGame:
    """The game, from the referee's cache brought up to date."""
    return referee.duplicate_games.load(referee.storage, record)


def save(
    referee: Referee,
    record: GameRecord,
    game: DuplicateGame,
    events: list[DuplicateEvent],
    author: str,
    extra: dict[str, Any] | None = None,
) -> None:
    """Store events the game has already applied (``extra`` stored with each: what replaying does not
    need), and the open round's deadline for the clock."""
    for event in events:
        data = {**event_to_dict(event), **(extra or {})}
        referee.duplicate_games.append(referee.storage, record, game, data, author)
    if not all(isinstance(event, _KEEP_DEADLINE) for event in events):
        sync_deadline(referee.storage, record, game)


_KEEP_DEADLINE = (MoveSubmitted, PlayerJoined)  # events that never move a round's deadline


def sync_deadline(storage: Storage, record: GameRecord, game: DuplicateGame) -> None:
    """Storage's copy of the open round's deadline, as the game says (none when paused or closed)."""
    round_ = game.current
    deadline = game.deadline(round_) if round_ is not None and not game.finished else None
    storage.open_round(record.id, round_.number if round_ is not None else 0, deadline)


def active_duplicate(ctx: Context) -> tuple[GameRecord, DuplicateGame]:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not GameKind.DUPLICATE:
        raise UserError("dup_none")
    return record, game_of(ctx.referee, record)


# --- the top, computed while players think -----------------------------------------------


def _top_key(record: GameRecord, game: DuplicateGame, lexicon: str) -> tuple[int, int, str, str]:
    round_ = game.current
    draw = round_.draw.letters if round_ is not None and round_.draw is not None else ""
    return (record.id, game.move_number, draw, lexicon)


def _finder(referee: Referee, record: GameRecord, game: DuplicateGame) -> tuple[str, Any]:
    """The registry's name of the list the top is searched in (the channel's house words applied), and a
    top finder on it; ListPreparingError while that list is being prepared."""
    spec = record.setup.lexicon
    name = referee.lists.movegen_name(spec, record.channel)
    lexicon = referee.lexicons.ready(name)
    return name, movegen_top_finder(lexicon, game.edition, game.settings, count=TOP_PLAYS)


def start_top(referee: Referee, record: GameRecord, game: DuplicateGame) -> Future[Any] | None:
    """Begin searching the top of the open round in the background (not before its list is ready);
    the search under way, if any."""
    round_ = game.current
    if round_ is None or round_.draw is None:
        return None
    try:
        name, finder = _finder(referee, record, game)
    except ListPreparingError:
        return None  # searched when the round closes
    key = _top_key(record, game, name)
    if key not in referee.clock.tops:
        for old in [k for k in referee.clock.tops if k[0] == record.id or len(referee.clock.tops) > TOPS_KEPT]:
            referee.clock.tops.pop(old, None)  # a round of this game already closed (or its list changed), or too many
        board, letters = game.board.copy(), round_.draw.letters
        referee.clock.tops[key] = referee.clock.background.submit(finder, board, letters)
    return referee.clock.tops[key]


def ensure_top(referee: Referee, record: GameRecord, game: DuplicateGame) -> None:
    """Wait (outside any transaction) for the open round's top, starting its search if needed."""
    future = start_top(referee, record, game)
    if future is not None:
        future.result()


def top_finder(referee: Referee, record: GameRecord, game: DuplicateGame) -> Any:
    """The precomputed top when there is one for the list in force (waiting for it if needed), else a
    search now; ListPreparingError while the list is being prepared."""
    name, finder = _finder(referee, record, game)
    future: Future[TopResult] | None = referee.clock.tops.pop(_top_key(record, game, name), None)

    def find(board: Board, letters: str) -> TopResult:
        if future is not None:
            return future.result()
        result: TopResult = finder(board, letters)
        return result

    return find


def round_lists(referee: Referee, record: GameRecord) -> tuple[HouseList, str]:
    """What closing a round needs: the list the submissions are checked with, and the name of the one the
    top is searched in; ListPreparingError while either is being prepared."""
    spec = record.setup.lexicon
    verdicts = referee.lists.verdicts(spec, record.channel)
    name = referee.lists.movegen_name(spec, record.channel)
    referee.lexicons.ready(name)
    return verdicts, name


# --- formatting ----------------------------------------------------------------------------


def draw_reply(lang: str, zone: str, record: GameRecord, game: DuplicateGame, channel: str, now: float) -> Reply:
    """The open round's draw, with the time left at ``now`` and the deadline (or its paused clock)."""
    round_ = game.current
    assert round_ is not None and round_.draw is not None
    deadline = game.deadline(round_)
    if deadline is None:
        text = say(lang, "dup_draw_paused", n=round_.number, draw=round_.draw.spelled(game.edition))
    else:
        text = say(
            lang,
            "dup_draw",
            n=round_.number,
            draw=round_.draw.spelled(game.edition),
            left=time_left(deadline - now),
            clock=clock_time(deadline, zone),
        )
    if round_.rejected:
        rejected = " ".join(d.spelled(game.edition) for d in round_.rejected)
        text = say(lang, "dup_rejected_draws", draws=rejected) + "\n" + text
    if round_.shortfall is not None:
        text += "\n" + say(lang, "dup_shortfall", shortfall=shortfall_text(lang, round_.shortfall))
    return Reply(text, channel=channel, deadline=deadline, edit_key=f"dup-{record.id}-{round_.number}")


def shortfall_text(lang: str, shortfall: Shortfall) -> str:
    """``BCDFGHJ : 0 voyelle, 7 consonnes ; le coup 1 en demande 2 de chaque``."""
    return say(
        lang,
        "draw_shortfall",
        letters=shortfall.letters or "-",
        vowels=say(lang, "count_vowels", count=shortfall.vowels),
        consonants=say(lang, "count_consonants", count=shortfall.consonants),
        either=say(lang, "count_either", count=shortfall.either) if shortfall.either else "",
        n=shortfall.move_number,
        needed=shortfall.needed,
    )


def reason_text(lang: str, result: SubmissionResult, notation: Notation) -> str:
    """Why a move counts 0, to be set mid-sentence after « : » or « — » (its first word lowercased, no
    final period)."""
    error = result.error
    if isinstance(error, WordNotInLexiconError):
        return say(lang, "dup_reason_not_a_word", words=", ".join(error.words), count=len(error.words))
    if isinstance(error, JokerNotMarkedError):
        return say(lang, "dup_reason_joker", letters=", ".join(error.letters))
    if isinstance(error, NoJokerLeftError):
        return say(lang, "dup_reason_no_joker", letters=", ".join(error.letters))
    if isinstance(error, LettersNotInDrawError):
        return say(lang, "dup_reason_not_in_draw", letters=", ".join(error.letters))
    if isinstance(error, LateSubmissionError):
        return say(lang, "dup_reason_late")
    if isinstance(error, NotationError):
        return say(lang, "dup_reason_unreadable")
    if error is not None:
        return mid_sentence(explain(error, lang, notation.value)).rstrip(".")
    return ""


def _fisf_to_game(game: DuplicateGame, move: str) -> str:
    """A play stored in FISF notation, written in the game's notation."""
    from core.notation import format_move, parse_move

    return format_move(parse_move(move, Notation.FISF), game.notation)


def tie_rule_text(lang: str, round_: Round) -> str:
    """Why the first of tied tops was placed: fewest jokers, board order, or the arbiter's choice."""
    rule = round_.tie_rule if round_.tie_rule in (TieRule.FEWEST_JOKERS, TieRule.ARBITER) else TieRule.ORDER
    return say(lang, f"tie_rule_{rule}")


def tie_text(lang: str, game: DuplicateGame, round_: Round) -> str:
    """The tops tied with the one placed, numbered for /top N (the first ones, then how many more), and the
    rule that placed the first."""
    assert round_.top is not None
    choices = [round_.top.notation(game.notation), *(_fisf_to_game(game, m) for m in round_.tied)]
    listed = " · ".join(f"{n}) {m}" for n, m in enumerate(choices, 1))
    more = round_.tops_shared - len(choices)
    if more > 0:
        listed = say(lang, "dup_tie_more", tied=listed, count=more)
    return say(lang, "dup_tie", tied=listed, rule=tie_rule_text(lang, round_))


def round_text(lang: str, game: DuplicateGame, round_: Round) -> str:
    draw = round_.draw.spelled(game.edition) if round_.draw else ""
    if round_.top is None or round_.top_score is None:
        lines = [say(lang, "dup_no_top", n=round_.number, draw=draw)]
    else:
        lines = [
            say(
                lang,
                "dup_result",
                n=round_.number,
                draw=draw,
                top=round_.top.notation(game.notation),
                points=round_.top_points,
                breakdown=breakdown(round_.top_score, lang),
            )
        ]
        if round_.tied:
            lines.append(tie_text(lang, game, round_))
        if round_.runners_up:
            others = " · ".join(f"{_fisf_to_game(game, m)} {p}" for m, p in round_.runners_up)
            lines.append(say(lang, "dup_runners_up", plays=others))
    solo = game.solo(round_)
    if not game.players:
        lines.append(say(lang, "dup_nobody_played"))
    for player in game.players:
        result = round_.results.get(player)
        if result is None and player not in round_.recorded:
            lines.append(say(lang, "dup_no_answer", player=player))
            continue
        score = round_.score_of(player)
        extra = ""
        if round_.top is not None and score == round_.top_points and score > 0:
            extra += say(lang, "dup_top_found")
        if solo == player:
            extra += say(lang, "dup_solo", bonus=game.settings.solo_bonus)
        if result is not None and not result.valid and player not in round_.recorded:
            extra += " — " + reason_text(lang, result, game.notation)
        if result is not None and result.claimed_differs:
            extra += say(lang, "dup_claim", claimed=result.claimed)
        if player in round_.corrections:
            extra += say(lang, "dup_corrected", reason=round_.corrections[player] or "-")
        move = result.move if result is not None and player not in round_.recorded else "-"
        lines.append(say(lang, "dup_player_line", player=player, move=move, score=score, extra=extra))
    return "\n".join(lines)


def results_csv(lang: str, game: DuplicateGame) -> bytes:
    """Every player's place, total, gap and percentage, then the score of each move (UTF-8 CSV, headers in
    ``lang``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    heads = [say(lang, f"col_{key}") for key in ("place", "player", "total", "gap", "percent", "solos")]
    writer.writerow([*heads, *[say(lang, "col_move_number", n=r.number) for r in game.closed_rounds]])
    top = say(lang, "col_top")
    writer.writerow(["", top, game.tops_total, 0, "100.0", "", *[r.top_points for r in game.closed_rounds]])
    for standing in game.standings():
        scores = [r.score_of(standing.player) for r in game.closed_rounds]
        writer.writerow(
            [
                standing.place,
                standing.player,
                standing.total,
                standing.gap,
                f"{standing.percent:.1f}",
                standing.solos,
                *scores,
            ]
        )
    return out.getvalue().encode("utf-8")


def tie_note(lang: str, round_: Round) -> str:
    """A short line on tied tops for the result image (the text lists them, numbered for /top N)."""
    if not round_.tied:
        return ""
    return say(lang, "dup_tie_short", count=round_.tops_shared, rule=tie_rule_text(lang, round_))


def result_view(lang: str, game: DuplicateGame, round_: Round) -> RoundResultView:
    """What the image of a closed round shows: its draw, its top and every player's line."""
    solo = game.solo(round_)
    rows = []
    for player in game.players:
        result = round_.results.get(player)
        entered = player in round_.recorded  # points the referee typed: no move to show
        notes = []
        if result is not None and not result.valid and not entered:
            notes.append(reason_text(lang, result, game.notation))
        if player in round_.corrections:
            notes.append(say(lang, "dup_corrected_note", reason=round_.corrections[player] or "-"))
        score = round_.score_of(player)
        rows.append(
            RoundResultRow(
                player,
                score,
                move=result.move if result is not None and not entered else "",
                note="; ".join(notes),
                found_top=round_.top is not None and score == round_.top_points and score > 0,
                solo_bonus=game.settings.solo_bonus if solo == player else 0,
                answered=result is not None or entered,
            )
        )
    return RoundResultView(
        language=lang,
        round_number=round_.number,
        draw=round_.draw.spelled(game.edition) if round_.draw else "",
        top_move=round_.top.notation(game.notation) if round_.top is not None else "",
        top_points=round_.top_points,
        rows=tuple(rows),
        top_note=tie_note(lang, round_),
    )


def standings_view(lang: str, game: DuplicateGame) -> StandingsView:
    """What the standings image shows: every player's place, total, gap and percentage of the tops."""
    return StandingsView(lang, len(game.closed_rounds), game.tops_total, tuple(game.standings()))


def standings_image(lang: str, game: DuplicateGame) -> bytes | None:
    """The standings as a PNG; None while nobody plays (the text says so, no empty table is drawn)."""
    return standings_png(standings_view(lang, game)) if game.players else None


def result_replies(images: bool, lang: str, channel: str, game: DuplicateGame, round_: Round) -> list[Reply]:
    """A closed round's result and the standings: one text, or with images two replies each with its text."""
    result, standings = round_text(lang, game, round_), standings_text(lang, game)
    if not images:
        return [Reply(result + "\n\n" + standings, channel=channel)]
    return [
        Reply(
            result, channel=channel, image=round_result_png(result_view(lang, game, round_)), image_name="result.png"
        ),
        Reply(standings, channel=channel, image=standings_image(lang, game), image_name="standings.png"),
    ]


def count_reply(lang: str, record: GameRecord, game: DuplicateGame, *, live: bool = True) -> Reply | None:
    """ "N of M have played" for the open round (counts only, never moves), editing itself as it grows:
    a live line (at most one edit per the platform's interval, the latest count); ``live=False`` at the
    close, so that the count is exact before the results."""
    round_ = game.current
    if round_ is None or round_.draw is None:
        return None
    played = len({s.player for s in round_.submissions})
    text = say(lang, "dup_count", n=round_.number, played=played, players=len(game.players))
    deadline = game.deadline(round_)
    key = f"dup-count-{record.id}-{round_.number}"
    return Reply(text, channel=record.channel, edit_key=key, expires=None if not live else deadline, live=live)


def joined_this_move(game: DuplicateGame) -> list[str]:
    """The players who joined since the last move closed (or was reopened), in order."""
    events = game.events
    start = max((i + 1 for i, e in enumerate(events) if isinstance(e, RoundClosed | RoundReopened)), default=0)
    return [e.player for e in events[start:] if isinstance(e, PlayerJoined)]


def joins_reply(lang: str, record: GameRecord, game: DuplicateGame, *, live: bool = True) -> Reply | None:
    """One line for the players who joined at this move (« P01, P02 et P03 rejoignent la partie au coup 1. »),
    editing itself as players arrive: a live line like the counter, never one message per player."""
    names = joined_this_move(game)
    if not names:
        return None
    listed = names[0] if len(names) == 1 else say(lang, "list_and", first=", ".join(names[:-1]), last=names[-1])
    text = say(lang, "dup_arrivals", players=listed, count=len(names), n=game.move_number)
    key = f"dup-joins-{record.id}-{game.move_number}"
    return Reply(text, channel=record.channel, edit_key=key, live=live)


def live_lines_at_close(lang: str, record: GameRecord, game: DuplicateGame) -> list[Reply]:
    """The open round's counter and join line brought up to date at once (before its results)."""
    round_ = game.current
    played = round_ is not None and bool(round_.submissions)
    count = count_reply(lang, record, game, live=False) if played else None
    lines = [count, joins_reply(lang, record, game, live=False)]
    return [line for line in lines if line is not None]


# --- flow ------------------------------------------------------------------------------------


def open_next_round(
    referee: Referee, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float
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
            save(referee, record, game, again, "clock")
            return [_shown_again(referee, storage, record, game, lang, now)]
    if record.setup.manual:
        return [*notes, Reply(say(lang, "dup_wait_draw"), channel=record.channel)]
    try:
        events = game.draw(random.Random(), at=now)
    except NoDrawPossibleError as error:
        letters = game.edition.spell_tiles(error.letters)
        return notes + finish(referee, record, game, lang, say(lang, "dup_end_no_valid_draw", letters=letters))
    save(referee, record, game, events, "clock")
    start_top(referee, record, game)
    claim_clock(referee, record.channel, now)
    zone = storage.channel(record.channel).zone
    return [*notes, draw_reply(lang, zone, record, game, record.channel, now)]


def _shown_again(
    referee: Referee, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float
) -> Reply:
    """The draw made again after a reopening, said to be the one already shown."""
    start_top(referee, record, game)
    claim_clock(referee, record.channel, now)
    reply = draw_reply(lang, storage.channel(record.channel).zone, record, game, record.channel, now)
    round_ = game.current
    number = round_.number if round_ is not None else game.move_number
    return dataclasses.replace(reply, text=say(lang, "dup_draw_kept", n=number) + "\n" + reply.text)


def finish(referee: Referee, record: GameRecord, game: DuplicateGame, lang: str, reason: str) -> list[Reply]:
    """End the game: its standings; its game and tops leave memory (it is rebuilt if anyone looks again)."""
    referee.storage.set_game_status(record.id, GameStatus.ENDED)
    referee.duplicate_games.forget(record.id)
    referee.clock.forget_game(record.id)
    text = say(lang, "dup_over", reason=reason) + "\n" + standings_text(lang, game)
    return [Reply(text, channel=record.channel)]


def close_round(
    referee: Referee, storage: Storage, record: GameRecord, game: DuplicateGame, lang: str, now: float, author: str
) -> list[Reply]:
    """Close the open round: results, standings, then the next draw or the end.

    Raises ListPreparingError, before any change, while the round's list is being prepared.
    """
    verdicts, _ = round_lists(referee, record)
    live_lines = live_lines_at_close(lang, record, game)
    event = game.close_round(top_finder(referee, record, game), verdicts)
    closed = game.closed_rounds[-1]
    storage.mark_closed(record.id, closed.number)  # the database refuses a second close of a round
    used = ListUsed(verdicts.spec, verdicts.house)  # kept with the close: replaying needs no word list
    save(referee, record, game, [event], author, {VERDICT_KEY: used.to_data(round=closed.number)})
    referee.clock.warned.discard((record.id, closed.number))
    referee.clock.waiting_for_list.discard((record.id, closed.number))
    draw = closed.draw.spelled(game.edition) if closed.draw else ""
    replies = [
        *live_lines,
        Reply(  # the draw's message stops counting down
            say(lang, "dup_round_closed", n=closed.number, draw=draw),
            channel=record.channel,
            edit_key=f"dup-{record.id}-{closed.number}",
        ),
        *result_replies(referee.images, lang, record.channel, game, closed),
    ]
    if closed.tied:
        replies.append(Reply(say(lang, "dup_tie_hint", count=closed.tops_shared), channel=record.channel))
    if game.finished:
        return replies + finish(referee, record, game, lang, end_reason_text(lang, game))
    return replies + open_next_round(referee, storage, record, game, lang, now)


def _warning_lead(game: DuplicateGame) -> float:
    """Seconds before the deadline to warn: 30, or half the time on clocks shorter than a minute."""
    return min(WARNING_SECONDS, float(game.settings.minutes) * 30)


def clock_tick(referee: Referee, now: float, publish: Callable[[list[Reply]], None] | None = None) -> list[Reply]:
    """Warnings and closings due at ``now``, for every open round in storage whose channel's clock
    lease this process holds or can take (see ``bot.clock_lease``); ``publish`` is given each round's
    stored replies as soon as they are committed (300 closes in one tick: the first is not held back).

    Storage's deadline is only a pointer: each round is re-read in a transaction, and closed only if it
    is still open and its own deadline has passed; otherwise storage's copy is brought back in line.
    """
    replies: list[Reply] = []
    storage = referee.storage
    open_rounds = [d for d in storage.deadlines() if d.channel.startswith(referee.clock_scope)]
    due = [d for d in open_rounds if d.at - now <= WARNING_SECONDS]
    channels, due_channels = {d.channel for d in open_rounds}, {d.channel for d in due}
    quiet = referee.clock.quiet
    if quiet:
        keys = {(d.game, d.round, d.at) for d in open_rounds}
        referee.clock.quiet = quiet = {k: t for k, t in quiet.items() if k in keys}
    held = _hold_clocks(referee, channels, due_channels, now)
    renewed = time.monotonic()
    for deadline in due:
        if deadline.channel not in held:
            continue  # another live process runs this channel's clock
        if time.monotonic() - renewed > referee.clock_lease.seconds / 3:  # a long tick keeps its leases
            held = _hold_clocks(referee, channels, due_channels, referee.now())
            renewed = time.monotonic()
            if deadline.channel not in held:
                continue
        if now < deadline.at and (deadline.game, deadline.round) in referee.clock.warned:
            continue  # warned already: nothing to do until the deadline (no transaction for nothing)
        if now < quiet.get((deadline.game, deadline.round, deadline.at), now):
            continue  # its warning is not due yet
        if now >= deadline.at:  # the round will close: its top is found before the transaction opens
            record = storage.game(deadline.game)
            if record.status is GameStatus.ACTIVE:
                ensure_top(referee, record, game_of(referee, record))
        try:
            step = _clock_step(referee, deadline, now)
        except RoundClosedTwiceError:  # another process closed it first: nothing to do
            continue
        replies += step
        if publish is not None and step:
            publish(step)
    return replies


def _hold_clocks(referee: Referee, channels: set[str], due: set[str], now: float) -> set[str]:
    """Renew this process's leases on channels with an open round, take those of ``due`` channels
    (clock work within ``WARNING_SECONDS``) that are free or expired, give up the leases of channels
    whose round is over; the channels whose clock this process runs."""
    storage, lease, clock = referee.storage, referee.clock_lease, referee.clock
    over = clock.held - channels
    if over:
        storage.release_clocks(lease.owner, sorted(over))
    wanted = (clock.held & channels) | due
    clock.held = storage.hold_clocks(lease.owner, sorted(wanted), now, lease.seconds) if wanted else set()
    return clock.held


def claim_clock(referee: Referee, channel: str, now: float) -> None:
    """The process that opens a round runs its clock if it can (it is searching the round's top)."""
    if channel.startswith(referee.clock_scope):
        lease = referee.clock_lease
        referee.clock.held |= referee.storage.hold_clocks(lease.owner, [channel], now, lease.seconds)


def _waiting_for_list(
    referee: Referee, record: GameRecord, number: int, lang: str, preparing: ListPreparingError
) -> list[Reply]:
    """Said once when a round's time is up while its list is being prepared."""
    if (record.id, number) in referee.clock.waiting_for_list:
        return []
    referee.clock.waiting_for_list.add((record.id, number))
    name, seconds = preparing_name(lang, preparing), preparing.expected_seconds
    return [Reply(say(lang, "dup_waiting_list", n=number, name=name, seconds=seconds), channel=record.channel)]


def _clock_step(referee: Referee, deadline: Deadline, now: float) -> list[Reply]:
    """One stored deadline, re-read and acted on in a transaction of its own (its replies stored with it)."""
    with referee.storage.transaction():
        referee.storage.lock_channel(deadline.channel)
        return referee.store(_clock_decision(referee, deadline, now))


def _clock_decision(referee: Referee, deadline: Deadline, now: float) -> list[Reply]:
    """What the clock does about one stored deadline: nothing, bring storage in line, warn, or close."""
    storage = referee.storage
    record = storage.game(deadline.game)
    lang = storage.channel(deadline.channel).language
    game = game_of(referee, record)
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
            round_lists(referee, record)
        except ListPreparingError as preparing:  # the round closes at a later tick, once its list is ready
            return _waiting_for_list(referee, record, current.number, lang, preparing)
        return close_round(referee, storage, record, game, lang, now, "clock")
    if due != deadline.at:
        sync_deadline(storage, record, game)
    key = (record.id, current.number)
    if key in referee.clock.warned:
        return []
    if due - now > _warning_lead(game):  # nothing to do before the warning: the ticks until then skip it
        referee.clock.quiet[(deadline.game, deadline.round, deadline.at)] = due - _warning_lead(game)
        return []
    referee.clock.warned.add(key)
    seconds = max(1, round(due - now))
    warning = say(lang, "dup_warning", n=current.number, seconds=seconds)
    return [Reply(warning, channel=record.channel, expires=due)]


# --- commands ----------------------------------------------------------------------------


@command("duplicate", section=Section.DUPLICATE, access=Access.START, slow=True)
def cmd_duplicate(ctx: Context) -> None:
    settings = ctx.settings
    minutes: float = settings.minutes
    manual = False
    for token in ctx.tokens:
        lowered = token.lower()
        if lowered in ("manual", "manuel", "manuelle"):
            manual = True
            continue
        if not looks_like_number(token):
            raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
        value = ctx.number(token)
        if not MIN_MINUTES <= value <= MAX_MINUTES:
            raise UserError("bad_minutes", value=token[:20])
        minutes = value
    dup_settings = DuplicateSettings(minutes=minutes, notation=notation_by_name(settings.notation))
    game = DuplicateGame(edition_by_code(settings.edition), (), dup_settings, settings.lexicon)
    setup = GameSetup(
        edition=settings.edition,
        lexicon=settings.lexicon,
        notation=settings.notation,
        manual=manual,
        referee_name=seats.display_name(ctx.message),
    )
    ctx.word_list(settings.lexicon)  # fail now, not at the first closing, if the list is unusable or not ready
    ctx.referee.lists.prepare_movegen(settings.lexicon, ctx.message.channel)  # the tops' list, house words applied
    record = ctx.storage.create_game(
        ctx.message.channel, GameKind.DUPLICATE, ctx.message.user, setup, abandon_running=ctx.confirmed
    )
    save(ctx.referee, record, game, list(game.events), ctx.message.user)
    mode = ctx.say("dup_mode_manual" if manual else "dup_mode_auto")
    ctx.reply(ctx.say("dup_started", edition=settings.edition, minutes=number(ctx.lang, minutes), mode=mode))
    ctx.replies += open_next_round(ctx.referee, ctx.storage, record, game, ctx.lang, ctx.referee.now())


def status(ctx: Context, record: GameRecord, game: DuplicateGame) -> None:
    """The open round's draw, deadline and count of players who have played, as a message of its own."""
    round_ = game.current
    if game.finished or record.status is not GameStatus.ACTIVE:
        ctx.reply(ctx.say("dup_status_over", n=len(game.closed_rounds)))
        return
    if round_ is None or round_.draw is None:
        key = "dup_wait_draw" if record.setup.manual else "dup_status_between"
        ctx.reply(ctx.say(key, n=game.move_number))
        return
    shown = draw_reply(ctx.lang, ctx.settings.zone, record, game, ctx.message.channel, ctx.referee.now())
    count = count_reply(ctx.lang, record, game)
    text = shown.text + ("\n" + count.text if count is not None else "")
    ctx.reply(text, deadline=shown.deadline)  # a new message (no edit key): the draw shown again


@command("draw", section=Section.DUPLICATE, access=Access.REFEREE, read_without_args=True, slow=True)
def cmd_draw(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    text = ctx.args.strip()
    if not text:
        status(ctx, record, game)
        return
    if text in ("-", "rejet", "reject"):
        round_ = game.current
        rejected = round_.draw.spelled(game.edition) if round_ is not None and round_.draw is not None else ""
        rejection = game.reject_draw()
        save(ctx.referee, record, game, [rejection], ctx.message.user)
        ctx.reply(ctx.say("dup_draw_rejected", draw=rejected))
        if not record.setup.manual:
            ctx.replies += open_next_round(ctx.referee, ctx.storage, record, game, ctx.lang, ctx.referee.now())
        return
    event = game.draw_manual(text.upper(), at=ctx.referee.now())
    save(ctx.referee, record, game, [event], ctx.message.user)
    start_top(ctx.referee, record, game)
    ctx.replies.append(draw_reply(ctx.lang, ctx.settings.zone, record, game, ctx.message.channel, ctx.referee.now()))


def _game_for_player(ctx: Context) -> GameRecord:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is not None and record.kind is GameKind.DUPLICATE:
        return record
    mine = [g for g in ctx.storage.active_games_of(ctx.message.user) if g.kind is GameKind.DUPLICATE]
    if not mine:
        raise UserError("dup_which_game")
    ctx.storage.lock_channel(mine[0].channel)  # a private move: its game's channel, in any process
    record = ctx.storage.game(mine[0].id)  # as it stands now that no other command of its channel runs
    if record.status is not GameStatus.ACTIVE:
        raise UserError("dup_which_game")
    return record


def _player_of(ctx: Context, record: GameRecord, game: DuplicateGame) -> str | None:
    """The player this account plays as, if it joined."""
    return seats.seat_of(ctx.storage, record, ctx.message.user, game.players)


def _playing_as(ctx: Context, record: GameRecord, game: DuplicateGame) -> str | None:
    """The player this account plays as: its own, or a free seat the referee added under its name (claimed
    now, and said in the channel)."""
    seat, claimed = seats.acting_seat(ctx.storage, record, ctx.message, game.players)
    if claimed:
        ctx.reply(
            say(ctx.storage.channel(record.channel).language, "seat_claimed", player=seat), channel=record.channel
        )
    return seat


def _add_player(ctx: Context, record: GameRecord, game: DuplicateGame, wanted: str, bind: bool) -> str:
    """A new player (a free variant of ``wanted`` if another account has that name, or if it mixes Latin and
    Cyrillic or Greek letters: ``Аna (2)`` never passes for Ana), bound to the sender."""
    name = seats.free_name(wanted, [*game.players, *([wanted] if mixes_scripts(wanted) else [])])
    save(ctx.referee, record, game, [game.join(name)], ctx.message.user)
    if bind:
        seats.bind(ctx.storage, record, ctx.message.user, name)
    return name


def join(ctx: Context, record: GameRecord) -> None:
    """/join for a duplicate game: the sender plays (under NAME if given, or takes the free seat NAME);
    the referee's ``/join NAME`` adds a seat for a player with no account here, whose scores the
    referee enters."""
    game = game_of(ctx.referee, record)
    mine = _player_of(ctx, record, game)
    wanted = seats.clean_name(" ".join(ctx.tokens))
    own_name = seats.display_name(ctx.message)
    if wanted and ctx.controls(record) and player_key(wanted) != player_key(own_name):
        if find_player(game.players, wanted) is not None:
            raise UserError("err_duplicate_player", player=wanted)
        name = _add_player(ctx, record, game, wanted, bind=False)
        ctx.reply(ctx.say("dup_seat_added", player=name))
        return
    if mine is not None:
        raise UserError("already_seated", player=mine)
    target = wanted or own_name
    existing = find_player(game.players, target)
    if existing is not None and seats.owner_of(ctx.storage, record, existing) is None:
        seats.bind(ctx.storage, record, ctx.message.user, existing)
        ctx.reply(ctx.say("seat_claimed", player=existing))
        return
    _add_player(ctx, record, game, target, bind=True)
    joined = joins_reply(ctx.lang, record, game)
    assert joined is not None  # the player just added
    ctx.replies.append(joined)


@command("play", section=Section.DUPLICATE, access=Access.PLAYER, slow=True, private=True)
def cmd_play(ctx: Context) -> None:
    if not ctx.message.private:
        raise UserError("dup_not_private")
    record = _game_for_player(ctx)
    lang = ctx.storage.channel(record.channel).language
    game = game_of(ctx.referee, record)
    if not ctx.args.strip():
        raise UserError("usage", usage=ctx.spec.usage(lang))
    round_ = game.current
    if round_ is None or round_.draw is None:
        if game.closed_rounds:  # the last round closed before this move arrived
            raise UserError("dup_late", n=len(game.closed_rounds))
        raise UserError("dup_no_round")
    move, claimed = split_claimed(ctx.args.strip())
    now = ctx.message.arrived(ctx.referee.now())  # a move that waited behind others is timed by its arrival
    after_close = _just_after_close(ctx, record, game, move, now)
    player = _playing_as(ctx, record, game)
    arrived = player is None
    if player is None:
        player = _add_player(ctx, record, game, seats.display_name(ctx.message), bind=True)
    previous = next((s.move for s in reversed(round_.submissions) if s.player == player), None)
    event = game.submit(player, move, claimed, at=now)
    save(ctx.referee, record, game, [event], ctx.message.user)
    preview = game.preview(player, move)
    if after_close:
        ctx.private(after_close)
    replaced = say(lang, "dup_ack_replaced", old=previous) if previous else ""
    deadline = game.deadline(round_)
    if preview.valid and deadline is not None and now > deadline:
        ctx.private(say(lang, "dup_late", n=round_.number))
    elif preview.valid:
        ctx.private(say(lang, "dup_ack", n=round_.number, move=move, score=preview.score, replaced=replaced))
    else:
        reason = reason_text(lang, preview, game.notation)
        ctx.private(say(lang, "dup_ack_problem", n=round_.number, move=move, reason=reason.rstrip(".") + "."))
    if arrived:
        welcome = "dup_late_arrival" if game.closed_rounds else "dup_first_play_joins"
        ctx.private(say(lang, welcome, player=player, n=round_.number))
        joined = joins_reply(lang, record, game)
        if joined is not None:
            ctx.replies.append(joined)
    count = count_reply(lang, record, game)
    if count is not None and previous is None:
        ctx.replies.append(count)


def _just_after_close(ctx: Context, record: GameRecord, game: DuplicateGame, move: str, now: float) -> str:
    """For a first answer sent while the next draw has only just been shown, that fits the round just
    closed (it was meant for it): refused, nothing stored, if it does not fit the new draw; else the line
    saying which round it counts for. "" when there is nothing to say."""
    round_ = game.current
    assert round_ is not None and round_.draw is not None
    if not game.closed_rounds or round_.opened_at is None:
        return ""
    if not now - round_.opened_at < min(JUST_DRAWN_SECONDS, game.settings.seconds / 4):
        return ""  # (sent before this draw was made: meant for the round before)
    seat = _player_of(ctx, record, game)
    if seat is not None and any(s.player == seat for s in round_.submissions):
        return ""  # already answered this round: it knows the draw
    closed = game.closed_rounds[-1]
    if not game.preview_closed(closed.number, seat or "", move).valid:
        return ""  # not an answer to the round just closed: judged as usual
    lang = ctx.storage.channel(record.channel).language
    values = {"closed": closed.number, "n": round_.number, "draw": round_.draw.spelled(game.edition)}
    preview = game.preview(seat or "", move)
    if not preview.valid:
        reason = reason_text(lang, preview, game.notation).rstrip(".") + "."
        raise UserError("dup_closed_before_answer", move=move, reason=reason, **values)
    return say(lang, "dup_counts_for_next", **values)


@command("close", section=Section.DUPLICATE, access=Access.REFEREE, slow=True, needs_top=True)
def cmd_close(ctx: Context) -> None:
    record, game = active_duplicate(ctx)
    round_ = game.current
    if round_ is None or round_.draw is None:
        raise UserError("dup_no_round")
    ctx.replies += close_round(ctx.referee, ctx.storage, record, game, ctx.lang, ctx.referee.now(), ctx.message.user)


def end(ctx: Context, record: GameRecord) -> None:
    """/end for a duplicate game: it stops now, with the rounds closed so far."""
    game = game_of(ctx.referee, record)
    replies = finish(ctx.referee, record, game, ctx.lang, ctx.say("dup_end_by_referee"))
    image = standings_image(ctx.lang, game) if ctx.referee.images and game.closed_rounds else None
    if image is not None:  # the final standings, as at each close
        replies = [dataclasses.replace(reply, image=image, image_name="standings.png") for reply in replies]
    ctx.replies += replies


# --- views ---------------------------------------------------------------------------------


def sheet(ctx: Context, game: DuplicateGame) -> str:
    return "```\n" + record_table(ctx.lang, game) + "\n```\n" + standings_text(ctx.lang, game)


def top_squares(round_: Round | None) -> tuple[tuple[int, int], ...]:
    """The squares of a round's top's new tiles (none without a top)."""
    if round_ is None or round_.top is None:
        return ()
    return tuple((c.row, c.col) for c in round_.top.new_tiles)


def board_view(lang: str, zone: str, game: DuplicateGame, *, ended: bool = False) -> DuplicateBoardView:
    """What the board image shows: the open round (its draw and deadline, the previous top lit), else the
    last closed round with its top placed and lit. Once the game is over (``ended``: stopped by /end),
    no open draw nor deadline: the last closed round, marked finished."""
    common: dict[str, Any] = {
        "board": game.board,
        "edition": game.edition,
        "notation": game.notation,
        "language": lang,
        "time_zone": zone,
    }
    last = game.last_closed
    over = ended or game.finished
    current = None if over else game.current
    if over and last is None:
        return DuplicateBoardView(**common, round_number=game.move_number, closed=True, finished=True)
    if current is not None or last is None:
        number = current.number if current is not None else game.move_number
        draw = current.draw if current is not None else None
        due = game.deadline(current) if current is not None and not game.finished else None
        return DuplicateBoardView(
            **common,
            round_number=number,
            kept=draw.kept if draw is not None else "",
            new=draw.new if draw is not None else "",
            deadline=datetime.fromtimestamp(due, UTC) if due is not None and draw is not None else None,
            last_squares=top_squares(last),
        )
    return DuplicateBoardView(
        **common,
        round_number=last.number,
        kept=last.draw.kept if last.draw is not None else "",
        new=last.draw.new if last.draw is not None else "",
        closed=True,
        finished=over,
        last_squares=top_squares(last),
        top_move=last.top.notation(game.notation) if last.top is not None else "",
        top_points=last.top_points if last.top is not None else None,
    )


def board_header(ctx: Context, view: DuplicateBoardView) -> str:
    """The image's header as a line of text (console, screen readers)."""
    draw = f"{view.kept}+{view.new}" if view.kept else view.new
    n = view.round_number
    if view.finished and not draw:
        return ctx.say("dup_board_over_early")
    if view.closed:
        if not view.top_move:
            line = ctx.say("dup_board_closed_no_top", n=n, draw=draw)
        else:
            line = ctx.say("dup_board_closed", n=n, draw=draw, top=view.top_move, points=view.top_points)
        return line + (ctx.say("dup_board_over") if view.finished else "")
    if not draw:
        return ctx.say("dup_board_waiting", n=n)
    if view.deadline is None:
        return ctx.say("dup_board_paused", n=n, draw=draw)
    return ctx.say("dup_board_open", n=n, draw=draw, clock=clock_time(view.deadline.timestamp(), view.time_zone))


def board(ctx: Context, game: DuplicateGame, *, ended: bool = False) -> tuple[str, bytes | None]:
    """The board as text (header and monospace grid) and, when the referee draws images, as a PNG
    (``ended``: the game was stopped, its open round is not shown)."""
    view = board_view(ctx.lang, ctx.settings.zone, game, ended=ended)
    grid = "```\n" + board_text(game.board, game.notation, view.last_squares, ctx.lang) + "\n```"
    text = board_header(ctx, view) + "\n" + grid
    return text, duplicate_board_png(view) if ctx.referee.images else None


def moves_text(ctx: Context, record: GameRecord, game: DuplicateGame, name: str) -> str:
    """/moves for a duplicate game: the player's answer on every closed round, its score, the top and the gap
    to it; then their total and place. The open round's answers stay secret."""
    from .classic import moves_player

    player = moves_player(ctx, record, game.players, name, lambda typed: find_player(game.players, typed))
    lang = ctx.lang
    header = [
        say(lang, "col_number"),
        say(lang, "col_draw"),
        say(lang, "col_move"),
        "pts",
        "top",
        say(lang, "col_top_points"),
        say(lang, "col_gap"),
        "",
    ]
    rows: list[list[object]] = []
    solo_bonus = game.settings.solo_bonus
    for round_ in game.closed_rounds:
        view = result_view(lang, game, round_)
        row = next(r for r in view.rows if r.player == player)
        notes = [row.note] if row.note else []
        if not row.answered:
            notes.append(say(lang, "moves_no_answer"))
        if row.solo_bonus:
            notes.append(say(lang, "moves_solo", bonus=solo_bonus))
        gap = row.score - round_.top_points
        rows.append(
            [
                round_.number,
                view.draw,
                row.move or "-",
                row.score,
                view.top_move or "-",
                round_.top_points,
                f"{gap:+d}" if gap else "0",
                "; ".join(notes),
            ]
        )
    lines = [say(lang, "moves_title", player=player)]
    if rows:
        lines.append("```\n" + table(rows, header) + "\n```")
        standing = next(s for s in game.standings() if s.player == player)
        lines.append(
            say(
                lang,
                "moves_dup_summary",
                total=standing.total,
                tops=game.tops_total,
                gap=f"{standing.gap:+d}" if standing.gap else "0",
                percent=decimal(lang, standing.percent),
                place=standing.place,
                count=len(game.players),
            )
        )
    else:
        lines = [say(lang, "moves_none", player=player)]
    current = game.current
    if current is not None and current.draw is not None and record.status is GameStatus.ACTIVE:
        lines.append(say(lang, "moves_dup_open", n=current.number))
    return "\n".join(lines)


def unseen(ctx: Context, game: DuplicateGame) -> str:
    tiles = Counter(unseen_tiles(game.edition, game.board))
    return ctx.say("unseen", count=sum(tiles.values()), letters=tiles_text(tiles), bag=len(game.bag))


def export(ctx: Context, game: DuplicateGame) -> tuple[str, bytes, str]:
    return sheet(ctx, game), results_csv(ctx.lang, game), "results.csv"
