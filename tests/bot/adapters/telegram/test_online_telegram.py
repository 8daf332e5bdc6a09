"""A whole online game through real python-telegram-bot against the fake Bot API (flood control on), a real
SQLite file, the bag seeded: Ana and Ben open their private chat with the bot (/start: Telegram lets a bot write
only to users who did), then play by typing in the club's group; each rack goes to its player's private chat,
and /chevalet typed there shows it again. Each plays the move generator's best play from the rack they were
told. Asserted: no rack in a group message or a log line before the end, /export refused until the end, a move
with a tile not on the rack refused with the rack sent privately, the bag emptied, the exported GCG replayed
(the reader and ``arbitre replay``) to the game's final scores.

Why the first attempt at this test hung: the group's budget (about 20 messages a minute, enforced by the fake and
respected by the adapter's pacer) holds a game's group messages for minutes of real time (this game posts 59 in the
group, 166 s on the fake's clock), and a private line to a player who never pressed Start is never sent (the group
gets a link instead), so a wait for it never ends. Here both players press Start first, the fake's clock is frozen
and moves with the event loop's (``tests/loop_time.py``) only while the test waits, and every wait is bounded
(``WAIT`` real seconds)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from core.online import DealtGame
from tests.fakes import SentMessage, TgUser, running_application
from tests.loop_time import LoopTime
from tests.online_players import (
    assert_export_replays,
    assert_no_rack_in,
    chosen_move,
    game_in,
    missing_tile,
    rack_told,
    replay_file,
)
from tests.ready_lists import ready_registry
from tests.telegram_club import ClubTelegram

LEXICONS = ready_registry()
GROUP = -4_000_000_041
SEED = 41
WAIT = 60.0  # real seconds a command may take at most to be answered in full (a hang fails instead of blocking)
STEP = 0.5  # seconds both clocks move at each look while the test waits (the group's pace passes quickly)
TURNS = 120  # far more than a game of two players takes
SENT_PRIVATELY = "il vous a été envoyé en privé"
COMMANDS = {"score": "/coup", "exchange": "/change", "pass": "/passe"}


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[ClubTelegram]:
    async with ClubTelegram(GROUP) as fake:
        fake.clock.freeze()
        yield fake


@pytest_asyncio.fixture
async def adapter(tg: ClubTelegram, storage: SQLiteStorage, loop_time: LoopTime) -> AsyncIterator[TelegramAdapter]:
    referee = Referee(storage, LEXICONS, now=tg.now, draws=random.Random(SEED))
    adapter = TelegramAdapter(referee, tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now)
    async with running_application(adapter.application, tg):
        yield adapter
        mover = asyncio.ensure_future(keep_moving(tg, loop_time))  # what the pacer still holds ends
    mover.cancel()


async def keep_moving(tg: ClubTelegram, loop_time: LoopTime) -> None:
    while True:
        await asyncio.sleep(0.01)
        tg.advance(STEP)
        loop_time.jump(STEP)


class Players:
    """Ana and Ben in the club's group: the racks each was told in their private chat."""

    def __init__(self, tg: ClubTelegram, storage: SQLiteStorage, loop_time: LoopTime) -> None:
        self.tg, self.storage, self.loop_time = tg, storage, loop_time
        self.users: dict[str, TgUser] = {"Ana": tg.ana, "Ben": tg.add_user(first_name="Ben")}
        tg.set_member(GROUP, self.users["Ben"], "member")
        self.racks: dict[str, str] = {}
        self.told: set[str] = set()
        self.read = 0

    async def send(self, player: str, text: str, *, private: bool = False) -> list[SentMessage]:
        """``player`` types ``text`` (in the group, or in their private chat); what the bot sent in answer, once
        all of it was sent."""
        user = self.users[player]
        if private:
            await self.tg.send_user_message(None, user, text, chat_type="private")
        else:
            await self.tg.send_user_message(GROUP, user, text)
        await asyncio.wait_for(self.settled(), WAIT)
        fresh = self.tg.sent[self.read :]
        self.read = len(self.tg.sent)
        for record in fresh:
            owner = self.owner(record)
            rack = rack_told(record.text) if owner is not None else None
            if owner is not None and rack is not None:
                self.racks[owner] = rack
                self.told.add(rack)
        return fresh

    async def settled(self) -> None:
        """Until the bot answered and its outbox holds nothing more to send, both clocks moving meanwhile."""
        started = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            self.tg.log.check_errors()
            if len(self.tg.sent) > self.read and not any(b.waiting for b in self.storage.outbox_backlog()):
                await asyncio.sleep(0.05)  # a private line after the last one counted
                if not any(b.waiting for b in self.storage.outbox_backlog()):
                    return
            assert time.monotonic() - started < WAIT
            self.tg.advance(STEP)
            self.loop_time.jump(STEP)

    def owner(self, record: SentMessage) -> str | None:
        """The player whose private chat a message went to (None: the group's)."""
        return next((name for name, user in self.users.items() if record.chat_id == user.id), None)

    def group(self) -> list[str]:
        """Every text the group showed (messages, captions, edits)."""
        return [r.text for r in self.tg.log.select(GROUP, None)]

    def game(self) -> DealtGame:
        return game_in(self.storage, f"telegram:{GROUP}")[1]


