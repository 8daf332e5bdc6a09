"""The scripted duplicate game of the FISF sanctions tests: a small list, four players, five moves whose tops,
grades and standings were worked by hand (rule book of 1 January 2023, sections 3.5, 5 and 6.2)."""

from __future__ import annotations

from core.duplicate import (
    DuplicateGame,
    DuplicateSettings,
    DuplicateStanding,
    Fault,
    Sanctions,
    movegen_top_finder,
)
from core.edition import FRENCH
from core.lexicon import Lexicon

WORDS = (
    "NEZ TRAIN NIER RIEN TIEN ET TE NE EN ES SE RE TU TUE NU UT AN NA IN ESSUIE SUE SUES ETE ETES SERA AS SA"
    " TA IRE RIE RAT RATE RATES AIRE ZONE ZONES SU US MURES RAMES RIMES MARIES AMIES TARIES TRIAS TRAIES"
    " TRAITES MOULE MOULES MOLE MOLES LIME LIMES MIEL MIELS OUI SOL SOLE MOU MOUS LOUE LOUES"
).split()
LEXICON = Lexicon.from_words(WORDS, name="sanctions")
FISF = DuplicateSettings(sanctions=Sanctions.FISF, solo_min_players=4)  # 3.5 says 16 players: 4 keeps it short
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
SECONDS = FISF.seconds

# The scripted game: each move's draw, and each player's answer (move, claimed score, seconds after the draw).
# Tops worked by hand (French values, section 1.2): H6 NEZ (1+1+10)x2 = 24; G1 TRAItES 1+1+2+1+0+1+2 = 8,
# with EN 2 and SE 3, +50 = 63; 1G TUE (1+1+1)x3 = 9; 2I SOL 1+3+1 with ES 2 = 7; 4D MARIES
# (2+1+1+1+2+1)x2 = 16.
SCRIPT: list[tuple[str, dict[str, tuple[str, int | None, float]]]] = [
    (
        "AEINRTZ",
        {
            "Ana": ("H8 NEZ", 24, 10),  # clean (5.4.2.a: the word's best score, 24)
            "Ben": ("H8 NEZ", 22, 10),  # warning 5.4.2.a: first move, claimed score not the best: paid 24
            "Cleo": ("H8 ZANE", None, 10),  # zero 5.7: word not allowed
            "Dan": ("H4 TRAIN", 12, 10),  # clean: (2+1+1+1+1)x2 = 12
        },
    ),
    (
        "+ES?",
        {
            "Ana": ("G1 TRAItES", 63, 10),  # clean
            "Ben": ("G1 TRAITES", None, 10),  # warning 5.5: joker not marked, its letter (T) certain: 63
            "Cleo": ("G2 TARIES", 13, 10),  # clean: 1+2+1+1+1+2 = 8, EN 2, SE 3 = 13
            "Dan": ("G1 TRAItES", 63, SECONDS + 20),  # zero 5.7: handed in after the end of the move
        },
    ),
    (
        "EILMOSU",
        {
            "Ana": ("4F MIELS", None, 10),  # clean: 2+1+2+1+1 = 7
            "Ben": ("2H ES", None, 10),  # warning 5.3/5.5: reference reversed (H2 ES: 2 + RE 2 + AS 2 = 6)
            "Cleo": ("1A TUE", 9, 10),  # penalty 5.6: 9 exists for TUE at 1G, not at 1A: 9 - 5 = 4; solo (3.5)
            "Dan": ("4F LIMES", 10, 10),  # warning 5.3.2: claimed 10, exact 1+1+4+1+1 = 8
            "Eve": ("4F LIME", 7, 10),  # clean, 7; Eve arrived at move 3: moves 1 and 2 count 0 (6.2)
        },
    ),
    (
        "+AR",
        {
            "Ana": ("2I SOLI", None, 10),  # zero 5.7: SOLI not allowed
            "Ben": ("2I SOL", 8, 10),  # warning 5.3.2 (Ben's fourth: 5 points off, 5.9): exact 7
            "Cleo": ("2I SOL", 7, 10),  # clean, 7
            "Dan": ("2I SA", 6, 10),  # clean: 1+3 + ES 2 = 6
            "Eve": ("6E RIEN", None, 10),  # clean: 1+3+1+1 = 6
        },
    ),
    (
        "+E?S",
        {
            "Ana": ("4D MARIES", 16, 10),  # clean, 16
            "Ben": ("4D TARiES", None, 10),  # warning 5.5: joker marked on I, stands for T: (0+1+1+1+2+1)x2 = 12
            "Cleo": ("K2 LIMES", None, 10),  # clean: (1+1+2+1+1)x2 = 12
            "Dan": ("4D MARIES", 16, 10),  # clean, 16
            "Eve": ("K2 LIMES", 12, 10),  # clean, 12
        },
    ),
]

