"""The JSON Schema of a result's shape, made from the ``TypedDict`` that its ``to_dict()``
returns: the shape is written once, type checkers hold ``to_dict()`` to it, and the MCP
server advertises it as the tool's ``outputSchema``.

A shape is a ``TypedDict``; its keys are required unless declared in a ``total=False``
part (the Python 3.10 spelling of ``NotRequired``). Values are ``str``, ``int``, ``float``,
``bool``, ``None``, ``Literal[...]`` (an enum; ``Literal["a", None]`` an enum holding null),
``X | None`` (``anyOf`` X and null), ``list[X]`` (an array), ``dict[str, X]`` (an object),
``Any``, or another shape (a nested object). ``Annotated[X, "text"]`` adds a description,
``Annotated[X, Param(...)]`` a description and bounds. Object schemas list their keys and
allow more (a later release may add keys without breaking a client that validates).

Imported when the MCP server lists its tools (and by tests), never by a command's run: a
``TypedDict`` costs about what a record costs to define.
"""

from __future__ import annotations

import sys
import types
import typing
from typing import Any, Literal

__all__ = ["schema_of", "shape_schema"]

_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def schema_of(reference: str) -> dict[str, Any]:
    """The schema of the shape ``"module:Name"`` names."""
    from importlib import import_module

    module, _, name = reference.partition(":")
    shape: type[Any] = getattr(import_module(module), name)
    return shape_schema(shape)


def shape_schema(shape: type[Any]) -> dict[str, Any]:
    """The object schema of a ``TypedDict``: its keys in order, the required ones listed; a
    shape that holds itself (a tree's node) is written once under ``$defs``, by its class
    name, and referred to."""
    builder = _Builder()
    schema = builder.value(shape)
    if builder.defs:
        schema["$defs"] = builder.defs
    return schema


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self.open: list[type[Any]] = []
        self.recursive: set[type[Any]] = set()

    def shape(self, shape: type[Any]) -> dict[str, Any]:
        reference = {"$ref": f"#/$defs/{shape.__name__}"}
        if shape in self.open:
            self.recursive.add(shape)
            return reference
        self.open.append(shape)
        hints = typing.get_type_hints(shape, include_extras=True)
        required: frozenset[str] = shape.__required_keys__
        schema = {
            "type": "object",
            "properties": {key: self.value(hint) for key, hint in hints.items()},
            "required": [key for key in hints if key in required],
        }
        self.open.pop()
        if shape in self.recursive:
            self.defs[shape.__name__] = schema
            return reference
        return schema

    def value(self, hint: Any) -> dict[str, Any]:
        if isinstance(hint, (str, typing.ForwardRef)):
            hint = self.named(hint)
        origin = typing.get_origin(hint)
        if origin is typing.Annotated:
            inner, *extras = typing.get_args(hint)
            schema = self.value(inner)
            for extra in extras:
                if isinstance(extra, str):
                    schema["description"] = extra
                elif hasattr(extra, "schema"):  # a Param: bounds and description
                    schema.update(extra.schema())
            return schema
        if origin is Literal:
            return {"enum": list(typing.get_args(hint))}
        if origin is typing.Union or origin is types.UnionType:
            options = typing.get_args(hint)
            literals = [option for option in options if typing.get_origin(option) is Literal]
            if literals and len(literals) == len(options) - 1 and type(None) in options:
                return {"enum": [*typing.get_args(literals[0]), None]}
            return {"anyOf": [self.value(option) for option in options]}
        if origin in (list, tuple) or (origin is not None and _is_sequence(origin)):
            item = typing.get_args(hint)[0]
            if item is Any:
                return {"type": "array"}
            return {"type": "array", "items": self.value(item)}
        if origin is dict:
            _key, value = typing.get_args(hint)
            if value is Any:
                return {"type": "object"}
            return {"type": "object", "additionalProperties": self.value(value)}
        if hint is type(None):
            return {"type": "null"}
        if hint is Any:
            return {}
        if hint is dict:
            return {"type": "object"}
        if hint is list:
            return {"type": "array"}
        if typing.is_typeddict(hint):
            return self.shape(hint)
        return {"type": _NAMES[hint]}

    def named(self, hint: str | typing.ForwardRef) -> Any:
        """The shape a name inside ``list["TreeNode"]`` means, found in the module of the
        shape being read: Python 3.10's ``get_type_hints`` leaves it a string (3.11 resolves
        it), so the schema is the same on both."""
        name = hint if isinstance(hint, str) else hint.__forward_arg__
        return getattr(sys.modules[self.open[-1].__module__], name)


def _is_sequence(origin: Any) -> bool:
    from collections.abc import Sequence

    return isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str
