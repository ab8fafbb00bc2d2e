"""The YAML-free fast path of frontmatter parsing gives exactly what PyYAML gives, or defers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from skillc_index.markdown.frontmatter import (
    NO_CLOSING,
    as_yaml_12,
    load_bounded_yaml,
    parse_frontmatter,
)
from skillc_index.markdown.simple_yaml import simple_mapping
from skillc_index.markdown.yaml12 import _core_loader

# Values whose YAML meaning is not a plain string, or that are not plain at all: the fast
# path must either agree with PyYAML or hand them over.
TRICKY_VALUES = [
    "yes",
    "No",
    "TRUE",
    "true",
    "False",
    "fAlse",
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
    "1.0.0",
    "2.10.3",
    "01.02.03",
    "1.0.0-beta",
    "1.0.0.",
    "1_0.0.0",
    "1.0",
    ".inf",
    ".NaN",
    "2024-01-01",
    "2024-02-30",
    "2024-1-01",
    "2024-01-01T10:00:00",
    "10",
    "0",
    "012",
    "1e3",
    "1.",
    "12_000",
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
    '"a\\/b \\\\ c\\td"',
    '"a\\x41 \\u00e9"',
    '"ends with \\"',
    "'a''b'",
    "'a'b'",
    "'a\\b'",
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


#: PyYAML's two loaders: :func:`split_frontmatter` reads most blocks with the C one.
PYYAML_LOADERS = [yaml.SafeLoader, *([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])]


def pyyaml_lines(block: str) -> object:
    """The key lines PyYAML's reading of ``block`` gives (as ``split_frontmatter`` takes them),
    which the fast path's must equal."""
    return load_bounded_yaml(block, first_line=2, keys=True)[2][0]


def yaml_view(block: str) -> object:
    """What both PyYAML loaders read (``<error>``, ``<differ>``)."""
    views = []
    for loader in PYYAML_LOADERS:
        try:
            views.append(yaml.load(block, Loader=loader))
        except (yaml.YAMLError, ValueError, TypeError):
            views.append("<error>")
    return views[0] if all(view == views[0] for view in views) else "<differ>"


def agrees_with_yaml_12(block: str) -> bool:
    """What :func:`as_yaml_12` gives of the block is what a YAML 1.2 reader (an agent) reads:
    it does not read the fast path's blocks again (but for a date)."""
    agent = yaml.load(block, Loader=_core_loader())
    return as_yaml_12(parse_frontmatter(f"---\n{block}---\n")) == agent


@pytest.mark.parametrize("value", TRICKY_VALUES)
def test_values_agree_with_pyyaml_or_defer(value: str) -> None:
    block = f"name: demo\ndescription: {value}\n"
    fast = simple_mapping(block)
    if fast is not None:
        assert fast[0] == yaml_view(block)


@pytest.mark.parametrize("key", TRICKY_KEYS)
def test_keys_agree_with_pyyaml_or_defer(key: str) -> None:
    block = f"{key}: value\n"
    fast = simple_mapping(block)
    if fast is not None:
        assert fast[0] == yaml_view(block)


def test_fast_path_takes_the_common_shape() -> None:
    block = (
        '# a comment\nname: my-skill\ndescription: "TODO: Add skill description"\n\n'
        "license: MIT\nversion:\n"
    )
    data, lines = simple_mapping(block) or ({}, {})
    assert data == {
        "name": "my-skill",
        "description": "TODO: Add skill description",
        "license": "MIT",
        "version": None,
    }
    assert lines == {"name": 3, "description": 4, "license": 6, "version": 7}


