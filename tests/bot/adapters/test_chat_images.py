"""Images from the chat: the board (classic and duplicate, empty and full), a round's result and the standings,
in French and English, with the header texts read from the scenes the chat drew and every PNG under 200 KB."""

from __future__ import annotations

import io
import os
import random
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from bot.chat import Reply
from bot.games.classic import commands as commands_classic
from bot.games.duplicate import texts as duplicate_texts
from bot.games.duplicate import views as duplicate_views
from bot.render.board import WIDTH as BOARD_WIDTH
from bot.render.board import classic_board_scene, duplicate_board_scene
from bot.render.canvas import Scene, png
from bot.render.results import WIDTH as RESULTS_WIDTH
from bot.render.results import round_result_scene, standings_scene
from core.duplicate import DuplicateGame
from core.game import ClassicGame
from core.movegen import find_top
from core.notation import Notation, format_move, parse_move
from tests.club import CHANNEL, REGISTRY, Club

SIZE_LIMIT = 200 * 1024
LOOK_DIR = os.environ.get("ARBITRE_LOOK_DIR")  # set it to keep every image the chat drew, to look at them


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    club = Club(tmp_path / "club.sqlite", images=True)
    yield club
    club.close()


def setup_language(club: Club, lang: str) -> None:
    """French channels keep their defaults; English ones take the English language, tile set and notation."""
    if lang == "en":
        club.say("Admin", "/settings language en", admin=True)
        club.say("Admin", "/settings edition en", admin=True)


def image_of(replies: list[Reply], name: str) -> Reply:
    """The reply carrying the image called ``name*``; its PNG checked (size, format, width)."""
    found = [r for r in replies if r.image is not None and r.image_name.startswith(name)]
    assert len(found) == 1, [(r.image_name, r.text[:40]) for r in replies]
    reply = found[0]
    assert reply.image is not None
    assert len(reply.image) < SIZE_LIMIT, len(reply.image)
    image = Image.open(io.BytesIO(reply.image))
    assert image.format == "PNG"
    assert image.width in (BOARD_WIDTH, RESULTS_WIDTH)
    if LOOK_DIR:
        directory = Path(LOOK_DIR)
        directory.mkdir(parents=True, exist_ok=True)
        count = len(list(directory.glob("*.png")))
        (directory / f"{count + 1:03d}-{reply.image_name}").write_bytes(reply.image)
    return reply


def texts(scene: Scene, *roles: str) -> list[str]:
    return [label.text for label in scene.labels if not roles or label.role in roles]


def classic_game(club: Club, number: int | None = None) -> ClassicGame:
    games = club.storage.games(CHANNEL)
    record = games[-1] if number is None else games[number - 1]
    return club.referee.classic_games.load(club.storage, record)


def duplicate_game(club: Club) -> DuplicateGame:
    record = club.storage.games(CHANNEL)[-1]
    return club.referee.duplicate_games.load(club.storage, record)


def move(lang: str, fisf: str) -> str:
    """A move typed in the channel's notation: French channels write H8 VAGUE, English ones 8H VAGUE."""
    return fisf if lang == "fr" else format_move(parse_move(fisf, Notation.FISF), Notation.GCG)


# --- classic ---------------------------------------------------------------------------------

