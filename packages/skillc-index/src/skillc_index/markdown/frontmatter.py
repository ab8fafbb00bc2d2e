"""Frontmatter: the YAML block at the top of a Markdown file (RFC-0008:C-REGISTRY SKL100).

A file has frontmatter when its first line is ``---`` (a BOM before it and trailing blanks
are tolerated); the block ends at the next ``---`` line and is read with PyYAML's safe loader.

Most skills' frontmatter is a handful of ``key: value`` lines. Those are read here without
PyYAML (:func:`_simple_mapping`): importing PyYAML alone costs more than the rest of
``skc list``. The fast path accepts only lines whose YAML meaning is unambiguous (a plain key,
then a quoted string or a plain scalar that YAML reads as a string) and hands anything else
to PyYAML, so both paths give the same data; a test checks that over the whole corpus.

Frontmatter comes from strangers, so what reaches PyYAML is bounded (issue 13), each bound an
SKL100 problem like any other invalid YAML:

- at most :data:`MAX_FRONTMATTER_BYTES` (64 KiB; real skills use a few hundred bytes);
- PyYAML's C composer recurses once per nesting level without a check and crashes the
  interpreter on deep input, so it only sees blocks that cannot nest deeply (fewer than
  :data:`C_LOADER_INDICATORS` of the characters every collection needs, ``[{-:?``); others go
  to the pure-Python loader, which reads the same YAML and stops with a RecursionError;
- once composed, at most :data:`MAX_DEPTH` levels deep, no alias inside the node it names,
  and at most :data:`MAX_VALUES` values with every alias (and ``<<`` merge) expanded: a few
  KB of nested anchors would otherwise expand to billions of values for every reader
  (lint rules, the stub, JSON output).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

BOM = "\ufeff"
FENCE = "---"

#: SKL100 messages, verbatim (RFC-0008:C-REGISTRY).
NO_OPENING = "missing frontmatter: file does not start with ---"
NO_CLOSING = "missing frontmatter: no closing --- found"
INVALID_YAML = "invalid frontmatter YAML: "

#: Frontmatter larger than this is not given to PyYAML (SKL100).
MAX_FRONTMATTER_BYTES = 64 * 1024
#: Nesting levels a frontmatter may have (the top-level mapping is one).
MAX_DEPTH = 100
#: Values (scalars and collections, keys included) a frontmatter may hold once its aliases
#: are expanded. More than 64 KiB of YAML without aliases can hold.
MAX_VALUES = 100_000
#: A block with fewer of the characters every collection starts with (``[{-:?``) than this
#: nests less deeply, so PyYAML's C composer may read it; others take the Python loader.
C_LOADER_INDICATORS = 1000

# ``key:`` at column 0, then the rest of the line (the value, possibly empty).
_SIMPLE_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?\Z")
# Plain words YAML 1.1 reads as booleans or null (any case, to stay on the safe side).
_NOT_STRINGS = frozenset({"yes", "no", "y", "n", "true", "false", "on", "off", "null", "~"})
# Characters a plain scalar may start with and still be a string for certain.
_PLAIN_START_EXTRA = frozenset("_/($")


@dataclass(frozen=True)
class Frontmatter:
    """The YAML block at the top of a file, and where things are in it."""

    present: bool
    """The file starts with a ``---`` line (a BOM before it and trailing blanks are allowed)."""
    data: dict[str, Any] | None
    """The parsed mapping; ``None`` when absent, unclosed or invalid (or not read:
    :func:`split_frontmatter` without ``parse_yaml``)."""
    error: str | None
    """The SKL100 message when ``data`` is ``None``, else ``None``."""
    end_line: int
    """Line of the closing ``---``; 0 when there is none."""
    field_lines: dict[str, int] = field(default_factory=dict)
    """Line of each top-level key (the last one when a key is repeated, as YAML keeps it)."""
    body_start: int = 1
    """First line after the frontmatter; 1 when there is no (closed) frontmatter."""
    error_line: int = 1
    """The line ``error`` is about: where YAML found its problem, else 1 (the opening)."""
    yaml: str = field(default="", compare=False, repr=False)
    """The block's text when PyYAML read it (empty when it was plain ``key: value`` lines of
    strings, which every YAML version reads alike): :func:`as_yaml_12` reads it again."""


def _is_fence(line: str) -> bool:
    return line.rstrip() == FENCE


_TYPE_NAMES: dict[type, str] = {
    str: "a string",
    list: "a list",
    dict: "a mapping",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "empty",
}


def type_name(value: object) -> str:
    """What a YAML value is, for messages: ``a string``, ``a list``, ``a mapping``,
    ``a number``, ``a boolean``, ``empty``..."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _yaml_error(error: BaseException, offset: int) -> tuple[str, int]:
    """A YAML error on one line, with line numbers counted in the file (not the YAML block),
    and the line of its problem (of its last mark; 1 without one)."""
    import yaml

    line = 1
    if isinstance(error, yaml.MarkedYAMLError):
        parts: list[str] = []
        for text, mark in (
            (error.context, error.context_mark),
            (error.problem, error.problem_mark),
        ):
            if text is None:
                continue
            if mark is not None:
                line = mark.line + 1 + offset
                text = f"{text} (line {line}, column {mark.column + 1})"
            parts.append(text)
        message = ": ".join(parts) if parts else str(error)
    else:
        message = str(error) or type(error).__name__
    return " ".join(message.split()), line


