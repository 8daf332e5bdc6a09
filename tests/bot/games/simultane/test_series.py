"""Series and seasons: the cumulative ranking (core.series) worked by hand, the series' storage on both
databases, three duplicate games played through the referee and ranked as a series and as a season, and
the same in the console."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage import GameKind, GameSetup, SeriesStatus, SQLiteStorage, Storage
from core.series import GameResult, PlayerResult, SeriesStanding, cumulative_standings
from tests.ready_lists import ready_registry
from tests.transcripts import run_console

CHANNEL = "club"


def result(game: int, tops: int, *players: tuple[str, int]) -> GameResult:
    return GameResult(game, tops, tuple(PlayerResult(key, key.title(), total) for key, total in players))


# --- the ranking itself, worked by hand -----------------------------------------------------------
# Each row: place, key, total, cumulated tops of the games played, games, best percentage, its game.
# The percentage is total / tops to one decimal, halves up (as a game's standings: 4.3 of RULES.md).


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        # one game: the game's own standings (total, tops, 1 game, best = its percentage)
        (
            [result(1, 200, ("ana", 150), ("ben", 180))],
            [(1, "ben", 180, 200, 1, 90.0, 1), (2, "ana", 150, 200, 1, 75.0, 1)],
        ),
        # a player absent from a game: the tops of that game are not theirs (120 + 80 = 200 for ana, 80 for cy)
        (
            [result(1, 120, ("ana", 100), ("ben", 60)), result(2, 80, ("ana", 70), ("cy", 80))],
            [(1, "ana", 170, 200, 2, 87.5, 2), (2, "cy", 80, 80, 1, 100.0, 2), (3, "ben", 60, 120, 1, 50.0, 1)],
        ),
        # equal totals share a place, in the order the players first appear; the next place is 3
        (
            [result(1, 100, ("ben", 50), ("ana", 40)), result(2, 100, ("ana", 60), ("ben", 50), ("cy", 30))],
            [(1, "ben", 100, 200, 2, 50.0, 1), (1, "ana", 100, 200, 2, 60.0, 2), (3, "cy", 30, 100, 1, 30.0, 2)],
        ),
        # the best game is the first with the best percentage: 2/3 = 66.7 twice (games 1 and 3), 50 in game 2
        (
            [result(1, 3, ("ana", 2)), result(2, 4, ("ana", 2)), result(3, 6, ("ana", 4))],
            [(1, "ana", 8, 13, 3, 66.7, 1)],
        ),
        # a game whose tops are 0 (no round closed): 0 %, never a division by zero
        ([result(1, 0, ("ana", 0))], [(1, "ana", 0, 0, 1, 0.0, 1)]),
    ],
)
def test_cumulative_standings_worked_by_hand(
    results: list[GameResult], expected: list[tuple[int, str, int, int, int, float, int]]
) -> None:
    standings = cumulative_standings(results)
    assert [(s.place, s.key, s.total, s.tops, s.games, s.best, s.best_game) for s in standings] == expected
    for standing, (_, _, total, tops, *_rest) in zip(standings, expected, strict=True):
        assert standing.gap == total - tops


def test_a_player_keeps_the_name_of_their_latest_game() -> None:
    games = [
        GameResult(1, 50, (PlayerResult("user:u1", "Ben", 40),)),
        GameResult(2, 50, (PlayerResult("user:u1", "Benoît", 30), PlayerResult("name:Ben", "Ben", 50))),
    ]
    standings = cumulative_standings(games)
    assert [(s.key, s.name, s.total, s.percent) for s in standings] == [
        ("user:u1", "Benoît", 70, 70.0),  # one account, two seat names: one player
        ("name:Ben", "Ben", 50, 100.0),  # a seat without an account is its name, another player
    ]


def test_no_games_no_standings() -> None:
    assert cumulative_standings([]) == []
    assert SeriesStanding(1, "k", "K", 5, 10, 1, 50.0, 1).percent == 50.0


# --- storage on both databases --------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    ready_registry()
    if request.param == "sqlite":
        made: Storage = SQLiteStorage(tmp_path / "series.sqlite")
    else:
        from bot.storage.sql.postgres import PostgresStorage

        made = PostgresStorage(request.getfixturevalue("postgres_url"), pool_size=2)
    yield made
    made.close()


SETUP = GameSetup("fr", "fisf", "fr", "Ref")


def test_series_are_kept_per_channel_with_their_games_in_order(store: Storage) -> None:
    games = []
    for _ in range(3):
        games.append(store.create_game(CHANNEL, GameKind.DUPLICATE, "u:ref", SETUP, abandon_running=True).id)
    autumn = store.create_series(CHANNEL, "Automne")
    other = store.create_series("elsewhere", "Automne")  # the same name in another channel is another series
    assert autumn.status is SeriesStatus.OPEN
    assert autumn.id != other.id
    assert [store.add_series_game(autumn.id, g) for g in (games[2], games[0], games[2])] == [True, True, False]
    assert store.series_games(autumn.id) == [games[2], games[0]]  # in the order they were added
    assert store.add_series_game(autumn.id, games[1])
    assert store.remove_series_game(autumn.id, games[0])
    assert not store.remove_series_game(autumn.id, games[0])
    assert store.series_games(autumn.id) == [games[2], games[1]]
    assert store.add_series_game(autumn.id, games[0])
    assert store.series_games(autumn.id) == [games[2], games[1], games[0]]  # back in, after the others
    assert store.series_games(other.id) == []
    store.set_series_status(autumn.id, SeriesStatus.ENDED)
    assert [(s.name, s.status) for s in store.channel_series(CHANNEL)] == [("Automne", SeriesStatus.ENDED)]
    assert [s.channel for s in store.channel_series("elsewhere")] == ["elsewhere"]


def test_a_series_name_is_unique_in_its_channel(store: Storage) -> None:
    store.create_series(CHANNEL, "Hiver")
    with pytest.raises(Exception) as refused:
        store.create_series(CHANNEL, "Hiver")
    assert "series" in str(refused.value).lower() or "unique" in str(refused.value).lower()


# --- three duplicate games through the referee ---------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def send(
    referee: Referee, name: str, text: str, *, user: str = "", private: bool = False, admin: bool = False
) -> list[Reply]:
    account = user or f"u:{name.lower()}"
    return referee.handle(Incoming(CHANNEL, account, name, text, private=private, admin=admin))


def text_of(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if r.to_user is None)


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the monospace table in a reply, cells split where two spaces or more part them."""
    block = text.split("```")[1]
    lines = [line for line in block.strip("\n").split("\n")]
    return [re.split(r"\s{2,}", line.strip()) for line in lines[2:]]


