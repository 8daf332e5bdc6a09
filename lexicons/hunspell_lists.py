"""The bundled lists made from a Debian hunspell package and written in an edition's tiles, one entry a list.

Each :class:`HunspellList` names its pinned package (version, sha256 of the ``.deb``
and of the ``.aff``/``.dic`` inside), the licence, and the edition whose tiles spell
it. :func:`build_words` expands the dictionary with :mod:`lexicons.hunspell`, keeps
the entries a player could play (no proper nouns, acronyms or symbols), reads every
form as the edition reads typed text (``core.alphabet``: accents the edition does not
keep fold away, multi-letter tiles are read longest first) and keeps the forms made of
2 to 15 tiles and nothing else, each written back in the edition's spelling
(``Alphabet.spell``: the labels, ``CH``, ``L·L``, ``Ñ``, as a player types them).

Adding a list is adding an entry to :data:`LISTS` (and its ``.LICENSE`` file).
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import tempfile
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.alphabet import Alphabet
from core.edition import edition_from_json
from lexicons import hunspell
from lexicons.proper_nouns import DING, NAM_DICT, Evidence, WheelEvidence, inhabitant_entries, proper_noun_stems

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "core" / "editions"
MIN_TILES, MAX_TILES_IN_WORD = 2, 15


@dataclass(frozen=True)
class HunspellList:
    """One bundled list: its pinned source package and how its entries are chosen."""

    code: str  # the edition code, also the file's stem (``ca`` -> ``ca.txt.gz``)
    package: str
    version: str
    deb_name: str  # as ``apt-get download`` names it
    deb_sha256: str
    aff_path: str
    aff_sha256: str
    dic_path: str
    dic_sha256: str
    encoding: str  # of the .aff and .dic (their SET line)
    license: str  # SPDX expression, from the package's copyright file
    description: str
    nouns_capitalised: bool = False  # German: a capital then lowercase letters is a common noun, kept
    drop_affixes: str = ""  # a regular expression: affix rules whose added text it matches are not applied
    known_words: tuple[str, ...] = ()  # reference sets (tests/data/reference/) whose words the list must hold
    compounds: bool = False  # German: compounds the dictionary lists, as hunspell accepts them (german_compounds)
    enclitics_dropped: bool = False  # Spanish: verb forms with attached pronouns left out (spanish_enclitic_*)
    dropped_two: frozenset[str] = frozenset()  # two-tile words dropped (abbreviations, symbols; spelled)
    added: tuple[str, ...] = ()  # words of the game the dictionary lacks (spelled; sources in the README)
    names_evidence: Evidence | None = None  # German: the proper nouns are those Ding lists only as names
    first_names_evidence: WheelEvidence | None = None  # German: and the first names of nam_dict Ding gives no noun

    @property
    def file(self) -> str:
        """The bundled file's name."""
        return f"{self.code}.txt.gz"

    @property
    def deb_glob(self) -> str:
        """A pattern matching the .deb however the version's epoch colon was written."""
        return f"{self.package}_*{self.version.split(':')[-1]}_all.deb"


def _debian(
    code: str,
    package: str,
    version: str,
    stem: str,
    shas: tuple[str, str, str],
    *,
    license: str,
    description: str,
    drop_affixes: str = "",
    known_words: tuple[str, ...] = (),
    encoding: str = "utf-8",
    dropped_two: str = "",
    added: str = "",
) -> HunspellList:
    """An entry for ``usr/share/hunspell/STEM.aff``/``.dic`` of a Debian package; ``shas``: .deb, .aff, .dic."""
    return HunspellList(
        code=code,
        package=package,
        version=version,
        deb_name=f"{package}_{version.replace(':', '%3a')}_all.deb",
        deb_sha256=shas[0],
        aff_path=f"usr/share/hunspell/{stem}.aff",
        aff_sha256=shas[1],
        dic_path=f"usr/share/hunspell/{stem}.dic",
        dic_sha256=shas[2],
        encoding=encoding,
        license=license,
        description=description,
        nouns_capitalised=code == "de",
        drop_affixes=drop_affixes,
        known_words=known_words,
        compounds=code == "de",
        enclitics_dropped=code == "es",
        dropped_two=frozenset(dropped_two.split()),
        added=tuple(added.split()),
        names_evidence=DING if code == "de" else None,
        first_names_evidence=NAM_DICT if code == "de" else None,
    )


