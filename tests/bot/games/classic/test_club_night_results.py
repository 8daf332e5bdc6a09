"""What a replayed club night found wrong in duplicate (issue 37), each through the command layer on a real
SQLite file: the solo below the top (3.5), topping with several players (3.8.4), the answer with fewer
jokers than missing letters, the receipts under FISF sanctions (5.9), the answer sent just after a new draw.
"""

from __future__ import annotations

import pytest

from bot.games.duplicate.games import load_game
from tests.bot.games.duplicate.test_duplicate_formats import _top_of
from tests.bot.games.simultane.rooms_played import CONSOLE, DISCORD, ROOMS, code_of, play_round_one, table_rows
from tests.club import CHANNEL, Club

# --- a solo below the top (3.5) ---------------------------------------------------------------------------

OTHERS = [f"P{i:02d}" for i in range(19)]


def _twenty_players_one_below_the_top(club: Club, options: str = "") -> str:
    """Ines's H4 CHANTE (30, the first move paid the word's best score, 5.4.2.a) beats the 19 others' H4 CHANT
    (26); nobody finds the top, H6 CHANTEZ 112. The round's text."""
    club.ok("Ref", f"/duplicate 3 manuel sanctions {options}".strip())
    club.ok("Ref", "/tirage ACEHNTZ")
    club.ok("Ines", "/jouer H4 CHANTE", private=True)
    for name in OTHERS:
        club.ok(name, "/jouer H4 CHANT", private=True)
    return club.ok("Ref", "/cloture")


def test_the_only_player_with_the_best_score_below_the_top_gets_the_solo_3_5(club: Club) -> None:
    """Issue 37, item 1: Inès's PLOC 35 beat the 19 others, nobody found FLOC 39, and she got no +10."""
    closed = _twenty_players_one_below_the_top(club)
    assert "Ines : H4 CHANTE 30 (solo +10)" in closed
    standings = club.ok("Ref", "/classement")
    assert table_rows(standings)[0][:3] == ["1", "Ines", "40"]  # 30 + 10
    club.ok("Ref", "/fin")
    csv_file = next(r.document for r in club.send("Ref", "/export") if r.document_name.endswith(".csv"))
    assert csv_file is not None
    assert "1,Ines,40,-72,35.7,1,0,0,30" in csv_file.decode("utf-8").splitlines()
    (sigles,) = [r for r in club.send("Ref", "/export sigles") if r.document is not None]
    assert sigles.document is not None
    assert sigles.document.startswith(b'"1","Ines","40"\n"2","P00","26"\n')


def test_a_club_may_keep_the_solo_for_the_top(club: Club) -> None:
    """The other rule, chosen when the game starts (/duplicate solo-top), said then, kept with the game."""
    started = club.ok("Ref", "/duplicate 3 manuel solo-top")
    assert "Solo (+10 à partir de 16 joueurs) : au seul joueur qui fait le top, selon la règle du club" in started
    assert club.events("start")[0]["settings"]["solo"] == "top"
    club.ok("Ref", "/fin !")
    closed = _twenty_players_one_below_the_top(club, "solo-top !")
    assert "solo" not in closed.split("Ines : ")[1].split("\n")[0]
    assert table_rows(club.ok("Ref", "/classement"))[0][:3] == ["1", "Ines", "30"]
    club.ok("Ref", "/duplicate 3 manuel !")
    assert "solo" not in club.events("start")[0]["settings"]  # the rule book's: stored as before


def test_a_simultane_gives_the_solo_below_the_top_across_its_rooms_3_5(club: Club) -> None:
    """17 players in three rooms: Ana's H3 CHANTEZ (100) is the best of all, below the top (112): +10 in the
    ranking across the rooms, though her room of 6 is too small for a solo of its own."""
    moves = (
        {"Ana": "H3 CHANTEZ", **{f"Aa{i}": "H4 CHANT" for i in range(5)}},
        {f"Bb{i}": "H8 CHANT" for i in range(6)},
        {f"Cc{i}": "H4 CHANT" for i in range(5)},
    )
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    for channel in ROOMS:
        club.ok("Boss", f"/simultane rejoindre {code}", channel=channel, admin=True)
    for channel, played in zip(ROOMS, moves, strict=True):
        play_round_one(club, channel, played)
        if channel != CONSOLE:
            club.ok("Boss", "/cloture", channel=channel, admin=True)
    club.ok("Boss", "/cloture", channel=CONSOLE, admin=True)
    club.tick(0)
    overall = club.ok("Zoé", f"/simultane classement {code}", channel=CONSOLE)
    assert table_rows(overall)[0] == ["1", "Ana", "Salon 1", "110", "-2", "98,2", "1"]


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
    assert receipt in said
    assert "lowercase" not in said
    assert "minuscule" not in said
    one = club.ok("Ben", "/play H7 TRAINS", private=True)  # one letter missing, one joker: the joker's circle
    assert ("minuscule pour N" if lang == "fr" else "lowercase for N") in one
    assert result in club.ok("Ref", "/close")