@pytest.mark.parametrize(
    ("block", "value"),
    [
        ("d: >\n  folded\n  lines\n\n  after a blank\n", "folded lines\nafter a blank\n"),
        ("d: >-\n  folded\n \n  end\n\n\n", "folded\nend"),
        ("d: |\n  kept  \n  as\tis\n\n", "kept  \nas\tis\n"),
        ("d: |-\n    deep\n    # text, not a comment\n", "deep\n# text, not a comment"),
        ("d:\n  - x\n  -\n  - 'y z'\n", ["x", None, "y z"]),
        ("d:\n- x\n- [a, Bash(git:*)]\n", ["x", ["a", "Bash(git:*)"]]),
        ('d:\n  author: me\n  # a comment\n\n  tags: [a, "b c"]\n  none:\n', None),
        ("d: [ ]\n", []),
        ("d: plain text\n  going on\n\n  after a blank\n", "plain text going on\nafter a blank"),
        ('d: text\n  "q", - r, [s]\n', 'text "q", - r, [s]'),
        ("d: 'quoted\n  over lines.\n\n  '\n", "quoted over lines.\n"),
        ('d: "a \\"b\\" c\\\\d\\/e\\tf\\ng"\n', 'a "b" c\\d/e\tf\ng'),
        ("d: ['it''s', \"a\\\"b\"]\n", ["it's", 'a"b']),
        ("d:\n  # only a comment\n", None),
        ("d:\n  a:\n    b: c\n  e:\n  - f\n  g: h\n", {"a": {"b": "c"}, "e": ["f"], "g": "h"}),
    ],
)
def test_the_fast_path_reads_the_shapes_skills_use(block: str, value: object) -> None:
    fast = simple_mapping(block + "name: x\n")
    assert fast is not None
    assert fast[0] == yaml_view(block + "name: x\n")
    if value is not None:
        assert fast[0]["d"] == value
    assert fast[1]["name"] == block.count("\n") + 2
    assert fast[1] == pyyaml_lines(block + "name: x\n")


@pytest.mark.parametrize(
    "block",
    [
        "name: a\nname:b\n",
        "- a\n- b\n",
        "name: a\n...\n",
        "d: |\n  a\n b\n",  # less indented than its first line
        "d: >\n  a\n    more indented\n",
        "d: |\n  a\n      \n  b\n",  # spaces past the indent: text
        "d: |\n\n  leading blank\n",
        "d: |\n",
        'd: "a\\qb"\n',  # an escape the fast path does not read
        'd: "a" "b"\n',  # its quote inside
        'd: "\n  first line empty"\n',
        "d: |+\n  keep\n",
        "d: |2\n    indicator\n",
        "d: |\n\ttab\n",
        "d: |\n  a\n  \tb\n",  # libyaml refuses a tab after the indent, PyYAML's Python loader not
        'd: "quoted"\n  then more\n',
        "d: plain\n  key: value\n",
        "d: plain\n  # comment ends it\n",
        "d:\n  a: b\n   c: d\n",
        "d:\n  a: b\n bc: d\n",  # less indented: not the key "c"
        "d:\n  a: b\n  - c\n",
        "d:\n  a:\n    b:\n      c:\n        e: f\n",  # deeper than NESTED_LEVELS
        "d:\n  - a: b\n",
        "d:\n  some text\n",
        "d: [a,]\n",
        "d: [a, [b]]\n",
        "d: [a,\n  b]\n",
        "d: [a: b]\n",
        "d: {a: b}\n",
        "d:\n  a: b\n# comment\n  c: d\n",
        "d:\n  a: b\n  a: c\n",  # a key written again: PyYAML's reading names it
    ],
)
def test_anything_else_goes_to_pyyaml(block: str) -> None:
    assert simple_mapping(block) is None


def test_both_paths_give_the_same_frontmatter() -> None:
    text = '---\nname: x\ndescription: "d"\n---\n# T\n'
    fast = parse_frontmatter(text)
    slow = parse_frontmatter(text.replace('description: "d"', 'description: "d"\ntags: [a]'))
    assert fast.data == {"name": "x", "description": "d"}
    assert slow.data == {"name": "x", "description": "d", "tags": ["a"]}
    assert fast.field_lines == {"name": 2, "description": 3}
    assert {k: slow.field_lines[k] for k in fast.field_lines} == fast.field_lines
    assert (fast.end_line, fast.body_start) == (4, 5)


def test_a_key_written_again_is_found_in_every_mapping() -> None:
    """YAML 1.2 forbids a key written twice in any mapping (skills-ref refuses the file):
    ``repeated`` names each, nested ones by their path, in the order of the lines; a node an
    alias shares is named once, where it is written; a merge key's pairs are no repetition."""
    text = (
        "---\nname: a\ndescription: d\nmetadata:\n  author: a\n  author: b\n"
        "hooks:\n  Stop:\n  - {type: x, type: y}\nname: b\n"
        "base: &b {k: 1, k: 2}\nalias: *b\nmerged:\n  <<: *b\n  k: 3\n---\n"
    )
    front = parse_frontmatter(text)
    assert [(key.key, key.first, key.again) for key in front.repeated] == [
        ("metadata.author", 5, 6),
        ("hooks.Stop[0].type", 9, 9),
        ("name", 2, 10),
        ("base.k", 11, 11),
    ]
    assert front.repeated[1].path == ("hooks", "Stop", 0, "type")
    assert front.data is not None and front.data["metadata"] == {"author": "b"}
    assert front.data["merged"] == {"k": 3}
    assert front.field_lines["name"] == 10 and "<<" not in front.field_lines


