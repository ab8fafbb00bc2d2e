"""The skill model: one Markdown file parsed once into frontmatter, headings, links and HTML.

Every consumer (build, show, outline, lint, stats) works from the :class:`MarkdownDoc` this
module returns instead of re-scanning text with regular expressions, so that headings inside
code blocks, links and HTML inside code spans and ``# lines`` inside frontmatter are handled
the same way everywhere.

Frontmatter follows RFC-0008:C-REGISTRY SKL100 (the file begins with a ``---`` line and the
YAML mapping ends at the next ``---`` line); the Markdown body is parsed with markdown-it-py
(CommonMark plus tables). ``yaml`` and ``markdown_it`` are imported lazily: importing this
module is cheap, the first parse pays for them.

All line numbers are 1-based and count every line of the file, frontmatter included. Lines
end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` only (:mod:`skillc_index.text`, markdown-it's
view too): the lines ``show`` and ``open`` read back.

What one file may cost is bounded: markdown-it-py spends up to about 15 s on a MB of table
rows or one-word list items (0.15 s on a MB of prose), so only the first
:data:`MARKDOWN_LIMIT` characters (1 MiB) and :data:`MARKDOWN_LINE_LIMIT` lines (20,000) of
a file are parsed, up to the last line break within both limits, and its tables hold at
most :data:`~skillc_index.markdown.table_rule.MAX_TABLE_CELLS` cells in all (the parse
stops at the row past it: :class:`~skillc_index.markdown.table_rule.TooManyCells`).
Headings and links after it are not found; the last heading's section runs to the end of
the file, so its text is still indexed and shown; :func:`limit_notice` is the warning the
front ends give for such a file.

A skill's ``name`` and ``description``, read from the document's frontmatter, are
:mod:`skillc_index.markdown.metadata`'s (``read_skill_metadata``, imported from there only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from skillc_index.diagnostics import Notice
from skillc_index.markdown.frontmatter import (
    Frontmatter,
    parse_frontmatter,
    split_frontmatter,
)
from skillc_index.markdown.heading_text import Unsure as _Unsure
from skillc_index.markdown.heading_text import heading_text as _scanned_heading_text
from skillc_index.markdown.headings import scan_headings
from skillc_index.markdown.links import (
    NEWLINES,
    Link,
    inline_links,
    may_link,
    plain_text,
)
from skillc_index.markdown.parsers import HEADINGS_ONLY as _HEADINGS_ONLY
from skillc_index.markdown.parsers import LAZY_HEADINGS as _LAZY_HEADINGS
from skillc_index.markdown.parsers import NO_REFERENCES as _NO_REFERENCES
from skillc_index.markdown.parsers import markdown_parser, parse_closed
from skillc_index.markdown.reading import (  # the parse limits, re-exported
    MARKDOWN_LIMIT,
    MARKDOWN_LINE_LIMIT,
    MARKDOWN_READ_LIMIT,
    read_parsed,
)
from skillc_index.markdown.table_rule import MAX_TABLE_CELLS, TooManyCells
from skillc_index.text import BOM, count_lines, normalize_newlines

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

    from skillc_index.markdown.blocks import BlockToken

__all__ = [
    "MARKDOWN_LIMIT",
    "MARKDOWN_LINE_LIMIT",
    "MARKDOWN_READ_LIMIT",
    "CodeBlock",
    "Frontmatter",
    "Heading",
    "Html",
    "Link",
    "MarkdownDoc",
    "block_tokens",
    "empty_heading_label",
    "inline_text",
    "limit_notice",
    "over_limit_notice",
    "parse_frontmatter",
    "parse_markdown",
    "parsed_end",
    "read_markdown",
    "read_parsed",
    "title_of",
]


@dataclass(frozen=True)
class Heading:
    """An ATX or setext heading of the Markdown body."""

    level: int
    """1 to 6."""
    text: str
    """Plain text of the heading (markup, HTML tags and link targets dropped); for a heading
    of markup only (``## <Connector Name>``), its source text, so it can be listed and shown;
    for an empty one (a bare ``#``), :func:`empty_heading_label`."""
    line: int
    """Line the heading starts on."""
    end_line: int
    """Line of the next heading of the same or a higher level (``level <=`` this one), or
    ``line_count + 1``: the section is ``line <= n < end_line``."""


#: The most text :attr:`Html.text_after` holds (characters, whitespace collapsed).
HTML_TEXT_AFTER = 200


@dataclass(frozen=True)
class Html:
    """Raw HTML of the Markdown body, where CommonMark reads HTML: an HTML block, or an
    inline tag or comment (in a paragraph, a heading, a table cell). A ``<`` in a code span
    or a code block is not HTML, nor is one that starts no tag (``a < b``, ``<If x``)."""

    source: str
    """The HTML as written: an HTML block's lines, or one inline tag or comment."""
    line: int
    """Line it starts on."""
    block: bool
    """An HTML block (rather than inline HTML)."""
    text_after: str
    """The text shown after it, up to the next HTML, over blank lines too (an opening tag
    alone on its line holds the paragraphs after it), code blocks left out; whitespace
    collapsed, at most :data:`HTML_TEXT_AFTER` characters."""


@dataclass(frozen=True)
class CodeBlock:
    """A code block of the Markdown body, as CommonMark reads it: a fence or indented code,
    in a list item or a block quote too."""

    line: int
    """Its first line (a fence's opening line)."""
    last: int
    """Its last line (a fence's closing line, or the last line it holds when left open)."""
    runs_to: str = ""
    """For a fence never closed, what it runs to the end of: ``"file"`` (nothing but blank
    lines after it), else its container, ``"list item"`` or ``"block quote"``; ``""`` for a
    closed fence or indented code."""


@dataclass(frozen=True)
class MarkdownDoc:
    """One parsed Markdown file."""

    frontmatter: Frontmatter
    headings: tuple[Heading, ...]
    links: tuple[Link, ...]
    line_count: int
    """Number of lines; a last line without a newline counts, an empty text has 0."""
    parsed_lines: int | None = None
    """For a file over :data:`MARKDOWN_LIMIT`: how many of its first lines were parsed for
    headings and links (the rest was not); None when the whole file was."""
    html: tuple[Html, ...] = ()
    """Its HTML, in order (what a rendered page hides or turns into markup)."""
    nested_cut: int | None = None
    """The first line of a block nested deeper than the parser reads (markdown-it's
    ``maxNesting``, 20 levels: a blockquote 20 deep, a list 9 deep): nothing inside it is read
    for headings, links or HTML, and renderers built on markdown-it drop it; what follows it
    is read (:func:`~skillc_index.markdown.block_rules.skip_deep_blocks`). None when there is
    none."""
    code_blocks: tuple[CodeBlock, ...] = ()
    """Its code blocks, in order (what the lint's rules read as code, never as prose)."""
    inlines: tuple[tuple[int, int, str], ...] = ()
    """Each paragraph, heading and table cell (markdown-it's inline tokens), in order: its
    first line, its last line and its source as the inline parse reads it (a container's
    markers and indentation taken off, lines joined by ``\\n``); what a reader sees of it is
    :func:`inline_text`. Empty when parsed without ``links``."""

    @property
    def description(self) -> str | None:
        """The frontmatter ``description`` when it is a non-empty string (as YAML 1.2 reads
        it: ``description: No`` is the text "No"), whitespace collapsed."""
        value = self.frontmatter.field_12("description")
        if isinstance(value, str):
            collapsed = " ".join(value.split())
            return collapsed or None
        return None


# -- Markdown body -----------------------------------------------------------------------------


def _markdown_parser() -> MarkdownIt:
    """The skill model's parser (:func:`markdown_parser`)."""
    return markdown_parser()


def block_tokens(body: str, *, whole: bool = False) -> list[Token]:
    """markdown-it's whole parse of ``body`` by the one shared parser: every block's token,
    its ``map`` the lines it spans (where a caller needs the code and HTML blocks: the
    suppression comments of skillc-lint); of a body whose tables hold more than
    :data:`~skillc_index.markdown.table_rule.MAX_TABLE_CELLS` cells, of the part before the
    line where :func:`parse_markdown` stops. ``whole``: every inline token's children too
    (:func:`markdown_parser`'s ``whole``: gibb.eri.sh tools read their tables' cells)."""
    while True:
        try:
            return parse_closed(markdown_parser(whole=whole), body)
        except TooManyCells as cut:
            body = body[: _line_start(body, cut.line)]


def _line_start(body: str, line: int) -> int:
    """Where line ``line`` (0-based) of ``body`` starts."""
    start = 0
    for _ in range(line):
        start = body.index("\n", start) + 1
    return start


def _tokens(
    body: str, links: bool, scan: bool = True, code: list[tuple[int, int, str]] | None = None
) -> Sequence[BlockToken]:
    """markdown-it's tokens of ``body`` this module reads (``heading_open``, ``inline``,
    ``html_block``; with others when markdown-it parsed the blocks): for links, the blocks
    found by :func:`~skillc_index.markdown.blocks.scan_blocks` when it can tell, the inline
    ones parsed by markdown-it's core rules after ``block`` (the same tokens, without
    markdown-it building every other token of the body), headings left to
    :func:`_heading_of`; else markdown-it's parse. Without ``scan``, markdown-it's parse
    alone, every heading parsed (what the tests compare with). ``code``: a list the code
    blocks are added to (:attr:`~skillc_index.markdown.block_state.BlockState.code_blocks`)."""
    md = _markdown_parser()
    tokens: Sequence[BlockToken] | None = None
    if scan and links:
        from skillc_index.markdown.blocks import scan_blocks

        tokens = scan_blocks(body, code)
    if tokens is None:
        env: dict[str, object] = (
            {_HEADINGS_ONLY: True} if not links else {_LAZY_HEADINGS: True} if scan else {}
        )
        whole = parse_closed(md, body, env)
        if code is not None:
            code.extend(_code_of(whole, body))
        return whole
    # the rules run on the blocks they parse alone (a few percent of them): each rule's
    # loop over every token of the body, and ``text_join``'s new list for each, were most
    # of their cost; the others keep their empty children, as the rules would leave them
    parsed = [
        token
        for token in tokens
        if token.type == "inline" and may_link(token.content, inline_only=True)
    ]
    if parsed:
        _core_after_block(body, parsed, {_LAZY_HEADINGS: True, _NO_REFERENCES: True})
    return tokens


def _code_of(tokens: Sequence[BlockToken], body: str) -> list[tuple[int, int, str]]:
    """The code blocks of markdown-it's ``tokens`` of ``body``, as
    :attr:`~skillc_index.markdown.block_state.BlockState.code_blocks` gives them: a fence is closed
    when its lines are its content's and two fence lines (markdown-it keeps no other
    trace of the closing one), else it runs to the end of the file or of the innermost
    container around it."""
    found: list[tuple[int, int, str]] = []
    inside = ["file"]
    last_ink: int | None = None  # the body's last line not blank, once a fence needs it
    for token in tokens:
        kind = token.type
        if kind in _CONTAINERS:
            inside.append("block quote" if kind == "blockquote_open" else "list item")
        elif kind in ("blockquote_close", "list_item_close"):
            inside.pop()
        elif kind in ("fence", "code_block") and token.map is not None:
            start, end = token.map
            content = token.content
            held = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
            runs_to = ""
            if kind == "fence" and end - start < held + 2:
                if last_ink is None:
                    last_ink = _last_ink_line(body)
                runs_to = "file" if last_ink < end else inside[-1]
            found.append((start, end, runs_to))
    return found


def _last_ink_line(body: str) -> int:
    """The line (0-based) of the last character of ``body`` that is not a blank (-1 when
    there is none): the lines after it are all blank. Read once per parse (the text after
    each unclosed fence, read again for each, made a body of them quadratic)."""
    from skillc_index.markdown.block_state import ink_end

    ink = ink_end(body)
    return body.count("\n", 0, ink - 1) if ink else -1


def _core_after_block(src: str, tokens: Sequence[BlockToken], env: dict[str, object]) -> None:
    """Run the core rules markdown-it runs after its block parse (the inline parse,
    ``text_join``) on ``tokens`` of ``src``."""
    from markdown_it.rules_core import StateCore

    md = _markdown_parser()
    state = StateCore(src, md, env)
    state.tokens = cast("list[Token]", list(tokens))  # these rules read what a Block has
    for rule in _after_block(md):
        rule(state)


def _heading_of(inline: BlockToken, html: _HtmlFound) -> str:
    """The text of a heading's inline token; one left unparsed (``env[_LAZY_HEADINGS]``,
    no link nor HTML in it) is parsed now unless the scanner's reading of its text
    (:func:`~skillc_index.markdown.heading_text.heading_text`, the parse's text) decides
    it and the HTML before it does not gather its text (which needs its tokens)."""
    if inline.content and not inline.children:  # (any text parses into a token at least)
        if not html.gathering:
            try:
                return _scanned_heading_text(inline.content)
            except _Unsure:
                pass
        _parse_late(inline, heading=True)
    return _heading_text(inline)


def _parse_late(inline: BlockToken, *, heading: bool) -> None:
    """Parse ``inline`` (a heading's when ``heading``) as markdown-it's parse does (every
    heading, and a block that may hold a link: :func:`may_link`); one already parsed is
    left as it is."""
    if inline.children:
        return
    from skillc_index.markdown.blocks import Block

    before = Block("heading_open" if heading else "paragraph_open", "", None, "", None)
    _core_after_block(inline.content, [before, inline], {})


def inline_text(source: str) -> tuple[str, list[int]]:
    """What a reader sees of an inline block's ``source`` (:attr:`MarkdownDoc.inlines`),
    parsed now (:func:`~skillc_index.markdown.links.shown_text`: markup dropped, entities
    decoded, line breaks as spaces), and where in it each of its lines starts."""
    from skillc_index.markdown.blocks import Block
    from skillc_index.markdown.links import shown_text

    inline = Block("inline", "", None, source, [])
    _parse_late(inline, heading=True)  # (a heading's: parsed whatever it holds)
    return shown_text(inline.children or ())


def _after_block(md: MarkdownIt) -> list[Callable[[StateCore], None]]:
    """The core rules ``md`` runs after its block parse (the inline parse, ``text_join``)."""
    names = md.core.ruler.get_active_rules()
    return md.core.ruler.getRules("")[names.index("block") + 1 :]


def _heading_text(inline: BlockToken) -> str:
    """A heading's plain text; if that is empty, its source (``<Connector Name>``, an HTML
    comment), lines joined by a space: a heading of markup only still has a name."""
    return (
        plain_text(inline.children or ()).strip()
        or " ".join(line.strip() for line in inline.content.split("\n")).strip()
    )


def empty_heading_label(line: int) -> str:
    """The text of a heading that has none (a bare ``#``): ``(empty heading, line 42)``. An
    outline lists it and ``show --section`` takes it, as any heading's text; the line tells
    two such headings apart, and parentheses keep it from reading as the author's words."""
    return f"(empty heading, line {line})"


class _HtmlFound:
    """The HTML of a body as its tokens are walked, each piece with the text shown after it
    (:attr:`Html.text_after`), gathered until the next piece or the length cap."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, int, bool, list[str]]] = []
        #: Whether the text after the last piece is being gathered (an attribute, not a
        #: property: the walk asks for each block)
        self.gathering = False
        self._after: list[str] = []  # the text after the last piece
        self._size = 0

    def html(self, source: str, line: int, block: bool) -> None:
        self._after = []
        self._size = 0
        self.gathering = True
        self.pieces.append((source, line, block, self._after))

    def text(self, text: str) -> None:
        if self.gathering and text:
            self._after.append(text)
            self._size += len(text)
            if self._size > HTML_TEXT_AFTER:
                self.gathering = False

    def inline(self, inline: BlockToken, first_line: int) -> None:
        """The inline HTML of one inline token whose source starts on ``first_line``, and
        the text between (lines counted as :func:`inline_links` counts them)."""
        children = inline.children or []
        if "<" not in inline.content or not children:  # no inline HTML: text only
            self.text(" " + (plain_text(children) if children else inline.content))
            return
        line = first_line
        self.text(" ")
        for token in children:
            kind = token.type
            if kind in ("softbreak", "hardbreak"):
                line += 1
                self.text(" ")
                continue
            if kind == "html_inline":
                self.html(token.content, line, False)
            elif kind in ("text", "code_inline"):
                self.text(token.content)
            elif kind == "image":
                self.text(plain_text(token.children or ()))
            if token.meta:
                line += token.meta.get(NEWLINES, 0)

    def result(self) -> tuple[Html, ...]:
        return tuple(
            Html(source, line, block, " ".join("".join(after).split())[:HTML_TEXT_AFTER])
            for source, line, block, after in self.pieces
        )


def _parse_body(
    body: str, offset: int, line_count: int, links: bool = True, *, scan: bool = True
) -> tuple[
    tuple[Heading, ...],
    tuple[Link, ...],
    tuple[Html, ...],
    int | None,
    tuple[CodeBlock, ...],
    tuple[tuple[int, int, str], ...],
]:
    """Headings, links and HTML of Markdown ``body`` (newlines normalized), whose first line
    is file line ``offset + 1``; without ``links``, the headings alone (the same ones: found
    by :func:`~skillc_index.markdown.headings.scan_headings` without markdown-it when it can
    tell, else by the parse). Without ``scan`` markdown-it alone parses (:func:`_tokens`;
    what the tests compare the scanners with). And the line of the first block nested too
    deep to be read (:attr:`MarkdownDoc.nested_cut`), the code blocks
    (:attr:`MarkdownDoc.code_blocks`) and the inline blocks (:attr:`MarkdownDoc.inlines`)."""
    found: list[tuple[int, str, int]] = []  # (level, text, line)
    found_links: list[Link] = []
    inlines: list[tuple[int, int, str]] = []
    html = _HtmlFound()
    code: list[tuple[int, int, str]] = []
    # without links the headings are all there is: the scanner finds them without
    # markdown-it when it can tell (with links, the blocks' scanner: their text is read)
    may_scan = scan and not links
    scanned = scan_headings(body, code) if may_scan else None
    tokens: Sequence[BlockToken] = ()
    if scanned is None:
        tokens = _tokens(body, links, scan, code)
    else:
        for level, text, index in scanned:
            line = index + offset + 1
            found.append((level, text or empty_heading_label(line), line))
    block_line = offset + 1
    pending_level = 0
    cut: int | None = None
    # a container opened at the parser's last level holds blocks it does not parse (only
    # markdown-it's own tokens have a level: the scanners refuse deep nesting)
    deepest = _markdown_parser().options["maxNesting"] - 1 if tokens else 0
    for token in tokens:
        if token.map is not None:
            block_line = token.map[0] + offset + 1
        kind = token.type
        if cut is None and kind in _CONTAINERS and getattr(token, "level", 0) >= deepest:
            cut = block_line
        if kind == "heading_open":
            pending_level = int(token.tag[1:])
        elif kind == "inline":
            if links and token.map is not None:
                inlines.append((block_line, token.map[1] + offset, token.content))
            if pending_level:
                text = _heading_of(token, html) or empty_heading_label(block_line)
                found.append((pending_level, text, block_line))
                pending_level = 0
            if links:
                if token.children:  # (most blocks' are not parsed: no link can start there)
                    found_links.extend(inline_links(token, block_line))
                if html.gathering or "<" in token.content:
                    _parse_late(token, heading=False)  # the text gathered is its tokens'
                    html.inline(token, block_line)
        elif kind == "html_block" and links:
            html.html(token.content, block_line, True)
    ends = [line_count + 1] * len(found)
    open_sections: list[int] = []  # indices into found, levels strictly increasing
    for index, (level, _text, line) in enumerate(found):
        while open_sections and found[open_sections[-1]][0] >= level:
            ends[open_sections.pop()] = line
        open_sections.append(index)
    headings = tuple(
        Heading(level, text, line, end)
        for (level, text, line), end in zip(found, ends, strict=True)
    )
    code_blocks = tuple(
        CodeBlock(start + offset + 1, end + offset, runs_to) for start, end, runs_to in code
    )
    return headings, tuple(found_links), html.result(), cut, code_blocks, tuple(inlines)


#: markdown-it's tokens that open a block of blocks.
_CONTAINERS = frozenset(("blockquote_open", "list_item_open"))


def parsed_end(text: str) -> int:
    """Where the part of ``text`` (newlines normalized) that is parsed as Markdown ends: its
    end when it has at most :data:`MARKDOWN_LIMIT` characters and
    :data:`MARKDOWN_LINE_LIMIT` lines, else just after the last line break within both
    limits (0 when there is none)."""
    end = len(text) if len(text) <= MARKDOWN_LIMIT else text.rfind("\n", 0, MARKDOWN_LIMIT) + 1
    # short lines: cut after the last one (a text of fewer characters has fewer lines)
    if end > MARKDOWN_LINE_LIMIT and text.count("\n", 0, end) > MARKDOWN_LINE_LIMIT:
        end = 0
        for _ in range(MARKDOWN_LINE_LIMIT):
            end = text.index("\n", end) + 1
    return end


def parse_markdown(
    text: str, *, links: bool = True, metadata: bool = True, line_count: int | None = None
) -> MarkdownDoc:
    """Parse one Markdown file's text: frontmatter, then headings and links of the body.

    Without ``links`` only the headings are read (no links, no HTML: what the index needs,
    about 20% less work); without ``metadata`` the frontmatter's YAML is not read
    (``frontmatter.data`` is None, its lines are still known), so PyYAML is not loaded.
    The headings are the same either way.

    A leading BOM is ignored. Without frontmatter, ``frontmatter.present`` is ``False``
    (normal for reference files; only SKILL.md requires it). With an unclosed frontmatter the whole
    text is parsed as Markdown. Of a text over :data:`MARKDOWN_LIMIT`, only the lines before
    the limit are parsed (:attr:`MarkdownDoc.parsed_lines`); line numbers and ``line_count``
    are still the file's: ``line_count``, the file's, when ``text`` is only its start
    (:func:`read_parsed`).
    """
    text = normalize_newlines(text.removeprefix(BOM))
    frontmatter, body_offset = split_frontmatter(text, parse_yaml=metadata)
    end = parsed_end(text)
    body = text[body_offset:end] if body_offset < end else ""
    offset = frontmatter.end_line if body_offset else 0
    line_count = count_lines(text) if line_count is None else line_count
    while True:  # the tables' cells bound the parse too: it stops where they are past it
        try:
            parsed = _parse_body(body, offset, line_count, links)
            break
        except TooManyCells as stop:
            body = body[: _line_start(body, stop.line)]
            end = body_offset + len(body)
    headings, found_links, html, cut, code, inlines = parsed
    parsed_lines = None if end == len(text) else text.count("\n", 0, end)
    return MarkdownDoc(
        frontmatter, headings, found_links, line_count, parsed_lines, html, cut, code, inlines
    )


def limit_notice(file: str, doc: MarkdownDoc) -> Notice | None:
    """The warning for a file that was not parsed whole (None when it was): ``file`` is how
    the front end names it."""
    return None if doc.parsed_lines is None else over_limit_notice(file, doc.parsed_lines)


def over_limit_notice(file: str, parsed_lines: int) -> Notice:
    """The warning for a file of which only the first ``parsed_lines`` lines were parsed
    (:attr:`MarkdownDoc.parsed_lines`, as the index stores it too)."""
    cells = f"{MAX_TABLE_CELLS:,} table cells"
    limit = f"{file}: over the parse limit (1 MiB, 20,000 lines or {cells}); "
    if parsed_lines == 0:  # its first line alone is over the limit
        return Notice(limit + "no heading or link of it is read: its first line reaches it")
    rest = "only (the rest of the file belongs to the section before it)"
    return Notice(f"{limit}headings and links are read from lines 1-{parsed_lines} {rest}")


def read_markdown(path: Path) -> MarkdownDoc:
    """Read ``path`` as UTF-8 (undecodable bytes replaced, never an error) and parse it, as far
    as the parse reads (:func:`read_parsed`).

    Only a regular file is read (a FIFO or device is E021, never a hang); no file there (or a
    symlink loop) is E021 too, and one that cannot be read :class:`UnreadableFile` (E999); a
    file of a skill is better read with :func:`skillc_index.files.read_text_in_root`, which
    also keeps the path inside the skill while it opens it."""
    from skillc_index.files import open_regular, typed_os_errors

    with typed_os_errors(str(path)), open_regular(str(path)) as handle:
        text, lines = read_parsed(handle)
    return parse_markdown(text, line_count=lines)


def title_of(doc: MarkdownDoc) -> str | None:
    """Text of the first level-1 heading, or ``None`` (the label of a reference in stubs)."""
    return next((heading.text for heading in doc.headings if heading.level == 1), None)
