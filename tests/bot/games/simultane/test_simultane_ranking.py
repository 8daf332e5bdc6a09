"""A simultané's overall ranking where the rooms see it (issue 25, "Rankings"): a simultané room's
/classement shows its own ranking and, once the visibility rule allows it, the ranking across every room
(before: when it will be visible), as text or as images; the organiser's room gets the overall ranking as
one image each time it counts a new round, posted once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat import Reply
from bot.games.simultane.ranking import SHOWN_PLACES, Overall, overall_of, overall_view, shown
from bot.render.canvas import Label
from bot.render.results import standings_scene
from core.simultane import OverallStanding
from tests.bot.games.simultane.rooms_played import (
    A_MOVES,
    B_MOVES,
    C_MOVES,
    CONSOLE,
    DISCORD,
    OVERALL_AFTER_ONE,
    ROOMS,
    TELEGRAM,
    code_of,
    play_round_one,
    table_rows,
)
from tests.club import Club

HIDDEN = "pas encore de classement, aucune manche n'est close dans tous les salons"
LIVE = "le classement de tous les salons après"


def public(replies: list[Reply], channel: str) -> list[Reply]:
    return [r for r in replies if r.channel == channel and r.to_user is None]


def three_rooms_after_round_one(
    club: Club, *, close_console: bool = True, names: dict[str, str] | None = None, ticked: list[Reply] | None = None
) -> str:
    """Three rooms in a simultané, round 1 played and closed (``names``: the centres' names they join with;
    ``ticked``: given the replies of the clock's tick that closes the rooms that waited for the console)."""
    code = code_of(club.ok("Org", "/simultane creer 1 tirages ACEHNTZ", channel=DISCORD, admin=True))
    for channel in ROOMS:
        named = f" {names[channel]}" if names and channel in names else ""
        club.ok("Boss", f"/simultane rejoindre {code}{named}", channel=channel, admin=True)
    for channel, moves in zip(ROOMS, (A_MOVES, B_MOVES, C_MOVES), strict=True):
        play_round_one(club, channel, moves)
        if channel != CONSOLE or close_console:
            club.ok("Boss", "/cloture", channel=channel, admin=True)
    if close_console:  # the rooms that finished round 1 before the console close it with it (they are paced)
        (ticked if ticked is not None else []).extend(club.tick(0))
    return code


def test_a_simultane_room_s_standings_show_its_own_and_then_every_room_s(club: Club) -> None:
    code = three_rooms_after_round_one(club, close_console=False)
    own, overall = club.send("Zoé", "/classement", channel=TELEGRAM)
    # the room's round waits for the console: nothing of it is in the room's own standings yet
    assert [row[:3] for row in table_rows(own.text)] == [["1", f"Bb{i}", "0"] for i in range(6)]
    assert overall.text == f"Simultané {code} : {HIDDEN}."
    assert LIVE not in "\n".join(r.text for r in club.tick(1))  # nothing posted to the organiser either
    club.ok("Boss", "/cloture", channel=CONSOLE, admin=True)
    ticked = club.tick(0)  # the two rooms that waited close round 1 with the console
    own, overall = club.send("Zoé", "/classement", channel=TELEGRAM)
    assert [row[:3] for row in table_rows(own.text)] == [["1", f"Bb{i}", "22"] for i in range(6)]
    heading = f"Simultané {code}, tous centres confondus (3 salons, 17 joueurs), après 1 manche :"
    assert overall.text.startswith(heading)
    assert table_rows(overall.text) == OVERALL_AFTER_ONE
    posted = public(ticked, DISCORD)[-1:]  # after the organiser's room's own results
    assert [r.text.split("\n")[0] for r in posted] == [f"Simultané {code} : {LIVE} 1 manche (3 salons, 17 joueurs)."]
    assert table_rows(posted[0].text) == OVERALL_AFTER_ONE
    assert public(club.tick(1), DISCORD) == []  # posted once


def test_a_window_s_standings_say_when_every_room_s_is_visible(club: Club) -> None:
    code = code_of(club.ok("Org", "/simultane creer 09:00 12:00 tirages ACEHNTZ", channel=DISCORD, admin=True))
    club.ok("Boss", f"/simultane rejoindre {code}", channel=TELEGRAM, admin=True)
    club.ok("Org", f"/simultane admettre {code} 1", channel=DISCORD, admin=True)
    club.ok("Boss", "/simultane commencer", channel=TELEGRAM, admin=True)
    play_round_one(club, TELEGRAM, B_MOVES)
    club.ok("Boss", "/cloture", channel=TELEGRAM, admin=True)
    club.ok("Boss", "/fin !", channel=TELEGRAM, admin=True)
    _, overall = club.send("Zoé", "/classement", channel=TELEGRAM)
    assert overall.text == (
        f"Simultané {code} : le classement de tous les salons sera visible à la fin de la fenêtre,"
        " le 2027-01-15 12:00 (Europe/Paris)."
    )
    assert public(club.tick(60), DISCORD) == []
    club.now += 3 * 3600  # the window has ended: one post of every round closed
    (posted,) = public(club.tick(1), DISCORD)
    assert posted.text.startswith(f"Simultané {code} : {LIVE} 1 manche (1 salon, 6 joueurs).")
    assert public(club.tick(1), DISCORD) == []


def test_with_images_both_rankings_and_the_organiser_s_post_are_images(tmp_path: Path) -> None:
    club = Club(tmp_path / "images.sqlite", images=True)
    try:
        ticked: list[Reply] = []
        code = three_rooms_after_round_one(club, ticked=ticked)
        own, overall = club.send("Zoé", "/classement", channel=CONSOLE)
        assert own.image is not None
        assert own.image_name == "standings.png"
        assert overall.image is not None
        assert overall.image_name == "overall.png"
        heading = f"Simultané {code}, tous centres confondus (3 salons, 17 joueurs), après 1 manche :"
        assert overall.text == heading
        assert public(club.tick(1), DISCORD) == []  # posted once, at the tick that closed the round
        (posted,) = [r for r in public(ticked, DISCORD) if r.image_name == "overall.png"]
        assert posted.image is not None
        assert posted.image.startswith(b"\x89PNG")
        assert posted.image == overall.image
        (tmp_path / "overall.png").write_bytes(posted.image)
    finally:
        club.close()


@pytest.mark.parametrize(
    ("lang", "title", "subtitle", "room_head"),
    [
        ("fr", "Classement tous centres, simultané {code}", "après 1 manche · Total des tops : 112", "Salon"),
        ("en", "All centres ranking, simultané {code}", "after 1 round · Sum of tops: 112", "Room"),
    ],
)
def test_the_overall_image_has_its_own_title_and_each_player_s_room(
    club: Club, lang: str, title: str, subtitle: str, room_head: str
) -> None:
    code = three_rooms_after_round_one(club, names={DISCORD: "Club de Sète"})
    record = club.storage.simultane(code)
    assert record is not None
    overall = overall_of(club.referee.services(), record, club.now)
    scene = standings_scene(overall_view(lang, record, overall))
    texts = [(item.text, item.role) for item in scene.items if isinstance(item, Label)]
    assert texts[:2] == [(title.format(code=code), "title"), (subtitle, "")]
    assert (room_head, "head") in texts
    rooms = [text for text, role in texts if role == "note"]
    default = "Salon" if lang == "fr" else "Room"
    assert rooms == ["Club de Sète"] * 6 + [f"{default} 3"] * 5 + [f"{default} 2"] * 6  # Ana, Aa*, Cc*, Bb*


def test_a_tied_top_in_a_simultane_room_offers_no_other_top(club: Club) -> None:
    # BELOPTU on an empty board: H4 BOULET and H4 POULET score 22 each (B 3, P 3; double word), one placed.
    # In a room's own game the referee may place the other with /top N; a simultané's top is every room's,
    # and /top N is refused there, so the close does not offer it.
    code = code_of(club.ok("Org", "/simultane creer 1 tirages BELOPTU", channel=DISCORD, admin=True))
    club.ok("Org", f"/simultane rejoindre {code}", channel=DISCORD, admin=True)  # the organiser's room plays
    closed = club.ok("Boss", "/cloture", channel=DISCORD, admin=True)  # alone: it closes at once
    assert "Tops ex aequo : 1) H4 BOULET · 2) H4 POULET" in closed
    assert "/top N" not in closed


def test_a_message_shows_the_first_places_then_the_room_s_own() -> None:
    # 300 rooms x 20 players make a ranking no message holds: the first 30 places, then the asking room's
    # players past them; the CSV export keeps every row
    standings = tuple(
        OverallStanding(i + 1, f"user:{i}", f"P{i}", "b" if i >= 35 else "a", 100 - i, -i, 100.0, 0, 0)
        for i in range(40)
    )
    overall = Overall(1, 2, standings)
    assert SHOWN_PLACES == 30
    assert [s.place for s in shown(overall, "b").standings] == [*range(1, 31), *range(36, 41)]
    assert [s.place for s in shown(overall, "a").standings] == list(range(1, 36))  # a's places 31-35 too
    assert [s.place for s in shown(overall, "organiser").standings] == list(range(1, 31))
