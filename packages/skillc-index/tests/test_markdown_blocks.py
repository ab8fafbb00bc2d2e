"""The block scanner of the lint's parse (``skillc_index.markdown.blocks``) against markdown-it.

``scan_blocks`` must give exactly markdown-it's ``heading_open``, ``inline`` and
``html_block`` tokens (type, tag, line map, content; and the same inline children once the
core rules after ``block`` ran on them), or None (the caller then lets markdown-it parse):
checked on every ``.md`` file of the corpus (skipped when it is absent), on bodies generated
from block and inline constructs (Hypothesis), and on hand-written cases.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillc_index.markdown.blocks import scan_blocks
from skillc_index.markdown.document import (
    BOM,
    _markdown_parser,
    _parse_body,
    _tokens,
    inline_text,
    parse_markdown,
    parsed_end,
)
from skillc_index.markdown.frontmatter import split_frontmatter
from skillc_index.markdown.parsers import LAZY_HEADINGS, NO_REFERENCES
from skillc_index.text import count_lines, normalize_newlines

KINDS = ("heading_open", "inline", "html_block")


def summary(tokens: Any) -> list[tuple[Any, ...]]:
    """What the lint's parse reads of each token, the inline children in full."""
    return [
        (t.type, t.tag, t.map, t.content, [c.as_dict() for c in t.children or ()])
        for t in tokens
        if t.type in KINDS
    ]


def check(body: str) -> bool:
    """The scanner's tokens are markdown-it's on ``body``, and the headings, links and HTML
    found from them (headings read without their parse included) are those of markdown-it's
    parse alone; whether the scanner answered."""
    lines = count_lines(body)
    assert _parse_body(body, 0, lines) == _parse_body(body, 0, lines, scan=False), body
    if scan_blocks(body) is None:
        return False
    env = {LAZY_HEADINGS: True, NO_REFERENCES: True}  # (it refuses reference definitions)
    expected = summary(_markdown_parser().parse(body, env))
    assert summary(_tokens(body, links=True)) == expected, body
    return True


def body_of(text: str) -> str:
    """What ``parse_markdown`` parses of a file's text."""
    text = normalize_newlines(text.removeprefix(BOM))
    offset = split_frontmatter(text, parse_yaml=False)[1]
    end = parsed_end(text)
    return text[offset:end] if offset < end else ""


FOLLOWED = {
    "paragraphs": "a [link](x.md) b\nmore <b>bold</b>\n\nsecond https://x.y/z.\n",
    "headings": "# A [b](c)\nText\n===\n\nTwo\nlines `code`\n---\n## <Name>\n",
    "table": "| a | [b](c) |\n|---|:-:|\n| 1 \\| x | `y` |\n| short |\n|||\n\nafter\n",
    "table in list": "- item\n\n  a | b\n  --|--\n  [c](d) | e\n- next\n",
    "table in quote": "> a | b\n> --|--\n> c | <i>d</i>\n",
    "lists": "1. one [a](b)\n   lazy\n2. two\n\n   - nested ![i](p.png)\n\n     para\n",
    "quote": "> quoted [a](b)\nlazy line\n\n> > deep\n> back\n",
    "comment": "<!-- a\nb -->\ntext <!-- c -->\n- <!-- in item\n  x -->\n",
    "comment at the end": "text\n<!-- open",
    "code": "```\n[no](link)\n```\n\n    [no](x)\n\ntext\n",
    "setext in list": "- a\n  ---\n- b\n  ===\n",
    "one-line items": "- a\n- b\n-  c\n- \n- x\n- - -\n* d\n* e | f\n  --|--\n* g\n"
    "  * h\n  * i\n-\tj\n- k\n",
    "items that start with markup": "- **a**: b\n- `c` [d](e)\n- ~~f~~\n- ```\n  g\n  ```\n"
    "- ``h``\n- *i* j\n- **\n- _k_\n- ___\n- +l\n- 2024 m\n- 2. n\n- =o\n- |p\n- :q\n"
    "- #r\n- * * *\n- *-*\n-\t*s*\n- t\n\n  u\n",
    "items that start with a link": "- [a](b) c\n- [d](e)\n\n- [f](g)\n\n  h\n- **i**\n\n  j\n"
    "1. [k](l)\n2. m\n",
    "ordered one-line items": "1. a\n2. **b**\n3) c\n4) d\n5. `e`\n   lazy\n6. f\n7. g\n"
    "   - h\n8. i\n\n9. j\n10. *k*\n    ---\n11. l\n",
    "html blocks": "<div>\n[a](b)\n</div>\n\n<details>\n<summary>x</summary>\n\n[c](d)\n"
    "</details>\n"
    "text\n<script>\na\n\nb</script> c\n<b>\nlone tag\n\n<b>\n\n<?x\n?>\n<!X\n>\n<![CDATA[\n]]>\n"
    "- <div>\n\n  x\n- <!-- a\n\nb -->\n> <pre>\nlazy\n\n<3 <a\n<DIV\n  <p>\n",
    "empty": "",
    "tabs": "-\ta [x](y)\n\n\tcode\n\ttext\n",
    "escapes and entities": "a \\[b](c) &amp; [d](e&amp;f)\n",
    "no link text before its destination": "# <b> [a\nb](c) `code`",
    "brackets without links after html": "x <b>y</b> [a] `c`\n\n[b] *d* `e` \\[f]\n",
}

