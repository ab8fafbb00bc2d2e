"""Reading JSON that someone else could have written, within bounds of size and nesting.

Manifests of deployed skills, import records and route manifests in a checkout, committed
lint baselines, the ``args`` of access-log rows (a team store any teammate writes to), the
output of a skill's tool: any of them may be hostile. :func:`json.loads` reads the whole
input and recurses once per nesting level, so a megabyte of ``[`` stops the process with a
``RecursionError`` that nothing expects. :func:`loads_bounded` refuses input larger than
``max_bytes`` or nested deeper than ``max_depth`` *before* parsing: :func:`json_depth`
measures the nesting with regular expressions and a running sum (no recursion, linear
time), so the parser never sees input deep enough to recurse far. :func:`read_json_bounded`
reads a file the same way, and never more than ``max_bytes + 1`` bytes of it.

Every refusal is a :class:`ValueError` (:class:`JsonRejected` for the bounds, the parser's
own :class:`json.JSONDecodeError` or :class:`UnicodeDecodeError` for the rest, and a plain one
for what Python's reader takes and JSON has not: ``NaN``/``Infinity``, a number too large for a
float), so a caller catches one type and skips that one file or row. An integer of more than
:data:`MAX_INT_DIGITS` digits is valid JSON that Python will not convert (a ``ValueError``
naming ``sys.set_int_max_str_digits()``): it reads as :data:`HUGE_INT` (its sign kept), a
:class:`HugeInt`, so a reader tells it from an integer of 4,300 nines by its type.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
from collections.abc import Callable
from itertools import accumulate
from typing import Any

__all__ = [
    "HUGE_INT",
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "NEGATIVE_HUGE_INT",
    "TOO_DEEP",
    "HugeInt",
    "JsonRejected",
    "JsonTooDeep",
    "TooDeep",
    "cut_where",
    "json_depth",
    "loads_bounded",
    "loads_cut",
    "read_json_bounded",
]

#: The default size bound (1 MiB): skillc's own files are a few KiB.
MAX_JSON_BYTES = 1 << 20
#: The default nesting bound: skillc's own files nest 4 levels at most.
MAX_JSON_DEPTH = 64
#: The digits of the longest integer read as it is (Python's own bound on converting a
#: string to an integer, ``sys.get_int_max_str_digits()``'s default: longer is quadratic).
MAX_INT_DIGITS = 4300


class HugeInt(int):
    """An integer of more than :data:`MAX_INT_DIGITS` digits as :func:`loads_bounded` reads
    it: :data:`HUGE_INT` or its negation, an ``int`` (compared and written back as one),
    whose type says the text held more digits (an id it cannot be answered with)."""

    __slots__ = ()


#: What an integer of more digits reads as (:data:`NEGATIVE_HUGE_INT` for a negative one):
#: the largest of :data:`MAX_INT_DIGITS` digits, past every bound a reader checks (so
#: refused as that number would be, ``must be at most ...``), and written back as JSON still.
HUGE_INT: int = HugeInt(10**MAX_INT_DIGITS - 1)
NEGATIVE_HUGE_INT: int = HugeInt(-HUGE_INT)

# A JSON string, escapes included (the unrolled form: no backtracking, no recursion); one
# never closed runs to the end of the text (a lone backslash last included), so the scan
# takes it in one pass: else it failed there and started again at each escaped quote of
# it, quadratic (an 80 KB line of \" took 12 s).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonRejected(ValueError):
    """JSON refused for its size or its nesting, before it was parsed. Its text says why in
    words that follow "is" (``larger than 1 MiB``, ``nested deeper than 64 levels``)."""


class JsonTooDeep(JsonRejected):
    """JSON refused for its nesting (:func:`loads_cut` reads what it holds within it)."""


class TooDeep:
    """A value :func:`loads_cut` did not read: an array or object nested past its bound."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "TOO_DEEP"


#: What :func:`loads_cut` reads an array or object nested past its bound as.
TOO_DEEP = TooDeep()