SAY = {
    "fr": {"move": "Coup {n}  ·  À {player} de jouer", "bag": "Sac : {n}", "over": "Coup {n}  ·  Partie terminée"},
    "en": {"move": "Move {n}  ·  {player} to play", "bag": "Bag: {n}", "over": "Move {n}  ·  Game over"},
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_classic_board_from_the_chat_has_its_header(club: Club, lang: str) -> None:
    setup_language(club, lang)
    club.say("Ref", "/new Ana Benoît")
    empty = image_of(club.send("Ana", "/board"), "board")
    scene = classic_board_scene(commands_classic.board_view(lang, classic_game(club)))
    assert png(scene) == empty.image  # the scene below is the picture the chat sent
    bag = 88 if lang == "fr" else 86
    assert texts(scene, "header") == [  # each chip: score (right) then name (left)
        "0",
        "Ana",
        "0",
        "Benoît",
        SAY[lang]["bag"].format(n=bag),
        SAY[lang]["move"].format(n=1, player="Ana"),
    ]
    assert "★" in texts(scene, "premium")
    for fisf in ("H7 HANTEZ", "6F FACADES", "G8 HUES", "F10 JOuET"):
        club.say("Ref", "/score " + move(lang, fisf))
    game = classic_game(club)
    reply = image_of(club.send("Ben", "/board"), "board")
    scene = classic_board_scene(commands_classic.board_view(lang, game))
    assert png(scene) == reply.image
    header = texts(scene, "header")
    totals = game.totals()
    assert header[:4] == [str(totals["Ana"]), "Ana", str(totals["Benoît"]), "Benoît"]
    assert SAY[lang]["move"].format(n=5, player="Ana") in header
    assert SAY[lang]["bag"].format(n=game.bag_count()) in header
    last = game.lines[-1]
    assert any(text.endswith(f"JOuET (Benoît), {last.points} pts") for text in header), header
    lit = [label for label in scene.labels if label.role == "tile" and label.text in "JOUET"]
    assert len(lit) >= 5
    # the text of the same reply says the same for the console and screen readers
    assert f"Benoît {totals['Benoît']}" in reply.text
    assert f"{last.points} pts" in reply.text
    assert ("à Ana de jouer" if lang == "fr" else "Ana to play") in reply.text


def play_classic_to_the_end(club: Club, rng: random.Random) -> ClassicGame:
    """The referee records a top found for a random rack each turn until the bag is empty, then ends."""
    lexicon = REGISTRY.get("fr")
    for _ in range(60):
        game = classic_game(club)
        if game.bag_count() == 0:
            break
        pool = list(game.unseen().elements())
        rng.shuffle(pool)
        rack = "".join(pool[:7])
        found = find_top(game.board, rack, lexicon, game.edition, 1, first_move_horizontal_only=game.board.is_empty())
        if not found.plays:
            club.say("Ref", "/pass")
            continue
        club.say("Ref", "/score " + found.plays[0].placement.notation(game.notation))
    club.say("Ref", "/end !")
    return classic_game(club)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_full_finished_classic_board_is_drawn_under_200_kb(club: Club, lang: str) -> None:
    club.say("Admin", f"/settings language {lang}", admin=True)
    club.say("Ref", "/new Ana Ben")
    game = play_classic_to_the_end(club, random.Random(4))
    assert game.ended
    assert len(list(game.board.tiles())) > 60
    club.say("Ref", "/new Cleo Dan")  # the first game is now game 1 of /games, no longer the running one
    reply = image_of(club.send("Zed", "/board 1"), "board")
    scene = classic_board_scene(commands_classic.board_view(lang, game))
    assert png(scene) == reply.image
    turns = commands_classic.turns_played(game)
    assert SAY[lang]["over"].format(n=turns) in texts(scene, "header")
    assert reply.text.startswith("Partie n°1" if lang == "fr" else "Game 1")


# --- duplicate -------------------------------------------------------------------------------


def start_duplicate(club: Club, lang: str, zone: str) -> None:
    setup_language(club, lang)
    club.say("Admin", f"/settings timezone {zone}", admin=True)
    club.say("Ref", "/duplicate 1 manual")
    for name in ("Ana", "Ben", "Cleo"):
        club.say(name, "/join")


def test_the_duplicate_board_shows_the_round_the_draw_and_the_deadline_in_the_channels_zone(club: Club) -> None:
    start_duplicate(club, "fr", "Europe/Paris")
    waiting = image_of(club.send("Ana", "/grille"), "board")
    scene = duplicate_board_scene(duplicate_views.board_view("fr", "Europe/Paris", duplicate_game(club)))
    assert png(scene) == waiting.image
    assert texts(scene, "header") == ["Coup 1", "En attente du tirage"]
    club.say("Ref", "/tirage AEEISTU")
    reply = image_of(club.send("Ana", "/grille"), "board")
    scene = duplicate_board_scene(duplicate_views.board_view("fr", "Europe/Paris", duplicate_game(club)))
    assert png(scene) == reply.image
    deadline = datetime.fromtimestamp(club.now + 60, ZoneInfo("Europe/Paris"))
    assert texts(scene, "header")[:2] == ["Coup 1", f"Fin à {deadline:%H:%M:%S} (Europe/Paris)"]
    assert texts(scene, "caption") == ["Tirage"]
    assert "".join(texts(scene, "tile")) == "AEEISTU"
    assert f"fin à {deadline:%H:%M:%S} (Europe/Paris)" in reply.text


def test_a_duplicate_round_from_draw_to_close_in_english(club: Club) -> None:
    start_duplicate(club, "en", "America/Montreal")
    club.say("Ref", "/draw AEEISTU")
    club.say("Ana", "/play 8H SEAT", private=True)
    club.say("Ben", "/play 8H ZZZ", private=True)
    replies = club.send("Ref", "/close")
    game = duplicate_game(club)
    closed = game.closed_rounds[0]
    assert closed.top is not None
    top = closed.top.notation(game.notation)

    result = image_of(replies, "result")
    scene = round_result_scene(duplicate_texts.result_view("en", game, closed))
    assert png(scene) == result.image
    assert texts(scene)[:3] == ["Move 1: results", "Draw: AEEISTU", f"Top: {top}, {closed.top_points} pts"]
    cells = texts(scene, "cell")
    assert closed.score_of("Ana") > 0
    assert cells[:3] == ["Ana", "8H SEAT", str(closed.score_of("Ana"))]
    assert texts(scene, "note") == ["letters not in the draw: Z, Z, Z", "no answer"]
    # the results in full as text first (the screen readers' and the console's), then each image with a line
    # saying what it shows
    (text,) = [r for r in replies if r.image is None and "Top:" in r.text]
    assert "Ben: 8H ZZZ 0" in text.text
    assert "Standings after 1 move" in text.text
    assert text.text.startswith("Move 1 closed: 2 of 3 have played.\nMove 1 — draw AEEISTU")  # Cleo sat out
    assert result.text == "Move 1: the result as an image (the same as text above)."
    assert replies.index(text) < replies.index(result)

    standings = image_of(replies, "standings")
    scene = standings_scene(duplicate_texts.standings_view("en", game))
    assert png(scene) == standings.image
    assert texts(scene, "title") == ["Standings after 1 move"]
    assert texts(scene, "cell")[:2] == ["1", "Ana"]
    assert standings.text == "Standings after 1 move, as an image (the same as text above)."
    assert replies.index(result) < replies.index(standings) == len(replies) - 1  # the images come last

    # the reliquat of the top comes back in the next draw: kept letters apart from the new ones
    kept = game.reliquat
    new = "AEINRST"[: 7 - len(kept)]
    club.say("Ref", f"/draw {kept}+{new}" if kept else f"/draw {new}")
    board = image_of(club.send("Cleo", "/board"), "board")
    view = duplicate_views.board_view("en", "America/Montreal", duplicate_game(club))
    assert png(duplicate_board_scene(view)) == board.image
    assert view.kept == kept
    assert view.round_number == 2
    assert texts(duplicate_board_scene(view), "caption") == (["Kept", "New letters"] if kept else ["Draw"])
    assert set(view.last_squares) == {(c.row, c.col) for c in closed.top.new_tiles}  # last top still lit


def test_after_the_close_the_board_shows_the_top_placed_and_lit(club: Club) -> None:
    start_duplicate(club, "fr", "Europe/Paris")
    club.say("Ref", "/tirage AEEISTU")
    club.say("Ref", "/cloture")
    game = duplicate_game(club)
    closed = game.closed_rounds[0]
    assert closed.top is not None
    reply = image_of(club.send("Ana", "/grille"), "board")
    view = duplicate_views.board_view("fr", "Europe/Paris", game)
    scene = duplicate_board_scene(view)
    assert png(scene) == reply.image
    top = closed.top.notation(game.notation)
    assert texts(scene, "header") == ["Coup 1", "Coup clos", f"Top : {top}, {closed.top_points} pts"]
    assert set(view.last_squares) == {(c.row, c.col) for c in closed.top.new_tiles}
    assert reply.text.startswith(f"Coup 1 clos — tirage AEEISTU — top {top}, {closed.top_points} pts")


def play_duplicate_to_the_end(club: Club, names: tuple[str, ...]) -> tuple[DuplicateGame, list[Reply]]:
    """Automatic draws; each round the players send some of the best plays, then the clock closes it; the game
    and what the clock posted."""
    lexicon = REGISTRY.get("fr")
    posted: list[Reply] = []
    for number in range(40):
        record = club.storage.active_game(CHANNEL)
        if record is None:
            break
        game = club.referee.duplicate_games.load(club.storage, record)
        current = game.current
        assert current is not None
        assert current.draw is not None
        plays = find_top(game.board, current.draw.letters, lexicon, game.edition, 3).plays
        for index, name in enumerate(names):
            if plays and (index + number) % 4:
                chosen = plays[min(index, len(plays) - 1)].placement.notation(game.notation)
                club.say(name, f"/jouer {chosen}", private=True)
        posted += club.tick(61)
    return club.referee.duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1]), posted


