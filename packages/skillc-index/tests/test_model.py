"""Tests for the skill model (skillc_index.markdown.document): frontmatter, headings, links."""

from __future__ import annotations

import datetime
import errno
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index.command_errors import (
    MissingFrontmatterField,
)
from skillc_index.diagnostics import SkillFileNotFound
from skillc_index.markdown.document import (
    Frontmatter,
    Heading,
    Link,
    MarkdownDoc,
    parse_frontmatter,
    parse_markdown,
    read_markdown,
    title_of,
)
from skillc_index.markdown.metadata import SkillMetadata, read_skill_metadata

ReadSizes = Callable[..., list[int]]  # the root conftest's read_sizes

NO_OPENING = "missing frontmatter: file does not start with ---"
NO_CLOSING = "missing frontmatter: no closing --- found"


def write(tmp_path: Path, text: str, name: str = "SKILL.md") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def heads(doc: MarkdownDoc) -> list[tuple[int, str, int, int]]:
    return [(h.level, h.text, h.line, h.end_line) for h in doc.headings]


def links(doc: MarkdownDoc) -> list[tuple[str, int, str, bool]]:
    return [(link.target, link.line, link.text, link.image) for link in doc.links]


SKILL = """\
---
name: pdf
description: >
  Work with PDF
  files.
# not a heading
license: MIT
---
# PDF

Intro.

## Usage

### Details

## Reference

# Appendix
text
"""


# -- frontmatter ----------------------------------------------------------------------------


def test_frontmatter_fields_lines_and_offsets(tmp_path: Path) -> None:
    doc = read_markdown(write(tmp_path, SKILL))
    front = doc.frontmatter
    assert front.present
    assert front.error is None
    assert front.data == {"name": "pdf", "description": "Work with PDF files.\n", "license": "MIT"}
    assert front.field_lines == {"name": 2, "description": 3, "license": 7}
    assert front.end_line == 8
    assert front.body_start == 9
    assert doc.line_count == 20
    assert doc.description == "Work with PDF files."


def test_frontmatter_comment_lines_are_not_headings(tmp_path: Path) -> None:
    doc = read_markdown(write(tmp_path, SKILL))
    assert all(h.text != "not a heading" for h in doc.headings)
    assert doc.headings[0] == Heading(1, "PDF", 9, 19)


def test_missing_opening_fence() -> None:
    doc = parse_markdown("# Title\n\nname: x\n")
    assert doc.frontmatter == Frontmatter(False, None, NO_OPENING, 0, {}, 1)
    assert heads(doc) == [(1, "Title", 1, 4)]


def test_opening_fence_must_be_exact() -> None:
    for text in ("----\nname: x\n---\n", " ---\nname: x\n---\n", "--- x\nname: x\n---\n"):
        front = parse_markdown(text).frontmatter
        assert not front.present
        assert front.error == NO_OPENING


def test_missing_closing_fence_parses_whole_text_as_markdown() -> None:
    doc = parse_markdown("---\nname: x\n# Heading\ntext\n")
    assert doc.frontmatter.present
    assert doc.frontmatter.error == NO_CLOSING
    assert doc.frontmatter.data is None
    assert doc.frontmatter.end_line == 0
    assert doc.frontmatter.body_start == 1
    assert heads(doc) == [(1, "Heading", 3, 5)]


def test_single_fence_line_is_unclosed() -> None:
    assert parse_markdown("---").frontmatter.error == NO_CLOSING
    assert parse_markdown("---\n").frontmatter.error == NO_CLOSING


def test_invalid_yaml_message_is_one_line() -> None:
    front = parse_markdown("---\nname: x\ndescription: a: b\n---\nbody\n").frontmatter
    assert front.present
    assert front.data is None
    assert front.error is not None
    assert front.error.startswith("invalid frontmatter YAML: ")
    assert "\n" not in front.error
    assert "  " not in front.error
    # Line numbers in the message count file lines, not lines of the YAML block.
    assert "line 3" in front.error
    assert front.end_line == 4
    assert front.body_start == 5


def test_invalid_yaml_impossible_date() -> None:
    front = parse_markdown("---\nname: x\ndate: 2024-02-30\n---\n").frontmatter
    assert front.error is not None
    assert front.error.startswith("invalid frontmatter YAML: ")


def test_valid_date_is_constructed() -> None:
    front = parse_markdown("---\ndate: 2024-02-29\n---\n").frontmatter
    assert front.data == {"date": datetime.date(2024, 2, 29)}


@pytest.mark.parametrize(
    ("yaml_text", "kind"),
    [("- a\n- b", "a list"), ("just text", "a string"), ("42", "a number"), ("null", "empty")],
)
def test_non_mapping_yaml(yaml_text: str, kind: str) -> None:
    front = parse_markdown(f"---\n{yaml_text}\n---\n").frontmatter
    assert front.present
    assert front.data is None
    assert front.error == f"invalid frontmatter YAML: expected a mapping, got {kind}"