# The draw ACEHNTZ on an empty board (French values C 3, H 4, A N T E 1, Z 10: 21 points; H8 is the
# double word, H4 and H12 double letters, 50 for the seven tiles, 2.1 and 2.3 of RULES.md):
#   H6 CHANTEZ: Z on H12, (21 + 10) x 2 + 50 = 112, the top
#   H4 CHANTEZ: C on H4, (21 + 3) x 2 + 50 = 98
#   H4 CHANT:   C on H4, (6 + 4 + 1 + 1 + 1) x 2 = 26
#   H8 CHANT:   T on H12, (3 + 4 + 1 + 1 + 2) x 2 = 22
GAMES = [
    [("Ana", "u:ana", "H6 CHANTEZ"), ("Ben", "u:ben", "H4 CHANTEZ"), ("Cy", "u:cy", "H8 CHANT")],
    [("Ben", "u:ben", "H6 CHANTEZ"), ("Cy", "u:cy", "H4 CHANTEZ"), ("Dan", "u:dan", "H4 CHANT")],
    [("Ana", "u:ana", "H4 CHANTEZ"), ("Benoît", "u:ben", "H8 CHANT"), ("Cy", "u:cy", "H6 CHANTEZ")],
]
# Worked by hand: Ben (his account, Benoît in game 3) 98 + 112 + 22 = 232 of 336, 69.0 %, best game 2;
# Cy 22 + 98 + 112 = 232 of 336, tied with Ben (first seen after him), best game 3; Ana 112 + 98 = 210 of
# 224 (absent from game 2), 93.75 -> 93.8 %, best game 1; Dan 26 of 112, 23.2 %.
RANKING = [
    ["1", "Benoît", "232", "336", "-104", "69,0", "3", "100,0 % (n° 2)"],
    ["1", "Cy", "232", "336", "-104", "69,0", "3", "100,0 % (n° 3)"],
    ["3", "Ana", "210", "224", "-14", "93,8", "2", "100,0 % (n° 1)"],
    ["4", "Dan", "26", "112", "-86", "23,2", "1", "23,2 % (n° 2)"],
]


