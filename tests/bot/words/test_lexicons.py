"""Word lists on disk: bundled lists, user lists, the compiled cache, bad files, `arbitre check`."""

from __future__ import annotations

import gzip
import json
import logging
import mmap
import os
import shutil
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

import bot.words.loader as lexicons_module
import core.lexicon as core_lexicon
import core.lexicon_format as lexicon_format
from bot.words.loader import LexiconRegistry, ListPreparingError, Loaded, WordListError, cache_dir, load
from tests.paths import REPO_ROOT
from tests.ready_lists import link_compiled_lists

FRENCH_VALID = "VAGUE AVIONS ECOLES CHANTEZ FACADES HUES JOUET OSE QI WU KIF ZEN CHANTASSIONS".split()


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ARBITRE_CACHE", str(cache))
    return cache


@pytest.fixture(scope="module")
def french() -> core_lexicon.Lexicon:
    return load("fr")[0]


@pytest.mark.parametrize("word", FRENCH_VALID + ["écoles", "Façades"])
def test_french_words(word: str, french: core_lexicon.Lexicon) -> None:
    assert word in french


@pytest.mark.parametrize("word", ["OK", "ZZZQ", "VAGUEX", "XYZZY"])
def test_french_non_words(word: str, french: core_lexicon.Lexicon) -> None:
    assert word not in french


def test_english_words(private_cache: Path) -> None:
    link_compiled_lists(private_cache / "lexicons")  # compiled once for the run (3 to 9 s), not again here
    english, info = load("en")
    for word in ["ZAX", "CWM", "OXYPHENBUTAZONE"]:
        assert word in english
    assert "QXZ" not in english
    sources = json.loads((REPO_ROOT / "lexicons" / "SOURCES.json").read_text())
    assert info.words == sources["en"]["words"]
    assert info.licence == "LicenseRef-Public-Domain"


def test_user_list_gz_accents_any_case(tmp_path: Path) -> None:
    path = tmp_path / "club.txt.gz"
    path.write_bytes(gzip.compress("Été\nzèbre\nKIWI\n\nchat\n".encode()))
    lexicon, info = load(str(path))
    assert {"ETE", "ZEBRE", "KIWI", "CHAT"} <= set(lexicon.words())
    assert len(lexicon) == 4
    assert info.name == "club.txt.gz"
    assert "user-supplied" in info.licence


