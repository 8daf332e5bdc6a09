"""The top of a draw of more tiles than may be placed, or with another bonus: the 7/8 formats (FISF 3.8.2).

The plays of at most seven tiles of an eight-tile draw are the plays of its seven-tile parts: each part is
searched by ``core.movegen.find_top`` with the edition's usual rack and bonus; in "7 et 8" the plays of all
eight tiles are searched apart, the 75 points counted. Any draw size works alike (a "7 sur 9": the 36
seven-tile parts), each count placed beyond the rack searched in its own parts with its own bonus.
The plays found are merged, each once, in the top
order of ``core.movegen``. How many plays score the top counts each of them once, from every part's keys
of its tied plays (``TopResult.top_keys``): a play of fewer tiles is found in several parts, and a part may
hold more tied plays than the ``count`` it builds (the first move AEILNRST has 246 tops in "7 sur 8", not
the 66 the plays built held; 14 in "7 et 8", not 12).
"""

from __future__ import annotations

import dataclasses
import itertools

from .board import Board
from .edition import Edition
from .lexicon import Lexicon
from .movegen import Play, PlayKey, SearchStats, TopResult, find_top
from .movegen_plays import play_order
from .tie import TieRule


def needs_parts(edition: Edition) -> bool:
    """Whether the edition's draws hold more tiles than its usual rack (a 7/8 format)."""
    return edition.draw_size > min((n for n, _ in edition.bonuses), default=edition.rack_size)


def find_format_top(
    board: Board,
    tiles: str,
    lexicon: Lexicon,
    edition: Edition,
    count: int = 1,
    *,
    first_move_horizontal_only: bool = False,
) -> TopResult:
    """The ``count`` best plays of the draw ``tiles`` (symbols, ``?`` jokers) under the edition's format:
    at most ``edition.rack_size`` tiles placed, each count placed paid ``edition.bonus_for``."""
    seven = min((n for n, _ in edition.bonuses), default=edition.rack_size)
    usual = dataclasses.replace(
        edition, rack_size=seven, draw_tiles=0, bonuses=(), bingo_bonus=edition.bonus_for(seven)
    )
    flags = {"first_move_horizontal_only": first_move_horizontal_only}
    if len(tiles) <= seven:
        return find_top(board, tiles, lexicon, usual, count, **flags)
    parts = _parts(tiles, seven)
    results = [find_top(board, part, lexicon, usual, count, keep_ties=True, **flags) for part in parts]
    plays: list[Play] = [p for r in results for p in r.plays]
    tied: list[tuple[int, frozenset[PlayKey]]] = [(r.plays[0].total, r.top_keys) for r in results if r.plays]
    for placed in range(seven + 1, min(edition.rack_size, len(tiles)) + 1):  # more than the rack: their bonus
        more = dataclasses.replace(
            edition, rack_size=placed, draw_tiles=0, bonuses=(), bingo_bonus=edition.bonus_for(placed)
        )
        for part in _parts(tiles, placed):
            found = find_top(board, part, lexicon, more, count, keep_ties=True, **flags)
            results.append(found)
            plays += [p for p in found.plays if len(p.placement.new_tiles) == placed]
            all_placed = frozenset(k for k in found.top_keys if len(k[2]) == placed)
            tied += [(found.plays[0].total, all_placed)] if found.plays else []
    unique = {p.placement.notation(): p for p in plays}
    merged = sorted(unique.values(), key=play_order)[:count]
    best = merged[0].total if merged else None
    top_count = len(frozenset[PlayKey]().union(*(keys for total, keys in tied if total == best)))
    stats = SearchStats(
        *(sum(getattr(r.searched, f) for r in results) for f in ("starts", "searched", "pruned", "plays_seen"))
    )
    return TopResult(tuple(merged), _tie_rule(merged, results), stats, top_count)


def _parts(tiles: str, size: int) -> list[str]:
    """Every distinct part of ``size`` tiles of the draw ``tiles`` (one character a tile), in order."""
    return sorted({"".join(chosen) for chosen in itertools.combinations(tiles, size)})


def _tie_rule(plays: list[Play], results: list[TopResult]) -> TieRule:
    """The rule that put the first play ahead, as ``find_top`` names it."""
    if not plays:
        return TieRule.NONE
    if len(plays) > 1:
        first, second = plays[0], plays[1]
        if second.total < first.total:
            return TieRule.SCORE
        return TieRule.FEWEST_JOKERS if second.jokers > first.jokers else TieRule.ORDER
    alone = all(r.tie_rule in (TieRule.UNIQUE, TieRule.NONE) for r in results)
    return TieRule.UNIQUE if alone else TieRule.SCORE
