"""The words drawn on the images, in French and English (any other language code gets English)."""

from __future__ import annotations

from core.board import Premium

LANGUAGES = ("fr", "en")

_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "move": "Coup {n}",
        "bag": "Sac : {n}",
        "to_play": "À {player} de jouer",
        "game_over": "Partie terminée",
        "last": "Dernier coup : {move}",
        "round": "Coup {n}",
        "kept": "Reliquat",
        "new": "Nouvelles lettres",
        "whole_draw": "Tirage",
        "deadline": "Fin à {time}",
        "closed": "Coup clos",
        "top": "Top : {move}",
        "no_top": "Pas de top",
        "no_draw": "En attente du tirage",
        "result_title": "Coup {n} : résultats",
        "draw": "Tirage : {draw}",
        "points": "{n} pts",
        "found_top": "top",
        "solo": "solo +{bonus}",
        "no_answer": "pas de réponse",
        "standings_title": "Classement après {n} coups",
        "standings_title_1": "Classement après 1 coup",
        "tops_total": "Total des tops : {n}",
        "col_rank": "#",
        "col_player": "Joueur",
        "col_move": "Coup",
        "col_score": "Pts",
        "col_total": "Total",
        "col_gap": "Écart",
        "col_percent": "% du top",
        "col_solos": "Solos",
    },
    "en": {
        "move": "Move {n}",
        "bag": "Bag: {n}",
        "to_play": "{player} to play",
        "game_over": "Game over",
        "last": "Last move: {move}",
        "round": "Move {n}",
        "kept": "Kept",
        "new": "New letters",
        "whole_draw": "Draw",
        "deadline": "Closes at {time}",
        "closed": "Move closed",
        "top": "Top: {move}",
        "no_top": "No top",
        "no_draw": "Waiting for the draw",
        "result_title": "Move {n}: results",
        "draw": "Draw: {draw}",
        "points": "{n} pts",
        "found_top": "top",
        "solo": "solo +{bonus}",
        "no_answer": "no answer",
        "standings_title": "Standings after {n} moves",
        "standings_title_1": "Standings after 1 move",
        "tops_total": "Sum of tops: {n}",
        "col_rank": "#",
        "col_player": "Player",
        "col_move": "Move",
        "col_score": "Pts",
        "col_total": "Total",
        "col_gap": "Gap",
        "col_percent": "% of top",
        "col_solos": "Solos",
    },
}

_PREMIUM_LABELS = {
    "fr": {
        Premium.TRIPLE_WORD: "MT",
        Premium.DOUBLE_WORD: "MD",
        Premium.TRIPLE_LETTER: "LT",
        Premium.DOUBLE_LETTER: "LD",
        Premium.NONE: "",
    },
    "en": {
        Premium.TRIPLE_WORD: "TW",
        Premium.DOUBLE_WORD: "DW",
        Premium.TRIPLE_LETTER: "TL",
        Premium.DOUBLE_LETTER: "DL",
        Premium.NONE: "",
    },
}

CENTRE_STAR = "★"


def language(code: str) -> str:
    """The language the images use for ``code``: French or English."""
    return code if code in LANGUAGES else "en"


def word(lang: str, key: str, **values: object) -> str:
    """The label ``key`` in ``lang``, filled with ``values``."""
    return _WORDS[language(lang)][key].format(**values)


def premium_label(lang: str, premium: Premium) -> str:
    """The two-letter name of a premium square (``MT``/``TW``...), empty for a plain square."""
    return _PREMIUM_LABELS[language(lang)][premium]


def vocabulary() -> list[str]:
    """Every fixed text the images may draw, in every language (placeholders left in)."""
    texts = [text for words in _WORDS.values() for text in words.values()]
    texts += [label for labels in _PREMIUM_LABELS.values() for label in labels.values() if label]
    return texts + [CENTRE_STAR]
