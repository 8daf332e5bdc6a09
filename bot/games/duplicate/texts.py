"""What is said and shown of a duplicate round: its draw, why a move counts 0, tied tops, its result
and the standings (text, the views their images draw, CSV), and the live lines (how many have played, who
joined).
"""

from __future__ import annotations

import csv
import io

from core.cells import inert
from core.draw import Shortfall
from core.duplicate import DuplicateGame, Round, SubmissionResult
from core.duplicate.formats import DuplicateFormat
from core.errors import NotationError
from core.errors_duplicate import (
    JokerNotMarkedError,
    LateSubmissionError,
    LettersNotInDrawError,
    NoJokerLeftError,
    TooFewJokersError,
    WordNotInLexiconError,
)
from core.notation import Notation
from core.tie import TieRule

from ... import buttons
from ...chat import Reply
from ...messages import decimal, explain, join_notes, mid_sentence, say
from ...overload import Shed
from ...render import RoundResultRow, RoundResultView, StandingsView, standings_png
from ...render.record import standings_text
from ...storage import GameRecord
from ...timefmt import clock_time, time_left
from ..common.formatting import breakdown
from .sanctions import first_move_place, sanction_note, sanction_text, sanctioned

COUNT_KEY = "dup-count-"  # the live counter's edit key, before its game and round


def draw_reply(lang: str, zone: str, record: GameRecord, game: DuplicateGame, channel: str, now: float) -> Reply:
    """The open round's draw, with the time left at ``now`` and the deadline (or its paused clock)."""
    round_ = game.current
    assert round_ is not None
    assert round_.draw is not None
    deadline = game.deadline(round_)
    shown = round_.draw.spelled(game.edition) + format_suffix(lang, game)
    if deadline is None:
        text = say(lang, "dup_draw_paused", n=round_.number, draw=shown)
    else:
        text = say(
            lang,
            "dup_draw",
            n=round_.number,
            draw=shown,
            left=time_left(deadline - now),
            clock=clock_time(deadline, zone),
        )
    if round_.rejected:
        rejected = " ".join(d.spelled(game.edition) for d in round_.rejected)
        text = say(lang, "dup_rejected_draws", draws=rejected) + "\n" + text
    if round_.shortfall is not None:
        text += "\n" + say(lang, "dup_shortfall", shortfall=shortfall_text(lang, round_.shortfall))
    offered = buttons.play_action(lang) + buttons.join_action(lang)
    return Reply(text, channel=channel, deadline=deadline, edit_key=f"dup-{record.id}-{round_.number}", actions=offered)


def topping_text(lang: str, game: DuplicateGame, round_: Round, player: str) -> str:
    """In topping (3.8.4), the time the player took to find the top (or the penalty's), else ""."""
    taken = round_.times.get(player)
    if taken is None:
        return ""
    given = taken > game.settings.seconds
    return say(lang, "dup_topping_given" if given else "dup_topping_time", seconds=decimal(lang, round(taken, 1)))


def format_name(lang: str, game: DuplicateGame) -> str:
    """The game's format of section 3.8, as the language names it."""
    return say(lang, f"format_{game.settings.format}")


def format_suffix(lang: str, game: DuplicateGame) -> str:
    """`` (formule 7 sur 8)`` after a draw of an original format (3.8), "" in the classic formula."""
    if game.settings.format is DuplicateFormat.CLASSIC:
        return ""
    return f" ({say(lang, 'dup_format_tag', name=format_name(lang, game))})"


def shortfall_text(lang: str, shortfall: Shortfall) -> str:
    """``BCDFGHJ : 0 voyelle, 7 consonnes ; le coup 1 en demande 2 de chaque``."""
    return say(
        lang,
        "draw_shortfall",
        letters=shortfall.letters or "-",
        vowels=say(lang, "count_vowels", count=shortfall.vowels),
        consonants=say(lang, "count_consonants", count=shortfall.consonants),
        either=say(lang, "count_either", count=shortfall.either) if shortfall.either else "",
        n=shortfall.move_number,
        needed=shortfall.needed,
    )


