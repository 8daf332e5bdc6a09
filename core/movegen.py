"""Every legal play for a rack on a board, and the best plays (the top) without listing them all.

``generate_plays`` lists each distinct legal placement once (same squares, letters and
joker flags: one play; a single tile that forms words both ways is one play, named by
the direction ``validate_tiles`` gives it). ``find_top`` returns the best plays by
branch and bound. Every returned play is rebuilt through ``core.placement.validate_tiles``
and scored by ``core.scoring.score_placement``, so a generated play and the same play
typed by a player validate and score identically.

Rules applied: on an empty board the play covers the centre square with at least two
letters (both directions, or only horizontally when asked); later plays touch a tile on
the board; every word formed is in the lexicon; jokers (``?`` in the rack) stand for any
letter, are worth 0 and still take word premiums; letter premiums count only under new
tiles; the edition's bingo bonus is added when exactly ``edition.rack_size`` tiles are
placed.

Racks are tiles, never typed text: a string of the edition's tile symbols (``core.alphabet``), one
character per tile, ``?`` for a joker, in any order. ``core.notation.parse_tiles`` reads a rack typed by
a person (``N[L]LRREN``, ``col.legi``); ``Edition.spell`` writes tiles back for people.

Order of the top, best first:

1. highest score (rule ``"score"``);
2. then fewest jokers (rule ``"fewest_jokers"``);
3. then a fixed order (rule ``"order"``): horizontal before vertical, then by row, then
   by column of the first letter, then by the main word alphabetically, then by the
   FISF notation (which places the jokers: ``ACERanT`` before ``AcERaNT``).

``TopResult.tie_rule`` names the rule that put the first play ahead of the second best
play: ``"score"`` when it scores more than every other play, ``"fewest_jokers"`` or
``"order"`` when other plays score as much, ``"unique"`` when it is the only legal play,
and ``"none"`` when there is no legal play at all.
"""

# How the top is found. Each row and column is a line; a play begins at a square whose
# predecessor is empty (a start). Each start gets an upper bound on its plays' scores:
# the score is linear in the new tiles' values, so the rack's best values on the best
# premiums of the longest stretch the rack can cover bound it (or each square's best
# rack letter allowed by its cross-check, whichever is lower). Plays of the whole rack
# (bingos) are separate tasks, kept only where the lexicon's anagram map holds a word
# made of the rack and the stretch's board letters (with two jokers that is read when the
# task runs: most never do); they are read from that map, not searched. The other plays
# are walked along the word graph, the letters of a square given by one AND of the node's
# edges, the cross-check and the rack; each node is bounded again with the values
# actually left on the rack, and dropped when no word length ends on a free square, or
# when the next board letter or cross-check the word must reach is out of the
# lookahead's letters at that distance (without a joker, out of the letters the rack's tiles
# left can bring there: a word that has not reached the board yet is read with tiles alone, and
# what each such beginning may spell further is read once per search, ``Search.reaches``). A start whose
# word must begin with tiles alone is dropped before its walk when no such beginning (with a joker: none
# found by a short walk that stops at the first) reaches the board letters and may end or go on after them.
# Tasks run in decreasing order of bound and stop below the best score; plays that can only
# tie are dropped once they cannot change the top or its tie rule.
#
# The first move without a joker is read from the anagram map instead: on the empty board a play scores by
# its tiles and the premiums under them alone, so the rack's sub-racks that are keys of the map are found in
# one walk, bounded by their best place, and the words of those that may reach the best are scored at every
# place covering the centre (a walk from each start would read the same words once per start).

# Where the build has it (a C compiler at install), the C walk of core.movegen_native searches instead, on the
# same word graph and lines: each start bounded once (the same bound, without the anagram map's bingo check),
# the starts walked in decreasing order of bound down to the best score, the plays it keeps taken as the Python
# search would keep them (core.movegen_plays.Kept); ARBITRE_NATIVE=0 keeps to Python.

# The parts: core.movegen_board (racks, lines, starts and their bounds), core.movegen_search
# (the walk and the bingos), core.movegen_starts (the rack's word beginnings, the checks at a start
# whose word begins with tiles alone), core.movegen_first (the first move), core.movegen_plays (found
# plays, rebuilt plays, the top order), core.movegen_native (the C walk).

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import SIZE, Board
from .edition import Edition
from .lexicon import Lexicon
from .movegen_board import Rack, Start, make_lines, parse_rack, plan
from .movegen_first import first_plays
from .movegen_native import native_plays, usable
from .movegen_plays import Kept, Play, build_play, found_key, kept_ties, play_order
from .movegen_search import Search, Stop
from .tie import TieRule

__all__ = ["Play", "PlayKey", "SearchStats", "TopResult", "find_top", "generate_plays"]


