"""The links to each room's live web page (``bot.web``): a token per room and game, revocable, written
once for both SQL backends."""

from __future__ import annotations

from .records import ViewRecord
from .sql_store import Row, SQLRunner

_VIEW_COLUMNS = "token, channel, game, created, revoked"


def view_of(row: Row) -> ViewRecord:
    """A ``ViewRecord`` from a row of ``_VIEW_COLUMNS``."""
    token, channel, game, created, revoked = row
    return ViewRecord(str(token), str(channel), int(game), float(created), None if revoked is None else float(revoked))


class SQLViews(SQLRunner):
    """Each room's web page links."""

    def create_view(self, token: str, channel: str, game: int, at: float) -> ViewRecord:
        """A new link to the room's page showing ``game``."""
        with self._one_write():
            self._execute(
                "insert into views (token, channel, game, created) values (?, ?, ?, ?)", [token, channel, game, at]
            )
        return ViewRecord(token, channel, game, at)

    def view_by_token(self, token: str) -> ViewRecord | None:
        """The link of ``token`` if it exists and is not revoked."""
        rows = self._execute(f"select {_VIEW_COLUMNS} from views where token = ? and revoked is null", [token])
        return view_of(rows[0]) if rows else None

    def channel_views(self, channel: str) -> list[ViewRecord]:
        """The channel's links not revoked, oldest first."""
        rows = self._execute(
            f"select {_VIEW_COLUMNS} from views where channel = ? and revoked is null order by created, token",
            [channel],
        )
        return [view_of(row) for row in rows]

    def revoke_views(self, channel: str, at: float) -> list[str]:
        """Revoke every link of the channel; the tokens revoked."""
        with self._one_write():
            rows = self._execute(
                "update views set revoked = ? where channel = ? and revoked is null returning token", [at, channel]
            )
        return sorted(str(row[0]) for row in rows)
