"""The board and rack as the move generator's search reads them (``core.movegen``).

A rack as letter counts (``parse_rack``); the rows and columns where a play may go, with each
square's board letter, cross-check, cross-word sum, premiums and hook (``make_lines``); and the
squares where plays may begin, each with an upper bound on their scores (``plan``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import CENTRE, LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS, Board
from .edition import JOKER, Edition
from .errors import RackSyntaxError, SyntaxProblem
from .lexicon import Lexicon
from .lexicon_layout import is_key

# per line (horizontal or not, index): the letter and word multipliers of its squares, and of the sentinel
_LINE_LM = {
    (horizontal, index): tuple(
        LETTER_MULTIPLIERS[index * SIZE + p if horizontal else p * SIZE + index] for p in range(SIZE)
    )
    + (1,)
    for horizontal in (True, False)
    for index in range(SIZE)
}
_LINE_WM = {
    (horizontal, index): tuple(
        WORD_MULTIPLIERS[index * SIZE + p if horizontal else p * SIZE + index] for p in range(SIZE)
    )
    + (1,)
    for horizontal in (True, False)
    for index in range(SIZE)
}


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
    sum (-1 without one), the premiums printed on the square (read where it is empty), and whether a new
    tile there touches the board.
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
        self.lm = _LINE_LM[horizontal, index]
        self.wm = _LINE_WM[horizontal, index]
        self.hook = [False] * (SIZE + 1)

    def square(self, position: int) -> tuple[int, int]:
        """The (row, col) of a position along the line."""
        if self.horizontal:
            return self.index, position
        return position, self.index


def _centre_line(horizontal: bool, every: int) -> Line:
    """The line of the empty board through the centre, its one hook."""
    line = Line(horizontal, CENTRE[0] if horizontal else CENTRE[1], every)
    line.hook[CENTRE[1] if horizontal else CENTRE[0]] = True
    return line


def make_lines(board: Board, lexicon: Lexicon, edition: Edition, horizontal_only_first: bool) -> list[Line]:
    """The lines where a play may go (a tile in them or beside them), with their cross-checks."""
    every = lexicon.letters
    if board.is_empty():
        return [_centre_line(horizontal, every) for horizontal in ((True,) if horizontal_only_first else (True, False))]
    # the board's letter codes (-1: empty) and values by square, rows of ``width`` squares: each row ends on a square
    # that is never a tile, and an empty row lies above and below the board, so a word read square by square
    # stops at the edge
    width = SIZE + 1
    codes = [-1] * ((SIZE + 2) * width)
    chars = [""] * ((SIZE + 2) * width)
    values = [0] * ((SIZE + 2) * width)
    beside = [0] * ((SIZE + 2) * width)  # by square: 1 with a tile above or below it, 2 left or right, or both
    rows_used = [False] * (SIZE + 2)  # shifted by one: index r + 1 is row r
    cols_used = [False] * (SIZE + 2)
    code_of = edition.alphabet.code
    tile_values = edition.values
    for row, col, tile in board.tiles():
        square = (row + 1) * width + col
        code = codes[square] = code_of(tile.letter)
        chars[square] = chr(65 + code)
        values[square] = 0 if tile.joker else tile_values[tile.letter]
        beside[square - width] |= 1
        beside[square + width] |= 1
        beside[square - 1] |= 2
        beside[square + 1] |= 2
        rows_used[row + 1] = cols_used[col + 1] = True
    lines: list[Line] = []
    cross_mask_codes = lexicon.cross_mask_codes
    for horizontal in (True, False):
        used = rows_used if horizontal else cols_used
        # along: step between squares of the line; across: step along the cross-words
        along, across = (1, width) if horizontal else (width, 1)
        for index in range(SIZE):
            if not (used[index] or used[index + 1] or used[index + 2]):
                continue
            line = Line(horizontal, index, every)
            fixed, fixed_value, cross_mask, cross_sum, hook = (
                line.fixed,
                line.fixed_value,
                line.cross_mask,
                line.cross_sum,
                line.hook,
            )
            across_word = 1 if horizontal else 2  # a cross-word at a square: a tile beside it across this line
            square = (index + 1) * width if horizontal else width + index
            for pos in range(SIZE):
                code = codes[square]
                if code >= 0:
                    fixed[pos] = code
                    fixed_value[pos] = values[square]
                elif beside[square] & across_word:
                    total = 0
                    before = ""
                    after = ""
                    k = square - across
                    while codes[k] >= 0:
                        before = chars[k] + before
                        total += values[k]
                        k -= across
                    k = square + across
                    while codes[k] >= 0:
                        after += chars[k]
                        total += values[k]
                        k += across
                    cross_mask[pos] = cross_mask_codes(before, after)
                    cross_sum[pos] = total
                    hook[pos] = True
                square += along
            lines.append(line)
    return lines


# --- start bounds ---------------------------------------------------------------------------


Start = tuple[int, tuple[int, int, int], int, Line, int, int, str | None]
"""A square where plays may begin (a task), as a tuple that sorts in the order tasks run: minus an upper bound
on its plays' scores, the fixed-order key (direction, row, column), the task's number (the order it was
made in), the line, the first and the last square the plays may cover, and the board letters of a bingo task
(else None).

