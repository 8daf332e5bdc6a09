"""Finding, reading and caching word lists (I/O side of ``core.lexicon``).

A list is a plain text file, one word per line, any case, accents allowed, optionally gzip-compressed.
The names of ``lexicons/SOURCES.json`` (``fr``, ``en``...) are the bundled open lists; anything else is a
path. A list is compiled in the tiles of an edition (``core.alphabet``): a bundled list in its own
edition's (the entry's ``edition``, else the edition of its name, else A-Z), a path in A-Z, unless its
name says another edition (``list_key``: ``fr#edition-es``). The compiled form is cached under the
sha256 of the file's bytes, and of the alphabet when it is not A-Z: a restart reads it back, a changed
list gets a new entry.

A cache file starts with its own header: ``ARBCACHE``, the cache layout version and
the compiled format version (u16 each), then the raw sha256 of the list it was built
from. A file whose header names another list or another format, whose bytes are
damaged, or whose graph is not well formed is never used: the list is rebuilt and
the file replaced atomically (written aside, then renamed; the temporary file is
removed whatever happens), with one log line saying why.

Every read checks the headers and the checksum of the whole file. Checking that the
graph is well formed (``Lexicon.verify``, about 0.4 s for the French list) is done once
per file: a verified-stamp beside it (``NAME.lex.verified``) records the file it vouches
for, by device, inode, size, modification and change times, and a hash of its first
bytes (both headers, so the checksum of everything else). It is written when Arbitre
writes the cache file, or after a read that verified it. A file copied in, replaced
or written in place no longer matches its stamp (its inode, change time or checksum
differ), so it is verified again before use: a foreign or crafted cache is never
trusted. The stamp guards against accidents and foreign files, not against someone
who may write the cache folder (who could write the stamp as well).

Cache files are memory-mapped: ``load(spec, copy=False)`` keeps the lexicon's arrays as
views of the mapping (nothing copied: what a one-shot command such as ``arbitre
check`` wants), while the default copies them into the process (what a long-running
bot wants: a cache file changed on disk later cannot affect it).

``LexiconRegistry`` (``bot.words.registry``) keeps the compiled lists of a process.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import re
import stat
import struct
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.alphabet import LATIN, Alphabet
from core.edition import EDITIONS
from core.errors_lexicon import CorruptLexiconError, InvalidWordError
from core.lexicon import MAX_WORD, MIN_WORD, Lexicon, normalise_word
from core.lexicon_format import FORMAT_VERSION

from .registry import (  # the registry's names, as this module has always offered them
    HOUSE_MARK,
    MAX_HOUSE_LISTS,
    LexiconInfo,
    ListPreparingError,
    ListRegistry,
    Loaded,
)

if TYPE_CHECKING:  # imported where used: `arbitre check` starts without them
    import logging

LOGGER = "arbitre.lexicons"


def _log() -> logging.Logger:
    """This module's logger (``logging`` is imported on the first message)."""
    import logging

    return logging.getLogger(LOGGER)


PROJECT_ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ("fr", "en")  # the bundled lists every start prepares; ``bundled()`` names them all
EDITION_MARK = "#edition-"  # in a list's name: the edition whose tiles it is compiled in (``list_key``)

__all__ = ["HOUSE_MARK", "MAX_HOUSE_LISTS", "LexiconInfo", "LexiconRegistry", "ListPreparingError", "Loaded"]


