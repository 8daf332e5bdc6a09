"""Text fitted to a width: cut with an ellipsis (``fit``) or broken between words onto a few lines (``wrap``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.canvas import fit, text_width, wrap

SIZE = 16
WORDS = st.lists(st.text(alphabet="abcdeéfghijklmnopqrstuvwxyzÀ§.;:()0123456789", min_size=1, max_size=14), max_size=40)


@settings(max_examples=200, deadline=None)
@given(words=WORDS, width=st.integers(min_value=40, max_value=600), lines=st.integers(min_value=1, max_value=4))
def test_wrapped_lines_fit_and_keep_every_word_that_fits(words: list[str], width: int, lines: int) -> None:
    text = " ".join(words)
    wrapped = wrap(text, SIZE, width, lines)
    assert len(wrapped) <= lines
    assert all(text_width(line, SIZE) <= width for line in wrapped), wrapped
    shown = " ".join(wrapped).split()
    if not any("…" in line for line in wrapped):  # nothing left out: every word, in order, nothing added
        assert shown == text.split()
    else:  # the text's beginning, its last word shown maybe cut, and the ellipsis only at the very end
        assert wrapped[-1].endswith("…")
        assert "…" not in " ".join(wrapped)[:-1]
        kept = " ".join(wrapped)[:-1].split()
        whole = text.split()
        assert kept[:-1] == whole[: len(kept) - 1]
        assert not kept or whole[len(kept) - 1].startswith(kept[-1])


def test_a_sanction_and_its_rule_go_on_to_a_second_line_instead_of_being_cut() -> None:
    note = "ce coup ne touche aucune lettre déjà posée; zéro et un avertissement (règlement FISF, § 5.4.1.c)"
    width = 450
    assert fit(note, SIZE, width).endswith("…")  # one line cannot hold it
    wrapped = wrap(note, SIZE, width, 3)
    assert len(wrapped) == 2
    assert " ".join(wrapped) == note
    assert wrapped[-1].endswith("§ 5.4.1.c)")


def test_a_note_longer_than_its_lines_ends_with_an_ellipsis() -> None:
    note = " ".join(["avertissement"] * 60)
    wrapped = wrap(note, SIZE, 300, 3)
    assert len(wrapped) == 3
    assert wrapped[-1].endswith("…")
    assert all(text_width(line, SIZE) <= 300 for line in wrapped)


def test_a_word_wider_than_the_line_is_cut() -> None:
    assert wrap("anticonstitutionnellement", SIZE, 60, 2) == [fit("anticonstitutionnellement", SIZE, 60)]


def test_a_section_sign_stays_with_its_number() -> None:
    note = "zéro et un avertissement selon le règlement, §  5.4.1.c"
    for width in range(120, 460, 7):
        lines = wrap(note, SIZE, width, 4)
        assert not any(line.endswith("§") for line in lines), (width, lines)
        assert " ".join(lines) == " ".join(note.split()) or lines[-1].endswith("…")
