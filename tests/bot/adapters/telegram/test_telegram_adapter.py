"""The Telegram adapter end to end: real python-telegram-bot against the fake Bot API, a real
SQLite file, the bundled French word list.

The first test is the handshake canary for the adapter itself: if it fails after a
python-telegram-bot upgrade, fix tests/fakes/telegram_server.py first (see
tests/bot/adapters/telegram/test_fake_telegram.py).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.telegrambot.adapter import TelegramAdapter
from bot.adapters.telegrambot.text import file_url_for, telegram_text, utf16_len
from bot.chat import Reply
from bot.games.installed import COMMANDS
from bot.messages import say as catalog_say
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.bot.adapters.telegram.adapter_club import GROUP, START_EN, ClubTelegram, say
from tests.bot.adapters.telegram.adapter_club import tg as tg  # the club's fake Bot API
from tests.fakes import FakeTelegram, TgUser, running_application
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
LEXICONS = ready_registry()  # the bundled lists, loaded once for the test modules
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR and r.name.startswith("arbitre")]
    assert not errors, "adapter errors: " + "; ".join(r.getMessage() for r in errors)


@pytest_asyncio.fixture
async def adapter(tg: ClubTelegram, storage: SQLiteStorage) -> AsyncIterator[TelegramAdapter]:
    adapter = TelegramAdapter(
        Referee(storage, LEXICONS),
        tg.token,
        base_url=tg.base_url,
        edit_interval=0.2,
        live_interval=0.2,
        tick_seconds=0.05,
    )
    async with running_application(adapter.application, tg):
        yield adapter


def plays(storage: SQLiteStorage) -> list[dict[str, Any]]:
    record = storage.active_game(f"telegram:{GROUP}")
    assert record is not None
    return [e.data for e in storage.events(record.id) if e.data.get("kind") == "play"]


# --- the handshake canary ------------------------------------------------------------


@pytest.mark.asyncio
async def test_handshake_adapter_sets_commands_and_answers(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    assert adapter.bot.username == "TestBot"
    english = [c["command"] for c in tg.commands["default"]]
    french = [c["command"] for c in tg.commands["default/fr"]]
    assert english == [spec.name for spec in COMMANDS if not spec.private]  # /play and /rack: typed in private
    private = [c["command"] for c in tg.commands["all_private_chats/fr"]]
    members = [c["command"] for c in tg.commands["all_group_chats/fr"]]
    admins = [c["command"] for c in tg.commands["all_chat_administrators/fr"]]
    assert private == ["chevalet", "jouer", "calcul", "classement", "coups", "etat", "aide", "verif"]
    assert "annule" in admins
    assert "annule" not in members
    assert set(members) < set(admins) == set(french)
    assert tg.descriptions["short_description/fr"].startswith("Un arbitre de Scrabble")
    assert tg.descriptions["description"].startswith("Arbitre referees Scrabble games")
    assert "coup" in french
    assert "conteste" in french
    assert "score" not in french
    assert all(1 <= len(c["description"]) <= 100 for c in tg.commands["default"] + tg.commands["default/fr"])
    sent = await say(tg, tg.ana, "/aide")
    reply = await tg.wait_for_message(chat_id=GROUP)
    assert "/coup" in reply.text
    assert reply.reply_to == sent["message_id"]


@pytest.mark.asyncio
async def test_an_alias_typed_in_a_group_runs_its_command_and_stays_out_of_the_menus(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    await say(tg, tg.ana, "/nouvelle Ana Ben")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ana, "/plateau")  # /grille's other name
    board = await tg.wait_for_message(chat_id=GROUP)
    assert board.text.startswith("Coup 1 · à Ana de jouer"), board.text
    menus = {c["command"] for commands in tg.commands.values() for c in commands}
    assert "grille" in menus
    assert "plateau" not in menus


def test_countdown_shows_steps_of_the_edit_interval(storage: SQLiteStorage) -> None:
    adapter = TelegramAdapter(Referee(storage, LEXICONS), "1:x", base_url="http://127.0.0.1:9/bot")
    assert adapter.edit_interval == 10
    assert adapter.time_left(1000.0, now=825.0) == "⏳ 3:00"
    assert adapter.time_left(1000.0, now=829.0) == "⏳ 3:00"
    assert adapter.time_left(1000.0, now=831.0) == "⏳ 2:50"
    assert adapter.time_left(1000.0, now=1000.0) == "⌛ 0:00"
    assert adapter.with_time_left("Coup 1", None) == "Coup 1"


def test_helpers() -> None:
    plain, entities = telegram_text("Grille :\n```\nA B\nC 😀\n```\nfin")
    assert plain == "Grille :\nA B\nC 😀\nfin"
    assert [(e.type, e.offset, e.length) for e in entities] == [("pre", 9, utf16_len("A B\nC 😀"))]
    assert file_url_for("http://localhost:8081/bot") == "http://localhost:8081/file/bot"
    assert file_url_for("http://localhost:8081") == "http://localhost:8081/file/bot"


# --- a classic game --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_classic_game_score_challenge_board(
    tg: ClubTelegram, adapter: TelegramAdapter, storage: SQLiteStorage
) -> None:
    await say(tg, tg.ana, "/nouvelle Ana Ben")
    assert "Joueurs : Ana, Ben" in (await tg.wait_for_message(chat_id=GROUP)).text
    await say(tg, tg.ana, "/coup H8 VAGUE")
    scored = await tg.wait_for_message(chat_id=GROUP)
    assert "VAGUE (4+1+2+1+1x2)x2 = 20" in scored.text
    await say(tg, tg.ben, "/conteste")
    assert "VAGUE valable" in (await tg.wait_for_message(chat_id=GROUP)).text
    await say(tg, tg.ben, "/grille")
    board = await tg.wait_for_message(chat_id=GROUP)
    assert board.method == "sendPhoto"
    assert board.file is not None
    assert board.file.data.startswith(PNG_MAGIC)
    assert board.file.filename == "board.png"
    assert "```" not in board.text
    assert board.payload["caption_entities"][0]["type"] == "pre"
    assert board.text.startswith("Coup 3 · ")  # the header, then the text board, in the photo's caption
    assert len(plays(storage)) == 1


@pytest.mark.asyncio
async def test_group_form_for_us_and_not_for_another_bot(
    tg: ClubTelegram, adapter: TelegramAdapter, storage: SQLiteStorage
) -> None:
    await say(tg, tg.ana, "/new@TestBot Ana Ben")
    await tg.wait_for_message(chat_id=GROUP)
    other = await say(tg, tg.ana, "/score@OtherBot H8 VAGUE")
    assert tg.delivered(other)  # the bot received it...
    await say(tg, tg.ana, "just chatting")
    await say(tg, tg.ana, "/score@TestBot H8 VAGUE")
    # ...and said nothing: the group's next message answers the next command (a group's are answered in order)
    assert "= 20" in (await tg.wait_for_message(chat_id=GROUP)).text
    assert len(plays(storage)) == 1


@pytest.mark.asyncio
async def test_admin_status_comes_from_the_chat_and_is_cached(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    await say(tg, tg.ben, "/reglages minutes 2")  # Ben is a plain member, and there is no game
    assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text
    await say(tg, tg.ana, "/reglages minutes 2")  # Ana created the group
    assert ", 2 min par coup" in (await tg.wait_for_message(chat_id=GROUP)).text
    await say(tg, tg.ana, "/reglages minutes 1")
    assert ", 1 min par coup" in (await tg.wait_for_message(chat_id=GROUP)).text
    # one look-up of the group's administrators serves every member for admin_ttl seconds
    assert [m for m, _ in tg.requests if m in ("getChatMember", "getChatAdministrators")] == ["getChatAdministrators"]


@pytest.mark.asyncio
async def test_admin_rights_are_read_again_once_their_cache_expires(tg: ClubTelegram, clocked: TelegramAdapter) -> None:
    # a member made administrator is one once the group's list is read again (admin_ttl, 60 s)
    await say(tg, tg.ben, "/reglages minutes 2")
    assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text
    tg.set_member(GROUP, tg.ben, "administrator")
    await say(tg, tg.ben, "/reglages minutes 2")
    assert "administrateur" in (await tg.wait_for_message(chat_id=GROUP)).text  # still the list read before
    tg.advance(61)
    await say(tg, tg.ben, "/reglages minutes 2")
    assert ", 2 min par coup" in (await tg.wait_for_message(chat_id=GROUP)).text
    assert [m for m, _ in tg.requests if m == "getChatAdministrators"] == ["getChatAdministrators"] * 2


CHAT_MEMBER_STATUSES = [
    ("creator", True),
    ("administrator", True),
    ("member", False),
    ("restricted", False),
    ("left", False),
    ("kicked", False),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("status", "admin"), CHAT_MEMBER_STATUSES, ids=[s for s, _ in CHAT_MEMBER_STATUSES])
async def test_every_chat_member_status_the_bot_may_meet(
    tg: ClubTelegram, adapter: TelegramAdapter, status: str, admin: bool
) -> None:
    # every shape python-telegram-bot may receive (a stale one too: a member who just left);
    # only the creator and administrators count as channel admins
    fields = {"custom_title": "Arbitre"} if status in ("creator", "administrator") else {}
    tg.set_member(GROUP, tg.ben, status, **fields)
    await say(tg, tg.ben, "/reglages minutes 2")
    reply = await tg.wait_for_message(chat_id=GROUP)
    assert (", 2 min par coup" in reply.text) is admin
    assert ("administrateur" in reply.text) is not admin
    assert [int(p["chat_id"]) for m, p in tg.requests if m == "getChatAdministrators"] == [GROUP]


@pytest.mark.asyncio
async def test_start_in_private_answers_a_short_help(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    await say(tg, tg.cleo, "/start play", chat=None)
    reply = await tg.wait_for_message(chat_id=tg.cleo.id)
    assert reply.text == START_EN
    assert "/jouer" in reply.text
    assert "/play" in reply.text


START_FR = (
    "Bonjour ! Envoyez-moi ici vos coups de duplicate : /jouer H8 VAGUE (ou /play). Les autres commandes se "
    "tapent dans le groupe ; /aide en donne la liste."
)


@pytest.mark.asyncio
async def test_start_answers_in_the_users_language_from_the_catalogs(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    # the text is the catalog's (telegram_start), in the language the user's Telegram speaks
    assert START_EN == catalog_say("en", "telegram_start", others="/jouer")
    assert START_FR == catalog_say("fr", "telegram_start", others="/play")
    french = tg.add_user(first_name="Fanny", language_code="fr-FR")
    await say(tg, french, "/start", chat=None)
    assert (await tg.wait_for_message(chat_id=french.id)).text == START_FR


@pytest.mark.asyncio
async def test_start_without_a_catalog_for_the_users_language_answers_in_the_chats(
    tg: ClubTelegram, adapter: TelegramAdapter
) -> None:
    # no catalog for German, none for a user without a language: the private chat's own language
    # (French for a chat that never chose one, English once /reglages langue en was typed there)
    for code in ("de", None):
        user = tg.add_user(first_name=f"Kai{code}", language_code=code)
        await say(tg, user, "/start", chat=None)
        assert (await tg.wait_for_message(chat_id=user.id)).text == START_FR
    await say(tg, user, "/reglages langue en", chat=None)
    await tg.wait_for_message(chat_id=user.id)
    await say(tg, user, "/start", chat=None)
    assert (await tg.wait_for_message(chat_id=user.id)).text == START_EN


# --- duplicate: private submissions ----------------------------------------------------


def shown_seconds(text: str) -> int:
    shown = re.search(r"⏳ (\d+):(\d\d)", text)
    assert shown is not None
    minutes, seconds = shown.groups()
    return int(minutes) * 60 + int(seconds)


async def joined(tg: FakeTelegram, user: TgUser) -> None:
    """The group's join line names ``user`` (a new line, or the line of the move edited): a live line, edited
    once the chat's burst is back above what a close keeps for itself (three messages in a row: up to 3 s)."""
    await tg.log.wait_for(
        lambda m: user.first_name in (m.text or "") and "rejoi" in (m.text or ""),
        chat_id=GROUP,
        actions=("send", "edit"),
        timeout=5.0,
    )


