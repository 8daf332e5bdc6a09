"""Numbers typed in chat (bot/numbers.py): a decimal comma and a decimal point read alike (issue 20, item 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.numbers import (
    NotANumberError,
    NotAWholeNumberError,
    looks_like_number,
    parse_decimal,
    parse_whole,
    read_decimal,
    read_int,
    split_words,
)


@pytest.mark.parametrize(
    ("typed", "value"),
    [("1,5", 1.5), ("1.5", 1.5), ("0,5", 0.5), ("0.05", 0.05), (",5", 0.5), ("45", 45.0), ("-2,25", -2.25)],
)
def test_a_decimal_reads_with_a_comma_or_a_point(typed: str, value: float) -> None:
    assert parse_decimal(typed) == value


@pytest.mark.parametrize("typed", ["", "abc", "1,", "1.5.2", "1,5,2", "²", "٣", "1e3", "9" * 5000, "1,2345"])
def test_what_is_not_a_decimal_is_refused(typed: str) -> None:
    with pytest.raises(NotANumberError):
        parse_decimal(typed)
    assert read_decimal(typed) is None


@pytest.mark.parametrize("typed", ["1,5", "1.5", "2,0", "abc", "²", "9" * 10])
def test_a_whole_number_refuses_a_decimal_as_such(typed: str) -> None:
    with pytest.raises(NotAWholeNumberError):
        parse_whole(typed)
    assert read_int(typed) is None


@pytest.mark.parametrize(("typed", "value"), [("12", 12), ("+12", 12), ("-3", -3), (" 7 ", 7)])
def test_whole_numbers(typed: str, value: int) -> None:
    assert parse_whole(typed) == value


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ("1,5 manuel", ["1,5", "manuel"]),
        ("0,5", ["0,5"]),
        ("Ana,Ben", ["Ana", "Ben"]),
        ("Ana, Ben 1, 5", ["Ana", "Ben", "1", "5"]),
        ("  a  b ", ["a", "b"]),
    ],
)
def test_a_comma_between_digits_is_a_decimal_mark_not_a_separator(args: str, words: list[str]) -> None:
    assert split_words(args) == words


@pytest.mark.parametrize(("typed", "meant"), [("1,5", True), ("1.5", True), ("²", True), ("H8", False), ("a,b", False)])
def test_what_looks_like_a_number(typed: str, meant: bool) -> None:
    assert looks_like_number(typed) is meant


@given(
    st.integers(min_value=0, max_value=999_999),
    st.integers(min_value=0, max_value=999),
    st.sampled_from(["", "+", "-"]),
)
def test_comma_and_point_give_the_same_number_and_the_number_written(whole: int, fraction: int, sign: str) -> None:
    digits = f"{fraction:03d}".rstrip("0") or "0"
    point, comma = f"{sign}{whole}.{digits}", f"{sign}{whole},{digits}"
    assert parse_decimal(point) == parse_decimal(comma) == float(point)
    assert split_words(f"{comma} manuel") == [comma, "manuel"]
    with pytest.raises(NotAWholeNumberError):
        parse_whole(comma)
    assert parse_whole(f"{sign}{whole}") == int(f"{sign}{whole}")


@given(st.text(max_size=12))
def test_any_text_is_a_number_or_refused_never_an_exception_of_another_kind(text: str) -> None:
    for parse in (parse_decimal, parse_whole):
        try:
            value = parse(text)
        except (NotANumberError, NotAWholeNumberError):
            continue
        assert isinstance(value, (int, float))
        assert abs(value) < 1e9
