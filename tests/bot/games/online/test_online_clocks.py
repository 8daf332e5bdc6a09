"""Game clocks and overtime on an online game, as a classic game has them (issue 41: "Clocks and overtime as
today"), through the command layer on a real SQLite file, the referee's clock moved by the test: the stopwatch
passes the turn (the next player told privately), a FISF chess clock takes a player out of time and the other
plays on alone, then stops the game with every rack known when nobody has time left; NASPA overtime costs 10
points a started minute at the end (the GCG export replays with its time line), and at its limit the clock
stops the game; a game by correspondence takes no game clock."""

from __future__ import annotations

import random
from pathlib import Path

from bot.chat import Reply
from bot.cli import main
from bot.storage import GameStatus
from core.gcg import read_gcg
from core.online import DealtGame
from tests.club import CHANNEL, Club
from tests.online_players import chosen_move

TYPED = {"score": "/coup", "exchange": "/change", "pass": "/passe"}


def game_of(club: Club) -> DealtGame:
    loaded: DealtGame = club.referee.games.load(club.storage, club.storage.games(CHANNEL)[-1])
    return loaded


def public(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if r.to_user is None)


def started(club: Club, rules: str, clock: str) -> tuple[str, str]:
    """A game of Ana and Ben under ``rules`` with ``/reglages pendule <clock>``; (first, second) to play."""
    club.referee.draws = random.Random(26)
    club.ok("Ana", f"/nouvelle en-ligne {rules} Ana Ben")
    club.ok("Ben", "/rejoindre")
    club.ok("Ana", f"/reglages pendule {clock}")
    first = game_of(club).to_move or ""
    return first, next(p for p in ("Ana", "Ben") if p != first)


def move(club: Club) -> list[Reply]:
    """The player to move plays the move generator's choice from their rack."""
    game = game_of(club)
    mover = game.to_move or ""
    command, args = chosen_move(game, game.edition.spell_tiles(game.rack(mover)))
    return club.send(mover, f"{TYPED[command]} {args}".rstrip())


def test_the_stopwatch_passes_the_turn_of_an_online_game(club: Club) -> None:
    first, second = started(club, "fisf", "chrono")
    club.restart()  # the setting is in the game's log: the clock is the same after a restart
    assert club.tick(119) == []
    said = club.tick(1)
    assert f"⏱ 2:00 écoulées pour ce coup : {first} passe son tour." in public(said)
    assert f"Chrono : {second}, 2:00 pour ce coup" in public(said)
    told = [r.text for r in said if r.to_user == f"u:{second.lower()}"]
    assert told[0].startswith(f"À vous de jouer, {second}. Votre chevalet : ")
    assert [e["player"] for e in club.events("pass")] == [first]


def test_a_refused_clock_is_quoted_in_the_words_of_the_rooms_language(club: Club) -> None:
    started(club, "fisf", "non")
    refused = club.refused("Ana", "/reglages pendule stopwatch 5")  # as a Discord form writes it
    assert refused.startswith("Pendule : « chrono 5 » impossible.")
    assert club.refused("Ana", "/reglages pendule chrono 5") == refused


def test_fisf_out_of_time_the_other_plays_on_alone_then_the_game_stops(club: Club) -> None:
    first, second = started(club, "fisf", "1")
    said = club.tick(60)
    assert f"⏱ {first} n'a plus de temps : il ne joue plus, {second} continue seul (sans échange)." in public(said)
    assert game_of(club).to_move == second
    club.now += 30
    move(club)
    assert game_of(club).to_move == second  # alone
    ended = public(club.tick(30))
    assert f"{second} n'a plus de temps non plus : la partie s'arrête" in ended
    assert "Lettres restantes" in ended
    assert game_of(club).ended
    assert club.storage.games(CHANNEL)[-1].status is GameStatus.ENDED


def test_naspa_overtime_is_taken_at_the_end_and_the_export_replays(club: Club, tmp_path: Path) -> None:
    first, _ = started(club, "naspa", "25")
    club.now += 25 * 60 + 150  # 2:30 over: three started minutes
    assert f"{first} +2:30 (dépassement, -30)" in public(move(club))
    for _ in range(80):
        if game_of(club).ended:
            break
        replies = move(club)
    game = game_of(club)
    assert game.ended
    assert f"Dépassement de temps : {first} -30 (3 min)." in public(replies)
    assert [(e["player"], e["points"]) for e in club.events("time_penalty")] == [(first, 30)]
    document = next(r.document for r in club.send("Ana", "/export") if r.document is not None)
    assert any(line.startswith(f">{first}:") and "(time)" in line for line in document.decode().splitlines())
    assert read_gcg(document, strict=True).game.totals() == game.totals()
    path = tmp_path / "overtime.gcg"
    path.write_bytes(document)
    assert main(["replay", str(path)]) == 0


def test_naspa_the_clock_stops_the_game_at_the_overtime_limit(club: Club) -> None:
    first, _ = started(club, "naspa", "25")
    assert public(club.tick(25 * 60 + 10 * 60 - 1)) == ""
    said = public(club.tick(1))
    assert f"⏱ {first} dépasse de 10 min : la partie est arrêtée." in said
    assert f"Dépassement de temps : {first} -100 (10 min)." in said
    assert "Lettres restantes" in said
    assert club.storage.deadlines() == []
    assert game_of(club).ended


def test_a_game_by_correspondence_takes_no_game_clock(club: Club) -> None:
    club.ok("Ana", "/nouvelle en-ligne Ana Ben 24h")
    assert "par correspondance a son propre temps" in club.refused("Ana", "/reglages pendule 25")
