"""Simultanés a federation can trust (issue 35), through the command layer on a real SQLite file: a room
that races ahead (its admin closing round after round) sees no draw and no top before every other room has
played the round, in every mode; one account plays in one room; joining a window starts nothing; entries
close; a room that stops early holds no one back.

Every reply the bot sends is kept by the room it reaches (privately or not: a member of that room reads
it). After every step, no room may have been shown the draw of round N+1 before every room still playing
had reached the end of round N, nor the top of round N before every such room had reached its end.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Unpack

import pytest

from bot.chat import Reply
from bot.games.simultane.ranking import overall_of, overall_view
from bot.storage import GameStatus
from tests.bot.games.simultane.rooms_played import CONSOLE, DISCORD, TELEGRAM, code_of, table_rows
from tests.club import START, Club, MessageOptions

THROWAWAY = "telegram:-666"  # a group any Telegram user can make, whose admin joins with a code read aloud
DRAW_SHOWN = re.compile(r"Coup (\d+) — tirage : ")
TOP_SHOWN = re.compile(r"Coup (\d+) — tirage [^\n]*\nTop : ")
TEN = START + 3600  # 10:00 in Paris


class Watch:
    """A club night whose every reply is kept by the room it reaches, checked after every step."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.seen: dict[str, list[str]] = defaultdict(list)
        self.code = ""

    def keep(self, replies: list[Reply], channel: str) -> list[Reply]:
        for reply in replies:
            self.seen[reply.channel or channel].append(reply.text)
        self.check()
        return replies

    def send(self, name: str, text: str, channel: str, **options: Unpack[MessageOptions]) -> str:
        replies = self.club.send(name, text, channel=channel, **options)
        return "\n".join(r.text for r in self.keep(replies, channel))

    def tick(self, seconds: float) -> None:
        self.keep(self.club.tick(seconds), "")

    def reached(self) -> dict[str, int]:
        """Every room still playing: the rounds it has played to their end (closed, or its time up: held, or
        its deadline passed)."""
        record = self.club.storage.simultane(self.code) if self.code else None
        if record is None:
            return {}
        rooms: dict[str, int] = {}
        for room in self.club.storage.simultane_progress(record.id):
            if room.admission.value != "admitted":
                continue
            if room.status in (GameStatus.ENDED.value, GameStatus.ABANDONED.value):
                continue
            time_up = room.closed + 1 if room.deadline is not None and room.deadline <= self.club.now else 0
            rooms[room.channel] = max(room.closed, room.held, time_up) if room.game is not None else 0
        return rooms

    def check(self) -> None:
        """No room has been shown a draw or a top before every room still playing had played up to it."""
        reached = self.reached()
        if not reached:
            return
        floor = min(reached.values())
        for channel, texts in self.seen.items():
            joined = "\n".join(texts)
            draws = [int(n) for n in DRAW_SHOWN.findall(joined)]
            tops = [int(n) for n in TOP_SHOWN.findall(joined)]
            assert max(draws, default=0) <= floor + 1, (channel, draws, reached)
            assert max(tops, default=0) <= floor, (channel, tops, reached)

    def draws_in(self, channel: str) -> list[int]:
        return sorted({int(n) for n in DRAW_SHOWN.findall("\n".join(self.seen[channel]))})


def honest_round(watch: Watch, rooms: dict[str, list[str]], move: str = "H8 CHANT") -> None:
    """Every player of the honest rooms answers (an answer off the draw is still an answer), then the minute
    ends: every room's time is up and the clock closes the round everywhere."""
    for channel, players in rooms.items():
        for player in players:
            watch.send(player, f"/jouer {move}", channel, private=True)
    watch.tick(61)
    watch.tick(0)


