"""The sheet without a board (issue 26, part 3; the seed scorekeeper ``004``): points typed for each turn
(up to 2,000), "Passer", "Changer" and "Mot repris" written as zero, "Annuler la dernière ligne", and the
end with the racks left, by letters or by value (FISF 5.1.1: the player who went out gains the others'
racks; 5.1.2: nobody went out, each loses their own).

A three-player game is typed into a real console process to its end and exported, its CSV read back and
checked against totals worked here by hand; bad inputs are refused politely with nothing changed; a new
referee on the same SQLite file goes on with the game; a sheet whose words are known exports a GCG that
the engine's own reader replays on a board to the same scores.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.chat import Incoming
from bot.messages import say as catalog_say
from bot.referee import Referee
from bot.storage import GameKind, GameStatus, SQLiteStorage, Storage
from core.boardless import (
    BoardlessGame,
    Finished,
    SheetEvent,
    Turn,
    TurnKind,
    Undone,
    all_words_known,
    sheet_event_from_dict,
    sheet_event_to_dict,
)
from core.edition import edition_by_code
from core.errors_boardless import (
    MOST_POINTS,
    SheetNothingToUndoError,
    SheetOverError,
    SheetPointsError,
    SheetRackError,
    SheetTurnError,
    SheetTwoWentOutError,
    SheetWordError,
)
from core.gcg import read_gcg
from core.kinds import Game
from core.rules import rule_set_by_code
from tests.ready_lists import ready_registry
from tests.transcripts import replies, run_console

FR = edition_by_code("fr")
VALUE = FR.values  # the French tile values (FISF duplicate rules 1.1)


def _a_game(game: Game[SheetEvent]) -> Game[SheetEvent]:
    return game  # mypy: the sheet answers the protocol every kind of game answers


def sheet(*players: str) -> BoardlessGame:
    return BoardlessGame(FR, list(players))


# --- the core sheet: rule tables ---------------------------------------------------------------

# (racks typed at the end, the change of each player's total); totals before: Ana 40, Ben 30, Cy 20
END_RULES = [
    # FISF 5.1.1 (reliquat épuisé): the empty rack went out, gains the others', each of them loses theirs
    ({"Ana": "", "Ben": "EAU", "Cy": "7"}, {"Ana": 3 + 7, "Ben": -3, "Cy": -7}),
    ({"Ana": "QZ", "Ben": "0", "Cy": "?E"}, {"Ana": -(8 + 10), "Ben": 18 + 1, "Cy": -1}),
    # FISF 5.1.2 (blocage): nobody went out, each loses their own, nobody gains
    ({"Ana": "K", "Ben": "2", "Cy": "??"}, {"Ana": -10, "Ben": -2, "Cy": 0}),
]


@pytest.mark.parametrize(("racks", "change"), END_RULES)
def test_the_end_moves_the_racks_as_fisf_5_1_says(racks: dict[str, str], change: dict[str, int]) -> None:
    game = sheet("Ana", "Ben", "Cy")
    for points in (40, 30, 20):
        game.apply(Turn(game.to_move or "", TurnKind.POINTS, points))
    before = {"Ana": 40, "Ben": 30, "Cy": 20}
    game.apply(Finished(tuple(game.rack(p, racks[p]) for p in game.players)))
    assert game.ended
    assert game.to_move is None
    assert game.totals() == {p: before[p] + change[p] for p in before}
    assert [s.adjustment for s in sorted(game.standings(), key=lambda s: game.players.index(s.player))] == [
        change[p] for p in game.players
    ]


# (rule set, players, racks, change): whose rule for going out applies, with its fallback for 3-4 players
GOING_OUT_RULES = [
    ("fisf", 2, {"Ana": "", "Ben": "QZ"}, {"Ana": 18, "Ben": -18}),  # FISF 5.1.1
    ("naspa", 2, {"Ana": "", "Ben": "QZ"}, {"Ana": 2 * 18, "Ben": 0}),  # NASPA: twice the rack, none off
    ("box-en", 2, {"Ana": "", "Ben": "QZ"}, {"Ana": 18, "Ben": -18}),  # the box: add and subtract
    ("fisf", 3, {"Ana": "", "Ben": "QZ", "Cy": "K"}, {"Ana": 18 + 10, "Ben": -18, "Cy": -10}),  # box-fr for 3
]


@pytest.mark.parametrize(("rules", "count", "racks", "change"), GOING_OUT_RULES)
def test_going_out_follows_the_rule_set_in_force(
    rules: str, count: int, racks: dict[str, str], change: dict[str, int]
) -> None:
    game = BoardlessGame(FR, ["Ana", "Ben", "Cy"][:count], base_rules=rule_set_by_code(rules))
    game.apply(Finished(tuple(game.rack(p, racks[p]) for p in game.players)))
    assert game.totals() == change  # racks by value: Q 8 + Z 10 = 18, K 10 (French values)
    assert (VALUE["Q"] + VALUE["Z"], VALUE["K"]) == (18, 10)


# (rule set, players, zero turns typed, limit noted): FISF 3.2 six scoreless turns of any kind for two;
# the box rules (and FISF's fallback for three) count passes only, two per player
SCORELESS_RULES = [
    ("fisf", 2, [TurnKind.PASS, TurnKind.EXCHANGE, TurnKind.TAKEN_BACK] * 2, True),
    ("fisf", 2, [TurnKind.PASS] * 5, False),
    ("box-fr", 2, [TurnKind.PASS] * 4, True),
    ("box-fr", 2, [TurnKind.PASS, TurnKind.PASS, TurnKind.EXCHANGE, TurnKind.PASS], False),
    ("fisf", 3, [TurnKind.PASS] * 6, True),
    ("fisf", 3, [TurnKind.EXCHANGE] * 6, False),
]


@pytest.mark.parametrize(("rules", "count", "turns", "noted"), SCORELESS_RULES)
def test_scoreless_turns_reach_the_limit_as_the_rules_count_them(
    rules: str, count: int, turns: list[TurnKind], noted: bool
) -> None:
    game = BoardlessGame(FR, ["Ana", "Ben", "Cy"][:count], base_rules=rule_set_by_code(rules))
    game.apply(Turn("Ana", TurnKind.POINTS, 12))
    for kind in turns:
        game.apply(Turn(game.to_move or "", kind))
    assert game.scoreless_limit_reached is noted
    assert not game.ended


# seed 004: "Passer", "Changer" et "Mot repris" inscrivent zéro ; points tapés jusqu'à 2 000 par coup
TURN_RULES = [
    (TurnKind.POINTS, 0, True),
    (TurnKind.POINTS, MOST_POINTS, True),
    (TurnKind.POINTS, MOST_POINTS + 1, False),
    (TurnKind.POINTS, -1, False),
    (TurnKind.PASS, 0, True),
    (TurnKind.EXCHANGE, 0, True),
    (TurnKind.TAKEN_BACK, 0, True),
    (TurnKind.PASS, 5, False),
    (TurnKind.TAKEN_BACK, 12, False),
]


@pytest.mark.parametrize(("move", "points", "taken"), TURN_RULES)
def test_a_turn_scores_0_to_2000_and_the_zero_turns_nothing(move: TurnKind, points: int, taken: bool) -> None:
    game = sheet("Ana", "Ben")
    turn = Turn("Ana", move, points)
    if taken:
        game.apply(turn)
        assert game.totals()["Ana"] == points
        assert game.to_move == "Ben"
    else:
        with pytest.raises(SheetPointsError):
            game.apply(turn)
        assert game.events == []
        assert game.to_move == "Ana"


def test_the_sheet_refuses_what_cannot_be_and_keeps_its_events() -> None:
    game = sheet("Ana", "Ben")
    with pytest.raises(SheetNothingToUndoError):
        game.apply(Undone())
    with pytest.raises(SheetTurnError):
        game.apply(Turn("Ben", TurnKind.POINTS, 5))
    with pytest.raises(SheetWordError):
        game.word_tiles("VAG9E")
    with pytest.raises(SheetWordError):
        game.word_tiles("A" * 16)
    with pytest.raises(SheetRackError):
        game.rack("Ana", "Q1Z")
    with pytest.raises(SheetRackError):
        game.rack("Ana", "ABCDEFGH")  # more than a rack holds
    with pytest.raises(SheetTwoWentOutError):
        game.apply(Finished((game.rack("Ana", ""), game.rack("Ben", "0"))))
    game.apply(Turn("Ana", TurnKind.WORD, 26, game.word_tiles("vague"), game.square("h4")))
    game.apply(Finished((game.rack("Ana", ""), game.rack("Ben", "EAU"))))
    with pytest.raises(SheetOverError):
        game.apply(Turn("Ben", TurnKind.POINTS, 5))
    assert len(game.events) == 2


def test_events_go_through_their_stored_form_and_rebuild_the_same_sheet() -> None:
    game = sheet("Ana", "Ben")
    for event in (
        Turn("Ana", TurnKind.WORD, 26, "VAGUE", "H4"),
        Turn("Ben", TurnKind.POINTS, 12),
        Undone(),
        Turn("Ben", TurnKind.EXCHANGE),
        Finished((game.rack("Ana", "QZ"), game.rack("Ben", ""))),
    ):
        game.apply(event)
    again = BoardlessGame(
        FR, ["Ana", "Ben"], events=[sheet_event_from_dict(sheet_event_to_dict(e)) for e in game.events]
    )
    assert again.rows() == game.rows()
    assert again.totals() == game.totals() == {"Ana": 26 - 18, "Ben": 0 + 18}
    assert _a_game(again).players == ["Ana", "Ben"]
    assert again.to_move is None


# --- through the console: a three-player game to its end ------------------------------------------

GAME_FR = """\
Ana: /nouvelle Ana Ben Cy sans-grille
Ana: /coup 26
Ben: /coup H4 VAGUE 18
Cy: /coup 2500
Cy: /coup repris
Ana: /coup G4 AVIONS 14
Ben: /passe
Cy: /coup 40
Ana: /coup 12
Ana: /annule
Ana: /coup 15
Ben: /change
Cy: /coup Cy 7
Ana: /grille
Ana: /reste
Ana: /fin Ana=0 Ben=EAU Cy=7
Ana: /feuille
Ana: /export
Ana: /parties
"""

# worked by hand from the script: Ana 26 + 14 + 15 (her 12 undone), then she went out with Ben's EAU
# (E, A, U: 1 point each) and Cy's 7 points; Ben 18, then loses EAU; Cy 0 (word taken back) + 40 + 7 - 7
ANA = 26 + 14 + 15 + (VALUE["E"] + VALUE["A"] + VALUE["U"]) + 7
BEN = 18 - (VALUE["E"] + VALUE["A"] + VALUE["U"])
CY = 0 + 40 + 7 - 7


def test_a_three_player_sheet_played_to_its_end_in_the_console(tmp_path: Path) -> None:
    db = tmp_path / "sheet.sqlite"
    output = run_console(GAME_FR, db)
    out = replies(output)
    assert out[0].startswith("[#console] Nouvelle feuille sans grille")
    assert "Joueurs : Ana, Ben, Cy" in out[0]
    assert "Un coup vaut de 0 à 2000 points : 2500 ne s'inscrit pas" in out[3]
    assert "Cy : mot repris (0 pt)." in out[4]
    assert "Annulé : la ligne d'Ana, points (12 pts)" in out[9]
    assert catalog_say("fr", "sheet_no_board") in out[13]
    assert catalog_say("fr", "sheet_no_unseen") in out[14]
    assert "Fin de partie." in out[15]
    assert f"1. Ana {ANA}" in out[15]
    assert f"Ben {BEN}" in out[15]
    assert f"Cy {CY}" in out[15]
    assert f"Scores : Ana {ANA} · Ben {BEN} · Cy {CY}" in out[16]

    found = re.search(r"\(file: ([^)]+\.csv)\)", output)
    assert found is not None, output
    rows = list(csv.reader(io.StringIO(Path(found.group(1)).read_text(encoding="utf-8"))))
    blank = rows.index([])
    lines, results = rows[1:blank], rows[blank + 2 :]
    assert rows[0] == ["N°", "joueur", "coup", "réf", "pts", "total"]
    assert [(r[1], r[2], r[3], int(r[4])) for r in lines[:3]] == [
        ("Ana", "points", "", 26),
        ("Ben", "VAGUE", "H4", 18),
        ("Cy", "mot repris", "", 0),
    ]
    for player in ("Ana", "Ben", "Cy"):  # each line's total is the running sum of that player's points
        own = [r for r in lines if r[1] == player]
        running = 0
        for row in own:
            running += int(row[4])
            assert int(row[5]) == running
    totals = {r[1]: int(r[2]) for r in results}
    assert totals == {"Ana": ANA, "Ben": BEN, "Cy": CY}
    assert [r[0] for r in results] == ["1", "2", "3"]
    assert [r[1] for r in results] == ["Ana", "Cy", "Ben"]
    assert "sans grille, terminée · Ana, Ben, Cy" in out[-1]

    storage = SQLiteStorage(db)
    try:
        (record,) = storage.games("console")
        assert record.kind is GameKind.BOARDLESS
        assert record.status is GameStatus.ENDED
    finally:
        storage.close()


# --- through the referee: bad inputs, a restart, a GCG --------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sheet.sqlite"


@pytest.fixture
def referee(db: Path) -> Iterator[Referee]:
    storage = SQLiteStorage(db)
    made = Referee(storage, ready_registry(), images=False)
    yield made
    made.clock.shutdown()
    storage.close()


def say(referee: Referee, text: str, user: str = "u:ana", name: str = "Ana") -> str:
    return "\n".join(r.text for r in referee.handle(Incoming("room", user, name, text)))


def same_view(again: str, before: str) -> bool:
    """Whether a view asked again is the one shown before: the same text, or, asked again in the room within
    a minute, the same text answered privately under the line saying it is unchanged (``once_in_public``)."""
    repeated = fr("view_shown_above", seconds=1).split(" 1 ")[0]
    return again == before or (again.startswith(repeated) and again.split("\n", 1)[1] == before)


def fr(key: str, **values: object) -> str:
    return catalog_say("fr", key, **values)


BAD_INPUTS = [
    ("/coup 2001", fr("sheet_err_points", points=2001, most=MOST_POINTS)),
    ("/coup -3", fr("sheet_err_points", points=-3, most=MOST_POINTS)),
    ("/coup 1,5", fr("bad_number", text="1,5")),
    ("/coup VAGUE dix", fr("bad_number", text="dix")),
    ("/coup VAGUE", fr("sheet_points_needed", word="VAGUE", name="coup")),
    ("/coup VAG3E 12", fr("sheet_err_word", word="VAG3E")),
    ("/coup Z9 VAGUE 12", fr("sheet_err_square", text="Z9")),
    ("/coup Ben 12", fr("not_their_turn", player="Ben", to_move="Ana")),
    ("/coup @Zoé 12", fr("err_unknown_player", player="Zoé", players="Ana, Ben, Cy")),
    ("/coup", fr("usage", usage=fr("usage_score"))),
    ("/fin Ana=0 Ben=0 Cy=3", fr("sheet_err_two_out", players="Ana, Ben")),
    ("/fin Ana=Q1 Ben=0", fr("sheet_err_rack", player="Ana", rack="Q1")),
    ("/fin Ana", fr("sheet_end_usage", name="fin")),
    ("/fin Zoé=3", fr("err_unknown_player", player="Zoé", players="Ana, Ben, Cy")),
    ("/conteste", fr("sheet_no_challenge", name="conteste")),
    ("/penalite Ben 5", fr("sheet_not_here", name="penalite")),
]


@pytest.mark.parametrize(("text", "answer"), BAD_INPUTS)
def test_bad_input_is_answered_politely_and_changes_nothing(referee: Referee, text: str, answer: str) -> None:
    say(referee, "/nouvelle Ana Ben Cy sans-grille")
    say(referee, "/coup 10")
    say(referee, "/annule")  # Ana to move again, one undone line in the log
    record = referee.storage.active_game("room")
    assert record is not None
    before = (say(referee, "/feuille"), len(referee.storage.events(record.id)))
    assert say(referee, text) == answer
    assert same_view(say(referee, "/feuille"), before[0])
    assert len(referee.storage.events(record.id)) == before[1]
    assert referee.storage.active_game("room") == record


# what /score takes on a sheet: (typed, the turn stored: move, points, word, square)
TURN_FORMS = [
    ("/coup 26", ("points", 26, None, None)),
    ("/coup Ana 26", ("points", 26, None, None)),
    ("/coup @Ana 26", ("points", 26, None, None)),
    ("/coup VAGUE 26", ("word", 26, "VAGUE", None)),
    ("/coup vague 26", ("word", 26, "VAGUE", None)),  # all lowercase: plain letters, as people type
    ("/coup VAGuE 24", ("word", 24, "VAGuE", None)),  # a joker in lowercase, as /score writes it
    ("/coup VAG(U)E 24", ("word", 24, "VAGuE", None)),
    ("/coup H4 VAGUE 26", ("word", 26, "VAGUE", "H4")),
    ("/coup VAGUE h4 26", ("word", 26, "VAGUE", "H4")),
    ("/coup 26 VAGUE", ("word", 26, "VAGUE", None)),
    ("/coup Ana 4G AVIONS 18", ("word", 18, "AVIONS", "4G")),
    ("/coup repris", ("taken_back", 0, None, None)),
    ("/coup passe", ("pass", 0, None, None)),
    ("/coup change", ("exchange", 0, None, None)),
    ("/passe", ("pass", 0, None, None)),
    ("/change ABC", ("exchange", 0, None, None)),  # the letters are not kept: nobody can check them
    ("/coup 2000", ("points", 2000, None, None)),
]


@pytest.mark.parametrize(("text", "stored"), TURN_FORMS)
def test_what_a_turn_may_be_typed_as(referee: Referee, text: str, stored: tuple[object, ...]) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    record = referee.storage.active_game("room")
    assert record is not None
    said = say(referee, text)
    (event,) = [e.data for e in referee.storage.events(record.id)]
    assert (event["move"], event["points"], event.get("word"), event.get("square")) == stored
    assert f"Scores : Ana {stored[1]} · Ben 0" in said
    assert "À Ben de jouer." in said


def test_a_sheet_starts_with_two_to_four_players_and_never_over_a_running_game(referee: Referee) -> None:
    for players in ("Ana", "Ana Ben Cy Dan Eve", ""):
        count = len(players.split())
        assert say(referee, f"/nouvelle {players} sans-grille") == fr("sheet_err_players", count=count, low=2, high=4)
    assert referee.storage.games("room") == []
    assert say(referee, "/nouvelle Ana ana sans-grille") == fr("err_duplicate_player", player="ana")
    say(referee, "/nouvelle Ana Ben")  # a classic game runs
    running = fr("game_running", kind=fr("kind_classic"), referee="Ana", name="nouvelle")
    assert say(referee, "/nouvelle Ana Ben sans-grille") == running
    assert "Nouvelle feuille sans grille (en)" in say(referee, "/nouvelle en Ana Ben sans-grille fisf !")
    kinds = [(g.kind, g.status, g.setup.rules, g.setup.edition) for g in referee.storage.games("room")]
    assert kinds[1] == (GameKind.BOARDLESS, GameStatus.ACTIVE, "fisf", "en")
    assert kinds[0][:2] == (GameKind.CLASSIC, GameStatus.ABANDONED)


def test_a_player_records_their_own_turn_only(referee: Referee) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    ana = referee.storage.active_game("room")
    assert ana is not None
    assert say(referee, "/coup 8", user="u:ben", name="Ben") == fr("not_your_turn", to_move="Ana", referee="Ana")
    assert "Ana : points, 8 pts." in say(referee, "/coup 8")
    assert "Ben : VAGUE, 20 pts." in say(referee, "/coup vague 20", user="u:ben", name="Ben")
    assert say(referee, "/coup 3", user="u:ben", name="Ben") == fr("not_your_turn", to_move="Ana", referee="Ana")


def test_a_new_referee_on_the_same_file_goes_on_with_the_sheet(db: Path) -> None:
    goes_on_after_a_restart(lambda: SQLiteStorage(db))


def test_a_sheet_goes_on_after_a_restart_on_postgres_too(postgres_url: str) -> None:
    from bot.storage.sql.postgres import PostgresStorage

    goes_on_after_a_restart(lambda: PostgresStorage(postgres_url))  # the same games table, kind "boardless"


def goes_on_after_a_restart(open_storage: Callable[[], Storage]) -> None:
    first = Referee(open_storage(), ready_registry(), images=False)
    say(first, "/nouvelle Ana Ben Cy sans-grille")
    say(first, "/coup 20")
    say(first, "/coup 30")
    sheet_before = say(first, "/feuille")
    first.clock.shutdown()
    first.storage.close()

    second = Referee(open_storage(), ready_registry(), images=False)
    try:
        assert say(second, "/feuille") == sheet_before
        assert "À Cy de jouer." in sheet_before
        assert "Scores : Ana 20 · Ben 30 · Cy 5" in say(second, "/coup 5")
        said = say(second, "/fin Ana=3 Ben=0 Cy=EAU")
        assert f"Ben {30 + 3 + 3}" in said
        assert f"Ana {20 - 3}" in said
        assert f"Cy {5 - 3}" in said
        (record,) = second.storage.games("room")
        assert record.kind is GameKind.BOARDLESS
        assert record.status is GameStatus.ENDED
    finally:
        second.clock.shutdown()
        second.storage.close()


def test_undo_right_after_the_end_takes_the_end_back(referee: Referee) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    say(referee, "/coup 30")
    say(referee, "/fin Ana=0 Ben=QZ")
    assert referee.storage.active_game("room") is None
    assert say(referee, "/annule", user="u:ben", name="Ben") == fr("not_allowed", referee="Ana", name="annule")
    said = say(referee, "/annule")
    assert said.startswith(fr("undone_end", by="Ana"))
    assert "Scores : Ana 30 · Ben 0" in said
    assert "À Ben de jouer." in said
    assert "Ben : points, 4 pts." in say(referee, "/coup 4")
    ended = say(referee, "/fin Ana=2 Ben=EAU")  # nobody went out: each loses their own, nobody gains
    assert f"1. Ana {30 - 2} (30 -2)" in ended
    assert f"2. Ben {4 - 3} (4 -3)" in ended
    assert [g.status for g in referee.storage.games("room")] == [GameStatus.ENDED]


def test_the_english_names_and_a_gcg_the_engine_replays(referee: Referee) -> None:
    referee.storage.save_channel(referee.storage.channel("room").with_changes(language="en"))
    assert "New sheet without a board" in say(referee, "/new Ana Ben no-board")
    say(referee, "/score H4 VAGUE 26")  # the seed's VAGUE: (4 x 2 + 1 + 2 + 1 + 1) x 2 = 26
    (export,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    assert export.text == catalog_say("en", "sheet_export_gcg", gcg=export.text.split("\n", 1)[1])
    say(referee, "/score 4G AVIONS 18")  # AVIONS down from G4 through the V: (1 + 4 + 1 + 1 + 1 + 1) x 2 = 18
    say(referee, "/score withdrawn")
    say(referee, "/pass")
    say(referee, "/end Ana=0 Ben=QZ")
    record = referee.storage.games("room")[0]
    game: BoardlessGame = referee.games.load(referee.storage, record)
    assert all_words_known(game)
    (export,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    gcg = export.text.split("```\n", 1)[1].rsplit("```", 1)[0]
    replayed = read_gcg(gcg)
    assert replayed.error is None
    assert [(e.label, e.recorded, e.computed) for e in replayed.entries if e.type == "play"] == [
        ("8D VAGUE", 26, 26),
        ("D7 AVIONS", 18, 18),
    ]
    assert all(e.status == "ok" for e in replayed.entries)
    final = {e.player: e.cumulative for e in replayed.entries}
    qz = VALUE["Q"] + VALUE["Z"]
    assert final == {"Ana": 26 + qz, "Ben": 18 - qz} == game.totals()
    header = ",".join(catalog_say("en", f"col_{key}") for key in ("number", "player", "move", "ref", "points", "total"))
    assert export.document is not None
    assert export.document.decode().split("\n")[:3] == [header, "1,Ana,VAGUE,H4,26,26", "2,Ben,AVIONS,4G,18,18"]


def test_the_views_of_a_sheet(referee: Referee) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    for turn in range(45):  # 45 lines: a sheet shown 40 lines at a time, as a classic one
        say(referee, f"/coup {turn}")
    last_page, first_page = say(referee, "/feuille"), say(referee, "/feuille p1")
    assert fr("sheet_paged", first=41, last=45, count=45, page=2, pages=2) in last_page
    assert fr("sheet_paged", first=1, last=40, count=45, page=1, pages=2) in first_page
    ana = sum(range(0, 45, 2))
    ben = sum(range(1, 45, 2))
    assert say(referee, "/classement") == f"1. Ana {ana} ({ana} +0)\n2. Ben {ben} ({ben} +0)"
    moves, first_moves = say(referee, "/coups Ben"), say(referee, "/coups Ben p1")  # the latest first, as /feuille
    assert moves.startswith(fr("moves_title", player="Ben"))
    assert moves.count("points") == 2
    assert moves.endswith(fr("paged_lines", first=21, last=22, count=22, page=2, pages=2))
    assert first_moves.count("points") == 20
    assert say(referee, "/coups Zoé") == fr("err_unknown_player", player="Zoé", players="Ana, Ben")


def test_a_joker_in_a_gcg_counts_nothing_when_the_engine_replays_it(referee: Referee) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    say(referee, "/coup H4 VAGuE 24")  # the U a joker: (4 x 2 + 1 + 2 + 0 + 1) x 2 = 24
    say(referee, "/coup 4G AVIONS 18")
    (export,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    gcg = export.text.split("```\n", 1)[1].rsplit("```", 1)[0]
    assert ">Ana: VAG?E 8D VAGuE +24 24" in gcg.splitlines()
    replayed = read_gcg(gcg)
    assert replayed.error is None
    assert [(e.recorded, e.computed) for e in replayed.entries] == [(24, 24), (18, 18)]


def test_a_sheet_with_points_only_exports_csv_and_says_why_no_gcg(referee: Referee) -> None:
    say(referee, "/nouvelle Ana Ben sans-grille")
    say(referee, "/coup VAGUE 26")  # a word without its square: no GCG
    (export,) = referee.handle(Incoming("room", "u:ana", "Ana", "/export"))
    assert export.text == fr("sheet_export_csv")
    assert export.document_name == "game-1-sheet.csv"
    assert say(referee, "/grille") == fr("sheet_no_board")
    assert say(referee, "/reste") == fr("sheet_no_unseen")
    assert say(referee, "/etat").startswith(fr("sheet_kind_status"))
