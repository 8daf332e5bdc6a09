"""Rules the fake Discord enforces, each next to the section of Discord's developer documentation
it follows (https://discord.com/developers/docs/...).

* API errors: the JSON error body and the ``Invalid Form Body`` (50035) shape.
* Application command registration: names, localisations, descriptions, sizes.
* Where a registered command may be used (scope, ``contexts``, ``integration_types``).
* Permissions: a member's permissions in a channel, with overwrites.
* Sharding: which shard owns a guild, the shards an IDENTIFY may ask for.
"""

from __future__ import annotations

import unicodedata
from typing import Any

# --- errors ---------------------------------------------------------------------------------------
# Topics > Opcodes and Status Codes > JSON: an error body is {"code", "message"} and, for a
# form error (50035), "errors" nested by the path of the offending field, ending in "_errors".

MISSING_ACCESS = 50001  # JSON Error Codes: "Missing Access"
CANNOT_DM = 50007  # "Cannot send messages to this user"
MISSING_PERMISSIONS = 50013  # "You lack permissions to perform that action"
INVALID_WEBHOOK_TOKEN = 50027  # "Invalid Webhook Token" (an expired interaction token, with HTTP 401)
INVALID_FORM_BODY = 50035
UNKNOWN_INTERACTION = 10062


class ApiError(Exception):
    """An error answer of the fake: HTTP ``status`` and Discord's JSON ``body``."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body


def api_error(status: int, code: int, message: str) -> ApiError:
    return ApiError(status, {"message": message, "code": code})


def invalid_form(path: list[str], code: str, message: str) -> dict[str, Any]:
    errors: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {key: errors}
    return {"code": INVALID_FORM_BODY, "errors": errors, "message": "Invalid Form Body"}


def form_error(path: list[str], code: str, message: str) -> ApiError:
    return ApiError(400, invalid_form(path, code, message))


# --- locales --------------------------------------------------------------------------------------
# Reference > Locales: the only keys accepted in name_localizations / description_localizations.
LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
        "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
        "ja", "zh-TW", "ko",
    }
)  # fmt: skip

# --- application commands -------------------------------------------------------------------------
# Interactions > Application Commands > Application Command Object.

CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING_OPTION = 3
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2  # Interaction Context Types
GUILD_INSTALL, USER_INSTALL = 0, 1  # Application > Application Integration Types

NAME_MAX = 32
DESCRIPTION_MIN, DESCRIPTION_MAX = 1, 100
OPTIONS_MAX = 25
# Application Command Option Structure: "choices ... max 25"; Application Command Option Choice Structure: a
# name of 1-100 characters, its name_localizations "keys in available locales" (each value 1-100 characters),
# a string value of up to 100 characters. An autocomplete answer's choices are the same (max 25).
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100
COMMAND_SIZE_MAX = 8000  # Slash Commands: combined name, description and value properties


def _name_character_ok(char: str) -> bool:
    """Application Command Naming: ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``."""
    if char in "-_'":
        return True
    if unicodedata.category(char)[0] in ("L", "N"):
        return True
    code = ord(char)
    return 0x0900 <= code <= 0x097F or 0x0E00 <= code <= 0x0E7F  # Devanagari, Thai (marks included)


def chat_input_name_error(name: Any) -> str | None:
    """Why ``name`` is not a valid CHAT_INPUT command or option name (None if it is).

    Application Command Naming: 1-32 characters of the regex above, and "if there is a lowercase
    variant of any letters used, you must use those".
    """
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return "length"
    if not all(_name_character_ok(c) for c in name):
        return "characters"
    if any(c != c.lower() for c in name):
        return "uppercase"
    return None


def _check_name(value: Any, path: list[str]) -> None:
    if chat_input_name_error(value) is not None:
        raise form_error(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_description(value: Any, path: list[str]) -> None:
    # Application Command Structure / Option Structure: description, 1-100 characters.
    if not isinstance(value, str) or not DESCRIPTION_MIN <= len(value) <= DESCRIPTION_MAX:
        raise form_error(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _check_localizations(values: Any, path: list[str], check: Any) -> None:
    """``*_localizations``: "dictionary with keys in available locales", values as the field."""
    if values is None:
        return
    if not isinstance(values, dict):
        raise form_error(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
    for locale, value in values.items():
        if locale not in LOCALES:
            raise form_error([*path, locale], "ENUM_TYPE_COERCE", f'Value "{locale}" is not a valid enum value.')
        check(value, [*path, locale])


def _longest(default: Any, localizations: Any) -> int:
    """Slash Commands: "only the longest localization for each field (including the default value)
    is counted towards the size limit"."""
    values = [default] + list((localizations or {}).values())
    return max((len(v) for v in values if isinstance(v, str)), default=0)


