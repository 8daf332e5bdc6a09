"""Result images: a round's result and the standings, in French and English, small even with 30 players."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.render import RoundResultRow, StandingsView, round_result_png, standings_png
from bot.render import palette as p
from bot.render.canvas import Box, Label, Scene, png, text_width
from bot.render.results import NOTE_SIZE, WIDTH, percent, round_result_scene, signed, standings_scene
from core.duplicate import DuplicateStanding
from tests.render_views import round_result_en, round_result_fr, standings_en


def texts(scene: Scene, role: str | None = None) -> list[str]:
    return [label.text for label in scene.labels if role is None or label.role == role]


def test_a_rounds_result_lists_players_best_first_with_reasons_and_marks() -> None:
    scene = round_result_scene(round_result_fr())
    all_texts = texts(scene)
    assert all_texts[:4] == [
        "Coup 5 : résultats",
        "Tirage : EIU+ERS?",
        "Top : F10 JOuET, 59 pts",
        "Tops à égalité : F10 JOuET, 10F SEUIL (le premier trouvé)",
    ]
    assert texts(scene, "head") == ["Joueur", "Coup", "Pts"]
    names = [text for text in texts(scene, "cell")[::3]]
    assert names == ["Ana", "Élodie Lefèvre-…", "Benoît", "Chloé", "Dmitri"]  # best first, ties in given order
    assert texts(scene, "cell")[-3:] == ["Dmitri", "—", "0"]
    assert texts(scene, "note") == ["mot non valide : ZZZ", "pas de réponse"]
    assert texts(scene, "badge") == ["solo +10", "top"]


def test_the_top_finders_row_is_lit() -> None:
    scene = round_result_scene(round_result_fr())
    lit = [item for item in scene.items if isinstance(item, Box) and item.fill == p.ROW_TOP]
    assert len(lit) == 1
    ana = next(label for label in scene.labels if label.text == "Ana")
    assert lit[0].box[1] <= ana.y <= lit[0].box[3]


def test_a_round_without_top_in_english() -> None:
    view = replace(
        round_result_fr(), language="en", top_move="", top_note="", rows=(RoundResultRow("Ana", 0, "", answered=False),)
    )
    scene = round_result_scene(view)
    assert texts(scene)[:3] == ["Move 5: results", "Draw: EIU+ERS?", "No top"]
    assert texts(scene, "head") == ["Player", "Move", "Pts"]
    assert texts(scene, "note") == ["no answer"]


def test_standings_show_rank_total_gap_and_percent_of_top() -> None:
    scene = standings_scene(standings_en())
    assert texts(scene, "title") == ["Standings after 12 moves"]
    assert "Sum of tops: 812" in texts(scene)
    assert texts(scene, "head") == ["#", "Player", "Total", "Gap", "% of top", "Solos"]
    rows = rows_of(scene)
    assert rows[:3] == [
        ["1", "Ana", "812", "0", "100.0"],
        ["2", "Ben", "774", "−38", "95.3"],
        ["3", "Chloé", "734", "−78", "90.4", "1"],
    ]


def rows_of(scene: Scene) -> list[list[str]]:
    """The table's cells, row by row."""
    rows: dict[int, list[str]] = {}
    for label in scene.labels:
        if label.role == "cell":
            rows.setdefault(label.y, []).append(label.text)
    return [rows[y] for y in sorted(rows)]


def test_standings_in_french_with_shared_places_and_no_solo_column() -> None:
    standings = (
        DuplicateStanding(1, "Ana", 300, -12, 96.2),
        DuplicateStanding(1, "Ben", 300, -12, 96.2),
        DuplicateStanding(3, "Chloé", 150, -162, 48.1),
    )
    scene = standings_scene(StandingsView("fr", 1, 312, standings))
    assert texts(scene, "title") == ["Classement après 1 coup"]
    assert "Total des tops : 312" in texts(scene)
    assert texts(scene, "head") == ["#", "Joueur", "Total", "Écart", "% du top"]
    assert texts(scene, "cell") == ["1", "Ana", "300", "−12", "96,2"] + ["1", "Ben", "300", "−12", "96,2"] + [
        "3",
        "Chloé",
        "150",
        "−162",
        "48,1",
    ]
    lit = [item for item in scene.items if isinstance(item, Box) and item.fill == p.ROW_TOP]
    assert len(lit) == 2  # both leaders


@pytest.mark.parametrize(("number", "shown"), [(0, "0"), (5, "+5"), (-12, "−12")])
def test_signed_gap(number: int, shown: str) -> None:
    assert signed(number) == shown


@pytest.mark.parametrize(
    ("value", "lang", "shown"), [(97.25, "en", "97.2"), (97.3, "fr", "97,3"), (100, "en", "100.0"), (0, "fr", "0,0")]
)
def test_percent_uses_the_languages_decimal_mark(value: float, lang: str, shown: str) -> None:
    assert percent(value, lang) == shown


@pytest.mark.parametrize(
    "png",
    [lambda: round_result_png(round_result_en(30)), lambda: standings_png(standings_en(30))],
    ids=["round-result", "standings"],
)
def test_thirty_players_stay_under_200_kb(png: object) -> None:
    assert callable(png)
    data = png()
    assert isinstance(data, bytes)
    assert len(data) < 200_000
    image = Image.open(io.BytesIO(data))
    assert image.width == 704
    assert image.height > 30 * 42


WARNED = (
    DuplicateStanding(1, "Ana", 110, -9, 92.4),
    DuplicateStanding(2, "Ben", 102, -17, 85.7, warnings=5, deduction=10),
    DuplicateStanding(3, "Cleo", 46, -73, 38.7, solos=1),
    DuplicateStanding(4, "Dan", 42, -77, 35.3, warnings=1),
)


