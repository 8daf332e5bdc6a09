"""An answer graded on the FISF scale (section 5): the slip faults that cost a warning instead of a zero
(uncircled or misplaced joker circle, inverted reference orientation, wrong score), the misplaced answer
paid its claimed score less 5 points, and the zeros, each with its clause.

Decisions on points the rule book leaves to a paper slip:

- A chat answer need not carry a score: an absent score is not a warning (the referee computes it);
  a claimed score that differs from the exact one is (5.3.2).
- A reference whose orientation is inverted is rescued only when the written reading does not place
  the word with the draw's letters (ILLEGAL, letter error) and the other reading does (5.3, 5.5); a
  written reading that places the word but forms a word not in the list stays a zero (5.7).
- Among several acceptable readings (joker circles, orientation), the claimed score is paid if one of
  them gives it, else the smallest (5.3.2, 5.5); one warning at most (5.8).
- A misplaced answer (5.6) is looked for only when a score was claimed: the word, as written and in the
  orientation written, at every other square; any such place scoring the claim with a cross-word not in
  the list makes it fallacious (a zero, 5.3.3).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from ..board import SIZE, Board
from ..edition import JOKER, Edition
from ..errors import ArbitreError
from ..notation import Move, Notation, Ref, TypedLetter, format_move, notation_by_name, parse_move
from ..placement import Placement, validate_move
from ..scoring import score_placement
from .events import MoveSubmitted
from .judging import check_draw_letters, evaluate_submission
from .rounds import SubmissionResult
from .sanctions import PENALTY_POINTS, Fault, Sanctions

_ZERO_FAULTS = {
    SubmissionResult.LATE: Fault.LATE,
    SubmissionResult.UNREADABLE: Fault.UNREADABLE,
    SubmissionResult.ILLEGAL: Fault.GRID_ERROR,
    SubmissionResult.NOT_IN_DRAW: Fault.LETTER_ERROR,
    SubmissionResult.NOT_A_WORD: Fault.NOT_A_WORD,
}
_RESCUED = (SubmissionResult.ILLEGAL, SubmissionResult.NOT_IN_DRAW)
CENTRE = (SIZE // 2, SIZE // 2)  # the star square the first move covers


@dataclasses.dataclass(frozen=True)
class _Answer:
    """What grading needs of one answer: the round's board and draw, the word list, the game's rules."""

    board: Board
    draw: str
    submission: MoveSubmitted
    is_word: Callable[[str], bool]
    edition: Edition
    notation: Notation

    @property
    def move_notation(self) -> Notation:
        return notation_by_name(self.submission.notation) if self.submission.notation else self.notation

    def judge(self, move: Move) -> SubmissionResult:
        """Another reading of the answer, judged in full (its words looked up)."""
        text = format_move(move, self.move_notation)
        variant = dataclasses.replace(self.submission, move=text)
        result = evaluate_submission(self.board, self.draw, variant, self.is_word, self.edition, self.notation)
        return dataclasses.replace(result, move=self.submission.move)


def grade_submission(
    board: Board,
    draw: str,
    submission: MoveSubmitted,
    is_word: Callable[[str], bool],
    edition: Edition,
    notation: Notation,
    sanctions: Sanctions,
    late_by: float | None = None,
    placed: SubmissionResult | None = None,
    same: dict[tuple[str, int | None, str | None], SubmissionResult] | None = None,
) -> SubmissionResult:
    """A submitted move judged (``evaluate_submission``) and, on the FISF scale, graded: its fault, the
    score it is paid and the points a penalty took off. ``same``: the answers in time graded so far on
    this board and draw, by move, claimed score and notation (another player's same answer is not graded
    again)."""
    result = evaluate_submission(board, draw, submission, is_word, edition, notation, late_by, placed)
    if sanctions is Sanctions.NONE:
        return result
    key = (submission.move, submission.claimed, submission.notation)
    known = same.get(key) if same is not None and result.verdict != SubmissionResult.LATE else None
    if known is not None:
        return dataclasses.replace(known, player=submission.player)
    graded = _graded(board, draw, submission, is_word, edition, notation, result)
    if same is not None and result.verdict != SubmissionResult.LATE:
        same[key] = graded
    return graded


def reads_on(
    board: Board, draw: str, move: str, claimed: int | None, edition: Edition, notation: Notation
) -> SubmissionResult:
    """How an answer reads on a board and a draw (a closed round's, to know whether an answer was meant for
    it), its words taken as valid: as written, or with a slip fault the FISF scale forgives (a joker's
    circle, the reference's orientation: 5.3, 5.5; a misplaced word whose score was claimed, 5.6). On the
    first move, not any place of the word (5.4.2.a forgives the reference there, but a word placed anywhere
    says nothing of the draw it was meant for)."""
    submission = MoveSubmitted("", move.strip(), claimed)
    if not board.is_empty():
        return grade_submission(board, draw, submission, lambda _: True, edition, notation, Sanctions.FISF)
    written = evaluate_submission(board, draw, submission, lambda _: True, edition, notation)
    if written.valid or written.verdict not in _RESCUED:
        return written
    answer = _Answer(board, draw, submission, lambda _: True, edition, notation)
    rescued = _rescue(answer, parse_move(submission.move, notation, alphabet=edition.alphabet), written)
    return rescued if rescued is not None else written


def _graded(
    board: Board,
    draw: str,
    submission: MoveSubmitted,
    is_word: Callable[[str], bool],
    edition: Edition,
    notation: Notation,
    result: SubmissionResult,
) -> SubmissionResult:
    """The judged answer graded on the FISF scale."""
    answer = _Answer(board, draw, submission, is_word, edition, notation)
    if result.verdict in (SubmissionResult.LATE, SubmissionResult.UNREADABLE):
        return dataclasses.replace(result, fault=_ZERO_FAULTS[result.verdict])
    move = parse_move(submission.move, answer.move_notation, alphabet=edition.alphabet)
    if board.is_empty():
        first = _first_move(answer, move, result)
        return first if first is not None else dataclasses.replace(result, fault=_ZERO_FAULTS[result.verdict])
    if result.valid:
        wrong = submission.claimed is not None and submission.claimed != result.score
        return dataclasses.replace(result, fault=Fault.WRONG_SCORE if wrong else Fault.CLEAN)
    if result.verdict in _RESCUED:
        rescued = _rescue(answer, move, result)
        if rescued is not None:
            return rescued
        misplaced = _misplaced(answer, move)
        if misplaced is not None:
            return misplaced
    return dataclasses.replace(result, fault=_ZERO_FAULTS[result.verdict])


def _paid(answer: _Answer, readings: list[tuple[SubmissionResult, Fault]]) -> SubmissionResult:
    """Of acceptable readings, the one whose score was claimed, else the one paying least (5.3.2)."""
    claimed = answer.submission.claimed
    matching = [r for r in readings if r[0].score == claimed]
    result, fault = matching[0] if matching else min(readings, key=lambda r: r[0].score)
    return dataclasses.replace(result, fault=fault)


def _rescue(answer: _Answer, move: Move, written: SubmissionResult) -> SubmissionResult | None:
    """An answer the written reading does not place, read with other joker circles or the other
    orientation (a warning, 5.5), when one of those readings is acceptable."""
    readings: list[tuple[SubmissionResult, Fault]] = []
    marked = any(t.joker for t in move.letters)
    circle_fault = Fault.WRONG_CIRCLE if marked else Fault.UNCIRCLED_JOKER
    if written.verdict == SubmissionResult.NOT_IN_DRAW and written.placement is not None:
        readings += [(r, circle_fault) for r in _circled(answer, move, written.placement)]
    turned = dataclasses.replace(move, ref=Ref(move.ref.row, move.ref.col, not move.ref.horizontal))
    result = answer.judge(turned)
    if result.valid:
        readings.append((result, Fault.REVERSED_REF))
    elif result.verdict == SubmissionResult.NOT_IN_DRAW and result.placement is not None:
        readings += [(r, Fault.REVERSED_REF) for r in _circled(answer, turned, result.placement)]
    return _paid(answer, readings) if readings else None


def _circled(answer: _Answer, move: Move, placement: Placement) -> list[SubmissionResult]:
    """The acceptable readings of ``move`` with the joker circling each letter the draw lacks (5.3.2)."""
    return [r for r in (answer.judge(m) for m in _circlings(answer.draw, move, placement)) if r.valid]


def _circlings(draw: str, move: Move, placement: Placement) -> Iterator[Move]:
    """``move`` with its circles put on letters the draw lacks, each way the draw's jokers allow."""
    cells = placement.main_word.cells
    if len(cells) != len(move.letters):
        return
    have = Counter(draw)
    needed = Counter(c.letter for c in placement.new_tiles) - Counter({k: v for k, v in have.items() if k != JOKER})
    if not needed:  # circles where the draw holds every letter: the reading without them
        if any(t.joker for t in move.letters):
            yield dataclasses.replace(move, letters=tuple(TypedLetter(t.letter) for t in move.letters))
        return
    if sum(needed.values()) > have[JOKER]:
        return
    options = []
    for letter, count in sorted(needed.items()):
        spots = [i for i, c in enumerate(cells) if c.new and c.letter == letter]
        options.append(list(itertools.combinations(spots, count)))
    for choice in itertools.product(*options):
        jokers = {i for group in choice for i in group}
        letters = tuple(
            TypedLetter(t.letter, joker=i in jokers) if cells[i].new else t for i, t in enumerate(move.letters)
        )
        yield dataclasses.replace(move, letters=letters)


def _fits(answer: _Answer, move: Move, horizontal: bool) -> Iterator[tuple[Move, Placement]]:
    """Every place the word fits on the board in one orientation (the draw not yet checked)."""
    length = len(move.letters)
    squares: Iterable[tuple[int, int]] = itertools.product(range(SIZE), range(SIZE))
    if answer.board.is_empty():  # the first move covers the centre: its row, or its column
        squares = ((CENTRE[0], c) if horizontal else (c, CENTRE[1]) for c in range(SIZE))
    for row, col in squares:
        if not _may_fit(answer.board, move, Ref(row, col, horizontal), length):
            continue
        candidate = dataclasses.replace(move, ref=Ref(row, col, horizontal))
        try:
            yield candidate, validate_move(answer.board, candidate, Notation.FISF, rack_size=answer.edition.rack_size)
        except (ArbitreError, ValueError):
            continue


def _may_fit(board: Board, move: Move, ref: Ref, length: int) -> bool:
    """Whether the word could be placed from ``ref``, as far as a look at its squares tells: on the board,
    the letters already there matching, a square left to fill, touching a tile (the centre on the first
    move). ``validate_move`` decides."""
    squares = ref.squares(length)
    if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in squares):
        return False
    tiles = [board.get(r, c) for r, c in squares]
    if all(t is not None for t in tiles):
        return False
    for tile, typed in zip(tiles, move.letters, strict=True):
        if tile is not None and typed.letter is not None and tile.letter != typed.letter:
            return False
    if board.is_empty():
        return CENTRE in squares
    near = ((r + dr, c + dc) for r, c in squares for dr, dc in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)))
    return any(board.get(r, c) is not None for r, c in near)


