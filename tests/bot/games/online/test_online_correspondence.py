"""Several online games by correspondence in one channel (issue 41, item 3), through the command layer on a real
SQLite file and the driven clock: a game by correspondence starts beside the channel's running ones (no ``!``:
nothing is replaced), each is known by its number in /games, a command takes that number first where the game
is not clear (``/chevalet 2``, ``/coup 2 H8 MOT``) and asks for it otherwise, /chevalet in a private chat shows
the sender's rack in each, and every line of a game by correspondence names it (the channel's, the reminders,
the notice that it is one's turn). Over three simulated days the games run on their own clocks: the one of two
days ends on its second day while the other goes on, and ends on its third."""

from __future__ import annotations

import random

from bot.chat import Reply
from bot.storage import GameStatus
from core.online import DealtGame
from tests.club import CHANNEL, Club
from tests.online_players import chosen_move

HOUR = 3600.0
ACTIVE, ENDED = GameStatus.ACTIVE, GameStatus.ENDED


def game(club: Club, number: int) -> DealtGame:
    record = club.storage.games(CHANNEL)[number - 1]
    loaded: DealtGame = club.referee.games.load(club.storage, record)
    return loaded


def statuses(club: Club) -> list[GameStatus]:
    return [g.status for g in club.storage.games(CHANNEL)]


def rack(club: Club, number: int, player: str) -> str:
    one = game(club, number)
    return one.edition.spell_tiles(one.rack(player))


def private(replies: list[Reply]) -> list[tuple[str, str]]:
    return [(r.to_user or "", r.text) for r in replies if r.to_user is not None]


def play(club: Club, number: int, *, with_number: bool = True) -> list[Reply]:
    """The player to move in game ``number`` plays the move generator's choice (its number typed or not)."""
    one = game(club, number)
    mover = one.to_move or ""
    command, args = chosen_move(one, one.edition.spell_tiles(one.rack(mover)))
    typed = {"score": "/coup", "exchange": "/change", "pass": "/passe"}[command]
    prefix = f"{number} " if with_number else ""
    return club.send(mover, f"{typed} {prefix}{args}".rstrip())


def test_two_games_by_correspondence_in_one_channel_over_three_days(club: Club) -> None:
    club.referee.draws = random.Random(41)
    club.ok("Ana", "/nouvelle en-ligne Ana Ben 24h 3j")
    club.ok("Ben", "/rejoindre")
    second = club.ok("Ana", "/nouvelle en-ligne Ana Cleo 12h 2j")  # beside the first: no "!" needed
    assert second.startswith("Partie 2 : Partie en ligne (fr, ")
    assert statuses(club) == [ACTIVE, ACTIVE]
    assert "Cleo" in club.ok("Cleo", "/rejoindre")  # the only game with a free seat named Cleo
    assert "en cours" in club.ok("Ana", "/parties")
    assert "!" in club.refused("Ana", "/nouvelle Ana Ben")  # a game at the table would replace both: asked first

    which = club.refused("Ana", "/chevalet")  # Ana plays both
    assert which == (
        "Plusieurs parties en ligne se jouent ici : 1 (Ana, Ben), 2 (Ana, Cleo). Donnez le numéro de la vôtre"
        " juste après la commande, par exemple : /chevalet 2"
    )
    assert private(club.send("Ana", "/chevalet 2")) == [("u:ana", f"Votre chevalet (Ana) : {rack(club, 2, 'Ana')}")]
    assert "Pas de partie en ligne n° 3" in club.refused("Ana", "/chevalet 3")
    in_private = club.send("Ana", "/chevalet", channel="prive-ana", private=True)
    assert private(in_private) == [
        (
            "u:ana",
            f"Partie 1 : Votre chevalet (Ana) : {rack(club, 1, 'Ana')}\n"
            f"Partie 2 : Votre chevalet (Ana) : {rack(club, 2, 'Ana')}",
        )
    ]
    assert "Cleo" not in club.say("Ben", "/chevalet")  # Ben plays game 1 only: no number needed

    # a move in each game, its number typed; what the channel reads names the game
    for number in (1, 2):
        mover = game(club, number).to_move
        replies = play(club, number)
        assert replies[0].text.startswith(f"Partie {number} : ")
        assert not any(r.error for r in replies)
        assert game(club, number).to_move != mover
        told = [text for user, text in private(replies) if text.startswith(f"Partie {number} : À vous de jouer")]
        assert len(told) == 1
    # Cleo plays game 2 only: her move needs no number
    if game(club, 2).to_move == "Cleo":
        assert play(club, 2, with_number=False)[0].text.startswith("Partie 2 : ")

    reminders: dict[int, list[str]] = {1: [], 2: []}
    for _ in range(16):  # two days, in 3-hour steps
        for user, text in private(club.tick(3 * HOUR)):
            number = int(text.split()[1])
            if "le temps de votre coup s'écoule" in text:
                player = text.split(" : ", 1)[1].split(",")[0]
                assert player in game(club, number).players
                assert user == f"u:{player.lower()}"
                reminders[number].append(player)
    assert reminders[1]
    assert reminders[2]
    assert statuses(club) == [ACTIVE, ENDED]  # game 2's two days are over; game 1 goes on
    ended = [r for _ in range(8) for r in club.tick(3 * HOUR)]  # the third day
    assert any(r.text.startswith("Partie 1 : Le temps de la partie est écoulé") for r in ended if r.to_user is None)
    assert statuses(club) == [ENDED, ENDED]
    assert club.tick(24 * HOUR) == []


def test_a_square_typed_with_a_space_is_no_game_number(club: Club) -> None:
    club.referee.draws = random.Random(41)
    club.ok("Ana", "/nouvelle en-ligne Ana Ben 24h")
    club.ok("Ben", "/rejoindre")
    mover = game(club, 1).to_move or ""
    refused = club.refused(mover, "/coup 8 H ZZZ")  # column 8 from row H: a move, refused as one
    assert refused.startswith(f"{mover} : refusé, ces lettres ne sont pas toutes sur votre chevalet")
    assert "n° 7" not in club.refused(mover, "/change 7")  # one game: refused as the exchange it is