ITALIAN_CLITICS = (
    r"(?:(?:m|t|c|v|s|gli)e(?:lo|la|li|le|ne)"  # two pronouns: -melo, -telo, -cene, -gliela...
    r"|(?:r|ndo|[aei]mo|[aei]te)(?:mi|ti|ci|vi|si|lo|la|li|le|gli|ne))$"  # one after -r, -ndo, -iamo, -ate...
)

LISTS: tuple[HunspellList, ...] = (
    _debian(
        "ca",
        "hunspell-ca",
        "3.0.7+repack1-5",
        "ca",
        (
            "4a20bec0e61ddce318e5075cd4fa0454be9a79b14128ea457e4f217afc86c2ba",
            "8fe47c55ea53e5ee4bdb2a5337fefff9b71a0b512e2ec1f29579d147827ae2c8",
            "bc867e0910cfc1ba67b9982c89a2de95adc9da99aa5ccd15fa6b8aa411e12ff8",
        ),
        license="GPL-2.0-or-later AND LGPL-2.1-or-later",
        description="Softcatalà Catalan spelling dictionary 3.0.7 (catalan-dict-tools), every inflected form "
        "without clitics, in the tiles of the Catalan edition (Ç, L·L, NY, QU)",
        dropped_two="AG AV EC EP IB UC UP",  # abbreviations and symbols (issue 42)
    ),
    _debian(
        "es",
        "hunspell-es",
        "1:7.5.0-1",
        "es_ES",
        (
            "f6de258db3830b26a9afe4ebd269fdabc8bd5adf71fc7465152c6a51c33626b9",
            "459fcfa76382eb2333a3c2833053b3c37bb92345add3f8ad61e94e4413402c40",
            "7a32942f6936329ea0bc311a6288d193a29cb05b3dd79a2e6115a335f7197f5e",
        ),
        license="GPL-3.0-or-later OR LGPL-3.0-or-later OR MPL-1.1+",
        description="RLA-ES Spanish spelling dictionary (Santiago Bosio; LibreOffice dictionaries 7.5.0, es_ES), "
        "every inflected form without attached (enclitic) pronouns, in the tiles of the Spanish edition "
        "(CH, LL, RR, Ñ)",
        # abbreviations and symbols the dictionary holds as two-letter words (issue 42; the FISE rules refuse
        # "siglas y abreviaturas"); ÑU, OX and OJ are words of the game the dictionary lacks (README)
        dropped_two="AP AV ED EF EJ ET IB OB OC OP QU RA IS",
        added="ÑU OX OJ",
    ),
    _debian(
        "ro",
        "hunspell-ro",
        "1:7.5.0-1",
        "ro_RO",
        (
            "2a2f11f37a9cd499ca76d1fc2dd4f3f509db402b86c9a733faf4e78661c65325",
            "b1e0558a367f8ace1641fbc1cdce0246f89ee9279e457bc81b519f36c8089ee8",
            "618435dc96dd21494a9d5c0df4a42ae0fe7997a849f381768e41ae7e15d85b85",
        ),
        license="GPL-2.0-only OR LGPL-2.1-only OR MPL-1.1",
        description="Romanian spelling dictionary (rospell; LibreOffice dictionaries 7.5.0, ro_RO), every "
        "inflected form, diacritics folded as the Romanian edition plays them",
        dropped_two="II IV IX",  # Roman numerals listed as bare entries
    ),
    _debian(
        "it",
        "hunspell-it",
        "1:7.5.0-1",
        "it_IT",
        (
            "ada3315f170baa05628099381890bf2af9e5022a8b2c937df82d9b7a30c63a2c",
            "951afaa19272f13555b8823e8bcf9ccf78f8fe1a07835bdfb912ab3e4d537c2b",
            "bae1e3501dcd2a923669592493b3fde6c02aae7c7aab83bf5e5b49077e73dd64",
        ),
        license="GPL-3.0-only",
        description="Italian spelling dictionary (LibreItalia; LibreOffice dictionaries 7.5.0, it_IT), every "
        "inflected form without enclitic pronouns, accents folded, words with J K W X Y dropped",
        # verb endings carrying enclitic pronouns (-amoci, -imelo, -andogliela...): three quarters of the
        # dictionary's 3.1 million forms; dropped to bound the list
        drop_affixes=ITALIAN_CLITICS,
        dropped_two="AB ES ET OC OP UP",  # abbreviations and foreign entries (issue 42)
    ),
    _debian(
        "de",
        "hunspell-de-de",
        "20161207-11",
        "de_DE",
        (
            "03073af4e73702d1dc1524986365672bcbfbaefab6b04dad0e653f19d75a30f9",
            "ed0416b7148e73f07015bb44b9812f853ac2786757dc91e910023204f5dd9a0b",
            "3fc9ca7132eda6ee0607780c0905373c40e6de8022a7d59f81ae0996aea8481a",
        ),
        license="GPL-2.0-or-later",
        description="igerman98 German spelling dictionary 20161207 (Björn Jacke; de_DE), every inflected form, "
        "the compounds it lists as hunspell accepts them, nouns kept, in the tiles of the German edition (Ä, Ö, Ü; "
        "ß as SS)",
        known_words=("de_duden_2_known.txt",),
        dropped_two="AD CO DE EO",  # bare entries: Latin "ad", "Co" (company), the domain "de", "eo"
    ),
    _debian(
        "pl",
        "hunspell-pl",
        "1:7.5.0-1",
        "pl_PL",
        (
            "9af9e010e5586ab3e5b46009273df8e94c8c1f0da8e3c7b1e2df1398ce68ef07",
            "7c37b9bde78054e43365b488a13859094c88bc66664b5b7a7bb073626454b38e",
            "215fd73aa47b11e7fdd2e4d655e9fe37be4acdae16ff833badcfdfce79110aad",
        ),
        license="GPL-1.0-or-later OR LGPL-2.0-or-later OR MPL-1.0+ OR Apache-2.0 OR CC-SA-1.0",
        description="Polish spelling dictionary (Marek Futrega, sjp.pl; LibreOffice dictionaries 7.5.0, pl_PL), "
        "every inflected form, in the tiles of the Polish edition (Ą Ć Ę Ł Ń Ó Ś Ź Ż)",
        encoding="iso8859-2",
        dropped_two="AA EE II OO UU YD YH",  # letter stretches and an abbreviation (issue 42)
    ),
)


