"""The formats of the FISF rule book's section 3.8 (joker, 7 sur 8, 7 et 8, topping) and the clocks of
section 1.3 with the calls of section 3.3: draw rules, bonuses, tops, whole games through the referee and
the console, images, records and replays."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from bot.games.duplicate import texts as duplicate_texts
from bot.games.duplicate.games import load_game
from bot.render.results import round_result_scene, standings_scene
from core.board import Board
from core.draw import Bag
from core.duplicate import (
    DuplicateFormat,
    DuplicateGame,
    DuplicateSettings,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
    place_top,
)
from core.duplicate.formats import play_rules
from core.edition import FRENCH, JOKER
from core.errors_duplicate import DrawJokerError
from core.formats import FORMATS, FormatSpec, format_names
from core.movegen import generate_plays
from core.notation import Notation, parse_move
from core.placement import validate_move
from core.scoring import score_placement
from tests.club import CHANNEL, REGISTRY, Club
from tests.storage_backends import active_game
from tests.transcripts import run_console

FRENCH_LIST = REGISTRY.get("fr")
J, S8, E8, T = (
    DuplicateFormat.JOKER,
    DuplicateFormat.SEVEN_OF_EIGHT,
    DuplicateFormat.SEVEN_AND_EIGHT,
    DuplicateFormat.TOPPING,
)


# --- the rule tables ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "game_format", "drawn", "most_placed"),
    [
        ("1.2.3", DuplicateFormat.CLASSIC, 7, 7),
        ("3.8.1", J, 7, 7),  # six letters and the joker
        ("3.8.2", S8, 8, 7),  # "huit lettres, mais on ne peut en utiliser que sept au maximum"
        ("3.8.2", E8, 8, 8),
        ("3.8.4", T, 7, 7),
    ],
)
def test_tiles_drawn_and_placed(section: str, game_format: DuplicateFormat, drawn: int, most_placed: int) -> None:
    edition = game_format.edition(FRENCH)
    assert game_format.section == section
    assert (edition.draw_size, edition.rack_size) == (drawn, most_placed)
    assert game_format.rules(FRENCH).draw_size == drawn


@pytest.mark.parametrize(
    ("section", "game_format", "placed", "bonus"),
    [
        ("1.2.3", DuplicateFormat.CLASSIC, 6, 0),
        ("1.2.3", DuplicateFormat.CLASSIC, 7, 50),
        ("3.8.1", J, 7, 50),
        ("3.8.2", S8, 6, 0),
        ("3.8.2", S8, 7, 50),  # "Si le joueur utilise sept lettres, la prime Scrabble de 50 points est attribuée"
        ("3.8.2", E8, 7, 50),  # "Si le joueur en utilise sept, il marque 50 points de prime"
        ("3.8.2", E8, 8, 75),  # "S'il utilise les huit, il marque 75 points de prime"
    ],
)
def test_bonus_by_tiles_placed(section: str, game_format: DuplicateFormat, placed: int, bonus: int) -> None:
    assert game_format.section == section
    assert game_format.edition(FRENCH).bonus_for(placed) == bonus


def test_a_move_of_eight_tiles_scores_75_more_in_7_et_8_and_is_refused_in_7_sur_8() -> None:
    board = Board()
    move = parse_move("H1 ANTIRIDE", Notation.FISF)
    eight = validate_move(board, move, rack_size=8)
    words = score_placement(eight, FRENCH).total  # 8 tiles: no bonus in the box's rules
    assert score_placement(eight, E8.edition(FRENCH)).total == words + 75
    game = DuplicateGame(FRENCH, ["Ana"], DuplicateSettings(format=S8))
    game.draw_manual("ADEIINRT")
    assert "7" in str(game.preview("Ana", "H1 ANTIRIDE").error)  # too many tiles: at most seven (3.8.2)
    game7 = DuplicateGame(FRENCH, ["Ana"], DuplicateSettings(format=E8))
    game7.draw_manual("ADEIINRT")
    assert game7.preview("Ana", "H1 ANTIRIDE").score == words + 75


@pytest.mark.parametrize(
    ("section", "minutes", "call", "seconds"),
    [
        ("1.3, 3.3", 3, 0, 30),  # the usual three minutes: "trente secondes"
        ("1.3, 3.3", 2.5, 0, 30),
        ("1.3, 3.3", 2, 0, 30),  # semi-rapide
        ("1.3, 3.3", 1, 20, 20),  # blitz chosen by name: "vingt secondes"
        ("1.3, 3.3", 1, 0, 30),  # a one-minute clock typed as a number keeps its 30 s call
        ("training", 0.5, 0, 15),  # under a minute: half the time, as before
    ],
)
def test_the_call_before_the_end(section: str, minutes: float, call: float, seconds: float) -> None:
    assert section
    assert DuplicateSettings(minutes=minutes, call=call).call_seconds == seconds


@pytest.mark.parametrize(
    ("game_format", "minutes", "threshold"),
    [(DuplicateFormat.CLASSIC, 3, 4), (DuplicateFormat.CLASSIC, 1, 6), (J, 3, 6), (S8, 3, 6), (E8, 2, 6), (T, 1, 6)],
)
def test_the_original_formats_count_six_warnings_5_9(
    game_format: DuplicateFormat, minutes: float, threshold: int
) -> None:
    assert DuplicateSettings(minutes=minutes, format=game_format).warning_threshold == threshold


def test_every_joker_format_draw_holds_one_joker_while_one_is_left_3_8_1() -> None:
    game = DuplicateGame(FRENCH, [], DuplicateSettings(format=J))
    finder = movegen_top_finder(FRENCH_LIST, game.edition, game.settings)
    rng = random.Random(7)
    jokers_seen = []
    while not game.finished:
        left = game.bag.count(JOKER) + game.reliquat.count(JOKER)
        game.draw(rng)
        draw = game.current.draw if game.current is not None else None
        assert draw is not None
        jokers_seen.append(draw.letters.count(JOKER))
        assert draw.letters.count(JOKER) == (1 if left else 0), (game.move_number, str(draw))
        game.close_round(finder, FRENCH_LIST)
    assert jokers_seen.count(1) > jokers_seen.count(0)  # the joker is replaced, so it comes back


def test_a_typed_joker_format_draw_needs_its_joker() -> None:
    game = DuplicateGame(FRENCH, [], DuplicateSettings(format=J))
    with pytest.raises(DrawJokerError):
        game.draw_manual("AEGRSUV")
    with pytest.raises(DrawJokerError):
        game.draw_manual("AEGRU??")
    assert game.events[1:] == []  # refused: nothing recorded
    game.draw_manual("AEGRUV?")


@pytest.mark.parametrize(
    ("letter_left", "board_tile_is_joker", "bag_jokers_after"),
    [(True, False, 1), (False, True, 0)],  # 3.8.1: replaced "à condition qu'elle soit encore présente dans le sac"
)
def test_the_tops_joker_is_replaced_by_its_letter_from_the_bag(
    letter_left: bool, board_tile_is_joker: bool, bag_jokers_after: int
) -> None:
    board = Board()
    top = validate_move(board, parse_move("H8 GAVEURs", Notation.FISF))
    bag = Bag("SSA" if letter_left else "AAB")
    after = place_top(board, bag, top, replaces_joker=True)
    tile = board.get(7, 13)
    assert tile is not None
    assert tile.letter == "S"
    assert tile.joker is board_tile_is_joker
    assert after.count(JOKER) == bag_jokers_after
    assert after.count("S") == (1 if letter_left else 0)


# --- the 7/8 tops against every play -----------------------------------------------------------------


@pytest.mark.parametrize("game_format", [S8, E8])
def test_the_7_8_top_is_the_best_of_every_play_allowed_3_8_2(game_format: DuplicateFormat) -> None:
    settings = DuplicateSettings(format=game_format)
    game = DuplicateGame(FRENCH, [], settings)
    edition = game.edition
    finder = movegen_top_finder(FRENCH_LIST, edition, settings)
    every = dataclasses.replace(edition, rack_size=8)  # lists the plays of all eight tiles too
    rng = random.Random(23)
    for _ in range(4):
        game.draw(rng)
        assert game.current is not None
        assert game.current.draw is not None
        letters = game.current.draw.letters
        plays = generate_plays(game.board, edition.spell(letters), FRENCH_LIST, every)
        allowed = [p for p in plays if len(p.placement.new_tiles) <= edition.rack_size]
        found = finder(game.board.copy(), letters)
        assert found.plays[0].score.total == max(p.score.total for p in allowed)
        game.close_round(finder, FRENCH_LIST)


@pytest.mark.parametrize(
    ("game_format", "draw", "ties"),
    [(S8, "AEILNRST", 246), (E8, "AEILNRST", 14), (S8, "EAIRSTN?", 102), (E8, "UEIRSTN?", 80)],
)
@pytest.mark.long(6)
def test_the_7_8_formats_count_every_tied_top_once_3_8_2(game_format: DuplicateFormat, draw: str, ties: int) -> None:
    """Issue 37, item 3: the tops tied in score are counted over every part of the draw, each play once (the
    count said 66 and 12 for AEILNRST, the plays each part's search had built)."""
    edition = game_format.edition(FRENCH)
    every = dataclasses.replace(edition, rack_size=8)  # lists the plays of all eight tiles too
    plays = generate_plays(Board(), edition.spell(draw), FRENCH_LIST, every, first_move_horizontal_only=True)
    allowed = [p for p in plays if len(p.placement.new_tiles) <= edition.rack_size]
    best = max(p.score.total for p in allowed)
    assert sum(1 for p in allowed if p.score.total == best) == ties  # every play, each placement once
    found = movegen_top_finder(FRENCH_LIST, edition, DuplicateSettings(format=game_format), 12)(Board(), draw)
    assert found.top_count == ties
    assert len(found.plays) == 12
    assert found.plays[0].score.total == best


@pytest.mark.parametrize(("word", "ties", "more"), [("7sur8", 246, "et 234 autres"), ("7et8", 14, "et 2 autres")])
def test_the_tie_hint_says_how_many_tops_top_n_offers(club: Club, word: str, ties: int, more: str) -> None:
    club.ok("Ref", f"/duplicate 3 {word} manuel")
    club.wait_for_tops_list()
    club.ok("Ref", "/tirage AEILNRST")
    closed = club.ok("Ref", "/cloture")
    assert "12) " in closed
    assert more in closed
    assert f"{ties} coups font le top ; /top N propose les 12 numérotés" in closed
    assert "de 1 à 12" in club.refused("Ref", "/top 13")
    assert "Top du coup 1 changé" in club.ok("Ref", "/top 12")


# --- whole games through the referee -------------------------------------------------------------------


def _top_of(club: Club) -> tuple[str, int, DuplicateGame]:
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    game = load_game(club.storage, record)
    assert game.current is not None
    assert game.current.draw is not None
    found = movegen_top_finder(FRENCH_LIST, game.edition, game.settings)(game.board.copy(), game.current.draw.letters)
    best = found.plays[0]
    return best.placement.notation(Notation.FISF), best.score.total, game


@pytest.mark.parametrize(
    ("word", "game_format", "tag"), [("joker", J, "joker"), ("7sur8", S8, "7 sur 8"), ("7et8", E8, "7 et 8")]
)
@pytest.mark.long(5)
def test_a_whole_game_of_each_format_through_the_referee(
    club: Club, word: str, game_format: DuplicateFormat, tag: str
) -> None:
    started = club.ok("Ref", f"/duplicate 3 {word}")
    assert f"§ {game_format.section} du règlement" in started
    assert f"(formule {tag})" in started
    club.wait_for_tops_list()
    rounds = 0
    while club.storage.active_game(CHANNEL) is not None and rounds < 40:
        move, points, game = _top_of(club)
        ack = club.ok("Ana", f"/jouer {move}", private=True)
        assert f"{points} points" in ack
        text = club.ok("Ref", "/cloture")
        assert f"(formule {tag})" in text
        assert "Ana : " + move.split()[0] in text
        rounds += 1
    assert "Fin de la partie duplicate" in text
    ended = club.storage.games(CHANNEL)[-1]
    game = load_game(club.storage, ended)
    assert game.finished
    assert game.settings.format is game_format
    assert rounds > 10
    assert {len(r.draw.letters) for r in game.closed_rounds[:5] if r.draw} == {game.edition.draw_size}
    assert game.standings()[0].total == game.tops_total  # Ana played every top
    sheet = club.ok("Ref", "/feuille")
    assert f"formule {tag} (§ {game_format.section})" in sheet
    if game_format is E8:
        assert max(len(r.top.new_tiles) for r in game.closed_rounds if r.top) <= 8
    if game_format is S8:
        assert max(len(r.top.new_tiles) for r in game.closed_rounds if r.top) <= 7


def test_topping_alone_against_the_computer_is_ranked_by_time_3_8_4(club: Club) -> None:
    started = club.ok("Ana", "/duplicate topping entrainement")
    assert "formule topping" in started.lower()
    assert "1 min par coup" in started
    club.wait_for_tops_list()
    tries = 0
    while club.storage.active_game(CHANNEL) is not None and tries < 40:
        move, points, game = _top_of(club)
        others = (
            [
                p
                for p in movegen_top_finder(FRENCH_LIST, game.edition)(
                    game.board.copy(), game.current.draw.letters
                ).plays
                if p.score.total < points
            ]
            if game.current and game.current.draw
            else []
        )
        club.now += 4
        if others:
            wrong = club.ok("Ana", f"/jouer {others[0].placement.notation(Notation.FISF)}", private=True)
            assert "ce n'est pas le top" in wrong
        club.now += 3
        found = club.ok("Ana", f"/jouer {move}", private=True)
        assert f"Top trouvé au coup {game.move_number}" in found
        assert "en 7,0 s" in found
        if tries == 0:  # nobody was seated at the first draw: the first move runs its minute (issue 37)
            record = club.storage.active_game(CHANNEL)
            assert record is not None
            assert load_game(club.storage, record).move_number == 1
            club.tick(53)
        tries += 1
    ended = load_game(club.storage, club.storage.games(CHANNEL)[-1])
    assert ended.finished
    assert len(ended.closed_rounds) == tries
    standing = ended.standings()[0]
    assert standing.seconds == pytest.approx(7.0 * tries)
    csv_lines = duplicate_texts.results_csv("fr", ended).decode().splitlines()
    assert "temps (s)" in csv_lines[0]
    assert f"{7.0 * tries:.1f}" in csv_lines[2]


def test_a_topping_top_not_found_in_time_costs_20_seconds(club: Club) -> None:
    club.ok("Ref", "/duplicate topping")
    club.wait_for_tops_list()
    club.ok("Ana", "/rejoindre")
    club.ok("Ben", "/rejoindre")
    move, _, game = _top_of(club)
    club.now += 10
    club.ok("Ana", f"/jouer {move}", private=True)  # Ben has not found it: the round stays open
    assert club.storage.active_game(CHANNEL) is not None
    assert load_game(club.storage, active_game(club.storage, CHANNEL)).move_number == 1
    closed = club.tick(51)  # the minute is up
    text = "\n".join(r.text for r in closed)
    assert "top en 10,0 s" in text
    assert "top donné : 80,0 s (20 s de pénalité)" in text
    after = load_game(club.storage, active_game(club.storage, CHANNEL))
    places = [(s.player, s.place, s.seconds) for s in after.standings()]
    assert places == [("Ana", 1, 10.0), ("Ben", 2, 80.0)]


# --- clocks -------------------------------------------------------------------------------------------


def test_blitz_calls_twenty_seconds_and_the_semi_rapid_clock_two_minutes(club: Club) -> None:
    started = club.ok("Ref", "/duplicate blitz manuel")
    assert "1 min par coup" in started
    assert "Annonce « 20 secondes »" in started
    club.ok("Ref", "/tirage AEGRSUV")
    assert club.tick(39) == []
    call = club.tick(1)
    assert [r.text for r in call] == ["Coup 1 : plus que 20 secondes !"]
    club.ok("Ref", "/fin")
    assert "2 min par coup" in club.ok("Ref", "/duplicate semi-rapide manuel")
    club.ok("Ref", "/fin")
    assert "2,5 min par coup" in club.ok("Ref", "/duplicate 2:30 manuel")


# --- images, records, old logs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_format", "label"),
    [(J, "Formule joker"), (S8, "Formule 7 sur 8"), (E8, "Formule 7 et 8"), (T, "Formule topping")],
)
def test_the_images_name_the_format(tmp_path: Path, game_format: DuplicateFormat, label: str) -> None:
    game = DuplicateGame(FRENCH, ["Ana", "Ben"], DuplicateSettings(format=game_format), "fr")
    finder = movegen_top_finder(FRENCH_LIST, game.edition, game.settings)
    game.draw(random.Random(4), at=0.0)
    assert game.current is not None
    assert game.current.draw is not None
    best = finder(game.board.copy(), game.current.draw.letters).plays[0]
    game.submit("Ana", best.placement.notation(), at=12.0)
    game.close_round(finder, FRENCH_LIST)
    closed = game.closed_rounds[-1]
    result = round_result_scene(duplicate_texts.result_view("fr", game, closed))
    standings = standings_scene(duplicate_texts.standings_view("fr", game))
    assert any(label in item.text for item in result.labels)
    assert any(label in item.text for item in standings.labels)
    if game_format is T:
        assert any(item.text == "Temps (s)" for item in standings.labels)
    (tmp_path / f"{game_format}.png").write_bytes(duplicate_texts.standings_image("fr", game) or b"")


