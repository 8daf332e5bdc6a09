"""House words: the set and its overlay on a list, the file the offline tools read, lists compiled with
them in the registry, and ``--house FILE`` of ``arbitre check``, ``top`` and ``duplicate``."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.words import loader as lexicons_module
from bot.words.house import (
    ADD,
    REMOVE,
    HouseFileError,
    HouseList,
    HouseWordChange,
    HouseWords,
    house_lexicon,
    read_house_file,
)
from bot.words.loader import LexiconRegistry, ListPreparingError, Loaded, load
from core.lexicon import Lexicon
from tests.bot.tools.test_cli_duplicate import WORDS as DUPLICATE_WORDS
from tests.bot.tools.test_cli_duplicate import check_game

words = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=15)


def change(action: str, word: str, at: float = 0.0) -> HouseWordChange:
    return HouseWordChange("chan", action, word, "u:ana", "Ana", at)


# --- the set and its overlay --------------------------------------------------------------


def test_the_last_change_of_a_word_decides() -> None:
    house = HouseWords.replay(
        [change(ADD, "KA"), change(ADD, "OM"), change(REMOVE, "NEW"), change(REMOVE, "KA"), change(ADD, "NEW")]
    )
    assert house.added == {"OM", "NEW"}
    assert house.removed == {"KA"}
    assert house.tokens() == ["+NEW", "+OM", "-KA"]
    assert len(house) == 3
    assert house
    assert not HouseWords()
    assert HouseWords().tokens() == []


@given(st.lists(st.tuples(st.sampled_from((ADD, REMOVE)), words), max_size=30))
def test_tokens_round_trip_and_equal_sets_share_a_digest(changes: list[tuple[str, str]]) -> None:
    house = HouseWords.replay(change(action, word) for action, word in changes)
    assert HouseWords.from_tokens(house.tokens()) == house
    assert not house.added & house.removed
    rebuilt = HouseWords(frozenset(sorted(house.added, reverse=True)), house.removed)
    assert rebuilt.digest == house.digest


@pytest.mark.parametrize(
    ("word", "expected"),
    [("KA", True), ("VAGUE", False), ("MAISON", True), ("ZZQ", False), ("XVAGUE", True)],
)
def test_a_house_list_accepts_additions_rejects_removals_and_asks_the_list_otherwise(word: str, expected: bool) -> None:
    base = {"VAGUE", "MAISON"}
    house = HouseWords(frozenset({"KA", "XVAGUE"}), frozenset({"VAGUE"}))
    assert (word in HouseList(base, house, "fr")) is expected


def test_a_list_patched_with_house_words_has_exactly_the_overlay() -> None:
    base = Lexicon.from_words(["VAGUE", "MAISON", "CHAT", "KAVE"], name="small")
    house = HouseWords(frozenset({"KA", "UKVASIE"}), frozenset({"KAVE", "ABSENT"}))
    combined = house_lexicon(base, house)
    assert list(combined.words()) == ["CHAT", "KA", "MAISON", "UKVASIE", "VAGUE"]
    assert combined.has_anagram("AEIKSUV")
    assert not combined.has_anagram("AEKV")
    assert combined.name == "small"


# --- the file of the offline tools --------------------------------------------------------


def test_a_house_file_one_word_a_line_minus_removes_comments_and_blanks_skipped(tmp_path: Path) -> None:
    path = tmp_path / "house.txt"
    path.write_text("\ufeff# our club\nka\n\n  Om  # added in March\n-NEW\n+zek\n-ka\nÉTÉS\n", encoding="utf-8")
    house = read_house_file(path)
    assert house.added == {"OM", "ZEK", "ETES"}
    assert house.removed == {"NEW", "KA"}


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        ("KA\nOM 2\n", 2, "not a word (2-15 letters)"),
        ("KA\n-\n", 2, "not a word (2-15 letters)"),
        ("K\n", 1, "not a word (2-15 letters)"),
    ],
)
def test_a_bad_line_of_a_house_file_is_named(tmp_path: Path, content: str, line: int, reason: str) -> None:
    path = tmp_path / "house.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(HouseFileError) as error:
        read_house_file(path)
    assert error.value.line == line
    assert reason in error.value.reason
    assert "house.txt" in str(error.value)
    typed = content.splitlines()[line - 1].strip("-")
    assert not typed or typed not in str(error.value).split(":", 2)[-1]  # never the line's text


def test_a_missing_or_binary_house_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(HouseFileError) as missing:
        read_house_file(tmp_path / "none.txt")
    assert missing.value.line == 0
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00K")
    with pytest.raises(HouseFileError):
        read_house_file(binary)


# --- lists with house words in the registry -----------------------------------------------


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "small.txt"
    path.write_text("VAGUE\nMAISON\nCHAT\n", encoding="utf-8")
    return str(path)


def test_the_registry_patches_a_list_with_house_words_once_its_list_is_loaded(small: str) -> None:
    from tests.bot.words.test_lexicons import GatedLoader

    loader = GatedLoader({small})  # the list itself takes a while to load
    registry = LexiconRegistry(loader)
    assert registry.with_house(small, HouseWords()) == small
    house = HouseWords(frozenset({"KA"}), frozenset({"CHAT"}))
    name = registry.with_house(small, house)
    assert name != small
    assert name == registry.with_house(small, HouseWords.from_tokens(["-CHAT", "+KA"]))
    with pytest.raises(ListPreparingError) as preparing:
        registry.ready(name)  # starts loading its list, never waits for it
    assert preparing.value.name == name
    assert preparing.value.expected_seconds >= 1
    loader.gate.set()
    combined = registry.get(name)
    assert set(combined.words()) == {"KA", "MAISON", "VAGUE"}
    assert registry.ready(name) is combined
    assert set(registry.ready(small).words()) == {"CHAT", "MAISON", "VAGUE"}
    assert registry.load(name)[1].words == 3
    other = registry.with_house(small, HouseWords(frozenset({"OM"})))
    assert "OM" in registry.ready(other)  # its list loaded: patched at once, never "being prepared"


def test_older_lists_with_house_words_give_way(small: str) -> None:
    registry = LexiconRegistry()
    names = [registry.with_house(small, HouseWords(frozenset({f"KA{letter}"}))) for letter in "ABCDEFGH"]
    for name in names:
        registry.get(name)
    kept = [name for name in names if registry.is_ready(name)]
    assert kept == names[-lexicons_module.MAX_HOUSE_LISTS :]
    assert registry.is_ready(small)
    assert "KAA" in registry.get(names[0])  # compiled again when asked for


def test_a_queued_list_expects_the_wait_of_those_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("CHAT\n" * 3)
    second.write_text("LOUP\n" * 3)
    gate = threading.Event()

    def loader(spec: str) -> Loaded:
        assert gate.wait(timeout=60)
        return load(spec)

    registry = LexiconRegistry(loader)
    worker = registry.prepare([str(first), str(second)])
    waits = []
    for spec in (first, second):
        with pytest.raises(ListPreparingError) as preparing:
            registry.ready(str(spec))
        waits.append(preparing.value.expected_seconds)
    assert waits[1] >= waits[0] + 1
    gate.set()
    worker.join(timeout=60)
    registry.wait()
    assert registry.is_ready(str(first))
    assert registry.is_ready(str(second))


# --- the offline tools --------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def house_file(tmp_path: Path) -> Path:
    path = tmp_path / "house.txt"
    path.write_text("# club additions\nXVAGUE\n-VAGUE\n", encoding="utf-8")
    return path


def test_check_with_house_words(capsys: pytest.CaptureFixture[str], small: str, house_file: Path) -> None:
    assert run(capsys, "check", "--lexicon", small, "VAGUE", "XVAGUE")[0] == 1
    status, out, _ = run(capsys, "check", "--lexicon", small, "--house", str(house_file), "XVAGUE", "MAISON")
    assert status == 0
    assert out.splitlines() == ["XVAGUE valable (mot maison)", "MAISON valable"]
    status, out, _ = run(capsys, "check", "--lexicon", small, "--house", str(house_file), "--lang", "en", "VAGUE")
    assert status == 1
    assert out.strip() == "VAGUE not valid (house word)"
    status, out, _ = run(capsys, "check", "--lexicon", small, "--house", str(house_file), "--json", "XVAGUE")
    assert json.loads(out) == {"lexicon": "small.txt", "house": ["+XVAGUE", "-VAGUE"], "words": {"XVAGUE": True}}


def test_check_with_a_bad_house_file(capsys: pytest.CaptureFixture[str], small: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("KA\nK4\n", encoding="utf-8")
    status, out, err = run(capsys, "check", "--lexicon", small, "--house", str(bad), "KA")
    assert status == 2
    assert out == ""
    assert "bad.txt:2" in err
    assert err.count("\n") == 1


def test_top_with_house_words(capsys: pytest.CaptureFixture[str], tmp_path: Path, small: str) -> None:
    words_file = tmp_path / "top.txt"
    words_file.write_text("KVAS\nVAS\nAS\nKAS\n", encoding="utf-8")
    plain = json.loads(run(capsys, "top", "--lexicon", str(words_file), "--rack", "KVASEIU", "--json")[1])
    assert plain["plays"][0]["word"] == "KVAS"
    assert "house" not in plain
    house = tmp_path / "house.txt"
    house.write_text("UKVASIE\n-KVAS\n", encoding="utf-8")
    args = ("top", "--lexicon", str(words_file), "--rack", "KVASEIU", "--house", str(house))
    data = json.loads(run(capsys, *args, "--json")[1])
    assert data["plays"][0]["word"] == "UKVASIE"
    assert data["plays"][0]["score"] > plain["plays"][0]["score"]
    assert all(play["word"] != "KVAS" for play in data["plays"])
    assert data["house"] == ["+UKVASIE", "-KVAS"]
    status, out, _ = run(capsys, *args, "--count", "1")
    assert status == 0
    assert out.splitlines()[0] == f"word list {words_file} + 2 house words (+UKVASIE -KVAS)"
    missing = run(capsys, "top", "--lexicon", str(words_file), "--rack", "KVASEIU", "--house", str(tmp_path / "no"))
    assert missing[0] == 2
    assert "house words:" in missing[2]


def test_duplicate_with_house_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    small_list = tmp_path / "small.txt"
    small_list.write_text("\n".join(DUPLICATE_WORDS) + "\n", encoding="utf-8")
    args = ("duplicate", "--lexicon", str(small_list), "--seed", "4", "--json")
    plain = json.loads(run(capsys, *args)[1])
    first = plain["moves"][0]["word"].upper()
    house = tmp_path / "house.txt"
    house.write_text(f"-{first}\nZOUK\n", encoding="utf-8")
    status, out, err = run(capsys, *args, "--house", str(house))
    assert status == 0, err
    data = json.loads(out)
    assert data["house"] == ["+ZOUK", f"-{first}"]
    check_game(data, (set(DUPLICATE_WORDS) - {first}) | {"ZOUK"})
    assert data["moves"][0]["word"].upper() != first
    status, out, _ = run(capsys, "duplicate", "--lexicon", str(small_list), "--seed", "4", "--house", str(house))
    assert out.splitlines()[0] == f"seed 4, fr, word list {small_list} + 2 house words (+ZOUK -{first})"


@pytest.mark.parametrize("content", ["CHAT\nCHIEN\n", "CHAT\n123\n"])
def test_ready_answers_when_the_list_is_done_before_it_looks_again(small: str, content: str) -> None:
    """The background load may finish between ``ready`` starting it and looking again (a tiny or a broken
    list): ``ready`` then gives the list or its error, never waits on its own lock."""
    Path(small).write_text(content, encoding="utf-8")
    registry = LexiconRegistry()
    start = registry.prepare

    def prepare_then_finish(specs: Iterable[str]) -> threading.Thread:
        thread = start(specs)
        thread.join(timeout=60)  # the load ends before ready() looks again
        return thread

    registry.prepare = prepare_then_finish  # type: ignore[method-assign]
    answers: list[Lexicon | Exception] = []

    def ask() -> None:
        try:
            answers.append(registry.ready(small))
        except Exception as error:  # noqa: BLE001 - the broken list's error is an answer too
            answers.append(error)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(timeout=60)
    assert not asker.is_alive(), "ready() waited on its own lock"
    if "123" in content:
        assert isinstance(answers[0], lexicons_module.WordListError)
        assert answers[0].line == 2
    else:
        assert isinstance(answers[0], Lexicon)
        assert "CHIEN" in answers[0]
