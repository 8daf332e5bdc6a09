"""The message catalogs (``bot/locale``): complete in every language, plural forms and French elision,
no silent fallback, and a new language is a new catalog file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.catalogs import CATALOGS, LOCALE_DIR, MissingMessageError, UnknownLanguageError, french_de, placeholders
from bot.chat import Incoming
from bot.commands import find
from bot.games.common.general import SETTINGS, setting_values
from bot.games.installed import COMMANDS
from bot.messages import join_notes, languages, say
from bot.referee import Referee
from bot.storage import GameKind, GameStatus, SQLiteStorage
from core.duplicate import EndReason
from core.errors import SyntaxProblem
from core.errors_duplicate import ClockAction, TakeBackBlock
from core.game import LineKind
from core.tie import TieRule
from tests.paths import REPO_ROOT, TEST_DATA
from tests.ready_lists import ready_registry

ROOT = REPO_ROOT
DATA = TEST_DATA
REFERENCE = "en"
SHIPPED = tuple(sorted(path.name for path in LOCALE_DIR.iterdir() if path.is_dir()))


def test_french_and_english_are_shipped() -> None:
    assert SHIPPED == ("en", "fr")
    assert set(SHIPPED) <= set(languages())


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_is_translated_in_every_language(lang: str) -> None:
    assert CATALOGS.missing(lang, REFERENCE) == []
    assert CATALOGS.missing(REFERENCE, lang) == []


@pytest.mark.parametrize("lang", SHIPPED)
def test_no_fuzzy_or_empty_message_in_the_files(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "arbitre.po").open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        assert not message.fuzzy, message.id
        assert all(forms), (message.id, forms)


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_has_the_same_placeholders_in_every_language(lang: str) -> None:
    reference, catalog = CATALOGS.catalog(REFERENCE), CATALOGS.catalog(lang)
    for key, forms in reference.texts.items():
        expected = set().union(*(placeholders(form) for form in forms))
        found = set().union(*(placeholders(form) for form in catalog.texts[key]))
        counting = reference.counted_by.get(key)
        assert catalog.counted_by.get(key) == counting, key  # plural in every language, counted by the same
        if counting is not None:  # a form may leave the count out ("aucun coup"), not the other values
            expected.discard(counting)
            found.discard(counting)
        assert found == expected, key


def test_plural_forms_follow_each_language() -> None:
    assert [say("fr", "moves_count", n=n) for n in (0, 1, 2)] == ["0 coup", "1 coup", "2 coups"]
    assert [say("en", "moves_count", n=n) for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert say("fr", "penalty", player="Ben", points=0) == "Pénalité : Ben perd 0 point."
    assert say("fr", "note_challenged", words="OZ, FAZ", count=2) == "contesté : OZ, FAZ non valables"
    assert say("fr", "dup_count", n=3, played=1, players=5) == "Coup 3 : 1 joueur sur 5 a joué."
    assert say("en", "dup_count", n=3, played=2, players=5) == "Move 3: 2 of 5 have played."


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ana", "d'Ana"),
        ("Ben", "de Ben"),
        ("Éric", "d'Éric"),
        ("Hugo", "d'Hugo"),
        ("Yves", "d'Yves"),
        ("Yann", "de Yann"),
        ("@bob", "de @bob"),
        ("Ana (2)", "d'Ana (2)"),
    ],
)
def test_french_elision_of_de(name: str, expected: str) -> None:
    assert french_de(name) == expected


def test_elision_in_messages() -> None:
    assert say("fr", "undo_play", player="Ana", move="H8 VAGUE") == "le coup d'Ana, H8 VAGUE"
    assert say("fr", "undo_play", player="Ben", move="H8 VAGUE") == "le coup de Ben, H8 VAGUE"
    assert say("en", "undo_play", player="Ana", move="H8 VAGUE") == "Ana's move H8 VAGUE"


def test_a_missing_message_is_an_error_never_another_language() -> None:
    with pytest.raises(MissingMessageError):
        say("fr", "no_such_message")
    with pytest.raises(UnknownLanguageError):
        say("zz", "apology")


# Keys the code builds from codes: every code has its message.
DYNAMIC = {
    "line_": [kind.value for kind in LineKind if kind not in (LineKind.PLAY, LineKind.EXCHANGE, LineKind.END)],
    "syntax_": [problem.value for problem in SyntaxProblem],
    "reopen_": [block.value for block in TakeBackBlock],
    "tie_rule_": [TieRule.FEWEST_JOKERS.value, TieRule.ORDER.value, TieRule.ARBITER.value],
    "dup_end_": [reason.value for reason in EndReason],
    "setting_key_": list(SETTINGS),
    "name_": [action.value for action in ClockAction],
    "kind_": [kind.value for kind in GameKind],
    "status_": [status.value for status in GameStatus],
}


def test_every_message_the_code_names_exists() -> None:
    catalog = CATALOGS.catalog(REFERENCE)
    named = set()
    call = re.compile(
        r"(?:\bsay\(\s*(?:(?:[a-z_.]+|\"[a-z]{2,3}\"),\s*)?|UserError\(\s*|word\([a-z_.]+,\s*)\"([a-z0-9_]+)\""
    )
    for path in (ROOT / "bot").rglob("*.py"):
        for match in call.finditer(path.read_text(encoding="utf-8")):
            key = match.group(1)
            named.add(f"image_{key}" if "word(" in match.group(0) else key)
    named.update(f"{prefix}{code}" for prefix, codes in DYNAMIC.items() for code in codes)
    for spec in COMMANDS:
        named.update(f"{part}_{spec.name}" for part in ("name", "usage", "help", "summary"))
    assert len(named) > 300
    assert sorted(key for key in named if key not in catalog) == []


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_commands_a_message_names_are_named_in_its_language(lang: str) -> None:
    """A French message says /coup, never /score (both work, but the channel reads its own language)."""
    own = {spec.name_in(lang) for spec in COMMANDS}
    named = set()
    for key, forms in CATALOGS.catalog(lang).texts.items():
        if key == "console_banner":  # "NAME: /command" shows the form of a line
            continue
        for form in forms:
            named.update(re.findall(r"(?<![\w/])/([a-z_]+)", form))
    assert named, lang
    assert named <= own, sorted(named - own)


# Words of English that no French message has (command names after a slash and placeholders left out).
ENGLISH = set(
    "the is are was not and with of for this that these there your you please try again move moves game games "
    "player players turn draw letters tiles tile word words valid invalid challenge challenged passes exchange "
    "penalty standings board bag closed left played round clock seconds settings list house yes only must can "
    "cannot will has have been by from its it to no none nothing here already running stopped".split()
)


def english_words(text: str) -> set[str]:
    text = re.sub(r"\{[^}]*\}", " ", text)  # placeholders
    text = re.sub(r"/[a-z_]+", " ", text)  # command names
    return {word for word in re.findall(r"[a-zàâçéèêëîïôûùüÿœ']+", text) if word in ENGLISH}


def test_no_french_message_holds_an_english_word() -> None:
    found = {}
    for key, forms in CATALOGS.catalog("fr").texts.items():
        words = set().union(*(english_words(form) for form in forms))
        if words:
            found[key] = sorted(words)
    assert found == {}


PROPER_NOUNS = {"Grammalecte"}  # names that keep their capital after « : »


def colons_without_space(text: str) -> list[str]:
    """The colons of a French message not preceded by a space; format specs ({player:de}), times (19:40),
    addresses (https://) and typed syntax quoted in « » (« NOM: /commande ») aside."""
    text = re.sub(r"\{[^}]*\}", "X", text)
    text = re.sub(r"«[^»]*»", "X", text)
    text = re.sub(r"\d:\d|://", "X", text)
    return re.findall(r"\S*[^ \u00a0\u202f\n]:\S*", text)


def capitals_after_colon(text: str) -> list[str]:
    """The words after « : » mid-sentence written with a capital: a sentence set after a colon goes on in
    lowercase (a word in capitals such as VAGuE, a reference, a placeholder or a proper noun may follow)."""
    words = re.findall(r" : ([^\s{«/\d]\S*)", text)
    return [w for w in words if w[0].isupper() and w[1:2].islower() and w.strip(".,;)") not in PROPER_NOUNS]


def test_french_messages_have_a_space_before_the_colon_and_go_on_in_lowercase() -> None:
    found = {}
    for key, forms in CATALOGS.catalog("fr").texts.items():
        if key.startswith("usage_"):
            continue  # a command's syntax line (/verif [LISTE:] MOT...), typed as it is
        faults = [fault for form in forms for fault in colons_without_space(form) + capitals_after_colon(form)]
        if faults:
            found[key] = faults
    assert found == {}
    assert colons_without_space("8 coups: Ana 318") == ["coups:"]
    assert capitals_after_colon("il vaudra 0 : Le mot") == ["Le"]
    assert colons_without_space("fin à {clock} (19:40) : « NOM: /coup » {player:de}") == []
    assert capitals_after_colon("Tirage : EEU+ESI? — liste : Grammalecte. Top : H8 VAGUE") == []


# --- a language added as a catalog ---------------------------------------------------------------------


@pytest.fixture
def xx() -> Iterator[str]:
    directory = DATA / "locale"
    CATALOGS.add_directory(directory)
    yield "xx"
    CATALOGS.remove_directory(directory)


def test_adding_a_language_is_adding_a_catalog(xx: str, tmp_path: Path) -> None:
    assert xx in languages()
    assert xx in setting_values()["language"]
    score, new = find("punkte"), find("neu")
    assert score is not None
    assert score.name == "score"
    assert new is not None
    assert new.name == "new"
    assert [say(xx, "moves_count", n=n) for n in (0, 1, 5)] == ["XX kein Zug", "XX ein Zug", "XX 5 Züge"]
    missing = CATALOGS.missing(xx)
    assert "apology" in missing
    assert "name_score" not in missing
    with pytest.raises(MissingMessageError):
        say(xx, "apology")

    storage = SQLiteStorage(tmp_path / "xx.sqlite")
    referee = Referee(storage, ready_registry(), images=False)
    storage.save_channel(storage.channel("room").with_changes(language=xx))
    try:
        (started,) = referee.handle(Incoming("room", "u:ana", "Ana", "/neu Ana Ben"))
        assert started.text.startswith("XX neu (fr, box-fr, fisf): Ana, Ben; Ana zuerst.")
        (scored,) = referee.handle(Incoming("room", "u:ana", "Ana", "/punkte H8 VAGUE"))
        assert scored.text.splitlines()[0] == "XX Ana legt H8 VAGUE"
        assert "XX Stand: Ana 20 · Ben 0" in scored.text
        assert scored.text.endswith("XX Ben ist dran.")
    finally:
        referee.clock.shutdown()
        storage.close()


@pytest.mark.parametrize(
    ("lang", "notes", "joined"),
    [
        ("fr", ["non valide : ZZZ", "", "zéro § 5.4.1.c", "corrigé"], "non valide : ZZZ ; zéro § 5.4.1.c ; corrigé"),
        ("en", ["invalid: ZZZ", "", "zero § 5.4.1.c", "corrected"], "invalid: ZZZ; zero § 5.4.1.c; corrected"),
    ],
)
def test_notes_on_one_line_take_the_languages_semicolon(lang: str, notes: list[str], joined: str) -> None:
    """French sets a space before its semicolon (a result row's reason and sanction: "... ZZZ ; zéro")."""
    assert join_notes(lang, notes) == joined
    assert join_notes(lang, ["", ""]) == ""
