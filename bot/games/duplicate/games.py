"""A duplicate game's loading and saving, the open round's deadline kept for the clock, and the top
searched while players think.

Deadlines are absolute times kept in the game's events; storage keeps a copy of the open round's
deadline for the clock (``sync_deadline``), rewritten from the game after every change.
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import Future
from typing import Any

from core.board import Board
from core.duplicate import (
    DuplicateEvent,
    DuplicateGame,
    MoveSubmitted,
    PlayerJoined,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
)
from core.movegen import TopResult

from ...commands.context import Context, UserError
from ...commands.services import Services
from ...storage import GameKind, GameRecord, Storage
from ...words.game_lists import game_list
from ...words.house import HouseList
from ...words.loader import ListPreparingError
from ..simultane.tops import TopKey, shared_top

WARNING_SECONDS = 30  # the clock's call before a round's end (FISF 3.3), at most this long before it
TOPS_KEPT = 4096  # tops searched ahead, at most (one per open round; as many as the game cache keeps games)
TOP_PLAYS = 12  # plays asked of the move generator: the top, those tied with it, the best under it


# --- loading and saving ------------------------------------------------------------------


def load_game(storage: Storage, record: GameRecord) -> DuplicateGame:
    """The game rebuilt from all its stored events (no cache)."""
    return build_from_data(record, [e.data for e in storage.events(record.id)])


def build_from_data(record: GameRecord, events: list[dict[str, Any]]) -> DuplicateGame:
    return DuplicateGame.from_events(event_from_dict(data) for data in events)


def apply_data(game: DuplicateGame, data: dict[str, Any]) -> None:
    game.apply_stored(event_from_dict(data))


def game_of(services: Services, record: GameRecord) -> DuplicateGame:
    """The game, from the cache of duplicate games brought up to date."""
    return services.duplicate_games.load(services.storage, record)


def save(
    services: Services,
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
        services.duplicate_games.append(services.storage, record, game, data, author)
    if not all(isinstance(event, _KEEP_DEADLINE) for event in events):
        deadline = sync_deadline(services.storage, record, game)
        if game.current is not None and deadline is not None:  # the clock has nothing to do before its call
            services.clock.quiet[(record.id, game.current.number, deadline)] = deadline - warning_lead(game)


_KEEP_DEADLINE = (MoveSubmitted, PlayerJoined)  # events that never move a round's deadline


def warning_lead(game: DuplicateGame) -> float:
    """Seconds before the deadline to warn (the call of 3.3): 30, 20 on the blitz clock chosen by name, or
    half the time on clocks shorter than a minute."""
    return min(WARNING_SECONDS, game.settings.call_seconds)


def sync_deadline(storage: Storage, record: GameRecord, game: DuplicateGame) -> float | None:
    """Storage's copy of the open round's deadline, as the game says (none when paused or closed); that
    deadline."""
    round_ = game.current
    deadline = game.deadline(round_) if round_ is not None and not game.finished else None
    storage.open_round(record.id, round_.number if round_ is not None else 0, deadline)
    return deadline


def active_duplicate(ctx: Context) -> tuple[GameRecord, DuplicateGame]:
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not GameKind.DUPLICATE:
        raise UserError("dup_none")
    return record, game_of(ctx.services, record)


# --- the top, computed while players think -----------------------------------------------


def lists_channel(record: GameRecord) -> str:
    """The channel whose house words a game's lists take: none for a simultané's game (every room checks
    the same list and finds the same tops), else the game's own channel."""
    return "" if record.setup.simultane else record.channel


def _top_key(record: GameRecord, game: DuplicateGame, lexicon: str) -> tuple[int | str, int, str, str]:
    """What a top search is kept under: the game's round, or for a simultané's game the simultané's round
    (every room's board is the same there: one search serves all the rooms of this process)."""
    round_ = game.current
    draw = round_.draw.letters if round_ is not None and round_.draw is not None else ""
    owner: int | str = f"simultane:{record.setup.simultane}" if record.setup.simultane else record.id
    return (owner, game.move_number, draw, lexicon)


def _finder(services: Services, record: GameRecord, game: DuplicateGame) -> tuple[str, Any]:
    """The registry's name of the list the top is searched in (the channel's house words applied), and a
    top finder on it; ListPreparingError while that list is being prepared."""
    name = services.lists.movegen_name(game_list(record.setup), lists_channel(record))
    lexicon = services.lexicons.ready(name)
    finder = movegen_top_finder(lexicon, game.edition, game.settings, count=TOP_PLAYS)
    if not (record.setup.simultane and services.storage.arrivals_shared):
        return name, finder
    # a simultané's top on a store other processes share: searched once for all of them
    key = TopKey(record.setup.simultane, game.move_number, _top_key(record, game, name)[2], name)

    def find(board: Board, letters: str) -> Any:
        return shared_top(services, key, board, game.edition, lambda: finder(board, letters))

    return name, find


def start_top(services: Services, record: GameRecord, game: DuplicateGame) -> Future[Any] | None:
    """Begin searching the top of the open round in the background (not before its list is ready);
    the search under way, if any."""
    round_ = game.current
    if round_ is None or round_.draw is None:
        return None
    try:
        name, finder = _finder(services, record, game)
    except ListPreparingError:
        return None  # searched when the round closes
    key = _top_key(record, game, name)
    if key not in services.clock.tops:
        tops = services.clock.tops
        for old in [k for k in tops if k[0] == record.id]:
            tops.pop(old, None)  # a round of this game already closed (or its list changed)
        for old in list(itertools.islice(tops, max(0, len(tops) + 1 - TOPS_KEPT))):
            tops.pop(old, None)  # too many: the oldest go (was every one past the bound: 300 rooms searched twice)
        board, letters = game.board.copy(), round_.draw.letters
        due = game.deadline(round_)
        searches = services.clock.searches
        services.clock.tops[key] = searches.submit(math.inf if due is None else due, finder, board, letters)
    return services.clock.tops[key]


def ensure_top(services: Services, record: GameRecord, game: DuplicateGame) -> None:
    """Wait (outside any transaction) for the open round's top, starting its search if needed."""
    future = start_top(services, record, game)
    if future is not None:
        future.result()


def top_finder(services: Services, record: GameRecord, game: DuplicateGame) -> Any:
    """The precomputed top when there is one for the list in force (waiting for it if needed), else a
    search now; ListPreparingError while the list is being prepared."""
    name, finder = _finder(services, record, game)
    key = _top_key(record, game, name)
    # a simultané's search is left for its other rooms (dropped with the oldest ones, past TOPS_KEPT)
    kept = services.clock.tops.get(key) if record.setup.simultane else services.clock.tops.pop(key, None)
    future: Future[TopResult] | None = kept

    def find(board: Board, letters: str) -> TopResult:
        if future is not None:
            return future.result()
        result: TopResult = finder(board, letters)
        return result

    return find


def round_lists(services: Services, record: GameRecord) -> tuple[HouseList, str]:
    """What closing a round needs: the list the submissions are checked with, and the name of the one the
    top is searched in; ListPreparingError while either is being prepared."""
    spec = game_list(record.setup)
    verdicts = services.lists.verdicts(spec, lists_channel(record))
    name = services.lists.movegen_name(spec, lists_channel(record))
    services.lexicons.ready(name)
    return verdicts, name
