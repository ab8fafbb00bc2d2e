"""Property-based tests of the skill model (issue 9): whatever the text, the parser returns a
consistent model or a typed diagnostic, the compiled stub is always a valid SKILL.md of at
most 100 lines, and no user query makes FTS5 fail.

The generators mix Markdown and YAML building blocks (headings of every level, setext
underlines, fences, HTML blocks, tables, links, frontmatter fences, YAML anchors, tags and
flow collections, control characters, BOMs and every kind of line break) with arbitrary text,
so that most examples exercise the interesting paths instead of plain prose.
"""

from __future__ import annotations

import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
import yaml
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from stress_support import age_files, check_headings, write_tree

from skillc_index import (
    IndexHandle,
    Layout,
    SkillcError,
    fts_query,
    parse_frontmatter,
    parse_markdown,
    search_sections,
)
from skillc_index.build.skill import build_skill
from skillc_index.index.freshness import require_index
from skillc_index.index.fts import index_tokenizer
from skillc_index.markdown.metadata import read_skill_metadata

# -- generators ---------------------------------------------------------------------------------

MARKDOWN_PIECES = [
    "# Title",
    "## Section",
    "### Sub",
    "#### Deep",
    "###### Six",
    "####### seven is not a heading",
    "#",
    "#no space",
    "  ## indented heading",
    "    # indented code",
    "Setext title",
    "===",
    "---",
    "- - -",
    "***",
    "```",
    "```python",
    "~~~",
    "````",
    "> # quoted heading",
    "> quote",
    "- # list heading",
    "1. item",
    "<div>",
    "</div>",
    "<!--",
    "-->",
    "<script>",
    "| a | b |",
    "|---|---|",
    "[link](other.md#anchor)",
    "![img](../x.png)",
    "[ref]: https://example.com",
    "<https://example.com>",
    "www.example.com",
    "`code # not heading`",
    "## Heading with `code` and [link](x.md) and *emph*",
    "## Closing hashes ##",
    "## Step 1 — Checks",
    "\\# escaped",
    "\t# tab heading",
    "",
    "   ",
    "\ufeff# BOM",
    "\x00",
    "\x0b\x0c",
    "\u2028",
    "\u0085",
    "中文标题",
    "# 日本語の見出し",
]

YAML_PIECES = [
    "name: demo",
    "name: 'quoted: value'",
    'description: "Use when testing."',
    "description: |",
    "description: >-",
    "  folded text",
    "  - item",
    "name:",
    "name: [a, b",
    "name: {x: 1}",
    "&anchor name: x",
    "*anchor",
    "x: &a [1, 2]",
    "y: *a",
    "!!python/object:os.system",
    "? complex key",
    ": value",
    "date: 2024-02-30",
    "n: 1e999",
    "yes: no",
    "~: null",
    "\tname: tab",
    "name: x # comment",
    "# comment",
    "---",
    "...",
    "%YAML 1.1",
    "key: 'unterminated",
    'key: "bad \\q escape"',
    "[1, 2]: list key",
    "<<: *a",
]

YAML_VALUES = st.one_of(
    st.text(max_size=40), st.integers(), st.booleans(), st.none(), st.lists(st.text(max_size=5))
)
#: Parsing one example costs about a millisecond: those properties run ten times the profile's
#: examples (1,000 by default, 30,000 with ``stress-long``).
MANY = settings(max_examples=10 * settings.default.max_examples)

NEWLINES = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"])


HEADING_LINES = st.builds(
    lambda level, indent, text: f"{' ' * indent}{'#' * level} {text}",
    st.integers(1, 7),
    st.sampled_from([0, 0, 0, 1, 3, 4]),
    st.text(max_size=20),
)


@st.composite
def lines_text(draw: st.DrawFn, pieces: list[str], max_lines: int = 40) -> str:
    """Lines drawn from ``pieces``, generated headings or arbitrary text, joined by mixed
    line breaks."""
    line = st.one_of(st.sampled_from(pieces), HEADING_LINES, st.text(max_size=30))
    parts = draw(st.lists(line, max_size=max_lines))
    out: list[str] = []
    for part in parts:
        out.append(part)
        out.append(draw(NEWLINES))
    if out and draw(st.booleans()):
        out.pop()  # no newline at the end of the file
    return "".join(out)


