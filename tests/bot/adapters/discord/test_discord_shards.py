"""Two ``arbitre discord`` processes on different shard ranges of one bot, over one SQLite file.

Each process is a real subprocess running discord.py's sharded client against the fake Discord,
which dispatches each server's events to the session of the shard that owns it (DMs to shard 0).
The processes share the database: a duplicate round that both clocks see is closed once, and
what the players are owed is delivered once.

Real time (about 7 s alone, 10 s beside three more copies of it): what is tested is two processes' own
clocks, which a test cannot drive, sharing one 4.5-second round through the database's lease; the rest is
the three interpreters' start (1 to 3 s), the wait for round 1's closed notice (it comes up to a second
after the next draw: waited for, no longer a quiet spell's guess) and their stop. The commands that are
not the round's (/help in each server and in a DM) are checked while the round runs. A 3-second round
would close 3 s after the draw, leaving the four private moves through two processes little room on a
loaded machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sqlite3
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from bot.adapters.discordbot.shards import ShardRange, ShardRangeError, parse_shard_range, shard_of
from tests.discord_forms import form_options
from tests.fakes import DiscordUser, FakeDiscord, SentMessage
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
SHARDS = 2
START_TIMEOUT = 20.0  # two interpreters importing discord.py on a busy machine
ANSWER_TIMEOUT = 30.0  # a bot process answering a command while the suite runs beside it (10 s: too short twice)


# --- the shard range option ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "ids"),
    [
        (None, 1, (0,)),
        ("", 3, (0, 1, 2)),
        ("0-1", 4, (0, 1)),
        ("2-3", 4, (2, 3)),
        ("5", 8, (5,)),
        (" 1 - 2 ", 3, (1, 2)),
    ],
)
def test_a_shard_range_names_shards_of_the_count(text: str, count: int, ids: tuple[int, ...]) -> None:
    assert parse_shard_range(text, count) == ShardRange(count, ids)


@pytest.mark.parametrize(
    ("text", "count", "reason"),
    [
        ("2-1", 4, "comes after"),
        ("0-4", 4, "numbered 0 to 3"),
        ("4", 4, "numbered 0 to 3"),
        ("a-b", 4, "expected A-B"),
        ("-1", 4, "expected A-B"),
        ("1-", 4, "expected A-B"),
        ("0-0", 0, "at least 1"),
    ],
)
def test_a_shard_range_outside_the_count_is_refused_with_what_was_typed(text: str, count: int, reason: str) -> None:
    with pytest.raises(ShardRangeError) as refused:
        parse_shard_range(text, count)
    assert reason in str(refused.value)
    assert refused.value.text == text
    assert refused.value.count == count


def test_a_shard_range_owns_the_servers_of_its_shards() -> None:
    zero, one = parse_shard_range("0", 2), parse_shard_range("1", 2)
    servers = [(n << 22) | 77 for n in range(6)]
    assert [g for g in servers if zero.owns(g)] == servers[0::2]
    assert [g for g in servers if one.owns(g)] == servers[1::2]
    assert all(shard_of(g, 2) == n % 2 for n, g in enumerate(servers))
    assert str(parse_shard_range("2-3", 4)) == "shards 2-3 of 4"
    assert str(zero) == "shard 0 of 2"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--shards", "0-1"], "--shards goes with --shard-count"),
        (["--shard-count", "2", "--shards", "1-2"], "numbered 0 to 1"),
        (["--shard-count", "0"], "at least 1"),
        (["--sync", "--shard-count", "2"], "--sync registers the commands and exits"),
    ],
)
@pytest.mark.asyncio
async def test_cli_refuses_shard_options_that_do_not_go_together(tmp_path: Path, options: list[str], said: str) -> None:
    env = cli_env(tmp_path, "http://127.0.0.1:9/api/v10", "not-used")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "discord", *options, cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, err = await asyncio.wait_for(process.communicate(), 15)
    assert process.returncode == 2
    assert said in err.decode()
    assert len(err.decode().strip().splitlines()) == 1


# --- two processes, two shards, one database ---------------------------------------------------


def cli_env(tmp_path: Path, api_base: str, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITRE_")}
    env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        ARBITRE_DATA=str(tmp_path / "data"),
        ARBITRE_DISCORD_API=api_base,
        ARBITRE_DISCORD_TOKEN=token,
    )
    return env


@contextlib.asynccontextmanager
async def bot_process(*args: str, env: dict[str, str], log: Path) -> AsyncIterator[asyncio.subprocess.Process]:
    """``arbitre ARGS`` running until the block ends, then stopped with SIGTERM (it must exit 0)."""
    with log.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=err
        )
        try:
            yield process
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
    assert process.returncode == 0, log.read_text()


class ShardedDiscord(FakeDiscord):
    """One server on each shard (``homes``), each with its own two players (``players``: Ana, an admin, and
    Ben): a player's private messages are kept in order across servers (see the report of issue 14)."""

    def __init__(self) -> None:
        super().__init__(max_concurrency=SHARDS)
        self.homes = [self.add_guild(name=f"Club {n}", channels=("partie",), shard=(n, SHARDS)) for n in range(SHARDS)]
        self.players = [
            (self.add_user(username=f"ana{n}", global_name="Ana"), self.add_user(username=f"ben{n}", global_name="Ben"))
            for n in range(SHARDS)
        ]
        for guild, (ana, ben) in zip(self.homes, self.players):
            self.add_member(guild, ana, admin=True)
            self.add_member(guild, ben)


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ShardedDiscord]:
    async with ShardedDiscord() as fake:
        yield fake


