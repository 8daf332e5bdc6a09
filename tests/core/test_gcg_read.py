"""Reading GCG files (core.gcg): the samples replayed with every score matching, end-of-game styles and rule
sets, refused events, syntax and encodings."""

from __future__ import annotations

import pytest

from core.errors import LetterMismatchError
from core.errors_records import GcgEventError, GcgSyntaxError
from core.events import (
    ChallengeBonus,
    End,
    Exchange,
    Pass,
    Play,
)
from core.gcg import read_gcg, rules_for_lexicon
from core.gcg_model import GcgPlayer
from core.gcg_read import decode_gcg
from core.rules import GoingOut, rule_set_by_code
from tests.core.gcg_samples import HEADER, OPENING, SAMPLES, load

# --- the sample files -------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_replay_with_every_score_matching(name: str) -> None:
    record = load(name)
    assert record.error is None
    assert record.mismatches == []
    assert all(e.status == "ok" for e in record.entries)
    last_cumulative = {e.player: e.recorded_cumulative for e in record.entries}
    assert record.final() == last_cumulative
    assert all(e.cumulative == e.recorded_cumulative for e in record.entries)
    assert record.game.ended


def test_quackle_era_file() -> None:
    record = load("quackle_club.gcg")  # ISO-8859-1, CRLF, no lexicon, literal through letters
    assert record.players == (
        GcgPlayer("helene", "Hélène Côté"),
        GcgPlayer("jp.o'neil-2", "Jean-Pierre O'Neil"),
    )
    assert record.lexicon is None
    assert record.rules.code == "naspa"
    assert record.description == "Partie amicale au club de Montréal"
    assert [e.type for e in record.entries] == [
        "play",
        "play",
        "exchange",
        "play",
        "pass",
        "play",
        "withdrawn",
        "play",
        "play",
        "play",
        "play",
        "end_rack",
    ]
    first = record.entries[0]
    assert (first.line, first.move, first.rack, first.notes) == (4, "8d JOKER", "EJKORTU", ["Bon départ."])
    assert first.event == Play("helene", "8D JOKER", claimed=48)
    roamed = record.entries[1]
    assert roamed.event == Play("jp.o'neil-2", "H8 ROAMED", claimed=10)
    assert record.game.lines[1].placement is not None
    assert [c.letter for c in record.game.lines[1].placement.new_tiles] == list("OAMED")  # R was there
    assert record.entries[2].event == Exchange("helene", "QU")  # extra spaces
    grazed = record.game.board.get(12, 5)
    assert grazed is not None
    assert grazed.letter == "Z"
    assert grazed.joker
    axy = record.game.lines[5]
    assert axy.removed
    assert axy.points == 0
    assert record.game.board.get(9, 9) is None
    assert (record.entries[6].recorded, record.entries[6].computed) == (-21, -21)
    end = record.entries[-1]
    assert end.event == End((("helene", "EGOP"), ("jp.o'neil-2", "")))
    assert (end.recorded, end.computed, end.tiles) == (14, 14, "EGOP")  # NASPA: twice the rack
    assert record.final() == {"helene": 71, "jp.o'neil-2": 83}


def test_woogles_file() -> None:
    record = load("woogles_csw21.gcg")
    assert record.players[0] == GcgPlayer("cesar_77", "César Ibáñez")
    assert (record.lexicon, record.rules.code) == ("CSW21", "wespa")
    assert record.title == "Coupe d'été — ronde 5"
    assert record.game_id == "io.woogles Xq7tPz3Lm"
    exchange = record.entries[1]
    assert (exchange.type, exchange.event, exchange.notes) == (
        "exchange",
        Exchange("kat.o-b", "7"),
        ["Seven vowels: throw them all back."],
    )
    assert record.entries[4].event == ChallengeBonus("kat.o-b", 5)
    bingo = record.entries[5]
    assert bingo.computed == 61
    assert record.game.lines[5].score is not None
    assert record.game.lines[5].score.bingo
    assert bingo.notes == ["GRANDEST, the only bingo on this rack,\nhits the double letter at L1 and nothing else."]
    out, left, time = record.entries[-3:]
    assert out.event is left.event  # one End for the group of end-of-game lines
    assert out.event == End((("cesar_77", ""), ("kat.o-b", "DEIU")))
    assert [(e.type, e.recorded, e.computed, e.cumulative) for e in (out, left, time)] == [
        ("end_rack", 5, 5, 137),
        ("end_rack", -5, -5, 42),
        ("time_penalty", -10, -10, 32),
    ]
    # the engine refuses events after the end: the time penalty went in before it
    assert [sheet_line.kind for sheet_line in record.game.lines[-3:]] == ["time_penalty", "end", "end"]