def reason_text(lang: str, result: SubmissionResult, notation: Notation) -> str:
    """Why a move counts 0, to be set mid-sentence after « : » or « — » (its first word lowercased, no
    final period)."""
    error = result.error
    if isinstance(error, WordNotInLexiconError):
        return say(lang, "dup_reason_not_a_word", words=", ".join(error.words), count=len(error.words))
    if isinstance(error, JokerNotMarkedError):
        return say(lang, "dup_reason_joker", letters=", ".join(error.letters))
    if isinstance(error, TooFewJokersError):
        return say(lang, "dup_reason_too_few_jokers", letters=", ".join(error.letters), jokers=error.jokers)
    if isinstance(error, NoJokerLeftError):
        return say(lang, "dup_reason_no_joker", letters=", ".join(error.letters))
    if isinstance(error, LettersNotInDrawError):
        return say(lang, "dup_reason_not_in_draw", letters=", ".join(error.letters))
    if isinstance(error, LateSubmissionError):
        return say(lang, "dup_reason_late")
    if isinstance(error, NotationError):
        return say(lang, "dup_reason_unreadable")
    if error is not None:
        return mid_sentence(explain(error, lang, notation.value)).rstrip(".")
    return ""


def _fisf_to_game(game: DuplicateGame, move: str) -> str:
    """A play stored in FISF notation, written in the game's notation."""
    from core.notation import format_move, parse_move

    return format_move(parse_move(move, Notation.FISF, alphabet=game.edition.alphabet), game.notation)


def tie_rule_text(lang: str, round_: Round) -> str:
    """Why the first of tied tops was placed: fewest jokers, board order, or the arbiter's choice."""
    shown = (TieRule.FEWEST_JOKERS, TieRule.ENDS_GAME, TieRule.ARBITER)
    rule = round_.tie_rule if round_.tie_rule in shown else TieRule.ORDER
    return say(lang, f"tie_rule_{rule}")


def tie_text(lang: str, game: DuplicateGame, round_: Round) -> str:
    """The tops tied with the one placed, numbered for /top N (the first ones, then how many more), and the
    rule that placed the first."""
    assert round_.top is not None
    choices = [round_.top.notation(game.notation), *(_fisf_to_game(game, m) for m in round_.tied)]
    listed = " · ".join(f"{n}) {m}" for n, m in enumerate(choices, 1))
    more = round_.tops_shared - len(choices)
    if more > 0:
        listed = say(lang, "dup_tie_more", tied=listed, count=more)
    return say(lang, "dup_tie", tied=listed, rule=tie_rule_text(lang, round_))


def tie_hint(lang: str, round_: Round) -> str:
    """After the close, what the referee may do with tied tops: /top N offers the top and the ``tied`` plays
    numbered in the result; when more plays score the top (7/8 formats, jokers), how many of them it offers."""
    offered = len(round_.tied) + 1
    if round_.tops_shared > offered:
        return say(lang, "dup_tie_hint_offered", count=round_.tops_shared, offered=offered)
    return say(lang, "dup_tie_hint", count=round_.tops_shared)


