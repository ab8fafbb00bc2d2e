"""The one reader of JSON that someone else could have written: bounded in size and nesting,
refused before the recursive parser sees it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillc_index import MAX_JSON_DEPTH, JsonRejected, loads_bounded, read_json_bounded
from skillc_index.bounded_json import (
    HUGE_INT,
    MAX_INT_DIGITS,
    TOO_DEEP,
    HugeInt,
    JsonTooDeep,
    json_depth,
    loads_cut,
)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def depth_of(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@given(json_values)
def test_the_depth_is_the_nesting_of_any_json_value(value: Any) -> None:
    assert json_depth(json.dumps(value)) == depth_of(value)
    assert json_depth(json.dumps(value, ensure_ascii=False, indent=1)) == depth_of(value)


def test_brackets_and_escaped_quotes_inside_strings_do_not_count() -> None:
    text = json.dumps({"a": ['[[[{{{"', "\\", '\\"[[', "x]]]}}"], "[": {"]": 1}})
    assert json_depth(text) == 2
    assert loads_bounded(text, max_depth=2)["["] == {"]": 1}


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000, 500_000])
def test_deep_input_is_refused_before_the_parser_recurses(depth: int) -> None:
    """Deeper than the interpreter's recursion limit: json.loads itself would raise
    RecursionError; the bounded reader refuses it first, with a low limit too."""
    for text in (nested(depth), '{"a":' * depth + "1" + "}" * depth):
        with pytest.raises(JsonRejected, match=r"^nested deeper than 64 levels$"):
            loads_bounded(text, max_bytes=10 << 20)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        with pytest.raises(JsonRejected):
            loads_bounded(nested(MAX_JSON_DEPTH + 1))
        assert loads_bounded(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))
    finally:
        sys.setrecursionlimit(limit)


def cut(value: Any, depth: int) -> Any:
    """``value`` with each array or object below ``depth`` levels as TOO_DEEP."""
    if isinstance(value, list | dict) and depth == 0:
        return TOO_DEEP
    if isinstance(value, list):
        return [cut(item, depth - 1) for item in value]
    if isinstance(value, dict):
        return {key: cut(item, depth - 1) for key, item in value.items()}
    return value


@given(json_values, st.integers(0, 4), st.integers(0, 200), st.sampled_from(["", "]", ",", "x"]))
def test_a_value_read_cut_is_the_value_below_the_bound(
    value: Any, depth: int, at: int, typo: str
) -> None:
    """What the MCP server reads of a request nested too deep (its id): the value, each
    array or object past the bound :data:`TOO_DEEP`; the whole still checked to be JSON,
    as :func:`json.loads` checks it (a character dropped or added anywhere)."""
    text = json.dumps(value, indent=at % 2 or None)
    assert loads_cut(text, max_depth=depth) == cut(value, depth)
    broken = text[:at] + typo + text[at + 1 :]
    try:
        expected = cut(json.loads(broken), depth)
    except ValueError:
        with pytest.raises(ValueError):
            loads_cut(broken, max_depth=depth)
    else:
        assert loads_cut(broken, max_depth=depth) == expected


def test_a_value_too_deep_to_parse_is_read_cut_without_recursion() -> None:
    """1 MiB of nesting, with a recursion limit of 200: refused by :func:`loads_bounded`
    (:class:`JsonTooDeep`), read cut by :func:`loads_cut`, in one pass; not JSON (a ']'
    short, a NaN inside, a key without a value) is still a ValueError."""
    depth = (1 << 19) - 40
    text = '{"id": 7, "params": ' + nested(depth) + "}"
    with pytest.raises(JsonTooDeep):
        loads_bounded(text)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        read = loads_cut(text)
        for bad in (text[:-2] + "}", text.replace("[]", "[NaN]"), text.replace("[]", '{"a"}')):
            with pytest.raises(ValueError):
                loads_cut(bad)
    finally:
        sys.setrecursionlimit(limit)
    assert read["id"] == 7 and depth_of(read) == 64
    innermost = read["params"]
    while innermost is not TOO_DEEP:
        innermost = innermost[0]
    with pytest.raises(JsonRejected, match="larger than 1 MiB"):
        loads_cut(" " * (1 << 20) + "1")


def test_an_unbalanced_prefix_counts_as_deep_not_shallow() -> None:
    """Input a parser would fail on may be refused for depth; what it would parse is never
    counted shallower than it is."""
    with pytest.raises(JsonRejected):
        loads_bounded("[" * 100 + '"unterminated')
    with pytest.raises(ValueError):
        loads_bounded(nested(3) + "]]]")


@pytest.mark.parametrize("end", ["", "\\"])
def test_a_string_never_closed_is_scanned_once_to_the_end(end: str) -> None:
    """A string left open runs to the end of the text in one match (with a lone backslash
    last too): the scan failed there and started again at each escaped quote inside it,
    quadratic in the line (an 80 KB request line of \\" held the MCP server 12 s)."""
    from skillc_index.bounded_json import _STRING

    text = '"x":"' + '\\"' * 50_000 + end
    assert _STRING.match(text, 4).end() == len(text)  # the open string, whole
    assert json_depth("{" + text) == 1
    with pytest.raises(ValueError):
        loads_bounded('{"params":{"x":"' + '\\"' * 50_000 + end)


@pytest.mark.parametrize(
    "text",
    ['{"a": 1e400}', "[-1E+999]", "[1" + "0" * 400 + ".5]", "NaN"],
    ids=["exponent", "negative", "digits", "nan"],
)
def test_what_python_reads_as_infinity_or_nan_is_not_json(text: str) -> None:
    """A number too large for a float (``1e400``) was read as infinity, and written back
    (a tool's ``parsed``) it was ``Infinity``: no JSON. Refused as ``NaN`` is."""
    with pytest.raises(ValueError, match=r"is not JSON|is too large"):
        loads_bounded(text)
    assert loads_bounded("[1e300, -2.5E-400, 1e308]") == [1e300, -0.0, 1e308]


def test_an_integer_past_python_s_digit_bound_is_read_as_huge_int() -> None:
    """Valid JSON holding an integer of more than 4,300 digits was a ``ValueError`` saying
    ``use sys.set_int_max_str_digits()`` (the MCP server's -32700 Parse error): it reads as
    ``HUGE_INT`` with its sign, which is JSON again; 4,300 digits read as they are."""
    assert MAX_INT_DIGITS == 4300 and len(str(HUGE_INT)) == MAX_INT_DIGITS
    nines = "9" * MAX_INT_DIGITS
    assert loads_bounded(f"[{nines}, -{nines}]") == [int(nines), -int(nines)]
    text = '{"a": ' + "7" * 5000 + ', "b": -' + "1" * 100_000 + ', "c": [1, -2]}'
    value = loads_bounded(text)
    assert value == {"a": HUGE_INT, "b": -HUGE_INT, "c": [1, -2]}
    assert loads_bounded(json.dumps(value)) == value


def test_an_integer_past_the_bound_is_told_by_its_type() -> None:
    """An integer of 4,300 nines and one of more digits read as the same value: the second
    is a :class:`HugeInt` (with its sign), so a reader (an MCP request id) can refuse it and
    take the first."""
    nines = "9" * MAX_INT_DIGITS
    value = loads_bounded(f"[{nines}, -{nines}, {nines}9, -{nines}9]")
    assert value == [HUGE_INT, -HUGE_INT, HUGE_INT, -HUGE_INT]
    assert [isinstance(v, HugeInt) for v in value] == [False, False, True, True]


def test_the_parser_s_own_int_reads_integers_within_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every integer went through a Python call (``parse_int``: a 2 MB array of 160,000
    integers read in 71 ms, 50 now); the parser's own ``int`` reads them, and the text is
    read again with the bounded hook only when one has more digits than Python converts."""
    import skillc_index.bounded_json as bounded_json

    calls: list[str] = []
    hook = bounded_json._bounded_int
    monkeypatch.setattr(bounded_json, "_bounded_int", lambda s: calls.append(s) or hook(s))
    assert loads_bounded('[1, -2, {"a": 30}]') == [1, -2, {"a": 30}]
    assert calls == []
    assert loads_bounded("[1, " + "7" * 5000 + "]") == [1, HUGE_INT]
    assert calls == ["1", "7" * 5000]
    for refused in ("[NaN, " + "7" * 5000 + "]", "[1e400, " + "7" * 5000 + "]", "[1, "):
        with pytest.raises(ValueError):  # refused as before, whichever error comes first
            loads_bounded(refused)


def test_size_bound_for_bytes_and_text() -> None:
    data = b'{"a": "' + b"x" * 100 + b'"}'
    assert loads_bounded(data, max_bytes=len(data)) == {"a": "x" * 100}
    with pytest.raises(JsonRejected, match=r"^larger than 100 bytes$"):
        loads_bounded(data, max_bytes=100)
    with pytest.raises(JsonRejected, match=r"^larger than 1 KiB$"):
        loads_bounded(" " * 1025 + "1", max_bytes=1024)


def test_bytes_are_decoded_as_json_loads_decodes_them() -> None:
    value = {"name": "café", "list": [1, 2]}
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "utf-32-le"):
        assert loads_bounded(json.dumps(value).encode(encoding)) == value
    with pytest.raises(ValueError):
        loads_bounded(b'{"a": "\xff"}')


def test_read_json_bounded(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text('{"ok": true}', encoding="utf-8")
    assert read_json_bounded(path) == {"ok": True}
    with pytest.raises(FileNotFoundError):
        read_json_bounded(tmp_path / "missing.json")
    path.write_bytes(b" " * (2 << 20) + b"{}")
    with pytest.raises(JsonRejected, match="larger than 1 MiB"):
        read_json_bounded(path)
    path.write_text(nested(1000), encoding="utf-8")
    with pytest.raises(JsonRejected, match="nested deeper than 64 levels"):
        read_json_bounded(path)
    path.write_text(nested(200), encoding="utf-8")
    assert read_json_bounded(path, max_depth=200) == json.loads(nested(200))
    with pytest.raises(OSError, match="not a regular file"):
        read_json_bounded(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "manifest.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_json_bounded(fifo)