def test_empty_frontmatter_is_an_empty_mapping() -> None:
    for text in (
        "---\n---",
        "---\n---\n",
        "---\n\n  \n---\nbody\n",
        "---\n# only a comment\n---\n",
    ):
        front = parse_markdown(text).frontmatter
        assert front.present
        assert front.error is None
        assert front.data == {}


def test_fence_tolerates_trailing_whitespace_and_bom() -> None:
    doc = parse_markdown("\ufeff---  \t\nname: x\n--- \n# H\n")
    assert doc.frontmatter.data == {"name": "x"}
    assert doc.frontmatter.end_line == 3
    assert heads(doc) == [(1, "H", 4, 5)]


def test_bom_file(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"\xef\xbb\xbf---\nname: x\ndescription: y\n---\n# T\n")
    doc = read_markdown(path)
    assert read_skill_metadata(doc) == SkillMetadata("x", "y")
    assert heads(doc) == [(1, "T", 5, 6)]
    assert doc.line_count == 5


def test_a_file_that_cannot_be_read_is_a_typed_error(tmp_path: Path) -> None:
    """A missing file, a symlink loop or a path under a file raised the bare OSError (a FIFO
    was E021 already): E021, as the README's "functions raise typed SkillcErrors" says."""
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    for path in ("nope/SKILL.md", "loop-a", "afile/SKILL.md"):
        with pytest.raises(SkillFileNotFound) as caught:
            read_markdown(tmp_path / path)
        assert caught.value.path == str(tmp_path / path)
    with pytest.raises(SkillFileNotFound) as loop:
        read_markdown(tmp_path / "loop-a")
    assert loop.value.diagnostic.detail == f"hint: {os.strerror(errno.ELOOP)}"


