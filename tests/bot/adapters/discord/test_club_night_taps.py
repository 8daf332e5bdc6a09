"""What a referee and a player type for a club night, typed lines against taps and forms (issue 39's closing
note), measured on real runs of discord.py against the fake Discord: each interaction's equivalent typed line
(what the console, Telegram and Discord's former free-text option take) and what the form or the button asks
for instead. The figures and the transcripts are ``docs/interactions.md``; ``ARBITRE_UPDATE_GOLDEN=1``
rewrites it after a change players are meant to see (look at the diff)."""

from __future__ import annotations

import os
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio

from bot.adapters.discordbot.adapter import DiscordAdapter
from bot.commands import find
from bot.referee import Referee
from bot.storage import SQLiteStorage
from tests.discord_club import ClubDiscord
from tests.fakes import DiscordUser, SentMessage, running_bot
from tests.paths import REPO_ROOT
from tests.ready_lists import ready_registry

DOC = REPO_ROOT / "docs" / "interactions.md"
LEXICONS = ready_registry()
LANG = "fr"  # the club's server: French, the default
PICKED_AFTER = 4  # characters typed before Discord's command picker offers a command ("/" and 3 letters)
ROUNDS, PLAYERS = 15, 12  # a club night: the README's duplicate game, 15 draws, 12 players


@dataclass
class Cost:
    """What one interaction costs its user: characters typed, taps, commands sent."""

    typed: int = 0
    taps: int = 0
    commands: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.typed + other.typed, self.taps + other.taps, self.commands + other.commands)

    def times(self, count: int) -> Cost:
        return Cost(self.typed * count, self.taps * count, self.commands * count)


@dataclass
class Night:
    """The run's transcript and each interaction's cost, typed and tapped."""

    lines: list[str] = field(default_factory=list)
    costs: dict[str, tuple[Cost, Cost, str, str]] = field(default_factory=dict)  # what -> typed, tapped, forms

    def said(self, who: str, did: str, answer: SentMessage) -> None:
        self.lines.append(f"{who} ▸ {did}")
        first = (answer.text or "").split("\n")[0][:110]
        self.lines.append(f"  bot{' (only them)' if answer.ephemeral else ''}: {first}")
        labels = [c.get("label") for row in answer.reply_markup or [] for c in row["components"] if c.get("label")]
        if labels:
            self.lines.append("  " + "  ".join(f"[{label}]" for label in labels))

    def cost(self, what: str, line: str, tapped: Cost, how: str) -> None:
        """``line``: the equivalent typed command; ``tapped``: the form's or buttons' cost; ``how``: in words."""
        self.costs[what] = (Cost(len(line), 1, 1), tapped, line, how)


def slash_cost(values: dict[str, Any], optional: int = 0) -> Cost:
    """A slash command picked after :data:`PICKED_AFTER` characters, its option values typed (an optional
    option chosen first, one tap each), sent with one tap."""
    typed = PICKED_AFTER + sum(len(str(v)) for v in values.values() if not isinstance(v, (bool, DiscordUser)))
    chosen = sum(1 for v in values.values() if isinstance(v, (bool, DiscordUser)))
    return Cost(typed, 1 + optional + 2 * chosen + 1, 1)


def typed_line(name: str, values: dict[str, Any], sub: str | None = None) -> str:
    """The command as typed in the club's language, the form's values written back as the command reads them."""
    spec = find(name)
    assert spec is not None
    assert spec.form is not None
    shown = {k: ((v.global_name or v.username) if isinstance(v, DiscordUser) else v) for k, v in values.items()}
    return f"/{spec.name_in(LANG)} {spec.form.line(shown, sub)}".strip()


@pytest_asyncio.fixture
async def adapter(dc: ClubDiscord, storage: SQLiteStorage) -> AsyncIterator[DiscordAdapter]:
    adapter = DiscordAdapter(
        Referee(storage, LEXICONS, images=False, draws=random.Random(39)),
        message_content=True,
        edit_interval=0.2,
        tick_seconds=0.05,
    )
    async with running_bot(dc, adapter.client):
        await adapter.sync(dc.guild.id)
        yield adapter


async def shown(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: r.text != "…", timeout=10)


async def with_buttons(dc: ClubDiscord, iid: int) -> SentMessage:
    return await dc.wait_for_response(iid, lambda r: bool(r.reply_markup), timeout=10)


def custom_ids(record: SentMessage) -> list[str]:
    return [c["custom_id"] for row in record.reply_markup or [] for c in row["components"]]