@pytest.mark.parametrize(
    ("lang", "heads"),
    [
        ("fr", ["#", "Joueur", "Total", "Écart", "% du top", "Solos", "Avert."]),
        ("en", ["#", "Player", "Total", "Gap", "% of top", "Solos", "Warnings"]),
    ],
)
def test_standings_of_a_sanctioned_game_have_a_warnings_column_5_9(lang: str, heads: list[str]) -> None:
    scene = standings_scene(StandingsView(lang, 5, 119, WARNED, sanctioned=True))
    assert texts(scene, "head") == heads
    rows = rows_of(scene)
    assert rows[1][-1] == "5 (−10)"
    assert rows[3][-1] == "1"
    assert rows[2][-1] == "1"
    assert len(rows[0]) == 5
    warnings_x = max(label.x for label in scene.labels if label.role == "head")
    solos_x = next(label.x for label in scene.labels if label.text == "Solos")
    assert solos_x < warnings_x  # the solos move left for the warnings


def test_without_sanctions_or_warnings_the_standings_keep_their_columns() -> None:
    plain = standings_scene(StandingsView("en", 5, 119, WARNED))
    assert texts(plain, "head") == ["#", "Player", "Total", "Gap", "% of top", "Solos"]
    clean = tuple(replace(s, warnings=0, deduction=0) for s in WARNED)
    assert texts(standings_scene(StandingsView("en", 5, 119, clean, sanctioned=True)), "head") == texts(plain, "head")
    assert png(standings_scene(StandingsView("en", 5, 119, clean, sanctioned=True))) == png(
        standings_scene(StandingsView("en", 5, 119, clean))
    )


def test_a_topping_standings_with_warnings_shows_time_and_warnings() -> None:
    timed = tuple(replace(s, seconds=60.0 + s.place) for s in WARNED)
    scene = standings_scene(StandingsView("en", 5, 119, timed, sanctioned=True))
    assert texts(scene, "head")[-2:] == ["Time (s)", "Warnings"]
    assert rows_of(scene)[1][-2:] == ["62.0", "5 (−10)"]


def extents(label: Label) -> tuple[int, int]:
    """Where a label's text runs, left to right, from its anchor."""
    width = text_width(label.text, label.size)
    if label.anchor.startswith("l"):
        return label.x, label.x + width
    if label.anchor.startswith("r"):
        return label.x - width, label.x
    return label.x - width // 2, label.x + width // 2


def overlaps(scene: Scene, gap: int = 8) -> list[tuple[str, str]]:
    """The neighbouring texts of a line of the table (its heads, each row's cells) closer than ``gap``."""
    lines: dict[tuple[str, int], list[Label]] = {}
    for label in scene.labels:
        if label.role in ("head", "cell"):
            lines.setdefault((label.role, label.y), []).append(label)
    found = []
    for labels in lines.values():
        ordered = sorted(labels, key=lambda label: extents(label)[0])
        for left, right in zip(ordered, ordered[1:]):
            if extents(right)[0] - extents(left)[1] < gap:
                found.append((left.text, right.text))
    return found


NO_SOLO = tuple(replace(s, solos=0) for s in WARNED)
HEAVY = (
    DuplicateStanding(1, "Ana", 119, 0, 100.0, warnings=12, deduction=45),
    DuplicateStanding(2, "Ben", 113, -6, 95.0, warnings=5, deduction=10),
)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(
    "standings",
    [NO_SOLO, WARNED, HEAVY, tuple(replace(s, seconds=61.5) for s in WARNED)],
    ids=["warnings", "warnings-solos", "many-warnings", "warnings-time"],
)
def test_the_warnings_column_never_runs_over_the_percentage(
    lang: str, standings: tuple[DuplicateStanding, ...]
) -> None:
    """Issue 37, item 9: without a solos column, "5 (−10)" was drawn over "95,0" and read "95,5(−10)"."""
    scene = standings_scene(StandingsView(lang, 5, 119, standings, sanctioned=True))
    assert overlaps(scene) == []
    assert rows_of(scene)[1][-1] == "5 (−10)"


def test_a_long_note_is_shown_whole_on_more_lines_and_the_next_row_starts_below_it() -> None:
    """A sanction's reason with its rule reference is not cut (it was: "…déjà posée; zér…")."""
    note = "ce coup ne touche aucune lettre déjà posée ; zéro, et un avertissement (règlement FISF, § 5.4.1.c)"
    ana, cleo_row = RoundResultRow("Ana", 30, "H8 ZOO"), RoundResultRow("Cléo", 0, "A1 ZOO", note=note)
    rows = (ana, cleo_row, RoundResultRow("Dmitri", 0, "", answered=False))
    scene = round_result_scene(replace(round_result_fr(), rows=rows))
    notes = [label for label in scene.labels if label.role == "note"]
    assert " ".join(label.text for label in notes[:-1]) == note
    assert len(notes) >= 3  # the long note on two lines or more
    assert notes[-1].text == "pas de réponse"
    row_boxes = sorted((item.box for item in scene.items if isinstance(item, Box) and item.radius), key=lambda b: b[1])
    cleo, dmitri = row_boxes[-2], row_boxes[-1]
    assert all(cleo[1] < label.y + NOTE_SIZE // 2 <= cleo[3] for label in notes[:-1])  # inside Cléo's row
    assert cleo[3] < dmitri[1]  # Dmitri's row begins below the second line
    assert all(text_width(label.text, label.size) <= WIDTH - label.x for label in notes)