def test_a_whole_duplicate_game_posts_result_and_standings_images_at_every_close(club: Club) -> None:
    club.say("Ref", "/duplicate 1")
    names = ("Ana", "Ben", "Cleo", "Dmitri Karamazov")
    for name in names:
        club.say(name, "/rejoindre")
    game, posted = play_duplicate_to_the_end(club, names)
    assert game.finished
    assert len(game.closed_rounds) >= 10
    results = [r for r in posted if r.image_name == "result.png"]
    standings = [r for r in posted if r.image_name == "standings.png"]
    assert len(results) == len(standings) == len(game.closed_rounds)
    for reply in results + standings:
        assert reply.image is not None
        assert len(reply.image) < SIZE_LIMIT
    final = image_of(club.send("Zed", "/grille"), "board")  # the finished game's last board
    scene = duplicate_board_scene(duplicate_views.board_view("fr", "Europe/Paris", game))
    assert png(scene) == final.image
    assert len(list(game.board.tiles())) > 40
    assert texts(scene, "header")[:2] == [f"Coup {len(game.closed_rounds)}", "Partie terminée"]
    ranking = image_of(club.send("Zed", "/classement"), "standings")
    scene = standings_scene(duplicate_texts.standings_view("fr", game))
    assert png(scene) == ranking.image
    rounds = len(game.closed_rounds)
    assert texts(scene, "title") == [f"Classement après {rounds} coups"]
    assert [s.player for s in game.standings()] == [t for t in texts(scene, "cell") if t in names]