def play_game(referee: Referee, moves: list[tuple[str, str, str]]) -> None:
    """One game of one round: the referee's draw, each player's move in private, the close, the end."""
    send(referee, "Ref", "/duplicate 1 manuel", user="u:ref")
    send(referee, "Ref", "/tirage ACEHNTZ", user="u:ref")
    for name, user, move in moves:
        acks = send(referee, name, f"/jouer {move}", user=user, private=True)
        assert any("Reçu pour le coup 1" in ack.text and ack.to_user == user for ack in acks)
    assert "Top : " in text_of(send(referee, "Ref", "/cloture", user="u:ref"))
    assert "Fin de la partie duplicate" in text_of(send(referee, "Ref", "/fin", user="u:ref"))


def test_a_series_of_three_games_and_the_season(store: Storage) -> None:
    referee = Referee(store, ready_registry(), now=Clock(), images=False)
    (refused,) = send(referee, "Ana", "/series nouvelle Automne")
    assert "Seul un administrateur du salon" in refused.text
    assert store.channel_series(CHANNEL) == []
    assert "Série « Automne » ouverte" in text_of(send(referee, "Boss", "/series nouvelle Automne", admin=True))
    for number, moves in enumerate(GAMES, 1):
        play_game(referee, moves)
        (other,) = send(referee, "Ana", "/series ajoute")  # a player, not the game's referee: refused
        assert "Seul" in other.text
        (added,) = send(referee, "Ref", "/series ajoute", user="u:ref")  # the last game, by its referee
        counted = ("1 partie", "2 parties", "3 parties")[number - 1]  # the singular for one (issue 35)
        assert f"Partie n° {number} ajoutée à la série « Automne » ({counted})." in added.text
    (twice,) = send(referee, "Ref", "/series ajoute 2", user="u:ref")
    assert "déjà dans la série" in twice.text
    (ranking,) = send(referee, "Zoé", "/series")
    assert "Série « Automne » (ouverte), 3 parties (n° 1, 2, 3 de /parties)" in ranking.text
    assert table_rows(ranking.text) == RANKING

    (season,) = send(referee, "Zoé", "/saison")
    assert "Saison du salon, 3 parties duplicate terminées" in season.text
    assert table_rows(season.text) == RANKING  # the same three finished games
    (later,) = send(referee, "Zoé", "/saison 2999-01-01")
    assert later.text == "Aucune partie duplicate terminée dans ce salon depuis le 2999-01-01."
    (since,) = send(referee, "Zoé", "/saison 2000-01-01")
    assert table_rows(since.text) == RANKING

    (export,) = send(referee, "Zoé", "/series export")
    assert export.document is not None
    assert export.document_name is not None
    lines = export.document.decode("utf-8").splitlines()
    assert lines[0] == "place,joueur,total,tops,écart,pourcentage,parties,meilleure,n° de la meilleure"
    assert lines[1:] == [
        "1,Benoît,232,336,-104,69.0,3,100.0,2",
        "1,Cy,232,336,-104,69.0,3,100.0,3",
        "3,Ana,210,224,-14,93.8,2,100.0,1",
        "4,Dan,26,112,-86,23.2,1,23.2,2",
    ]

    (removed,) = send(referee, "Boss", "/series retire 2", admin=True)
    assert "Partie n° 2 retirée" in removed.text
    (two,) = send(referee, "Zoé", "/series Automne")  # Ana 210/224, Cy 134/224, Benoît 120/224
    assert [row[:7] for row in table_rows(two.text)] == [
        ["1", "Ana", "210", "224", "-14", "93,8", "2"],
        ["2", "Cy", "134", "224", "-90", "59,8", "2"],
        ["3", "Benoît", "120", "224", "-104", "53,6", "2"],
    ]
    (not_yours,) = send(referee, "Ref", "/series fin", user="u:ref")
    assert "Seul un administrateur du salon" in not_yours.text
    ended = text_of(send(referee, "Boss", "/series fin", admin=True))
    assert "Série « Automne » terminée." in ended
    assert "(terminée), 2 parties" in ended
    (closed,) = send(referee, "Ref", "/series ajoute 2", user="u:ref")
    assert closed.text.startswith("Aucune série ouverte")


