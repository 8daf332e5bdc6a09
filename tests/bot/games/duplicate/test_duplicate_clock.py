"""The duplicate clock and rounds over chat (issue 20): numbers typed with a decimal comma, a reopened
round keeping the draw everyone saw, the time left shown, the board after /end, an answer sent just
after a close."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.games.duplicate.views import board_view
from bot.render.board import duplicate_board_scene
from bot.render.canvas import png
from bot.timefmt import time_left
from tests.club import CHANNEL, Club


def english(club: Club) -> None:
    club.ok("Admin", "/reglages langue en", admin=True)


# --- item 1: a decimal comma reads as a decimal point ------------------------------------------


@pytest.mark.parametrize(
    ("lang", "start", "shown"),
    [
        ("fr", "/duplicate 1,5 manuel", "1,5 min par coup"),
        ("fr", "/duplicate 1.5 manuel", "1,5 min par coup"),
        ("fr", "/duplicate manuel 0,5", "0,5 min par coup"),
        ("en", "/duplicate 1,5 manual", "1.5 min per move"),
        ("en", "/duplicate 1.5 manual", "1.5 min per move"),
        ("en", "/duplicate 0,5 manual", "0.5 min per move"),
    ],
)
def test_duplicate_minutes_read_a_comma_and_a_point_alike(club: Club, lang: str, start: str, shown: str) -> None:
    if lang == "en":
        english(club)
    assert shown in club.ok("Ref", start, admin=True)
    minutes = float(shown.split()[0].replace(",", "."))
    settings = club.events("start")[0]["settings"]
    assert isinstance(settings, dict)
    assert settings["minutes"] == minutes
    draw = club.send("Ref", "/tirage AEGUVSL" if lang == "fr" else "/draw AEGUVSL", admin=True)
    assert draw[0].deadline == club.now + minutes * 60


@pytest.mark.parametrize(
    ("lang", "typed", "shown"),
    [("fr", "0,5", "0,5 min par coup"), ("fr", "0.5", "0,5 min par coup"), ("en", "0,5", "0.5 min per duplicate")],
)
def test_settings_minutes_read_a_comma_and_a_point_alike(club: Club, lang: str, typed: str, shown: str) -> None:
    if lang == "en":
        english(club)
    club.ok("Admin", f"/reglages minutes {typed}", admin=True)
    assert shown in club.say("Zed", "/reglages")


@pytest.mark.parametrize(
    ("lang", "extend", "said"),
    [("fr", "/prolonge 1,5", "Temps prolongé de 1,5 s."), ("en", "/extend 1,5", "Time extended by 1.5 s.")],
)
def test_extend_seconds_read_a_decimal_comma(club: Club, lang: str, extend: str, said: str) -> None:
    if lang == "en":
        english(club)
    club.ok("Ref", "/duplicate 1", admin=True)
    assert said in club.ok("Ref", extend, admin=True)
    assert club.events("extend")[-1]["seconds"] == 1.5


@pytest.mark.parametrize(
    ("lang", "reopen", "said"),
    [("fr", "/rouvre 1,5", "Coup 1 rouvert pour 1,5 s"), ("en", "/reopen 1,5", "Move 1 reopened for 1.5 s")],
)
def test_reopen_seconds_read_a_decimal_comma(club: Club, lang: str, reopen: str, said: str) -> None:
    if lang == "en":
        english(club)
    club.ok("Ref", "/duplicate 1", admin=True)
    club.ok("Ref", "/cloture" if lang == "fr" else "/close", admin=True)
    assert said in club.ok("Ref", reopen, admin=True)
    assert club.events("reopen")[-1]["seconds"] == 1.5


@pytest.mark.parametrize(
    ("lang", "command", "answer"),
    [
        ("fr", "/penalite Ben 1,5", "« 1,5 » n'est pas un nombre entier."),
        ("fr", "/penalite Ben 1.5", "« 1.5 » n'est pas un nombre entier."),
        ("en", "/penalty Ben 1,5", "'1,5' is not a whole number."),
    ],
)
def test_whole_points_refuse_a_decimal_clearly(club: Club, lang: str, command: str, answer: str) -> None:
    if lang == "en":
        english(club)
    club.ok("Ref", "/nouvelle Ana Ben" if lang == "fr" else "/new Ana Ben")
    assert club.refused("Ref", command) == answer


@pytest.mark.parametrize(
    ("lang", "command", "answer"),
    [
        ("fr", "/corrige Ana 1 1,5", "« 1,5 » n'est pas un nombre entier."),
        ("en", "/correct Ana 1 1.5", "'1.5' is not a whole number."),
        ("fr", "/rouvre 1,5,2", "« 1,5,2 » n'est pas un nombre (par exemple 45 ou 1,5)."),
        ("en", "/reopen abc", "'abc' is not a number (for example 45 or 1.5)."),
    ],
)
def test_duplicate_numbers_refused_clearly(club: Club, lang: str, command: str, answer: str) -> None:
    if lang == "en":
        english(club)
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ana", "/rejoindre")
    club.ok("Ref", "/tirage AEGUVSL", admin=True)
    club.ok("Ref", "/cloture", admin=True)
    assert club.refused("Ref", command, admin=True) == answer


# --- item 6: a reopened round keeps the draw everyone saw ------------------------------------------


def _shown_draw(text: str, number: int, word: str = "Coup", draw: str = "tirage") -> str:
    """The letters of the draw of round ``number`` posted in ``text``."""
    marker = f"{word} {number} — {draw}: " if word == "Move" else f"{word} {number} — {draw} : "
    return text.split(marker, 1)[1].split("\n", 1)[0]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_reopened_round_that_closes_again_keeps_the_next_draw_already_shown(club: Club, lang: str) -> None:
    if lang == "en":
        english(club)
    word, draw, close, reopen, status = ("Coup", "tirage", "/cloture", "/rouvre 45", "/etat")
    if lang == "en":
        word, draw, close, reopen, status = ("Move", "draw", "/close", "/reopen 45", "/status")
    club.ok("Ref", "/duplicate 1", admin=True)
    shown = _shown_draw(club.ok("Ref", close, admin=True), 2, word, draw)  # everyone sees move 2's draw
    club.ok("Ref", reopen, admin=True)
    club.tick(20)
    closed_again = "\n".join(r.text for r in club.tick(26))  # the clock closes move 1 again
    kept = "the draw shown before the reopening is kept"
    if lang == "fr":
        kept = "le tirage montré avant la réouverture est conservé"
    assert kept in closed_again
    assert _shown_draw(closed_again, 2, word, draw) == shown
    assert _shown_draw(club.say("Zed", status), 2, word, draw) == shown
    events = club.events()
    first_close = next(i for i, e in enumerate(events) if e["kind"] == "close")
    draws = [e["draw"] for e in events[first_close:] if e["kind"] == "draw"]  # rejected draws too, made again
    half = len(draws) // 2
    assert draws[-1] == shown
    assert draws[:half] == draws[half:]
    assert club.events("draw")[-1]["at"] == club.now  # its clock starts again when it is shown again


def test_a_manual_draw_shown_before_a_reopening_is_kept_without_typing_it_again(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", "/tirage GILMMOR", admin=True)
    club.ok("Ref", "/cloture", admin=True)
    club.ok("Ref", "/tirage LMR+AEIO", admin=True)
    club.ok("Ref", "/rouvre 30", admin=True)
    closed_again = club.ok("Ref", "/cloture", admin=True)
    assert "Coup 2 : le tirage montré avant la réouverture est conservé." in closed_again
    assert "Coup 2 — tirage : LMR+AEIO" in closed_again
    assert "tapez le tirage" not in closed_again
    assert [e["draw"] for e in club.events("draw")] == ["GILMMOR", "LMR+AEIO", "LMR+AEIO"]


@pytest.mark.parametrize(
    ("lang", "start", "draw", "close", "told"),
    [
        ("fr", "/duplicate 1 manuel", "/tirage", "/cloture", "sont LMR ; tapez-les avant le +, ainsi : LMR+AEIO."),
        ("en", "/duplicate 1 manual", "/draw", "/close", "are LMR; type them before the +, so: LMR+AEIO."),
    ],
)
def test_a_manual_draw_typed_without_the_reliquat_says_how_to_type_it(
    club: Club, lang: str, start: str, draw: str, close: str, told: str
) -> None:
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", start, admin=True)
    club.ok("Ref", f"{draw} GILMMOR", admin=True)
    club.ok("Ref", close, admin=True)  # the top placed leaves L, M and R
    assert told in club.refused("Ref", f"{draw} +AEIO", admin=True)
    assert told in club.refused("Ref", f"{draw} AEIO", admin=True)
    assert [e["draw"] for e in club.events("draw")] == ["GILMMOR"]  # nothing stored
    club.ok("Ref", f"{draw} LMR+AEIO", admin=True)
    assert [e["draw"] for e in club.events("draw")] == ["GILMMOR", "LMR+AEIO"]


def test_a_draw_that_no_longer_fits_after_a_reopening_is_said_to_go_back(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", "/tirage EIRSTUV", admin=True)  # tops: VERTUS (leaves I), VISEUR (T), VITRES (U)
    club.ok("Ref", "/cloture", admin=True)
    club.ok("Ref", "/top 2", admin=True)  # VISEUR: T left
    club.ok("Ref", "/tirage T+AEEMNO", admin=True)
    club.ok("Ref", "/rouvre 30", admin=True)
    closed_again = club.ok("Ref", "/cloture", admin=True)  # placed again by the rule: VERTUS, I left
    assert "Coup 2 : le tirage montré avant la réouverture (T+AEEMNO) ne convient plus" in closed_again
    assert "tapez le tirage" in closed_again


# --- item 8: the time left, not the round's length ---------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "commands"),
    [
        ("fr", ("/cloture", "/rouvre 45", "/etat", "/pause", "/reprise", "/prolonge 30")),
        ("en", ("/close", "/reopen 45", "/status", "/pause", "/resume", "/extend 30")),
    ],
)
def test_the_draw_shows_the_time_left_and_the_end(club: Club, lang: str, commands: tuple[str, ...]) -> None:
    if lang == "en":
        english(club)
    close, reopen, status, pause, resume, extend = commands
    ends = "Fin dans {left}, à {clock}" if lang == "fr" else "Ends in {left}, at {clock}"
    zone = "(Europe/Paris)" if lang == "fr" else "(UTC)"

    def said(left: str, deadline: float) -> str:
        local = dt.datetime.fromtimestamp(deadline, ZoneInfo(zone.strip("()")))
        return ends.format(left=left, clock=f"{local:%H:%M:%S} {zone}")

    started = club.ok("Ref", "/duplicate 1,5", admin=True)
    assert said("1 min 30 s", club.now + 90) in started
    club.now += 10
    club.ok("Ref", close, admin=True)
    club.now += 3
    deadline = club.now + 45
    assert said("45 s", deadline) in club.ok("Ref", reopen, admin=True)
    club.now += 12.4
    assert said("33 s", deadline) in club.ok("Zed", status)  # computed from the clock now
    club.ok("Ref", pause, admin=True)
    club.now += 100
    assert said("33 s", club.now + 32.6) in club.ok("Ref", resume, admin=True)
    assert said("1 min 3 s", club.now + 62.6) in club.ok("Ref", extend, admin=True)


# --- item 10: after /end, no open draw and no deadline ---------------------------------------------


@pytest.mark.parametrize(
    ("lang", "commands", "header", "over"),
    [
        (
            "fr",
            ("/tirage", "/cloture", "/fin", "/grille"),
            "Coup 1 clos — tirage AEGLSUV",
            ("Partie terminée", "fin à"),
        ),
        ("en", ("/draw", "/close", "/end", "/board"), "Move 1 closed — draw AEGLSUV", ("Game over", "closes at")),
    ],
)
def test_a_stopped_duplicate_shows_its_last_closed_round_and_no_deadline(
    tmp_path: Path, lang: str, commands: tuple[str, ...], header: str, over: tuple[str, str]
) -> None:
    club = Club(tmp_path / "images.sqlite", images=True)
    try:
        if lang == "en":
            english(club)
        draw, close, end, board = commands
        club.ok("Ref", "/duplicate 1 manuel", admin=True)
        club.ok("Ref", f"{draw} AEGUVSL", admin=True)
        club.ok("Ref", close, admin=True)
        club.ok("Ref", f"{draw} L+AEIRTU", admin=True)  # move 2 drawn, then the referee stops the game
        club.ok("Ref", end, admin=True)
        (shown,) = club.send("Zed", board)
        first_line = shown.text.split("\n")[1]  # under the heading naming the finished game
        assert first_line.startswith(header)
        assert first_line.endswith(over[0].lower())
        assert over[1] not in shown.text
        assert "L+AEIRTU" not in shown.text
        game = club.referee.duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
        view = board_view(lang, club.storage.channel(CHANNEL).zone, game, ended=True)
        assert view.deadline is None
        assert view.finished
        assert view.round_number == 1
        scene = duplicate_board_scene(view)
        headers = [label.text for label in scene.labels if label.role == "header"]
        assert headers[:2] == [header.split(" ")[0] + " 1", over[0]]
        assert png(scene) == shown.image
    finally:
        club.close()


def test_a_duplicate_stopped_before_its_first_close_shows_no_draw(club: Club) -> None:
    club.ok("Ref", "/duplicate 1", admin=True)
    club.ok("Ref", "/fin", admin=True)
    shown = club.say("Zed", "/grille")
    assert "Partie terminée avant la clôture du premier coup" in shown
    assert "fin à" not in shown


# --- item 19: an answer sent just after a close is never counted silently for the next round -----------


def _two_rounds(club: Club, lang: str) -> None:
    """Move 1 (AEGUVSL, VAGUES placed at H4) closed by the referee, move 2's draw shown at once."""
    draw, close = ("/tirage", "/cloture") if lang == "fr" else ("/draw", "/close")
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ana", "/rejoindre" if lang == "fr" else "/join")
    club.ok("Ref", f"{draw} AEGUVSL", admin=True)
    club.ok("Ref", close, admin=True)
    club.ok("Ref", f"{draw} L+AEIRST", admin=True)


