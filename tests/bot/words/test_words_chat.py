"""House words from the chat (/words, /mots) and word lists that never make a command wait (issue #12).

Real SQLite files, the real bundled lists; lists being prepared are the registry's own background
compiles (held back by a gate where a test needs them to last).
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.chat import Reply
from bot.storage import SQLiteStorage
from bot.words.game_lists import prepare_at_start
from bot.words.loader import BUNDLED, LexiconRegistry, lexicon_dir, load, resolve
from core.gcg import read_gcg
from core.lexicon import Lexicon
from tests.bot.words.test_lexicons import GatedLoader
from tests.club import CHANNEL, START, Club

# --- /words: who may change them, who made each change and when ---------------------------------


def test_house_words_are_listed_by_anyone_and_changed_by_a_channel_admin_only(club: Club) -> None:
    assert "Ce salon n'a pas de mots maison pour la liste fr" in club.ok("Zed", "/mots")
    assert "administrateur du salon" in club.refused("Zed", "/mots ajoute KA")
    added = club.ok("Admin", "/mots ajoute xvague, KA", admin=True)
    assert "Accepté désormais dans ce salon : XVAGUE." in added
    assert "Déjà dans la liste fr : KA." in added
    assert "Mots maison en vigueur : 1 (liste fr)" in added
    club.ok("Ref", "/nouvelle Ana Ben")
    club.now += 3600
    assert "administrateur du salon" in club.refused("Ref", "/mots retire NEW")  # a game's referee: that game only
    assert "administrateur du salon" in club.refused("Ana", "/mots ajoute ZEK")
    removed = club.ok("Admin", "/words remove NEW", admin=True)  # English sub-words in a French channel
    assert "Refusé désormais dans ce salon : NEW." in removed
    assert "Mots maison en vigueur : 2" in removed
    changes = club.storage.house_word_changes(CHANNEL, "fr")
    assert [(c.action, c.word, c.author, c.name, c.at, c.lexicon) for c in changes] == [
        ("add", "XVAGUE", "u:admin", "Admin", START, "fr"),
        ("remove", "NEW", "u:admin", "Admin", START + 3600, "fr"),
    ]
    listing = club.ok("Zed", "/mots")
    assert "accepté (1) : XVAGUE" in listing
    assert "refusé (1) : NEW" in listing
    assert "-NEW par Admin, 2027-01-15 10:00" in listing
    assert "+XVAGUE par Admin, 2027-01-15 09:00" in listing
    assert listing.index("-NEW") < listing.index("+XVAGUE")  # the latest change first


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("/mots ajoute", "Syntaxe : /mots [LISTE] [ajoute|retire MOT...]"),
        ("/mots efface KA", "Syntaxe : /mots [LISTE] [ajoute|retire MOT...]"),
        ("/mots ajoute K4", "« K4 » n'est pas un mot (2 à 15 lettres)."),
        ("/mots ajoute " + " ".join(f"MOT{chr(65 + i)}" for i in range(21)), "20 mots au plus par commande."),
    ],
)
def test_a_change_that_cannot_be_made_is_refused_and_stores_nothing(club: Club, text: str, answer: str) -> None:
    assert answer in club.refused("Admin", text, admin=True)


def test_house_words_survive_a_restart(club: Club) -> None:
    club.ok("Admin", "/mots ajoute XVAGUE", admin=True)
    club.ok("Admin", "/mots retire VAGUE", admin=True)
    club.restart()
    assert "accepté (1) : XVAGUE" in club.ok("Zed", "/mots")
    assert "refusé (1) : VAGUE" in club.ok("Zed", "/mots")
    checked = club.ok("Zed", "/verif XVAGUE VAGUE MAISON")
    assert checked == (
        "XVAGUE valable (mot maison), VAGUE non valable (mot maison), MAISON valable (liste : fr + 2 mots maison)"
    )
    assert "XVAGUE non valable, VAGUE valable" in club.ok("Zed", "/verif XVAGUE VAGUE", channel="other")
    assert "liste fr + 2 mots maison" in club.ok("Zed", "/reglages")


# --- house words belong to a list; removing an added word undoes it (issue #20) -----------------


def test_a_french_channels_house_words_never_decide_an_english_game(club: Club) -> None:
    club.ok("Max", "/mots ajoute ZEF", admin=True)
    club.ok("Ana", "/nouvelle en Ana Ben")
    club.ok("Ana", "/coup 8G ZEF")
    struck = club.ok("Ben", "/conteste")
    assert "ZEF non valable." in struck
    assert "Jugé avec la liste en." in struck
    added = club.ok("Max", "/mots ajoute ZEF", admin=True)  # during the English game: for its list
    assert "Mots maison en vigueur : 1 (liste en)" in added
    assert [c.lexicon for c in club.storage.house_word_changes(CHANNEL, "en")] == ["en"]
    assert club.ok("Zed", "/verif ZEF") == "ZEF valable (mot maison) (liste : en + 1 mot maison)"
    assert club.ok("Zed", "/verif fr: ZEF") == "ZEF valable (mot maison) (liste : fr + 1 mot maison)"
    assert "accepté (1) : ZEF" in club.ok("Zed", "/mots fr")
    assert "liste fr" in club.ok("Zed", "/mots fr")


def test_an_english_channels_house_words_never_decide_a_french_game(club: Club) -> None:
    club.ok("Max", "/settings language en", admin=True)
    club.ok("Max", "/settings edition en", admin=True)
    club.ok("Max", "/words add ZOUK", admin=True)  # ZOUK: not in the bundled English list, in the French one
    club.ok("Max", "/words remove VAGUE", admin=True)
    assert (
        club.ok("Ann", "/check VAGUE ZOUK")
        == "VAGUE not valid (house word), ZOUK valid (house word) (list: en + 2 house words)"
    )
    club.ok("Ann", "/new fr Ann Bob")
    club.ok("Ann", "/score H8 VAGUE")
    upheld = club.ok("Bob", "/challenge")
    assert "VAGUE valid." in upheld
    assert "Judged with the list fr." in upheld
    assert club.ok("Ann", "/check VAGUE") == "VAGUE valid (list: fr)"


GAME_EN = ("Ana", "/nouvelle en Ana Ben")


@pytest.mark.parametrize(
    ("lines", "answer"),
    [
        ([GAME_EN], "ZA valable, ZOUK non valable (liste : en)"),  # the running game's list
        ([GAME_EN, ("Ana", "/coup 8G ZA"), ("Ben", "/conteste")], "ZA valable, ZOUK non valable (liste : en)"),
        ([], "ZA non valable, ZOUK valable (liste : fr)"),  # no game: the channel's list
        ([GAME_EN, ("Ana", "/fin !")], "ZA non valable, ZOUK valable (liste : fr)"),  # the game is over
    ],
)
def test_check_uses_the_running_games_list_and_says_which(
    club: Club, lines: list[tuple[str, str]], answer: str
) -> None:
    for name, line in lines:
        club.ok(name, line)
    assert club.ok("Zed", "/verif ZA ZOUK") == answer


def test_check_in_an_english_game_agrees_with_its_challenge(club: Club) -> None:
    club.ok("Max", "/settings language en", admin=True)
    club.ok("Ann", "/new en Ann Bob")
    club.ok("Ann", "/score 8G ZA")
    assert "ZA valid." in club.ok("Bob", "/challenge")
    assert club.ok("Bob", "/check ZA ZOUK") == "ZA valid, ZOUK not valid (list: en)"  # was: (list: fr)
    assert club.ok("Bob", "/check fr: ZA ZOUK") == "ZA not valid, ZOUK valid (list: fr)"  # a list named
    assert "Unknown word list 'xx'" in club.refused("Bob", "/check xx: ZA")


def test_removing_an_added_word_undoes_the_addition_and_the_count_is_what_is_in_force(club: Club) -> None:
    club.ok("Max", "/mots ajoute KAOS ZOUVE", admin=True)
    undone = club.ok("Max", "/mots retire ZOUVE", admin=True)
    assert "N'est plus accepté : ZOUVE (la liste fr ne l'a pas)." in undone
    assert "Mots maison en vigueur : 1 (liste fr)" in undone
    assert (
        club.ok("Zed", "/verif ZOUVE KAOS")
        == "ZOUVE non valable, KAOS valable (mot maison) (liste : fr + 1 mot maison)"
    )
    club.ok("Max", "/mots retire VAGUE", admin=True)  # refusing a list word stays possible
    assert "liste fr + 2 mots maison" in club.ok("Zed", "/reglages")
    again = club.ok("Max", "/mots ajoute VAGUE", admin=True)
    assert "De nouveau accepté : VAGUE (la liste fr l'a)." in again
    assert "en vigueur : 1 (liste fr)" in again
    stored = len(club.storage.house_word_changes(CHANNEL, "fr"))
    nothing = club.ok("Max", "/mots retire ZOUVE ZZZQ", admin=True)  # neither added nor in the list
    assert "Absents de la liste fr de toute façon : ZOUVE, ZZZQ." in nothing
    assert "Déjà acceptés dans ce salon : KAOS." in club.ok("Max", "/mots ajoute KAOS", admin=True)
    assert len(club.storage.house_word_changes(CHANNEL, "fr")) == stored  # nothing that changes no verdict
    listing = club.ok("Zed", "/mots")
    assert "accepté (1) : KAOS" in listing
    assert "refusé" not in listing
    assert "+VAGUE par Max" in listing
    assert "-VAGUE par Max" in listing
    assert "-ZOUVE par Max" in listing
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 KAOS")
    assert "Jugé avec la liste fr + 1 mot maison." in club.ok("Ben", "/conteste")


def test_in_english_removing_an_added_word_undoes_it(club: Club) -> None:
    club.ok("Max", "/settings language en", admin=True)
    club.ok("Max", "/settings edition en", admin=True)
    club.ok("Max", "/words add KAOS", admin=True)
    undone = club.ok("Max", "/words remove KAOS", admin=True)
    assert "No longer accepted: KAOS (the list en lacks it)." in undone
    assert "House words in force: 0 (list en)" in undone
    assert club.ok("Zed", "/check KAOS") == "KAOS not valid (list: en)"
    assert "This channel has no house words for the list en" in club.ok("Zed", "/words")


# --- classic games: challenges, the sheet and the GCG record --------------------------------------


def test_house_words_decide_challenges_and_the_record_says_which_were_used(club: Club) -> None:
    club.ok("Ref", "/nouvelle Ana Ben", channel="other")  # a channel without house words: the list decides
    club.ok("Ana", "/coup H8 XVAGUE", channel="other")
    assert "XVAGUE non valable" in club.ok("Ben", "/conteste", channel="other")

    club.ok("Ref", "/nouvelle Ana Ben")
    club.ok("Admin", "/mots ajoute XVAGUE", admin=True)
    club.ok("Ana", "/coup H8 XVAGUE")
    upheld = club.ok("Ben", "/conteste")
    assert "XVAGUE valable (mot maison)" in upheld
    assert "Jugé avec la liste fr + 1 mot maison." in upheld
    club.ok("Admin", "/mots retire VOGUE", admin=True)
    club.ok("Ana", "/coup 9H VOGUE")
    struck = club.ok("Ben", "/conteste")
    assert "VOGUE non valable (mot maison)" in struck
    assert "liste fr + 2 mots maison" in struck
    verdicts = [c["verdict_list"] for c in club.events("challenge")]
    assert verdicts == [
        {"list": "fr", "house": ["+XVAGUE"]},
        {"list": "fr", "house": ["+XVAGUE", "-VOGUE"]},
    ]
    sheet = club.ok("Zed", "/feuille")
    assert "Contestation 1 jugée avec la liste fr + 1 mot maison (+XVAGUE)." in sheet
    assert "Contestation 2 jugée avec la liste fr + 2 mots maison (+XVAGUE -VOGUE)." in sheet
    (export,) = club.send("Zed", "/export")
    assert export.document is not None
    gcg = export.document.decode()
    assert "#lexicon fr\n#arbitre-house-words +XVAGUE\n#arbitre-house-words +XVAGUE -VOGUE\n" in gcg
    record = read_gcg(gcg, strict=True)
    assert record.lexicon == "fr"
    assert ("arbitre-house-words", "+XVAGUE") in [(n, v) for _, n, v in record.pragmata]
    club.ok("Ref", "/annule")  # the second challenge taken back: the sheet no longer counts it
    assert "Contestation 2" not in club.ok("Zed", "/feuille")


def test_a_sheet_without_challenges_names_no_list(club: Club) -> None:
    club.ok("Ref", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    assert "jugée avec" not in club.ok("Zed", "/feuille")


# --- duplicate games: submissions and tops --------------------------------------------------------

DRAW = "KVASEIU"


def _play_round(club: Club, channel: str) -> str:
    club.ok("Ref", "/duplicate 1 manuel", admin=True, channel=channel)
    club.wait_for_tops_list(channel)
    club.ok("Ref", f"/tirage {DRAW}", admin=True, channel=channel)
    club.ok("Ana", "/jouer H3 UKVASIE", private=True, channel=channel)
    club.ok("Ben", "/jouer H5 KVAS", private=True, channel=channel)
    return club.ok("Ref", "/cloture", admin=True, channel=channel)


@pytest.mark.parametrize(
    ("house", "top", "ana", "ben"),
    [
        ("", "Top : H5 KVAS — 32 points", "Ana : H3 UKVASIE 0 — mot non valable : UKVASIE", "Ben : H5 KVAS 32 (top)"),
        ("ajoute UKVASIE", "Top : H3 UKVASIE — 108 points", "Ana : H3 UKVASIE 108 (top)", "Ben : H5 KVAS 32"),
        ("retire KVAS", "Top : ", "Ana : H3 UKVASIE 0 — mot non valable : UKVASIE", "Ben : H5 KVAS 0 — mot non"),
    ],
)
def test_house_words_change_duplicate_tops_and_submissions(
    club: Club, house: str, top: str, ana: str, ben: str
) -> None:
    if house:
        club.ok("Admin", f"/mots {house}", admin=True)
    closed = _play_round(club, CHANNEL)
    lines = closed.splitlines()
    assert any(line.startswith(top) for line in lines), closed
    assert any(line.startswith(ana) for line in lines), closed
    assert any(line.startswith(ben) for line in lines), closed
    if house == "retire KVAS":
        assert "KVAS" not in next(line for line in lines if line.startswith("Top : "))
    expected_house = {"": [], "ajoute UKVASIE": ["+UKVASIE"], "retire KVAS": ["-KVAS"]}[house]
    assert club.events("close")[0]["verdict_list"] == {"list": "fr", "house": expected_house, "round": 1}
    sheet = club.ok("Zed", "/feuille")
    words = f" ({' '.join(expected_house)})" if expected_house else ""
    lists = "fr + 1 mot maison" if expected_house else "fr"
    assert f"Coup 1 jugé avec la liste {lists}{words}." in sheet


def test_a_change_mid_game_applies_from_the_next_close(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", f"/tirage {DRAW}", admin=True)  # its top is searched now, on the list without house words
    club.ok("Ana", "/jouer H3 UKVASIE", private=True)
    club.ok("Ref", "/mots ajoute UKVASIE", admin=True)
    preparing = club.send("Ref", "/cloture", admin=True)  # the list with UKVASIE may still be compiling
    if preparing[0].error:
        assert "La liste fr avec les mots maison du salon est en cours de préparation" in preparing[0].text
        assert not club.events("close")
        club.wait_for_tops_list()
        closed = club.ok("Ref", "/cloture", admin=True)
    else:
        closed = "\n".join(r.text for r in preparing)
    assert "Top : H3 UKVASIE — 108 points" in closed
    assert "Ana : H3 UKVASIE 108 (top)" in closed


# --- lists being prepared: answered at once, never blocking another channel -----------------------


def small_bundled_lists(folder: Path, prefix: bytes = b"VA") -> Path:
    """A lists folder (``ARBITRE_LEXICONS``) whose fr and en are the bundled lists' words that start with
    ``prefix``: real lists of real words, compiled in a moment rather than in seconds."""
    folder.mkdir()
    sources = json.loads((lexicon_dir() / "SOURCES.json").read_text(encoding="utf-8"))
    (folder / "SOURCES.json").write_text(json.dumps(sources), encoding="utf-8")
    for spec in BUNDLED:
        words = gzip.decompress(resolve(spec).read_bytes()).split(b"\n")
        kept = [word for word in words if word[: len(prefix)].upper() == prefix]
        (folder / sources[spec]["file"]).write_bytes(gzip.compress(b"\n".join(kept) + b"\n"))
    return folder


def test_with_an_empty_cache_the_first_challenge_waits_for_its_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real compile and cache of a bundled list (a smaller one: the full French list is compiled once
    for the whole suite by ``tests.ready_lists``), held back while the challenge waits for it (issue 37,
    item 16: it was refused, "réessayez dans un instant", and the player had to type it again)."""
    monkeypatch.setenv("ARBITRE_LEXICONS", str(small_bundled_lists(tmp_path / "lists")))
    monkeypatch.setenv("ARBITRE_CACHE", str(tmp_path / "cache"))
    loader = GatedLoader({"fr"})
    registry = LexiconRegistry(loader)
    storage = SQLiteStorage(tmp_path / "fresh.sqlite")
    prepare_at_start(registry, storage)  # what the console, Discord and Telegram do as they start
    club = Club(tmp_path / "fresh.sqlite", registry)
    try:
        club.ok("Ana", "/nouvelle Ana Ben")
        club.ok("Ana", "/coup H8 VAGUE")
        replies: list[Reply] = []
        challenge = threading.Thread(target=lambda: replies.extend(club.send("Ben", "/conteste")))
        challenge.start()
        assert loader.started.wait(timeout=60)
        assert not (tmp_path / "cache" / "lexicons").exists()
        assert challenge.is_alive()
        assert not replies
        loader.gate.set()
        challenge.join(timeout=60)
        assert not challenge.is_alive()
        assert not any(r.error for r in replies)
        assert "VAGUE valable" in "\n".join(r.text for r in replies)  # answered once the list is ready
        assert (tmp_path / "cache" / "lexicons").is_dir()
        assert "VALSE" in registry.get("fr")
        assert "MAISON" not in registry.get("fr")
    finally:
        loader.gate.set()
        registry.wait()
        club.close()
        storage.close()