def test_invalid_utf8_never_raises(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(b"# Caf\xe9\n\n[x](\xff.md)\n")
    doc = read_markdown(path)
    assert heads(doc) == [(1, "Caf\ufffd", 1, 4)]
    assert doc.links[0].line == 3


def test_key_lines_with_nested_values() -> None:
    text = "---\nname: x\nmetadata:\n  author: me\n  version: 1\n\ndescription: |\n  a\n  b\n---\n"
    front = parse_markdown(text).frontmatter
    assert front.field_lines == {
        "name": 2,
        "metadata": 3,
        ("metadata", "author"): 4,
        ("metadata", "version"): 5,
        "description": 7,
    }
    assert front.data is not None
    assert front.data["metadata"] == {"author": "me", "version": 1}


def test_parse_frontmatter_matches_parse_markdown() -> None:
    assert parse_frontmatter(SKILL) == parse_markdown(SKILL).frontmatter
    assert parse_frontmatter("\ufeff" + SKILL) == parse_markdown(SKILL).frontmatter
    assert parse_frontmatter("# x\n").error == NO_OPENING


def test_crlf_file(tmp_path: Path) -> None:
    path = write(tmp_path, SKILL.replace("\n", "\r\n") + "[link](a.md)\r\n")
    doc = read_markdown(path)
    lf = parse_markdown(SKILL + "[link](a.md)\n")
    assert doc.frontmatter == lf.frontmatter
    assert doc.headings == lf.headings
    assert doc.line_count == lf.line_count == 21
    assert links(doc) == [("a.md", 21, "link", False)]


def test_lone_carriage_return_is_a_line_break_and_nothing_else_is() -> None:
    """Lines end at \\n, \\r\\n and a lone \\r (as markdown-it and the readers see them), never
    at a form feed, vertical tab, NEL, U+2028 or U+2029."""
    doc = parse_markdown("# A\rline 2\n# B\n")
    assert doc.line_count == 3
    assert [(h.line, h.end_line) for h in doc.headings] == [(1, 3), (3, 4)]
    for char in "\x0b\x0c\x85\u2028\u2029":
        doc = parse_markdown(f"# A\nx{char}y\n# B\n")
        assert doc.line_count == 3
        assert [(h.line, h.end_line) for h in doc.headings] == [(1, 3), (3, 4)]


# -- headings -------------------------------------------------------------------------------


def test_heading_ranges_nested_sections_and_eof(tmp_path: Path) -> None:
    doc = read_markdown(write(tmp_path, SKILL))
    assert heads(doc) == [
        (1, "PDF", 9, 19),
        (2, "Usage", 13, 17),
        (3, "Details", 15, 17),
        (2, "Reference", 17, 19),
        (1, "Appendix", 19, 21),  # EOF + 1: the file has 20 lines
    ]


def test_eof_without_trailing_newline() -> None:
    doc = parse_markdown("# A\ntext")
    assert doc.line_count == 2
    assert heads(doc) == [(1, "A", 1, 3)]


def test_setext_headings() -> None:
    text = "Title\n=====\n\nSub\ntitle\n---\n\ntext\n\n# Next\n"
    doc = parse_markdown(text)
    assert heads(doc) == [(1, "Title", 1, 10), (2, "Sub title", 4, 10), (1, "Next", 10, 11)]


def test_setext_after_frontmatter_offsets() -> None:
    doc = parse_markdown("---\nname: x\n---\nTitle\n===\n")
    assert heads(doc) == [(1, "Title", 4, 6)]


def test_code_blocks_have_no_headings() -> None:
    text = (
        "# Real\n"
        "```bash\n# comment\n```\n"
        "~~~\n# tilde comment\n## also not\n~~~\n"
        "\n    # indented code\n\n"
        "<!--\n# in a comment\n-->\n"
        "## Second\n"
    )
    doc = parse_markdown(text)
    assert heads(doc) == [(1, "Real", 1, 16), (2, "Second", 15, 16)]


@pytest.mark.parametrize("links", [True, False], ids=["links", "headings only"])
def test_code_blocks_are_commonmarks(links: bool) -> None:
    """Fences in list items and block quotes close where CommonMark closes them, an indented
    fence in a fence is its text, and a fence left open says what it runs to the end of."""
    text = (
        "---\nname: x\n---\n"  # 1-3
        "1. ```sh\n   make\n   ```\n\n"  # 4-7: closed in its list item
        "```\nprompt\n    ```bash\n    git diff\n    ```\n```\n"  # 8-13: one block
        "\n    indented\n\n"  # 15: indented code
        "- ```\n  open\n- next\n\n"  # 17-18: open to the end of its list item
        "> ```\n> quoted\n\n"  # 21-22: open to the end of its block quote
        "text [link](x.md)\n\n~~~\nopen\n"  # 26-27: open to the end of the file
    )
    found = [(b.line, b.last, b.runs_to) for b in parse_markdown(text, links=links).code_blocks]
    assert found == [
        (4, 6, ""),
        (8, 13, ""),
        (15, 15, ""),
        (17, 18, "list item"),
        (21, 22, "block quote"),
        (26, 27, "file"),
    ]


class _CopyCounting(str):
    """A text that counts the characters its slices and splits copy (the work of reading
    it again)."""

    copied = 0

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        part = str.__getitem__(self, key)
        _CopyCounting.copied += len(part)
        return part

    def split(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        parts = str.split(self, *args, **kwargs)
        _CopyCounting.copied += sum(map(len, parts))
        return parts


def test_unclosed_fences_read_the_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where each of many unclosed fences runs to is found without reading the text after
    each again (it made 19,000 list items with an open fence, then a long line, 14 s)."""
    from skillc_index.markdown.document import _code_of, block_tokens
    from skillc_index.markdown.headings import scan_headings

    body = "- ```\n" * 200 + "x" * 10_000 + "\n\n"
    code: list[tuple[int, int, str]] = []
    monkeypatch.setattr(_CopyCounting, "copied", 0)
    assert scan_headings(_CopyCounting(body), code) == []  # the scanner
    assert _CopyCounting.copied < 3 * len(body)
    monkeypatch.setattr(_CopyCounting, "copied", 0)
    found = _code_of(block_tokens(body), _CopyCounting(body))  # markdown-it's parse
    assert _CopyCounting.copied < 3 * len(body)
    assert found == code
    assert [runs_to for _start, _end, runs_to in code] == ["list item"] * 200
    assert [b.runs_to for b in parse_markdown(body + "- ```\n  \n\n").code_blocks][-2:] == [
        "list item",
        "file",
    ]


def test_unclosed_fence_swallows_the_rest() -> None:
    doc = parse_markdown("# A\n```\n# not\n")
    assert heads(doc) == [(1, "A", 1, 4)]


def test_heading_plain_text() -> None:
    text = "# Use `pdf.read()` with *care* and [links](x.md) ![icon](i.png) <kbd>K</kbd>  \n"
    doc = parse_markdown(text)
    assert doc.headings[0].text == "Use pdf.read() with care and links icon K"
    # The link in the heading is a link.
    assert links(doc) == [("x.md", 1, "links", False), ("i.png", 1, "icon", True)]


def test_heading_escapes_and_entities() -> None:
    doc = parse_markdown("## A \\*star\\* &amp; more ##\n")
    assert heads(doc) == [(2, "A *star* & more", 1, 2)]


def test_headings_in_lists_and_quotes() -> None:
    doc = parse_markdown("> # Quoted\n\n- ## Listed\n")
    assert heads(doc) == [(1, "Quoted", 1, 4), (2, "Listed", 3, 4)]


def test_all_levels() -> None:
    text = "".join(f"{'#' * n} H{n}\n" for n in range(1, 8))
    doc = parse_markdown(text)
    assert [h.level for h in doc.headings] == [1, 2, 3, 4, 5, 6]
    assert doc.headings[-1].end_line == 8


def test_title_of() -> None:
    assert title_of(parse_markdown("## Sub\n# The *Title*\n# Other\n")) == "The Title"
    assert title_of(parse_markdown("## Only sub\n")) is None


def test_empty_text() -> None:
    doc = parse_markdown("")
    assert doc.line_count == 0
    assert doc.headings == ()
    assert doc.links == ()
    assert not doc.frontmatter.present


# -- links ----------------------------------------------------------------------------------


def test_links_across_soft_breaks() -> None:
    text = (
        "---\nname: x\n---\n"
        "A paragraph with [one](a.md)\n"
        "and [two](b.md) on the next line\n"
        "and a [link that\nwraps](c.md) then [four](d.md).\n"
    )
    doc = parse_markdown(text)
    assert links(doc) == [
        ("a.md", 4, "one", False),
        ("b.md", 5, "two", False),
        ("c.md", 6, "link that wraps", False),
        ("d.md", 7, "four", False),
    ]


def test_links_after_hard_breaks_and_in_lists_and_quotes() -> None:
    text = "line\\\n[a](a.md)  \n[b](b.md)\n\n- item\n  [c](c.md)\n\n> quote\n> [d](d.md)\n"
    doc = parse_markdown(text)
    assert [(link.target, link.line) for link in doc.links] == [
        ("a.md", 2),
        ("b.md", 3),
        ("c.md", 6),
        ("d.md", 9),
    ]


def test_links_after_multiline_image_alt_and_html() -> None:
    text = "![an\nimage](i.png) <span\nclass='x'>s</span> [after](a.md)\n"
    doc = parse_markdown(text)
    assert links(doc) == [("i.png", 1, "an image", True), ("a.md", 3, "after", False)]


def test_links_after_newlines_hidden_in_code_spans_titles_and_images() -> None:
    text = (
        "Run `git stash push --\n  <paths>` first ([a](a.md)).\n"
        '[t](t.md "a title\nover two lines") [b](b.md)\n'
        "![alt\ntext](\n  i.png\n) [c](c.md)\n"
        "[label\n`code\nspan`](d.md) [e](e.md)\n"
    )
    assert [(link.target, link.line) for link in parse_markdown(text).links] == [
        ("a.md", 2),
        ("t.md", 3),
        ("b.md", 4),
        ("i.png", 5),
        ("c.md", 8),
        ("d.md", 9),
        ("e.md", 11),
    ]


def test_links_in_code_are_not_links() -> None:
    text = (
        "`[no](code.md)`\n\n```\n[no](fence.md)\n```\n\n    [no](indented.md)\n\n[yes](real.md)\n"
    )
    assert links(parse_markdown(text)) == [("real.md", 9, "yes", False)]


def test_images_and_linked_images() -> None:
    doc = parse_markdown("![Diagram *one*](img/d.png)\n\n[![badge](b.svg)](https://x.org)\n")
    assert links(doc) == [
        ("img/d.png", 1, "Diagram one", True),
        ("b.svg", 3, "badge", True),
        ("https://x.org", 3, "badge", False),
    ]


def test_reference_links() -> None:
    text = "See [the guide][g] and [Ref].\n\n[g]: docs/guide.md\n[ref]: <docs/my ref.md>\n"
    assert links(parse_markdown(text)) == [
        ("docs/guide.md", 1, "the guide", False),
        ("docs/my ref.md", 1, "Ref", False),
    ]


def test_unused_reference_definition_is_not_a_link() -> None:
    assert parse_markdown("[unused]: a.md\n").links == ()


def test_percent_decoding_and_anchors() -> None:
    text = "[a](my%20file.md) [b](<other file.md#Some-Anchor>) [c](#local) [d](caf%C3%A9.md)\n"
    assert [link.target for link in parse_markdown(text).links] == [
        "my file.md",
        "other file.md#Some-Anchor",
        "#local",
        "café.md",
    ]


def test_autolinks_and_bare_urls() -> None:
    text = (
        "See <https://example.com/a> or https://example.org/x_y). Also WWW.test.dev.\n"
        "`https://in.code` [https://in.label](x.md) not:awww.x nor https://\n"
    )
    doc = parse_markdown(text)
    assert links(doc) == [
        ("https://example.com/a", 1, "https://example.com/a", False),
        ("https://example.org/x_y", 1, "https://example.org/x_y", False),
        ("http://WWW.test.dev", 1, "WWW.test.dev", False),
        ("x.md", 2, "https://in.label", False),
    ]


def test_www_in_prose_is_no_link() -> None:
    """ "the www. prefix" is prose: trimming the period leaves "www", no domain (a relative
    link "www" would be a broken-link error in lint); www.x. is still a link (near miss)."""
    text = "Strip the www. prefix, or www.. or (www.), but keep www.x.dev.\n"
    assert links(parse_markdown(text)) == [("http://www.x.dev", 1, "www.x.dev", False)]


def test_links_in_tables() -> None:
    text = "intro\n\n| File | Use |\n|------|-----|\n| [a](a.md) | x |\n| y | ![i](i.png) |\n"
    assert links(parse_markdown(text)) == [("a.md", 5, "a", False), ("i.png", 6, "i", True)]


def test_link_type_fields() -> None:
    link = parse_markdown("[t](x.md#a)").links[0]
    assert link == Link("x.md#a", 1, "t", False, "x.md#a", 0, "x.md", "a")


def test_a_reference_style_link_keeps_its_own_source_as_written() -> None:
    """A reference-style link's text does not hold its destination (``written`` is ""): its
    own source up to its first line's end is kept (``written_link``), what finds its column;
    an inline link, an autolink and a bare URL keep none (near misses)."""
    text = (
        "See [the *guide*][g] and ![chart][c] and [g][] and\n[g] and [wrapped\nlabel][g] "
        "and [in](x.md) <https://a.dev> https://b.dev\n\n[g]: x.md\n[c]: c.png\n"
    )
    found = [(link.line, link.written, link.written_link) for link in parse_markdown(text).links]
    assert found == [
        (1, "", "[the *guide*][g]"),
        (1, "", "![chart][c]"),
        (1, "", "[g][]"),
        (2, "", "[g]"),
        (2, "", "[wrapped"),
        (3, "x.md", ""),
        (3, "", ""),
        (3, "https://b.dev", ""),
    ]


def test_a_reference_style_link_reads_its_own_source_only() -> None:
    """Each reference-style link searched the rest of its block for a ``](`` (lint of
    60,000 ``[a]`` then their definition: 15 s, 300,000: 2 minutes): the search now stops at
    the link's end, what the inline parse found as the same links."""
    from markdown_it.token import Token

    from skillc_index.markdown.blocks import Block
    from skillc_index.markdown.document import _markdown_parser
    from skillc_index.markdown.links import inline_links

    searched = 0

    class Source(str):  # the inline source, counting what the searches for "](" read
        def find(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
            nonlocal searched
            if sub == "](":
                stop = len(self) if end is None else min(end, len(self))
                searched += max(stop - start, 0)
            return super().find(sub, start, len(self) if end is None else end)

    md = _markdown_parser()
    env = {"references": {"A": {"href": "x.md", "title": ""}}}
    count = 2000
    source = "[a] [b](y.md) " * count
    tokens: list[Token] = []
    md.inline.parse(Source(source), md, env, tokens)
    assert searched < 20 * len(source), searched  # (every link to the end: 56 million)
    inline = Block("inline", "", None, source, tokens)
    found = [(link.target, link.written, link.written_link) for link in inline_links(inline, 1)]
    assert found == [("x.md", "", "[a]"), ("y.md", "y.md", "")] * count


def test_a_link_is_split_at_its_query_and_fragment_before_it_is_decoded() -> None:
    """The whole destination was decoded, then split: ``q%3F.md`` (the file ``q?.md``) was
    the path ``q`` and a query, ``c%23sharp.md`` the path ``c`` and an anchor."""
    text = (
        "[q](q%3F.md) ![h](c%23sharp.md#caf%C3%A9) [r](r%20x.md?a=%23b#top) <https://x.dev/a?b#c>"
    )
    assert [(link.path, link.fragment) for link in parse_markdown(text).links] == [
        ("q?.md", ""),
        ("c#sharp.md", "café"),
        ("r x.md", "top"),
        ("https://x.dev/a", "c"),
    ]


def test_a_link_keeps_its_destination_as_written() -> None:
    """Only the decoded target was kept: skillc-lint could not find ``my%20guide.md`` on its
    line (column 1) and quoted ``my guide.md``, which is not in the file."""
    text = (
        "Open [the guide](my%20guide.md), ![i]( <a b.png> 't') and [a\\_b](a\\_b.md#x).\n"
        "[r][ref], [![img](p.png)](q.md), www.x.dev\n\n[ref]: r.md\n"
    )
    assert [(link.target, link.written) for link in parse_markdown(text).links] == [
        ("my guide.md", "my%20guide.md"),
        ("a b.png", "a b.png"),
        ("a_b.md#x", "a\\_b.md#x"),
        ("r.md", ""),  # its definition holds it, on another line
        ("p.png", "p.png"),
        ("q.md", "q.md"),
        ("http://www.x.dev", "www.x.dev"),
    ]


def test_a_link_knows_the_line_of_its_destination() -> None:
    """Which line a link's destination is written on was not kept: skillc-lint looked for it
    on each next line (quadratic in a table of ``[x](a\\|b.md)``, and found elsewhere)."""
    text = (
        "See [the\nguide](\n  <a b.md>\n 't') and ![i](\np.png).\n\n"
        "| a | b |\n|---|---|\n| [x](a\\|b.md) | [y](\n"
    )
    links = parse_markdown(text).links
    assert [(link.line, link.written, link.written_line) for link in links] == [
        (1, "a b.md", 2),
        (4, "p.png", 1),
        (9, "a|b.md", 0),  # the cell as parsed
    ]


# -- metadata -------------------------------------------------------------------------------


def test_read_skill_metadata() -> None:
    doc = parse_markdown("---\nname: ' pdf '\ndescription: |\n  Two\n  lines\n---\n")
    assert read_skill_metadata(doc) == SkillMetadata("pdf", "Two lines")


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("# no frontmatter\n", "name"),
        ("---\nname: x\n", "name"),  # unclosed
        ("---\nname: [\n---\n", "name"),  # invalid YAML
        ("---\n- a\n---\n", "name"),  # not a mapping
        ("---\ndescription: d\n---\n", "name"),
        ("---\nname: ''\ndescription: d\n---\n", "name"),
        ("---\nname: '   '\ndescription: d\n---\n", "name"),
        ("---\nname: 42\ndescription: d\n---\n", "name"),
        ("---\nname:\ndescription:\n---\n", "name"),
        ("---\nname: x\n---\n", "description"),
        ("---\nname: x\ndescription:\n---\n", "description"),
        ("---\nname: x\ndescription: '  '\n---\n", "description"),
        ("---\nname: x\ndescription: [a, b]\n---\n", "description"),
    ],
)
def test_missing_fields_raise_e011(text: str, missing: str) -> None:
    with pytest.raises(MissingFrontmatterField) as caught:
        read_skill_metadata(parse_markdown(text))
    assert caught.value.field == missing
    assert caught.value.diagnostic.code == "E011"
    first = str(caught.value).splitlines()[0]
    assert first == f"error[E011]: missing frontmatter field '{missing}' in SKILL.md"


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (
            "---\nname: bad-yaml\ndescription: [unclosed\n---\n",
            "invalid frontmatter YAML: while parsing a flow sequence (line 3, column 14): did "
            "not find expected ',' or ']' (line 4, column 1)",
        ),
        ("---\nname: x\n", "missing frontmatter: no closing --- found"),
        ("# no frontmatter\n", "missing frontmatter: file does not start with ---"),
        ("---\nname: x\n---\n", None),  # valid: only the field is missing
    ],
)
def test_e011_names_why_the_frontmatter_could_not_be_read(text: str, hint: str | None) -> None:
    """A SKILL.md whose `name:` line is there but whose YAML is invalid: the hint says why
    (the field is not "missing" from the file, the YAML around it is broken)."""
    with pytest.raises(MissingFrontmatterField) as caught:
        read_skill_metadata(parse_markdown(text))
    assert caught.value.cause == hint
    assert str(caught.value).splitlines()[1:] == ([] if hint is None else [f"hint: {hint}"])