@pytest.mark.parametrize("game_format", list(DuplicateFormat))
def test_a_game_of_each_format_replays_from_its_events_through_json(game_format: DuplicateFormat) -> None:
    game = DuplicateGame(FRENCH, ["Ana"], DuplicateSettings(format=game_format, minutes=1), "fr")
    finder = movegen_top_finder(FRENCH_LIST, game.edition, game.settings)
    rng = random.Random(9)
    for number in range(6):
        game.draw(rng, at=number * 100.0)
        assert game.current is not None
        assert game.current.draw is not None
        best = finder(game.board.copy(), game.current.draw.letters).plays[0]
        game.submit("Ana", best.placement.notation(), at=number * 100.0 + 5)
        game.close_round(finder, FRENCH_LIST)
    data = json.loads(json.dumps([event_to_dict(e) for e in game.events]))
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.board == game.board
    assert again.record() == game.record()
    assert again.standings() == game.standings()
    assert again.edition.draw_size == game.edition.draw_size
    assert again.bag == game.bag


def test_classic_settings_are_stored_as_before_and_old_logs_load_as_classic() -> None:
    stored = DuplicateSettings().to_dict()
    assert "format" not in stored
    assert "call" not in stored
    assert DuplicateSettings.from_dict(stored).format is DuplicateFormat.CLASSIC
    joker = DuplicateSettings(format=J, call=20).to_dict()
    assert joker["format"] == "joker"
    assert DuplicateSettings.from_dict(joker).format is J


