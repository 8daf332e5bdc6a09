"""The bot and the tools over an edition given as data with multi-letter tiles (CH, LL, RR) and Ñ.

The Spanish-like test edition (tests/data/editions/es-test.json) is registered for these tests beside the
shipped ones, and its word list is a bundled list of a lexicon folder made for them (the real fr and en
lists beside it). A classic and a duplicate game are typed into the console room (the real referee, a real
SQLite file): moves with two-letter tiles, /calcul, /verif, a challenge, /reste, the board image, the top
and the exports; then the command line tools. French and English are covered by their own tests and the
golden transcripts, which this change leaves as they are.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters.console.room import ConsoleRoom
from bot.adapters.console.rooms import CHANNEL
from bot.cli import main
from bot.referee import Referee
from bot.render.fonts import has_glyph
from bot.storage import SQLiteStorage
from bot.words.house import HouseList, HouseWords, read_house_file
from bot.words.loader import EDITION_MARK, LexiconRegistry, bundled, list_key, load, split_key
from core.alphabet import LATIN
from core.edition import EDITIONS, Edition, edition_from_json, register_edition, unregister_edition
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
DATA = ROOT / "tests" / "data" / "editions"


@pytest.fixture(scope="module")
def es() -> Iterator[Edition]:
    """The test edition, known by its code while this module's tests run."""
    edition = edition_from_json((DATA / "es-test.json").read_text(encoding="utf-8"))
    register_edition(edition)
    yield edition
    unregister_edition(edition.code)


