"""German proper nouns: the headwords the Ding dictionary lists only as names, and the stems they drop.

The Ding lines are written here in its format (``German :: English``, `` | `` between segments,
``; `` between alternatives); nothing is read from the system.
"""

from __future__ import annotations

from lexicons import hunspell
from lexicons.proper_nouns import (
    DING,
    KEPT,
    ding_proper_nouns,
    headword,
    inhabitant_entries,
    proper_noun_stems,
    split_outside_brackets,
)

DING_LINES = """# Version :: devel 2023-01-30
Berlin (Hauptstadt von Deutschland) [geogr.] | Ostberlin [hist.] :: Berlin (capital of Germany) | East Berlin
Rhein {m} (Fluss) [geogr.] | am Rhein (a. Rh.) :: Rhine (river) | on the Rhine
Deutschland {n} /DE/ (Kfz: /D/) [geogr.] | Norddeutschland {n} :: Germany | Northern Germany
Balkan {m} [geogr.] :: the Balkans
Bern /BE/ (Schweizer Kanton; Hauptort: Bern) [geogr.] :: Bern (Swiss canton)
Michael (männlicher Vorname) :: Mikhail (male given name)
Heidelberg (Stadt in Baden-Württemberg) :: Heidelberg (city in Baden-Württemberg, Germany)
Essen (Stadt in Deutschland) [geogr.] :: Essen (city in Germany)
Essen {n} | Essen und Trinken :: food | food and drink
Polen {n} /PL/ [geogr.] :: Poland
Pole {m}; Polin {f} [soc.] | die Polen {pl} :: Pole | the Poles
Müller {m}; Müllerin {f} | Müller {pl}; Müllerinnen {pl} :: miller | millers
Dorf {n} [geogr.] [soc.] | Dörfer {pl} :: village | villages
Mittelmeerküste {f} [geogr.] :: Mediterranean coast; Mediterranean coastline
Waliser {m}; Waliserin {f} [geogr.] :: Welshman; Welshwoman
Israeli {m,f} [geogr.] | Israelis {pl} :: Israeli | Israelis
Tiroler {adj} [geogr.] [pol.] :: Tyrolean
Deutsch {n}; das Deutsche [ling.] :: German; the German language
Sokrates :: Socrates (Classical Greek philosopher)
Konfuzius (chinesischer Philosoph) :: Confucius (Chinese philosopher)
Tarzan (Figur von Edgar Rice Burroughs) :: Tarzan (fictional character by Edgar Rice Burroughs)
Kiel {m} [naut.] | ein Schiff auf Kiel legen :: keel | to lay down a ship
Kiel (Stadt in Deutschland) [geogr.] :: Kiel (city in Germany)
Harz {m} (Gebirge) [geogr.] | Harzvorland {n} :: Harz Mountains | Harz foreland
"""


def test_headwords_and_segments() -> None:
    assert headword("Deutschland {n} /DE/ (Kfz: /D/) [geogr.]") == "Deutschland"
    assert headword("die Polen {pl}") == "Polen"
    assert headword("am Rhein (a. Rh.)") == "am Rhein"
    assert split_outside_brackets("Bern /BE/ (Kanton; Hauptort: Bern) [geogr.]; Berne", "; ") == [
        "Bern /BE/ (Kanton; Hauptort: Bern) [geogr.]",
        "Berne",
    ]


def test_headwords_listed_only_as_place_or_first_names() -> None:
    names = ding_proper_nouns(DING_LINES)
    # [geogr.] on the segment or the line, or an explanation naming a town, a first name or a person; English a name
    assert names == {"Berlin", "Ostberlin", "Rhein", "Deutschland", "Norddeutschland", "Balkan", "Bern"} | {
        "Michael",
        "Konfuzius",
        "Heidelberg",
        "Harz",
    }
    # a common sense elsewhere (Essen, Kiel, the plural of Pole), a lowercase English noun (Dorf, coast, foreland),
    # nouns and adjectives of people, languages, names Ding does not explain (Sokrates), fictional figures stay
    for word in ("Essen", "Kiel", "Polen", "Müller", "Dorf", "Mittelmeerküste", "Harzvorland", "Waliser"):
        assert word not in names, word
    for word in ("Israeli", "Tiroler", "Deutsch", "Deutsche", "Sokrates", "Tarzan"):
        assert word not in names, word


def test_stems_dropped_unless_the_dictionary_inflects_a_common_noun() -> None:
    aff = hunspell.parse_aff("SET UTF-8\n")
    dic = "7\nBerlin/Sm\nLondon/RSm\nPfalz/Pm\nSchonen/SJm\nHaus/ST\nDon/m\nrhein\n"
    entries = hunspell.parse_dic(dic, aff)
    names = frozenset({"Berlin", "London", "Pfalz", "Schonen", "Don", "Rhein"})
    assert "Don" in KEPT
    # Pfalzen (a plural), Schonung (-ung), the title Don: common nouns; rhein has no capital
    proper = proper_noun_stems(entries, names)
    assert proper == {"Berlin", "London"}
    assert inhabitant_entries(entries, proper) == [hunspell.DicEntry("London", frozenset("R"))]


def test_ding_is_pinned_and_recorded_as_a_filter() -> None:
    assert DING.package == "trans-de-en"
    assert DING.deb_glob == "trans-de-en_*1.9-6_all.deb"
    record = DING.record()
    assert record["files"] == {"usr/share/trans/de-en": DING.sha256}
    assert "nothing of Ding is shipped" in record["use"]
