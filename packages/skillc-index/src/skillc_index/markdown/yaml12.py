"""The frontmatter (:mod:`skillc_index.markdown.frontmatter`) as a YAML 1.2 reader sees it.

PyYAML reads YAML 1.1: `no` and `on` are booleans, `012` is octal 10, `1:20` is 80, an
unquoted date is a date. The agents read YAML 1.2 (its core schema): those are the string
"no", the number 12, the string "1:20". What the stub carries of the frontmatter is written
from how a 1.2 reader reads the source, so that an agent loads the stub exactly as it would
the source (DECISIONS, "Stub").

:func:`scalar_texts` keeps the source's own text of the scalars that reading takes for a
boolean or a number: a projection writing one as a string writes it as the source does
(``1.10``, not ``1.1``).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from skillc_index.markdown.frontmatter import (
    MAX_DEPTH,
    Frontmatter,
    YAMLProblem,
    load_bounded_yaml,
)

__all__ = ["CORE_NOT_STRING", "read_12", "scalar_texts", "typed_keys"]

_CORE_RESOLVERS: tuple[tuple[str, str, str], ...] = (
    ("tag:yaml.org,2002:bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("tag:yaml.org,2002:int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
        "-+0123456789.",
    ),
    ("tag:yaml.org,2002:null", r"~|null|Null|NULL|", "~nN"),
)
#: A string a YAML 1.2 reader would read as something else when written plain.
CORE_NOT_STRING = re.compile("|".join(f"(?:{pattern})" for _, pattern, _ in _CORE_RESOLVERS))


@functools.cache
def _core_loader() -> Any:
    """PyYAML's safe loader (the C one when built), resolving plain scalars as YAML 1.2's
    core schema does."""
    import yaml

    class CoreLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    CoreLoader.yaml_implicit_resolvers = {}
    for tag, pattern, first in _CORE_RESOLVERS:
        firsts = [*first, ""] if tag.endswith("null") else list(first)
        CoreLoader.add_implicit_resolver(tag, re.compile(f"^(?:{pattern})$"), firsts)
    CoreLoader.add_constructor("tag:yaml.org,2002:int", _core_int)
    CoreLoader.construct_mapping = _text_keys
    return CoreLoader


def _text_keys(loader: Any, node: Any, deep: bool = False) -> dict[Any, Any]:
    """A mapping whose plain keys are their text, as an agent's reader keys an object (a
    JavaScript object's keys are strings): ``1``, ``true`` and ``null`` stay three keys,
    ``"1"``, ``"true"`` and ``"null"`` (Python's ``True == 1`` made ``1: one`` and ``true:
    yes`` one key, and ``null`` None). A key of another type is written in the source as a
    plain scalar that reads so (:func:`typed_keys` finds them)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, _value in node.value:
            if isinstance(key, yaml.ScalarNode) and not key.style:
                key.tag = "tag:yaml.org,2002:str"
    return dict(yaml.constructor.SafeConstructor.construct_mapping(loader, node, deep=deep))


def _core_int(loader: Any, node: Any) -> int:
    """YAML 1.2's integers: decimal (``012`` is 12), ``0o`` octal, ``0x`` hexadecimal."""
    text = str(loader.construct_scalar(node))
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    return sign * int(digits, 10)


def read_12(front: Frontmatter) -> dict[str, Any]:
    """:func:`~skillc_index.markdown.frontmatter.as_yaml_12`, read (once a frontmatter:
    :attr:`Frontmatter.data_12`)."""
    data = front.data or {}
    if not front.yaml or ("<<" not in front.yaml and _reads_alike(data)):
        return data  # (a 1.2 reader keeps a ``<<`` key that 1.1 merges)
    loader = _core_loader()(front.yaml)
    try:
        again = loader.get_single_data()
    except Exception:  # it was read once, within the bounds: keep that reading
        return data
    finally:
        loader.dispose()
    return again if isinstance(again, dict) else data