async def club_night(dc: ClubDiscord) -> Night:
    """One round of the README's duplicate game through forms and buttons, then a classic table's join,
    challenge, a setting and the help, each interaction measured."""
    night = Night()
    players = [dc.member(f"p{n}", f"Joueur{n}") for n in range(1, 4)]
    # the referee starts the game
    values: dict[str, Any] = {"minutes": 3}
    started = await shown(dc, await dc.send_interaction("duplicate", values, user=dc.ana, channel_id=dc.channel))
    night.said("Ana", "/duplicate minutes:3", started)
    night.cost("start", typed_line("duplicate", values), slash_cost(values, optional=1), "/dup, pick, minutes: 3")
    draw = await dc.wait_for_message(lambda r: "tirage :" in (r.text or "") and bool(r.reply_markup))
    night.said("bot", "(the clock draws)", draw)
    letters = re.search(r"tirage : ([A-Z?+\-]+)", draw.text or "")
    assert letters is not None
    word = "GELEE"  # the seeded first draw is AEEEGLL
    assert all(letters.group(1).count(c) >= word.count(c) for c in word)
    # players answer through the draw's Play button: a private form
    for number, player in enumerate(players):
        pressed = await dc.press(draw.message_id or 0, "form:/jouer", player)
        await dc.wait_for_response(pressed, actions=("modal",))
        modal = dc.modal_of(pressed)
        assert modal is not None
        answer = await shown(dc, await dc.submit_modal(pressed, {"ref": "H8", "word": word}))
        assert answer.ephemeral
        if number == 0:
            fields = [c["components"][0]["label"] if "components" in c else "" for c in modal["components"]]
            night.lines.append(f"Joueur1 ▸ [Jouer] → form « {modal['title']} » ({', '.join(filter(None, fields))})")
            night.said("Joueur1", f"submits H8 {word}", answer)
    night.cost("answer", f"/jouer H8 {word}", Cost(2 + len(word), 1 + 2 + 1, 0), "[Jouer], H8, word, send")
    # one answers with the /play form beside them
    values = {"position": "H8", "word": word}
    typed = await shown(dc, await dc.send_interaction("play", values, user=dc.ben, channel_id=dc.channel))
    assert typed.ephemeral
    night.said("Ben", f"/jouer position:H8 mot:{word}", typed)
    night.cost("answer (slash form)", typed_line("play", values), slash_cost(values), "/jou, pick, H8, word")
    await dc.send_interaction("close", None, user=dc.ana, channel_id=dc.channel)
    results = await dc.wait_for_message(lambda r: (r.text or "").startswith("Coup 1 clos"), channel_id=dc.channel)
    night.said("Ana", "/cloture", results)
    standings = await shown(dc, await dc.send_interaction("standings", None, user=dc.ben, channel_id=dc.channel))
    night.said("Ben", "/classement", standings)
    night.cost("standings", "/classement", Cost(PICKED_AFTER, 2, 1), "/cla, pick")
    return night


async def classic_table(dc: ClubDiscord, night: Night) -> None:
    """A classic game joined and a move challenged with buttons, help's sections, a setting chosen from its menu."""
    ended = await shown(dc, await dc.send_interaction("end", {"confirm": True}, user=dc.ana, channel_id=dc.channel))
    night.said("Ana", "/fin confirmer:oui", ended)
    values: dict[str, Any] = {"players": "Ana"}
    created = await with_buttons(dc, await dc.send_interaction("new", values, user=dc.ana, channel_id=dc.channel))
    night.said("Ana", "/nouvelle joueurs:Ana", created)
    joined = await shown(dc, await dc.press(created.message_id or 0, "cmd:/rejoindre", dc.ben))
    night.said("Ben", "[Rejoindre]", joined)
    night.cost("join", "/rejoindre", Cost(0, 1, 0), "[Rejoindre]")
    values = {"position": "H8", "word": "VAGUE"}
    scored = await with_buttons(dc, await dc.send_interaction("score", values, user=dc.ana, channel_id=dc.channel))
    night.said("Ana", "/coup position:H8 mot:VAGUE", scored)
    night.cost("move", typed_line("score", values), slash_cost(values), "/cou, pick, H8, word")
    asked = await shown(dc, await dc.press(scored.message_id or 0, "ask:/conteste", dc.ben))
    night.said("Ben", "[Contester]", asked)
    challenged = await shown(dc, await dc.press(asked.message_id or 0, "cmd:/conteste", dc.ben))
    night.said("Ben", "[✓ Contester]", challenged)
    night.cost("challenge", "/conteste", Cost(0, 2, 0), "[Contester], [✓ Contester]")
    asked_help = await dc.send_interaction("help", None, user=dc.ben, channel_id=dc.channel)
    night.said("Ben", "/aide", await shown(dc, asked_help))
    helped = await with_buttons(dc, asked_help)
    night.lines.append(
        "  " + "  ".join(f"[{c['label']}]" for row in helped.reply_markup or [] for c in row["components"])
    )
    duplicate_help = next(i for i in custom_ids(helped) if "duplicate" in i)
    section = await shown(dc, await dc.press(helped.message_id or 0, duplicate_help, dc.ben))
    night.said("Ben", "[Duplicate]", section)

    shown_settings = await dc.send_interaction("settings show", None, user=dc.ana, channel_id=dc.channel)
    settings = await with_buttons(dc, shown_settings)
    night.said("Ana", "/reglages voir", settings)
    chosen = await shown(
        dc, await dc.press(settings.message_id or 0, "menu:langue", dc.ana, values=["/reglages langue en"])
    )
    night.said("Ana", "menu langue → English", chosen)
    night.cost("a setting", "/reglages langue en", Cost(PICKED_AFTER, 4, 1), "/reg, pick langue, pick English, send")