def round_text(lang: str, game: DuplicateGame, round_: Round) -> str:
    draw = round_.draw.spelled(game.edition) + format_suffix(lang, game) if round_.draw else ""
    if round_.top is None or round_.top_score is None:
        lines = [say(lang, "dup_no_top", n=round_.number, draw=draw)]
    else:
        lines = [
            say(
                lang,
                "dup_result",
                n=round_.number,
                draw=draw,
                top=round_.top.notation(game.notation),
                points=round_.top_points,
                breakdown=breakdown(round_.top_score, lang),
            )
        ]
        if round_.tied:
            lines.append(tie_text(lang, game, round_))
        if round_.runners_up:
            others = " · ".join(f"{_fisf_to_game(game, m)} {p}" for m, p in round_.runners_up)
            lines.append(say(lang, "dup_runners_up", plays=others))
    solo = game.solo(round_)
    if not game.players:
        lines.append(say(lang, "dup_nobody_played"))
    for player in game.players:
        result = round_.results.get(player)
        if result is None and player not in round_.recorded:
            lines.append(say(lang, "dup_no_answer", player=player) + topping_text(lang, game, round_, player))
            continue
        score = round_.score_of(player)
        extra = ""
        if round_.top is not None and score == round_.top_points and score > 0:
            extra += say(lang, "dup_top_found")
        if solo == player:
            extra += say(lang, "dup_solo", bonus=game.settings.solo_bonus)
        reason = reason_text(lang, result, game.notation) if result is not None else ""
        if result is not None and not result.valid and player not in round_.recorded and reason:
            extra += " — " + reason
        if result is not None and result.claimed_differs:
            extra += say(lang, "dup_claim", claimed=result.claimed)
        extra += sanction_text(lang, round_, player)
        extra += first_move_place(lang, round_, player, game.notation, "dup_first_move_place")
        extra += topping_text(lang, game, round_, player)
        if player in round_.corrections:
            extra += say(lang, "dup_corrected", reason=round_.corrections[player] or "-")
        move = result.move if result is not None and player not in round_.recorded else "-"
        lines.append(say(lang, "dup_player_line", player=player, move=move, score=score, extra=extra))
    return "\n".join(lines)


def results_csv(lang: str, game: DuplicateGame) -> bytes:
    """Every player's place, total, gap and percentage, then the score of each move (UTF-8 CSV, headers in
    ``lang``); in a game with sanctions, each player's warnings and the points they took off; in topping,
    each player's time (3.8.4). Names are inert (``core.cells``)."""
    fisf, timed = sanctioned(game), game.settings.format.timed
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ("place", "player", "total", "gap", "percent", "solos") + (("warnings", "deduction") if fisf else ())
    keys += ("time",) if timed else ()
    heads = [say(lang, f"col_{key}") for key in keys]
    writer.writerow([*heads, *[say(lang, "col_move_number", n=r.number) for r in game.closed_rounds]])
    top = say(lang, "col_top")
    blank = ["", ""] if fisf else []
    blank += [""] if timed else []
    writer.writerow(["", top, game.tops_total, 0, "100.0", "", *blank, *[r.top_points for r in game.closed_rounds]])
    for standing in game.standings():
        scores = [r.score_of(standing.player) for r in game.closed_rounds]
        warned: list[object] = [standing.warnings, standing.deduction] if fisf else []
        warned += [f"{standing.seconds or 0.0:.1f}"] if timed else []
        writer.writerow(
            [
                standing.place,
                inert(standing.player),
                standing.total,
                standing.gap,
                f"{standing.percent:.1f}",
                standing.solos,
                *warned,
                *scores,
            ]
        )
    return out.getvalue().encode("utf-8")


def tie_note(lang: str, round_: Round) -> str:
    """A short line on tied tops for the result image (the text lists them, numbered for /top N)."""
    if not round_.tied:
        return ""
    return say(lang, "dup_tie_short", count=round_.tops_shared, rule=tie_rule_text(lang, round_))


def result_view(lang: str, game: DuplicateGame, round_: Round) -> RoundResultView:
    """What the image of a closed round shows: its draw, its top and every player's line."""
    solo = game.solo(round_)
    rows = []
    for player in game.players:
        result = round_.results.get(player)
        entered = player in round_.recorded  # points the referee typed: no move to show
        notes = []
        if result is not None and not result.valid and not entered:
            notes.append(reason_text(lang, result, game.notation))
        notes.append(sanction_note(lang, round_, player))
        notes.append(first_move_place(lang, round_, player, game.notation, "dup_first_move_place_note"))
        if player in round_.corrections:
            notes.append(say(lang, "dup_corrected_note", reason=round_.corrections[player] or "-"))
        score = round_.score_of(player)
        rows.append(
            RoundResultRow(
                player,
                score,
                move=result.move if result is not None and not entered else "",
                note=join_notes(lang, notes),
                found_top=round_.top is not None and score == round_.top_points and score > 0,
                solo_bonus=game.settings.solo_bonus if solo == player else 0,
                answered=result is not None or entered,
            )
        )
    return RoundResultView(
        language=lang,
        round_number=round_.number,
        draw=round_.draw.spelled(game.edition) if round_.draw else "",
        top_move=round_.top.notation(game.notation) if round_.top is not None else "",
        top_points=round_.top_points,
        rows=tuple(rows),
        top_note=tie_note(lang, round_),
        format_name=format_name(lang, game) if game.settings.format is not DuplicateFormat.CLASSIC else "",
    )