# --- the console --------------------------------------------------------------------------------------


def test_the_console_plays_7_sur_8(tmp_path: Path) -> None:
    script = (
        "Ref: /duplicate 7sur8 manuel\nRef: /tirage ADEIINRT\nAna> /jouer H1 ANTIRIDE\nBen> /jouer H4 DINER\n"
        "Ref: /cloture\nRef: /feuille\n"
    )
    output = run_console(script, tmp_path / "game.sqlite")
    assert "Formule 7 sur 8 (§ 3.8.2 du règlement)" in output
    assert "Coup 1 — tirage : ADEIINRT (formule 7 sur 8)" in output
    assert "Ana : H1 ANTIRIDE 0" in output  # eight tiles placed: refused in 7 sur 8
    assert "formule 7 sur 8 (§ 3.8.2)" in output


@pytest.mark.parametrize(
    ("word", "note"),
    [
        ("joker", "formule joker (§ 3.8.1)"),
        ("7sur8", "formule 7 sur 8 (§ 3.8.2)"),
        ("7et8", "formule 7 et 8 (§ 3.8.2)"),
        ("topping", "formule topping (§ 3.8.4)"),
    ],
)
@pytest.mark.long(4)
def test_the_console_plays_a_whole_game_of_each_format(tmp_path: Path, word: str, note: str) -> None:
    script = f"Ref: /duplicate {word}\nAna> /jouer H8 ZZZ\n" + "Ref: /cloture\n" * 45 + "Ref: /feuille\nRef: /export\n"
    output = run_console(script, tmp_path / "game.sqlite")
    assert "Fin de la partie duplicate" in output
    sheet = output.rsplit("Fin de la partie duplicate", 1)[1]
    assert note in sheet
    exported = sheet.rsplit("Partie n°1 (duplicate", 1)[1]  # /export: the sheet again, and the CSV
    assert note in exported
    assert "-results-" in exported
    assert ".csv)" in exported
    assert output.count(f"(formule {note.split(' (')[0].removeprefix('formule ')})") >= 10  # every draw says it


