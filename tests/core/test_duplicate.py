"""The duplicate game: submissions checked, tops, solos, ranking, record, events replayed."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from core.board import Board
from core.draw import Counts, DrawRule, Shortfall
from core.duplicate import (
    DrawMade,
    DrawRejected,
    DuplicateEvent,
    DuplicateGame,
    DuplicateSettings,
    DuplicateStanding,
    MoveSubmitted,
    RoundClosed,
    SoloRule,
    SubmissionResult,
    event_from_dict,
    event_to_dict,
    movegen_top_finder,
    percent_of,
    rank_players,
)
from core.edition import FRENCH, Edition
from core.errors import (
    DuplicatePlayerError,
    FirstMoveError,
    NotConnectedError,
    UnknownPlayerError,
    WordSyntaxError,
)
from core.errors_duplicate import (
    DrawPendingError,
    DuplicateSettingError,
    JokerNotMarkedError,
    LateSubmissionError,
    LetterNotInBagError,
    LettersNotInDrawError,
    NegativeScoreError,
    NoJokerLeftError,
    NoRoundOpenError,
    RoundNotClosedError,
    ScoreAboveTopError,
    SubmissionsMadeError,
    WordNotInLexiconError,
)
from core.lexicon import Lexicon
from core.notation import Move, Notation, Ref, TypedLetter, parse_move
from core.placement import Placement, apply_placement, validate_move
from core.scoring import MoveScore, score_placement
from core.tie import TieRule
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

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


# --- ranking ------------------------------------------------------------------------------


def test_rules_example_ranking() -> None:
    standings = rank_players([24, 36, 18], {"B": [20, 36, 9], "A": [24, 30, 18]})
    assert standings == [
        DuplicateStanding(1, "A", 72, -6, 92.3),
        DuplicateStanding(2, "B", 65, -13, 83.3),
    ]
    assert str(standings[0]) == "1. A 72 (-6, 92.3 %)"


def test_percent_and_shared_places() -> None:
    assert percent_of(72, 78) == 92.3
    assert percent_of(65, 78) == 83.3
    assert percent_of(1, 8) == 12.5
    assert percent_of(1, 16) == 6.3
    assert percent_of(0, 0) == 0.0
    standings = rank_players([10, 10], {"A": [10, 5], "B": [5, 10], "C": [10, 10], "D": [0, 0]})
    assert [(s.place, s.player, s.gap) for s in standings] == [(1, "C", 0), (2, "A", -5), (2, "B", -5), (4, "D", -20)]
    assert str(standings[0]) == "1. C 20 (0, 100.0 %)"


def _club_game() -> DuplicateGame:
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


def test_rules_example_as_a_club_game() -> None:
    game = _club_game()
    assert [r.top_points for r in game.closed_rounds] == [24, 36, 18]
    assert game.tops_total == 78
    assert game.standings() == [
        DuplicateStanding(1, "A", 72, -6, 92.3),
        DuplicateStanding(2, "B", 65, -13, 83.3),
    ]
    assert [r.reliquat for r in game.closed_rounds] == ["AIRT", "T", "ES"]
    lines = game.record()
    assert [
        (sheet_line.number, sheet_line.draw, sheet_line.ref, sheet_line.word, sheet_line.score, sheet_line.cumulative)
        for sheet_line in lines
    ] == [
        (1, "AEINRTZ", "H8", "ZEN", 24, 24),
        (2, "AIRT+DHM", "11H", "DIRHAM", 36, 60),
        (3, "T+BELOSU", "L7", "BOULAT", 18, 78),
    ]
    assert lines[1].scores == (("A", 30), ("B", 36))
    assert [(s.place, s.player, s.total, s.gap, s.percent) for s in game.standings()] == [
        (1, "A", 72, -6, 92.3),
        (2, "B", 65, -13, 83.3),
    ]


def test_score_above_the_top_is_a_typing_error() -> None:
    game = _club_game()
    events = len(game.events)
    with pytest.raises(ScoreAboveTopError, match="B, move 2: 63 is above the top 36") as info:
        game.record_score("B", 2, 63)
    assert info.value.score == 63
    assert info.value.top == 36
    assert len(game.events) == events
    assert game.standings()[1].total == 65
    with pytest.raises(NegativeScoreError, match="-3"):
        game.record_score("B", 2, -3)
    with pytest.raises(RoundNotClosedError, match="round 4 is not closed"):
        game.record_score("B", 4, 3)
    with pytest.raises(UnknownPlayerError, match="'Z'"):
        game.record_score("Z", 1, 3)
    game.record_score("B", 2, 0)  # a correction replaces the earlier entry
    assert game.standings()[1].total == 29


# --- submissions ----------------------------------------------------------------------------


def _first_round(players: Sequence[str], draw: str = "AEINRTZ", **settings: Any) -> DuplicateGame:
    game = DuplicateGame(FRENCH, players, DuplicateSettings(**settings))
    game.draw_manual(draw, at=1000.0)
    return game


def _results(game: DuplicateGame, round_number: int = 1) -> dict[str, SubmissionResult]:
    return game.closed_rounds[round_number - 1].results


def test_submissions_are_checked_when_the_round_closes() -> None:
    players = ["valid", "claim", "word", "illegal", "draw", "typo", "late", "twice", "quiet"]
    game = _first_round(players)
    game.submit("valid", "H8 ZEN", claimed=24, at=1010)
    game.submit("claim", "h8 zen", claimed=30, at=1020)
    game.submit("word", "H8 ZANE", at=1030)
    game.submit("illegal", "A1 ZEN", at=1040)
    game.submit("draw", "H8 ZOO", at=1050)
    game.submit("typo", "H8 Z-N", at=1060)
    game.submit("late", "H8 ZEN", at=1000 + 180.5)
    game.submit("twice", "A1 ZEN", at=1070)
    game.submit("twice", "H7 NEZ", claimed=24, at=1080)
    closed = game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert closed.invalid_words == ("ZANE",)
    results = _results(game)
    assert set(results) == set(players) - {"quiet"}
    assert game.closed_rounds[0].score_of("quiet") == 0

    assert results["valid"].valid
    assert results["valid"].score == 24
    assert not results["valid"].claimed_differs
    assert results["claim"].score == 24
    assert results["claim"].claimed_differs
    assert (results["claim"].claimed, results["claim"].score) == (30, 24)

    word = results["word"]
    assert (word.verdict, word.score) == (SubmissionResult.NOT_A_WORD, 0)
    assert isinstance(word.error, WordNotInLexiconError)
    assert word.error.words == ("ZANE",)
    assert "ZANE not in the word list" in str(word.error)

    illegal = results["illegal"]
    assert illegal.verdict == SubmissionResult.ILLEGAL
    assert isinstance(illegal.error, FirstMoveError)
    assert illegal.error.centre == "H8"

    wrong = results["draw"]
    assert wrong.verdict == SubmissionResult.NOT_IN_DRAW
    assert isinstance(wrong.error, LettersNotInDrawError)
    assert wrong.error.letters == "OO"
    assert wrong.error.draw == "AEINRTZ"

    typo = results["typo"]
    assert typo.verdict == SubmissionResult.UNREADABLE
    assert isinstance(typo.error, WordSyntaxError)

    late = results["late"]
    assert late.verdict == SubmissionResult.LATE
    assert isinstance(late.error, LateSubmissionError)
    assert late.error.seconds_late == pytest.approx(0.5)
    assert late.score == 0

    twice = results["twice"]
    assert twice.valid
    assert twice.score == 24
    assert twice.replaced == 1
    assert twice.move == "H7 NEZ"

    # the live close reuses the verdicts it judged to find the invalid words; a replay judges afresh
    def verdicts(found: dict[str, SubmissionResult]) -> dict[str, tuple[object, ...]]:
        return {p: (r.verdict, r.score, r.move, r.replaced, repr(r.error), r.placement) for p, r in found.items()}

    assert verdicts(_results(DuplicateGame.from_events(game.events))) == verdicts(results)


def test_a_move_previewed_is_judged_again_on_a_new_draw_and_a_new_board() -> None:
    """A preview's placement is kept for the close, never for another draw or another board."""
    game = _first_round(["A", "B"])
    assert game.preview("A", "H8 ZEN").valid
    assert game.preview("A", "H8 ZEN").score == 24
    game.reject_draw()
    game.draw_manual("AEIORST", at=1001.0)  # no Z, no N
    assert game.preview("A", "H8 ZEN").verdict == SubmissionResult.NOT_IN_DRAW
    game.submit("A", "H8 ZEN", at=1010)
    game.submit("B", "H8 OSA", at=1011)  # not a word of the list: only the close knows
    assert game.preview("B", "H8 OSA").valid
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert _results(game)["A"].verdict == SubmissionResult.NOT_IN_DRAW
    assert _results(game)["B"].verdict == SubmissionResult.NOT_A_WORD
    game.draw_manual(game.reliquat + "ENZAIRT"[: 7 - len(game.reliquat)], at=1100.0)
    again = game.preview("A", "H8 ZEN")  # the round's top covers H8 now
    assert again.verdict in (SubmissionResult.ILLEGAL, SubmissionResult.NOT_IN_DRAW), again