# --- topping with several players (3.8.4) -----------------------------------------------------------------


def _open_round(club: Club) -> int:
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    return load_game(club.storage, record).move_number


def test_topping_waits_for_every_seated_player_3_8_4(club: Club) -> None:
    """Issue 37, item 2: the first move closed as soon as Ana found the top, the only player who had tried;
    Ben was told "Trop tard" and left out of the standings."""
    club.ok("Ref", "/duplicate topping")
    club.wait_for_tops_list()
    move, _, _ = _top_of(club)
    club.now += 5
    assert "en 5,0 s" in club.ok("Ana", f"/jouer {move}", private=True)
    assert _open_round(club) == 1  # nobody was seated at the first draw: who plays is not known yet
    club.ok("Cy", "/rejoindre")  # seated, not tried
    club.now += 5
    ben = club.ok("Ben", f"/jouer {move}", private=True)
    assert "Top trouvé au coup 1" in ben
    assert "en 10,0 s" in ben
    assert "Trop tard" not in ben
    assert _open_round(club) == 1
    club.tick(50)  # the minute is up: Cy's top given with 20 s of penalty
    assert _open_round(club) == 2
    move, _, _ = _top_of(club)
    club.now += 3
    club.ok("Ana", f"/jouer {move}", private=True)
    club.ok("Ben", f"/jouer {move}", private=True)
    assert _open_round(club) == 2  # Cy, seated, has not tried yet
    club.now += 4
    found = club.send("Cy", f"/jouer {move}", private=True)
    assert any("Coup 3" in r.text for r in found)  # the last seated player's top closes it at once
    standings = {
        s.player: (s.place, s.seconds) for s in load_game(club.storage, club.storage.games(CHANNEL)[-1]).standings()
    }
    assert standings == {"Ana": (1, 8.0), "Ben": (2, 13.0), "Cy": (3, 87.0)}


# --- receipts under FISF sanctions (5.9) ----------------------------------------------------------------

SLIP = "Votre réponse sera jugée à la clôture, comme un bulletin (sanctions FISF : ni score ni sanction avant)."
JUDGED = ("point", "avertissement", "pénalité", "zéro", "vaudra", "minuscule", "absentes")


def _receipt(club: Club, name: str, answer: str) -> str:
    said = club.ok(name, f"/jouer {answer}", private=True).split("\n")[0]
    assert SLIP in said, said
    assert not any(word in said.split(SLIP)[0].split(" : ", 1)[1] for word in JUDGED[1:]), said
    assert not any(word in said.split(SLIP)[1] for word in JUDGED), said
    return said


def test_under_fisf_sanctions_a_receipt_judges_nothing_before_the_close_5_9(club: Club) -> None:
    """Issue 37, item 6: a receipt previewed the joker's warning and the penalty but not the wrong score's
    warning, and the player told could send a clean answer. One rule for every sanction: the receipt is a copy
    of the slip (move and claimed score), every grade comes at the close; a slip is corrected until then."""
    club.ok("Ref", "/duplicate 3 manuel sanctions")
    club.ok("Ref", "/tirage EEEISU?")
    assert _receipt(club, "Cleo", "H8 ESSUIE") == "Reçu pour le coup 1 : H8 ESSUIE. " + SLIP + (
        " Un nouveau /jouer la remplace jusqu'à la fin du coup."
    )  # a joker not written: said nothing of before (a warning, 5.5)
    assert ", 13 points annoncés. " in _receipt(club, "Dan", "H8 EsSUIE 13")  # a wrong score (5.4.2.a)
    _receipt(club, "Ben", "H8 ZZ")  # letters not in the draw (a zero, 5.4.1.d)
    _receipt(club, "Ana", "H8 EsSUIE 12")  # clean: the same receipt
    assert "(remplace H8 ESSUIE)" in _receipt(club, "Cleo", "H8 ESSUiE")  # her own correction, not prompted
    closed = club.ok("Ref", "/cloture")
    assert "Cleo : H8 ESSUiE 12 — avertissement (§ 5.5 : joker indiqué sur une autre lettre)" in closed
    assert "Dan : H8 EsSUIE 12 [annoncé 13] — avertissement (§ 5.4.2.a : premier coup" in closed
    assert "zéro (§ 5.4.1.d : erreur de lettre)" in closed.split("Ben : H8 ZZ 0")[1].split("\n")[0]
    club.ok("Ref", "/tirage ABNORST")
    _receipt(club, "Ben", "5D BARETONS 90")  # within the first seconds of the draw: the command's usual way
    club.now += 20
    _receipt(club, "Ana", "5F BARETONS 90")  # a misplaced word whose score exists (a penalty, 5.6)
    _receipt(club, "Cy", "E5 BARETONS 90")  # the reference's orientation reversed (a warning, 5.3)
    _receipt(club, "Dan", "5E BARETONS 92")  # a wrong score (a warning, 5.3.2)
    closed = club.ok("Ref", "/cloture")
    assert "Dan : 5E BARETONS 90 (top) [annoncé 92] — avertissement (§ 5.3.2 : score annoncé erroné)" in closed
    assert "Ana : 5F BARETONS 85 [annoncé 90] — pénalité de 5 points (§ 5.6" in closed
    assert "Cy : E5 BARETONS 90 (top) — avertissement (§ 5.3 : sens de la référence inversé)" in closed


