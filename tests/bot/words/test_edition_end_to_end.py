"""Every shipped edition played end to end in the console room, as players would (issue 23, "Done when").

For each edition of ``core/editions/index.json`` (an edition added there is played here too), words are
picked from its bundled list (``tests/edition_words.py``): one per tile typed otherwise than one A-Z letter
(``L·L``, ``NY``, ``QU``, ``CH``, ``RR``, ``Ñ``, ``Ä``...). A classic game on a real SQLite file: those words
looked up and scored on the empty board, a first move with one of them, a valid move challenged (with the
consequence its rule set gives, docs/rules.md "Turn types and rule sets"), a word not in the list challenged
(removed, 0), the unseen tiles, the board image (every tile's label drawn) and the text board, and the GCG
export replayed by ``arbitre replay`` with the same scores. A duplicate round (docs/rules.md "Duplicate"): the
draw typed, submissions typed in several ways and one mistaken, the top, its placement, the ranking, the
board, the unseen tiles and the exported sheet and CSV, the top replayed by ``arbitre score``.
"""

from __future__ import annotations

import asyncio
import csv
import fcntl
import io
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.adapters.console.room import ConsoleRoom
from bot.adapters.console.rooms import CHANNEL
from bot.cli import main
from bot.messages import say
from bot.referee import Referee
from bot.render.board import CELL, COORD, PAD, draw_tile
from bot.render.canvas import Scene, paint
from bot.render.fonts import has_glyph
from bot.render.text import board_text
from bot.storage import SQLiteStorage
from bot.words.loader import LexiconRegistry, cache_dir
from core.board import SIZE, Board, Tile
from core.edition import ENGLISH, Edition, edition_by_code
from core.lexicon import Lexicon
from core.movegen import find_top
from core.notation import Notation, format_ref, parse_move
from core.placement import apply_placement
from core.rules import rule_set_by_code
from tests.edition_words import (
    find_word,
    first_move_board,
    first_move_ref,
    first_move_score,
    label_counts,
    not_a_word,
    phony_below,
    shipped_codes,
    special_symbols,
)
from tests.ready_lists import ready_registry
from tests.sample_lists import sample_folder
from tests.transcripts import run_console

CODES = shipped_codes()
LANG = "fr"  # the console room's language


@pytest.fixture(scope="session")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled lists, samples of them but French and English (``tests/sample_lists.py``)."""
    return sample_folder(tmp_path_factory.mktemp("lexicons"))


@pytest.fixture(autouse=True)
def sampled_lists(samples: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The offline tools and the referee read the sampled lists too."""
    monkeypatch.setenv("ARBITRE_LEXICONS", str(samples))


@pytest.fixture(scope="session")
def registry(samples: Path) -> LexiconRegistry:
    """A registry with every shipped edition's list loaded (samples: compiled once, then read from the cache)."""
    ready_registry()  # French and English compiled, if the install did not
    shared = LexiconRegistry()
    with pytest.MonkeyPatch.context() as patch, open(cache_dir() / "tests-compile.lock", "w") as lock:
        patch.setenv("ARBITRE_LEXICONS", str(samples))
        fcntl.flock(lock, fcntl.LOCK_EX)  # one test process compiles a list missing from the cache
        for code in CODES:
            shared.get(code)
    return shared


def replies(text: str) -> list[str]:
    return [block.strip() for block in text.split("\n\n") if block.strip()]


def play(registry: LexiconRegistry, script: str, tmp_path: Path) -> list[str]:
    """The replies of the console room (the real referee on a real SQLite file) to ``script``."""
    storage = SQLiteStorage(tmp_path / "game.sqlite")
    out = io.StringIO()
    room = ConsoleRoom(Referee(storage, registry, clock_scope=CHANNEL), out, tmp_path / "files", "Ana", ("ana",))
    stdin = io.TextIOWrapper(io.BytesIO(script.encode("utf-8")), encoding="utf-8")
    try:
        assert asyncio.run(room.run(stdin)) == 0
    finally:
        storage.close()
    return replies(out.getvalue())


def reply_to(out: list[str], text: str) -> str:
    found = [r for r in out if text in r]
    assert found, f"no reply with {text!r} in:\n" + "\n\n".join(out)
    return found[0]


def attachment(reply: str, kind: str) -> Path:
    """The file a reply carries (``(image: PATH)`` or ``(file: PATH)``)."""
    return Path(reply.split(f"({kind}: ", 1)[1].split(")", 1)[0])