def test_a_late_submission_does_not_replace_one_in_time() -> None:
    game = _first_round(["A", "B"], minutes=1)
    game.submit("A", "H8 ZEN", at=1059)
    game.submit("A", "H6 ZEN", at=1061)  # after the one-minute deadline
    game.submit("B", "H8 ZEN", at=1030)
    game.submit("B", "A1 ZEN", at=1040)  # a later move in time replaces the earlier one
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = _results(game)
    assert results["A"].valid
    assert results["A"].move == "H8 ZEN"
    assert results["B"].verdict == SubmissionResult.ILLEGAL


def test_the_open_round_counts_each_player_who_answered_once() -> None:
    game = _first_round(["A", "B", "C"], minutes=1)
    round_ = game.current
    assert round_ is not None
    assert round_.answered == 0
    game.submit("A", "H8 ZEN", at=1010)
    game.submit("A", "H6 ZEN", at=1020)  # a replaced answer counts once
    assert round_.answered == 1
    game.submit("B", "H8 ZEN", at=1030)
    game.join("D")
    game.submit("D", "H8 ZEN", at=1040)
    assert round_.answered == 3
    assert round_.answered == len({s.player for s in round_.submissions})


def test_grace_seconds_and_untimed_submissions() -> None:
    game = _first_round(["A", "B"], minutes=1, grace_seconds=5)
    game.submit("A", "H8 ZEN", at=1064)
    game.submit("B", "H8 ZEN")  # no time given: never late
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert all(r.valid for r in _results(game).values())
    assert game.deadline(game.closed_rounds[0]) == 1065


