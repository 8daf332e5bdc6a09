"""The challenge options of a classic game and the six-zero end (issue 26, docs/rules.md "Turn types and
rule sets", "Challenge options"): each a setting of the game over its rule set's default."""

from __future__ import annotations

import pytest

from core.edition import edition_by_code
from core.errors_classic import (
    ScorelessEndError,
    SettingAfterStartError,
    SettingNameError,
    SettingValueError,
)
from core.events import Challenge, End, Exchange, Pass, Play, Setting, Undo
from core.game import ClassicGame, LineKind
from core.rules import ClockMode, rule_set_by_code
from tests.club import Club

FRENCH = edition_by_code("fr")


def game_with(rules: str, settings: dict[str, str], players: tuple[str, ...] = ("Ana", "Ben")) -> ClassicGame:
    game = ClassicGame(FRENCH, rule_set_by_code(rules), players)
    for name, value in settings.items():
        game.apply(Setting(name, value))
    return game


@pytest.mark.parametrize(
    ("rules", "penalty", "double", "void", "zeros", "clock_minutes"),
    [
        ("box-fr", 0, True, False, False, 30),  # rules.md table: box rules, the challenger loses the next turn
        ("box-en", 0, True, False, False, 25),
        ("fisf", 5, False, False, False, 30),  # FISF 6: thirty minutes each on a chess clock
        ("naspa", 0, True, False, True, 25),  # NASPA: double challenge, 25-minute games, six zeros end it
        ("wespa", 0, False, False, True, 25),  # WESPA: 5 points to the challenged player instead; six zeros
    ],
)
def test_defaults_per_rule_set(
    rules: str, penalty: int, double: bool, void: bool, zeros: bool, clock_minutes: int
) -> None:
    rule_set = ClassicGame(FRENCH, rule_set_by_code(rules), ("Ana", "Ben")).rules
    assert (rule_set.challenge_penalty_per_word, rule_set.challenge_lost_turn) == (penalty, double)
    assert (rule_set.challenge_void, rule_set.scoreless_ends) == (void, zeros)
    assert (rule_set.clock, rule_set.clock_minutes) == (ClockMode.NONE, clock_minutes)


@pytest.mark.parametrize(
    ("rules", "penalty", "move", "words", "challenger_points"),
    [
        ("fisf", None, "9H AS", ("AS",), -5),  # rules.md: FISF, 5 points per word wrongly challenged
        ("fisf", "0", "9H AS", ("AS",), 0),
        ("fisf", "10", "9H AS", ("AS",), -10),  # the "Swedish" 10 points
        ("box-fr", "5", "9H AS", ("AS",), -5),
        ("naspa", "10", "9H AS", ("AS",), -10),
        ("fisf", "10", "12G ES", ("ES", "GALES"), -20),  # per word challenged
        ("fisf", "10", "12G ES", ("GALES",), -10),
        ("fisf", "5", "12G ES", (), -10),  # the whole move: each word it formed (ES, GALES)
    ],
)
def test_penalty_per_word_wrongly_challenged(
    rules: str, penalty: str | None, move: str, words: tuple[str, ...], challenger_points: int
) -> None:
    game = game_with(rules, {"penalty": penalty} if penalty is not None else {})
    game.apply(Play("Ana", "H8 GALE"))
    game.apply(Play("Ben", move))
    game.apply(Challenge("Ana", words, ()))
    penalties = [line.points for line in game.lines if line.kind is LineKind.CHALLENGE_PENALTY]
    assert sum(penalties) == challenger_points
    assert game.totals()["Ana"] == game.lines[0].points + challenger_points


@pytest.mark.parametrize(
    ("rules", "double", "ana_loses_turn"),
    [
        ("naspa", None, True),  # rules.md: NASPA, the challenger loses the turn (double challenge)
        ("naspa", "off", False),
        ("fisf", "on", True),
        ("fisf", None, False),  # FISF: points, not a turn
        ("box-fr", None, True),  # box rules: the challenger loses the next turn
    ],
)
def test_double_challenge_costs_the_challenger_a_turn(rules: str, double: str | None, ana_loses_turn: bool) -> None:
    game = game_with(rules, {"double": double, "penalty": "0"} if double else {"penalty": "0"})
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Play("Ben", "9H AS"))
    game.apply(Challenge("Ana", ("AS",), ()))  # Ana, to move, challenges a valid word
    lost = [line.player for line in game.lines if line.kind is LineKind.LOST_TURN]
    assert lost == (["Ana"] if ana_loses_turn else [])
    assert game.to_move == ("Ben" if ana_loses_turn else "Ana")


