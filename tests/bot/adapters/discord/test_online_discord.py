"""A whole online game through real discord.py against the fake Discord (rate limits on), a real SQLite file,
the bag seeded: Ana and Ben play with slash commands in the club's channel, each racks reaching its player
only (an ephemeral answer to their own command, a direct message otherwise), each playing the move generator's
best play from the rack they were told. Asserted: the racks never in a message of the channel (posts, edits)
nor in a log line before the end, /export refused until the end, a move with a tile not on the rack refused
with the rack shown ephemerally, the bag emptied, and the exported GCG replayed (the reader and ``arbitre
replay``) to the game's final scores."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.referee import Referee
from bot.storage import SQLiteStorage
from core.online import DealtGame
from tests.discord_club import ClubDiscord
from tests.discord_forms import form_options
from tests.fakes import DiscordUser, SentMessage, running_bot
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

LEXICONS = ready_registry()
SEED = 41
WAIT = 30.0  # real seconds a turn may take at most on a loaded machine (a hang fails instead of blocking)
TURNS = 120
STEP = 0.2  # seconds the event loop's clock jumps at each look while the test waits
SENT_PRIVATELY = "il vous a été envoyé en privé"  # far more than a game of two players takes


@pytest_asyncio.fixture
async def adapter(dc: ClubDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    dc.clock.freeze()  # the fake's time moves only when the test moves it: a slow machine answers in time
    referee = Referee(storage, LEXICONS, now=dc.now, draws=random.Random(SEED))
    adapter = DiscordAdapter(referee, message_content=True, tick_seconds=0.05, clock=dc.now)
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter


class Players:
    """Ana and Ben at the club's channel: the interactions each sent, the racks each was told privately."""

    def __init__(self, dc: ClubDiscord, storage: SQLiteStorage, loop_time: LoopTime) -> None:
        self.dc, self.storage, self.loop_time = dc, storage, loop_time
        self.channel = f"discord:{dc.channel}"
        self.users = {"Ana": dc.ana, "Ben": dc.ben}
        self.asked: dict[int, DiscordUser] = {}  # interaction id -> its user
        self.racks: dict[str, str] = {}  # the last rack each player was told
        self.told: set[str] = set()  # every rack told to anyone
        self.read = 0  # the fake's records read so far

    async def slash(self, name: str, player: str, args: str | None = None) -> int:
        """``player`` runs ``/name args`` in the channel; its interaction id, once every reply owed was sent."""
        command, options = form_options(name, args)  # the form a player fills to say ``/name args``
        user = self.users[player]
        iid = await self.dc.send_interaction(command, options, user=user, channel_id=self.dc.channel)
        self.asked[iid] = user
        await asyncio.wait_for(self.settled(iid), WAIT)
        self.take_racks()
        return iid

    async def settled(self, iid: int) -> None:
        """Until the command was answered and the outbox holds nothing more to send, the event loop's clock
        jumping meanwhile (discord.py waits out the channel's bucket on it)."""
        while True:
            await asyncio.sleep(0.02)
            self.dc.log.check_errors()
            if self.answers(iid) and not any(b.waiting for b in self.storage.outbox_backlog()):
                await asyncio.sleep(0.05)  # a last message after the one counted
                if not any(b.waiting for b in self.storage.outbox_backlog()):
                    return
            self.loop_time.jump(STEP)

    def take_racks(self) -> None:
        """The racks told privately since the last look: ephemeral answers to a player's own command, DMs."""
        for record in self.dc.sent[self.read :]:
            owner = self.private_owner(record)
            rack = rack_told(record.text) if owner is not None else None
            if owner is not None and rack is not None:
                self.racks[owner] = rack
                self.told.add(rack)
        self.read = len(self.dc.sent)

    def private_owner(self, record: SentMessage) -> str | None:
        """The player a private message went to (None: a message of the channel)."""
        for name, user in self.users.items():
            if record.chat_id == self.dc.dm_channel_id(user):
                return name
            if record.ephemeral and self.asked.get(record.interaction_id or 0) is user:
                return name
        return None

    def answers(self, iid: int) -> list[SentMessage]:
        """What answered interaction ``iid`` (its response and followups)."""
        return [r for r in self.dc.log.select(None, None, lambda r: r.interaction_id == iid) if r.text != "…"]

    def public(self) -> list[str]:
        """Every text the channel showed (posts, answers to commands and their edits)."""
        return [r.text for r in self.dc.log.select(self.dc.channel, None) if not r.ephemeral]

    def game(self) -> DealtGame:
        return game_in(self.storage, self.channel)[1]


@pytest.mark.long(9)
@pytest.mark.asyncio
async def test_a_whole_online_game_on_discord_keeps_every_rack_private(
    dc: ClubDiscord,
    adapter: DiscordAdapter,
    storage: SQLiteStorage,
    loop_time: LoopTime,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG, logger="arbitre")
    players = Players(dc, storage, loop_time)
    await players.slash("new", "Ana", "en-ligne Ana Ben")
    await players.slash("join", "Ben")
    assert set(players.racks) == {"Ana", "Ben"}  # each told privately, nothing typed
    game = players.game()
    for name, rack in players.racks.items():
        assert rack == game.edition.spell_tiles(game.rack(name))

    first = game.to_move or ""
    wrong = missing_tile(players.racks[first]) * 2
    refused = await players.slash("score", first, f"H8 {wrong}")
    public = [r.text for r in players.answers(refused) if not r.ephemeral]
    private = [r.text for r in players.answers(refused) if r.ephemeral]
    assert public == [f"{first} : refusé, ces lettres ne sont pas toutes sur votre chevalet ({SENT_PRIVATELY})."]
    assert private == [f"{wrong} : pas sur votre chevalet. Votre chevalet : {players.racks[first]}"]
    early = await players.slash("export", "Ana")
    assert any("secrets jusque-là" in r.text for r in players.answers(early))

    for _ in range(TURNS):
        game = players.game()
        if game.ended:
            break
        mover = game.to_move or ""
        rack = players.racks[mover]
        assert rack == game.edition.spell_tiles(game.rack(mover))  # the rack told is the one held
        command, args = chosen_move(game, rack)
        await players.slash(command, mover, args or None)
    game = players.game()
    assert game.ended
    assert not game.bag.tiles

    assert len(players.told) > 10  # a rack after every move of each player: what is looked for below
    public = players.public()
    end = max(i for i, text in enumerate(public) if "Lettres restantes" in text)
    assert_no_rack_in(players.told, public[:end], "the channel")
    assert_no_rack_in(players.told, [r.getMessage() for r in caplog.records], "the log")

    exported = await players.slash("export", "Ana")
    (document,) = [f.data for r in players.answers(exported) for f in r.files]
    assert_export_replays(document, game)
    assert replay_file(document, tmp_path) == 0
    assert "mismatches: none" in capsys.readouterr().out