@st.composite
def markdown_files(draw: st.DrawFn) -> str:
    """A whole Markdown file: maybe a BOM, maybe a frontmatter (closed or not), a body."""
    head = draw(st.sampled_from(["", "", "\ufeff"]))
    kind = draw(st.sampled_from(["none", "yaml", "pieces", "unclosed"]))
    if kind == "yaml":  # valid YAML, any values
        values = draw(st.dictionaries(st.sampled_from(["name", "description", "x"]), YAML_VALUES))
        head += "---\n" + yaml.safe_dump(values, allow_unicode=True) + "---\n"
    elif kind != "none":
        head += "---" + draw(NEWLINES) + draw(lines_text(YAML_PIECES, 8))
        if kind == "pieces":
            head += draw(NEWLINES) + "---" + draw(NEWLINES)
    return head + draw(lines_text(MARKDOWN_PIECES))


ANY_TEXT = st.one_of(markdown_files(), st.text(max_size=400))


# -- the model -----------------------------------------------------------------------------------


@MANY
@given(ANY_TEXT)
@example("# a\r\n## b\r\n# c")
@example("# a\x85## b\u2028\n# c\r# d\x0c\n")
@example("---\nname: x\n---\n# a\n---\n# b\n")
@example("Title\n===\n## b\n- - -\n")
@example("```\n# not a heading\n")
def test_parse_markdown_gives_a_consistent_model(text: str) -> None:
    try:
        doc = parse_markdown(text)
    except SkillcError:
        return
    event(f"headings: {min(len(doc.headings), 3)}{'+' if len(doc.headings) >= 3 else ''}")
    error = doc.frontmatter.error
    event(f"frontmatter: {'valid' if error is None else error.partition(':')[2][:24]}")
    check_headings(doc)
    # lines end at \n, \r\n and a lone \r only (skillc_index.text), never at NEL or U+2028
    body = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    assert doc.line_count == (0 if not body else len(body.split("\n")) - body.endswith("\n"))
    front = doc.frontmatter
    assert (front.data is None) == (front.error is not None)
    assert parse_frontmatter(text) == front  # the cheap path agrees with the full parse


@MANY
@given(ANY_TEXT)
def test_skill_metadata_is_a_value_or_a_typed_diagnostic(text: str) -> None:
    try:
        metadata = read_skill_metadata(parse_markdown(text))
    except SkillcError as exc:
        assert exc.diagnostic.code == "E011"
        return
    assert metadata.name and metadata.name == metadata.name.strip()
    assert metadata.description and "\n" not in metadata.description


# -- the stub, from real builds -------------------------------------------------------------------

TITLE_TEXT = st.text(max_size=80)


@st.composite
def skills(draw: st.DrawFn) -> dict[str, str]:
    """The files of a skill: SKILL.md with generated frontmatter and body, and up to 20
    reference files (some with a frontmatter description, some without an H1)."""
    name = draw(st.one_of(st.just("s"), TITLE_TEXT))
    description = draw(st.one_of(st.just("Use when testing."), st.text(max_size=300)))
    if draw(st.integers(0, 4)):
        front = yaml.safe_dump({"name": name, "description": description}, allow_unicode=True)
    else:  # written by hand: may well be invalid YAML, or lack a field
        front = draw(lines_text([f"name: {name}", f"description: {description}", *YAML_PIECES], 6))
    headings = draw(
        st.lists(st.tuples(st.integers(1, 6), TITLE_TEXT), max_size=60).map(
            lambda hs: "".join(f"{'#' * level} {text}\n\nbody\n\n" for level, text in hs)
        )
    )
    files = {"SKILL.md": f"---\n{front}\n---\n{headings}{draw(markdown_files())}"}
    for number in range(draw(st.integers(0, 20))):
        parts = []
        if draw(st.booleans()):
            parts.append("---\n" + yaml.safe_dump({"description": draw(st.text(max_size=200))}))
            parts.append("---\n")
        if draw(st.booleans()):
            parts.append(f"# {draw(TITLE_TEXT)}\n")
        parts.append(draw(markdown_files()))
        files[f"references/r{number:02d}.md"] = "".join(parts)
    return files


