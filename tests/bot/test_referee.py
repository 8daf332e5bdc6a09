"""The command layer in-process: garbage never escapes, every command answers, permissions."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.chat import Incoming, read_command
from bot.games.installed import COMMANDS
from bot.referee import Referee
from bot.storage import SQLiteStorage
from bot.words.loader import LexiconRegistry, Loaded, WordListError
from tests.ready_lists import ready_registry

REGISTRY = ready_registry()


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[Referee]:
    storage = SQLiteStorage(tmp_path / "r.sqlite")
    yield Referee(storage, REGISTRY, images=False, bot_name="ArbitreBot")
    storage.close()


def msg(name: str, text: str, *, admin: bool = False, private: bool = False) -> Incoming:
    return Incoming("chan", f"u:{name.lower()}", name, text, private=private, admin=admin)


@pytest.mark.parametrize(
    ("text", "name", "args", "bot"),
    [
        ("/score H8 VAGUE", "score", "H8 VAGUE", None),
        ("/score@ArbitreBot h8 vague", "score", "h8 vague", "ArbitreBot"),
        ("!coup H 8 VAGUE", "coup", "H 8 VAGUE", None),
        ("/Pénalité Ben 5", "penalite", "Ben 5", None),
        ("  /aide", "aide", "", None),
    ],
)
def test_read_command(text: str, name: str, args: str, bot: str | None) -> None:
    command = read_command(text)
    assert command is not None
    assert (command.name, command.args, command.addressed_to) == (name, args, bot)


def test_plain_text_is_not_a_command(referee: Referee) -> None:
    assert read_command("hello everyone") is None
    assert referee.handle(msg("Ana", "H8 VAGUE")) == []


def test_commands_for_another_bot_are_ignored(referee: Referee) -> None:
    assert referee.handle(msg("Ana", "/help@OtherBot")) == []
    assert referee.handle(msg("Ana", "/help@ArbitreBot"))


def test_every_command_and_alias_answers_without_a_game(referee: Referee) -> None:
    for spec in COMMANDS:
        for name in {spec.name, *spec.names().values()}:
            replies = referee.handle(msg("Ana", f"/{name}", admin=True))
            assert replies, name
            assert all(r.text for r in replies), name


def test_only_the_player_to_move_or_the_referee_records(referee: Referee) -> None:
    referee.handle(msg("Ref", "/new Ana Ben"))
    (reply,) = referee.handle(msg("Ben", "/score H8 VAGUE"))
    assert "C'est à Ana de jouer" in reply.text
    (reply,) = referee.handle(msg("Ana", "/score H8 VAGUE"))
    assert "Ana : H8 VAGUE" in reply.text
    (reply,) = referee.handle(msg("Ref", "/score 8H VOGUE"))  # the referee types for Ben
    assert "Ben : 8H VOGUE" in reply.text
    (reply,) = referee.handle(msg("Ana", "/undo"))
    assert "Seul l'arbitre de la partie (Ref)" in reply.text
    (reply,) = referee.handle(msg("Zoe", "/annule", admin=True))  # a channel admin may
    assert "Annulé : le coup de Ben, 8H VOGUE." in reply.text


def test_private_errors_stay_private(referee: Referee) -> None:
    (reply,) = referee.handle(msg("Ana", "/nope", private=True))
    assert reply.to_user == "u:ana"


def test_unexpected_error_is_logged_once_and_apologised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def broken(spec: str) -> Loaded:
        raise RuntimeError("disk on fire")

    failing = LexiconRegistry(broken)  # a word list source that fails
    failing.prepare(["fr"]).join(timeout=60)
    storage = SQLiteStorage(tmp_path / "broken.sqlite")
    (reply,) = Referee(storage, failing, images=False).handle(msg("Ana", "/check VAGUE"))
    storage.close()
    assert reply.text.startswith("Désolé")
    assert "Rien n'a été enregistré" in reply.text
    assert sum("command failed" in r.message for r in caplog.records) == 1


garbage = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)  # every character but a surrogate (Cs)
command_names = st.sampled_from(sorted({s.name for s in COMMANDS} | {n for s in COMMANDS for n in s.names().values()}))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=command_names, args=garbage, admin=st.booleans(), private=st.booleans())
def test_garbage_never_escapes_and_always_gets_a_reply(
    referee: Referee, name: str, args: str, admin: bool, private: bool
) -> None:
    if referee.storage.active_game("chan") is None:
        referee.handle(msg("Ana", "/new Ana Ben"))
        referee.handle(msg("Ana", "/score H8 VAGUE"))
    if name in ("new", "nouvelle", "duplicate", "end", "fin", "settings", "reglages") and args.strip():
        args = args[:5]
    replies = referee.handle(msg("Ana", f"/{name} {args}", admin=admin, private=private))
    assert replies
    assert all(isinstance(r.text, str) and r.text for r in replies)


def test_bad_setting_is_explained(referee: Referee) -> None:
    (reply,) = referee.handle(msg("Ana", "/settings bogus 1", admin=True))
    assert "Réglage inconnu ou valeur invalide : bogus 1" in reply.text
    (reply,) = referee.handle(msg("Ana", "/settings rules chess", admin=True))
    assert "Réglages : regles : box-fr, box-en, fisf, naspa, wespa." in reply.text  # the key in the channel's language
    (reply,) = referee.handle(msg("Ana", "/reglages langue xx", admin=True))
    assert reply.text.endswith("Réglages : langue : en, fr.")  # was "language: en, fr" in a French channel
    (reply,) = referee.handle(msg("Ana", "/reglages minutes abc", admin=True))
    assert reply.text.endswith("Réglages : minutes : 0,05-10.")
    referee.handle(msg("Ana", "/settings language en", admin=True))
    (reply,) = referee.handle(msg("Ana", "/settings language xx", admin=True))
    assert reply.text.endswith("Settings: language: en, fr.")


def test_a_display_name_with_a_last_name_matches_its_player(referee: Referee) -> None:
    referee.handle(msg("Ref", "/new Ana Ben"))
    referee.handle(msg("Ana Martin", "/score H8 VAGUE"))
    (reply,) = referee.handle(msg("Ben Lévy", "/score 8H VOGUE"))
    assert "Ben : 8H VOGUE" in reply.text


def test_a_channel_picks_a_list_by_name_never_by_path(
    referee: Referee, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "club.txt").write_text("CHAT\nCHIEN\n")
    (lists / "broken.txt").write_text("CHAT\nsecret line 42\n")
    monkeypatch.setenv("ARBITRE_LISTS", str(lists))
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    (reply,) = referee.handle(msg("Ana", "/settings lexicon /etc/passwd", admin=True))
    assert "Liste inconnue « /etc/passwd »" in reply.text
    assert "club" in reply.text

    def choose(name: str) -> str:
        """The answer to choosing a list once it is prepared (in the background, never in the command)."""
        (reply,) = referee.handle(msg("Ana", f"/settings lexicon {name}", admin=True))
        if "en cours de préparation" in reply.text:  # unless the tiny list was done at once
            assert reply.error
            assert reply.text.startswith(f"La liste {name}.txt est en cours de préparation")
            assert referee.storage.channel("chan").lexicon == "fr"
            with contextlib.suppress(WordListError):
                referee.lexicons.get(str(lists / f"{name}.txt"))  # the preparation is over
            (reply,) = referee.handle(msg("Ana", f"/settings lexicon {name}", admin=True))
        return reply.text

    answer = choose("broken")
    assert "La liste broken.txt est inutilisable (ligne 2)" in answer
    assert "secret" not in answer
    assert referee.storage.channel("chan").lexicon == "fr"
    answer = choose("club")
    assert "liste club.txt" in answer
    assert str(lists) not in answer
    (reply,) = referee.handle(msg("Ana", "/check chat vague"))
    assert reply.text.startswith("CHAT valable, VAGUE non valable")


@pytest.mark.parametrize("args", ["en naspa Ann Bob", "naspa Ann en Bob"])
def test_new_game_edition_brings_its_conventions_and_rules_win_in_any_order(referee: Referee, args: str) -> None:
    (reply,) = referee.handle(msg("Ref", f"/new {args}"))
    assert "Nouvelle partie (en, règles naspa, notation gcg). Joueurs : Ann, Bob." in reply.text
    (reply,) = referee.handle(msg("Ann", "/score 8G ZAX"))
    assert "ZAX (10+1+8)x2 = 38" in reply.text
