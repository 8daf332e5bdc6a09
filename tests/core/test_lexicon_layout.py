"""Alphabets of 32 tiles and more: node tables of 32 or 64-bit words, their binary form, and what reads them.

An alphabet of up to 32 tiles keeps 32-bit words (French, English, Polish and the other shipped editions:
a head holds only letter bits, the final flag is in the lengths word); from 33 tiles the table and
lookahead arrays are 64-bit words, flagged in the binary form, up to 63 tiles. Each case compiles random words that use
the alphabet's first and last codes and holds every answer to a plain set's.
"""

from __future__ import annotations

import random
import struct
import zlib
from itertools import combinations

import pytest

from core.alphabet import MAX_TILES, Alphabet
from core.board import Board
from core.edition import edition_by_code
from core.errors_lexicon import CorruptLexiconError
from core.lexicon import Lexicon
from core.lexicon_format import FORMAT_VERSION, WIDE_WORDS
from core.lexicon_layout import typecode
from core.movegen import find_top

# uppercase one-character labels beyond A-Z: À, Á ... Ā, Ă, Ą, Ć ... (each its own lowercase pair)
_EXTRA = [c for c in map(chr, range(0xC0, 0x17F)) if c.isupper() and len(c.lower()) == 1 and c.lower().upper() == c]
_HEADER = struct.Struct("<8sHHIIIIIII")


def labels(tiles: int) -> tuple[str, ...]:
    return (tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + tuple(_EXTRA))[:tiles]


def random_words(alphabet: Alphabet, count: int, seed: int) -> set[str]:
    """Words of 2 to 8 tiles, with the alphabet's first and last tiles among them."""
    rng = random.Random(seed)
    symbols = alphabet.symbols
    first, last = symbols[0], symbols[-1]
    words = {first + last, last + first, last * 3, first + last + first + last}
    while len(words) < count:
        words.add("".join(rng.choice(symbols) for _ in range(rng.randint(2, 8))))
    return words


def reheadered(data: bytes, *, version: int | None = None, flags: int | None = None) -> bytes:
    """The binary form with another version or flags in its header, its checksum made right again."""
    fields = list(_HEADER.unpack_from(data))
    if version is not None:
        fields[1] = version
    if flags is not None:
        fields[2] = flags
    header = _HEADER.pack(*fields)
    body = data[_HEADER.size + 4 :]
    return header + struct.pack("<I", zlib.crc32(body, zlib.crc32(header))) + body


# tiles in the alphabet: the arrays' typecode and bytes a word (core.lexicon_layout)
WIDTHS = [(1, "I", 4), (26, "I", 4), (31, "I", 4), (32, "I", 4), (33, "Q", 8), (40, "Q", 8), (MAX_TILES, "Q", 8)]


@pytest.mark.parametrize(("tiles", "code", "size"), WIDTHS)
def test_the_word_width_follows_the_alphabet_size(tiles: int, code: str, size: int) -> None:
    alphabet = Alphabet(labels(tiles))
    assert typecode(len(alphabet)) == code
    word = alphabet.symbols[-1] * 2
    lexicon = Lexicon.from_words([word], alphabet=alphabet)
    assert lexicon.letters == (1 << tiles) - 1
    for part in (lexicon.table, *lexicon.lookahead):
        assert memoryview(part).format == code
        assert memoryview(part).itemsize == size
    assert word in lexicon
    assert len(lexicon) == 1


@pytest.mark.parametrize("tiles", [0, MAX_TILES + 1, 80])
def test_an_alphabet_holds_1_to_63_tiles(tiles: int) -> None:
    with pytest.raises(ValueError, match=f"not {tiles}"):
        Alphabet(tuple(f"A{i}" for i in range(tiles)))


@pytest.mark.parametrize(("tiles", "seed"), [(26, 1), (31, 2), (32, 3), (40, 4), (MAX_TILES, 5)])
def test_a_list_answers_as_a_set_at_every_width(tiles: int, seed: int) -> None:
    alphabet = Alphabet(labels(tiles))
    words = random_words(alphabet, 400, seed)
    lexicon = Lexicon.from_words(words, alphabet=alphabet)
    assert sorted(lexicon.words()) == sorted(words, key=lambda w: [alphabet.code(s) for s in w])
    rng = random.Random(seed)
    probes = ["".join(rng.choice(alphabet.symbols) for _ in range(rng.randint(2, 4))) for _ in range(300)]
    for probe in [*list(words)[:100], *probes]:
        assert (probe in lexicon) == (probe in words), probe
        assert lexicon.has_prefix(probe) == any(w.startswith(probe) for w in words), probe
    last = alphabet.symbols[-1]
    for before, after in [("", last), (last, ""), (alphabet.symbols[0], last + alphabet.symbols[0])]:
        expected = sum(1 << code for code, s in enumerate(alphabet.symbols) if before + s + after in words)
        assert lexicon.cross_mask(before, after) == expected
    for word in list(words)[:40]:
        letters = "".join(sorted(word))
        assert sorted(lexicon.anagrams(letters)) == sorted(w for w in words if sorted(w) == sorted(word))
        for dropped in {word[:i] + word[i + 1 :] for i in range(len(word))}:
            with_one = {w for w in words if len(w) == len(word) and _holds(w, dropped)}
            assert set(lexicon.anagrams(dropped, 1)) == with_one
            assert lexicon.has_anagram(dropped, 1) == bool(with_one)


def _holds(word: str, letters: str) -> bool:
    rest = list(word)
    for letter in letters:
        if letter not in rest:
            return False
        rest.remove(letter)
    return True


