"""The classic game the referee deals (``core.online``): the order drawn, private racks, moves checked against
the rack, replacements, exchanges under the bag rule, challenges that put a phony's tiles back, the
scoreless end and the end with every rack known; replayed from its log, exported as GCG with racks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core import online_robot as robot
from core.board import Board
from core.draw import Bag
from core.edition import FRENCH, JOKER
from core.errors_classic import ExchangeNotAllowedError
from core.errors_online import DealtUndoError, NotOnRackError, TurnError
from core.events import Undo
from core.gcg import read_gcg
from core.movegen import find_top, generate_plays
from core.notation import Notation
from core.online import DAY, HOUR, Deadline, DealtGame, Due, dealt_gcg, draw_order, order_from
from core.online_events import Dealt, OrderDrawn, Pace, Reminded, event_from_dict, event_to_dict
from core.online_robot import Level
from core.rules import rule_set_by_code
from tests.ready_lists import ready_registry

FRENCH_LIST = ready_registry().get("fr")


def on_board(board: Board) -> str:
    return "".join(JOKER if tile.joker else tile.letter for _, _, tile in board.tiles())


def conserved(game: DealtGame) -> bool:
    """Bag, racks and board hold the whole tile set."""
    held = game.bag.tiles + "".join(game.racks.values()) + on_board(game.board)
    return Counter(held) == Counter(FRENCH.bag())


def rebuilt(game: DealtGame) -> DealtGame:
    events = [event_from_dict(event_to_dict(e)) for e in game.events]
    return DealtGame(game.edition, game.base_rules, game.seats, game.notation, events)


def play_to_the_end(game: DealtGame, rng: random.Random, weakest: bool = False) -> int:
    """Each player plays a generated play (the best, or a random one), exchanges or passes; the number of turns."""
    turns = 0
    while not game.ended:
        player = game.to_move
        assert player is not None
        if game.awaiting_end is not None:
            game.pass_turn(player)
            continue
        rack = game.rack(player)
        plays = generate_plays(game.board, FRENCH.spell(rack), FRENCH_LIST, FRENCH)
        if plays:
            chosen = min(plays, key=lambda p: p.total) if weakest else rng.choice(plays)
            game.play(player, chosen.placement.notation(Notation.FISF), rng)
        elif len(game.bag) >= 7:
            game.exchange(player, FRENCH.spell(rack), rng)
        else:
            game.pass_turn(player)
        turns += 1
        assert conserved(game)
        assert turns < 200
    return turns


def test_the_order_is_drawn_nearest_the_alphabets_start_ties_drawing_again() -> None:
    rounds = ((("Ana", "M"), ("Ben", "C"), ("Cy", "C"), ("Dee", "?")), (("Ben", "Z"), ("Cy", "B")))
    assert order_from(rounds, FRENCH) == ["Dee", "Cy", "Ben", "Ana"]
    drawn = draw_order(("Ana", "Ben", "Cy"), Bag.full(FRENCH), FRENCH, random.Random(4))
    order = order_from(drawn.rounds, FRENCH)
    assert sorted(order) == ["Ana", "Ben", "Cy"]
    assert len(set(tile for _, tile in drawn.rounds[-1])) == len(drawn.rounds[-1])


def test_the_deal_gives_seven_tiles_to_each_rack_in_the_order_of_play() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("box-fr"), ("Ana", "Ben", "Cy", "Dee"))
    turn = game.start(random.Random(1))
    assert isinstance(turn.events[0], OrderDrawn)
    dealt = [e for e in turn.events if isinstance(e, Dealt)]
    assert [e.player for e in dealt] == game.players
    assert all(len(game.rack(p)) == 7 for p in game.players)
    assert len(game.bag) == 102 - 28
    assert game.to_move == game.players[0]
    assert "A" not in str(dealt[0]).split(":")[1]  # an event's line for logs never shows the tiles
    assert str(dealt[0]) == f"{dealt[0].player}: draws 7"


def test_a_move_needs_the_tiles_on_the_rack_and_the_turn() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("fisf"), ("Ana", "Ben"))
    rng = random.Random(2)
    game.start(rng)
    first, second = game.players
    missing = next(t for t in "ZYXWK" if t not in game.rack(first))
    with pytest.raises(NotOnRackError) as refused:
        game.play(first, f"H8 {missing}{missing}", rng)
    assert refused.value.rack == game.rack(first)
    with pytest.raises(TurnError):
        game.pass_turn(second)
    with pytest.raises(DealtUndoError):
        game.apply(Undo())


def test_a_move_draws_its_replacements_and_an_exchange_keeps_the_bag_rule() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("fisf"), ("Ana", "Ben"))
    rng = random.Random(3)
    game.start(rng)
    player = game.to_move
    assert player is not None
    plays = generate_plays(game.board, FRENCH.spell(game.rack(player)), FRENCH_LIST, FRENCH)
    best = max(plays, key=lambda p: p.total)
    turn = game.play(player, best.placement.notation(Notation.FISF), rng)
    assert len(game.rack(player)) == 7
    assert conserved(game)
    assert game.lines[-1].points == best.total
    assert [type(e) for e in turn.events] == [type(turn.events[0]), Dealt]
    other = game.to_move
    assert other is not None
    kept = game.rack(other)
    game.exchange(other, kept[:3], rng)
    assert len(game.rack(other)) == 7
    assert conserved(game)
    game.bag = Bag(game.bag.tiles[:6])  # a bag of six: no exchange under the FISF rules
    with pytest.raises(ExchangeNotAllowedError):
        game.exchange(game.to_move or "", game.rack(game.to_move or "")[:1], rng)


def test_a_phony_challenged_off_puts_its_tiles_back_and_its_replacements_in_the_bag() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("box-fr"), ("Ana", "Ben"))
    rng = random.Random(5)
    game.start(rng)
    player, other = game.players
    rack, bag = game.rack(player), game.bag
    phony = FRENCH.spell(rack[:2])
    game.play(player, f"H8 {phony}", rng)
    assert game.rack(player) != rack
    game.challenge(other, (), (phony,))
    assert game.rack(player) == rack
    assert game.bag == bag
    assert game.lines[0].removed
    assert game.to_move == other
    assert conserved(game)
    assert rebuilt(game).rack(player) == rack


def test_six_scoreless_turns_end_the_game_with_each_rack_lost() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("naspa"), ("Ana", "Ben"))
    game.start(random.Random(6))
    racks = dict(game.racks)
    for _ in range(6):
        game.pass_turn(game.to_move or "")
    assert game.ended
    for standing in game.standings():
        assert standing.adjustment == -sum(FRENCH.value(t) if t != JOKER else 0 for t in racks[standing.player])


@pytest.mark.parametrize(("players", "rules", "seed"), [(2, "fisf", 7), (4, "box-fr", 8), (2, "wespa", 9)])
def test_a_whole_game_empties_the_bag_and_ends_with_the_racks_known(players: int, rules: str, seed: int) -> None:
    names = ("Ana", "Ben", "Cy", "Dee")[:players]
    game = DealtGame(FRENCH, rule_set_by_code(rules), names)
    rng = random.Random(seed)
    game.start(rng)
    play_to_the_end(game, rng)
    assert game.ended
    assert not game.bag.tiles
    copy = rebuilt(game)
    assert copy.totals() == game.totals()
    assert copy.racks == game.racks
    gcg = dealt_gcg(game, lexicon="ODS")
    record = read_gcg(gcg, strict=True)
    assert record.game.totals() == game.totals()
    first_move = next(line for line in gcg.splitlines() if line.startswith(">"))
    rack_field = first_move.split()[1]
    assert len(rack_field) == 7  # the rack the player held, not only the tiles played


def test_the_weakest_plays_still_reach_the_end() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("fisf"), ("Ana", "Ben"))
    rng = random.Random(10)
    game.start(rng)
    play_to_the_end(game, rng, weakest=True)
    assert game.ended


def test_the_computer_at_its_strongest_beats_itself_at_its_weakest_and_plays_the_top() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("fisf"), ("Top", "Weak"))
    rng = random.Random(11)
    game.start(rng)
    levels = {"Top": Level.TOP, "Weak": Level.WEAK}
    first = game.to_move or ""
    top = find_top(game.board, FRENCH.spell(game.rack(first)), FRENCH_LIST, FRENCH).best
    assert top is not None
    while not game.ended:
        player = game.to_move or ""
        robot.move(game, player, FRENCH_LIST, levels[player], rng, None)
        assert conserved(game)
    assert game.lines[0].points == top.total
    totals = game.totals()
    assert totals["Top"] > totals["Weak"]
    assert read_gcg(dealt_gcg(game), strict=True).game.totals() == totals


def test_each_weaker_level_chooses_a_play_scoring_no_more() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("box-fr"), ("Ana", "Ben"))
    game.start(random.Random(12))
    player = game.to_move or ""
    scores = []
    for level in (Level.TOP, Level.STRONG, Level.MEDIUM, Level.WEAK):
        choice = robot.choose(game, player, FRENCH_LIST, level)
        scores.append(game.classic.evaluate(choice.move)[1].total)
    assert scores == sorted(scores, reverse=True)
    assert scores[0] > scores[-1]


def test_a_game_by_correspondence_reminds_then_passes_the_turn_then_ends_on_its_last_day() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("box-fr"), ("Ana", "Ben"))
    start = 1_000_000.0
    game.apply(Pace(24, 3), start)
    rng = random.Random(13)
    game.start(rng, start)
    first = game.to_move
    due = game.deadline()
    assert due == Deadline(start + 18 * HOUR, Due.REMIND)
    assert not game.time_out(start + 17 * HOUR).events
    (reminded,) = game.time_out(start + 18 * HOUR).events
    assert isinstance(reminded, Reminded)
    assert reminded.player == first
    assert game.deadline() == Deadline(start + 24 * HOUR, Due.MOVE_TIME)
    game.time_out(start + 24 * HOUR)
    assert game.lines[-1].kind.value == "pass"
    assert game.to_move != first
    assert game.deadline() == Deadline(start + 42 * HOUR, Due.REMIND)
    player = game.to_move or ""
    plays = generate_plays(game.board, FRENCH.spell(game.rack(player)), FRENCH_LIST, FRENCH)
    game.play(player, max(plays, key=lambda p: p.total).placement.notation(Notation.FISF), rng, start + 30 * HOUR)
    assert game.deadline() == Deadline(start + 48 * HOUR, Due.REMIND)
    game.time_out(start + 48 * HOUR)
    game.time_out(start + 54 * HOUR)
    game.time_out(start + 72 * HOUR)
    assert game.deadline() == Deadline(start + 3 * DAY, Due.GAME_TIME) or game.ended
    game.time_out(start + 3 * DAY)
    assert game.ended
    assert rebuilt(game).totals() == game.totals()


def test_the_novice_plays_only_short_words_to_the_end_and_its_median_among_them() -> None:
    game = DealtGame(FRENCH, rule_set_by_code("fisf"), ("Novice", "Top"))
    rng = random.Random(14)
    game.start(rng)
    levels = {"Novice": Level.NOVICE, "Top": Level.TOP}
    while not game.ended:
        player = game.to_move or ""
        if player == "Novice" and game.awaiting_end is None:
            plays = generate_plays(game.board, FRENCH.spell(game.rack(player)), FRENCH_LIST, FRENCH)
            short = sorted(p.total for p in plays if all(len(w.cells) <= 5 for w in p.placement.words))
            choice = robot.choose(game, player, FRENCH_LIST, Level.NOVICE)
            if short:
                assert game.classic.evaluate(choice.move)[1].total == short[round((len(short) - 1) / 2)]
        robot.move(game, player, FRENCH_LIST, levels[player], rng, None)
        assert conserved(game)
    novice = [w for line in game.lines if line.player == "Novice" and line.placement for w in line.placement.words]
    assert novice
    assert max(len(w.cells) for w in novice) <= 5
    assert read_gcg(dealt_gcg(game), strict=True).game.totals() == game.totals()
