"""A classic game's settings and clock commands: the game's settings typed with /settings (challenge
options, the clock), the referee's /pause and /resume, and what the clock tick does when a player's time
or a move's stopwatch runs out (``ClassicKind.clock``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.classic_clock import ClockDue, ClockReading
from core.errors import ArbitreError
from core.errors_classic import SettingValueError
from core.events import ClockPause, ClockResume, End, Event, Flagged, Pass, Setting, event_to_dict
from core.game import ClassicGame
from core.game_options import SETTING_NAMES
from core.rules import ClockMode

from ...chat import Reply
from ...commands.context import Context, UserError
from ...commands.registry import handles
from ...messages import keyword_form, keywords, say
from ...storage import Deadline, GameKind, GameRecord, GameStatus
from .clock import CLOCK_ROUND, countdown, minutes_seconds, overtime_lines, overtime_penalties, sync_clock
from .commands import STAMP_KEY, load_classic, record_event, reply_status, standings_text_in, status_lines_in

if TYPE_CHECKING:
    from ...commands.services import Services

CLOCK_AUTHOR = "clock"
VALUE_KEYWORDS = ("keywords_stopwatch", "keywords_on", "keywords_off")  # the words of a setting's value


# --- the referee's /pause and /resume ---------------------------------------------------------


def _pause_or_resume(ctx: Context, pausing: bool) -> None:
    record, game = load_classic(ctx)
    ctx.require_control(record)
    record_event(ctx, record, game, ClockPause() if pausing else ClockResume())
    said = ctx.say("clock_paused_now") if pausing else ctx.say("clock_resumed_now", player=game.to_move or "-")
    reply_status(ctx, game, [said])


@handles("pause", GameKind.CLASSIC)
def classic_pause(ctx: Context) -> None:
    _pause_or_resume(ctx, pausing=True)


@handles("resume", GameKind.CLASSIC)
def classic_resume(ctx: Context) -> None:
    _pause_or_resume(ctx, pausing=False)


# --- the game's settings, through /settings ----------------------------------------------------


def game_setting_named(word: str) -> str | None:
    """The game setting a typed word names in any language (``penalite``, ``pendule``...)."""
    typed = keyword_form(word)
    for name in SETTING_NAMES:
        if typed == name or typed in keywords(f"game_setting_words_{name}"):
            return name
    return None


def setting_value(name: str, words: list[str]) -> str:
    """The canonical value of a setting as typed (``oui`` -> ``on``, ``pendule 25`` or ``pendule oui 25`` ->
    ``chess:25``, ``pendule chrono 90`` -> ``stopwatch:90``); what cannot be read is passed on, refused by the
    game."""
    typed = [keyword_form(w) for w in words]
    if name == "clock":
        if typed and typed[0] in keywords("keywords_stopwatch"):
            return "stopwatch" + (f":{typed[1]}" if len(typed) > 1 else "")
        if typed and typed[0] in keywords("keywords_off"):
            return "off"
        if typed and typed[0] in keywords("keywords_on"):  # ``pendule oui 25``: the minutes may follow
            return "chess" + (f":{typed[1]}" if len(typed) > 1 else "")
        return f"chess:{typed[0]}" if typed else ""
    if name in ("double", "void", "zeros") and typed:
        if typed[0] in keywords("keywords_on"):
            return "on"
        if typed[0] in keywords("keywords_off"):
            return "off"
    return " ".join(typed)


def value_said(lang: str, words: list[str]) -> str:
    """A setting's value as quoted in ``lang``: each word of the clock's or a yes/no's keywords in any language as
    ``lang`` types it (``stopwatch 5`` is ``chrono 5`` in French, a form having written it in the grammar's
    English words), other words as typed."""
    said = []
    for word in words:
        key = next((k for k in VALUE_KEYWORDS if keyword_form(word) in keywords(k)), None)
        said.append(say(lang, key).split()[0] if key is not None else word)
    return " ".join(said)


def settings_line(lang: str, game: ClassicGame) -> str:
    """The running game's challenge options and clock, for /settings (under a void challenge, no penalty nor
    double challenge: a challenge costs nothing)."""
    rules = game.rules
    yes, no = say(lang, "game_setting_yes"), say(lang, "game_setting_no")
    if rules.clock is ClockMode.CHESS:
        clock = say(lang, "game_setting_chess", minutes=rules.clock_minutes)
    elif rules.clock is ClockMode.STOPWATCH:
        clock = say(lang, "game_setting_stopwatch", seconds=rules.stopwatch_seconds)
    else:
        clock = no
    zeros = yes if rules.scoreless_ends else no
    if rules.challenge_void:  # a challenge costs nothing: no penalty, no lost turn, no bonus to say
        return say(lang, "game_settings_void", rules=rules.code, zeros=zeros, clock=clock)
    return say(
        lang,
        "game_settings",
        rules=rules.code,
        penalty=rules.challenge_penalty_per_word,
        double=yes if rules.challenge_lost_turn else no,
        void=no,
        zeros=zeros,
        clock=clock,
    )


def running_classic(ctx: Context) -> tuple[GameRecord, ClassicGame] | None:
    """The channel's running classic game, if any."""
    record = ctx.storage.active_game(ctx.message.channel)
    if record is None or record.kind is not GameKind.CLASSIC:
        return None
    return record, ctx.services.classic_games.load(ctx.storage, record)


