"""The move generator against a brute force, the one truth with typed moves, and the top's tie rules."""

from __future__ import annotations

import random
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.board import SIZE, Board, Tile, on_board
from core.edition import ENGLISH, FRENCH, Edition, edition_by_code
from core.errors import PlacementError, RackSyntaxError
from core.lexicon import Lexicon
from core.movegen import Play, TopResult, find_top, generate_plays
from core.movegen_plays import play_order
from core.notation import parse_move, parse_tiles
from core.placement import apply_placement, validate_move, validate_tiles
from core.scoring import score_placement
from tests.core.engines import ENGINES, PYTHON, engine
from tests.positions import board_with, greedy_game, play_moves
from tests.ready_lists import ready_registry

PlayKey = frozenset[tuple[int, int, str, bool]]


def key_of(play: Play) -> PlayKey:
    return frozenset((c.row, c.col, c.letter, c.joker) for c in play.placement.new_tiles)


# --- brute force ------------------------------------------------------------------------------


def _main_word(board: Board, new: dict[tuple[int, int], str], first: tuple[int, int], horizontal: bool) -> str:
    """The run of letters through ``first`` along the direction, board and new tiles together."""
    dr, dc = (0, 1) if horizontal else (1, 0)

    def letter(row: int, col: int) -> str | None:
        if (row, col) in new:
            return new[(row, col)]
        tile = board.get(row, col)
        return tile.letter if tile else None

    row, col = first
    while letter(row - dr, col - dc) is not None:
        row, col = row - dr, col - dc
    text = ""
    while (found := letter(row, col)) is not None:
        text += found
        row, col = row + dr, col + dc
    return text


def brute_force(board: Board, rack: str, words: set[str], *, horizontal_only_first: bool = False) -> set[PlayKey]:
    """Every legal play: each line, each first square, each count of tiles, each ordering of
    rack tiles with jokers as any letter, checked by validate_tiles and the word set."""
    alphabet = sorted(set("".join(words))) or ["A"]
    tiles = list(rack)
    found: set[PlayKey] = set()
    for horizontal in (True, False):
        dr, dc = (0, 1) if horizontal else (1, 0)
        for row in range(SIZE):
            for col in range(SIZE):
                if board.get(row, col) is not None:
                    continue
                for count in range(1, len(tiles) + 1):
                    squares: list[tuple[int, int]] = []
                    r, c = row, col
                    while len(squares) < count and on_board(r, c):
                        if board.get(r, c) is None:
                            squares.append((r, c))
                        r, c = r + dr, c + dc
                    if len(squares) < count:
                        continue
                    try:  # where the tiles go is legal or not whatever the letters
                        shape = validate_tiles(board, [(r, c, Tile("A")) for r, c in squares])
                    except PlacementError:
                        continue
                    if horizontal_only_first and board.is_empty() and not shape.ref.horizontal:
                        continue
                    for ordering in set(permutations(tiles, count)):
                        blanks = ordering.count("?")
                        for fill in product(alphabet, repeat=blanks):
                            letters = iter(fill)
                            placed = [(t, False) if t != "?" else (next(letters), True) for t in ordering]
                            new = {sq: t for sq, (t, _) in zip(squares, placed)}
                            if _main_word(board, new, squares[0], shape.ref.horizontal) not in words:
                                continue
                            placement = validate_tiles(
                                board,
                                [(r, c, Tile(t, j)) for (r, c), (t, j) in zip(squares, placed)],
                            )
                            if all(w.text in words for w in placement.words):
                                found.add(frozenset((r, c, t, j) for (r, c), (t, j) in zip(squares, placed)))
    return found


# --- helpers ------------------------------------------------------------------------------------


def expected_rule(plays: list[Play]) -> str:
    if not plays:
        return "none"
    if len(plays) == 1:
        return "unique"
    if plays[1].total < plays[0].total:
        return "score"
    if plays[1].jokers > plays[0].jokers:
        return "fewest_jokers"
    return "order"


def check_one_truth(board: Board, plays: list[Play], lexicon: Lexicon, edition: Edition) -> None:
    """Each play typed as text validates and scores exactly as generated; its words are words."""
    for play in plays:
        typed = validate_move(board, parse_move(str(play)))
        assert typed == play.placement, str(play)
        assert score_placement(typed, edition) == play.score
        by_tiles = validate_tiles(board, [(c.row, c.col, Tile(c.letter, c.joker)) for c in play.placement.new_tiles])
        assert by_tiles == play.placement
        assert play.jokers == sum(1 for c in play.placement.new_tiles if c.joker)
        assert all(w.text in lexicon for w in play.placement.words)


