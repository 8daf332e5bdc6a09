"""Help that helps: /help entries complete and true to what the commands accept, and unknown commands answered
with the nearest known ones, in the channel's language."""

from __future__ import annotations

import pytest

from bot.commands import command_names, suggest
from bot.commands.spec import CommandSpec
from bot.games.installed import COMMANDS
from tests.club import Club

# --- unknown commands ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "typed", "answer"),
    [
        ("fr", "/cuop H8 VAGUE", "Je ne connais pas la commande /cuop. Vouliez-vous dire /coup (/score)"),
        ("en", "/cuop H8 VAGUE", "I don't know the command /cuop. Did you mean /score (/coup)"),
        ("fr", "/grile", "Vouliez-vous dire /grille (/board) ou /serie (/series) ?"),  # /serie too (0.6)
        ("en", "/standing", "Did you mean /standings (/classement) or /settings (/reglages)?"),
        ("fr", "/classment", "Vouliez-vous dire /classement (/standings) ?"),
        ("en", "/hlep", "Did you mean /help (/aide)?"),
        ("fr", "/tpo 2", "Vouliez-vous dire /top ?"),
        ("fr", "/xyzzy", "Je ne connais pas la commande /xyzzy. Tapez /aide pour la liste."),
        ("en", "/xyzzy", "I don't know the command /xyzzy. Type /help for the list."),
    ],
)
def test_an_unknown_command_gets_the_nearest_ones_in_the_channels_language(
    club: Club, lang: str, typed: str, answer: str
) -> None:
    club.say("Admin", f"/reglages langue {lang}", admin=True)
    assert answer in club.refused("Ana", typed)


def test_an_unknown_help_topic_gets_suggestions_too(club: Club) -> None:
    assert "Vouliez-vous dire /coup (/score)" in club.refused("Ana", "/aide cuop")


@pytest.mark.parametrize("spec", COMMANDS, ids=lambda spec: spec.name)
def test_a_typo_in_any_name_finds_its_command(spec: CommandSpec) -> None:
    for name in {spec.name, *spec.names().values()}:
        swapped = name[0] + name[2] + name[1] + name[3:] if len(name) > 3 else name + name[-1]
        dropped = name[:-1] if len(name) > 3 else name
        for typo in (swapped, dropped):
            assert spec in suggest(typo), (name, typo, suggest(typo))


def test_both_names_in_the_channels_language_first() -> None:
    score = next(spec for spec in COMMANDS if spec.name == "score")
    top = next(spec for spec in COMMANDS if spec.name == "top")
    assert command_names("fr", score) == "/coup (/score)"
    assert command_names("en", score) == "/score (/coup)"
    assert command_names("fr", top) == command_names("en", top) == "/top"


# --- /help -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_help_list_has_every_command_with_a_whole_sentence(club: Club, lang: str) -> None:
    club.say("Admin", f"/reglages langue {lang}", admin=True)
    listing = club.say("Ana", "/aide" if lang == "fr" else "/help").splitlines()
    for spec in COMMANDS:
        name = spec.name_in(lang)
        line = next(line for line in listing if line.startswith(f"/{name} — "))
        assert line == f"/{name} — {spec.summary(lang)}"
        assert spec.summary(lang).endswith(".")
        assert "…" not in line


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("spec", COMMANDS, ids=lambda spec: spec.name)
def test_every_command_explains_itself_in_both_languages(club: Club, lang: str, spec: CommandSpec) -> None:
    club.say("Admin", f"/reglages langue {lang}", admin=True)
    answer = club.say("Ana", f"/help {spec.name}")
    assert answer.startswith(spec.usage(lang))
    assert spec.help(lang) in answer
    assert spec.help(lang).endswith(".")
    assert spec.menu(lang).endswith(".")


HELP = {spec.name: spec for spec in COMMANDS}

