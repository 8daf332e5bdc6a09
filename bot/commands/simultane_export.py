"""A simultané's files for the federation (``/simultane export [CODE] sigles``, the organiser's room): one
ZIP archive holding each room's results file (SIGLES, ``core.duplicate.results_file``), as ``/export sigles``
gives it in that room, the room's own table numbers, with each player's total across every room (solos
counted over all the rooms' players, as the overall ranking counts them).

The files are given once nothing more can change: every room's game over (together), or the window ended
and every room that started it finished.
"""

from __future__ import annotations

import io
import re
import zipfile

from core.duplicate.ranking import DuplicateStanding
from core.duplicate.results_file import sigles_bytes, sigles_lines

from ..storage import GameStatus, SimultaneRecord
from .context import Context, UserError
from .duplicate_games import game_of
from .simultane_ranking import overall_of

UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")  # what a file name inside the archive keeps of a channel's id


def file_name(channel: str) -> str:
    """A room's file in the archive: its channel id made safe (``discord:111`` -> ``discord_111``)."""
    return f"{UNSAFE.sub('_', channel).strip('_') or 'room'}-sigles.txt"


def federation_files(ctx: Context, record: SimultaneRecord) -> None:
    """Reply with the archive of every room's SIGLES file; refused outside the organiser's room, or while
    a room still plays."""
    if ctx.message.channel != record.channel:
        raise UserError("simultane_sigles_organiser", code=record.code)
    rooms = [r for r in ctx.storage.simultane_rooms(record.id) if r.game is not None]
    games = {room.channel: ctx.storage.game(room.game) for room in rooms if room.game is not None}
    if not games or any(g.status is GameStatus.ACTIVE for g in games.values()):
        raise UserError("simultane_sigles_running", code=record.code)
    overall = overall_of(ctx.services, record, ctx.services.now())
    if overall.rounds == 0:
        raise UserError("simultane_sigles_running", code=record.code)
    out = io.BytesIO()
    listed: list[str] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for channel, game_record in games.items():
            if game_record.status is GameStatus.ABANDONED:
                continue
            game = game_of(ctx.services, game_record)
            mine = [s for s in overall.standings if s.channel == channel]
            standings = [DuplicateStanding(s.place, s.name, s.total, s.gap, s.percent) for s in mine]
            name = file_name(channel)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes for the same results
            archive.writestr(info, sigles_bytes(sigles_lines(standings, game.table_numbers())))
            listed.append(ctx.say("simultane_sigles_item", name=name, room=channel, players=len(mine)))
    text = ctx.say("simultane_sigles", code=record.code, rounds=overall.rounds, files="\n".join(listed))
    ctx.reply(text, document=out.getvalue(), document_name=f"simultane-{record.code}-sigles.zip")
