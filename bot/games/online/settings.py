"""A dealt game's settings and game clock, as a classic game's: ``/settings clock 25`` (``/reglages pendule 25``),
``/settings clock stopwatch``, a challenge option, chosen by the game's referee before the first move; the
referee's /pause and /resume. The clock's tick is ``clock.timed_decision``; the overtime owed is taken at the end
(``core.online.DealtGame.overtime``). A game by correspondence has its own clock (hours a move): no game clock."""

from __future__ import annotations

from core.errors_classic import SettingValueError
from core.events import ClockPause, ClockResume, Setting
from core.online_events import DealtEvent

from ...commands.context import Context, UserError
from ...commands.registry import command_named, handles
from ...storage import GameKind
from ..classic import commands as classic
from ..classic.settings import game_setting_named, setting_value, settings_line, value_said
from .turns import load, store, sync_clock


@handles("settings", GameKind.ONLINE)
def online_settings(ctx: Context) -> None:
    """/settings: a setting of the running dealt game when its first word names one, else the channel's."""
    words = ctx.args.split()
    name = game_setting_named(words[0]) if words else None
    if name is None:
        command_named("settings").handler(ctx)
        return
    record, game = load(ctx)
    ctx.require_control(record)
    value = setting_value(name, words[1:])
    if not value:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if name == "clock" and game.pace is not None:
        raise UserError("online_clock_by_correspondence")
    event: DealtEvent = Setting(name, value)
    try:
        game.apply(event, ctx.services.now())
    except SettingValueError:  # said with the words typed (in the answer's language) and the setting's examples
        raise UserError(f"game_setting_bad_{name}", value=value_said(ctx.lang, words[1:])[:20]) from None
    store(ctx, record, game, [event])
    sync_clock(ctx.storage, record, game, ctx.services.now())
    ctx.reply(settings_line(ctx.lang, game.classic))


def _pause_or_resume(ctx: Context, pausing: bool) -> None:
    record, game = load(ctx)
    ctx.require_control(record)
    event: DealtEvent = ClockPause() if pausing else ClockResume()
    game.apply(event, ctx.services.now())
    store(ctx, record, game, [event])
    sync_clock(ctx.storage, record, game, ctx.services.now())
    said = ctx.say("clock_paused_now") if pausing else ctx.say("clock_resumed_now", player=game.to_move or "-")
    classic.reply_status(ctx, game.classic, [said])


@handles("pause", GameKind.ONLINE)
def online_pause(ctx: Context) -> None:
    _pause_or_resume(ctx, pausing=True)


@handles("resume", GameKind.ONLINE)
def online_resume(ctx: Context) -> None:
    _pause_or_resume(ctx, pausing=False)