def test_e011_says_another_encodings_bom_only() -> None:
    """A UTF-16 or UTF-32 SKILL.md (its BOM, :func:`other_bom`) starts with ``---`` in its
    author's editor: E011's hint says its encoding, also when skillc, which reads its text
    (``files.decoded``), finds the frontmatter (agents do not); bytes that are merely not
    UTF-8 keep the usual reason."""
    from skillc_index.files import other_bom

    bom = other_bom("---\n".encode("utf-16"))
    assert bom == "is UTF-16 (BOM FF FE)"
    assert other_bom(b"---\n\xe9\n") is None and other_bom("\ufeff---".encode()) is None
    doc = parse_markdown("\ufffd\ufffd-\x00-\x00-\x00\n\x00")
    with pytest.raises(MissingFrontmatterField) as caught:
        read_skill_metadata(doc, bom=bom)
    assert caught.value.cause == "SKILL.md is UTF-16 (BOM FF FE): save it as UTF-8"
    with pytest.raises(MissingFrontmatterField) as caught:
        read_skill_metadata(doc)
    assert caught.value.cause == "missing frontmatter: file does not start with ---"
    with pytest.raises(MissingFrontmatterField) as caught:
        read_skill_metadata(parse_markdown("---\nname: x\ndescription: y\n---\n"), bom=bom)
    assert caught.value.cause == "SKILL.md is UTF-16 (BOM FF FE): save it as UTF-8"