@given(skills())
@example({"SKILL.md": "---\nname: s\ndescription: Use when testing.\n? complex key\n\n---\n"})
def test_stub_is_valid_and_short(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder).resolve()
        project, home = base / "project", base / "home"
        (project / ".skillc").mkdir(parents=True)
        home.mkdir()
        source = project / ".skillc" / "skills" / "s"
        write_tree(source, files)
        age_files(source)
        layout = Layout.discover(cwd=project, env={"SKILLC_HOME": str(home)})
        try:
            result = build_skill("s", layout)
        except SkillcError as exc:
            assert exc.diagnostic.code == "E011", exc
            event("E011")
            return
        event("built")
        stub = result.compiled.stub.read_text(encoding="utf-8")
    lines = stub.split("\n")
    assert stub.endswith("\n") and len(lines) - 1 <= 100, stub
    assert lines[0] == "---"
    end = lines.index("---", 1)
    data = yaml.safe_load("\n".join(lines[1:end]))
    source_data = parse_markdown(files["SKILL.md"]).frontmatter.data
    assert source_data is not None
    # every field of the source is kept (DECISIONS, "Stub"): an agent loads the stub as it would
    # the source, whatever YAML wrote the fields (a complex key `? k` is a field too)
    assert data == source_data
    doc = parse_markdown(stub)  # skillc's own reader agrees
    assert doc.frontmatter.data == data
    read_skill_metadata(doc)
    assert "## Top Sections" in lines


# -- the search query builder against a real FTS5 index ---------------------------------------

INDEXED = {
    "SKILL.md": '---\nname: q\ndescription: "Use when querying."\n---\n# Query\n\n'
    'Words: configure authentication, widgets, NEAR AND OR NOT, quotes "x", 中文进行, '
    "c++ -flag col:umn (paren) star* ^caret.\n\n## Second\n\nmore words here\n",
    "notes.txt": "plain text with unicode café and tabs\tand digits 1234\n",
}

QUERY_PIECES = [
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "NEAR(a b, 2)",
    "*",
    "a*",
    "^a",
    "-a",
    "+a",
    "col:umn",
    "file:SKILL.md",
    "section:",
    "content:x",
    "{file section}:x",
    '"',
    '""',
    '"a b"',
    "(",
    ")",
    "()",
    "'",
    "\\",
    "%",
    "_",
    ":",
    "\x00",
    "\u3000",
    "\u00a0",
    "中文",
    "日本語",
    "\u200b",
    "configure",
    "widgets",
]


@pytest.fixture(scope="module")
def query_indexes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, IndexHandle]:
    """One real index per tokenizer (``porter``/``unicode61`` and ``cjk``), built by build_skill."""
    found: dict[str, IndexHandle] = {}
    for setting in ("ascii", "cjk"):
        base = tmp_path_factory.mktemp(f"index-{setting}").resolve()
        project, home = base / "project", base / "home"
        (project / ".skillc").mkdir(parents=True)
        home.mkdir()
        (project / ".skillc" / "config.toml").write_text(
            f'[search]\ntokenizer = "{setting}"\n', encoding="utf-8"
        )
        write_tree(project / ".skillc" / "skills" / "q", INDEXED)
        layout = Layout.discover(cwd=project, env={"SKILLC_HOME": str(home)})
        result = build_skill("q", layout)
        found[index_tokenizer(setting)] = require_index(result.skill, setting)
    return found


QUERIES = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(st.sampled_from(QUERY_PIECES), st.text(max_size=8)), max_size=8).map(
        " ".join
    ),
    st.lists(st.sampled_from(QUERY_PIECES), max_size=6).map("".join),
)


@MANY
@given(QUERIES)
@example('"')
@example("NEAR(")
@example("\x00")
@example("a\x00b")
def test_any_query_runs_against_a_real_index(
    query_indexes: dict[str, IndexHandle], query: str
) -> None:
    for tokenizer, index in query_indexes.items():
        try:
            match = fts_query(query, tokenizer)
        except SkillcError as exc:
            assert exc.diagnostic.code == "E004"
            assert not query.strip(" \t\n\r")
            return
        # The raw MATCH first, so an FTS5 syntax error shows as itself, not as the E002 that
        # search_sections turns every sqlite3.Error into.
        uri = f"file:{index.path}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as connection:
            connection.execute(
                "SELECT rowid FROM sections WHERE sections MATCH ? LIMIT 5", (match,)
            ).fetchall()
        hits = search_sections(index, match, 5)
        assert len(hits) <= 5


def test_nul_in_a_query_is_a_separator(query_indexes: dict[str, IndexHandle]) -> None:
    """A NUL in a query word used to end FTS5's string early: search reported E002 (a
    corrupt index) instead of results. It now separates words, as it does in indexed text."""
    for tokenizer, index in query_indexes.items():
        hits = search_sections(index, fts_query("configure\0authentication", tokenizer), 5)
        assert [hit.section for hit in hits] == ["Query"]
        assert search_sections(index, fts_query("\0", tokenizer), 5) == []