@pytest_asyncio.fixture
async def clocked(tg: ClubTelegram, storage: SQLiteStorage) -> AsyncIterator[TelegramAdapter]:
    """An adapter whose referee (deadlines) and countdowns follow the fake's clock; live lines (the counter,
    the join line) edited at once."""
    adapter = TelegramAdapter(
        Referee(storage, LEXICONS, now=tg.now),
        tg.token,
        base_url=tg.base_url,
        edit_interval=0.2,
        live_interval=0.0,
        tick_seconds=0.05,
        clock=tg.now,
    )
    async with running_application(adapter.application, tg):
        yield adapter


@pytest.mark.long(4)
@pytest.mark.asyncio
async def test_duplicate_round_submissions_stay_private_until_it_closes(
    tg: ClubTelegram, clocked: TelegramAdapter, storage: SQLiteStorage
) -> None:
    opened = tg.now()
    await say(tg, tg.ana, "/duplicate")
    await tg.wait_for_message(chat_id=GROUP)
    draw = await tg.wait_for_message(lambda m: "⏳" in (m.text or ""), chat_id=GROUP)
    # three minutes of the fake's clock from the draw, shown as what was left when the text was made: both
    # bounded by the fake's clock around them (which runs in real time here: no window a slow machine leaves)
    (deadline,) = [d.at for d in storage.deadlines()]
    assert opened + 180 <= deadline <= draw.at + 180
    assert deadline - draw.at <= shown_seconds(draw.text) <= deadline - opened + 1
    for user in (tg.ana, tg.ben, tg.cleo):
        await say(tg, user, "/rejoindre")  # in the group, so their private /jouer finds the game
        await joined(tg, user)
    secrets = {tg.ana: "QWERTA", tg.ben: "QWERTB", tg.cleo: "QWERTC"}
    for user, word in secrets.items():
        await say(tg, user, f"/jouer H8 {word}", chat=None)
        ack = await tg.wait_for_message(chat_id=user.id)
        assert word in ack.text
    # the draw counts down by editing itself: steps of a second before the clock moves, and this fixture's live
    # lines edited at each change, all of which the adapter spaces one a second in the group (Telegram's pace)
    tg.advance(60)
    advanced = tg.now()
    countdown = await tg.wait_for_edit(
        lambda m: m.message_id == draw.message_id and "⏳" in m.text and shown_seconds(m.text) <= 120,
        chat_id=GROUP,
        timeout=10,
    )
    # a step made after the minute passed: what was left then (the seconds the machine took are counted)
    assert deadline - countdown.at <= shown_seconds(countdown.text) <= deadline - advanced + 1
    tg.advance(120)
    results = await tg.wait_for_message(lambda m: "QWERTA" in (m.text or ""), chat_id=GROUP, timeout=10)
    assert all(word in results.text for word in secrets.values())
    before = [r for r in tg.log.records if r.chat_id == GROUP and r.seq < results.seq]
    assert not any(word in (r.text or "") for r in before for word in secrets.values())
    # the draw says so once the round is closed
    await tg.wait_for_edit(lambda m: m.message_id == draw.message_id and m.text.endswith("manche close."), timeout=10)
    edits = [r for r in tg.log.records if r.action == "edit" and r.message_id == draw.message_id]
    assert not any(word in e.text for e in edits for word in secrets.values())