A walk task looks for plays along the lexicon graph; a bingo task (its board letters set: those its stretch
holds) reads the anagram map for the plays that place every tile of the rack.
"""


def _line_tasks(
    line: Line,
    size: int,
    best_sums: list[int],
    by_value: list[tuple[int, int]],
    available: int,
    bingo: int,
    has_bingo: Callable[[str], bool],
    tasks: list[Start],
) -> None:
    """The tasks of one line, added to ``tasks``: each start where a connected play fits, with a bound on its
    plays.

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
    # before each empty square, in order, and after the last one: the running totals over the empty squares
    # (word multiplier product, letter premiums (triple, double or triple), capped letter values (letter weight times
    # the best rack letter allowed there), cross-word constants, cross-words, cross weights 3 and 2 or 3, capped
    # cross values), and over the line (board letter values, connecting squares: letters and hooks, letters)
    empties: list[int] = []
    totals: list[tuple[int, int, int, int, int, int, int, int, int, int, int, str]] = []
    mult = 1
    triple = premium = capped_letter = cross_const = crossed = cross3 = cross23 = capped_cross = 0
    letters = ""
    total = connecting = 0
    blocked_at: list[int] = []  # the empty squares (their numbers) where no tile of the rack fits
    linked = -1  # the empty squares before the first connecting square
    last_link = -1  # the last connecting square
    # square SIZE, past the edge and always empty, adds the totals after the last empty square
    for pos in range(SIZE + 1):
        code = fixed[pos]
        if code >= 0:
            total += fixed_value[pos]
            connecting += 1
            letters += chr(65 + code)
            if linked < 0:
                linked = len(empties)
            last_link = pos
            continue
        totals.append(
            (
                mult,
                triple,
                premium,
                capped_letter,
                cross_const,
                crossed,
                cross3,
                cross23,
                capped_cross,
                total,
                connecting,
                letters,
            )
        )
        if pos == SIZE:
            break
        empties.append(pos)
        lmi = lm[pos]
        wmi = wm[pos]
        mult *= wmi
        if lmi > 1:
            premium += 1
            if lmi == 3:
                triple += 1
        if not hook[pos]:  # no cross-word: every letter fits
            capped_letter += lmi * top
            continue
        connecting += 1
        if linked < 0:
            linked = len(empties) - 1
        last_link = pos
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
            blocked_at.append(len(empties) - 1)
        capped_letter += lmi * cap
        xsum = cross_sum[pos]
        if xsum >= 0:
            weight = lmi * wmi
            cross_const += xsum * wmi
            crossed += 1
            if weight > 1:
                cross23 += 1
                if weight == 3:
                    cross3 += 1
            capped_cross += weight * cap
    count = len(empties)
    if not count:
        return
    blocked_at.append(count)
    horizontal, index = line.horizontal, line.index
    blocked_index = 0
    # the first start whose plays may reach the first connecting square
    lowest = linked - size if linked > size else 0
    previous = empties[lowest - 1] if lowest else -1  # the empty square before this one
    for first in range(lowest, count):
        pos = empties[first]
        board_before = pos - previous > 1  # board letters right before the empty square: the plays start at them
        start = previous + 1 if board_before else pos
        if start > last_link or start == SIZE - 1:  # no connecting square from here on
            break
        while blocked_at[blocked_index] < first:
            blocked_index += 1
        tiles = blocked_at[blocked_index] - first  # up to the first empty square where no tile fits
        if tiles <= 0:
            previous = pos
            continue
        if tiles > size:
            tiles = size
        key = (0, index, start) if horizontal else (1, start, index)  # the fixed order: direction, row, column
        m0, t0, p0, l0, x0, c0, c30, c230, k0, start_sum, start_reach, start_letters = totals[first]
        if board_before:  # what lies before the board letters: before the empty square before them
            if first:
                _, _, _, _, _, _, _, _, _, start_sum, start_reach, start_letters = totals[first - 1]
                if hook[previous]:
                    start_reach += 1
            else:
                start_sum, start_reach, start_letters = 0, 0, ""
        previous = pos
        bingo_stretch = bingo and tiles == size
        while True:
            # the plays from start placing tiles on the empty squares first .. first + tiles - 1
            last = first + tiles
            m1, t1, p1, l1, x1, c1, c31, c231, k1, end_sum, end_reach, end_letters = totals[last]
            if end_reach == start_reach:  # the stretch does not join the board (nor does a shorter one)
                break
            letter_bound = best_sums[tiles] + best_sums[t1 - t0] + best_sums[p1 - p0]
            if l1 - l0 < letter_bound:
                letter_bound = l1 - l0
            cross_bound = best_sums[c1 - c0] + best_sums[c31 - c30] + best_sums[c231 - c230]
            if k1 - k0 < cross_bound:
                cross_bound = k1 - k0
            bound = (end_sum - start_sum + letter_bound) * (m1 // m0) + x1 - x0 + cross_bound
            end = empties[last] - 1 if last < count else SIZE - 1
            if not bingo_stretch:
                tasks.append((-bound, key, len(tasks), line, start, end, None))
                break
            board_letters = end_letters[len(start_letters) :]
            if has_bingo(board_letters):
                tasks.append((-bound - bingo, key, len(tasks), line, start, end, board_letters))
            bingo_stretch = False
            tiles -= 1


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
        _line_tasks(line, rack.size, best_sums, by_value, available, bingo, has_bingo, tasks)
    return tasks