def test_ending_a_duplicate_game_posts_the_final_standings_image(club: Club) -> None:
    start_duplicate(club, "fr", "Europe/Paris")
    club.say("Ref", "/tirage AEEISTU")
    club.say("Ana", "/jouer H8 SAUTE", private=True)
    club.say("Ref", "/cloture")
    reply = image_of(club.send("Ref", "/fin"), "standings")
    assert "Fin de la partie duplicate" in reply.text


def test_another_tied_top_posts_the_new_result_image(club: Club) -> None:
    start_duplicate(club, "fr", "Europe/Paris")
    club.say("Ref", "/tirage EIRSTUV")  # tops: VERTUS, VISEUR, VITRES
    closing = image_of(club.send("Ref", "/cloture"), "result")
    changed = image_of(club.send("Ref", "/top 2"), "result")
    game = duplicate_game(club)
    scene = round_result_scene(duplicate_texts.result_view("fr", game, game.closed_rounds[0]))
    assert png(scene) == changed.image != closing.image
    assert "Top du coup 1 changé par l'arbitre" in changed.text
    assert any("H4 VISEUR" in text for text in texts(scene, "title"))


@pytest.mark.parametrize(
    ("lang", "nobody_yet", "nobody_this_move"),
    [
        ("fr", "top cumulé 0 : personne n'a encore joué.", "Personne n'a joué ce coup"),
        ("en", "total of tops 0: nobody has played yet.", "Nobody played this move"),
    ],
)
def test_nobody_has_played_is_said_never_drawn_as_an_empty_table(
    club: Club, lang: str, nobody_yet: str, nobody_this_move: str
) -> None:
    setup_language(club, lang)
    club.say("Ref", "/duplicate 1 manual")
    (standings,) = club.send("Zed", "/standings")
    assert nobody_yet in standings.text
    assert standings.image is None
    assert "```" not in standings.text
    club.say("Ref", "/draw AEEISTU")
    closing = club.send("Ref", "/close")
    assert [r.image_name for r in closing if r.image is not None] == ["result.png"]  # no empty standings
    result = image_of(closing, "result")
    assert any(nobody_this_move in r.text for r in closing if r.image is None)  # the results' text
    game = duplicate_game(club)
    scene = round_result_scene(duplicate_texts.result_view(lang, game, game.closed_rounds[0]))
    assert png(scene) == result.image
    assert texts(scene, "note") == [nobody_this_move]
    assert texts(scene, "head") == []
    ended = club.send("Ref", "/end")
    assert all(r.image is None for r in ended)
    assert not any("```" in r.text for r in ended)