def test_without_sanctions_a_receipt_still_says_the_score_or_the_zero(club: Club) -> None:
    club.ok("Ref", "/duplicate 3 manuel entrainement")
    club.ok("Ref", "/tirage EEEISU?")
    assert "H8 EsSUIE — 12 points si le mot est valable" in club.ok("Ana", "/jouer H8 EsSUIE 13", private=True)
    assert "il vaudra 0 : joker à écrire en minuscule pour S" in club.ok("Ben", "/jouer H8 ESSUIE", private=True)


# --- an answer sent just after the next draw (the round before closed) -------------------------------------


@pytest.mark.parametrize("rules", ["sanctions", "entrainement"])
def test_an_answer_to_the_closed_round_sent_after_the_next_draw_is_told_why_it_does_not_count(
    club: Club, rules: str
) -> None:
    """Issue 37, item 7: an answer with the previous draw's letters, sent a second after the next draw, was
    taken for an answer to the new draw when its plain reading did not fit the closed round (a joker not
    circled, a circle on the wrong letter, a reversed reference): stored there as a 0 (its receipt, under
    sanctions, said nothing of it), while the closed round said "pas de réponse". It is an answer to the
    closed round, received after its end: refused, nothing stored, the player told why."""
    club.ok("Ref", f"/duplicate 1 manuel {rules}")
    club.ok("Ref", "/tirage EEEISU?")
    club.now += 10
    club.ok("Ana", "/jouer H2 EpIEUSE", private=True)
    club.tick(50)  # the minute is up: move 1 closes
    club.ok("Ref", "/tirage ABNORST")  # the hall's next draw, at once
    club.now += 1
    for name, answer, move in (("Cy", "H8 ESSUIE", "H8 ESSUIE"), ("Dan", "H8 ESSUiE 12", "H8 ESSUiE")):
        told = club.refused(name, f"/jouer {answer}", private=True)
        assert told.startswith(f"Le coup 1 est clos : votre réponse {move} est arrivée après"), told
        assert "n'est pas enregistrée pour le coup 2 non plus" in told
        assert "Le tirage du coup 2 est ABNORST" in told
    assert [e["player"] for e in club.events("submit")] == ["Ana"]
    club.ok("Eve", "/jouer 5E BARETONS", private=True)  # an answer to the new draw is judged as usual
    assert [e["player"] for e in club.events("submit")] == ["Ana", "Eve"]


# --- a word placed where it touches nothing, more tiles than a rack ----------------------------------------

REFERENCE = "placé à cette référence, le mot ne touche aucune lettre de la grille et y poserait 8 lettres"


def test_a_word_at_a_wrong_reference_is_told_its_reference_not_its_size(club: Club) -> None:
    """Issue 37, item 8: ``A1 ORIENTES`` was told "ce coup pose 8 lettres" when the fault is the reference."""
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    refused = club.refused("Ben", "/coup A1 ORIENTES")
    assert refused.startswith("Placé à cette référence, le mot ne touche aucune lettre")
    assert "pose 8" not in refused
    club.ok("Ana", "/fin !")
    club.ok("Ref", "/duplicate 3 manuel entrainement")
    club.ok("Ref", "/tirage EEEISU?")
    club.ok("Ref", "/cloture")
    club.ok("Ref", "/tirage ABNORST")
    club.now += 20
    assert REFERENCE in club.ok("Ben", "/jouer A1 BARETONS", private=True)
    assert f"Ben : A1 BARETONS 0 — {REFERENCE}" in club.ok("Ref", "/cloture")
