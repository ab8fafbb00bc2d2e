"""Lazy public names (PEP 562), shared by every package of the kit.

Each package's ``__init__`` maps its public names to the private modules defining them; a name
is imported on first use, so importing a package costs almost nothing (``skc --help`` and the
agents' ``show``/``search`` stay fast).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` for ``package``.

    ``exports`` maps each public name to its module (``{"Layout": "_layout"}``); a name, once
    loaded, is stored in ``namespace`` (the package's ``globals()``) so the next use is direct.
    """

    def getattr_(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace.get("__all__", ()), *exports})

    return getattr_, dir_
