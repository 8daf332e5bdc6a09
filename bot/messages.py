"""French and English message catalogs, and the polite explanation of every known error."""

from __future__ import annotations

from typing import Any

from core import errors as E

CATALOG: dict[str, tuple[str, str]] = {
    # general
    "apology": (
        "Désolé, quelque chose s'est mal passé de mon côté. Rien n'a été enregistré ; réessayez.",
        "Sorry, something went wrong on my side. Nothing was recorded; please try again.",
    ),
    "command_too_long": (
        "Message trop long ({length} caractères) : une commande en compte au plus {most}.",
        "Message too long ({length} characters): a command has at most {most}.",
    ),
    "unknown_command": (
        "Je ne connais pas la commande /{name}. Tapez /aide pour la liste.",
        "I don't know the command /{name}. Type /help for the list.",
    ),
    "unknown_command_suggest": (
        "Je ne connais pas la commande /{name}. Vouliez-vous dire {suggestions} ? /aide donne la liste.",
        "I don't know the command /{name}. Did you mean {suggestions}? /help gives the list.",
    ),
    "suggestion_or": (" ou ", " or "),
    "no_game": (
        "Aucune partie en cours dans ce salon. Commencez-en une avec /nouvelle [joueurs...] ou /duplicate.",
        "No game in this channel. Start one with /new [players...] or /duplicate.",
    ),
    "no_classic_game": (
        "Aucune partie classique en cours ici. Commencez-en une avec /nouvelle Ana Ben.",
        "No classic game here. Start one with /new Ana Ben.",
    ),
    "not_allowed": (
        "Seul l'arbitre de la partie ({referee}) ou un administrateur du salon peut utiliser /{name}.",
        "Only the game's referee ({referee}) or a channel admin may use /{name}.",
    ),
    "not_your_turn": (
        "C'est à {to_move} de jouer : seul {to_move} ou l'arbitre ({referee}) peut enregistrer ce coup.",
        "It is {to_move}'s turn: only {to_move} or the referee ({referee}) may record this move.",
    ),
    "usage": ("Syntaxe : {usage}", "Usage: {usage}"),
    "game_over_hint": (
        "La partie est terminée. /nouvelle pour en commencer une autre.",
        "The game is over. /new starts another one.",
    ),
    # classic
    "new_game": (
        "Nouvelle partie ({edition}, règles {rules}, notation {notation}). Joueurs : {players}. À {to_move} de jouer.",
        "New game ({edition}, rules {rules}, {notation} notation). Players: {players}. {to_move} to play.",
    ),
    "new_game_waiting": (
        "Nouvelle partie ({edition}, règles {rules}). Rejoignez-la avec /rejoindre (2 à {max} joueurs).",
        "New game ({edition}, {rules} rules). Join with /join (2 to {max} players).",
    ),
    "joined": ("{player} rejoint la partie. Joueurs : {players}.", "{player} joins. Players: {players}."),
    "scored": ("{player} : {move}\n{breakdown}", "{player}: {move}\n{breakdown}"),
    "claimed_differs": (
        "Attention : vous annoncez {claimed}, le coup vaut {counted} (c'est {counted} qui compte).",
        "Note: you claimed {claimed}, the move is worth {counted} ({counted} counts).",
    ),
    "totals": ("Scores : {totals}", "Scores: {totals}"),
    "to_move": ("À {player} de jouer.", "{player} to play."),
    "calc": ("Calcul (non enregistré) : {move}\n{breakdown}", "Calculation (not recorded): {move}\n{breakdown}"),
    "passed": ("{player} passe.", "{player} passes."),
    "exchanged": ("{player} change {tiles}.", "{player} exchanges {tiles}."),
    "exchanged_count": ("{player} change {count} lettre(s).", "{player} exchanges {count} tile(s)."),
    "exchanged_unknown": ("{player} change des lettres.", "{player} exchanges tiles."),
    "penalty": ("Pénalité : {player} perd {points} points.", "Penalty: {player} loses {points} points."),
    "undone": ("Annulé : {what}.", "Undone: {what}."),
    "undo_play": ("le coup de {player}, {move}", "{player}'s move {move}"),
    "undo_pass": ("le passe de {player}", "{player}'s pass"),
    "undo_exchange": ("l'échange de {player}", "{player}'s exchange"),
    "undo_challenge": (
        "la contestation de {challenger} ({verdict})",
        "{challenger}'s challenge ({verdict})",
    ),
    "undo_challenge_won": ("le coup contesté revient sur la grille", "the challenged move is back on the board"),
    "undo_challenge_lost": ("sa conséquence est levée", "its consequence is lifted"),
    "undo_penalty": ("la pénalité de {points} points de {player}", "{player}'s penalty of {points} points"),
    "undo_withdrawn": ("le retrait du coup de {player}", "the withdrawal of {player}'s move"),
    "undo_other": ("la dernière ligne", "the last line"),
    "limit_reached": (
        "Limite de tours sans points atteinte ({streak}) : la partie peut être close avec /fin.",
        "Scoreless-turn limit reached ({streak}): the game may be ended with /end.",
    ),
    "alert_tiles": (
        "Alerte : {letter} posé {count} fois, le jeu n'en a que {limit} (une lettre mal tapée ?).",
        "Alert: {letter} placed {count} times, the set has only {limit} (a typing mistake?).",
    ),
    "alert_new": (
        "Ce coup pose plus de lettres que le jeu n'en contient : vérifiez-le (/annule pour le retirer).",
        "This move places more tiles than the set holds: check it (/undo takes it back).",
    ),
    "challenge_invalid": (
        "Contestation : {verdicts}. Le coup de {player} est retiré et vaut 0.",
        "Challenge: {verdicts}. {player}'s move is taken back and scores 0.",
    ),
    "challenge_valid": (
        "Contestation : {verdicts}. Le coup de {player} est valable.",
        "Challenge: {verdicts}. {player}'s move stands.",
    ),
    "challenge_consequence_turn": ("{challenger} perd son prochain tour.", "{challenger} loses the next turn."),
    "challenge_consequence_turn_now": ("{challenger} perd son tour.", "{challenger} loses this turn."),
    "challenge_named_by_referee": (
        "Seul l'arbitre ou un administrateur peut contester au nom d'un autre joueur (@NOM).",
        "Only the referee or a channel admin may challenge on another player's behalf (@NAME).",
    ),
    "turn_skipped": ("{player} passe son tour (contestation perdue).", "{player}'s turn is skipped (lost challenge)."),
    "challenge_consequence_penalty": ("{challenger} perd {points} points.", "{challenger} loses {points} points."),
    "challenge_consequence_bonus": ("{player} gagne {points} points.", "{player} gains {points} points."),
    "valid": ("valable", "valid"),
    "invalid": ("non valable", "not valid"),
    "check": ("{verdicts} (liste : {lexicon})", "{verdicts} (list: {lexicon})"),
    "ended": ("Fin de partie.\n{standings}", "Game over.\n{standings}"),
    "standing_line": (
        "{place}. {player} {final} ({before} {adjustment:+d})",
        "{place}. {player} {final} ({before} {adjustment:+d})",
    ),
    "sheet_paged": (
        "Lignes {first} à {last} sur {count} (page {page}/{pages}) : /feuille p1 pour le début, p2...",
        "Lines {first} to {last} of {count} (page {page}/{pages}): /sheet p1 for the start, p2...",
    ),
    "no_such_page": (
        "Il n'y a pas de page {page} : la feuille en a {pages}.",
        "There is no page {page}: the sheet has {pages}.",
    ),
    "sheet_empty": ("La feuille est vide.", "The sheet is empty."),
    "unseen": (
        "Lettres non visibles ({count}) : {letters}\nDans le sac (chevalets pleins) : {bag}",
        "Unseen tiles ({count}): {letters}\nIn the bag (racks full): {bag}",
    ),
    "board_caption": ("Grille", "Board"),
    "settings": (
        "Réglages : langue {language}, édition {edition}, notation {notation}, règles {rules}, "
        "liste {lexicon}, {minutes} min par coup en duplicate, fuseau {timezone}.",
        "Settings: language {language}, edition {edition}, notation {notation}, rules {rules}, "
        "list {lexicon}, {minutes} min per duplicate move, time zone {timezone}.",
    ),
    "setting_changed": ("Réglage {key} = {value}.", "Setting {key} = {value}."),
    "bad_setting": (
        "Réglage inconnu ou valeur invalide : {key} {value}. Réglages : {keys}.",
        "Unknown setting or invalid value: {key} {value}. Settings: {keys}.",
    ),
    "bad_list": (
        "La liste {name} est inutilisable (ligne {line}) : l'hébergeur du bot doit la corriger.",
        "The word list {name} cannot be used (line {line}): the bot's operator must fix it.",
    ),
    "unknown_list": (
        "Liste inconnue « {name} ». Listes disponibles : {known}.",
        "Unknown word list '{name}'. Available lists: {known}.",
    ),
    # word lists being prepared, house words
    "list_preparing": (
        "La liste {name} est en cours de préparation (environ {seconds} s) : réessayez dans un instant. "
        "Rien n'a été enregistré.",
        "The word list {name} is being prepared (about {seconds} s): try again in a moment. Nothing was recorded.",
    ),
    "dup_waiting_list": (
        "Temps écoulé pour le coup {n} : la liste {name} est en cours de préparation, résultats dans environ "
        "{seconds} s.",
        "Time is up for move {n}: the word list {name} is being prepared, results in about {seconds} s.",
    ),
    "list_with_house": ("{name} + {count} mot(s) maison", "{name} + {count} house word(s)"),
    "list_with_house_short": ("{name} avec les mots maison du salon", "{name} with the channel's house words"),
    "house_mark": (" (mot maison)", " (house word)"),
    "challenge_list": ("Jugé avec la liste {lists}.", "Judged with the list {lists}."),
    "verdicts_challenges": (
        "Contestation(s) {where} jugée(s) avec la liste {lists}{words}.",
        "Challenge(s) {where} judged with the list {lists}{words}.",
    ),
    "verdicts_rounds": (
        "Coup(s) {where} jugé(s) avec la liste {lists}{words}.",
        "Move(s) {where} judged with the list {lists}{words}.",
    ),
    "words_none": (
        "Ce salon n'a pas de mots maison (liste {list}). L'arbitre ou un administrateur du salon en ajoute avec "
        "/mots ajoute KA OM et en retire avec /mots retire MOT.",
        "This channel has no house words (list {list}). The referee or a channel admin adds some with "
        "/words add KA OM and removes words with /words remove WORD.",
    ),
    "words_list": (
        "Mots maison de ce salon (liste {list}) :\n{lines}\nDerniers changements :\n{changes}",
        "This channel's house words (list {list}):\n{lines}\nLatest changes:\n{changes}",
    ),
    "words_accepted": ("acceptés ({count}) : {words}", "accepted ({count}): {words}"),
    "words_rejected": ("refusés ({count}) : {words}", "rejected ({count}): {words}"),
    "words_change": ("{sign}{word} par {name}, {when}", "{sign}{word} by {name}, {when}"),
    "words_added": (
        "Accepté(s) désormais dans ce salon : {words}.",
        "Now accepted in this channel: {words}.",
    ),
    "words_removed": (
        "Refusé(s) désormais dans ce salon : {words}.",
        "Now rejected in this channel: {words}.",
    ),
    "words_already_in": ("Déjà dans la liste {list} : {words}.", "Already in the list {list}: {words}."),
    "words_not_in": (
        "Absent(s) de la liste {list} de toute façon : {words}.",
        "Not in the list {list} anyway: {words}.",
    ),
    "words_total": (
        "Mots maison : {count} (liste {list}). Contestations, /verif et tops les appliquent dès maintenant.",
        "House words: {count} (list {list}). Challenges, /check and tops apply them from now on.",
    ),
    "words_not_a_word": ("« {word} » n'est pas un mot (2 à 15 lettres).", "'{word}' is not a word (2 to 15 letters)."),
    "words_too_many": ("{limit} mots au plus par commande.", "At most {limit} words per command."),
    "words_full": ("Un salon a au plus {limit} mots maison.", "A channel has at most {limit} house words."),
    "bad_number": ("« {text} » n'est pas un nombre entier.", "'{text}' is not a whole number."),
    "bad_timezone": (
        "Fuseau horaire inconnu « {value} » : écrivez-le comme Europe/Paris, America/Montreal ou UTC.",
        "Unknown time zone '{value}': write it like Europe/Paris, America/New_York or UTC.",
    ),
    "settings_next_game": (
        "La partie {kind} en cours garde ses réglages : ce changement vaut pour la prochaine partie.",
        "The running {kind} game keeps its settings: this change applies to the next game.",
    ),
    "not_allowed_admin": (
        "Seul un administrateur du salon peut utiliser /{name} quand aucune partie n'est en cours.",
        "Only a channel admin may use /{name} when no game is running.",
    ),
    "game_running": (
        "Une partie {kind} est en cours (arbitre : {referee}). Terminez-la avec /fin, ou l'arbitre ou un "
        "administrateur tape /{name} ... ! pour l'abandonner (elle restera dans /parties).",
        "A {kind} game is running (referee: {referee}). End it with /end, or the referee or a channel admin "
        "types /{name} ... ! to abandon it (it stays in /games).",
    ),
    "game_running_race": (
        "Une autre partie vient de commencer dans ce salon : rien n'a été enregistré.",
        "Another game has just started in this channel: nothing was recorded.",
    ),
    "kind_classic": ("classique", "classic"),
    "kind_duplicate": ("duplicate", "duplicate"),
    "status_active": ("en cours", "running"),
    "status_ended": ("terminée", "finished"),
    "status_abandoned": ("abandonnée", "abandoned"),
    "no_games": ("Aucune partie n'a encore été jouée dans ce salon.", "No game has been played in this channel yet."),
    "no_such_game": (
        "Il n'y a pas de partie n°{number} ici ({count} partie(s) : /parties les liste).",
        "There is no game {number} here ({count} game(s): /games lists them).",
    ),
    "games_title": ("Parties du salon ({count}) :", "Games of this channel ({count}):"),
    "games_line": (
        "n°{number} · {date} · {kind}, {status} · {players} · {result}",
        "#{number} · {date} · {kind}, {status} · {players} · {result}",
    ),
    "games_hint": (
        "/feuille N, /grille N, /export N montrent la partie n°N.",
        "/sheet N, /board N, /export N show game number N.",
    ),
    "game_heading": (
        "Partie n°{number} ({kind}, {date}, {status}) :",
        "Game {number} ({kind}, {date}, {status}):",
    ),
    "moves_count": ("{n} coup(s)", "{n} move(s)"),
    # the board's header as text (beside its image), /moves, help
    "board_status": ("Coup {n} · {turn} · sac : {bag}", "Move {n} · {turn} · bag: {bag}"),
    "board_to_move": ("à {player} de jouer", "{player} to play"),
    "board_over": ("partie terminée", "game over"),
    "board_last": ("Dernier coup : {move}", "Last move: {move}"),
    "board_last_move": ("{move} ({player}), {points} pts{notes}", "{move} ({player}), {points} pts{notes}"),
    "board_last_turn": ("{player} : {move}", "{player}: {move}"),
    "dup_board_open": ("Coup {n} — tirage {draw} — fin à {clock}", "Move {n} — draw {draw} — closes at {clock}"),
    "dup_board_paused": ("Coup {n} — tirage {draw} — chrono arrêté", "Move {n} — draw {draw} — clock stopped"),
    "dup_board_waiting": ("Coup {n} — en attente du tirage", "Move {n} — waiting for the draw"),
    "dup_board_closed": (
        "Coup {n} clos — tirage {draw} — top {top}, {points} pts",
        "Move {n} closed — draw {draw} — top {top}, {points} pts",
    ),
    "dup_board_closed_no_top": (
        "Coup {n} clos — tirage {draw} — aucun coup possible",
        "Move {n} closed — draw {draw} — no play possible",
    ),
    "dup_corrected_note": ("corrigé : {reason}", "corrected: {reason}"),
    "moves_title": ("Coups joués par {player} :", "Moves played by {player}:"),
    "moves_none": ("{player} n'a encore aucun coup dans cette partie.", "{player} has no move in this game yet."),
    "moves_summary": (
        "Total {total} · {plays} mot(s) posé(s) · meilleur coup : {best}",
        "Total {total} · {plays} word(s) played · best move: {best}",
    ),
    "moves_whose": (
        "Vous ne jouez pas dans cette partie : nommez un joueur, {usage} (joueurs : {players}).",
        "You are not in this game: name a player, {usage} (players: {players}).",
    ),
    "moves_no_answer": ("pas de réponse", "no answer"),
    "moves_solo": ("solo +{bonus}", "solo +{bonus}"),
    "moves_dup_summary": (
        "Total {total} (top cumulé {tops}) · écart {gap} · {percent} % du top · place {place} sur {count}",
        "Total {total} (sum of tops {tops}) · gap {gap} · {percent}% of the top · place {place} of {count}",
    ),
    "moves_dup_open": (
        "Coup {n} en cours : les réponses restent secrètes jusqu'à la clôture.",
        "Move {n} is being played: answers stay secret until the close.",
    ),
    "col_top_points": ("pts top", "top pts"),
    "dup_tie_short": ("{count} tops ex aequo ; placé : {rule}", "{count} tied tops; placed: {rule}"),
    "unknown_help_topic": ("{text}", "{text}"),
    "bad_minutes": (
        "« {value} » : le temps par coup va de 0,05 à 10 minutes (3 secondes à 10 minutes ; FISF : 1, 2 ou 3).",
        "'{value}': the time per move is 0.05 to 10 minutes (3 seconds to 10 minutes; FISF: 1, 2 or 3).",
    ),
    "help_title": (
        "Commandes (les noms anglais marchent aussi) :",
        "Commands (the French names work too):",
    ),
    "help_more": ("/aide COMMANDE pour le détail d'une commande.", "/help COMMAND explains one command."),
    # players and seats
    "seat_claimed": (
        "La place de {player} est désormais liée à ce compte.",
        "{player}'s seat is now bound to this account.",
    ),
    "seat_taken": (
        "La place de {player} appartient déjà à un autre compte. Choisissez un autre nom : /rejoindre NOM.",
        "{player}'s seat already belongs to another account. Choose another name: /join NAME.",
    ),
    "seat_held": (
        "La place de {player} est liée à un autre compte que le vôtre : seul ce compte ou l'arbitre joue pour "
        "{player}.",
        "{player}'s seat is bound to another account: only that account or the referee plays for {player}.",
    ),
    "already_seated": ("Vous jouez déjà dans cette partie ({player}).", "You are already in this game ({player})."),
    "not_a_player": (
        "Vous ne jouez pas dans cette partie ({players}) : seuls ses joueurs ou l'arbitre peuvent contester.",
        "You are not in this game ({players}): only its players or the referee may challenge.",
    ),
    "rules_fallback": (
        "{used} ({chosen} se joue à deux : règles {used} pour {count} joueurs)",
        "{used} ({chosen} is for two players: {used} rules for {count} players)",
    ),
    "rules_now": ("Règles {rules}. À {to_move} de jouer.", "Rules {rules}. {to_move} to play."),
    "end_bag_not_empty": (
        "Il reste {count} lettre(s) dans le sac : la partie n'est pas finie. Pour la terminer quand même, "
        "ajoutez ! à la commande (/fin ... !).",
        "{count} tile(s) are still in the bag: the game is not over. To end it anyway, add ! to the command "
        "(/end ... !).",
    ),
    # sheet columns and lines
    "col_player": ("joueur", "player"),
    "col_move": ("coup", "move"),
    "col_gap": ("écart", "gap"),
    "col_number": ("N°", "#"),
    "col_draw": ("tirage", "draw"),
    "col_ref": ("réf", "ref"),
    "col_cumulative": ("cumul", "total"),
    "col_top": ("top", "top"),
    "col_points": ("pts", "pts"),
    "col_total": ("total", "total"),
    "decimal": ("{integer},{tenths}", "{integer}.{tenths}"),
    "line_pass": ("passe", "pass"),
    "line_exchange": ("change {tiles}", "exchange {tiles}"),
    "line_lost_turn": ("tour perdu (contestation)", "turn lost (challenge)"),
    "line_challenge_penalty": ("contestation perdue", "challenge lost"),
    "line_challenge_bonus": ("bonus de contestation", "challenge bonus"),
    "line_penalty": ("pénalité", "penalty"),
    "line_time_penalty": ("dépassement de temps", "time penalty"),
    "line_went_out": ("a fini", "went out"),
    "line_rack_left": ("lettres restantes", "rack left"),
    "note_claimed": ("annoncé {claimed}", "claimed {claimed}"),
    "note_challenged": ("contesté : {words} non valable(s)", "challenged: {words} not valid"),
    "note_withdrawn": ("retiré", "withdrawn"),
    "note_challenge_stood": ("contesté par {challenger}, valable", "challenged by {challenger}, valid"),
    # duplicate
    "dup_none": (
        "Aucune partie duplicate en cours ici. /duplicate pour en commencer une.",
        "No duplicate game here. /duplicate starts one.",
    ),
    "dup_started": (
        "Partie duplicate ({edition}, {minutes} min par coup, tirages {mode}). Jouez en privé : /jouer REF MOT.",
        "Duplicate game ({edition}, {minutes} min per move, {mode} draws). Play privately: /play REF WORD.",
    ),
    "dup_mode_auto": ("automatiques", "automatic"),
    "dup_mode_manual": ("manuels (/tirage)", "manual (/draw)"),
    "dup_draw": (
        "Coup {n} — tirage : {draw}\nFin dans {minutes} min, à {clock}. Jouez en privé : /jouer REF MOT [score].",
        "Move {n} — draw: {draw}\nEnds in {minutes} min, at {clock}. Play privately: /play REF WORD [score].",
    ),
    "dup_round_closed": ("Coup {n} — tirage : {draw} — manche close.", "Move {n} — draw: {draw} — round closed."),
    "dup_rejected_draws": ("Tirages rejetés : {draws}", "Rejected draws: {draws}"),
    "dup_wait_draw": (
        "Mode manuel : tapez le tirage reçu avec /tirage LETTRES (ex. EEU+ESI?).",
        "Manual mode: type the draw with /draw LETTERS (e.g. EEU+ESI?).",
    ),
    "draw_shortfall": (
        "{letters} : {vowels}, {consonants}{either} ; le coup {n} en demande {needed} de chaque",
        "{letters}: {vowels}, {consonants}{either}; move {n} needs {needed} of each",
    ),
    "count_vowels": ("{count} voyelle(s)", "{count} vowel(s)"),
    "count_consonants": ("{count} consonne(s)", "{count} consonant(s)"),
    "count_either": (", {count} au choix", ", {count} either way"),
    "dup_shortfall": (
        "Attention : ce tirage ne respecte pas la règle des voyelles et consonnes ({shortfall}). /tirage - le rejette.",
        "Note: this draw breaks the vowel/consonant rule ({shortfall}). /draw - rejects it.",
    ),
    "dup_draw_rejected": (
        "Tirage {draw} rejeté : toutes ses lettres retournent dans le sac.",
        "Draw {draw} rejected: all its letters go back to the bag.",
    ),
    "dup_ack": (
        "Reçu pour le coup {n} : {move} — {score} points si le mot est valable.{replaced}"
        " Un nouveau /jouer remplace celui-ci.",
        "Received for move {n}: {move} — {score} points if the word is valid.{replaced} A new /play replaces it.",
    ),
    "dup_ack_replaced": (" (remplace {old})", " (replaces {old})"),
    "dup_ack_problem": (
        "Reçu pour le coup {n} : {move}, mais il vaudra 0 : {reason} Corrigez avec un nouveau /jouer.",
        "Received for move {n}: {move}, but it will score 0: {reason} Fix it with a new /play.",
    ),
    "dup_not_private": (
        "Votre coup doit rester secret : envoyez /jouer en message privé au bot (rien n'a été enregistré).",
        "Your move must stay secret: send /play to the bot privately (nothing was recorded).",
    ),
    "dup_no_round": (
        "Aucune manche ouverte pour le moment : attendez le prochain tirage.",
        "No round is open right now: wait for the next draw.",
    ),
    "dup_late": ("Trop tard pour le coup {n} : la manche est close.", "Too late for move {n}: the round is closed."),
    "dup_which_game": (
        "Vous ne participez à aucune partie duplicate en cours : /rejoindre dans le salon de la partie.",
        "You are in no running duplicate game: /join in the game's channel.",
    ),
    "dup_warning": ("Coup {n} : plus que {seconds} secondes !", "Move {n}: {seconds} seconds left!"),
    "dup_result": (
        "Coup {n} — tirage {draw}\nTop : {top} — {points} points\n{breakdown}",
        "Move {n} — draw {draw}\nTop: {top} — {points} points\n{breakdown}",
    ),
    "dup_tie": (
        "Tops ex aequo : {tied} — le premier est placé ({rule}).",
        "Tied tops: {tied} — the first is placed ({rule}).",
    ),
    "dup_no_top": ("Coup {n} — tirage {draw} : aucun coup possible.", "Move {n} — draw {draw}: no play possible."),
    "dup_player_line": ("{player} : {move} {score}{extra}", "{player}: {move} {score}{extra}"),
    "dup_no_answer": ("{player} : pas de réponse, 0", "{player}: no answer, 0"),
    "dup_solo": (" (solo +{bonus})", " (solo +{bonus})"),
    "dup_top_found": (" (top)", " (top)"),
    "dup_ranking": (
        "Classement après {n} coup(s), top cumulé {tops} :\n{table}",
        "Standings after {n} move(s), total of tops {tops}:\n{table}",
    ),
    "dup_over": ("Fin de la partie duplicate ({reason}).", "End of the duplicate game ({reason})."),
    "dup_joined": ("{player} rejoint la partie duplicate.", "{player} joins the duplicate game."),
    "dup_seat_added": (
        "Place ajoutée : {player} (l'arbitre saisit ses scores avec /corrige, ou son compte la prend avec "
        "/rejoindre {player}).",
        "Seat added: {player} (the referee enters their scores with /correct, or their account takes it with "
        "/join {player}).",
    ),
    "dup_late_arrival": (
        "Bienvenue : vous jouez sous le nom {player} à partir du coup {n} ; les coups déjà clos comptent 0.",
        "Welcome: you play as {player} from move {n}; the moves already closed count 0.",
    ),
    "dup_status_over": ("La partie duplicate est finie ({n} coups).", "The duplicate game is over ({n} moves)."),
    "dup_status_between": (
        "Coup {n} : le tirage arrive.",
        "Move {n}: the draw is on its way.",
    ),
    "dup_first_play_joins": (
        "Vous voici inscrit à la partie sous le nom {player}.",
        "You are now a player of this game, as {player}.",
    ),
    "dup_arrival_public": ("{player} rejoint la partie au coup {n}.", "{player} joins the game at move {n}."),
    "dup_count": (
        "Coup {n} : {played} joueur(s) sur {players} ont joué.",
        "Move {n}: {played} of {players} have played.",
    ),
    "dup_draw_paused": (
        "Coup {n} — tirage : {draw}\nChrono arrêté par l'arbitre (/reprise le relance).",
        "Move {n} — draw: {draw}\nClock stopped by the referee (/resume starts it again).",
    ),
    "dup_paused": (
        "Chrono du coup {n} arrêté ({seconds} s restantes). /reprise le relance.",
        "Clock of move {n} stopped ({seconds} s left). /resume starts it again.",
    ),
    "dup_extended": ("Temps prolongé de {seconds} s.", "Time extended by {seconds} s."),
    "dup_reopened": (
        "Coup {n} rouvert pour {seconds} s : les coups proposés restent valables, un nouveau /jouer les remplace.",
        "Move {n} reopened for {seconds} s: moves already sent stand, a new /play replaces them.",
    ),
    "dup_runners_up": ("Ensuite : {plays}", "Next best: {plays}"),
    "dup_tie_hint": (
        "{count} coups font le top : l'arbitre peut placer un autre avec /top N avant que quiconque joue le "
        "tirage suivant.",
        "{count} plays share the top: the referee may place another with /top N before anyone plays the next draw.",
    ),
    "dup_no_tie": (
        "Le dernier coup clos n'a qu'un top : rien à choisir.",
        "The last closed move has a single top: nothing to choose.",
    ),
    "dup_top_choice": (
        "Choisissez un numéro de 1 à {count} dans la liste des tops ex aequo.",
        "Choose a number from 1 to {count} in the list of tied tops.",
    ),
    "dup_top_already": ("{move} est déjà le top placé.", "{move} is already the top on the board."),
    "dup_top_chosen": ("Top du coup {n} changé par l'arbitre :", "Top of move {n} changed by the referee:"),
    "dup_correction": (
        "Correction : {player} marque {score} au coup {n}.",
        "Correction: {player} scores {score} on move {n}.",
    ),
    "dup_corrected": (" (corrigé : {reason})", " (corrected: {reason})"),
    "dup_correction_note": ("coup {n}, {player} corrigé : {reason}", "move {n}, {player} corrected: {reason}"),
    "dup_end_by_referee": ("arrêtée par l'arbitre", "stopped by the referee"),
    "dup_end_no_draw": (
        "les lettres restantes ne permettent plus de tirage valable",
        "the letters left cannot make a valid draw",
    ),
    "dup_end_no_valid_draw": (
        "plus de tirage valable possible avec {letters}",
        "no valid draw left with {letters}",
    ),
    "dup_end_no_tile_left": ("plus de lettres", "no tile left"),
    "dup_end_no_play": ("aucun coup possible avec {letters}", "no play possible with {letters}"),
    "tie_rule_fewest_jokers": ("le moins de jokers", "fewest jokers"),
    "tie_rule_order": ("le premier dans l'ordre de la grille", "first in board order"),
    "tie_rule_arbiter": ("choix de l'arbitre", "the referee's choice"),
    "dup_reason_unreadable": ("coup illisible", "unreadable move"),
    "dup_reason_not_a_word": ("mot non valable : {words}", "not a valid word: {words}"),
    "dup_reason_not_in_draw": ("lettres absentes du tirage : {letters}", "letters not in the draw: {letters}"),
    "dup_reason_joker": ("joker à écrire en minuscule pour {letters}", "write the joker in lowercase for {letters}"),
    "dup_reason_no_joker": ("pas de joker pour {letters}", "no joker for {letters}"),
    "dup_reason_late": ("hors délai", "late"),
    "dup_claim": (" [annoncé {claimed}]", " [claimed {claimed}]"),
    # errors from core
    "err_ref": (
        "Référence illisible « {text} » : une lettre de A à O et un nombre de 1 à 15, comme {example}.",
        "Unreadable reference '{text}': a letter A-O and a number 1-15, like {example}.",
    ),
    "err_word": (
        "Mot illisible « {text} » : {reason}. Exemple : /score {example} (joker en minuscule : VAGuE ou VAG(U)E).",
        "Unreadable word '{text}': {reason}. Example: /score {example} (joker in lowercase: VAGuE or VAG(U)E).",
    ),
    "err_move_syntax": (
        "Coup illisible « {text} » : écrivez la référence puis le mot, comme /score {example}.",
        "Unreadable move '{text}': write the reference then the word, like /score {example}.",
    ),
    "err_out_of_board": (
        "Le mot sort de la grille après {last_square}.",
        "The word runs off the board after {last_square}.",
    ),
    "err_mismatch": (
        "La case {square} porte un {on_board}, pas un {typed}.",
        "Square {square} holds {on_board}, not {typed}.",
    ),
    "err_empty_through": (
        "La case {square} est vide : « . » ne remplace qu'une lettre déjà posée.",
        "Square {square} is empty: '.' only stands for a letter already on the board.",
    ),
    "err_no_new_tile": ("Ce coup ne pose aucune lettre.", "This move places no tile."),
    "err_too_many": (
        "Ce coup pose {count} lettres ; un chevalet en contient {limit}.",
        "This move places {count} tiles; a rack holds {limit}.",
    ),
    "err_not_in_line": ("Les lettres {squares} ne sont pas alignées.", "Tiles {squares} are not in one line."),
    "err_gap": ("La case {square} reste vide au milieu du mot.", "Square {square} is left empty inside the word."),
    "err_occupied": ("La case {square} est déjà occupée.", "Square {square} is already taken."),
    "err_incomplete": (
        "Le mot continue en {square} : écrivez le mot entier, {full_word}.",
        "The word goes on at {square}: write the whole word, {full_word}.",
    ),
    "err_too_short": ("« {word} » : un mot a au moins deux lettres.", "'{word}': a word has at least two letters."),
    "err_first_move": (
        "Le premier coup doit passer par la case centrale {centre}.",
        "The first move must cover the centre square {centre}.",
    ),
    "err_not_connected": (
        "Ce coup ne touche aucune lettre déjà posée.",
        "This move does not touch any letter on the board.",
    ),
    "err_game_over": ("La partie est terminée.", "The game is over."),
    "err_unknown_player": (
        "{player} ne joue pas dans cette partie ({players}).",
        "{player} is not in this game ({players}).",
    ),
    "err_player_count": (
        "{count} joueur(s) : cette partie se joue de {low} à {high}. Ajoutez des joueurs avec /rejoindre.",
        "{count} player(s): this game is for {low} to {high}. Add players with /join.",
    ),
    "err_duplicate_player": ("{player} est déjà dans la partie.", "{player} is already in the game."),
    "err_started": (
        "La partie a commencé : {player} ne peut plus la rejoindre.",
        "The game has started: {player} can no longer join.",
    ),
    "err_nothing_to_challenge": (
        "Rien à contester : la dernière ligne n'est pas un coup joué.",
        "Nothing to challenge: the last line is not a play.",
    ),
    "err_word_not_in_move": (
        "{word} n'a pas été formé par le dernier coup ({formed}).",
        "{word} was not formed by the last move ({formed}).",
    ),
    "err_nothing_to_undo": ("Rien à annuler : la feuille est vide.", "Nothing to undo: the sheet is empty."),
    "err_exchange_bag": (
        "Échange refusé : {in_bag} lettres dans le sac, il en faut {needed}.",
        "Exchange refused: {in_bag} tiles in the bag, {needed} needed.",
    ),
    "err_exchange_size": (
        "« {tiles} » : un échange porte sur 1 à 7 lettres (les lettres ou leur nombre), comme /change 3.",
        "'{tiles}': an exchange is 1 to 7 tiles (letters or a count), like /exchange 3.",
    ),
    "err_not_in_bag": (
        "Tirage {draw} : la lettre {letter} n'est pas (ou plus assez) dans le sac.",
        "Draw {draw}: {letter} is not (or no longer enough) in the bag.",
    ),
    "err_kept": (
        "Tirage {draw} : les lettres restantes du coup précédent sont {reliquat}.",
        "Draw {draw}: the letters left from the previous move are {reliquat}.",
    ),
    "err_draw_size": (
        "Tirage {draw} : {count} lettres, il en faut {expected}.",
        "Draw {draw}: {count} letters, {expected} needed.",
    ),
    "err_draw_pending": (
        "Le tirage {current} est encore ouvert : /cloture d'abord, ou /tirage - pour le rejeter.",
        "The draw {current} is still open: /close first, or /draw - to reject it.",
    ),
    "err_submissions_made": (
        "Impossible de rejeter {draw} : {count} coup(s) déjà proposés.",
        "Cannot reject {draw}: {count} move(s) already submitted.",
    ),
    "err_self_challenge": (
        "{player} ne peut pas contester son propre coup ({move}).",
        "{player} cannot challenge their own move ({move}).",
    ),
    "err_already_challenged": (
        "{move} a déjà été contesté (par {challenger}) : un coup ne se conteste qu'une fois.",
        "{move} was already challenged (by {challenger}): a move is challenged once.",
    ),
    "err_penalty_value": (
        "Une pénalité va de 1 à {limit} points (pas {points}). Exemple : /penalite Ben 10",
        "A penalty is 1 to {limit} points (not {points}). Example: /penalty Ben 10",
    ),
    "err_rack_not_unseen": (
        "{player} : {letters} ne fait pas partie des lettres non jouées ({unseen}).",
        "{player}: {letters} is not among the tiles still unseen ({unseen}).",
    ),
    "err_rack_too_large": (
        "{player} : « {rack} » fait plus de {size} lettres, la taille d'un chevalet.",
        "{player}: '{rack}' is more than the {size} tiles of a rack.",
    ),
    "err_no_reopen": (
        "Le coup {round_number} ne peut plus être repris : {reason}.",
        "Move {round_number} can no longer be taken back: {reason}.",
    ),
    "err_not_tied_top": (
        "{move} n'est pas l'un des tops ex aequo ({tied}).",
        "{move} is not one of the tied tops ({tied}).",
    ),
    "err_clock_state": (
        "/{action} impossible : le chrono est {state}.",
        "Cannot /{action}: the clock is {state}.",
    ),
    "err_extension": (
        "Une prolongation va de 1 à {limit} secondes (pas {seconds}).",
        "An extension is 1 to {limit} seconds (not {seconds}).",
    ),
    "err_rack": (
        "{player} : « {rack} » n'est ni des lettres (? pour un joker) ni un nombre de 0 à {most}. "
        "Exemple : /fin Ben=EAU",
        "{player}: '{rack}' is neither letters (? for a joker) nor a number from 0 to {most}. Example: /end Ben=EAU",
    ),
    "err_draw_syntax": (
        "Tirage illisible « {text} » : {reason}. Exemple : EEU+ESI? (le reliquat, +, les nouvelles lettres).",
        "Unreadable draw '{text}': {reason}. Example: EEU+ESI? (the kept letters, +, the new ones).",
    ),
    "syntax_ref_form": ("une référence est une lettre et un nombre", "a reference is a letter and a number"),
    "syntax_row_letter": ("{detail} n'est pas une lettre de A à O", "{detail} is not a letter from A to O"),
    "syntax_column_number": ("{detail} n'est pas un nombre de 1 à 15", "{detail} is not a number from 1 to 15"),
    "syntax_move_form": ("un coup est une référence puis un mot", "a move is a reference then a word"),
    "syntax_empty": ("rien n'a été tapé", "nothing was typed"),
    "syntax_joker_bracket": (
        "un joker entre parenthèses est une seule lettre, comme C(H)ACUNE",
        "a joker in brackets is one letter, like C(H)ACUNE",
    ),
    "syntax_tile_bracket": (
        "« {detail} » : des crochets entourent une seule lettre, comme C[H]",
        "'{detail}': square brackets hold one tile, like C[H]",
    ),
    "syntax_not_a_letter": ("« {detail} » n'est pas une lettre", "'{detail}' is not a letter"),
    "syntax_not_a_tile": (
        "« {detail} » n'est ni une lettre du jeu ni un joker ?",
        "'{detail}' is neither a letter of the set nor a joker ?",
    ),
    "syntax_draw_plus": (
        "un tirage s'écrit RELIQUAT+NOUVELLES, avec un seul +",
        "a draw is written KEPT+NEW, with one +",
    ),
    "syntax_rack_too_long": ("un chevalet a au plus {detail} lettres", "a rack holds at most {detail} tiles"),
    "syntax_too_many_jokers": ("le jeu n'a que {detail} jokers", "the set has only {detail} jokers"),
    "err_edition_data": (
        "L'édition {code} est inutilisable ({key}) : l'hébergeur du bot doit corriger son fichier.",
        "The edition {code} cannot be used ({key}): the bot's operator must fix its file.",
    ),
    "err_invalid_word": ("« {text} » n'est pas un mot (2 à 15 lettres).", "'{text}' is not a word (2 to 15 letters)."),
    "err_alphabet_mismatch": (
        "La liste {lexicon} n'est pas écrite avec les lettres de cette édition.",
        "The word list {lexicon} is not spelt with this edition's tiles.",
    ),
    "err_corrupt_lexicon": (
        "Une liste compilée est abîmée : l'hébergeur du bot doit la compiler de nouveau.",
        "A compiled word list is damaged: the bot's operator must compile it again.",
    ),
    "err_no_draw_possible": (
        "Coup {move_number} : les lettres restantes ({letters}) ne permettent plus de tirage valable.",
        "Move {move_number}: the letters left ({letters}) can no longer make a valid draw.",
    ),
    "err_round_not_closed": (
        "Le coup {round_number} n'est pas clos ({closed} coups clos).",
        "Move {round_number} is not closed ({closed} moves closed).",
    ),
    "err_score_above_top": (
        "{player}, coup {round_number} : {score} dépasse le top ({top}).",
        "{player}, move {round_number}: {score} is above the top ({top}).",
    ),
    "err_negative_score": (
        "{player}, coup {round_number} : un score ne peut pas être négatif ({score}).",
        "{player}, move {round_number}: a score cannot be negative ({score}).",
    ),
    "err_letters_not_in_draw": (
        "{move} : lettres absentes du tirage {draw} : {letters}.",
        "{move}: letters not in the draw {draw}: {letters}.",
    ),
    "err_joker_not_marked": (
        "{move} : {letters} n'est pas dans le tirage {draw} ; un joker s'écrit en minuscule ({lower}) ou entre parenthèses (({upper})).",
        "{move}: {letters} is not in the draw {draw}; a joker is written in lowercase ({lower}) or in brackets (({upper})).",
    ),
    "err_no_joker_left": (
        "{move} : jokers écrits pour {letters}, mais le tirage {draw} n'en a plus.",
        "{move}: jokers written for {letters}, but the draw {draw} has none left.",
    ),
    "err_word_not_in_lexicon": ("{move} : {words} absent de la liste.", "{move}: {words} not in the word list."),
    "err_late_submission": (
        "{player} : {move} envoyé {seconds} s après la fin du temps.",
        "{player}: {move} sent {seconds} s after the deadline.",
    ),
    "err_gcg_syntax": ("Ligne {line} du fichier GCG illisible : {text}", "Line {line} of the GCG file cannot be read: {text}"),
    "err_gcg_event": ("Ligne {line} du fichier GCG refusée : {text}", "Line {line} of the GCG file is refused: {text}"),
    "err_refused": ("Cette commande ne peut pas s'appliquer ici.", "This command cannot be applied here."),
    "err_dup_setting_range": (
        "Réglage {name} = {value} : il faut plus de {low} et au plus {high}.",
        "Setting {name} = {value}: it must be more than {low} and at most {high}.",
    ),
    "err_dup_setting_at_least": (
        "Réglage {name} = {value} : il faut {low} ou plus.",
        "Setting {name} = {value}: it must be {low} or more.",
    ),
    "reopen_no_round_closed": ("aucun coup n'est clos", "no move is closed"),
    "reopen_next_draw_played": ("le tirage suivant a déjà été joué", "the next draw has been played"),
    "reopen_corrected_since": ("il a été corrigé depuis", "it has been corrected since"),
    "clock_paused": ("arrêté", "paused"),
    "clock_running": ("en marche", "running"),
    # command names (the name typed after /, one per language; every language's names work everywhere)
    "name_new": ("nouvelle", "new"),
    "name_score": ("coup", "score"),
    "name_challenge": ("conteste", "challenge"),
    "name_pass": ("passe", "pass"),
    "name_exchange": ("change", "exchange"),
    "name_penalty": ("penalite", "penalty"),
    "name_undo": ("annule", "undo"),
    "name_join": ("rejoindre", "join"),
    "name_end": ("fin", "end"),
    "name_duplicate": ("duplicate", "duplicate"),
    "name_draw": ("tirage", "draw"),
    "name_play": ("jouer", "play"),
    "name_close": ("cloture", "close"),
    "name_reopen": ("rouvre", "reopen"),
    "name_pause": ("pause", "pause"),
    "name_resume": ("reprise", "resume"),
    "name_extend": ("prolonge", "extend"),
    "name_correct": ("corrige", "correct"),
    "name_top": ("top", "top"),
    "name_games": ("parties", "games"),
    "name_calc": ("calcul", "calc"),
    "name_sheet": ("feuille", "sheet"),
    "name_board": ("grille", "board"),
    "name_unseen": ("reste", "unseen"),
    "name_export": ("export", "export"),
    "name_standings": ("classement", "standings"),
    "name_moves": ("coups", "moves"),
    "name_status": ("etat", "status"),
    "name_help": ("aide", "help"),
    "name_settings": ("reglages", "settings"),
    "name_check": ("verif", "check"),
    "name_words": ("mots", "words"),
    # commands: usage, help (one command), summary (the /help list and the platforms' menus)
    "usage_new": (
        "/nouvelle [fr|en] [box-fr|box-en|fisf|naspa|wespa] [joueurs...] [!]",
        "/new [fr|en] [box-fr|box-en|fisf|naspa|wespa] [players...] [!]",
    ),
    "help_new": (
        "Commence une partie classique dans ce salon (vous en êtes l'arbitre). fr ou en choisit le jeu de lettres, un code de règles les règles (par défaut celles du salon), puis viennent les noms de 2 à 4 joueurs (ou ils font /rejoindre avant le premier coup). Une partie en cours n'est jamais remplacée : terminez-la avec /fin, ou son arbitre ajoute ! pour l'abandonner (elle reste dans /parties).",
        "Start a classic game in this channel (you become its referee). fr or en picks the tile set, a rule set code the rules (default: the channel's), then come the names of 2 to 4 players (or they /join before the first move). A running game is never replaced: end it with /end, or its referee adds ! to abandon it (it stays in /games).",
    ),
    "summary_new": ("Commence une partie classique.", "Start a classic game."),
    "usage_join": ("/rejoindre [NOM]", "/join [NAME]"),
    "help_join": (
        "Rejoint la partie avant le premier coup, ou prend la place que l'arbitre a tapée à votre nom (une partie duplicate se rejoint à tout moment).",
        "Join the game before the first move, or take the seat the referee typed under your name (a duplicate game can be joined at any time).",
    ),
    "summary_join": ("Rejoint la partie, ou prend sa place.", "Join the game, or take your seat."),
    "usage_score": ("/coup REF MOT [score annoncé]", "/score REF WORD [claimed score]"),
    "help_score": (
        "Enregistre le coup du joueur dont c'est le tour : /coup H8 VAGUE, ou /coup H8 VAGUE 26 pour vérifier le score que vous avez compté. Joker en minuscule (VAGuE) ou entre parenthèses (VAG(U)E) ; « . » remplace une lettre déjà posée.",
        "Record a move for the player whose turn it is: /score H8 VAGUE, or /score H8 VAGUE 26 to check the score you counted. Jokers in lowercase (VAGuE) or in brackets (VAG(U)E); '.' stands for a letter already on the board.",
    ),
    "summary_score": ("Enregistre le coup du joueur dont c'est le tour.", "Record the move of the player to play."),
    "usage_calc": ("/calcul REF MOT", "/calc REF WORD"),
    "help_calc": (
        "Calcule un coup sur la grille actuelle (une grille vide sans partie en cours) sans l'enregistrer.",
        "Score a move on the current board (an empty one when no game runs) without recording it.",
    ),
    "summary_calc": ("Calcule un coup sans l'enregistrer.", "Score a move without recording it."),
    "usage_check": ("/verif MOT...", "/check WORD..."),
    "help_check": (
        "Cherche des mots dans la liste du salon (les 20 premiers mots donnés).",
        "Look words up in the channel's word list (the first 20 words given).",
    ),
    "summary_check": ("Cherche des mots dans la liste.", "Look words up in the list."),
    "usage_challenge": ("/conteste [MOT...] [@JOUEUR]", "/challenge [WORD...] [@PLAYER]"),
    "help_challenge": (
        "Conteste le dernier coup avant que le suivant soit enregistré : chaque mot formé (ou ceux nommés) est vérifié, une fois par coup, jamais par son auteur. L'arbitre désigne le contestataire avec @NOM.",
        "Challenge the last move before the next one is recorded: every word it formed (or those named) is checked, once per move, never by the player who made it. The referee names the challenger with @NAME.",
    ),
    "summary_challenge": ("Conteste le dernier coup.", "Challenge the last move."),
    "usage_pass": ("/passe", "/pass"),
    "help_pass": ("Passe son tour.", "Pass the turn."),
    "summary_pass": ("Passe son tour.", "Pass."),
    "usage_exchange": ("/change [N|LETTRES]", "/exchange [N|LETTERS]"),
    "help_exchange": (
        "Change des lettres : les lettres, leur nombre, ou rien si on ne les connaît pas (la règle fixe combien doivent rester dans le sac).",
        "Exchange tiles: the letters, their number, or nothing if unknown (the rule set says how many must be left in the bag).",
    ),
    "summary_exchange": ("Change des lettres.", "Exchange tiles."),
    "usage_penalty": ("/penalite JOUEUR POINTS", "/penalty PLAYER POINTS"),
    "help_penalty": (
        "Retire de 1 à 500 points à un joueur (sans utiliser de tour).",
        "Take 1 to 500 points off a player (no turn used).",
    ),
    "summary_penalty": ("Retire des points à un joueur.", "Take points off a player."),
    "usage_undo": ("/annule", "/undo"),
    "help_undo": (
        "Annule la dernière entrée de la feuille (coup, passe, contestation, pénalité...) en disant laquelle.",
        "Take back the last sheet entry (a move, a pass, a challenge, a penalty...) and say what it was.",
    ),
    "summary_undo": ("Annule la dernière entrée de la feuille.", "Take back the last sheet entry."),
    "usage_end": ("/fin [JOUEUR=LETTRES ...] [!]", "/end [PLAYER=LETTERS ...] [!]"),
    "help_end": (
        "Termine la partie avec les lettres restantes de chacun (? pour un joker, ou leur valeur) : /fin Ben=EAU. À deux joueurs, les lettres seules sont celles du joueur qui n'a pas fini. S'il reste des lettres dans le sac, ajoutez ! pour terminer quand même. Une partie duplicate s'arrête aussitôt.",
        "End the game with each player's remaining letters (? for a joker, or their value): /end Ben=EAU. In a two-player game the letters alone are those of the player who did not go out. With tiles still in the bag, add ! to end anyway. A duplicate game ends at once.",
    ),
    "summary_end": ("Termine la partie avec les lettres restantes.", "End the game with the racks left."),
    "usage_sheet": ("/feuille [N]", "/sheet [N]"),
    "help_sheet": (
        "La feuille de marque de la partie en cours, sinon de la dernière ; N choisit une partie de /parties.",
        "The score sheet of the running game, else of the last one; N picks a game of /games.",
    ),
    "summary_sheet": ("La feuille de marque.", "The score sheet."),
    "usage_moves": ("/coups [JOUEUR] [N]", "/moves [PLAYER] [N]"),
    "help_moves": (
        "Les coups d'un joueur avec leurs points (les vôtres par défaut), dans la partie en cours ou la dernière ; N choisit une partie de /parties. En duplicate, chaque coup montre aussi le top et l'écart.",
        "A player's moves with their scores (yours by default), in the running game or the last one; N picks a game of /games. In duplicate, each move also shows the top and the gap to it.",
    ),
    "summary_moves": ("Les coups d'un joueur et leurs points.", "A player's moves and scores."),
    "usage_board": ("/grille [N]", "/board [N]"),
    "help_board": (
        "La grille en image : joueurs, scores, à qui de jouer, lettres dans le sac, dernier coup en couleur ; en duplicate le tirage et l'heure de fin, ou le top une fois le coup clos. Partie en cours, sinon la dernière ; N choisit une partie de /parties.",
        "The board as an image: players, scores, whose turn, tiles in the bag, last move lit; in duplicate the draw and the deadline, or the top once the move is closed. Running game, else the last one; N picks a game of /games.",
    ),
    "summary_board": ("La grille en image.", "The board as an image."),
    "usage_unseen": ("/reste [N]", "/unseen [N]"),
    "help_unseen": (
        "Lettres pas encore sur la grille, et combien restent dans le sac (N choisit une partie de /parties).",
        "Tiles not yet on the board, and how many are left in the bag (N picks a game of /games).",
    ),
    "summary_unseen": ("Les lettres pas encore jouées.", "Tiles not yet played."),
    "usage_export": ("/export [N]", "/export [N]"),
    "help_export": (
        "L'enregistrement de la partie en fichier : GCG en classique, feuille FISF et CSV des résultats en duplicate (N choisit une partie de /parties).",
        "The game record as a file: GCG for classic, the FISF record and a CSV of the results for duplicate (N picks a game of /games).",
    ),
    "summary_export": ("L'enregistrement de la partie (GCG, FISF, CSV).", "The game record (GCG, FISF, CSV)."),
    "usage_games": ("/parties", "/games"),
    "help_games": (
        "Les 20 dernières parties du salon : numéro, date, genre, état, joueurs, résultat.",
        "The channel's last 20 games: number, date, kind, status, players, result.",
    ),
    "summary_games": ("Les parties du salon.", "The channel's games."),
    "usage_settings": ("/reglages [CLÉ VALEUR]", "/settings [KEY VALUE]"),
    "help_settings": (
        "Affiche les réglages, ou en change un pour les prochaines parties : langue fr|en, edition fr|en (avec sa notation, sa liste et ses règles), notation fisf|gcg, regles box-fr|box-en|fisf|naspa|wespa, liste fr|en|NOM (listes ajoutées par l'hébergeur), minutes par coup de duplicate 0,05-10, fuseau (par exemple Europe/Paris). Les noms anglais des clés marchent aussi.",
        "Show the settings, or change one for the next games: language fr|en, edition fr|en (brings its notation, list and rules), notation fisf|gcg, rules box-fr|box-en|fisf|naspa|wespa, lexicon fr|en|NAME (lists the operator added), minutes per duplicate move 0.05-10, timezone (e.g. Europe/Paris). The French key names work too.",
    ),
    "summary_settings": ("Affiche ou change les réglages.", "Show or change the settings."),
    "usage_words": ("/mots [ajoute|retire MOT...]", "/words [add|remove WORD...]"),
    "help_words": (
        "Les mots maison du salon : /mots les liste ; l'arbitre ou un administrateur du salon accepte des mots absents de la liste avec /mots ajoute KA OM et en refuse avec /mots retire MOT. Contestations, /verif et tops du duplicate utilisent la liste avec eux ; chaque changement garde qui l'a fait et quand.",
        "The channel's house words: /words lists them; the referee or a channel admin accepts words the list lacks with /words add KA OM and rejects words with /words remove WORD. Challenges, /check and duplicate tops use the list with them; each change is kept with who made it and when.",
    ),
    "summary_words": (
        "Les mots maison du salon (liste, ajout, retrait).",
        "The channel's house words (list, add, remove).",
    ),
    "usage_duplicate": ("/duplicate [MINUTES] [manuel] [!]", "/duplicate [MINUTES] [manual] [!]"),
    "help_duplicate": (
        "Commence une partie duplicate avec MINUTES par coup (0,05 à 10 ; par défaut le réglage du salon), tirages automatiques ou manuels saisis avec /tirage ; vous en êtes l'arbitre. Une partie en cours n'est jamais remplacée : son arbitre ajoute ! pour l'abandonner.",
        "Start a duplicate game with MINUTES per move (0.05 to 10; default: the channel's setting), automatic draws or manual ones typed with /draw; you become its referee. A running game is never replaced: its referee adds ! to abandon it.",
    ),
    "summary_duplicate": ("Commence une partie duplicate.", "Start a duplicate game."),
    "usage_draw": ("/tirage [LETTRES|-]", "/draw [LETTERS|-]"),
    "help_draw": (
        "Saisit le tirage reçu dans la salle, en mode manuel : EEU+ESI? (le reliquat, +, les nouvelles lettres). « - » rejette le tirage en cours, dans les deux modes ; sans rien, montre le tirage en cours à tous.",
        "Type the draw the hall received, in manual mode: EEU+ESI? (the kept letters, +, the new ones). '-' rejects the current draw, in either mode; with nothing, shows the current draw to anyone.",
    ),
    "summary_draw": (
        "Saisit le tirage de la salle (mode manuel), ou montre celui en cours.",
        "Type the hall's draw (manual mode), or show the current one.",
    ),
    "usage_play": ("/jouer REF MOT [score]", "/play REF WORD [score]"),
    "help_play": (
        "Propose votre coup de duplicate en privé, avec le score compté si vous voulez (un nouveau remplace l'ancien) ; le premier vous inscrit.",
        "Submit your duplicate move privately, with the score you counted if you like (a later one replaces it); the first one makes you a player.",
    ),
    "summary_play": ("Propose votre coup de duplicate en privé.", "Submit your duplicate move privately."),
    "usage_close": ("/cloture", "/close"),
    "help_close": ("Clôt la manche en cours maintenant.", "Close the running round now."),
    "summary_close": ("Clôt la manche maintenant.", "Close the round now."),
    "usage_reopen": ("/rouvre [SECONDES]", "/reopen [SECONDS]"),
    "help_reopen": (
        "Rouvre la dernière manche close (avant que quiconque joue le tirage suivant), pour 60 secondes ou le temps donné (600 au plus).",
        "Reopen the last closed round (before anyone plays the next draw), for 60 seconds or the time given (at most 600).",
    ),
    "summary_reopen": ("Rouvre la dernière manche close.", "Reopen the last closed round."),
    "usage_pause": ("/pause", "/pause"),
    "help_pause": (
        "Arrête le chrono de la manche (/reprise le relance avec le temps qui restait).",
        "Stop the round's clock (/resume starts it again with the time that was left).",
    ),
    "summary_pause": ("Arrête le chrono.", "Stop the clock."),
    "usage_resume": ("/reprise", "/resume"),
    "help_resume": ("Relance le chrono arrêté.", "Start the paused clock again."),
    "summary_resume": ("Relance le chrono.", "Start the clock again."),
    "usage_extend": ("/prolonge SECONDES", "/extend SECONDS"),
    "help_extend": (
        "Donne plus de temps à la manche en cours (600 secondes au plus à la fois).",
        "Give the running round more time (at most 600 seconds at once).",
    ),
    "summary_extend": ("Donne plus de temps à la manche.", "Give the round more time."),
    "usage_correct": (
        "/corrige JOUEUR COUP REF MOT [raison] | /corrige JOUEUR COUP POINTS [raison]",
        "/correct PLAYER MOVE REF WORD [reason] | /correct PLAYER MOVE POINTS [reason]",
    ),
    "help_correct": (
        "Corrige la réponse d'un joueur pour un coup clos (bulletin mal lu) : le coup est rejugé, ou les points sont saisis ; la raison reste dans la feuille.",
        "Correct a player's answer for a closed move (a misread slip): the move is judged again, or the points are entered; the reason is kept in the record.",
    ),
    "summary_correct": (
        "Corrige la réponse d'un joueur après la clôture.",
        "Correct a player's answer after the close.",
    ),
    "usage_top": ("/top N", "/top N"),
    "help_top": (
        "Quand plusieurs coups font le top, place le N-ième de la liste à la place (avant que quiconque joue le tirage suivant). Par défaut, celui qui a le moins de jokers, puis le premier dans l'ordre de la grille, est placé.",
        "When several plays share the top score, place the N-th of the list instead (before anyone plays the next draw). By default the one with the fewest jokers, then the first in board order, is placed.",
    ),
    "summary_top": ("Place un autre des tops ex aequo.", "Place another of the tied tops."),
    "usage_standings": ("/classement [N]", "/standings [N]"),
    "help_standings": (
        "Le classement : en duplicate le total de chacun, l'écart au top cumulé et son pourcentage (aussi en image) ; en classique les scores avec l'ajustement de fin de partie. N choisit une partie de /parties.",
        "The standings: in duplicate each player's total, gap to the sum of the tops and percentage of it (also as an image); in classic the scores with the end-of-game adjustment. N picks a game of /games.",
    ),
    "summary_standings": ("Le classement.", "The standings."),
    "usage_status": ("/etat", "/status"),
    "help_status": (
        "Où en est la partie : en duplicate le tirage en cours, son heure limite et combien ont joué ; en classique les scores et à qui de jouer.",
        "Where the game stands: in duplicate the current draw, its deadline and how many have played; in a classic game the scores and whose turn it is.",
    ),
    "summary_status": ("Où en est la partie (le tirage en cours).", "Where the game stands (the current draw)."),
    "usage_help": ("/aide [COMMANDE]", "/help [COMMAND]"),
    "help_help": (
        "La liste des commandes, ou l'aide de l'une d'elles : /aide coup.",
        "The list of commands, or the help of one: /help score.",
    ),
    "summary_help": ("L'aide.", "Help."),
}