def test_cache_is_used_then_invalidated_when_the_list_changes(tmp_path: Path, private_cache: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("CHAT\nCHIEN\n")
    first, info = load(str(path))
    assert info.cache.exists()
    assert info.cache.parent == private_cache / "lexicons"
    stamp = info.cache.stat().st_mtime_ns
    again, info_again = load(str(path))
    assert info_again.cache == info.cache
    assert info.cache.stat().st_mtime_ns == stamp
    path.write_text("CHAT\nCHIEN\nLOUP\n")
    changed, info_changed = load(str(path))
    assert info_changed.cache != info.cache
    assert "LOUP" in changed
    assert len(changed) == 3


def test_corrupted_cache_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("CHAT\nCHIEN\n")
    _, info = load(str(path))
    data = bytearray(info.cache.read_bytes())
    data[-5] ^= 0xFF
    info.cache.write_bytes(bytes(data))
    lexicon, _ = load(str(path))
    assert "CHAT" in lexicon
    assert "CHIEN" in lexicon
    assert len(lexicon) == 2
    info.cache.write_bytes(b"garbage")
    assert len(load(str(path))[0]) == 2


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        (b"", 0, "empty"),
        (b"\n\n  \n", 0, "empty"),
        (b"\x00\x01\x02binary\x00", 0, "binary"),
        (b"CHAT\nCHIEN\nPOMME DE TERRE\n", 3, "not a word"),
        (b"CHAT\nA\n", 2, "not a word"),
        (b"CHAT\nL'EAU\n", 2, "not a word"),
        (b"\x1f\x8bnot really gzip", 0, "gzip"),
    ],
)
def test_bad_list_files(tmp_path: Path, content: bytes, line: int, reason: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(WordListError) as info:
        load(str(path))
    assert info.value.line == line
    assert reason in str(info.value)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(WordListError):
        load(str(tmp_path / "nope.txt"))


WARM_CACHE = cache_dir().parent  # where the session's bundled lists are compiled (read before any test's own)


def arbitre(*args: str, warm: bool = False) -> subprocess.CompletedProcess[str]:
    """``arbitre ARGS`` in a fresh interpreter; ``warm``: on the session's cache, where the bundled lists are
    already compiled (a test's private cache would compile the French list again, seconds each time)."""
    env = {**os.environ, "ARBITRE_CACHE": str(WARM_CACHE)} if warm else None
    command = [sys.executable, "-m", "bot", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def test_check_cli() -> None:
    ok = arbitre("check", "--json", "--lexicon", "fr", "VAGUE", "écoles", warm=True)
    assert ok.returncode == 0
    assert json.loads(ok.stdout) == {"lexicon": "fr", "words": {"VAGUE": True, "ECOLES": True}}
    mixed = arbitre("check", "--lang", "en", "VAGUE", "OK", warm=True)
    assert mixed.returncode == 1
    assert mixed.stdout.splitlines() == ["VAGUE valid", "OK not valid"]
    french = arbitre("check", "OK", warm=True)
    assert french.stdout.strip() == "OK non valable"


def test_lexicon_info_and_build_cli(tmp_path: Path) -> None:
    info = json.loads(arbitre("lexicon", "info", "fr", "--json", warm=True).stdout)
    assert info["name"] == "fr"
    assert info["licence"] == "MPL-2.0"
    assert 400_000 < info["words"] < 410_000
    path = tmp_path / "mine.txt"
    path.write_text("chat\nchien\n")
    built = arbitre("lexicon", "build", str(path))
    assert built.returncode == 0
    assert "2 words" in built.stdout
    other = tmp_path / "other.txt"
    other.write_text("loup\nours\nrenard\n")
    both = arbitre("lexicon", "build", str(path), str(other))
    assert both.returncode == 0
    assert ["2 words", "3 words"] == [line.split(": ")[1][:7] for line in both.stdout.splitlines()]
    bad = tmp_path / "bad.txt"
    bad.write_text("chat\n123\n")
    failed = arbitre("check", "--lexicon", str(bad), "CHAT")
    assert failed.returncode == 2
    assert f"{bad}:2" in failed.stderr


# --- the compiled cache: whose list it is, damaged or crafted files, what is at its path ---


def _small_list(tmp_path: Path, name: str, words: str) -> Path:
    path = tmp_path / name
    path.write_text(words)
    return path


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_cache_of_another_list_copied_over_is_rebuilt(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = _small_list(tmp_path, "a.txt", "CHAT\nCHIEN\n")
    second = _small_list(tmp_path, "b.txt", "LOUP\nRENARD\nOURS\n")
    _, info_a = load(str(first))
    _, info_b = load(str(second))
    info_b.cache.write_bytes(info_a.cache.read_bytes())  # a valid cache, of the other list
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(second))
    assert sorted(lexicon.words()) == ["LOUP", "OURS", "RENARD"]
    assert "built from another list" in caplog.text
    assert str(info_b.cache) in caplog.text
    again, _ = load(str(second))  # the rebuilt file is the right one now
    assert len(again) == 3
    assert _leftovers(info_b.cache.parent) == []


def _crafted(cache: Path) -> bytes:
    """The cache with the root's first child pointing far outside the table, checksum recomputed."""
    data = bytearray(cache.read_bytes())
    start = lexicons_module._CACHE_HEADER.size
    header = lexicon_format._HEADER
    fields = header.unpack_from(data, start)
    name_len, root = fields[3], fields[5]
    table_at = start + header.size + 4 + name_len + (-name_len % 4)
    struct.pack_into("<I", data, table_at + 4 * (root + 2), 10**8)
    crc = zlib.crc32(bytes(data[start + header.size + 4 :]), zlib.crc32(bytes(data[start : start + header.size])))
    struct.pack_into("<I", data, start + header.size, crc)
    return bytes(data)


def test_crafted_cache_with_a_valid_checksum_is_refused_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path))
    assert _stamp(info.cache).exists()  # the stamp of the file compiled here does not vouch for what replaces it
    crafted = _crafted(info.cache)
    payload = crafted[lexicons_module._CACHE_HEADER.size :]
    damaged = core_lexicon.Lexicon.from_bytes(payload)  # the checksum is valid: it loads...
    with pytest.raises(IndexError):
        "CHAT" in damaged  # noqa: B015 - ...and every lookup fails
    info.cache.write_bytes(crafted)
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(path))
    assert "CHAT" in lexicon
    assert "VAGUE" in lexicon
    assert "LOUP" not in lexicon
    assert "is not an earlier node" in caplog.text
    assert info.cache.read_bytes() != crafted


def _stamp(cache: Path) -> Path:
    return cache.with_name(cache.name + ".verified")


def _stamp_of(cache: Path) -> bytes:
    """The stamp that vouches for the file at ``cache`` as it is now."""
    return lexicons_module.verified_stamp(cache.stat(), cache.read_bytes()[:128])


