"""The fakes know buttons as the platforms define them (issue 39, item 8): Telegram's inline keyboards
(a button uses exactly one optional field; ``callback_data`` is 1-64 bytes; a user presses only a button the
message shows; the press is a ``callback_query`` answered with ``answerCallbackQuery``), held against the Bot
API through the real python-telegram-bot; Discord's components (a press is an interaction of type 3, a
modal's submission one of type 5; sizes as discord-api-spec gives them), through the real discord.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord.ext import commands
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest
from telegram.ext import Application, CallbackQueryHandler, ContextTypes

from tests.discord_club import ClubDiscord
from tests.fakes import FakeTelegram, running_application, running_bot

GROUP = -4_000_000_321


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer(f"pressed {query.data}")


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="TestBot") as fake:
        yield fake


@pytest_asyncio.fixture
async def app(tg: FakeTelegram) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    application = tg.application_builder().build()
    application.add_handler(CallbackQueryHandler(pressed))
    async with running_application(application, tg, allowed_updates=["message", "callback_query"]):
        yield application


@pytest.mark.asyncio
async def test_a_pressed_inline_button_is_a_callback_query_the_bot_answers(
    tg: FakeTelegram, app: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    tg.add_group(GROUP)
    ana = tg.add_user(first_name="Ana")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Rejoindre", callback_data="/rejoindre")]])
    message = await app.bot.send_message(GROUP, "Nouvelle partie", reply_markup=keyboard)
    query = await tg.send_callback_query(GROUP, ana, message.message_id, "/rejoindre")
    answer = await tg.wait_for_action("answer_callback")
    assert answer.text == "pressed /rejoindre"
    assert tg.callback_answers[query]["text"] == "pressed /rejoindre"
    with pytest.raises(ValueError, match="no button"):
        await tg.send_callback_query(GROUP, ana, message.message_id, "/fin !")


@pytest.mark.asyncio
async def test_a_button_the_bot_api_refuses_is_refused(
    tg: FakeTelegram, app: Application[Any, Any, Any, Any, Any, Any]
) -> None:
    tg.add_group(GROUP)
    too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="/" + "a" * 64)]])
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await app.bot.send_message(GROUP, "x", reply_markup=too_long)
    bad_url = InlineKeyboardMarkup([[InlineKeyboardButton("x", url="ftp://example.org")]])
    with pytest.raises(BadRequest, match="(?i)button_url_invalid"):
        await app.bot.send_message(GROUP, "x", reply_markup=bad_url)
    fine = InlineKeyboardMarkup([[InlineKeyboardButton("Jouer", url="https://t.me/TestBot?start=play")]])
    message = await app.bot.send_message(GROUP, "Tirage", reply_markup=fine)
    assert message.reply_markup == fine


# --- Discord: components, modals, interaction types 3 and 5 -------------------------------------------


class Move(discord.ui.Modal, title="Votre coup"):
    ref: discord.ui.TextInput[Move] = discord.ui.TextInput(label="Référence", custom_id="ref", max_length=3)
    word: discord.ui.TextInput[Move] = discord.ui.TextInput(label="Mot", custom_id="word", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"/jouer {self.ref.value} {self.word.value}", ephemeral=True)


class Buttons(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Jouer", custom_id="form:/jouer", style=discord.ButtonStyle.primary)
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]) -> None:
        await interaction.response.send_modal(Move(custom_id="modal:/jouer"))

    @discord.ui.select(custom_id="menu:langue", options=[discord.SelectOption(label=v, value=v) for v in ("en", "fr")])
    async def language(self, interaction: discord.Interaction, select: discord.ui.Select[Buttons]) -> None:
        await interaction.response.edit_message(content=f"langue {select.values[0]}")


def component_bot() -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    @bot.tree.command(name="draw", description="A draw with buttons")
    async def draw(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Tirage", view=Buttons())

    return bot


@pytest_asyncio.fixture
async def dc() -> AsyncIterator[ClubDiscord]:
    async with ClubDiscord(channels=("general",)) as fake:
        yield fake


@pytest.mark.asyncio
async def test_a_button_opens_a_modal_whose_submission_is_answered_privately(dc: ClubDiscord) -> None:
    bot = component_bot()
    async with running_bot(dc, bot):
        await bot.tree.sync()
        channel = dc.guild.channel_id
        shown = await dc.wait_for_response(await dc.send_interaction("draw", user=dc.ana, channel_id=channel))
        assert shown.message_id is not None
        ids = [c["custom_id"] for row in shown.reply_markup for c in row["components"]]
        assert ids == ["form:/jouer", "menu:langue"]
        pressed = await dc.press(shown.message_id, "form:/jouer", dc.ana)
        assert dc.interaction_payload(pressed)["type"] == 3
        await dc.wait_for_response(pressed, actions=("modal",))
        assert (dc.modal_of(pressed) or {}).get("title") == "Votre coup"
        with pytest.raises(ValueError, match="does not send"):
            await dc.submit_modal(pressed, {"ref": "H8"})  # a required input left empty
        submitted = await dc.submit_modal(pressed, {"ref": "H8", "word": "VAGUE"})
        assert dc.interaction_payload(submitted)["type"] == 5
        answer = await dc.wait_for_response(submitted)
        assert (answer.text, answer.ephemeral) == ("/jouer H8 VAGUE", True)
        chosen = await dc.press(shown.message_id, "menu:langue", dc.ana, values=["en"])
        await dc.wait_for_response(chosen, actions=("edit",))
        assert dc.messages[shown.message_id]["content"] == "langue en"
        with pytest.raises(ValueError, match="not a choice"):
            await dc.press(shown.message_id, "menu:langue", dc.ana, values=["de"])
        with pytest.raises(ValueError, match="no enabled component"):
            await dc.press(shown.message_id, "cmd:/fin !", dc.ana)


@pytest.mark.asyncio
async def test_components_discord_refuses_are_refused(dc: ClubDiscord) -> None:
    bot = component_bot()
    async with running_bot(dc, bot):
        channel = bot.get_channel(dc.guild.channel_id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x" * 81, custom_id="long"))
        with pytest.raises(discord.HTTPException, match="BASE_TYPE_MAX_LENGTH|Must be between"):
            await channel.send("x", view=view)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x", custom_id="c" * 101))
        with pytest.raises(discord.HTTPException):
            await channel.send("x", view=view)
        guild = dc.guilds[dc.guild.id]
        assert guild.preferred_locale == "fr"  # a French club's server, unless a test says otherwise
