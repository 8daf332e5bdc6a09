"""/export of classic games played in the chat, as GCG."""

from __future__ import annotations

import pytest

from core.events import (
    Exchange,
)
from core.gcg import read_gcg
from tests.club import Club
from tests.core.gcg_samples import HEADER, OPENING

# --- /export of games played in the chat (issue 20 items 16 and 28) -----------------------------


def _exported(club: Club, referee: str = "Ana") -> str:
    replies = club.send(referee, "/export")
    document = next(r.document for r in replies if r.document is not None)
    return document.decode("utf-8")


@pytest.mark.parametrize(
    ("lang", "new", "announced", "pragma"),
    [
        ("fr", "/nouvelle Ana Ben Cleo fisf", "règles box-fr (fisf se joue à deux", "#arbitre-rules box-fr"),
        ("fr", "/nouvelle Ana Ben Cleo Dan fisf", "règles box-fr (fisf se joue à deux", "#arbitre-rules box-fr"),
        ("en", "/new en Ann Bob Cy naspa", "rules box-en (naspa is for two players", "#arbitre-rules box-en"),
        ("fr", "/nouvelle Ana Ben fisf", "règles fisf", "#arbitre-rules fisf"),
    ],
)
def test_the_record_of_a_game_names_the_rules_it_was_played_under(
    club: Club, lang: str, new: str, announced: str, pragma: str
) -> None:
    referee = new.split()[1]
    if lang == "en":
        club.ok(referee, "/settings language en", admin=True)
    assert announced in club.ok(referee, new)
    club.ok(referee, "/coup H8 VAGUE" if lang == "fr" else "/score 8H VAGUE")
    text = _exported(club, referee)
    assert pragma in text.splitlines()
    record = read_gcg(text)
    assert record.rules.code == pragma.split()[-1]
    assert record.mismatches == []


@pytest.mark.parametrize(
    "lines",
    [
        ("/nouvelle Ana Ben", "/coup H8 VAGUE", "/change", "/change 3", "/change E?", "/fin Ana=? Ben=EAU !"),
        ("/new Ana Ben", "/score H8 VAGUE", "/exchange", "/exchange 3", "/exchange E?", "/end Ana=? Ben=EAU !"),
    ],
    ids=["fr", "en"],
)
def test_an_exchange_of_unknown_tiles_claims_no_count_and_a_joker_left_is_a_question_mark(
    club: Club, lines: tuple[str, ...]
) -> None:
    new, play, unknown, count, tiles, end = lines
    if new.startswith("/new"):
        club.ok("Ana", "/settings language en", admin=True)
    club.ok("Ana", new)
    club.ok("Ana", play)
    club.ok("Ben", unknown)  # tiles and count unknown
    club.ok("Ana", count)  # a count, tiles unknown
    club.ok("Ben", tiles)
    club.ok("Ana", end)
    lines = tuple(_exported(club).splitlines())
    events = list(lines[lines.index(">Ana: AEGUV 8H VAGUE +20 20") + 1 :])
    assert events == [
        ">Ben:  - +0 0",  # no made-up "-1": a turn that scores nothing...
        "#note arbitre: exchange of unknown tiles",  # ...that was an exchange
        ">Ana:  -3 +0 20",
        ">Ben: E? -E? +0 0",
        ">Ana: ? (?) -0 20",  # the joker is ? on the rack and in brackets; it is worth 0
        ">Ben: EAU (EAU) -3 -3",
    ]
    record = read_gcg("\n".join(lines))
    assert [e.event for e in record.entries if e.type in ("exchange", "pass")] == [
        Exchange("Ben", ""),
        Exchange("Ana", "3"),
        Exchange("Ben", "E?"),
    ]
    assert record.final() == {"Ana": 20, "Ben": -3}
    assert record.mismatches == []


def test_an_old_record_with_minus_one_and_the_note_still_reads_as_an_unknown_exchange() -> None:
    text = HEADER + OPENING + ">ann:  -1 +0 18\n#note arbitre: exchange of unknown tiles\n"
    record = read_gcg(text)
    assert record.entries[-1].event == Exchange("ann", "")


def test_a_rack_given_as_its_value_is_written_in_brackets_only(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ana", "/fin Ana=? Ben=12 !")
    lines = _exported(club).splitlines()
    assert lines[-1] == ">Ben:  (12) -12 -12"  # not '>Ben: 12 (12)': 12 is no tile
    assert read_gcg("\n".join(lines)).final() == {"Ana": 20, "Ben": -12}
