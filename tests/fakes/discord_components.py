"""Message components and modals as the fake Discord checks them, each rule next to the section of Discord's
developer documentation (Components > Component Reference; Interactions > Receiving and Responding) it
follows, and the interaction payloads a press (type 3, MESSAGE_COMPONENT) and a modal's submission (type 5,
MODAL_SUBMIT) carry.

* A message's ``components``: at most 5 action rows (type 1); a row holds up to 5 buttons (type 2) or one
  select menu (type 3, string select); a button's label is at most 80 characters; a non-link button has a
  ``custom_id`` (1-100 characters), a link button (style 5) a ``url`` and no ``custom_id``; custom ids are
  unique within the message; a string select has 1-25 options (label and value 1-100 characters),
  ``min_values`` 0-25, ``max_values`` 1-25, a placeholder of at most 150 characters.
* A modal (interaction callback type 9): ``custom_id`` 1-100 characters, a title of 1-45 characters, 1-5
  components, each an action row holding one text input (type 4) or a label (type 18) holding one; a text
  input's ``custom_id`` 1-100 characters, style 1 (short) or 2 (paragraph), ``min_length`` 0-4000,
  ``max_length`` 1-4000, a label of at most 45 characters.
"""

from __future__ import annotations

from typing import Any

from .discord_rules import form_error

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 1, 2, 3, 4, 18
LINK_STYLE = 5
MESSAGE_COMPONENT, MODAL_SUBMIT = 3, 5  # interaction types
MODAL = 9  # interaction callback type


def _length(value: Any, low: int, high: int, path: list[str]) -> None:
    if value is None:
        value = ""
    if not low <= len(str(value)) <= high:
        code = "BASE_TYPE_MIN_LENGTH" if len(str(value)) < low else "BASE_TYPE_MAX_LENGTH"
        raise form_error(path, code, f"Must be between {low} and {high} in length.")