def test_description_property() -> None:
    assert parse_markdown("---\ndescription: 42\n---\n").description is None
    assert parse_markdown("---\ndescription: ''\n---\n").description is None
    assert parse_markdown("# x\n").description is None
    assert parse_markdown("---\ndescription: ' a \t b\n\n c '\n---\n").description == "a b c"


# -- import cost ----------------------------------------------------------------------------


def test_import_does_not_load_yaml_or_markdown_it() -> None:
    code = (
        "import sys, skillc_index.markdown.document as m\n"
        "bad = [n for n in sys.modules if n.startswith(('yaml', 'markdown_it'))]\n"
        "assert not bad, bad\n"
        # frontmatter of the usual shapes is read without PyYAML
        "m.parse_markdown('---\\na: 1\\nb: |\\n  text\\nc:\\n  - d\\n---\\n# x\\n')\n"
        "assert 'yaml' not in sys.modules\n"
        # `yes` goes to PyYAML; a link: the body takes markdown-it (one without takes the
        # headings scanner)
        "m.parse_markdown('---\\na: yes\\n---\\n# x\\n[a](b.md)\\n')\n"
        "assert 'yaml' in sys.modules and 'markdown_it' in sys.modules\n"
    )
    src = Path(__file__).resolve().parents[1] / "src"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(src)},
        check=False,
    )
    assert result.returncode == 0, result.stderr


