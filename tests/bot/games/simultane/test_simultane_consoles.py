"""A whole simultané scripted through ``arbitre console --room`` processes on one SQLite file (issue 35, "Done
when"): a fast room (its referee closes each round as soon as its players have answered), a slow one (its
clock closes each round), one that stops after round 2, a throwaway one whose admin closes again and again,
one that comes after the entries closed (refused), and one account that tries a second room (refused). At
the end, the overall ranking's CSV and the federation's archive equal what this test computes itself from
the answers it sent and the tops the rooms were shown; and no room was shown a draw or a top before every
room still playing had reached it, read from the messages in the order the database took them.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import zipfile
from pathlib import Path

import pytest

from bot.adapters.console.rooms import room_key
from tests.bot.adapters.console.test_console_rooms import LiveConsole

# Round 1's typed draw, on an empty board (2.1 and 2.3 of RULES.md): H6 CHANTEZ 112 (Z on a double letter),
# H4 CHANTEZ 98, H4 CHANT 26, H8 CHANT 22. Rounds 2 and 3 come from the seed: nobody answers them.
ANSWERS = {
    "vichy": {"Ana": ("H6 CHANTEZ", 112), "Max": ("H4 CHANTEZ", 98), "Noe": ("H8 CHANT", 22)},
    "sete": {"Bob": ("H4 CHANTEZ", 98), "Cid": ("H4 CHANT", 26)},
    "nimes": {"Dee": ("H4 CHANT", 26), "Eva": ("H8 CHANT", 22)},
    "rapide": {"Eve": ("H8 CHANT", 22)},  # a throwaway room whose admin closes again and again
}
ADMINS = {"vichy": "Org", "sete": "Ref", "nimes": "Arb", "rapide": "Eve", "lyon": "Lou"}
SOLO_BONUS, SOLO_PLAYERS = 10, 16  # 3.5: a solo needs 16 players in all; these rooms have 7


def channel(room: str) -> str:
    key = room_key(room)
    assert key is not None
    return key.channel


def shown_messages(db: Path) -> list[tuple[str, float, dict[str, object]]]:
    """Every public message the bot stored, (room, when it was stored, the reply), in the order the
    database took them."""
    rooms = {channel(room): room for room in ADMINS}
    with sqlite3.connect(db) as conn:
        rows = conn.execute("select destination, created, reply from outbox order by id").fetchall()
    return [(rooms[str(d)], float(at), json.loads(r)) for d, at, r in rows if str(d) in rooms]


DRAWN = re.compile(r"^Coup (\d+) — tirage : [^\n—]*\n")
REACHED = re.compile(r"^Coup (\d+) — tirage : .* — (?:temps écoulé|manche close)")
TOP = re.compile(r"^Coup (\d+) — tirage [^\n]*\nTop : (\S+ \S+) — (\d+) points", re.M)


def check_pacing(messages: list[tuple[str, float, dict[str, object]]]) -> dict[int, int]:
    """Walk the messages in order: a room's draw of round N only once every other room still playing has
    reached the end of round N-1 (its time up: said so, or its deadline passed), its top of round N once
    every such room has reached round N's end; the tops shown, by round."""
    reached: dict[str, int] = {}
    drawn: dict[str, tuple[int, float]] = {}  # each room's open round and its deadline, as its draw said it
    playing: set[str] = set()
    tops: dict[int, int] = {}

    def ended(room: str, at: float) -> int:
        number, deadline = drawn.get(room, (0, float("inf")))
        return max(reached.get(room, 0), number if deadline <= at else number - 1)

    for room, at, reply in messages:
        text = str(reply["text"])
        if (draw := DRAWN.match(text)) is not None:
            n = int(draw.group(1))
            behind = {r: ended(r, at) for r in playing - {room} if ended(r, at) < n - 1}
            assert not behind, (room, n, behind)
            playing.add(room)
            deadline = reply.get("deadline")
            drawn[room] = (n, float(deadline) if isinstance(deadline, (int, float)) else float("inf"))
        if (end := REACHED.match(text)) is not None:
            reached[room] = max(reached.get(room, 0), int(end.group(1)))
        for top in TOP.finditer(text):
            n = int(top.group(1))
            behind = {r: ended(r, at) for r in playing if ended(r, at) < n}
            assert not behind, (room, "top", n, behind)
            tops[n] = int(top.group(3))
        if "Fin de la partie duplicate" in text:
            playing.discard(room)
    return tops


def expected_ranking(tops: dict[int, int], stopped: dict[str, int]) -> list[list[str]]:
    """The overall ranking worked out here: each player's round 1 score (nobody answers later), a solo only
    with 16 players in all, the gap to the sum of the tops of every round counted, the percentage."""
    rounds = len(tops)
    best = max(score for answers in ANSWERS.values() for _, score in answers.values())
    holders = [p for answers in ANSWERS.values() for p, (_, score) in answers.items() if score == best]
    players = sum(len(answers) for answers in ANSWERS.values())
    total_tops = sum(tops[n] for n in range(1, rounds + 1))
    rows = []
    for room, answers in ANSWERS.items():
        for player, (_, score) in answers.items():
            solo = 1 if holders == [player] and players >= SOLO_PLAYERS else 0
            total = score + solo * SOLO_BONUS
            rows.append((total, player, room, solo))
    rows.sort(key=lambda row: (-row[0], row[1]))
    ranked = []
    for total, player, room, solo in rows:
        place = next(i for i, r in enumerate(rows, 1) if r[0] == total)
        percent = f"{100 * total / total_tops:.1f}"
        label = {"vichy": "Salon 1", "sete": "Sète", "nimes": "Nîmes", "rapide": "Salon 4"}[room]
        ranked.append(
            [
                str(place),
                player,
                label,
                str(total),
                str(total - total_tops),
                percent,
                str(solo),
                "0",
                str(stopped.get(room, "")),
            ]
        )
    return ranked


