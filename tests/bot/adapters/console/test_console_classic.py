"""Whole classic games typed into the console adapter (a real process on a real SQLite file)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.render.board import WIDTH as BOARD_WIDTH
from bot.render.board import grid_height
from bot.storage import SQLiteStorage
from tests.transcripts import replies, run_console

GAME_FR = """\
# a classic game, FISF rules
Ana: /reglages regles fisf
Ana: /nouvelle Ana Ben
Ana: /coup H7 HANTEZ
Ben: /coup 6F FACADES 95
Ana: /conteste
Ana: /coup G8 HUES
Ben: /coup F10 JOUET
Ana: /conteste
Ana: /coup 12H ZZZ
Ben: /conteste
Ben: /passe
Ana: /change ABC
Ben: /coup 5E DEVOTE
Ana: /annule
Ben: /passe
Ana: /penalite Ben 10
Ana: /feuille
Ana: /fin Ben=EAU !
"""


def test_classic_game_in_french(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    out = replies(run_console(GAME_FR, db, "--admin", "Ana"))
    assert "HANTEZ (4+1+1+1+1+10x2)x2 = 56" in out[2]
    assert "FACADES 4x3+1+3+1+2x3+1+1 = 25" in out[3]
    assert "= 25 + 21 + 50 = 96" in out[3]
    assert "vous annoncez 95, le coup vaut 96" in out[3]
    # valid challenge under FISF rules: 5 points per word wrongly challenged (2 words)
    assert "FACADES valable, CHANTEZ valable" in out[4]
    assert "Ana perd 10 points" in out[4]
    assert "HUES 4+1x2+1+1 = 8" in out[5]
    assert "= 8 + 5 + 3 + 2 + 2 = 20" in out[5]
    assert "JOUET 8x3+1+1+1+1x3 = 30" in out[6]
    assert "= 30 + 26 + 3 = 59" in out[6]
    assert "Contestation : JOUET valable, JET valable, OSE valable" in out[7]
    assert "Ana perd 15 points" in out[7]
    # invalid word: the move is taken back
    assert "ZZZ non valable" in out[9]
    assert "retiré et vaut 0" in out[9]
    assert "Ben passe." in out[10]
    assert "Ana change ABC." in out[11]
    assert "Annulé : le coup de Ben, 5E DEVOTE." in out[13]
    assert "Pénalité : Ben perd 10 points." in out[15]
    sheet = out[16]
    assert "contesté : ZZZ non valable" in sheet
    assert "contestation perdue" in sheet
    assert "Fin de partie." in out[17]
    final = out[17].splitlines()
    # stopped with tiles in the bag: nobody went out, Ben loses his rack and Ana gains nothing
    # Ana: 56 - 10 + 20 - 15 = 51; Ben: 96 + 59 - 10 - 3 = 142
    assert final[1:] == ["1. Ben 142 (145 -3)", "2. Ana 51 (51 +0)"]
    store = SQLiteStorage(db)
    game = store.active_game("console")
    assert game is None  # ended
    kinds = [e.data["kind"] for e in store.events(1)]
    assert kinds.count("undo") == 1
    assert kinds[-1] == "end"
    store.close()


GAME_EN = """\
Ann: /settings edition en
Ann: /settings language en
Ann: /settings rules naspa
Ann: /new Ann Bob
Ann: /score 8G ZAX
Bob: /challenge
Ann: /score H8 .E
Bob: /score 9F QI
Ann: /challenge QI
Bob: /exchange 3
Ann: /board
Ann: /unseen
Ann: /export
Ann: /end Ann= Bob=QI !
"""


def test_classic_game_in_english_gcg(tmp_path: Path) -> None:
    out = replies(run_console(GAME_EN, tmp_path / "b.sqlite", "--lang", "en", "--admin", "Ann"))
    assert "ZAX (10+1+8)x2 = 38" in out[4]
    # a valid challenge under NASPA rules: the challenger loses the turn
    assert "ZAX valid. Ann's move stands." in out[5]
    assert "Bob loses this turn." in out[5]
    assert "Ann to play." in out[5]
    assert "AE" in out[6]
    board_reply = next(r for r in out if "(image:" in r)
    image_path = Path(board_reply.split("(image: ")[1].rstrip(")"))
    with Image.open(image_path) as image:
        assert image.format == "PNG"
        assert image.width == BOARD_WIDTH
        assert image.height > grid_height()
    assert image_path.stat().st_size < 200_000
    assert "Unseen tiles" in "\n".join(out)
    export = next(r for r in out if "#player1" in r)
    assert ">Ann: " in export
    assert "8G ZAX +38 38" in export
    assert "Game over." in out[-1]


def test_bad_input_gets_polite_answers_and_changes_nothing(tmp_path: Path) -> None:
    script = """\
Ana: /nouvelle Ana Ben
Ana: /coup H8
Ana: /coup Z9 VAGUE
Ana: /coup H8 VA-GUE
Ana: /coup A1 VAGUE
Ana: /coup H4 VAGUE
Ben: /coup H3 ZOO
Ben: /coup 4G AVIONS
Ana: /coup 4G EVIONS
Ana: /penalite Ben dix
Ana: /fin Ben=E!
Ana: /nimporte
Ana: /feuille
"""
    out = replies(run_console(script, tmp_path / "c.sqlite"))
    assert "Coup illisible « H8 »" in out[1]
    assert "Référence illisible « Z9 »" in out[2]
    assert "« - » n'est pas une lettre" in out[3]
    assert "passer par la case centrale H8" in out[4]
    assert "Ben : 4G AVIONS" in out[7]
    assert "La case G4 porte un A, pas un E." in out[8]
    assert "« dix » n'est pas un nombre entier" in out[9]
    assert "« E! » n'est ni des lettres" in out[10]
    assert "Je ne connais pas la commande /nimporte" in out[11]
    sheet = out[12]
    assert "H4 VAGUE" in sheet
    assert "4G AVIONS" in sheet
    assert sheet.count("\n") == 5
