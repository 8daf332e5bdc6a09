"""Classic played in the chat (issue 41) through the command layer: the racks dealt in private, whole games
to the end (two and four players, against the computer at its strongest and weakest), a move with a tile
not on the rack refused with the rack shown to its player only, the bag emptied, the final scores equal to
an independent replay of the exported GCG, and no rack in the channel, the logs or an export before the end."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.chat import Reply
from bot.cli import main
from core.edition import FRENCH
from core.gcg import read_gcg
from core.movegen import generate_plays
from core.notation import Notation
from core.online import DealtGame
from tests.club import CHANNEL, REGISTRY, Club

FRENCH_LIST = REGISTRY.get("fr")
RACK_KEYS = ("Votre chevalet", "Your rack")


def game_of(club: Club) -> DealtGame:
    record = club.storage.active_game(CHANNEL) or club.storage.games(CHANNEL)[-1]
    game: DealtGame = club.referee.games.load(club.storage, record)
    return game


def racks_told(replies: list[Reply]) -> dict[str, str]:
    """The racks each account was told privately in these replies (the last one each)."""
    told: dict[str, str] = {}
    for reply in replies:
        if reply.to_user is not None and any(key in reply.text for key in RACK_KEYS):
            told[reply.to_user] = reply.text.rsplit(":", 1)[1].strip()
    return told


class Table:
    """Players at an online game in the club: what each was told privately, what the channel read."""

    def __init__(self, club: Club, names: list[str]) -> None:
        self.club = club
        self.names = names
        self.racks: dict[str, str] = {}
        self.public: list[str] = []
        self.seen_racks: set[str] = set()

    def send(self, name: str, text: str, **options: object) -> list[Reply]:
        replies = self.club.send(name, text, **options)  # type: ignore[arg-type]
        self.racks |= racks_told(replies)
        self.public += [r.text for r in replies if r.to_user is None]
        self.seen_racks |= set(racks_told(replies).values())
        return replies

    def rack_of(self, name: str) -> str:
        return self.racks[f"u:{name.lower()}"]

    def play_turn(self) -> None:
        """The player to move plays the best play from the rack they were told, or exchanges, or passes."""
        game = game_of(self.club)
        name = game.to_move or ""
        if game.awaiting_end is not None:
            self.send(name, "/pass")
            return
        rack = self.rack_of(name)
        assert rack == game.edition.spell_tiles(game.rack(name))
        plays = generate_plays(game.board, rack, FRENCH_LIST, FRENCH)
        if plays:
            best = max(plays, key=lambda p: p.total)
            self.send(name, f"/score {best.placement.notation(Notation.FISF)}")
        elif len(game.bag) >= 7:
            self.send(name, f"/exchange {rack}")
        else:
            self.send(name, "/pass")


def seat_everyone(table: Table, new: str) -> None:
    table.send(table.names[0], new)
    for name in table.names[1:]:
        if name not in ("robot", "bot"):
            table.send(name, "/join")


def play_out(table: Table) -> DealtGame:
    for _ in range(150):
        game = game_of(table.club)
        if game.ended:
            return game
        table.play_turn()
    raise AssertionError("the game did not end")


def no_rack_in_public_before_the_end(table: Table) -> None:
    before_end = table.public[:-2]  # the last two replies are the end's racks and the final board
    for rack in table.seen_racks:
        if len(rack) >= 5:
            assert not any(rack in text for text in before_end), rack


@pytest.mark.parametrize("names", [["Ana", "Ben"], ["Ana", "Ben", "Cleo", "Dan"]], ids=["two", "four"])
def test_whole_games_to_the_end_keep_every_rack_private(
    club: Club,
    names: list[str],
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG)
    table = Table(club, names)
    seat_everyone(table, "/nouvelle en-ligne " + " ".join(names))
    assert set(table.racks) == {f"u:{n.lower()}" for n in names}
    (refused_export,) = club.send("Ana", "/export")
    assert "secrets" in refused_export.text
    game = play_out(table)
    assert not game.bag.tiles
    no_rack_in_public_before_the_end(table)
    for rack in table.seen_racks:
        if len(rack) >= 5:
            assert rack not in caplog.text
    (exported,) = club.send("Ana", "/export")
    assert exported.document is not None
    replayed = read_gcg(exported.document, strict=True)
    assert replayed.game.totals() == game.totals()
    assert replayed.game.ended
    record = tmp_path / "online.gcg"
    record.write_bytes(exported.document)
    assert main(["replay", str(record)]) == 0  # ``arbitre replay`` checks every line of the export
    out = capsys.readouterr().out
    assert "mismatches: none" in out


def test_a_tile_not_on_the_rack_is_refused_with_the_rack_shown_to_its_player_only(club: Club) -> None:
    table = Table(club, ["Ana", "Ben"])
    seat_everyone(table, "/nouvelle en-ligne Ana Ben")
    game = game_of(club)
    name = game.to_move or ""
    missing = next(t for t in "ZYXWKJQ" if t not in table.rack_of(name))
    replies = table.send(name, f"/coup H8 {missing}{missing}")
    assert all(r.error for r in replies)
    public = [r.text for r in replies if r.to_user is None]
    private = [r.text for r in replies if r.to_user == f"u:{name.lower()}"]
    assert public == [
        f"{name} : refusé, ces lettres ne sont pas toutes sur votre chevalet (il vous a été envoyé en privé)."
    ]
    assert private == [f"{missing}{missing} : pas sur votre chevalet. Votre chevalet : {table.rack_of(name)}"]
    other = next(n for n in ("Ana", "Ben") if n != name)
    assert "pas à vous" in club.refused(other, "/passe")
    assert "/rejoindre" in club.refused("Zoé", "/passe")


@pytest.mark.parametrize(("level", "stored"), [("top", "top"), ("faible", "weak"), ("débutant", "novice")])
def test_a_game_against_the_computer_to_the_end(club: Club, level: str, stored: str) -> None:
    table = Table(club, ["Ana", "robot"])
    seat_everyone(table, f"/nouvelle en-ligne Ana robot {level}")
    game = game_of(club)
    assert game.robots == {"Robot": stored}
    assert game.to_move == "Ana"  # the computer answers at once: it is always Ana's turn
    end = play_out(table)
    assert end.ended
    assert any(line.player == "Robot" and line.points > 0 for line in end.lines)
    if stored == "novice":  # its vocabulary: no word of more than five letters
        played = [line.placement for line in end.lines if line.player == "Robot" and line.placement is not None]
        robot_words = [w for placement in played for w in placement.words]
        assert robot_words
        assert max(len(w.cells) for w in robot_words) <= 5
    (exported,) = club.send("Ana", "/export")
    assert exported.document is not None
    assert read_gcg(exported.document, strict=True).game.totals() == end.totals()


def private_to(replies: list[Reply], user: str) -> list[str]:
    return [r.text for r in replies if r.to_user == user]


def test_a_game_by_correspondence_over_three_days_on_the_driven_clock(club: Club) -> None:
    table = Table(club, ["Ana", "Ben"])
    seat_everyone(table, "/nouvelle en-ligne Ana Ben 24h 3j")
    assert "24 h par coup, 3 jours par partie" in table.public[0]
    game = game_of(club)
    first = game.to_move or ""
    second = next(n for n in ("Ana", "Ben") if n != first)
    first_user, second_user = f"u:{first.lower()}", f"u:{second.lower()}"
    assert club.tick(17 * 3600) == []
    reminder = club.tick(3600)
    assert private_to(reminder, first_user) == [
        f"Partie 1 : {first}, le temps de votre coup s'écoule dans 6 h. Votre chevalet : {table.rack_of(first)}"
    ]
    assert all(r.to_user == first_user for r in reminder)
    passed = club.tick(6 * 3600)  # day 1 over: the turn passes
    public = [r.text for r in passed if r.to_user is None]
    assert public[0].startswith(f"Partie 1 : Le temps de {first} pour ce coup est écoulé : le tour passe.")
    assert private_to(passed, second_user)[0].startswith(f"Partie 1 : À vous de jouer, {second}.")
    table.racks |= racks_told(passed)
    club.now += 6 * 3600
    table.play_turn()  # the second player plays on day 2, six hours in
    assert game_of(club).to_move == first
    later = club.tick(18 * 3600)  # three quarters of the first player's time
    assert private_to(later, first_user)[0].startswith(f"Partie 1 : {first}, le temps de votre coup s'écoule dans 6 h.")
    club.tick(6 * 3600)  # the first player's time over again: day 3 begins 6 hours in
    assert game_of(club).to_move == second
    end = club.tick(18 * 3600)  # the third day over: the game ends
    text = "\n".join(r.text for r in end if r.to_user is None)
    assert "Le temps de la partie est écoulé" in text
    assert "Lettres restantes" in text
    assert game_of(club).ended
    assert club.tick(24 * 3600) == []
