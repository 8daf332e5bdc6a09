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

Order of the top, best first:

1. highest score (rule ``"score"``);
2. then fewest jokers (rule ``"fewest jokers"``);
3. then a fixed order (rule ``"order"``): horizontal before vertical, then by row, then
   by column of the first letter, then by the main word alphabetically, then by the
   FISF notation (which places the jokers: ``ACERanT`` before ``AcERaNT``).

``TopResult.tie_rule`` names the rule that put the first play ahead of the second best
play: ``"score"`` when it scores more than every other play, ``"fewest jokers"`` or
``"order"`` when other plays score as much, ``"unique"`` when it is the only legal play,
and ``"none"`` when there is no legal play at all.

How the top is found: each row and column is a line; a play starts at a square whose
predecessor is empty. For each start, an upper bound on the score of its plays is
computed from the rack's best tile values on the best premiums of the longest stretch
the rack can cover (the bingo bonus only when seven tiles fit there and the lexicon's
anagram index holds a word made of the rack and the board letters of that stretch).
Starts are walked in decreasing order of bound along the lexicon graph, letters
filtered by one AND of the node's letters, the cross-checks and the rack; inside a
walk every node is bounded again (the tiles placed so far plus the best the remaining
tiles could add, and whether a word of a length that can end on a free square goes on
from the node) and cut when it cannot reach the best score found, or can only tie with
it without changing the result.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable

from .board import CENTRE, PREMIUMS, SIZE, Board, Tile
from .edition import JOKER, Edition
from .errors import RackSyntaxError
from .lexicon import ALL_LETTERS, FINAL, Lexicon
from .placement import Placement, validate_tiles
from .scoring import MoveScore, score_placement

TIE_SCORE = "score"
TIE_JOKERS = "fewest jokers"
TIE_ORDER = "order"
TIE_UNIQUE = "unique"
TIE_NONE = "none"

_LETTER_MULT = tuple(p.letter_multiplier for p in PREMIUMS)
_WORD_MULT = tuple(p.word_multiplier for p in PREMIUMS)
_EDGE = SIZE  # index of the sentinel square past the end of a line
_NO_PLAY = -1
_NEVER = 1 << 62


@dataclass(frozen=True)
class Play:
    """A legal play: its placement, its score, and how many jokers it places. ``str()`` is FISF."""

    placement: Placement
    score: MoveScore
    jokers: int

    def __str__(self) -> str:
        return self.placement.notation()

    @property
    def total(self) -> int:
        """The play's score, bonus included."""
        return self.score.total


@dataclass(frozen=True)
class SearchStats:
    """How much of the search a top needed: word starts bounded, walked, skipped; complete plays met."""

    starts: int
    searched: int
    pruned: int
    plays_seen: int


@dataclass(frozen=True)
class TopResult:
    """The best plays (best first), which rule chose the first one, and search figures."""

    plays: tuple[Play, ...]
    tie_rule: str
    searched: SearchStats

    @property
    def best(self) -> Play | None:
        """The top, or None when no play is possible."""
        return self.plays[0] if self.plays else None


# --- racks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rack:
    """A rack as counts per letter code, joker count and tile count."""

    counts: tuple[int, ...]
    jokers: int
    size: int

    def letters(self) -> str:
        """The rack's letters (jokers left out), in alphabetical order."""
        return "".join(chr(65 + code) * number for code, number in enumerate(self.counts))


def _parse_rack(rack: str, edition: Edition) -> _Rack:
    """Read a rack such as ``EEU?ESI`` (``?`` = joker) for the edition."""
    counts = [0] * 26
    jokers = 0
    for char in rack.strip().upper():
        if char == JOKER:
            jokers += 1
        elif "A" <= char <= "Z" and char in edition.values:
            counts[ord(char) - 65] += 1
        else:
            raise RackSyntaxError(rack, f"{char!r} is not a tile of the {edition.code} edition")
    size = sum(counts) + jokers
    if size > edition.rack_size:
        raise RackSyntaxError(rack, f"a rack holds at most {edition.rack_size} tiles")
    if jokers > edition.jokers:
        raise RackSyntaxError(rack, f"the {edition.code} edition has {edition.jokers} jokers")
    return _Rack(tuple(counts), jokers, size)


