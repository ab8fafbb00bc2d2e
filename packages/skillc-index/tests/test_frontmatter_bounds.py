"""Hostile frontmatter (issue 13): what PyYAML is never given, and what is refused after it.

Deep nesting used to segfault PyYAML's C composer (so these run in a child process: a crash
there fails the test instead of killing pytest), and a few KB of anchors and aliases expanded
to billions of values. Both are SKL100 now, with a message saying which bound was passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from skillc_index.markdown.frontmatter import (
    INVALID_YAML,
    MAX_DEPTH,
    MAX_FRONTMATTER_BYTES,
    MAX_TEXT_CHARS,
    MAX_VALUES,
    parse_frontmatter,
)


def parse_in_child(text: str) -> dict[str, object]:
    """``parse_frontmatter(text)`` in a fresh interpreter: its error and data, as JSON."""
    code = textwrap.dedent(
        """
        import json, sys
        from skillc_index.markdown.frontmatter import parse_frontmatter
        front = parse_frontmatter(sys.stdin.read())
        print(json.dumps({"error": front.error, "line": front.error_line,
                          "ok": front.data is not None}))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        input=text,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def doc(block: str) -> str:
    return f"---\nname: x\ndescription: Use when testing.\n{block}\n---\n# X\n"


@pytest.mark.parametrize(
    "block",
    [
        "x: " + "[" * 200_000,  # unclosed: the C composer used to crash before reporting it
        "x: " + "[" * 30_000 + "]" * 30_000,  # closed, under the size bound
        "x: " + "{a: " * 15_000 + "}" * 15_000,
        "x:\n" + "- " * 30_000 + "a",  # block sequences, two bytes a level
    ],
    ids=["flow-unclosed-200k", "flow-closed", "flow-mappings", "block-sequences"],
)
def test_deep_nesting_is_skl100_not_a_crash(block: str) -> None:
    result = parse_in_child(doc(block))
    assert result["ok"] is False
    error = str(result["error"])
    assert error.startswith(INVALID_YAML), error


def test_nesting_up_to_the_bound_is_read() -> None:
    depth = MAX_DEPTH - 1  # the top-level mapping is one level
    front = parse_frontmatter(doc("x: " + "[" * (depth - 1) + "1" + "]" * (depth - 1)))
    assert front.error is None, front.error
    value = front.data["x"] if front.data else None
    for _ in range(depth - 2):
        assert isinstance(value, list)
        value = value[0]
    assert value == [1]


def test_nesting_past_the_bound_is_skl100() -> None:
    depth = MAX_DEPTH + 1
    front = parse_frontmatter(doc("x: " + "[" * depth + "]" * depth))
    assert front.data is None
    assert front.error == f"{INVALID_YAML}nested more than {MAX_DEPTH} levels deep (line 4)"
    assert front.error_line == 4


@pytest.mark.parametrize("value", ["9" * 5000, "1" * 19, "-" + "9" * 5000])
def test_a_number_of_thousands_of_digits_is_skl100_not_a_crash(value: str) -> None:
    """Python's ``int`` refuses more than 4,300 digits: the fast path leaves long numbers to
    PyYAML, whose ValueError is an SKL100 problem."""
    front = parse_frontmatter(doc(f"x: {value}\ny:\n  - a"))
    if len(value) > 4300:
        # one message on every Python (3.10 says "limit (4300)", 3.11 "limit (4300 digits)")
        assert front.data is None
        assert front.error == f"{INVALID_YAML}a number of more than 4300 digits"
    else:
        assert front.data is not None and front.data["x"] == int(value)


def test_random_blocks_never_raise() -> None:
    """Blocks of random lines, seeded: keys with values of YAML's characters, or indented
    and ``-`` lines of them. Every one reads as data or as an SKL100 problem, the fast path
    (which reads some whole and refuses many partway) or PyYAML's."""
    import random

    from skillc_index.markdown.simple_yaml import simple_mapping

    rng = random.Random(13)
    chars = [*"abz09 :-#'\"|>[]{},.&*!?%@`\t\\", ": ", "- ", "  ", "true", "1.0", "9" * 30]
    starts = ["", "  ", "  - ", "- ", "  k: ", "    "]
    fast = 0
    for _ in range(3000):
        lines = []
        for n in range(rng.randint(1, 5)):
            value = "".join(rng.choice(chars) for _ in range(rng.randint(0, 6)))
            lines.append(f"k{n}: {value}" if rng.random() < 0.5 else rng.choice(starts) + value)
        block = "\n".join(lines)
        front = parse_frontmatter(f"---\n{block}\n---\n")
        assert (front.data is None) == (front.error is not None), block
        fast += simple_mapping(block + "\n") is not None
    assert fast > 50  # the fast path read some whole


