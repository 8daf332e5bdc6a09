"""Finding, reading and caching word lists (I/O side of ``core.lexicon``).

A list is a plain text file, one word per line, any case, accents allowed,
optionally gzip-compressed. ``fr`` and ``en`` name the bundled open lists in
``lexicons/``; anything else is a path. The compiled form is cached in a cache
folder under the sha256 of the file's bytes, so a restart reads it back without
rebuilding, and a changed list gets a new cache entry.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from core.errors import CorruptLexiconError, InvalidWordError
from core.lexicon import Lexicon, normalise_word

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ("fr", "en")


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


def chat_list_spec(name: str) -> str:
    """The list a chat may select: ``fr``, ``en`` or a file of the operator's folder, by name only.

    Chat users never name paths: a channel admin must not make the bot read files of its host.
    """
    wanted = name.strip()
    if wanted.lower() in BUNDLED:
        return wanted.lower()
    folder = lists_dir()
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    for path in files:
        if wanted in (path.name, path.name.split(".")[0]) and "/" not in wanted and "\\" not in wanted:
            return str(path)
    raise UnknownListError(wanted, BUNDLED + tuple(p.name.split(".")[0] for p in files))


def resolve(spec: str) -> Path:
    """The file a list name or path stands for."""
    if spec in BUNDLED:
        sources = json.loads((lexicon_dir() / "SOURCES.json").read_text(encoding="utf-8"))
        return lexicon_dir() / str(sources[spec]["file"])
    return Path(spec).expanduser()


def read_words(path: Path, raw: bytes) -> list[str]:
    """Every word of a list file's bytes, normalised; any bad line is an error naming it."""
    if raw[:2] == b"\x1f\x8b":
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
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped:
            continue
        try:
            words.append(normalise_word(stripped))
        except InvalidWordError:
            raise WordListError(path, number, f"{stripped[:40]!r} is not a word (2-15 letters)") from None
    if not words:
        raise WordListError(path, 0, "empty word list")
    return words


@dataclass(frozen=True)
class LexiconInfo:
    """What ``arbitre lexicon info`` shows."""

    name: str
    words: int
    sha256: str
    licence: str
    path: Path
    cache: Path


def _cache_path(digest: str) -> Path:
    return cache_dir() / f"{digest}.lex"


def _licence(spec: str) -> str:
    if spec in BUNDLED:
        sources = json.loads((lexicon_dir() / "SOURCES.json").read_text(encoding="utf-8"))
        return str(sources[spec]["license"])
    return "user-supplied (see the list's own licence)"


def load(spec: str) -> tuple[Lexicon, LexiconInfo]:
    """The compiled lexicon for ``fr``, ``en`` or a path; from the cache when it is there and sound."""
    path = resolve(spec)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise WordListError(path, 0, error.strerror or str(error)) from None
    digest = hashlib.sha256(raw).hexdigest()
    name = spec if spec in BUNDLED else path.name
    cache = _cache_path(digest)
    lexicon: Lexicon | None = None
    if cache.exists():
        try:
            lexicon = Lexicon.from_bytes(cache.read_bytes(), name=name)
        except (CorruptLexiconError, OSError):
            lexicon = None  # rebuilt below, never trusted
    if lexicon is None:
        lexicon = Lexicon.from_words(read_words(path, raw), name=name)
        _write_atomically(cache, lexicon.to_bytes())
    return lexicon, LexiconInfo(name, len(lexicon), digest, _licence(spec), path, cache)


def _write_atomically(target: Path, data: bytes) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".tmp") as handle:
            handle.write(data)
            temporary = Path(handle.name)
        os.replace(temporary, target)
    except OSError:
        pass  # a read-only cache only costs a rebuild next time


class LexiconRegistry:
    """Loads each list once per process; thread-safe."""

    def __init__(self) -> None:
        self._loaded: dict[str, tuple[Lexicon, LexiconInfo]] = {}
        self._lock = threading.Lock()

    def get(self, spec: str) -> Lexicon:
        return self.load(spec)[0]

    def load(self, spec: str) -> tuple[Lexicon, LexiconInfo]:
        with self._lock:
            if spec not in self._loaded:
                self._loaded[spec] = load(spec)
            return self._loaded[spec]