# --- lines ----------------------------------------------------------------------------------


class _Line:
    """One row (horizontal plays) or column (vertical plays) ready for the search.

    Per position 0-14 along the line (plus a sentinel 15 that reads as empty): the
    board's letter code or -1, that tile's value, the letters a new tile may take
    because of its cross-word (``ALL_LETTERS`` without one), the cross-word's letter
    sum (-1 without one), the premiums, and whether a new tile there touches the board.
    """

    __slots__ = ("horizontal", "index", "fixed", "fixed_value", "cross_mask", "cross_sum",
                 "lm", "wm", "hook")

    def __init__(self, horizontal: bool, index: int) -> None:
        self.horizontal = horizontal
        self.index = index
        self.fixed = [-1] * (SIZE + 1)
        self.fixed_value = [0] * (SIZE + 1)
        self.cross_mask = [ALL_LETTERS] * (SIZE + 1)
        self.cross_sum = [-1] * (SIZE + 1)
        self.lm = [1] * (SIZE + 1)
        self.wm = [1] * (SIZE + 1)
        self.hook = [False] * (SIZE + 1)

    def square(self, position: int) -> tuple[int, int]:
        """The (row, col) of a position along the line."""
        if self.horizontal:
            return self.index, position
        return position, self.index

    def start_key(self, start: int) -> tuple[int, int, int]:
        """The fixed-order key of plays beginning at ``start``: direction, row, column."""
        if self.horizontal:
            return (0, self.index, start)
        return (1, start, self.index)


def _make_lines(
    board: Board, lexicon: Lexicon, edition: Edition, horizontal_only_first: bool
) -> list[_Line]:
    """The lines where a play may go, with their cross-checks."""
    codes = [-1] * (SIZE * SIZE)
    values = [0] * (SIZE * SIZE)
    for row, col, tile in board.tiles():
        codes[row * SIZE + col] = ord(tile.letter) - 65
        values[row * SIZE + col] = 0 if tile.joker else edition.values[tile.letter]
    lines: list[_Line] = []
    empty = board.is_empty()
    for horizontal in (True, False):
        if empty and not horizontal and horizontal_only_first:
            continue
        # along: step between squares of the line; across: step along the cross-words
        along, across = (1, SIZE) if horizontal else (SIZE, 1)
        for index in range(SIZE):
            if empty and index != (CENTRE[0] if horizontal else CENTRE[1]):
                continue
            line = _Line(horizontal, index)
            useful = False
            base = index * SIZE if horizontal else index
            for pos in range(SIZE):
                square = base + pos * along
                code = codes[square]
                if code >= 0:
                    line.fixed[pos] = code
                    line.fixed_value[pos] = values[square]
                    useful = True
                    continue
                line.lm[pos] = _LETTER_MULT[square]
                line.wm[pos] = _WORD_MULT[square]
                if empty:
                    if (pos == CENTRE[1]) if horizontal else (pos == CENTRE[0]):
                        line.hook[pos] = True
                        useful = True
                    continue
                cross_index = square // SIZE if horizontal else square % SIZE
                total = 0
                before: list[str] = []
                k = square - across
                for _ in range(cross_index):
                    if codes[k] < 0:
                        break
                    before.append(chr(65 + codes[k]))
                    total += values[k]
                    k -= across
                after: list[str] = []
                k = square + across
                for _ in range(SIZE - 1 - cross_index):
                    if codes[k] < 0:
                        break
                    after.append(chr(65 + codes[k]))
                    total += values[k]
                    k += across
                if before or after:
                    before.reverse()
                    line.cross_mask[pos] = lexicon.cross_mask("".join(before), "".join(after))
                    line.cross_sum[pos] = total
                    line.hook[pos] = True
                    useful = True
            if useful:
                lines.append(line)
    return lines


