"""The shipped editions of other languages: their totals against the published sets, their tiles, a game set up.

Each file's figures (tiles, points, letters) are the published distributions its ``provenance``
cites; a classic game in each edition is set up from the file and a first move typed in its
tiles is scored by hand here.
"""

from __future__ import annotations

import json
import random

import pytest

from core.duplicate import DuplicateGame, DuplicateSettings
from core.edition import EDITIONS, Edition, edition_by_code, edition_from_json
from core.game import ClassicGame
from core.notation import Notation, default_notation
from core.rules import rule_set_by_code
from tests.paths import REPO_ROOT

EDITIONS_DIR = REPO_ROOT / "core" / "editions"

# code: (tiles with the jokers, sum of the letters' values over the bag, number of tile kinds, labels absent)
PUBLISHED = {
    "ca": (100, 189, 26, "K W Y Q"),
    "es": (100, 192, 28, "K W"),
    "ro": (100, 211, 22, "K Q W Y"),
    "it": (120, 293, 21, "J K W X Y"),
    "de": (102, 202, 29, ""),
    "pl": (100, 190, 32, "Q V X"),
}

# code: (typed move, the tiles it lays, its score): each first move goes right from H8, the centre (a double
# word); its fifth tile lands on the double letter of H12
FIRST_MOVES = {
    "ca": ("H8 COL·LEGI", ["C", "O", "L·L", "E", "G", "I"], (2 + 1 + 10 + 1 + 3 * 2 + 1) * 2),
    "es": ("H8 CHORRO", ["CH", "O", "RR", "O"], (5 + 1 + 8 + 1) * 2),
    "ro": ("H8 ȘARPE", ["S", "A", "R", "P", "E"], (1 + 1 + 1 + 2 + 1 * 2) * 2),
    "it": ("H8 CITTÀ", ["C", "I", "T", "T", "A"], (2 + 1 + 2 + 2 + 1 * 2) * 2),
    "de": ("H8 STRAßE", ["S", "T", "R", "A", "S", "S", "E"], (1 + 1 + 1 + 1 + 1 * 2 + 1 + 1) * 2 + 50),
    "pl": ("H8 źródło", ["Ź", "R", "Ó", "D", "Ł", "O"], (9 + 1 + 5 + 2 + 3 * 2 + 1) * 2),
}


def _points(edition: Edition) -> int:
    return sum(edition.values[s] * edition.counts[s] for s in edition.alphabet.symbols)


def test_every_edition_of_the_index_is_shipped() -> None:
    index = json.loads((EDITIONS_DIR / "index.json").read_text(encoding="utf-8"))
    assert list(EDITIONS) == index["editions"] == ["fr", "en", *PUBLISHED]


@pytest.mark.parametrize("code", list(PUBLISHED))
def test_totals_match_the_published_set(code: str) -> None:
    edition = edition_by_code(code)
    tiles, points, kinds, absent = PUBLISHED[code]
    assert edition.tile_count == tiles
    assert edition.jokers == 2
    assert _points(edition) == points
    assert len(edition.alphabet) == kinds
    labels = set(edition.alphabet.labels)
    assert not labels & set(absent.split())
    assert edition.rack_size == 7
    assert edition.bingo_bonus == 50
    assert all(edition.counts[s] >= 1 and edition.values[s] >= 1 for s in edition.alphabet.symbols)
    assert {"A", "E", "I", "O", "U"} <= {edition.label(v) for v in edition.vowels}


@pytest.mark.parametrize("code", list(PUBLISHED))
def test_each_file_cites_two_sources(code: str) -> None:
    data = json.loads((EDITIONS_DIR / f"{code}.json").read_text(encoding="utf-8"))
    provenance = data["provenance"]
    assert len(provenance["sources"]) >= 2
    assert provenance["notes"]
    assert any("wikipedia.org/wiki/Scrabble_letter_distributions" in s for s in provenance["sources"])


def test_tiles_of_their_own() -> None:
    ca, es, it, de = (edition_by_code(c) for c in ("ca", "es", "it", "de"))

    def value(edition: Edition, label: str) -> int:
        return edition.values[edition.tiles(label)]

    assert [value(ca, t) for t in ("Ç", "L·L", "NY", "QU", "X", "Z")] == [10, 10, 10, 8, 10, 8]
    assert [value(es, t) for t in ("CH", "LL", "RR", "Ñ", "Q", "Z")] == [5, 8, 8, 8, 5, 10]
    assert [value(de, t) for t in ("Ä", "Ö", "Ü", "Z", "Y")] == [6, 8, 6, 3, 10]
    assert it.counts["O"] == 15
    assert it.counts["A"] == 14
    assert value(it, "Q") == 10
    assert es.flexible == frozenset("Y")
    assert ca.flexible == frozenset()