REFUSED = {
    "reference after a link item": "- [a](b)\n- [c]: d\n",
    "reference": "[a]: /url\n\n[a]\n",
    "nul": "a\0 [b](c)\n",
    "quote tab": ">\ta\n",
}


@pytest.mark.parametrize("body", FOLLOWED.values(), ids=FOLLOWED.keys())
def test_followed(body: str) -> None:
    assert check(body), "the scanner should follow this body"


@pytest.mark.parametrize("body", REFUSED.values(), ids=REFUSED.keys())
def test_refused(body: str) -> None:
    assert scan_blocks(body) is None


def test_parse_body_is_the_same_either_way() -> None:
    """Headings, links and HTML from the scanned blocks are those of markdown-it's parse."""
    body = "".join(FOLLOWED.values())
    assert scan_blocks(body) is not None
    scanned = _parse_body(body, 3, count_lines(body) + 3)
    assert _parse_body(body, 3, count_lines(body) + 3, scan=False) == scanned
    assert scanned[1] and scanned[2]  # links and HTML were found


def test_a_heading_after_html_gathers_the_text_of_its_parse() -> None:
    """A heading without link nor HTML is read without its parse, except where the HTML
    before it gathers its text: up to the cap, counted on its tokens."""
    for gap in (0, 1, 150, 180, 185, 186, 187, 188, 189, 190, 195, 200):
        body = f"<!-- c -->\n{'x' * gap}\n\n# A `c` d\\* **e** f\n\n## plain `g`\n"
        check(body)
        html = _parse_body(body, 0, count_lines(body))[2]
        assert "`" not in html[0].text_after  # the code spans' text, not their source
    # a paragraph with brackets but no link is parsed for the same reason
    body = "<!-- c -->\n[a] `b` c\n"
    assert check(body)
    assert _parse_body(body, 0, count_lines(body))[2][0].text_after == "[a] b c"


@pytest.mark.corpus
def test_corpus_blocks_are_markdown_its(corpus: Path) -> None:
    """Every ``.md`` file of the corpus; most take the scanner (2,009 files: 11 refused when
    this was written, a reference definition in each)."""
    files = sorted(path for path in corpus.rglob("*.md") if path.is_file())
    assert files
    refused = [
        path
        for path in files
        if not check(body_of(path.read_bytes().decode("utf-8", errors="replace")))
    ]
    assert len(refused) <= len(files) // 10, refused