# --- start bounds ---------------------------------------------------------------------------


@dataclass
class _Start:
    """A square where plays may begin, with the bounds on their scores and how far they reach."""

    bound: int  # upper bound on every play from here
    small: int  # upper bound on plays that are not bingos
    key: tuple[int, int, int]
    line: _Line
    start: int
    end: int  # last square the rack can reach (through board letters after the last tile)
    bingo_ok: bool  # a bingo is not ruled out


def _start_bound(
    line: _Line,
    start: int,
    size: int,
    values_desc: list[int],
    caps: list[int],
    blocked: list[bool],
    bingo: int,
) -> tuple[int, int, int, str | None]:
    """(bound, bound without bingo, last reachable square, board letters of a bingo stretch or None).

    The score is linear in the new tiles' values: the bound pairs the rack's best
    values with the best weights (and, separately, each square with the best rack
    letter its cross-check allows) on the longest stretch the rack can cover, since a
    longer stretch never bounds lower. The bounds are -1 when no connected play fits.
    """
    fixed, fixed_value, lm, wm = line.fixed, line.fixed_value, line.lm, line.wm
    cross_sum, hook = line.cross_sum, line.hook
    fixed_sum = 0
    word_mult = 1
    cross_const = 0
    lms: list[int] = []
    cross_weights: list[int] = []
    square_caps: list[int] = []
    board_letters: list[int] = []
    connected = False
    small = _NO_PLAY
    pos = start

    def evaluate() -> int:
        weights = [l * word_mult + c for l, c in zip(lms, cross_weights)]
        capped = sum(w * cap for w, cap in zip(weights, square_caps))
        weights.sort(reverse=True)
        ranked = sum(w * v for w, v in zip(weights, values_desc))
        return fixed_sum * word_mult + cross_const + min(ranked, capped)

    while True:
        if pos < SIZE and fixed[pos] >= 0:
            fixed_sum += fixed_value[pos]
            board_letters.append(fixed[pos])
            connected = True
            pos += 1
            continue
        count = len(lms)
        if pos == SIZE or count == size or blocked[pos]:
            if not (count and connected):
                return _NO_PLAY, small, pos - 1, None
            bound = evaluate()
            if bingo and count == size:
                letters = "".join(chr(65 + c) for c in board_letters)
                return bound + bingo, small, pos - 1, letters
            return bound, bound, pos - 1, None
        if bingo and count == size - 1 and count and connected:
            small = evaluate()
        wmi = wm[pos]
        word_mult *= wmi
        lms.append(lm[pos])
        square_caps.append(caps[pos])
        if cross_sum[pos] >= 0:
            cross_const += cross_sum[pos] * wmi
            cross_weights.append(lm[pos] * wmi)
        else:
            cross_weights.append(0)
        if hook[pos]:
            connected = True
        pos += 1


def _plan(
    lines: list[_Line], rack: _Rack, lexicon: Lexicon, values: list[int], bingo: int
) -> list[_Start]:
    """Every start of every line where a connected play may fit, with its bounds."""
    values_desc = sorted(
        (values[c] for c, n in enumerate(rack.counts) for _ in range(n)), reverse=True
    ) + [0] * rack.jokers
    by_value = sorted(((values[c], 1 << c) for c, n in enumerate(rack.counts) if n), reverse=True)
    letters_mask = 0
    for _, bit in by_value:
        letters_mask |= bit
    available = ALL_LETTERS if rack.jokers else letters_mask
    rack_letters = rack.letters()
    anagrams: dict[str, bool] = {}
    starts: list[_Start] = []
    for line in lines:
        caps = [0] * (SIZE + 1)
        blocked = [False] * (SIZE + 1)
        for pos in range(SIZE):
            if line.fixed[pos] >= 0:
                continue
            mask = line.cross_mask[pos]
            if not mask & available:
                blocked[pos] = True
                continue
            for value, bit in by_value:
                if mask & bit:
                    caps[pos] = value
                    break
        fixed = line.fixed
        for start in range(SIZE - 1):
            if start and fixed[start - 1] >= 0:
                continue
            bound, small, end, board_letters = _start_bound(
                line, start, rack.size, values_desc, caps, blocked, bingo
            )
            if bound < 0:
                continue
            bingo_ok = False
            if board_letters is not None:
                key = "".join(sorted(board_letters))
                known = anagrams.get(key)
                if known is None:
                    known = anagrams[key] = lexicon.has_anagram(rack_letters + key, rack.jokers)
                bingo_ok = known
                if not bingo_ok:
                    bound = small
                    if bound < 0:
                        continue
            starts.append(_Start(bound, small, line.start_key(start), line, start, end, bingo_ok))
    return starts