@pytest.mark.parametrize("copy", [True, False])
def test_a_cache_is_stamped_when_written_and_verified_when_its_stamp_is_gone(tmp_path: Path, copy: bool) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path), copy=copy)
    stamp = _stamp(info.cache)
    assert stamp.read_bytes() == _stamp_of(info.cache)
    written = stamp.stat()
    lexicon, _ = load(str(path), copy=copy)  # vouched for: read as it is, the stamp left alone
    assert "VAGUE" in lexicon
    assert stamp.stat().st_mtime_ns == written.st_mtime_ns
    stamp.unlink()
    lexicon, _ = load(str(path), copy=copy)  # verified, then stamped again
    assert "CHIEN" in lexicon
    assert stamp.read_bytes() == _stamp_of(info.cache)
    assert _leftovers(info.cache.parent) == []


def test_the_stamp_is_what_spares_the_graph_check(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A stamp forged for a crafted file makes it trusted: the stamp guards against accidents and foreign
    files, not against whoever may write the cache folder (documented in bot/words/loader.py)."""
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path))
    info.cache.write_bytes(_crafted(info.cache))
    _stamp(info.cache).write_bytes(_stamp_of(info.cache))
    trusted, _ = load(str(path))
    with pytest.raises(IndexError):
        "CHAT" in trusted  # noqa: B015 - not verified: its stamp vouched for it
    _stamp(info.cache).unlink()
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        checked, _ = load(str(path))
    assert "CHAT" in checked
    assert "is not an earlier node" in caplog.text


def test_a_cache_rewritten_in_place_with_its_old_times_is_verified_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path))
    before = info.cache.stat()
    info.cache.write_bytes(_crafted(info.cache))
    os.utime(info.cache, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same modification time
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(path))
    assert "CHAT" in lexicon
    assert "is not an earlier node" in caplog.text
    assert _stamp(info.cache).read_bytes() == _stamp_of(info.cache)  # the rebuilt file's


def test_a_cache_copied_in_with_its_stamp_is_verified_again(
    tmp_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path))
    info.cache.write_bytes(_crafted(info.cache))
    _stamp(info.cache).write_bytes(_stamp_of(info.cache))  # vouches for the crafted file, where it is
    elsewhere = tmp_path / "other-cache"
    (elsewhere / "lexicons").mkdir(parents=True)
    for source in (info.cache, _stamp(info.cache)):
        shutil.copy2(source, elsewhere / "lexicons" / source.name)  # times kept; another file all the same
    monkeypatch.setenv("ARBITRE_CACHE", str(elsewhere))
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, copied = load(str(path))
    assert copied.cache.parent == elsewhere / "lexicons"
    assert "CHAT" in lexicon
    assert "is not an earlier node" in caplog.text


def test_a_stamp_that_cannot_be_written_costs_a_check_and_no_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n")
    _, info = load(str(path))
    _stamp(info.cache).unlink()
    _stamp(info.cache).mkdir()  # a folder where the stamp goes
    with caplog.at_level(logging.DEBUG, logger="arbitre.lexicons"):
        for _ in range(2):
            lexicon, _ = load(str(path))
            assert len(lexicon) == 2
    assert [r.levelno for r in caplog.records] == [logging.DEBUG] * 2  # "is verified again next time"
    assert "verified again next time" in caplog.text
    assert _stamp(info.cache).is_dir()
    assert _leftovers(info.cache.parent) == []


@pytest.mark.skipif(sys.byteorder != "little", reason="big-endian hosts copy the arrays to swap them")
def test_a_lexicon_read_without_copy_stays_in_the_mapped_file(tmp_path: Path) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    copied, _ = load(str(path))
    mapped, _ = load(str(path), copy=False)
    assert isinstance(mapped.table, memoryview)
    assert not isinstance(copied.table, memoryview)
    assert list(mapped.words()) == list(copied.words()) == ["CHAT", "CHIEN", "VAGUE"]


@pytest.mark.parametrize("copy", [True, False])
def test_a_file_system_that_cannot_map_files_reads_the_cache_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, copy: bool
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\nVAGUE\n")
    _, info = load(str(path))
    written = info.cache.stat().st_mtime_ns

    def cannot_map(*args: object, **kwargs: object) -> None:
        raise OSError(19, "No such device")  # what mmap raises where the file system cannot map

    monkeypatch.setattr(mmap, "mmap", cannot_map)
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(path), copy=copy)
    assert list(lexicon.words()) == ["CHAT", "CHIEN", "VAGUE"]
    assert caplog.text == ""
    assert info.cache.stat().st_mtime_ns == written  # read, not rebuilt


def test_cache_of_another_format_version_is_rebuilt(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n")
    _, info = load(str(path))
    data = bytearray(info.cache.read_bytes())
    struct.pack_into("<H", data, 10, lexicon_format.FORMAT_VERSION - 1)
    info.cache.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(path))
    assert len(lexicon) == 2
    assert f"this build reads {lexicon_format.FORMAT_VERSION}" in caplog.text


def test_directory_at_the_cache_path_never_leaks_a_temporary_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n")
    _, info = load(str(path))
    info.cache.unlink()
    info.cache.mkdir()
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        for _ in range(3):
            lexicon, _ = load(str(path))
            assert len(lexicon) == 2
    assert info.cache.is_dir()
    assert _leftovers(info.cache.parent) == []
    assert "not a regular file" in caplog.text


def test_unwritable_cache_folder_is_logged_and_leaves_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, private_cache: Path
) -> None:
    private_cache.mkdir(parents=True)
    (private_cache / "lexicons").write_text("a file where the folder should be")
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n")
    with caplog.at_level(logging.WARNING, logger="arbitre.lexicons"):
        lexicon, _ = load(str(path))
    assert len(lexicon) == 2
    assert "could not be written" in caplog.text


# --- the registry: lists compiled in the background, never blocking a ready list ---


class GatedLoader:
    """The real ``load``, held back for the specs in ``held`` until ``release``."""

    def __init__(self, held: set[str]) -> None:
        self.held = held
        self.gate = threading.Event()
        self.started = threading.Event()

    def __call__(self, spec: str) -> Loaded:
        if spec in self.held:
            self.started.set()
            assert self.gate.wait(timeout=60)
        return load(spec)


def test_a_list_being_compiled_never_blocks_a_ready_list(tmp_path: Path) -> None:
    slow = str(_small_list(tmp_path, "slow.txt", "LOUP\nOURS\n"))
    fast = str(_small_list(tmp_path, "fast.txt", "CHAT\nCHIEN\n"))
    loader = GatedLoader({slow})
    registry = LexiconRegistry(loader)
    registry.prepare([fast]).join(timeout=60)
    assert registry.is_ready(fast)
    worker = registry.prepare([slow])
    assert loader.started.wait(timeout=60)
    answers: list[core_lexicon.Lexicon] = []

    def ask() -> None:
        answers.append(registry.ready(fast))
        answers.append(registry.get(fast))

    other = threading.Thread(target=ask)
    other.start()
    other.join(timeout=10)
    assert not other.is_alive()
    assert len(answers) == 2
    assert "CHAT" in answers[0]
    with pytest.raises(ListPreparingError) as preparing:
        registry.ready(slow)
    assert preparing.value.name == slow
    assert preparing.value.expected_seconds >= 1
    assert "being prepared" in str(preparing.value)
    loader.gate.set()
    worker.join(timeout=60)
    assert "OURS" in registry.ready(slow)


def test_ready_starts_a_list_nobody_prepared_and_get_waits_for_it(tmp_path: Path) -> None:
    path = str(_small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n"))
    loader = GatedLoader({path})
    registry = LexiconRegistry(loader)
    with pytest.raises(ListPreparingError):
        registry.ready(path)
    assert loader.started.wait(timeout=60)
    waited: list[core_lexicon.Lexicon] = []
    waiter = threading.Thread(target=lambda: waited.append(registry.get(path)))
    waiter.start()
    loader.gate.set()
    waiter.join(timeout=60)
    assert len(waited) == 1
    assert "CHIEN" in waited[0]
    assert registry.ready(path) is waited[0]


def test_a_list_that_fails_to_load_raises_its_error_to_every_caller(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("chat\n123\n")
    registry = LexiconRegistry()
    registry.prepare([str(bad)]).join(timeout=60)
    for ask in (registry.ready, registry.get):
        with pytest.raises(WordListError) as info:
            ask(str(bad))
        assert info.value.line == 2


@pytest.mark.parametrize(
    ("list_bytes", "gzipped", "cache_bytes", "low", "high"),
    [
        (965_138, True, None, 7.0, 10.0),  # the bundled French list, compiled (7.7 s measured)
        (4_400_000, False, None, 7.0, 10.0),  # the same as plain text
        (3_093_344, True, None, 25.0, 30.0),  # the bundled Italian list (27.1 s measured)
        (965_138, True, 24_508_128, 0.5, 1.0),  # read back from its cache: at least 1 s is said
        (2_000, False, None, 1.0, 1.0),
    ],
)
def test_load_estimate(list_bytes: int, gzipped: bool, cache_bytes: int | None, low: float, high: float) -> None:
    assert low <= lexicons_module.load_estimate(list_bytes, gzipped, cache_bytes) <= high
    assert lexicons_module.load_estimate(list_bytes, gzipped, cache_bytes) >= 1.0


def test_expected_load_seconds_of_files(tmp_path: Path) -> None:
    path = _small_list(tmp_path, "list.txt", "CHAT\nCHIEN\n")
    assert lexicons_module.expected_load_seconds(str(path)) == 1.0
    load(str(path))
    assert lexicons_module.expected_load_seconds(str(path)) == 1.0
    assert lexicons_module.expected_load_seconds(str(tmp_path / "missing.txt")) == 5.0
