"""The names 0.1.0 exported from the ``skillc_index`` facade and the facade no longer holds
(``_MOVED``): code written against 0.1.0 keeps working for one release, warned where to
import each name now, instead of meeting a bare ``AttributeError``."""

from __future__ import annotations

import importlib
import re

import pytest

import skillc_index
from skillc_index import _EXPORTS, _MOVED


@pytest.mark.parametrize("name", sorted(_MOVED))
def test_a_moved_name_resolves_from_the_facade_with_a_warning_naming_its_module(
    name: str,
) -> None:
    module = f"skillc_index.{_MOVED[name]}"
    new = f"from {module} import {name}"
    with pytest.warns(DeprecationWarning, match=re.escape(f"skillc_index.{name} is deprecated")):
        value = getattr(skillc_index, name)
    with pytest.warns(DeprecationWarning, match=re.escape(new)):
        exec(f"from skillc_index import {name}", {})
    assert value is getattr(importlib.import_module(module), name)


def test_moved_names_stay_out_of_the_facade() -> None:
    assert not set(_MOVED) & set(_EXPORTS)
    assert not set(_MOVED) & set(dir(skillc_index))
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        skillc_index.nothing_here  # noqa: B018