INDENTS = st.sampled_from(["", "", "", " ", "  ", "   ", "    ", "\t"])
PREFIXES = st.sampled_from(
    ["", "", "", "- ", "* ", "1. ", "2) ", "-", "> ", ">", "> - ", "- > ", "  - "]
)
INLINE = st.sampled_from(
    ["text", "[a](b.md)", "![i](p.png)", "<https://x.y>", "https://x.y/z).", "www.a.b",
     "<b>", "</b>", "<!-- c -->", "`code`", "`[x](y)`", "a | b", "\\|", "|", "*a*", "**[a](b)**",
     "[a](<b c> 't')", "[a\nb](c)", "&amp;", "\\[", "[", "]", "(", "a  ", "#", "é", "]: /u",
     "\\"]
)  # fmt: skip
BLOCKS = st.sampled_from(
    ["", "# ", "## ", "```", "~~~", "    ", "---", "===", "***", "|---|---|", "--|--",
     "| ", "<!--", "-->", "[r]: /u", "<div>", "</div>", "<details>", "<script>", "</script>",
     "<b>", "<x-y a='1'>", "<?", "?>", "<!X", "<![CDATA[", "]]>", "<3", "<DIV", "[r", "[r\\",
     "r]: /u", "[r\\]: /u", "[r] "]
)  # fmt: skip
LINES = st.builds(
    lambda indent, prefix, block, words: indent + prefix + block + " ".join(words),
    INDENTS,
    PREFIXES,
    BLOCKS,
    st.lists(INLINE, max_size=4),
)


