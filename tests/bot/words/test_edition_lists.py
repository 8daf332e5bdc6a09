"""The bundled lists of the other editions: recorded as built, spelled in their edition's tiles, licensed.

The lists themselves are large (up to a million words); the checks that read every word stay
cheap (characters, order, counts, hashes), the ones that read words as tiles take a sample
and a few words chosen for their tiles.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tomllib
from fnmatch import fnmatch
from functools import cache

import pytest

from core.edition import edition_by_code
from core.lexicon import Lexicon
from lexicons import hunspell_lists
from lexicons.hunspell_lists import LISTS, list_by_code, spelled
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
LEXICONS = ROOT / "lexicons"
REFERENCE = ROOT / "tests" / "data" / "reference"
CODES = [entry.code for entry in LISTS]


@cache
def sources() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads((LEXICONS / "SOURCES.json").read_text(encoding="utf-8"))
    return data


@cache
def raw(code: str) -> bytes:
    return gzip.decompress((LEXICONS / f"{code}.txt.gz").read_bytes())


@cache
def words(code: str) -> tuple[str, ...]:
    return tuple(raw(code).decode("utf-8").split("\n")[:-1])


def test_every_list_names_a_shipped_edition() -> None:
    assert CODES == ["ca", "es", "ro", "it", "de", "pl"]
    for code in CODES:
        edition_by_code(code)


@pytest.mark.parametrize("code", CODES)
def test_recorded_as_built(code: str) -> None:
    record = sources()[code]
    entry = list_by_code(code)
    assert record["file"] == f"{code}.txt.gz"
    assert record["edition"] == code
    assert record["license"] == entry.license
    assert record["sha256_uncompressed"] == hashlib.sha256(raw(code)).hexdigest()
    assert record["words"] == len(words(code))
    source = record["source"]
    assert isinstance(source, dict)
    assert source["package"] == entry.package
    assert source["version"] == entry.version
    assert source["archive_sha256"] == entry.deb_sha256
    assert source["files"] == {entry.aff_path: entry.aff_sha256, entry.dic_path: entry.dic_sha256}


@pytest.mark.parametrize("code", CODES)
def test_one_word_a_line_sorted_in_the_edition_characters(code: str) -> None:
    listed = words(code)
    assert all(map(str.__lt__, listed, listed[1:]))  # sorted, each word once (2.9 million for Polish)
    alphabet = edition_by_code(code).alphabet
    allowed = set("".join(alphabet.labels))
    assert set(raw(code).decode("utf-8")) - {"\n"} <= allowed
    assert all(len(w) >= 2 for w in listed)


@pytest.mark.parametrize("code", CODES)
def test_a_sample_reads_back_as_2_to_15_tiles(code: str) -> None:
    edition = edition_by_code(code)
    sample = words(code)[::997]
    assert len(sample) > 100
    for word in sample:
        tiles = edition.tiles(word)
        assert 2 <= len(tiles) <= 15, word
        assert all(t in edition.alphabet for t in tiles), (word, [t for t in tiles if t not in edition.alphabet])
        assert edition.spell(tiles) == word
    vowels = hunspell_lists.edition_vowels(code)
    assert not [w for w in sample if hunspell_lists.is_vowelless(edition.alphabet, vowels, w)]


# words each list must hold, typed as a player would type them; and words it must not hold
HELD = {
    "ca": (["col·legi", "quatre", "plaça", "any", "lluna", "nyap", "paella"], ["kiwi", "whisky"]),
    "es": (["chorro", "año", "llama", "perro", "canción", "queso"], ["kilo", "whisky", "ADSL"]),
    "ro": (["țară", "școală", "masă", "frumos"], ["kilogram", "whisky"]),
    "it": (["città", "mangiare", "perché", "amanti", "facevi", "amavi"], ["jazz", "kiwi", "assassinartele"]),
    "de": (["Straße", "Größe", "Haus", "Häuser", "schön", "hm", "st", "qi"], ["Xylophonieren"]),
    "pl": (
        ["żółw", "źródło", "gęślą", "chrząszcz", "jaźń", "zażółć", "nieżółty", "koń", "ŹDŹBŁO"],
        ["quiz", "wolkswagen", "xero", "Krakowa", "PKP"],
    ),
}


@pytest.mark.parametrize("code", CODES)
def test_words_held_and_not(code: str) -> None:
    edition = edition_by_code(code)
    listed = set(words(code))
    held, absent = HELD[code]
    for word in held:
        assert edition.spell(edition.tiles(word)) in listed, word
    for word in absent:
        assert edition.spell(edition.tiles(word)) not in listed, word


def test_multi_letter_tiles_are_read_from_the_file() -> None:
    es, ca = edition_by_code("es"), edition_by_code("ca")
    chorro = next(w for w in words("es") if w == "CHORRO")
    assert [es.label(t) for t in es.tiles(chorro)] == ["CH", "O", "RR", "O"]
    assert all("Q" not in w.replace("QU", "") for w in words("ca")[::50])  # every Q of Catalan is the QU tile
    sample = [w for w in words("ca")[::20] if "L·L" in w][:50]
    assert sample
    assert all(any(ca.label(t) == "L·L" for t in ca.tiles(w)) for w in sample)


@pytest.mark.parametrize("code", ["es", "ca"])
def test_a_sample_compiles_over_the_edition_tiles(code: str) -> None:
    edition = edition_by_code(code)
    sample = [*words(code)[::211], *(w for w in words(code) if w in ("CHORRO", "COL·LEGI"))]
    lexicon = Lexicon.from_words(sample, name=code, alphabet=edition.alphabet)
    assert len(lexicon) == len(set(sample))
    assert ("CHORRO" if code == "es" else "COL·LEGI") in lexicon


def test_known_short_words_are_added() -> None:
    de = edition_by_code("de")
    known = hunspell_lists.read_reference((REFERENCE / "de_duden_2_known.txt").read_text(encoding="utf-8"))
    listed = set(words("de"))
    assert len(known) == 32
    assert known <= listed
    two = {w for w in listed if len(de.tiles(w)) == 2}
    assert known <= two
    record = sources()["de"]["short_words"]
    assert isinstance(record, dict)
    digest = hashlib.sha256((REFERENCE / "de_duden_2_known.txt").read_bytes()).hexdigest()
    assert record["references"] == {"de_duden_2_known.txt": digest}


@pytest.mark.parametrize("code", CODES)
def test_licence_files_and_package_data(code: str) -> None:
    text = (LEXICONS / f"{code}.LICENSE").read_text(encoding="utf-8")
    assert f"SPDX-License-Identifier: {list_by_code(code).license}\n" in text
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["lexicons"]
    assert any(fnmatch(f"{code}.txt.gz", p) for p in patterns)
    assert any(fnmatch(f"{code}.LICENSE", p) for p in patterns)
    licence = pyproject["project"]["license"]
    assert all(part in licence for part in list_by_code(code).license.split(" AND "))


# --- how a form becomes a word of the list -------------------------------------------------------


def test_spelled_folds_and_keeps_only_tiles() -> None:
    es, ca, ro, de = (edition_by_code(c).alphabet for c in ("es", "ca", "ro", "de"))
    assert spelled(es, "canción") == "CANCION"
    assert spelled(es, "año") == "AÑO"
    assert spelled(es, "kilo") is None
    assert spelled(es, "a") is None
    assert spelled(es, "sub-20") is None
    assert spelled(ca, "col·legi") == "COL·LEGI"
    assert spelled(ca, "qatarià") is None
    assert spelled(ro, "știință") == "STIINTA"
    assert spelled(de, "Fußball") == "FUSSBALL"
    assert spelled(es, "chorro" * 3) == "CHORRO" * 3  # 18 letters, 12 tiles (CH O RR O, thrice)
    assert spelled(es, "casa" * 4) is None  # 16 tiles


def test_italian_clitic_bound() -> None:
    import re

    dropped = re.compile(hunspell_lists.ITALIAN_CLITICS)
    for added in ("amoci", "imelo", "andogliela", "arlo", "atevi", "endosi"):
        assert dropped.search(added), added
    for added in ("vi", "anti", "evi", "avi", "sti", "ali", "ine", "o", "iamo", "ate"):
        assert not dropped.search(added), added


def test_entries_with_capitals_are_kept_only_as_german_nouns() -> None:
    aff = "SET UTF-8\n"
    dic = "4\nHaus\nABC\nmAh\nzu\n"
    german = hunspell_lists.build_words(list_by_code("de"), aff, dic, edition_by_code("de").alphabet)
    spanish = hunspell_lists.build_words(list_by_code("es"), aff, "2\nMadrid\ncasa\n", edition_by_code("es").alphabet)
    assert german == {"HAUS", "ZU"}
    assert spanish == {"CASA"}
