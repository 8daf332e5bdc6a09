"""Tests of the hunspell expander and of the bundled word lists (lexicons/).

Nothing here touches the network: the expander is tested on small hand-written
.aff/.dic texts, and the list tests read the committed files.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import zipfile
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from lexicons import build_lists, hunspell
from lexicons.archives import InputError
from lexicons.hunspell_lists import list_by_code
from lexicons.proper_nouns import DING, NAM_DICT
from tests.paths import REPO_ROOT

LEXICONS = REPO_ROOT / "lexicons"


def forms(aff: str, dic: str) -> set[str]:
    return {form for form, _entry in hunspell.expand(aff, dic)}


# ---------------------------------------------------------------------------
# Expander
# ---------------------------------------------------------------------------


def test_suffix_with_strip_and_condition() -> None:
    aff = """
SET UTF-8
SFX A Y 3
SFX A y ies [^aeiou]y
SFX A 0 s [aeiou]y
SFX A 0 s [^y]
"""
    dic = "3\nfly/A\nboy/A\ncat/A\n"
    assert forms(aff, dic) == {"fly", "flies", "boy", "boys", "cat", "cats"}


def test_suffix_condition_longer_than_word_does_not_match() -> None:
    aff = "SFX A Y 1\nSFX A 0 x abc\n"
    assert forms(aff, "1\nbc/A\n") == {"bc"}


def test_suffix_cannot_strip_whole_word_without_fullstrip() -> None:
    aff = "SFX A Y 1\nSFX A ab xy ab\n"
    assert forms(aff, "1\nab/A\n") == {"ab"}
    assert forms("FULLSTRIP\n" + aff, "1\nab/A\n") == {"ab", "xy"}


def test_prefix_with_strip_and_condition() -> None:
    aff = """
PFX R Y 2
PFX R 0 re [^e]
PFX R e ré e
"""
    dic = "2\ndo/R\nécrire/R\n"
    assert forms(aff, dic) == {"do", "redo", "écrire", "reécrire"}
    assert forms(aff, "1\nemplir/R\n") == {"emplir", "rémplir"}


def test_cross_product_only_when_both_allow_it() -> None:
    aff = """
PFX U Y 1
PFX U 0 un .
PFX N N 1
PFX N 0 non .
SFX S Y 1
SFX S 0 s .
"""
    assert forms(aff, "1\ndo/US\n") == {"do", "undo", "dos", "undos"}
    assert forms(aff, "1\ndo/NS\n") == {"do", "nondo", "dos"}


def test_prefix_condition_is_checked_on_the_suffixed_form() -> None:
    aff = """
FULLSTRIP
PFX P Y 1
PFX P 0 x a
SFX S Y 1
SFX S b ab b
"""
    # the suffixed form "ab" starts with "a", the stem "b" does not
    assert forms(aff, "1\nb/PS\n") == {"b", "ab", "xab"}


def test_continuation_suffix_then_suffix() -> None:
    aff = """
SFX A Y 1
SFX A 0 able/B .
SFX B Y 1
SFX B 0 s .
"""
    assert forms(aff, "1\nread/A\n") == {"read", "readable", "readables"}


def test_continuation_suffix_enables_prefix() -> None:
    aff = """
SFX S Y 2
SFX S 0 0/L .
SFX S 0 s .
PFX L Y 1
PFX L 0 l' .
"""
    # l' only attaches to the singular, through the suffix's continuation
    assert forms(aff, "1\navion/S\n") == {"avion", "avions", "l'avion"}


def test_prefix_continuation_enables_suffix_and_needaffix() -> None:
    # Like fr.aff's unit prefixes: "kilo/S.()" must be followed by a suffix.
    aff = """
NEEDAFFIX ()
FLAG long
PFX Um Y 2
PFX Um 0 0/S. .
PFX Um 0 kilo/S.() .
SFX S. Y 2
SFX S. 0 0 .
SFX S. 0 s .
"""
    assert forms(aff, "1\nmètre/Um()\n") == {"mètre", "mètres", "kilomètre", "kilomètres"}
    # without the singular zero suffix, "kilo" alone cannot make a word (the
    # empty prefix "0 0" still satisfies the stem's NEEDAFFIX)
    aff_plural_only = aff.replace("SFX S. Y 2\nSFX S. 0 0 .\n", "SFX S. Y 1\n")
    assert forms(aff_plural_only, "1\nmètre/Um()\n") == {"mètre", "mètres", "kilomètres"}


def test_complexprefixes_allows_two_prefixes() -> None:
    aff = "COMPLEXPREFIXES\nPFX A Y 1\nPFX A 0 un/B .\nPFX B Y 1\nPFX B 0 re .\n"
    assert forms(aff, "1\ndo/A\n") == {"do", "undo", "reundo"}


def test_ignore_characters_are_removed() -> None:
    aff = "IGNORE -\nSFX S Y 1\nSFX S 0 -s .\n"
    assert forms(aff, "1\nca-t/S\n") == {"cat", "cats"}


def test_needaffix_stem_is_not_a_word() -> None:
    aff = "NEEDAFFIX !\nSFX S Y 2\nSFX S 0 0 .\nSFX S 0 s .\nSFX T Y 1\nSFX T 0 s .\n"
    assert forms(aff, "1\nchat/S!\n") == {"chat", "chats"}  # zero suffix gives the singular
    assert forms(aff, "1\nchat/T!\n") == {"chats"}


def test_needaffix_on_affix_needs_another_affix() -> None:
    aff = """