@pytest.fixture
def lists(es: Edition, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A lexicon folder whose bundled lists are fr, en and es-test (in the test edition), and a private cache."""
    ready_registry()  # the shared cache holds fr and en (before this test's private cache is set)
    folder = tmp_path / "lexicons"
    folder.mkdir()
    sources = json.loads((ROOT / "lexicons" / "SOURCES.json").read_text(encoding="utf-8"))
    for entry in sources.values():
        entry["file"] = str(ROOT / "lexicons" / entry["file"])
    sources["es-test"] = {"file": str(DATA / "es-test-words.txt"), "license": "test data", "edition": "es-test"}
    (folder / "SOURCES.json").write_text(json.dumps(sources), encoding="utf-8")
    monkeypatch.setenv("ARBITRE_LEXICONS", str(folder))
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    return folder


def replies(text: str) -> list[str]:
    return [block.strip() for block in text.split("\n\n") if block.strip()]


def play(script: str, tmp_path: Path) -> tuple[list[str], Path]:
    """The replies of the console room to ``script`` (every list ready first), and the database file."""
    registry = LexiconRegistry()
    registry.get("es-test")
    db = tmp_path / "game.sqlite"
    storage = SQLiteStorage(db)
    out = io.StringIO()
    room = ConsoleRoom(Referee(storage, registry, clock_scope=CHANNEL), out, tmp_path / "images", "Ana", ("ana",))
    stdin = io.TextIOWrapper(io.BytesIO(script.encode("utf-8")), encoding="utf-8")
    try:
        assert asyncio.run(room.run(stdin)) == 0
    finally:
        storage.close()
    return replies(out.getvalue()), db


def reply_to(out: list[str], text: str) -> str:
    found = [r for r in out if text in r]
    assert found, f"no reply with {text!r} in {out}"
    return found[0]


# --- the list: compiled, cached and looked up in the edition's tiles --------------------------------


def test_a_list_is_named_compiled_and_cached_in_its_edition_tiles(es: Edition, lists: Path, tmp_path: Path) -> None:
    assert "es-test" in bundled()
    assert "es-test" in EDITIONS
    assert list_key("es-test", "es-test") == "es-test"  # a bundled list in its own edition
    assert list_key("fr", "fr") == "fr"
    assert list_key("fr", "en") == "fr"
    assert list_key("es-test", "fr") == f"es-test{EDITION_MARK}fr"
    assert split_key("es-test")[1] == es.alphabet
    assert split_key("es-test#edition-fr")[1] is LATIN
    lexicon, info = load("es-test")
    assert lexicon.alphabet == es.alphabet
    assert info.words == 608
    assert "CHORRO" in lexicon
    assert "AÑO" in lexicon
    assert "ANO" in lexicon
    assert len(es.tiles("CHORRO")) == 4
    assert es.tiles("CHORRO") in set(lexicon.words())
    caches = sorted(p.name for p in (tmp_path / "cache" / "lexicons").glob("*.lex"))
    assert len(caches) == 1
    assert caches[0].count(".") == 3
    again, _ = load("es-test")  # read back from the cache, in the same tiles
    assert again.alphabet == es.alphabet
    assert list(again.words()) == list(lexicon.words())
    folded, _ = load(f"es-test{EDITION_MARK}fr")  # the same file in A-Z tiles is another cache entry
    assert folded.alphabet is LATIN
    assert "CHORRO" in folded
    assert "ANO" in folded
    assert len(list((tmp_path / "cache" / "lexicons").glob("*.lex"))) == 2


def test_a_cache_compiled_in_other_tiles_is_rebuilt(
    es: Edition, lists: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    load(f"es-test{EDITION_MARK}fr")
    load("es-test")
    latin, tiles = sorted((tmp_path / "cache" / "lexicons").glob("*.lex"), key=lambda p: p.name.count("."))
    tiles.write_bytes(latin.read_bytes())  # the A-Z compile copied over the entry of the edition's tiles
    with caplog.at_level("WARNING", logger="arbitre.lexicons"):
        lexicon, _ = load("es-test")
    assert lexicon.alphabet == es.alphabet
    assert "compiled in other tiles" in caplog.text


def test_house_words_are_read_and_looked_up_in_the_edition_tiles(es: Edition, lists: Path, tmp_path: Path) -> None:
    lexicon, _ = load("es-test")
    house_file = tmp_path / "house.txt"
    house_file.write_text("ñandú\n-chorro\n", encoding="utf-8")
    house = read_house_file(house_file, es.alphabet)
    assert house.added == {es.tiles("ÑANDU")}
    assert house.removed == {es.tiles("CHORRO")}
    assert read_house_file(house_file).added == {"NANDU"}  # A-Z folds the Ñ away
    words = HouseList(lexicon, house, "es-test")
    assert es.tiles("ÑANDU") in words
    assert es.tiles("CHORRO") not in words
    assert es.tiles("AÑO") in words
    assert "ANO" in words
    assert "CHO" + es.tiles("RRO") not in words  # C then H: not the tile CH
    assert HouseWords().digest != house.digest


# --- the console: a classic and a duplicate game -----------------------------------------------------

CLASSIC = """\
Ana: /reglages edition es-test
Ana: /calcul H8 CHORRO
Ana: /nouvelle Ana Ben
Ana: /calcul H8 CHORRO
Ana: /verif chorro año ano C[H]ORRO
Ana: /coup H8 CHORRO
Ben: /coup 9F AÑOS
Ana: /coup 11H OLLAZ
Ben: /conteste
Ana: /mots ajoute ñandú
Ana: /verif ñandu
Ana: /feuille
Ana: /reste
Ana: /grille
Ana: /export
"""


def test_a_classic_game_with_multi_letter_tiles(es: Edition, lists: Path, tmp_path: Path) -> None:
    out, db = play(CLASSIC, tmp_path)
    assert "es-test" in out[0]
    calc = [r for r in out if "CHORRO (5+1+8+1)x2 = 30" in r]
    assert len(calc) == 3  # /calcul before and in the game, and the move itself: four tiles, 30
    check = reply_to(out, "CHORRO valable")
    assert "AÑO valable" in check
    assert "ANO valable" in check
    assert "C[H]ORRO non valable" in check
    assert "AÑOS 1+8x2+1+1x2 = 20" in reply_to(out, "AÑOS")
    challenge = reply_to(out, "OLLAZ non valable")
    assert "OLLAZ" in challenge
    assert "Accepté désormais dans ce salon : ÑANDU." in reply_to(out, "Accepté désormais")  # /mots, in labels
    assert "ÑANDU valable (mot maison)" in reply_to(out, "ÑANDU valable")
    assert "contesté : OLLAZ non valable" in reply_to(out, "contesté :")  # the sheet, in labels
    unseen = reply_to(out, "Lettres non visibles (93)")  # 100 tiles less CH, O, RR, O, A, Ñ, S
    assert "?x2 Ax11 Bx2 Cx4 Dx5 Ex12 F Gx2 Hx2 Ix6 J Lx4 LL Mx2 Nx5 Ox7 Px2 Q Rx5 Sx5 Tx4" in unseen
    grid = reply_to(out, "```\n      1  2  3")
    assert " CH  O RR  O" in grid
    assert "OLLAZ non valable" in grid
    symbols = [c for c in es.alphabet.symbols if c not in es.alphabet.labels]
    assert not any(c in "\n".join(out) for c in symbols)  # no tile symbol ever shown
    image = reply_to(out, "(image: ").split("(image: ", 1)[1].rstrip(")")
    with Image.open(image) as board:
        assert board.format == "PNG"
        assert board.width > 500
    export = reply_to(out, "#player1")
    assert "#arbitre-edition es-test" in export
    assert ">Ana: OOCHRR 8H CHORRO +30 30" in export
    assert ">Ben: ASÑ I6 AÑ.S +20 20" in export
    assert "invalid OLLAZ" in export
    gcg = export.split("(file: ", 1)[1].rstrip(")")
    assert main(["replay", gcg]) == 0  # the record names its edition: replayed in its tiles, every score agreed
    store = SQLiteStorage(db)
    try:
        assert store.channel(CHANNEL).edition == "es-test"
        assert store.channel(CHANNEL).lexicon == "es-test"
    finally:
        store.close()


DUPLICATE = """\
Ana: /reglages edition es-test
Ana: /duplicate 1 manuel
Ana: /tirage CHORROASE
Ana: /grille
Ben> /jouer H8 CHORRO
Ana: /cloture
Ana: /grille
Ana: /reste
Ana: /export
"""


def test_a_duplicate_round_with_multi_letter_tiles(es: Edition, lists: Path, tmp_path: Path) -> None:
    out, _ = play(DUPLICATE, tmp_path)
    assert "Coup 1 — tirage : ACHEOORRS" in reply_to(out, "Coup 1 — tirage")  # A CH E O O RR S
    assert "Coup 1 — tirage ACHEOORRS — fin" in reply_to(out, "Coup 1 — tirage ACHEOORRS — fin")  # /grille
    closed = reply_to(out, "Ben : H8 CHORRO 30 (top)")
    assert "H6 OCHO 14" in closed  # the tops found in the edition's tiles
    unseen = reply_to(out, "Lettres non visibles (96)")
    assert "Cx4 Dx5" in unseen
    assert " RR " not in unseen
    assert " LL " in unseen
    assert " Ñ " in unseen
    sheet = reply_to(out, "N°  tirage")
    assert " 1  ACHEOORRS  H5   CHORRO   30     30   30" in sheet
    symbols = [c for c in es.alphabet.symbols if c not in es.alphabet.labels]
    assert not any(c in "\n".join(out) for c in symbols)  # no tile symbol ever shown
    csv = Path(sheet.split("(file: ", 1)[1].rstrip(")")).read_text(encoding="utf-8")
    assert "1,Ben,30,0,100.0,0,30" in csv.splitlines()


# --- the tools ---------------------------------------------------------------------------------------


def run_tool(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_score_reads_the_edition_tiles(es: Edition, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_tool(capsys, "score", "--edition", "es-test", "H8 CHORRO")
    assert status == 0
    assert out.splitlines() == ["H8 CHORRO", "  CHORRO (5+1+8+1)x2 = 30", "  total 30"]
    status, out, _ = run_tool(capsys, "score", "--edition", "es-test", "--json", "H8 CHORRO", "9F AÑOS")
    assert status == 0
    assert [move["score"] for move in json.loads(out)] == [30, 20]
    status, out, _ = run_tool(capsys, "score", "H8 CHORRO")  # French tiles: six of them
    assert status == 0
    assert "total 24" in out


def test_every_known_edition_is_an_edition_choice(es: Edition, capsys: pytest.CaptureFixture[str]) -> None:
    for code in EDITIONS:
        status, out, _ = run_tool(capsys, "score", "--edition", code, "H8 AS")
        assert status == 0, code
        assert "total" in out, code
    with pytest.raises(SystemExit):
        main(["score", "--edition", "xx", "H8 AS"])
    assert "es-test" in capsys.readouterr().err


def test_check_top_and_lexicon_info_take_the_edition(
    es: Edition, lists: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_tool(capsys, "check", "--lexicon", "es-test", "chorro", "año", "C[H]ORRO")
    assert status == 1
    assert out.splitlines() == ["CHORRO valable", "AÑO valable", "C[H]ORRO non valable"]
    status, out, _ = run_tool(capsys, "check", "--json", "--lexicon", "es-test", "llama")
    assert status == 0
    assert json.loads(out) == {"lexicon": "es-test", "words": {"LLAMA": True}}
    house = tmp_path / "house.txt"
    house.write_text("ÑANDÚ\n", encoding="utf-8")
    status, out, _ = run_tool(capsys, "check", "--lexicon", "es-test", "--house", str(house), "ñandu")
    assert status == 0
    assert out.strip() == "ÑANDU valable (mot maison)"
    status, out, _ = run_tool(capsys, "top", "--edition", "es-test", "--moves", "H8 CHORRO", "--rack", "AÑLLSEU")
    assert status == 0
    assert out.startswith(" 1. I6 ELLA    24")
    assert "11D SUEÑO" in out
    status, out, _ = run_tool(capsys, "top", "--edition", "es-test", "--rack", "ch o rr o a")
    assert status == 0
    assert "CHORRO" in out.splitlines()[0]
    assert " 30" in out.splitlines()[0]
    french = ready_registry().load("fr")[1].cache  # compiled once for the session: linked, not compiled again
    private = tmp_path / "cache" / "lexicons"
    private.mkdir(parents=True, exist_ok=True)
    (private / french.name).symlink_to(french)
    status, out, _ = run_tool(capsys, "lexicon", "info", "es-test", "fr", "--json")
    infos = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [(i["name"], i["words"]) for i in infos][0] == ("es-test", 608)
    assert infos[1]["name"] == "fr"
    assert infos[1]["licence"] == "MPL-2.0"


# --- images: every tile label of every edition is drawn -----------------------------------------------

# Labels of the published editions the issue names (Catalan, Spanish, Romanian, Italian, German, Polish).
OTHER_LABELS = ["Ç", "L·L", "NY", "QU", "Ñ", "CH", "LL", "RR", "Ă", "Â", "Î", "Ș", "Ț", "Ä", "Ö", "Ü"]
OTHER_LABELS += ["Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż"]


def test_the_board_font_draws_every_tile_label(es: Edition) -> None:
    labels = {label for edition in EDITIONS.values() for label in edition.alphabet.labels} | set(OTHER_LABELS)
    missing = sorted(f"{label} ({char!r})" for label in labels for char in label if not has_glyph(char))
    assert missing == []


def test_a_whole_duplicate_game_is_played_offline_in_the_edition(
    es: Edition, lists: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_tool(capsys, "duplicate", "--edition", "es-test", "--seed", "3", "--json")
    moves = json.loads(out)["moves"]
    assert status == 0
    assert len(moves) > 20
    # two R tiles in a draw are not the tile RR: written R[R], and the top found with them as two tiles
    assert [m["draw"] for m in moves[6:8]] == ["R[R]UU+DFU", "DR[R]UUU+O"]
    symbols = [c for c in es.alphabet.symbols if c not in es.alphabet.labels]
    assert not any(c in out for c in symbols)  # draws and tops written in labels
