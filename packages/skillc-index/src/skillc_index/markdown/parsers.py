"""The kit's markdown-it parsers (:func:`markdown_parser`: each built once, on first use) and
the ``env`` keys that make the skill model's parse selective (:func:`_selective_inline`).
:mod:`skillc_index.markdown.document` parses a skill's Markdown with them; they are imported
from here only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skillc_index.markdown.links import counting_newlines, may_link

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

__all__ = ["HEADINGS_ONLY", "LAZY_HEADINGS", "NO_REFERENCES", "markdown_parser", "parse_closed"]

# markdown-it env key: the parse wants headings only (no inline pass outside headings).
HEADINGS_ONLY = "skillc_headings_only"
# markdown-it env key: a heading that cannot hold a link nor HTML is parsed only when its
# text needs the parse (:func:`.document._heading_of`).
LAZY_HEADINGS = "skillc_lazy_headings"
# markdown-it env key: the body has no link reference definition, a block is parsed only
# when it may hold an inline link (:func:`may_link` with ``inline_only``;
# :func:`.document._parse_late` parses the others that may hold a link when their text is
# needed).
NO_REFERENCES = "skillc_no_references"

_PARSERS: dict[bool, MarkdownIt] = {}  # markdown_parser's, by ``whole``


def _selective_inline(state: StateCore) -> None:
    """markdown-it's core ``inline`` rule, restricted to the inline tokens the skill model reads.

    Headings get their inline content parsed (with ``env[LAZY_HEADINGS]`` only those whose
    source may hold a link or HTML: :func:`.document._heading_of` parses the others when it
    must);
    other blocks only when their source may hold a link (``[``, ``<``, ``://`` or ``www.``;
    with ``env[NO_REFERENCES]`` a ``[`` counts only with a ``](``), and never when the
    parse is for headings only (``env[HEADINGS_ONLY]``: the index's).
    The rest keep empty children: the inline pass is about 40% of markdown-it's time and
    most paragraphs have no link. The output for the tokens that are parsed is exactly what
    the stock rule gives.
    """
    tokens = state.tokens
    md = state.md
    links = not state.env.get(HEADINGS_ONLY)
    lazy = state.env.get(LAZY_HEADINGS)
    inline_only = bool(state.env.get(NO_REFERENCES))
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        in_heading = index > 0 and tokens[index - 1].type == "heading_open"
        content = token.content
        if (in_heading and not lazy) or (links and may_link(content, inline_only=inline_only)):
            md.inline.parse(content, md, state.env, token.children)


def markdown_parser(*, whole: bool = False) -> MarkdownIt:
    """The kit's one factory of markdown-it parsers, each built once, on first use:
    CommonMark plus GFM tables, their cells bounded (:func:`~skillc_index.markdown.
    block_rules.bound_table_cells`: :class:`TooManyCells` past the bound), each block rule
    tried only where it can match and the nesting bounded (:mod:`~skillc_index.markdown.
    block_rules`). The skill model's (default) also makes the core inline pass selective
    (:func:`_selective_inline`) and the inline rules that can swallow newlines record them
    (:func:`counting_newlines`); ``whole``: every inline parsed, as markdown-it does (to
    render, or to read every cell: gibb.eri.sh tools, skillc-lint's suppression comments;
    :func:`block_tokens`). No parser of a skill's Markdown is made elsewhere."""
    parser = _PARSERS.get(whole)
    if parser is None:
        from markdown_it import MarkdownIt
        from markdown_it.rules_inline import backtick, html_inline, image, link

        from skillc_index.markdown.block_rules import (
            bound_table_cells,
            dispatch_block_rules,
            skip_deep_blocks,
        )

        parser = MarkdownIt("commonmark").enable("table")
        if not whole:
            parser.core.ruler.at("inline", _selective_inline)
            for name, rule in (
                ("backticks", backtick),
                ("link", link),
                ("image", image),
                ("html_inline", html_inline),
            ):
                parser.inline.ruler.at(name, counting_newlines(rule))
        bound_table_cells(parser)
        dispatch_block_rules(parser)
        skip_deep_blocks(parser)
        _PARSERS[whole] = parser
    return parser


def parse_closed(md: MarkdownIt, body: str, env: dict[str, object] | None = None) -> list[Token]:
    """``md.parse`` of ``body``; of ``body`` ended by a line break when markdown-it fails on
    the text without one (a list item in a block quote whose last line opens an HTML block,
    ``> - <pre>`` then ``>``: markdown-it 4.3 reads past the text, an IndexError that made
    every read of the skill E999). Only then: the break would end an unclosed HTML block's
    text with it."""
    try:
        return md.parse(body, {} if env is None else dict(env))
    except IndexError:
        if body.endswith("\n"):
            raise
        return md.parse(body + "\n", {} if env is None else dict(env))