#: Generated blocks: keys, values of each kind, and the lines that can come under them
#: (mostly lines of their own kind, some of any other).
_KEYS = ["name", "description", "metadata", "tags", "allowed-tools", "_k"]
_TEXT = ["", "", " ", "   ", "  text", "  text", "  more text", "    deeper", " shallow", "  # c"]
_MAPPING = [
    "",
    "  k: v",
    "  k: [a, 'b']",
    "  k:",
    "  j: w x",
    "  # c",
    " jk: v",
    "    l: m",
    "  - n",
]
_CONTINUED = [
    '  "q", "r",',
    "  &a b",
    "  *c",
    "  [x] y",
    "  {y}",
    "  !t",
    "  %p",
    "  @q",
    "  s:",
    "  ---",
]
_KINDS = {  # kind: (values, lines under them)
    "block": (
        ["|", "|-", ">", ">-", "|+", "|2", "> # c"],
        [*_TEXT, "      ", "  \tafter a tab", "  trailing  ", "  ---", "  - item"],
    ),
    "list": ([""], ["", "  - item", "  -", "  - [a, b]", "  - 'q'", "- item", "  # c"]),
    "column 0": ([""], ["- item", "-", "- [a]", "", "  - item"]),
    "mapping": (
        [""],
        [
            *_MAPPING,
            "  k:\n  - x",
            "  k:\n    l: m",
            "  k:\n    l:\n      o: p",
            "  k:\n    - x\n  - q",
        ],
    ),
    "flow": (["[a, b]", "[]", "[x: y]", "[a,]", "['q', Bash(git:*), 1.0.0, 2026-01-01]"], [""]),
    "quoted": (
        ['"starts', "'starts", '"', "'a\\", "\"it's"],
        ["", "  goes on", '  ends"', "  ends'", "  # text", "  - text: too", "  it''s", '  "'],
    ),
    "plain": (
        ["plain words", "'q'", '"a # b"', "w: x", *TRICKY_VALUES],
        [*_TEXT, *_CONTINUED, "  1.5", "  true", "  'q'", "  x #c", "  k: v", "  - item"],
    ),
}
_NOISE = ["\tindent", "# comment", "  yes: v", "  k: v: w", "...", "  - a: b", "    k: v", "yes: v"]


def _generated_block(rng: random.Random) -> str:
    lines: list[str] = []
    for _ in range(rng.randint(1, 3)):
        values, under = _KINDS[rng.choice(list(_KINDS))]
        value = rng.choice(values)
        lines.append(f"{rng.choice(_KEYS)}:{' ' if value else ''}{value}")
        under = under + [rng.choice(_NOISE)] * (rng.random() < 0.1)
        lines += [rng.choice(under) for _ in range(rng.choice((0, 1, 2, 3, 5)))]
    return "\n".join(lines) + "\n"


def test_fast_path_matches_pyyaml_on_generated_blocks() -> None:
    """Blocks made of the lines above, seeded: whatever the fast path takes, PyYAML reads
    alike (data and key lines); it takes a share of them, of every kind it knows."""
    rng = random.Random(35)
    taken: set[str] = set()
    for _ in range(6000):
        block = _generated_block(rng)
        fast = simple_mapping(block)
        if fast is None:
            continue
        for loader_class in PYYAML_LOADERS:
            loader = loader_class(block)
            try:
                node = loader.get_single_node()
                data = loader.construct_document(node)
            except (yaml.YAMLError, ValueError, TypeError) as error:
                pytest.fail(f"{block!r}: {loader_class.__name__} refuses it ({error})")
            assert fast == (data, pyyaml_lines(block)), block
        assert agrees_with_yaml_12(block), block
        taken.add(block)
    kinds = [": |\n", ": >\n", ":\n  - ", ":\n- ", ":\n  k: ", ": [a, b]", "\n  more text", 'ends"']
    kinds += ["  k:\n    l: m", "  k:\n  - x", "      o: p", "\n  [x] y"]
    assert len(taken) > 800
    assert all(any(kind in block for block in taken) for kind in kinds)


