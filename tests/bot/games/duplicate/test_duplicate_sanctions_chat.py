"""FISF sanctions in the console and the chat: the rule set that brings them, warnings told privately and lifted,
the standings image's warnings column, a first move written elsewhere (5.4.2 a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.duplicate import texts as duplicate_texts
from bot.games.duplicate.games import load_game
from bot.render.results import standings_scene
from core.duplicate import (
    DuplicateGame,
    DuplicateSettings,
)
from core.errors_duplicate import TakeBackBlock
from tests.bot.games.duplicate.sanctions_script import (
    play_script,
)
from tests.club import CHANNEL, Club
from tests.transcripts import run_console

# --- the console -------------------------------------------------------------------------------------------

CONSOLE = """Ref: /duplicate 3 manuel sanctions
Ref: /tirage EEEISU?
Cleo> /jouer H8 ESSUIE
Ana> /jouer H8 ESSUiE 99
Ben> /jouer H8 ESSUIEZ
Ref: /cloture
Ref: /corrige Cleo 1 lever joker lu sur le bulletin
Ref: /corrige Ben 1 lever
Ref: /corrige Ben 1 lever pourquoi pas
Ref: /feuille
"""


@pytest.mark.long(3)
def test_the_console_grades_an_uncircled_joker_as_a_warning(tmp_path: Path) -> None:
    output = run_console(CONSOLE, tmp_path / "game.sqlite")
    assert "Sanctions FISF (section 5 du règlement)" in output
    assert "Reçu pour le coup 1 : H8 ESSUIE. Votre réponse sera jugée à la clôture, comme un bulletin" in output
    assert "Cleo : H8 ESSUIE 12 — avertissement (§ 5.5 : joker non indiqué)" in output
    assert "Ana : H8 ESSUiE 12 [annoncé 99] — avertissement (§ 5.5 : joker indiqué sur une autre lettre)" in output
    assert "[-> cleo] Coup 1 : votre réponse H8 ESSUIE vaut 12 — avertissement (§ 5.5 : joker non indiqué)." in output
    assert "Vous avez 1 avertissement ; à partir du 4e" in output
    assert "Ben : H8 ESSUIEZ 0" in output
    assert "zéro (§ 5.4.1.d : erreur de lettre)" in output
    assert "Sanction levée pour Cleo au coup 1 : joker lu sur le bulletin." in output
    assert "Syntaxe : /corrige" in output  # no reason given: nothing lifted
    assert "Ben, coup 1 : pas d'avertissement ni de pénalité à lever." in output
    assert "coup 1, Cleo, sanction levée : joker lu sur le bulletin" in output
    assert "coup 1, Ana : avertissement (§ 5.5 : joker indiqué sur une autre lettre)" in output
    standings = output.rsplit("Classement après 1 coup, top cumulé", 1)[1]  # the text's (not the image's line)
    assert "avert." in standings


def test_a_box_rules_channel_plays_without_sanctions_in_the_console(tmp_path: Path) -> None:
    script = "Ref: /duplicate 3 manuel\nRef: /tirage EEEISU?\nCleo> /jouer H8 ESSUIE\nRef: /cloture\n"
    output = run_console(script, tmp_path / "game.sqlite")
    assert "Sanctions FISF" not in output
    assert "avert." not in output
    assert "§" not in output
    assert "Cleo : H8 ESSUIE 0 — joker à écrire en minuscule pour S" in output


# --- the chat commands ---------------------------------------------------------------------------------


def test_the_fisf_rule_set_brings_the_sanctions_and_training_takes_them_off(club: Club) -> None:
    club.ok("Ref", "/settings rules fisf", admin=True)
    club.ok("Ref", "/duplicate 3 manuel")
    assert club.events("start")[0]["settings"]["sanctions"] == "fisf"
    club.ok("Ref", "/duplicate 3 manuel entrainement !")
    assert "sanctions" not in club.events("start")[0]["settings"]
    club.ok("Ref", "/settings rules box-fr", admin=True)
    club.ok("Ref", "/duplicate 3 manuel sanctions !")
    assert club.events("start")[0]["settings"]["sanctions"] == "fisf"


@pytest.mark.parametrize(
    ("lang", "lift", "ack", "feedback", "lifted"),
    [
        (
            "fr",
            "lever",
            "Votre réponse sera jugée à la clôture, comme un bulletin (sanctions FISF : ni score ni sanction avant)",
            "votre réponse H8 ESSUIE vaut 12",
            "Sanction levée pour Cleo au coup 1",
        ),
        (
            "en",
            "lift",
            "Your answer will be judged at the close, as a slip is (FISF sanctions: no score and no sanction before)",
            "your answer H8 ESSUIE scores 12",
            "Sanction lifted for Cleo on move 1",
        ),
    ],
)
def test_a_warning_told_privately_and_lifted_by_the_referee(
    club: Club, lang: str, lift: str, ack: str, feedback: str, lifted: str
) -> None:
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", "/duplicate 3 manual sanctions")
    club.ok("Ref", "/draw EEEISU?")
    assert ack in club.ok("Cleo", "/play H8 ESSUIE", private=True)
    club.ok("Ana", "/play H8 EsSUIE 12", private=True)
    closing = club.send("Ref", "/close")
    private = [r for r in closing if r.private]
    assert [r.to_user for r in private] == ["u:cleo"]
    assert feedback in private[0].text
    club.refused("Ref", f"/correct Ana 1 {lift} no reason to")  # nothing to lift: nothing stored
    club.refused("Ref", f"/correct Cleo 1 {lift}")  # a reason is required
    assert lifted in club.ok("Ref", f"/correct Cleo 1 {lift} circle seen on the slip")
    assert club.events("lift") == [{"kind": "lift", "player": "Cleo", "round": 1, "reason": "circle seen on the slip"}]


def test_a_lifted_sanction_keeps_the_close_as_a_correction_does(scripted: DuplicateGame) -> None:
    game = DuplicateGame.from_events(scripted.events)
    assert game.can_take_back_close() is None
    game.lift("Ben", 5, "circle seen on the slip")
    assert game.can_take_back_close() is TakeBackBlock.CORRECTED_SINCE


def test_the_standings_image_has_the_warnings_column(scripted: DuplicateGame) -> None:
    scene = standings_scene(duplicate_texts.standings_view("fr", scripted))
    assert [label.text for label in scene.labels if label.role == "head"][-2:] == ["Solos", "Avert."]
    cells = [label.text for label in scene.labels if label.role == "cell"]
    ben = cells.index("Ben")
    assert cells[ben : ben + 5] == ["Ben", "102", "−17", "85,7", "5 (−10)"]
    plain = play_script(DuplicateSettings(solo_min_players=4))
    heads = [label.text for label in standings_scene(duplicate_texts.standings_view("fr", plain)).labels]
    assert "Avert." not in heads


@pytest.mark.parametrize(
    ("lang", "start", "draw", "play", "close", "moved", "warned", "note"),
    [
        (
            "fr",
            "/duplicate 3 manuel sanctions",
            "/tirage CHANTEZ",
            "/jouer",
            "/cloture",
            " — premier coup : compté à sa meilleure place, H6 (§ 5.4.2.a)",
            " — compté en H6",
            "meilleure place : H6",
        ),
        (
            "en",
            "/duplicate 3 manual sanctions",
            "/draw CHANTEZ",
            "/play",
            "/close",
            " — first move: counted at its best place, H6 (§ 5.4.2.a)",
            " — counted at H6",
            "best place: H6",
        ),
    ],
)
def test_a_first_move_written_elsewhere_says_where_it_was_counted_5_4_2_a(
    club: Club, lang: str, start: str, draw: str, play: str, close: str, moved: str, warned: str, note: str
) -> None:
    """The word is paid its best place's score (H6 CHANTEZ, Z on the double letter H12: 112) whatever the
    reference; the results say where, so that 112 beside H4 CHANTEZ (98 there) reads right."""
    club.ok("Ref", f"/settings language {lang}", admin=True)
    club.ok("Ref", start)
    club.ok("Ref", draw)
    club.ok("Ana", f"{play} H4 CHANTEZ", private=True)  # 98 where written
    club.ok("Ben", f"{play} 8D CHANTEZ 100", private=True)  # vertical, a wrong score: a warning
    club.ok("Cleo", f"{play} H6 CHANTEZ", private=True)  # at the best place
    closed = club.ok("Ref", close)
    lines = {
        name: next(line for line in closed.splitlines() if line.startswith((f"{name} : ", f"{name}: ")))
        for name in ("Ana", "Ben", "Cleo")
    }
    assert "H4 CHANTEZ 112" in lines["Ana"]
    assert lines["Ana"].endswith(moved)
    assert "5.4.2.a" in lines["Ben"]
    assert lines["Ben"].endswith(warned)
    assert "H6 CHANTEZ 112" in lines["Cleo"]
    assert "5.4.2.a" not in lines["Cleo"]
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    game = load_game(club.storage, record)
    round_ = game.closed_rounds[0]
    notes = {row.player: row.note for row in duplicate_texts.result_view(lang, game, round_).rows}
    assert notes["Ana"] == note
    assert notes["Cleo"] == ""


def test_without_sanctions_a_first_move_counts_where_written(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel")
    club.ok("Ref", "/tirage CHANTEZ")
    club.ok("Ana", "/jouer H4 CHANTEZ", private=True)
    closed = club.ok("Ref", "/cloture")
    line = next(line for line in closed.splitlines() if line.startswith("Ana : "))
    assert line == "Ana : H4 CHANTEZ 98"
