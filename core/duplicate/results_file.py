"""The results file clubs send to the federation's results software (SIGLES): one line per table,
``"TABLE","NAME","TOTAL"``, tables 1 to the highest one, an empty table written ``"N","--table vide--","-1"``,
in Latin-1 (the format Eliot's report ``extras/reports/sigles.py`` writes). A name is written as Latin-1
holds it and inert for a spreadsheet (``core.cells``); the file says which names it wrote otherwise. Also
the table numbers: the arbiter's, the other players taking the lowest free ones in the order they joined."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cells import inert, latin1
from ..errors_duplicate import TableNumberError, TableTakenError
from ..game import player_key
from .ranking import DuplicateStanding

MAX_TABLE = 9999
EMPTY_TABLE = "--table vide--"
EMPTY_TOTAL = -1
ENCODING = "latin-1"


def assign_table(tables: dict[str, int], player: str, table: int) -> None:
    """Give ``player`` the table (its earlier one freed); raises for a number out of range or taken."""
    if not 1 <= table <= MAX_TABLE:
        raise TableNumberError(table, MAX_TABLE)
    holder = next((p for p, t in tables.items() if t == table and player_key(p) != player_key(player)), None)
    if holder is not None:
        raise TableTakenError(table, holder)
    tables[player] = table


def seat_name(players: Sequence[str], name: str) -> str:
    """A player's name as the game writes it, or the name as given for one who does not play yet."""
    return next((p for p in players if player_key(p) == player_key(name)), name)


def without_table(players: Sequence[str], assigned: Mapping[str, int]) -> list[str]:
    """The players the arbiter gave no table (the results file numbers them itself), in joining order."""
    given = {player_key(name) for name in assigned}
    return [p for p in players if player_key(p) not in given]


def table_numbers(players: Sequence[str], assigned: Mapping[str, int]) -> dict[str, int]:
    """Every player's table: the one assigned (to their name, also before they joined), else the lowest
    number nobody has nor holds reserved, in joining order."""
    by_key = {player_key(name): table for name, table in assigned.items()}
    numbers = {p: by_key[player_key(p)] for p in players if player_key(p) in by_key}
    taken = set(assigned.values())
    free = 1
    for player in players:
        if player in numbers:
            continue
        while free in taken:
            free += 1
        numbers[player] = free
        taken.add(free)
    return numbers


def _field_text(text: str) -> str:
    """What a field holds of ``text``: a double quote becomes a single one (the format has no escape), a
    line end a space."""
    return text.replace('"', "'").replace("\r", " ").replace("\n", " ")


def _field(value: object) -> str:
    """A quoted field."""
    return '"' + _field_text(str(value)) + '"'


def written_name(name: str) -> str:
    """A player's name as the file's field holds it: in Latin-1 (``core.cells.latin1``: ``Œdipe`` ->
    ``OEdipe``), inert (``=1+1`` -> ``'=1+1``), a double quote as a single one, a line end as a space."""
    return _field_text(inert(latin1(name)))


@dataclass(frozen=True)
class SiglesFile:
    """The results file: its lines (no line ends) and each name written otherwise than the game has it,
    as (the game's name, the file's) in table order."""

    lines: tuple[str, ...]
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def data(self) -> bytes:
        """The file's bytes (``sigles_bytes``)."""
        return sigles_bytes(self.lines)


def sigles_file(
    standings: Sequence[DuplicateStanding], tables: Mapping[str, int], empty_tables: bool = True
) -> SiglesFile:
    """The file: each table from 1 to the highest, its player and final total (solos in, warning deductions
    out); an unoccupied table as empty unless ``empty_tables`` is off; the names it wrote otherwise."""
    by_table = {tables[s.player]: s for s in standings if s.player in tables}
    lines: list[str] = []
    renamed: list[tuple[str, str]] = []
    for number in range(1, max(by_table, default=0) + 1):
        standing = by_table.get(number)
        if standing is not None:
            name = written_name(standing.player)
            if name != standing.player:
                renamed.append((standing.player, name))
            lines.append(",".join((_field(number), _field(name), _field(standing.total))))
        elif empty_tables:
            lines.append(",".join((_field(number), _field(EMPTY_TABLE), _field(EMPTY_TOTAL))))
    return SiglesFile(tuple(lines), tuple(renamed))


def sigles_lines(
    standings: Sequence[DuplicateStanding], tables: Mapping[str, int], empty_tables: bool = True
) -> list[str]:
    """The file's lines (no line ends), as ``sigles_file`` writes them."""
    return list(sigles_file(standings, tables, empty_tables).lines)


def sigles_bytes(lines: Sequence[str]) -> bytes:
    """The lines as the file holds them: ``\\n`` after each, Latin-1 (the lines ``sigles_file`` writes hold
    nothing else; in other lines, a character it lacks becomes ``?``)."""
    return "".join(line + "\n" for line in lines).encode(ENCODING, errors="replace")