def check_top(board: Board, rack: str, lexicon: Lexicon, edition: Edition, plays: list[Play], **options: bool) -> None:
    """find_top agrees with the full list: same first play, same rule, same best three."""
    top = find_top(board, rack, lexicon, edition, **options)
    if not plays:
        assert top.plays == ()
        assert top.best is None
        assert top.tie_rule == "none"
        return
    assert top.best is not None
    assert (str(top.best), top.best.total) == (str(plays[0]), plays[0].total)
    assert top.best.placement == plays[0].placement
    assert top.tie_rule == expected_rule(plays)
    three = find_top(board, rack, lexicon, edition, count=3, **options)
    assert [str(p) for p in three.plays] == [str(p) for p in plays[:3]]
    assert three.tie_rule == expected_rule(plays)
    assert three.top_count == sum(1 for p in plays if p.total == plays[0].total)  # also past the three kept


# --- random small positions ------------------------------------------------------------------------

LETTERS = "AEIST"


def random_lexicon(rng: random.Random, letters: str = LETTERS) -> list[str]:
    """A dense little word list: about half the two-letter words and some longer ones."""
    words = [a + b for a in letters for b in letters if rng.random() < 0.45]
    for _ in range(rng.randint(20, 90)):
        words.append("".join(rng.choice(letters) for _ in range(rng.randint(3, 6))))
    return words


def random_board(rng: random.Random, lexicon: Lexicon, moves: int) -> Board:
    """A position reached by random legal plays (some with jokers), plus now and then a stray tile."""
    board = Board()
    for _ in range(moves):
        rack = "".join(rng.choice(LETTERS) for _ in range(5)) + rng.choice(["", "", "?"])
        plays = generate_plays(board, rack, lexicon, FRENCH)
        if plays:
            apply_placement(board, rng.choice(plays).placement)
    if rng.random() < 0.3:
        row, col = rng.randrange(SIZE), rng.randrange(SIZE)
        if board.get(row, col) is None:
            board.place(row, col, Tile(rng.choice(LETTERS + "Z"), joker=rng.random() < 0.3))
    return board


SHARDS = 10  # the brute-force comparison runs as this many independent tests (parallel test processes)


@st.composite
def positions(draw: st.DrawFn, max_rack: int = 4, shard: int = 0) -> tuple[list[str], Board, str]:
    """A random lexicon, position and rack; each ``shard`` draws its seeds from a range of its own."""
    rng = random.Random(draw(st.integers(0, 2**32)) * SHARDS + shard)
    words = random_lexicon(rng)
    board = random_board(rng, Lexicon.from_words(words), rng.choice([0, 1, 2, 3, 5, 8]))
    jokers = rng.choice([0, 0, 1, 1, 2])
    size = rng.randint(max(1, jokers), max_rack - (1 if jokers == 2 else 0))
    real = "".join(rng.choice(LETTERS + "Z") for _ in range(size - jokers))
    return words, board, real + "?" * jokers


@pytest.mark.parametrize("shard", range(SHARDS))
@settings(max_examples=100 // SHARDS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generator_equals_brute_force(shard: int, data: st.DataObject) -> None:
    """A hundred positions in all, a tenth per shard."""
    words, board, rack = data.draw(positions(max_rack=5, shard=shard))
    lexicon = Lexicon.from_words(words)
    expected = brute_force(board, rack, set(words))
    for name in ENGINES:
        with engine(name):
            plays = generate_plays(board, rack, lexicon, FRENCH)
            keys = [key_of(p) for p in plays]
            assert len(keys) == len(set(keys)), f"a placement listed twice ({name})"
            assert set(keys) == expected, name
            assert plays == sorted(plays, key=play_order)
            check_one_truth(board, plays, lexicon, FRENCH)
            check_top(board, rack, lexicon, FRENCH, plays)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_rack=3))