def test_six_zero_ending_and_pragmata() -> None:
    record = load("sixzero_nwl20.gcg")
    assert record.notes == ["Club night, board 4."]
    assert record.pragmata == [(7, "event-round", "7")]
    assert record.racks == {"ana": "ACEIRST", "bo_2": "EFNQ"}
    assert record.entries[3].notes == ["Lost the challenge of GRITS (double challenge)."]
    assert record.entries[3].event == Pass("bo_2")  # a turn lost to a challenge, as Woogles writes it
    end = record.entries[-1].event
    assert end == End((("ana", "ACEIRST"), ("bo_2", "EFNQ")), stopped=True)  # nobody went out
    assert [(sheet_line.player, sheet_line.points) for sheet_line in record.game.lines if sheet_line.kind == "end"] == [
        ("ana", -9),
        ("bo_2", -16),
    ]
    assert [s.final for s in record.game.standings()] == [25, -1]


def test_a_wrong_recorded_score_is_one_mismatch() -> None:
    record = load("wrong_score.gcg")
    assert record.error is None
    [wrong] = record.mismatches
    assert (wrong.line, wrong.move, wrong.recorded, wrong.computed) == (13, "G8 .OVE", 13, 11)
    assert (record.game.lines[4].claimed, record.game.lines[4].points) == (13, 11)
    assert record.final() == {"ana": 25, "bo_2": -1}  # the board decides, not the file


def test_events_list_pairs_lines_with_engine_events() -> None:
    record = load("woogles_csw21.gcg")
    first = record.events[0]
    assert (first.line, first.event, first.recorded, first.cumulative) == (
        8,
        Play("cesar_77", "8D VIZOR", claimed=42),
        42,
        42,
    )
    assert len(record.events) == len(record.entries)


# --- end-of-game styles and rule sets ------------------------------------------------------


def test_naspa_end_in_a_csw_game_is_read_from_the_file() -> None:
    # Woogles credits twice the rack in CSW games too: the file's own end line decides.
    text = "#lexicon CSW21\n" + HEADER + OPENING + ">bob:  (EGOP) +14 22\n"
    record = read_gcg(text)
    assert record.error is None
    assert record.mismatches == []
    assert record.game.rules.going_out is GoingOut.ADD_TWICE
    assert record.game.rules.code == "wespa"
    assert record.final() == {"ann": 18, "bob": 22}


def test_forced_rules_report_the_other_end_style_not_fatal() -> None:
    text = "#lexicon CSW21\n" + HEADER + OPENING + ">bob:  (EGOP) +14 22\n"
    record = read_gcg(text, rules=rule_set_by_code("wespa"))
    assert record.error is None
    out, synthetic = record.entries[-2:]
    assert (out.recorded, out.computed) == (14, 7)  # WESPA: the rack once...
    assert synthetic.synthetic
    assert synthetic.player == "ann"
    assert (synthetic.recorded, synthetic.computed, synthetic.line) == (None, -7, 6)  # ...and -7 for ann
    assert len(record.mismatches) == 2
    assert record.final() == {"ann": 11, "bob": 15}


def test_wespa_end_in_a_nwl_game() -> None:
    text = "#lexicon NWL20\n" + HEADER + OPENING + ">bob:  (EGOP) +7 15\n>ann: EGOP (EGOP) -7 11\n"
    record = read_gcg(text)
    assert record.mismatches == []
    assert [(e.recorded, e.computed) for e in record.entries[-2:]] == [(7, 7), (-7, -7)]


def test_blocked_end_and_a_player_with_only_a_blank() -> None:
    text = HEADER + OPENING + ">ann: ? (?) -0 18\n>bob: QZ (QZ) -20 -12\n"
    record = read_gcg(text)
    assert record.mismatches == []
    assert record.entries[-2].event == End((("ann", "?"), ("bob", "QZ")), stopped=True)  # blocked


@pytest.mark.parametrize(
    ("lexicon", "rules"),
    [("CSW21", "wespa"), ("csw19", "wespa"), ("NWL23", "naspa"), ("TWL06", "naspa"), (None, "naspa")],
)
def test_rules_follow_the_lexicon(lexicon: str | None, rules: str) -> None:
    assert rules_for_lexicon(lexicon).code == rules


def test_players_in_order_of_appearance_without_pragmata() -> None:
    record = read_gcg(">x.y: EHLPRTU 8G HELP +18 18\n>z-1: AOSSUWW J5 SOU. +8 8\n")
    assert [p.nick for p in record.players] == ["x.y", "z-1"]
    assert record.mismatches == []


def test_player_two_moving_first_rotates_the_turn_order() -> None:
    text = HEADER + ">bob: EHLPRTU 8G HELP +18 18\n>ann: AOSSUWW J5 SOU. +8 8\n"
    record = read_gcg(text)
    assert [p.nick for p in record.players] == ["ann", "bob"]
    assert record.game.players == ["bob", "ann"]
    assert record.game.to_move == "bob"


# --- refused events ----------------------------------------------------------------------


