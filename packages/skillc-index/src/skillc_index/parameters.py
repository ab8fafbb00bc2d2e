"""A command's parameters record: each parameter written once, as a field annotated with its
:class:`Param` (``Annotated[int, Param(...)]``), of a :class:`~skillc_index.record.Record`.

What the front ends make of it: the command line's options (:func:`fields`, read by
:mod:`skillc_index.console`), the MCP tool's input schema (:func:`input_schema`), and the
checks of a Python API call's values (:func:`checked_values`, :func:`checked_record`: what the
MCP server refuses of a tool call, :func:`~skillc_index.arguments.check_arguments`, a function
refuses too). :mod:`skillc_index.operation` runs the command, and names all of these too.

Standard library only (and :mod:`skillc_index.record`, :mod:`skillc_index.arguments`): every
command imports it, through the operation tables.
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeVar

from skillc_index.arguments import MAX_COUNT, checked, path_text
from skillc_index.record import Record

__all__ = [
    "Param",
    "checked_record",
    "checked_values",
    "fields",
    "given",
    "input_schema",
    "property_name",
]


class Param(Record):
    """A parameter's description and JSON Schema constraints, and how the command line spells it:
    the ``Annotated`` metadata of a field of a parameters record, the one place a command's
    parameter is written (the click command, the MCP input schema and the MCP argument checks are
    made from it).

    ``description`` tells the MCP tool's caller (a model) what the parameter is; ``help`` is the
    ``--help`` text when the command line says it otherwise (default: ``description``).
    ``mcp_default``: the MCP tool's default when it differs from the field's (the CLI's); it is what
    the tool's schema advertises. ``argument``: a positional argument of the command line rather
    than an option (a tuple field takes any number of them); ``flags``: the option's names (default
    ``--field-name``); ``metavar``: the value's name in ``--help``; ``show_default``: ``--help``
    shows the default (always for a choice); ``choice``: a ``Literal`` field is a choice on the
    command line (a value outside it a usage error, E100), or with False plain text that the
    operation checks (stats' ``--group-by`` is E030, RFC-0005's code for an unknown query type);
    ``path``: the value (each item) may name a folder or a file from the working directory (a
    skill's path, a baseline file), which a session with ``confined_paths`` takes only where a model
    may read (:meth:`Session.check_paths`); ``skill``: the value names a skill, so a shell's TAB
    offers the installed skills' names (:mod:`skillc_index.completion`); ``names``: the value names
    a file (``"file"``) or a folder (``"dir"``) to read or write from the working directory, so a
    shell's TAB offers the shell's own names of that kind (a ``click.Path``'s: ``skc mcp --cwd``);
    ``in_skill``: a path from the skill's root, which the root confines (these three take an
    ``os.PathLike`` too); ``once``: the option given more than once is E100, not its last value
    silently (route's ``-t``, which is repeatable in ``build``)."""

    description: str
    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    item_min_length: int | None = None
    mcp_default: Any = None
    max_length: int | None = None
    max_items: int | None = None
    help: str | None = None
    argument: bool = False
    flags: tuple[str, ...] = ()
    metavar: str | None = None
    show_default: bool = False
    choice: bool = True
    path: bool = False
    skill: bool = False
    names: Literal["file", "dir"] | None = None
    once: bool = False
    in_skill: bool = False

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {}
        if self.min_length is not None:
            schema["minLength"] = self.min_length
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.max_items is not None:
            schema["maxItems"] = self.max_items
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        schema["description"] = self.description
        return schema


def _type_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a field's type: str, int, bool, float, ``tuple[X, ...]`` (an
    array), ``Literal`` (an enum); ``X | None`` is X (None stands for "not given", which a
    JSON caller says by leaving the property out)."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        (inner,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _type_schema(inner)
    if origin is Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin is tuple:
        item = typing.get_args(hint)[0]
        return {"type": "array", "items": _type_schema(item)}
    names = {str: "string", bool: "boolean", int: "integer", float: "number"}
    return {"type": names[hint]}


def property_name(field: str) -> str:
    """The JSON (MCP) name of a field: a trailing ``_`` dropped (``global_``: ``global`` is a
    Python keyword)."""
    return field.removesuffix("_")


_FIELDS: dict[type[Any], tuple[tuple[str, Any, Param], ...]] = {}


def fields(params: type[Any]) -> tuple[tuple[str, Any, Param], ...]:
    """``(field name, type, Param)`` of each field of a parameters record, in order (read
    once per record: the MCP server parses every call's arguments with it)."""
    found = _FIELDS.get(params)
    if found is None:
        hints = typing.get_type_hints(params, include_extras=True)
        found = tuple((name, *_split(hints[name])) for name in params._fields)
        _FIELDS[params] = found
    return found


def _split(hint: Any) -> tuple[Any, Param]:
    """``Annotated[type, Param(...)]`` as ``(type, Param)``."""
    hint, *extras = typing.get_args(hint)
    (meta,) = [extra for extra in extras if isinstance(extra, Param)]
    return hint, meta


def input_schema(params: type[Any], leave_out: Iterable[str] = ()) -> dict[str, Any]:
    """The MCP ``inputSchema`` of a parameters record: exactly its fields but ``leave_out``
    (the command line's own), nothing else."""
    defaults: dict[str, Any] = params._field_defaults
    skipped = set(leave_out)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, hint, meta in fields(params):
        if name in skipped:
            continue
        schema = _type_schema(hint)
        if meta.item_min_length is not None:
            schema["items"]["minLength"] = meta.item_min_length
        schema.update(meta.schema())
        if schema.get("type") == "integer":  # the bound the call is held to (arguments.checked)
            schema.setdefault("maximum", MAX_COUNT)
        if "enum" in schema and not meta.choice:  # text the run checks, with its own code
            values = ", ".join(str(value) for value in schema.pop("enum"))
            schema = {"type": "string", **schema}
            schema["description"] += f" One of: {values}."
        default = defaults.get(name) if meta.mcp_default is None else meta.mcp_default
        if name not in defaults:
            required.append(property_name(name))
        elif default is not None and default != ():
            schema["default"] = default
        properties[property_name(name)] = schema
    result = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        result["required"] = required
    return result


def given(params: Any, names: Iterable[str]) -> str | None:
    """The first of ``names`` not at its default in ``params`` (one equal to it is not given)."""
    defaults = params._field_defaults
    return next((name for name in names if getattr(params, name) != defaults[name]), None)


P = TypeVar("P")


_CHECKS: dict[type[Any], dict[str, tuple[str, Mapping[str, Any], bool, bool]]] = {}


def checked_values(
    params: type[Any], values: Mapping[str, Any], python: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``values`` (field name -> value) of fields of the parameters record ``params``, checked
    as a tool call's arguments are (:func:`~skillc_index.arguments.checked`: the type, the
    choices, the bounds of the field's :class:`Param`; :class:`~skillc_index.InvalidOption`,
    E100, naming the parameter), for the Python API: what the command line and the MCP server
    refuse, a function refuses too, rather than answer nothing (``limit=-1``, ``scope="nope"``)
    or fail on a bare ``TypeError``. None is not given, and stays, where the field allows it
    (``int | None``), else it is E100 too; a tuple field's items are an array's (one ``str`` or
    path is one item, :func:`~skillc_index.items.as_items`); a ``path``, ``names`` or
    ``in_skill`` field may be an ``os.PathLike``. ``python``: its name
    in a function where it differs, for the message (``{"offset": "skip"}``). Returns the values
    checked (arrays as tuples, paths as ``str``, an integral float as an int)."""
    specs = _CHECKS.get(params)
    if specs is None:  # made once per record, as its fields
        properties = input_schema(params)["properties"]
        specs = _CHECKS[params] = {
            name: (
                property_name(name),
                properties[property_name(name)],
                meta.path or meta.in_skill or meta.names is not None,  # os.PathLike taken
                type(None) in typing.get_args(hint),  # None: not given
            )
            for name, hint, meta in fields(params)
        }
    result: dict[str, Any] = {}
    for name, value in values.items():
        prop, spec, path, optional = specs[name]
        if value is None and optional:
            result[name] = None
            continue
        array = spec.get("type") == "array"
        if array and isinstance(value, str | os.PathLike):
            value = [value]
        elif array and isinstance(value, tuple | list):
            value = list(value)
        if path:  # a path object's text (one giving no str stays, for E100 to name)
            value = (
                [path_text(item) for item in value] if isinstance(value, list) else path_text(value)
            )
        value = checked(python.get(name, prop) if python else prop, value, spec)
        result[name] = tuple(value) if array else value
    return result


def checked_record(params: P) -> P:
    """The parameters record ``params`` with its fields checked (:func:`checked_values`):
    itself when nothing changed."""
    values = params._asdict()  # type: ignore[attr-defined]
    changed = {
        name: value
        for name, value in checked_values(type(params), values).items()
        if type(value) is not type(values[name]) or value != values[name]
    }
    return params._replace(**changed) if changed else params  # type: ignore[attr-defined]
