"""Classic games in the command layer: who records a turn for whom, how many players, the claimed score,
taking back a /end (issue 20 items 5, 11, 14, 20)."""

from __future__ import annotations

import pytest

from tests.club import CHANNEL, Club

# --- a referee who also plays (item 5) ----------------------------------------------------------

# (language, the game, the seated referee's out-of-turn lines, what each is told, the explicit form, its reply)
OUT_OF_TURN = [
    (
        "fr",
        "/nouvelle Ana Ben Chloé",
        ["/coup 9H .S", "/passe", "/change 3"],
        "C'est à Ben de jouer, pas à vous (Ana). Pour enregistrer le coup de Ben, nommez sa place : /{name} … @Ben",
        "/coup @Ben 9H AS",
        "Ana enregistre pour Ben :\nBen : 9H AS",
    ),
    (
        "en",
        "/new Ana Ben Chloé",
        ["/score 9H .S", "/pass", "/exchange 3"],
        "It is Ben's turn, not yours (Ana). To record Ben's move, name the seat: /{name} … @Ben",
        "/score @Ben 9H AS",
        "Ana records for Ben:\nBen: 9H AS",
    ),
]


def english(club: Club) -> None:
    club.ok("Ana", "/reglages langue en", admin=True)


@pytest.mark.parametrize(("lang", "new", "lines", "told", "explicit", "reply"), OUT_OF_TURN, ids=["fr", "en"])
def test_a_seated_referee_out_of_turn_is_told_whose_turn_and_names_the_seat_to_record_for_it(
    club: Club, lang: str, new: str, lines: list[str], told: str, explicit: str, reply: str
) -> None:
    if lang == "en":
        english(club)
    club.ok("Ana", new)
    club.ok("Ana", lines[0].split()[0] + " H8 VAGUE")  # Ana's own move: her turn
    names = {"fr": ["coup", "passe", "change"], "en": ["score", "pass", "exchange"]}[lang]
    for line, name in zip(lines, names, strict=True):
        assert told.format(name=name) in club.refused("Ana", line)
    assert reply in club.ok("Ana", explicit)
    assert [e["player"] for e in club.events("play")] == ["Ana", "Ben"]


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        ("/passe @Chloé", "Ana enregistre pour Chloé :\nChloé passe."),
        ("/passe Chloé", "Ana enregistre pour Chloé :\nChloé passe."),  # a Discord mention arrives as the name
        ("/change @Chloé ABC", "Ana enregistre pour Chloé :\nChloé change ABC."),
        ("/change ABC @Chloé", "Ana enregistre pour Chloé :\nChloé change ABC."),
        ("/coup Chloé 12H .T", "Ana enregistre pour Chloé :\nChloé : 12H ET"),
        ("/coup 12H .T 3 @chloe", "Ana enregistre pour Chloé :\nChloé : 12H ET"),
    ],
)
def test_the_seated_referee_records_for_the_player_to_move_by_naming_the_seat(
    club: Club, command: str, reply: str
) -> None:
    club.ok("Ana", "/nouvelle Ana Ben Chloé")
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ben", "/coup 9H AS")
    assert reply in club.ok("Ana", command)
    assert "À Ana de jouer." in club.ok("Ana", "/etat")


@pytest.mark.parametrize("named", ["@Élodie Lefèvre", "@elodie", "Élodie Lefèvre", "@Élodie Lefèvre 3"])
def test_a_seat_of_several_words_is_named_whole_or_by_its_first_word(club: Club, named: str) -> None:
    club.ok("Ana", "/nouvelle Ana")
    club.ok("Élodie Lefèvre", "/rejoindre")  # a name of two words
    club.ok("Ana", "/coup H8 VAGUE")
    command = "/change " + named if named.endswith("3") else "/passe " + named
    assert "Ana enregistre pour Élodie Lefèvre :\nÉlodie Lefèvre " in club.ok("Ana", command)


