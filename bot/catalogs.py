"""The message catalogs: one gettext PO file per language, the source of truth, read when first needed.

``bot/locale/LANG/LC_MESSAGES/arbitre.po`` holds every message of language LANG under its key (message
ids are keys such as ``usage_score``, not English text). Adding a language is adding such a file (or a
folder of them named in ``ARBITRE_LOCALES``): its messages, its command names, its plural rule.

The PO file is read with Babel (a runtime dependency: no build step compiles catalogs, so a fresh clone
and an edited catalog are always in step) and served by the standard library's ``gettext``, which
applies the catalog's ``Plural-Forms``. A plural message names the placeholder that counts in its
``msgid_plural`` (``msgid "moves_count"`` / ``msgid_plural "n"``). Messages are Python format strings
with a small grammar: ``{player:de}`` gives "de Ben" or "d'Ana" (French elision).

A message missing from a catalog is an error (``MissingMessageError``), never another language's text.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
import string
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "arbitre"
EXTRA_DIRS_VARIABLE = "ARBITRE_LOCALES"  # more folders of catalogs, separated like PATH
MAX_CATALOG_BYTES = 4 << 20  # a catalog file is read whole up to this (the bundled ones: 100 kB)


class MissingMessageError(LookupError):
    """A message that a language's catalog does not translate."""

    def __init__(self, language: str, key: str) -> None:
        super().__init__(f"the {language!r} catalog has no message {key!r}")
        self.language = language
        self.key = key


class UnknownLanguageError(LookupError):
    """A language no catalog is for."""

    def __init__(self, language: str, known: tuple[str, ...]) -> None:
        super().__init__(f"no catalog for the language {language!r} (catalogs: {', '.join(known)})")
        self.language = language
        self.known = known


