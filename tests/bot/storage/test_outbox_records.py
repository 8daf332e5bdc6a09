"""A reply as the outbox stores it: every field read back as written, the defaults left out of the JSON, and the
stored text still found by the outbox's LIKE patterns (live lines, replies carrying bytes)."""

from __future__ import annotations

import json
from dataclasses import fields
from fnmatch import fnmatchcase

from hypothesis import given
from hypothesis import strategies as st

from bot.actions import Action, ActionStyle
from bot.chat import Reply
from bot.storage.outbox_records import reply_from_json, reply_to_json
from bot.storage.sql.common import CARRIES_BYTES, LIVE_JSON

texts = st.text(max_size=40)
maybe_text = st.none() | texts
maybe_time = st.none() | st.floats(min_value=0, max_value=4e9, allow_nan=False)
actions = st.lists(
    st.builds(Action, st.text(min_size=1, max_size=10), st.just("/aide"), st.sampled_from(list(ActionStyle))),
    max_size=3,
).map(tuple)
replies = st.builds(
    Reply,
    text=texts,
    image=st.none() | st.binary(max_size=20),
    image_name=st.sampled_from(["board.png", "results.png"]),
    to_user=maybe_text,
    channel=maybe_text,
    edit_key=maybe_text,
    deadline=maybe_time,
    error=st.booleans(),
    expires=maybe_time,
    document=st.none() | st.binary(max_size=20),
    document_name=st.sampled_from(["", "partie.csv"]),
    live=st.booleans(),
    actions=actions,
    answers=maybe_text,
)


def matches(pattern: str, text: str) -> bool:
    """SQL's LIKE (``%`` any run, no ``_`` in the patterns read here), as the outbox's statements apply it."""
    return fnmatchcase(text, pattern.replace("%", "*"))


@given(replies, st.integers(min_value=1, max_value=2**40))
def test_every_field_is_read_back_as_written_under_its_number(reply: Reply, number: int) -> None:
    stored = reply_to_json(reply)
    assert reply_from_json(stored, number) == reply.numbered(number)
    kept = json.loads(stored)
    for field in fields(Reply):
        if field.name in ("text", "outbox_id"):
            continue
        value = getattr(reply, field.name)
        assert (field.name in kept) == (value != field.default), field.name  # a default is left out
    assert matches(LIVE_JSON, stored) == reply.live
    assert matches(CARRIES_BYTES[0], stored) == (reply.image is not None)
    assert matches(CARRIES_BYTES[1], stored) == (reply.document is not None)


def test_numbered_is_a_copy_under_its_number_and_the_original_is_left_as_it_was() -> None:
    reply = Reply("Reçu", to_user="u:1", channel="discord:1", live=True)
    numbered = reply.numbered(41)
    assert numbered.outbox_id == 41
    assert reply.outbox_id is None
    assert numbered == Reply("Reçu", to_user="u:1", channel="discord:1", live=True, outbox_id=41)
    assert numbered.numbered(None) == reply


def test_a_plain_acknowledgement_is_stored_as_its_text_and_where_it_goes() -> None:
    stored = reply_to_json(Reply("Reçu pour le coup 1", to_user="u:1", channel="discord:1"))
    assert json.loads(stored) == {"text": "Reçu pour le coup 1", "to_user": "u:1", "channel": "discord:1"}