def test_jokers_must_be_written_as_jokers() -> None:
    game = _first_round(["marked", "brackets", "unmarked", "two", "plain"], draw="AEINRT?")
    game.submit("marked", "H8 zEN")
    game.submit("brackets", "H8 (Z)EN")
    game.submit("unmarked", "H8 ZEN")
    game.submit("two", "H8 zEn")
    game.submit("plain", "H8 RATE")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = _results(game)
    assert results["marked"].score == 4
    assert results["brackets"].score == 4
    unmarked = results["unmarked"]
    assert unmarked.verdict == SubmissionResult.NOT_IN_DRAW
    assert isinstance(unmarked.error, JokerNotMarkedError)
    assert (unmarked.error.letters, unmarked.error.draw) == ("Z", "AEINRT?")
    two = results["two"]
    assert isinstance(two.error, NoJokerLeftError)
    assert two.error.letters == "N"
    assert results["plain"].score == 8


def test_joker_written_when_the_draw_has_none() -> None:
    game = _first_round(["A"])
    game.submit("A", "H8 ZeN")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    error = _results(game)["A"].error
    assert isinstance(error, NoJokerLeftError)
    assert "jokers written for E" in str(error)


def test_vertical_first_move_and_gcg_submissions() -> None:
    game = _first_round(["fisf", "gcg", "vertical"])
    game.submit("fisf", "H8 ZEN")
    game.submit("gcg", "8H ZEN", notation=Notation.GCG)
    game.submit("vertical", "8H ZEN")  # FISF: column 8 from row H, vertical
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    results = _results(game)
    assert [results[p].score for p in ("fisf", "gcg", "vertical")] == [24, 24, 24]
    top = game.closed_rounds[0].top
    assert top is not None
    assert top.ref.horizontal