@pytest.mark.asyncio
async def test_countdown_edits_are_paced(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    deadline = time.time() + 1.0
    await adapter.deliver([Reply("Coup 1", channel=f"telegram:{GROUP}", edit_key="r1", deadline=deadline)])
    first = await tg.wait_for_message(chat_id=GROUP)
    assert first.text == "Coup 1\n⏳ 0:01"
    await tg.wait_for_edit(lambda m: "⌛" in m.text, chat_id=GROUP, timeout=5)  # the countdown's last edit
    # one step of the countdown is one second here (ten with the default interval): one edit
    assert [r.text for r in tg.log.records if r.action == "edit"] == ["Coup 1\n⌛ 0:00"]
    # Telegram's "message is not modified" is not an error
    tg.fail_next(
        "editMessageText",
        400,
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a content and reply markup of the current message",
    )
    assert not await adapter.deliver([Reply("Coup 1 : clos", channel=f"telegram:{GROUP}", edit_key="r1")])


# --- platform failures -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_rate_limited_reply_is_retried_and_the_move_recorded_once(
    tg: ClubTelegram, adapter: TelegramAdapter, storage: SQLiteStorage
) -> None:
    await say(tg, tg.ana, "/nouvelle Ana Ben")
    await tg.wait_for_message(chat_id=GROUP)
    tg.rate_limit_next("sendMessage", retry_after=1)  # whole seconds, as Telegram says
    await say(tg, tg.ana, "/coup H8 VAGUE")
    assert "= 20" in (await tg.wait_for_message(chat_id=GROUP)).text
    sends = [p for m, p in tg.requests if m == "sendMessage" and "VAGUE" in str(p.get("text"))]
    assert len(sends) == 2
    assert len(plays(storage)) == 1
    # no second copy: the group's next message answers the next command (it would go behind a copy owed)
    await say(tg, tg.ana, "/aide classement")
    assert "= 20" not in (await tg.wait_for_message(chat_id=GROUP)).text