@pytest.mark.parametrize("mode", ["now", "at", "window"])
def test_a_racing_room_sees_no_draw_and_no_top_before_the_others(club: Club, mode: str) -> None:
    watch = Watch(club)
    times = {"now": "", "at": " 10:00", "window": " 10:00 22:00"}[mode]
    watch.code = code = code_of(watch.send("Org", f"/simultane creer 1{times} tirages ACEHNTZ", DISCORD, admin=True))
    honest = {DISCORD: ["Ana", "Ben", "Cyd"], CONSOLE: ["Dan", "Eli", "Fay"]}
    for channel in honest:
        watch.send("Org" if channel == DISCORD else "Ref", f"/simultane rejoindre {code}", channel, admin=True)
    watch.send("Eve", f"/simultane rejoindre {code}", THROWAWAY, admin=True)  # the cheater's throwaway room
    if mode == "at":
        club.now = TEN - 1
        watch.tick(1)  # 10:00: the clock starts every room at once, the throwaway one too
    if mode == "window":
        club.now = TEN + 300
        assert "Coup 1" not in watch.send("Eve", "/simultane commencer", THROWAWAY, admin=True)  # not admitted
        watch.send("Org", f"/simultane admettre {code} 2", DISCORD, admin=True)  # the honest club only
        for channel in honest:
            watch.send("Ref", "/simultane commencer", channel, admin=True)
    for _ in range(6):  # the cheater answers alone and closes, again and again
        if THROWAWAY in watch.reached():
            watch.send("Eve", "/jouer H8 CHANT", THROWAWAY, private=True)
        watch.send("Eve", "/cloture", THROWAWAY, admin=True)
        watch.tick(5)
    assert watch.draws_in(THROWAWAY) == ([] if mode == "window" else [1])
    for _ in range(3):
        honest_round(watch, honest)
    if mode == "window":
        assert watch.draws_in(THROWAWAY) == []  # never admitted: it learnt nothing
        return
    # the throwaway room plays on the clock with the others: each of its draws came with theirs
    assert watch.draws_in(THROWAWAY) == watch.draws_in(DISCORD) == watch.draws_in(CONSOLE) == [1, 2, 3, 4]


def test_the_clock_closes_a_round_early_only_once_every_player_has_answered(club: Club) -> None:
    watch = Watch(club)
    watch.code = code = code_of(watch.send("Org", "/simultane creer 1 tirages ACEHNTZ", DISCORD, admin=True))
    watch.send("Org", f"/simultane rejoindre {code}", DISCORD, admin=True)
    watch.send("Ref", f"/simultane rejoindre {code}", CONSOLE, admin=True)
    watch.send("Ana", "/jouer H6 CHANTEZ", DISCORD, private=True)
    watch.send("Ben", "/jouer H4 CHANTEZ", DISCORD, private=True)
    watch.send("Dan", "/jouer H8 CHANT", CONSOLE, private=True)
    club.tick(10)
    watch.send("Ben", "/jouer H8 CHANT", DISCORD, private=True)  # Ben changes his mind: still 2 of 2 answered
    held = watch.send("Org", "/cloture", DISCORD, admin=True)  # both answered: time is called now
    assert "Coup 1 — tirage : ACEHNTZ — temps écoulé dans ce salon" in held
    assert "Top" not in held
    club.now += 1
    late = watch.send("Ben", "/jouer H6 CHANTEZ", DISCORD, private=True)  # after the call: late
    assert late.startswith("Trop tard"), late
    again = club.refused("Org", "/cloture", channel=DISCORD, admin=True)
    assert again.startswith("Le temps du coup est écoulé dans ce salon.")
    assert "encore en jeu : Salon 2" in again
    assert club.refused("Org", "/prolonge 30", channel=DISCORD, admin=True) == again  # the clock no longer moves
    # the console's referee may not close before its players have all answered (Fay has joined, not answered)
    watch.send("Eli", "/jouer H4 CHANT", CONSOLE, private=True)
    watch.send("Fay", "/rejoindre", CONSOLE)
    early = club.refused("Ref", "/cloture", channel=CONSOLE, admin=True)
    assert early.startswith(f"Simultané {code} : réponses reçues, 2 sur 3.")
    watch.send("Fay", "/jouer H8 CHANT", CONSOLE, private=True)
    closed = watch.send("Ref", "/cloture", CONSOLE, admin=True)  # the last room: closed, and round 2 drawn
    assert "Top : H6 CHANTEZ — 112 points" in closed
    assert "Coup 2 — tirage : " in closed
    watch.tick(0)  # the organiser's room closes with it
    results = "\n".join(watch.seen[DISCORD])
    assert "Ana : H6 CHANTEZ 112 (top)" in results
    assert "Ben : H8 CHANT 22" in results
    assert watch.draws_in(DISCORD) == watch.draws_in(CONSOLE) == [1, 2]