def test_preview_judges_without_recording() -> None:
    game = _first_round(["A"])
    assert game.preview("A", "H8 ZEN").score == 24
    assert game.preview("A", "H8 ZANE", set(SMALL_WORDS)).verdict == SubmissionResult.NOT_A_WORD
    assert game.current is not None
    assert game.current.submissions == []


def test_second_round_checks_connection_against_the_top() -> None:
    game = _first_round(["A"])
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert game.board.rows()[7].strip(".") != ""
    game.draw_manual(f"{game.reliquat}+" + "".join(sorted("SEOIL"))[: 7 - len(game.reliquat)])
    game.submit("A", "A1 SI")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert isinstance(_results(game, 2)["A"].error, NotConnectedError)


# --- ties, solos, no play --------------------------------------------------------------------


def test_ties_are_recorded_with_the_rule_that_broke_them() -> None:
    game = _first_round(["A"])
    closed = game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})
    assert closed.top == "H6 NEZ"
    assert closed.tie_rule == "order"
    assert set(closed.tied) >= {"H6 ZEN", "H7 NEZ", "H8 ZEN", "H8 NEZ"}
    line = game.record()[0]
    assert line.tie_rule == "order"
    assert "H8 ZEN" in line.tied
    assert line.score == 24


def test_the_draws_since_a_close_can_be_made_again_after_another_top_of_the_same_tiles() -> None:
    game = _first_round(["A"])
    game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})  # NEZ placed, AIRT left
    made: list[DuplicateEvent] = [
        game.draw_manual("AIRT+EEL"),
        game.reject_draw(),
        game.draw_manual("AEEILRT", at=2000.0),
    ]
    assert game.draws_since_close() == made
    game.choose_top("H8 ZEN")
    assert game.current is None
    assert game.draws_since_close() == []
    assert game.draw_again(made) == made
    assert game.current is not None
    assert str(game.current.draw) == "AEEILRT"
    assert game.current.opened_at == 2000.0
    assert game.draws_since_close() == made


def test_draws_that_the_bag_no_longer_allows_are_not_made_again() -> None:
    game = _first_round(["A"])
    game.close_round(BruteTop(["ZEN", "NEZ"]), {"ZEN", "NEZ"})
    game.choose_top("H8 ZEN")
    events, board = list(game.events), game.board.rows()
    with pytest.raises(LetterNotInBagError):  # the only Z was played: ZZZ cannot be drawn
        game.draw_again([DrawMade("AIRT+EEL"), DrawRejected(), DrawMade("AEIOZZZ")])
    assert game.events == events
    assert game.board.rows() == board
    assert game.current is None
    with pytest.raises(TypeError):
        game.draw_again([MoveSubmitted("A", "H8 ZEN")])


def test_a_reopening_keeps_the_draws_shown_to_be_made_again_once_the_round_closes_again() -> None:
    game = _first_round(["A"])
    top = BruteTop(["ZEN", "NEZ"])
    game.close_round(top, {"ZEN", "NEZ"})
    shown = [game.draw_manual("AIRT+EEL", at=1000.0), game.reject_draw(), game.draw_manual("AEEILRT", at=1001.0)]
    assert game.draws_before_reopening() == []  # no reopening yet
    game.reopen(1010.0, 45)
    assert game.current is not None
    assert game.current.number == 1
    assert game.draws_before_reopening() == []  # not closed again yet
    game.close_round(top, {"ZEN", "NEZ"})
    assert game.draws_before_reopening() == shown
    again = game.draw_again(game.draws_before_reopening(), at=1060.0)
    assert [type(e) for e in again] == [type(e) for e in shown]
    assert game.current is not None
    assert str(game.current.draw) == "AEEILRT"
    assert game.current.opened_at == 1060.0
    assert game.deadline() == 1060.0 + game.settings.seconds
    assert game.draws_before_reopening() == []  # made again: nothing more to make
    replayed = DuplicateGame.from_events(game.events)
    assert str(replayed.current.draw if replayed.current else "") == "AEEILRT"
    game.reopen(1070.0, 30)  # reopened a second time: the draw made again is the one kept
    game.close_round(top, {"ZEN", "NEZ"})
    assert [getattr(e, "draw", "-") for e in game.draws_before_reopening()] == ["AIRT+EEL", "-", "AEEILRT"]