# --- the shorter clocks of section 1.3, whole games ---------------------------------------------------


@pytest.mark.parametrize(
    ("word", "minutes", "threshold", "note"),
    [
        ("blitz", 1, 6, "cadence blitz, 1 min par coup (§ 1.3)"),  # 5.9: the sixth warning in blitz
        ("semi-rapide", 2, 4, "cadence semi-rapide, 2 min par coup (§ 1.3)"),
        ("2:30", 2.5, 4, "cadence de 2,5 min par coup (§ 1.3)"),
    ],
)
def test_a_whole_game_on_each_shorter_clock_closed_by_the_clock_1_3(
    club: Club, word: str, minutes: float, threshold: int, note: str
) -> None:
    club.ok("Ref", f"/duplicate {word}")
    club.wait_for_tops_list()
    rounds = 0
    while club.storage.active_game(CHANNEL) is not None and rounds < 40:
        move, points, game = _top_of(club)
        assert game.settings.minutes == minutes
        assert game.settings.warning_threshold == threshold
        club.now += 5
        assert f"{points} points" in club.ok("Ana", f"/jouer {move}", private=True)
        club.tick(game.settings.seconds)  # the clock closes the move, not the referee
        rounds += 1
    ended = load_game(club.storage, club.storage.games(CHANNEL)[-1])
    assert ended.finished
    assert rounds == len(ended.closed_rounds) > 10
    assert ended.standings()[0].total == ended.tops_total
    assert note in club.ok("Ref", "/feuille")
    assert note in club.ok("Ref", "/export")
    assert "format" not in ended.record_data()  # the classic formula, on a shorter clock