# --- search ---------------------------------------------------------------------------------

# A found play: score, jokers, start key, line, start, end (exclusive), squares, letters, joker flags.
_Found = tuple[
    int, int, tuple[int, int, int], _Line, int, int,
    tuple[int, ...], tuple[int, ...], tuple[bool, ...],
]


class _Stop(Exception):
    """Raised inside the search to stop at once."""


def _found_key(found: _Found) -> tuple[object, ...]:
    """The order key of a found play (see the module docstring), without building it."""
    score, jokers, key, line, start, end, squares, letters, flags = found
    placed = {pos: (code, joker) for pos, code, joker in zip(squares, letters, flags)}
    word: list[int] = []
    typed: list[int] = []
    for pos in range(start, end):
        if pos in placed:
            code, joker = placed[pos]
            word.append(code)
            typed.append(code + 97 if joker else code + 65)
        else:
            word.append(line.fixed[pos])
            typed.append(line.fixed[pos] + 65)
    return (-score, jokers, key, tuple(word), tuple(typed))


class _Search:
    """The walk of one rack along the lexicon graph, keeping the best plays.

    With ``count`` 1 (tie mode) it keeps only the best play, plus the facts the tie
    rule needs (another play with the same score and jokers? with the same score?),
    and cuts subtrees that can only tie without changing them. With a larger count it
    keeps every play scoring at least the ``count``-th best score; with count 0, all.
    """

    def __init__(self, lexicon: Lexicon, edition: Edition, rack: _Rack, count: int) -> None:
        self.table = lexicon.table
        self.root = lexicon.root
        self.values = [edition.values.get(chr(65 + c), 0) for c in range(26)]
        self.rack = rack
        self.counts = list(rack.counts)
        self.bingo = edition.bingo_bonus if rack.size == edition.rack_size else 0
        self.count = count
        self.tie_mode = count == 1
        self.threshold = -1
        self.found: list[_Found] = []
        self.heap: list[int] = []
        self.best: _Found | None = None
        self.best_jokers = 0
        self.tie_same = False
        self.tie_more = False
        self.after_best = False
        self.current_key = (0, 0, 0)
        self.seen = 0
        self.stop_after = 0  # when set, stop once this many plays have been seen
        self.probing = False
        desc = sorted(
            (self.values[c] for c, n in enumerate(rack.counts) for _ in range(n)), reverse=True
        ) + [0] * rack.jokers
        self.prefix_values = [0] * 9
        for k in range(1, 9):
            self.prefix_values[k] = self.prefix_values[k - 1] + (desc[k - 1] if k <= len(desc) else 0)
        self._runners: dict[int, Callable[[_Start], None]] = {}

    # --- bookkeeping of found plays -------------------------------------------------------

    def offer(self, found: _Found) -> None:
        """Take a play scoring at least the threshold."""
        if not self.tie_mode:
            self.found.append(found)
            if self.count > 0:
                heap = self.heap
                if len(heap) < self.count:
                    heapq.heappush(heap, found[0])
                elif found[0] > heap[0]:
                    heapq.heapreplace(heap, found[0])
                if len(heap) == self.count:
                    self.threshold = heap[0]
            return
        best = self.best
        score, jokers = found[0], found[1]
        if best is None or score > best[0]:
            self.tie_same = self.tie_more = False
            self._set_best(found)
        elif jokers < self.best_jokers:
            self.tie_more = True
            self.tie_same = False
            self._set_best(found)
        elif jokers == self.best_jokers:
            self.tie_same = True
            if _found_key(found) < _found_key(best):
                self._set_best(found)
        else:
            self.tie_more = True

    def _set_best(self, found: _Found) -> None:
        self.best = found
        self.best_jokers = found[1]
        self.threshold = found[0]
        self.after_best = False

    def tie_prunable(self, jokers_at_least: int) -> bool:
        """Whether plays tying the best score with at least this many jokers change nothing."""
        if not self.tie_mode:
            return False
        if jokers_at_least > self.best_jokers:
            return self.tie_same or self.tie_more
        return jokers_at_least == self.best_jokers and self.tie_same and self.after_best

    # --- the walk ----------------------------------------------------------------------------

    def run(self, start: _Start) -> None:
        """Walk the plays beginning at ``start`` that may beat or matter to the best so far."""
        runner = self._runners.get(id(start.line))
        if runner is None:
            runner = self._runners[id(start.line)] = self._runner(start.line)
        self.current_key = start.key
        best = self.best
        self.after_best = best is not None and start.key > best[2]
        runner(start)

    def _runner(self, line: _Line) -> Callable[[_Start], None]:
        """The walk over one line, as a closure over its arrays."""
        table = self.table
        fixed = line.fixed
        fixed_value = line.fixed_value
        cross_mask = line.cross_mask
        cross_sum = line.cross_sum
        lm = line.lm
        wm = line.wm
        hook = line.hook
        values = self.values
        counts = self.counts
        total = self.rack.size
        all_jokers = self.rack.jokers
        bingo = self.bingo
        pv = self.prefix_values
        vertical = not line.horizontal
        squares = [0] * 8
        letters = [0] * 8
        flags = [False] * 8
        rw = [1] * (SIZE + 2)
        rm = [0] * (SIZE + 2)
        rx = [0] * (SIZE + 2)
        endmask = [0] * (SIZE + 2)
        search = self
        state = [0, 0, 0]  # start, end, bingo possible (1/0)

        def record(score: int, n: int, stop: int, jokers_left: int) -> None:
            search.seen += 1
            if search.stop_after and search.seen >= search.stop_after:
                raise _Stop
            if search.probing:
                return
            search.offer((
                score, all_jokers - jokers_left, search.current_key, line, state[0], stop,
                tuple(squares[:n]), tuple(letters[:n]), tuple(flags[:n]),
            ))

        def go(
            pos: int, node: int, main: int, mult: int, cross: int, n: int,
            connected: bool, rack_mask: int, jokers_left: int,
        ) -> None:
            # pos is an empty square the word may still cover; first, can it beat the best?
            end = state[1]
            threshold = search.threshold
            bound = (main + rm[pos]) * mult * rw[pos] + cross + rx[pos]
            if bound <= threshold:
                if state[2] and table[node + 1] >> (end - pos + 1) & 1:
                    bound += bingo
                    if bound < threshold or (
                        bound == threshold and search.tie_prunable(all_jokers)
                    ):
                        return
                elif bound < threshold or search.tie_prunable(all_jokers - jokers_left):
                    return
            head = table[node]
            allowed = head & cross_mask[pos] & (ALL_LETTERS if jokers_left else rack_mask)
            if not allowed:
                return
            lmi = lm[pos]
            wmi = wm[pos]
            xsum = cross_sum[pos]
            joined = connected or hook[pos]
            new_mult = mult * wmi
            n1 = n + 1
            more = n1 < total
            first = state[0]
            single_dup = vertical and n == 0 and xsum >= 0  # found again horizontally
            nxt = pos + 1
            next_code = fixed[nxt]
            base = node + 2
            squares[n] = pos
            while allowed:
                bit = allowed & -allowed
                allowed ^= bit
                child = table[base + (head & (bit - 1)).bit_count()]
                # the board letters right after pos belong to the word too
                q = nxt
                board_sum = 0
                code = next_code
                while code >= 0:
                    fbit = 1 << code
                    fhead = table[child]
                    if not fhead & fbit:
                        break
                    child = table[child + 2 + (fhead & (fbit - 1)).bit_count()]
                    board_sum += fixed_value[q]
                    q += 1
                    code = fixed[q]
                if code >= 0:
                    continue
                ends = (
                    table[child] & FINAL and (joined or q > nxt) and q - first > 1
                    and not single_dup
                )
                goes_on = more and q <= end and table[child + 1] & endmask[q]
                if not (ends or goes_on):
                    continue
                code = bit.bit_length() - 1
                letters[n] = code
                if rack_mask & bit:
                    value = values[code] * lmi
                    main2 = main + value + board_sum
                    cross2 = cross + (xsum + value) * wmi if xsum >= 0 else cross
                    flags[n] = False
                    if ends:
                        score = main2 * new_mult + cross2 + (bingo if n1 == total else 0)
                        if score >= search.threshold:
                            record(score, n1, q, jokers_left)
                        else:
                            search.seen += 1
                    if goes_on:
                        left = counts[code] - 1
                        counts[code] = left
                        go(
                            q, child, main2, new_mult, cross2, n1, True if q > nxt else joined,
                            rack_mask if left else rack_mask ^ bit, jokers_left,
                        )
                        counts[code] = left + 1
                if jokers_left:
                    main2 = main + board_sum
                    cross2 = cross + xsum * wmi if xsum >= 0 else cross
                    flags[n] = True
                    if ends:
                        score = main2 * new_mult + cross2 + (bingo if n1 == total else 0)
                        if score >= search.threshold:
                            record(score, n1, q, jokers_left - 1)
                        else:
                            search.seen += 1
                    if goes_on:
                        go(
                            q, child, main2, new_mult, cross2, n1, True if q > nxt else joined,
                            rack_mask, jokers_left - 1,
                        )

        def run(start: _Start) -> None:
            first, end = start.start, start.end
            state[0] = first
            state[1] = end
            state[2] = 1 if start.bingo_ok else 0
            # the first square from which a word reaches the board
            reach = first
            while reach <= end and fixed[reach] < 0 and not hook[reach]:
                reach += 1
            # what the squares from each position to the end may still add, at best
            mult = 1
            fixed_sum = 0
            tiles = triple = double = 0
            cross_const = crossed = cross3 = cross2 = 0
            ends = 0
            for pos in range(end, first - 1, -1):
                if fixed[pos + 1] < 0 and pos >= reach:
                    ends |= 1 << pos
                if fixed[pos] >= 0:
                    fixed_sum += fixed_value[pos]
                else:
                    tiles += 1
                    lmi = lm[pos]
                    wmi = wm[pos]
                    if lmi == 3:
                        triple += 1
                    elif lmi == 2:
                        double += 1
                    mult *= wmi
                    if cross_sum[pos] >= 0:
                        cross_const += cross_sum[pos] * wmi
                        crossed += 1
                        weight = lmi * wmi
                        if weight == 3:
                            cross3 += 1
                        elif weight == 2:
                            cross2 += 1
                rw[pos] = mult
                rm[pos] = fixed_sum + pv[tiles] + pv[triple] + pv[triple + double]
                rx[pos] = cross_const + pv[crossed] + pv[cross3] + pv[cross3 + cross2]
                endmask[pos] = (ends << 1) >> pos
            # board letters the word starts with
            node = search.root
            pos = first
            main = 0
            table_ = table
            while fixed[pos] >= 0:
                bit = 1 << fixed[pos]
                head = table_[node]
                if not head & bit:
                    return
                node = table_[node + 2 + (head & (bit - 1)).bit_count()]
                main += fixed_value[pos]
                pos += 1
            if pos > end or not table_[node + 1] & endmask[pos]:
                return
            rack_mask = 0
            for code, number in enumerate(counts):
                if number:
                    rack_mask |= 1 << code
            go(pos, node, main, 1, 0, 0, pos > first, rack_mask, all_jokers)

        return run