def standings_view(lang: str, game: DuplicateGame) -> StandingsView:
    """What the standings image shows: every player's place, total, gap and percentage of the tops (and
    their warnings in a game with sanctions)."""
    named = format_name(lang, game) if game.settings.format is not DuplicateFormat.CLASSIC else ""
    standings = tuple(game.standings())
    return StandingsView(lang, len(game.closed_rounds), game.tops_total, standings, named, sanctioned(game))


def standings_image(lang: str, game: DuplicateGame) -> bytes | None:
    """The standings as a PNG; None while nobody plays (the text says so, no empty table is drawn)."""
    return standings_png(standings_view(lang, game)) if game.players else None


def results_reply(lang: str, channel: str, game: DuplicateGame, round_: Round, played: int, note: str = "") -> Reply:
    """A closed round's results as one text: how many players answered it (``played``: the exact count,
    shown with the results), its top, every answer (then ``note``: the tied tops' hint), then the standings
    (their images come after it)."""
    lines = [round_text(lang, game, round_), *([note] if note else []), "", standings_text(lang, game)]
    if game.players:
        lines.insert(0, say(lang, "dup_result_played", n=round_.number, played=played, players=len(game.players)))
    return Reply("\n".join(lines), channel=channel)


def played_count(game: DuplicateGame) -> int:
    """How many players have answered the open round (what the counter counts)."""
    round_ = game.current
    return round_.answered if round_ is not None else 0


def count_reply(lang: str, record: GameRecord, game: DuplicateGame, *, live: bool = True) -> Reply | None:
    """ "N of M have played" for the open round (counts only, never moves), editing itself as it grows:
    a live line (at most one edit per the platform's interval, the latest count); ``live=False`` at the
    close, so that the count is exact before the results."""
    round_ = game.current
    if round_ is None or round_.draw is None:
        return None
    text = say(lang, "dup_count", n=round_.number, played=played_count(game), players=len(game.players))
    deadline = game.deadline(round_)
    key = f"{COUNT_KEY}{record.id}-{round_.number}"
    return Reply(text, channel=record.channel, edit_key=key, expires=None if not live else deadline, live=live)


def joins_reply(lang: str, record: GameRecord, game: DuplicateGame, *, live: bool = True) -> Reply | None:
    """One line for the players who joined at this move (« P01, P02 et P03 rejoignent la partie au coup 1. »),
    editing itself as players arrive: a live line like the counter, never one message per player."""
    names = game.joined_this_move()
    if not names:
        return None
    listed = names[0] if len(names) == 1 else say(lang, "list_and", first=", ".join(names[:-1]), last=names[-1])
    text = say(lang, "dup_arrivals", players=listed, count=len(names), n=game.move_number)
    key = f"dup-joins-{record.id}-{game.move_number}"
    return Reply(text, channel=record.channel, edit_key=key, live=live)


def live_line_kind(reply: Reply) -> Shed:
    """What a live line (``count_reply``, ``joins_reply``) is, as shed under overload: the counter or the joins."""
    key = reply.edit_key or ""
    return Shed.COUNTER if key.startswith(COUNT_KEY) else Shed.JOINS


def live_lines_at_close(lang: str, record: GameRecord, game: DuplicateGame) -> list[Reply]:
    """The open round's counter and join line brought up to date at once (before its results)."""
    round_ = game.current
    played = round_ is not None and bool(round_.submissions)
    count = count_reply(lang, record, game, live=False) if played else None
    lines = [count, joins_reply(lang, record, game, live=False)]
    return [line for line in lines if line is not None]