@dataclass(frozen=True)
class SearchStats:
    """How much of the search a top needed: word starts bounded, walked, skipped; complete plays met."""

    starts: int
    searched: int
    pruned: int
    plays_seen: int


PlayKey = tuple[bool, int, tuple[int, ...], tuple[int, ...], tuple[bool, ...]]
"""A found play's identity: its line (horizontal, index), squares along it, letter codes, jokers."""


@dataclass(frozen=True)
class TopResult:
    """The best plays (best first), which rule chose the first one, and search figures.

    ``top_count`` is how many plays score the top, also those past ``plays`` (with ``count`` 1, only the
    top is counted). ``top_keys``, asked with ``find_top(keep_ties=True)``: one key per play scoring the top
    (its line, squares, letters and jokers), equal for the same play found in searches of other racks on
    the same board (the 7/8 formats' parts, ``core.movegen_formats``).
    """

    plays: tuple[Play, ...]
    tie_rule: TieRule
    searched: SearchStats
    top_count: int = 0
    top_keys: frozenset[PlayKey] = frozenset()

    @property
    def best(self) -> Play | None:
        """The top, or None when no play is possible."""
        return self.plays[0] if self.plays else None


# --- public API -------------------------------------------------------------------------------


def _rack(rack: str, lexicon: Lexicon, edition: Edition) -> Rack:
    """The tiles ``rack`` read for a search in ``lexicon`` (its alphabet checked against the edition's)."""
    lexicon.check_alphabet(edition.alphabet)
    return parse_rack(rack, edition)


def _prepare(
    board: Board,
    parsed: Rack,
    lexicon: Lexicon,
    edition: Edition,
    count: int,
    first_move_horizontal_only: bool,
) -> tuple[Search, list[Start]]:
    """The search state and its tasks; ``count`` 0 lists every play (no bingo tasks)."""
    search = Search(lexicon, edition, parsed, count, split_bingos=count > 0)
    if parsed.size == 0 or len(lexicon) == 0:
        return search, []
    lines = make_lines(board, lexicon, edition, first_move_horizontal_only)
    bingo = search.bingo if search.split_bingos else 0
    return search, plan(lines, parsed, lexicon, search.values, bingo)


def generate_plays(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    edition: Edition,
    *,
    first_move_horizontal_only: bool = False,
) -> list[Play]:
    """Every legal play of the tiles ``rack`` (symbols, ``?`` = joker) on ``board``, each placement once,
    best first."""
    parsed = _rack(rack, lexicon, edition)
    if usable(parsed, edition):
        found = native_plays(board, parsed, lexicon, edition, 0, first_move_horizontal_only)[3]
    else:
        search, starts = _prepare(board, parsed, lexicon, edition, 0, first_move_horizontal_only)
        for start in starts:
            search.run(start)
        found = search.found
    plays = [build_play(board, play, edition) for play in found]
    plays.sort(key=play_order)
    return plays


def _single_tiles(search: Search, starts: list[Start]) -> int:
    """How many plays of a single tile, up to two, are plays of a tile beside a letter above or below it with
    no letter left or right of it: the cross-word alone, checked by the cross-check (each such square and
    letter is a play of its own)."""
    rack = search.rack
    letters = search.letters if rack.jokers else sum(1 << code for code, n in enumerate(rack.counts) if n)
    found = 0
    done: set[int] = set()
    for start in starts:
        line = start[3]
        if not line.horizontal or id(line) in done:
            continue
        done.add(id(line))
        fixed, cross_sum, cross_mask = line.fixed, line.cross_sum, line.cross_mask
        for pos in range(SIZE):
            if cross_sum[pos] >= 0 and fixed[pos] < 0 and fixed[pos - 1] < 0 and fixed[pos + 1] < 0:
                found += (cross_mask[pos] & letters).bit_count()
                if found >= 2:
                    return found
    return found


def _any_other_play(search: Search, starts: list[Start]) -> bool:
    """Whether the walk meets at least two plays (so another play than the top exists)."""
    if _single_tiles(search, starts) >= 2:
        return True
    tie_mode = search.tie_mode
    search.probing = True
    search.stop_after = 2
    search.seen = 0
    search.threshold = -1
    search.tie_mode = False
    try:
        for start in starts:
            search.run(start)
    except Stop:
        return True
    finally:
        search.tie_mode = tie_mode  # the top's count read after this: one play in tie mode
    return False


