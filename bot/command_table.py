"""The command set: English names, French aliases, usage and help in both languages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CommandSpec:
    """One command of DESIGN.md: how it is called and explained."""

    name: str
    alias: str
    usage_en: str
    usage_fr: str
    help_en: str
    help_fr: str
    control: bool = False  # the referee or a channel admin only

    def __str__(self) -> str:
        return f"/{self.name}"

    def usage(self, lang: str) -> str:
        return self.usage_fr if lang == "fr" else self.usage_en

    def help(self, lang: str) -> str:
        return self.help_fr if lang == "fr" else self.help_en


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "new",
        "nouvelle",
        "/new [fr|en] [box-fr|box-en|fisf|naspa|wespa] [players...]",
        "/nouvelle [fr|en] [box-fr|box-en|fisf|naspa|wespa] [joueurs...]",
        "Start a classic game in this channel (you become its referee).",
        "Commence une partie classique dans ce salon (vous en êtes l'arbitre).",
    ),
    CommandSpec(
        "join",
        "rejoindre",
        "/join",
        "/rejoindre",
        "Join the game before the first move (or a duplicate game at any time).",
        "Rejoint la partie avant le premier coup (ou une partie duplicate à tout moment).",
    ),
    CommandSpec(
        "score",
        "coup",
        "/score REF WORD [claimed score]",
        "/coup REF MOT [score annoncé]",
        "Record a move for the player whose turn it is: /score H8 VAGUE. Jokers in lowercase "
        "(VAGuE) or in brackets (VAG(U)E); '.' stands for a letter already on the board.",
        "Enregistre le coup du joueur dont c'est le tour : /coup H8 VAGUE. Joker en minuscule "
        "(VAGuE) ou entre parenthèses (VAG(U)E) ; « . » remplace une lettre déjà posée.",
    ),
    CommandSpec(
        "calc",
        "calcul",
        "/calc REF WORD",
        "/calcul REF MOT",
        "Score a move on the current board without recording it.",
        "Calcule un coup sur la grille actuelle sans l'enregistrer.",
    ),
    CommandSpec(
        "check",
        "verif",
        "/check WORD...",
        "/verif MOT...",
        "Look words up in the channel's word list.",
        "Cherche des mots dans la liste du salon.",
    ),
    CommandSpec(
        "challenge",
        "conteste",
        "/challenge [WORD...]",
        "/conteste [MOT...]",
        "Challenge the last move: every word it formed (or those named) is checked.",
        "Conteste le dernier coup : chaque mot formé (ou ceux nommés) est vérifié.",
    ),
    CommandSpec("pass", "passe", "/pass", "/passe", "Pass.", "Passe son tour."),
    CommandSpec(
        "exchange",
        "change",
        "/exchange [N|LETTERS]",
        "/change [N|LETTRES]",
        "Exchange tiles (the rule set says how many must be left in the bag).",
        "Change des lettres (la règle fixe combien doivent rester dans le sac).",
    ),
    CommandSpec(
        "penalty",
        "penalite",
        "/penalty PLAYER POINTS",
        "/penalite JOUEUR POINTS",
        "Take points off a player (no turn used).",
        "Retire des points à un joueur (sans utiliser de tour).",
        control=True,
    ),
    CommandSpec(
        "undo",
        "annule",
        "/undo",
        "/annule",
        "Remove the last sheet line.",
        "Annule la dernière ligne de la feuille.",
        control=True,
    ),
    CommandSpec(
        "end",
        "fin",
        "/end [PLAYER=LETTERS ...]",
        "/fin [JOUEUR=LETTRES ...]",
        "End the game with each player's remaining letters (? for a joker, or their value).",
        "Termine la partie avec les lettres restantes de chacun (? pour un joker, ou leur valeur).",
        control=True,
    ),
    CommandSpec("sheet", "feuille", "/sheet", "/feuille", "Show the score sheet.", "Affiche la feuille de marque."),
    CommandSpec("board", "grille", "/board", "/grille", "Show the board as an image.", "Affiche la grille en image."),
    CommandSpec(
        "unseen", "reste", "/unseen", "/reste", "Tiles not yet on the board.", "Lettres pas encore sur la grille."
    ),
    CommandSpec(
        "export",
        "export",
        "/export",
        "/export",
        "The game record (GCG for classic, FISF record for duplicate).",
        "L'enregistrement de la partie (GCG en classique, feuille FISF en duplicate).",
    ),
    CommandSpec(
        "settings",
        "reglages",
        "/settings [KEY VALUE]",
        "/reglages [CLÉ VALEUR]",
        "Show or change: language fr|en, edition fr|en, notation fisf|gcg, "
        "rules box-fr|box-en|fisf|naspa|wespa, lexicon fr|en|NAME (lists the operator added), minutes 1-3.",
        "Affiche ou change : langue fr|en, edition fr|en, notation fisf|gcg, "
        "regles box-fr|box-en|fisf|naspa|wespa, liste fr|en|NOM (listes ajoutées par l'hébergeur), minutes 1-3.",
        control=True,
    ),
    CommandSpec(
        "duplicate",
        "duplicate",
        "/duplicate [MINUTES] [manual]",
        "/duplicate [MINUTES] [manuel]",
        "Start a duplicate game (automatic draws, or manual draws typed with /draw).",
        "Commence une partie duplicate (tirages automatiques, ou manuels avec /tirage).",
        control=True,
    ),
    CommandSpec(
        "draw",
        "tirage",
        "/draw LETTERS",
        "/tirage LETTRES",
        "Manual mode: the draw the hall received (e.g. EEU+ESI?).",
        "Mode manuel : le tirage reçu dans la salle (ex. EEU+ESI?).",
        control=True,
    ),
    CommandSpec(
        "play",
        "jouer",
        "/play REF WORD [score]",
        "/jouer REF MOT [score]",
        "Submit your duplicate move privately (a later one replaces it).",
        "Propose votre coup de duplicate en privé (un nouveau remplace l'ancien).",
    ),
    CommandSpec(
        "close",
        "cloture",
        "/close",
        "/cloture",
        "Close the running round now.",
        "Clôt la manche en cours maintenant.",
        control=True,
    ),
    CommandSpec(
        "standings", "classement", "/standings", "/classement", "Duplicate ranking.", "Classement du duplicate."
    ),
    CommandSpec(
        "help", "aide", "/help [COMMAND]", "/aide [COMMANDE]", "Help, per command.", "Aide, commande par commande."
    ),
)

BY_NAME: dict[str, CommandSpec] = {}
for _spec in COMMANDS:
    BY_NAME[_spec.name] = _spec
    BY_NAME[_spec.alias] = _spec


def find(name: str) -> CommandSpec | None:
    """The command called ``name`` (English name or French alias, accents folded, any case)."""
    return BY_NAME.get(name.lower().lstrip("/"))
