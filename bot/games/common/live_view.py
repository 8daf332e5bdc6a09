"""``/view`` (``/vue``): the link to the room's live web page (``bot.web``), ``/view stop`` revokes it;
``/view simultane [CODE]`` gives a simultané's organiser the page of its overall ranking.

A room has one link, which follows it from game to game (the page shows its running game, else its last
one): the projector's page keeps working when the room starts its next game. ``/view`` gives it again."""

from __future__ import annotations

import secrets

from ... import buttons
from ...commands.context import Context, UserError
from ...commands.options import Form, Suggest, Where, choice, text
from ...commands.registry import Access, Section, command
from ...messages import keyword_form, keywords

TOKEN_BYTES = 24  # 32 characters of ``secrets.token_urlsafe``: unguessable, short enough for a chat line


def view_link(base: str, token: str) -> str:
    """The page's address under the server's public address."""
    return f"{base.rstrip('/')}/v/{token}"


@command(
    "view",
    section=Section.VIEWS,
    rank=130,
    access=Access.REFEREE,
    form=Form((choice("what", "stop", "simultane"), text("code", suggest=Suggest.CODES)), where=Where.GROUP),
)
def cmd_view(ctx: Context) -> None:
    words = ctx.args.split()
    storage = ctx.storage
    if words and keyword_form(words[0]) in keywords("keywords_view_simultane"):
        simultane_view(ctx, words[1:])
        return
    record = storage.active_game(ctx.message.channel)
    ctx.require_control(record)  # also with no game running: a channel admin only
    if words and keyword_form(words[0]) in keywords("keywords_view_stop"):
        revoked = storage.revoke_views(ctx.message.channel, ctx.services.now())
        ctx.reply(ctx.say("view_revoked" if revoked else "view_none_revoked", count=len(revoked)))
        return
    if words:
        raise UserError("view_bad_word", word=words[0][:40])
    base = ctx.services.web_url
    if base is None:
        raise UserError("view_off")
    shown = record or storage.room_game(ctx.message.channel)  # no game running: the room's last one
    if shown is None:
        raise UserError("view_no_game")
    known = storage.channel_views(ctx.message.channel)  # links of earlier games follow the room too
    token = known[0].token if known else secrets.token_urlsafe(TOKEN_BYTES)
    if not known:
        storage.create_view(token, ctx.message.channel, shown.id, ctx.services.now())
    stop = buttons.dangerous(ctx.lang, "view_stop", "view", ctx.say("keywords_view_stop").split()[0])
    ctx.reply(ctx.say("view_link", url=view_link(base, token)), actions=stop)


def simultane_view(ctx: Context, words: list[str]) -> None:
    """The link to the page of a simultané's overall ranking: the one ``CODE`` names, else the last one this
    room organised; for its organiser or an admin of its room, asked in that room."""
    storage = ctx.storage
    channel = ctx.message.channel
    if len(words) > 1:
        raise UserError("usage", usage=ctx.spec.usage(ctx.lang))
    if words:
        found = storage.simultane(words[0].strip().upper())
        if found is None:
            raise UserError("simultane_unknown", code=words[0][:12])
    else:
        mine = [s for s in storage.channel_simultanes(channel) if s.channel == channel]
        if not mine:
            raise UserError("simultane_none")
        found = mine[-1]
    if found.channel != channel or not (ctx.message.admin or ctx.message.user == found.organiser):
        raise UserError("view_simultane_not_organiser", code=found.code)
    base = ctx.services.web_url
    if base is None:
        raise UserError("view_off")
    known = [v for v in storage.simultane_views(channel) if v.simultane == found.id]
    token = known[0].token if known else secrets.token_urlsafe(TOKEN_BYTES)
    if not known:
        storage.create_simultane_view(token, channel, found.id, ctx.services.now())
    ctx.reply(ctx.say("view_simultane_link", code=found.code, url=view_link(base, token)))
