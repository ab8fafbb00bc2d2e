"""Lazy public names (PEP 562), shared by every package of the kit.

Each package's ``__init__`` maps its public names to the private modules defining them; a name
is imported on first use, so importing a package costs almost nothing (``skc --help`` and the
agents' ``show``/``search`` stay fast). A name a release exported and the package no longer
does is ``moved``: it still resolves, for one release, with a ``DeprecationWarning`` naming
where to import it now.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str,
    exports: Mapping[str, str],
    namespace: dict[str, Any],
    moved: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` for ``package``.

    ``exports`` maps each public name to its module (``{"Layout": "_layout"}``); a name, once
    loaded, is stored in ``namespace`` (the package's ``globals()``) so the next use is direct.
    ``moved`` maps an old name to the public module holding it now (``{"list_skills":
    "listing.skills"}``), or to ``":new_name"`` for a name renamed in the package itself; it
    is loaded with a ``DeprecationWarning`` at each use, never stored nor listed by ``dir``.
    """

    def getattr_(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f"{package}.{module}"), name)
            namespace[name] = value
            return value
        place = (moved or {}).get(name)
        if place is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, new = place.partition(":")
        home = f"{package}.{module}" if module else package
        warnings.warn(
            f"{package}.{name} is deprecated and goes in the next release:"
            f" use 'from {home} import {new or name}'",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(home), new or name)

    def dir_() -> list[str]:
        return sorted({*namespace.get("__all__", ()), *exports})

    return getattr_, dir_
