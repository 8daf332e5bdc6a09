"""The move generator's search (``core.movegen``): one rack's plays walked along the word graph
from each start of ``core.movegen_board``, bingos read from the anagram map, the best ones kept.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from .board import SIZE
from .edition import Edition
from .lexicon import Lexicon
from .lexicon_layout import LOOKAHEAD
from .movegen_bingos import Bingos
from .movegen_board import Line, Rack, Start
from .movegen_plays import Found, Kept, found_key
from .movegen_starts import Beginning, StartCheck, rack_beginnings


def _arrays(
    line: Line,
) -> tuple[list[int], list[int], list[int], list[int], tuple[int, ...], tuple[int, ...], list[bool]]:
    """A line's arrays as the walk reads them: board letters and values, cross-checks and sums, premiums, hooks."""
    return line.fixed, line.fixed_value, line.cross_mask, line.cross_sum, line.lm, line.wm, line.hook


class Stop(Exception):
    """Raised inside the search to stop at once."""


class Search(Bingos):
    """The search for one rack's plays, keeping the best ones.

    With ``count`` 1 (tie mode) it keeps the best play and the facts the tie rule needs
    (another play with the same score and jokers? with the same score?). With a larger
    count it keeps every play scoring at least the ``count``-th best score; with count
    0, every play.
    """

    def __init__(self, lexicon: Lexicon, edition: Edition, rack: Rack, count: int, split_bingos: bool) -> None:
        self.table = lexicon.table
        self.root = lexicon.root
        self.anagram_root = lexicon.anagram_root
        self.anagram_table = lexicon.anagram_table
        self.anagram_words = lexicon.anagram_words
        self.lookahead = lexicon.lookahead
        self.letters = lexicon.letters
        self.tiles = len(lexicon.alphabet)
        self.values = [edition.values[symbol] for symbol in edition.alphabet.symbols]
        self.rack = rack
        self.counts = list(rack.counts)
        self.rack_mask = sum(1 << code for code, number in enumerate(rack.counts) if number)  # its letters
        self.bingo = edition.bingo_bonus if rack.size == edition.rack_size else 0
        # with bingos read from the anagram map, walks place one tile less than the rack (their stretches,
        # planned by core.movegen_board, hold one empty square less)
        self.split_bingos = split_bingos and self.bingo > 0
        self.count = count
        self.tie_mode = count == 1
        self.threshold = -1
        self.found: list[Found] = []
        self.heap: list[int] = []
        self.best: Found | None = None
        self.best_key: tuple[object, ...] | None = None
        self.best_jokers = 0
        self.tie_same = False
        self.tie_more = False
        self.after_best = False
        self.current_key = (0, 0, 0)
        self.seen = 0
        self.stop_after = 0  # when set, stop once this many plays have been seen
        self.probing = False
        # the real tiles still on the rack, as a state: a number, the count left of each letter of the rack in a
        # digit of its own (``place`` of a letter: its digit's weight, 0 off the rack), so that playing a tile takes
        # its letter's weight off; per state, made on first use, the prefix sums of the values left (best k values)
        self.place = [0] * self.tiles
        digits: list[tuple[int, int, int]] = []  # per letter of the rack: its value, weight and count + 1
        weight = 1
        for code, number in enumerate(rack.counts):
            if number:
                self.place[code] = weight
                digits.append((self.values[code], weight, number + 1))
                weight *= number + 1
        self.first_state = weight - 1
        self._by_value = sorted(digits, reverse=True)  # best value first
        self.state_bits = weight.bit_length()  # a node and a state as one key: ``node << state_bits | state``
        self.value_sums: list[list[int] | None] = [None] * weight
        self._walker: Callable[[Line, int, int], None] | None = None  # ``_runner()``, once a task runs
        self._reaches: dict[int, int] | None = None  # ``reaches()``, once a walk needs it
        self.beginnings: list[list[Beginning]] = []  # (``reaches``)
        # by the board letters of a stretch: the anagram map's key nodes (a map with the words), or what the
        # jokers of a play of every tile may be (``_joker_letters``, a map of keys alone)
        self._key_nodes: dict[str, list[int]] = {}
        self._keys: dict[str, tuple[int, list[int]] | None] = {}

    def sums(self, state: int) -> list[int]:
        """The prefix sums of the values of the tiles a state leaves (best first), made on first use."""
        sums = [0]
        total = 0
        for value, weight, radix in self._by_value:
            left = state // weight % radix
            while left:
                total += value
                sums.append(total)
                left -= 1
        sums += [total] * (SIZE + 1 - len(sums))
        self.value_sums[state] = sums
        return sums

    def reaches(self) -> dict[int, int]:
        """Per node read from the root with tiles of the rack alone (key: the node and the state of the tiles
        left, ``node << state_bits | state``): the letters that may follow it once k more tiles of those left
        are read, for every k, as one number (``tiles`` bits per k, k = 0 lowest); the beginnings by their
        number of tiles kept in ``beginnings`` (``core.movegen_starts``)."""
        found, self.beginnings = rack_beginnings(
            self.table,
            self.root,
            self.tiles,
            self.place,
            self.counts,
            self.first_state,
            self.rack_mask,
            self.state_bits,
        )
        return found

    # --- bookkeeping of found plays -------------------------------------------------------

    def see(self, found: Found) -> None:
        """Count a complete play met by the search and keep it when it may matter."""
        self.seen += 1
        if self.stop_after and self.seen >= self.stop_after:
            raise Stop
        if not self.probing and found[0] >= self.threshold:
            self.offer(found)

    def offer(self, found: Found) -> None:
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
            if found[2] < best[2]:
                self._set_best(found)
            elif found[2] == best[2]:
                best_key = self.best_key
                if best_key is None:
                    best_key = self.best_key = found_key(best)
                key = found_key(found)
                if key < best_key:
                    self._set_best(found)
                    self.best_key = key
        else:
            self.tie_more = True

    def kept(self) -> Kept:
        """What the search kept for the top."""
        return Kept(self.tie_mode, self.seen, self.best, self.tie_same, self.tie_more, self.found, self.threshold)

    def _set_best(self, found: Found) -> None:
        self.best = found
        self.best_key = None  # its ``found_key``, once a tie asks for it
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

    def run(self, start: Start) -> None:
        """Find the plays of a task that may beat or matter to the best so far."""
        _, key, _, line, first, end, board_letters = start
        self.current_key = key
        best = self.best
        self.after_best = best is not None and key > best[2]
        if board_letters is not None:
            self._bingos(key, line, first, end, board_letters)
            return
        runner = self._walker
        if runner is None:
            runner = self._walker = self._runner()
        runner(line, first, end)

    def _runner(self) -> Callable[[Line, int, int], None]:
        """The walk over the lines, as a closure over the arrays of the line it last ran on (rebound when a
        task of another line runs)."""
        table = self.table
        line = Line(True, 0, self.letters)  # the line's arrays: those of the task's line once one runs
        fixed, fixed_value, cross_mask, cross_sum, lm, wm, hook = _arrays(line)
        every = self.letters
        values = self.values
        counts = self.counts
        total = self.rack.size
        all_jokers = self.rack.jokers
        rack_mask = self.rack_mask
        bingo = self.bingo
        value_sums = self.value_sums
        place = self.place
        # without a joker, the letters a word read with tiles alone may have at a distance (``reaches``)
        racked = not self.rack.jokers
        if racked and self._reaches is None:
            self._reaches = self.reaches()
        reaches = self._reaches or {}
        width = self.tiles
        shift = self.state_bits
        vertical = False
        squares = [0] * (total + 1)
        letters = [0] * (total + 1)
        flags = [False] * (total + 1)
        # per square, what the squares from there to the end may still add: board letters,
        # tiles, tiles on triple / on double or triple letter squares, word multiplier,
        # cross-word constants, cross-words, cross weights 3 / 2 or 3
        Ahead = tuple[int, int, int, int, int, int, int, int, int]
        ahead: list[Ahead] = []
        endmask: list[int] = []
        # per square: distance to a square the word must still cover (a board letter or a
        # cross-check, with nowhere to end before it), and the letters allowed there
        must_reach: list[int] = []
        must_letters: list[int] = []
        filled: list[int] = []  # the stretch's end, reach and first square the arrays were last filled for
        # by line (its id): the arrays above, filled for its tasks
        arrays: dict[int, tuple[list[Ahead], list[int], list[int], list[int], list[int]]] = {}
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
            # may go there (node's edges, cross-check, rack)
            head = table[node]
            xsum = cross_sum[pos]
            joined = connected or hook[pos]
            first = state[0]
            nxt = pos + 1
            next_code = fixed[nxt]
            base = node + 2
            if next_code < 0:
                # the next square empty (the most common case): whether a word may end here or go on there is
                # the same for every letter but for the child's lengths and letters (a vertical play of one tile
                # with a cross-word is found again horizontally)
                near_end = joined and nxt - first > 1 and not (vertical and n == 0 and xsum >= 0)
                near_lengths = endmask[nxt]
                near_cross = cross_mask[nxt] & (every if jokers_left else rack_mask)  # tiles that may go there
                near_by = must_reach[nxt]
                near_letters = must_letters[nxt]
                q = nxt
                board_sum = 0
                joins = joined
            else:
                single_dup = vertical and n == 0 and xsum >= 0
            placing = False  # whether a letter that ends or goes on was met (the bound is checked then)
            while allowed:
                bit = allowed & -allowed
                allowed ^= bit
                child = table[base + (head & (bit - 1)).bit_count()]
                if next_code < 0:
                    child_lengths = table[child + 1]
                    ends = near_end and child_lengths & 1
                    fits = table[child] & near_cross if child_lengths & near_lengths else 0
                    if fits and near_by:
                        if not depth[near_by][child] & near_letters:
                            fits = 0
                        elif racked and not connected:  # every letter so far a tile: the child is in reaches
                            packed = reaches[child << shift | (left_values - place[bit.bit_length() - 1])]
                            if not packed >> (near_by * width) & near_letters:
                                fits = 0
                else:
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
                    child_lengths = table[child + 1]
                    ends = child_lengths & 1 and q - first > 1 and not single_dup
                    # the word may go on to the next empty square q: letters fit there, a word
                    # length ends on a free square, a square it must reach is reachable
                    fits = 0
                    if child_lengths & endmask[q]:
                        fits = table[child] & cross_mask[q] & (every if jokers_left else rack_mask)
                        ahead_by = must_reach[q]
                        if ahead_by and not depth[ahead_by][child] & must_letters[q]:
                            fits = 0
                    joins = True
                if not (ends or fits):
                    continue
                if not placing:
                    # can the plays from here still beat the best?
                    placing = True
                    ahead_sum, tiles, triple, premium, word_mult, cross_const, crossed, cross3, cross23 = ahead[pos]
                    best = value_sums[left_values]
                    if best is None:
                        best = search.sums(left_values)
                    bound = (
                        (main + ahead_sum + best[tiles] + best[triple] + best[premium]) * mult * word_mult
                        + cross
                        + cross_const
                        + best[crossed]
                        + best[cross3]
                        + best[cross23]
                    )
                    threshold = search.threshold
                    if bound <= threshold and (bound < threshold or search.tie_prunable(all_jokers - jokers_left)):
                        return
                    lmi = lm[pos]
                    wmi = wm[pos]
                    new_mult = mult * wmi
                    n1 = n + 1
                    squares[n] = pos
                code = bit.bit_length() - 1
                letters[n] = code
                if rack_mask & bit:  # (``flags[n]`` is False but while a joker is placed there)
                    tile_value = values[code]
                    value = tile_value * lmi
                    main2 = main + value + board_sum
                    cross2 = cross + (xsum + value) * wmi if xsum >= 0 else cross
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
                            following = left_values - place[code]
                            go(
                                q,
                                child,
                                main2,
                                new_mult,
                                cross2,
                                n1,
                                joins,
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
                                joins,
                                rack_mask,
                                jokers_left - 1,
                                left_values,
                                fits2,
                            )
                    flags[n] = False

        playable = every if all_jokers else rack_mask  # the letters a tile of the rack may be

        beginnings = self.beginnings
        starts = StartCheck(table, depth, counts, every)

        def run(task_line: Line, first: int, end: int) -> None:
            nonlocal line, fixed, fixed_value, cross_mask, cross_sum, lm, wm, hook, vertical
            nonlocal ahead, endmask, must_reach, must_letters, filled
            if task_line is not line:
                line = task_line
                fixed, fixed_value, cross_mask, cross_sum, lm, wm, hook = _arrays(line)
                vertical = not line.horizontal
                starts.use(line)
                kept = arrays.get(id(line))
                if kept is None:
                    kept = arrays[id(line)] = (
                        [(0, 0, 0, 0, 1, 0, 0, 0, 0)] * (SIZE + 2),
                        [0] * (SIZE + 2),
                        [0] * (SIZE + 2),
                        [0] * (SIZE + 2),
                        [-1, -1, SIZE],
                    )
                ahead, endmask, must_reach, must_letters, filled = kept
            state[0] = first
            state[1] = end
            # the first square from which a word reaches the board
            reach = first
            while reach <= end and fixed[reach] < 0 and not hook[reach]:
                reach += 1
            distance = reach - first
            if 0 < distance <= LOOKAHEAD and reach <= end:
                # the word begins with tiles alone: they must bring a letter allowed there to the square reached
                # (without a joker: some beginning of the rack's tiles does), and go on through the board letters
                # from there
                code = fixed[reach]
                if racked and not reaches[search.root << shift | first_state] >> (distance * width) & (
                    1 << code if code >= 0 else cross_mask[reach] & playable
                ):
                    return
                if code >= 0:
                    lengths = starts.lengths_after(reach, end)
                    if racked:
                        if not starts.alive(reach, lengths, beginnings[distance]):
                            return
                    elif not starts.witness(search.root, distance, rack_mask, all_jokers, reach, lengths):
                        return
            # the arrays below hold for a stretch's end and first square reaching the board, from the first
            # square they were filled from: a task of this line with the same end and reach, starting there or
            # later, finds them filled
            if end != filled[0] or reach != filled[1] or first < filled[2]:
                filled[0] = end
                filled[1] = reach
                filled[2] = first
                # what the squares from each empty position to the end may still add, at best (the walk reads
                # these arrays at empty squares only)
                mult = 1
                fixed_sum = 0
                tiles = triple = premium = 0  # premium: on a double or triple letter square
                cross_const = crossed = cross3 = cross23 = 0  # cross23: of weight 2 or 3
                ends = 0
                nearest = SIZE + 1  # nearest square at or after pos holding a letter or a hook
                next_empty = True  # whether the square after pos is empty (the one after the end is)
                for pos in range(end, first - 1, -1):
                    if next_empty and pos >= reach:
                        ends |= 1 << pos
                    if fixed[pos] >= 0:
                        nearest = pos
                        fixed_sum += fixed_value[pos]
                        next_empty = False
                        continue
                    next_empty = True
                    lengths = (ends << 1) >> pos  # bit d: a word may end d - 1 squares after pos
                    if hook[pos]:
                        nearest = pos
                        must_reach[pos] = 0
                    else:
                        distance = nearest - pos
                        if distance <= LOOKAHEAD and nearest <= end and not lengths & ((2 << distance) - 2):
                            must_reach[pos] = distance
                            code = fixed[nearest]
                            must_letters[pos] = 1 << code if code >= 0 else cross_mask[nearest] & playable
                        else:
                            must_reach[pos] = 0
                    tiles += 1
                    lmi = lm[pos]
                    wmi = wm[pos]
                    if lmi > 1:
                        premium += 1
                        if lmi == 3:
                            triple += 1
                    mult *= wmi
                    xsum = cross_sum[pos]
                    if xsum >= 0:
                        cross_const += xsum * wmi
                        crossed += 1
                        weight = lmi * wmi
                        if weight > 1:
                            cross23 += 1
                            if weight == 3:
                                cross3 += 1
                    ahead[pos] = (fixed_sum, tiles, triple, premium, mult, cross_const, crossed, cross3, cross23)
                    endmask[pos] = lengths
                # an empty square holds at most the rack: past the last one the stretch reaches, no word goes on
                endmask[end + 1] = 0
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
            fits = table_[node] & cross_mask[pos] & playable
            ahead_by = must_reach[pos]
            if ahead_by and not depth[ahead_by][node] & must_letters[pos]:  # (checked above for tiles alone)
                return
            if fits:
                go(pos, node, main, 1, 0, 0, pos > first, rack_mask, all_jokers, first_state, fits)

        return run
