"""A simultané's files for the federation (docs/rules.md, "The results file for the federation (SIGLES)"):
the organiser's room gets one archive with each room's SIGLES file, the room's table numbers and each
player's total across every room (Ana's solo counts over the 17 players of the three rooms, as in the
overall ranking worked by hand in tests/test_simultane.py), once every room's game is over."""

from __future__ import annotations

import io
import zipfile

from tests.club import Club
from tests.test_simultane import DISCORD, ROOMS, TELEGRAM
from tests.test_simultane_ranking import three_rooms_after_round_one


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
    assert reply.document is not None and reply.document_name == f"simultane-{code}-sigles.zip"
    listed = reply.text.split("\n")[1:]
    assert listed == [
        "Club_de_Sete-sigles.txt : Club de Sète, 6 joueurs",
        "Vichy_Allier-sigles.txt : Vichy (Allier), 6 joueurs",
        "Salon_3-sigles.txt : Salon 3, 5 joueurs",  # no name given: its joining order, never its channel's key
    ]
    archive = zipfile.ZipFile(io.BytesIO(reply.document))
    assert archive.namelist() == ["Club_de_Sete-sigles.txt", "Vichy_Allier-sigles.txt", "Salon_3-sigles.txt"]
    discord = archive.read("Club_de_Sete-sigles.txt").decode("latin-1").splitlines()
    assert discord == ['"1","Ana","122"'] + [f'"{i + 2}","Aa{i}","98"' for i in range(5)]  # the solo of all rooms
    telegram = archive.read("Vichy_Allier-sigles.txt").decode("latin-1").splitlines()
    assert telegram == [f'"{i + 1}","Bb{i}","22"' for i in range(6)]
    # the room's own file, as /export sigles gives it there: no solo in a room of six
    (own,) = club.send("Zoé", "/export sigles", channel=DISCORD)
    assert own.document is not None and own.document.decode("latin-1").splitlines()[0] == '"1","Ana","112"'
