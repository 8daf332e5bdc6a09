"""The checks at a start whose word begins with tiles alone (``core.movegen_starts``), against a brute force over
the word list: a beginning of the rack's tiles (and jokers) that reaches the board letters ahead and may end or
go on after them."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.edition import FRENCH
from core.lexicon import Lexicon
from core.movegen_board import Line, parse_rack
from core.movegen_search import Search
from core.movegen_starts import StartCheck
from tests.core.test_movegen_first import dense_lists

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROW = 7


def _line(lexicon: Lexicon, target: int, run: str, beyond: str, cross: str) -> Line:
    """A row with the board letters ``run`` from target, then an empty square (whose cross-word allows the
    letters ``cross`` when given), then the board letters ``beyond`` after one more empty square."""
    line = Line(True, ROW, lexicon.letters)
    for offset, letter in enumerate(run):
        line.fixed[target + offset] = ord(letter) - 65
    after = target + len(run)
    if cross:
        line.cross_mask[after] = sum(1 << (ord(letter) - 65) for letter in set(cross))
    for offset, letter in enumerate(beyond):
        if after + 2 + offset < 15:
            line.fixed[after + 2 + offset] = ord(letter) - 65
    return line


def _lengths(line: Line, target: int, end: int) -> int:
    """Bit k: a word ending k squares after the empty square past the board letters from target ends on a
    square followed by an empty one, within the stretch."""
    q = target
    while line.fixed[q] >= 0:
        q += 1
    return sum(1 << k for k in range(1, 16) if q + k - 1 <= end and line.fixed[q + k] < 0)


def _brute_force(words: list[str], rack: str, jokers: int, tiles: int, run: str, lengths: int, allowed: int) -> bool:
    """Whether ``tiles`` letters, the rack's tiles first and ``jokers`` for the others, then ``run``, begin a word
    of the list, and that word may end there or go on: a word of the list goes on a number of letters in
    ``lengths`` and one goes on with a letter that a tile left may be and the square allows."""
    for letters in product(LETTERS, repeat=tiles):
        missing = Counter(letters) - Counter(rack)
        if sum(missing.values()) > jokers:
            continue
        read = "".join(letters) + run
        if not any(word.startswith(read) for word in words):
            continue
        if read in words:
            return True
        left = Counter(rack) - Counter(letters)
        free = LETTERS if jokers > sum(missing.values()) else "".join(left)
        goes_on = any(word.startswith(read) and lengths >> (len(word) - len(read)) & 1 for word in words)
        fits = any(
            allowed >> (ord(letter) - 65) & 1 and any(word.startswith(read + letter) for word in words)
            for letter in set(free)
        )
        if goes_on and fits:
            return True
    return False


@st.composite
def starts(draw: st.DrawFn) -> tuple[list[str], str, int, int, str, str, str]:
    """A dense list and its rack, jokers, a number of tiles before the board letters, the letters (drawn from
    the list's words, so that some beginnings reach them), a cross-check after them and letters further on."""
    words, rack = draw(dense_lists())
    rng = random.Random(draw(st.integers(0, 2**32)))
    jokers = draw(st.sampled_from([0, 0, 1, 2]))
    rack = rack[: 7 - jokers]  # a rack holds seven tiles
    tiles = draw(st.integers(1, 3))
    word = rng.choice([w for w in words if len(w) > tiles] or ["AA" * tiles])
    run = word[tiles : tiles + draw(st.integers(1, 2))] or "A"
    cross = "".join(rng.sample(LETTERS, draw(st.integers(0, 8))))
    beyond = rng.choice(["", "E", "ST"])
    return words, rack, jokers, tiles, run, cross, beyond


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=starts(), end_offset=st.integers(0, 6))
def test_a_start_is_kept_when_a_beginning_reaches_the_letters_and_goes_on(
    case: tuple[list[str], str, int, int, str, str, str], end_offset: int
) -> None:
    """``alive`` (the rack's beginnings, without a joker) and ``witness`` (a walk, with or without jokers) say what
    the brute force says; ``lengths_after`` is the lengths that end before an empty square within the stretch."""
    words, rack, jokers, tiles, run, cross, beyond = case
    lexicon = Lexicon.from_words(words)
    first = 2
    target = first + tiles
    line = _line(lexicon, target, run, beyond, cross)
    end = min(14, target + len(run) + end_offset)
    search = Search(lexicon, FRENCH, parse_rack(rack + "?" * jokers, FRENCH), 1, split_bingos=False)
    check = StartCheck(lexicon.table, [lexicon.table, *lexicon.lookahead], list(search.rack.counts), lexicon.letters)
    check.use(line)
    lengths = check.lengths_after(target, end)
    assert lengths == _lengths(line, target, end)
    allowed = line.cross_mask[target + len(run)]
    expected = _brute_force(words, rack, jokers, tiles, run, lengths, allowed)
    mask = search.rack_mask
    assert check.witness(lexicon.root, tiles, mask, jokers, target, lengths) == expected
    if not jokers:
        search.reaches()
        assert check.alive(target, lengths, search.beginnings[tiles]) == expected


def test_the_brute_force_finds_both_answers() -> None:
    """The brute force itself, on TA + RT: a word that ends there, one that goes on with a tile left, and none."""
    e = 1 << (ord("E") - 65)
    assert _brute_force(["TART", "RATE"], "TAR", 0, 2, "RT", 0, 0)  # TART ends after the board letters
    assert _brute_force(["TARTE", "RATE"], "TAE", 0, 2, "RT", 2, e)  # TARTE goes on with the E left
    assert not _brute_force(["TARTE", "RATE"], "TAR", 0, 2, "RT", 2, e)  # no E left
    assert _brute_force(["TARTE", "RATE"], "TAR", 1, 2, "RT", 2, e)  # a joker left is the E
    assert not _brute_force(["TARTE", "RATE"], "TAE", 0, 2, "RT", 2, 0)  # the square allows no E


def test_permutations_of_the_rack_spell_the_beginnings() -> None:
    """``alive`` reads the beginnings ``Search.reaches`` keeps by number of tiles: each a spelling of rack tiles."""
    words = ["RATE", "TARE", "TEAR", "ART", "RAT", "TAR", "EAT", "TEA"]
    lexicon = Lexicon.from_words(words)
    search = Search(lexicon, FRENCH, parse_rack("AERT", FRENCH), 1, split_bingos=False)
    search.reaches()
    for length in range(1, 5):
        spelt = {"".join(p) for p in permutations("AERT", length)}
        expected = {node for p in spelt if (node := lexicon.walk(p)) is not None}
        assert {node for node, _, _ in search.beginnings[length]} == expected