def json_depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in ``text``, outside strings; linear time, no
    recursion. Where ``text`` is not JSON it may count more than a parser would reach,
    never less (a parser stops at the first error)."""
    if "[" not in text and "{" not in text:
        return 0
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    opened = len(brackets) - brackets.count("]") - brackets.count("}")
    if opened <= 1:
        return opened
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets))))


def loads_bounded(
    data: bytes | str,
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """``json.loads(data)``, refusing (:class:`JsonRejected`) more than ``max_bytes`` (bytes
    of ``data``, characters of a ``str``) and nesting deeper than ``max_depth``. Bytes are
    decoded as :func:`json.loads` decodes them (UTF-8, -16 or -32). What it returns is JSON
    again: ``NaN``/``Infinity`` and a number that overflows a float (``1e400``, which Python
    reads as infinity) are a :class:`ValueError`, as is any other input that is no JSON.
    ``object_pairs_hook``: :func:`json.loads`'s (a reader refusing a key written twice)."""
    if len(data) > max_bytes:
        raise JsonRejected(f"larger than {_size(max_bytes)}")
    text = (
        data if isinstance(data, str) else data.decode(json.detect_encoding(data), "surrogatepass")
    )
    if json_depth(text) > max_depth:
        raise JsonTooDeep(f"nested deeper than {max_depth} levels")
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()  # 0: none (3.10.6 and before)
    if 0 < limit <= MAX_INT_DIGITS:  # int itself refuses what _bounded_int reads otherwise
        try:  # the parser's own int, no Python call per integer (2 MB, 160k ints: 71 -> 50 ms)
            return json.loads(
                text,
                parse_constant=_no_constant,
                parse_float=_finite,
                object_pairs_hook=object_pairs_hook,
            )
        except json.JSONDecodeError:
            raise
        except ValueError as exc:  # an integer of more digits, or a refused float or NaN
            if "integer string conversion" not in str(exc):  # Python's words, 3.10 to 3.14
                raise
    return json.loads(
        text,
        parse_constant=_no_constant,
        parse_float=_finite,
        parse_int=_bounded_int,
        object_pairs_hook=object_pairs_hook,
    )


