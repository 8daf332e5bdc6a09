"""Duplicate over chat, in-process with a controlled clock: privacy, late, replaced, restart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.chat import Incoming, Reply
from bot.games.duplicate.games import load_game
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()
CHANNEL = "club"


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def make_referee(path: Path, clock: Clock) -> Referee:
    return Referee(SQLiteStorage(path), REGISTRY, now=clock, images=False)


def send(referee: Referee, name: str, text: str, private: bool = False, admin: bool = False) -> list[Reply]:
    return referee.handle(Incoming(CHANNEL, f"u:{name.lower()}", name, text, private=private, admin=admin))


def channel_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if r.to_user is None)


def next_draw(referee: Referee, new: str) -> str:
    """The draw for the next move: the letters kept from the last one, completed with ``new``."""
    record = referee.storage.active_game(CHANNEL)
    assert record is not None
    game = load_game(referee.storage, record)
    return f"{game.reliquat}+{new[: 7 - len(game.reliquat)]}"


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_three_rounds_with_private_submissions(tmp_path: Path, clock: Clock) -> None:
    referee = make_referee(tmp_path / "d.sqlite", clock)
    public: list[Reply] = []
    public += send(referee, "Ref", "/duplicate 1 manuel")
    assert "tirages manuels" in channel_text(public)
    draw = send(referee, "Ref", "/tirage ACEHNTZ")
    assert "Coup 1 — tirage : ACEHNTZ" in draw[0].text
    assert draw[0].deadline == clock.t + 60
    public += draw

    ack = send(referee, "Ben", "/jouer H4 CHANTEZ", private=True)
    assert ack[0].to_user == "u:ben"
    assert "Reçu pour le coup 1 : H4 CHANTEZ" in ack[0].text
    first = send(referee, "Cy", "/jouer H8 ZZZ", private=True)
    assert first[0].to_user == "u:cy"
    assert "vaudra 0" in first[0].text
    replaced = send(referee, "Cy", "/jouer H6 CHANT", private=True)
    assert "(remplace H8 ZZZ)" in replaced[0].text
    refused = send(referee, "Dan", "/jouer H8 ZETA")  # in the open: refused, not recorded
    assert refused[0].to_user is None
    assert "en message privé" in refused[0].text
    public += refused

    clock.t += 31
    warning = referee.tick()
    assert [r.text for r in warning] == ["Coup 1 : plus que 29 secondes !"]
    assert referee.tick() == []  # warned once
    public += warning

    clock.t += 30  # one second past the deadline, before the clock's next tick
    late = send(referee, "Dan", "/jouer H8 ZETA", private=True)
    assert late[0].to_user == "u:dan"
    clock.t += 0.5
    results = referee.tick()
    text = channel_text(results)
    assert "Coup 1 — tirage ACEHNTZ" in text
    assert "Top : " in text
    assert "Ben : H4 CHANTEZ" in text
    assert "Cy : H6 CHANT" in text
    assert "Dan : H8 ZETA 0 — hors délai" in text
    assert "Classement après 1 coup" in text
    # before the close, nothing anyone submitted reached the channel
    before_close = channel_text(public)
    for secret in ("CHANTEZ", "ZZZ", "CHANT ", "ZETA"):
        assert secret not in before_close.replace("ACEHNTZ", "")

    # round 2 and 3, closed by the referee
    send(referee, "Ref", f"/tirage {next_draw(referee, 'EEIKLRS')}")
    send(referee, "Ben", "/jouer 8H KIR", private=True)
    closed = channel_text(send(referee, "Ref", "/cloture"))
    assert "Coup 2" in closed
    assert "Cy : pas de réponse, 0" in closed
    send(referee, "Ref", f"/tirage {next_draw(referee, 'AEINRST')}")
    closed = channel_text(send(referee, "Ref", "/cloture"))
    assert "Classement après 3 coups" in closed

    record = referee.storage.active_game(CHANNEL)
    assert record is not None
    game = load_game(referee.storage, record)
    standings = {s.player: s for s in game.standings()}
    tops = game.tops_total
    assert set(standings) == {"Ben", "Cy", "Dan"}
    assert standings["Dan"].total == 0
    assert standings["Dan"].gap == -tops
    ben = standings["Ben"]
    assert ben.gap == ben.total - tops
    assert ben.percent == round(100 * ben.total / tops, 1)
    sheet = channel_text(send(referee, "Ben", "/feuille"))
    assert "ACEHNTZ" in sheet
    assert sheet.count("\n") >= 4


def test_restart_closes_overdue_round_with_what_was_submitted(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "r.sqlite"
    first = make_referee(path, clock)
    send(first, "Ref", "/duplicate 1 manuel")
    send(first, "Ref", "/tirage ACEHNTZ")
    send(first, "Ben", "/jouer H4 CHANTEZ", private=True)
    first.storage.close()  # the bot stops

    clock.t += 120  # the deadline passes while the bot is down
    second = make_referee(path, clock)
    text = channel_text(second.tick())
    assert "Coup 1 — tirage ACEHNTZ" in text
    assert "Ben : H4 CHANTEZ" in text
    assert second.storage.deadlines() == []


def test_restart_resumes_a_running_round(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "s.sqlite"
    first = make_referee(path, clock)
    send(first, "Ref", "/duplicate 1 manuel")
    send(first, "Ref", "/tirage ACEHNTZ")
    send(first, "Ben", "/jouer H4 CHANTEZ", private=True)
    first.storage.close()

    clock.t += 10
    second = make_referee(path, clock)
    assert second.tick() == []  # still running
    send(second, "Cy", "/jouer H6 CHANT", private=True)
    clock.t += 60
    text = channel_text(second.tick())
    assert "Ben : H4 CHANTEZ" in text
    assert "Cy : H6 CHANT" in text


def test_english_channel_and_automatic_draws(tmp_path: Path, clock: Clock) -> None:
    referee = make_referee(tmp_path / "e.sqlite", clock)
    for text in ("/settings edition en", "/settings language en"):
        send(referee, "Ref", text, admin=True)
    replies = send(referee, "Ref", "/duplicate 2")
    text = channel_text(replies)
    assert "Duplicate game (en, 2 min per move, automatic draws)" in text
    assert "Move 1 — draw: " in text
    clock.t += 121
    closed = channel_text(referee.tick())
    assert "Move 1 — draw " in closed
    assert "Top: " in closed
    assert "Move 2 — draw: " in closed


def test_views_of_a_duplicate_game(tmp_path: Path, clock: Clock) -> None:
    referee = make_referee(tmp_path / "v.sqlite", clock)
    send(referee, "Ref", "/duplicate 1 manuel")
    send(referee, "Ref", "/tirage ACEHNTZ")
    (unseen,) = send(referee, "Ana", "/reste")
    assert "Lettres non visibles (102)" in unseen.text
    assert "Dans le sac (chevalets pleins) : 95" in unseen.text
    send(referee, "Ref", "/cloture")
    (board,) = send(referee, "Ana", "/grille")
    assert "CHANTEZ" in board.text.replace(" ", "").replace(">", "")
    (unseen,) = send(referee, "Ana", "/reste")
    assert "Lettres non visibles (95)" in unseen.text
    (standings,) = send(referee, "Ana", "/classement")
    assert "Classement après 1 coup" in standings.text
    (export,) = send(referee, "Ana", "/export")
    assert "ACEHNTZ" in export.text
    ended = send(referee, "Ref", "/fin")
    assert "Fin de la partie duplicate" in ended[0].text
    assert referee.storage.active_game(CHANNEL) is None


def test_each_process_clock_keeps_to_its_platform(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "shared.sqlite"
    telegram = Referee(SQLiteStorage(path), REGISTRY, now=clock, images=False, clock_scope="telegram:")
    console = Referee(SQLiteStorage(path), REGISTRY, now=clock, images=False, clock_scope="console")
    start = Incoming("telegram:-42", "telegram:1", "Ref", "/duplicate 1 manuel", admin=True)
    telegram.handle(start)
    telegram.handle(Incoming("telegram:-42", "telegram:1", "Ref", "/tirage ACEHNTZ", admin=True))
    clock.t += 120
    assert console.tick() == []  # not the console's round: it cannot post to Telegram
    assert "Top : " in channel_text(telegram.tick())


def test_calc_on_the_duplicate_board_and_without_a_game(tmp_path: Path, clock: Clock) -> None:
    referee = make_referee(tmp_path / "c.sqlite", clock)
    (reply,) = send(referee, "Ana", "/calcul H4 VAGUE")
    assert "VAGUE (4x2+1+2+1+1)x2 = 26" in reply.text  # empty board
    send(referee, "Ref", "/duplicate 1 manuel")
    send(referee, "Ref", "/tirage ACEHNTZ")
    send(referee, "Ref", "/cloture")
    (reply,) = send(referee, "Ana", "/calcul H4 VAGUE")
    assert "porte un" in reply.text  # the top now covers row H


def test_the_record_keeps_numbers_right_aligned_after_a_rejected_draw(tmp_path: Path, clock: Clock) -> None:
    referee = make_referee(tmp_path / "d.sqlite", clock)
    send(referee, "Ref", "/duplicate 1 manuel")
    send(referee, "Ana", "/rejoindre")
    send(referee, "Ref", "/tirage ACEHNTZ")
    send(referee, "Ana", "/jouer H4 CHANTEZ", private=True)
    send(referee, "Ref", "/cloture")
    send(referee, "Ref", "/tirage AEEISTU")
    send(referee, "Ref", "/tirage -")  # rejected: its own line in the record
    send(referee, "Ref", "/tirage AEEISTU")
    send(referee, "Ref", "/cloture")
    sheet = channel_text(send(referee, "Ana", "/feuille"))
    lines = sheet.split("```")[1].strip("\n").splitlines()
    header, rows = lines[0], [line for line in lines[2:] if line.split() and line.split()[0].isdigit()]
    assert len(rows) == 2
    assert any("-AEEISTU" in line for line in lines)
    for column in ("pts", "Ana"):
        end = header.index(column) + len(column)
        for row in rows:
            assert row[end - 1].isdigit(), (column, lines)
            assert len(row) == end or row[end] == " ", (column, lines)


def assert_columns_aligned(block: str) -> None:
    """Every cell of a monospace table within its column (the dashes under the header): numbers end on the
    header's last character (a mark such as ``c`` or ``*`` after them), other cells start with the header."""
    lines = block.strip("\n").splitlines()
    header, dashes, rows = lines[0], lines[1], [line for line in lines[2:] if line.strip()]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
    assert len(spans) == len(header.split()), lines
    for start, end in spans:
        head = header[start:end]
        assert head.strip(), (head, lines)
        assert start == 0 or header[start - 1] == " ", (head, lines)
        for row in rows:
            cell = row[start:end]
            assert end >= len(row) or row[end] == " ", (head, row)  # nothing spills past the column
            text = cell.strip()
            if not text:
                continue
            if re.fullmatch(r"[+\-−]?\d+(?:[.,]\d+)?[*c]*", text):
                digits = len(cell.rstrip().rstrip("*c"))
                assert digits == len(head.rstrip()), (head, row)
            else:
                assert cell.startswith(text), (head, row)
                assert head.startswith(head.strip()), (head, row)