def _check_choices(choices: Any, path: list[str]) -> int:
    if choices is None:
        return 0
    if len(choices) > CHOICES_MAX:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
    size = 0
    for index, choice in enumerate(choices):
        where = [*path, str(index)]
        name = choice.get("name")
        # Option Choice Structure: name 1-100 characters; a string value up to 100 characters.
        if not isinstance(name, str) or not 1 <= len(name) <= CHOICE_NAME_MAX:
            raise form_error([*where, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")

        def check_choice_name(value: Any, at: list[str]) -> None:
            if not isinstance(value, str) or not 1 <= len(value) <= CHOICE_NAME_MAX:
                raise form_error(at, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")

        _check_localizations(choice.get("name_localizations"), [*where, "name_localizations"], check_choice_name)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_STRING_VALUE_MAX:
            raise form_error([*where, "value"], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        size += _longest(name, choice.get("name_localizations")) + len(str(value))
    return size


def check_autocomplete_choices(choices: Any) -> None:
    """An autocomplete answer's ``choices`` (Interaction Response Structure > Autocomplete: "autocomplete choices
    (max of 25 choices)", each an Application Command Option Choice)."""
    _check_choices(choices, ["data", "choices"])


def _check_options(options: Any, path: list[str], depth: int) -> int:
    """Option Structure; returns the options' share of the command size."""
    if options is None:
        return 0
    if len(options) > OPTIONS_MAX:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {OPTIONS_MAX} or fewer in length.")
    size = 0
    seen: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        where = [*path, str(index)]
        kind = int(option.get("type", 0))
        name = option.get("name")
        _check_name(name, [*where, "name"])
        _check_localizations(option.get("name_localizations"), [*where, "name_localizations"], _check_name)
        _check_description(option.get("description"), [*where, "description"])
        _check_localizations(
            option.get("description_localizations"), [*where, "description_localizations"], _check_description
        )
        # Option Structure: "name must be unique within an array of application command options".
        if name in seen:
            raise form_error(
                [*where, "name"], "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option name already exists"
            )
        seen.add(name)
        # "Required options must be listed before optional options".
        if kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required") and optional_seen:
                raise form_error(
                    [*where, "required"],
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            optional_seen = optional_seen or not option.get("required")
        # "autocomplete may not be set to true if choices are present".
        if option.get("autocomplete") and option.get("choices"):
            raise form_error(
                [*where, "autocomplete"], "AUTOCOMPLETE_CHOICES_INVALID", "Autocomplete cannot be used with choices"
            )
        check_option_constraints(option, where)
        size += _longest(name, option.get("name_localizations"))
        size += _longest(option.get("description"), option.get("description_localizations"))
        size += _check_choices(option.get("choices"), [*where, "choices"])
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            # Subcommands and Subcommand Groups: one level of group, then subcommands.
            if depth >= 2 or (kind == SUB_COMMAND_GROUP and depth >= 1):
                raise form_error([*where, "type"], "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Invalid nesting")
            size += _check_options(option.get("options"), [*where, "options"], depth + 1)
    return size


def validate_command(command: dict[str, Any], index: int = 0) -> None:
    """Raise :class:`ApiError` (400, 50035) for a registration Discord refuses.

    Application Command Object (naming, structure, option structure, choices), Reference >
    Locales, and the per-command size limit of Slash Commands.
    """
    where = [str(index)]
    kind = int(command.get("type", CHAT_INPUT))
    name = command.get("name")
    if kind == CHAT_INPUT:
        _check_name(name, [*where, "name"])
        _check_localizations(command.get("name_localizations"), [*where, "name_localizations"], _check_name)
        _check_description(command.get("description"), [*where, "description"])
        _check_localizations(
            command.get("description_localizations"), [*where, "description_localizations"], _check_description
        )
        size = _longest(name, command.get("name_localizations"))
        size += _longest(command.get("description"), command.get("description_localizations"))
        size += _check_options(command.get("options"), [*where, "options"], 0)
        if size > COMMAND_SIZE_MAX:
            raise form_error(
                where, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_SIZE_MAX})"
            )
    else:  # USER and MESSAGE commands: mixed case and spaces allowed, 1-32 characters
        if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
            raise form_error([*where, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        if command.get("options"):
            raise form_error([*where, "options"], "APPLICATION_COMMAND_OPTIONS_INVALID", "Options not allowed")
    for field, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
        values = command.get(field)
        if values is not None and (not isinstance(values, list) or not set(values) <= allowed):
            raise form_error([*where, field], "ENUM_TYPE_COERCE", f"Invalid {field}")


# Application Command Option Type: the types an option value may have, and which take choices, ranges,
# autocomplete. "min_value"/"max_value": "If the option is an INTEGER or NUMBER type"; "choices" and
# "autocomplete": "If you specify choices [or autocomplete] for an option, they are the only valid values
# for a user to pick" / "may not be set to true if choices are present", on STRING, INTEGER and NUMBER only.
INTEGER_OPTION, BOOLEAN_OPTION, USER_OPTION, NUMBER_OPTION = 4, 5, 6, 10
RANGED_TYPES = (INTEGER_OPTION, NUMBER_OPTION)
CHOICE_TYPES = (STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION)
INTEGER_MIN, INTEGER_MAX = -(2**53), 2**53  # "Any integer between -2^53 and 2^53"


def check_option_constraints(option: dict[str, Any], where: list[str]) -> None:
    """What an option may declare for its type (Application Command Option Structure)."""
    kind = int(option.get("type", 0))
    if ("min_value" in option or "max_value" in option) and kind not in RANGED_TYPES:
        raise form_error(where, "APPLICATION_COMMAND_OPTION_INVALID", "min_value/max_value on a non-number")
    if (option.get("choices") or option.get("autocomplete")) and kind not in CHOICE_TYPES:
        raise form_error(where, "APPLICATION_COMMAND_OPTION_INVALID", "choices/autocomplete on this type")
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        raise form_error(where, "APPLICATION_COMMAND_OPTION_INVALID", "min_value above max_value")


def option_value_refused(option: dict[str, Any], value: Any) -> str | None:
    """Why Discord's client would not send ``value`` for this registered option (None: it would).

    The client only sends a value of the option's type, one of its ``choices`` when it has some, and a
    number within ``min_value``/``max_value`` (Application Command Option Structure)."""
    kind = int(option.get("type", 0))
    if kind == INTEGER_OPTION and (isinstance(value, bool) or not isinstance(value, int)):
        return f"{value!r} is not a whole number"
    if kind == INTEGER_OPTION and not INTEGER_MIN <= value <= INTEGER_MAX:
        return f"{value} is past the integer range"
    if kind == BOOLEAN_OPTION and not isinstance(value, bool):
        return f"{value!r} is not true or false"
    if kind in RANGED_TYPES:
        low, high = option.get("min_value"), option.get("max_value")
        if low is not None and value < low:
            return f"{value} is below min_value {low}"
        if high is not None and value > high:
            return f"{value} is above max_value {high}"
    choices = option.get("choices")
    if choices and value not in [c.get("value") for c in choices]:
        return f"{value!r} is not one of the choices"
    return None


class CommandUnavailable(Exception):
    """The Discord client would not offer ``/name`` here: the test tried a command that a user
    could not run (not registered in this scope, or excluded by its contexts)."""

    def __init__(self, name: str, where: str, reason: str) -> None:
        super().__init__(f"/{name} cannot be used in {where}: {reason}")
        self.name = name
        self.where = where
        self.reason = reason


def command_contexts(command: dict[str, Any]) -> set[int]:
    """Interaction contexts where a global command may be used.

    Application Command Structure: ``contexts`` decides when set (``dm_permission`` is then
    ignored); left null, a command is usable in guilds and in DMs with the bot unless the
    deprecated ``dm_permission`` is false (discord/discord-api-docs#6744).
    """
    contexts = command.get("contexts")
    if contexts is not None:
        return set(contexts)
    return {CONTEXT_GUILD} if command.get("dm_permission") is False else {CONTEXT_GUILD, CONTEXT_BOT_DM}


def command_integration_types(command: dict[str, Any]) -> set[int]:
    """``integration_types``: "Defaults to your app's configured contexts" (guild install here)."""
    return set(command.get("integration_types") or [GUILD_INSTALL])


# --- permissions ------------------------------------------------------------------------------------
# Topics > Permissions > Bitwise Permission Flags.
ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
ALL_PERMISSIONS = (1 << 50) - 1


def channel_permissions(
    base: int, overwrites: list[dict[str, Any]], *, everyone_id: int, role_ids: list[str], user_id: int
) -> int:
    """Topics > Permissions > Permission Overwrites: the @everyone overwrite, then the roles'
    overwrites together (denies, then allows), then the member's own; ADMINISTRATOR overrides all."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    value = base
    by_id = {str(o["id"]): o for o in overwrites}
    everyone = by_id.get(str(everyone_id))
    if everyone is not None:
        value &= ~int(everyone.get("deny", 0))
        value |= int(everyone.get("allow", 0))
    allow = deny = 0
    for overwrite in overwrites:
        if int(overwrite.get("type", 0)) == 0 and str(overwrite["id"]) in role_ids:
            allow |= int(overwrite.get("allow", 0))
            deny |= int(overwrite.get("deny", 0))
    value = (value & ~deny) | allow
    member = next((o for o in overwrites if int(o.get("type", 0)) == 1 and str(o["id"]) == str(user_id)), None)
    if member is not None:
        value &= ~int(member.get("deny", 0))
        value |= int(member.get("allow", 0))
    return value


# --- sharding ---------------------------------------------------------------------------------------
# Topics > Gateway > Sharding: a session identifies as shard [shard_id, num_shards]; a guild belongs to
# shard (guild_id >> 22) % num_shards, and DMs go to shard 0 only. A session may hold at most 2500
# guilds; Discord's recommended shard count (GET /gateway/bot) is about one shard per 1000 guilds.

INVALID_SHARD = 4010  # Gateway Close Event Codes: "You sent us an invalid shard when identifying."
SHARDING_REQUIRED = 4011  # "The session would have handled too many guilds - you are required to shard"
GUILDS_PER_SHARD_MAX = 2500
GUILDS_PER_RECOMMENDED_SHARD = 1000


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events among ``shard_count`` shards."""
    return (guild_id >> 22) % shard_count


def identify_shard(value: Any) -> tuple[int, int] | None:
    """An IDENTIFY's ``shard`` field as (shard_id, num_shards); None when it is not a valid pair
    (two integers, ``0 <= shard_id < num_shards``)."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    shard_id, count = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count


def recommended_shards(guild_count: int) -> int:
    """GET /gateway/bot's ``shards``: the number of shards Discord recommends for a bot."""
    return max(1, -(-guild_count // GUILDS_PER_RECOMMENDED_SHARD))
