"""The board and rack as the move generator's search reads them (``core.movegen``).

A rack as letter counts (``parse_rack``); the rows and columns where a play may go, with each
square's board letter, cross-check, cross-word sum, premiums and hook (``make_lines``); and the
squares where plays may begin, each with an upper bound on their scores (``plan``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import CENTRE, PREMIUMS, SIZE, Board
from .edition import JOKER, Edition
from .errors import RackSyntaxError, SyntaxProblem
from .lexicon import Lexicon
from .lexicon_layout import is_key

_LETTER_MULT = tuple(p.letter_multiplier for p in PREMIUMS)
_WORD_MULT = tuple(p.word_multiplier for p in PREMIUMS)


# --- racks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rack:
    """A rack as counts per letter code, joker count and tile count."""

    counts: tuple[int, ...]
    jokers: int
    size: int

    def letters(self) -> str:
        """The rack's letters (jokers left out) as a code string (``core.lexicon``), in alphabet order."""
        return "".join(chr(65 + code) * number for code, number in enumerate(self.counts))


def parse_rack(tiles: str, edition: Edition) -> Rack:
    """A rack given as tiles: one symbol of the edition's alphabet per tile, ``?`` for a joker.

    The tiles are taken as they are, never read again as typed text (two ``L`` tiles stay two tiles in an
    edition with ``LL``): typed text is read by ``core.notation.parse_tiles``. A character that is neither
    a symbol nor ``?``, more tiles than the rack holds or more jokers than the edition has raise
    RackSyntaxError.
    """
    alphabet = edition.alphabet
    counts = [0] * len(alphabet)
    jokers = 0
    for char in tiles:
        if char == JOKER:
            jokers += 1
        elif char in alphabet:
            counts[alphabet.code(char)] += 1
        else:
            raise RackSyntaxError(tiles, SyntaxProblem.NOT_A_TILE, char)
    size = sum(counts) + jokers
    if size > edition.rack_size:
        raise RackSyntaxError(tiles, SyntaxProblem.RACK_TOO_LONG, str(edition.rack_size))
    if jokers > edition.jokers:
        raise RackSyntaxError(tiles, SyntaxProblem.TOO_MANY_JOKERS, str(edition.jokers))
    return Rack(tuple(counts), jokers, size)


# --- lines ----------------------------------------------------------------------------------


class Line:
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


def make_lines(board: Board, lexicon: Lexicon, edition: Edition, horizontal_only_first: bool) -> list[Line]:
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
    lines: list[Line] = []
    if board.is_empty():
        for horizontal in (True, False) if not horizontal_only_first else (True,):
            line = Line(horizontal, CENTRE[0] if horizontal else CENTRE[1], every)
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
            line = Line(horizontal, index, every)
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
class Start:
    """A square where plays may begin, with an upper bound on their scores and how far they reach.

    A walk task looks for plays along the lexicon graph; a bingo task (``bingo_letters``
    set: the board letters its stretch holds) reads the anagram map for the plays that
    place every tile of the rack.
    """

    bound: int
    key: tuple[int, int, int]
    line: Line
    start: int
    end: int  # last square the plays may reach
    bingo_letters: str | None = None


def _line_tasks(
    line: Line,
    size: int,
    best_sums: list[int],
    by_value: list[tuple[int, int]],
    available: int,
    bingo: int,
    has_bingo: Callable[[str], bool],
) -> list[Start]:
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
    blocked_at: list[int] = []  # the empty squares (their numbers) where no tile of the rack fits
    next_empty = [0] * SIZE  # per square, the number of the first empty square at or after it
    for pos in range(SIZE):
        next_empty[pos] = len(empties)
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

    def bound(start: int, end: int, first: int, tiles: int) -> int:
        # plays from start to end placing tiles on empties first .. first + tiles - 1
        last = first + tiles
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
        return (board_sum[end + 1] - board_sum[start] + letters) * (m1 // m0) + x1 - x0 + crosses

    tasks: list[Start] = []
    horizontal, index = line.horizontal, line.index
    for start in range(SIZE - 1):
        if start and fixed[start - 1] >= 0:
            continue
        first = next_empty[start]
        blocked = count  # the first empty square from ``first`` on where no tile fits
        for number in blocked_at:
            if number >= first:
                blocked = number
                break
        tiles = min(size, blocked - first)
        if tiles <= 0:
            continue
        key = (0, index, start) if horizontal else (1, start, index)  # the fixed order: direction, row, column
        if bingo and tiles == size:
            last = first + tiles
            end = empties[last] - 1 if last < count else SIZE - 1
            if reach[end + 1] != reach[start]:  # the stretch joins the board
                board_letters = letters_before[end + 1][len(letters_before[start]) :]
                if has_bingo(board_letters):
                    tasks.append(Start(bound(start, end, first, tiles) + bingo, key, line, start, end, board_letters))
            tiles -= 1
        last = first + tiles
        end = empties[last] - 1 if last < count else SIZE - 1
        if reach[end + 1] != reach[start]:
            tasks.append(Start(bound(start, end, first, tiles), key, line, start, end))
    return tasks


def plan(
    lines: list[Line],
    rack: Rack,
    lexicon: Lexicon,
    values: list[int],
    bingo: int,
) -> list[Start]:
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
    rack_codes = [code for code, number in enumerate(rack.counts) for _ in range(number)]
    anagrams: dict[str, bool] = {}
    table, root, words_below = lexicon.anagram_table, lexicon.anagram_root, lexicon.anagram_words

    def has_bingo(board_letters: str) -> bool:
        known = anagrams.get(board_letters)
        if known is None:
            key = "".join(sorted(board_letters))
            known = anagrams.get(key)
            if known is None:
                if rack.jokers > 1:  # left to the task (read if it runs): the walk of two free letters costs
                    known = True
                elif rack.jokers:
                    known = lexicon.has_anagram_codes(rack_letters + key, rack.jokers)
                else:  # the key read at once
                    known = is_key(table, root, sorted(rack_codes + [ord(char) - 65 for char in key]), words_below)
                anagrams[key] = known
            anagrams[board_letters] = known
        return known

    tasks: list[Start] = []
    for line in lines:
        tasks.extend(_line_tasks(line, rack.size, best_sums, by_value, available, bingo, has_bingo))
    return tasks