def _button(button: dict[str, Any], path: list[str], ids: set[str]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        raise form_error([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    if "label" in button:
        _length(button["label"], 0, 80, [*path, "label"])
    if style == LINK_STYLE:
        if "custom_id" in button or not button.get("url"):
            raise form_error(path, "COMPONENT_LAYOUT_INVALID", "A link button has a url and no custom_id.")
        return
    _custom_id(button.get("custom_id"), [*path, "custom_id"], ids)


def _custom_id(value: Any, path: list[str], ids: set[str]) -> None:
    _length(value, 1, 100, path)
    if value in ids:
        raise form_error(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    ids.add(str(value))


def _select(select: dict[str, Any], path: list[str], ids: set[str]) -> None:
    _custom_id(select.get("custom_id"), [*path, "custom_id"], ids)
    options = select.get("options") or []
    if not 1 <= len(options) <= 25:
        raise form_error([*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
    for number, option in enumerate(options):
        _length(option.get("label"), 1, 100, [*path, "options", str(number), "label"])
        _length(option.get("value"), 1, 100, [*path, "options", str(number), "value"])
    if not 0 <= int(select.get("min_values", 1)) <= 25:
        raise form_error([*path, "min_values"], "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
    if not 1 <= int(select.get("max_values", 1)) <= 25:
        raise form_error([*path, "max_values"], "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
    if "placeholder" in select:
        _length(select["placeholder"], 0, 150, [*path, "placeholder"])


def validate_components(components: Any, path: tuple[str, ...] = ()) -> None:
    """A message's ``components`` as Discord accepts them (see the module's rules)."""
    if not components:
        return
    where = [*path, "components"]
    if len(components) > 5:
        raise form_error(where, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    ids: set[str] = set()
    for index, row in enumerate(components):
        here = [*where, str(index)]
        if row.get("type") != ACTION_ROW:
            raise form_error([*here, "type"], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
        items = row.get("components") or []
        kinds = {item.get("type") for item in items}
        if (
            not items
            or len(items) > 5
            or (STRING_SELECT in kinds and len(items) > 1)
            or not kinds <= {BUTTON, STRING_SELECT}
        ):
            raise form_error(
                [*here, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for number, item in enumerate(items):
            check = _button if item["type"] == BUTTON else _select
            check(item, [*here, "components", str(number)], ids)


def _text_input(item: dict[str, Any], path: list[str], ids: set[str]) -> None:
    if item.get("type") != TEXT_INPUT:
        raise form_error([*path, "type"], "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (4,).')
    _custom_id(item.get("custom_id"), [*path, "custom_id"], ids)
    if item.get("style") not in (1, 2):
        raise form_error([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if "label" in item:
        _length(item["label"], 1, 45, [*path, "label"])
    if not 0 <= int(item.get("min_length", 0)) <= 4000:
        raise form_error([*path, "min_length"], "NUMBER_TYPE_MAX", "int value should be between 0 and 4000.")
    if not 1 <= int(item.get("max_length", 4000)) <= 4000:
        raise form_error([*path, "max_length"], "NUMBER_TYPE_MAX", "int value should be between 1 and 4000.")


def text_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """A modal's text inputs, in order (in action rows or in labels)."""
    found: list[dict[str, Any]] = []
    for row in modal.get("components") or []:
        if row.get("type") == LABEL:
            found.append(row.get("component") or {})
        else:
            found += row.get("components") or []
    return found


def validate_modal(modal: dict[str, Any]) -> None:
    """A modal callback's ``data`` as Discord accepts it (see the module's rules)."""
    _length(modal.get("custom_id"), 1, 100, ["data", "custom_id"])
    _length(modal.get("title"), 1, 45, ["data", "title"])
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= 5:
        raise form_error(["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    ids: set[str] = set()
    for index, row in enumerate(rows):
        here = ["data", "components", str(index)]
        items = [row.get("component") or {}] if row.get("type") == LABEL else row.get("components") or []
        if row.get("type") not in (ACTION_ROW, LABEL) or len(items) != 1:
            raise form_error(
                here, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width"
            )
        _text_input(items[0], [*here, "components", "0"], ids)


def find_component(message: dict[str, Any], custom_id: str) -> dict[str, Any] | None:
    """The button or select of ``message`` whose ``custom_id`` it is."""
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            if item.get("custom_id") == custom_id:
                found: dict[str, Any] = item
                return found
    return None


def press_data(message: dict[str, Any], custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """What a press on ``message``'s component carries (MESSAGE_COMPONENT's ``data``), as a client sends it:
    only an enabled component the message shows; a select's values among its options, as many as it allows."""
    component = find_component(message, custom_id)
    if component is None or component.get("disabled"):
        raise ValueError(f"message {message.get('id')} shows no enabled component {custom_id!r}")
    if component["type"] == BUTTON:
        if values is not None:
            raise ValueError("a button carries no values")
        return {"custom_id": custom_id, "component_type": BUTTON}
    chosen = list(values or [])
    offered = {option["value"] for option in component.get("options") or []}
    low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
    if not set(chosen) <= offered or not low <= len(chosen) <= high:
        raise ValueError(f"{chosen!r} is not a choice of select {custom_id!r}")
    return {"custom_id": custom_id, "component_type": STRING_SELECT, "values": chosen}


def submit_data(modal: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """What submitting ``modal`` carries (MODAL_SUBMIT's ``data``), as a client sends it: every required
    input filled, each answer within its lengths (the client refuses to send otherwise)."""
    rows = []
    for item in text_inputs(modal):
        value = answers.get(item["custom_id"], "")
        required = item.get("required", True)
        low, high = int(item.get("min_length", 0)), int(item.get("max_length", 4000))
        if (required and not value) or (value and not low <= len(value) <= high):
            raise ValueError(f"the client does not send {item['custom_id']}={value!r} (length {low}-{high})")
        rows.append(
            {"type": ACTION_ROW, "components": [{"type": TEXT_INPUT, "custom_id": item["custom_id"], "value": value}]}
        )
    return {"custom_id": modal["custom_id"], "components": rows}
