"""The series of each channel (tournaments of games with one cumulative ranking) and the games and
simultanés each one holds, written once for both SQL backends. A series' games and simultanés share one
order (``position``, counted over both tables)."""

from __future__ import annotations

import time

from ..records import SeriesEntry, SeriesRecord, SeriesStatus
from .store import Row, SQLRunner

_SERIES_COLUMNS = "id, channel, name, status, created"
# the next position in a series (parameters: the series twice), after its games and its simultanés
# (an insert's select takes a where before ``on conflict``: SQLite would read ``on`` as a join's)
_NEXT_POSITION = (
    "select coalesce(max(position), 0) + 1 from (select position from series_games where series = ?"
    " union all select position from series_simultanes where series = ?) as entries"
)


def series_of(row: Row) -> SeriesRecord:
    """A ``SeriesRecord`` from a row of ``_SERIES_COLUMNS``."""
    series_id, channel, name, status, created = row
    return SeriesRecord(int(series_id), str(channel), str(name), SeriesStatus(status), float(created))


class SQLSeries(SQLRunner):
    """Each channel's series and their games."""

    def create_series(self, channel: str, name: str) -> SeriesRecord:
        """A new open series of ``channel`` (the name is unique in the channel: the caller checks first)."""
        with self._one_write():
            rows = self._execute(
                f"insert into series (channel, name, status, created) values (?, ?, ?, ?) returning {_SERIES_COLUMNS}",
                [channel, name, SeriesStatus.OPEN.value, time.time()],
            )
        return series_of(rows[0])

    def channel_series(self, channel: str) -> list[SeriesRecord]:
        """The channel's series, oldest first."""
        rows = self._execute(f"select {_SERIES_COLUMNS} from series where channel = ? order by id", [channel])
        return [series_of(row) for row in rows]

    def set_series_status(self, series_id: int, status: SeriesStatus) -> None:
        with self._one_write():
            self._execute("update series set status = ? where id = ?", [SeriesStatus(status).value, series_id])

    def add_series_game(self, series_id: int, game_id: int) -> bool:
        """Put a game in a series, after its others; whether it was not in it already."""
        with self._one_write():
            rows = self._execute(
                "insert into series_games (series, game, position)"
                f" select ?, ?, ({_NEXT_POSITION}) where true on conflict (series, game) do nothing returning game",
                [series_id, game_id, series_id, series_id],
            )
        return bool(rows)

    def remove_series_game(self, series_id: int, game_id: int) -> bool:
        """Take a game out of a series; whether it was in it."""
        with self._one_write():
            rows = self._execute(
                "delete from series_games where series = ? and game = ? returning game", [series_id, game_id]
            )
        return bool(rows)

    def series_games(self, series_id: int) -> list[int]:
        """The games of a series, in the order they were added."""
        rows = self._execute("select game from series_games where series = ? order by position, game", [series_id])
        return [int(row[0]) for row in rows]

    def add_series_simultane(self, series_id: int, simultane_id: int) -> bool:
        """Put a simultané in a series, after its other entries; whether it was not in it already."""
        with self._one_write():
            rows = self._execute(
                "insert into series_simultanes (series, simultane, position)"
                f" select ?, ?, ({_NEXT_POSITION}) where true"
                " on conflict (series, simultane) do nothing returning simultane",
                [series_id, simultane_id, series_id, series_id],
            )
        return bool(rows)

    def remove_series_simultane(self, series_id: int, simultane_id: int) -> bool:
        """Take a simultané out of a series; whether it was in it."""
        with self._one_write():
            rows = self._execute(
                "delete from series_simultanes where series = ? and simultane = ? returning simultane",
                [series_id, simultane_id],
            )
        return bool(rows)

    def series_entries(self, series_id: int) -> list[SeriesEntry]:
        """The games and simultanés of a series, in the order they were added."""
        rows = self._execute(
            "select game, 0, position from series_games where series = ?"
            " union all select 0, simultane, position from series_simultanes where series = ?"
            " order by 3, 1, 2",
            [series_id, series_id],
        )
        return [SeriesEntry(int(game) or None, int(simultane) or None) for game, simultane, _ in rows]
