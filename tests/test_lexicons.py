"""Word lists on disk: bundled lists, user lists, the compiled cache, bad files, `arbitre check`."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.lexicons import WordListError, load

FRENCH_VALID = "VAGUE AVIONS ECOLES CHANTEZ FACADES HUES JOUET OSE QI WU KIF ZEN CHANTASSIONS".split()


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ARBITRE_CACHE", str(cache))
    return cache


@pytest.fixture(scope="module")
def french() -> object:
    return load("fr")[0]


@pytest.mark.parametrize("word", FRENCH_VALID + ["écoles", "Façades"])
def test_french_words(word: str, french: object) -> None:
    assert word in french  # type: ignore[operator]


@pytest.mark.parametrize("word", ["OK", "ZZZQ", "VAGUEX", "XYZZY"])
def test_french_non_words(word: str, french: object) -> None:
    assert word not in french  # type: ignore[operator]


def test_english_words() -> None:
    english, info = load("en")
    for word in ["ZAX", "CWM", "OXYPHENBUTAZONE"]:
        assert word in english
    assert "QXZ" not in english
    assert info.words == 168548 and info.licence == "LicenseRef-Public-Domain"


def test_user_list_gz_accents_any_case(tmp_path: Path) -> None:
    path = tmp_path / "club.txt.gz"
    path.write_bytes(gzip.compress("Été\nzèbre\nKIWI\n\nchat\n".encode()))
    lexicon, info = load(str(path))
    assert {"ETE", "ZEBRE", "KIWI", "CHAT"} <= set(lexicon.words()) and len(lexicon) == 4
    assert info.name == "club.txt.gz" and "user-supplied" in info.licence


def test_cache_is_used_then_invalidated_when_the_list_changes(tmp_path: Path, private_cache: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("CHAT\nCHIEN\n")
    first, info = load(str(path))
    assert info.cache.exists() and info.cache.parent == private_cache / "lexicons"
    stamp = info.cache.stat().st_mtime_ns
    again, info_again = load(str(path))
    assert info_again.cache == info.cache and info.cache.stat().st_mtime_ns == stamp  # not rebuilt
    path.write_text("CHAT\nCHIEN\nLOUP\n")
    changed, info_changed = load(str(path))
    assert info_changed.cache != info.cache and "LOUP" in changed and len(changed) == 3


def test_corrupted_cache_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("CHAT\nCHIEN\n")
    _, info = load(str(path))
    data = bytearray(info.cache.read_bytes())
    data[-5] ^= 0xFF
    info.cache.write_bytes(bytes(data))
    lexicon, _ = load(str(path))
    assert "CHAT" in lexicon and "CHIEN" in lexicon and len(lexicon) == 2
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
    assert info.value.line == line and reason in str(info.value) and str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(WordListError):
        load(str(tmp_path / "nope.txt"))


def arbitre(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120)


def test_check_cli() -> None:
    ok = arbitre("check", "--json", "--lexicon", "fr", "VAGUE", "écoles")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"lexicon": "fr", "words": {"VAGUE": True, "ECOLES": True}}
    mixed = arbitre("check", "--lang", "en", "VAGUE", "OK")
    assert mixed.returncode == 1 and mixed.stdout.splitlines() == ["VAGUE valid", "OK not valid"]
    french = arbitre("check", "OK")
    assert french.stdout.strip() == "OK non valable"


def test_lexicon_info_and_build_cli(tmp_path: Path) -> None:
    info = json.loads(arbitre("lexicon", "info", "fr", "--json").stdout)
    assert info["name"] == "fr" and info["licence"] == "MPL-2.0" and 400_000 < info["words"] < 410_000
    path = tmp_path / "mine.txt"
    path.write_text("chat\nchien\n")
    built = arbitre("lexicon", "build", str(path))
    assert built.returncode == 0 and "2 words" in built.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("chat\n123\n")
    failed = arbitre("check", "--lexicon", str(bad), "CHAT")
    assert failed.returncode == 2 and f"{bad}:2" in failed.stderr
