"""A small, dependency-free hunspell affix expander.

Given the text of a hunspell ``.aff`` file and of a ``.dic`` file, this module
generates every surface form that hunspell would accept as a stand-alone
(non-compound) word, together with the dictionary entry it was derived from.

Supported ``.aff`` features:

* ``FLAG`` types ``short`` (default, one character), ``long`` (two
  characters), ``num`` (comma-separated decimal numbers) and ``UTF-8`` (one
  Unicode character);
* ``AF`` flag aliases and ``AM`` morphology aliases (numbered, 1-based);
* ``PFX`` / ``SFX`` rules with strip, append, continuation classes
  (``add/flags``), conditions (``.``, literal characters, ``[abc]`` and
  ``[^abc]`` classes; anchored at the start of the word for prefixes, at the
  end for suffixes) and morphological fields;
* cross products (a prefix combined with a suffix when both are ``Y``);
* continuation classes: a suffix may enable a second (outer) suffix or a
  prefix; a prefix may enable a suffix; with ``COMPLEXPREFIXES`` a prefix may
  enable a second (outer) prefix instead of suffixes enabling suffixes;
* ``NEEDAFFIX`` (on stems: the bare stem is not a word; on affixes: the
  affix is a pseudo-affix that needs another affix), ``FORBIDDENWORD``,
  ``ONLYINCOMPOUND`` (such stems and affixed forms are never emitted),
  ``CIRCUMFIX``, ``FULLSTRIP`` and ``IGNORE``.

Compounding (``COMPOUNDFLAG``, ``COMPOUNDRULE``...) is deliberately not
expanded: the set of compounds is unbounded.  Case-related flags such as
``KEEPCASE`` do not change which forms are generated; they are exposed on
:class:`AffixData` so that callers can filter on them.

Typical use::

    from lexicons import hunspell
    for form, entry in hunspell.expand(aff_text, dic_text):
        print(form, entry.word, entry.morph)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

__all__ = [
    "AffixData",
    "AffixFilter",
    "AffixRule",
    "DicEntry",
    "decode_flags",
    "expand",
    "expand_entries",
    "expand_entry",
    "parse_aff",
    "parse_dic",
    "parse_dic_line",
]


@dataclass(frozen=True)
class AffixRule:
    """One ``PFX`` or ``SFX`` rule line."""

    kind: str  # "PFX" or "SFX"
    flag: str
    cross: bool
    strip: str
    add: str
    cont: frozenset[str]
    condition: str
    morph: tuple[str, ...] = ()
    _cond_re: re.Pattern[str] | None = field(default=None, compare=False, repr=False)

    def applies(self, word: str, fullstrip: bool = False) -> bool:
        """Return True if this rule can be applied to ``word``."""
        strip = self.strip
        if strip:
            if len(strip) > len(word) or (len(strip) == len(word) and not fullstrip):
                return False
            if self.kind == "SFX":
                if not word.endswith(strip):
                    return False
            elif not word.startswith(strip):
                return False
        cond = self._cond_re
        if cond is None:
            return True
        return cond.search(word) is not None

    def apply(self, word: str) -> str:
        """Apply the rule to ``word`` (the caller checked :meth:`applies`)."""
        if self.kind == "SFX":
            base = word[: len(word) - len(self.strip)] if self.strip else word
            return base + self.add
        return self.add + word[len(self.strip) :]


@dataclass(frozen=True)
class DicEntry:
    """One ``.dic`` line: the stem, its flags and its morphological fields."""

    word: str
    flags: frozenset[str]
    morph: tuple[str, ...] = ()


@dataclass
class AffixData:
    """The parsed content of an ``.aff`` file that matters for expansion."""

    flag_type: str = "short"
    af: list[frozenset[str]] = field(default_factory=list)
    am: list[tuple[str, ...]] = field(default_factory=list)
    prefixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    suffixes: dict[str, list[AffixRule]] = field(default_factory=dict)
    needaffix: str | None = None
    forbiddenword: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    keepcase: str | None = None
    nosuggest: str | None = None
    fullstrip: bool = False
    complexprefixes: bool = False
    ignore: str = ""

    def parse_flags(self, text: str) -> frozenset[str]:
        """Decode a flag field (or an ``AF`` alias number) into a set of flags."""
        if not text:
            return frozenset()
        if self.af and text.isdigit():
            index = int(text)
            if 1 <= index <= len(self.af):
                return self.af[index - 1]
            raise ValueError(f"unknown AF alias {text!r}")
        return decode_flags(text, self.flag_type)

    def parse_morph(self, fields: list[str]) -> tuple[str, ...]:
        """Decode morphological fields, resolving a lone ``AM`` alias number."""
        if self.am and len(fields) == 1 and fields[0].isdigit():
            index = int(fields[0])
            if 1 <= index <= len(self.am):
                return self.am[index - 1]
        return tuple(fields)


def decode_flags(text: str, flag_type: str) -> frozenset[str]:
    """Split a raw flag string according to the ``FLAG`` type."""
    if flag_type == "long":
        if len(text) % 2:
            raise ValueError(f"odd-length long flag field {text!r}")
        return frozenset(text[i : i + 2] for i in range(0, len(text), 2))
    if flag_type == "num":
        return frozenset(part.strip() for part in text.split(",") if part.strip())
    # "short" and "UTF-8": one character per flag.
    return frozenset(text)


def _condition_regex(kind: str, cond: str) -> re.Pattern[str] | None:
    """Compile a hunspell condition; ``None`` means "always true"."""
    if cond in ("", "."):
        return None
    parts: list[str] = []
    i = 0
    while i < len(cond):
        ch = cond[i]
        if ch == "[":
            end = cond.find("]", i + 1)
            if end < 0:
                raise ValueError(f"unterminated class in condition {cond!r}")
            body = cond[i + 1 : end]
            negate = body.startswith("^")
            if negate:
                body = body[1:]
            escaped = "".join(re.escape(c) for c in body)
            parts.append(f"[{'^' if negate else ''}{escaped}]" if escaped else ("." if negate else "(?!)"))
            i = end + 1
        elif ch == ".":
            parts.append(".")
            i += 1
        else:
            parts.append(re.escape(ch))
            i += 1
    body = "".join(parts)
    if kind == "SFX":
        return re.compile(f"(?s:{body})\\Z")
    return re.compile(f"\\A(?s:{body})")


def _remove_ignored(text: str, ignore: str) -> str:
    if not ignore:
        return text
    return text.translate({ord(c): None for c in ignore})


def parse_aff(text: str) -> AffixData:
    """Parse the text of an ``.aff`` file."""
    data = AffixData()
    lines = [line.strip() for line in text.splitlines()]
    # First pass: directives that change how later lines are read.
    for line in lines:
        parts = line.split()
        if not parts:
            continue
        key = parts[0]
        if key == "FLAG" and len(parts) > 1:
            data.flag_type = parts[1]
        elif key == "IGNORE" and len(parts) > 1:
            data.ignore = parts[1]
        elif key == "COMPLEXPREFIXES":
            data.complexprefixes = True
        elif key == "FULLSTRIP":
            data.fullstrip = True
    flag_directives = {
        "NEEDAFFIX": "needaffix",
        "PSEUDOROOT": "needaffix",
        "FORBIDDENWORD": "forbiddenword",
        "ONLYINCOMPOUND": "onlyincompound",
        "CIRCUMFIX": "circumfix",
        "KEEPCASE": "keepcase",
        "NOSUGGEST": "nosuggest",
    }
    pending: dict[tuple[str, str], int] = {}  # (kind, flag) -> rule lines still expected
    cross_of: dict[tuple[str, str], bool] = {}
    af_expected = am_expected = None
    rules: list[tuple[str, list[str]]] = []
    for line in lines:
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        key = parts[0]
        if key in flag_directives and len(parts) > 1:
            setattr(data, flag_directives[key], parts[1])
        elif key == "AF" and len(parts) > 1:
            if af_expected is None and parts[1].isdigit() and len(parts) == 2:
                af_expected = int(parts[1])
            else:
                data.af.append(decode_flags(parts[1], data.flag_type))
        elif key == "AM" and len(parts) > 1:
            if am_expected is None and parts[1].isdigit() and len(parts) == 2:
                am_expected = int(parts[1])
            else:
                data.am.append(tuple(parts[1:]))
        elif key in ("PFX", "SFX") and len(parts) >= 4:
            ident = (key, parts[1])
            if pending.get(ident, 0) == 0:
                # Header: "SFX flag cross count"
                cross_of[ident] = parts[2] == "Y"
                pending[ident] = int(parts[3])
                if key == "PFX":
                    data.prefixes.setdefault(parts[1], [])
                else:
                    data.suffixes.setdefault(parts[1], [])
            else:
                pending[ident] -= 1
                rules.append((key, parts))
    for key, parts in rules:
        flag = parts[1]
        strip = "" if parts[2] == "0" else parts[2]
        add_field = parts[3]
        # A '/' introduces the continuation class, unless escaped.
        slash = _unescaped_slash(add_field)
        if slash >= 0:
            add, cont_text = add_field[:slash], add_field[slash + 1 :]
        else:
            add, cont_text = add_field, ""
        add = add.replace("\\/", "/")
        if add == "0":
            add = ""
        cond = parts[4] if len(parts) > 4 else "."
        morph = data.parse_morph(parts[5:])
        strip = _remove_ignored(strip, data.ignore)
        add = _remove_ignored(add, data.ignore)
        rule = AffixRule(
            kind=key,
            flag=flag,
            cross=cross_of[(key, flag)],
            strip=strip,
            add=add,
            cont=data.parse_flags(cont_text),
            condition=cond,
            morph=morph,
            _cond_re=_condition_regex(key, cond),
        )
        table = data.prefixes if key == "PFX" else data.suffixes
        table[flag].append(rule)
    return data


def _unescaped_slash(text: str) -> int:
    """Index of the first ``/`` not preceded by a backslash (not at index 0), or -1."""
    i = text.find("/", 1)
    while i > 0 and text[i - 1] == "\\":
        i = text.find("/", i + 1)
    return i


_MORPH_START = re.compile(r"[ \t]+(?=\S\S:)")


def parse_dic_line(line: str, aff: AffixData) -> DicEntry | None:
    """Parse one ``.dic`` line; returns ``None`` for blank lines."""
    line = line.rstrip("\r\n")
    if not line.strip():
        return None
    # Morphological fields start after a tab, or after whitespace followed
    # by a two-character "xx:" field name.
    tab = line.find("\t")
    if tab >= 0:
        head, morph_text = line[:tab], line[tab + 1 :]
    else:
        match = _MORPH_START.search(line)
        if match:
            head, morph_text = line[: match.start()], line[match.end() :]
        else:
            head, morph_text = line, ""
    head = head.strip()
    morph_fields = morph_text.split()
    slash = _unescaped_slash(head)
    if slash >= 0:
        word, flag_text = head[:slash], head[slash + 1 :].strip()
        # Anything after the flags that is not "xx:" (e.g. an AM alias
        # number) is morphology too.
        if " " in flag_text:
            flag_text, rest = flag_text.split(None, 1)
            morph_fields = rest.split() + morph_fields
    else:
        word, flag_text = head, ""
        if aff.am and " " in word:
            word, rest = word.rsplit(None, 1)
            morph_fields = [rest] + morph_fields
    word = _remove_ignored(word.replace("\\/", "/"), aff.ignore)
    return DicEntry(word, aff.parse_flags(flag_text), aff.parse_morph(morph_fields))


def parse_dic(text: str, aff: AffixData) -> list[DicEntry]:
    """Parse a ``.dic`` file (the first line, a word count, is skipped)."""
    lines = text.splitlines()
    start = 1 if lines and lines[0].strip().isdigit() else 0
    entries = []
    for line in lines[start:]:
        if line.startswith("\t"):
            continue  # tab-led lines carry no word
        entry = parse_dic_line(line, aff)
        if entry is not None and entry.word:
            entries.append(entry)
    return entries


AffixFilter = Callable[[AffixRule], bool]


class _Expander:
    def __init__(self, aff: AffixData, affix_filter: AffixFilter | None) -> None:
        self.aff = aff
        keep = affix_filter or (lambda rule: True)
        self.prefixes = {f: [r for r in rs if keep(r)] for f, rs in aff.prefixes.items()}
        self.suffixes = {f: [r for r in rs if keep(r)] for f, rs in aff.suffixes.items()}

    # -- validity -----------------------------------------------------------
    def _has(self, rule: AffixRule, flag: str | None) -> bool:
        return flag is not None and flag in rule.cont

    def valid(self, prefixes: tuple[AffixRule, ...], suffixes: tuple[AffixRule, ...]) -> bool:
        """Is a stem combined with these affixes a stand-alone word?"""
        aff = self.aff
        affixes = prefixes + suffixes
        for rule in affixes:
            if self._has(rule, aff.forbiddenword) or self._has(rule, aff.onlyincompound):
                return False
        # A NEEDAFFIX continuation marks a pseudo-affix: it needs company.
        if affixes and all(self._has(r, aff.needaffix) for r in affixes):
            return False
        # CIRCUMFIX affixes only come as a prefix + suffix pair.
        return not (
            aff.circumfix is not None
            and any(self._has(r, aff.circumfix) for r in affixes)
            and not (
                any(self._has(r, aff.circumfix) for r in prefixes)
                and any(self._has(r, aff.circumfix) for r in suffixes)
            )
        )

    # -- generation -------------------------------------------------------
    def _chains(
        self, word: str, flags: Iterable[str], table: dict[str, list[AffixRule]], two_level: bool
    ) -> list[tuple[str, tuple[AffixRule, ...]]]:
        """Forms from one affix (and optionally a second, outer one) of ``table``."""
        fullstrip = self.aff.fullstrip
        out: list[tuple[str, tuple[AffixRule, ...]]] = []
        for flag in flags:
            for rule in table.get(flag, ()):
                if not rule.applies(word, fullstrip):
                    continue
                form = rule.apply(word)
                out.append((form, (rule,)))
                if not two_level:
                    continue
                for flag2 in rule.cont:
                    for rule2 in table.get(flag2, ()):
                        if rule2.applies(form, fullstrip):
                            out.append((rule2.apply(form), (rule, rule2)))
        return out

    def expand(self, entry: DicEntry) -> set[str]:
        aff = self.aff
        flags = entry.flags
        if aff.forbiddenword in flags or aff.onlyincompound in flags:
            return set()
        results: set[str] = set()
        word = entry.word
        if aff.needaffix not in flags:
            results.add(word)
        complex_pfx = aff.complexprefixes
        suffix_chains = self._chains(word, flags, self.suffixes, not complex_pfx)
        for form, sfx in suffix_chains:
            if self.valid((), sfx):
                results.add(form)
        fullstrip = aff.fullstrip
        # Prefixes alone (and, with COMPLEXPREFIXES, two prefixes).
        prefix_chains = self._chains(word, flags, self.prefixes, complex_pfx)
        for form, pfx in prefix_chains:
            if self.valid(pfx, ()):
                results.add(form)
        # Prefix + suffix(es) where both are enabled by the stem or by each
        # other's continuation classes.  The suffixes are applied first and
        # the prefix condition is checked on the suffixed form, as hunspell
        # does when it strips the prefix first.
        for form, sfx in suffix_chains:
            if not all(r.cross for r in sfx):
                continue
            enabled = set(flags)
            for r in sfx:
                enabled |= r.cont
            for pflag in enabled:
                for p in self.prefixes.get(pflag, ()):
                    if p.cross and p.applies(form, fullstrip) and self.valid((p,), sfx):
                        results.add(p.apply(form))
                        if complex_pfx:
                            self._outer_prefixes(p.apply(form), (p,), sfx, results)
        # Suffixes enabled only by a prefix's continuation class.
        for pflag in flags:
            for p in self.prefixes.get(pflag, ()):
                if not p.cross or not p.cont:
                    continue
                extra = [f for f in p.cont if f in self.suffixes]
                if not extra:
                    continue
                for form, sfx in self._chains(word, extra, self.suffixes, not complex_pfx):
                    if all(r.cross for r in sfx) and p.applies(form, fullstrip) and self.valid((p,), sfx):
                        results.add(p.apply(form))
        return results

    def _outer_prefixes(
        self, form: str, pfx: tuple[AffixRule, ...], sfx: tuple[AffixRule, ...], results: set[str]
    ) -> None:
        for flag2 in pfx[0].cont:
            for p2 in self.prefixes.get(flag2, ()):
                if p2.cross and p2.applies(form, self.aff.fullstrip) and self.valid((pfx[0], p2), sfx):
                    results.add(p2.apply(form))


def expand_entry(entry: DicEntry, aff: AffixData, *, affix_filter: AffixFilter | None = None) -> set[str]:
    """All stand-alone surface forms of one dictionary entry."""
    return _Expander(aff, affix_filter).expand(entry)


def expand(
    aff_text: str,
    dic_text: str,
    *,
    affix_filter: AffixFilter | None = None,
) -> Iterator[tuple[str, DicEntry]]:
    """Yield ``(surface_form, entry)`` for every form of every ``.dic`` entry.

    ``entry`` is the :class:`DicEntry` of the stem the form derives from; its
    ``morph`` attribute holds the stem's morphological fields (``po:nom``...).
    A form derivable from several entries is yielded once per entry.  Words
    listed with the ``FORBIDDENWORD`` flag are never yielded.

    ``affix_filter``, if given, is called on every affix rule; rules for which
    it returns False are ignored (a way to prune branches a caller would
    discard anyway, e.g. elided French prefixes ending in an apostrophe).
    """
    aff = parse_aff(aff_text)
    entries = parse_dic(dic_text, aff)
    yield from expand_entries(entries, aff, affix_filter=affix_filter)


def expand_entries(
    entries: Iterable[DicEntry], aff: AffixData, *, affix_filter: AffixFilter | None = None
) -> Iterator[tuple[str, DicEntry]]:
    """Like :func:`expand`, for already parsed data."""
    entries = list(entries)
    forbidden = {e.word for e in entries if aff.forbiddenword is not None and aff.forbiddenword in e.flags}
    expander = _Expander(aff, affix_filter)
    for entry in entries:
        for form in sorted(expander.expand(entry)):
            if form not in forbidden:
                yield form, entry
