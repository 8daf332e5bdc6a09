"""Replies carry actions (issue 39): pressing one is its user typing the action's line, so the button and the
typed command reach the same command; the duplicate answer's form makes the same ``/jouer`` line; the outbox
keeps a reply's actions on every backend."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.actions import Action, ActionError, ActionStyle, Form, FormField, actions_text
from bot.chat import Reply
from bot.storage import Storage
from bot.storage.outbox_records import reply_from_json, reply_to_json
from tests.club import Club

FIELDS = (FormField("ref", "Réf"), FormField("word", "Mot"), FormField("score", "Points", False))
FORM = Form("Votre coup", "/jouer", FIELDS)
ACTIONS = (
    Action("Jouer", "/jouer", ActionStyle.PRIMARY, form=FORM),
    Action("Terminer quand même", "/fin !", ActionStyle.DANGER, confirm=True),
    Action("Annuler"),
    Action("en", "/reglages langue en", menu="langue"),
)


def offered(replies: list[Reply]) -> dict[str, Action]:
    """The actions of replies, by label."""
    return {action.label: action for reply in replies for action in reply.actions}


def press(club: Club, name: str, action: Action, **options: object) -> list[Reply]:
    """``name`` presses ``action``: what the platform sends is its line, from that user."""
    return club.send(name, action.command, **options)  # type: ignore[arg-type]


def test_a_reply_keeps_its_actions_through_the_outboxs_json() -> None:
    reply = Reply("Tirage", channel="c:1", actions=ACTIONS)
    assert reply_from_json(reply_to_json(reply), 7).actions == ACTIONS
    assert reply_from_json(reply_to_json(Reply("x")), 1).actions == ()


def test_every_backend_stores_the_actions_with_the_reply(open_store: Callable[[], Storage]) -> None:
    store = open_store()
    store.enqueue([Reply("Tirage", channel="c:1", actions=ACTIONS), Reply("plain", channel="c:2")], due=0.0)
    due = {item.destination: item.reply.actions for item in store.outbox_due("c:", 10.0)}
    assert due == {"c:1": ACTIONS, "c:2": ()}


def test_a_form_makes_the_typed_line_and_refuses_a_missing_field() -> None:
    assert FORM.command_line({"ref": " h8 ", "word": "vague"}) == "/jouer h8 vague"
    assert FORM.command_line({"ref": "H8", "word": "VAGUE", "score": "24"}) == "/jouer H8 VAGUE 24"
    assert FORM.command_line({"ref": "H8"}) is None
    assert FORM.as_text() == "/jouer RÉF MOT [POINTS]"


def test_an_action_too_long_to_come_back_is_refused_and_the_console_shows_each_kind() -> None:
    with pytest.raises(ActionError):
        Action("x", "/jouer " + "A" * 60)
    assert actions_text(ACTIONS) == (
        "[Jouer → /jouer RÉF MOT [POINTS]]  [Terminer quand même → /fin !]  [Annuler]\n"
        "langue ▾ [en → /reglages langue en]"
    )


def test_join_and_challenge_pressed_as_buttons_do_what_typing_does(club: Club) -> None:
    created = offered(club.send("Ana", "/nouvelle Ana"))
    assert created["Rejoindre"].command == "/rejoindre"
    assert "Ben rejoint la partie" in press(club, "Ben", created["Rejoindre"])[0].text
    scored = offered(club.send("Ana", "/coup H8 VAGUE"))
    challenge = scored["Contester"]
    assert (challenge.command, challenge.confirm) == ("/conteste", True)  # lost: a turn
    assert "Ben perd son tour." in press(club, "Ben", challenge)[0].text
    assert [e["kind"] for e in club.events()][-1] == "challenge"


def test_what_cannot_be_undone_offers_confirm_and_cancel_and_confirm_runs_it(club: Club) -> None:
    club.ok("Ana", "/nouvelle Ana Ben")
    club.ok("Ana", "/coup H8 VAGUE")
    refusal = club.send("Ana", "/fin")
    assert refusal[0].error
    buttons = offered(refusal)
    assert set(buttons) == {"Terminer quand même", "Annuler"}
    end = buttons["Terminer quand même"]
    assert (end.command, end.confirm, end.style) == ("/fin !", True, ActionStyle.DANGER)
    assert buttons["Annuler"].command == ""
    replace = offered(club.send("Ana", "/nouvelle Chloé Dan"))["L'abandonner et commencer"]
    assert replace.command == "/nouvelle Chloé Dan !"
    assert "Fin de partie" in press(club, "Ana", end)[0].text


def test_the_settings_are_select_menus_whose_choice_is_the_typed_setting(club: Club) -> None:
    menus = club.send("Ana", "/reglages", admin=True)[0].actions
    languages = [a for a in menus if a.menu == "langue"]
    assert [(a.label, a.command) for a in languages] == [("English", "/reglages langue en")]  # by its name
    assert {a.menu for a in menus} == {"langue", "edition", "notation", "regles"}
    editions = {a.label: a.command for a in menus if a.menu == "edition"}
    assert editions["Català (FISC)"] == "/reglages edition ca"
    assert "Français (FISF)" not in editions  # the edition in force
    assert {a.label for a in menus if a.menu == "notation"} == {"gcg"}  # a notation by its own name
    after = press(club, "Ana", languages[0], admin=True)[0]
    assert after.text.startswith("Settings: language en")
    assert [(a.label, a.command) for a in after.actions if a.menu == "language"] == [
        ("Français", "/settings language fr")
    ]


def test_a_duplicate_draw_offers_the_play_form_whose_answer_is_the_typed_move(club: Club) -> None:
    club.ok("Ana", "/duplicate 3 manuel", admin=True)
    draw = offered(club.send("Ana", "/tirage ACEHNTZ", admin=True))
    play = draw["Jouer"]
    assert play.form is not None
    assert "Rejoindre" in draw
    line = play.form.command_line({"ref": "H4", "word": "CHANTEZ"})
    assert line == "/jouer H4 CHANTEZ"
    typed = club.send("Ben", "/jouer H4 CHANTEZ", private=True)[0].text
    formed = club.send("Chloé", line, private=True)[0].text
    assert formed.replace("Chloé", "Ben") == typed  # the same acknowledgement, each welcomed under their name


def test_help_is_grouped_by_section_with_a_button_to_each(club: Club) -> None:
    (full,) = club.send("Ana", "/aide")
    assert "Partie classique :\n/nouvelle" in full.text
    sections = ["/aide classique", "/aide duplicate", "/aide consulter", "/aide général"]
    assert [a.command for a in full.actions] == sections
    (views,) = press(club, "Ana", full.actions[2])
    assert views.text.startswith("Consulter, séries, simultanés :\n/parties")
    assert "/nouvelle" not in views.text
    assert "/aide consulter" not in [a.command for a in views.actions]
    (both,) = club.send("Ben", "/help duplicate")  # a command and a section: the command, then its section
    assert both.text.startswith("/duplicate [MINUTES")
    assert "Duplicate :\n/duplicate" in both.text