def list_by_code(code: str) -> HunspellList:
    """The entry of the list for edition ``code``."""
    return next(entry for entry in LISTS if entry.code == code)


def edition_alphabet(code: str) -> Alphabet:
    """The alphabet of a shipped edition, read from its file (``core/editions/CODE.json``)."""
    return edition_from_json((EDITIONS_DIR / f"{code}.json").read_text(encoding="utf-8")).alphabet


def _playable_entry(word: str, nouns_capitalised: bool) -> bool:
    """Whether a .dic stem can give playable words: no capital, or (German) a capital then lowercase only."""
    if len(word) < 2 or any(c.isdigit() for c in word):
        return False
    rest = word[1:] if nouns_capitalised else word
    return not any(c.isupper() for c in rest)


def _affix_filter(entry: HunspellList, aff: hunspell.AffixData | None = None) -> hunspell.AffixFilter:
    """Affixes to apply: not those adding an apostrophe or a hyphen (Catalan l', -la, -se-la...), whose
    forms are dropped anyway (skipping them saves most of the expansion), nor those the entry drops
    (Italian clitics; Spanish enclitic rules, read from ``aff``)."""
    dropped = re.compile(entry.drop_affixes) if entry.drop_affixes else None
    enclitic = spanish_enclitic_flags(aff) if entry.enclitics_dropped and aff is not None else frozenset()

    def keep(rule: hunspell.AffixRule) -> bool:
        if any(c in rule.add for c in "'’-."):
            return False
        if rule.kind == "SFX" and (rule.flag in enclitic or (entry.enclitics_dropped and spanish_enclitic_rule(rule))):
            return False
        return dropped is None or not (rule.kind == "SFX" and dropped.search(rule.add))

    return keep


# --- Spanish: no attached (enclitic) pronouns ---------------------------------------------------------------

