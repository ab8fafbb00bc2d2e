"""The items of a Python API parameter that takes several (``targets``, ``paths``,
``projects``, ``users``, skillc-lint's ``profiles``...): :func:`as_items` reads them, and
:func:`checked_items` checks each one's type with the caller's error; :func:`checked_targets`
checks a mapping of target names to folders (the config's ``[targets]``).

Standard library only: :mod:`skillc_index.operation`, which every command imports, uses it.
"""

from __future__ import annotations

import os
import typing
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

__all__ = ["as_items", "checked_items", "checked_targets"]

T = TypeVar("T")


@typing.overload
def as_items(value: str) -> tuple[str, ...]: ...
@typing.overload
def as_items(value: os.PathLike[str]) -> tuple[os.PathLike[str], ...]: ...
@typing.overload
def as_items(value: Iterable[T]) -> tuple[T, ...]: ...


def as_items(value: Any) -> tuple[Any, ...]:
    """A parameter that takes several items (``targets``, ``paths``, ``projects``,
    ``profiles``...), given to the Python API as one ``str`` or ``os.PathLike``: that one
    item, not the characters of a string (``targets="claude"`` was the targets ``c``, ``l``...;
    ``projects="/w"`` the folders ``/`` and ``w``). Anything else is iterated."""
    if isinstance(value, (str, os.PathLike)):
        return (value,)
    return tuple(value)


def checked_items(
    value: Any, kinds: type | tuple[type, ...], error: Callable[[object, bool], Exception]
) -> tuple[Any, ...]:
    """:func:`as_items` of ``value``, each an instance of ``kinds``; else the caller's
    ``error(wrong, listed)`` is raised, never a bare ``TypeError``: ``wrong`` is ``value``
    itself when it cannot be iterated (``users=5``: ``listed`` False), else its first item of
    another type (``paths=[5]``: ``listed`` True)."""
    try:
        items: tuple[Any, ...] = as_items(value)
    except TypeError:
        raise error(value, False) from None
    for item in items:
        if not isinstance(item, kinds):
            raise error(item, True)
    return items


def checked_targets(value: object, name: str = "targets") -> None:
    """E100 (:class:`~skillc_index.InvalidOption`) naming the parameter ``name`` unless
    ``value`` is None or maps target names to folders, each a ``str`` (what the config's
    ``[targets]`` holds: skillc-stats' ``targets``, skillc-gateway's ``configured``),
    before it is used: never a bare ``AttributeError`` deep inside."""
    from collections.abc import Mapping

    if value is None or (
        isinstance(value, Mapping)
        and all(isinstance(item, str) for pair in value.items() for item in pair)
    ):
        return
    from skillc_index.option_errors import InvalidOption

    raise InvalidOption(f"{name} must map target names to folders, each a str")