def _score(answer: _Answer, placement: Placement) -> int | None:
    """The placement's score when the draw holds its tiles, else None."""
    try:
        check_draw_letters(placement, answer.draw, placement.notation())
    except ArbitreError:
        return None
    return score_placement(placement, answer.edition).total


def _placements(answer: _Answer, move: Move, horizontal: bool) -> Iterator[tuple[Placement, int]]:
    """Every place the word fits with the draw's letters in one orientation, and its score."""
    for _, placement in _fits(answer, move, horizontal):
        score = _score(answer, placement)
        if score is not None:
            yield placement, score


def _misplaced(answer: _Answer, move: Move) -> SubmissionResult | None:
    """The claimed score found for the word elsewhere in the orientation written: paid less 5 points
    (5.6; a zero at 4 points or less), a zero when such a place forms a word not in the list (5.3.3)."""
    claimed = answer.submission.claimed
    if claimed is None:
        return None
    places = [p for p, score in _placements(answer, move, move.ref.horizontal) if score == claimed]
    if not places:
        return None
    base = SubmissionResult(answer.submission.player, answer.submission.move, SubmissionResult.VALID, 0)
    base = dataclasses.replace(base, claimed=claimed)
    if any(not answer.is_word(w.text) for p in places for w in p.words):
        return dataclasses.replace(base, verdict=SubmissionResult.NOT_A_WORD, fault=Fault.FALLACIOUS)
    if claimed <= PENALTY_POINTS - 1:
        return dataclasses.replace(base, verdict=SubmissionResult.ILLEGAL, fault=Fault.MISPLACED_TO_ZERO)
    score = score_placement(places[0], answer.edition)
    paid = claimed - PENALTY_POINTS
    return dataclasses.replace(
        base, score=paid, penalty=PENALTY_POINTS, placement=places[0], move_score=score, fault=Fault.MISPLACED
    )