LANGUAGES = ("fr", "en")


def say(lang: str, message_key: str, /, **values: Any) -> str:
    """The message ``message_key`` in French or English, filled with ``values``."""
    french, english = CATALOG[message_key]
    return (french if lang == "fr" else english).format(**values)


def command_name(lang: str, name: str) -> str:
    """The name of the command ``name`` (its English name) in ``lang``, without the slash."""
    return say(lang, f"name_{name}")


def example_move(notation: str) -> str:
    return "H8 VAGUE" if notation == "fisf" else "8H VAGUE"


def _listed(value: object) -> object:
    return ", ".join(str(item) for item in value) if isinstance(value, tuple) else value


def _fields(error: E.ArbitreError) -> dict[str, Any]:
    """The error's typed fields, tuples joined with commas."""
    return {name: _listed(value) for name, value in vars(error).items()}


def _syntax(lang: str, error: E.NotationError, notation: str) -> str:
    example = example_move(notation)
    if isinstance(error, E.RefSyntaxError):
        ref = example.split()[0]
        return say(lang, "err_ref", text=error.text, example=f"{ref} / {ref[::-1]}")
    if error.problem is E.SyntaxProblem.MOVE_FORM:
        return say(lang, "err_move_syntax", text=error.text, example=example)
    reason = say(lang, f"syntax_{error.problem}", detail=error.detail)
    if isinstance(error, E.RackSyntaxError):
        return say(lang, "err_draw_syntax", text=error.text, reason=reason)
    return say(lang, "err_word", text=error.text, reason=reason, example=example)


