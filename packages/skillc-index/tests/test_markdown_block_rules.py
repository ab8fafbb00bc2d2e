"""The block-rule dispatcher (``skillc_index.markdown.block_rules``): the parser that tries
each block rule only where it can match gives exactly markdown-it's tokens. Checked on
hand-written cases (one per test the dispatcher makes), on bodies generated from the block
constructs (Hypothesis) and on every ``.md`` file of the corpus (skipped when it is absent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from skillc_index.markdown.block_rules import dispatch_block_rules, skip_deep_blocks

STOCK = MarkdownIt("commonmark").enable("table")
DISPATCHED = MarkdownIt("commonmark").enable("table")
dispatch_block_rules(DISPATCHED)


def tokens(parser: MarkdownIt, text: str) -> list[dict[str, Any]]:
    return [token.as_dict() for token in parser.parse(text)]


def same(text: str) -> None:
    assert tokens(DISPATCHED, text) == tokens(STOCK, text), text


CASES = [
    "Title\n=====\n\nSub\n---\n",  # setext headings
    "para\nmore\n- item\n",  # a list interrupting a paragraph
    "para\n2. two\n",  # an ordered list not starting at 1 does not
    "[ref]: /url\n2. two\n\n[ref]\n",  # after a reference definition (the parser's state)
    "text\n\n[ref]: /url\n2. two\n",
    "- a\n- b\n\n---\n***\n_ _ _\n- - -\n* * *\n-- x\n",  # rules and list items
    "> quote\nlazy\n> - item\n>   more\n> ---\n",  # block quotes, lazy lines
    "| a | b |\n|---|:-:|\n| 1 | 2 |\n\na | b\n- | -\n",  # tables, and what is none
    "    code\n\n\tcode\n   not code\n",  # indented code
    "<div>\n*x*\n</div>\n\n<!-- c -->\ntext <b>b</b>\n",  # HTML blocks and inline HTML
    "```py\n# no heading\n```\n~~~\n- no list\n~~~\n  ```\n  x\n  ```\n",  # fences
    "# One\n## Two ##\n####### seven\n#no\n",  # ATX headings
    "1. a\n\n   ```\n   code\n   ```\n2. b\n   > q\n   ---\n",  # blocks inside list items
    "a\n    - b\n  = c\n   =\n",  # underlines at every indentation
    "",
    "\n\n",
    "-",
    "+ x\n+\n+ y\n10) ten\n1234567890. big\n",
]


@pytest.mark.parametrize("text", CASES)
def test_the_tokens_are_markdown_its(text: str) -> None:
    same(text)


LINES = st.sampled_from(
    ["", "text", "a b c", "# h", "## h ##", "#x", "===", "---", "- - -", "***", "* a", "- a",
     "+ a", "1. a", "2) a", "> q", ">", "> - a", "    code", "\tcode", "   x", "```", "~~~",
     "```py", "<div>", "</div>", "<!-- c -->", "[r]: /u", "[r]", "| a | b |", "|---|---|",
     "a | b", "- | -", ":-:|", "  - nested", "     deep", "_ _ _", "-- x", "=", "[a](b)"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=14))
def test_generated_bodies_give_markdown_its_tokens(lines: list[str]) -> None:
    same("\n".join(lines))


@pytest.mark.corpus
def test_corpus_tokens_are_markdown_its(corpus: Path) -> None:
    files = sorted(path for path in corpus.rglob("*.md") if path.is_file())
    assert files
    for path in files:
        same(path.read_bytes().decode("utf-8", errors="replace"))


# -- past the nesting limit ------------------------------------------------------------------

DEEP = "".join("  " * depth + f"- item {depth} [in](in{depth}.md)\n" for depth in range(12))


def test_a_list_nested_too_deep_loses_its_deep_items_only() -> None:
    """markdown-it skips to the end of the range of a block nested past ``maxNesting``, and a
    list item's range is the rest of the document: every heading and link after a list
    nested 10 deep was lost to outline, show and search. The deep items alone are skipped
    now, and where they start is still told (lint's SKL902)."""
    from skillc_index.markdown.document import parse_markdown

    text = (
        "# Top\n\n## Before\n\n" + DEEP + "  - back at level 2 [back](back.md)\n\n## After\n\n"
        "See [after](after.md).\n\n> " + "> " * 25 + "quoted [q](q.md)\n\n### Last\n"
    )
    doc = parse_markdown(text)
    assert [(h.text, h.line, h.end_line) for h in doc.headings] == [
        ("Top", 1, 26), ("Before", 3, 19), ("After", 19, 26), ("Last", 25, 26)
    ]  # fmt: skip
    targets = [link.target for link in doc.links]
    assert targets[:9] == [f"in{depth}.md" for depth in range(9)]  # read, above the cut
    assert targets[9:] == ["back.md", "after.md"]  # the deep items and the deep quote: not
    assert doc.nested_cut == 14  # the first deep item (`- item 9`), told as before


SKIPPING = MarkdownIt("commonmark").enable("table")
skip_deep_blocks(SKIPPING)


@pytest.mark.parametrize(
    "text", [*CASES, "".join("  " * depth + "- x\n" for depth in range(9)) + "\n## After\n"]
)
def test_a_body_within_the_limit_is_parsed_as_markdown_it_does(text: str) -> None:
    """The skip is taken past the limit only: up to it, the tokens are markdown-it's."""
    assert tokens(SKIPPING, text) == tokens(STOCK, text)


@pytest.mark.parametrize("end", ["> - <pre>\n>", "> - <pre>\n> ", ">\n> - <!--\n>"])
def test_a_text_whose_last_line_ends_an_html_block_in_a_quoted_list_is_read(end: str) -> None:
    """markdown-it read past a text ending so without a line break (IndexError): one such
    reference file made every read of its skill E999 (outline, show, search, lint, build).
    The link reference definition sends the text to markdown-it's own parse."""
    from skillc_index.markdown.document import block_tokens, parse_markdown
    from skillc_index.tools.model import parse_tools

    text = "# Notes\n\nSee [the docs][d].\n\n[d]: https://example.com\n\n" + end
    doc = parse_markdown(text)
    assert [(h.text, h.line) for h in doc.headings] == [("Notes", 1)]
    assert [link.target for link in doc.links] == ["https://example.com"]
    assert block_tokens(text)[-1].type != "paragraph_open"
    assert parse_tools(text)[0] == ()
