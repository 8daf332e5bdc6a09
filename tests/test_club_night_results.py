"""What a replayed club night found wrong in duplicate (issue 37), each through the command layer on a real
SQLite file: the solo below the top (3.5), topping with several players (3.8.4), the answer with fewer
jokers than missing letters, the receipts under FISF sanctions (5.9), the answer sent just after a new draw.
"""

from __future__ import annotations

import pytest

from tests.club import Club

# --- fewer jokers than missing letters -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "receipt", "result"),
    [
        (
            "fr",
            "lettres absentes du tirage : Z, Z ; son joker ne peut en remplacer qu'une",
            "Ana : H8 ZZ 0 — lettres absentes du tirage : Z, Z ; son joker ne peut en remplacer qu'une",
        ),
        (
            "en",
            "letters not in the draw: Z, Z; its joker can stand for only one of them",
            "Ana: H8 ZZ 0 — letters not in the draw: Z, Z; its joker can stand for only one of them",
        ),
    ],
)
def test_two_missing_letters_and_one_joker_are_letters_not_in_the_draw(
    club: Club, lang: str, receipt: str, result: str
) -> None:
    """``H8 ZZ`` with one joker and no Z was told "joker à écrire en minuscule pour Z, Z": no circling makes it
    playable, one Z is missing whatever the joker stands for."""
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", "/duplicate 3 manual")
    club.ok("Ref", "/draw AEIRST?")
    said = club.ok("Ana", "/play H8 ZZ", private=True)
    assert receipt in said and "lowercase" not in said and "minuscule" not in said
    one = club.ok("Ben", "/play H7 TRAINS", private=True)  # one letter missing, one joker: the joker's circle
    assert ("minuscule pour N" if lang == "fr" else "lowercase for N") in one
    assert result in club.ok("Ref", "/close")