def split_frontmatter(text: str, *, parse_yaml: bool = True) -> tuple[Frontmatter, int]:
    """RFC-0008:C-REGISTRY SKL100: the frontmatter of ``text`` (BOM already removed) and the
    offset in ``text`` where the body starts (0 when there is no closed frontmatter).

    Only the lines up to the closing ``---`` are looked at, so this stays cheap for callers
    that need nothing else (``list``). Without ``parse_yaml`` the block is not read at all (its
    ``data`` and ``error`` are None): where it ends is all the index needs.
    """
    first_end = text.find("\n")
    first = text if first_end < 0 else text[:first_end]
    if not _is_fence(first):
        return Frontmatter(False, None, NO_OPENING, 0), 0
    start = position = first_end + 1
    line_index = 1  # 0-based index of the line beginning at ``position``
    close_start = close_end = -1
    while 0 < position <= len(text):
        newline = text.find("\n", position)
        line_end = len(text) if newline < 0 else newline
        if _is_fence(text[position:line_end]):
            close_start, close_end = position, (len(text) if newline < 0 else newline + 1)
            break
        if newline < 0:
            break
        position = newline + 1
        line_index += 1
    if close_start < 0:
        return Frontmatter(True, None, NO_CLOSING, 0), 0
    end_line = line_index + 1
    body_start = end_line + 1
    if not parse_yaml:
        return Frontmatter(True, None, None, end_line, {}, body_start), close_end
    source = text[start:close_start]
    if not source.strip():
        return Frontmatter(True, {}, None, end_line, {}, body_start), close_end
    if len(source) > MAX_FRONTMATTER_BYTES or len(source.encode()) > MAX_FRONTMATTER_BYTES:
        message = f"{INVALID_YAML}frontmatter is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB"
        return Frontmatter(True, None, message, end_line, {}, body_start), close_end
    simple = _simple_mapping(source)
    if simple is not None:
        return Frontmatter(True, simple[0], None, end_line, simple[1], body_start), close_end

    import yaml

    # Every collection needs one of these characters, so there are at most this many nested
    # levels (plus the scalars); aliases are what can expand or loop.
    indicators = sum(source.count(char) for char in "[{-:?")
    use_c = indicators < C_LOADER_INDICATORS and hasattr(yaml, "CSafeLoader")
    loader = yaml.CSafeLoader(source) if use_c else yaml.SafeLoader(source)
    bounded = indicators < MAX_DEPTH and "*" not in source  # the common case: nothing to check
    try:
        node = loader.get_single_node()
        problem = None if node is None or bounded else _shape_problem(node)
        if problem is not None:
            message, line = INVALID_YAML + problem[0], problem[1]
            return Frontmatter(True, None, message, end_line, {}, body_start, line), close_end
        data = {} if node is None else loader.construct_document(node)
    except RecursionError:  # the Python loader on deep nesting (the C one never sees it)
        message = f"{INVALID_YAML}nested more than {MAX_DEPTH} levels deep"
        return Frontmatter(True, None, message, end_line, {}, body_start), close_end
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as error:
        # ValueError: impossible dates such as 2024-02-30; TypeError: unhashable keys.
        message, line = _yaml_error(error, offset=1)
        invalid = Frontmatter(True, None, INVALID_YAML + message, end_line, {}, body_start, line)
        return invalid, close_end
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        message = f"{INVALID_YAML}expected a mapping, got {type_name(data)}"
        return Frontmatter(True, None, message, end_line, {}, body_start), close_end
    field_lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, _value in node.value:
            if isinstance(key, yaml.ScalarNode):
                # Mark lines are 0-based within the block, which starts on file line 2.
                field_lines[str(key.value)] = key.start_mark.line + 2
    front = Frontmatter(True, data, None, end_line, field_lines, body_start, yaml=source)
    return front, close_end


