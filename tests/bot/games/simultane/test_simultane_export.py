"""A simultané's files for the federation (docs/rules.md, "The results file for the federation (SIGLES)"):
the organiser's room gets one archive with each room's SIGLES file, the room's table numbers and each
player's total across every room (Ana's solo counts over the 17 players of the three rooms, as in the
overall ranking worked by hand in tests/bot/games/simultane/test_simultane.py), once every room's game is over."""

from __future__ import annotations

import io
import zipfile

from tests.bot.games.simultane.rooms_played import DISCORD, ROOMS, TELEGRAM, code_of
from tests.bot.games.simultane.test_simultane_ranking import three_rooms_after_round_one
from tests.club import Club


def test_the_organiser_gets_every_room_s_results_file_once_all_are_over(club: Club) -> None:
    code = three_rooms_after_round_one(club, names={DISCORD: "Club de Sète"})
    club.ok("Boss", f"/simultane nom {code} Vichy (Allier)", channel=TELEGRAM, admin=True)  # named later
    running = club.refused("Org", "/simultane export sigles", channel=DISCORD)
    assert running == (
        f"Simultané {code} : les fichiers pour la fédération seront prêts quand la partie sera finie dans tous"
        " les salons (ou la fenêtre close)."
    )
    for channel in ROOMS:
        club.ok("Boss", "/fin !", channel=channel, admin=True)
    elsewhere = club.refused("Zoé", f"/simultane export {code} sigles", channel=TELEGRAM)
    assert elsewhere.startswith(f"Les fichiers de résultats du simultané {code} pour la fédération se demandent")
    (reply,) = club.send("Org", f"/simultane export {code} sigles", channel=DISCORD)
    assert reply.document is not None
    assert reply.document_name == f"simultane-{code}-sigles.zip"
    listed = [line for line in reply.text.split("\n")[1:] if not line.startswith("  ")]
    assert listed == [
        "Club_de_Sete-sigles.txt : Club de Sète, 6 joueurs",
        "Vichy_Allier-sigles.txt : Vichy (Allier), 6 joueurs",
        "Salon_3-sigles.txt : Salon 3, 5 joueurs",  # no name given: its joining order, never its channel's key
    ]
    archive = zipfile.ZipFile(io.BytesIO(reply.document))
    assert archive.namelist() == [
        "Club_de_Sete-sigles.txt",
        "Vichy_Allier-sigles.txt",
        "Salon_3-sigles.txt",
        "centres.csv",
    ]
    discord = archive.read("Club_de_Sete-sigles.txt").decode("latin-1").splitlines()
    assert discord == ['"1","Ana","122"'] + [f'"{i + 2}","Aa{i}","98"' for i in range(5)]  # the solo of all rooms
    telegram = archive.read("Vichy_Allier-sigles.txt").decode("latin-1").splitlines()
    assert telegram == [f'"{i + 1}","Bb{i}","22"' for i in range(6)]
    # the room's own file, as /export sigles gives it there: no solo in a room of six
    (own,) = club.send("Zoé", "/export sigles", channel=DISCORD)
    assert own.document is not None
    assert own.document.decode("latin-1").splitlines()[0] == '"1","Ana","112"'
    assert own.text.split("\n")[-2] == (  # and it says why the simultané's totals differ
        f"Ce fichier donne les totaux du salon, solos comptés entre ses seuls joueurs ; le simultané {code} les"
        " compte sur tous les salons, d'où d'autres totaux (salon / simultané) : Ana 112 / 122. Les fichiers du"
        " simultané viennent du salon de l'organisateur (/simultane export sigles)."
    )


def test_tables_registered_before_the_first_draw_and_centre_codes_are_in_the_files(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    club.ok("Org", f"/simultane rejoindre {code} Club de Sète", channel=DISCORD, admin=True)
    club.ok("Ref", f"/simultane rejoindre {code} Vichy", channel=TELEGRAM, admin=True)
    # the halls' tables, given before anyone answers
    assert "La table 12 est réservée à Ana" in club.ok("Org", "/table Ana 12", channel=DISCORD, admin=True)
    assert "La table 3 est réservée à Cyd" in club.ok("Ref", "/table Cyd 3", channel=TELEGRAM, admin=True)
    assert "déjà prise (Cyd)" in club.refused("Ref", "/table Dan 3", channel=TELEGRAM, admin=True)
    assert club.refused("Org", "/simultane centre ZZZZZZ 12", channel=DISCORD, admin=True).startswith("Aucun")
    assert "« 12/3 » n'est pas un code de centre" in club.refused(
        "Org", f"/simultane centre {code} 12/3", channel=DISCORD, admin=True
    )
    set_code = club.ok("Org", f"/simultane centre {code} 0421", channel=DISCORD, admin=True)
    assert set_code.startswith(f"Dans le simultané {code}, ce salon porte le code de centre 0421")
    moves = {DISCORD: {"Ana": "H6 CHANTEZ", "Ben": "H4 CHANTEZ"}, TELEGRAM: {"Cyd": "H8 CHANT", "Dan": "H4 CHANT"}}
    for channel, answers in moves.items():
        for name, move in answers.items():
            club.ok(name, f"/jouer {move}", channel=channel, private=True)
    club.tick(61)
    club.tick(0)
    for channel in moves:
        club.ok("Ref", "/fin", channel=channel, admin=True)
    own = club.send("Ref", "/export sigles", channel=TELEGRAM)[0]
    assert "Sans table donnée par l'arbitre (le fichier leur donne les premiers numéros libres) : Dan (1)." in own.text
    (reply,) = club.send("Org", f"/simultane export {code} sigles", channel=DISCORD)
    assert reply.text.split("\n")[1:] == [
        "0421-Club_de_Sete-sigles.txt : Club de Sète, 2 joueurs",
        "  sans table donnée par l'arbitre (aux premiers numéros libres) : Ben (1)",
        "Vichy-sigles.txt : Vichy, 2 joueurs",
        "  sans table donnée par l'arbitre (aux premiers numéros libres) : Dan (1)",
    ]
    assert reply.document is not None
    archive = zipfile.ZipFile(io.BytesIO(reply.document))
    sete = archive.read("0421-Club_de_Sete-sigles.txt").decode("latin-1").splitlines()
    assert sete[0] == '"1","Ben","98"'
    assert sete[-1] == '"12","Ana","112"'
    assert len(sete) == 12
    vichy = archive.read("Vichy-sigles.txt").decode("latin-1").splitlines()
    assert vichy == ['"1","Dan","26"', '"2","--table vide--","-1"', '"3","Cyd","22"']
    centres = archive.read("centres.csv").decode("utf-8").splitlines()
    assert centres == [
        "centre,name,file,players,rounds",
        "0421,Club de Sète,0421-Club_de_Sete-sigles.txt,2,1",
        ",Vichy,Vichy-sigles.txt,2,1",
    ]