NEEDAFFIX !
SFX A Y 1
SFX A 0 ation/!B .
SFX B Y 1
SFX B 0 s .
"""
    assert forms(aff, "1\nform/A\n") == {"form", "formations"}


def test_forbiddenword() -> None:
    aff = "FORBIDDENWORD !\nSFX D Y 1\nSFX D 0 ed .\n"
    dic = "3\nrun/D\nwalk/D\nruned/!\n"
    assert forms(aff, dic) == {"run", "walk", "walked"}


def test_forbiddenword_in_affix_continuation() -> None:
    aff = "FORBIDDENWORD !\nSFX D Y 2\nSFX D 0 ed .\nSFX D 0 edd/! .\n"
    assert forms(aff, "1\nwalk/D\n") == {"walk", "walked"}


def test_onlyincompound() -> None:
    aff = "ONLYINCOMPOUND c\nSFX S Y 1\nSFX S 0 s .\nSFX E Y 1\nSFX E 0 e/c .\n"
    assert forms(aff, "2\nfoo/Sc\nbar/SE\n") == {"bar", "bars"}


def test_circumfix() -> None:
    aff = """
CIRCUMFIX X
PFX G Y 1
PFX G 0 ge/X .
SFX T Y 2
SFX T 0 t/X .
SFX T 0 en .
"""
    # the circumfix prefix needs the circumfix suffix and vice versa
    assert forms(aff, "1\nsag/GT\n") == {"sag", "sagen", "gesagt"}


def test_af_aliases() -> None:
    aff = """
AF 2
AF SP
AF S
SFX S Y 1
SFX S 0 s/2 .
PFX P Y 1
PFX P 0 re .
"""
    entries = hunspell.parse_dic("2\ndo/1\ncat/2\n", hunspell.parse_aff(aff))
    assert entries[0].flags == frozenset({"S", "P"})
    # the suffix continuation "2" is an alias too (S)
    assert forms(aff, "2\ndo/1\ncat/2\n") == {"do", "dos", "doss", "redo", "redos", "redoss", "cat", "cats", "catss"}


def test_am_aliases() -> None:
    aff = "AM 2\nAM po:nom is:mas\nAM po:adj\n"
    entries = hunspell.parse_dic("2\nchat 1\nbleu 2\n", hunspell.parse_aff(aff))
    assert [(e.word, e.morph) for e in entries] == [
        ("chat", ("po:nom", "is:mas")),
        ("bleu", ("po:adj",)),
    ]


def test_flag_long() -> None:
    aff = """
