"""``Record``: the kit's ``NamedTuple``, without what ``typing`` does per field at import.

``class Heading(Record): ...`` is what ``class Heading(NamedTuple): ...`` is, for type
checkers (``Record`` *is* ``typing.NamedTuple`` to them) and at run time: a ``tuple`` subclass
made by :func:`collections.namedtuple`, with the fields, defaults, ``_fields``,
``_field_defaults``, ``_make``, ``_replace``, ``_asdict``, the ``repr``, and the class's own
docstring, methods and properties. The same names are refused (``_replace``, ``__new__``...)
and a field without a default may not follow one with a default.

The difference is the cost of making the class. ``typing.NamedTuple`` turns each field's
annotation into a ``ForwardRef``, which compiles it (under ``from __future__ import
annotations`` every annotation is a string), and sets the new class's bases again: together
about as much as :func:`~collections.namedtuple` itself. A ``Record`` keeps the annotations
as written; :func:`typing.get_type_hints` evaluates them as it does a ``NamedTuple``'s. The
commands agents run many times a session (``skc show``, ``skc search``, the MCP server's
first call) define some thirty records: made as ``Record`` rather than ``NamedTuple``, ``skc
show`` runs 6% fewer instructions (bench/RESULTS.md, issue 32).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Record"]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    from collections import namedtuple

    #: What a record may not define: namedtuple's own machinery (as ``typing.NamedTuple``).
    _RESERVED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        }
    )
    #: What the class body holds that the namedtuple already has (or gets below).
    _OWN = frozenset({"__module__", "__name__", "__annotations__"})

    class _RecordMeta(type):
        def __new__(
            mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]
        ) -> type[tuple[Any, ...]]:
            if bases != (Record,):
                raise TypeError("a Record class can only inherit from Record")
            annotations: dict[str, Any] = namespace.get("__annotations__", {})
            with_default: list[str] = []
            for field in annotations:
                if field in namespace:
                    with_default.append(field)
                elif with_default:
                    raise TypeError(
                        f"Non-default namedtuple field {field} cannot follow default field"
                        f"{'s' if len(with_default) > 1 else ''} {', '.join(with_default)}"
                    )
            record = namedtuple(
                name,
                annotations,
                defaults=[namespace[field] for field in with_default],
                module=namespace["__module__"],
            )
            record.__annotations__ = dict(annotations)
            for key, value in namespace.items():
                if key in _RESERVED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _OWN and key not in annotations:
                    setattr(record, key, value)
            return record

    Record = type.__new__(_RecordMeta, "Record", (), {"__module__": __name__})
    Record.__doc__ = __doc__