@pytest.mark.parametrize("rules", ["box-fr", "fisf", "naspa", "wespa"])
def test_void_a_valid_word_challenged_costs_nothing(rules: str) -> None:
    game = game_with(rules, {"void": "on"})
    game.apply(Play("Ana", "H8 VAGUE"))
    game.apply(Challenge("Ben", ("VAGUE",), ()))
    assert [line.kind for line in game.lines] == [LineKind.PLAY]  # no penalty, bonus or lost turn
    assert game.totals() == {"Ana": 20, "Ben": 0}
    assert game.to_move == "Ben"


@pytest.mark.parametrize("rules", ["box-fr", "fisf", "naspa", "wespa"])
def test_void_a_phony_is_simply_taken_off(rules: str) -> None:
    game = game_with(rules, {"void": "on"})
    game.apply(Play("Ana", "H8 VAGUX"))
    game.apply(Challenge("Ben", ("VAGUX",), ("VAGUX",)))
    assert game.board.is_empty()
    assert game.lines[0].removed
    assert game.totals() == {"Ana": 0, "Ben": 0}
    assert game.to_move == "Ben"


@pytest.mark.parametrize(
    ("rules", "turns", "ends"),
    [
        ("naspa", ["pass"] * 6, True),  # six scoreless turns in a row (3 per player) end the game
        ("naspa", ["pass", "exchange"] * 3, True),  # exchanges score nothing either
        ("naspa", ["pass"] * 5, False),
        ("fisf", ["pass", "exchange"] * 3, True),
        ("box-fr", ["pass"] * 4, True),  # box rules: every player passed twice, passes only
        ("box-fr", ["pass", "pass", "exchange", "pass"], False),
    ],
)
def test_six_zero_end(rules: str, turns: list[str], ends: bool) -> None:
    game = game_with(rules, {"zeros": "on"})
    for kind in turns:
        player = game.to_move or ""
        game.apply(Pass(player) if kind == "pass" else Exchange(player, "AB"))
    nxt = Pass(game.to_move or "")
    if ends:
        with pytest.raises(ScorelessEndError) as refused:
            game.apply(nxt)
        assert refused.value.streak == len(turns)
        game.apply(End((("Ana", "EAU"), ("Ben", "ZE")), stopped=True))  # the racks close it
        assert game.ended
        assert game.totals() == {"Ana": -3, "Ben": -11}
    else:
        game.apply(nxt)
        assert not game.ended


@pytest.mark.parametrize(
    ("rules", "ends", "source"),
    [
        # box rules: the game "se termine quand tous les joueurs passent deux fois de suite" (seed 000), but
        # RULES.md "Turn types and rule sets": the sheet flags the limit and never closes the game by itself
        ("box-fr", False, "RULES.md, game blocked: every player passed twice in a row, flagged"),
        ("box-en", False, "RULES.md, game blocked: every player passed twice in a row, flagged"),
        # FISF classic 7: after two passes in a row the first passer must play or change; 8: the game ends
        # when blocked (nobody can place a letter), a judgement the referee makes with /fin
        ("fisf", False, "FISF classic rules 7 and 8 (seed 002): no scoreless end, a blocked game"),
        # tournament English: "six tours consécutifs sans point en jeu de tournoi" (seed 000); RULES.md
        ("naspa", True, "NASPA: six consecutive scoreless turns end the game"),
        ("wespa", True, "WESPA: six consecutive scoreless turns end the game"),
    ],
)
def test_the_six_zero_end_by_default_follows_the_rule_set(rules: str, ends: bool, source: str) -> None:
    game = game_with(rules, {})
    assert game.rules.scoreless_ends is ends, source
    for _ in range(game.rules.scoreless_limit(2)):
        game.apply(Pass(game.to_move or ""))
    assert game.scoreless_limit_reached
    if ends:
        with pytest.raises(ScorelessEndError):
            game.apply(Pass(game.to_move or ""))
        assert game.lines[-1].kind == "pass"
        assert len(game.lines) == game.rules.scoreless_limit(2)
    else:
        game.apply(Pass(game.to_move or ""))
        assert not game.ended
        assert len(game.lines) == game.rules.scoreless_limit(2) + 1


def test_six_zero_end_off_plays_on() -> None:
    game = game_with("naspa", {"zeros": "off"})
    for _ in range(7):
        game.apply(Pass(game.to_move or ""))
    assert game.scoreless_limit_reached
    assert not game.ended


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("penalty", "51", SettingValueError),
        ("penalty", "-5", SettingValueError),
        ("penalty", "cinq", SettingValueError),
        ("double", "maybe", SettingValueError),
        ("clock", "chess:0", SettingValueError),
        ("clock", "stopwatch:5", SettingValueError),
        ("clock", "sundial", SettingValueError),
        ("colour", "on", SettingNameError),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(name: str, value: str, error: type[Exception]) -> None:
    game = game_with("fisf", {})
    before = game.rules
    with pytest.raises(error):
        game.apply(Setting(name, value))
    assert game.rules == before
    assert game.events == []