def _reads_alike(value: object, depth: int = 0) -> bool:
    """Whether a YAML 1.1 reading that gave ``value`` is what a 1.2 reader gives too: only
    strings (keys and values, in mappings and lists), none of which a 1.2 reader would read
    as something else had it been written plain (``1e3``, ``0o17``: strings to 1.1). Any
    other scalar (a boolean, a number, a date, null) may read otherwise: read it again."""
    if isinstance(value, str):
        return CORE_NOT_STRING.fullmatch(value) is None
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(
            _reads_alike(key, depth + 1) and _reads_alike(item, depth + 1)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return all(_reads_alike(item, depth + 1) for item in value)
    return False


def _not_text(value: object) -> bool:
    return isinstance(value, (bool, int, float))


def scalar_texts(front: Frontmatter) -> dict[tuple[str, ...], str]:
    """The source's own text of each plain scalar at the top level (``("version",)``) and in
    a mapping under it (``("metadata", "version")``), when the YAML 1.2 reading
    (:attr:`Frontmatter.data_12`) holds a boolean or a number there: ``1.10`` where it holds
    1.1, ``0o17`` where it holds 15, ``True`` where it holds true. What such a value is
    written as when it becomes a string (:func:`skillc_index.build.project.project`), as a
    reader that reads every scalar as text (``skills-ref``) reads it. Empty when there is
    none (the block is read again only then)."""
    data = front.data_12
    wanted: set[tuple[str, ...]] = {(key,) for key, value in data.items() if _not_text(value)}
    wanted.update(
        (key, str(inner))
        for key, value in data.items()
        if isinstance(value, dict)
        for inner, item in value.items()
        if _not_text(item)
    )
    if not wanted:
        return {}
    import yaml

    found: dict[tuple[str, ...], str] = {}
    for where, value in reversed(_pairs(front)):  # the last first: a key written again
        if isinstance(value, yaml.ScalarNode) and not value.style and where in wanted:
            found.setdefault(where, str(value.value))
    return found


def _pairs(front: Frontmatter) -> list[tuple[tuple[str, ...], Any]]:
    """``(path, value node)`` of each scalar key at the top level and in a mapping
    under it, in the order written, the block composed again within the bounds (it starts
    on file line 2); empty when it does not read."""
    import yaml

    if not front.text:
        return []
    try:
        _data, root, _lines = load_bounded_yaml(front.text, first_line=2)
    except YAMLProblem:  # read once within the bounds; not again
        return []
    found: list[tuple[tuple[str, ...], Any]] = []
    pairs: list[tuple[tuple[str, ...], Any]] = []
    if isinstance(root, yaml.MappingNode):
        pairs = [((), pair) for pair in reversed(root.value)]
    while pairs:
        path, (key, value) = pairs.pop()
        if not isinstance(key, yaml.ScalarNode):
            continue
        where = (*path, str(key.value))
        found.append((where, value))
        if isinstance(value, yaml.MappingNode) and not path:
            pairs += [(where, pair) for pair in reversed(value.value)]
    return found


def typed_keys(front: Frontmatter, field: str) -> list[str]:
    """The source's text of each key of the mapping of top-level ``field`` that a YAML 1.2
    reader types (``1``, ``true``, ``null``: plain, a number, a boolean or null), in the
    order written: the reading (:func:`read_12`) keeps them as their text, a checker of
    string keys (SKL502) names them from here."""
    import yaml

    if not front.text or not isinstance(front.data_12.get(field), dict):
        return []
    try:
        _data, root, _lines = load_bounded_yaml(front.text, first_line=2)
    except YAMLProblem:
        return []
    if not isinstance(root, yaml.MappingNode):
        return []
    found: list[str] = []
    for key, value in root.value:
        if not (isinstance(key, yaml.ScalarNode) and key.value == field):
            continue
        found = [  # the last ``field`` written is the one read
            str(inner.value)
            for inner, _item in (value.value if isinstance(value, yaml.MappingNode) else ())
            if isinstance(inner, yaml.ScalarNode)
            and not inner.style
            and CORE_NOT_STRING.fullmatch(str(inner.value))
        ]
    return found
