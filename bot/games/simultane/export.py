"""A simultané's files for the federation (``/simultane export [CODE] sigles``, the organiser's room): one
ZIP archive holding each room's results file (SIGLES, ``core.duplicate.results_file``), as ``/export sigles``
gives it in that room, the room's own table numbers, with each player's total across every room (solos
counted over all the rooms' players, as the overall ranking counts them), and ``centres.csv``: each centre's
code (``/simultane centre``), name, file, players and the rounds it played. A file is named after its
centre's code and name. The reply lists, room by room, the players the referee gave no table (the file
gives them the first free numbers).

The files are given once nothing more can change: every room's game over (together; a room that stopped
early waits for the others), or the window ended and every room that started it finished.

In a room of a simultané, ``/export sigles`` gives the room's own file (its own solos): ``room_note`` says
when its totals differ from the simultané's, and why.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile

from core.cells import inert
from core.duplicate import DuplicateGame
from core.duplicate.ranking import DuplicateStanding
from core.duplicate.results_file import sigles_file, without_table

from ...commands.context import Context, UserError
from ...messages import say
from ...simultanes.names import say_counted
from ...storage import GameRecord, GameStatus, SimultaneRecord
from ..common.renamed import renamed_note
from ..duplicate.games import game_of
from .ranking import overall_of

UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")  # what a file name inside the archive keeps of a room's label


def file_name(label: str, taken: set[str] | None = None, centre: str = "") -> str:
    """A room's file in the archive: its centre's code first when it has one, then its label made safe,
    accents dropped (``Club de Sète`` -> ``Club_de_Sete-sigles.txt``, ``0421-Club_de_Sete-sigles.txt``),
    numbered when another room's file already has that name."""
    plain = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode("ascii")
    stem = UNSAFE.sub("_", plain).strip("_.") or "room"
    if centre:
        stem = f"{centre}-{stem}"
    name, count = f"{stem}-sigles.txt", 1
    while taken is not None and name in taken:
        count += 1
        name = f"{stem}-{count}-sigles.txt"
    return name


def federation_files(ctx: Context, record: SimultaneRecord) -> None:
    """Reply with the archive of every room's SIGLES file and the list of centres; refused outside the
    organiser's room, or while a room still plays."""
    if ctx.message.channel != record.channel:
        raise UserError("simultane_sigles_organiser", code=record.code)
    rooms = [r for r in ctx.storage.simultane_rooms(record.id) if r.game is not None and r.admitted]
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
    centres = io.StringIO()
    writer = csv.writer(centres, lineterminator="\n")
    writer.writerow(["centre", "name", "file", "players", "rounds"])
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for room in rooms:
            game_record = games[room.channel]
            if game_record.status is GameStatus.ABANDONED:
                continue
            game = game_of(ctx.services, game_record)
            mine = [s for s in overall.standings if s.channel == room.channel]
            standings = [DuplicateStanding(s.place, s.name, s.total, s.gap, s.percent) for s in mine]
            label = labels.get(room.channel, "")
            name = file_name(label, taken, room.centre)
            taken.add(name)
            numbers = game.table_numbers()
            written = sigles_file(standings, numbers)
            archive.writestr(_entry(name), written.data)
            renamed += written.renamed
            writer.writerow([inert(room.centre), inert(label), name, len(mine), len(game.closed_rounds)])
            line = say_counted(ctx.lang, "simultane_sigles_item", name=name, room=label, players=len(mine))
            if len(game.closed_rounds) < overall.rounds:
                line += f" ({say(ctx.lang, 'simultane_stopped', n=len(game.closed_rounds))})"
            missing = without_table(game.players, game.tables)
            if missing:
                numbered = ", ".join(f"{p} ({numbers[p]})" for p in missing)
                line += "\n  " + say(ctx.lang, "simultane_sigles_no_table", players=numbered)
            listed.append(line)
        archive.writestr(_entry("centres.csv"), centres.getvalue().encode("utf-8"))
    text = say_counted(ctx.lang, "simultane_sigles", code=record.code, rounds=overall.rounds, files="\n".join(listed))
    text += renamed_note(ctx.lang, renamed)
    ctx.reply(text, document=out.getvalue(), document_name=f"simultane-{record.code}-sigles.zip")


def _entry(name: str) -> zipfile.ZipInfo:
    return zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes for the same results


def room_note(ctx: Context, record: GameRecord, game: DuplicateGame) -> str | None:
    """What a simultané room's own results file says of the simultané's totals: which players' differ (the
    simultané counts solos over every room's players), or that they may once its ranking is visible;
    None for a game of the room's own."""
    if not record.setup.simultane:
        return None
    simultane = ctx.storage.simultane(record.setup.simultane)
    if simultane is None:
        return None
    overall = overall_of(ctx.services, simultane, ctx.services.now())
    if overall.rounds == 0:
        return say(ctx.lang, "simultane_room_file_hidden", code=simultane.code)
    across = {s.name: s.total for s in overall.standings if s.channel == record.channel}
    own = {s.player: s.total for s in game.standings()}
    differ = [f"{name} {own[name]} / {across[name]}" for name in own if name in across and across[name] != own[name]]
    if not differ:
        return None
    return say(ctx.lang, "simultane_room_file_differs", code=simultane.code, players=", ".join(differ))
