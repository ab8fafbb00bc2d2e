"""Frontmatter: the YAML block at the top of a Markdown file (RFC-0008:C-REGISTRY SKL100).

A file has frontmatter when its first line is ``---`` (a BOM before it and trailing blanks
are tolerated); the block ends at the next ``---`` line and is read with PyYAML's safe loader.

Most skills' frontmatter is read without PyYAML (:mod:`~skillc_index.markdown.simple_yaml`:
the shapes 98% of public ``SKILL.md`` blocks use, the same data PyYAML gives); anything else
goes to PyYAML.

Frontmatter comes from strangers, so what reaches PyYAML is bounded (issue 13), each bound an
SKL100 problem like any other invalid YAML:

- at most :data:`MAX_FRONTMATTER_BYTES` (64 KiB; real skills use a few hundred bytes);
- PyYAML's C composer recurses once per nesting level without a check and crashes the
  interpreter on deep input, so it only sees blocks that cannot nest deeply (fewer than
  :data:`C_LOADER_INDICATORS` of the characters every collection needs, ``[{-:?``); others go
  to the pure-Python loader, which reads the same YAML and stops with a RecursionError;
- once composed, at most :data:`MAX_DEPTH` levels deep, no alias inside the node it names,
  and at most :data:`MAX_VALUES` values and :data:`MAX_TEXT_CHARS` characters of text with
  every alias (and ``<<`` merge) expanded: a few KB of nested anchors would otherwise expand
  to billions of values, or to gigabytes of one long string repeated, for every reader
  (lint rules, the stub, JSON output, the MCP Skills extension's listing).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from skillc_index.markdown.simple_yaml import FieldLines, simple_mapping
from skillc_index.record import Record
from skillc_index.text import BOM, valid_utf8

FENCE = "---"

#: SKL100 messages, verbatim (RFC-0008:C-REGISTRY).
NO_OPENING = "missing frontmatter: file does not start with ---"
NO_CLOSING = "missing frontmatter: no closing --- found"
INVALID_YAML = "invalid frontmatter YAML: "

#: Frontmatter larger than this is not given to PyYAML (SKL100).
MAX_FRONTMATTER_BYTES = 64 * 1024
#: The SKL100 message of a frontmatter over :data:`MAX_FRONTMATTER_BYTES`.
TOO_LARGE = f"{INVALID_YAML}frontmatter is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB"
#: Nesting levels a frontmatter may have (the top-level mapping is one).
MAX_DEPTH = 100
#: Values (scalars and collections, keys included) a frontmatter may hold once its aliases
#: are expanded. More than 64 KiB of YAML without aliases can hold.
MAX_VALUES = 100_000
#: Characters of text (every scalar's, keys included) a frontmatter may hold once its aliases
#: are expanded: a block without aliases holds less than its own size (64 KiB), and a few KB
#: of aliases of a long string would otherwise be megabytes in every reader's output (a
#: listing of the MCP Skills extension carries the frontmatter whole).
MAX_TEXT_CHARS = 4 * MAX_FRONTMATTER_BYTES
#: A block with fewer of the characters every collection starts with (``[{-:?``) than this
#: nests less deeply, so PyYAML's C composer may read it; others take the Python loader.
C_LOADER_INDICATORS = 1000

#: What every date holds: a block is searched for it (15x sooner than for
#: :data:`~skillc_index.markdown.simple_yaml._DATE`).
_DATE_HINT = re.compile(r"-[0-9]{2}-")


class RepeatedKey(Record):
    """A key written again in a mapping (YAML 1.2 forbids it; readers keep the last value)."""

    path: tuple[str | int, ...]  # from the top (a list item: its index): ("metadata", "a")
    first: int  # the file line of its first key
    again: int  # the file line of the key written again

    @property
    def key(self) -> str:
        """The path as messages write it: ``name``, ``metadata.author``, ``hooks.Stop[0].x``."""
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)[1:]


KeyLines = tuple[FieldLines, tuple[RepeatedKey, ...]]  # what :func:`_key_lines` finds


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
    field_lines: FieldLines = field(default_factory=dict)
    """Line of each top-level key (``"metadata"``) and of each key of a mapping under one
    (``("metadata", "version")``), the last one when a key is repeated, as YAML keeps it."""
    body_start: int = 1
    """First line after the frontmatter; 1 when there is no (closed) frontmatter."""
    error_line: int = 1
    """The line ``error`` is about: where YAML found its problem, else 1 (the opening)."""
    yaml: str = field(default="", compare=False, repr=False)
    """The block's text when PyYAML read it, or the fast path with a date in it (empty when
    the fast path read values that YAML 1.1 and 1.2 read alike): :func:`as_yaml_12` reads
    it again."""
    text: str = field(default="", compare=False, repr=False)
    """The block's text, when it was read (:func:`~.yaml12.scalar_texts` reads it again)."""
    repeated: tuple[RepeatedKey, ...] = ()
    """Each key written again, in any mapping of the block, in the order of the lines."""

    @functools.cached_property
    def data_12(self) -> dict[str, Any]:
        """:func:`as_yaml_12`, read once: what every check of a field reads (``name``,
        ``description``, skillc-lint's rules), as the agents and the stub do."""
        from skillc_index.markdown.yaml12 import read_12

        return read_12(self)

    def field_12(self, key: str) -> Any:
        """The top-level field ``key`` as :attr:`data_12` holds it, without reading the block
        again when YAML 1.1's reading of it is a string a 1.2 reader reads alike (a skill's
        name and description, nearly always: ``skc find`` reads thousands of them)."""
        value = self.data.get(key) if self.data else None
        if isinstance(value, str) and "<<" not in self.yaml:
            from skillc_index.markdown.yaml12 import CORE_NOT_STRING

            if CORE_NOT_STRING.fullmatch(value) is None:
                return value
        return self.data_12.get(key)


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
    elif isinstance(error, ValueError) and "integer string conversion" in str(error):
        # Python's own words differ by version ("limit (4300)" on 3.10, "limit (4300 digits)"
        # after) and end in advice for a programmer: one message on every Python
        import sys

        message = f"a number of more than {sys.get_int_max_str_digits()} digits"
    else:
        message = str(error) or type(error).__name__
    return " ".join(message.split()), line


