"""A room's game of a simultané started: the simultané's edition, list, notation, clock and sanctions, its
sealed draws, no house words of the room; then its first draw. Used when a room joins a simultané played
together from now, when its admin starts it in a window, and by the clock at a set time."""

from __future__ import annotations

from core.duplicate import DuplicateGame, DuplicateSettings, Sanctions
from core.edition import edition_by_code
from core.notation import notation_by_name
from core.simultane import SimultaneDefinition

from ...chat import Reply
from ...commands.context import UserError
from ...commands.services import Services
from ...messages import number, say
from ...storage import GameKind, GameSetup, SimultaneRecord
from ...words.game_lists import game_list
from ..duplicate.games import save
from ..duplicate.rounds import open_next_round


def launch(
    services: Services,
    record: SimultaneRecord,
    definition: SimultaneDefinition,
    channel: str,
    referee: str,
    referee_name: str,
    now: float,
) -> list[Reply]:
    """Start the room's duplicate game of the simultané: its edition, list, notation, clock and sanctions,
    its draws (``core.simultane.next_draw``), no house words of the room; then its first draw. UserError,
    before any change, while a game of the room's own is running."""
    storage = services.storage
    settings = storage.channel(channel)
    running = storage.active_game(channel)
    if running is not None:
        kind = say(settings.language, f"kind_{running.kind}")
        raise UserError("simultane_game_running", kind=kind, code=record.code)
    dup_settings = DuplicateSettings(
        minutes=definition.minutes,
        notation=notation_by_name(definition.notation),
        sanctions=Sanctions(definition.sanctions),
    )
    game = DuplicateGame(edition_by_code(definition.edition), (), dup_settings, definition.lexicon)
    setup = GameSetup(
        edition=definition.edition,
        lexicon=definition.lexicon,
        notation=definition.notation,
        referee_name=referee_name,
        simultane=definition.code,
    )
    services.lists.verdicts(game_list(setup), "")  # the list must be ready: not at the first close
    game_record = storage.create_game(channel, GameKind.DUPLICATE, referee, setup)
    storage.set_simultane_game(record.id, channel, game_record.id)
    save(services, game_record, game, list(game.events), referee)
    minutes = number(settings.language, definition.minutes)
    started = Reply(say(settings.language, "simultane_started", code=record.code, minutes=minutes), channel=channel)
    return [started, *open_next_round(services, storage, game_record, game, settings.language, now)]