# --- public API -------------------------------------------------------------------------------


def _build_play(board: Board, found: _Found, edition: Edition) -> Play:
    """Rebuild a found play through validate_tiles and score_placement (the one truth)."""
    line, squares, letters, flags = found[3], found[6], found[7], found[8]
    tiles = []
    for pos, code, joker in zip(squares, letters, flags):
        row, col = line.square(pos)
        tiles.append((row, col, Tile(chr(65 + code), joker)))
    placement = validate_tiles(board, tiles, rack_size=edition.rack_size)
    return Play(placement, score_placement(placement, edition), placement.jokers)


def play_order(play: Play) -> tuple[int, int, int, int, int, str, str]:
    """Sort key of the top order: score, fewest jokers, then the fixed order (see the module doc)."""
    ref = play.placement.ref
    return (
        -play.score.total,
        play.jokers,
        0 if ref.horizontal else 1,
        ref.row,
        ref.col,
        play.placement.main_word.text,
        play.placement.notation(),
    )


def _prepare(
    board: Board, rack: str, lexicon: Lexicon, edition: Edition, count: int,
    first_move_horizontal_only: bool,
) -> tuple[_Search, list[_Start]]:
    parsed = _parse_rack(rack, edition)
    search = _Search(lexicon, edition, parsed, count)
    if parsed.size == 0 or len(lexicon) == 0:
        return search, []
    lines = _make_lines(board, lexicon, edition, first_move_horizontal_only)
    return search, _plan(lines, parsed, lexicon, search.values, search.bingo)


