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
# made of the rack and the stretch's board letters; they are read from that map, not
# searched. The other plays are walked along the word graph, the letters of a square
# given by one AND of the node's edges, the cross-check and the rack; each node is
# bounded again with the values actually left on the rack, and dropped when no word
# length ends on a free square, or when the next board letter or cross-check the word
# must reach is out of the lookahead's letters at that distance. Tasks run in
# decreasing order of bound and stop below the best score; plays that can only tie
# are dropped once they cannot change the top or its tie rule.

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, product

from .board import CENTRE, PREMIUMS, SIZE, Board, Tile
from .edition import JOKER, Edition
from .errors import RackSyntaxError, SyntaxProblem
from .lexicon import Lexicon, anagram_keys
from .lexicon_layout import LOOKAHEAD
from .placement import Placement, validate_tiles
from .scoring import MoveScore, score_placement
from .tie import TieRule

_LETTER_MULT = tuple(p.letter_multiplier for p in PREMIUMS)
_WORD_MULT = tuple(p.word_multiplier for p in PREMIUMS)
_NO_PLAY = -1


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
    """The best plays (best first), which rule chose the first one, and search figures.

    ``top_count`` is how many plays score the top, also those past ``plays`` (with ``count`` 1, only the
    top is counted).
    """

    plays: tuple[Play, ...]
    tie_rule: TieRule
    searched: SearchStats
    top_count: int = 0

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
        """The rack's letters (jokers left out) as a code string (``core.lexicon``), in alphabet order."""
        return "".join(chr(65 + code) * number for code, number in enumerate(self.counts))


def _parse_rack(rack: str, edition: Edition) -> _Rack:
    """Read a rack such as ``EEU?ESI`` (``?`` = joker) for the edition."""
    alphabet = edition.alphabet
    counts = [0] * len(alphabet)
    jokers = 0
    for char in rack.strip().upper() if alphabet.plain else alphabet.tiles(rack.strip()):
        if char == JOKER:
            jokers += 1
        elif char in alphabet:
            counts[alphabet.code(char)] += 1
        else:
            raise RackSyntaxError(rack, SyntaxProblem.NOT_A_TILE, char)
    size = sum(counts) + jokers
    if size > edition.rack_size:
        raise RackSyntaxError(rack, SyntaxProblem.RACK_TOO_LONG, str(edition.rack_size))
    if jokers > edition.jokers:
        raise RackSyntaxError(rack, SyntaxProblem.TOO_MANY_JOKERS, str(edition.jokers))
    return _Rack(tuple(counts), jokers, size)


# --- lines ----------------------------------------------------------------------------------


class _Line:
    """One row (horizontal plays) or column (vertical plays) ready for the search.

    Per position 0-14 along the line (plus a sentinel 15 that reads as empty): the
    board's letter code or -1, that tile's value, the letters a new tile may take
    because of its cross-word (``every`` letter without one), the cross-word's letter
    sum (-1 without one), the premiums, and whether a new tile there touches the board.
    """

    __slots__ = (
        "horizontal",
        "index",
        "fixed",
        "fixed_value",
        "every",
        "cross_mask",
        "cross_sum",
        "lm",
        "wm",
        "hook",
    )

    def __init__(self, horizontal: bool, index: int, every: int) -> None:
        self.horizontal = horizontal
        self.index = index
        self.fixed = [-1] * (SIZE + 1)
        self.fixed_value = [0] * (SIZE + 1)
        self.every = every  # every letter: the cross-check of a square without a cross-word
        self.cross_mask = [every] * (SIZE + 1)
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