def loads_cut(
    data: bytes | str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> Any:
    """``data`` as :func:`loads_bounded` reads it, but an array or object nested deeper than
    ``max_depth`` reads as :data:`TOO_DEEP` instead of refusing the whole (:class:`JsonTooDeep`):
    what the rest says can be answered (an MCP request's id). The whole is still checked to be
    JSON, without recursion: one pass over its tokens with a stack (:func:`_cut_spans`), then
    the parser reads it with each cut value's text replaced by ``NaN``, which no JSON holds.
    A :class:`ValueError` for what is no JSON, :class:`JsonRejected` over ``max_bytes``."""
    if len(data) > max_bytes:
        raise JsonRejected(f"larger than {_size(max_bytes)}")
    text = (
        data if isinstance(data, str) else data.decode(json.detect_encoding(data), "surrogatepass")
    )
    pieces, at = [], 0
    for start, end in _cut_spans(text, max_depth):
        pieces += [text[at:start], "NaN"]
        at = end
    pieces.append(text[at:])
    return json.loads(
        "".join(pieces),
        parse_constant=lambda _: TOO_DEEP,
        parse_float=_finite,
        parse_int=_bounded_int,
    )


def cut_where(message: object) -> str | None:
    """Where a JSON-RPC ``message`` read by :func:`loads_cut` holds :data:`TOO_DEEP`:
    ``"request"`` (outside its ``params``), ``"params"``, or None (nowhere, or no object);
    what a server answers such a request with, by its id (-32600, -32602). No recursion: a
    stack of the arrays and objects to look in."""
    if not isinstance(message, dict):
        return None
    for where, value in (
        ("request", [each for key, each in message.items() if key != "params"]),
        ("params", message.get("params")),
    ):
        stack = [value]
        while stack:
            item = stack.pop()
            if item is TOO_DEEP:
                return where
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return None


# A token of JSON after blanks: an opening, a closing, a comma, a colon, a string's quote
# (:func:`json.decoder.scanstring` reads the string), a number or a literal.
_TOKEN = (
    r"[ \t\n\r]*(?:([\[{])|([\]}])|(,)|(:)|(\")"
    r"|(-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null))"
)
# What a token may be where the reader is (after a value, a ':', a '[' ...): the states.
_VALUE, _FIRST_VALUE, _FIRST_KEY, _KEY, _COLON, _AFTER = range(6)


def _cut_spans(text: str, max_depth: int) -> list[tuple[int, int]]:
    """The spans of ``text`` holding an array or object nested deeper than ``max_depth``
    (the outermost of each), checking that ``text`` is one JSON value: a
    :class:`json.JSONDecodeError` where it is not. No recursion (a stack of the open
    brackets), linear time."""
    from json.decoder import scanstring  # type: ignore[attr-defined]  # (not in typeshed)

    token = re.compile(_TOKEN)
    stack: list[str] = []
    spans: list[tuple[int, int]] = []
    state, at, cut = _VALUE, 0, 0
    while (match := token.match(text, at)) is not None:
        kind, at = match.lastindex, match.end()
        if kind == 1 and state in (_VALUE, _FIRST_VALUE):  # '[' or '{'
            stack.append(text[at - 1])
            if len(stack) == max_depth + 1:
                cut = at - 1
            state = _FIRST_VALUE if text[at - 1] == "[" else _FIRST_KEY
        elif kind == 2 and stack and state in (_AFTER, _FIRST_VALUE, _FIRST_KEY):
            if stack.pop() + text[at - 1] not in ("[]", "{}"):
                break
            if len(stack) == max_depth:
                spans.append((cut, at))
            state = _AFTER
        elif kind == 3 and state == _AFTER and stack:  # ','
            state = _VALUE if stack[-1] == "[" else _KEY
        elif kind == 4 and state == _COLON:
            state = _VALUE
        elif kind == 5 and state not in (_COLON, _AFTER):  # a string: a value or a key
            at = scanstring(text, at, True)[1]
            state = _AFTER if state in (_VALUE, _FIRST_VALUE) else _COLON
        elif kind is not None and kind >= 6 and state in (_VALUE, _FIRST_VALUE):
            if match.group(7) or match.group(8):
                _finite(match.group(6))
            state = _AFTER
        else:
            at = match.start(kind or 0)
            break
        if state == _AFTER and not stack:
            at = len(text) - len(text[at:].lstrip(" \t\n\r"))
            if at == len(text):
                return spans
            break
    raise json.JSONDecodeError("not JSON", text, at)


def _bounded_int(literal: str) -> int:
    """A JSON integer; past :data:`MAX_INT_DIGITS` digits :data:`HUGE_INT` (with its sign),
    never converted: ``int()`` refuses it, and would take quadratic time."""
    if len(literal) <= MAX_INT_DIGITS:
        return int(literal)
    if literal[0] == "-":
        return int(literal) if len(literal) <= MAX_INT_DIGITS + 1 else NEGATIVE_HUGE_INT
    return HUGE_INT


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity``, ``-Infinity``: Python's reader takes them, JSON has none (a file
    holding one, read and written back, is no JSON for any other reader)."""
    raise ValueError(f"{name} is not JSON")


def _finite(literal: str) -> float:
    """A JSON number with a fraction or an exponent, refused when too large for a float
    (``1e400``): Python reads it as infinity, which written back is ``Infinity``, no JSON."""
    value = float(literal)
    if value in (math.inf, -math.inf):
        shown = literal if len(literal) <= 24 else literal[:20] + "..."
        raise ValueError(f"the number {shown} is too large")
    return value


def read_json_bounded(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
    dir_fd: int | None = None,
    follow: bool = True,
) -> Any:
    """The JSON of the file at ``path`` (:func:`loads_bounded`). Only a regular file is read
    (a FIFO is refused without blocking), at most ``max_bytes + 1`` bytes of it; ``dir_fd``
    and ``follow`` as :func:`read_bounded` takes them. Raises :class:`OSError` when it
    cannot be read (:class:`FileNotFoundError` when it is not there), :class:`ValueError`
    when it is not JSON within the bounds."""
    data = read_bounded(path, max_bytes, dir_fd=dir_fd, follow=follow)
    return loads_bounded(data, max_bytes=max_bytes, max_depth=max_depth)


def read_bounded(
    path: str | os.PathLike[str],
    max_bytes: int,
    *,
    dir_fd: int | None = None,
    follow: bool = True,
) -> bytes:
    """At most ``max_bytes + 1`` bytes of the regular file at ``path`` (more than
    ``max_bytes`` says it is too large): a checkout's file (a config, a baseline, a
    ``.gitignore``, a manifest), opened without blocking and checked before it is read, so a
    FIFO or a link to the reader's own stdin or stdout never hangs it. ``path`` relative to
    the folder ``dir_fd`` is open on when given (a walk's listing: the folder it checked);
    with ``follow`` False a symlink is not read (:class:`OSError`, ``ELOOP``: a walk's
    ``.skillc-package.json``, ``CACHEDIR.TAG``). :class:`OSError` (``EINVAL``, "not a
    regular file") for anything else, :class:`FileNotFoundError` when there is nothing;
    :class:`OSError` (``EINVAL``) too for a path holding a NUL byte, which names no file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except ValueError:  # "embedded null byte"
        from skillc_index.text import NUL_REASON, nul_shown

        raise OSError(errno.EINVAL, NUL_REASON, nul_shown(os.fspath(path))) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        return handle.read(max_bytes + 1)


def _size(limit: int) -> str:
    if limit >= 1 << 20 and not limit % (1 << 20):
        return f"{limit >> 20} MiB"
    if limit >= 1 << 10 and not limit % (1 << 10):
        return f"{limit >> 10} KiB"
    return f"{limit:,} bytes"