#: The unstressed pronouns Spanish attaches to a verb (dame, dímelo, cantarlo, sabiéndola, ponérselas).
SPANISH_PRONOUNS = r"(?:me|te|se|nos|os|lo|la|le|los|las|les)"
_PRONOUN_AFTER_VERB = re.compile(rf"(?<![lb]){SPANISH_PRONOUNS}$")  # -illa, -ble end so without a pronoun
_ENCLITIC_ENDING = re.compile(rf"(?:ndo|r){SPANISH_PRONOUNS}{{1,2}}$")  # gerund or infinitive + pronouns
_PRONOUN_TAIL = re.compile(rf"{SPANISH_PRONOUNS}{{1,2}}")
#: Imperatives that the dictionary lists as bare entries, to which pronouns attach (dame, dilo, hazlo, vete,
#: ponte, tenlo, ven, sal...): the irregular imperatives of dar, decir, hacer, ir, poner, salir, ser, tener,
#: venir and oír (Real Academia Española, Nueva gramática, imperative paradigms).
SPANISH_BARE_IMPERATIVES = frozenset("da dad de dé den di dí haz ve id pon sal sé ten ven oí oíd".split())
#: Bare entries that end like a verb form and a pronoun but are words of their own (nouns, adverbs,
#: prepositions, participle adjectives), found by reading what the rule below drops.
SPANISH_NOT_ENCLITIC = frozenset(
    "tétanos puñales órale bastante durante mediante salvante superante andante recelo entretela capela "
    "cachelos".split()
)


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def spanish_enclitic_flags(aff: hunspell.AffixData) -> frozenset[str]:
    """The suffix flags of the affix file that only attach pronouns: every rule adds a text ending in a
    pronoun (``la``, ``melo``, ``ándosela``...), not after ``l`` or ``b`` (``-illa``, ``-ble``)."""
    return frozenset(
        flag for flag, rules in aff.suffixes.items() if rules and all(_PRONOUN_AFTER_VERB.search(r.add) for r in rules)
    )


def spanish_enclitic_rule(rule: hunspell.AffixRule) -> bool:
    """A rule of a conjugation flag that makes an infinitive or a gerund with a pronoun (``SFX R 0 se [aeií]r``:
    cantarse; ``-iéndose``)."""
    ending = rule.add
    if not rule.strip and rule.condition.endswith("r"):
        ending = "r" + rule.add
    return bool(_ENCLITIC_ENDING.search(_fold(ending)))


def spanish_enclitic_entries(entries: Iterable[hunspell.DicEntry], aff: hunspell.AffixData) -> set[str]:
    """The bare (flagless) entries of the dictionary that are a verb form with pronouns attached: a verb form
    of the dictionary (from its conjugation flags, or a bare entry) and one or two pronouns, where the verb
    form is an infinitive, a gerund, an imperative plural in -d, a first person plural losing its -s
    (``cantémonos``), an irregular imperative (``dame``), or carries the written accent that only the pronoun
    makes it take (``cántalo``); or a conjugated form followed by a pronoun other than ``se`` (``usalo``)."""
    entries = list(entries)
    enclitic = spanish_enclitic_flags(aff)
    conjugations = {f for f, rules in aff.suffixes.items() if f not in enclitic and len(rules) > 60}
    expander = hunspell._Expander(aff, lambda r: r.flag not in enclitic and not spanish_enclitic_rule(r))
    conjugated: set[str] = set()
    for e in entries:
        if e.flags & conjugations:
            conjugated |= expander.expand(hunspell.DicEntry(e.word, frozenset(e.flags & conjugations)))
    bare = [e.word for e in entries if not e.flags and e.word.islower()]
    verbs = {_fold(v) for v in conjugated} | {_fold(w) for w in bare}
    dropped = set()
    for word in bare:
        if word in SPANISH_NOT_ENCLITIC or word in conjugated:
            continue
        for i in range(1, len(word) - 1):
            base, tail = word[:i], word[i:]
            if not _PRONOUN_TAIL.fullmatch(tail) or (tail == "os" and base.endswith("d")):
                continue  # -dos: a participle (creados, dados); the imperative drops its d (amaos)
            plain = _fold(base)
            accented = plain != base and _fold(tail) == tail
            if (
                (len(plain) >= 3 and plain.endswith(("ar", "er", "ir", "ndo")) and plain in verbs)
                or (plain.endswith("d") and plain in verbs)
                or (plain.endswith("mo") and plain + "s" in verbs)
                or base in SPANISH_BARE_IMPERATIVES
                or (accented and plain in verbs)
                or (base in conjugated and tail != "se" and not base.endswith(("s", "n")))
            ):
                dropped.add(word)
                break
    return dropped