def test_frontmatter_over_the_size_bound_is_skl100() -> None:
    filler = "# " + "x" * 98 + "\n"
    block = filler * (MAX_FRONTMATTER_BYTES // len(filler) + 1)
    front = parse_frontmatter(doc(block + "tags: [a]"))
    assert front.data is None
    assert front.error == (
        f"{INVALID_YAML}frontmatter is larger than {MAX_FRONTMATTER_BYTES // 1024} KiB"
    )
    # plain `key: value` lines (read without YAML) have the same bound
    plain = parse_frontmatter(doc("name: h2\ndescription: " + "w " * 40_000))
    assert plain.data is None and plain.error == front.error


def billion_laughs(levels: int, width: int = 9, field: str = "tags") -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * width) + "]")
    lines.append(f"{field}: *a{levels - 1}")
    return "\n".join(lines)


def test_alias_expansion_is_bounded() -> None:
    front = parse_frontmatter(doc(billion_laughs(10)))
    error = front.error  # checked first: a failure must not print the expanded data
    assert error is not None
    assert error.startswith(f"{INVALID_YAML}aliases expand to more than {MAX_VALUES:,} values")
    assert front.data is None


def long_text_laughs(levels: int, size: int = 2000, width: int = 30) -> str:
    """A string of ``size`` characters, then lists of ``width`` aliases of the level before:
    few values, but ``size * width ** levels`` characters once expanded."""
    lines = [f"a0: &a0 {'x' * size}"]
    for level in range(1, levels + 1):
        lines.append(f"a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * width) + "]")
    return "\n".join(lines)


def test_alias_expansion_of_long_text_is_bounded() -> None:
    """A 2 KB block of aliases of one 2,000-character string holds fewer than 1,000 values
    but 1.8 million characters once expanded (a 56 MB page of the MCP Skills extension's
    listing): refused as the count is, by the text it expands to."""
    front = parse_frontmatter(doc(long_text_laughs(2)))
    error = front.error
    assert error is not None
    assert error.startswith(
        f"{INVALID_YAML}aliases expand to more than {MAX_TEXT_CHARS:,} characters of text"
    )
    assert front.data is None
    # near miss: 60,000 characters of aliases of it are read
    fine = parse_frontmatter(doc(long_text_laughs(1)))
    assert fine.error is None, fine.error
    assert fine.data is not None
    assert fine.data["a1"] == ["x" * 2000] * 30


def test_merge_key_expansion_is_bounded() -> None:
    lines = ["m0: &m0 {a: 1, b: 2, c: 3, d: 4}"]
    for level in range(1, 6):
        merged = ", ".join([f"*m{level - 1}"] * 9)
        lines.append(f"m{level}: &m{level} {{<<: [{merged}]}}")
    front = parse_frontmatter(doc("\n".join(lines)))
    error = front.error
    assert error is not None
    assert "aliases expand" in error
    assert front.data is None


def test_recursive_alias_is_skl100() -> None:
    front = parse_frontmatter(doc("x: &a [1, *a]"))
    error = front.error
    assert error == f"{INVALID_YAML}an alias refers to a node that contains it (line 4)"


def test_a_few_aliases_are_fine() -> None:
    block = "base: &b {type: command, command: run.sh}\nhooks: {Stop: [{hooks: [*b, *b]}]}"
    front = parse_frontmatter(doc(block))
    assert front.error is None, front.error
    assert front.data is not None
    assert front.data["hooks"]["Stop"][0]["hooks"] == [{"type": "command", "command": "run.sh"}] * 2


def test_many_indicators_still_read_the_same() -> None:
    """Past the count of ``[{-:?`` the C composer is trusted with, the pure-Python loader
    reads the block: the data is the same."""
    items = ", ".join(f"a-{n}: [x, {{k: v}}]" for n in range(600))
    front = parse_frontmatter(doc(f"big: {{{items}}}"))
    assert front.error is None, front.error
    assert front.data is not None
    assert front.data["big"]["a-599"] == ["x", {"k": "v"}]


@pytest.mark.parametrize("pad", [0, 1200], ids=["c-loader", "python-loader"])
@pytest.mark.parametrize(
    ("value", "tag", "text"),
    [
        ("!!bool maybe", "!!bool", "'maybe'"),
        ("!!int ''", "!!int", "''"),
        ("!!float ''", "!!float", "''"),
        ("!!timestamp x", "!!timestamp", "'x'"),
    ],
)
def test_a_tagged_value_pyyaml_cannot_build_is_skl100(
    value: str, tag: str, text: str, pad: int
) -> None:
    """PyYAML's constructors raise KeyError, IndexError or AttributeError on these (not a
    YAMLError): one skill's frontmatter used to fail every command reading the inventory.
    ``pad`` adds enough ``[{-:?`` characters to take the pure-Python loader."""
    padding = "".join(f"\nk{n}: [a]" for n in range(pad))
    front = parse_frontmatter(doc(f"x: {value}{padding}"))
    assert front.data is None
    assert front.error == f"{INVALID_YAML}cannot read a `{tag}` value {text} (line 4)"
    assert front.error_line == 4


def test_a_tagged_value_in_triggers_yaml_is_a_value_error() -> None:
    from skillc_index.evals import load_yaml

    with pytest.raises(ValueError, match=r"cannot read a `!!bool` value 'maybe' \(line 2\)"):
        load_yaml("should_trigger:\n  - !!bool maybe\n")
