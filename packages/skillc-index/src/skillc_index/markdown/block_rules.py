"""markdown-it's block rules, each tried only on a line where it can match.

markdown-it-py tries every block rule on every line in turn (table, code, fence, blockquote,
hr, list, reference, html_block, heading, lheading, paragraph), and a paragraph tries every
rule of its terminator chain on each of its lines again: about a dozen Python calls a line,
each logging at debug level first. Most of them return False at once on a test of the line's
first character (``#`` for a heading, ``>`` for a blockquote...) or its indentation.

:func:`dispatch_block_rules` puts one dispatcher in front of the rules of each chain (the
main one and each terminator chain, CommonMark's ``paragraph``, ``reference``, ``blockquote``
and ``list``):
it makes those tests once and calls, in the chain's order, only the rules that do not fail
them. A rule is skipped only where its own first tests return False without changing the
state, so the tokens are exactly markdown-it's (``tests/`` checks them on real skills); a
rule this module does not know is always called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import StateBlock

__all__ = ["bound_table_cells", "dispatch_block_rules", "skip_deep_blocks"]

BlockRule = Callable[["StateBlock", int, int, bool], bool]

#: What a rule needs of a line, by rule name: the characters one of which starts the line (its
#: first non-blank one, ``src[pos]`` as each rule reads it), not being an indented code line
#: and
#: being one (:data:`_CODE`), for a setext heading an underline before the next blank line
#: (:data:`_SETEXT`), for a table a delimiter row after it (:data:`_TABLE`). Each is implied
#: by the rule's own tests in markdown-it-py 3 and 4.
_CODE = "code"
_SETEXT = "setext"
_HR = "*-_"
_TABLE = "table"
_NEEDS: dict[str, str] = {
    "table": _TABLE,
    "code": _CODE,
    "fence": "`~",
    "blockquote": ">",
    "hr": _HR,
    "list": "*-+0123456789",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
    "lheading": _SETEXT,
}
_STARTS = frozenset(need for need in _NEEDS.values() if need not in (_CODE, _SETEXT, _TABLE))


def _may_be_table(state: StateBlock, start: int, end: int) -> bool:
    """The table rule's first tests: a next line, inside the block, not indented code,
    starting with ``|``, ``-`` or ``:``."""
    if start + 2 > end:
        return False
    below = start + 1
    if state.sCount[below] < state.blkIndent or state.is_code_block(below):
        return False
    pos = state.bMarks[below] + state.tShift[below]
    return pos < state.eMarks[below] and state.src[pos] in "|-:"


def _may_be_setext(state: StateBlock, start: int, end: int) -> bool:
    """Whether a line after ``start``, before the next blank one, starts with ``-`` or ``=``
    within the block's indentation (the lheading rule looks no further for its underline)."""
    bmarks, tshift, emarks, scount = state.bMarks, state.tShift, state.eMarks, state.sCount
    src, indent = state.src, state.blkIndent
    line = start + 1
    while line < end:
        pos = bmarks[line] + tshift[line]
        if pos >= emarks[line]:  # a blank line ends the paragraph
            return False
        if 0 <= scount[line] - indent <= 3 and src[pos] in "-=":
            return True
        line += 1
    return False


def _dispatcher(rules: Sequence[tuple[str, BlockRule]]) -> BlockRule:
    """One rule standing for ``rules`` (a chain, in order): True as soon as one of them
    matches, each tried only when the line passes its first tests (:data:`_NEEDS`)."""
    plan = tuple((rule, _NEEDS.get(name)) for name, rule in rules)

    def dispatch(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start] + state.tShift[start]
        first = src[pos] if pos < len(src) else ""
        code = state.is_code_block(start)
        for rule, needs in plan:
            if needs is None:
                pass
            elif needs in _STARTS:
                if code or not first or first not in needs:
                    continue
                if needs is _HR and src[pos + 1 : state.eMarks[start]].lstrip(" \t")[:1] not in (
                    "",
                    first,
                ):
                    continue  # "- item": a character other than the marker after it
            elif needs == _CODE:
                if not code:
                    continue
            elif needs == _SETEXT:
                if code:
                    continue
                if not _may_be_setext(state, start, end):
                    # what the lheading rule leaves when it finds no underline
                    state.parentType = "paragraph"
                    continue
            elif not _may_be_table(state, start, end):
                continue
            if rule(state, start, end, silent):
                return True
        return False

    return dispatch