async def slash(dc: FakeDiscord, name: str, args: str | None, channel: int, user: DiscordUser) -> int:
    command, options = form_options(name, args)
    return await dc.send_interaction(command, options, user=user, channel_id=channel)


def answers(dc: FakeDiscord, iid: int) -> list[SentMessage]:
    """What the bot sent through interaction ``iid`` (its "…" placeholder fill left out)."""
    return [r for r in dc.log.records if r.interaction_id == iid and r.action == "send" and r.text != "…"]


async def answered_once(dc: FakeDiscord, iid: int, shard: int) -> str:
    """Everything answered through interaction ``iid`` (one text), after checking that only shard
    ``shard``'s session got it and that no answer came twice."""
    await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=ANSWER_TIMEOUT)
    await settle(dc)
    assert dc.interaction_shards(iid) == [(shard, SHARDS)]
    texts = [r.text or "" for r in answers(dc, iid)]
    assert len(texts) == len(set(texts)), texts
    return "\n".join(texts)


async def settle(dc: FakeDiscord, quiet: float = 0.3) -> None:
    """Until both processes have been quiet for ``quiet`` seconds."""
    count = -1
    while count != len(dc.requests):
        count = len(dc.requests)
        await asyncio.sleep(quiet)


def saying_all(words: list[str]) -> Callable[[SentMessage], bool]:
    """Whether a message says every one of ``words``."""
    return lambda message: all(word in message.text for word in words)