@pytest.mark.parametrize(
    ("code", "typed", "labels"),
    [
        ("ca", "Col·legi", ["C", "O", "L·L", "E", "G", "I"]),
        ("ca", "coŀlegi", ["C", "O", "L·L", "E", "G", "I"]),  # the single character ŀ
        ("ca", "lluny", ["L", "L", "U", "NY"]),  # LL is two L tiles in Catalan
        ("ca", "qüestió", ["QU", "E", "S", "T", "I", "O"]),
        ("ca", "plaça", ["P", "L", "A", "Ç", "A"]),
        ("es", "añoranza", ["A", "Ñ", "O", "R", "A", "N", "Z", "A"]),
        ("es", "canción", ["C", "A", "N", "C", "I", "O", "N"]),
        ("ro", "țară", ["T", "A", "R", "A"]),
        ("ro", "înşiră", ["I", "N", "S", "I", "R", "A"]),
        ("it", "perché", ["P", "E", "R", "C", "H", "E"]),
        ("de", "Größe", ["G", "R", "Ö", "S", "S", "E"]),
        ("de", "Café", ["C", "A", "F", "E"]),
    ],
)
def test_typed_words_read_as_the_edition_tiles(code: str, typed: str, labels: list[str]) -> None:
    edition = edition_by_code(code)
    assert [edition.label(s) for s in edition.tiles(typed)] == labels


@pytest.mark.parametrize("code", list(PUBLISHED))
def test_a_game_is_set_up_and_a_move_scored(code: str) -> None:
    edition = edition_by_code(code)
    notation = default_notation(code)
    game = ClassicGame(edition, rule_set_by_code(edition.rules), ["Ana", "Ben"], notation)
    typed, labels, points = FIRST_MOVES[code]
    placement, score = game.evaluate(typed)
    assert [edition.label(c.letter) for c in placement.new_tiles] == labels
    assert score.total == points
    assert len(edition.bag()) == edition.tile_count
    if notation is Notation.FISF:
        assert edition.notation == "fisf"


@pytest.mark.parametrize("code", list(PUBLISHED))
def test_a_duplicate_draw_follows_the_vowel_rule(code: str) -> None:
    edition = edition_by_code(code)
    settings = DuplicateSettings(solo_min_players=1)
    game = DuplicateGame(edition, ["Ana"], settings)
    for seed in range(5):
        game.draw(random.Random(seed), at=0.0)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        assert len(round_.draw.letters) == 7
        assert settings.draw_rule.is_met(round_.draw.letters, round_.number, edition)
        game.reject_draw()
    assert game.bag.count("?") == 2
    assert len(game.bag.tiles) == edition.tile_count


def test_polish_has_32_letters_of_its_own() -> None:
    """The Polish set (Wikipedia's table, wolges and Xanado agree): 32 letters, nine of them with diacritics,
    the rarest worth the most; typed in lowercase or uppercase they are those tiles, other accents fold."""
    data = json.loads((EDITIONS_DIR / "pl.json").read_text(encoding="utf-8"))
    assert len(data["tiles"]) == 32
    index = json.loads((EDITIONS_DIR / "index.json").read_text(encoding="utf-8"))
    assert "pl" in index["editions"]
    assert not index.get("pending")
    pl = edition_by_code("pl")
    assert edition_from_json(json.dumps(data)).alphabet == pl.alphabet
    values = {label: pl.values[pl.tiles(label)] for label in ("Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż")}
    assert values == {"Ą": 5, "Ć": 6, "Ę": 5, "Ł": 3, "Ń": 7, "Ó": 5, "Ś": 5, "Ź": 9, "Ż": 5}
    assert [pl.alphabet.code(pl.tiles(c)) for c in "aąźż"] == [0, 1, 30, 31]
    assert pl.tiles("gęślą") == "GĘŚLĄ"
    assert pl.tiles("Öre") == "ORE"
    assert {pl.label(v) for v in pl.vowels} == {"A", "Ą", "E", "Ę", "I", "O", "Ó", "U", "Y"}
