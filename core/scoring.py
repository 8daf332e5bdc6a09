"""Scoring a placement, with the arithmetic written the way referees write it."""

from __future__ import annotations

from dataclasses import dataclass

from .board import LETTER_MULTIPLIERS, SIZE, WORD_MULTIPLIERS
from .edition import Edition
from .placement import Placement, Word


@dataclass(frozen=True)
class WordScore:
    """One word's score and its arithmetic, e.g. ``VAGUE (4x2+1+2+1+1)x2 = 26``; the word written in labels."""

    word: str
    score: int
    breakdown: str

    def __str__(self) -> str:
        return f"{self.word} {self.breakdown}"


@dataclass(frozen=True)
class MoveScore:
    """Every word's score, the bingo bonus and the total of a move."""

    words: tuple[WordScore, ...]
    bonus: int
    total: int

    @property
    def bingo(self) -> bool:
        return self.bonus > 0

    @property
    def sum_line(self) -> str:
        """``25 + 21 + 50 = 96``, or just ``26`` for a single word without bonus."""
        parts = [str(w.score) for w in self.words] + ([str(self.bonus)] if self.bonus else [])
        return " + ".join(parts) + f" = {self.total}" if len(parts) > 1 else str(self.total)

    def __str__(self) -> str:
        lines = [str(w) for w in self.words]
        if self.bonus:
            lines.append(f"bonus {self.bonus}")
        if len(self.words) > 1 or self.bonus:
            lines.append(self.sum_line)
        return "\n".join(lines)


def score_word(word: Word, edition: Edition) -> WordScore:
    """Letter premiums on new tiles, then the word premiums of new tiles multiplied together."""
    terms: list[str] = []
    total = 0
    multiplier = 1
    for cell in word.cells:
        value = 0 if cell.joker else edition.values[cell.letter]
        if cell.new:
            square = cell.row * SIZE + cell.col
            letter_multiplier = LETTER_MULTIPLIERS[square]
            multiplier *= WORD_MULTIPLIERS[square]
        else:
            letter_multiplier = 1
        total += value * letter_multiplier
        terms.append(f"{value}x{letter_multiplier}" if letter_multiplier > 1 else str(value))
    score = total * multiplier
    sum_text = "+".join(terms)
    arithmetic = f"({sum_text})x{multiplier}" if multiplier > 1 else sum_text
    return WordScore(edition.spell(word.text), score, f"{arithmetic} = {score}")


def score_placement(placement: Placement, edition: Edition) -> MoveScore:
    """The score of a legal placement: its words plus the bonus for the tiles placed (the whole rack; 7 or
    8 tiles in the 7/8 formats)."""
    words = tuple(score_word(w, edition) for w in placement.words)
    bonus = edition.bonus_for(len(placement.new_tiles))
    return MoveScore(words, bonus, sum(w.score for w in words) + bonus)