async def start_duplicate(dc: ShardedDiscord, channel: int, shard: int) -> None:
    """``/duplicate 0.1`` (6-second rounds) by the server's first player, again while the process
    is still loading its word list (it says so, and starts nothing)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while True:
        said = await answered_once(dc, await slash(dc, "duplicate", "0.075", channel, dc.players[shard][0]), shard)
        if "préparation" not in said or loop.time() > deadline:
            break
        await asyncio.sleep(0.5)
    assert "Partie duplicate" in said, said


def closes(database: Path) -> list[tuple[int, int]]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return [(int(g), int(r)) for g, r in db.execute("select game, round from closes order by game, round")]


def channel_posts(dc: FakeDiscord, channel: int) -> list[str]:
    """Every public message text the bot posted in ``channel`` (sends, not edits)."""
    return [r.text or "" for r in dc.log.records if r.chat_id == channel and r.action == "send" and not r.ephemeral]


@pytest.mark.long(10)
@pytest.mark.asyncio
async def test_two_processes_on_two_shards_serve_their_own_servers_and_close_each_round_once(
    dc: ShardedDiscord, tmp_path: Path
) -> None:
    ready_registry().get("fr")  # the compiled list is in the cache before the processes start
    database = tmp_path / "shared.sqlite"
    env = cli_env(tmp_path, dc.api_base, dc.token)
    run = ("discord", "--db", str(database), "--shard-count", str(SHARDS), "--shards")
    async with (
        bot_process(*run, "0-0", env=env, log=tmp_path / "a.log") as process_a,
        bot_process(*run, "1-1", env=env, log=tmp_path / "b.log"),
        bot_process("discord", "--sync", "--db", str(database), env=env, log=tmp_path / "sync.log") as sync,
    ):
        await dc.wait_for_gateway("ready", count=SHARDS, timeout=START_TIMEOUT)
        await asyncio.wait_for(sync.wait(), START_TIMEOUT)  # the global commands, for servers and DMs
        sessions = {d.shard: d.data["guilds"] for d in dc.dispatches if d.event == "READY"}
        assert sessions == {(n, SHARDS): [{"id": str(dc.homes[n].id), "unavailable": True}] for n in range(SHARDS)}
        channels = [guild.channel_id for guild in dc.homes]

        # a duplicate game of 4.5-second rounds in each server: both processes' clocks watch every round
        await asyncio.gather(*(start_duplicate(dc, channel, shard) for shard, channel in enumerate(channels)))
        plays = {
            (shard, f"QWERT{who}{'XY'[shard]}"): slash(dc, "play", f"H8 QWERT{who}{'XY'[shard]}", channel, user)
            for shard, channel in enumerate(channels)
            for who, user in zip("AB", dc.players[shard])
        }
        sent = dict(zip(plays, await asyncio.gather(*plays.values())))  # all within the first round
        # while the round runs: a command in each server reaches its shard's process only, and is answered
        # once, as is every move (all at once: each answer's check waits for a quiet spell, which they share)
        ben = dc.players[1][1]  # in the server of shard 1; a DM goes to shard 0
        helps = [
            (slash(dc, "help", None, channel, dc.players[shard][0]), shard) for shard, channel in enumerate(channels)
        ]
        helps.append((slash(dc, "help", None, dc.dm_channel_id(ben), ben), 0))
        asked = [(await iid, shard) for iid, shard in helps]
        answered = await asyncio.gather(
            *(answered_once(dc, iid, shard) for iid, shard in asked),
            *(answered_once(dc, iid, shard) for (shard, _), iid in sent.items()),
        )
        for said in answered[: len(asked)]:
            assert "/coup" in said
        for iid, _ in asked:  # each /help to its asker alone, through its own interaction
            assert all(r.ephemeral for r in answers(dc, iid)), [r.short() for r in answers(dc, iid)]
        for (_, word), said in zip(sent, answered[len(asked) :]):
            assert f"coup 1 : H8 {word}" in said, "\n".join(r.short() for r in dc.log.records)
        for shard, channel in enumerate(channels):  # the clocks close the first rounds: one result each
            words = [word for where, word in sent if where == shard]
            await dc.wait_for_message(saying_all(words), channel_id=channel, timeout=12)
        for channel in channels:  # each close drew the next round, and said on round 1's draw that it closed
            await dc.wait_for_message(lambda r: "Coup 2 — tirage" in (r.text or ""), channel_id=channel)
            await dc.log.wait_for(
                lambda r: "Coup 1 —" in (r.text or "") and "close" in (r.text or ""),
                chat_id=channel,
                actions=("send", "edit"),
                timeout=12,
                consume=False,
            )
        await settle(dc)
        assert process_a.returncode is None

    closed = closes(database)
    games = {game for game, _ in closed}
    assert len(games) == SHARDS
    assert all({r for g, r in closed if g == game} == {1} for game in games)
    posts = {channel: channel_posts(dc, channel) for channel in channels}
    for channel in channels:
        notices = dc.log.select(channel, ("send", "edit"), lambda r: "Coup 1 —" in (r.text or "") and "close" in r.text)
        assert len(notices) == 1, notices  # the draw's message says "closed" once (edited, or anew)
        results = [p for p in posts[channel] if re.search(r"QWERT[AB][XY]", p)]
        assert len(results) == 1, results  # round 1's result, once
        twice = [p for p, count in Counter(posts[channel]).items() if count > 1 and "plus que" not in p]
        assert not twice, twice
    logs = "".join((tmp_path / name).read_text() for name in ("a.log", "b.log", "sync.log"))
    assert dc.token not in logs, logs
    assert "Traceback" not in logs, logs
    warnings = Counter((channel, p) for channel in channels for p in posts[channel] if "plus que" in p)
    assert warnings, "the clock warns before each close"
    assert max(warnings.values()) == 1, warnings  # one process runs a channel's clock (its lease)
