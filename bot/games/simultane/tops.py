"""A simultané's tops, searched once for every room in every process: the first process to need the top
of a move claims it in storage, searches it and stores it; the others read it (waiting while it is being
searched, taking the search over if its searcher died).

The stored top is each best play's FISF notation and score, its tie rule and how many plays score it;
it is placed again on the room's board (the same in every room) as the game replays a stored top.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.board import Board
from core.duplicate.top_choice import jokers_placed
from core.duplicate.tops import TopResultLike
from core.edition import Edition
from core.errors import ArbitreError
from core.movegen import SearchStats, TopResult
from core.movegen_plays import Play
from core.notation import Notation, parse_move
from core.placement import validate_move
from core.scoring import score_placement
from core.tie import TieRule

from ...commands.services import Services

CLAIM_SECONDS = 30.0  # a claimed top still missing after this long: its searcher died, another searches it
POLL_SECONDS = 0.05  # how often a process waiting for another's search looks again


@dataclass(frozen=True)
class TopKey:
    """Which top: the simultané's code, the move's number, its draw and the list searched."""

    code: str
    move: int
    draw: str
    lexicon: str


def top_to_json(result: TopResultLike) -> str:
    """The top as storage keeps it."""
    plays = [[p.placement.notation(Notation.FISF), p.score.total] for p in result.plays]
    return json.dumps({"plays": plays, "tie_rule": result.tie_rule.value, "top_count": result.top_count})


def top_from_json(text: str, board: Board, edition: Edition) -> TopResult:
    """The stored top placed again on ``board``; ArbitreError if one of its plays no longer fits."""
    data: dict[str, Any] = json.loads(text)
    plays: list[Play] = []
    for notation, _ in data["plays"]:
        move = parse_move(str(notation), Notation.FISF, alphabet=edition.alphabet)
        placement = validate_move(board, move, Notation.FISF, rack_size=edition.rack_size)
        plays.append(Play(placement, score_placement(placement, edition), jokers_placed(placement)))
    return TopResult(tuple(plays), TieRule(data["tie_rule"]), SearchStats(0, 0, 0, 0), int(data["top_count"]))


def shared_top(
    services: Services, key: TopKey, board: Board, edition: Edition, search: Callable[[], TopResultLike]
) -> TopResultLike:
    """The top of ``key``: stored already, or searched here once this process has claimed it, or stored by
    the process that claimed it (waited for)."""
    storage = services.storage
    owner = services.clock_lease.owner
    while True:
        stored = storage.simultane_top(key.code, key.move, key.draw, key.lexicon)
        if stored is not None:
            try:
                return top_from_json(stored, board, edition)
            except (ArbitreError, KeyError, ValueError):
                return _searched(services, search)  # a stored top this board refuses: this room's own search
        now = time.time()
        if storage.claim_simultane_top(key.code, key.move, key.draw, key.lexicon, owner, now, now - CLAIM_SECONDS):
            result = _searched(services, search)
            storage.set_simultane_top(key.code, key.move, key.draw, key.lexicon, top_to_json(result))
            return result
        time.sleep(POLL_SECONDS)  # another process is searching it


def _searched(services: Services, search: Callable[[], TopResultLike]) -> TopResultLike:
    services.clock.simultane_searches += 1
    return search()
