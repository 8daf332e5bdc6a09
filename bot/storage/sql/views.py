"""The links to each room's live web page (``bot.web``): a token per room, revocable, written once for both
SQL backends. A room's link follows the room from game to game (``room_game``): the game it was given for is
kept, the page shows the room's running game, else its last one."""

from __future__ import annotations

from ..records import GameRecord, GameStatus, ViewRecord
from .store import GAME_COLUMNS, Row, SQLRunner, game_of

_VIEW_COLUMNS = "token, channel, game, created, revoked"
_SIMULTANE_VIEW_COLUMNS = "token, channel, simultane, created, revoked"


def view_of(row: Row) -> ViewRecord:
    """A ``ViewRecord`` from a row of ``_VIEW_COLUMNS``."""
    token, channel, game, created, revoked = row
    return ViewRecord(str(token), str(channel), int(game), float(created), None if revoked is None else float(revoked))


def simultane_view_of(row: Row) -> ViewRecord:
    """A simultané page's ``ViewRecord`` (``game`` 0) from a row of ``_SIMULTANE_VIEW_COLUMNS``."""
    token, channel, simultane, created, revoked = row
    gone = None if revoked is None else float(revoked)
    return ViewRecord(str(token), str(channel), 0, float(created), gone, simultane=int(simultane))


class SQLViews(SQLRunner):
    """Each room's web page links."""

    def create_view(self, token: str, channel: str, game: int, at: float) -> ViewRecord:
        """A new link to the room's page, given while it showed ``game``."""
        with self._one_write():
            self._execute(
                "insert into views (token, channel, game, created) values (?, ?, ?, ?)", [token, channel, game, at]
            )
        return ViewRecord(token, channel, game, at)

    def view_by_token(self, token: str) -> ViewRecord | None:
        """The link of ``token`` if it exists and is not revoked."""
        rows = self._execute(f"select {_VIEW_COLUMNS} from views where token = ? and revoked is null", [token])
        if rows:
            return view_of(rows[0])
        rows = self._execute(
            f"select {_SIMULTANE_VIEW_COLUMNS} from simultane_views where token = ? and revoked is null", [token]
        )
        return simultane_view_of(rows[0]) if rows else None

    def channel_views(self, channel: str) -> list[ViewRecord]:
        """The channel's links not revoked, oldest first."""
        rows = self._execute(
            f"select {_VIEW_COLUMNS} from views where channel = ? and revoked is null order by created, token",
            [channel],
        )
        return [view_of(row) for row in rows]

    def room_game(self, channel: str) -> GameRecord | None:
        """The game a room's page shows: its running game, else its last one (None: the room has none)."""
        rows = self._execute(
            f"select {GAME_COLUMNS} from games where channel = ? order by (status = ?) desc, id desc limit 1",
            [channel, GameStatus.ACTIVE.value],
        )
        return game_of(rows[0]) if rows else None

    def revoke_views(self, channel: str, at: float) -> list[str]:
        """Revoke every link of the channel (its simultanés' pages too); the tokens revoked."""
        with self._one_write():
            rows = [
                row
                for table in ("views", "simultane_views")
                for row in self._execute(
                    f"update {table} set revoked = ? where channel = ? and revoked is null returning token",
                    [at, channel],
                )
            ]
        return sorted(str(row[0]) for row in rows)

    def create_simultane_view(self, token: str, channel: str, simultane: int, at: float) -> ViewRecord:
        """A new link, given in the organiser's room ``channel``, to the page of ``simultane``'s overall ranking."""
        with self._one_write():
            self._execute(
                "insert into simultane_views (token, channel, simultane, created) values (?, ?, ?, ?)",
                [token, channel, simultane, at],
            )
        return ViewRecord(token, channel, 0, at, simultane=simultane)

    def simultane_views(self, channel: str) -> list[ViewRecord]:
        """The channel's links to its simultanés' ranking pages not revoked, oldest first."""
        rows = self._execute(
            f"select {_SIMULTANE_VIEW_COLUMNS} from simultane_views where channel = ? and revoked is null"
            " order by created, token",
            [channel],
        )
        return [simultane_view_of(row) for row in rows]
