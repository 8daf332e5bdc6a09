"""An answer received before its round's end but stored after the close (issue 36, "No answer sent in
time is ever lost"): it counts for that round, as the arbiter's correction would, the player and the room
are told; an earlier answer never replaces a later one that counted; an answer received after the end is
the next round's as before. Through the referee on a real SQLite file, the answers carrying the time they
were received (``Incoming.received``), as the adapters stamp them."""

from __future__ import annotations

from bot.chat import Incoming, Reply
from core.duplicate.rounds import Round
from tests.club import CHANNEL, Club

# ACEHNTZ on an empty board (2.1 and 2.3 of RULES.md): H6 CHANTEZ 112, H4 CHANTEZ 98, H8 CHANT 22


def play(club: Club, name: str, move: str, received: float) -> list[Reply]:
    """A private /play received at ``received`` (the platform's time), handled now."""
    message = Incoming(CHANNEL, f"u:{name.lower()}", name, f"/jouer {move}", private=True, received=received)
    replies = club.referee.handle(message)
    assert not any("Désolé" in r.text for r in replies), replies
    return replies


def first_round(club: Club) -> Round:
    game = club.referee.services().duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
    return game.closed_rounds[0]


def test_an_answer_received_in_time_and_stored_after_the_close_counts_for_its_round(club: Club) -> None:
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/tirage ACEHNTZ")
    deadline = club.now + 60
    club.now += 5
    play(club, "Ana", "H6 CHANTEZ", club.now)
    club.now += 5
    play(club, "Eve", "H8 CHANT", club.now)
    eve_at = club.now
    club.tick(51)  # the clock closes round 1 (manual draws: no round 2 yet)
    assert first_round(club).score_of("Ana") == 112
    assert "Ben" not in first_round(club).results
    # Ben's answer reached the bot 2 s before the end, its turn came after the close
    replies = play(club, "Ben", "H4 CHANTEZ", deadline - 2)
    private = [r.text for r in replies if r.to_user == "u:ben"]
    public = [r.text for r in replies if r.to_user is None]
    assert private[0] == (
        "Reçu avant la fin du coup 1 et enregistré après sa clôture : H4 CHANTEZ — 98 points, comptés pour le coup 1."
    )
    assert public[-1] == (
        "Coup 1 : la réponse de Ben, reçue avant la fin et enregistrée après la clôture, compte (98 points) ;"
        " le classement en tient compte."
    )
    assert first_round(club).score_of("Ben") == 98
    standings = club.ok("Zoé", "/classement")
    assert "Ben" in standings
    assert "98" in standings
    # Eve's earlier answer (received before her counted one) changes nothing
    replies = play(club, "Eve", "H6 CHANTEZ", eve_at - 2)
    assert [r.error for r in replies] == [True]  # a refusal: nothing stored (the processes' race test counts on it)
    assert [r.text for r in replies] == [
        "Reçu avant la fin du coup 1, mais une réponse plus récente de vous y est déjà comptée :"
        " H6 CHANTEZ ne la remplace pas."
    ]
    assert first_round(club).score_of("Eve") == 22
    # an answer received after the end is not the closed round's
    late = play(club, "Cyd", "H6 CHANTEZ", deadline + 1)
    assert "Cyd" not in first_round(club).results
    assert any(r.error or "coup 2" in r.text.lower() or "tirage" in r.text.lower() for r in late)


def test_an_answer_delivered_again_after_the_close_already_counts_and_changes_nothing(club: Club) -> None:
    # a platform delivers a message again when the process that read it died before saying so: the answer
    # stored in time, or counted after the close, is the same answer, not an earlier one "superseded"
    club.ok("Ref", "/duplicate 1 manuel")
    club.ok("Ref", "/tirage ACEHNTZ")
    deadline = club.now + 60
    club.now += 5
    eve_at = club.now
    play(club, "Eve", "H8 CHANT", eve_at)
    club.tick(56)  # the clock closes round 1
    replies = play(club, "Eve", "H8 CHANT", eve_at)
    assert [(r.error, r.text) for r in replies] == [
        (True, "Reçu avant la fin du coup 1 : H8 CHANT y compte déjà (22 points) ; rien n'a changé.")
    ]
    play(club, "Ben", "H4 CHANTEZ", deadline - 2)  # counted after the close
    replies = play(club, "Ben", "H4 CHANTEZ", deadline - 2)
    assert [(r.error, r.text) for r in replies] == [
        (True, "Reçu avant la fin du coup 1 : H4 CHANTEZ y compte déjà (98 points) ; rien n'a changé.")
    ]  # and no second announcement in the room
    assert first_round(club).score_of("Eve") == 22
    assert first_round(club).score_of("Ben") == 98


def test_the_quick_way_hands_an_answer_received_in_time_to_the_usual_way(club: Club) -> None:
    club.ok("Ref", "/duplicate 1")  # automatic draws: round 2 is open when Ben's answer is handled
    deadline = club.now + 60
    play(club, "Ana", "H8 ZZZ", club.now)
    club.tick(61)
    replies = play(club, "Ben", "H8 ZZZ", deadline - 1)  # whatever it scores, it is round 1's
    assert any("coup 1" in r.text for r in replies if r.to_user == "u:ben"), replies
    assert "Ben" in first_round(club).results
    game = club.referee.services().duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
    assert game.current is not None
    assert not any(s.player == "Ben" for s in game.current.submissions)


def test_an_answer_that_waited_while_several_rounds_closed_counts_for_the_round_it_was_sent_in(club: Club) -> None:
    # a crowd held Ben's round-1 answer while rounds 1 and 2 closed: it was taken for round 2's (the last
    # closed round's window was read as [round 1's opening, round 2's end)), 4,028 such answers in the
    # 300 x 100 burst bench
    club.ok("Ref", "/duplicate 1")
    round_1_end = club.now + 60
    sent = club.now + 30
    club.tick(61)  # round 1 closes, round 2 opens
    club.tick(61)  # round 2 closes, round 3 opens
    game = club.referee.services().duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
    assert [r.number for r in game.closed_rounds] == [1, 2]
    replies = play(club, "Ben", "H8 ZZZ", sent)
    assert any("coup 1" in r.text for r in replies if r.to_user == "u:ben"), replies
    game = club.referee.services().duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
    assert "Ben" in game.closed_rounds[0].results
    assert "Ben" not in game.closed_rounds[1].results
    # received between round 1's end and round 2's opening (none here: the next draw opens at the close) or
    # during round 2: round 2's
    play(club, "Cyd", "H8 ZZZ", round_1_end + 1)
    game = club.referee.services().duplicate_games.load(club.storage, club.storage.games(CHANNEL)[-1])
    assert "Cyd" in game.closed_rounds[1].results
    assert "Cyd" not in game.closed_rounds[0].results


def test_an_answer_is_timed_by_the_platform_on_the_referee_s_clock() -> None:
    from bot.adapters.base import PLATFORM_TIME_SPAN, platform_received

    # handed in to the platform 7 s before the adapter read it: 7 s before the referee's now
    assert platform_received(1000.0, 500.0, 493.0) == 993.0
    # a platform time after the adapter's clock (clocks a little apart): never later than now
    assert platform_received(1000.0, 500.0, 501.5) == 1000.0
    # no platform time, or one of another clock (further back than the span): the service stamps it
    assert platform_received(1000.0, 500.0, None) is None
    assert platform_received(1000.0, 500.0, 500.0 - PLATFORM_TIME_SPAN - 1) is None