def test_without_images_the_close_is_one_text_reply_as_before(club: Club) -> None:
    club.referee.images = False
    start_duplicate(club, "fr", "Europe/Paris")
    club.say("Ref", "/tirage AEEISTU")
    replies = club.send("Ref", "/cloture")
    assert all(r.image is None for r in replies)
    together = [r for r in replies if "Top :" in r.text]
    assert len(together) == 1
    assert "Classement après 1 coup" in together[0].text
    assert all(r.image is None for r in club.send("Ana", "/grille") + club.send("Ana", "/classement"))


def test_images_follow_the_arbiters_corrections_pauses_and_late_arrivals(club: Club) -> None:
    start_duplicate(club, "fr", "Europe/Paris")
    club.say("Ref", "/tirage AEEISTU")
    club.say("Ana", "/jouer H8 SAUTE", private=True)
    club.say("Ref", "/pause")
    paused = image_of(club.send("Ana", "/grille"), "board")
    scene = duplicate_board_scene(duplicate_views.board_view("fr", "Europe/Paris", duplicate_game(club)))
    assert png(scene) == paused.image
    assert not any(text.startswith("Fin à") for text in texts(scene, "header"))  # no deadline while stopped
    assert paused.text.startswith("Coup 1 — tirage AEEISTU — chrono arrêté")
    club.say("Ref", "/reprise")
    club.say("Ref", "/cloture")
    club.say("Ref", "/rouvre 30")
    club.say("Ben", "/jouer H8 SAUTE", private=True)
    closing = club.send("Ref", "/cloture")
    game = duplicate_game(club)
    closed = game.closed_rounds[0]
    scene = round_result_scene(duplicate_texts.result_view("fr", game, closed))
    assert png(scene) == image_of(closing, "result").image
    assert texts(scene, "cell")[:2] == ["Ana", "H8 SAUTE"]
    assert texts(scene, "cell")[3:5] == ["Ben", "H8 SAUTE"]
    club.say("Ref", "/corrige Cleo 1 5 bulletin mal lu")
    game = duplicate_game(club)
    scene = round_result_scene(duplicate_texts.result_view("fr", game, game.closed_rounds[0]))
    assert "corrigé : bulletin mal lu" in texts(scene, "note")
    club.say("Ref", f"/tirage {game.reliquat}+{'AEINRST'[: 7 - len(game.reliquat)]}")
    club.say("Dan", "/jouer 8F SECRET", private=True)  # arrives at move 2: move 1 counts 0 for Dan
    game = duplicate_game(club)
    view = duplicate_texts.result_view("fr", game, game.closed_rounds[0])
    assert [row.answered for row in view.rows if row.player == "Dan"] == [False]
    ranking = image_of(club.send("Zed", "/classement"), "standings")
    scene = standings_scene(duplicate_texts.standings_view("fr", game))
    assert png(scene) == ranking.image
    assert "Dan" in texts(scene, "cell")