# -- the size limit (issue 13: markdown-it-py parses tables at up to 15 s/MB) -------------------


def _over_the_limit() -> tuple[str, int]:
    """A text of table rows past the parse limit, with headings and links on both sides of
    it; and the length of the part that is parsed (up to the last break before the limit)."""
    from skillc_index.markdown.document import MARKDOWN_LIMIT

    row = "| x | [a](a.md) | " + "w" * 60 + " |\n"  # long rows: the byte limit comes first
    head = "# Top\n\n## Before\n\n| a | b |\n|---|---|\n"
    rows = row * ((MARKDOWN_LIMIT - len(head) - 200) // len(row))
    near = "\n## Near the limit\n\n"
    filler = "y" * (MARKDOWN_LIMIT - len(head) - len(rows) - len(near) - 10) + "\n"
    before = head + rows + near + filler  # ends 9 characters before the limit
    assert len(before) == MARKDOWN_LIMIT - 9
    after = "more words\n\n## After\n\n[b](b.md)\n" + "| z | w |\n" * 1000 + "last line\n"
    return before + after, len(before)


def test_a_file_over_the_limit_is_parsed_up_to_the_last_break_before_it() -> None:
    text, parsed = _over_the_limit()
    doc = parse_markdown(text)
    line_count = text.count("\n")
    assert doc.line_count == line_count
    assert doc.parsed_lines == text.count("\n", 0, parsed)
    assert [h.text for h in doc.headings] == ["Top", "Before", "Near the limit"]
    # the last section runs to the end of the file: the rest is part of it
    assert doc.headings[0].end_line == doc.headings[-1].end_line == line_count + 1
    near = doc.headings[-1].line
    assert text.split("\n")[near - 1] == "## Near the limit"
    assert {link.target for link in doc.links} == {"a.md"}
    assert max(link.line for link in doc.links) < near


def test_a_file_at_the_limit_is_parsed_whole() -> None:
    from skillc_index.markdown.document import MARKDOWN_LIMIT

    body = "# Head\n\n" + "| x | y |\n" * 100
    text = body + "z" * (MARKDOWN_LIMIT - len(body) - len("\n## Last\n")) + "\n## Last\n"
    assert len(text) == MARKDOWN_LIMIT
    doc = parse_markdown(text)
    assert doc.parsed_lines is None
    assert [h.text for h in doc.headings] == ["Head", "Last"]


def test_the_limit_counts_from_the_start_of_the_file() -> None:
    """Frontmatter counts; line numbers stay those of the file; no break before the limit
    means no heading at all."""
    from skillc_index.markdown.document import MARKDOWN_LIMIT

    text, _parsed = _over_the_limit()
    front = '---\nname: "x"\ndescription: "y"\n---\n'
    doc = parse_markdown(front + text)
    assert doc.frontmatter.data == {"name": "x", "description": "y"}
    assert [h.text for h in doc.headings] == ["Top", "Before", "Near the limit"]
    assert doc.headings[0].line == 5
    one_line = "# Title " + "x" * MARKDOWN_LIMIT + "\n## Next\n"
    doc = parse_markdown(one_line)
    assert (doc.headings, doc.parsed_lines, doc.line_count) == ((), 0, 2)


def test_limit_notice_names_the_file() -> None:
    from skillc_index.markdown.document import MARKDOWN_LIMIT, limit_notice

    text, _parsed = _over_the_limit()
    doc = parse_markdown(text)
    notice = limit_notice("refs/big.md", doc)
    assert notice is not None
    assert notice.level == "warning"
    assert notice.text.startswith(
        "refs/big.md: over the parse limit (1 MiB, 20,000 lines or 65,536 table cells);"
    )
    assert f"lines 1-{doc.parsed_lines}" in notice.text
    assert limit_notice("SKILL.md", parse_markdown("# Small\n")) is None
    # a first line over the limit: no line is parsed, and the notice says so (not "1-0")
    first = limit_notice("long.md", parse_markdown("x" * (MARKDOWN_LIMIT + 1) + "\n# Later\n"))
    assert first is not None and first.text == (
        "long.md: over the parse limit (1 MiB, 20,000 lines or 65,536 table cells); no heading "
        "or link of it is read: its first line reaches it"
    )


def test_a_file_of_many_short_lines_is_parsed_up_to_the_line_limit() -> None:
    """markdown-it-py's cost follows lines: 1 MiB of ``x|y`` rows took 15 s, so at most
    20,000 lines are parsed, however short; the last heading before runs to the end."""
    from skillc_index.markdown.document import MARKDOWN_LINE_LIMIT

    head = "# Top\n\n| a | b |\n|---|---|\n"  # 4 lines
    rows = "x|y\n" * (MARKDOWN_LINE_LIMIT - 10)
    text = head + rows + "\n## Near\n\n" + "x|y\n" * 100 + "## After\n[b](b.md)\n"
    assert len(text) < 200_000  # far below the byte limit
    doc = parse_markdown(text)
    assert doc.parsed_lines == MARKDOWN_LINE_LIMIT
    assert [h.text for h in doc.headings] == ["Top", "Near"]
    assert doc.headings[-1].end_line == doc.line_count + 1
    assert not doc.links
    whole = parse_markdown("# Top\n" + "x\n" * (MARKDOWN_LINE_LIMIT - 1))  # exactly the limit
    assert whole.parsed_lines is None


def test_a_heading_of_only_inline_html_is_named_by_its_source() -> None:
    """``## <Connector Name>`` has no plain text (the tag is dropped): its source text names it,
    so outline, the index and show see a heading that can be found (issue 14)."""
    doc = parse_markdown(
        "# <Connector Name>\n\n## <!-- Team Name -->\n\n## <date> — opened\n\n"
        "<a> <b>\n<c>\n---\n\n## <kbd>K</kbd>\n\n#\n"
    )
    assert [h.text for h in doc.headings] == [
        "<Connector Name>",
        "<!-- Team Name -->",
        "— opened",  # some plain text: kept as it was
        "<a> <b> <c>",  # a setext heading's lines joined by a space, as for plain text
        "K",
        "(empty heading, line 13)",  # no text at all: its label (the next test)
    ]


def test_an_empty_heading_is_named_by_its_line() -> None:
    """A bare ``#``, blanks or a closing sequence only: the label ``(empty heading, line N)``
    (N counts the frontmatter), which outline lists and show finds (issue 32: the text was
    ``""``, which no ``show --section`` can name)."""
    doc = parse_markdown("---\nname: x\n---\n#\n\n##   \n\n### ###\n\n#### Named\n")
    assert [(h.level, h.text, h.line) for h in doc.headings] == [
        (1, "(empty heading, line 4)", 4),
        (2, "(empty heading, line 6)", 6),
        (3, "(empty heading, line 8)", 8),
        (4, "Named", 10),
    ]


# -- HTML, as the parser reads it ------------------------------------------------------------


def test_html_is_what_commonmark_reads_as_html() -> None:
    """Code spans (one over two lines too), code blocks and a ``<`` that starts no tag hold no
    HTML; blocks, inline tags and comments do, each at its line, with the text after it."""
    doc = parse_markdown(
        "---\nname: x\n---\n"
        "Open with `<If ` and\n"  # 4
        "keep it hidden > shown.\n"
        "A `<b\nx>` span, then a < b.\n\n"  # 6
        "    <div hidden>indented code</div>\n\n"  # 9
        "```html\n<!-- fenced -->\n```\n\n"  # 11
        "Text <!-- a\ncomment --> and <span style='opacity:0'>inside</span> end.\n\n"  # 15
        "<div hidden>\n\nA paragraph under it.\n\n</div>\n"  # 18
    )
    assert [(h.source, h.line, h.block, h.text_after) for h in doc.html] == [
        ("<!-- a\ncomment -->", 15, False, "and"),
        ("<span style='opacity:0'>", 16, False, "inside"),
        ("</span>", 16, False, "end."),
        ("<div hidden>\n", 18, True, "A paragraph under it."),
        ("</div>\n", 22, True, ""),
    ]


def test_text_after_html_is_bounded() -> None:
    doc = parse_markdown("<div hidden>\n\n" + "word " * 100 + "\n\nmore " * 100)
    [block] = doc.html
    assert block.text_after.startswith("word word")
    assert len(block.text_after) == 200


def test_a_file_over_the_read_limit_is_parsed_from_its_start_and_never_held_whole(
    tmp_path: Path, read_sizes: ReadSizes
) -> None:
    """``read_markdown`` reads a file as far as the parse reads it (4 MiB: more than 1 MiB
    of characters of 4 bytes) and counts the rest of its lines in chunks: the same document as
    a parse of the whole text, never more than the read limit in one read. Before: a 400 MB
    SKILL.md was read whole (840 MB for ``outline``)."""
    import skillc_index.files
    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT, read_markdown

    path = tmp_path / "big.md"
    text = "# Top\r\n\r\n" + "é line\r\n" * (MARKDOWN_READ_LIMIT // 9) + "## After\rend"
    path.write_bytes(text.encode())
    sizes = read_sizes(skillc_index.files, "open_regular")
    doc = read_markdown(path)
    assert doc == parse_markdown(text)
    assert doc.line_count == MARKDOWN_READ_LIMIT // 9 + 4
    assert sum(sizes) == len(text.encode()) > max(sizes)
    assert max(sizes) <= MARKDOWN_READ_LIMIT


def test_a_file_is_asked_for_its_size_not_the_read_limit(tmp_path: Path) -> None:
    """``read_parsed`` asks a file for its size (its stat) and a byte, not for the read limit
    (4 MiB: a buffer that size for each small file, 3 times the time of reading a corpus);
    one that has grown since its stat is read on to the limit, whole as before."""
    import io

    from skillc_index.markdown.document import MARKDOWN_READ_LIMIT, read_parsed

    path = tmp_path / "small.md"
    path.write_bytes(b"# Small\n")
    asked: list[int] = []

    class Recorded(io.BufferedReader):
        grow = b""

        def read(self, size: int | None = -1) -> bytes:
            asked.append(-1 if size is None else size)
            if self.grow:
                with path.open("ab") as more:
                    more.write(self.grow)
                self.grow = b""
            return super().read(size)

    with Recorded(io.FileIO(path)) as handle:
        assert read_parsed(handle) == ("# Small\n", None)
    assert asked == [len(b"# Small\n") + 1]
    asked.clear()
    with Recorded(io.FileIO(path)) as handle:
        handle.grow = b"more\n" * 4  # after its stat, before its read
        assert read_parsed(handle) == ("# Small\n" + "more\n" * 4, None)
    assert asked == [9, MARKDOWN_READ_LIMIT - 9]