def _first_move(answer: _Answer, move: Move, written: SubmissionResult) -> SubmissionResult | None:
    """The first move (5.4.2.a): the word's best score at any place on the board, whatever the reference
    and the joker circles; a warning when the claimed score or the circles do not give that best."""

    def valid(placement: Placement) -> bool:
        return all(answer.is_word(w.text) for w in placement.words)

    as_written: list[tuple[Placement, int]] = []
    readings: list[tuple[Placement, int]] = []
    for candidate, placement in _fits(answer, move, True):
        score = _score(answer, placement)
        if score is not None and valid(placement):
            as_written.append((placement, score))
        for circled in _circlings(answer.draw, candidate, placement):
            circled_placement = validate_move(answer.board, circled, Notation.FISF, rack_size=answer.edition.rack_size)
            circled_score = _score(answer, circled_placement)
            if circled_score is not None and valid(circled_placement):
                readings.append((circled_placement, circled_score))
    readings += as_written
    if not readings:
        return None
    best = max(score for _, score in readings)
    tops = [placement for placement, score in readings if score == best]
    placement = next((p for p in tops if p.ref == move.ref), tops[0])  # where written, when that pays the best
    claimed = answer.submission.claimed
    fault = Fault.CLEAN
    if max((s for _, s in as_written), default=-1) != best:
        fault = Fault.WRONG_CIRCLE if any(t.joker for t in move.letters) else Fault.UNCIRCLED_JOKER
    elif claimed is not None and claimed != best:
        fault = Fault.FIRST_MOVE
    return dataclasses.replace(
        written,
        verdict=SubmissionResult.VALID,
        score=best,
        error=None,
        placement=placement,
        move_score=score_placement(placement, answer.edition),
        fault=fault,
        relocated=placement.ref != move.ref,
    )