def scores_of(reply: str) -> dict[str, int]:
    """``Scores : Ana 30 · Ben 20`` as {name: score}."""
    line = next(line for line in reply.splitlines() if line.startswith("Scores : "))
    return {name: int(score) for name, score in (part.rsplit(" ", 1) for part in line[9:].split(" · "))}


# --- what each edition plays with ---------------------------------------------------------------


class Words:
    """The words of an edition's list that the games below type: one per special tile, the first one opens."""

    def __init__(self, edition: Edition, lexicon: Lexicon) -> None:
        self.edition, self.lexicon = edition, lexicon
        self.notation = Notation(edition.notation)
        self.specials = special_symbols(edition)
        picked = [find_word(lexicon, edition, s, (5, 6, 4, 7, 3, 2)) for s in self.specials]
        missing = [edition.label(s) for s, w in zip(self.specials, picked, strict=True) if not w]
        assert not missing, f"{edition.code}: no word for {missing}"
        self.checked: list[str] = [w for w in picked if w]  # one word per special tile
        self.first = self.checked[0]
        self.bag = Counter(edition.counts) - Counter(self.first)

    def spell(self, symbols: str) -> str:
        return self.edition.alphabet.spell(symbols)


@pytest.fixture(params=CODES)
def words(request: pytest.FixtureRequest, registry: LexiconRegistry) -> Words:
    edition = edition_by_code(request.param)
    return Words(edition, registry.get(edition.code))


# --- the board image: every tile's label drawn -----------------------------------------------------


def ink(image: Image.Image) -> int:
    """Dark pixels (the ink of letters), in a greyscale image."""
    return sum(count for value, count in enumerate(image.histogram()) if value < 100)


def inner(image: Image.Image, x0: int, y0: int) -> Image.Image:
    """A tile's square inside its edge (what the tile's letter and value are drawn in)."""
    return image.crop((x0 + 5, y0 + 5, x0 + CELL - 5, y0 + CELL - 5))


def tile_ink(label: str, value: int | None) -> int:
    """The ink of a tile drawn alone at the size of a board's (its label, and its value unless a joker)."""
    scene = Scene(CELL, CELL, (255, 255, 255))
    draw_tile(scene, 0, 0, CELL, label, value, "plain" if value is not None else "joker")
    return ink(inner(paint(scene).convert("L"), 0, 0))


def check_tiles_drawn(path: Path, board_tiles: dict[tuple[int, int], tuple[str, int | None]]) -> None:
    """Each tile's square of the board image holds its label and value (None: a joker's): as much ink as the
    tile drawn alone (a missing glyph or a blank tile has less, a clipped label less), every character in the
    font. Letters that descend (J, Q, Ą) are counted whole."""
    with Image.open(path) as picture:
        assert picture.format == "PNG"
        grey = picture.convert("L")
    gx, gy = PAD + COORD, grey.height - PAD - CELL * SIZE  # the grid sits at the bottom of every board image
    for (row, col), (label, value) in board_tiles.items():
        assert all(has_glyph(char) for char in label), label
        drawn, alone = ink(inner(grey, gx + col * CELL, gy + row * CELL)), tile_ink(label, value)
        assert alone > 0, (label, row, col, drawn, alone)
        assert 0.8 * alone <= drawn <= 1.2 * alone, (label, row, col, drawn, alone)


def worth(edition: Edition, symbol: str, joker: bool) -> tuple[str, int | None]:
    """A placed tile as ``check_tiles_drawn`` takes it: its label and its value (None for a joker)."""
    return edition.label(symbol), None if joker else edition.values[symbol]


def text_board(reply: str) -> list[str]:
    """The rows of the text board in a reply (header and 15 rows)."""
    body = reply.split("```\n", 1)[1].split("\n```", 1)[0].splitlines()
    return body[:16]


# --- a classic game --------------------------------------------------------------------------------