@pytest.mark.parametrize(
    ("existing", "text", "answer"),
    [
        ("", "/series", "Aucune série dans ce salon."),
        ("Automne", "/series Printemps", "Aucune série « Printemps » dans ce salon."),
        ("", "/saison", "Aucune partie duplicate terminée dans ce salon pour l'instant."),
        ("", "/saison 2026-02-30", "« 2026-02-30 » n'est pas une date"),
        ("", "/saison 2026-01-01 2026-02-01", "Syntaxe"),
        ("", "/series nouvelle", "Syntaxe"),
        ("", "/series nouvelle fin", "ce mot est une commande de /serie."),  # the French name since issue 35
        ("", "/series nouvelle " + "x" * 41, "trop long : 40 caractères"),
        ("", "/series ajoute", "Aucune série dans ce salon."),
        ("Automne", "/series nouvelle automne", "La série « Automne » est encore ouverte"),
        ("Automne", "/series ajoute", "Aucune partie en cours dans ce salon"),
        ("Automne", "/series retire", "Syntaxe"),
        ("Automne", "/series fin maintenant", "Syntaxe"),
    ],
)
def test_bad_input_gets_a_polite_answer_and_changes_nothing(
    tmp_path: Path, existing: str, text: str, answer: str
) -> None:
    store = SQLiteStorage(tmp_path / "bad.sqlite")
    referee = Referee(store, ready_registry(), now=Clock(), images=False)
    before = [store.create_series(CHANNEL, existing)] if existing else []
    (reply,) = send(referee, "Boss", text, admin=True)
    assert answer in reply.text
    assert store.channel_series(CHANNEL) == before
    assert all(store.series_games(s.id) == [] for s in before)
    store.close()


def test_a_series_holds_games_of_one_kind_and_one_series_is_open_at_a_time(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "kinds.sqlite")
    referee = Referee(store, ready_registry(), now=Clock(), images=False)
    send(referee, "Boss", "/series nouvelle Automne", admin=True)
    (again,) = send(referee, "Boss", "/series nouvelle Hiver", admin=True)
    assert "La série « Automne » est encore ouverte" in again.text
    send(referee, "Ana", "/nouvelle Ana Ben")
    (classic,) = send(referee, "Ana", "/series ajoute", user="u:ana")  # Ana started it: its referee
    assert "Partie n° 1 ajoutée" in classic.text
    send(referee, "Ana", "/duplicate 1 manuel !", user="u:ana")
    (mixed,) = send(referee, "Ana", "/series ajoute", user="u:ana")
    assert "n'est pas du même genre que les parties de la série (classique)" in mixed.text
    assert len(store.series_games(store.channel_series(CHANNEL)[0].id)) == 1
    store.close()


def test_series_and_season_in_the_console(tmp_path: Path) -> None:
    script = ["Boss: /series nouvelle Automne"]
    for moves in GAMES:
        script += ["Ref: /duplicate 1 manuel", "Ref: /tirage ACEHNTZ"]
        script += [f"{name}> /jouer {move}" for name, _, move in moves if name != "Benoît"]
        script += ["Ben> /jouer H8 CHANT"] if any(name == "Benoît" for name, _, _ in moves) else []
        script += ["Ref: /cloture", "Ref: /fin", "Ref: /series ajoute"]
    script += ["Zoé: /series", "Zoé: /saison"]
    output = run_console("\n".join(script) + "\n", tmp_path / "console.sqlite", "--admin", "Boss")
    # the console's seats are its speakers' names: Ben stays Ben
    console_ranking = [[row[0], "Ben" if row[1] == "Benoît" else row[1], *row[2:]] for row in RANKING]
    blocks = [block for block in output.split("\n\n") if "```" in block]
    series = next(b for b in blocks if "Série « Automne » (ouverte), 3 parties" in b)
    season = next(b for b in blocks if "Saison du salon, 3 parties" in b)
    assert table_rows(series) == console_ranking
    assert table_rows(season) == console_ranking