def test_movegen_tie_rule_is_recorded() -> None:
    game = _first_round(["A"])
    lexicon = Lexicon.from_words(["ZEN", "NEZ"])
    closed = game.close_round(movegen_top_finder(lexicon, FRENCH), lexicon)
    assert closed.top == "H6 NEZ"
    assert closed.tie_rule == "order"
    assert "H8 ZEN" in closed.tied


def test_tie_rule_given_by_the_finder_is_kept() -> None:
    game = _first_round(["A"], draw="EINRTZ?")
    plays = [
        FoundPlay(p, score_placement(p, FRENCH), p.jokers)
        for p in (validate_move(Board(), parse_move(m)) for m in ("H8 ZEN", "H8 ZeN"))
    ]
    closed = game.close_round(lambda board, rack: FoundTop(tuple(plays), TieRule.FEWEST_JOKERS), set())
    assert closed.top == "H8 ZEN"
    assert closed.tie_rule is TieRule.FEWEST_JOKERS
    assert closed.tied == ()


def test_solo_needs_enough_players_and_is_alone_on_the_top() -> None:
    settings: dict[str, Any] = {"solo_min_players": 3}
    game = _first_round(["A", "B", "C"], **settings)
    game.submit("A", "H8 ZEN")
    game.submit("B", "H8 ZE")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    round_ = game.closed_rounds[0]
    assert game.solo(round_) == "A"
    standings = {s.player: s for s in game.standings()}
    assert standings["A"].total == 34
    assert standings["A"].solos == 1
    assert standings["A"].gap == 10
    assert game.record()[0].solo == "A"
    assert game.record()[0].scores == (("A", 24), ("B", 0), ("C", 0))

    shared = _first_round(["A", "B", "C"], **settings)
    shared.submit("A", "H8 ZEN")
    shared.submit("B", "H6 ZEN")
    shared.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert shared.solo(shared.closed_rounds[0]) is None

    too_few = _first_round(["A", "B"], **settings)
    too_few.submit("A", "H8 ZEN")
    too_few.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert too_few.solo(too_few.closed_rounds[0]) is None


def test_solo_on_the_best_player_score_unless_the_top_is_required() -> None:
    for rule, expected in ((SoloRule.TOP, None), (SoloRule.BEST, "A")):
        game = _first_round(["A", "B"], solo_min_players=2, solo=rule, solo_bonus=5)
        game.submit("A", "H8 NE")
        game.submit("B", "A1 ZEN")
        game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
        assert game.solo(game.closed_rounds[0]) == expected


def test_no_play_possible_draws_again() -> None:
    # FISF 3.6: no play for the draw -> its letters go back to the bag and a different draw is made (this
    # test said the game ended; 3.7 ends it only when no different draw can be made:
    # tests/core/test_fisf_top_and_end.py)
    game = _first_round(["A"], draw="AEINRTZ")
    closed = game.close_round(BruteTop(["QI"]), {"QI"})
    assert closed.top is None
    assert not game.finished
    assert game.end_reason is None
    assert len(game.bag) == 102
    assert game.reliquat == ""
    assert game.record()[0].score == 0
    assert game.record()[0].ref == ""
    game.draw_manual("ABCDEFG")
    assert game.current is not None
    assert game.current.number == 2


# --- draws inside the game --------------------------------------------------------------------


def test_round_order_errors() -> None:
    game = DuplicateGame(FRENCH, ["A"])
    with pytest.raises(NoRoundOpenError):
        game.submit("A", "H8 ZEN")
    with pytest.raises(NoRoundOpenError):
        game.close_round(BruteTop(SMALL_WORDS), set())
    game.draw_manual("AEINRTZ")
    with pytest.raises(DrawPendingError, match="AEINRTZ is still open"):
        game.draw_manual("AEINRTS")
    with pytest.raises(UnknownPlayerError):
        game.submit("Z", "H8 ZEN")
    with pytest.raises(DuplicatePlayerError):
        game.join("A")
    game.submit("A", "H8 ZEN")
    with pytest.raises(SubmissionsMadeError):
        game.reject_draw()
    assert len(game.events) == 3