# --- German: the compounds the dictionary lists, as hunspell accepts them -----------------------------------

#: Suffix flags of de_DE.aff that inflect a noun (-e, -en, -s, -es, -n, -er/-ern, -se/-sen, umlaut plurals):
#: the inflections a listed compound takes from its last part. Not -in (F), -ung (J), -chen (M).
GERMAN_NOUN_INFLECTIONS = frozenset("EPSTNRQqp")
#: Linking elements (Fugen) that end the compound-first stems of the dictionary (Bahnhofs, Tatsachen).
GERMAN_LINKS = ("s", "es", "n", "en", "er", "ns", "ens")  # not -e: Einreise/hij is the word itself
#: Feminine derivational endings: a compound ending so takes -en only (Meisterschaften, not Meisterschaftes),
#: and a form of it ending in a linking -s is a compound stem, not a word (Produktions, Landschafts).
GERMAN_FEMININE = re.compile(r"(?:schaft|heit|keit|ung|ion|tät|ik|ie|ei|ur|enz|anz)$")
GERMAN_FEMININE_LINKED = re.compile(r"(?:schaft|heit|keit|ung|ion|tät)s$")


def german_compound_candidates(entries: Iterable[hunspell.DicEntry], aff: hunspell.AffixData) -> set[str]:
    """Forms that hunspell may accept as words and that the affix expansion leaves out, as the dictionary
    writes them: every form of every entry with the NEEDAFFIX and ONLYINCOMPOUND marks ignored (the stems
    listed only as first parts, ``Flugzeug/hij``, ``Tatsachen/hij``); those stems without their linking
    element (``Bahnhofs`` -> ``Bahnhof``); and each listed noun that has no inflection of its own inflected as
    its last part is, the longest lowercase compound-last entry of the dictionary (``Flug`` + ``zeug/…ozm`` ->
    ``Flugzeuge``, ``Flugzeugs``...)."""
    entries = list(entries)
    loose = dataclasses.replace(aff, needaffix=None, onlyincompound=None)
    expander = hunspell._Expander(loose, _no_punctuation)
    found: set[str] = set()
    for e in entries:
        found |= expander.expand(e)
    last_parts: dict[str, set[str]] = {}
    for e in entries:
        if e.word[:1].islower() and "z" in e.flags:  # COMPOUNDEND of de_DE.aff
            inflections = frozenset(e.flags & GERMAN_NOUN_INFLECTIONS)
            last_parts.setdefault(e.word, set()).update(expander.expand(hunspell.DicEntry(e.word, inflections)))
    own = set(aff.suffixes) - {"j", "g", "e"}  # the compound-only zero and hyphen suffixes are no inflection
    seeds: set[str] = set()
    for e in entries:
        word = e.word
        if not word[:1].isupper() or (aff.forbiddenword is not None and aff.forbiddenword in e.flags):
            continue  # FORBIDDENWORD: a misspelling (Busgeld, Weinachten)
        if aff.needaffix is not None and aff.needaffix in e.flags:
            seeds.add(word)
            seeds.update(
                word[: -len(link)] for link in GERMAN_LINKS if word.endswith(link) and len(word) > len(link) + 2
            )
        elif not e.flags & own:
            seeds.add(word)
    for word in seeds:
        found.add(word)
        if GERMAN_FEMININE.search(word):
            found.add(word + ("n" if word.endswith(("ie", "ei")) else "en"))
            continue
        lower = word.lower()
        for i in range(2, len(word) - 2):  # the longest last part of 3 letters or more, after 2 or more
            forms = last_parts.get(lower[i:])
            if forms:
                found.update(word[:i] + form for form in forms)
                break
    return {f for f in found if not GERMAN_FEMININE_LINKED.search(f)}


def _no_punctuation(rule: hunspell.AffixRule) -> bool:
    return not any(c in rule.add for c in "'’-.")


