"""Operators' files are bounded and never echoed (issue 37, item 14): ``--house`` on a device, a FIFO, a 2 GB file
or a secret file; an edition file nested deep, with huge numbers or with labels, a code or rules it may not have;
a catalog of ``ARBITRE_LOCALES`` missing messages, with a bad Plural-Forms, binary, or reading an attribute of a
value. Each is one line naming the file and what is wrong, exit status 2, and nothing of what the file holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.catalogs import FORMATTER, LOCALE_DIR, CatalogError, read_catalog
from bot.operator_files import OperatorFileError, read_bounded
from core.edition import MAX_DOCUMENT_CHARS, edition_from_json
from core.errors import EditionDataError
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
SECRET = "root:$6$Zx9secretHASHvalue:19000:0:99999:7:::"
WAIT = 120  # a guard against a hang (a FIFO read), never a measure


def arbitre(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**clean, **(env or {})},
        stdin=subprocess.DEVNULL,
        timeout=WAIT,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line the tool said, having exited 2 without a traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    return lines[0]


# --- --house FILE --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def compiled_lists() -> None:
    ready_registry()  # the list's cache exists before a process needs it


def house_refusal(path: Path | str) -> str:
    return one_line(arbitre("check", "MAISON", "--house", str(path)))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_house_words_is_refused(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    assert house_refusal(device) == f"arbitre check: house words: {device}: not a regular file"


def test_a_fifo_as_house_words_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "house.fifo"
    os.mkfifo(fifo)  # nobody ever writes to it: reading it would wait for ever
    assert house_refusal(fifo) == f"arbitre check: house words: {fifo}: not a regular file"


def test_a_2_gb_house_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as out:
        out.truncate(2 << 30)  # sparse: 2 GB of zeros that take no room
    assert house_refusal(big) == f"arbitre check: house words: {big}: larger than 1,048,576 bytes"


def test_a_secret_file_as_house_words_is_refused_without_its_content(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow"
    shadow.write_text(SECRET + "\ndaemon:*:19000:0:99999:7:::\n", encoding="utf-8")
    said = house_refusal(shadow)
    assert said == f"arbitre check: house words: {shadow}:1: not a word (2-15 letters)"
    real = Path("/etc/shadow")
    if real.is_file() and os.access(real, os.R_OK):
        first = real.read_text(errors="replace").splitlines()[0]
        said = house_refusal(real)
        assert first not in said, said
        assert first.split(":")[0] + ":" not in said.split("/etc/shadow", 1)[1], said


def test_top_and_duplicate_refuse_a_house_device_with_status_2() -> None:
    for tool in (["top", "--rack", "AEINRST"], ["duplicate", "--seed", "1"]):
        said = one_line(arbitre(*tool, "--house", "/dev/zero"))
        assert said == f"arbitre {tool[0]}: house words: /dev/zero: not a regular file"


def test_read_bounded_reads_a_regular_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_bytes(b"KA\nOM\n")
    assert read_bounded(path, 6) == b"KA\nOM\n"
    with pytest.raises(OperatorFileError) as larger:
        read_bounded(path, 5)
    assert larger.value.reason == "larger than 5 bytes"
    with pytest.raises(OperatorFileError) as missing:
        read_bounded(tmp_path / "none.txt", 5)
    assert missing.value.reason == "No such file or directory"
    with pytest.raises(OperatorFileError) as folder:
        read_bounded(tmp_path, 5)
    assert folder.value.reason == "not a regular file"


# --- edition files -------------------------------------------------------------------------------------------


def edition_document(**changes: object) -> dict[str, object]:
    document: dict[str, object] = {
        "code": "xx",
        "name": "Test",
        "tiles": [{"label": "A", "value": 1, "count": 9, "kind": "vowel"}, {"label": "B", "value": 3, "count": 2}],
    }
    document.update(changes)
    return document


def tiles(**first: object) -> list[dict[str, object]]:
    return [{"label": "A", "value": 1, "count": 9, "kind": "vowel", **first}, {"label": "B", "value": 3, "count": 2}]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[" * 100_000 + "]" * 100_000, "document"),  # RecursionError in json
        (json.dumps(edition_document(jokers=1)).replace('"jokers": 1', '"jokers": ' + "9" * 5000), "document"),
        (" " * (MAX_DOCUMENT_CHARS + 1), "document"),
        ('{"code": "xx", "name": "Test", "tiles": [' + "{" * 3 + "secret-text", "document"),
        (json.dumps(edition_document(tiles=tiles(count=10**18))), "tiles[1]"),  # a bag of 10^18 tiles
        (json.dumps(edition_document(tiles=[*tiles(), *({"label": f"C{n}", "value": 1, "count": 999} for n in "12")])),
         "tiles"),
        (json.dumps(edition_document(rack_size=10**9)), "rack_size"),
        (json.dumps(edition_document(bingo_bonus=10**9)), "bingo_bonus"),
        (json.dumps(edition_document(tiles=tiles(label="A" * 10_000))), "tiles[1]"),
        (json.dumps(edition_document(tiles=tiles(label="A\u0000"))), "tiles[1]"),
        (json.dumps(edition_document(tiles=tiles(label="\u202eA"))), "tiles[1]"),
        (json.dumps(edition_document(tiles=tiles(label="A\u200b"))), "tiles[1]"),
        (json.dumps(edition_document(tiles=tiles(value=10**9))), "tiles[1]"),
        (json.dumps(edition_document(code="../../etc/passwd")), "code"),
        (json.dumps(edition_document(code="XX")), "code"),
        (json.dumps(edition_document(rules="chess")), "rules"),
        (json.dumps(edition_document(name="Club\u202e")), "name"),
        (json.dumps(edition_document(name="N" * 10_000)), "name"),
        (json.dumps(edition_document(fold={"A\u0000": "A"})), "fold"),
    ],
)  # fmt: skip
def test_an_edition_file_out_of_bounds_is_one_error_naming_its_field(text: str, key: str) -> None:
    with pytest.raises(EditionDataError) as refused:
        edition_from_json(text)
    assert refused.value.key == key
    said = str(refused.value)
    assert len(said) < 200
    assert "\n" not in said
    assert not any(quoted in said for quoted in ("etc/passwd", "secret", "chess", "\u202e", "AAAA", "\u0000"))


def test_an_edition_file_within_bounds_is_read() -> None:
    edition = edition_from_json(json.dumps(edition_document(rack_size=8, rules="fisf", tiles=tiles(label="L·L"))))
    assert edition.rack_size == 8
    assert edition.rules == "fisf"
    assert edition.alphabet.labels[0] == "L·L"


# --- catalogs of ARBITRE_LOCALES -----------------------------------------------------------------------------


def bundled(language: str = "en") -> str:
    return (LOCALE_DIR / language / "LC_MESSAGES" / "arbitre.po").read_text(encoding="utf-8")


def catalog_folder(tmp_path: Path, content: str | bytes | None) -> tuple[Path, Path]:
    """A folder of catalogs with the language ``xx`` holding ``content`` (None: a FIFO); the folder, the file."""
    folder = tmp_path / "locales"
    path = folder / "xx" / "LC_MESSAGES" / "arbitre.po"
    path.parent.mkdir(parents=True)
    if content is None:
        os.mkfifo(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return folder, path


def catalog_refusal(tmp_path: Path, content: str | bytes | None) -> tuple[str, Path]:
    folder, path = catalog_folder(tmp_path, content)
    return one_line(arbitre("check", "MAISON", env={"ARBITRE_LOCALES": str(folder)})), path


def without(text: str, key: str) -> str:
    start = text.index(f'msgid "{key}"\n')
    end = text.index("\n\n", start)
    return text[:start] + text[end + 2 :]


def test_a_complete_added_catalog_is_served(tmp_path: Path) -> None:
    folder, _ = catalog_folder(tmp_path, bundled())
    result = arbitre("check", "MAISON", env={"ARBITRE_LOCALES": str(folder)})
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr


def test_an_added_catalog_missing_messages_is_refused_at_start(tmp_path: Path) -> None:
    said, path = catalog_refusal(tmp_path, without(without(bundled(), "apology"), "disk_full"))
    assert said == f"arbitre: ARBITRE_LOCALES: {path}: 2 messages missing, 'apology' first"


def test_an_added_catalog_with_a_bad_plural_forms_is_refused_at_start(tmp_path: Path) -> None:
    text = bundled()
    start = text.index('"Plural-Forms: ')
    end = text.index("\\n", start)
    bad = '"Plural-Forms: nplurals=2; plural=(n > 1 __import__;'
    said, path = catalog_refusal(tmp_path, text[:start] + bad + text[end:])
    assert said == f"arbitre: ARBITRE_LOCALES: {path}: its header cannot be read (Plural-Forms?)"


@pytest.mark.parametrize("content", [bytes(range(256)) * 64, None], ids=["binary", "fifo"])
def test_an_added_catalog_that_is_no_po_file_is_refused_at_start(tmp_path: Path, content: bytes | None) -> None:
    said, path = catalog_refusal(tmp_path, content)
    assert said.startswith(f"arbitre: ARBITRE_LOCALES: {path}: "), said
    assert said.endswith(("not a PO file (line 0)", "not a PO file", "not a regular file")), said


def test_an_added_catalog_reading_an_attribute_of_a_value_is_refused_at_start(tmp_path: Path) -> None:
    text = bundled().replace('msgstr "Sorry,', 'msgstr "{player.__class__.__mro__} Sorry,', 1)
    assert "__mro__" in text
    said, path = catalog_refusal(tmp_path, text)
    assert said.startswith(f"arbitre: ARBITRE_LOCALES: {path}: line "), said
    assert "__mro__" not in said, said
    assert said.endswith(": a field reads an attribute or an index of a value, or has no name"), said
    with pytest.raises(CatalogError):
        read_catalog(path, "xx")


@pytest.mark.parametrize("template", ["{player.__class__}", "{player[0]}", "{0}"])
def test_formatting_never_reads_an_attribute_or_an_index(template: str) -> None:
    with pytest.raises(ValueError):
        FORMATTER.format(template, player="Ana")
    assert FORMATTER.format("{player:de}", player="Ana") == "d'Ana"