def test_manual_draw_breaking_the_rule_is_reported_and_can_be_rejected() -> None:
    game = DuplicateGame(FRENCH, ["A"])
    game.draw_manual("AEIOUEZ")
    round_ = game.current
    assert round_ is not None
    assert round_.shortfall == Shortfall("AEEIOUZ", 6, 1, 0, 2, 1)
    game.reject_draw()
    assert len(game.bag) == 102
    assert game.reliquat == ""
    game.draw_manual("AEINRTZ")
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert game.record()[0].rejected == ("-AEEIOUZ",)


def test_rejected_draw_gives_back_the_kept_letters() -> None:
    game = _first_round(["A"])
    game.close_round(ScriptedTop(["H8 ZEN"]), set())
    assert game.reliquat == "AIRT"
    game.draw_manual("AIRT+AEI")  # 5 vowels, 2 consonants
    game.reject_draw()
    assert game.reliquat == ""
    assert len(game.bag) == 99
    game.draw_manual("BCDEIOS")
    assert str(game.current.draw if game.current else "") == "BCDEIOS"


def test_automatic_draws_with_rejections_are_recorded() -> None:
    seen_rejection = False
    for seed in range(60):
        game = DuplicateGame(FRENCH, ["A"])
        events = game.draw(random.Random(seed))
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        assert DrawRule().is_met(round_.draw.letters, 1, FRENCH)
        if any(isinstance(e, DrawRejected) for e in events):
            seen_rejection = True
            assert round_.rejected
            assert all(str(d).startswith("-") for d in round_.rejected)
            assert round_.draw_record.startswith("-")
        assert Counter(game.bag.tiles) + Counter(round_.draw.letters) == Counter(FRENCH.bag())
    assert seen_rejection


def test_settings_are_checked() -> None:
    with pytest.raises(DuplicateSettingError, match="minutes = 11"):
        DuplicateSettings(minutes=11)
    with pytest.raises(DuplicateSettingError, match="minutes = 0"):
        DuplicateSettings(minutes=0)
    assert DuplicateSettings(minutes=0.05).seconds == pytest.approx(3.0)
    with pytest.raises(DuplicateSettingError, match="solo_min_players"):
        DuplicateSettings(solo_min_players=0)
    settings = DuplicateSettings(minutes=2, y=Counts.CONSONANT, notation=Notation.GCG)
    assert DuplicateSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    assert settings.draw_rule.y is Counts.CONSONANT


# --- whole games ------------------------------------------------------------------------------


def _replay_checks(game: DuplicateGame) -> None:
    """Every top re-scores identically on the replayed board; tiles are conserved; draws meet the rule."""
    board = Board()
    rule = game.settings.draw_rule
    for round_, line in zip(game.closed_rounds, game.record()):
        assert round_.draw is not None
        assert rule.is_met(round_.draw.letters, round_.number, game.edition)
        if round_.top is None:
            continue
        placement = validate_move(board, parse_move(f"{line.ref} {line.word}", game.notation), game.notation)
        assert score_placement(placement, game.edition).total == line.score == round_.top_points
        apply_placement(board, placement)
    assert board == game.board
    on_board = Counter("?" if t.joker else t.letter for _, _, t in board.tiles())
    assert on_board + Counter(game.bag.tiles) + Counter(game.reliquat) == Counter(game.edition.bag())


def _play_solo(game: DuplicateGame, seed: int, top_finder: object, lexicon: object, limit: int = 60) -> None:
    rng = random.Random(seed)
    while not game.finished and len(game.rounds) < limit:
        game.draw(rng, at=float(len(game.rounds)) * 200)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        game.close_round(top_finder, lexicon)  # type: ignore[arg-type]