def too_large(source: str) -> bool:
    """Whether the YAML block ``source`` (its lines, the fences left out, line breaks made
    ``\n``) is larger than the reader reads (:data:`MAX_FRONTMATTER_BYTES` of UTF-8): its
    frontmatter is refused (:data:`TOO_LARGE`). Encodes no text longer than the bound."""
    return (
        len(source) > MAX_FRONTMATTER_BYTES
        or len(source.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
    )


def split_frontmatter(text: str, *, parse_yaml: bool = True) -> tuple[Frontmatter, int]:
    """RFC-0008:C-REGISTRY SKL100: the frontmatter of ``text`` (BOM already removed) and the
    offset in ``text`` where the body starts (0 when there is no closed frontmatter).

    Only the lines up to the closing ``---`` are looked at, so this stays cheap for callers
    that need nothing else (``list``). Without ``parse_yaml`` the block is not read at all (its
    ``data`` and ``error`` are None): where it ends is all the index needs.

    ``text`` must have its line breaks normalized (:func:`~skillc_index.text.normalize_newlines`:
    ``\\r\\n`` and a lone ``\\r`` made ``\\n``), as every reader of a file does first
    (:func:`parse_frontmatter`, ``parse_markdown``): a ``\\r`` is not read as a line break here.
    """
    first_end = text.find("\n")
    first = text if first_end < 0 else text[:first_end]
    if not _is_fence(first):
        return Frontmatter(False, None, NO_OPENING, 0), 0
    start = first_end + 1
    # the line break before the closing line: the first line after the opening that is a fence
    fence = text.find("\n---", first_end) if first_end >= 0 else -1
    newline = -1
    while fence >= 0:
        newline = text.find("\n", fence + 1)
        if _is_fence(text[fence + 1 : newline if newline >= 0 else len(text)]):
            break
        fence = text.find("\n---", fence + 1)
    if fence < 0:
        return Frontmatter(True, None, NO_CLOSING, 0), 0
    close_start, close_end = fence + 1, (len(text) if newline < 0 else newline + 1)
    end_line = text.count("\n", 0, close_start) + 1
    body_start = end_line + 1
    if not parse_yaml:
        return Frontmatter(True, None, None, end_line, {}, body_start), close_end
    source = text[start:close_start]
    if not source.strip():
        return Frontmatter(True, {}, None, end_line, {}, body_start), close_end
    if too_large(source):
        return Frontmatter(True, None, TOO_LARGE, end_line, {}, body_start), close_end
    simple = simple_mapping(source)
    if simple is not None:
        again = source if _DATE_HINT.search(source) else ""  # YAML 1.2 may read otherwise
        data, lines = simple
        front = Frontmatter(True, data, None, end_line, lines, body_start, yaml=again, text=source)
        return front, close_end

    try:
        data, node, (field_lines, repeated) = load_bounded_yaml(source, first_line=2, keys=True)
    except YAMLProblem as problem:
        message, line = INVALID_YAML + str(problem), problem.line
        return Frontmatter(True, None, message, end_line, {}, body_start, line), close_end
    data = {} if node is None else data
    if not isinstance(data, dict):
        message = f"{INVALID_YAML}expected a mapping, got {type_name(data)}"
        return Frontmatter(True, None, message, end_line, {}, body_start), close_end
    front = Frontmatter(
        True,
        data,
        None,
        end_line,
        field_lines,
        body_start,
        yaml=source,
        text=source,
        repeated=repeated,
    )
    return front, close_end


def _key_lines(root: Any, first_line: int) -> KeyLines:
    """The file line of each key of ``root`` and of a mapping under it (composed, before a
    merge key flattens it; its line 0 is ``first_line``) and each key written again in any
    mapping, in line order; each node looked at once (aliases share nodes), ``<<`` skipped."""
    import yaml

    field_lines: FieldLines = {}
    found: list[RepeatedKey] = []
    done: set[int] = set()
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if id(node) in done:
            continue
        done.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack += reversed([((*path, at), item) for at, item in enumerate(node.value)])
        elif isinstance(node, yaml.MappingNode):
            lines: dict[str, int] = {}
            below: list[tuple[tuple[str | int, ...], Any]] = []
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    name, line = str(key.value), key.start_mark.line + first_line
                    if not path:
                        field_lines[name] = line
                    elif len(path) == 1:
                        field_lines[str(path[0]), name] = line
                    if name in lines:
                        found.append(RepeatedKey((*path, name), lines[name], line))
                    lines.setdefault(name, line)
                    below.append(((*path, name), value))
            stack += reversed(below)  # in document order: an alias's node is named where written
    return field_lines, tuple(sorted(found, key=lambda repeated: repeated.again))


class YAMLProblem(ValueError):
    """Why :func:`load_bounded_yaml` refuses a YAML text: ``str()`` is the message (without
    :data:`INVALID_YAML`), :attr:`line` the file line it is about (1 when none is known)."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


def load_bounded_yaml(
    source: str, *, first_line: int = 1, keys: bool = False
) -> tuple[Any, Any, KeyLines]:
    """The data of the one YAML document ``source``, its composed node (both None when it is
    empty) and, with ``keys``, its key lines (:func:`_key_lines`, taken before a merge key
    flattens the node; empty without), read with PyYAML's safe loader within this module's
    bounds (:data:`MAX_DEPTH`, :data:`MAX_VALUES`, :data:`MAX_TEXT_CHARS`, no alias inside the
    node it names); the caller bounds its size.
    ``first_line`` is the file line ``source`` starts on, for the lines of messages. Raises
    :class:`YAMLProblem`.
    A lone surrogate in ``source`` (an editor's unsaved text, a JSON string) is read as U+FFFD,
    as a file's undecodable bytes are (:func:`~skillc_index.text.decoded`): PyYAML's C
    reader cannot encode it."""
    import yaml

    source = valid_utf8(source)
    # Every collection needs one of these characters, so there are at most this many nested
    # levels (plus the scalars); aliases are what can expand or loop.
    indicators = sum(source.count(char) for char in "[{-:?")
    use_c = indicators < C_LOADER_INDICATORS and hasattr(yaml, "CSafeLoader")
    loader = yaml.CSafeLoader(source) if use_c else yaml.SafeLoader(source)
    bounded = indicators < MAX_DEPTH and "*" not in source  # the common case: nothing to check
    try:
        node = loader.get_single_node()
        problem = None if node is None or bounded else _shape_problem(node, first_line)
        lines: KeyLines = _key_lines(node, first_line) if keys and not problem else ({}, ())
        data = None if node is None or problem else loader.construct_document(node)
    except RecursionError:  # the Python loader on deep nesting (the C one never sees it)
        raise YAMLProblem(f"nested more than {MAX_DEPTH} levels deep") from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as error:
        # ValueError: impossible dates such as 2024-02-30; TypeError: unhashable keys.
        raise YAMLProblem(*_yaml_error(error, offset=first_line - 1)) from None
    except (KeyError, IndexError, AttributeError):
        # An explicit tag whose value cannot be built: PyYAML's constructors index and look up
        # without checks (``!!bool maybe``, ``!!int ''``, ``!!float ''``, ``!!timestamp x``).
        raise YAMLProblem(*_tag_problem(loader, node, first_line)) from None
    finally:
        loader.dispose()
    if problem is not None:
        raise YAMLProblem(*problem)
    return data, node, lines


def _tag_problem(loader: Any, root: Any, first_line: int) -> tuple[str, int]:
    """The message and file line of an explicitly tagged scalar PyYAML failed to build: the
    node it was building last (``root`` when none is known)."""
    node = next(reversed(loader.recursive_objects), root)
    tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
    line = node.start_mark.line + first_line
    value = f" {node.value!r}" if isinstance(node.value, str) else ""
    return f"cannot read a `{tag}` value{value} (line {line})", line


def _shape_problem(root: Any, first_line: int) -> tuple[str, int] | None:
    """Why the composed YAML graph under ``root`` is refused, and the file line of the node
    concerned (the YAML starts on ``first_line``); None when it is within the bounds
    (:data:`MAX_DEPTH`, :data:`MAX_VALUES`, :data:`MAX_TEXT_CHARS`, no alias inside the node
    it names).

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
    texts: dict[int, int] = {}  # id(node) -> characters of the scalars under it, the same way
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
            text = sum(texts[id(child)] for child in below)
            if isinstance(node, yaml.ScalarNode):
                text = len(node.value)
            line = node.start_mark.line + first_line
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} levels deep (line {line})", line
            if size > MAX_VALUES:
                return f"aliases expand to more than {MAX_VALUES:,} values (line {line})", line
            if text > MAX_TEXT_CHARS:
                chars = f"{MAX_TEXT_CHARS:,} characters of text"
                return f"aliases expand to more than {chars} (line {line})", line
            sizes[key], texts[key], depths[key] = size, text, depth
        elif key not in sizes:
            if key in on_path:
                line = node.start_mark.line + first_line
                return f"an alias refers to a node that contains it (line {line})", line
            on_path.add(key)
            stack.append((node, True))
            pending = [child for child in children(node) if id(child) not in sizes]
            stack.extend((child, False) for child in reversed(pending))  # in document order
    return None


def parse_frontmatter(text: str) -> Frontmatter:
    """Only the frontmatter of a file's text (RFC-0008:C-REGISTRY SKL100), without parsing
    the Markdown body: for callers such as ``list`` that need nothing else. A leading BOM is
    ignored; line numbers are the same as :func:`parse_markdown` gives."""
    from skillc_index.text import normalize_newlines

    return split_frontmatter(normalize_newlines(text.removeprefix(BOM)))[0]


def as_yaml_12(front: Frontmatter) -> dict[str, Any]:
    """The frontmatter's data as a YAML 1.2 reader (an agent) reads it: ``front.data``
    itself when no scalar reads otherwise there, or when the block cannot be read again
    (``{}`` when there is none). Read once per frontmatter (:attr:`Frontmatter.data_12`)."""
    return front.data_12
