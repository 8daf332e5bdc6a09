"""``/view`` (``/vue``): the link to the room's live web page (``bot.web``), ``/view stop`` revokes it."""

from __future__ import annotations

import secrets

from ..messages import keyword_form, keywords
from .context import Context, UserError
from .registry import Access, Section, command

TOKEN_BYTES = 24  # 32 characters of ``secrets.token_urlsafe``: unguessable, short enough for a chat line


def view_link(base: str, token: str) -> str:
    """The page's address under the server's public address."""
    return f"{base.rstrip('/')}/v/{token}"


@command("view", section=Section.VIEWS, access=Access.REFEREE)
def cmd_view(ctx: Context) -> None:
    words = ctx.args.split()
    storage = ctx.storage
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
    if record is None:
        raise UserError("view_no_game")
    known = [v for v in storage.channel_views(ctx.message.channel) if v.game == record.id]
    token = known[0].token if known else secrets.token_urlsafe(TOKEN_BYTES)
    if not known:
        storage.create_view(token, ctx.message.channel, record.id, ctx.services.now())
    ctx.reply(ctx.say("view_link", url=view_link(base, token)))