@pytest.mark.long(12)
def test_a_simultane_of_four_console_rooms(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    consoles = {room: LiveConsole(db, "--room", room, "--admin", admin) for room, admin in ADMINS.items()}
    vichy, sete, nimes, rapide, lyon = (consoles[room] for room in ADMINS)
    try:
        vichy.send("Org: /simultane creer 0,05 graine quatre tirages ACEHNTZ")
        code = vichy.wait_for(r"Simultané créé, code (\w{6})").group(1)
        for room, named in (("vichy", ""), ("sete", " Sète"), ("nimes", " Nîmes"), ("rapide", "")):  # in turn
            consoles[room].send(f"{ADMINS[room]}: /simultane rejoindre {code}{named}")
            consoles[room].wait_for(rf"Ce salon a rejoint le simultané {code}")
        for room in ANSWERS:
            consoles[room].wait_for(r"^\[#\w+\] Coup 1 — tirage : ACEHNTZ")
            for player, (move, _) in ANSWERS[room].items():
                consoles[room].send(f"{player}> /jouer {move}")
            consoles[room].wait_for(rf"^\[-> {list(ANSWERS[room])[-1].lower()}\] Reçu pour le coup 1")
        # one account, a second room: refused, and the organiser's room is told
        sete.send("Max> /jouer H6 CHANTEZ")
        sete.wait_for(rf"Vous jouez déjà le simultané {code} dans « Salon 1 »")
        vichy.wait_for(r"Max, qui joue dans « Salon 1 », a essayé de jouer aussi dans « Sète »")
        # the racing room closes six times: its time is called once, then it waits with the others
        rapide.send(*["Eve: /cloture"] * 6)
        rapide.wait_for(r"Le temps du coup est écoulé dans ce salon")
        # the fast rooms close as soon as their players have answered; the slow one waits for its clock
        vichy.send("Org: /cloture")
        vichy.wait_for(r"Coup 1 — tirage : ACEHNTZ — temps écoulé dans ce salon")
        nimes.send("Arb: /cloture")
        lyon.send(f"Lou: /simultane rejoindre {code}")  # the entries closed at the organiser's first round end
        lyon.wait_for(rf"Les inscriptions au simultané {code} sont closes depuis le")
        for room in ANSWERS:
            consoles[room].wait_for(r"^Top : H6 CHANTEZ — 112 points")
            consoles[room].wait_for(r"^\[#\w+\] Coup 2 — tirage : ")
        for room in ANSWERS:  # round 2: no answers, every clock closes it
            consoles[room].wait_for(r"^\[#\w+\] Coup 3 — tirage : ")
        nimes.send("Arb: /fin")  # nimes stops after round 2
        nimes.wait_for(r"Fin de la partie duplicate")
        for room in ("vichy", "sete", "rapide"):
            consoles[room].wait_for(r"^\[#\w+\] Coup 4 — tirage : ")
            consoles[room].send(f"{ADMINS[room]}: /fin")
            consoles[room].wait_for(r"Fin de la partie duplicate")
        vichy.send(f"Org: /simultane export {code}", f"Org: /simultane export {code} sigles")
        vichy.wait_for(r"sigles[-0-9]*\.zip")
        for console in consoles.values():
            console.finish()
    finally:
        for console in consoles.values():
            console.__exit__(None, None, None)

    tops = check_pacing(shown_messages(db))
    assert sorted(tops) == [1, 2, 3]
    assert tops[1] == 112
    expected = expected_ranking(tops, {"nimes": 2})
    files = sorted((tmp_path / "images" / "vichy").glob("*"))
    (ranking,) = [f for f in files if f.suffix == ".csv"]
    rows = list(csv.reader(io.StringIO(ranking.read_text(encoding="utf-8"))))
    assert rows[0][-1] == "arrêt au coup"
    assert sorted(rows[1:], key=lambda row: (int(row[0]), row[1])) == expected  # ties in either order
    (archive,) = [f for f in files if f.suffix == ".zip"]
    opened = zipfile.ZipFile(archive)
    totals = {row[1]: row[3] for row in expected}
    for name in ("Salon_1-sigles.txt", "Sete-sigles.txt", "Nimes-sigles.txt", "Salon_4-sigles.txt"):
        lines = opened.read(name).decode("latin-1").splitlines()
        written = {line.split('","')[1]: line.split('","')[2].rstrip('"') for line in lines}
        assert written == {player: totals[player] for player in written}
        assert written
    assert sum(len(opened.read(n).decode("latin-1").splitlines()) for n in opened.namelist() if n.endswith(".txt")) == 8