def test_one_account_plays_in_one_room(club: Club) -> None:
    watch = Watch(club)
    watch.code = code = code_of(watch.send("Org", "/simultane creer 1 tirages ACEHNTZ", DISCORD, admin=True))
    watch.send("Org", f"/simultane rejoindre {code} Sète", DISCORD, admin=True)
    watch.send("Ref", f"/simultane rejoindre {code} Vichy", CONSOLE, admin=True)
    assert "Reçu pour le coup 1" in watch.send("Ben", "/jouer H8 CHANT", DISCORD, private=True)  # weakly in Sète
    replies = club.send("Ben", "/jouer H6 CHANTEZ", channel=CONSOLE, private=True)  # the same account in Vichy
    assert all(r.error for r in replies)
    refusal, notice = replies
    assert refusal.to_user == "u:ben"
    assert refusal.text == (
        f"Vous jouez déjà le simultané {code} dans « Sète » : un compte joue dans un seul salon."
        " Rien n'a été enregistré ici."
    )
    assert notice.channel == DISCORD
    assert notice.to_user is None
    assert notice.text == (
        f"Simultané {code} : Ben, qui joue dans « Sète », a essayé de jouer aussi dans « Vichy » ;"
        " c'est refusé, rien n'a été enregistré."
    )
    assert club.refused("Ben", "/rejoindre", channel=CONSOLE).startswith("Vous jouez déjà le simultané")
    # another account with the same display name is someone else: it plays in Vichy
    assert "Reçu pour le coup 1" in watch.send("Ben", "/jouer H6 CHANTEZ", CONSOLE, user="u:ben2", private=True)
    # the organiser's room plays too: a player there is refused in the other room likewise
    replies = club.send("Cyd", "/jouer H8 CHANT", channel=CONSOLE, private=True)
    assert not any(r.error for r in replies)
    assert club.send("Cyd", "/jouer H8 CHANT", channel=DISCORD, private=True)[0].error


def test_joining_a_window_starts_nothing_and_the_room_starts_it_inside_the_window(club: Club) -> None:
    watch = Watch(club)
    watch.code = code = code_of(watch.send("Org", "/simultane creer 2 10:00 22:00", DISCORD, admin=True))
    club.now = TEN + 300  # 10:05
    joined = watch.send("Ref", f"/simultane rejoindre {code} Vichy", CONSOLE, admin=True)
    assert "Coup 1" not in joined
    assert club.storage.games(CONSOLE) == []
    request = "\n".join(t for t in watch.seen[DISCORD] if "demande à jouer" in t)
    assert request == (
        f"Simultané {code} : le salon n° 1 demande à jouer (console, « Vichy », inscrit par Ref)."
        f" Tapez /simultane admettre {code} 1 ou /simultane refuser {code} 1."
    )
    listed = watch.send("Org", f"/simultane admettre {code}", DISCORD, admin=True)
    assert "n° 1 : console, « Vichy », inscrit par Ref" in listed
    watch.send("Org", f"/simultane admettre {code} 1", DISCORD, admin=True)
    assert "L'organisateur du simultané" in "\n".join(watch.seen[CONSOLE])
    for _ in range(20):  # twenty minutes: the room's clock burns no round
        watch.tick(60)
    assert club.storage.games(CONSOLE) == []
    club.now = TEN + 10.5 * 3600  # 20:30
    assert "Coup 1 — tirage : " in watch.send("Ref", "/simultane commencer", CONSOLE, admin=True)