def generate_plays(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    edition: Edition,
    *,
    first_move_horizontal_only: bool = False,
) -> list[Play]:
    """Every legal play of ``rack`` (``?`` = joker) on ``board``, each placement once, best first."""
    search, starts = _prepare(board, rack, lexicon, edition, 0, first_move_horizontal_only)
    for start in starts:
        search.run(start)
    plays = [_build_play(board, found, edition) for found in search.found]
    plays.sort(key=play_order)
    return plays


def _any_other_play(search: _Search, starts: list[_Start]) -> bool:
    """Whether the walk meets at least two plays (so another play than the top exists)."""
    search.probing = True
    search.stop_after = 2
    search.seen = 0
    search.threshold = -1
    search.tie_mode = False
    try:
        for start in starts:
            search.run(start)
    except _Stop:
        return True
    return False


def find_top(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    edition: Edition,
    count: int = 1,
    *,
    first_move_horizontal_only: bool = False,
) -> TopResult:
    """The ``count`` best plays (best first, in the order of the module docstring), by branch and bound."""
    if count < 1:
        raise ValueError("count must be at least 1")
    search, starts = _prepare(board, rack, lexicon, edition, count, first_move_horizontal_only)
    starts.sort(key=lambda s: (-s.bound, s.key))
    searched = 0
    for start in starts:
        if start.bound < search.threshold:
            break
        search.run(start)
        searched += 1
    seen = search.seen
    if search.tie_mode:
        kept = [search.best] if search.best is not None else []
    else:
        cut = search.threshold
        kept = sorted((f for f in search.found if f[0] >= cut), key=_found_key)[:count]
    plays = [_build_play(board, found, edition) for found in kept]
    plays.sort(key=play_order)
    if not plays:
        rule = TIE_NONE
    elif search.tie_mode:
        if search.tie_same:
            rule = TIE_ORDER
        elif search.tie_more:
            rule = TIE_JOKERS
        elif seen > 1 or _any_other_play(search, starts):
            rule = TIE_SCORE
        else:
            rule = TIE_UNIQUE
    elif len(plays) > 1:
        first, second = plays[0], plays[1]
        if second.total < first.total:
            rule = TIE_SCORE
        elif second.jokers > first.jokers:
            rule = TIE_JOKERS
        else:
            rule = TIE_ORDER
    else:
        rule = TIE_SCORE if _any_other_play(search, starts) else TIE_UNIQUE
    stats = SearchStats(len(starts), searched, len(starts) - searched, seen)
    return TopResult(tuple(plays), rule, stats)
