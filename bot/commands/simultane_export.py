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
import unicodedata
import zipfile

from core.duplicate.ranking import DuplicateStanding
from core.duplicate.results_file import sigles_file

from ..simultane_names import say_counted
from ..storage import GameStatus, SimultaneRecord
from .context import Context, UserError
from .duplicate_games import game_of
from .renamed import renamed_note
from .simultane_ranking import overall_of

UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")  # what a file name inside the archive keeps of a room's label


def file_name(label: str, taken: set[str] | None = None) -> str:
    """A room's file in the archive: its label made safe, accents dropped (``Club de Sète`` ->
    ``Club_de_Sete-sigles.txt``), numbered when another room's file already has that name."""
    plain = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode("ascii")
    stem = UNSAFE.sub("_", plain).strip("_.") or "room"
    name, count = f"{stem}-sigles.txt", 1
    while taken is not None and name in taken:
        count += 1
        name = f"{stem}-{count}-sigles.txt"
    return name


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
    labels = overall.labels(ctx.lang)
    out = io.BytesIO()
    listed: list[str] = []
    renamed: list[tuple[str, str]] = []
    taken: set[str] = set()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for channel, game_record in games.items():
            if game_record.status is GameStatus.ABANDONED:
                continue
            game = game_of(ctx.services, game_record)
            mine = [s for s in overall.standings if s.channel == channel]
            standings = [DuplicateStanding(s.place, s.name, s.total, s.gap, s.percent) for s in mine]
            room = labels.get(channel, "")
            name = file_name(room, taken)
            taken.add(name)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes for the same results
            written = sigles_file(standings, game.table_numbers())
            archive.writestr(info, written.data)
            renamed += written.renamed
            listed.append(say_counted(ctx.lang, "simultane_sigles_item", name=name, room=room, players=len(mine)))
    text = say_counted(ctx.lang, "simultane_sigles", code=record.code, rounds=overall.rounds, files="\n".join(listed))
    text += renamed_note(ctx.lang, renamed)
    ctx.reply(text, document=out.getvalue(), document_name=f"simultane-{record.code}-sigles.zip")