def find_top(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    edition: Edition,
    count: int = 1,
    *,
    first_move_horizontal_only: bool = False,
    keep_ties: bool = False,
) -> TopResult:
    """The ``count`` best plays of the tiles ``rack`` (symbols, ``?`` = joker; see the module docstring)
    on ``board``, best first in the order of the module docstring, by branch and bound;
    ``keep_ties`` (``count`` above 1): with the key of every play scoring the top (``TopResult.top_keys``)."""
    if count < 1:
        raise ValueError("count must be at least 1")
    parsed = _rack(rack, lexicon, edition)
    if usable(parsed, edition) and parsed.size and len(lexicon):
        return _native_top(board, parsed, lexicon, edition, count, first_move_horizontal_only, keep_ties)
    if board.is_empty() and not parsed.jokers and parsed.size and len(lexicon):
        search = Search(lexicon, edition, parsed, count, split_bingos=False)
        lines = make_lines(board, lexicon, edition, first_move_horizontal_only)
        keys, read = first_plays(search, lines)
        stats = SearchStats(keys, read, keys - read, search.seen)
        # every word of the rack has a place for each of its letters on the centre: two plays at least
        return _top_result(board, edition, search.kept(), count, keep_ties, stats, lambda: search.seen > 1)
    search, starts = _prepare(board, parsed, lexicon, edition, count, first_move_horizontal_only)
    starts.sort()  # by decreasing bound, then in the fixed order
    searched = 0
    for start in starts:
        bound = -start[0]
        if bound <= search.threshold:
            if bound < search.threshold:
                break
            # a bingo task can only tie (with every joker placed): skip it when that
            # changes nothing
            if start[6] is not None:
                best = search.best
                search.after_best = best is not None and start[1] > best[2]
                if search.tie_prunable(search.rack.jokers):
                    continue
        search.run(start)
        searched += 1
    stats = SearchStats(len(starts), searched, len(starts) - searched, search.seen)
    return _top_result(board, edition, search.kept(), count, keep_ties, stats, lambda: _any_other_play(search, starts))


def _native_top(
    board: Board,
    parsed: Rack,
    lexicon: Lexicon,
    edition: Edition,
    count: int,
    first_move_horizontal_only: bool,
    keep_ties: bool,
) -> TopResult:
    """``find_top`` from the plays the C walk keeps (``core.movegen_native``): every play scoring at least the
    ``count``-th best score, so the search keeps what it would have kept."""
    seen, starts, walked, found = native_plays(board, parsed, lexicon, edition, count, first_move_horizontal_only)
    if count == 1:
        kept = kept_ties(found, seen)
    else:  # the walk's threshold: the count-th best score, once that many plays are kept
        threshold = sorted((play[0] for play in found), reverse=True)[count - 1] if len(found) >= count else -1
        kept = Kept(False, seen, None, False, False, found, threshold)

    def other_play() -> bool:
        # the walk met one play at most: were the starts it left (bounded below it) holding another?
        return walked < starts and native_plays(board, parsed, lexicon, edition, 0, first_move_horizontal_only)[0] > 1

    stats = SearchStats(starts, walked, starts - walked, seen)
    return _top_result(board, edition, kept, count, keep_ties, stats, other_play)


def _top_result(
    board: Board,
    edition: Edition,
    kept: Kept,
    count: int,
    keep_ties: bool,
    stats: SearchStats,
    other_play: Callable[[], bool],
) -> TopResult:
    """The top of a finished search from what it kept; ``other_play`` says whether a play other than the top
    exists (asked only when the search cannot tell)."""
    seen = kept.seen
    if kept.tie_mode:
        chosen = [kept.best] if kept.best is not None else []
    else:
        cut = kept.threshold
        chosen = sorted((f for f in kept.found if f[0] >= cut), key=found_key)[:count]
    plays = [build_play(board, found, edition) for found in chosen]
    plays.sort(key=play_order)
    if not plays:
        rule = TieRule.NONE
    elif kept.tie_mode:
        if kept.tie_same:
            rule = TieRule.ORDER
        elif kept.tie_more:
            rule = TieRule.FEWEST_JOKERS
        elif seen > 1 or other_play():
            rule = TieRule.SCORE
        else:
            rule = TieRule.UNIQUE
    elif len(plays) > 1:
        first, second = plays[0], plays[1]
        if second.total < first.total:
            rule = TieRule.SCORE
        elif second.jokers > first.jokers:
            rule = TieRule.FEWEST_JOKERS
        else:
            rule = TieRule.ORDER
    else:
        rule = TieRule.SCORE if other_play() else TieRule.UNIQUE
    best_score = plays[0].total if plays else None
    top_count = 1 if kept.tie_mode and plays else sum(1 for f in kept.found if f[0] == best_score)
    keys = frozenset(
        (f[3].horizontal, f[3].index, f[6], f[7], f[8]) for f in kept.found if keep_ties and f[0] == best_score
    )
    return TopResult(tuple(plays), rule, stats, top_count, keys)