# What the help says a command accepts, tried on the command itself: (said in English, in French, setup,
# accepted commands, refused commands).
LIMITS = [
    (
        "minutes per duplicate move 0.05-10",
        "minutes par coup de duplicate 0,05-10",
        "settings",
        [],
        ["/reglages minutes 0.05", "/reglages minutes 10", "/reglages minutes 2,5"],
        ["/reglages minutes 0.04", "/reglages minutes 10.5"],
    ),
    (
        "MINUTES per move (0.05 to 10",
        "MINUTES par coup (0,05 à 10",
        "duplicate",
        [],
        ["/duplicate 0.05 manuel", "/duplicate 10 manuel !"],
        ["/duplicate 0 !", "/duplicate 11 !", "/duplicate 0.01 !"],
    ),
    (
        "at most 600 seconds",
        "600 secondes au plus",
        "extend",
        ["/duplicate 1", "/pause"],
        ["/prolonge 600", "/prolonge 0.5"],
        ["/prolonge 601", "/prolonge 0"],
    ),
    (
        "Take 1 to 500 points",
        "Retire de 1 à 500 points",
        "penalty",
        ["/nouvelle Ana Ben"],
        ["/penalite Ana 500", "/penalite Ana 1"],
        ["/penalite Ana 501", "/penalite Ana 0"],
    ),
    (
        "In a two-player game the letters alone",
        "À deux joueurs, les lettres seules",
        "end",
        ["/nouvelle Ana Ben", "/coup H8 VAGUE"],
        ["/fin EAU !"],
        [],
    ),
    (
        "'-' rejects the current draw, in either mode",
        "« - » rejette le tirage en cours, dans les deux modes",
        "draw",
        ["/duplicate 1"],
        ["/tirage -"],
        [],
    ),
    (
        "(an empty one when no game runs)",
        "(une grille vide sans partie en cours)",
        "calc",
        [],
        ["/calcul H8 VAGUE"],
        ["/calcul A1 VAGUE"],
    ),
]


@pytest.mark.parametrize(("english", "french", "name", "setup", "accepted", "refused"), LIMITS)
def test_the_help_is_true_to_what_is_accepted(
    club: Club, english: str, french: str, name: str, setup: list[str], accepted: list[str], refused: list[str]
) -> None:
    spec = HELP[name]
    assert english in spec.help("en")
    assert french in spec.help("fr")
    for text in setup:
        club.say("Ref", text, admin=True)
    for text in accepted:
        replies = club.send("Ref", text, admin=True)
        assert not any(r.error for r in replies), (text, replies)
    for text in refused:
        club.refused("Ref", text, admin=True)


def test_out_of_range_minutes_are_explained_in_the_channels_language(club: Club) -> None:
    assert "le temps par coup va de 0,05 à 10 minutes" in club.refused("Ref", "/duplicate 20")
    assert "le temps par coup va de 0,05 à 10 minutes" in club.refused("Ref", "/reglages minutes 20", admin=True)
    club.say("Admin", "/settings language en", admin=True)
    assert "the time per move is 0.05 to 10 minutes" in club.refused("Ref", "/duplicate 0")


def test_check_looks_up_the_first_twenty_words_and_says_so(club: Club) -> None:
    spec = HELP["check"]
    assert "the first 20 given" in spec.help("en")
    assert "les 20 premiers donnés" in spec.help("fr")
    answer = club.say("Ana", "/verif " + " ".join(f"MOT{n}" for n in range(26)))
    assert "MOT19 " in answer
    assert "MOT20" not in answer
    assert answer.endswith(
        "Seuls les 20 premiers mots ont été vérifiés (26 donnés) : envoyez les autres dans un autre /verif."
    )
    assert "vérifiés" not in club.say("Ana", "/verif " + " ".join(f"MOT{n}" for n in range(20)))
    club.say("Admin", "/settings language en", admin=True)
    english = club.say("Ana", "/check " + " ".join(f"WORD{chr(65 + n)}" for n in range(21)))
    assert english.endswith("Only the first 20 words were checked (21 given): send the others in another /check.")
