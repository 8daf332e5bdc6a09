"""The plays of every rack tile (bingos) for the move generator's search (``core.movegen_search``): read from
the anagram map (``core.lexicon``), each way of placing the jokers scored.

A map that holds each key's words gives them at once below the key's node; a map of keys alone (the largest
lists) says which keys hold the rack and a stretch's board letters, and so what the jokers may stand for,
and the words are spelt along the word graph with exactly those tiles, pruned by the squares ahead.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import TYPE_CHECKING

from .board import SIZE
from .lexicon import anagram_keys
from .lexicon_layout import LOOKAHEAD, Table

if TYPE_CHECKING:
    from .movegen_board import Line, Rack
    from .movegen_plays import Found


class Bingos:
    """The bingo part of ``core.movegen_search.Search`` (which sets every attribute named here)."""

    table: Table
    root: int
    anagram_table: Table
    anagram_root: int
    anagram_words: bool
    lookahead: tuple[Table, ...]
    letters: int
    tiles: int
    values: list[int]
    rack: Rack
    bingo: int
    threshold: int
    probing: bool
    stop_after: int
    seen: int
    _key_nodes: dict[str, list[int]]
    _keys: dict[str, tuple[int, list[int]] | None]

    def see(self, found: Found) -> None:
        raise NotImplementedError

    def tie_prunable(self, jokers_at_least: int) -> bool:
        raise NotImplementedError

    def _joker_letters(self, board_letters: str) -> tuple[int, list[int]] | None:
        """What the jokers may stand for in a play of every rack tile with these board letters, from the anagram
        map's keys made of them: the letters the first joker may be, and by that letter those the second may
        be; None when no key holds them (no such play)."""
        cache_key = "".join(sorted(board_letters))
        if cache_key in self._keys:
            return self._keys[cache_key]
        rack = self.rack
        codes = sorted([c for c, n in enumerate(rack.counts) for _ in range(n)] + [ord(c) - 65 for c in cache_key])
        found = anagram_keys(self.anagram_table, self.anagram_root, codes, rack.jokers, False, letters=self.letters)
        keys = [key for _, key in found]
        result: tuple[int, list[int]] | None = None
        if keys:
            first = 0
            second = [0] * self.tiles
            base = [0] * self.tiles
            for code in codes:
                base[code] += 1
            for key in keys:
                extra = list(base)
                free: list[int] = []
                for code in key:
                    if extra[code]:
                        extra[code] -= 1
                    else:
                        free.append(code)
                for index, code in enumerate(free):
                    first |= 1 << code
                    for other in free[:index] + free[index + 1 :]:
                        second[code] |= 1 << other
            result = (first, second)
        self._keys[cache_key] = result
        return result

    def _bingos(self, key: tuple[int, int, int], line: Line, first: int, end: int, board_letters: str) -> None:
        """The plays of every rack tile from the square ``first`` (the task's fixed-order ``key``) to ``end``,
        read from the anagram map."""
        if not self.anagram_words:
            self._bingos_spelt(key, line, first, end, board_letters)
            return
        table = self.anagram_table
        fixed, cross_mask = line.fixed, line.cross_mask
        length = end - first + 1
        word = [0] * length
        words: list[list[int]] = []

        def spell(node: int, pos: int) -> None:
            # the words below an anagram key, letter by letter, that fit the squares
            if pos > end:
                words.append(list(word))  # the lengths checked on the way: a word ends here
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
        key_nodes = self._key_nodes.get(cache_key)
        if key_nodes is None:
            codes = sorted(
                [c for c, n in enumerate(self.rack.counts) for _ in range(n)] + [ord(char) - 65 for char in cache_key]
            )
            found = anagram_keys(table, self.anagram_root, codes, self.rack.jokers, True, letters=self.letters)
            key_nodes = self._key_nodes[cache_key] = [node for node, _ in found]
        for key_node in key_nodes:
            spell(key_node, first)
        empties = [p for p in range(first, end + 1) if fixed[p] < 0]
        for letters in words:
            self._bingo_plays(key, line, first, end, empties, letters)

    def _bingos_spelt(self, key: tuple[int, int, int], line: Line, first: int, end: int, board_letters: str) -> None:
        """``_bingos`` from an anagram map of keys alone: where it holds a key made of the rack and the stretch's
        board letters, the words of exactly those tiles spelt along the word graph where they fit the squares,
        a joker only for a letter the keys give it."""
        table = self.table
        fixed, cross_mask = line.fixed, line.cross_mask
        length = end - first + 1
        root = self.root
        jokers_as = self._joker_letters(board_letters)
        if jokers_as is None or not table[root + 1] >> length & 1:
            return
        first_joker, second_joker = jokers_as
        counts = list(self.rack.counts)  # the real tiles still to place (the squares hold each board letter)
        word = [0] * length
        words: list[list[int]] = []

        def spell(node: int, pos: int, have: int, jokers: int, placed: int) -> None:
            # the words of exactly the stretch's tiles, letter by letter, that fit the squares; ``have``: the
            # letters of the real tiles still to place, ``jokers``: those the next joker may stand for,
            # ``placed``: the jokers placed so far
            if pos > end:
                words.append(list(word))
                return
            head = table[node]
            rest = end - pos
            code = fixed[pos]
            if code >= 0:  # a board letter
                bit = 1 << code
                if head & bit:
                    child = table[node + 2 + (head & (bit - 1)).bit_count()]
                    if table[child + 1] >> rest & 1:
                        word[pos - first] = code
                        spell(child, pos + 1, have, jokers, placed)
                return
            allowed = head & cross_mask[pos] & (have | jokers)
            while allowed:
                bit = allowed & -allowed
                allowed ^= bit
                child = table[node + 2 + (head & (bit - 1)).bit_count()]
                if table[child + 1] >> rest & 1:
                    code = bit.bit_length() - 1
                    word[pos - first] = code
                    # the squares ahead: some word from the child has a letter each of them may take
                    for depth, letters in checks[pos + 1]:
                        if not lookahead[depth][child] & letters:
                            break
                    else:
                        if have & bit:  # a real tile first; a joker only for a letter the rack lacks
                            number = counts[code]
                            after = have if number > 1 else have ^ bit
                            if after and rest <= reach:  # every tile left must be among the letters ahead
                                ahead = table[child]
                                for d in range(rest - 1):
                                    ahead |= lookahead[d][child]
                                if after & ~ahead:
                                    continue
                            counts[code] = number - 1
                            spell(child, pos + 1, after, jokers, placed)
                            counts[code] = number
                        elif jokers & bit:
                            if have and rest <= reach:  # every real tile left must be among the letters ahead
                                ahead = table[child]
                                for d in range(rest - 1):
                                    ahead |= lookahead[d][child]
                                if have & ~ahead:
                                    continue
                            following = second_joker[code] if placed + 1 < all_jokers else 0
                            spell(child, pos + 1, have, following, placed + 1)

        all_jokers = self.rack.jokers
        lookahead = self.lookahead
        reach = len(lookahead) + 1  # the letters ahead of a node are known up to this many
        have = 0
        for index, number in enumerate(counts):
            if number:
                have |= 1 << index
        # per square, the letters it may take at most, and per square the checks of the squares after it
        # (lookahead depth, letters) that the lookahead arrays reach
        may = [0] * (SIZE + 2)
        for pos in range(first, end + 1):
            code = fixed[pos]
            may[pos] = 1 << code if code >= 0 else cross_mask[pos] & (have | first_joker)
        checks: list[list[tuple[int, int]]] = [[] for _ in range(SIZE + 2)]
        for pos in range(first + 1, end + 1):
            checks[pos] = [(d - 1, may[pos + d]) for d in range(1, min(end - pos, LOOKAHEAD) + 1)]
        spell(root, first, have, first_joker if all_jokers else 0, 0)
        empties = [p for p in range(first, end + 1) if fixed[p] < 0]
        for letters in words:
            self._bingo_plays(key, line, first, end, empties, letters)

    def _bingo_plays(
        self, key: tuple[int, int, int], line: Line, first: int, end: int, empties: list[int], word: list[int]
    ) -> None:
        """Every way of putting the jokers in a bingo word, scored and offered."""
        # A joker on a square loses that square's letter value times the word's
        # multiplier (plus the cross-word's), so each placement of the jokers scores the
        # all-real score minus its squares' losses.
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
            self.see((score, len(jokers), key, line, first, end + 1, tuple(empties), placed, flags))