def answered_within(
    club: Club, name: str, text: str, channel: str, seconds: float = 60, admin: bool = False
) -> list[Reply]:
    """The replies to a command sent from another thread (a command blocked forever fails the test)."""
    replies: list[Reply] = []
    worker = threading.Thread(target=lambda: replies.extend(club.send(name, text, channel=channel, admin=admin)))
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), f"{text} in {channel} waited for another channel's list"
    return replies


def test_a_list_being_compiled_never_blocks_another_channels_commands(tmp_path: Path) -> None:
    loader = GatedLoader({"fr"})
    registry = LexiconRegistry(loader)
    registry.get("en")
    club = Club(tmp_path / "two.sqlite", registry)
    try:
        club.ok("Admin", "/reglages edition en", admin=True, channel="english")
        club.ok("Admin", "/reglages langue en", admin=True, channel="english")
        french: list[Reply] = []  # the French channel's command waits for its list (issue 37, item 16)
        waiting = threading.Thread(target=lambda: french.extend(club.send("Ana", "/verif VAGUE", channel="french")))
        waiting.start()
        assert loader.started.wait(timeout=60)  # fr is being compiled, held back
        (served,) = answered_within(club, "Ann", "/check QI ZA", "english")
        assert served.text == "QI valid, ZA valid (list: en)"
        club.ok("Ann", "/new Ann Bob", channel="english")
        club.ok("Ann", "/score 8G ZAX", channel="english")
        assert "ZAX valid" in club.ok("Bob", "/challenge", channel="english")
        assert waiting.is_alive()
        assert not french
        loader.gate.set()
        waiting.join(timeout=60)
        assert len(french) == 1
        assert not french[0].error
        assert "VAGUE valable" in french[0].text
    finally:
        loader.gate.set()
        registry.wait()
        club.close()
    assert "VAGUE valable" in Club(tmp_path / "two.sqlite", registry).say("Ana", "/verif VAGUE", channel="french")