class CatalogError(ValueError):
    """A catalog file that cannot be read."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


# --- the grammar of the messages -----------------------------------------------------------------

_VOWELS = frozenset("AEIOU")


def _folded_initials(word: str) -> str:
    """The first two letters of a word, accents removed, in capitals."""
    decomposed = unicodedata.normalize("NFD", word.strip()[:2])
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def french_de(word: str) -> str:
    """``de Ben``, ``d'Ana``, ``d'Éric``, ``d'Hugo``, ``d'Yves`` but ``de Yann`` (Y before a vowel)."""
    initials = _folded_initials(word)
    first = initials[:1]
    second = initials[1:2]
    elided = first in _VOWELS or first == "H" or (first == "Y" and second != "" and second not in _VOWELS)
    return f"d'{word}" if elided else f"de {word}"


GRAMMAR = {"de": french_de}


class MessageFormatter(string.Formatter):
    """``str.format`` plus the grammar's format specs (``{player:de}``); a field reads a value by its name
    only, never an attribute or an index of it (``{player.__class__}``: a catalog is an operator's file)."""

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if not field_name.isidentifier():
            raise ValueError("a message's field names a value, never an attribute or an index of it")
        return super().get_field(field_name, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        rule = GRAMMAR.get(format_spec)
        if rule is not None:
            return rule(str(value))
        return str(super().format_field(value, format_spec))


FORMATTER = MessageFormatter()


@functools.lru_cache(maxsize=4096)
def _uses_grammar(template: str) -> bool:
    """Whether a message has a field formatted by the grammar (``{player:de}``)."""
    return any(spec in GRAMMAR for _, name, spec, _ in FORMATTER.parse(template) if name is not None and spec)


SPEC = re.compile(r"(?:[<>^]?[+\- ]?\d{0,2}(?:\.\d)?[dfs%]?)")  # {adjustment:+d}: a sign, a width under 100


def field_problem(template: str) -> str | None:
    """What is wrong with a message's fields, or None: each names a value (``{player}``), with at most the
    grammar's spec or a short number format, and no conversion."""
    try:
        parsed = list(FORMATTER.parse(template))
    except ValueError:
        return "a brace is not closed or not doubled"
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier():
            return "a field reads an attribute or an index of a value, or has no name"
        if conversion is not None or not (spec in GRAMMAR or SPEC.fullmatch(spec or "")):
            return "a field's format is not one a message may use"
    return None


def placeholders(template: str) -> set[str]:
    """The names of the fields a message fills (``{player:de}`` counts as ``player``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in FORMATTER.parse(template) if name}


# --- one catalog --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Catalog:
    """One language's messages: their texts by key, which placeholder counts each plural one."""

    language: str
    path: Path
    texts: Mapping[str, tuple[str, ...]]  # key -> its text, or its plural forms
    counted_by: Mapping[str, str]  # plural message key -> the placeholder that counts
    translations: gettext.GNUTranslations

    def __contains__(self, key: object) -> bool:
        return key in self.texts

    def template(self, key: str, count: int | None = None) -> str:
        """A message's text before formatting (its form for ``count`` when it is plural)."""
        if key not in self.texts:
            raise MissingMessageError(self.language, key)
        counting = self.counted_by.get(key)
        if counting is None:
            return self.translations.gettext(key)
        return self.translations.ngettext(key, counting, 1 if count is None else count)

    def say(self, key: str, values: Mapping[str, Any]) -> str:
        """The message ``key`` filled with ``values`` (a plural one in the form its count needs)."""
        counting = self.counted_by.get(key)
        count = int(values[counting]) if counting is not None else None
        template = self.template(key, count)
        if _uses_grammar(template):
            return FORMATTER.vformat(template, (), values)
        return template.format_map(values)  # the same text, without the grammar's slower formatter


def read_catalog(path: Path, language: str) -> Catalog:
    """A PO file read with Babel and served through ``gettext``; fuzzy and empty messages are left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po

    from .operator_files import OperatorFileError, read_bounded

    try:
        po = read_po(io.BytesIO(read_bounded(path, MAX_CATALOG_BYTES)), abort_invalid=True)
    except OperatorFileError as error:
        raise CatalogError(path, error.reason) from None
    except (ValueError, PoFileError) as error:  # where, never what the file holds
        line = re.search(r" on (\d+)", str(error)) if isinstance(error, PoFileError) else None
        raise CatalogError(path, "not a PO file" + (f" (line {line[1]})" if line else "")) from None
    texts: dict[str, tuple[str, ...]] = {}
    counted_by: dict[str, str] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        forms = tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)
        if not all(forms):
            continue
        if isinstance(message.id, (tuple, list)):
            key, counting = str(message.id[0]), str(message.id[1])
            counted_by[key] = counting
        else:
            key = str(message.id)
        texts[key] = tuple(str(form) for form in forms)
        problem = next((p for p in map(field_problem, texts[key]) if p), None)
        if problem:
            raise CatalogError(path, f"line {message.lineno}: {problem}")
    compiled = io.BytesIO()
    try:
        write_mo(compiled, po)
        compiled.seek(0)
        translations = gettext.GNUTranslations(compiled)
    except (ValueError, SyntaxError, RecursionError, OverflowError, KeyError, TypeError):
        raise CatalogError(path, "its header cannot be read (Plural-Forms?)") from None
    return Catalog(language, path, texts, counted_by, translations)


# --- every language -------------------------------------------------------------------------------


class Catalogs:
    """The catalogs of every language found in some folders (``LANG/LC_MESSAGES/arbitre.po``), each read
    when first asked for. Folders listed later add languages; they never replace a language's catalog."""

    def __init__(self, directories: Iterable[Path]) -> None:
        self._directories = list(directories)
        self._loaded: dict[str, Catalog] = {}
        self._lock = threading.Lock()
        self._found: dict[str, Path] | None = None  # the folders' catalog files, scanned once

    def _files(self) -> dict[str, Path]:
        found = self._found
        if found is not None:
            return found
        found = {}
        for directory in self._directories:
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
                found.setdefault(path.parent.parent.name, path)
        self._found = found
        return found

    def languages(self) -> tuple[str, ...]:
        """The language codes with a catalog, in the order of their folders (alphabetical in each)."""
        return tuple(self._files())

    def catalog(self, language: str) -> Catalog:
        """The catalog of ``language`` (read once)."""
        loaded = self._loaded.get(language)
        if loaded is not None:
            return loaded
        with self._lock:
            if language not in self._loaded:
                files = self._files()
                if language not in files:
                    raise UnknownLanguageError(language, tuple(files))
                self._loaded[language] = read_catalog(files[language], language)
            return self._loaded[language]

    def missing(self, language: str, reference: str = "en") -> list[str]:
        """The messages of the ``reference`` catalog that ``language``'s catalog lacks, in its order."""
        have = self.catalog(language).texts
        return [key for key in self.catalog(reference).texts if key not in have]

    def problem(self, reference: str = "en") -> str | None:
        """What is wrong with the catalogs of the folders added to the bundled one (``ARBITRE_LOCALES``), in one
        line, or None: a file that cannot be read, a message whose fields are refused, a message of the
        ``reference`` catalog missing. Each is read now (at start, not at a player's first command)."""
        added = set(self._files()) - {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
        for language in sorted(added):
            try:
                missing = self.missing(language, reference)
            except CatalogError as error:
                return str(error)
            if missing:
                path = self._files()[language]
                return f"{path}: {len(missing)} messages missing, {missing[0]!r} first"
        return None

    def add_directory(self, directory: Path) -> None:
        """Serve the catalogs of another folder too (its languages are added)."""
        with self._lock:
            self._directories.append(directory)
            self._found = None

    def remove_directory(self, directory: Path) -> None:
        """Stop serving a folder added with ``add_directory`` (its languages are dropped)."""
        with self._lock:
            self._directories.remove(directory)
            self._found = None
            served = set(self._files())
            for language in [code for code in self._loaded if code not in served]:
                del self._loaded[language]


def _extra_directories() -> list[Path]:
    value = os.environ.get(EXTRA_DIRS_VARIABLE, "")
    return [Path(item) for item in value.split(os.pathsep) if item]


CATALOGS = Catalogs([LOCALE_DIR, *_extra_directories()])

FALLBACK_ZONE = "UTC"  # the time zone of a language whose catalog names none


def usual_zone(lang: str) -> str:
    """The time zone of a channel speaking ``lang`` that chose none: its catalog's ``default_timezone``."""
    try:
        catalog = CATALOGS.catalog(lang)
    except UnknownLanguageError:
        return FALLBACK_ZONE
    return catalog.say("default_timezone", {}) if "default_timezone" in catalog else FALLBACK_ZONE
