"""The duplicate formats of the FISF rule book (section 3.8) as records: what each draws and places, its
bonuses, jokers and clock, and its section. Light on purpose (no engine): the command line lists them from
here; ``core.duplicate.formats`` plays them."""

from __future__ import annotations

from dataclasses import dataclass

SEVEN_BONUS, EIGHT_BONUS = 50, 75  # 3.8.2


@dataclass(frozen=True)
class FormatSpec:
    """What a format is, in one record: its draw beyond the edition's rack (``extra_drawn`` tiles drawn,
    ``extra_placed`` of them placeable, ``extra_bonus``: the bonus for placing them all, when more than the
    rack may be placed), its jokers, whether it is timed, and the rule book's section that defines it."""

    name: str
    section: str
    extra_drawn: int = 0
    extra_placed: int = 0
    extra_bonus: int = 0
    joker_each_draw: bool = False  # every draw holds a joker (3.8.1)
    replaces_joker: bool = False  # a joker the top places is replaced by its letter from the bag (3.8.1)
    timed: bool = False  # players are ranked by the time they take to find the tops (3.8.4)


FORMATS = (
    FormatSpec("classic", "1.2.3"),
    FormatSpec("joker", "3.8.1", joker_each_draw=True, replaces_joker=True),
    FormatSpec("seven-of-eight", "3.8.2", extra_drawn=1),
    FormatSpec("seven-and-eight", "3.8.2", extra_drawn=1, extra_placed=1, extra_bonus=EIGHT_BONUS),
    FormatSpec("topping", "3.8.4", timed=True),
)


def format_names() -> list[str]:
    """Every format's name, ``classic`` first."""
    return [spec.name for spec in FORMATS]
