"""The search's view of the rack (``core.movegen_search``): the letters a word read with tiles alone may have
further on, against a brute force over the word list."""

from __future__ import annotations

from itertools import permutations

from hypothesis import HealthCheck, given, settings

from core.edition import FRENCH
from core.lexicon import Lexicon
from core.movegen_board import parse_rack
from core.movegen_search import Search
from tests.core.test_movegen_first import dense_lists

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _followers(lexicon: Lexicon, prefix: str, rest: str, distance: int) -> set[str]:
    """The letters that follow ``prefix`` then ``distance`` tiles of ``rest`` in some word of the list."""
    found: set[str] = set()
    for middle in set(permutations(rest, distance)):
        read = prefix + "".join(middle)
        found.update(letter for letter in LETTERS if lexicon.has_prefix(read + letter))
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=dense_lists())
def test_reaches_are_the_letters_after_each_number_of_tiles(case: tuple[list[str], str]) -> None:
    """For every word beginning spelt with tiles of the rack, and every number of the tiles left read after it:
    the letters that may come next, as the search prunes a walk that must reach a board letter by them."""
    words, rack = case
    lexicon = Lexicon.from_words(words)
    search = Search(lexicon, FRENCH, parse_rack(rack, FRENCH), 1, split_bingos=False)
    reaches = search.reaches()
    width = search.tiles
    beginnings = 0  # word beginnings of at least one tile checked
    for length in range(len(rack) + 1):
        for spelt in set(permutations(rack, length)):
            prefix = "".join(spelt)
            node = lexicon.walk(prefix)
            if node is None:
                continue
            beginnings += length > 0
            rest = list(rack)
            for letter in prefix:
                rest.remove(letter)
            state = search.first_state - sum(search.place[ord(letter) - 65] for letter in prefix)
            packed = reaches[node << search.state_bits | state]
            for distance in range(len(rest) + 1):
                letters = packed >> (distance * width) & ((1 << width) - 1)
                got = {chr(65 + code) for code in range(width) if letters >> code & 1}
                assert got == _followers(lexicon, prefix, "".join(rest), distance), (prefix, distance)
    assert beginnings  # the list has words of the rack's tiles: their beginnings were checked