def _make_lines(board: Board, lexicon: Lexicon, edition: Edition, horizontal_only_first: bool) -> list[_Line]:
    """The lines where a play may go (a tile in them or beside them), with their cross-checks."""
    codes = [-1] * (SIZE * SIZE)
    values = [0] * (SIZE * SIZE)
    rows_used = [False] * (SIZE + 2)  # shifted by one: index r + 1 is row r
    cols_used = [False] * (SIZE + 2)
    code_of = edition.alphabet.code
    every = lexicon.letters
    for row, col, tile in board.tiles():
        codes[row * SIZE + col] = code_of(tile.letter)
        values[row * SIZE + col] = 0 if tile.joker else edition.values[tile.letter]
        rows_used[row + 1] = cols_used[col + 1] = True
    lines: list[_Line] = []
    if board.is_empty():
        for horizontal in (True, False) if not horizontal_only_first else (True,):
            line = _Line(horizontal, CENTRE[0] if horizontal else CENTRE[1], every)
            for pos in range(SIZE):
                row, col = line.square(pos)
                line.lm[pos] = _LETTER_MULT[row * SIZE + col]
                line.wm[pos] = _WORD_MULT[row * SIZE + col]
            line.hook[CENTRE[1] if horizontal else CENTRE[0]] = True
            lines.append(line)
        return lines
    for horizontal in (True, False):
        used = rows_used if horizontal else cols_used
        # along: step between squares of the line; across: step along the cross-words
        along, across = (1, SIZE) if horizontal else (SIZE, 1)
        for index in range(SIZE):
            if not (used[index] or used[index + 1] or used[index + 2]):
                continue
            line = _Line(horizontal, index, every)
            fixed, fixed_value, lm, wm = line.fixed, line.fixed_value, line.lm, line.wm
            # the cross-words run across this line: neighbours only in the lines beside it
            check_before = used[index]
            check_after = used[index + 2]
            base = index * SIZE if horizontal else index
            for pos in range(SIZE):
                square = base + pos * along
                code = codes[square]
                if code >= 0:
                    fixed[pos] = code
                    fixed_value[pos] = values[square]
                    continue
                lm[pos] = _LETTER_MULT[square]
                wm[pos] = _WORD_MULT[square]
                has_before = check_before and codes[square - across] >= 0
                has_after = check_after and codes[square + across] >= 0
                if not (has_before or has_after):
                    continue
                total = 0
                before = ""
                after = ""
                if has_before:
                    k = square - across
                    while k >= 0 and codes[k] >= 0 and (horizontal or k // SIZE == square // SIZE):
                        before = chr(65 + codes[k]) + before
                        total += values[k]
                        k -= across
                if has_after:
                    k = square + across
                    while k < SIZE * SIZE and codes[k] >= 0 and (horizontal or k // SIZE == square // SIZE):
                        after += chr(65 + codes[k])
                        total += values[k]
                        k += across
                line.cross_mask[pos] = lexicon.cross_mask_codes(before, after)
                line.cross_sum[pos] = total
                line.hook[pos] = True
            lines.append(line)
    return lines


# --- start bounds ---------------------------------------------------------------------------


@dataclass
class _Start:
    """A square where plays may begin, with an upper bound on their scores and how far they reach.

    A walk task looks for plays along the lexicon graph; a bingo task (``bingo_letters``
    set: the board letters its stretch holds) reads the anagram map for the plays that
    place every tile of the rack.
    """

    bound: int
    key: tuple[int, int, int]
    line: _Line
    start: int
    end: int  # last square the plays may reach
    bingo_letters: str | None = None


def _line_tasks(
    line: _Line,
    size: int,
    best_sums: list[int],
    by_value: list[tuple[int, int]],
    available: int,
    bingo: int,
    has_bingo: Callable[[str], bool],
) -> list[_Start]:
    """The tasks of one line: each start where a connected play fits, with a bound on its plays.

    ``best_sums[k]`` is the sum of the rack's k best tile values. With ``bingo`` set,
    plays of every tile become a bingo task (where ``has_bingo`` of the stretch's board
    letters allows one) and walks stop one tile short.
    """
    # A stretch bounds its plays by pairing the rack's best values with its best letter
    # and cross-word weights, or each square with the best rack letter its cross-check
    # allows, whichever is lower; a longer stretch never bounds lower, so each start is
    # bounded on the longest stretch the rack can cover.
    fixed, fixed_value, cross_mask, cross_sum = line.fixed, line.fixed_value, line.cross_mask, line.cross_sum
    lm, wm, hook = line.lm, line.wm, line.hook
    every = line.every
    top = by_value[0][0] if by_value else 0
    # before each empty square, in order, the running totals over the empty squares:
    # word multiplier product, letter premiums (triple, double), capped letter values
    # (letter weight times the best rack letter allowed there), cross-word constants,
    # cross-words, cross weights 3 and 2, capped cross values
    empties: list[int] = []
    totals = [(1, 0, 0, 0, 0, 0, 0, 0, 0)]
    mult = 1
    triple = double = capped_letter = cross_const = crossed = cross3 = cross2 = capped_cross = 0
    # per square: board letter values and connecting squares (letters, hooks) before it,
    # and the board letters before it
    board_sum = [0]
    reach = [0]
    letters_before = [""]
    letters = ""
    total = connecting = 0
    blocked_at: list[int] = []
    for pos in range(SIZE):
        code = fixed[pos]
        if code >= 0:
            total += fixed_value[pos]
            connecting += 1
            letters += chr(65 + code)
        else:
            if hook[pos]:
                connecting += 1
            mask = cross_mask[pos]
            if mask == every:
                cap = top
            elif mask & available:
                cap = 0
                for value, bit in by_value:
                    if mask & bit:
                        cap = value
                        break
            else:
                cap = 0
                blocked_at.append(len(empties))
            empties.append(pos)
            lmi = lm[pos]
            wmi = wm[pos]
            mult *= wmi
            if lmi == 3:
                triple += 1
            elif lmi == 2:
                double += 1
            capped_letter += lmi * cap
            if cross_sum[pos] >= 0:
                weight = lmi * wmi
                cross_const += cross_sum[pos] * wmi
                crossed += 1
                if weight == 3:
                    cross3 += 1
                elif weight == 2:
                    cross2 += 1
                capped_cross += weight * cap
            totals.append(
                (
                    mult,
                    triple,
                    double,
                    capped_letter,
                    cross_const,
                    crossed,
                    cross3,
                    cross2,
                    capped_cross,
                )
            )
        board_sum.append(total)
        reach.append(connecting)
        letters_before.append(letters)
    count = len(empties)
    next_empty = [count] * (SIZE + 1)
    next_blocked = [count] * (SIZE + 1)
    index = blocked_index = count
    for pos in range(SIZE - 1, -1, -1):
        if fixed[pos] < 0:
            index -= 1
            if blocked_at and blocked_at[-1] == index:
                blocked_at.pop()
                blocked_index = index
        next_empty[pos] = index
        next_blocked[pos] = blocked_index

    def bound(start: int, first: int, tiles: int) -> tuple[int, int]:
        # plays from start placing tiles on empties first .. first + tiles - 1
        last = first + tiles
        end = empties[last] - 1 if last < count else SIZE - 1
        if reach[end + 1] == reach[start]:
            return _NO_PLAY, end
        m0, t0, d0, l0, x0, c0, c30, c20, k0 = totals[first]
        m1, t1, d1, l1, x1, c1, c31, c21, k1 = totals[last]
        t3 = t1 - t0
        c3 = c31 - c30
        letters = best_sums[tiles] + best_sums[t3] + best_sums[t3 + d1 - d0]
        if l1 - l0 < letters:
            letters = l1 - l0
        crosses = best_sums[c1 - c0] + best_sums[c3] + best_sums[c3 + c21 - c20]
        if k1 - k0 < crosses:
            crosses = k1 - k0
        return (board_sum[end + 1] - board_sum[start] + letters) * (m1 // m0) + x1 - x0 + crosses, end

    tasks: list[_Start] = []
    for start in range(SIZE - 1):
        if start and fixed[start - 1] >= 0:
            continue
        first = next_empty[start]
        tiles = min(size, next_blocked[start] - first)
        if tiles <= 0:
            continue
        key = line.start_key(start)
        if bingo and tiles == size:
            full, end = bound(start, first, tiles)
            if full >= 0:
                board_letters = letters_before[end + 1][len(letters_before[start]) :]
                if has_bingo(board_letters):
                    tasks.append(_Start(full + bingo, key, line, start, end, board_letters))
            tiles -= 1
        small, end = bound(start, first, tiles)
        if small >= 0:
            tasks.append(_Start(small, key, line, start, end))
    return tasks


def _plan(
    lines: list[_Line],
    rack: _Rack,
    lexicon: Lexicon,
    values: list[int],
    bingo: int,
) -> list[_Start]:
    """The search tasks of every line (see ``_line_tasks``)."""
    values_desc = sorted((values[c] for c, n in enumerate(rack.counts) for _ in range(n)), reverse=True)
    best_sums = [0] * (SIZE + 1)
    for k in range(1, SIZE + 1):
        best_sums[k] = best_sums[k - 1] + (values_desc[k - 1] if k <= len(values_desc) else 0)
    by_value = sorted(((values[c], 1 << c) for c, n in enumerate(rack.counts) if n), reverse=True)
    letters_mask = 0
    for _, bit in by_value:
        letters_mask |= bit
    available = lexicon.letters if rack.jokers else letters_mask
    rack_letters = rack.letters()
    anagrams: dict[str, bool] = {}

    def has_bingo(board_letters: str) -> bool:
        known = anagrams.get(board_letters)
        if known is None:
            key = "".join(sorted(board_letters))
            known = anagrams.get(key)
            if known is None:
                known = anagrams[key] = lexicon.has_anagram_codes(rack_letters + key, rack.jokers)
            anagrams[board_letters] = known
        return known

    tasks: list[_Start] = []
    for line in lines:
        tasks.extend(_line_tasks(line, rack.size, best_sums, by_value, available, bingo, has_bingo))
    return tasks


# --- search ---------------------------------------------------------------------------------

# A found play: score, jokers, start key, line, start, end (exclusive), squares, letters, joker flags.
_Found = tuple[
    int,
    int,
    tuple[int, int, int],
    _Line,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
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
    """The search for one rack's plays, keeping the best ones.

    With ``count`` 1 (tie mode) it keeps the best play and the facts the tie rule needs
    (another play with the same score and jokers? with the same score?). With a larger
    count it keeps every play scoring at least the ``count``-th best score; with count
    0, every play.
    """

    def __init__(self, lexicon: Lexicon, edition: Edition, rack: _Rack, count: int, split_bingos: bool) -> None:
        self.table = lexicon.table
        self.root = lexicon.root
        self.anagram_root = lexicon.anagram_root
        self.anagram_table = lexicon.anagram_table
        self.lookahead = lexicon.lookahead
        self.final = lexicon.final
        self.letters = lexicon.letters
        self.values = [edition.values[symbol] for symbol in edition.alphabet.symbols]
        self.rack = rack
        self.counts = list(rack.counts)
        self.bingo = edition.bingo_bonus if rack.size == edition.rack_size else 0
        # with bingos read from the anagram map, walks place one tile less than the rack
        self.split_bingos = split_bingos and self.bingo > 0
        self.limit = rack.size - 1 if self.split_bingos else rack.size
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
        # the values of the real tiles still on the rack, as states: their prefix sums
        # (best k values) and the state after playing a tile of each value
        self.value_sums: list[list[int]] = []
        self.after_value: list[list[int]] = []
        self._states: dict[tuple[int, ...], int] = {}
        self._state_values: list[tuple[int, ...]] = []
        self.first_state = self._state(
            tuple(sorted((self.values[c] for c, n in enumerate(rack.counts) for _ in range(n)), reverse=True))
        )
        self._runners: dict[int, Callable[[_Start], None]] = {}
        self._keys: dict[str, list[int]] = {}  # anagram keys by board letters of a stretch

    def _state(self, values: tuple[int, ...]) -> int:
        """The id of the state "these tile values are left" (sorted, best first)."""
        known = self._states.get(values)
        if known is not None:
            return known
        state = self._states[values] = len(self.value_sums)
        sums = [0] * (SIZE + 1)
        for k in range(1, SIZE + 1):
            sums[k] = sums[k - 1] + (values[k - 1] if k <= len(values) else 0)
        self.value_sums.append(sums)
        self.after_value.append([-1] * (max(self.values) + 1))
        self._state_values.append(values)
        return state

    def after(self, state: int, value: int) -> int:
        """The state once a tile of this value is played (made on first use)."""
        rest = list(self._state_values[state])
        rest.remove(value)
        following = self.after_value[state][value] = self._state(tuple(rest))
        return following

    # --- bookkeeping of found plays -------------------------------------------------------

    def see(self, found: _Found) -> None:
        """Count a complete play met by the search and keep it when it may matter."""
        self.seen += 1
        if self.stop_after and self.seen >= self.stop_after:
            raise _Stop
        if not self.probing and found[0] >= self.threshold:
            self.offer(found)

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
        elif score < best[0]:
            return
        elif jokers < self.best_jokers:
            self.tie_more = True
            self.tie_same = False
            self._set_best(found)
        elif jokers == self.best_jokers:
            self.tie_same = True
            if found[2] < best[2] or (found[2] == best[2] and _found_key(found) < _found_key(best)):
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
        """Find the plays of a task that may beat or matter to the best so far."""
        self.current_key = start.key
        best = self.best
        self.after_best = best is not None and start.key > best[2]
        if start.bingo_letters is not None:
            self._bingos(start, start.bingo_letters)
            return
        runner = self._runners.get(id(start.line))
        if runner is None:
            runner = self._runners[id(start.line)] = self._runner(start.line)
        runner(start)

    def _bingos(self, task: _Start, board_letters: str) -> None:
        """The plays of every rack tile from a start, read from the anagram map."""
        line, first, end = task.line, task.start, task.end
        table = self.anagram_table
        final = self.final
        fixed, cross_mask = line.fixed, line.cross_mask
        codes = sorted(
            [c for c, n in enumerate(self.rack.counts) for _ in range(n)] + [ord(char) - 65 for char in board_letters]
        )
        length = end - first + 1
        word = [0] * length
        words: list[list[int]] = []

        def spell(node: int, pos: int) -> None:
            # the words below an anagram key, letter by letter, that fit the squares
            if pos > end:
                if table[node] & final:
                    words.append(list(word))
                return
            head = table[node]
            code = fixed[pos]
            allowed = head & ((1 << code) if code >= 0 else cross_mask[pos])
            rest = end - pos
            while allowed:
                bit = allowed & -allowed
                allowed ^= bit
                child = table[node + 2 + (head & (bit - 1)).bit_count()]
                if table[child + 1] >> rest & 1:
                    word[pos - first] = bit.bit_length() - 1
                    spell(child, pos + 1)

        cache_key = "".join(sorted(board_letters))
        key_nodes = self._keys.get(cache_key)
        if key_nodes is None:
            key_nodes = self._keys[cache_key] = anagram_keys(
                table, self.anagram_root, codes, self.rack.jokers, letters=self.letters
            )
        for key_node in key_nodes:
            spell(key_node, first)
        empties = [p for p in range(first, end + 1) if fixed[p] < 0]
        for letters in words:
            self._bingo_plays(task, empties, letters)

    def _bingo_plays(self, task: _Start, empties: list[int], word: list[int]) -> None:
        """Every way of putting the jokers in a bingo word, scored and offered."""
        # A joker on a square loses that square's letter value times the word's
        # multiplier (plus the cross-word's), so each placement of the jokers scores the
        # all-real score minus its squares' losses.
        line, first, end = task.line, task.start, task.end
        fixed, fixed_value = line.fixed, line.fixed_value
        lm, wm, cross_sum = line.lm, line.wm, line.cross_sum
        values = self.values
        spare = list(self.rack.counts)
        main = 0
        mult = 1
        cross = 0
        for pos in range(first, end + 1):
            if fixed[pos] >= 0:
                main += fixed_value[pos]
                continue
            code = word[pos - first]
            spare[code] -= 1
            value = values[code] * lm[pos]
            main += value
            mult *= wm[pos]
            if cross_sum[pos] >= 0:
                cross += (cross_sum[pos] + value) * wm[pos]
        full = main * mult + cross + self.bingo
        loss = {
            pos: values[word[pos - first]] * lm[pos] * (mult + (wm[pos] if cross_sum[pos] >= 0 else 0))
            for pos in empties
        }
        choices: list[list[tuple[int, ...]]] = []
        least = 0
        ways = 1
        for code, number in enumerate(spare):
            if number < 0:
                squares = [p for p in empties if word[p - first] == code]
                choices.append(list(combinations(squares, -number)))
                least += sum(sorted(loss[p] for p in squares)[:-number])
                ways *= len(choices[-1])
        most = full - least
        if (
            most <= self.threshold
            and not self.probing
            and not self.stop_after
            and (most < self.threshold or self.tie_prunable(self.rack.jokers))
        ):
            self.seen += ways
            return
        placed = tuple(word[p - first] for p in empties)
        for picked in product(*choices):
            jokers = {p for group in picked for p in group}
            score = full - sum(loss[p] for p in jokers)
            flags = tuple(p in jokers for p in empties)
            self.see((score, len(jokers), task.key, line, first, end + 1, tuple(empties), placed, flags))

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
        final = self.final
        every = self.letters
        values = self.values
        counts = self.counts
        total = self.rack.size
        limit = self.limit
        all_jokers = self.rack.jokers
        bingo = self.bingo
        value_sums = self.value_sums
        after_value = self.after_value
        vertical = not line.horizontal
        squares = [0] * (total + 1)
        letters = [0] * (total + 1)
        flags = [False] * (total + 1)
        # per square, what the squares from there to the end may still add: board letters,
        # tiles, tiles on triple / on double or triple letter squares, word multiplier,
        # cross-word constants, cross-words, cross weights 3 / 2 or 3
        ahead: list[tuple[int, int, int, int, int, int, int, int, int]] = [(0, 0, 0, 0, 1, 0, 0, 0, 0)] * (SIZE + 2)
        endmask = [0] * (SIZE + 2)
        # per square: distance to a square the word must still cover (a board letter or a
        # cross-check, with nowhere to end before it), and the letters allowed there
        must_reach = [0] * (SIZE + 2)
        must_letters = [0] * (SIZE + 2)
        depth = [table, *self.lookahead]
        search = self
        first_state = self.first_state
        state = [0, 0]  # start, end

        def record(score: int, n: int, stop: int, jokers_left: int) -> None:
            search.see(
                (
                    score,
                    all_jokers - jokers_left,
                    search.current_key,
                    line,
                    state[0],
                    stop,
                    tuple(squares[:n]),
                    tuple(letters[:n]),
                    tuple(flags[:n]),
                )
            )

        def go(
            pos: int,
            node: int,
            main: int,
            mult: int,
            cross: int,
            n: int,
            connected: bool,
            rack_mask: int,
            jokers_left: int,
            left_values: int,
            allowed: int,
        ) -> None:
            # pos is an empty square the word may still cover, ``allowed`` the letters that
            # may go there (node's edges, cross-check, rack); can it still beat the best?
            end = state[1]
            threshold = search.threshold
            board_sum, tiles, triple, premium, word_mult, cross_const, crossed, cross3, cross23 = ahead[pos]
            best = value_sums[left_values]
            bound = (
                (main + board_sum + best[tiles] + best[triple] + best[premium]) * mult * word_mult
                + cross
                + cross_const
                + best[crossed]
                + best[cross3]
                + best[cross23]
            )
            if bound <= threshold and (bound < threshold or search.tie_prunable(all_jokers - jokers_left)):
                return
            head = table[node]
            lmi = lm[pos]
            wmi = wm[pos]
            xsum = cross_sum[pos]
            joined = connected or hook[pos]
            new_mult = mult * wmi
            n1 = n + 1
            more = n1 < limit
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
                child_head = table[child]
                ends = child_head & final and (joined or q > nxt) and q - first > 1 and not single_dup
                # the word may go on to the next empty square q: letters fit there, a word
                # length ends on a free square, a square it must reach is reachable
                fits = 0
                if more and q <= end and table[child + 1] & endmask[q]:
                    fits = child_head & cross_mask[q]
                    ahead_by = must_reach[q]
                    if ahead_by and not depth[ahead_by][child] & must_letters[q]:
                        fits = 0
                if not (ends or fits):
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
                    if fits:
                        left = counts[code] - 1
                        mask2 = rack_mask if left else rack_mask ^ bit
                        fits2 = fits if jokers_left else fits & mask2
                        if fits2:
                            counts[code] = left
                            following = after_value[left_values][values[code]]
                            if following < 0:
                                following = search.after(left_values, values[code])
                            go(
                                q,
                                child,
                                main2,
                                new_mult,
                                cross2,
                                n1,
                                True if q > nxt else joined,
                                mask2,
                                jokers_left,
                                following,
                                fits2,
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
                    if fits:
                        fits2 = fits if jokers_left > 1 else fits & rack_mask
                        if fits2:
                            go(
                                q,
                                child,
                                main2,
                                new_mult,
                                cross2,
                                n1,
                                True if q > nxt else joined,
                                rack_mask,
                                jokers_left - 1,
                                left_values,
                                fits2,
                            )

        def run(start: _Start) -> None:
            first, end = start.start, start.end
            state[0] = first
            state[1] = end
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
            nearest = SIZE + 1  # nearest square at or after pos holding a letter or a hook
            for pos in range(end, first - 1, -1):
                if fixed[pos + 1] < 0 and pos >= reach:
                    ends |= 1 << pos
                if fixed[pos] >= 0 or hook[pos]:
                    nearest = pos
                distance = nearest - pos
                if 0 < distance <= LOOKAHEAD and nearest <= end and not ((ends << 1) >> pos & ((2 << distance) - 2)):
                    must_reach[pos] = distance
                    must_letters[pos] = 1 << fixed[nearest] if fixed[nearest] >= 0 else cross_mask[nearest]
                else:
                    must_reach[pos] = 0
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
                ahead[pos] = (
                    fixed_sum,
                    tiles,
                    triple,
                    triple + double,
                    mult,
                    cross_const,
                    crossed,
                    cross3,
                    cross3 + cross2,
                )
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
            fits = table_[node] & cross_mask[pos] & (every if all_jokers else rack_mask)
            ahead_by = must_reach[pos]
            if fits and (not ahead_by or depth[ahead_by][node] & must_letters[pos]):
                go(pos, node, main, 1, 0, 0, pos > first, rack_mask, all_jokers, first_state, fits)

        return run


# --- public API -------------------------------------------------------------------------------


def _build_play(board: Board, found: _Found, edition: Edition) -> Play:
    """Rebuild a found play through validate_tiles and score_placement (the one truth)."""
    line, squares, letters, flags = found[3], found[6], found[7], found[8]
    symbols = edition.alphabet.symbols
    tiles = []
    for pos, code, joker in zip(squares, letters, flags):
        row, col = line.square(pos)
        tiles.append((row, col, Tile(symbols[code], joker)))
    placement = validate_tiles(board, tiles, rack_size=edition.rack_size, alphabet=edition.alphabet)
    return Play(placement, score_placement(placement, edition), placement.jokers)


def play_order(play: Play) -> tuple[int, int, int, int, int, str, str]:
    """Sort key of the top order: score, fewest jokers, then the fixed order (see the module doc)."""
    placement = play.placement
    ref = placement.ref
    alphabet = placement.alphabet
    if alphabet.plain:
        word, typed = placement.main_word.text, placement.notation()
    else:  # the same order on codes: alphabet order, then jokers after plain tiles
        cells = placement.main_word.cells
        word = "".join(chr(65 + alphabet.code(c.letter)) for c in cells)
        typed = "".join(chr((97 if c.joker else 65) + alphabet.code(c.letter)) for c in cells)
    return (-play.score.total, play.jokers, 0 if ref.horizontal else 1, ref.row, ref.col, word, typed)


def _prepare(
    board: Board,
    rack: str,
    lexicon: Lexicon,
    edition: Edition,
    count: int,
    first_move_horizontal_only: bool,
) -> tuple[_Search, list[_Start]]:
    """The search state and its tasks; ``count`` 0 lists every play (no bingo tasks)."""
    lexicon.check_alphabet(edition.alphabet)
    parsed = _parse_rack(rack, edition)
    search = _Search(lexicon, edition, parsed, count, split_bingos=count > 0)
    if parsed.size == 0 or len(lexicon) == 0:
        return search, []
    lines = _make_lines(board, lexicon, edition, first_move_horizontal_only)
    bingo = search.bingo if search.split_bingos else 0
    return search, _plan(lines, parsed, lexicon, search.values, bingo)


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
        if start.bound <= search.threshold:
            if start.bound < search.threshold:
                break
            # a bingo task can only tie (with every joker placed): skip it when that
            # changes nothing
            if start.bingo_letters is not None:
                best = search.best
                search.after_best = best is not None and start.key > best[2]
                if search.tie_prunable(search.rack.jokers):
                    continue
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
        rule = TieRule.NONE
    elif search.tie_mode:
        if search.tie_same:
            rule = TieRule.ORDER
        elif search.tie_more:
            rule = TieRule.FEWEST_JOKERS
        elif seen > 1 or _any_other_play(search, starts):
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
        rule = TieRule.SCORE if _any_other_play(search, starts) else TieRule.UNIQUE
    stats = SearchStats(len(starts), searched, len(starts) - searched, seen)
    best_score = plays[0].total if plays else None
    top_count = 1 if search.tie_mode and plays else sum(1 for f in search.found if f[0] == best_score)
    return TopResult(tuple(plays), rule, stats, top_count)