@pytest.mark.asyncio
async def test_private_reply_to_a_user_who_never_pressed_start(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    dan = tg.add_user(first_name="Dan")
    eve = tg.add_user(first_name="Eve", started=True)
    tg.block_bot(tg.cleo)
    channel = f"telegram:{GROUP}"
    await adapter.deliver(
        [
            Reply("SECRET for Eve", to_user=f"telegram:{eve.id}", channel=channel),
            Reply("SECRET for Dan", to_user=f"telegram:{dan.id}", channel=channel),
            Reply("SECRET for Cleo", to_user=f"telegram:{tg.cleo.id}", channel=channel),
        ]
    )
    assert (await tg.wait_for_message(chat_id=eve.id)).text == "SECRET for Eve"
    notes = [await tg.wait_for_message(chat_id=GROUP) for _ in range(2)]
    for note in notes:
        assert "https://t.me/TestBot?start=play" in note.text
        assert "SECRET" not in note.text


@pytest.mark.asyncio
async def test_the_private_chat_note_speaks_the_groups_language(
    tg: ClubTelegram, adapter: TelegramAdapter, storage: SQLiteStorage
) -> None:
    # the note is the catalog's, in the group's language: French by default, English once chosen
    link = "https://t.me/TestBot?start=play"
    channel = f"telegram:{GROUP}"
    dan = tg.add_user(first_name="Dan")
    await adapter.deliver([Reply("SECRET", to_user=f"telegram:{dan.id}", channel=channel)])
    note = await tg.wait_for_message(chat_id=GROUP)
    assert note.text == catalog_say("fr", "telegram_private_chat", link=link)
    assert note.text.startswith("Pour recevoir mes réponses privées")
    assert "Démarrer : " in note.text
    storage.save_channel(storage.channel(channel).with_changes(language="en"))
    eve = tg.add_user(first_name="Eve")
    adapter._names[eve.id] = "Eve"  # as a command of hers would have set it
    await adapter.deliver([Reply("SECRET", to_user=f"telegram:{eve.id}", channel=channel)])
    note = await tg.wait_for_message(chat_id=GROUP)
    assert note.text == f"Eve: to get my private answers, open a chat with me and press Start: {link}"


@pytest.mark.asyncio
async def test_players_who_never_pressed_start_share_one_note_per_interval(
    tg: ClubTelegram, storage: SQLiteStorage
) -> None:
    # twenty players who cannot be written to privately: their group gets one note naming them per
    # live interval (its budget is ~20 messages a minute), never one note each
    adapter = TelegramAdapter(
        Referee(storage, LEXICONS, now=tg.now), tg.token, base_url=tg.base_url, tick_seconds=0.05, clock=tg.now
    )
    people = [tg.add_user(first_name=f"P{i:02d}") for i in range(20)]
    async with running_application(adapter.application, tg):
        for person in people:
            adapter._names[person.id] = person.first_name  # as a command of theirs would have set it
        channel = f"telegram:{GROUP}"
        await adapter.deliver([Reply("SECRET", to_user=f"telegram:{p.id}", channel=channel) for p in people])
        first = await tg.wait_for_message(chat_id=GROUP)
        assert first.text.startswith("P00 : ")
        assert len(tg.messages_in(GROUP)) == 1
        tg.advance(adapter.live_interval)
        second = await tg.wait_for_message(chat_id=GROUP)
        assert second.text.startswith(", ".join(p.first_name for p in people[1:]) + " : ")
        assert "SECRET" not in first.text + second.text
        assert len(tg.messages_in(GROUP)) == 2


@pytest.mark.asyncio
async def test_long_text_is_split_under_4096(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    lines = [f"ligne {n:03d} é😀 " + "x" * 60 for n in range(150)]
    text = "Feuille :\n```\n" + "\n".join(lines) + "\n```\nFin."
    assert not await adapter.deliver([Reply(text, channel=f"telegram:{GROUP}")])  # every part sent when it returns
    sent = tg.messages_in(GROUP)
    assert len(sent) >= 3
    assert all(utf16_len(m.text) <= 4096 for m in sent)
    assert all(m.payload["entities"][0]["type"] == "pre" for m in sent)
    joined = "\n".join(m.text for m in sent)
    assert [sheet_line for sheet_line in joined.split("\n") if sheet_line.startswith("ligne")] == lines
    assert joined.endswith("Fin.")
    assert "```" not in joined


# --- players are accounts --------------------------------------------------------------------


@pytest.mark.long(3)
@pytest.mark.asyncio
async def test_another_account_named_like_a_player_cannot_play_for_them(
    tg: ClubTelegram, adapter: TelegramAdapter, storage: SQLiteStorage
) -> None:
    impostor = tg.add_user(first_name="Ben")  # same display name, another account
    await say(tg, tg.ana, "/nouvelle Ana Ben")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ana, "/coup H8 VAGUE")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ben, "/coup 8H VOGUE")  # the real Ben acts first: the seat is his account's
    assert "La place de Ben est désormais liée à ce compte" in (await tg.wait_for_message(chat_id=GROUP)).text
    await say(tg, tg.ana, "/coup 10F ARGUE")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, impostor, "/coup I7 GUE")
    refused = await tg.wait_for_message(chat_id=GROUP)
    assert "liée à un autre compte" in refused.text
    await say(tg, impostor, "/conteste")
    assert "ne jouez pas dans cette partie" in (await tg.wait_for_message(chat_id=GROUP)).text
    assert [p["player"] for p in plays(storage)] == ["Ana", "Ben", "Ana"]


