"""What the Bot API accepts in the bot's texts and what it attaches to users' texts: the length limits
(in UTF-16 code units), the HTML and MarkdownV2 markup checked like Telegram checks it, the inline keyboard
rules, and the ``bot_command`` and ``mention`` entities of an incoming text.
"""

from __future__ import annotations

import html
import re
from typing import Any

from .telegram_objects import _bad

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024

_COMMAND_RE = re.compile(r"(?<![^\s])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])")
_MENTION_RE = re.compile(r"(?<![^\s])@[A-Za-z0-9_]{4,32}(?![A-Za-z0-9_])")
_HTML_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
    "a", "code", "pre", "blockquote", "tg-emoji", "tg-time",
}  # fmt: skip
_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: Telegram's unit for entity offsets and lengths."""
    return len(text.encode("utf-16-le")) // 2


def command_entities(text: str, *, mentions: bool = True) -> list[dict[str, Any]]:
    """Entities Telegram attaches to an incoming text: ``bot_command`` (and ``mention``)."""
    entities: list[dict[str, Any]] = []
    for match in _COMMAND_RE.finditer(text):
        entities.append(
            {"type": "bot_command", "offset": utf16_len(text[: match.start()]), "length": utf16_len(match.group())}
        )
    if mentions:
        for match in _MENTION_RE.finditer(text):
            entities.append(
                {"type": "mention", "offset": utf16_len(text[: match.start()]), "length": utf16_len(match.group())}
            )
    entities.sort(key=lambda e: e["offset"])
    return entities


# InlineKeyboardButton: "You must use exactly one of the optional fields"; callback_data "1-64 bytes";
# url "HTTP or tg:// URL". The Bot API answers a wrong button with these descriptions.
_BUTTON_FIELDS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
CALLBACK_DATA_BYTES = 64


def check_inline_keyboard(markup: Any) -> None:
    """An InlineKeyboardMarkup as the Bot API accepts it (``inline_keyboard``: an array of button rows)."""
    if not isinstance(markup, dict) or "inline_keyboard" not in markup:
        return  # another kind of markup (a reply keyboard, its removal): not modelled
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays')
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not button.get("text"):
                raise _bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
            used = [name for name in _BUTTON_FIELDS if name in button]
            if len(used) != 1:
                raise _bad("can't parse inline keyboard button: exactly one of the optional fields must be used")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode("utf-8")) <= CALLBACK_DATA_BYTES:
                raise _bad("BUTTON_DATA_INVALID")
            url = button.get("url")
            if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
                raise _bad("BUTTON_URL_INVALID")


def callback_data_of(message: dict[str, Any]) -> set[str]:
    """The callback data of a message's inline buttons (what a user can press under it)."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
    return {str(b["callback_data"]) for row in rows for b in row if "callback_data" in b}


def _plain_text(text: str, parse_mode: str | None) -> str:
    """The text Telegram would display (markup removed), validating the markup like Telegram."""
    if not parse_mode:
        return text
    mode = parse_mode.lower()
    if mode == "html":
        return _check_html(text)
    if mode == "markdownv2":
        return _check_markdown_v2(text)
    if mode == "markdown":
        return re.sub(r"[*_`\[\]]", "", text)
    raise _bad(f"unsupported parse_mode {parse_mode!r}")


def _check_html(text: str) -> str:
    out = []
    stack: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "<":
            match = re.match(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>", text[index:])
            if not match:
                raise _bad(
                    f'can\'t parse entities: Unsupported start tag "" at byte offset {len(text[:index].encode())}'
                )
            closing, tag = match.group(1), match.group(2).lower()
            if tag not in _HTML_TAGS:
                raise _bad(
                    f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset {len(text[:index].encode())}'
                )
            if closing:
                if not stack or stack[-1] != tag:
                    raise _bad(
                        f"can't parse entities: Unmatched end tag at byte offset {len(text[:index].encode())}, "
                        f'expected "</{stack[-1] if stack else ""}>", found "</{tag}>"'
                    )
                stack.pop()
            else:
                stack.append(tag)
            index += match.end()
        elif char == "&":
            match = re.match(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);", text[index:])
            if match:
                out.append(html.unescape(match.group()))
                index += match.end()
            else:
                out.append(char)
                index += 1
        elif char == ">":
            # Telegram accepts a bare '>' but not a bare '<'
            out.append(char)
            index += 1
        else:
            out.append(char)
            index += 1
    if stack:
        raise _bad(f"can't parse entities: Can't find end tag corresponding to start tag \"{stack[-1]}\"")
    return "".join(out)


def _check_markdown_v2(text: str) -> str:
    """Approximate MarkdownV2 validation: reserved characters must be escaped outside code."""
    out = []
    index = 0
    in_code = False
    in_pre = False
    in_link_url = False
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            out.append(text[index + 1])
            index += 2
            continue
        if text.startswith("```", index):
            in_pre = not in_pre
            index += 3
            continue
        if in_pre:
            out.append(char)
            index += 1
            continue
        if char == "`":
            in_code = not in_code
            index += 1
            continue
        if in_code:
            out.append(char)
            index += 1
            continue
        if in_link_url:
            if char == ")":
                in_link_url = False
            index += 1
            continue
        if char == "]" and text.startswith("](", index):
            in_link_url = True
            index += 2
            continue
        if char in "*_~|[" or (char == ">" and (index == 0 or text[index - 1] == "\n")):
            index += 1  # formatting markers; balance is not checked
            continue
        if char in _MDV2_RESERVED:
            raise _bad(
                f"can't parse entities: Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )
        out.append(char)
        index += 1
    return "".join(out)
