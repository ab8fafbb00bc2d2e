"""Checking a tool call's arguments (a JSON object) against its input schema
(:func:`check_arguments`), and each value of a Python API call (:func:`checked`, which
:func:`skillc_index.parameters.checked_values` applies to a parameters record): the one check
behind the MCP server's E100 for an argument and the Python API's for a parameter, as the
command line's own parsing refuses the same values.

Standard library only: every command imports it, through :mod:`skillc_index.operation`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = [
    "MAX_COUNT",
    "MAX_PATHS",
    "MAX_PATTERN_CHARS",
    "MAX_SKILLS",
    "MAX_TARGETS",
    "check_arguments",
    "checked",
    "path_text",
]

#: The largest number an integer option or argument takes (a limit, a depth, a line count):
#: past it the value is E100, not an overflow deep inside (SQLite holds 64-bit integers). A
#: tool's schema says it as the ``maximum`` of every integer
#: (:func:`skillc_index.operation.input_schema`).
MAX_COUNT = 1_000_000_000
#: At most this many targets (``build``'s and ``lint``'s, and ``lint``'s ``profile``): the
#: tools' ``maxItems``, the command line's repeated option. 90,000 names of one agent were
#: taken through ``skc_build``, and the skill built and deployed.
MAX_TARGETS = 64
#: At most this many skills named at once (the SKILL arguments of ``eval``): the tools'
#: ``maxItems``, refused before any name is looked up. 20,000 names of one skill held the MCP
#: server 18 s in ``eval``.
MAX_SKILLS = 1000
#: At most this many SKILL arguments of ``build`` and ``lint``, which take files and folders
#: as well as names: pre-commit and ``xargs`` pass one per file (a commit of 1,001 changed
#: skills is one command line), so their bound is what a command line holds, not
#: :data:`MAX_SKILLS` (the tools' ``maxItems`` too).
MAX_PATHS = 100_000
#: The longest glob: ``list``'s and ``sources``' ``pattern`` (the tools' ``maxLength``, the
#: command line's ``--pattern``: longer is E100) and a line of a skill's ``.gitignore``
#: (:mod:`skillc_index.glob`). 100,000 ``[`` held the MCP server minutes in a glob parse
#: that rescanned the rest of the pattern per ``[``.
MAX_PATTERN_CHARS = 512


def path_text(value: object) -> object:
    """The text of a path object (``os.fspath``) when it is a ``str``; else ``value`` as it
    is, for the caller's E100 to name: one whose ``__fspath__`` gives ``bytes``, an ``int`` or
    fails is no path skillc takes (``os.fspath`` raised a bare ``TypeError``)."""
    import os

    if not isinstance(value, os.PathLike):
        return value
    try:
        text = os.fspath(value)
    except TypeError:  # (its __fspath__ fails on what it gives)
        return value
    return text if isinstance(text, str) else value


def _described(value: object) -> str:
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


_TYPE_NAMES = {"string": "a string", "integer": "an integer", "boolean": "a boolean"}


def checked(name: str, value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` checked against ``schema`` (the part of JSON Schema :func:`input_schema`
    writes: type, enum, minimum, maximum, minLength, maxLength, maxItems, items); integral floats
    become ints where an integer is expected. Raises :class:`~skillc_index.InvalidOption`
    saying why."""
    if "enum" in schema:
        if value not in schema["enum"]:
            choices = ", ".join(repr(choice) for choice in schema["enum"])
            raise _invalid(f"{name} must be one of {choices} (not {value!r})")
        return value
    kind = schema.get("type")
    if kind == "array":
        if not isinstance(value, list):
            raise _invalid(f"{name} must be an array, not {_described(value)}")
        if len(value) > schema.get("maxItems", len(value)):  # before any item is looked at
            from skillc_index.option_errors import TooManyItems

            raise TooManyItems(name, len(value), schema["maxItems"])
        items = schema.get("items", {})
        return [checked(f"{name}[{i}]", item, items) for i, item in enumerate(value)]
    if kind == "integer":
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON Schema: 5.0 is an integer
        if not isinstance(value, int) or isinstance(value, bool):
            raise _invalid(f"{name} must be an integer, not {_described(value)}")
        if "minimum" in schema and value < schema["minimum"]:
            raise _invalid(f"{name} must be at least {schema['minimum']}, not {value}")
        maximum = schema.get("maximum", MAX_COUNT)  # no integer is unbounded (as on the CLI)
        if value > maximum:
            shown = value if value <= MAX_COUNT else "more"  # not thousands of digits
            raise _invalid(f"{name} must be at most {maximum}, not {shown}")
        return value
    if kind == "number":  # JSON Schema: a boolean is no number; JSON has no NaN nor infinity
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise _invalid(f"{name} must be a number, not {_described(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise _invalid(f"{name} must be a finite number, not {value}")
        if "minimum" in schema and value < schema["minimum"]:
            raise _invalid(f"{name} must be at least {schema['minimum']}, not {value}")
        if "maximum" in schema and value > schema["maximum"]:
            raise _invalid(f"{name} must be at most {schema['maximum']}, not {value}")
        return value
    expected = {"string": str, "boolean": bool}.get(str(kind))
    if expected is not None and not isinstance(value, expected):
        raise _invalid(f"{name} must be {_TYPE_NAMES[str(kind)]}, not {_described(value)}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        raise _invalid(f"{name} must not be empty")
    if isinstance(value, str) and len(value) > schema.get("maxLength", len(value)):
        from skillc_index.option_errors import TextTooLong

        raise TextTooLong(name, len(value), schema["maxLength"])
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


def _invalid(message: str) -> Exception:
    from skillc_index.option_errors import InvalidOption

    return InvalidOption(message)


def check_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a tool call checked against the tool's input schema (a call the
    schema rejects is rejected here, with a message a model can act on: E100), the schema's
    defaults filled in and absent optional arguments as ``None``."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    unknown = sorted(name for name in arguments if name not in properties)
    if unknown:
        known = ", ".join(properties) or "none"
        raise _invalid(f"unknown argument '{unknown[0]}' (arguments: {known})")
    missing = [name for name in schema.get("required", ()) if name not in arguments]
    if missing:
        raise _invalid(f"the required argument '{missing[0]}' is missing")
    return {
        name: checked(name, arguments[name], spec) if name in arguments else spec.get("default")
        for name, spec in properties.items()
    }
