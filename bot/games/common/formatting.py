"""Text pieces shared by the classic and duplicate commands: score breakdowns, tiles, sheet lines, claimed scores."""

from __future__ import annotations

from collections import Counter

from core.alphabet import LATIN, Alphabet
from core.game import LineKind, Removal, SheetLine
from core.scoring import MoveScore

from ...messages import join_notes, say
from ...numbers import read_int


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


def line_text(line: SheetLine, lang: str) -> str:
    """A sheet line's move column in the channel's language."""
    if line.kind is LineKind.PLAY:
        return line.move
    if line.kind is LineKind.EXCHANGE:
        return say(lang, "line_exchange", tiles=line.tiles).strip()
    if line.kind is LineKind.END:
        return say(lang, "line_went_out" if line.went_out else "line_rack_left")
    return say(lang, f"line_{line.kind}")


def line_cells(line: SheetLine, lang: str, alphabet: Alphabet = LATIN) -> list[object]:
    """A sheet line's move, points, running total and notes: the columns the sheet and /moves share."""
    return [line_text(line, lang), line.points, line.total, line_notes(line, lang, alphabet)]


def line_notes(line: SheetLine, lang: str, alphabet: Alphabet = LATIN) -> str:
    """A sheet line's notes: the score claimed, the words a challenge found invalid (in the alphabet's labels)."""
    notes = []
    if line.claimed is not None:
        notes.append(say(lang, "note_claimed", claimed=line.claimed))
    if line.removal is Removal.CHALLENGE:
        words = ", ".join(map(alphabet.spell, line.invalid))
        notes.append(say(lang, "note_challenged", words=words, count=len(line.invalid)))
    elif line.removal is Removal.WITHDRAWN:
        notes.append(say(lang, "note_withdrawn"))
    elif line.challenged_by is not None:
        notes.append(say(lang, "note_challenge_stood", challenger=line.challenged_by))
    return join_notes(lang, notes)