def hunspell_accepts(aff: bytes, dic: bytes, encoding: str, words: Iterable[str]) -> set[str]:
    """The words that the hunspell spell checker (the ``hunspell`` program, Debian package ``hunspell``)
    accepts with this dictionary, compounds included."""
    program = shutil.which("hunspell")
    if program is None:
        raise RuntimeError("the German list needs the hunspell program (apt-get install hunspell)")
    with tempfile.TemporaryDirectory(prefix="arbitre-hunspell-") as tmp:
        base = Path(tmp) / "dict"
        base.with_suffix(".aff").write_bytes(aff)
        base.with_suffix(".dic").write_bytes(dic)
        text = "".join(w + "\n" for w in sorted(set(words)))
        result = subprocess.run(
            [program, "-d", str(base), "-i", encoding, "-G"],
            input=text.encode(encoding, "replace"),
            capture_output=True,
            check=True,
        )
    return set(result.stdout.decode(encoding).split())


def spelled(alphabet: Alphabet, form: str) -> str | None:
    """A dictionary form in the edition's tiles and spelling; None unless it is 2-15 tiles and nothing else."""
    if not alphabet.multiletter:  # one character a tile: fold, uppercase, check
        text = alphabet.fold(form).upper()
        ok = MIN_TILES <= len(text) <= MAX_TILES_IN_WORD and all(c in alphabet for c in text)
        return text if ok else None
    pieces = alphabet.scan(form.upper())
    if not MIN_TILES <= len(pieces) <= MAX_TILES_IN_WORD or any(p.symbol is None for p in pieces):
        return None
    symbols = "".join(p.symbol for p in pieces if p.symbol is not None)
    return alphabet.spell(symbols)


def build_words(
    entry: HunspellList,
    aff_text: str,
    dic_text: str,
    alphabet: Alphabet,
    *,
    raw: tuple[bytes, bytes] | None = None,
    names: frozenset[str] = frozenset(),
) -> set[str]:
    """Every playable form of the dictionary, in the edition's spelling. ``raw``: the ``.aff`` and ``.dic``
    bytes, for hunspell to check the German compounds (without them, no compound is added); ``names``: the
    words the evidence gives as names (``proper_nouns.names_to_drop``), whose capitalised stems are dropped."""
    aff = hunspell.parse_aff(aff_text)
    entries = [
        e
        for e in hunspell.parse_dic(dic_text, aff)
        if _playable_entry(e.word, entry.nouns_capitalised)
        and not (aff.keepcase is not None and aff.keepcase in e.flags)
    ]  # FORBIDDENWORD entries stay: their words are refused whichever entry gives them
    proper: set[str] = set()
    inhabitants: list[hunspell.DicEntry] = []
    dropped: list[hunspell.DicEntry] = []
    if names:  # German proper nouns dropped, their inhabitant nouns kept (Londoner)
        proper = proper_noun_stems(entries, names)
        inhabitants = inhabitant_entries(entries, proper)
        dropped = [e for e in entries if e.word in proper]
        entries = [e for e in entries if e.word not in proper]
    if entry.enclitics_dropped:
        enclitic = spanish_enclitic_entries(entries, aff)
        entries = [e for e in entries if e.word not in enclitic]
    affixes = _affix_filter(entry, aff)
    forms = {form for form, _entry in hunspell.expand_entries(entries, aff, affix_filter=affixes)}
    if proper:
        forms |= {form for form, _entry in hunspell.expand_entries(inhabitants, aff, affix_filter=affixes)} - proper
    if entry.compounds and raw is not None:
        forbidden = {e.word for e in entries if aff.forbiddenword is not None and aff.forbiddenword in e.flags}
        # nor the dropped names' forms, which hunspell accepts from the same .dic (Jack from Jacken/hij, Adams/hij)
        names_forms = {form for form, _entry in hunspell.expand_entries(dropped, aff, affix_filter=affixes)}
        candidates = german_compound_candidates(entries, aff) - forms - forbidden - names_forms
        forms |= hunspell_accepts(raw[0], raw[1], entry.encoding, candidates) & candidates
    words: set[str] = set()
    for form in forms:
        word = spelled(alphabet, form)
        if word is not None:
            words.add(word)
    return words


def is_vowelless(alphabet: Alphabet, vowels: frozenset[str], word: str) -> bool:
    """Whether a word has no vowel tile (abbreviations and letter stretches such as KM, HMM, BRRR)."""
    return not any(symbol in vowels for symbol in alphabet.tiles(word))