@pytest.mark.corpus
def test_fast_path_matches_pyyaml_over_the_corpus(corpus: Path) -> None:
    taken = 0
    for path in sorted(corpus.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
        if not text.startswith("---"):
            continue
        block = text.split("\n", 1)[1].split("\n---", 1)[0] + "\n"
        fast = simple_mapping(block)
        if fast is not None:
            taken += 1
            assert fast[0] == yaml_view(block), path
            assert fast[1] == pyyaml_lines(block), path
            assert agrees_with_yaml_12(block), path
    assert taken > 100  # the fast path is the common case, not a curiosity


def test_field_lines_of_the_top_level_and_the_mapping_under_it() -> None:
    """The file line of ``metadata.version`` (SKL502 reports it there), from the one reading
    (PyYAML's here, a key written again), the last one when a key is written again; flow
    mappings on their one line; deeper keys are not listed."""
    text = "---\nname: x\nmetadata:\n  a: 1\n  deep: {b: 2}\n  a: 3\nflow: {c: d}\n---\n"
    assert parse_frontmatter(text).field_lines == {
        "name": 2,
        "metadata": 3,
        ("metadata", "a"): 6,
        ("metadata", "deep"): 5,
        "flow": 7,
        ("flow", "c"): 7,
    }
    assert parse_frontmatter("---\nname: [x\n---\n").field_lines == {}  # does not read


def test_field_lines_of_the_fast_path_under_a_top_level_key() -> None:
    """The fast path gives the nested keys' lines too (PyYAML is not loaded for them):
    comments, blank lines and deeper keys between them."""
    block = "metadata:\n  # c\n  author: me\n\n  deep:\n    k: v\n  version: 1.10\n"
    text = f"---\nname: x\n{block}---\n"
    front = parse_frontmatter(text)
    assert not front.yaml  # the fast path read it
    assert front.field_lines == {
        "name": 2,
        "metadata": 3,
        ("metadata", "author"): 5,
        ("metadata", "deep"): 7,
        ("metadata", "version"): 9,
    }


@pytest.mark.parametrize("brk", ["\r\n", "\r", "mixed"])
def test_parse_frontmatter_reads_crlf_and_lone_cr(brk: str) -> None:
    """A file saved with ``\\r\\n`` or lone-CR breaks (or both) has the frontmatter of its
    LF twin: :func:`parse_frontmatter` normalizes them before :func:`split_frontmatter`."""
    lines = ["---", "name: x", "timeout: 2", "---", "", "# X", ""]
    mixed = "---\nname: x\r\ntimeout: 2\r---\r\n\n# X\n"
    text = mixed if brk == "mixed" else brk.join(lines)
    front = parse_frontmatter(text)
    seen = (front.data, front.end_line, front.body_start, front.field_lines)
    assert seen == ({"name": "x", "timeout": 2}, 4, 5, {"name": 2, "timeout": 3})
    unclosed = "---" + text[3:].replace("---", "-- -")
    assert parse_frontmatter(unclosed).error == NO_CLOSING


@pytest.mark.parametrize("cut", [False, True])  # the C reader, and the Python one
def test_a_lone_surrogate_reads_as_a_files_undecodable_byte(
    cut: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's unsaved text may hold a lone surrogate (a JSON escape ``\\udcff``): the C
    reader raised UnicodeEncodeError (the language server's lint failed). It reads as the
    file with that undecodable byte reads (U+FFFD), its lines the same."""
    import skillc_index.markdown.frontmatter as frontmatter
    from skillc_index.text import decoded

    if cut:
        monkeypatch.setattr(frontmatter, "C_LOADER_INDICATORS", 0)
    block = "name: sur\ndescription: 'Formats \udcff. Use when: needed.'\nmetadata: {a: 1}\n"
    saved = decoded(block.encode("utf-8", "surrogateescape"))
    assert load_bounded_yaml(block, keys=True)[0] == load_bounded_yaml(saved, keys=True)[0]
    data, _node, (lines, _) = load_bounded_yaml(block, first_line=2, keys=True)
    assert data["description"] == "Formats \ufffd. Use when: needed."
    assert lines["metadata"] == 4
    front = parse_frontmatter(f"---\n{block}---\n")
    assert front.error is None and front.data == data