@pytest.mark.parametrize("tiles", [31, 32, 33, 40, MAX_TILES])
@pytest.mark.parametrize("copy", [True, False])
def test_the_binary_form_round_trips_at_every_width(tiles: int, copy: bool) -> None:
    alphabet = Alphabet(labels(tiles))
    words = random_words(alphabet, 300, tiles)
    lexicon = Lexicon.from_words(words, name="wide", alphabet=alphabet)
    data = lexicon.to_bytes()
    version, flags = _HEADER.unpack_from(data)[1:3]
    assert version == FORMAT_VERSION == 7
    assert flags == (WIDE_WORDS if tiles > 32 else 0)
    loaded = Lexicon.from_bytes(data, copy=copy)
    loaded.verify()
    assert loaded.alphabet == alphabet
    assert loaded.name == "wide"
    assert list(loaded.words()) == list(lexicon.words())
    assert len(loaded) == len(words)
    assert loaded.to_bytes() == data
    last = alphabet.symbols[-1]
    patched = loaded.patched([last * 5], [last * 3])
    assert last * 5 in patched
    assert last * 3 not in patched
    assert len(patched) == len(words)
    assert memoryview(patched.table).format == typecode(tiles)


@pytest.mark.parametrize("version", [5, 6])
def test_lists_of_the_versions_before_7_are_compiled_again(version: int) -> None:
    """Versions 5 and 6 held the final flag in the head and each word in the anagram map: refused (a cache
    of them is compiled again, ``bot.words.loader``), never read with the wrong layout."""
    lexicon = Lexicon.from_words(["CHAT", "CHIEN", "ZYTHUM"])
    with pytest.raises(CorruptLexiconError, match=f"format version {version}"):
        Lexicon.from_bytes(reheadered(lexicon.to_bytes(), version=version))


@pytest.mark.parametrize(
    ("tiles", "version", "flags", "reason"),
    [
        # read with the other width, the arrays do not fill the file
        (40, 7, 0, "bytes where the header announces"),  # the flag cleared
        (26, 7, WIDE_WORDS, "bytes where the header announces"),  # the flag set on a narrow list
        (32, 7, WIDE_WORDS, "bytes where the header announces"),  # 32 tiles fit 32-bit words
        (26, 7, 2, "unknown flags"),
        (26, 6, 0, "format version 6"),
        (26, 8, 0, "format version 8"),
        (40, 4, WIDE_WORDS, "format version 4"),
    ],
)
def test_a_header_that_disagrees_with_its_words_is_refused(tiles: int, version: int, flags: int, reason: str) -> None:
    alphabet = Alphabet(labels(tiles))
    data = Lexicon.from_words(random_words(alphabet, 50, 9), alphabet=alphabet).to_bytes()
    with pytest.raises(CorruptLexiconError, match=reason):
        Lexicon.from_bytes(reheadered(data, version=version, flags=flags))


def test_a_width_that_disagrees_with_the_alphabet_is_refused() -> None:
    """A well-sized file whose words are 32-bit while its alphabet has 33 tiles (the flag and the alphabet
    disagree): refused, never read with heads that cannot hold every letter."""
    narrow = Alphabet(labels(31))
    data = Lexicon.from_words(random_words(narrow, 50, 9), alphabet=narrow).to_bytes()
    fields = _HEADER.unpack_from(data)
    alphabet_len = fields[-1]
    wider = b'{"labels": [' + ", ".join(f'"{label}"' for label in labels(33)).encode() + b'], "fold": {}}'
    header = _HEADER.pack(*fields[:-1], len(wider))
    body = data[_HEADER.size + 4 : len(data) - alphabet_len] + wider
    forged = header + struct.pack("<I", zlib.crc32(body, zlib.crc32(header))) + body
    with pytest.raises(CorruptLexiconError, match="32-bit words for an alphabet of 33 tiles"):
        Lexicon.from_bytes(forged)


def test_the_move_generator_plays_the_last_polish_tiles() -> None:
    """Ź, Ż (codes 30 and 31) and Ń are bits of the rack's and squares' masks like any other tile."""
    polish = edition_by_code("pl")
    assert len(polish.alphabet) == 32
    assert polish.alphabet.code("Ż") == 31
    words = ["ŻAŁOŚĆ", "ŹDŹBŁO", "DŹWIG", "ŻOŁD", "DOŁEK", "KOŃ", "ŻÓŁW", "BAŁ", "ŁZA"]
    lexicon = Lexicon.from_words(words, alphabet=polish.alphabet)
    top = find_top(Board(), "ŹDŹBŁOW", lexicon, polish, 5, first_move_horizontal_only=True)
    assert top.plays
    assert {p.placement.main_word.text for p in top.plays} == {"ŹDŹBŁO"}
    best = top.plays[0]
    # 9 + 2 + 9 + 3 + 3 + 1 = 27 doubled on the centre, one of its tiles on a double letter
    assert best.score.total in {(27 + polish.values[c.letter]) * 2 for c in best.placement.new_tiles}
    assert best.score.total == (27 + 9) * 2  # the best doubles a Ź
    with_joker = find_top(Board(), "ŻÓŁ?", lexicon, polish, 5, first_move_horizontal_only=True)
    assert [p.placement.main_word.text.upper() for p in with_joker.plays[:1]] == ["ŻÓŁW"]
    # the last four tiles' bits are told apart by a cross-check
    last = polish.alphabet.symbols[-4:]
    assert last == "YZŹŻ"
    pairs = Lexicon.from_words([a + b for a, b in combinations(last, 2)], alphabet=polish.alphabet)
    assert pairs.cross_mask("Y", "") == sum(1 << polish.alphabet.code(s) for s in "ZŹŻ")
    assert pairs.cross_mask("", "Ż") == sum(1 << polish.alphabet.code(s) for s in "YZŹ")
