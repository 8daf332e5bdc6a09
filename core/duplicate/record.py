"""The game record (feuille de match): one line per closed move, and the same as plain data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Protocol

from ..draw import Bag
from ..edition import Edition
from ..notation import Notation, format_ref
from ..tie import TieRule
from .ranking import DuplicateStanding
from .rounds import Round
from .sanctions import Fault, Sanctions
from .settings import DuplicateSettings


class RecordedGame(Protocol):
    """What the record reads of a game (``DuplicateGame``)."""

    @property
    def edition(self) -> Edition: ...

    @property
    def lexicon_name(self) -> str: ...

    @property
    def notation(self) -> Notation: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def closed_rounds(self) -> Sequence[Round]: ...

    @property
    def tops_total(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    @property
    def end_reason(self) -> StrEnum | None: ...

    @property
    def bag(self) -> Bag: ...

    @property
    def reliquat(self) -> str: ...

    @property
    def settings(self) -> DuplicateSettings: ...

    def solo(self, round_: Round) -> str | None: ...

    def standings(self) -> Sequence[DuplicateStanding]: ...


@dataclass(frozen=True)
class RecordLine:
    """One line of the game record."""

    number: int
    draw: str
    rejected: tuple[str, ...]
    ref: str
    word: str
    score: int
    cumulative: int
    scores: tuple[tuple[str, int], ...]
    solo: str | None = None
    tie_rule: TieRule = TieRule.NONE
    tied: tuple[str, ...] = ()
    corrections: tuple[tuple[str, str], ...] = ()  # (player, reason) of the referee's corrections
    faults: tuple[tuple[str, Fault], ...] = ()  # (player, fault) of the answers sanctioned (FISF scale)
    lifted: tuple[tuple[str, str], ...] = ()  # (player, reason) of the sanctions the referee lifted

    def __str__(self) -> str:
        return f"{self.number} {self.draw} {self.ref} {self.word} {self.score} {self.cumulative}"

    def to_dict(self) -> dict[str, Any]:
        """A plain dict, ready for JSON."""
        return {
            "n": self.number,
            "draw": self.draw,
            "rejected": list(self.rejected),
            "ref": self.ref,
            "word": self.word,
            "score": self.score,
            "cumulative": self.cumulative,
            "scores": dict(self.scores),
            "solo": self.solo,
            "tie_rule": self.tie_rule,
            "tied": list(self.tied),
            "corrections": dict(self.corrections),
            **({"faults": {p: [f.value, f.grade.value, f.section] for p, f in self.faults}} if self.faults else {}),
            **({"lifted": dict(self.lifted)} if self.lifted else {}),
        }


def record_lines(game: RecordedGame) -> list[RecordLine]:
    """One line per closed move: draw, top, score, cumulative, every player's score."""
    lines: list[RecordLine] = []
    cumulative = 0
    for round_ in game.closed_rounds:
        cumulative += round_.top_points
        ref = format_ref(round_.top.ref, game.notation) if round_.top is not None else ""
        lines.append(
            RecordLine(
                number=round_.number,
                draw=round_.draw.spelled(game.edition) if round_.draw else "",
                rejected=tuple(d.spelled(game.edition) for d in round_.rejected),
                ref=ref,
                word=round_.top_word,
                score=round_.top_points,
                cumulative=cumulative,
                scores=tuple((p, round_.score_of(p)) for p in game.players),
                solo=game.solo(round_),
                tie_rule=round_.tie_rule,
                tied=round_.tied,
                corrections=tuple(sorted(round_.corrections.items())),
                faults=tuple((p, f) for p in game.players if (f := round_.grade_of(p)) and f is not Fault.CLEAN),
                lifted=tuple(sorted(round_.lifted.items())),
            )
        )
    return lines


def record_data(game: RecordedGame) -> dict[str, Any]:
    """The record and standings as plain data, ready for JSON."""
    sanctioned = game.settings.sanctions is not Sanctions.NONE
    return {
        "edition": game.edition.code,
        "lexicon": game.lexicon_name,
        "players": list(game.players),
        "moves": [line.to_dict() for line in record_lines(game)],
        "total": game.tops_total,
        "finished": game.finished,
        "end_reason": game.end_reason.value if game.end_reason is not None else "",
        "left": game.edition.spell_tiles(game.bag.unseen(game.reliquat)),
        "standings": [_standing_data(s, sanctioned) for s in game.standings()],
        **({"sanctions": str(game.settings.sanctions)} if sanctioned else {}),
        **({"format": str(game.settings.format)} if game.settings.format.original else {}),
    }


def _standing_data(standing: DuplicateStanding, sanctioned: bool) -> dict[str, Any]:
    """A standing as plain data (its warnings only in a game with sanctions)."""
    data = asdict(standing)
    if not sanctioned:
        del data["warnings"], data["deduction"]
    return data