def test_full_seeded_game_on_a_small_lexicon() -> None:
    finder = BruteTop(SMALL_WORDS)
    game = DuplicateGame(FRENCH, ["solo"], DuplicateSettings(solo_min_players=1), lexicon_name="small")
    _play_solo(game, 3, finder, set(SMALL_WORDS))
    assert game.finished
    assert len(game.closed_rounds) >= 10
    _replay_checks(game)
    cumulative = [line.cumulative for line in game.record()]
    assert cumulative == sorted(cumulative)
    assert cumulative[-1] == game.tops_total

    # the same game rebuilt from its events, through JSON, without word list or top finder
    data = json.loads(json.dumps([event_to_dict(e) for e in game.events]))
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.board == game.board
    assert again.record() == game.record()
    assert again.standings() == game.standings()
    assert again.end_reason == game.end_reason
    assert again.end_letters == game.end_letters
    assert again.lexicon_name == "small"
    assert again.settings == game.settings

    # same seed, same game
    other = DuplicateGame(FRENCH, ["solo"], DuplicateSettings(solo_min_players=1))
    _play_solo(other, 3, BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    assert other.record() == game.record()


def test_events_with_submissions_replay_to_the_same_results() -> None:
    game = _first_round(["A", "B"])
    game.submit("A", "H8 ZEN", claimed=24, at=1010)
    game.submit("B", "H8 ZANE", at=1020)
    game.close_round(BruteTop(SMALL_WORDS), set(SMALL_WORDS))
    game.record_score("B", 1, 12)
    data = [event_to_dict(e) for e in game.events]
    kinds = [d["kind"] for d in data]
    assert kinds == ["start", "draw", "submit", "submit", "close", "score"]
    again = DuplicateGame.from_events(event_from_dict(d) for d in data)
    assert again.standings() == game.standings()
    assert _results(again)["B"].verdict == SubmissionResult.NOT_A_WORD
    assert isinstance(again.events[1], DrawMade)
    assert isinstance(again.events[2], MoveSubmitted)
    assert isinstance(again.events[4], RoundClosed)


def test_a_failed_event_leaves_the_game_unchanged() -> None:
    game = _first_round(["A"])
    before = (len(game.events), str(game.bag), game.reliquat)
    with pytest.raises(LettersNotInDrawError):
        game.apply(RoundClosed("H8 ZOO"))  # a top that the draw cannot give
    assert (len(game.events), str(game.bag), game.reliquat) == before
    assert game.current is not None
    assert not game.current.closed
    assert game.board.is_empty()


# --- with the real move generator ---------------------------------------------------------------


def test_movegen_top_finder_matches_the_brute_force_on_a_small_lexicon() -> None:
    lexicon = Lexicon.from_words(SMALL_WORDS, name="small")
    settings = DuplicateSettings()
    fast = movegen_top_finder(lexicon, FRENCH, settings)
    slow = BruteTop(SMALL_WORDS)
    game = DuplicateGame(FRENCH, ["A"], settings)
    rng = random.Random(11)
    for _ in range(6):
        if game.finished:
            break
        game.draw(rng)
        round_ = game.current
        assert round_ is not None
        assert round_.draw is not None
        expected = slow(game.board, round_.draw.letters)
        closed = game.close_round(fast, lexicon)
        best = expected.plays[0].score.total if expected.plays else 0
        assert game.closed_rounds[-1].top_points == best
        assert (closed.top is None) == (not expected.plays)
    _replay_checks(game)


FR_LIST = ROOT / "lexicons" / "fr.txt.gz"


@pytest.mark.skipif(not FR_LIST.exists(), reason="lexicons/fr.txt.gz is not built")
def test_full_game_with_movegen_on_the_french_list() -> None:
    # the bundled French list as the shared registry compiled it (compiling it here from lexicons/fr.txt.gz
    # took 20 of the test's 21 s)
    lexicon = ready_registry().get("fr")
    settings = DuplicateSettings()
    game = DuplicateGame(FRENCH, ["solo"], settings, lexicon_name="fr")
    _play_solo(game, 1, movegen_top_finder(lexicon, FRENCH, settings), lexicon)
    assert game.finished
    assert game.tops_total > 500
    first = game.closed_rounds[0].top
    assert first is not None
    assert first.ref.horizontal
    _replay_checks(game)


def test_every_public_name_of_the_duplicate_package_is_importable_from_it() -> None:
    import importlib

    import core.duplicate as package

    for job in ("clock", "events", "game", "judging", "ranking", "record", "replay", "rounds", "settings", "tops"):
        module = importlib.import_module(f"core.duplicate.{job}")
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__:
                assert getattr(package, name) is value, f"core.duplicate.{job}.{name}"
                assert name in package.__all__
