"""The duplicate record as text (``bot.render.record``): core's one record model, shown in each language."""

from __future__ import annotations

import pytest

from bot.messages import decimal
from bot.render.record import end_reason_text, record_table, standings_text
from tests.core.duplicate_finders import SMALL_WORDS, BruteTop, club_game, first_round


def test_record_table_in_english_and_french() -> None:
    game = club_game()
    english = record_table("en", game).splitlines()
    assert english[0].split() == ["#", "draw", "ref", "top", "pts", "total", "A", "B"]
    assert english[3].split() == ["2", "AIRT+DHM", "11H", "DIRHAM", "36", "60", "30", "36"]
    assert english[2].index("ZEN") == english[3].index("DIRHAM")  # columns aligned
    french = record_table("fr", game).splitlines()
    assert french[0].split() == ["N°", "tirage", "réf", "top", "pts", "cumul", "A", "B"]
    assert [line.split() for line in french[2:]] == [line.split() for line in english[2:]]


def test_standings_with_the_decimal_mark_of_the_language() -> None:
    game = club_game()
    assert "92,3" in standings_text("fr", game)
    assert "92.3" in standings_text("en", game)
    assert decimal("fr", 100.0) == "100,0"
    assert decimal("en", 83.3) == "83.3"
    assert decimal("fr", 0.3) == "0,3"


def test_solo_and_rejected_draws_are_marked() -> None:
    game = first_round(["A", "B", "C"], solo_min_players=3)
    game.submit("A", "H8 ZEN")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    lines = record_table("en", game).splitlines()
    assert lines[2].split()[-3:] == ["24*", "0", "0"]
    rejected = first_round(["A"], draw="AEIOUEZ")
    rejected.reject_draw()
    rejected.draw_manual("AEINRTZ")
    rejected.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert record_table("en", rejected).splitlines()[2].split() == ["-AEEIOUZ"]


@pytest.mark.parametrize(
    ("lang", "expected"), [("fr", "aucun coup possible avec AEINRTZ"), ("en", "no play possible with AEINRTZ")]
)
def test_why_the_game_ended(lang: str, expected: str) -> None:
    game = first_round(["A"], draw="AEINRTZ")
    assert end_reason_text(lang, game) == ""
    game.close_round(BruteTop(["QI"]), {"QI"})
    # FISF 3.6: a draw without a play is drawn again while the bag allows a different one; the game ends
    # after three in a row (3.7, tests/core/test_fisf_top_and_end.py), on the last one's letters
    assert end_reason_text(lang, game) == ""
    for draw in ("AEIMRTZ", "AEINRTZ"):
        game.draw_manual(draw)
        game.close_round(BruteTop(["QI"]), {"QI"})
    assert end_reason_text(lang, game) == expected