@pytest.mark.parametrize("game_format", [J, S8, E8, T])
def test_the_record_data_names_the_format(game_format: DuplicateFormat) -> None:
    game = DuplicateGame(FRENCH, ["Ana"], DuplicateSettings(format=game_format), "fr")
    assert game.record_data()["format"] == str(game_format)
    assert "format" not in DuplicateGame(FRENCH, ["Ana"], DuplicateSettings(), "fr").record_data()


def test_a_standard_clock_adds_no_clock_line_to_the_record(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel")
    club.ok("Ref", "/tirage AEEISTU")
    assert "§ 1.3" not in club.ok("Ref", "/feuille")


@pytest.mark.parametrize(
    ("word", "started", "note"),
    [
        (
            "blitz",
            "Annonce « 20 secondes » avant la fin de chaque coup (§ 3.3)",
            "cadence blitz, 1 min par coup (§ 1.3)",
        ),
        ("semi-rapide", "(fr, 2 min par coup,", "cadence semi-rapide, 2 min par coup (§ 1.3)"),
    ],
)
@pytest.mark.long(3)
def test_the_console_plays_a_whole_game_on_each_shorter_clock(
    tmp_path: Path, word: str, started: str, note: str
) -> None:
    script = f"Ref: /duplicate {word}\nAna> /jouer H8 ZZZ\n" + "Ref: /cloture\n" * 45 + "Ref: /feuille\nRef: /export\n"
    output = run_console(script, tmp_path / "game.sqlite")
    assert started in output.split("\n\n", 1)[0]
    assert "Fin de la partie duplicate" in output
    ended = output.rsplit("Fin de la partie duplicate", 1)[1]
    assert ended.count(note) == 2  # the sheet and the export


# --- a format is one record ---------------------------------------------------------------------------


def test_every_format_is_one_record_and_the_command_line_lists_them() -> None:
    assert [spec.name for spec in FORMATS] == [f.value for f in DuplicateFormat]
    assert format_names()[0] == "classic"
    for game_format in DuplicateFormat:
        spec = game_format.spec
        assert game_format.section == spec.section
        assert game_format.rules(FRENCH) == play_rules(spec, FRENCH)


def test_a_throwaway_seven_of_nine_plays_from_its_record_alone() -> None:
    # issue 38, item 7: a "7 sur 9" once failed with RackSyntaxError in the top search; a record now says it all
    spec = FormatSpec("seven-of-nine", "3.8.2", extra_drawn=2)
    rules = play_rules(spec, FRENCH)
    assert (rules.draw_size, rules.most_placed, rules.bonus(7), rules.bonus(8)) == (9, 7, 50, 0)
    edition = dataclasses.replace(
        FRENCH, rack_size=rules.most_placed, draw_tiles=rules.draw_size, bonuses=rules.bonuses
    )
    finder = movegen_top_finder(FRENCH_LIST, edition, DuplicateSettings())
    found = finder(Board(), "AEILNRSTU")
    top = found.plays[0]
    assert len(top.placement.new_tiles) <= 7
    every = dataclasses.replace(edition, rack_size=9)
    plays = generate_plays(Board(), edition.spell("AEILNRSTU"), FRENCH_LIST, every, first_move_horizontal_only=True)
    allowed = [p for p in plays if len(p.placement.new_tiles) <= 7]
    assert top.score.total == max(p.score.total for p in allowed)