def test_first_move_horizontal_only(case: tuple[list[str], Board, str]) -> None:
    words, _, rack = case
    lexicon = Lexicon.from_words(words)
    board = Board()
    expected = brute_force(board, rack, set(words), horizontal_only_first=True)
    for name in ENGINES:
        with engine(name):
            plays = generate_plays(board, rack, lexicon, ENGLISH, first_move_horizontal_only=True)
            assert {key_of(p) for p in plays} == expected, name
            assert all(p.placement.ref.horizontal for p in plays)
            check_top(board, rack, lexicon, ENGLISH, plays, first_move_horizontal_only=True)


@st.composite
def bingo_positions(draw: st.DrawFn) -> tuple[list[str], Board, str]:
    """Seven-tile racks and lexicons holding words made of the rack (and board letters)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    board = Board()
    for _ in range(rng.randint(0, 3)):
        row, col = rng.randint(0, SIZE - 1), rng.randint(0, SIZE - 1)
        horizontal = rng.random() < 0.5
        for i in range(rng.randint(1, 3)):
            r, c = (row, col + i) if horizontal else (row + i, col)
            if on_board(r, c) and board.get(r, c) is None:
                board.place(r, c, Tile(rng.choice(LETTERS), joker=rng.random() < 0.1))
    jokers = rng.choice([0, 0, 1, 2])
    real = "".join(rng.choice(LETTERS) for _ in range(7 - jokers))
    words = ["".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 4))) for _ in range(40)]
    board_letters = [t.letter for _, _, t in board.tiles()] or ["E"]
    for _ in range(25):
        extra = rng.sample(board_letters, min(len(board_letters), rng.randint(0, 2)))
        letters = list(real) + [rng.choice(LETTERS) for _ in range(jokers)] + extra
        rng.shuffle(letters)
        words.append("".join(letters[:15]))
    return words, board, real + "?" * jokers


@pytest.mark.parametrize("shard", range(2))  # 40 examples in two halves that test processes run side by side
@settings(max_examples=40 // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=bingo_positions())
def test_top_with_full_racks_matches_the_full_list(shard: int, case: tuple[list[str], Board, str]) -> None:
    words, board, rack = case
    lexicon = Lexicon.from_words(words)
    listed: list[set[PlayKey]] = []
    for name in ENGINES:
        with engine(name):
            plays = generate_plays(board, rack, lexicon, FRENCH)
            keys = [key_of(p) for p in plays]
            assert len(keys) == len(set(keys))
            check_one_truth(board, plays[:50], lexicon, FRENCH)
            check_top(board, rack, lexicon, FRENCH, plays)
            listed.append(set(keys))
    assert all(keys == listed[0] for keys in listed)


# --- known positions ---------------------------------------------------------------------------------


def test_known_top_facades_bingo() -> None:
    lexicon = Lexicon.from_words(["HANTEZ", "CHANTEZ", "FACADES", "FADES", "CADES", "FA", "DE", "ES"])
    board, _ = play_moves(["H7 HANTEZ"])
    top = find_top(board, "FACADES", lexicon, FRENCH)
    assert top.best is not None
    assert str(top.best) == "6F FACADES"
    assert top.best.total == 96
    assert top.best.score.sum_line == "25 + 21 + 50 = 96"
    assert top.tie_rule == "score"


def test_known_top_jouet() -> None:
    lexicon = Lexicon.from_words(
        [
            "HANTEZ",
            "CHANTEZ",
            "FACADES",
            "HUES",
            "HA",
            "UN",
            "ET",
            "SE",
            "JOUET",
            "JET",
            "OSE",
            "JOUE",
            "OUT",
            "TE",
            "TU",
        ]
    )
    board, _ = play_moves(["H7 HANTEZ", "6F FACADES", "G8 HUES"])
    top = find_top(board, "JOUET", lexicon, FRENCH)
    assert top.best is not None
    assert (str(top.best), top.best.total) == ("F10 JOUET", 59)
    plays = generate_plays(board, "JOUET", lexicon, FRENCH)
    assert plays[0].placement == top.best.placement


def test_known_top_first_move_vague() -> None:
    lexicon = Lexicon.from_words(["VAGUE", "VAGUES", "AVE", "GUE"])
    top = find_top(Board(), "VAGUE", lexicon, FRENCH, first_move_horizontal_only=True)
    assert top.best is not None
    assert (str(top.best), top.best.total) == ("H4 VAGUE", 26)
    both = find_top(Board(), "VAGUE", lexicon, FRENCH, count=2)
    assert [str(p) for p in both.plays] == ["H4 VAGUE", "8D VAGUE"]
    assert both.tie_rule == "order"


def test_the_plays_sharing_the_top_are_all_counted_past_those_kept() -> None:
    lexicon = Lexicon.from_words(["ZA", "AZ"])
    plays = generate_plays(board_with("H8:A"), "Z", lexicon, FRENCH)
    tops = [p for p in plays if p.total == plays[0].total]
    assert len(tops) > 2
    found = find_top(board_with("H8:A"), "Z", lexicon, FRENCH, count=2)
    assert len(found.plays) == 2
    assert found.top_count == len(tops)


def test_joker_tie_goes_to_the_play_without_joker() -> None:
    # K on H8; A on H9 makes KA (11); the joker as S on H7 with the A makes sKA (11 too), which
    # the fixed order alone would put first (column 7 before 8). Z tiles block the other plays.
    lexicon = Lexicon.from_words(["KA", "SKA"])
    board = board_with("H8:K J8:Z F9:Z J9:Z")
    plays = generate_plays(board, "A?", lexicon, FRENCH)
    assert [(str(p), p.total, p.jokers) for p in plays] == [("H8 KA", 11, 0), ("H7 sKA", 11, 1), ("H8 Ka", 10, 1)]
    top = find_top(board, "A?", lexicon, FRENCH)
    assert top.best is not None
    assert str(top.best) == "H8 KA"
    assert top.tie_rule == "fewest_jokers"


def test_order_decides_between_equal_plays() -> None:
    lexicon = Lexicon.from_words(["KA", "SKA"])
    board = board_with("H8:K J8:Z F9:Z J9:Z")
    top = find_top(board, "AS", lexicon, FRENCH)  # SKA (12) alone at the top
    assert top.best is not None
    assert str(top.best) == "H7 SKA"
    assert top.tie_rule == "score"
    mirror = find_top(Board(), "KA", lexicon, FRENCH)  # KA across and down score alike
    assert mirror.best is not None
    assert str(mirror.best) == "H7 KA"
    assert mirror.tie_rule == "order"


def test_unique_and_none() -> None:
    lexicon = Lexicon.from_words(["ZA"])
    top = find_top(board_with("O14:Z"), "A", lexicon, FRENCH)  # ZA down would leave the board
    assert top.best is not None
    assert str(top.best) == "O14 ZA"
    assert top.tie_rule == "unique"
    assert top.top_count == 1
    two = find_top(board_with("H8:Z"), "A", lexicon, FRENCH)  # ZA across and down
    assert two.best is not None
    assert str(two.best) == "H8 ZA"
    assert two.tie_rule == "order"
    nothing = find_top(board_with("H8:Z"), "E", lexicon, FRENCH)
    assert nothing.plays == ()
    assert nothing.tie_rule == "none"
    assert nothing.best is None
    assert generate_plays(Board(), "A", lexicon, FRENCH) == []
    assert find_top(Board(), "", lexicon, FRENCH).tie_rule == "none"


def test_a_top_met_alone_is_told_from_a_unique_play_by_the_single_tiles() -> None:
    lexicon = Lexicon.from_words(["AX", "EA", "EZ", "ZOA"])
    board = board_with("H7:A H8:Z")
    with engine(PYTHON):  # the search by branch and bound (the C walk meets every play)
        top = find_top(board, "EZ", lexicon, FRENCH)
        plays = generate_plays(board, "EZ", lexicon, FRENCH)
    assert top.best is not None
    assert (str(top.best), top.best.total) == ("G8 EZ", 32)
    assert top.searched.plays_seen == 1  # the walk met the top alone: E on G8 and Z on 8G are single tiles
    assert top.tie_rule == expected_rule(plays) == "score"
    assert top.top_count == 1


def test_single_tile_in_both_directions_is_one_play() -> None:
    lexicon = Lexicon.from_words(["ZA", "AS", "ZAS", "SA"])
    board = board_with("H7:Z H8:A G9:A")
    # an S on H9 makes ZAS across and AS down: one play, named horizontally
    plays = [p for p in generate_plays(board, "S", lexicon, FRENCH) if key_of(p) == {(7, 8, "S", False)}]
    assert len(plays) == 1
    assert str(plays[0]) == "H7 ZAS"
    assert [w.text for w in plays[0].placement.words] == ["ZAS", "AS"]


def test_end_of_game_racks_have_no_bingo() -> None:
    lexicon = Lexicon.from_words(["ABRITES", "ABRITE"])
    six = find_top(Board(), "ABRITE", lexicon, FRENCH)
    seven = find_top(Board(), "ABRITES", lexicon, FRENCH)
    assert six.best is not None
    assert not six.best.score.bingo
    assert seven.best is not None
    assert seven.best.score.bingo
    assert seven.best.total == six.best.total + FRENCH.values["S"] * 2 + 50 or seven.best.score.bingo


def test_bad_racks() -> None:
    lexicon = Lexicon.from_words(["ZA"])
    for rack in ["ABCDEFGH", "AB1", "???", "É"]:
        with pytest.raises(RackSyntaxError):
            find_top(Board(), rack, lexicon, FRENCH)
    with pytest.raises(ValueError):
        find_top(Board(), "ZA", lexicon, FRENCH, count=0)
    with pytest.raises(RackSyntaxError):
        find_top(Board(), "az", lexicon, FRENCH)  # typed text: tiles are uppercase symbols
    assert str(find_top(Board(), parse_tiles("az"), lexicon, FRENCH).best) == "H7 ZA"


def test_a_rack_is_its_tiles_never_read_again() -> None:
    """Issue 42: the tiles N L L R R E N hold no LL and no RR tile (the engine once read them as typed text,
    N LL RR E N, and played an LL the rack did not hold)."""
    spanish = edition_by_code("es")
    lexicon = Lexicon.from_words(["ELLE", "NEN", "NE", "LLEN"], alphabet=spanish.alphabet)
    board = Board()
    board.place(7, 7, Tile("N"))
    board.place(7, 8, Tile("E"))
    tiles = "NLLRREN"  # seven tiles, each its own symbol
    top = find_top(board, tiles, lexicon, spanish, 3)
    assert [(str(p), p.total) for p in top.plays] == [("10F NEN", 8), ("10H NEN", 8), ("G9 NEN", 7)]
    for play in generate_plays(board, tiles, lexicon, spanish):
        assert all(tile.letter in tiles for tile in play.placement.new_tiles), play
    # typed text is read once, by the notation: NLLRREN typed is N LL RR E N, the brackets keep L L R R
    typed = parse_tiles("NLLRREN", spanish.alphabet)
    assert [spanish.label(t) for t in typed] == ["N", "LL", "RR", "E", "N"]
    assert str(find_top(board, typed, lexicon, spanish).best) == "10F LLEN"
    assert parse_tiles("n[l][l][r][r]en", spanish.alphabet) == tiles


def test_result_types() -> None:
    lexicon = Lexicon.from_words(["ZA", "AZ"])
    top = find_top(Board(), "ZA", lexicon, ENGLISH, count=5)
    assert isinstance(top, TopResult)
    assert len(top.plays) == 5  # of 8: ZA and AZ, across and down, each placed two ways on the star
    assert len(generate_plays(Board(), "ZA", lexicon, ENGLISH)) == 8
    assert len(find_top(Board(), "ZA", lexicon, ENGLISH, count=20).plays) == 8
    assert top.searched.searched >= 1
    assert top.plays[0].total >= top.plays[-1].total
    assert str(top.plays[0]) == top.plays[0].placement.notation()


# --- the bundled lists (skipped when absent) -------------------------------------------------------


@pytest.fixture(scope="module")
def french() -> Lexicon:
    """The bundled French list, compiled once for every test module (the shared registry's)."""
    return ready_registry().get("fr")


def test_french_greedy_game_tops_match_the_full_lists(french: Lexicon) -> None:
    for board, text in greedy_game(FRENCH, french, 2024):
        for name in ENGINES:
            with engine(name):
                plays = generate_plays(board, text, french, FRENCH)
                check_top(board, text, french, FRENCH, plays)
                check_one_truth(board, plays[:30], french, FRENCH)


def test_french_hantez_position(french: Lexicon) -> None:
    board, _ = play_moves(["H7 HANTEZ"])
    top = find_top(board, "FACADES", french, FRENCH)
    assert top.best is not None
    assert top.best.total >= 96
