"""What the duplicate game's tests share: a small French list, top finders (a brute force over it, a script of
plays), and games made ready (the rules' club sheet, a first round open)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.board import Board
from core.duplicate import (
    DuplicateGame,
    DuplicateSettings,
    SubmissionResult,
)
from core.edition import FRENCH, Edition
from core.notation import Move, Ref, TypedLetter, parse_move
from core.placement import Placement, validate_move
from core.scoring import MoveScore, score_placement
from core.tie import TieRule
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT

TWO = (
    "AH AI AN AS AU BU CA CE CI DE DO DU EH EN ES ET EU EX FA FI GO HA HE HI HO IF IL JE LA LE LI LU MA ME MI"
    " MU NA NE NI NO NU OC OH ON OR OS OU PI PU QI RA RE RI RU SA SE SI SU TA TE TU UN US UT VA VE VS VU WU XI"
).split()
THREE = (
    "ACE AGE AIL AIR AIS AIT ALE AME AMI ANE ANS ARC ARE ART AXE EAU ECU ELU EST ETE ILE ILS LAC LES LIT LOI"
    " LOT NEZ NID NOM NON NUL OIE ORS OSE OUI OUT RAT RIZ ROI RUE SAC SEL SET SIX SOL SON SUD SUR TAS THE TOI"
    " TON TRI TUE UNE USE VIE VIN VOL ZEN ZOO"
).split()
LONGER = "BOULAT DIRHAM ZONE ZONES RATE RATES TRAINS NATURE SATIRE".split()
SMALL_WORDS = sorted(set(TWO + THREE + LONGER))


# --- top finders for the tests ---------------------------------------------------------------


@dataclass(frozen=True)
class FoundPlay:
    placement: Placement
    score: MoveScore
    jokers: int

    def __str__(self) -> str:
        return self.placement.notation()


@dataclass(frozen=True)
class FoundTop:
    plays: tuple[FoundPlay, ...]
    tie_rule: TieRule

    @property
    def top_count(self) -> int:
        return sum(1 for p in self.plays if p.score.total == self.plays[0].score.total)


def _order(play: FoundPlay) -> tuple[int, int, int, int, int, str, str]:
    ref = play.placement.ref
    return (
        -play.score.total,
        play.jokers,
        0 if ref.horizontal else 1,
        ref.row,
        ref.col,
        play.placement.main_word.text,
        play.placement.notation(),
    )


def _count(letters: Iterable[str]) -> dict[str, int]:
    """How many times each letter comes (a plain dict: a Counter costs more in the brute search)."""
    counts: dict[str, int] = {}
    for letter in letters:
        counts[letter] = counts.get(letter, 0) + 1
    return counts


def _missing(need: dict[str, int], letters: Counter[str]) -> int:
    """How many of the letters ``need`` counts ``letters`` lacks (what jokers would have to stand for)."""
    return sum(n - letters[ch] for ch, n in need.items() if n > letters[ch])


class BruteTop:
    """Every word of a small list tried at every square both ways, every joker choice: slow but plain."""

    def __init__(self, words: Iterable[str], edition: Edition = FRENCH, horizontal_first: bool = True) -> None:
        self.words = sorted(set(words))
        self.lexicon = set(self.words)
        self.edition = edition
        self.horizontal_first = horizontal_first
        self.calls = 0

    _cache: dict[tuple[tuple[str, ...], tuple[str, ...], str, bool], FoundTop] = {}

    def __call__(self, board: Board, rack: str) -> FoundTop:
        self.calls += 1
        key = (tuple(self.words), tuple(board.rows()), rack, self.horizontal_first)
        if key not in self._cache:
            self._cache[key] = self._search(board, rack)
        return self._cache[key]

    def _search(self, board: Board, rack: str) -> FoundTop:
        jokers = rack.count("?")
        letters = Counter(rack.replace("?", ""))
        found: dict[tuple[tuple[int, int, str, bool], ...], FoundPlay] = {}
        touching = (
            {(7, 7)}
            if board.is_empty()
            else {
                (r + dr, c + dc) for r, c, _ in board.tiles() for dr, dc in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))
            }
        )
        cells = {(r, c): tile.letter for r, c, tile in board.tiles()}
        pool = letters + Counter(cells.values())  # every letter a play could use: the rack's and the board's
        for word in self.words:
            if sum((Counter(word) - pool).values()) > jokers:
                continue  # not even with every tile on the board: no square can take it
            for horizontal in (True, False):
                if not horizontal and board.is_empty() and self.horizontal_first:
                    continue
                length = len(word)
                # every start whose squares meet ``touching`` (the others cannot be a play), in board order
                starts = {(r, c - i) if horizontal else (r - i, c) for r, c in touching for i in range(length)}
                for row, col in sorted(starts):
                    if not (0 <= row < 15 and 0 <= col < 15 and (col if horizontal else row) + length <= 15):
                        continue  # off the board
                    squares = [(row, col + i) if horizontal else (row + i, col) for i in range(length)]
                    if touching.isdisjoint(squares):
                        continue
                    new: list[int] = []
                    fits = True
                    for i, square in enumerate(squares):
                        letter = cells.get(square)
                        if letter is None:
                            new.append(i)
                        elif letter != word[i]:
                            fits = False
                            break
                    if not fits or not new:
                        continue
                    need = _count(word[i] for i in new)
                    if _missing(need, letters) > jokers:
                        continue
                    for size in range(jokers + 1):
                        for joker_set in itertools.combinations(new, size):
                            plain = _count(word[i] for i in new if i not in joker_set)
                            if _missing(plain, letters):
                                continue
                            typed = tuple(TypedLetter(ch, i in joker_set) for i, ch in enumerate(word))
                            try:
                                placement = validate_move(board, Move(Ref(row, col, horizontal), typed))
                            except Exception:
                                continue
                            if any(w.text not in self.lexicon for w in placement.words):
                                continue
                            key = tuple(sorted((c.row, c.col, c.letter, c.joker) for c in placement.new_tiles))
                            if key not in found:
                                found[key] = FoundPlay(
                                    placement, score_placement(placement, self.edition), placement.jokers
                                )
        plays = sorted(found.values(), key=_order)
        if not plays:
            return FoundTop((), TieRule.NONE)
        if len(plays) == 1:
            return FoundTop(tuple(plays), TieRule.UNIQUE)
        first, second = plays[0], plays[1]
        rule = (
            TieRule.SCORE
            if second.score.total < first.score.total
            else (TieRule.FEWEST_JOKERS if second.jokers > first.jokers else TieRule.ORDER)
        )
        return FoundTop(tuple(plays[:10]), rule)


class ScriptedTop:
    """Gives the plays it was told, one round after the other (to reproduce a sheet)."""

    def __init__(self, moves: Sequence[str]) -> None:
        self.moves = list(moves)

    def __call__(self, board: Board, rack: str) -> FoundTop:
        placement = validate_move(board, parse_move(self.moves.pop(0)))
        return FoundTop((FoundPlay(placement, score_placement(placement, FRENCH), placement.jokers),), TieRule.SCORE)


def many(count: int) -> list[str]:
    return [f"P{i:02d}" for i in range(count)]


def club_game() -> DuplicateGame:
    """The docs/rules.md sheet: tops 24, 36, 18; scores typed by the referee for A and B."""
    game = DuplicateGame(FRENCH, ["A", "B"])
    top = ScriptedTop(["H8 ZEN", "11H DIRHAM", "L7 BOULAT"])
    for draw, (a, b) in zip(["AEINRTZ", "AIRT+DHM", "T+BELOSU"], [(24, 20), (30, 36), (18, 9)]):
        game.draw_manual(draw)
        assert game.current is not None
        assert game.current.shortfall is None
        game.close_round(top, set())
        number = len(game.closed_rounds)
        game.record_score("A", number, a)
        game.record_score("B", number, b)
    return game


def first_round(players: Sequence[str], draw: str = "AEINRTZ", **settings: Any) -> DuplicateGame:
    game = DuplicateGame(FRENCH, players, DuplicateSettings(**settings))
    game.draw_manual(draw, at=1000.0)
    return game


def round_results(game: DuplicateGame, round_number: int = 1) -> dict[str, SubmissionResult]:
    return game.closed_rounds[round_number - 1].results