def dispatch_block_rules(md: MarkdownIt) -> None:
    """Put a dispatcher (see the module docstring) in front of ``md``'s block rules: one for
    the main chain, first, and one for each terminator chain, whose rules leave it. The
    rules stay enabled under their names (``code`` being enabled decides what markdown-it
    reads as indented code); after the main dispatcher, which always ends with the paragraph
    rule, none of them is called again."""
    ruler = md.block.ruler
    enabled = [rule for rule in ruler.__rules__ if rule.enabled]
    names = dict.fromkeys(chain for rule in enabled for chain in rule.alt)
    chains = {
        chain: [(rule.name, rule.fn) for rule in enabled if chain in rule.alt] for chain in names
    }
    main = [(rule.name, rule.fn) for rule in enabled]
    if not main or main[-1][0] != "paragraph":
        return  # a parser whose last rule is not the paragraph: left as it is
    for rule in enabled:
        ruler.at(rule.name, rule.fn, {"alt": []})
    ruler.before(main[0][0], "skillc_dispatch", _dispatcher(main), {"alt": []})
    for chain, rules in chains.items():
        ruler.push(f"skillc_{chain}", _dispatcher(rules), {"alt": [chain]})


def skip_deep_blocks(md: MarkdownIt) -> None:
    """Past ``maxNesting`` levels, skip the lines of the block being read, not the rest of
    the text. markdown-it stops there and skips to the end of the range it was given: for a
    list item, whose range is the rest of the document (a list item ends where a line is
    indented less than its content, which only the parse of its lines finds), that lost
    every heading after a list nested 10 deep. The lines skipped are those a list item holds
    by their indentation (and blank ones), which is where markdown-it's own parse would end
    the item; a blockquote's range is its own already. What is skipped is still skipped
    (``MarkdownDoc.nested_cut`` says where)."""
    block = md.block
    parse = block.tokenize
    deepest = md.options["maxNesting"]

    def tokenize(state: StateBlock, start: int, end: int) -> None:
        if state.level < deepest:
            parse(state, start, end)
            return
        line = start
        while line < end and (state.isEmpty(line) or state.sCount[line] >= state.blkIndent):
            line += 1
        state.line = line

    block.tokenize = tokenize  # type: ignore[method-assign,assignment]


#: markdown-it env key: the cells of the tables read so far in this parse
#: (:func:`bound_table_cells`).
_TABLE_CELLS = "skillc_table_cells"


def bound_table_cells(md: MarkdownIt) -> None:
    """Hold the tables of a parse to :data:`~skillc_index.markdown.table_rule.MAX_TABLE_CELLS`
    cells in all, as the scanner's table rule does: a table is given the lines of the rows
    within the bound and one more, and reading that one (or a header past the bound) is
    :class:`~skillc_index.markdown.table_rule.TooManyCells` at its line, where the parse
    stops (:func:`~skillc_index.markdown.document.parse_markdown` parses the text before it).
    The count is the parse's (``state.env``); a table is read as markdown-it reads it
    otherwise. Before :func:`dispatch_block_rules`, which takes the rules as they are."""
    from skillc_index.markdown.block_state import cell_count
    from skillc_index.markdown.heading_text import TRIM
    from skillc_index.markdown.table_rule import TooManyCells, rows_within

    ruler = md.block.ruler
    found = [rule for rule in ruler.__rules__ if rule.name == "table"]
    if not found:
        return
    table = found[0].fn

    def bounded(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if silent or not table(state, start, end, True):
            return silent and table(state, start, end, True)
        cells = state.env.get(_TABLE_CELLS, 0)
        header = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
        count = cell_count(header.strip(TRIM))  # the columns of the table, as the scanner's
        rows = rows_within(cells, count)
        if rows < 1:
            raise TooManyCells(start)
        if not table(state, start, min(end, start + rows + 2), False):
            return False
        read = state.line - start - 1  # its rows, the header's included
        if read > rows:
            raise TooManyCells(state.line - 1)
        state.env[_TABLE_CELLS] = cells + count * read
        return True

    ruler.at("table", bounded, {"alt": found[0].alt})
