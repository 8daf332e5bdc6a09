"""The command set: English names, French aliases, who may use each, usage and help in both languages."""

from __future__ import annotations

import difflib
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

    def menu(self, lang: str) -> str:
        """The description in a platform's command menu: the summary, a whole sentence (else the help)."""
        return self.summary(lang) or self.help(lang)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "new",
        "nouvelle",
        "/new [fr|en] [box-fr|box-en|fisf|naspa|wespa] [players...] [!]",
        "/nouvelle [fr|en] [box-fr|box-en|fisf|naspa|wespa] [joueurs...] [!]",
        "Start a classic game in this channel (you become its referee). fr or en picks the tile set, a rule set "
        "code the rules (default: the channel's), then come the names of 2 to 4 players (or they /join before "
        "the first move). A running game is never replaced: end it with /end, or its referee adds ! to abandon "
        "it (it stays in /games).",
        "Commence une partie classique dans ce salon (vous en êtes l'arbitre). fr ou en choisit le jeu de "
        "lettres, un code de règles les règles (par défaut celles du salon), puis viennent les noms de 2 à 4 "
        "joueurs (ou ils font /rejoindre avant le premier coup). Une partie en cours n'est jamais remplacée : "
        "terminez-la avec /fin, ou son arbitre ajoute ! pour l'abandonner (elle reste dans /parties).",
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
        "Record a move for the player whose turn it is: /score H8 VAGUE, or /score H8 VAGUE 26 to check the "
        "score you counted. Jokers in lowercase (VAGuE) or in brackets (VAG(U)E); '.' stands for a letter "
        "already on the board.",
        "Enregistre le coup du joueur dont c'est le tour : /coup H8 VAGUE, ou /coup H8 VAGUE 26 pour vérifier "
        "le score que vous avez compté. Joker en minuscule (VAGuE) ou entre parenthèses (VAG(U)E) ; « . » "
        "remplace une lettre déjà posée.",
        summary_en="Record the move of the player to play.",
        summary_fr="Enregistre le coup du joueur dont c'est le tour.",
        access=Access.PLAYER,
    ),
    CommandSpec(
        "calc",
        "calcul",
        "/calc REF WORD",
        "/calcul REF MOT",
        "Score a move on the current board (an empty one when no game runs) without recording it.",
        "Calcule un coup sur la grille actuelle (une grille vide sans partie en cours) sans l'enregistrer.",
        summary_en="Score a move without recording it.",
        summary_fr="Calcule un coup sans l'enregistrer.",
        read_only=True,
    ),
    CommandSpec(
        "check",
        "verif",
        "/check WORD...",
        "/verif MOT...",
        "Look words up in the channel's word list (the first 20 words given).",
        "Cherche des mots dans la liste du salon (les 20 premiers mots donnés).",
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
        "End the game with each player's remaining letters (? for a joker, or their value): /end Ben=EAU. In a "
        "two-player game the letters alone are those of the player who did not go out. With tiles still in "
        "the bag, add ! to end anyway. A duplicate game ends at once.",
        "Termine la partie avec les lettres restantes de chacun (? pour un joker, ou leur valeur) : /fin Ben=EAU. "
        "À deux joueurs, les lettres seules sont celles du joueur qui n'a pas fini. S'il reste des lettres dans "
        "le sac, ajoutez ! pour terminer quand même. Une partie duplicate s'arrête aussitôt.",
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
        "moves",
        "coups",
        "/moves [PLAYER] [N]",
        "/coups [JOUEUR] [N]",
        "A player's moves with their scores (yours by default), in the running game or the last one; N picks "
        "a game of /games. In duplicate, each move also shows the top and the gap to it.",
        "Les coups d'un joueur avec leurs points (les vôtres par défaut), dans la partie en cours ou la "
        "dernière ; N choisit une partie de /parties. En duplicate, chaque coup montre aussi le top et l'écart.",
        summary_en="A player's moves and scores.",
        summary_fr="Les coups d'un joueur et leurs points.",
        read_only=True,
    ),
    CommandSpec(
        "board",
        "grille",
        "/board [N]",
        "/grille [N]",
        "The board as an image: players, scores, whose turn, tiles in the bag, last move lit; in duplicate the "
        "draw and the deadline, or the top once the move is closed. Running game, else the last one; N picks a "
        "game of /games.",
        "La grille en image : joueurs, scores, à qui de jouer, lettres dans le sac, dernier coup en couleur ; en "
        "duplicate le tirage et l'heure de fin, ou le top une fois le coup clos. Partie en cours, sinon la "
        "dernière ; N choisit une partie de /parties.",
        summary_en="The board as an image.",
        summary_fr="La grille en image.",
        read_only=True,
    ),
    CommandSpec(
        "unseen",
        "reste",
        "/unseen [N]",
        "/reste [N]",
        "Tiles not yet on the board, and how many are left in the bag (N picks a game of /games).",
        "Lettres pas encore sur la grille, et combien restent dans le sac (N choisit une partie de /parties).",
        summary_en="Tiles not yet played.",
        summary_fr="Les lettres pas encore jouées.",
        read_only=True,
    ),
    CommandSpec(
        "export",
        "export",
        "/export [N]",
        "/export [N]",
        "The game record as a file: GCG for classic, the FISF record and a CSV of the results for duplicate "
        "(N picks a game of /games).",
        "L'enregistrement de la partie en fichier : GCG en classique, feuille FISF et CSV des résultats en "
        "duplicate (N choisit une partie de /parties).",
        summary_en="The game record (GCG, FISF, CSV).",
        summary_fr="L'enregistrement de la partie (GCG, FISF, CSV).",
        read_only=True,
    ),
    CommandSpec(
        "games",
        "parties",
        "/games",
        "/parties",
        "The channel's last 20 games: number, date, kind, status, players, result.",
        "Les 20 dernières parties du salon : numéro, date, genre, état, joueurs, résultat.",
        summary_en="The channel's games.",
        summary_fr="Les parties du salon.",
        read_only=True,
    ),
    CommandSpec(
        "settings",
        "reglages",
        "/settings [KEY VALUE]",
        "/reglages [CLÉ VALEUR]",
        "Show the settings, or change one for the next games: language fr|en, edition fr|en (brings its "
        "notation, list and rules), notation fisf|gcg, rules box-fr|box-en|fisf|naspa|wespa, lexicon "
        "fr|en|NAME (lists the operator added), minutes per duplicate move 0.05-10, timezone (e.g. Europe/Paris). "
        "The French key names work too.",
        "Affiche les réglages, ou en change un pour les prochaines parties : langue fr|en, edition fr|en (avec "
        "sa notation, sa liste et ses règles), notation fisf|gcg, regles box-fr|box-en|fisf|naspa|wespa, liste "
        "fr|en|NOM (listes ajoutées par l'hébergeur), minutes par coup de duplicate 0,05-10, fuseau (par "
        "exemple Europe/Paris). Les noms anglais des clés marchent aussi.",
        summary_en="Show or change the settings.",
        summary_fr="Affiche ou change les réglages.",
        access=Access.REFEREE,
        read_without_args=True,
    ),
    CommandSpec(
        "words",
        "mots",
        "/words [add|remove WORD...]",
        "/mots [ajoute|retire MOT...]",
        "The channel's house words: /words lists them; the referee or a channel admin accepts words the list "
        "lacks with /words add KA OM and rejects words with /words remove WORD. Challenges, /check and "
        "duplicate tops use the list with them; each change is kept with who made it and when.",
        "Les mots maison du salon : /mots les liste ; l'arbitre ou un administrateur du salon accepte des mots "
        "absents de la liste avec /mots ajoute KA OM et en refuse avec /mots retire MOT. Contestations, /verif "
        "et tops du duplicate utilisent la liste avec eux ; chaque changement garde qui l'a fait et quand.",
        summary_en="The channel's house words (list, add, remove).",
        summary_fr="Les mots maison du salon (liste, ajout, retrait).",
        access=Access.REFEREE,
        read_without_args=True,
    ),
    CommandSpec(
        "duplicate",
        "duplicate",
        "/duplicate [MINUTES] [manual] [!]",
        "/duplicate [MINUTES] [manuel] [!]",
        "Start a duplicate game with MINUTES per move (0.05 to 10; default: the channel's setting), automatic "
        "draws or manual ones typed with /draw; you become its referee. A running game is never replaced: its "
        "referee adds ! to abandon it.",
        "Commence une partie duplicate avec MINUTES par coup (0,05 à 10 ; par défaut le réglage du salon), "
        "tirages automatiques ou manuels saisis avec /tirage ; vous en êtes l'arbitre. Une partie en cours "
        "n'est jamais remplacée : son arbitre ajoute ! pour l'abandonner.",
        summary_en="Start a duplicate game.",
        summary_fr="Commence une partie duplicate.",
        access=Access.START,
    ),
    CommandSpec(
        "draw",
        "tirage",
        "/draw [LETTERS|-]",
        "/tirage [LETTRES|-]",
        "Type the draw the hall received, in manual mode: EEU+ESI? (the kept letters, +, the new ones). "
        "'-' rejects the current draw, in either mode; with nothing, shows the current draw to anyone.",
        "Saisit le tirage reçu dans la salle, en mode manuel : EEU+ESI? (le reliquat, +, les nouvelles "
        "lettres). « - » rejette le tirage en cours, dans les deux modes ; sans rien, montre le tirage en cours "
        "à tous.",
        summary_en="Type the hall's draw (manual mode), or show the current one.",
        summary_fr="Saisit le tirage de la salle (mode manuel), ou montre celui en cours.",
        access=Access.REFEREE,
        read_without_args=True,
    ),
    CommandSpec(
        "play",
        "jouer",
        "/play REF WORD [score]",
        "/jouer REF MOT [score]",
        "Submit your duplicate move privately, with the score you counted if you like (a later one replaces "
        "it); the first one makes you a player.",
        "Propose votre coup de duplicate en privé, avec le score compté si vous voulez (un nouveau remplace "
        "l'ancien) ; le premier vous inscrit.",
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
        "Reopen the last closed round (before anyone plays the next draw), for 60 seconds or the time given "
        "(at most 600).",
        "Rouvre la dernière manche close (avant que quiconque joue le tirage suivant), pour 60 secondes ou "
        "le temps donné (600 au plus).",
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
        "Give the running round more time (at most 600 seconds at once).",
        "Donne plus de temps à la manche en cours (600 secondes au plus à la fois).",
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
        "The standings: in duplicate each player's total, gap to the sum of the tops and percentage of it "
        "(also as an image); in classic the scores with the end-of-game adjustment. N picks a game of /games.",
        "Le classement : en duplicate le total de chacun, l'écart au top cumulé et son pourcentage (aussi en "
        "image) ; en classique les scores avec l'ajustement de fin de partie. N choisit une partie de /parties.",
        summary_en="The standings.",
        summary_fr="Le classement.",
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
        "The list of commands, or the help of one: /help score.",
        "La liste des commandes, ou l'aide de l'une d'elles : /aide coup.",
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


SUGGESTIONS = 3  # nearest commands offered for an unknown name
SUGGESTION_CUTOFF = 0.6  # difflib similarity below which a name is not offered


def suggest(name: str) -> list[CommandSpec]:
    """The known commands whose English name or French alias is nearest to ``name``, best first."""
    typed = name.lower().lstrip("/")
    found: list[CommandSpec] = []
    for match in difflib.get_close_matches(typed, BY_NAME, n=2 * SUGGESTIONS, cutoff=SUGGESTION_CUTOFF):
        spec = BY_NAME[match]
        if spec not in found:
            found.append(spec)
    return found[:SUGGESTIONS]
