"""Which game a view shows: game N of /games, else the running or last one; a word that is not a game
number is refused (issue 20 item 20: /export abc exported the last game)."""

from __future__ import annotations

import pytest

from tests.club import Club


@pytest.mark.parametrize(
    ("lang", "line", "answer"),
    [
        (
            "fr",
            "/export abc",
            "« abc » n'est pas un numéro de partie. Syntaxe : /export [N], où N est un numéro de /parties.",
        ),
        ("fr", "/feuille deux", "« deux » n'est pas un numéro de partie. Syntaxe : /feuille [N]"),
        ("fr", "/grille 1 abc", "« abc » n'est pas un numéro de partie."),
        ("fr", "/classement x", "« x » n'est pas un numéro de partie."),
        ("fr", "/reste x", "« x » n'est pas un numéro de partie."),
        ("en", "/export abc", "'abc' is not a game number. Usage: /export [N], where N is a number from /games."),
    ],
)
def test_a_view_refuses_a_word_that_is_not_a_game_number(club: Club, lang: str, line: str, answer: str) -> None:
    if lang == "en":
        club.ok("Ana", "/settings language en", admin=True)
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/fin !")
    replies = club.send("Ana", line)
    assert [r.error for r in replies] == [True]
    assert answer in replies[0].text
    assert replies[0].document is None


def test_game_numbers_and_sheet_pages_still_work(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ana", "/fin Ben=EAU !")
    assert any(r.document is not None for r in club.send("Ana", "/export 1"))
    assert "H8 VAGUE" in club.ok("Ana", "/feuille p1")
    assert "H8 VAGUE" in club.ok("Ana", "/feuille 1 p1")
    assert "Il n'y a pas de partie n°2 ici" in club.refused("Ana", "/export 2")