def test_a_refused_room_never_plays(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 1 10:00 12:00", channel=DISCORD, admin=True))
    club.ok("Eve", f"/simultane rejoindre {code}", channel=THROWAWAY, admin=True)
    assert "refusé, Salon 1" in club.ok("Org", f"/simultane refuser {code} 1", channel=DISCORD, admin=True)
    club.now = TEN + 60
    refused = club.refused("Eve", "/simultane commencer", channel=THROWAWAY, admin=True)
    assert refused == f"L'organisateur du simultané {code} n'a pas admis ce salon : il ne peut pas y jouer."
    assert club.refused("Org", f"/simultane admettre {code} 1", channel=DISCORD, admin=True).startswith(
        f"Simultané {code} : donnez le numéro d'une demande en attente (aucune)."
    )
    assert club.refused("Eve", f"/simultane admettre {code} 1", channel=THROWAWAY, admin=True) == (
        f"Seul le salon de l'organisateur du simultané {code} admet les salons et clôt les inscriptions."
    )


def test_entries_close_and_a_late_room_is_told_why(club: Club) -> None:
    # together from now: at the organiser's room's first round end
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    club.ok("Org", f"/simultane rejoindre {code}", channel=DISCORD, admin=True)
    club.ok("Ref", f"/simultane rejoindre {code}", channel=CONSOLE, admin=True)
    club.tick(61)  # both rooms' time is up: entries closed, round 1 closed everywhere
    late = club.refused("Late", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    assert late == f"Les inscriptions au simultané {code} sont closes depuis le 2027-01-15 09:01 (Europe/Paris) :" + (
        " il n'est plus possible de le rejoindre."
    )
    for channel in (DISCORD, CONSOLE):
        club.ok("Ref", "/fin", channel=channel, admin=True)
    club.now += 3600  # an hour after everything ended: still refused, and the ranking stays visible
    assert club.refused("Late", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True) == late
    assert "après 1 manche" in club.ok("Zoé", f"/simultane classement {code}", channel=DISCORD)
    # a window: whenever the organiser says so
    window = code_of(club.ok("Org", "/simultane creer 1 12:00 14:00", channel=DISCORD, admin=True))
    closed = club.ok("Org", f"/simultane clore {window}", channel=DISCORD, admin=True)
    assert closed == f"Simultané {window} : les inscriptions sont closes, avec 0 salon admis." + (
        " Demandes encore en attente : 0."
    )
    assert club.refused("Late", f"/simultane rejoindre {window}", channel=TELEGRAM, admin=True).startswith(
        f"Les inscriptions au simultané {window} sont closes depuis le"
    )
    assert club.refused("Org", f"/simultane clore {window}", channel=DISCORD, admin=True).startswith(
        f"Les inscriptions au simultané {window} sont closes"
    )


def test_a_room_that_stops_early_holds_no_one_back(club: Club) -> None:
    watch = Watch(club)
    watch.code = code = code_of(watch.send("Org", "/simultane creer 1 tirages ACEHNTZ", DISCORD, admin=True))
    rooms = {DISCORD: ["Ana", "Ben"], TELEGRAM: ["Cyd", "Dan"], CONSOLE: ["Eli", "Fay"]}
    for channel in rooms:
        watch.send("Ref", f"/simultane rejoindre {code}", channel, admin=True)
    honest_round(watch, rooms, "H6 CHANTEZ")
    watch.send("Ref", "/fin", CONSOLE, admin=True)  # the console stops after round 1
    del rooms[CONSOLE]
    for _ in range(2):
        honest_round(watch, rooms)
    overall = watch.send("Zoé", f"/simultane classement {code}", TELEGRAM)
    assert "après 3 manches" in overall
    rows = {row[1]: row for row in table_rows(overall)}
    assert rows["Eli"][-1] == rows["Fay"][-1] == "1"
    assert len(rows["Ana"]) == len(rows["Eli"]) - 1
    assert rows["Eli"][3] == "112"  # its round 1 kept
    export = next(r for r in club.send("Zoé", f"/simultane export {code}", channel=TELEGRAM) if r.document)
    assert export.document is not None
    lines = export.document.decode().splitlines()
    assert lines[0].endswith(",arrêt au coup")
    assert any(line.startswith(("1,Eli,", "2,Eli,")) for line in lines)
    assert [line.split(",")[-1] for line in lines[1:] if ",Salon 3," in line] == ["1", "1"]
    record = club.storage.simultane(code)
    assert record is not None
    view = overall_view("fr", record, overall_of(club.referee.services(), record, club.now))
    assert view.notes == ("* Salon 3 : arrêt au coup 1",)  # the image: the room starred, the note under it
    assert [room for room, s in zip(view.rooms, view.standings, strict=True) if s.player in ("Eli", "Fay")] == [
        "Salon 3 *",
        "Salon 3 *",
    ]
    refused = club.refused("Org", f"/simultane export {code} sigles", channel=DISCORD)
    assert refused.startswith(f"Simultané {code} : les fichiers pour la fédération seront prêts")
    for channel in rooms:
        watch.send("Ref", "/fin", channel, admin=True)
    archive = next(r for r in club.send("Org", f"/simultane export {code} sigles", channel=DISCORD) if r.document)
    assert archive.document_name == f"simultane-{code}-sigles.zip"


def test_two_first_answers_of_one_account_in_two_rooms_at_once_seat_it_in_one(postgres_url: str) -> None:
    # two processes on one PostgreSQL database, each serving one room; the same accounts answer in both rooms
    # at the same instant: each is seated in exactly one room, whichever took the simultané's lock first
    import threading

    from bot.chat import Incoming
    from bot.play.clock_lease import ClockLease
    from bot.referee import Referee
    from bot.storage.sql.postgres import PostgresStorage
    from tests.ready_lists import ready_registry

    clock = [START]
    storages = [PostgresStorage(postgres_url, pool_size=4) for _ in range(2)]
    referees = [
        Referee(s, ready_registry(), now=lambda: clock[0], images=False, clock_lease=ClockLease(f"process-{n}"))
        for n, s in enumerate(storages)
    ]
    try:
        org = Incoming(DISCORD, "u:org", "Org", "/simultane creer 1 tirages ACEHNTZ", admin=True)
        code = code_of("\n".join(r.text for r in referees[0].handle(org)))
        for referee, channel in zip(referees, (DISCORD, CONSOLE), strict=True):
            referee.handle(Incoming(channel, "u:ref", "Ref", f"/simultane rejoindre {code}", admin=True))

        def answer(referee: Referee, start: threading.Barrier, message: Incoming, answers: dict[str, bool]) -> None:
            start.wait()
            answers[message.channel] = not any(r.error for r in referee.handle(message))

        for n in range(8):
            start = threading.Barrier(2)
            answers: dict[str, bool] = {}
            sent = [Incoming(c, f"u:twin{n}", f"Twin{n}", "/jouer H8 CHANT", private=True) for c in (DISCORD, CONSOLE)]
            threads = [
                threading.Thread(target=answer, args=(referee, start, message, answers))
                for referee, message in zip(referees, sent, strict=True)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers.values()) == [False, True], answers
            assert len(storages[0].simultane_rooms_of_account(code, f"u:twin{n}")) == 1
    finally:
        for referee, storage in zip(referees, storages, strict=True):
            referee.clock.shutdown()
            storage.close()


def test_a_room_that_ends_while_its_round_is_held_keeps_that_round(club: Club) -> None:
    watch = Watch(club)
    watch.code = code = code_of(watch.send("Org", "/simultane creer 1 tirages ACEHNTZ", DISCORD, admin=True))
    for channel in (DISCORD, CONSOLE):
        watch.send("Ref", f"/simultane rejoindre {code}", channel, admin=True)
    watch.send("Ana", "/jouer H6 CHANTEZ", DISCORD, private=True)
    watch.send("Ref", "/cloture", DISCORD, admin=True)  # held: the console still plays round 1
    ended = watch.send("Ref", "/fin", DISCORD, admin=True)
    assert ended == (
        "La partie du salon s'arrêtera après le coup 1, que ce salon attend de clore avec les autres :"
        " ses résultats et le classement final viendront alors."
    )
    assert "Top" not in "\n".join(watch.seen[DISCORD])
    watch.send("Cyd", "/jouer H8 CHANT", CONSOLE, private=True)
    watch.send("Ref", "/cloture", CONSOLE, admin=True)  # the console closes round 1 and goes on
    watch.tick(0)  # the ended room's round closes with it, then its game ends
    shown = "\n".join(watch.seen[DISCORD])
    assert "Ana : H6 CHANTEZ 112 (top)" in shown
    assert "Fin de la partie duplicate" in shown
    assert watch.draws_in(DISCORD) == [1]
    assert watch.draws_in(CONSOLE) == [1, 2]
    honest_round(watch, {CONSOLE: ["Cyd"]})  # the ended room holds no one back
    rows = {row[1]: row for row in table_rows(watch.send("Zoé", f"/simultane classement {code}", CONSOLE))}
    assert rows["Ana"][3] == "112"
    assert rows["Ana"][-1] == "1"


def test_a_round_s_clock_no_longer_changes_once_its_time_is_up(club: Club) -> None:
    # the other rooms may close the round as soon as this room's deadline has passed: an extension then
    # would give its players more time on a round whose top another room shows
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    for channel in (DISCORD, CONSOLE):
        club.ok("Ref", f"/simultane rejoindre {code}", channel=channel, admin=True)
    assert "Coup 1" in club.ok("Ref", "/prolonge 30", channel=CONSOLE, admin=True)  # in time: as in any game
    club.now += 61  # the organiser's room's deadline has passed, the console has 29 s left
    late = club.refused("Ref", "/prolonge 30", channel=DISCORD, admin=True)
    assert late == (
        f"Simultané {code} : le temps du coup est écoulé, son chrono ne change plus"
        " (les autres salons peuvent déjà le clore)."
    )
    assert club.refused("Ref", "/pause", channel=DISCORD, admin=True) == late
    club.ok("Ref", "/pause", channel=CONSOLE, admin=True)  # the console's time is not up: it may pause
