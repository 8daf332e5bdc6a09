"""The channel's games, running and finished: which one a view shows, and the /games list.

Games are numbered in their channel from 1, oldest first. Views (/sheet,
/board, /unseen, /export, /standings) show the running game, else the last
one (saying it is over), or game N of /games.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...commands.context import Context, UserError
from ...commands.registry import Section, command
from ...numbers import looks_like_number, read_int
from ...storage import GameRecord, GameStatus
from ...timefmt import date_time
from ..kinds import kind_of
from .paging import page_window

LIST_LIMIT = 20


@dataclass(frozen=True)
class TargetGame:
    """A game a view is about: its record, its number in the channel, and whether it still runs."""

    record: GameRecord
    number: int

    @property
    def running(self) -> bool:
        return self.record.status is GameStatus.ACTIVE


def target_game(ctx: Context, words: list[str] | None = None) -> TargetGame:
    """Game N of the channel (``words``, by default the arguments: N or nothing), else the running game,
    else the last one; a word that is not a game number is refused (``/export abc`` is not the last game)."""
    games = ctx.storage.games(ctx.message.channel)
    words = ctx.tokens if words is None else words
    number = read_int(words[0]) if words else None
    if number is None and words and looks_like_number(words[0]):
        raise UserError("bad_number", text=words[0][:20])
    unread = words[1:] if number is not None else words
    if unread:
        raise UserError("not_a_game_number", text=unread[0][:20], usage=ctx.spec.usage(ctx.lang))
    if number is not None:
        if not 1 <= number <= len(games):
            raise UserError("no_such_game", number=number, count=len(games))
        target = TargetGame(games[number - 1], number)
    else:
        running = [n for n, g in enumerate(games, 1) if g.status is GameStatus.ACTIVE]
        index = running[-1] if running else len(games)
        if index == 0:
            raise UserError("no_game")
        target = TargetGame(games[index - 1], index)
    return target


def heading(ctx: Context, target: TargetGame) -> str:
    """A line naming a game that is not the running one ("" for the running game)."""
    if target.running:
        return ""
    return ctx.say(
        "game_heading",
        number=target.number,
        kind=ctx.say(f"kind_{target.record.kind}"),
        date=date_time(target.record.created, ctx.settings.zone),
        status=ctx.say(f"status_{target.record.status}"),
    )


def with_heading(ctx: Context, target: TargetGame, text: str) -> str:
    head = heading(ctx, target)
    return f"{head}\n{text}" if head else text


def result_summary(ctx: Context, record: GameRecord) -> tuple[str, str]:
    """(players, result) of a game for the list, as its kind says."""
    return kind_of(record.kind).summary(ctx, ctx.services.games.load(ctx.storage, record))


@command("games", section=Section.VIEWS, rank=10, read_only=True)
def cmd_games(ctx: Context) -> None:
    games = ctx.storage.games(ctx.message.channel)
    if not games:
        raise UserError("no_games")
    lines = [ctx.say("games_title", count=len(games))]
    window, paged = page_window(ctx, "games", len(games), LIST_LIMIT, last=True)  # the latest games first
    for number, record in enumerate(games[window], (window.start or 0) + 1):
        players, result = result_summary(ctx, record)
        lines.append(
            ctx.say(
                "games_line",
                number=number,
                date=date_time(record.created, ctx.settings.zone),
                kind=ctx.say(f"kind_{record.kind}"),
                status=ctx.say(f"status_{record.status}"),
                players=players,
                result=result,
            )
        )
    lines += [paged, ctx.say("games_hint")] if paged else [ctx.say("games_hint")]
    ctx.reply("\n".join(lines), actions=ctx.offered)
