"""The series of each channel (tournaments of games with one cumulative ranking) and the games each one
holds, written once for both SQL backends."""

from __future__ import annotations

import time

from .records import SeriesRecord, SeriesStatus
from .sql_store import Row, SQLRunner

_SERIES_COLUMNS = "id, channel, name, status, created"


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
                " select ?, ?, coalesce(max(position), 0) + 1 from series_games where series = ?"
                " on conflict (series, game) do nothing returning game",
                [series_id, game_id, series_id],
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