class WordListError(Exception):
    """A word list file that cannot be used, with the file and line at fault."""

    def __init__(self, path: Path, line: int, reason: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


def lexicon_dir() -> Path:
    """Where the bundled lists are (``ARBITRE_LEXICONS`` overrides)."""
    return Path(os.environ.get("ARBITRE_LEXICONS") or PROJECT_ROOT / "lexicons")


def cache_dir() -> Path:
    """Where compiled lists are cached (``ARBITRE_CACHE`` overrides)."""
    default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "arbitre"
    return Path(os.environ.get("ARBITRE_CACHE") or default) / "lexicons"


def lists_dir() -> Path:
    """The operator's folder of word lists that chat users may choose by name (``ARBITRE_LISTS``)."""
    default = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "arbitre" / "lists"
    return Path(os.environ.get("ARBITRE_LISTS") or default)


class UnknownListError(Exception):
    """A list name chosen in a chat that is neither bundled nor in the operator's folder."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown word list {name!r}; known: {', '.join(known)}")
        self.name = name
        self.known = known


@lru_cache(maxsize=8)
def _sources(folder: str) -> dict[str, Any]:
    """The entries of ``SOURCES.json`` in ``folder`` (none when it cannot be read)."""
    try:
        data = json.loads((Path(folder) / "SOURCES.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def bundled() -> tuple[str, ...]:
    """The names of the bundled lists (``lexicons/SOURCES.json``): ``fr``, ``en`` and any other."""
    return tuple(_sources(str(lexicon_dir())))


def bundled_words(spec: str) -> int | None:
    """How many words the bundled list ``spec`` holds (None: not a bundled list)."""
    entry = _sources(str(lexicon_dir())).get(spec)
    words = entry.get("words") if isinstance(entry, dict) else None
    return words if isinstance(words, int) else None


def list_edition(spec: str) -> str | None:
    """The code of the edition a list is compiled for by default: a bundled list's entry says (``edition``),
    else a bundled list named as an edition is that edition's; None (A-Z) for any other list."""
    entry = _sources(str(lexicon_dir())).get(spec)
    if not isinstance(entry, dict):
        return None
    code = str(entry.get("edition", spec))
    return code if code in EDITIONS else None


def _alphabet_of(code: str | None) -> Alphabet:
    edition = EDITIONS.get(code) if code is not None else None
    return edition.alphabet if edition is not None else LATIN


def list_key(spec: str, edition: str) -> str:
    """The name of list ``spec`` compiled in the tiles of the edition ``edition`` (a code): ``spec`` itself
    when they are the tiles it is compiled in by default, else ``spec#edition-CODE``."""
    if _alphabet_of(edition) == _alphabet_of(list_edition(spec)):
        return spec
    return f"{spec}{EDITION_MARK}{edition}"


def split_key(key: str) -> tuple[str, Alphabet]:
    """The list a ``list_key`` name stands for and the alphabet it is compiled in."""
    spec, mark, code = key.partition(EDITION_MARK)
    return spec, _alphabet_of(code if mark else list_edition(spec))


def chat_list_spec(name: str) -> str:
    """The list a chat may select: a bundled list or a file of the operator's folder, by name only.

    Chat users never name paths: a channel admin must not make the bot read files of its host.
    """
    wanted = name.strip()
    if wanted.lower() in bundled():
        return wanted.lower()
    folder = lists_dir()
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    for path in files:
        if wanted in (path.name, path.name.split(".")[0]) and "/" not in wanted and "\\" not in wanted:
            return str(path)
    raise UnknownListError(wanted, bundled() + tuple(p.name.split(".")[0] for p in files))


def resolve(spec: str) -> Path:
    """The file a list name or path stands for."""
    if spec in bundled():
        return lexicon_dir() / str(_sources(str(lexicon_dir()))[spec]["file"])
    return Path(spec).expanduser()


_LINE = re.compile(r"[^\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")  # what str.splitlines cuts at


def read_words(path: Path, raw: bytes, alphabet: Alphabet = LATIN) -> list[str]:
    """Every word of a list file's bytes, normalised to the alphabet's tiles; any bad line is an error naming it."""
    if raw[:2] == b"\x1f\x8b":
        import gzip

        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as error:
            raise WordListError(path, 0, f"damaged gzip file ({error})") from None
    if b"\x00" in raw[:65536]:
        raise WordListError(path, 0, "binary file, not a text word list")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
        if any(0x80 <= ord(c) < 0xA0 for c in text):
            raise WordListError(path, 0, "not a text word list (unknown encoding)") from None
    words: list[str] = []
    plain = alphabet.plain
    # line by line, never all the lines at once: a list of 3 million lines costs more than the words kept
    for found in _LINE.finditer(text):
        stripped = found.group().strip().lstrip("\ufeff")
        if not stripped:
            continue
        stored = MIN_WORD <= len(stripped) <= MAX_WORD and stripped.isascii() and stripped.isalpha()
        if plain and stored and stripped.isupper():
            words.append(stripped)  # already in stored form
            continue
        try:
            words.append(normalise_word(stripped, alphabet))
        except InvalidWordError:
            number = len(text[: found.start()].splitlines()) + 1
            raise WordListError(path, number, f"{stripped[:40]!r} is not a word (2-15 letters)") from None
    if not words:
        raise WordListError(path, 0, "empty word list")
    return words


CACHE_MAGIC = b"ARBCACHE"
CACHE_VERSION = 1
_CACHE_HEADER = struct.Struct("<8sHH32s")


def alphabet_digest(alphabet: Alphabet) -> str:
    """The sha256 of an alphabet's labels and folds (what a list compiled in it depends on)."""
    spec = {"labels": list(alphabet.labels), "fold": dict(sorted(alphabet.folds.items()))}
    return hashlib.sha256(json.dumps(spec, ensure_ascii=False).encode("utf-8")).hexdigest()


def _cache_path(digest: str, alphabet: Alphabet = LATIN) -> Path:
    """``SHA256.vC-F.lex`` for a list compiled in A-Z, ``SHA256.ALPHABET.vC-F.lex`` in other tiles (``C``, ``F``:
    the cache's and the compiled format's versions, so that two versions of Arbitre sharing a cache folder
    never rebuild each other's files)."""
    version = f"v{CACHE_VERSION}-{FORMAT_VERSION}"
    if alphabet == LATIN:
        return cache_dir() / f"{digest}.{version}.lex"
    return cache_dir() / f"{digest}.{alphabet_digest(alphabet)[:16]}.{version}.lex"


def _licence(spec: str) -> str:
    if spec in bundled():
        return str(_sources(str(lexicon_dir()))[spec]["license"])
    return "user-supplied (see the list's own licence)"


def cache_bytes(lexicon: Lexicon, digest: str) -> bytes:
    """The cache file for ``lexicon`` compiled from the list whose sha256 is ``digest``."""
    return _CACHE_HEADER.pack(CACHE_MAGIC, CACHE_VERSION, FORMAT_VERSION, bytes.fromhex(digest)) + lexicon.to_bytes()


class StaleCacheError(Exception):
    """A cache file that cannot be used for a list, with the reason (logged, then rebuilt)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


_STAMP_HEAD = 128  # the first bytes of a cache file a stamp vouches for: both headers, checksum included
_STAMP_SUFFIX = ".verified"


def _stamp_path(cache: Path) -> Path:
    return cache.with_name(cache.name + _STAMP_SUFFIX)


def verified_stamp(status: os.stat_result, head: bytes) -> bytes:
    """The stamp of a verified cache file: which file (device, inode), as it was (size, modification and
    change times), with which headers (a hash of its first bytes ``head``)."""
    identity = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
    digest = hashlib.sha256(bytes(head[:_STAMP_HEAD])).hexdigest()
    text = f"arbitre verified cache {CACHE_VERSION}.{FORMAT_VERSION}\n{' '.join(map(str, identity))}\n{digest}\n"
    return text.encode("ascii")


def _is_stamped(cache: Path, status: os.stat_result, head: bytes) -> bool:
    """Whether the stamp beside ``cache`` vouches for the file with ``status`` and first bytes ``head``."""
    try:
        return _stamp_path(cache).read_bytes() == verified_stamp(status, head)
    except OSError:
        return False


def _write_stamp(cache: Path, status: os.stat_result, head: bytes) -> None:
    """Record that the cache file with ``status`` and first bytes ``head`` is verified (best effort)."""
    write_atomically(
        _stamp_path(cache), verified_stamp(status, head), failure="it is verified again next time", quiet=True
    )


def _same_file(before: os.stat_result, after: os.stat_result) -> bool:
    fields = ("st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns")
    return all(getattr(before, field) == getattr(after, field) for field in fields)


def read_cache(path: Path, digest: str, name: str, *, copy: bool = True, alphabet: Alphabet = LATIN) -> Lexicon:
    """The lexicon cached at ``path`` for the list whose sha256 is ``digest``, compiled in ``alphabet``.

    Raises StaleCacheError when the file is not a regular file, belongs to another
    list, format or alphabet, is damaged, or holds a graph that is not well formed. The graph
    is verified unless the file's verified-stamp vouches for it; a file that passes
    is stamped. ``copy=False`` leaves the lexicon's arrays in the file's mapping.
    """
    if not path.is_file():
        raise StaleCacheError(path, "not a regular file")
    try:
        with path.open("rb") as handle:
            status = os.fstat(handle.fileno())
            if not stat.S_ISREG(status.st_mode):
                raise StaleCacheError(path, "not a regular file")
            if status.st_size < _CACHE_HEADER.size:
                raise StaleCacheError(path, "shorter than a cache header")
            mapping: mmap.mmap | bytes
            try:
                mapping = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):  # a file system that cannot map files: read it whole
                mapping = handle.read()
    except OSError as error:
        raise StaleCacheError(path, f"unreadable ({error.strerror or error})") from None
    lexicon, reason, stamp = _read_mapping(mapping, status, digest, name, copy, path)
    if not isinstance(mapping, bytes) and (copy or lexicon is None):
        with contextlib.suppress(BufferError):  # views still held elsewhere: the mapping goes with them
            mapping.close()  # (at once, so that a stale file can be replaced on every system)
    if lexicon is None:
        raise StaleCacheError(path, reason)
    if lexicon.alphabet != alphabet:
        raise StaleCacheError(path, "compiled in other tiles")
    try:
        unchanged = _same_file(status, path.stat())
    except OSError:
        unchanged = False
    if not unchanged:
        raise StaleCacheError(path, "changed while it was read")
    if stamp is not None:
        _write_stamp(path, status, stamp)
    return lexicon


def _read_mapping(
    data: mmap.mmap | bytes, status: os.stat_result, digest: str, name: str, copy: bool, path: Path
) -> tuple[Lexicon | None, str, bytes | None]:
    """The lexicon in a mapped cache file, or None and why not; with the head to stamp when it was verified here.

    Raises nothing about the file's content, so that no traceback keeps views of the mapping alive.
    """
    magic, version, lexicon_format, list_digest = _CACHE_HEADER.unpack_from(data)
    if magic != CACHE_MAGIC or version != CACHE_VERSION:
        return None, "not a cache file of this version", None
    if lexicon_format != FORMAT_VERSION:
        return None, f"compiled format {lexicon_format}, this build reads {FORMAT_VERSION}", None
    if list_digest.hex() != digest:
        return None, f"built from another list (sha256 {list_digest.hex()[:12]}...)", None
    head = data[:_STAMP_HEAD]
    verify = not _is_stamped(path, status, head)
    try:
        lexicon = Lexicon.from_bytes(memoryview(data)[_CACHE_HEADER.size :], name=name, copy=copy)
        if verify:
            lexicon.verify()
    except CorruptLexiconError as error:
        reason = error.reason
    else:
        return lexicon, "", head if verify else None
    return None, reason, None


def load(spec: str, *, copy: bool = True) -> tuple[Lexicon, LexiconInfo]:
    """The compiled lexicon for a bundled list or a path (a ``list_key`` name: in an edition's tiles);
    from the cache when it is there and sound.

    A cache file that cannot be used is logged and replaced; a cache folder that
    cannot be written only costs a rebuild next time (logged too). ``copy=False``
    leaves a cached lexicon's arrays in the file's mapping (for one-shot commands).
    """
    spec, alphabet = split_key(spec)
    path = resolve(spec)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise WordListError(path, 0, error.strerror or str(error)) from None
    digest = hashlib.sha256(raw).hexdigest()
    name = spec if spec in bundled() else path.name
    cache = _cache_path(digest, alphabet)
    lexicon: Lexicon | None = None
    if os.path.lexists(cache):
        try:
            lexicon = read_cache(cache, digest, name, copy=copy, alphabet=alphabet)
        except StaleCacheError as error:
            _log().warning("word list %s: cache %s is %s; rebuilding it", name, cache, error.reason)
    if lexicon is None:
        lexicon = Lexicon.from_words(read_words(path, raw, alphabet), name=name, alphabet=alphabet)
        data = cache_bytes(lexicon, digest)
        if write_atomically(cache, data):
            try:
                _write_stamp(cache, cache.stat(), data)  # compiled here: nothing to verify
            except OSError:
                pass
    return lexicon, LexiconInfo(name, len(lexicon), digest, _licence(spec), path, cache)


def needs_compiling(spec: str) -> bool:
    """Whether ``load(spec)`` will compile the list: it can be read and has no cache file yet (a cache file
    there may still be found unsound by ``load``)."""
    spec, alphabet = split_key(spec)
    try:
        digest = hashlib.sha256(resolve(spec).read_bytes()).hexdigest()
    except OSError:
        return False  # nothing to compile: load says why
    return not os.path.lexists(_cache_path(digest, alphabet))


def _report(quiet: bool, message: str, *args: object) -> None:
    """Log a failure to write a cache file: a warning, or a debug line when ``quiet``."""
    import logging

    _log().log(logging.DEBUG if quiet else logging.WARNING, message, *args)


def write_atomically(
    target: Path, data: bytes, *, failure: str = "the list will be compiled again next time", quiet: bool = False
) -> bool:
    """Write ``data`` to ``target`` through a temporary file renamed over it; True when done.

    The temporary file never outlives the call. A directory (or anything but a regular
    file) at ``target`` is left alone; a failure is logged with its consequence
    (``failure``) as a warning (``quiet``: at debug level), not raised.
    """
    import tempfile

    temporary: Path | None = None
    try:
        if os.path.lexists(target) and not target.is_file():
            _report(quiet, "cache %s is not a regular file; %s", target, failure)
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".", suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            handle.write(data)
        os.replace(temporary, target)
        temporary = None
        return True
    except OSError as error:
        _report(quiet, "cache %s could not be written (%s); %s", target, error, failure)
        return False
    finally:
        if temporary is not None:
            try:
                temporary.unlink()
            except OSError:
                pass


# Rough costs measured on a 2-core machine, only used to tell users how long to wait: compiling
# (with reading and writing) took 7.7 s for fr (965 KB of gzip, 4.4 MB of text), 14.1 s for es (1.40 MB),
# 19.6 s for ca (1.90 MB), 5.5 s for de (0.60 MB), 27.1 s for it (3.09 MB) and 28.1 s for ro (2.98 MB);
# reading back and checking fr's 24.5 MB cache file about 0.6 s (the first time: once its stamp is
# written, reading it back takes a few ms).
_SECONDS_PER_GZIP_BYTE = 9e-6
_SECONDS_PER_TEXT_BYTE = 1.8e-6
_SECONDS_PER_CACHE_BYTE = 2.5e-8


def load_estimate(list_bytes: int, gzipped: bool, cache_bytes: int | None) -> float:
    """Seconds to load a list of ``list_bytes`` (gzip or text), read back from a cache
    file of ``cache_bytes`` when there is one; at least 1."""
    if cache_bytes is not None:
        return max(1.0, cache_bytes * _SECONDS_PER_CACHE_BYTE)
    return max(1.0, list_bytes * (_SECONDS_PER_GZIP_BYTE if gzipped else _SECONDS_PER_TEXT_BYTE))


def expected_load_seconds(spec: str) -> float:
    """A rough time to load a list (a bundled list or a path, a ``list_key`` name), from its file and cache sizes."""
    try:
        spec, alphabet = split_key(spec)
        path = resolve(spec)
        raw = path.read_bytes()
    except (OSError, KeyError, ValueError):
        return 5.0
    cache = _cache_path(hashlib.sha256(raw).hexdigest(), alphabet)
    cache_bytes = cache.stat().st_size if cache.is_file() else None
    return load_estimate(len(raw), raw[:2] == b"\x1f\x8b", cache_bytes)


class LexiconRegistry(ListRegistry):
    """Loads each list once per process (``load`` by default); thread-safe (``bot.words.registry``)."""

    def __init__(self, loader: Callable[[str], Loaded] = load) -> None:
        super().__init__(loader, expected_load_seconds)
