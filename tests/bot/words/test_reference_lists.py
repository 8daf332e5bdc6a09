"""The bundled lists against the published short-word reference sets, length by length.

The reference sets (tests/data/reference/, sources in PROVENANCE.md there) are the two-
and three-letter words of the official lists. Where a set is the whole list for its
length the bundled list must equal it; where it is a known subset, contain it.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from bot.words.loader import BUNDLED, load
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
REFERENCE = ROOT / "tests" / "data" / "reference"


@cache
def reference(name: str) -> frozenset[str]:
    lines = (REFERENCE / name).read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@cache
def bundled(lang: str, length: int) -> frozenset[str]:
    words = gzip.decompress((ROOT / "lexicons" / f"{lang}.txt.gz").read_bytes()).decode("ascii").split()
    return frozenset(w for w in words if len(w) == length)


# (bundled list, reference file, length, "exact" or "contains")
CASES = [
    ("fr", "fr_ods_2.txt", 2, "exact"),
    ("fr", "fr_ods_3_known.txt", 3, "contains"),
    ("en", "en_csw21_2.txt", 2, "exact"),
    ("en", "en_nwl2023_2.txt", 2, "contains"),
    ("en", "en_nwl2023_3_added.txt", 3, "contains"),
]


@pytest.mark.parametrize(("lang", "name", "length", "relation"), CASES)
def test_bundled_list_against_reference(lang: str, name: str, length: int, relation: str) -> None:
    expected, actual = reference(name), bundled(lang, length)
    assert all(len(word) == length and word.isalpha() and word.isupper() for word in expected)
    missing = sorted(expected - actual)
    assert not missing, f"{lang} lacks {missing}"
    if relation == "exact":
        extra = sorted(actual - expected)
        assert not extra, f"{lang} has {extra}, not in {name}"


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("fr_ods_2.txt", 82),
        ("en_nwl2023_2.txt", 107),
        ("en_csw21_2.txt", 127),
    ],
)
def test_reference_sets_have_their_published_size(name: str, count: int) -> None:
    assert len(reference(name)) == count


def test_nwl_two_letter_words_are_all_collins_words() -> None:
    assert reference("en_nwl2023_2.txt") < reference("en_csw21_2.txt")


def test_every_reference_file_is_in_the_provenance_note() -> None:
    note = (REFERENCE / "PROVENANCE.md").read_text(encoding="utf-8")
    for path in REFERENCE.glob("*.txt"):
        assert f"`{path.name}`" in note, path.name


def arbitre(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def compiled_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder of its own holding the bundled lists compiled (here, or read from this process's
    cache): the command reads them as on a bot's second start instead of compiling each again (~10 s)."""
    folder = tmp_path_factory.mktemp("cache")
    (folder / "lexicons").mkdir()
    for spec in BUNDLED:
        cache = load(spec, copy=False)[1].cache
        if cache.is_file():  # else (a cache folder that cannot be written) the command compiles the list
            shutil.copyfile(cache, folder / "lexicons" / cache.name)
    return folder


@pytest.mark.parametrize(
    ("lexicon", "words", "status"),
    [
        ("fr", "AA AY BA BE BI DA JA KA OM YA TO UD QI PEC ZEK BAO IEL", 0),
        ("fr", "VS ZZZZ", 1),
        ("fr", "OK", 1),
        ("en", "QI ZA OK EW ZE QIS", 0),
    ],
)
def test_check_command_on_short_words(
    lexicon: str, words: str, status: int, compiled_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITRE_CACHE", str(compiled_cache))
    result = arbitre("check", "--lexicon", lexicon, *words.split())
    assert result.returncode == status, result.stdout + result.stderr