@pytest.mark.parametrize(
    ("lang", "play", "said"),
    [
        ("fr", "/jouer H4 VAGUES", "Le coup 1 est clos : votre réponse H4 VAGUES est arrivée après"),
        ("en", "/play H4 VAGUES", "Move 1 is closed: your answer H4 VAGUES arrived after it"),
    ],
)
def test_an_answer_meant_for_the_round_just_closed_is_refused_not_counted_0(
    club: Club, lang: str, play: str, said: str
) -> None:
    if lang == "en":
        english(club)
    _two_rounds(club, lang)
    club.now += 4
    answer = club.refused("Ana", play, private=True)
    assert said in answer
    assert ("Le tirage du coup 2 est L+AEIRST" if lang == "fr" else "Move 2's draw is L+AEIRST") in answer
    assert club.events("submit") == []
    club.now += 20  # long after the draw was shown: an answer for it, told why it scores 0, as always
    late = club.ok("Ana", play, private=True)
    assert ("Reçu pour le coup 2" if lang == "fr" else "Received for move 2") in late
    assert said not in late


@pytest.mark.parametrize(
    ("lang", "play", "said"),
    [
        ("fr", "/jouer 8G SEL", "Le coup 1 est clos : cette réponse compte pour le coup 2 (tirage : L+AEIRST)."),
        ("en", "/play 8G SEL", "Move 1 is closed: this answer counts for move 2 (draw: L+AEIRST)."),
    ],
)
def test_an_answer_that_fits_the_draw_just_shown_says_which_round_it_counts_for(
    club: Club, lang: str, play: str, said: str
) -> None:
    if lang == "en":
        english(club)
    _two_rounds(club, lang)
    club.now += 4
    replies = club.send("Ana", play, private=True)
    texts = [r.text for r in replies if r.private]
    assert texts[0] == said
    assert ("Reçu pour le coup 2" if lang == "fr" else "Received for move 2") in texts[1]
    assert [e["move"] for e in club.events("submit")] == [play.split(" ", 1)[1]]
    assert said not in club.ok("Ana", play, private=True)  # a second answer: no need to say it again


@pytest.mark.parametrize("play", ["/jouer H2 AA", "/jouer 9H SEL"])
def test_an_answer_that_does_not_fit_the_round_just_closed_is_judged_as_usual(club: Club, play: str) -> None:
    _two_rounds(club, "fr")
    club.now += 4
    answer = club.ok("Ana", play, private=True)
    assert "Reçu pour le coup 2" in answer
    assert "est clos" not in answer
    assert [e["move"] for e in club.events("submit")] == [play.split(" ", 1)[1]]


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(45, "45 s"), (4.5, "5 s"), (44.4, "44 s"), (90, "1 min 30 s"), (120, "2 min"), (599.6, "10 min"), (-3, "0 s")],
)
def test_time_left_is_whole_seconds_and_minutes(seconds: float, shown: str) -> None:
    assert time_left(seconds) == shown