def test_the_sheet_and_export_stay_aligned_with_a_correction_a_long_name_and_three_digits(
    tmp_path: Path, clock: Clock
) -> None:
    referee = make_referee(tmp_path / "d.sqlite", clock)
    long_name = "Bérénice-Marguerite"
    send(referee, "Ref", "/duplicate 1 manuel")
    send(referee, "Ana", "/rejoindre")
    send(referee, long_name, "/rejoindre")
    send(referee, "Ref", "/tirage AEINRST")
    send(referee, "Ana", "/jouer H2 ARISENT", private=True)
    send(referee, long_name, "/jouer H8 VOGUE", private=True)
    send(referee, "Ref", "/cloture")
    send(referee, "Ref", "/corrige Bérénice-Marguerite 1 H8 ENTRAIS bulletin mal lu")
    send(referee, "Ref", f"/tirage {next_draw(referee, 'AEILNST')}")
    send(referee, "Ref", "/cloture")
    for command in ("/feuille", "/export"):
        text = channel_text(send(referee, "Zed", command))
        sheet, standings = text.split("```")[1], text.split("```")[3]
        assert "66c" in sheet, sheet  # a corrected score
        assert re.search(r"\b1\d\d\b", sheet), sheet  # a 3-digit total
        assert_columns_aligned(sheet.split("\ncoup 1,")[0])
        assert_columns_aligned(standings)