def _shape_problem(root: Any) -> tuple[str, int] | None:
    """Why the composed YAML graph under ``root`` is refused, and the file line of the node
    concerned (the block starts on line 2); None when it is within the bounds (:data:`MAX_DEPTH`,
    :data:`MAX_VALUES`, no alias inside the node it names).

    Each node is visited once (aliases share nodes), without recursion: the cost is linear in
    the block, whatever the aliases expand to."""
    import yaml

    def children(node: Any) -> list[Any]:
        if isinstance(node, yaml.SequenceNode):
            return list(node.value)
        if isinstance(node, yaml.MappingNode):
            return [item for pair in node.value for item in pair]
        return []

    sizes: dict[int, int] = {}  # id(node) -> values under it, aliases expanded, itself included
    depths: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            below = children(node)
            size = 1 + sum(sizes[id(child)] for child in below)
            depth = 1 + max((depths[id(child)] for child in below), default=0)
            line = node.start_mark.line + 2
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} levels deep (line {line})", line
            if size > MAX_VALUES:
                message = f"aliases expand to more than {MAX_VALUES:,} values (line {line})"
                return message, line
            sizes[key], depths[key] = size, depth
        elif key not in sizes:
            if key in on_path:
                line = node.start_mark.line + 2
                return f"an alias refers to a node that contains it (line {line})", line
            on_path.add(key)
            stack.append((node, True))
            pending = [child for child in children(node) if id(child) not in sizes]
            stack.extend((child, False) for child in reversed(pending))  # in document order
    return None


def _simple_value(raw: str) -> tuple[bool, str | None]:
    """``(True, value)`` when ``raw`` is certainly the YAML scalar ``value``; else
    ``(False, None)``: PyYAML must read it."""
    value = raw.rstrip(" ")
    if not value:
        return True, None  # ``key:`` alone is null
    if not value.isprintable():
        return False, None
    quote = value[0]
    if quote in "\"'":
        inner = value[1:-1]
        if len(value) >= 2 and value[-1] == quote and quote not in inner and "\\" not in inner:
            return True, inner
        return False, None
    if not (value[0].isalpha() or value[0] in _PLAIN_START_EXTRA):
        return False, None
    if ": " in value or " #" in value or value.endswith(":") or value.lower() in _NOT_STRINGS:
        return False, None
    return True, value


def _simple_mapping(source: str) -> tuple[dict[str, Any], dict[str, int]] | None:
    """The block as data and key lines when every line is a comment, blank, or a simple
    ``key: value`` (see :func:`_simple_value`); ``None`` when PyYAML must decide."""
    data: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for index, line in enumerate(source.split("\n")):
        line = line.rstrip("\r")
        if not line.strip(" ") or line.startswith("#"):
            continue
        match = _SIMPLE_LINE.match(line)
        if match is None or match.group(1).lower() in _NOT_STRINGS:
            return None
        ok, value = _simple_value(match.group(2) or "")
        if not ok:
            return None
        data[match.group(1)] = value
        lines[match.group(1)] = index + 2  # the block starts on file line 2
    return (data, lines) if data else None


def parse_frontmatter(text: str) -> Frontmatter:
    """Only the frontmatter of a file's text (RFC-0008:C-REGISTRY SKL100), without parsing
    the Markdown body: for callers such as ``list`` that need nothing else. A leading BOM is
    ignored; line numbers are the same as :func:`parse_markdown` gives."""
    from skillc_index.text import normalize_newlines

    return split_frontmatter(normalize_newlines(text.removeprefix(BOM)))[0]


# -- the frontmatter as a YAML 1.2 reader sees it ------------------------------------------------
#
# PyYAML reads YAML 1.1: `no` and `on` are booleans, `012` is octal 10, `1:20` is 80, an
# unquoted date is a date. The agents read YAML 1.2 (its core schema): those are the string
# "no", the number 12, the string "1:20". What the stub carries of the frontmatter is written
# from how a 1.2 reader reads the source, so that an agent loads the stub exactly as it would
# the source (DECISIONS, "Stub").

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
    return CoreLoader


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


def as_yaml_12(front: Frontmatter) -> dict[str, Any]:
    """The frontmatter's data as a YAML 1.2 reader (an agent) reads it: ``front.data``
    itself when no scalar reads otherwise there, or when the block cannot be read again."""
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
