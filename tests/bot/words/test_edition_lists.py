"""The bundled lists of the other editions: recorded as built, spelled in their edition's tiles, licensed.

The lists themselves are large (up to a million words); the checks that read every word stay
cheap (characters, order, counts, hashes), the ones that read words as tiles take a sample
and a few words chosen for their tiles.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
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
    rules = record.get("rules", {})
    assert isinstance(rules, dict)
    if entry.dropped_two or entry.added:
        assert rules["two_letter_words"] == {"dropped": sorted(entry.dropped_two), "added": list(entry.added)}
    assert ("compounds" in rules) == (code == "de")
    assert ("proper_nouns" in rules) == (code == "de")
    assert ("first_names" in rules) == (code == "de")
    evidence = {} if entry.names_evidence is None else {"proper_nouns": entry.names_evidence.record()}
    if entry.first_names_evidence is not None:
        evidence["first_names"] = entry.first_names_evidence.record()
    assert record.get("evidence") == (evidence or None)
    assert ("enclitics" in rules) == (code == "es")


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
    "es": (
        ["chorro", "año", "llama", "perro", "canción", "queso", "alma", "hola", "vela", "tela", "vale", "solo"]
        + ["menos", "caos", "creados", "cantar", "cantando", "tétanos", "durante"],
        ["kilo", "whisky", "ADSL"]
        # attached pronouns (issue 42): affix flags and the dictionary's bare entries alike
        + ["dame", "dímelo", "cantarlo", "sabiéndola", "ponérselas", "hablarse", "dile", "hazlo", "cántalo"]
        + ["decídmelo", "vámonos", "amadlo"],
    ),
    "ro": (["țară", "școală", "masă", "frumos"], ["kilogram", "whisky"]),
    "it": (["città", "mangiare", "perché", "amanti", "facevi", "amavi"], ["jazz", "kiwi", "assassinartele"]),
    "de": (
        ["Straße", "Größe", "Haus", "Häuser", "schön", "hm", "st", "qi"]
        # issue 42: NEEDAFFIX stems and compounds hunspell accepts
        + "Typ Tatsache Tatsachen Bahnhof Flugzeug Flugzeuge Werkzeug Mitarbeiter Mitglieder Freizeit".split()
        + "Überschuss Überfall Übernahme Unternehmer Hubschrauber Staubsauger Meisterschaft Meisterschaften".split()
        # common nouns spelled as a place (Polen, Bayern: plurals of Pole, Bayer), inhabitants of a dropped place
        + "Müller Deutsch Deutsche Essen Halle Kiel Harz Polen Bayern Pfalz Pfalzen Schonung Londoner".split()
        # common nouns spelled as a first name: Ding's senses (quay, heathen, seriousness, the month, a unit), a
        # plural flag (Marken, Rosen), or by hand (Otto, Henry, Benjamin); first names that are feminine forms
        # of a word (Adriane, Ding's garment; George, a Georgian)
        + "Kai Mark Marken Rose Rosen Ernst Heide Otto frank August Silvester Pascal Wolf Teddy Iris Flora".split()
        + "Henry Benjamin Adriane George Albino Nikolaus Oscar".split(),
        # compound first parts with their linking -s, homograph inflections, abbreviations
        ["Xylophonieren", "Produktions", "Landschafts", "Meisterschaftes", "Lkw", "Kfz", "Abarbeitungs"]
        # proper nouns: the places and persons the Ding dictionary lists only as names (issue 42)
        + "Berlin Berlins Hamburg Deutschland Deutschlands Europa Rhein Paris München Wien Donau Afrika London".split()
        # first names nam_dict gives as used in Germany, Austria or Switzerland (issue 42), with their forms,
        # and those hunspell would take back as compound first parts (Jack of Jacken/hij, Adams of Adams/hij)
        + "Joachim Joachims Jürgen Klaus Hans Max Paul Grete Peter Peterchen Sabine Christian Christiane".split()
        + "Jack Adam Adams Augustin".split(),
    ),
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


# --- two-letter words ----------------------------------------------------------------------------

# The abbreviations, symbols and letter stretches each list drops as two-letter words (issue 42; the rules of
# every federation refuse abbreviations: FISE "siglas y abreviaturas", FISF "sigles et abréviations"...).
DROPPED_TWO = {
    "ca": "AG AV EC EP IB UC UP",
    "es": "AP AV ED EF EJ ET IB OB OC OP QU RA IS",
    "ro": "II IV IX",
    "it": "AB ES ET OC OP UP",
    "de": "AD CO DE EO",
    "pl": "AA EE II OO UU YD YH",
}

# The two-letter words of the Spanish list. The FISE's list has 87 (Horacio Moavro, president of the
# Asociación Argentina de Scrabble, to EFE, September 2013: "hay que saber las 87 palabras de dos letras",
# naming OX and ZA); no copy of it was found (tests/data/reference/PROVENANCE.md), so this is the bundled
# list's own table, 85 words: the dictionary's two-letter words without its abbreviations, with ÑU, OX, OJ.
SPANISH_TWO = set(
    "AD AH AJ AL AR AS AX AY BE BU CA CE CHA CHE CHO CU DA DE DI DO EA EH EL EN ES EX FA FE FO FU GE HA HE ID IN "
    "IR JA JE JI JO JU LA LE LLE LO ME MI MU NE NI NO OH OI OJ OS OX PE PI PU RE RO SE SI SO SU TA TE TI TO TU UF "
    "UH UN UY VA VE VI XI YA YE YO ZA ÑA ÑO ÑU".split()
)


def two_tile_words(code: str) -> set[str]:
    edition = edition_by_code(code)
    return {w for w in words(code) if len(w) <= 6 and len(edition.tiles(w)) == 2}


@pytest.mark.parametrize("code", CODES)
def test_abbreviations_are_not_two_letter_words(code: str) -> None:
    dropped = set(DROPPED_TWO[code].split())
    assert dropped == list_by_code(code).dropped_two
    assert not dropped & two_tile_words(code)


def test_spanish_two_letter_words() -> None:
    two = two_tile_words("es")
    assert two == SPANISH_TWO
    assert {"ÑU", "OX", "OJ", "ZA"} <= two
    assert len(two) == 85  # the FISE's list: 87


def test_polish_two_letter_words_count() -> None:
    assert len(two_tile_words("pl")) == 167 - 7


# --- Spanish: attached pronouns --------------------------------------------------------------------------

ES_AFF = """SET UTF-8
SFX R Y 3
SFX R r mos [aei]r
SFX R r ba ar
SFX R 0 se [aeií]r
SFX À Y 2
SFX À 0 la r
SFX À 0 lo r
SFX N Y 2
SFX N a illa a
SFX N o illo o
SFX T Y 1
SFX T r ble ar
"""


def test_spanish_enclitic_flags_and_rules() -> None:
    from lexicons import hunspell

    aff = hunspell.parse_aff(ES_AFF)
    # À only attaches pronouns; N (-illa, -illo) and T (-ble) end like one without being one
    assert hunspell_lists.spanish_enclitic_flags(aff) == {"À"}
    infinitive_se, imperfect = aff.suffixes["R"][2], aff.suffixes["R"][1]
    assert hunspell_lists.spanish_enclitic_rule(infinitive_se)
    assert not hunspell_lists.spanish_enclitic_rule(imperfect)
    entry = list_by_code("es")
    words = hunspell_lists.build_words(entry, ES_AFF, "3\ncantar/RÀT\ncasa/N\nduro/N\n", edition_by_code("es").alphabet)
    assert words == {"CANTAR", "CANTAMOS", "CANTABA", "CANTABLE", "CASILLA", "DURILLO", "CASA", "DURO"}


def test_spanish_bare_entries_with_pronouns() -> None:
    from lexicons import hunspell

    aff = hunspell.parse_aff(ES_AFF)
    dic = "\n".join(
        ["12", "cantar/R", "da", "dame", "dar", "darlo", "vela/N", "tela", "alma", "hola", "cántalo", "cantadlo"]
    )
    entries = hunspell.parse_dic(dic + "\ncantad\ncanta\ncantados\n", aff)
    dropped = hunspell_lists.spanish_enclitic_entries(entries, aff)
    assert dropped == {"dame", "darlo", "cántalo", "cantadlo"}


# --- German: compounds ----------------------------------------------------------------------------------

DE_AFF = """SET UTF-8
FLAG short
COMPOUNDBEGIN x
COMPOUNDEND z
ONLYINCOMPOUND o
NEEDAFFIX h
COMPOUNDMIN 2
COMPOUNDPERMITFLAG c
SFX j Y 1
SFX j 0 0/xoc .
SFX E Y 1
SFX E 0 e .
SFX S Y 1
SFX S 0 s .
SFX F Y 1
SFX F 0 in .
"""
DE_DIC = "6\nFlug/ESj\nFlugzeug/hj\nZeug/ESF\nzeug/ESFoz\nBahnhofs/hj\nhof/ESoz\nBahn/j\n"


def test_german_compound_candidates() -> None:
    from lexicons import hunspell

    aff = hunspell.parse_aff(DE_AFF)
    found = hunspell_lists.german_compound_candidates(hunspell.parse_dic(DE_DIC, aff), aff)
    # the stems listed as first parts, without their linking -s, inflected as their last part (not -in)
    assert {"Flugzeug", "Flugzeuge", "Flugzeugs", "Bahnhof", "Bahnhofe", "Bahnhofs"} <= found
    assert "Flugzeugin" not in found


@pytest.mark.skipif(shutil.which("hunspell") is None, reason="the hunspell program is not installed")
def test_german_compounds_as_hunspell_accepts_them() -> None:
    entry = list_by_code("de")
    words = hunspell_lists.build_words(
        entry, DE_AFF, DE_DIC, edition_by_code("de").alphabet, raw=(DE_AFF.encode(), DE_DIC.encode())
    )
    assert {"FLUGZEUG", "FLUGZEUGE", "BAHNHOF", "BAHNHOFS", "ZEUGIN"} <= words
    assert "BAHNHOFE" in words  # hunspell takes Bahn + hofe as it takes Hofe
    assert "FLUGZEUGIN" not in words


def test_german_proper_nouns_dropped_with_their_forms() -> None:
    aff = DE_AFF + "SFX R Y 2\nSFX R 0 er [^e]\nSFX R 0 ern [^e]\n"
    dic = "3\nTisch/ES\nLondon/RS\nBerlin/S\n"
    entry, alphabet = list_by_code("de"), edition_by_code("de").alphabet
    everything = hunspell_lists.build_words(entry, aff, dic, alphabet)
    assert {"LONDON", "LONDONS", "BERLIN", "BERLINS", "LONDONER"} <= everything
    words = hunspell_lists.build_words(entry, aff, dic, alphabet, names=frozenset({"London", "Berlin"}))
    assert words == {"TISCH", "TISCHE", "TISCHS", "LONDONER", "LONDONERN"}


@pytest.mark.skipif(shutil.which("hunspell") is None, reason="the hunspell program is not installed")
def test_dropped_names_not_taken_back_as_compound_parts() -> None:
    # Jacken/hj is a compound first part: without its linking -en it is Jack, which hunspell accepts from Jack/S
    dic = "2\nJack/S\nJacken/hj\n"
    entry, alphabet = list_by_code("de"), edition_by_code("de").alphabet
    raw = (DE_AFF.encode(), dic.encode())
    everything = hunspell_lists.build_words(entry, DE_AFF, dic, alphabet, raw=raw)
    assert {"JACK", "JACKS"} <= everything
    words = hunspell_lists.build_words(entry, DE_AFF, dic, alphabet, raw=raw, names=frozenset({"Jack"}))
    assert not {"JACK", "JACKS"} & words


def test_french_keeps_quia() -> None:
    # "à quia": the dictionary lists QUIA only in the set phrase; the word of a published top (issue 42)
    french = set(gzip.decompress((LEXICONS / "fr.txt.gz").read_bytes()).decode("ascii").split())
    assert "QUIA" in french
    assert "ZZZZ" not in french