def edition_vowels(code: str) -> frozenset[str]:
    """The symbols of an edition's vowels and of its tiles counted either way (Y)."""
    data = json.loads((EDITIONS_DIR / f"{code}.json").read_text(encoding="utf-8"))
    alphabet = edition_alphabet(code)
    return frozenset(
        symbol for symbol, tile in zip(alphabet.symbols, data["tiles"]) if tile.get("kind") in ("vowel", "either")
    )


def word_list_text(words: set[str]) -> bytes:
    """One word per line, sorted by code point, UTF-8, ``\\n`` line endings."""
    return "".join(w + "\n" for w in sorted(words)).encode("utf-8")


def bundled_list(
    entry: HunspellList, aff: bytes, dic: bytes, known: Collection[str] = (), names: frozenset[str] = frozenset()
) -> set[str]:
    """The bundled list of one entry: the dictionary's playable forms in the edition's tiles, no vowelless form,
    and the ``known`` words (those of its reference sets); ``names``: as for :func:`build_words`."""
    alphabet = edition_alphabet(entry.code)
    aff_text, dic_text = aff.decode(entry.encoding), dic.decode(entry.encoding)
    words = build_words(entry, aff_text, dic_text, alphabet, raw=(aff, dic), names=names)
    vowels = edition_vowels(entry.code) | {s for s in alphabet.symbols if alphabet.label(s) == "Y"}
    kept = {w for w in words if not is_vowelless(alphabet, vowels, w)}
    kept -= {w for w in kept if w in entry.dropped_two and len(alphabet.tiles(w)) == 2}
    for word in (*known, *entry.added):
        spelt = spelled(alphabet, word)
        if spelt is None:
            raise ValueError(f"{word!r} of a reference set is not 2-15 tiles of edition {entry.code}")
        kept.add(spelt)
    return kept


def read_reference(text: str) -> set[str]:
    """The words of a reference set file: one uppercase word a line, ``#`` comments."""
    return {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def evidence_record(entry: HunspellList) -> dict[str, Any]:
    """The ``evidence`` of one list's SOURCES.json entry, by the rule each file serves; empty without evidence."""
    found: dict[str, Any] = {}
    if entry.names_evidence is not None:
        found["proper_nouns"] = entry.names_evidence.record()
    if entry.first_names_evidence is not None:
        found["first_names"] = entry.first_names_evidence.record()
    return {"evidence": found} if found else {}


def record(entry: HunspellList, words: int, text_sha256: str, references: dict[str, str]) -> dict[str, Any]:
    """The SOURCES.json entry of one list; ``references``: sha256 of its reference sets, by file name."""
    short: dict[str, Any] = {}
    if references:
        short = {
            "short_words": {
                "rule": "the words of the reference sets are added; the dictionary's own short words are kept",
                "references": dict(sorted(references.items())),
            }
        }
    rules: dict[str, Any] = {}
    if entry.dropped_two or entry.added:
        rules["two_letter_words"] = {"dropped": sorted(entry.dropped_two), "added": list(entry.added)}
    if entry.compounds:
        rules["compounds"] = "the compounds the dictionary lists, kept where hunspell accepts them (lexicons/README.md)"
    if entry.names_evidence is not None:
        rules["proper_nouns"] = (
            "capitalised stems the Ding dictionary lists only as place or person names dropped (lexicons/README.md)"
        )
    if entry.first_names_evidence is not None:
        rules["first_names"] = (
            "capitalised stems nam_dict gives as first names in Germany, Austria or Switzerland dropped, unless "
            "Ding gives them a common-noun sense or the dictionary a plural (lexicons/README.md)"
        )
    if entry.enclitics_dropped:
        rules["enclitics"] = "verb forms with attached pronouns left out, by the affix flags (lexicons/README.md)"
    if rules:
        short["rules"] = rules
    evidence = evidence_record(entry)
    return {
        **short,
        **evidence,
        "file": entry.file,
        "edition": entry.code,
        "description": entry.description,
        "license": entry.license,
        "spelling": "the edition's tile labels as a player types them (core/editions/CODE.json), UTF-8",
        "source": {
            "package": entry.package,
            "version": entry.version,
            "registry": "debian",
            "archive": entry.deb_name,
            "archive_sha256": entry.deb_sha256,
            "files": {entry.aff_path: entry.aff_sha256, entry.dic_path: entry.dic_sha256},
        },
        "words": words,
        "sha256_uncompressed": text_sha256,
    }