def _setting(lang: str, error: E.DuplicateSettingError) -> str:
    values = {"name": error.name, "value": error.value, "low": f"{error.low:g}"}
    if error.high is not None:
        return say(lang, "err_dup_setting_range", high=f"{error.high:g}", **values)
    return say(lang, "err_dup_setting_at_least", **values)


# Errors explained by one message filled with their fields (the first class that matches wins).
_BY_FIELDS: list[tuple[type[E.ArbitreError], str]] = [
    (E.OutOfBoardError, "err_out_of_board"),
    (E.LetterMismatchError, "err_mismatch"),
    (E.EmptyThroughSquareError, "err_empty_through"),
    (E.NoNewTileError, "err_no_new_tile"),
    (E.TooManyTilesError, "err_too_many"),
    (E.NotInLineError, "err_not_in_line"),
    (E.GapError, "err_gap"),
    (E.OccupiedSquareError, "err_occupied"),
    (E.IncompleteWordError, "err_incomplete"),
    (E.WordTooShortError, "err_too_short"),
    (E.FirstMoveError, "err_first_move"),
    (E.NotConnectedError, "err_not_connected"),
    (E.GameOverError, "err_game_over"),
    (E.UnknownPlayerError, "err_unknown_player"),
    (E.PlayerCountError, "err_player_count"),
    (E.DuplicatePlayerError, "err_duplicate_player"),
    (E.GameStartedError, "err_started"),
    (E.NothingToChallengeError, "err_nothing_to_challenge"),
    (E.WordNotInMoveError, "err_word_not_in_move"),
    (E.NothingToUndoError, "err_nothing_to_undo"),
    (E.ExchangeNotAllowedError, "err_exchange_bag"),
    (E.ExchangeSizeError, "err_exchange_size"),
    (E.RackSpecError, "err_rack"),
    (E.SelfChallengeError, "err_self_challenge"),
    (E.AlreadyChallengedError, "err_already_challenged"),
    (E.PenaltyValueError, "err_penalty_value"),
    (E.RackNotUnseenError, "err_rack_not_unseen"),
    (E.RackTooLargeError, "err_rack_too_large"),
    (E.EditionDataError, "err_edition_data"),
    (E.InvalidWordError, "err_invalid_word"),
    (E.AlphabetMismatchError, "err_alphabet_mismatch"),
    (E.CorruptLexiconError, "err_corrupt_lexicon"),
    (E.LetterNotInBagError, "err_not_in_bag"),
    (E.KeptLettersError, "err_kept"),
    (E.DrawSizeError, "err_draw_size"),
    (E.NoDrawPossibleError, "err_no_draw_possible"),
    (E.DrawPendingError, "err_draw_pending"),
    (E.NoRoundOpenError, "dup_no_round"),
    (E.SubmissionsMadeError, "err_submissions_made"),
    (E.RoundNotClosedError, "err_round_not_closed"),
    (E.ScoreAboveTopError, "err_score_above_top"),
    (E.NegativeScoreError, "err_negative_score"),
    (E.NotATiedTopError, "err_not_tied_top"),
    (E.ExtensionError, "err_extension"),
    (E.WordNotInLexiconError, "err_word_not_in_lexicon"),
    (E.GcgSyntaxError, "err_gcg_syntax"),
    (E.GcgEventError, "err_gcg_event"),
]