FLAG long
SFX Aa Y 1
SFX Aa 0 s .
SFX A. Y 1
SFX A. 0 x .
PFX Bb Y 1
PFX Bb 0 re .
"""
    assert forms(aff, "1\ndo/AaBb\n") == {"do", "dos", "redo", "redos"}
    with pytest.raises(ValueError):
        hunspell.parse_dic("1\ndo/AaB\n", hunspell.parse_aff(aff))


def test_flag_num() -> None:
    aff = "FLAG num\nSFX 101 Y 1\nSFX 101 0 s .\nSFX 7 Y 1\nSFX 7 0 x .\n"
    assert forms(aff, "1\ndo/7,101\n") == {"do", "dos", "dox"}


def test_morphological_fields_do_not_break_parsing() -> None:
    aff = "FLAG long\nSFX S. Y 1\nSFX S. 0 s . is:pl\n"
    dic = "3\nchat/S. po:nom is:mas\ntapis\tpo:nom is:mas is:inv\nad hoc po:loc.adj\n"
    result = list(hunspell.expand(aff, dic))
    assert sorted((form, entry.morph) for form, entry in result) == [
        ("ad hoc", ("po:loc.adj",)),
        ("chat", ("po:nom", "is:mas")),
        ("chats", ("po:nom", "is:mas")),
        ("tapis", ("po:nom", "is:mas", "is:inv")),
    ]


def test_escaped_slash_in_word() -> None:
    entries = hunspell.parse_dic("1\nkm\\/h/A\n", hunspell.parse_aff("SFX A Y 1\nSFX A 0 s .\n"))
    assert entries[0].word == "km/h"
    assert entries[0].flags == frozenset("A")


def test_homonyms_yield_each_entry() -> None:
    aff = "SFX S Y 1\nSFX S 0 s .\n"
    result = list(hunspell.expand(aff, "2\nzen/S po:nom\nzen po:adj\n"))
    assert sorted((f, e.morph) for f, e in result) == [
        ("zen", ("po:adj",)),
        ("zen", ("po:nom",)),
        ("zens", ("po:nom",)),
    ]


def test_affix_filter_prunes_rules() -> None:
    aff = "PFX L Y 1\nPFX L 0 l' .\nSFX S Y 1\nSFX S 0 s/L .\n"
    pruned = {f for f, _ in hunspell.expand(aff, "1\nami/S\n", affix_filter=lambda r: "'" not in r.add)}
    assert pruned == {"ami", "amis"}


# ---------------------------------------------------------------------------
# French filtering helpers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("école", "ECOLE"),
        ("cœur", "COEUR"),
        ("Ægypte", "AEGYPTE"),
        ("façade", "FACADE"),
        ("naïveté", "NAIVETE"),
        ("bœuf", "BOEUF"),
        ("ÿ", "Y"),
        ("où", "OU"),
    ],
)
def test_fold_accents(word: str, expected: str) -> None:
    assert build_lists.fold_accents(word) == expected


def test_keep_french_entry() -> None:
    def entry(word: str, flags: str = "", morph: str = "") -> hunspell.DicEntry:
        return hunspell.DicEntry(word, hunspell.decode_flags(flags, "long"), tuple(morph.split()))

    keep = build_lists.keep_french_entry
    assert keep(entry("chat", "S.()", "po:nom is:mas"), "||")
    assert not keep(entry("Paris", "L'D'Q'", "po:npr"), "||")
    assert not keep(entry("OK", "L'D'Q'", "po:interj"), "||")
    assert not keep(entry("km", "||--", "po:nom"), "||")
    assert not keep(entry("anti", "L'D'Q'", "po:pfx"), "||")
    assert not keep(entry("abrupto", "", "po:loc.adv"), "||")
    assert not keep(entry("priori", "", "po:mg po:loc.adv"), "||")
    assert keep(entry("auprès", "", "po:mg po:loc.prep"), "||")  # kept: ODS lists it
    assert keep(entry("bien", "", "po:mg po:adv po:loc.cj"), "||")
    assert not keep(entry("éd", "L'D'Q'", "po:nom is:epi is:inv"), "||")
    assert not keep(entry("œ", "L'D'Q'", "po:nom"), "||")


def test_gzip_is_deterministic() -> None:
    data = b"AA\nAB\n"
    first, second = build_lists.gzip_bytes(data), build_lists.gzip_bytes(data)
    assert first == second
    assert first[:4] == b"\x1f\x8b\x08\x00"  # no FNAME flag
    assert first[4:8] == b"\x00\x00\x00\x00"  # mtime 0
    assert gzip.decompress(first) == data


def test_german_inputs_include_the_pinned_ding_file(tmp_path: Path) -> None:
    files = {"de.aff": b"SET UTF-8\n", "de.dic": b"1\nHaus\n", "de-en": b"Berlin [geogr.] :: Berlin\n"}
    files["nam_dict.txt"] = b"M  Joachim" + b" " * 33 + b"8\r\n"
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    digest = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    ding = replace(DING, sha256=digest["de-en"])
    nam_dict = replace(NAM_DICT, sha256=digest["nam_dict.txt"])
    entry = replace(list_by_code("de"), aff_sha256=digest["de.aff"], dic_sha256=digest["de.dic"], names_evidence=ding)
    entry = replace(entry, first_names_evidence=nam_dict)
    found = build_lists.load_hunspell_inputs(tmp_path, entry)
    assert found["de.names"] == files["de-en"]
    assert found["de.first_names"] == files["nam_dict.txt"]
    with pytest.raises(InputError, match="does not match pinned"):
        build_lists.load_hunspell_inputs(tmp_path, replace(entry, names_evidence=DING))
    (tmp_path / "de-en").unlink()
    with pytest.raises(InputError, match="trans-de-en"):
        build_lists.load_hunspell_inputs(tmp_path, entry)


def test_german_inputs_read_nam_dict_from_its_pinned_wheel(tmp_path: Path) -> None:
    files = {"de.aff": b"SET UTF-8\n", "de.dic": b"1\nHaus\n", "de-en": b"Berlin [geogr.] :: Berlin\n"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    text = b"M  Joachim" + b" " * 33 + b"8\r\n"
    wheel = io.BytesIO()
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(NAM_DICT.path, text)
    (tmp_path / NAM_DICT.wheel_name).write_bytes(wheel.getvalue())
    digest = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    nam_dict = replace(
        NAM_DICT, sha256=hashlib.sha256(text).hexdigest(), wheel_sha256=hashlib.sha256(wheel.getvalue()).hexdigest()
    )
    entry = replace(
        list_by_code("de"),
        aff_sha256=digest["de.aff"],
        dic_sha256=digest["de.dic"],
        names_evidence=replace(DING, sha256=digest["de-en"]),
        first_names_evidence=nam_dict,
    )
    assert build_lists.load_hunspell_inputs(tmp_path, entry)["de.first_names"] == text
    with pytest.raises(InputError, match="does not match pinned"):
        build_lists.load_hunspell_inputs(tmp_path, replace(entry, first_names_evidence=NAM_DICT))
    (tmp_path / NAM_DICT.wheel_name).unlink()
    with pytest.raises(InputError, match="gender_guesser"):
        build_lists.load_hunspell_inputs(tmp_path, entry)


# ---------------------------------------------------------------------------
# The committed lists
# ---------------------------------------------------------------------------


@cache
def committed(lang: str) -> tuple[bytes, tuple[str, ...]]:
    raw = gzip.decompress((LEXICONS / f"{lang}.txt.gz").read_bytes())
    return raw, tuple(raw.decode("ascii").split("\n")[:-1])


@cache
def sources() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads((LEXICONS / "SOURCES.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_committed_list_format(lang: str) -> None:
    raw, words = committed(lang)
    assert raw.endswith(b"\n")
    assert b"\r" not in raw
    assert list(words) == sorted(set(words))
    pattern = re.compile(r"[A-Z]{2,15}")
    assert all(pattern.fullmatch(w) for w in words)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_committed_list_matches_sources(lang: str) -> None:
    raw, words = committed(lang)
    record = sources()[lang]
    assert record["words"] == len(words)
    assert record["sha256_uncompressed"] == hashlib.sha256(raw).hexdigest()
    assert record["license"] == {"fr": "MPL-2.0", "en": "LicenseRef-Public-Domain"}[lang]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_committed_gzip_header_is_reproducible(lang: str) -> None:
    head = (LEXICONS / f"{lang}.txt.gz").read_bytes()[:10]
    assert head[:4] == b"\x1f\x8b\x08\x00"
    assert head[4:8] == b"\x00\x00\x00\x00"


def test_french_list_content() -> None:
    words = set(committed("fr")[1])
    assert 400_000 < len(words) < 410_000
    for word in (
        "VAGUE",
        "AVIONS",
        "ECOLES",
        "CHANTEZ",
        "FACADES",
        "HUES",
        "JOUET",
        "OSE",
        "QI",
        "WU",
        "KIF",
        "ZEN",
        "CHANTASSIONS",
        "KILOMETRES",
        "COEUR",
    ):
        assert word in words, word
    for word in ("OK", "ANTI", "AB", "ID", "CF", "AE", "OE", "ED", "LN"):
        assert word not in words, word


def test_french_nonsense_forms_are_dropped_at_every_length() -> None:
    words = set(committed("fr")[1])
    for word in ("VS", "ZZZZ", "MMM", "BRRR", "GRRR", "HMM", "KSS"):
        assert word not in words, word
    for word in ("CRWTH", "PFFT", "PST"):  # vowelless words that are words
        assert word in words, word
    assert not [w for w in words if build_lists.is_nonsense_form(w)]


@pytest.mark.parametrize(
    ("word", "nonsense"),
    [
        ("ZZZZ", True),
        ("MMM", True),
        ("VS", True),
        ("BRRR", True),
        ("AA", False),
        ("CRWTH", False),
        ("PST", False),
        ("AGREEE", False),
    ],
)
def test_is_nonsense_form(word: str, nonsense: bool) -> None:
    assert build_lists.is_nonsense_form(word) is nonsense


def test_exact_short_words_replaces_two_and_completes_three() -> None:
    words = {"VS", "AH", "ZZZ", "CHAT", "ZEN"}
    result = build_lists.exact_short_words(words, {"AH", "AA"}, {"ZEK"})
    assert result == {"AH", "AA", "ZZZ", "CHAT", "ZEN", "ZEK"}


def test_english_list_content() -> None:
    words = set(committed("en")[1])
    assert 168_548 < len(words) < 168_800  # ENABLE1 and the current short words
    for word in ("ZAX", "CWM", "OXYPHENBUTAZONE", "AA", "ZYZZYVA", "QI", "ZA", "OK", "EW", "ZE", "QIS"):
        assert word in words, word
