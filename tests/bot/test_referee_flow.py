"""A club night in the command layer: each problem seen by a new user is a test (issue #10)."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from bot.commands import Access
from bot.games.installed import COMMANDS
from core.movegen import find_top
from tests.club import CHANNEL, REGISTRY, Club, dump

# --- challenges ----------------------------------------------------------------------------


def test_a_lost_challenge_in_a_three_player_game_skips_the_challenger_and_play_goes_on(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben Cleo")
    club.say("Ana", "/coup H8 VAGUE")
    answer = club.say("Cleo", "/conteste")
    assert "VAGUE valable" in answer
    assert "Cleo perd son prochain tour" in answer
    played = club.say("Ben", "/coup 8H VOGUE")
    assert "Ben : 8H VOGUE" in played
    assert "Cleo passe son tour (contestation perdue)" in played
    assert "À Ana de jouer" in played
    assert "Ana : 10F ARGUE" in club.say("Ana", "/coup 10F ARGUE")
    assert "Ben : L7 NE" in club.say("Ben", "/coup L7 NE")
    assert "Cleo passe" in club.say("Cleo", "/passe")
    sheet = club.say("Ana", "/feuille")
    assert "tour perdu (contestation)" in sheet


@pytest.mark.parametrize("players", ["Ana Ben", "Ana Ben Cleo", "Ana Ben Cleo Dan"])
def test_lost_turns_with_two_three_and_four_players(club: Club, players: str) -> None:
    seats = players.split()
    club.say("Ref", f"/nouvelle {players}")
    club.say(seats[0], "/coup H8 VAGUE")
    challenger = seats[-1]
    club.say(challenger, "/conteste")
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    order = []
    for _ in range(len(seats) * 2):
        to_move = club.referee.classic_games.load(club.storage, record).to_move
        assert to_move is not None
        order.append(to_move)
        club.say(to_move, "/passe")
    expected = seats[1:] + seats * 3
    expected.remove(challenger)  # the challenger's next turn, once
    assert order == expected[: len(order)]


def test_nobody_challenges_their_own_move_and_a_move_is_challenged_once(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    assert "ne peut pas contester son propre coup" in club.refused("Ana", "/conteste")
    club.say("Ben", "/conteste")
    assert "a déjà été contesté (par Ben)" in club.refused("Ben", "/conteste")
    assert len(club.events("challenge")) == 1
    assert club.say("Ana", "/feuille").count("tour perdu") == 1


def test_a_move_can_be_challenged_only_before_the_next_one(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    club.say("Ben", "/passe")
    assert "Rien à contester" in club.refused("Ben", "/conteste")


def test_undoing_a_won_challenge_says_so_and_the_withdrawn_moves_alert_goes_with_it(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H5 KXKX")  # two K and two X: the set has one of each
    assert "K posé 2 fois" in club.say("Ben", "/feuille")
    withdrawn = club.say("Ben", "/conteste")
    assert "KXKX non valable" in withdrawn
    assert "K posé" not in withdrawn
    assert "K posé" not in club.say("Ben", "/feuille")
    assert " K " in club.say("Ben", "/reste")
    undone = club.say("Ana", "/annule")
    assert "Annulé : la contestation de Ben (le coup contesté revient sur la grille)." in undone


# --- running games, permissions -------------------------------------------------------------


def test_a_running_game_is_never_replaced_by_a_stray_command(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    assert "Une partie classique est en cours (arbitre : Ref)" in club.refused("Zed", "/nouvelle Zed Yan")
    assert "Une partie classique est en cours" in club.refused("Zed", "/duplicate")
    assert "Seul l'arbitre de la partie (Ref)" in club.refused("Zed", "/nouvelle Zed Yan !")
    assert "Seul l'arbitre de la partie (Ref)" in club.refused("Zed", "/duplicate 2 !")
    assert len(club.events("play")) == 1
    assert "Partie duplicate" in club.say("Ref", "/duplicate 2 !")
    listing = club.say("Zed", "/parties")
    assert "n°1" in listing
    assert "abandonnée" in listing
    assert "n°2" in listing
    assert "en cours" in listing


BYSTANDER_STATES = [
    ("Ref", "/nouvelle Ana Ben"),
    ("Ana", "/coup H8 VAGUE"),
    ("Ref", "/duplicate 0.5 !"),
    ("Ana", "/fin !"),
    ("Ref", "/duplicate 0.5 manuel"),
]


def bystander_probes(club: Club, check: bool) -> None:
    """Zed types every command of the table with each of a few argument lists. With ``check``, each that
    may not change anything is checked to change nothing stored; without, only those that may (starting a
    game where none runs) are sent: what the checked probes leave is what was there before them."""
    for spec in COMMANDS:
        if spec.name in ("join", "play"):  # joining is anyone's right
            continue
        for args in ("", "Ana 1 5", "H8 VAGUE", "!", "Ana=EAU !", "langue en"):
            if not check and (spec.access is not Access.START or club.storage.active_game(CHANNEL) is not None):
                continue
            before = dump(club.path) if check else []
            replies = club.send("Zed", f"/{spec.name_in('fr')} {args}".strip())
            if check and (spec.access is not Access.START or club.storage.active_game(CHANNEL) is not None):
                assert dump(club.path) == before, (spec.name, args, replies)


@pytest.mark.long(3)
@pytest.mark.parametrize("state", range(len(BYSTANDER_STATES)))
def test_a_bystander_changes_nothing_whatever_it_types(club: Club, state: int) -> None:
    """Every command of the table, by an account that is in no game, in every kind of state: one state per
    case, reached as one long evening would reach it (the states before, each followed by what Zed's
    commands changed in it)."""
    for name, text in BYSTANDER_STATES[:state]:
        club.say(name, text, admin=name == "Ref")
        bystander_probes(club, check=False)
    name, text = BYSTANDER_STATES[state]
    club.say(name, text, admin=name == "Ref")
    bystander_probes(club, check=True)


def test_the_referee_or_an_admin_controls_the_game(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    assert "Seul l'arbitre" in club.refused("Ben", "/annule")
    assert "Seul l'arbitre" in club.refused("Ben", "/penalite Ana 5")
    assert "Annulé" in club.say("Admin", "/annule", admin=True)


# --- players are accounts ---------------------------------------------------------------------


def test_another_account_named_ben_cannot_play_bens_turn(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    club.say("Ben", "/coup 8H VOGUE")  # the seat is now Ben's account
    club.say("Ana", "/coup 10F ARGUE")
    assert "liée à un autre compte" in club.refused("Ben", "/coup L7 NE", user="u:ben-2")
    assert "ne jouez pas dans cette partie" in club.refused("Ben", "/conteste", user="u:ben-2")
    assert "Ben : L7 NE" in club.say("Ben", "/coup L7 NE")


def test_seats_can_be_claimed_and_a_second_join_is_refused(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    assert "La place d'Ana est désormais liée à ce compte" in club.say("Ana", "/rejoindre")
    assert "Vous jouez déjà dans cette partie (Ana)" in club.refused("Ana", "/rejoindre")
    assert "appartient déjà à un autre compte" in club.refused("Anna", "/rejoindre Ana")


def test_names_are_one_player_whatever_their_case_or_accents(club: Club) -> None:
    assert "ana est déjà dans la partie" in club.refused("Ref", "/nouvelle Ana ana")
    assert "déjà dans la partie" in club.refused("Ref", "/nouvelle Élise elise")
    club.say("Ref", "/nouvelle @Ana Ben")
    assert "@" not in club.say("Ref", "/feuille")
    assert "Joueurs" not in club.say("Ref", "/feuille")
    assert "Pénalité : Ana perd 5 points" in club.say("Ref", "/penalite ana 5")


# --- numbers and names typed by humans --------------------------------------------------------


def test_player_counts_follow_the_rule_set_announced(club: Club) -> None:
    assert "cette partie se joue de 2 à 4" in club.refused("Ref", "/nouvelle Ana Ben Cleo Dan Eve")
    started = club.say("Ref", "/nouvelle fisf Ana Ben Cleo")
    assert "règles box-fr (fisf se joue à deux : règles box-fr pour 3 joueurs)" in started


def test_penalties_are_positive_and_bounded(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    assert "Une pénalité va de 1 à 500 points (pas -10)" in club.refused("Ref", "/penalite Ben -10")
    assert "(pas 0)" in club.refused("Ref", "/penalite Ben 0")
    assert "n'est pas un nombre entier" in club.refused("Ref", "/penalite Ben 10000000000")
    assert "Ben perd 10 points" in club.say("Ref", "/penalite Ben 10")


def test_end_racks_are_checked_and_tiles_left_in_the_bag_are_said(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    # 95 tiles unseen: the answer names what is left of the letters at fault, not all 95 (found at a club night)
    assert club.refused("Ref", "/fin Ben=WW !") == (
        "Ben : WW ne fait pas partie des lettres non jouées (de ces lettres, il reste : W)."
    )
    assert club.refused("Ref", "/fin Ana=K Ben=K !") == (
        "Ben : K ne fait pas partie des lettres non jouées (de ces lettres, il reste : aucune)."
    )
    assert "plus de 7 lettres" in club.refused("Ref", "/fin Ben=EEEEEEEE !")
    assert "Il reste 83 lettres dans le sac" in club.refused("Ref", "/fin Ben=EAU")  # 102 - 5 - 2 racks
    assert "Fin de partie" in club.say("Ref", "/fin Ben=EAU !")
    sheet = club.say("Zed", "/feuille")
    assert "a fini" not in sheet
    assert "Ana     lettres restantes" in sheet
    exported = club.say("Zed", "/export")
    assert "()" not in exported
    assert ">Ben: EAU (EAU) -3 -3" in exported


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fr", "Ben : E ne fait pas partie des lettres non jouées (il n'en reste aucune)."),
        ("en", "Ben: E is not among the tiles still unseen (none are left)."),
    ],
)
def test_a_rack_given_when_no_tile_is_left_unseen_is_refused_in_words(club: Club, lang: str, expected: str) -> None:
    club.say("Admin", f"/settings language {lang}", admin=True)
    club.say("Ref", "/new fr Ana Ben")
    lexicon, rng = REGISTRY.get("fr"), random.Random(4)
    for _ in range(80):  # the referee records tops of racks drawn from the unseen tiles until 7 at most are left
        record = club.storage.active_game(CHANNEL)
        assert record is not None
        game = club.referee.classic_games.load(club.storage, record)
        pool = list(game.unseen().elements())
        if len(pool) <= 7:
            break
        rng.shuffle(pool)
        first = game.board.is_empty()
        found = find_top(game.board, "".join(pool[:7]), lexicon, game.edition, 1, first_move_horizontal_only=first)
        club.say("Ref", "/score " + found.plays[0].placement.notation(game.notation) if found.plays else "/pass")
    left = game.edition.spell_tiles(pool).replace(" ", "")
    assert len(pool) <= 7
    assert game.bag_count() == 0
    assert club.refused("Ref", f"/end Ana={left} Ben=E") == expected  # Ana's rack holds every unseen tile


def test_exchange_without_letters_reads_well(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    assert "Ana change des lettres." in club.say("Ana", "/change")
    assert "Ben change 3 lettres." in club.say("Ben", "/change 3")


def test_settings_during_a_game_say_they_apply_to_the_next_one(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    answer = club.say("Admin", "/reglages edition en", admin=True)
    assert "La partie classique en cours garde ses réglages" in answer
    assert "Ana : H8 VAGUE" in club.say("Ana", "/coup H8 VAGUE")  # still French, FISF


def test_times_are_shown_in_the_channels_time_zone(club: Club) -> None:
    club.say("Admin", "/reglages fuseau america/montreal", admin=True)
    assert "fuseau America/Montreal" in club.say("Zed", "/reglages")
    draw = club.say("Admin", "/duplicate 1", admin=True)
    assert "(America/Montreal)" in draw
    assert "UTC" not in draw
    assert "Fuseau horaire inconnu" in club.refused("Admin", "/reglages fuseau Mars/Olympus", admin=True)


def test_unicode_digits_and_huge_numbers_get_a_polite_answer(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    for text in ("/coup H8 VAGUE ²", "/change ²", "/coup H8 VAGUE " + "9" * 5000, "/penalite Ben ²"):
        club.refused("Ana" if "penalite" not in text else "Ref", text)
    assert club.events("play") == []


# --- finished games stay -------------------------------------------------------------------------


def test_a_finished_classic_game_can_be_shown_and_exported(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    club.say("Ben", "/coup 8H VOGUE")
    club.say("Ref", "/fin Ana=EAU !")
    sheet = club.say("Zed", "/feuille")
    assert sheet.startswith("Partie n°1 (classique")
    assert "terminée" in sheet
    assert "H8 VAGUE" in sheet
    assert "Partie n°1" in club.say("Zed", "/grille")
    assert "Partie n°1" in club.say("Zed", "/reste")
    (export,) = club.send("Zed", "/export")
    assert "#player1" in export.text
    assert export.document is not None
    assert export.document_name.endswith(".gcg")
    standings = club.say("Zed", "/classement")
    assert "1. Ana 17 (20 -3)" in standings
    assert "2. Ben 10 (10 +0)" in standings
    club.say("Ref", "/nouvelle Cleo Dan")
    assert "H8 VAGUE" in club.say("Zed", "/feuille 1")
    assert "H8 VAGUE" not in club.say("Zed", "/feuille")
    assert "pas de partie n°3" in club.refused("Zed", "/feuille 3")
    listing = club.say("Zed", "/parties")
    assert "n°1" in listing
    assert "Ana, Ben" in listing
    assert "terminée" in listing
    assert "n°2" in listing


@pytest.mark.parametrize(
    ("lang", "heads", "game"),
    [
        ("fr", ["place", "joueur", "total", "écart", "pourcentage", "solos", "coup 1"], "Partie n°1 (duplicate"),
        ("en", ["place", "player", "total", "gap", "percent", "solos", "move 1"], "Game 1 (duplicate"),
    ],
)
def test_a_finished_duplicate_game_exports_its_record_and_a_csv(
    club: Club, lang: str, heads: list[str], game: str
) -> None:
    if lang == "en":
        club.say("Ref", "/settings language en", admin=True)
    club.say("Ref", "/duplicate 1 manual", admin=True)
    club.say("Ref", "/draw AEGUVSL", admin=True)
    club.say("Ana", "/play H4 VAGUES", private=True)
    club.say("Ben", "/play H8 VAGUE", private=True)
    club.say("Ref", "/close", admin=True)
    club.say("Ref", "/end", admin=True)
    (export,) = club.send("Zed", "/export")
    assert game in export.text
    assert "AEGLSUV" in export.text
    assert export.document is not None
    assert export.document_name.endswith(".csv")
    rows = list(csv.reader(io.StringIO(export.document.decode())))
    assert rows[0] == heads
    assert rows[1][1] == "top"
    assert {r[1] for r in rows[2:]} == {"Ana", "Ben"}
    assert ("Classement après 1 coup" if lang == "fr" else "Standings after 1 move") in club.say("Zed", "/standings")


@pytest.mark.parametrize(
    ("lang", "ack", "listed"),
    [
        ("fr", "mais il vaudra 0 : le premier coup doit passer par la case centrale", "1 coup : Ana 28 · Ben 0"),
        ("en", "but it will score 0: the first move must cover the centre square", "1 move: Ana 28 · Ben 0"),
    ],
)
def test_french_typography_a_space_before_the_colon_and_lowercase_after_it(
    club: Club, lang: str, ack: str, listed: str
) -> None:
    if lang == "en":
        club.say("Ref", "/settings language en", admin=True)
    club.say("Ref", "/duplicate 1 manual", admin=True)
    club.say("Ref", "/draw AEGUVSL", admin=True)
    club.say("Ana", "/play H4 VAGUES", private=True)
    assert ack in club.say("Ben", "/play A1 VAGUE", private=True)
    club.say("Ref", "/close", admin=True)
    club.say("Ref", "/end", admin=True)
    assert listed in club.say("Zed", "/games")


# --- duplicate: late arrivals, the arbiter's corrections ------------------------------------------


def test_a_player_who_never_joined_is_told_and_the_channel_too(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel", admin=True)
    club.say("Ref", "/tirage AEGUVSL", admin=True)
    replies = club.send("Ana", "/jouer H4 VAGUES", private=True)
    private = [r.text for r in replies if r.private]
    public = [r.text for r in replies if not r.private]
    assert any("Vous voici inscrit" in t for t in private)
    assert any("Ana rejoint la partie au coup 1" in t for t in public)
    assert any("Coup 1 : 1 joueur sur 1 a joué" in t for t in public)
    assert not any("VAGUES" in t for t in public)


def test_pause_resume_extend_and_the_clock_obeys(club: Club) -> None:
    club.say("Ref", "/duplicate 1", admin=True)
    assert "Chrono du coup 1 arrêté (60 s restantes)" in club.say("Ref", "/pause", admin=True)
    assert club.tick(600) == []  # paused: nothing closes
    assert "impossible : le chrono est arrêté" in club.refused("Ref", "/pause", admin=True)
    club.say("Ref", "/reprise", admin=True)
    assert "Temps prolongé de 30 s" in club.say("Ref", "/prolonge 30", admin=True)
    assert not any("manche close" in r.text for r in club.tick(80))
    assert any("manche close" in r.text for r in club.tick(15))


def test_reopen_the_last_round_before_anyone_plays_the_next_draw(club: Club) -> None:
    club.say("Ref", "/duplicate 1", admin=True)
    club.say("Ref", "/cloture", admin=True)
    assert "Coup 1 rouvert pour 60 s" in club.say("Ref", "/rouvre", admin=True)
    club.say("Ref", "/cloture", admin=True)
    club.say("Ana", "/jouer H8 ZZZZZ", private=True)  # someone plays move 2
    assert "ne peut plus être repris : le tirage suivant a déjà été joué" in club.refused("Ref", "/rouvre", admin=True)


def test_a_misread_slip_is_corrected_with_its_reason_in_the_record(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel", admin=True)
    club.say("Ref", "/tirage AEGUVSL", admin=True)
    club.say("Ana", "/jouer H4 VAGUES", private=True)
    club.say("Ben", "/jouer H8 VOGUES", private=True)  # O is not in the draw: 0
    club.say("Ref", "/cloture", admin=True)
    corrected = club.say("Ref", "/corrige Ben 1 H8 VAGUES bulletin mal lu", admin=True)
    assert "Correction : Ben marque" in corrected
    sheet = club.say("Zed", "/feuille")
    assert "coup 1, Ben corrigé : bulletin mal lu" in sheet
    assert "Correction : Ana marque 7 au coup 1" in club.say("Ref", "/corrige Ana 1 7 erreur de saisie", admin=True)
    assert club.events("score")[-1] == {
        "kind": "score",
        "player": "Ana",
        "round": 1,
        "score": 7,
        "reason": "erreur de saisie",
    }


@pytest.mark.parametrize(
    ("lang", "correction", "expected"),
    [
        ("fr", "/corrige Ben 1 H8 VOGUES", "Correction : Ben marque 0 au coup 1 — lettres absentes du tirage : O."),
        ("en", "/correct Ben 1 H8 VOGUES", "Correction: Ben scores 0 on move 1 — letters not in the draw: O."),
        ("fr", "/corrige Ben 1 H8 GUSLAVE", "Correction : Ben marque 0 au coup 1 — mot non valable : GUSLAVE."),
        ("fr", "/corrige Ben 1 A1 VAGUES", "Correction : Ben marque 0 au coup 1 — le premier coup"),
    ],
)
def test_a_correction_that_scores_0_says_why(club: Club, lang: str, correction: str, expected: str) -> None:
    if lang == "en":
        club.say("Ref", "/settings language en", admin=True)
    club.say("Ref", "/duplicate 1 manual", admin=True)
    club.say("Ref", "/draw AEGUVSL", admin=True)
    club.say("Ben", "/play H8 VAGUE", private=True)
    club.say("Ref", "/close", admin=True)
    answer = club.ok("Ref", correction, admin=True)
    assert answer.startswith(expected), answer


def test_tied_tops_are_listed_and_the_arbiter_may_place_another(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel", admin=True)
    club.say("Ref", "/tirage EIRSTUV", admin=True)  # a first draw whose top fits in several places
    results = club.say("Ref", "/cloture", admin=True)
    assert "Tops ex aequo : 1)" in results
    assert "/top N" in results
    assert "Ensuite :" in results
    placed_before = club.say("Zed", "/grille")
    changed = club.say("Ref", "/top 2", admin=True)
    assert "Top du coup 1 changé par l'arbitre" in changed
    assert "choix de l'arbitre" in changed
    assert club.say("Zed", "/grille") != placed_before
    assert "est déjà le top placé" in club.refused("Ref", "/top 1", admin=True)


@pytest.mark.parametrize(
    ("lang", "hint", "more"),
    [
        ("fr", r"(\d+) coups font le top", r"12\) \S+ \S+ et (\d+) autres —"),
        ("en", r"(\d+) plays share the top", r"12\) \S+ \S+ and (\d+) more —"),
    ],
)
def test_every_play_sharing_the_top_is_counted_and_the_first_twelve_listed(
    club: Club, lang: str, hint: str, more: str
) -> None:
    if lang == "en":
        club.say("Ref", "/settings language en", admin=True)
    club.say("Ref", "/duplicate 1 manual", admin=True)
    club.say("Ref", "/draw AEINRST", admin=True)  # 1-point letters: every anagram at six places scores the top
    results = club.ok("Ref", "/close", admin=True)
    shared, listed_more = re.search(hint, results), re.search(more, results)
    assert shared is not None, results
    assert listed_more is not None, results
    assert int(shared[1]) > 12
    assert int(listed_more[1]) == int(shared[1]) - 12
    assert "13)" not in results
    assert club.events("close")[-1]["top_count"] == int(shared[1])


def test_another_tied_top_of_the_same_tiles_keeps_the_next_draw(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel", admin=True)
    club.say("Ref", "/tirage GILMMOR", admin=True)  # tops: GOIM at H5, H6, H7 and H8, leaving LMR
    club.say("Ref", "/cloture", admin=True)
    club.say("Ref", "/tirage LMR+AEIO", admin=True)  # the next draw, seen by the players
    assert "tirage : LMR+AEIO" in club.say("Zed", "/etat")
    changed = club.say("Ref", "/top 2", admin=True)
    assert "Top du coup 1 changé par l'arbitre" in changed
    assert "Coup 2 — tirage : LMR+AEIO" in changed  # the same draw, not a wait for a new one
    assert "Coup 2 — tirage : LMR+AEIO" in club.say("Zed", "/etat")
    assert [e["draw"] for e in club.events("draw")] == ["GILMMOR", "LMR+AEIO", "LMR+AEIO"]


def test_another_tied_top_of_other_tiles_sends_the_next_draw_back(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel", admin=True)
    club.say("Ref", "/tirage EIRSTUV", admin=True)  # tops: VERTUS (leaves I), VISEUR (T), VITRES (U)
    club.say("Ref", "/cloture", admin=True)
    club.say("Ref", "/tirage I+AEEMN", admin=True)
    changed = club.say("Ref", "/top 2", admin=True)
    assert "Top : H4 VISEUR" in changed
    assert "tapez le tirage" in changed
    assert "tirage : I+AEEMN" not in club.say("Zed", "/etat")


def test_status_and_draw_show_the_current_draw_to_anyone(club: Club) -> None:
    club.say("Ref", "/duplicate 1", admin=True)
    club.say("Ana", "/jouer H8 ZZZZ", private=True)
    (shown,) = club.send("Zed", "/etat")
    assert "Coup 1 — tirage : " in shown.text
    assert "1 joueur sur 1 a joué" in shown.text
    assert shown.deadline == club.now + 60
    assert shown.edit_key is None
    assert "Coup 1 — tirage : " in club.send("Zed", "/tirage")[0].text
    assert "Seul l'arbitre" in club.refused("Zed", "/tirage EEU+ESI?")
    club.say("Ref", "/pause", admin=True)
    assert "Chrono arrêté par l'arbitre" in club.say("Zed", "/etat")


def test_a_long_sheet_is_shown_page_by_page(club: Club) -> None:
    club.say("Ref", "/nouvelle Ana Ben")
    for index in range(90):
        club.say("Ana" if index % 2 == 0 else "Ben", "/passe")
    latest = club.say("Zed", "/feuille")
    assert "Lignes 81 à 90 sur 90 (page 3/3)" in latest
    assert "/feuille p1" in latest
    first = club.say("Zed", "/feuille p1")
    assert "Lignes 1 à 40 sur 90 (page 1/3)" in first
    assert len(first) < 4000
    assert "Il n'y a pas de page 4 : la feuille en a 3" in club.refused("Zed", "/feuille p4")