def test_a_classic_game_in_every_edition(
    words: Words, registry: LexiconRegistry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition, lexicon, notation = words.edition, words.lexicon, words.notation
    rules = rule_set_by_code(edition.rules)
    start = first_move_ref(notation)
    first = words.first
    # Ben's move: the best play of a rack of the bag holding another special tile when there is one
    board = first_move_board(first)
    second_special = next((s for s in words.specials[1:] if words.bag[s]), None)
    common = [s for s, _ in sorted(words.bag.items(), key=lambda item: (-item[1], item[0])) if s != second_special]
    rack = ([second_special] if second_special else []) + common[: 7 - (1 if second_special else 0)]
    tops = find_top(board, "".join(rack), lexicon, edition, count=30).plays
    ben = next((p for p in tops if second_special and second_special in p.placement.main_word.text), tops[0])
    ben_move = ben.placement.notation(notation)
    apply_placement(board, ben.placement)
    bag = words.bag - Counter(cell.letter for cell in ben.placement.new_tiles)
    phony = phony_below(board, lexicon, edition, bag)
    phony_move = f"{format_ref(phony.ref, notation)} {words.spell(phony.word)}"
    nonsense = not_a_word(lexicon, edition, first)
    # the challenger of a valid word loses a turn (the mover plays again), a penalty or the mover a bonus
    phony_player, challenger_2 = ("Ben", "Ana") if rules.challenge_lost_turn else ("Ana", "Ben")
    typed = [words.spell(w) for w in words.checked]
    # the racks left at the end: a special tile still in the bag and the commonest letter, the next one
    left_special = [s for s in words.specials if bag[s] and s not in (phony.new or "")][:1]
    commonest = [s for s, _ in sorted(bag.items(), key=lambda item: (-item[1], item[0])) if s not in left_special]
    racks = {"Ana": left_special + commonest[:1], "Ben": commonest[1:2]}
    dotted = [w.replace("·", ".") for w in typed if "·" in w]  # L·L typed L.L, as keyboards without a middle dot do
    script = "\n".join(
        [
            f"Ana: /reglages edition {edition.code}",
            *(f"Ana: /calcul {start} {w}" for w in typed),
            "Ana: /nouvelle Ana Ben",
            f"Ana: /verif {' '.join(typed + dotted)} {words.spell(nonsense)}",
            f"Ana: /coup {start} {typed[0].lower()}",  # all in lowercase: plain tiles, not jokers
            f"Ben: /coup {ben_move}",
            "Ana: /conteste",
            f"{phony_player}: /coup {phony_move}",
            f"{challenger_2}: /conteste",
            "Ana: /feuille",
            "Ana: /reste",
            "Ana: /grille",
            f"Ana: /fin Ana={words.spell(''.join(racks['Ana']))} Ben={words.spell(''.join(racks['Ben']))} !",
            "Ana: /export",
        ]
    )
    out = play(registry, script + "\n", tmp_path)
    assert f"édition {edition.code}," in out[0]
    assert f"liste {edition.code}," in out[0]
    for symbols, spelled in zip(words.checked, typed):  # scored on the empty board, in the edition's tiles
        calc = reply_to(out, f"Calcul (non enregistré) : {start} {spelled}\n")
        assert calc.endswith(f" = {first_move_score(edition, symbols)}"), calc
    verdicts = reply_to(out, f"(liste : {edition.code})")
    assert all(verdicts.count(f"{w} {say(LANG, 'valid')}") == 1 + ("·" in w) for w in typed), verdicts
    assert f"{words.spell(nonsense)} {say(LANG, 'invalid')}" in verdicts
    first_score = first_move_score(edition, first)
    moved = reply_to(out, f"Ana : {start} {typed[0]}\n")  # read back in the edition's labels
    assert scores_of(moved)["Ana"] == first_score
    ben_reply = reply_to(out, f"Ben : {ben_move}\n")
    assert scores_of(ben_reply)["Ben"] == ben.total
    valid = reply_to(out, say(LANG, "challenge_valid", verdicts="", player="Ben").split(" : ")[0] + " : ")
    assert say(LANG, "valid") in valid
    assert f"{words.spell(ben.placement.main_word.text)} {say(LANG, 'valid')}" in valid
    after_valid = scores_of(valid)
    penalty = rules.challenge_penalty_per_word * len(ben.placement.words)
    bonus = rules.challenge_bonus_per_word * len(ben.placement.words)
    assert after_valid == {"Ana": first_score - penalty, "Ben": ben.total + bonus}
    withdrawn = reply_to(out, f"{words.spell(phony.word)} {say(LANG, 'invalid')}. ")
    assert scores_of(withdrawn) == after_valid  # the word not in the list: removed, 0
    sheet = reply_to(out, "joueur  coup")
    assert f"contesté : {words.spell(phony.word)} {say(LANG, 'invalid')}" in sheet
    # the unseen tiles: the bag less the two moves standing, in labels
    unseen = reply_to(out, "Lettres non visibles (")
    shown = label_counts(unseen.split(" : ", 1)[1].splitlines()[0])
    expected = {edition.label(s): n for s, n in bag.items() if n} | {"?": edition.jokers}
    assert shown == expected
    assert f"({sum(expected.values())})" in unseen
    # the board: the image draws every tile's label, the text board writes it in even columns
    grid = reply_to(out, "```\n")
    placed = {(7, 7 + i): edition.label(s) for i, s in enumerate(first)}
    placed |= {(c.row, c.col): edition.label(c.letter) for c in ben.placement.new_tiles}
    drawn = {(7, 7 + i): worth(edition, s, False) for i, s in enumerate(first)}
    drawn |= {(c.row, c.col): worth(edition, c.letter, c.joker) for c in ben.placement.new_tiles}
    check_tiles_drawn(attachment(grid, "image"), drawn)
    rows = text_board(grid)
    assert len({len(row) for row in rows}) == 1, rows
    for (row, col), label in placed.items():
        assert rows[row + 1].endswith(label, 0, 4 + (col + 1) * (len(rows[0]) - 4) // SIZE), (row, col, label)
    # the offline lookup reads the words as the chat does
    status, looked_up = tool(capsys, "check", "--lexicon", edition.code, *typed, *dotted)
    assert status == 0
    assert looked_up["words"] == dict.fromkeys(typed, True)
    # the export, replayed: every score recomputed agrees
    export = reply_to(out, "#player1")
    assert (f"#arbitre-edition {edition.code}" in export) is (edition != ENGLISH)  # GCG's own tiles are English
    status, replayed = tool(capsys, "replay", str(attachment(export, "file")))
    before = scores_of(withdrawn)  # nobody went out: each loses the value of their rack
    final = {name: score - sum(edition.values[s] for s in racks[name]) for name, score in before.items()}
    ended = reply_to(out, say(LANG, "ended", standings="").strip())
    for name, score in final.items():
        assert f"{name} {score} ({before[name]} -{before[name] - score})" in ended, ended
    assert status == 0, replayed
    assert replayed["final"] == final, replayed
    assert not replayed["mismatches"], replayed


def tool(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    """An offline tool run with ``--json``: its status and the document it printed."""
    capsys.readouterr()
    status = main([*args, "--json"])
    captured = capsys.readouterr()
    assert captured.out, captured.err
    return status, json.loads(captured.out)


# --- a duplicate round -----------------------------------------------------------------------------


def duplicate_draw(words: Words) -> list[str]:
    """The first word's tiles completed to a full rack with the bag's commonest vowels and consonants, at
    least two of each (the draw rule until move 15, docs/rules.md "Duplicate")."""
    edition = words.edition
    draw = list(words.first)
    left = Counter(words.bag)
    by_count = sorted((s for s in left if s not in edition.flexible), key=lambda s: (-left[s], s))
    vowels = [s for s in by_count if edition.is_vowel(s)]
    consonants = [s for s in by_count if not edition.is_vowel(s)]
    while len(draw) < edition.rack_size:
        short_of_vowels = sum(edition.is_vowel(s) for s in draw) < 2
        pick = (vowels if short_of_vowels or len(draw) % 2 else consonants)[0]
        draw.append(pick)
        left[pick] -= 1
        if not left[pick]:
            (vowels if pick in vowels else consonants).remove(pick)
    return draw


def test_a_duplicate_round_in_every_edition(
    words: Words, registry: LexiconRegistry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition, notation = words.edition, words.notation
    alphabet = edition.alphabet
    start = first_move_ref(notation)
    draw = duplicate_draw(words)
    assert sum(edition.is_vowel(s) for s in draw) >= 2
    assert sum(not edition.is_vowel(s) for s in draw) >= 2
    typed = words.spell(words.first)
    absent = min((s for s in alphabet.symbols if s not in draw), key=lambda s: -edition.values[s])
    mistaken = words.spell(words.first[:-1] + absent)
    short_draw = words.spell("".join(draw[:-1]))
    script = "\n".join(
        [
            f"Ana: /reglages edition {edition.code}",
            "Ana: /duplicate 1 manuel",
            f"Ana: /tirage {short_draw}",  # a tile short: refused, saying how the letters were read
            f"Ana: /tirage {words.spell(''.join(draw))}",
            f"Ana: /calcul {start} {typed}",
            f"Ben> /jouer {start} {typed}",
            f"Cy> /jouer {start} {typed.lower()}",  # all in lowercase: plain tiles, not jokers
            f"Dan> /jouer {start} {mistaken}",
            "Ana: /cloture",
            "Ana: /classement",
            "Ana: /grille",
            "Ana: /reste",
            "Ana: /export",
        ]
    )
    out = play(registry, script + "\n", tmp_path)
    read = " ".join(alphabet.spell(s) for s in sorted(draw[:-1], key=alphabet.sort_key))
    draw_shown = f"{short_draw} ({read})" if any(len(edition.label(s)) > 1 for s in alphabet.symbols) else short_draw
    size = edition.rack_size
    assert say(LANG, "err_draw_size", draw=draw_shown, count=size - 1, expected=size) in reply_to(out, f"{short_draw} ")
    spelled_draw = alphabet.spell_tiles(draw)
    assert f"Coup 1 — tirage : {spelled_draw}\n" in reply_to(out, "Coup 1 — tirage : ")  # read back in labels
    score = first_move_score(edition, words.first)
    assert reply_to(out, f"Calcul (non enregistré) : {start} {typed}\n").endswith(f" = {score}")
    results = reply_to(out, "Top : ")
    top = re.search(r"^Top : (\S+) (\S+) — (\d+) points$", results, re.MULTILINE)
    assert top is not None, results
    top_ref, top_word, top_score = top.group(1), top.group(2), int(top.group(3))
    assert f"Ben : {start} {typed} {score}" in results
    assert f"Cy : {start} {typed.lower()} {score}" in results
    letters = say(LANG, "dup_reason_not_in_draw", letters=alphabet.spell(absent))  # the mistake: 0, with its reason
    assert f"Dan : {start} {mistaken} 0 — {letters}" in results, results
    assert top_score >= score
    # the top replayed by the offline scorer, in the edition's tiles and notation
    status, scored = tool(
        capsys, "score", "--edition", edition.code, "--notation", notation.value, f"{top_ref} {top_word}"
    )
    assert status == 0
    assert [move["score"] for move in scored] == [top_score]
    standings = reply_to(out, "joueur  total")
    assert re.search(rf"^1\s+Ben\s+{score}\s", standings, re.MULTILINE)
    assert re.search(r"Dan\s+0\s", standings)
    # the board with the top placed: every tile's label drawn; the unseen tiles are the rest of the set
    move = parse_move(f"{top_ref} {top_word}", notation, alphabet=alphabet)
    ref = move.ref
    squares = [(ref.row, ref.col + i) if ref.horizontal else (ref.row + i, ref.col) for i in range(len(move.letters))]
    top_tiles = [letter.letter for letter in move.letters]
    assert all(t is not None for t in top_tiles)
    grid = reply_to(out, "```\n      ")
    top_drawn = {sq: worth(edition, t.letter or "", t.joker) for sq, t in zip(squares, move.letters)}
    check_tiles_drawn(attachment(grid, "image"), top_drawn)
    rows = text_board(grid)
    assert len({len(row) for row in rows}) == 1, rows
    unseen = reply_to(out, "Lettres non visibles (")
    shown = label_counts(unseen.split(" : ", 1)[1].splitlines()[0])
    rest = Counter(edition.counts) - Counter(t for t in top_tiles if t)
    assert shown == {edition.label(s): n for s, n in rest.items() if n} | {"?": edition.jokers}
    # the export: the sheet's line and the CSV give the same scores
    sheet = reply_to(out, "N°  tirage")
    line = next(row for row in sheet.splitlines() if row.startswith(" 1  "))
    assert line.split()[:5] == ["1", spelled_draw, top_ref, top_word, str(top_score)], line
    csv_rows = attachment(sheet, "file").read_text(encoding="utf-8").splitlines()
    assert any(row.startswith(f"1,Ben,{score},") for row in csv_rows), csv_rows
    assert any(row.startswith("3,Dan,0,") for row in csv_rows), csv_rows


# --- the text board --------------------------------------------------------------------------------


def columns(text: str) -> int:
    """Display columns of ``text`` in a monospace font: none for a combining mark, two for a wide character."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@pytest.mark.parametrize("code", CODES)
def test_every_row_of_the_text_board_is_as_wide_in_every_edition(code: str) -> None:
    edition = edition_by_code(code)
    notation = Notation(edition.notation)
    board = Board()
    squares = [(row, col) for row in range(0, SIZE, 2) for col in range(SIZE)]
    symbols = edition.alphabet.symbols
    placed = {}
    for index, symbol in enumerate(symbols * 2):  # every tile, then every tile as a joker
        row, col = squares[index]
        joker = index >= len(symbols)
        board.place(row, col, Tile(symbol, joker))
        placed[(row, col)] = edition.label(symbol).lower() if joker else edition.label(symbol)
    last = list(placed)[::3]  # the last move's mark before some of them, beside unmarked ones
    lines = board_text(board, notation, last, LANG, edition).splitlines()
    rows = lines[:16]  # the header and the 15 rows; the legend follows
    assert len({columns(row) for row in rows}) == 1, "\n".join(rows)
    width = (columns(rows[0]) - 4) // SIZE
    for (row, col), label in placed.items():
        cell = rows[row + 1][4 + col * width : 4 + (col + 1) * width]  # under the column's name
        mark = ">" if (row, col) in last else " "
        assert cell == (mark + label).rjust(width), (row, col, cell, label)
    empty = rows[2][4 : 4 + width]  # a premium square
    assert empty.strip() in "*+^'."
    assert columns(empty) == width


# --- the offline tools, every edition (issue 23, "Done when") ------------------------------------------


def test_top_and_lexicon_info_in_every_edition(
    words: Words, registry: LexiconRegistry, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = words.edition
    draw = duplicate_draw(words)
    status, found = tool(capsys, "top", "--edition", edition.code, "--rack", words.spell("".join(draw)))
    best = find_top(
        Board(), "".join(draw), words.lexicon, edition, len(found["plays"]), first_move_horizontal_only=True
    ).plays  # on the empty board the tool lists each first move once, across
    assert status == 0, found
    assert found["plays"], found
    assert [p["score"] for p in found["plays"]] == [p.total for p in best]  # the engine's tops, its scores
    status, info = tool(capsys, "lexicon", "info", edition.code)
    assert status == 0
    assert info["name"] == edition.code
    assert len(info["sha256"]) == 64
    assert info["licence"]
    assert info["words"] > 0


def test_arbitre_score_reads_chorro_as_four_spanish_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    status, scored = tool(capsys, "score", "--edition", "es", "H8 CHORRO")
    assert status == 0
    assert [(m["move"], m["score"]) for m in scored] == [("H8 CHORRO", (5 + 1 + 8 + 1) * 2)]
    status, french = tool(capsys, "score", "H8 CHORRO")  # French tiles: six, the fifth (R) on H12's double letter
    assert status == 0
    assert french[0]["score"] == (3 + 4 + 1 + 1 + 1 * 2 + 1) * 2


# --- a Catalan duplicate game to its end in the console process (issue 23, "Done when") ---------------


@pytest.mark.long(3)
def test_a_catalan_duplicate_game_to_its_end_in_the_console(registry: LexiconRegistry, tmp_path: Path) -> None:
    ca = Words(edition_by_code("ca"), registry.get("ca"))
    typed = [ca.spell(w) for w in ca.checked]  # a word for each of L·L, NY, QU, Ç
    script = (
        "Ana: /reglages edition ca\nAna: /duplicate\nBen> /jouer H8 ZZZ\n"
        + f"Ana: /verif {' '.join(typed)}\n"
        + "Ana: /cloture\n" * 60
        + "Ana: /reste\nAna: /export\n"
    )
    output = run_console(script, tmp_path / "ca.sqlite", "--admin", "Ana")
    assert "[#console] Partie duplicate (ca, " in output
    assert ", ".join(f"{w} {say(LANG, 'valid')}" for w in typed) + " (liste : ca)" in output
    assert "Fin de la partie duplicate" in output
    ended = output.rsplit("Fin de la partie duplicate", 1)[1]
    assert "Lettres non visibles (" in ended  # /reste answers on the finished game
    record = ended.split("N°  tirage", 1)[1].split("```", 1)[0]
    lines = [line.split() for line in record.splitlines() if re.match(r"^\s*\d+\s", line)]
    assert len(lines) > 10
    assert [int(line[0]) for line in lines] == list(range(1, len(lines) + 1))
    alphabet = edition_by_code("ca").alphabet
    for line in lines:  # each draw written in the edition's tiles, as it reads back
        drawn = line[1].replace("+", "")
        assert alphabet.spell(alphabet.tiles(drawn)) == drawn, drawn
    found = re.search(r"\(file: ([^)]+\.csv)\)", ended)
    assert found is not None, ended
    rows = list(csv.reader(io.StringIO(Path(found.group(1)).read_text(encoding="utf-8"))))
    tops = [int(line[4]) for line in lines]
    assert rows[1][2] == str(sum(tops))
    assert rows[1][-len(tops) :] == [str(t) for t in tops]
    assert rows[2][1] == "Ben"
    assert rows[2][2] == "0"
