"""The classic commands' arguments as forms (``bot.commands.options``): what a platform that shows forms
offers for /new, /score, /challenge, /pass, /exchange and /penalty. Each is written back into the typed line
the command reads."""

from __future__ import annotations

from ...commands.options import MOST_POINTS, Form, Label, Suggest, choice, flag, integer, member, text

NEW = Form(
    (
        choice("language", "fr", "en", label=Label.EDITION),  # the game's edition, by its name
        choice("rules", "box-fr", "box-en", "fisf", "naspa", "wespa"),
        text("players"),
        flag("no_board", "no-board"),
        flag("confirm", "!"),
    )
)
SCORE = Form(
    (
        text("position", required=True),
        text("word", required=True),
        integer("claimed", 0, MOST_POINTS),
        member("player"),  # the referee recording a seat's move: @PLAYER
    )
)
CHALLENGE = Form((text("words"), member("player")))
PASS = Form((member("player"),))
EXCHANGE = Form((text("tiles"), member("player")))
PENALTY = Form(
    (
        text("player", required=True, suggest=Suggest.PLAYERS),  # a seat typed by name may be no member
        integer("points", -MOST_POINTS, MOST_POINTS, required=True),
    )
)