def test_an_illegal_play_stops_the_replay_at_its_line() -> None:
    text = HEADER + OPENING + ">ann: ABC 8G HELD +18 36\n>bob: DO 9C DO +5 13\n"
    record = read_gcg(text)
    assert record.error is not None
    assert record.error.line == 5
    assert "8G HELD" in str(record.error)
    assert "line 5" in str(record.error)
    assert isinstance(record.error.cause, LetterMismatchError)
    assert [e.status for e in record.entries] == ["ok", "ok", "rejected", "skipped"]
    assert len(record.game.lines) == 2
    assert record.final() == {"ann": 18, "bob": 8}
    assert len(record.mismatches) == 1
    with pytest.raises(GcgEventError) as info:
        read_gcg(text, strict=True)
    assert info.value.line == 5


def test_withdrawn_must_be_the_last_players_play() -> None:
    record = read_gcg(HEADER + OPENING + ">ann: EHLP -- -18 0\n")
    assert record.error is not None
    assert "bob's, not ann's" in str(record.error)
    assert record.game.lines[0].points == 18
    assert not record.game.lines[0].removed


def test_an_event_after_the_end_is_refused() -> None:
    record = read_gcg(HEADER + OPENING + ">bob:  (EGOP) +14 22\n>ann: D 9G .O +3 21\n")
    assert record.error is not None
    assert record.error.line == 6
    assert record.entries[-1].status == "rejected"


# --- syntax and encodings ----------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        ">ann 8G HELP +18 18",  # no colon
        ">: EHLP 8G HELP +18 18",  # no nick
        ">ann: 8G HELP +18",  # no cumulative
        ">ann: EHLP 8G HELP 18x 18",  # bad score
        ">ann: EHLP 8G HELP +18 x",  # bad cumulative
        ">ann: EHLP 8G HE-LP +18 18",  # bad word
        ">ann: EHLP 8G H(E)LP +18 18",  # brackets are not GCG
        ">ann: EHLP 8Z HELP +18 18",  # column off the board
        ">ann: EHLP 16G HELP +18 18",  # row off the board
        ">ann: EHLP HELP +18 18",  # no position
        ">ann: EH LP 8G HELP +18 18",  # two racks
        ">ann: EHLP -Q1 +0 18",  # bad exchange
        ">ann: EHLP -9 +0 18",  # more than a rack
        ">ann:  (time) +10 8",  # a penalty is negative
        ">ann:  (penalty) +10 8",
        ">cy: EHLP 8G HELP +18 18",  # undeclared nick
        "this is not GCG",
        "#player3",  # a player pragma without a nick
    ],
)
def test_malformed_lines_name_their_line(line: str) -> None:
    text = HEADER + OPENING + line + "\n"
    with pytest.raises(GcgSyntaxError) as info:
        read_gcg(text)
    assert info.value.line == 5
    assert info.value.text == line
    assert str(info.value).startswith("line 5: ")
    assert repr(line) in str(info.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("#player1 ann Ann\n#player2 ann Annie\n", "two players with the nick ann"),
        ("#player1 ann Ann\n#player1 bob Bob\n", "player 1 is already declared"),
        (HEADER + OPENING + "#player3 cy Cy\n", "before the first event"),
        ("#player1 a:b A\n", "cannot contain ':'"),
        ("#arbitre-rules nope\n", "unknown rule set"),
    ],
)
def test_bad_pragmata(text: str, reason: str) -> None:
    with pytest.raises(GcgSyntaxError, match=reason):
        read_gcg(text)


def test_encodings() -> None:
    latin = "#player1 ann Anaïs Gérard\n#player2 bob Bob\n".encode("iso-8859-1")
    assert read_gcg(latin).players[0].name == "Anaïs Gérard"
    utf8 = "#character-encoding UTF-8\n#player1 ann Anaïs Gérard\n".encode()
    assert read_gcg(utf8).players[0].name == "Anaïs Gérard"
    assert read_gcg(b"\xef\xbb\xbf#player1 ann Ana\xc3\xafs\n").players[0].name == "Anaïs"
    assert read_gcg("#player1 ann Anaïs\n").players[0].name == "Anaïs"  # text is taken as is
    assert decode_gcg("#character-encoding utf8\r\n#title Été\r\n".encode()).endswith("Été\r\n")
    with pytest.raises(GcgSyntaxError) as info:
        read_gcg(b"#character-encoding UTF-8\n#player1 ann Ann\n#title \xe9t\xe9\n")
    assert info.value.line == 3
    with pytest.raises(GcgSyntaxError, match="unknown character encoding"):
        read_gcg(b"#character-encoding KLINGON\n")


def test_blank_lines_and_unknown_pragmata_are_harmless() -> None:
    text = "\n#player1 ann Ann\n\n#player2 bob Bob\n#interesting yes\n\n" + OPENING + "\n"
    record = read_gcg(text)
    assert record.mismatches == []
    assert record.pragmata == [(5, "interesting", "yes")]