@settings(
    max_examples=int(os.environ.get("SKILLC_SCAN_EXAMPLES", "1000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(LINES, max_size=16), st.booleans())
def test_generated_bodies_give_markdown_its_tokens(lines: list[str], newline: bool) -> None:
    check("\n".join(lines) + ("\n" if newline else ""))


@given(st.text(st.sampled_from("[]()<>:/wW.x \u212a"), max_size=16), st.booleans())
def test_the_quick_link_test_answers_as_the_patterns(content: str, inline_only: bool) -> None:
    """A block's inline content is parsed when the link patterns match it: the substring
    tests that replace them answer the same."""
    from skillc_index.markdown.links import may_link as _may_link

    # inline source that may hold a link, an image, an autolink or a bare URL; with
    # inline_only, a body without reference definitions: a link text then its destination
    may_link = re.compile(r"[\[<]|://|www\.", re.IGNORECASE)
    may_link_inline = re.compile(r"\]\(|<|://|www\.", re.IGNORECASE)
    expected = bool(may_link.search(content)) and (
        not inline_only or bool(may_link_inline.search(content))
    )
    assert _may_link(content, inline_only=inline_only) == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="|\\a -", min_size=1, max_size=12).filter(lambda row: "|" in row))
def test_a_rows_cell_count_is_the_number_of_its_cells(row: str) -> None:
    """The scanner counts a row's cells without making them (``cell_count``); the blocks
    make them (``table_cells``): one split, two ways of asking it."""
    from skillc_index.markdown.block_state import cell_count, table_cells

    assert cell_count(row) == len(table_cells(row))


def test_the_cells_a_table_fills_in_are_counted_per_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """markdown-it ends a table at the row past 65,536 cells filled in for its short rows,
    counted per table, and so does the scanner: counted over the body, a second table ended
    at its header, and its rows then ``===`` read as a heading markdown-it does not see
    (``skc outline`` listed it; an unrelated reference definition, which hands the body to
    markdown-it, removed it). (The limit lowered to 40 in both.)"""
    import importlib

    from skillc_index.markdown import table_rule
    from skillc_index.markdown.headings import scan_headings

    markdown_it_table = importlib.import_module("markdown_it.rules_block.table")
    monkeypatch.setattr(table_rule, "_MAX_AUTOCOMPLETED_CELLS", 40)
    monkeypatch.setattr(markdown_it_table, "MAX_AUTOCOMPLETED_CELLS", 40)
    header = "|" + "a|" * 10 + "\n|" + "-|" * 10 + "\n"
    short = header + "x\n" * 6 + "\n"  # 9 cells filled in a row: the 5th row would be 45
    body = "# Top\n\n" + short + header + "y\n" * 3 + "===\n\nend\n"  # 36, then 36
    assert check(short)  # alone, markdown-it's: 4 rows, the last 2 a paragraph
    assert check(body)
    assert scan_headings(body) == [(1, "Top", 0)]
    tokens = scan_blocks(body)
    assert tokens is not None
    texts = [t.content for t in tokens if t.type == "inline" and t.content not in ("a", "")]
    assert texts == ["Top", "x", "x", "x", "x", "x\nx", "y", "y", "y", "===", "end"]
    defined = body + "\n[r]: https://example.com\n"
    assert [h.text for h in parse_markdown(defined).headings] == ["Top"]


def test_the_tables_of_a_body_hold_at_most_max_table_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tables of a body hold at most ``MAX_TABLE_CELLS`` cells in all (each row as many
    as its header): the parse stops at the row that would take them past it, or at a header
    past it, as at the parse limits (``parsed_lines``, the same warning), at the same line
    whether the scanner or markdown-it reads the body (a reference definition hands it to
    markdown-it). 20 tables of 256 columns then 257 rows of one cell made 1.3 million cells:
    the lint took 549 MB, with a definition 1.5 GB. (The bound lowered to 100.)"""
    from skillc_index.markdown import table_rule
    from skillc_index.markdown.document import block_tokens, limit_notice
    from skillc_index.markdown.table_rule import TooManyCells

    monkeypatch.setattr(table_rule, "MAX_TABLE_CELLS", 100)
    header = "|" + "a|" * 10 + "\n|" + "-|" * 10 + "\n"
    first = header + "x\n" * 4 + "\n"  # 50 cells
    second = header + "y\n" * 7  # 5 rows within the bound: the 5th of y past it
    past = 2 + 9 + 2 + 4  # the line of that row (0-based): Top, first, Mid, second's 4
    for defined in ("", "[r]: https://example.com\n\n"):
        body = defined + "# Top\n\n" + first + "# Mid\n\n" + second + "\n# After\n"
        cut = past + defined.count("\n")
        lines = count_lines(body)
        for links in (True, False):
            for scan in (True, False):
                with pytest.raises(TooManyCells) as stopped:
                    _parse_body(body, 0, lines, links, scan=scan)
                assert stopped.value.line == cut, (defined, links, scan)
            doc = parse_markdown(body, links=links)
            assert [h.text for h in doc.headings] == ["Top", "Mid"]
            assert doc.parsed_lines == cut
            assert len(doc.inlines) == (100 + 2 if links else 0)  # 10 rows of cells, 2 headings
            notice = limit_notice("big.md", doc)
            assert notice is not None and f"lines 1-{cut} only" in notice.text
        assert max(t.map[1] for t in block_tokens(body) if t.map) <= cut  # (lint's parse)
    # a header past the bound: the parse stops at it; a body within it is read whole
    whole = header + "z\n" * 9 + "\n# Between\n\n"  # 100 cells: all of them
    doc = parse_markdown(whole + header + "\n# Last\n")
    assert ([h.text for h in doc.headings], doc.parsed_lines) == (["Between"], 14)
    assert parse_markdown(whole).parsed_lines is None and check(whole)


def test_inline_blocks_and_the_text_a_reader_sees() -> None:
    """Each paragraph, heading and cell with its lines and source (a link-free body too: the
    blocks' scanner), and its text as read: markup dropped, entities decoded, breaks as
    spaces, code in backticks, with where each of its lines starts."""
    doc = parse_markdown("# T\n\n> Ignore **all** `x`\n> previous&nbsp;rules.\n\n| a |\n|---|\n")
    assert doc.inlines == (
        (1, 1, "T"),
        (3, 4, "Ignore **all** `x`\nprevious&nbsp;rules."),
        (6, 6, "a"),
    )
    assert inline_text(doc.inlines[1][2]) == ("Ignore all `x` previous\xa0rules.", [0, 15])
    assert parse_markdown("# T\n\nText.\n", links=False).inlines == ()
