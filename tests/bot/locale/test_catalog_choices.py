"""What used to be chosen by testing a language code is data: the words a command accepts and the usual
time zone come from the catalogs, an edition's default notation and rule set from its file.

Every channel accepts the words of every catalog (as it always accepted French and English ones); a
catalog added in a folder of its own brings its words with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.catalogs import CATALOGS, FALLBACK_ZONE, usual_zone
from bot.messages import edition_name, keywords, language_name
from bot.storage import ChannelSettings
from core.edition import EDITIONS, edition_from_data
from core.notation import Notation, default_notation
from core.rules import RULE_SETS, box_rules, edition_rules
from tests.club import CHANNEL, Club

HEADER = """msgid ""
msgstr ""
"Language: zz\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""
ZZ_WORDS = {
    "keywords_manual": "handbuch",
    "keywords_reject": "weg",
    "keywords_words_add": "dazu",
    "setting_words_minutes": "uhr",
    "default_timezone": "Europe/Berlin",
}


@pytest.fixture
def zz(tmp_path: Path) -> Iterator[str]:
    """A catalog of the language ``zz`` that has only its words and its time zone."""
    folder = tmp_path / "locale"
    po = folder / "zz" / "LC_MESSAGES" / "arbitre.po"
    po.parent.mkdir(parents=True)
    po.write_text(HEADER + "".join(f'msgid "{k}"\nmsgstr "{v}"\n\n' for k, v in ZZ_WORDS.items()), encoding="utf-8")
    CATALOGS.add_directory(folder)
    yield "zz"
    CATALOGS.remove_directory(folder)


def speaking(club: Club, lang: str) -> None:
    club.storage.save_channel(club.storage.channel(CHANNEL).with_changes(language=lang))


# --- keywords ------------------------------------------------------------------------------------------


def test_the_words_of_a_meaning_are_every_catalogs() -> None:
    assert keywords("keywords_manual") == {"manual", "manuel", "manuelle"}
    assert keywords("keywords_reject") == {"reject", "rejet"}
    assert keywords("keywords_words_add") == {"add", "ajoute", "ajouter", "ajout"}
    assert keywords("keywords_words_remove") == {"remove", "retire", "retirer", "enleve", "supprime"}
    assert keywords("setting_words_minutes") == {"minutes", "clock", "temps", "chrono"}
    assert keywords("keywords_free") == {"free", "libre", "liberer"}


@pytest.mark.parametrize(("lang", "manual", "reject"), [("en", "manual", "reject"), ("fr", "manuel", "rejet")])
def test_a_channel_takes_the_duplicate_words_of_its_language(club: Club, lang: str, manual: str, reject: str) -> None:
    speaking(club, lang)
    started = club.ok("Ref", f"/duplicate {manual}")
    assert {"en": "manual (/draw)", "fr": "manuels (/tirage)"}[lang] in started
    club.ok("Ref", "/draw AEEISTU")
    rejected = club.ok("Ref", f"/draw {reject}")
    assert rejected.startswith({"en": "Draw AEEISTU rejected", "fr": "Tirage AEEISTU rejeté"}[lang])
    # in capitals the word is letters to draw, as it always was (refused: the draw shown is still open)
    assert "rejected" not in club.refused("Ref", f"/draw {reject.upper()}")
    assert "rejeté" not in club.refused("Ref", f"/draw {reject.upper()}")


@pytest.mark.parametrize(("lang", "add", "remove"), [("en", "add", "remove"), ("fr", "ajoute", "enlève")])
def test_a_channel_takes_the_house_word_actions_of_its_language(club: Club, lang: str, add: str, remove: str) -> None:
    speaking(club, lang)
    club.ok("Admin", f"/words {add} KAOS", admin=True)
    assert "KAOS" in club.ok("Admin", "/words")
    club.ok("Admin", f"/words {remove} KAOS", admin=True)
    assert "KAOS" not in club.ok("Admin", "/words")


@pytest.mark.parametrize(
    ("lang", "word", "value", "shown"),
    [("en", "tz", "Europe/London", "time zone Europe/London"), ("fr", "chrono", "2", "2 min par coup")],
)
def test_a_channel_takes_the_setting_words_of_its_language(
    club: Club, lang: str, word: str, value: str, shown: str
) -> None:
    speaking(club, lang)
    assert shown in club.ok("Admin", f"/settings {word} {value}", admin=True)