def explain(error: E.ArbitreError, lang: str, notation: str = "fisf") -> str:
    """A polite explanation of an engine error in the channel's language, from its typed fields only."""
    if isinstance(error, E.NotationError):
        return _syntax(lang, error, notation)
    if isinstance(error, E.DuplicateSettingError):
        return _setting(lang, error)
    if isinstance(error, E.ClockStateError):
        state = say(lang, "clock_paused" if error.paused else "clock_running")
        return say(lang, "err_clock_state", action=command_name(lang, str(error.action)), state=state)
    if isinstance(error, E.NothingToReopenError):
        reason = say(lang, f"reopen_{error.reason}")
        return say(lang, "err_no_reopen", round_number=error.round_number, reason=reason)
    if isinstance(error, E.LettersNotInDrawError):  # letters one by one: "O, O"
        values = {**_fields(error), "letters": _listed(tuple(error.letters))}
        if isinstance(error, E.JokerNotMarkedError):
            first = error.letters[:1]
            return say(lang, "err_joker_not_marked", lower=first.lower(), upper=first, **values)
        key = "err_no_joker_left" if isinstance(error, E.NoJokerLeftError) else "err_letters_not_in_draw"
        return say(lang, key, **values)
    if isinstance(error, E.LateSubmissionError):
        return say(lang, "err_late_submission", player=error.player, move=error.move, seconds=f"{error.seconds_late:.1f}")
    for cls, key in _BY_FIELDS:
        if isinstance(error, cls):
            return say(lang, key, **_fields(error))
    return say(lang, "err_refused")