def game_setting(ctx: Context, words: list[str]) -> bool:
    """``/settings clock 25``, ``/reglages penalite 10``: a setting of the running classic game, chosen by
    its referee before the first turn; False when the first word names no game setting."""
    name = game_setting_named(words[0]) if words else None
    if name is None:
        return False
    running = running_classic(ctx)
    if running is None:
        raise UserError("game_setting_no_game")
    record, game = running
    ctx.require_control(record)
    value = setting_value(name, words[1:])
    if not value:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    try:
        record_event(ctx, record, game, Setting(name, value))
    except SettingValueError:  # said with the words typed (in the answer's language) and the setting's examples
        raise UserError(f"game_setting_bad_{name}", value=value_said(ctx.lang, words[1:])[:20]) from None
    ctx.reply(settings_line(ctx.lang, game))
    return True


# --- the clock's tick -------------------------------------------------------------------------


def _store(services: Services, record: GameRecord, game: ClassicGame, event: Event, now: float) -> None:
    """Apply and store an event the clock decided (the clock's own events are not held to the clock)."""
    game.apply_stored(event, now)
    data: dict[str, Any] = {**event_to_dict(event), STAMP_KEY: now}
    services.classic_games.append(services.storage, record, game, data, CLOCK_AUTHOR)


def clock_decision(services: Services, record: GameRecord, deadline: Deadline, now: float) -> list[Reply]:
    """What the clock does about a classic game's stored deadline: bring storage in line, or pass the
    turn (stopwatch), take a player out of time (FISF), or end the game at the overtime limit."""
    storage = services.storage
    if record.status is not GameStatus.ACTIVE:
        storage.open_round(record.id, CLOCK_ROUND, None)
        return []
    game = services.classic_games.load(storage, record)
    reading = game.clock(now)
    if reading.deadline is None or reading.due is None or now < reading.deadline or reading.running_for is None:
        sync_clock(storage, record, game, now)
        if reading.deadline is not None:
            services.clock.quiet[(record.id, CLOCK_ROUND, reading.deadline)] = reading.deadline
        return []
    lang = storage.channel(record.channel).language
    player = reading.running_for
    try:
        lines = _act(services, record, game, reading, player, now, lang)
    except ArbitreError:  # the game refused (it changed since): storage follows the game
        lines = []
    sync_clock(storage, record, game, now)
    if not lines:
        return []
    if game.ended:
        lines.append(standings_text_in(lang, game))
    else:
        lines += status_lines_in(lang, game, now)
    return [Reply("\n".join(lines), channel=record.channel, deadline=countdown(game, now))]


def _act(
    services: Services, record: GameRecord, game: ClassicGame, reading: ClockReading, player: str, now: float, lang: str
) -> list[str]:
    if reading.due is ClockDue.PASS:
        _store(services, record, game, Pass(player), now)
        return [say(lang, "clock_time_pass", player=player, time=minutes_seconds(reading.move_allowed))]
    if reading.due is ClockDue.FLAG:
        _store(services, record, game, Flagged(player), now)
        others = [p for p in game.players if p not in game.flagged]
        if not others:
            return [say(lang, "clock_all_flagged", player=player)]
        return [say(lang, "clock_flag", player=player, others=", ".join(others))]
    penalties = overtime_penalties(game, now)
    for penalty in penalties:
        _store(services, record, game, penalty, now)
    _store(services, record, game, End((), stopped=True), now)
    services.storage.set_game_status(record.id, GameStatus.ENDED)
    services.classic_games.forget(record.id)
    minutes = game.rules.overtime_limit_minutes
    return [
        say(lang, "clock_overtime_end", player=player, minutes=minutes),
        *overtime_lines(lang, game, penalties, reading),
    ]