def test_naming_a_seat_that_is_not_to_move_or_not_in_the_game_is_refused(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben Chloé")
    club.ok("Ana", "/coup H8 VAGUE")
    assert "Ce n'est pas à Chloé de jouer mais à Ben." in club.refused("Ana", "/coup @Chloé 9H AS")
    assert "Zoé ne joue pas dans cette partie (Ana, Ben, Chloé)." in club.refused("Ana", "/passe @Zoé")
    assert "Ce n'est pas à Ana de jouer mais à Ben." in club.refused("Ref", "/passe @Ana", admin=True)


def test_a_player_who_is_not_the_referee_records_only_their_own_turn(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben Chloé")
    club.ok("Ana", "/coup H8 VAGUE")
    assert "C'est à Ben de jouer : seul Ben ou l'arbitre (Ana) peut enregistrer ce coup." in club.refused(
        "Chloé", "/passe"
    )
    assert "Vous ne pouvez pas jouer à la place de Ben : seul l'arbitre (Ana) enregistre pour un autre joueur." in (
        club.refused("Chloé", "/coup @Ben 9H AS")
    )


@pytest.mark.parametrize(
    ("new", "score", "told"),
    [
        (
            "/nouvelle Ana Ben Chloé",
            "/coup 8H VOGUE",
            "C'est à Ana de jouer : ce coup s'enregistre depuis le compte d'Ana, qui arbitre la partie, ou par un"
            " administrateur du salon.",
        ),
    ],
)
def test_when_the_seated_referee_is_to_move_the_others_are_told_so_once(
    club: Club, new: str, score: str, told: str
) -> None:
    """Not « seul Ana ou l'arbitre (Ana) »: found playing a club night."""
    club.ok("Ana", new)
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ben", "/coup 9H .S")
    club.ok("Chloé", "/passe")
    assert told in club.refused("Ben", score)
    assert told in club.refused("Zoé", score)  # a bystander too


def test_a_referee_who_plays_no_seat_records_for_the_player_to_move_as_before(club: Club) -> None:
    club.ok("Ref", "/nouvelle Ana Ben")
    assert club.ok("Ref", "/coup H8 VAGUE").startswith("Ana : H8 VAGUE")
    assert club.ok("Ref", "/passe").startswith("Ben passe.")
    assert "Ref enregistre pour Ana :\nAna passe." in club.ok("Ref", "/passe @Ana")


def test_the_english_family_game_mom_records_for_kid_only_when_she_names_him(club: Club) -> None:
    english(club)
    club.ok("Mom", "/new Mom Kid")
    club.ok("Mom", "/score 8H VAGUE")
    assert "It is Kid's turn, not yours (Mom)." in club.refused("Mom", "/score L8 .AUX")
    assert "Mom records for Kid:\nKid: L8 EAUX" in club.ok("Mom", "/score @Kid L8 .AUX")
    assert "It is not Kid's turn but Mom's." in club.refused("Mom", "/pass @Kid")
    assert "You cannot play for Mom: only the referee (Mom) records for another player." in club.refused(
        "Kid", "/pass @Mom"
    )


# --- too many players (item 11) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "new", "too_many", "join", "full"),
    [
        (
            "fr",
            "/nouvelle Ana Ben Cleo Dan Eve",
            "5 joueurs, c'est trop : cette partie se joue de 2 à 4 joueurs.",
            "/rejoindre",
            "La partie est complète (4 joueurs au plus) : Ana, Ben, Cleo, Dan. Personne d'autre ne peut la rejoindre.",
        ),
        (
            "en",
            "/new Ana Ben Cleo Dan Eve",
            "5 players is too many: this game is for 2 to 4 players.",
            "/join",
            "The game is full (4 players at most): Ana, Ben, Cleo, Dan. Nobody else can join it.",
        ),
    ],
    ids=["fr", "en"],
)
def test_too_many_players_says_so_and_does_not_invite_joining(
    club: Club, lang: str, new: str, too_many: str, join: str, full: str
) -> None:
    if lang == "en":
        english(club)
    answer = club.refused("Ana", new)
    assert answer == too_many
    club.ok("Ana", new.rsplit(" ", 1)[0])  # four players
    answer = club.refused("Eve", join)
    assert answer == full
    assert "/rejoindre" not in answer
    assert "/join" not in answer


def test_a_fifth_join_before_the_first_move_is_refused_and_a_too_short_game_still_invites_joining(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana")
    assert "1 joueur : cette partie se joue de 2 à 4. Ajoutez des joueurs avec /rejoindre." in club.refused(
        "Ana", "/passe"
    )
    for name in ("Ben", "Cleo", "Dan"):
        club.ok(name, "/rejoindre")
    assert "La partie est complète (4 joueurs au plus)" in club.refused("Eve", "/rejoindre")


# --- the claimed score (item 20) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "line", "answer"),
    [
        (
            "fr",
            "/coup 8H VOGUE dix",
            "Le score annoncé « dix » n'est pas un nombre entier : écrivez-le en chiffres (/coup 8H VOGUE 26),"
            " ou ne l'écrivez pas.",
        ),
        ("fr", "/coup 8H VOGUE 1,5", "Le score annoncé « 1,5 » n'est pas un nombre entier"),
        ("fr", "/coup 8H VOGUE -5", "Le score annoncé « -5 » n'est pas un nombre entier"),
        ("fr", "/coup @Ana 8H VOGUE dix", "Le score annoncé « dix » n'est pas un nombre entier"),
        ("fr", "/coup 8H VOGUE dix onze", "Coup illisible « 8H VOGUE dix onze »"),  # not only the score
        (
            "en",
            "/score 8H VOGUE ten",
            "The claimed score 'ten' is not a whole number: write it in digits (/score 8H VOGUE 26), or leave it out.",
        ),
    ],
)
def test_a_claimed_score_that_is_not_a_number_is_named_as_the_problem(
    club: Club, lang: str, line: str, answer: str
) -> None:
    if lang == "en":
        english(club)
    club.ok("Ana", "/nouvelle Ana Ben")
    assert answer in club.refused("Ana", line)


# --- taking back a /end (item 14) ----------------------------------------------------------------


def test_undo_right_after_end_reopens_the_game_and_a_corrected_end_counts(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ben", "/coup 9H AS")
    assert "2. Ben -9 (3 -12)" in club.ok("Ana", "/fin Ana=E Ben=ZEE !")  # a wrong rack typed: ZEE for EAU
    assert "Partie n°1 (classique" in club.ok("Ben", "/feuille")  # over
    reopened = club.ok("Ana", "/annule")
    assert "Annulé : la fin de partie (par Ana) ; la partie reprend." in reopened
    assert "À Ana de jouer." in reopened
    assert club.storage.active_game(CHANNEL) is not None
    assert "terminée" not in club.ok("Ben", "/feuille")
    assert "2. Ben 0 (3 -3)" in club.ok("Ana", "/fin Ana=E Ben=EAU !")
    record = next(r.document for r in club.send("Ana", "/export") if r.document is not None).decode("utf-8")
    assert ">Ben: EAU (EAU) -3 0" in record
    assert "ZEE" not in record
    assert "Juste après /fin, annule la fin" in club.ok("Ana", "/aide annule")
    undo = [e for e in club.storage.events(club.storage.games(CHANNEL)[-1].id) if e.data["kind"] == "undo"]
    assert [e.author for e in undo] == ["u:ana"]  # who took the end back is recorded


def test_undo_after_end_in_english_and_who_may_do_it(club: Club) -> None:
    english(club)
    club.ok("Mom", "/new Mom Kid")
    club.ok("Mom", "/score 8H VAGUE")
    club.ok("Mom", "/end Kid=EAU !")
    assert "Only the game's referee (Mom) or a channel admin may use /undo." in club.refused("Kid", "/undo")
    reopened = club.ok("Mom", "/undo")
    assert "Undone: the end of the game (by Mom); the game goes on." in reopened
    assert "Kid to play." in reopened
    assert "Kid: 9H AS" in club.ok("Kid", "/score 9H AS")


def test_an_end_is_taken_back_only_while_its_game_is_the_channel_s_last(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    club.ok("Ana", "/fin Ben=EAU !")
    club.ok("Ana", "/duplicate")
    club.ok("Ana", "/fin")
    assert "Aucune partie classique en cours" in club.refused("Ana", "/annule")
    assert club.storage.games(CHANNEL)[0].status.value == "ended"


@pytest.mark.parametrize("command", ["/conteste", "/coup H8 VAGUE", "/passe"])
def test_a_classic_command_in_a_duplicate_room_says_how_duplicate_is_played(club: Club, command: str) -> None:
    club.ok("Ana", "/duplicate")
    answer = club.refused("Ben", command)
    assert "En duplicate, chacun joue en privé avec /jouer" in answer


@pytest.mark.parametrize(
    ("lang", "new", "typed", "told"),
    [
        ("fr", "/nouvelle Ana Ben", "/jouer H8 VAGUE", "avec /coup, comme /coup H8 VAGUE (rien n'a été enregistré)"),
        ("en", "/new Ana Ben", "/play 8H VAGUE", "with /score, as in /score 8H VAGUE (nothing was recorded)"),
    ],
    ids=["fr", "en"],
)
def test_a_duplicate_play_typed_in_a_classic_game_names_the_command_that_records_it(
    club: Club, lang: str, new: str, typed: str, told: str
) -> None:
    """Not "your move must stay secret": no duplicate is played here (found playing a night in the console)."""
    if lang == "en":
        english(club)
    club.ok("Ana", new)
    refusal = club.refused("Ana", typed)
    assert told in refusal
    assert club.events("play") == []