def test_the_clock_waits_for_a_list_being_prepared_and_closes_at_a_later_tick(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", "/tirage AEGUVSL", admin=True)
    club.ok("Ana", "/jouer H4 VAGUES", private=True)
    loader = GatedLoader({"fr"})
    cold = LexiconRegistry(loader)
    club.restart(cold)
    prepare_at_start(cold, club.storage)  # a restart with a cold cache
    waiting = club.tick(70)
    assert [r.text for r in waiting] == [
        f"Temps écoulé pour le coup 1 : la liste fr est en cours de préparation, résultats dans environ "
        f"{waiting[0].text.split('environ ')[1].split(' s')[0]} s."
    ]
    assert not club.events("close")
    assert club.tick(5) == []
    loader.gate.set()
    cold.wait()
    closed = "\n".join(r.text for r in club.tick(1))
    assert "Coup 1 — tirage : AEGLSUV — manche close." in closed
    assert "Ana : H4 VAGUES" in closed
    assert len(club.events("close")) == 1


def test_at_start_the_lists_in_use_are_prepared_with_the_house_words_of_open_rounds(tmp_path: Path) -> None:
    club = Club(tmp_path / "start.sqlite")
    try:
        club.ok("Admin", "/reglages edition en", admin=True, channel="english")
        club.ok("Admin", "/mots ajoute ZOUKQX", admin=True)
        club.ok("Ref", "/duplicate 1", admin=True)  # an open round, its tops on fr with ZOUKQX
        registry = LexiconRegistry()
        thread = prepare_at_start(registry, club.storage)
        for_tops = club.referee.lists.movegen_name("fr", CHANNEL)
        assert for_tops != "fr"
        thread.join(timeout=600)
        assert registry.is_ready("fr")
        assert registry.is_ready("en")
        assert "ZOUKQX" in registry.ready(for_tops)
        assert "ZOUKQX" not in registry.ready("fr")
    finally:
        club.close()


def test_after_a_restart_house_words_apply_to_an_overdue_round_without_compiling_the_list(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    club.ok("Max", "/mots ajoute UKVASIE", admin=True)
    club.ok("Max", "/mots retire KVAS", admin=True)
    club.ok("Ref", "/duplicate 1 manuel", admin=True)
    club.ok("Ref", f"/tirage {DRAW}", admin=True)
    club.ok("Ana", "/jouer H3 UKVASIE", private=True)
    club.ok("Ben", "/jouer H5 KVAS", private=True)
    for spec in BUNDLED:
        load(spec)  # the cache is warm, as on a bot's second start
    compiled: list[int] = []
    compile_words = Lexicon.from_words.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Lexicon], words: Iterable[str], *args: Any, **options: Any) -> Lexicon:
        listed = list(words)
        compiled.append(len(listed))
        return compile_words(cls, listed, *args, **options)  # type: ignore[no-any-return]

    monkeypatch.setattr(Lexicon, "from_words", classmethod(counted))
    fresh = LexiconRegistry()
    club.restart(fresh)
    prepare_at_start(fresh, club.storage).join(timeout=120)
    closed = "\n".join(r.text for r in club.tick(70))  # the round is overdue: closed at the first tick
    assert "Top : H3 UKVASIE — 108 points" in closed
    assert "Ana : H3 UKVASIE 108 (top)" in closed
    assert "Ben : H5 KVAS 0 — mot non valable : KVAS" in closed
    assert compiled == []  # the list was read from its cache and patched with the house words: nothing compiled