# The standings worked by hand from the comments above: tops 24+63+9+7+16 = 119.
#   Ana  24+63+7+0+16 = 110
#   Ben  24+63+6+7+12 = 112, 5 warnings: the 4th and the 5th cost 5 each: 102
#   Cleo 0+13+4+7+12 = 36, a solo on move 3 (9 before the penalty, alone on the top): +10 = 46
#   Dan  12+0+8+6+16 = 42, 1 warning
#   Eve  0+0+7+6+12 = 25
EXPECTED = [
    DuplicateStanding(1, "Ana", 110, -9, 92.4),
    DuplicateStanding(2, "Ben", 102, -17, 85.7, warnings=5, deduction=10),
    DuplicateStanding(3, "Cleo", 46, -73, 38.7, solos=1),
    DuplicateStanding(4, "Dan", 42, -77, 35.3, warnings=1),
    DuplicateStanding(5, "Eve", 25, -94, 21.0),
]
EXPECTED_SCORES = {
    "Ana": [24, 63, 7, 0, 16],
    "Ben": [24, 63, 6, 7, 12],
    "Cleo": [0, 13, 4, 7, 12],
    "Dan": [12, 0, 8, 6, 16],
    "Eve": [0, 0, 7, 6, 12],
}
EXPECTED_FAULTS = {
    1: {"Ana": Fault.CLEAN, "Ben": Fault.FIRST_MOVE, "Cleo": Fault.NOT_A_WORD, "Dan": Fault.CLEAN},
    2: {"Ana": Fault.CLEAN, "Ben": Fault.UNCIRCLED_JOKER, "Cleo": Fault.CLEAN, "Dan": Fault.LATE},
    3: {"Ana": Fault.CLEAN, "Ben": Fault.REVERSED_REF, "Cleo": Fault.MISPLACED, "Dan": Fault.WRONG_SCORE},
    4: {"Ana": Fault.NOT_A_WORD, "Ben": Fault.WRONG_SCORE, "Cleo": Fault.CLEAN, "Dan": Fault.CLEAN},
    5: {"Ana": Fault.CLEAN, "Ben": Fault.WRONG_CIRCLE, "Cleo": Fault.CLEAN, "Dan": Fault.CLEAN},
}


def play_script(settings: DuplicateSettings = FISF, rounds: int = len(SCRIPT)) -> DuplicateGame:
    """The scripted game, played move by move with the real move generator on the small list."""
    game = DuplicateGame(FRENCH, PLAYERS, settings, lexicon_name="sanctions")
    finder = movegen_top_finder(LEXICON, FRENCH, settings)
    for number, (draw, answers) in enumerate(SCRIPT[:rounds], 1):
        if number == 3:
            game.join("Eve")  # a late arrival (6.2)
        start = 1000.0 * number
        kept = game.last_closed.reliquat if game.last_closed is not None else ""
        game.draw_manual(kept + draw if draw.startswith("+") else draw, at=start)
        for player, (move, claimed, after) in answers.items():
            game.submit(player, move, claimed, at=start + after)
        game.close_round(finder, LEXICON)
    return game