def test_settings_are_chosen_before_the_first_turn_and_undo_passes_over_them() -> None:
    game = game_with("fisf", {"penalty": "10"})
    game.apply(Play("Ana", "H8 VAGUE"))
    with pytest.raises(SettingAfterStartError):
        game.apply(Setting("penalty", "0"))
    game.apply(Undo())  # takes back the play, not the setting
    assert game.rules.challenge_penalty_per_word == 10
    assert not game.lines


# --- in the chat ---------------------------------------------------------------------------------


def test_the_referee_sets_the_options_in_either_language(club: Club) -> None:
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    said = club.ok("Ana", "/reglages penalite 10")
    assert "pénalité 10 par mot contesté à tort" in said
    assert "double contestation oui" in club.ok("Ana", "/reglages double oui")
    assert "contestation nulle non" in club.ok("Ana", "/settings void no")
    assert "fin aux tours sans points oui" in club.ok("Ana", "/reglages zeros oui")
    assert [e["name"] for e in club.events("setting")] == ["penalty", "double", "void", "zeros"]
    assert "pénalité 10 par mot" in club.ok("Ana", "/reglages")  # shown with the channel's settings


@pytest.mark.parametrize(
    ("lang", "rules", "said"),
    [
        ("fr", "fisf", "Partie en cours (fisf) : contestation nulle oui (une contestation ne coûte rien : ni pénalité"),
        ("en", "wespa", "Running game (wespa): void challenge on (a challenge costs nothing: no penalty and no lost"),
    ],
)
def test_a_void_challenge_game_lists_no_penalty(club: Club, lang: str, rules: str, said: str) -> None:
    """Issue 37, item 8: with the void challenge a challenge costs nothing, yet /reglages said "pénalité 5"."""
    club.ok("Ana", f"/settings language {lang}", admin=True)
    club.ok("Ana", f"/new {rules} Ana Ben")
    shown = club.ok("Ana", "/settings void on")
    assert said in shown
    assert "5" not in shown.split(said)[1].split(",")[0]
    assert "pénalité 5" not in club.ok("Ana", "/settings")
    assert "5 points per word" not in club.ok("Ana", "/settings")


def test_options_refused_politely(club: Club) -> None:
    assert "Pas de partie classique en cours" in club.refused("Ana", "/reglages penalite 10", admin=True)
    club.ok("Ana", "/nouvelle fisf Ana Ben")
    assert club.refused("Ana", "/reglages penalite 99") == (
        "Pénalité par mot contesté à tort : « 99 » impossible, de 0 à 50 points (exemple : /reglages penalite 10)."
    )
    assert club.refused("Ana", "/reglages pendule toujours").startswith("Pendule : « toujours » impossible. Exemples")
    assert club.refused("Ana", "/reglages double peut-etre").startswith("Double contestation : « peut-etre »")
    said = club.refused("Ben", "/reglages penalite 0")
    assert said == "Seul l'arbitre de la partie (Ana) ou un administrateur du salon peut utiliser /reglages."
    club.ok("Ana", "/coup H8 VAGUE")
    assert "la partie a commencé" in club.refused("Ana", "/reglages double non")
    # the setting named as the room types it, never by the grammar's English name (void, penalty)
    assert club.refused("Ana", "/reglages nulle oui").startswith("Réglage nulle : la partie a commencé")
    assert club.refused("Ana", "/reglages penalite 5").startswith("Réglage penalite : la partie a commencé")


@pytest.mark.parametrize(
    ("rules", "settings", "said"),
    [
        ("naspa", [], "la partie est finie, terminez-la avec /fin"),  # on by default under NASPA
        ("naspa", ["/reglages zeros non"], "la partie peut être close avec /fin"),
        ("fisf", [], "la partie peut être close avec /fin"),
        ("fisf", ["/reglages zeros oui"], "la partie est finie, terminez-la avec /fin"),
    ],
)
def test_the_sheet_says_whether_the_scoreless_limit_ended_the_game(
    club: Club, rules: str, settings: list[str], said: str
) -> None:
    club.ok("Ana", f"/nouvelle {rules} Ana Ben")
    for setting in settings:
        club.ok("Ana", setting)
    for turn in range(6):
        last = club.ok("Ana" if turn % 2 == 0 else "Ben", "/passe")
    assert f"Limite de tours sans points atteinte (6) : {said}" in last
    if "finie" in said:
        assert "6 tours sans points : la partie est finie" in club.refused("Ana", "/passe")
    else:
        club.ok("Ana", "/passe")
