"""The YAML-free fast path of frontmatter parsing gives exactly what PyYAML gives, or defers."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from skillc_index.markdown.frontmatter import _simple_mapping, parse_frontmatter

# Values whose YAML meaning is not a plain string, or that are not plain at all: the fast
# path must either agree with PyYAML or hand them over.
TRICKY_VALUES = [
    "yes",
    "No",
    "TRUE",
    "off",
    "On",
    "null",
    "Null",
    "~",
    "y",
    "n",
    "123",
    "-1",
    "+1",
    "0x1F",
    "1.5",
    ".inf",
    ".NaN",
    "2024-01-01",
    "2024-02-30",
    "1_000",
    "12:30:00",
    "a: b",
    "x #c",
    "x # c",
    "ends:",
    "'q'",
    "'it''s'",
    '"dq"',
    '"a\\"b"',
    '"a\\nb"',
    '"unclosed',
    "'unclosed",
    "-x",
    "[a, b]",
    "{a: 1}",
    "&anchor x",
    "*alias",
    "!tag x",
    "|",
    ">-",
    "%x",
    "@x",
    "`x`",
    "?x",
    ",x",
    "plain words",
    "Use when: things",
    "naïve café",
    "日本語のテキスト",
    "emoji 🎉",
    "tab\there",
    "nbsp\u00a0here",
    "line\u2028sep",
    "(parens) ok",
    "/a/path",
    "$VAR",
    "_under",
    "a [b] {c}",
    "trailing   ",
    "",
    "TODO: Add skill description",
    '"TODO: Add skill description"',
    "x\\y",
    "'single # not comment'",
    '"dq # not comment"',
]
TRICKY_KEYS = ["name", "true", "On", "no", "null", "Y", "allowed-tools", "_x", "x_y", "A1"]


def yaml_view(block: str) -> object:
    try:
        return yaml.safe_load(block)
    except (yaml.YAMLError, ValueError, TypeError):
        return "<error>"


@pytest.mark.parametrize("value", TRICKY_VALUES)
def test_values_agree_with_pyyaml_or_defer(value: str) -> None:
    block = f"name: demo\ndescription: {value}\n"
    fast = _simple_mapping(block)
    if fast is not None:
        assert fast[0] == yaml_view(block)


@pytest.mark.parametrize("key", TRICKY_KEYS)
def test_keys_agree_with_pyyaml_or_defer(key: str) -> None:
    block = f"{key}: value\n"
    fast = _simple_mapping(block)
    if fast is not None:
        assert fast[0] == yaml_view(block)


def test_fast_path_takes_the_common_shape() -> None:
    block = (
        '# a comment\nname: my-skill\ndescription: "TODO: Add skill description"\n\n'
        "license: MIT\nversion:\n"
    )
    data, lines = _simple_mapping(block) or ({}, {})
    assert data == {
        "name": "my-skill",
        "description": "TODO: Add skill description",
        "license": "MIT",
        "version": None,
    }
    assert lines == {"name": 3, "description": 4, "license": 6, "version": 7}


@pytest.mark.parametrize(
    "block",
    [
        "name: a\ndescription: >\n  folded\n",
        "name: a\ntags:\n  - x\n",
        "name: a\n  continued plain\n",
        "name: a\nname:b\n",
        "- a\n- b\n",
        "name: a\n...\n",
    ],
)
def test_anything_else_goes_to_pyyaml(block: str) -> None:
    assert _simple_mapping(block) is None


def test_both_paths_give_the_same_frontmatter() -> None:
    text = '---\nname: x\ndescription: "d"\n---\n# T\n'
    fast = parse_frontmatter(text)
    slow = parse_frontmatter(text.replace('description: "d"', 'description: "d"\ntags: [a]'))
    assert fast.data == {"name": "x", "description": "d"}
    assert slow.data == {"name": "x", "description": "d", "tags": ["a"]}
    assert fast.field_lines == {"name": 2, "description": 3}
    assert {k: slow.field_lines[k] for k in fast.field_lines} == fast.field_lines
    assert (fast.end_line, fast.body_start) == (4, 5)


@pytest.mark.corpus
def test_fast_path_matches_pyyaml_over_the_corpus(corpus: Path) -> None:
    taken = 0
    for path in sorted(corpus.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
        if not text.startswith("---"):
            continue
        block = text.split("\n", 1)[1].split("\n---", 1)[0] + "\n"
        fast = _simple_mapping(block)
        if fast is not None:
            taken += 1
            assert fast[0] == yaml_view(block), path
    assert taken > 100  # the fast path is the common case, not a curiosity
