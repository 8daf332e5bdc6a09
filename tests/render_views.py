"""Sample views for the image tests (and for looking at the images by hand)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.render import (
    ClassicBoardView,
    DuplicateBoardView,
    PlayerScore,
    RoundResultRow,
    RoundResultView,
    StandingsView,
)
from bot.render.board import classic_board_scene, duplicate_board_scene
from bot.render.canvas import Scene, png
from bot.render.results import round_result_scene, standings_scene
from core.board import Board
from core.duplicate import DuplicateStanding, percent_of
from core.edition import ENGLISH, FRENCH
from core.notation import Notation

from .positions import play_moves


def french_game() -> tuple[Board, list[tuple[int, int]]]:
    """A few moves on a French board; the last one's new tiles."""
    board, _ = play_moves(["H7 HANTEZ", "6F FACADES", "G8 HUES"])
    before = board.copy()
    board, _ = play_moves(["F10 JOuET"], board)
    return board, [(r, c) for r, c, _ in board.tiles() if before.get(r, c) is None]


def full_board() -> Board:
    """Every square covered, some jokers among the tiles."""
    rows = []
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for r in range(15):
        row = "".join(letters[(r * 7 + c * 3) % 26] for c in range(15))
        if r % 4 == 1:
            row = row[:5] + row[5].lower() + row[6:]
        rows.append(row)
    return Board.from_rows(rows)


def classic_fr() -> ClassicBoardView:
    board, last = french_game()
    return ClassicBoardView(
        board=board,
        edition=FRENCH,
        notation=Notation.FISF,
        language="fr",
        players=(PlayerScore("Ana", 96), PlayerScore("Benoît", 79)),
        to_move="Ana",
        move_number=5,
        bag_count=73,
        last_squares=tuple(last),
        last_move="Benoît F10 JOuET 59",
    )


def classic_full_en() -> ClassicBoardView:
    return ClassicBoardView(
        board=full_board(),
        edition=ENGLISH,
        notation=Notation.GCG,
        language="en",
        players=(
            PlayerScore("Ana", 412),
            PlayerScore("Ben", 388),
            PlayerScore("Chloé", 301),
            PlayerScore("Dmitri Karamazov", 295),
        ),
        to_move=None,
        move_number=41,
        bag_count=0,
        last_squares=tuple((7, c) for c in range(15)),
    )


def classic_empty_en() -> ClassicBoardView:
    return ClassicBoardView(
        board=Board(),
        edition=ENGLISH,
        notation=Notation.GCG,
        language="en",
        players=(PlayerScore("Ana", 0), PlayerScore("Ben", 0)),
        to_move="Ben",
        move_number=1,
        bag_count=86,
    )


def duplicate_open_fr() -> DuplicateBoardView:
    board, _ = french_game()
    return DuplicateBoardView(
        board=board,
        edition=FRENCH,
        notation=Notation.FISF,
        language="fr",
        round_number=5,
        kept="EIU",
        new="ERS?",
        deadline=datetime(2025, 3, 14, 20, 3, 30, tzinfo=UTC),
        time_zone="Europe/Paris",
    )


def duplicate_closed_en() -> DuplicateBoardView:
    board, last = french_game()
    return DuplicateBoardView(
        board=board,
        edition=ENGLISH,
        notation=Notation.GCG,
        language="en",
        round_number=5,
        kept="",
        new="AEJOTU?",
        deadline=datetime(2025, 3, 14, 20, 3, 30, tzinfo=UTC),
        time_zone="America/Montreal",
        closed=True,
        last_squares=tuple(last),
        top_move="6J JOuET",
        top_points=59,
    )


def round_result_fr() -> RoundResultView:
    return RoundResultView(
        language="fr",
        round_number=5,
        draw="EIU+ERS?",
        top_move="F10 JOuET",
        top_points=59,
        top_note="Tops à égalité : F10 JOuET, 10F SEUIL (le premier trouvé)",
        rows=(
            RoundResultRow("Benoît", 24, "8A VERS"),
            RoundResultRow("Ana", 59, "F10 JOuET", found_top=True, solo_bonus=10),
            RoundResultRow("Chloé", 0, "H2 ZZZ", note="mot non valide : ZZZ"),
            RoundResultRow("Dmitri", 0, answered=False),
            RoundResultRow("Élodie Lefèvre-Beaumont de la Tour", 41, "J2 REQUISE"),
        ),
    )


def standings_en(players: int = 8) -> StandingsView:
    names = ["Ana", "Ben", "Chloé", "Dmitri", "Élodie", "Farid", "Grégoire", "Hana", "Ines", "Jules"]
    tops = 812
    totals = sorted(
        (
            (812 - 37 * i - (i * i) % 11, f"{names[i % 10]} {i // 10 + 1}" if players > 10 else names[i])
            for i in range(players)
        ),
        reverse=True,
    )
    standings = tuple(
        DuplicateStanding(i + 1, name, total, total - tops, percent_of(total, tops), solos=1 if i == 2 else 0)
        for i, (total, name) in enumerate(totals)
    )
    return StandingsView(language="en", rounds=12, tops_total=tops, standings=standings)


def round_result_en(players: int = 30) -> RoundResultView:
    rows = tuple(
        RoundResultRow(
            f"Player {i + 1}",
            0 if i % 7 == 3 or i % 9 == 4 else 80 - i * 2,
            "" if i % 9 == 4 else "8H QUIXOTRY",
            note="not a word: QUIXOTRY" if i % 7 == 3 else "",
            found_top=i == 0,
            answered=i % 9 != 4,
        )
        for i in range(players)
    )
    return RoundResultView("en", 12, "AEI+QRTY", "8H QUIXOTRY", 80, rows)


View = ClassicBoardView | DuplicateBoardView | RoundResultView | StandingsView


def views() -> dict[str, View]:
    """Every sample view by name."""
    return {
        "classic_fr": classic_fr(),
        "classic_full_en": classic_full_en(),
        "classic_empty_en": classic_empty_en(),
        "duplicate_open_fr": duplicate_open_fr(),
        "duplicate_closed_en": duplicate_closed_en(),
        "result_fr": round_result_fr(),
        "standings_en": standings_en(),
    }


def scene_of(view: View) -> Scene:
    """The scene of any sample view."""
    if isinstance(view, ClassicBoardView):
        return classic_board_scene(view)
    if isinstance(view, DuplicateBoardView):
        return duplicate_board_scene(view)
    if isinstance(view, RoundResultView):
        return round_result_scene(view)
    return standings_scene(view)


def png_of(view: View) -> bytes:
    """The PNG of any sample view."""
    return png(scene_of(view))


def scenes_in_both_languages() -> dict[str, Scene]:
    """Every sample view's scene, in French and in English."""
    return {
        f"{name}-{lang}": scene_of(replace(view, language=lang))
        for name, view in views().items()
        for lang in ("fr", "en")
    }
