"""``skillc_index.record.Record`` makes the classes ``typing.NamedTuple`` makes, more cheaply.

Each check runs on a ``Record`` class and on the same class written as a ``NamedTuple``: what
the kit relies on (fields, defaults, methods, properties, ``_replace``, ``_asdict``,
``_make``, pickling, ``get_type_hints``, the errors of a wrong definition) is the same.
"""

from __future__ import annotations

import pickle
import typing
from typing import Annotated, NamedTuple

import pytest

from skillc_index.operation import Param, input_schema
from skillc_index.record import Record


class Point(Record):
    """A point, with a label."""

    x: int
    y: int = 0
    label: str | None = None
    tags: tuple[str, ...] = ()

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)

    @classmethod
    def origin(cls) -> Point:
        return cls(0)


class PointTuple(NamedTuple):
    """A point, with a label."""

    x: int
    y: int = 0
    label: str | None = None
    tags: tuple[str, ...] = ()

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> PointTuple:
        return self._replace(x=self.x + dx)

    @classmethod
    def origin(cls) -> PointTuple:
        return cls(0)


class Bare(Record):
    value: str


class Params(Record):
    skill: Annotated[str, Param("The skill.", min_length=1)]
    limit: Annotated[int, Param("Most results.", minimum=1)] = 10


BOTH = [Point, PointTuple]


@pytest.mark.parametrize("cls", BOTH, ids=["Record", "NamedTuple"])
def test_a_record_is_the_named_tuple(cls: type[Point]) -> None:
    point = cls(3, -4, "a")
    assert isinstance(point, tuple)
    assert tuple(point) == (3, -4, "a", ())
    assert point == (3, -4, "a", ())
    assert repr(point) == f"{cls.__name__}(x=3, y=-4, label='a', tags=())"
    assert cls._fields == ("x", "y", "label", "tags")
    assert cls._field_defaults == {"y": 0, "label": None, "tags": ()}
    assert cls(x=1) == (1, 0, None, ())
    assert point.norm1 == 7
    assert point.moved(1) == cls(4, -4, "a")
    assert type(point.moved(1)) is cls
    assert cls.origin() == (0, 0, None, ())
    assert point._asdict() == {"x": 3, "y": -4, "label": "a", "tags": ()}
    assert cls._make([1, 2, None, ("t",)]) == cls(1, 2, None, ("t",))
    assert pickle.loads(pickle.dumps(point)) == point
    assert cls.__doc__ == "A point, with a label."
    assert cls.__module__ == __name__
    assert cls.__qualname__ == cls.__name__
    assert cls.__mro__ == (cls, tuple, object)
    assert not hasattr(point, "__dict__")
    with pytest.raises(AttributeError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        cls()  # type: ignore[call-arg]
    hints = typing.get_type_hints(cls)
    assert hints == {"x": int, "y": int, "label": str | None, "tags": tuple[str, ...]}


def test_a_record_without_a_docstring_has_the_named_tuple_one() -> None:
    assert Bare.__doc__ == "Bare(value,)"
    assert Bare("v").value == "v"


def test_annotations_stay_as_written() -> None:
    """What makes a Record cheap: no annotation is compiled when the class is made
    (``typing.NamedTuple`` makes each a ``ForwardRef``)."""
    assert Point.__annotations__ == {
        "x": "int",
        "y": "int",
        "label": "str | None",
        "tags": "tuple[str, ...]",
    }
    assert all(isinstance(v, typing.ForwardRef) for v in PointTuple.__annotations__.values())


def test_a_parameters_record_gives_its_schema() -> None:
    """``Annotated`` metadata is found as in a NamedTuple (the MCP schemas are made so)."""
    assert input_schema(Params) == {
        "type": "object",
        "properties": {
            "skill": {"type": "string", "minLength": 1, "description": "The skill."},
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 1_000_000_000,  # every integer says the bound the server keeps
                "description": "Most results.",
                "default": 10,
            },
        },
        "additionalProperties": False,
        "required": ["skill"],
    }


def test_a_field_without_default_after_one_with_default_is_refused() -> None:
    with pytest.raises(TypeError, match="Non-default namedtuple field b cannot follow default"):

        class Wrong(Record):
            a: int = 1
            b: int


@pytest.mark.parametrize("name", ["_replace", "_fields", "__new__", "__init__"])
def test_the_named_tuple_machinery_cannot_be_overwritten(name: str) -> None:
    with pytest.raises(AttributeError, match=f"Cannot overwrite NamedTuple attribute {name}"):
        type(Record)("Wrong", (Record,), {"__module__": __name__, name: None})


def test_a_record_derives_from_record_only() -> None:
    with pytest.raises(TypeError, match="only inherit from Record"):
        type(Record)("Wrong", (Record, dict), {"__module__": __name__})