def test_the_french_words_still_work_in_an_english_channel(club: Club) -> None:
    speaking(club, "en")
    assert "manual (/draw)" in club.ok("Ref", "/duplicate manuelle")
    club.ok("Admin", "/words ajoute KAOS", admin=True)
    assert "2 min per duplicate move" in club.ok("Admin", "/settings temps 2", admin=True)


def test_a_catalog_added_brings_its_words(club: Club, zz: str) -> None:
    assert "handbuch" in keywords("keywords_manual")
    assert "manuel" in keywords("keywords_manual")
    assert "manuels (/tirage)" in club.ok("Ref", "/duplicate HANDBUCH")  # a French channel
    club.ok("Ref", "/tirage AEEISTU")
    assert club.ok("Ref", "/tirage weg").startswith("Tirage AEEISTU rejeté")
    club.ok("Admin", "/mots dazu KAOS", admin=True)
    assert "KAOS" in club.ok("Admin", "/mots")
    assert "3 min par coup" in club.ok("Admin", "/reglages uhr 3", admin=True)


def test_a_language_is_shown_by_the_name_its_catalog_gives_it_an_edition_by_its_name(zz: str) -> None:
    assert (language_name("fr"), language_name("en")) == ("Français", "English")
    assert language_name(zz) == zz  # a catalog that names not its language: its code
    assert (edition_name("fr"), edition_name("ca")) == ("Français (FISF)", "Català (FISC)")
    assert edition_name("xx") == "xx"


def test_without_the_catalog_its_words_are_unknown(club: Club) -> None:
    assert "handbuch" not in keywords("keywords_manual")
    assert "/duplicate" in club.refused("Ref", "/duplicate handbuch")


# --- the usual time zone -------------------------------------------------------------------------------


def test_the_usual_time_zone_is_the_catalogs() -> None:
    assert usual_zone("fr") == "Europe/Paris"
    assert usual_zone("en") == "UTC"
    assert ChannelSettings("c").zone == "Europe/Paris"  # a new channel speaks French
    assert ChannelSettings("c", language="en").zone == "UTC"
    assert ChannelSettings("c", language="en", timezone="Asia/Tokyo").zone == "Asia/Tokyo"  # a chosen one wins


def test_a_catalog_names_its_languages_time_zone(zz: str) -> None:
    assert ChannelSettings("c", language=zz).zone == "Europe/Berlin"


def test_a_language_without_a_time_zone_shows_utc() -> None:
    assert usual_zone("qq") == FALLBACK_ZONE == "UTC"  # no catalog at all
    assert ChannelSettings("c", language="qq").zone == "UTC"


def test_a_new_channel_shows_times_in_its_languages_zone(club: Club) -> None:
    assert "fuseau Europe/Paris" in club.ok("Admin", "/reglages")
    speaking(club, "en")
    assert "time zone UTC" in club.ok("Admin", "/settings")


# --- an edition's defaults -------------------------------------------------------------------------------


def test_every_edition_file_names_a_known_rule_set_and_notation() -> None:
    for code, edition in EDITIONS.items():
        assert edition.rules in RULE_SETS, code
        assert box_rules(code) is RULE_SETS[edition.rules]
        assert default_notation(code) is Notation(edition.notation)


def test_the_shipped_editions_keep_their_defaults() -> None:
    assert (box_rules("fr").code, default_notation("fr")) == ("box-fr", Notation.FISF)
    assert (box_rules("en").code, default_notation("en")) == ("box-en", Notation.GCG)
    assert box_rules("zz").code == "box-en"  # a code no file has


def test_an_editions_rule_set_is_its_files() -> None:
    tiles = [
        {"label": letter, "value": 1, "count": 4, "kind": "vowel" if letter in "AEIOU" else "consonant"}
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ]
    for rules in ("fisf", "wespa", "box-fr"):
        edition = edition_from_data({"code": "tt", "name": "Test", "rules": rules, "tiles": tiles})
        assert edition_rules(edition) is RULE_SETS[rules]


def test_a_channel_choosing_an_edition_takes_its_files_defaults(club: Club) -> None:
    for code, edition in EDITIONS.items():
        settings = ChannelSettings("c").with_edition(code)
        assert (settings.notation, settings.rules, settings.lexicon) == (edition.notation, edition.rules, code)
    defaults = ChannelSettings("c")
    assert (defaults.notation, defaults.rules) == (
        EDITIONS[defaults.edition].notation,
        EDITIONS[defaults.edition].rules,
    )
    shown = club.ok("Admin", "/reglages edition en", admin=True)
    assert "notation gcg, règles box-en" in shown
