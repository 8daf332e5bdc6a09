"""PostgreSQL's storage sends lists of texts in binary format (issue 21, item 2: psycopg's text format
escaped every quote of a batch's JSON in Python, 40% of a batched /jouer's client CPU): what a batch
writes reads back the same, whatever its texts hold, on the tests' PostgreSQL server."""

from __future__ import annotations

import psycopg
import pytest

from bot.chat import Incoming, Reply
from bot.referee import Referee
from bot.storage.outbox_records import reply_from_json
from bot.storage.records import PlayWrite
from bot.storage.sql.postgres import PostgresStorage, binary_text_lists
from tests.ready_lists import ready_registry
from tests.storage_backends import active_game

START = 1_800_000_000.0
# what text-format arrays must quote or escape: quotes, backslashes, braces, commas, spaces, NULL, empty
TRICKY = ['O"Neil \\ {a,b}', "NULL", "", "é ü 😀", "tab\there", '\\"', "}"]


@pytest.mark.parametrize(
    ("sql", "params", "sent"),
    [
        ("select %s", [1], "select %s"),  # no list: unchanged
        ("select cast(%s as text[])", [["a", None]], "select cast(%b as text[])"),
        ("select cast(%s as text[])", [[]], "select cast(%b as text[])"),
        (
            "select cast(%s as bigint[]), cast(%s as text[])",
            [[1, 2], ["x"]],
            "select cast(%s as bigint[]), cast(%b as text[])",
        ),  # numbers keep psycopg's usual format
        ("select cast(%s as text[]), %s", [["x", 3], "y"], "select cast(%s as text[]), %s"),  # mixed: usual
        ("select %s", [["x"], ["y"]], "select %s"),  # not one placeholder per parameter: left alone
    ],
)
def test_which_placeholders_ask_for_binary(sql: str, params: list[object], sent: str) -> None:
    assert binary_text_lists(sql, params) == sent


def test_a_batch_of_tricky_texts_reads_back_the_same(postgres_url: str) -> None:
    storage = PostgresStorage(postgres_url)
    referee = Referee(storage, ready_registry(), now=lambda: START, images=False)
    rooms = ["discord:1", "discord:2"]
    try:
        for room in rooms:
            referee.handle(Incoming(room, "u:ref", "Ref", "/duplicate 2", admin=True))
        games = [active_game(storage, room).id for room in rooms]
        writes = [
            PlayWrite(
                game_id=game,
                events=[({"kind": "note", "texts": TRICKY, "n": n}, f"u:{TRICKY[n]}")],
                after=storage.read_stamp(game)[0],
                at=START,
                seat=(f"u:{TRICKY[0]}{n}", TRICKY[n]),
                replies=[Reply(text, to_user=f"u:{TRICKY[n]}", channel=rooms[n]) for text in TRICKY],
                dues=[START] * len(TRICKY),
                created=START,
            )
            for n, game in enumerate(games)
        ]
        numbered = storage.record_plays(writes)
        assert [len(ids) for ids in numbered] == [len(TRICKY)] * len(rooms)
        for n, game in enumerate(games):
            note = [e for e in storage.events(game) if e.data["kind"] == "note"]
            assert [(e.data["texts"], e.data["n"], e.author) for e in note] == [(TRICKY, n, f"u:{TRICKY[n]}")]
            assert (f"u:{TRICKY[0]}{n}", TRICKY[n]) in storage.players(game)
        with psycopg.connect(postgres_url) as conn:  # the replies as stored, in their order
            for n, ids in enumerate(numbered):
                rows = conn.execute("select id, reply from outbox where id = any(%s) order by id", [ids]).fetchall()
                assert [reply_from_json(text, i).text for i, text in rows] == TRICKY
                assert {reply_from_json(text, i).to_user for i, text in rows} == {f"u:{TRICKY[n]}"}
    finally:
        referee.clock.shutdown()
        storage.close()