def total(night: Night, tapped: bool, parts: dict[str, int]) -> Cost:
    """What ``parts`` (interaction -> how many times) cost, typed or (``tapped``) with forms and buttons."""
    found = Cost()
    for what, count in parts.items():
        typed, with_forms, _, _ = night.costs[what]
        found = found + (with_forms if tapped else typed).times(count)
    return found


def document(night: Night) -> str:
    referee = {"start": 1}
    player = {"answer": ROUNDS, "standings": 1}
    rows = [
        "| interaction | typed line | characters, taps, commands typed | with forms and buttons "
        "| characters, taps, commands |",
        "|---|---|---|---|---|",
    ]
    for what, (typed, tapped, line, how) in night.costs.items():
        rows.append(
            f"| {what} | `{line}` | {typed.typed}, {typed.taps}, {typed.commands} | {how} "
            f"| {tapped.typed}, {tapped.taps}, {tapped.commands} |"
        )
    ref_before, ref_after = total(night, False, referee), total(night, True, referee)
    one_before, one_after = total(night, False, player), total(night, True, player)
    everyone_before = ref_before + one_before.times(PLAYERS)
    everyone_after = ref_after + one_after.times(PLAYERS)
    summary = [
        f"| who (a night of {ROUNDS} draws, {PLAYERS} players) | typed: characters, commands | "
        "with forms and buttons: characters, taps, commands |",
        "|---|---|---|",
        f"| the referee | {ref_before.typed}, {ref_before.commands} "
        f"| {ref_after.typed}, {ref_after.taps}, {ref_after.commands} |",
        f"| one player | {one_before.typed}, {one_before.commands} "
        f"| {one_after.typed}, {one_after.taps}, {one_after.commands} |",
        f"| the room | {everyone_before.typed}, {everyone_before.commands} | "
        f"{everyone_after.typed}, {everyone_after.taps}, {everyone_after.commands} |",
    ]
    return "\n".join(
        [
            "# Tapping instead of typing: what a club night costs, and what each new interaction looks like",
            "",
            "Written by `tests/bot/adapters/discord/test_club_night_taps.py` from a real run of discord.py against the"
            " fake Discord",
            "(`ARBITRE_UPDATE_GOLDEN=1` rewrites it); the bot's answers are quoted from that run.",
            "",
            "## A club night, counted",
            "",
            f"The README's duplicate game: the referee starts it with three minutes a move, the clock draws {ROUNDS}",
            f"times and closes each round, each of {PLAYERS} players answers every draw and reads the standings at the",
            "end. Typed, every command is a line sent (its characters counted, slash and spaces included, one",
            "command a line); with forms and buttons, a Discord user types the first letters of a command until the",
            f"picker offers it ({PICKED_AFTER} characters), taps it, fills the options (a yes/no or a member is a tap",
            "to open the option and one to choose), and taps to send; a button is a tap, the Play form a tap to open,",
            "its fields and a tap to send. The answer's position and word are typed either way.",
            "",
            *summary,
            "",
            "Each interaction, measured:",
            "",
            *rows,
            "",
            "Not counted: the referee's `/cloture` (the clock closes each round), the draws' reading, and an English",
            "room's two `/settings` lines, gone since a guild whose preferred locale is English starts in English",
            "(edition `en`, GCG notation) with no command at all.",
            "",
            "## The transcript",
            "",
            "One draw of that night (three players through the Play form, one through `/jouer`'s form), then a",
            "classic table: joined and challenged with buttons, `/aide` with its section buttons, and a setting",
            "chosen from its menu. `▸` is what the user did; `(only them)` an ephemeral answer; `[...]` the buttons",
            "under the answer.",
            "",
            "```text",
            *night.lines,
            "```",
            "",
        ]
    )


def normalised(text: str) -> str:
    """The run's variable parts (the draw, times, ids) replaced by stable stand-ins."""
    text = re.sub(r"\d{2}:\d{2}(:\d{2})?", "HH:MM", text)
    text = re.sub(r"<t:\d+:R>", "<t:…:R>", text)
    return text


@pytest.mark.long(5)
@pytest.mark.asyncio
async def test_a_club_night_costs_fewer_characters_and_commands_with_forms_and_buttons(
    dc: ClubDiscord, adapter: DiscordAdapter
) -> None:
    night = await club_night(dc)
    await classic_table(dc, night)
    answer_typed, answer_tapped, _, _ = night.costs["answer"]
    assert answer_tapped.typed < answer_typed.typed
    assert answer_tapped.commands == 0  # the Play button: no command to type
    assert night.costs["join"][1].typed == 0
    assert night.costs["challenge"][1].typed == 0
    stable = normalised(document(night))  # the draws are seeded: the same night every run
    if os.environ.get("ARBITRE_UPDATE_GOLDEN"):
        DOC.write_text(stable, encoding="utf-8")
    assert stable == DOC.read_text(encoding="utf-8")
