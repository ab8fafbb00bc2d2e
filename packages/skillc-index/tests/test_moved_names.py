"""The names 0.1.0 exported from the ``skillc_index`` facade and the facade no longer holds
(``_MOVED``): code written against 0.1.0 keeps working for one release, warned where to
import each name now, instead of meeting a bare ``AttributeError``."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

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


def test_the_changelog_moved_list_is_the_table() -> None:
    """The CHANGELOG's "Moved" list, the migration guide, names the module of each name as
    ``_MOVED`` does (it sent ``markdown_documents``, ``MAX_COUNT`` and ``ROUTER_MARK`` to
    modules that do not hold them, and left out ``require_index`` and seven more)."""
    changelog = Path(__file__).parents[1] / "CHANGELOG.md"
    text = changelog.read_text(encoding="utf-8")
    moved = text.partition("**Moved**: ")[2].partition("\n\n")[0]
    listed: dict[str, str] = {}
    for item in re.split(r"\n  - ", moved)[1:]:
        module, _, names = item.partition(": ")
        for name in re.findall(r"`(\w+)`", names):
            listed[name] = module.strip("`").removeprefix("skillc_index.")
    assert listed == _MOVED
