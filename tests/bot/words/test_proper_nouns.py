"""German proper nouns: the headwords the Ding dictionary lists only as names, the first names of nam_dict it
gives no common-noun sense, and the stems they drop.

The Ding lines are written here in its format (``German :: English``, `` | `` between segments,
``; `` between alternatives), the nam_dict lines in its own (a gender code, the name, one frequency a country
in fixed columns: Germany, Austria and Switzerland are columns 43 to 45, East Frisia 42); nothing is read from
the system.
"""

from __future__ import annotations

from lexicons import hunspell
from lexicons.proper_nouns import (
    DING,
    KEPT,
    NAM_DICT,
    ding_common_nouns,
    ding_proper_nouns,
    first_names,
    headword,
    inhabitant_entries,
    names_to_drop,
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

# first names: Kai, Rose and Heide also common nouns, an adjective (frank), the month, the Georgian (George)
FIRST_NAME_DING_LINES = """Kai {m}; Kaje {f}; Quai {m} [Schw.] | ab Kai :: quay; quayside | ex quay
Rose {f} [bot.] | Rosen {pl} :: rose | roses
Heide {m}; Heidin {f} [relig.] | Heiden {pl} :: heathen; pagan | heathen; pagans
Ernst {m} (männlicher Vorname) :: Ernest (male forename) <Ernesto>
Hans im Glück (Märchen) [lit.] :: Hans in Luck (fairy tale)
Sophie :: Sophia; Sophie (female forename)
August {m} | Mitte August :: August | in the middle of August; in mid August
frank {adj} :: frank
Petrus {m} (Apostel) [relig.] :: Peter (apostle)
George {m}; Georgin {f} [soc.] | Georgen {pl}; Georginnen {pl} :: Georgian | Georgians
"""

# lines of nam_dict.txt as they stand (CRLF line ends in the file)
NAM_DICT_LINES = """# DO NOT CHANGE:   FILE-FORMAT DEFINITION-DATE = 2008-11-16                           $
M  Aaron                      226 4   2   211                                 6       $
F  Åsa                       +                118                                     $
=  Achim Joachim                          1                                           $
F  Åsa                       -                118                                     $
M  Christian                  32 25  87747888 966                                     $
F  Christiane                     2  788 6756                                         $
?F Engel                                 1                                            $
M  Engel                                1                                             $
M  Hans                               55999894979 22                                  $
F  Heide                                 5551 2                                       $
M  Joachim                           243 7854 343    3                                $
F  Kai                                            5                                   $
M  Kai                                   65   5515                               1    $
M  Kunibert                              211                                          $
F  Rose                       646 8  65621325 415                                     $
M  Stern                                        1                                     $
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


def test_first_names_used_in_germany_austria_or_switzerland() -> None:
    names = first_names(NAM_DICT_LINES.replace("\n", "\r\n"))
    # Germany (Joachim 8, Hans 9), rare (Kunibert 2), a name that is also a word (Kai, Rose, Heide): all first names
    assert {"Joachim", "Kunibert", "Hans", "Christian", "Christiane", "Kai", "Rose", "Heide", "Aaron"} <= names
    # East Frisia's column (Engel), other countries only (Stern: Denmark; Åsa: Norway, its umlaut copy skipped)
    # and the equivalence lines (=  Achim Joachim) do not count
    assert not {"Engel", "Stern", "Åsa", "Achim"} & names
    assert "Kunibert" not in first_names(NAM_DICT_LINES, minimum=3)


def test_ding_common_nouns() -> None:
    common = ding_common_nouns(DING_LINES + FIRST_NAME_DING_LINES)
    # a lowercase English translation (quay, heathen), or a gender without a name's explanation (the month)
    assert {"Kai", "Rose", "Rosen", "Heide", "Heiden", "August", "Essen", "Kiel", "Müller", "Dorf"} <= common
    assert {"George", "Georgen"} <= common  # the Georgians: a noun of people
    # names: explained as a first name or an apostle, no gender, [geogr.], phrases; adjectives are lowercase
    assert not {"Ernst", "Sophie", "Petrus", "Berlin", "Rhein", "Michael", "Hans", "frank"} & common


def test_first_names_dropped_unless_a_common_noun() -> None:
    ding = DING_LINES + FIRST_NAME_DING_LINES
    names = names_to_drop(ding, NAM_DICT_LINES)
    assert names_to_drop(ding) == ding_proper_nouns(ding)  # without nam_dict, the proper nouns of Ding alone
    assert {"Joachim", "Hans", "Kunibert", "Berlin", "Rhein"} <= names
    assert not {"Kai", "Rose", "Heide"} & names  # Ding gives them a common-noun sense
    aff = hunspell.parse_aff("SET UTF-8\n")
    dic = "9\nJoachim/S\nHans\nKai/Sm\nRose/Nm\nHeide/FNm\nChristian/EST\nAaron/E\nOtto/S\nBerlin/S\n"
    entries = hunspell.parse_dic(dic, aff)
    names |= {"Otto", "Heide"}
    # Heide/N: a plural; Aaron/E: -e makes no first name, a plural; Christian/E gives Christiane; Otto: KEPT
    assert proper_noun_stems(entries, names) == {"Joachim", "Hans", "Christian", "Berlin"}


def test_ding_is_pinned_and_recorded_as_a_filter() -> None:
    assert DING.package == "trans-de-en"
    assert DING.deb_glob == "trans-de-en_*1.9-6_all.deb"
    record = DING.record()
    assert record["files"] == {"usr/share/trans/de-en": DING.sha256}
    assert "nothing of Ding is shipped" in record["use"]


def test_nam_dict_is_pinned_and_recorded_as_a_filter() -> None:
    assert (NAM_DICT.package, NAM_DICT.version) == ("gender-guesser", "0.4.0")
    assert NAM_DICT.wheel_name == "gender_guesser-0.4.0-py2.py3-none-any.whl"
    record = NAM_DICT.record()
    assert record["registry"] == "pypi"
    assert record["files"] == {"gender_guesser/data/nam_dict.txt": NAM_DICT.sha256}
    assert record["license"] == "GFDL-1.2-no-invariants-or-later"
    assert "nothing of nam_dict is shipped" in record["use"]