@pytest.mark.long(13)
@pytest.mark.asyncio
async def test_a_whole_online_game_on_telegram_keeps_every_rack_private(
    tg: ClubTelegram,
    adapter: TelegramAdapter,
    storage: SQLiteStorage,
    loop_time: LoopTime,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG, logger="arbitre")
    players = Players(tg, storage, loop_time)
    for name in players.users:
        await players.send(name, "/start", private=True)  # the bot may now write to them
    await players.send("Ana", "/nouvelle en-ligne Ana Ben")
    await players.send("Ben", "/rejoindre")
    assert set(players.racks) == {"Ana", "Ben"}
    game = players.game()
    for name, rack in players.racks.items():
        assert rack == game.edition.spell_tiles(game.rack(name))
    shown = await players.send("Ben", "/chevalet", private=True)  # typed in the private chat
    assert [r.text for r in shown] == [f"Votre chevalet (Ben) : {players.racks['Ben']}"]
    assert [r.chat_id for r in shown] == [players.users["Ben"].id]

    first = game.to_move or ""
    wrong = missing_tile(players.racks[first]) * 2
    refused = await players.send(first, f"/coup H8 {wrong}")
    assert [(r.chat_id, r.text) for r in refused] == [
        (GROUP, f"{first} : refusé, ces lettres ne sont pas toutes sur votre chevalet ({SENT_PRIVATELY})."),
        (players.users[first].id, f"{wrong} : pas sur votre chevalet. Votre chevalet : {players.racks[first]}"),
    ]
    early = await players.send("Ana", "/export")
    assert any("secrets jusque-là" in r.text for r in early)

    for _ in range(TURNS):
        game = players.game()
        if game.ended:
            break
        mover = game.to_move or ""
        rack = players.racks[mover]
        assert rack == game.edition.spell_tiles(game.rack(mover))  # the rack told is the one held
        command, args = chosen_move(game, rack)
        await players.send(mover, f"{COMMANDS[command]} {args}".strip())
    game = players.game()
    assert game.ended
    assert not game.bag.tiles

    assert len(players.told) > 10  # a rack after every move of each player: what is looked for below
    group = players.group()
    end = max(i for i, text in enumerate(group) if "Lettres restantes" in text)
    assert_no_rack_in(players.told, group[:end], "the group")
    assert_no_rack_in(players.told, [r.getMessage() for r in caplog.records], "the log")
    assert tg.flood is not None
    assert not tg.flood.refused  # the group's pace kept: no 429

    exported = await players.send("Ana", "/export")
    (document,) = [f.data for r in exported for f in r.files if f.filename.endswith(".gcg")]
    assert_export_replays(document, game)
    assert replay_file(document, tmp_path) == 0
    assert "mismatches: none" in capsys.readouterr().out
