"""Checking ``tools/call`` arguments against a tool's ``inputSchema``.

The schemas in :mod:`skillc_mcp._catalog` use a small part of JSON Schema (``type`` string,
integer, boolean or array, ``enum``, ``minimum``, ``maximum``, ``minLength``, ``maxLength``,
``items``, ``required``, ``additionalProperties: false``, ``default``); this module checks
exactly that part, so a call the schema rejects is rejected here too, with a message an agent
can act on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ArgumentError(ValueError):
    """Arguments that do not fit the tool's input schema; the message says why."""


_TYPE_NAMES = {"string": "a string", "integer": "an integer", "boolean": "a boolean"}


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _check_value(name: str, value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` checked against ``schema`` (integral floats become ints); or ArgumentError."""
    if "enum" in schema:
        if value not in schema["enum"]:
            choices = ", ".join(repr(choice) for choice in schema["enum"])
            raise ArgumentError(f"'{name}' must be one of {choices}, not {value!r}")
        return value
    kind = schema.get("type")
    if kind == "array":
        if not isinstance(value, list):
            raise ArgumentError(f"'{name}' must be an array, not {_describe(value)}")
        items = schema.get("items", {})
        return [_check_value(f"{name}[{i}]", item, items) for i, item in enumerate(value)]
    if kind == "integer":
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON Schema: 5.0 is an integer
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArgumentError(f"'{name}' must be an integer, not {_describe(value)}")
        if "minimum" in schema and value < schema["minimum"]:
            raise ArgumentError(f"'{name}' must be at least {schema['minimum']}, not {value}")
        from skillc_index import MAX_COUNT  # not at import: the handshake is light

        maximum = schema.get("maximum", MAX_COUNT)  # no integer is unbounded (as on the CLI)
        if value > maximum:
            shown = value if value <= MAX_COUNT else "more"  # not thousands of digits
            raise ArgumentError(f"'{name}' must be at most {maximum}, not {shown}")
        return value
    expected = {"string": str, "boolean": bool}.get(str(kind))
    if expected is not None and not isinstance(value, expected):
        raise ArgumentError(f"'{name}' must be {_TYPE_NAMES[str(kind)]}, not {_describe(value)}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        raise ArgumentError(f"'{name}' must not be empty")
    if isinstance(value, str) and len(value) > schema.get("maxLength", len(value)):
        raise ArgumentError(f"'{name}' has more than {schema['maxLength']:,} characters")
    return _encodable(value) if isinstance(value, str) else value


def _encodable(text: str) -> str:
    """``text`` with every surrogate that stands for no byte (JSON's ``\\ud800``) as U+FFFD,
    so that no path or query fails to encode; ``\\udc80``-``\\udcff`` are a file name's
    bytes that are not UTF-8, as Python reads them, and stay."""
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char < "\udc80" else char for char in text)
    return text


def check_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a call, checked against the tool's input schema, with the schema's
    defaults filled in and absent optional arguments as ``None``."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    unknown = sorted(name for name in arguments if name not in properties)
    if unknown:
        known = ", ".join(properties) or "none"
        raise ArgumentError(f"unknown argument '{unknown[0]}' (arguments: {known})")
    missing = [name for name in schema.get("required", ()) if name not in arguments]
    if missing:
        raise ArgumentError(f"missing required argument '{missing[0]}'")
    checked: dict[str, Any] = {}
    for name, spec in properties.items():
        if name in arguments:
            checked[name] = _check_value(name, arguments[name], spec)
        else:
            checked[name] = spec.get("default")
    return checked
