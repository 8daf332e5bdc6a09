"""The command set: English names, French aliases, who may use each, usage and help in both languages."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Access(Enum):
    """Who may use a command; the command layer checks it before running the command."""

    ANYONE = "anyone"  # views, help, word checks: changes nothing
    PLAYER = "player"  # acts for a seat: its own account, or the game's referee or a channel admin
    START = "start"  # starts a game: anyone when none runs; replacing a running one is the referee's
    REFEREE = "referee"  # the running game's referee or a channel admin


@dataclass(frozen=True)
class CommandSpec:
    """One command of DESIGN.md: how it is called, who may use it, and how it is explained."""

    name: str
    alias: str
    usage_en: str
    usage_fr: str
    help_en: str
    help_fr: str
    summary_en: str = ""  # one short sentence for the /help list
    summary_fr: str = ""
    access: Access = Access.ANYONE
    read_without_args: bool = False  # with no argument it only shows (e.g. /settings): open to anyone
    read_only: bool = False  # never changes anything: runs outside the write transaction

    def __str__(self) -> str:
        return f"/{self.name}"

    @property
    def control(self) -> bool:
        """The referee or a channel admin only."""
        return self.access is Access.REFEREE

    def usage(self, lang: str) -> str:
        return self.usage_fr if lang == "fr" else self.usage_en

    def help(self, lang: str) -> str:
        return self.help_fr if lang == "fr" else self.help_en

    def summary(self, lang: str) -> str:
        return self.summary_fr if lang == "fr" else self.summary_en


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "new",
        "nouvelle",
        "/new [fr|en] [box-fr|box-en|fisf|naspa|wespa] [players...] [!]",
        "/nouvelle [fr|en] [box-fr|box-en|fisf|naspa|wespa] [joueurs...] [!]",
        "Start a classic game in this channel (you become its referee). A running game is never replaced: "
        "end it with /end, or its referee adds ! to abandon it (it stays in /games).",
        "Commence une partie classique dans ce salon (vous en êtes l'arbitre). Une partie en cours n'est jamais "
        "remplacée : terminez-la avec /fin, ou son arbitre ajoute ! pour l'abandonner (elle reste dans /parties).",
        summary_en="Start a classic game.",
        summary_fr="Commence une partie classique.",
        access=Access.START,
    ),
    CommandSpec(
        "join",
        "rejoindre",
        "/join [NAME]",
        "/rejoindre [NOM]",
        "Join the game before the first move, or take the seat the referee typed under your name "
        "(a duplicate game can be joined at any time).",
        "Rejoint la partie avant le premier coup, ou prend la place que l'arbitre a tapée à votre nom "
        "(une partie duplicate se rejoint à tout moment).",
        summary_en="Join the game, or take your seat.",
        summary_fr="Rejoint la partie, ou prend sa place.",
        access=Access.PLAYER,
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
        summary_en="Record the move of the player to play.",
        summary_fr="Enregistre le coup du joueur dont c'est le tour.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "calc",
        "calcul",
        "/calc REF WORD",
        "/calcul REF MOT",
        "Score a move on the current board without recording it.",
        "Calcule un coup sur la grille actuelle sans l'enregistrer.",
        summary_en="Score a move without recording it.",
        summary_fr="Calcule un coup sans l'enregistrer.",
        read_only=True,
    ),
    CommandSpec(
        "check",
        "verif",
        "/check WORD...",
        "/verif MOT...",
        "Look words up in the channel's word list (20 at most).",
        "Cherche des mots dans la liste du salon (20 au plus).",
        summary_en="Look words up in the list.",
        summary_fr="Cherche des mots dans la liste.",
        read_only=True,
    ),
    CommandSpec(
        "challenge",
        "conteste",
        "/challenge [WORD...] [@PLAYER]",
        "/conteste [MOT...] [@JOUEUR]",
        "Challenge the last move before the next one is recorded: every word it formed (or those named) is "
        "checked, once per move, never by the player who made it. The referee names the challenger with @NAME.",
        "Conteste le dernier coup avant que le suivant soit enregistré : chaque mot formé (ou ceux nommés) est "
        "vérifié, une fois par coup, jamais par son auteur. L'arbitre désigne le contestataire avec @NOM.",
        summary_en="Challenge the last move.",
        summary_fr="Conteste le dernier coup.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "pass",
        "passe",
        "/pass",
        "/passe",
        "Pass the turn.",
        "Passe son tour.",
        summary_en="Pass.",
        summary_fr="Passe son tour.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "exchange",
        "change",
        "/exchange [N|LETTERS]",
        "/change [N|LETTRES]",
        "Exchange tiles: the letters, their number, or nothing if unknown (the rule set says how many must be "
        "left in the bag).",
        "Change des lettres : les lettres, leur nombre, ou rien si on ne les connaît pas (la règle fixe combien "
        "doivent rester dans le sac).",
        summary_en="Exchange tiles.",
        summary_fr="Change des lettres.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "penalty",
        "penalite",
        "/penalty PLAYER POINTS",
        "/penalite JOUEUR POINTS",
        "Take 1 to 500 points off a player (no turn used).",
        "Retire de 1 à 500 points à un joueur (sans utiliser de tour).",
        summary_en="Take points off a player.",
        summary_fr="Retire des points à un joueur.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "undo",
        "annule",
        "/undo",
        "/annule",
        "Take back the last sheet entry (a move, a pass, a challenge, a penalty...) and say what it was.",
        "Annule la dernière entrée de la feuille (coup, passe, contestation, pénalité...) en disant laquelle.",
        summary_en="Take back the last sheet entry.",
        summary_fr="Annule la dernière entrée de la feuille.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "end",
        "fin",
        "/end [PLAYER=LETTERS ...] [!]",
        "/fin [JOUEUR=LETTRES ...] [!]",
        "End the game with each player's remaining letters (? for a joker, or their value). With tiles still "
        "in the bag, add ! to end anyway. A duplicate game ends at once.",
        "Termine la partie avec les lettres restantes de chacun (? pour un joker, ou leur valeur). S'il reste "
        "des lettres dans le sac, ajoutez ! pour terminer quand même. Une partie duplicate s'arrête aussitôt.",
        summary_en="End the game with the racks left.",
        summary_fr="Termine la partie avec les lettres restantes.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "sheet",
        "feuille",
        "/sheet [N]",
        "/feuille [N]",
        "The score sheet of the running game, else of the last one; N picks a game of /games.",
        "La feuille de marque de la partie en cours, sinon de la dernière ; N choisit une partie de /parties.",
        summary_en="The score sheet.",
        summary_fr="La feuille de marque.",
        read_only=True,
    ),
    CommandSpec(
        "board",
        "grille",
        "/board [N]",
        "/grille [N]",
        "The board as an image (running game, else the last one; N picks a game of /games).",
        "La grille en image (partie en cours, sinon la dernière ; N choisit une partie de /parties).",
        summary_en="The board as an image.",
        summary_fr="La grille en image.",
        read_only=True,
    ),
    CommandSpec(
        "unseen",
        "reste",
        "/unseen [N]",
        "/reste [N]",
        "Tiles not yet on the board, and how many are left in the bag.",
        "Lettres pas encore sur la grille, et combien restent dans le sac.",
        summary_en="Tiles not yet played.",
        summary_fr="Les lettres pas encore jouées.",
        read_only=True,
    ),
    CommandSpec(
        "export",
        "export",
        "/export [N]",
        "/export [N]",
        "The game record: GCG for classic, the FISF record and a CSV of the results for duplicate.",
        "L'enregistrement de la partie : GCG en classique, feuille FISF et CSV des résultats en duplicate.",
        summary_en="The game record (GCG, FISF, CSV).",
        summary_fr="L'enregistrement de la partie (GCG, FISF, CSV).",
        read_only=True,
    ),
    CommandSpec(
        "games",
        "parties",
        "/games",
        "/parties",
        "The channel's games: number, date, kind, players, result.",
        "Les parties du salon : numéro, date, genre, joueurs, résultat.",
        summary_en="The channel's games.",
        summary_fr="Les parties du salon.",
        read_only=True,
    ),
    CommandSpec(
        "settings",
        "reglages",
        "/settings [KEY VALUE]",
        "/reglages [CLÉ VALEUR]",
        "Show the settings, or change one for the next games: language fr|en, edition fr|en, notation fisf|gcg, "
        "rules box-fr|box-en|fisf|naspa|wespa, lexicon fr|en|NAME (lists the operator added), minutes 0.5-10, "
        "timezone (e.g. Europe/Paris).",
        "Affiche les réglages, ou en change un pour les prochaines parties : langue fr|en, edition fr|en, "
        "notation fisf|gcg, regles box-fr|box-en|fisf|naspa|wespa, liste fr|en|NOM (listes ajoutées par "
        "l'hébergeur), minutes 0.5-10, fuseau (ex. Europe/Paris).",
        summary_en="Show or change the settings.",
        summary_fr="Affiche ou change les réglages.",
        access=Access.REFEREE,
        read_without_args=True,
    ),
    CommandSpec(
        "duplicate",
        "duplicate",
        "/duplicate [MINUTES] [manual] [!]",
        "/duplicate [MINUTES] [manuel] [!]",
        "Start a duplicate game (automatic draws, or manual draws typed with /draw); you become its referee. "
        "A running game is never replaced: its referee adds ! to abandon it.",
        "Commence une partie duplicate (tirages automatiques, ou manuels avec /tirage) ; vous en êtes "
        "l'arbitre. Une partie en cours n'est jamais remplacée : son arbitre ajoute ! pour l'abandonner.",
        summary_en="Start a duplicate game.",
        summary_fr="Commence une partie duplicate.",
        access=Access.START,
    ),
    CommandSpec(
        "draw",
        "tirage",
        "/draw [LETTERS|-]",
        "/tirage [LETTRES|-]",
        "Manual mode: type the draw the hall received (e.g. EEU+ESI?); '-' rejects the current draw; with "
        "nothing, shows the current draw to anyone.",
        "Mode manuel : tapez le tirage reçu dans la salle (ex. EEU+ESI?) ; « - » rejette le tirage en cours ; "
        "sans rien, montre le tirage en cours à tous.",
        summary_en="Type the hall's draw (manual mode).",
        summary_fr="Saisit le tirage de la salle (mode manuel).",
        access=Access.REFEREE,
        read_without_args=True,
    ),
    CommandSpec(
        "play",
        "jouer",
        "/play REF WORD [score]",
        "/jouer REF MOT [score]",
        "Submit your duplicate move privately (a later one replaces it); the first one makes you a player.",
        "Propose votre coup de duplicate en privé (un nouveau remplace l'ancien) ; le premier vous inscrit.",
        summary_en="Submit your duplicate move privately.",
        summary_fr="Propose votre coup de duplicate en privé.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "close",
        "cloture",
        "/close",
        "/cloture",
        "Close the running round now.",
        "Clôt la manche en cours maintenant.",
        summary_en="Close the round now.",
        summary_fr="Clôt la manche maintenant.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "reopen",
        "rouvre",
        "/reopen [SECONDS]",
        "/rouvre [SECONDES]",
        "Reopen the last closed round (before anyone plays the next draw), for 60 seconds or the time given.",
        "Rouvre la dernière manche close (avant que quiconque joue le tirage suivant), pour 60 secondes ou "
        "le temps donné.",
        summary_en="Reopen the last closed round.",
        summary_fr="Rouvre la dernière manche close.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "pause",
        "pause",
        "/pause",
        "/pause",
        "Stop the round's clock (/resume starts it again with the time that was left).",
        "Arrête le chrono de la manche (/reprise le relance avec le temps qui restait).",
        summary_en="Stop the clock.",
        summary_fr="Arrête le chrono.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "resume",
        "reprise",
        "/resume",
        "/reprise",
        "Start the paused clock again.",
        "Relance le chrono arrêté.",
        summary_en="Start the clock again.",
        summary_fr="Relance le chrono.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "extend",
        "prolonge",
        "/extend SECONDS",
        "/prolonge SECONDES",
        "Give the running round more time (1 to 600 seconds).",
        "Donne plus de temps à la manche en cours (1 à 600 secondes).",
        summary_en="Give the round more time.",
        summary_fr="Donne plus de temps à la manche.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "correct",
        "corrige",
        "/correct PLAYER MOVE REF WORD [reason] | /correct PLAYER MOVE POINTS [reason]",
        "/corrige JOUEUR COUP REF MOT [raison] | /corrige JOUEUR COUP POINTS [raison]",
        "Correct a player's answer for a closed move (a misread slip): the move is judged again, or the "
        "points are entered; the reason is kept in the record.",
        "Corrige la réponse d'un joueur pour un coup clos (bulletin mal lu) : le coup est rejugé, ou les "
        "points sont saisis ; la raison reste dans la feuille.",
        summary_en="Correct a player's answer after the close.",
        summary_fr="Corrige la réponse d'un joueur après la clôture.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "top",
        "top",
        "/top N",
        "/top N",
        "When several plays share the top score, place the N-th of the list instead (before anyone plays the "
        "next draw). By default the one with the fewest jokers, then the first in board order, is placed.",
        "Quand plusieurs coups font le top, place le N-ième de la liste à la place (avant que quiconque joue "
        "le tirage suivant). Par défaut, celui qui a le moins de jokers, puis le premier dans l'ordre de la "
        "grille, est placé.",
        summary_en="Place another of the tied tops.",
        summary_fr="Place un autre des tops ex aequo.",
        access=Access.REFEREE,
    ),
    CommandSpec(
        "standings",
        "classement",
        "/standings [N]",
        "/classement [N]",
        "Duplicate ranking: total, gap to the top, percentage of the top.",
        "Classement du duplicate : total, écart au top, pourcentage du top.",
        summary_en="The duplicate ranking.",
        summary_fr="Le classement du duplicate.",
        read_only=True,
    ),
    CommandSpec(
        "status",
        "etat",
        "/status",
        "/etat",
        "Where the game stands: in duplicate the current draw, its deadline and how many have played; in a "
        "classic game the scores and whose turn it is.",
        "Où en est la partie : en duplicate le tirage en cours, son heure limite et combien ont joué ; en "
        "classique les scores et à qui de jouer.",
        summary_en="Where the game stands (the current draw).",
        summary_fr="Où en est la partie (le tirage en cours).",
        read_only=True,
    ),
    CommandSpec(
        "help",
        "aide",
        "/help [COMMAND]",
        "/aide [COMMANDE]",
        "The list of commands, or the help of one.",
        "La liste des commandes, ou l'aide de l'une d'elles.",
        summary_en="Help.",
        summary_fr="L'aide.",
        read_only=True,
    ),
)

BY_NAME: dict[str, CommandSpec] = {}
for _spec in COMMANDS:
    BY_NAME[_spec.name] = _spec
    BY_NAME[_spec.alias] = _spec


def find(name: str) -> CommandSpec | None:
    """The command called ``name`` (English name or French alias, accents folded, any case)."""
    return BY_NAME.get(name.lower().lstrip("/"))
