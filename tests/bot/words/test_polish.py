"""The Polish edition (32 letters) from the command line: a game's moves scored, a top, words checked.

The bundled Polish list takes over a minute to compile (2.9 million words), so the top and the check
read a sample of it: the words below and every 2,000th word of ``lexicons/pl.txt.gz``, bundled as
``pl`` from a folder of lists (``ARBITRE_LEXICONS``) with the real list's record.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from bot.cli import main
from core.board import Board
from core.edition import edition_by_code
from core.notation import Notation, parse_move
from core.placement import validate_move
from core.scoring import score_placement
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
POLISH = edition_by_code("pl")
CHOSEN = ["ŹDŹBŁO", "ŹDŹBŁOM", "ŻÓŁW", "KOŃ", "ZAŻÓŁĆ", "GĘŚLĄ", "JAŹŃ", "ŹRÓDŁO"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def sampled_words() -> list[str]:
    """The sample of the real list (read once for the module: 7 MB of gzip, 3 to 6 s a test)."""
    words = gzip.decompress((ROOT / "lexicons" / "pl.txt.gz").read_bytes()).decode("utf-8").split("\n")[:-1]
    assert set(CHOSEN) <= set(words)
    return sorted({*words[::2000], *CHOSEN})


@pytest.fixture
def polish_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sampled_words: list[str]) -> list[str]:
    """A folder of bundled lists whose ``pl`` is a sample of the real one; its words."""
    sample = list(sampled_words)
    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "pl.txt.gz").write_bytes(gzip.compress("".join(w + "\n" for w in sample).encode("utf-8")))
    record = json.loads((ROOT / "lexicons" / "SOURCES.json").read_text(encoding="utf-8"))["pl"]
    (folder / "SOURCES.json").write_text(json.dumps({"pl": {**record, "words": len(sample)}}), encoding="utf-8")
    monkeypatch.setenv("ARBITRE_LEXICONS", str(folder))
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    return sample


# move (GCG notation, the edition's), the words it makes, each worked out by hand from the Polish values
# (Ź 9, Ó 5, Ł 3, Ń 7, K 2, D 2, R O 1) and the squares: 8D and 8L, M7 and M9 are double letters
SCORED = [
    ("8H ŹRÓDŁO", "ŹRÓDŁO (9+1+5+2+3x2+1)x2 = 48", 48),
    ("M7 KOŃ", "KOŃ 2x2+1+7x2 = 19", 19),
]


def test_moves_typed_in_polish_letters_are_scored(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "--edition", "pl", "8h źródło", "m7 koń")
    assert status == 0, err
    for move, breakdown, total in SCORED:
        assert move in out
        assert breakdown in out
        assert f"total {total}" in out
    status, _out, err = run(capsys, "score", "--edition", "pl", "8H QUIZ")
    assert status == 1
    assert "'Q' is not a letter" in err


def test_a_top_over_the_polish_list(capsys: pytest.CaptureFixture[str], polish_sample: list[str]) -> None:
    status, out, err = run(capsys, "top", "--edition", "pl", "--rack", "ŹDŹBŁO?", "--count", "3", "--json")
    assert status == 0, err
    plays = json.loads(out)["plays"]
    assert plays
    assert plays[0]["word"].upper() == "ŹDŹBŁOM"
    # Ź on the double letter of 8D, the joker M worth nothing, the word doubled on the centre, 50 for seven tiles
    assert plays[0]["score"] == (9 + 2 + 9 * 2 + 3 + 3 + 1 + 0) * 2 + 50
    for play in plays:  # each play is legal on the empty board and scores what it says
        typed = f"{play['ref']} {play['word']}"
        move = parse_move(typed, Notation.GCG, lowercase_is_plain=False, alphabet=POLISH.alphabet)
        placement = validate_move(Board(), move, Notation.GCG)
        assert score_placement(placement, POLISH).total == play["score"] <= plays[0]["score"]
        assert sum(tile.joker for tile in placement.new_tiles) == play["jokers"] == 1


@pytest.mark.parametrize(
    ("typed", "valid"),
    [
        ("żółw", True),
        ("ŹDŹBŁO", True),
        ("zażółć", True),  # Ż, Ó, Ł, Ć: four letters of their own
        ("gęślą", True),
        ("zolw", False),  # the accents are letters: ŻÓŁW without them is another word, not in the list
        ("quiz", False),  # no Q tile
    ],
)
def test_words_checked_in_the_polish_list(
    capsys: pytest.CaptureFixture[str], polish_sample: list[str], typed: str, valid: bool
) -> None:
    status, out, err = run(capsys, "check", "--lexicon", "pl", "--json", typed)
    assert status == (0 if valid else 1), err
    assert json.loads(out)["words"] == {POLISH.spell(POLISH.tiles(typed)): valid}
