"""/moves (/coups): a player's moves in the running or a finished game, classic and duplicate."""

from __future__ import annotations

from tests.club import CHANNEL, Club


def classic_moves(club: Club) -> None:
    club.say("Ana", "/nouvelle Ana Ben")
    club.say("Ana", "/coup H8 VAGUE")
    club.say("Ben", "/coup 8H VOGUE")
    club.say("Ana", "/coup 10F ARGUE")
    club.say("Ben", "/coup L7 NE")


def table_rows(answer: str) -> list[list[str]]:
    """The rows of the monospace table in an answer (header and rule left out)."""
    inside = answer.split("```")[1].strip("\n").splitlines()
    return [line.split() for line in inside[2:]]


def test_a_player_sees_their_own_moves_by_default(club: Club) -> None:
    classic_moves(club)
    answer = club.say("Ana", "/coups")
    assert answer.startswith("Coups joués par Ana :")
    rows = table_rows(answer)
    assert [row[:3] for row in rows] == [["1", "H8", "VAGUE"], ["3", "10F", "ARGUE"]]
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    game = club.referee.classic_games.load(club.storage, record)
    assert rows[-1][-1] == str(game.totals()["Ana"])  # the running total after the last one
    best = max((line for line in game.lines if line.player == "Ana"), key=lambda line: line.points)
    assert f"Total {game.totals()['Ana']} · 2 mots posés · meilleur coup : {best.move} {best.points}" in answer


def test_anyone_names_a_player_and_strangers_are_told_how(club: Club) -> None:
    classic_moves(club)
    assert [row[1:3] for row in table_rows(club.say("Zed", "/coups Ben"))] == [["8H", "VOGUE"], ["L7", "NE"]]
    assert [row[1:3] for row in table_rows(club.say("Zed", "/moves @ben"))] == [["8H", "VOGUE"], ["L7", "NE"]]
    refused = club.refused("Zed", "/coups")
    assert "Vous ne jouez pas dans cette partie" in refused
    assert "/coups [JOUEUR] [N]" in refused
    assert "Ana, Ben" in refused
    assert "Zoé ne joue pas dans cette partie (Ana, Ben)" in club.refused("Zed", "/coups Zoé")


def test_a_challenged_move_says_so_in_english(club: Club) -> None:
    club.say("Admin", "/reglages langue en", admin=True)
    club.say("Ana", "/new Ana Ben")
    club.say("Ana", "/score H8 VAGUE")
    club.say("Ben", "/score 8H VOGUE")
    club.say("Ana", "/challenge")  # VOGUE stands: Ana loses her next turn
    club.say("Ben", "/score 10F ARGUE")
    answer = club.say("Ana", "/moves")
    assert answer.startswith("Moves played by Ana:")
    assert "turn lost (challenge)" in answer
    assert "challenged by Ana, valid" in club.say("Ana", "/moves Ben")


def test_moves_of_a_finished_game_by_its_number(club: Club) -> None:
    classic_moves(club)
    club.say("Ana", "/fin !")
    club.say("Cleo", "/nouvelle Cleo Dan")
    answer = club.say("Ana", "/coups 1")  # Ana's seat in game 1
    assert answer.startswith("Partie n°1 (classique")
    assert [row[1:3] for row in table_rows(answer)][:2] == [["H8", "VAGUE"], ["10F", "ARGUE"]]
    assert "VOGUE" in club.say("Cleo", "/coups Ben 1")
    assert "Vous ne jouez pas dans cette partie" in club.refused("Ana", "/coups")  # game 2 is Cleo's and Dan's
    assert "pas de partie n°3" in club.refused("Ana", "/coups Ana 3")


def test_duplicate_moves_show_the_top_and_the_gap_and_keep_the_open_round_secret(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel")
    club.say("Ana", "/rejoindre")
    club.say("Ben", "/rejoindre")
    club.say("Ref", "/tirage AEEISTU")
    club.say("Ana", "/jouer H8 SAUTE", private=True)
    club.say("Ben", "/jouer H8 ZZZ", private=True)
    club.say("Ref", "/cloture")
    record = club.storage.active_game(CHANNEL)
    assert record is not None
    game = club.referee.duplicate_games.load(club.storage, record)
    closed = game.closed_rounds[0]
    assert closed.top is not None
    club.say("Ref", f"/tirage {game.reliquat}+{'AEINRST'[: 7 - len(game.reliquat)]}")
    club.say("Ana", "/jouer 8F SECRET", private=True)  # not closed: never shown

    answer = club.say("Zed", "/coups Ana")
    rows = table_rows(answer)
    ana = closed.score_of("Ana")
    top = closed.top.notation(game.notation).split()
    assert rows == [
        ["1", "AEEISTU", "H8", "SAUTE", str(ana), *top, str(closed.top_points), f"{ana - closed.top_points:+d}"]
    ]
    assert "SECRET" not in answer
    assert "Coup 2 en cours : les réponses restent secrètes" in answer
    standing = next(s for s in game.standings() if s.player == "Ana")
    assert f"Total {ana} (top cumulé {closed.top_points})" in answer
    assert f"place {standing.place} sur 2" in answer

    club.say("Ref", "/fin")  # the open move is dropped with the game: nothing said of it any more
    assert "en cours" not in club.say("Zed", "/coups Ana")
    ben = club.say("Ben", "/coups")  # his own
    assert "lettres absentes du tirage : Z, Z, Z" in ben
    assert f"-{closed.top_points}" in ben


def test_a_first_name_is_enough_when_only_one_player_has_it(club: Club) -> None:
    club.say("Ref", "/duplicate 1 manuel")
    for name in ("Élodie Lefèvre", "Ana Brun", "Ana Roux"):
        club.say(name, "/rejoindre")
    club.say("Ref", "/tirage AEEISTU")
    club.say("Élodie Lefèvre", "/jouer H8 SAUTE", private=True)
    club.say("Ref", "/cloture")
    assert club.say("Zed", "/coups elodie").startswith("Coups joués par Élodie Lefèvre :")
    assert "Ana ne joue pas dans cette partie" in club.refused("Zed", "/coups Ana")  # two of them
    assert club.say("Zed", "/coups ana roux").startswith("Coups joués par Ana Roux :")
