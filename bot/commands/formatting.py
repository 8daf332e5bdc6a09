"""Text pieces shared by the classic and duplicate commands: score breakdowns, tiles, claimed scores."""

from __future__ import annotations

from collections import Counter

from core.alphabet import LATIN, Alphabet
from core.scoring import MoveScore

from ..messages import say
from ..numbers import read_int


def breakdown(score: MoveScore, lang: str) -> str:
    """Each word's arithmetic, the bonus, and the sum when there is more than one term."""
    lines = [f"{word.word} {word.breakdown}" for word in score.words]
    if score.bonus:
        lines.append(say(lang, "bonus_line", bonus=score.bonus))
    if len(score.words) > 1 or score.bonus:
        lines.append(f"= {score.sum_line}")
    return "\n".join(lines)


def tiles_text(tiles: Counter[str], alphabet: Alphabet = LATIN) -> str:
    """``?x2 Ax6 B ...``: each tile (its label, in the alphabet's order, the joker first) with its count."""
    if alphabet.plain:
        return " ".join(f"{tile}{'x' + str(n) if n > 1 else ''}" for tile, n in sorted(tiles.items()))
    ordered = sorted(tiles.items(), key=lambda item: -1 if item[0] not in alphabet else alphabet.sort_key(item[0]))
    return " ".join(f"{alphabet.label(tile)}{'x' + str(n) if n > 1 else ''}" for tile, n in ordered)


def split_claimed(args: str) -> tuple[str, int | None]:
    """``H8 VAGUE 26`` -> (``H8 VAGUE``, 26); a last word that is not a plain number stays in the move."""
    words = args.split()
    if len(words) >= 3:
        claimed = read_int(words[-1])
        if claimed is not None and claimed >= 0:
            return " ".join(words[:-1]), claimed
    return args, None