@pytest.mark.asyncio
async def test_duplicate_submissions_of_two_accounts_with_one_name_stay_apart(
    tg: ClubTelegram, clocked: TelegramAdapter, storage: SQLiteStorage
) -> None:
    impostor = tg.add_user(first_name="Ana")
    await say(tg, tg.ana, "/duplicate")
    await tg.wait_for_message(chat_id=GROUP)
    await tg.wait_for_message(lambda m: "⏳" in (m.text or ""), chat_id=GROUP)
    for user in (tg.ana, impostor):
        await say(tg, user, "/rejoindre")
        await joined(tg, user)
    await say(tg, tg.ana, "/jouer H8 QWERTA", chat=None)
    await tg.wait_for_message(chat_id=tg.ana.id)
    await say(tg, impostor, "/jouer H8 QWERTZ", chat=None)
    await tg.wait_for_message(chat_id=impostor.id)
    record = storage.active_game(f"telegram:{GROUP}")
    assert record is not None
    submitted = {(e.data["player"], e.data["move"]) for e in storage.events(record.id) if e.data["kind"] == "submit"}
    assert submitted == {("Ana", "H8 QWERTA"), ("Ana (2)", "H8 QWERTZ")}


@pytest.mark.asyncio
async def test_export_of_a_finished_game_comes_as_a_document(tg: ClubTelegram, adapter: TelegramAdapter) -> None:
    await say(tg, tg.ana, "/nouvelle Ana Ben")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ana, "/coup H8 VAGUE")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ana, "/fin Ben=EAU !")
    await tg.wait_for_message(chat_id=GROUP)
    await say(tg, tg.ben, "/export")
    document = await tg.wait_for_message(lambda m: m.method == "sendDocument", chat_id=GROUP)
    assert document.file is not None
    assert document.file.filename == "game-1-game.gcg"
    assert b"8H VAGUE" in document.file.data
