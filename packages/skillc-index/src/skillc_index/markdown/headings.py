"""The headings of a Markdown body without markdown-it, or None when this module cannot tell.

The index needs only the headings of a file (level, text, line), and importing and setting
up markdown-it costs about half of a fresh ``skc show``: a skill read by ``show`` before it
was ever built would pay that, and the parse, on every first call. :func:`scan_headings`
finds the same headings with a line scanner that follows the block rules of our parser
(:func:`~skillc_index.markdown.parsers.markdown_parser`: CommonMark plus GFM tables) step
by step, indentation, lazy continuations, list items, block quotes, tables, fences and
HTML blocks included, and refuses (returns None) whenever the body holds a construct it
does not follow:

- a link reference definition (a paragraph starting with ``[`` whose label, up to its
  first bracket, a ``:`` follows),
  a NUL, a tab in a block quote, lists and block quotes nested deeper than
  :data:`MAX_LIST_DEPTH`;
- heading text with inline markup it does not decide: a link (``](``), an autolink or HTML
  (``<`` with a ``>`` after it), an entity (``&`` with a ``;`` after it), a backslash
  before a line break, ``*`` or ``_`` runs that may be emphasis other than one plain pair
  of ``*`` runs (``**bold**``) (:mod:`~skillc_index.markdown.heading_text` reads the text;
  the line tables are :class:`~skillc_index.markdown.block_state.BlockState`).

The caller then parses the file with markdown-it (:func:`~skillc_index.markdown.document.
parse_markdown` does that by itself). What it returns is exactly what that parse gives: a test
compares both on every ``.md`` file of the corpus, a fuzzer on generated bodies of the
constructs that decide headings, and ``test_parser_is_what_the_scanner_follows`` fails when
the parser's configuration changes under it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from skillc_index.markdown.block_state import BULLETS as _BULLETS
from skillc_index.markdown.block_state import DIGITS as _DIGITS
from skillc_index.markdown.block_state import fence_candidates, html_kind
from skillc_index.markdown.heading_text import SPACES as _SPACES
from skillc_index.markdown.heading_text import TRIM as _TRIM
from skillc_index.markdown.heading_text import Unsure as _Unsure
from skillc_index.markdown.heading_text import heading_text as _heading_text
from skillc_index.markdown.table_rule import DELIMITER_ROW as _DELIMITER_ROW
from skillc_index.markdown.table_rule import TableRule

__all__ = ["MAX_LIST_DEPTH", "scan_headings"]

#: Lists nested deeper than this are left to markdown-it (which stops parsing blocks at its
#: nesting limit, 20 levels: 10 lists).
MAX_LIST_DEPTH = 8

_HR_MARKS = frozenset("*-_")
_FENCE_MARKS = frozenset("`~")
_SETEXT_MARKS = frozenset("-=")
# A thematic break's line from its first non-blank character; an ATX heading's opening run.
_BREAK = re.compile(r"(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}")
_ATX = re.compile(r"#{1,6}(?=[ \t]|$)")
# What may end a link label (:meth:`_Scanner.refuse_reference`): a bracket, an escape, a line's end.
_LABEL_STOP = re.compile(r"[\[\]\\\n]")
# What one_line_item answers for an item whose first line is its paragraph, a blank line after.
_THEN_BLANK = -2
# First characters of a line that start no block on their own (:meth:`_Scanner.paragraph_only`).
_PARAGRAPH_ONLY = frozenset("=|:")
# Characters a line's first non-blank character must be for a block other than a paragraph
# line to start on it (digits: an ordered list; `<`, `>`, `[`: what the scanner refuses).
_BLOCK_START = frozenset("#`~-_*+=|:<>[0123456789")


def scan_headings(
    body: str, code: list[tuple[int, int, str]] | None = None
) -> list[tuple[int, str, int]] | None:
    """The headings of Markdown ``body`` (newlines normalized, no frontmatter) as markdown-it
    finds them: ``(level, text, line)``, ``line`` 0-based in ``body`` and ``text`` as
    :func:`~skillc_index.markdown.document.parse_markdown` gives it (empty for a heading
    without text, which the caller labels); None when the body must be parsed by
    markdown-it instead (module docstring). ``code``: a list the code blocks found are
    added to (:attr:`~skillc_index.markdown.block_state.BlockState.code_blocks`)."""
    if "\0" in body:  # markdown-it replaces it: the text would differ
        return None
    scanner = _Scanner(body)
    try:
        found = scanner.run()
    except _Unsure:
        return None
    if code is not None:
        code.extend(scanner.code_blocks)
    return found


class _Scanner(TableRule):
    """The block rules the scanner follows, over markdown-it's block state
    (:class:`~skillc_index.markdown.block_state.BlockState`); the table rule's is
    :class:`~skillc_index.markdown.table_rule.TableRule`."""

    def run(self) -> list[tuple[int, str, int]]:
        self.blocks(0)
        return self.found

    def ends_here(self, line: int, *, table: bool, lists: bool) -> bool:
        """Whether a block starting on ``line`` ends the one being read: a fence, a block
        quote or HTML block (:meth:`quote_starts`) or a thematic break, and a table
        first when ``table``, a list and an ATX heading after them when ``lists`` (in
        markdown-it's order). Only the rules a line's first character allows are tried:
        any other returns False on it, with no effect."""
        src = self.src
        begins, shifts, ends = self.begins, self.shifts, self.ends
        if self.indents[line] - self.blk >= 4:
            return False  # indented code: every rule returns False on it
        pos, stop = begins[line] + shifts[line], ends[line]
        char = src[pos : pos + 1]
        if table:
            under = begins[line + 1] + shifts[line + 1]
            if (
                src[under : under + 1] in _DELIMITER_ROW
                and src.find("|", begins[line], ends[line]) >= 0  # (a header needs one)
                and self.table(line, silent=True)
            ):
                return True
        if char not in _BLOCK_START:
            return False  # a plain text line
        if char in _FENCE_MARKS:
            return self.fence(line, silent=True)
        if char == ">" or char == "<":
            return self.quote_starts(line)
        if char in _HR_MARKS and src.count(char, pos, stop) > 2 and self.hr(line, silent=True):
            return True  # (3 marks: what a break needs, counted in C before the rule's call)
        if not lists:
            return False
        if char in _BULLETS or char in _DIGITS:
            return self.list(line, silent=True)
        return char == "#" and self.heading(line, silent=True)

    # -- the block loop -------------------------------------------------------------------

    def blocks(self, line: int) -> None:
        """markdown-it's block tokenizer from ``line``, for content indented ``blk``."""
        end = self.lines
        begins, shifts, ends, indents = self.begins, self.shifts, self.ends, self.indents
        while line < end:
            while line < end and begins[line] + shifts[line] >= ends[line]:
                line += 1
            self.line = line
            if line >= end or indents[line] < self.blk:
                break
            self.block(line)
            line = self.line
            if line < end and begins[line] + shifts[line] >= ends[line]:
                line += 1
                self.line = line

    def block(self, line: int) -> None:
        """The first block rule that matches on ``line`` reads its block (``self.line``:
        the line after it). Only the rules the line's first character allows are tried
        (any other returns False on it, with no effect), in markdown-it's order."""
        src, begins, shifts, ends = self.src, self.begins, self.shifts, self.ends
        if self.indents[line] - self.blk >= 4:
            self.code(line)  # (a table's header is never indented code)
            return
        pos = begins[line + 1] + shifts[line + 1]
        if (
            src[pos : pos + 1] in _DELIMITER_ROW
            and src.find("|", begins[line], ends[line]) >= 0  # (a header needs one)
            and self.table(line, silent=False)
        ):
            return
        pos, stop = begins[line] + shifts[line], ends[line]
        char = src[pos : pos + 1]
        if char not in _BLOCK_START:  # a plain text line: no other rule
            after = line + 1
            if after < self.lines and begins[after] + shifts[after] < ends[after]:
                self.setext_or_paragraph(line)
            else:  # a paragraph of one line (what setext_or_paragraph finds, at once)
                self.parent = "paragraph"
                self.line = after
                self.paragraph_found(line, after)
            return
        if char in _FENCE_MARKS:
            if not self.fence(line, silent=False):
                self.setext_or_paragraph(line)
            return
        if char == ">" and self.quote_starts(line):
            self.blockquote(line)
            return
        kind = html_kind(src[pos:stop]) if char == "<" else None
        if kind is not None:
            self.html(line, kind[0])
            return
        if char in _HR_MARKS and src.count(char, pos, stop) > 2 and self.hr(line, silent=False):
            return  # (3 marks: what a break needs, counted in C before the rule's call)
        if (char in _BULLETS or char in _DIGITS) and self.list(line, silent=False):
            return
        if char == "[":
            self.refuse_reference(line)
        if char != "#" or not self.heading(line, silent=False):
            self.setext_or_paragraph(line)

    # -- the rules --------------------------------------------------------------------------

    def quote_starts(self, line: int) -> bool:
        """A block quote or an HTML block that may end a paragraph (all but a lone tag's:
        :func:`~skillc_index.markdown.block_state.html_kind`) starts on ``line``. Both rules
        at the block quote's place: a line starts with one character."""
        if self.is_code(line):
            return False
        pos = self.first(line)
        char = self.char(pos)
        if char == "<":
            kind = html_kind(self.src[pos : self.ends[line]])
            return kind is not None and kind[1]
        return char == ">"

    def html(self, start: int, closing: re.Pattern[str]) -> None:
        """An HTML block (markdown-it's ``html_block`` rule) whose last line matches
        ``closing``: up to that line (a blank one, not kept, for a block tag or a lone tag),
        or to a line less indented than a list item's content (a blank one only ends those
        that end on a blank line)."""
        src, first, ends = self.src, self.first, self.ends
        blank_ends = closing.search("") is not None
        line = start + 1
        if not closing.search(src[first(start) : ends[start]]):
            while line < self.lines:
                if self.indents[line] < self.blk and (blank_ends or not self.is_empty(line)):
                    break
                text = src[first(line) : ends[line]]
                if closing.search(text):
                    line += 1 if text else 0
                    break
                line += 1
        self.line = line
        self.html_found(start, line)

    def blockquote(self, start: int) -> None:
        """A block quote (markdown-it's ``blockquote`` rule): ``>`` lines, with the ``>``
        and one space after it taken off, and lazy lines (marked indented -1: only a
        paragraph continues on them) up to a blank line, a line after an empty ``>`` line,
        or the start of another block (a ``>`` line less indented than a list item's content
        is one); its content read as blocks at indentation 0 up to there. Raises on a tab in
        it (markdown-it's ``bsCount``, which the scanner does not keep) and on quotes nested
        deeper than :data:`MAX_LIST_DEPTH` with the lists."""
        if self.depth >= MAX_LIST_DEPTH:
            raise _Unsure
        src = self.src
        begins, shifts, indents, ends = self.begins, self.shifts, self.indents, self.ends
        saved: list[tuple[int, int, int, int]] = []
        outer, self.parent = self.parent, "blockquote"
        empty = self.quoted_line(start, saved)
        line = start + 1
        end = self.lines
        while line < end:
            pos = begins[line] + shifts[line]
            if pos >= ends[line]:
                break
            if src[pos] == ">" and indents[line] >= self.blk:
                empty = self.quoted_line(line, saved)
                line += 1
                continue
            if empty:
                break
            if self.ends_here(line, table=False, lists=True):
                if self.blk:  # as markdown-it, though no rule reads the line in the quote
                    saved.append((line, begins[line], shifts[line], indents[line]))
                    indents[line] -= self.blk
                break
            if "\t" in src[begins[line] : ends[line]]:
                raise _Unsure
            saved.append((line, begins[line], shifts[line], indents[line]))
            indents[line] = -1  # a lazy continuation line
            line += 1
        # markdown-it reads the content up to ``line`` (``endLine``) and its paragraphs up
        # to ``lineMax`` (``line`` when another block ended the quote, else the end): a
        # paragraph never reaches ``line`` in the other cases (it is blank, follows a
        # blank, or is the end of the container), so one bound serves both.
        outer_blk, self.blk = self.blk, 0
        self.lines = line
        self.depth += 1
        self.quotes += 1
        inside, self.inside = self.inside, "block quote"
        self.blocks(start)
        self.inside = inside
        self.quotes -= 1
        self.depth -= 1
        self.lines = end
        self.blk = outer_blk
        for number, begin, shift, indent in saved:
            begins[number], shifts[number], indents[number] = begin, shift, indent
        self.parent = outer

    def quoted_line(self, line: int, saved: list[tuple[int, int, int, int]]) -> bool:
        """Takes the ``>`` (and one space after it) off line ``line`` (its old place and
        indentation appended to ``saved``); whether what is left is blank. Raises on a tab
        in the line."""
        src = self.src
        begin, stop = self.begins[line], self.ends[line]
        if "\t" in src[begin:stop]:
            raise _Unsure
        saved.append((line, begin, self.shifts[line], self.indents[line]))
        pos = begin + self.shifts[line] + 1
        initial = self.indents[line] + 1
        if pos < stop and src[pos] == " ":
            pos += 1
            initial += 1
        content = pos
        while content < stop and src[content] == " ":
            content += 1
        self.begins[line] = pos
        self.shifts[line] = content - pos
        self.indents[line] = content - pos
        return content >= stop

    def refuse_reference(self, line: int) -> None:
        """A link reference definition may start on ``line`` (markdown-it's ``reference``
        rule comes next): raises, since it would change what follows it. As that rule, it
        reads the label from the ``[`` to the first ``[`` or ``]`` not escaped, over the
        next lines up to a blank one (the rule stops sooner, at a line another block takes):
        a definition needs that ``]`` and a ``:`` after it. (It reads up to the next bracket
        at most: reading every block starting with ``[`` to the next blank line made a
        body of them quadratic.)"""
        start = self.first(line)
        if self.is_code(line) or self.char(start) != "[":
            return
        src, search = self.src, _LABEL_STOP.search
        found = search(src, start + 1)
        while found is not None:
            char, pos = found.group(), found.start()
            if char == "]":
                if src.startswith(":", pos + 1):
                    raise _Unsure
                return
            if char == "[":
                return
            if char == "\\":  # an escape: the character after it is skipped
                pos += 1
                if not src.startswith("\n", pos):
                    found = search(src, pos + 1)
                    continue
            line += 1  # the label goes on to the next line
            if line >= self.lines or self.is_empty(line):
                return
            found = search(src, pos + 1)

    def code(self, start: int) -> bool:
        """An indented code block: lines indented 4 more than ``blk``, blank lines between."""
        if not self.is_code(start):
            return False
        last = line = start + 1
        while line < self.lines:
            if self.is_empty(line):
                line += 1
            elif self.is_code(line):
                line += 1
                last = line
            else:
                break
        self.line = last
        self.code_blocks.append((start, last, ""))
        return True

    def fence(self, start: int, *, silent: bool) -> bool:
        """A fenced code block: 3 or more backticks or tildes, up to a closing run of at
        least as many (not indented 4, nothing but blanks after it), or to the end of its
        container."""
        if self.is_code(start):
            return False
        src = self.src
        pos, stop = self.first(start), self.ends[start]
        if pos + 3 > stop:
            return False
        marker = src[pos]
        if marker not in _FENCE_MARKS:
            return False
        after = self.skip(pos, frozenset(marker))
        length = after - pos
        if length < 3 or (marker == "`" and "`" in src[after:stop]):
            return False
        if silent:
            return True
        marks = frozenset(marker)
        line = start
        closed = False
        # Outside block quotes the body's lines are the source's own (a list item re-bases
        # only its first line, which is at or before ``start``): only a line starting with
        # the marker or indented less than ``blk`` can end the body, and one regex search
        # finds the next such line instead of the checks below on every line.
        pattern = fence_candidates(marker, self.blk) if not self.quotes else None
        begins = self.begins
        while True:
            line += 1
            if line >= self.lines:
                break
            if pattern is not None:
                match = pattern.search(src, begins[line] - 1)
                if match is None:
                    line = self.lines
                    break
                line = bisect_right(begins, match.start() + 1, line) - 1
                if line >= self.lines:
                    break
            pos, stop = self.first(line), self.ends[line]
            if pos < stop and self.indents[line] < self.blk:
                break  # a line less indented than a list item's content ends the item
            if self.char(pos) != marker or self.is_code(line):
                continue
            after = self.skip(pos, marks)
            if after - pos < length or self.skip(after, _SPACES) < stop:
                continue
            closed = True
            break
        self.line = line + 1 if closed else line
        runs_to = "" if closed else self.inside if begins[line] < self.ink else "file"
        self.code_blocks.append((start, self.line, runs_to))
        return True

    def hr(self, start: int, *, silent: bool) -> bool:
        """A thematic break: 3 or more of one of ``*-_``, blanks between (:data:`_BREAK`)."""
        if self.is_code(start):
            return False
        if not _BREAK.fullmatch(self.src, self.first(start), self.ends[start]):
            return False
        if not silent:
            self.line = start + 1
        return True

    def list(self, start: int, *, silent: bool) -> bool:
        """A list: its items' content is read as blocks indented to the item's content
        column, the lines of an item's paragraph continuing it lazily at any indentation."""
        indents = self.indents
        if indents[start] - self.blk >= 4:  # (is_code, inline: a list is tried on many lines)
            return False
        if (
            self.list_indent >= 0
            and indents[start] - self.list_indent >= 4
            and indents[start] < self.blk
        ):
            return False
        interrupts = silent and self.parent == "paragraph" and indents[start] >= self.blk
        after = self.ordered(start)
        ordered = after >= 0
        if ordered:
            if interrupts and int(self.src[self.first(start) : after - 1]) != 1:
                return False
        else:
            after = self.bullet(start)
            if after < 0:
                return False
        if interrupts and self.skip(after, _SPACES) >= self.ends[start]:
            return False
        if silent:
            return True
        if self.depth >= MAX_LIST_DEPTH:
            raise _Unsure
        src, begins, shifts, ends, end = self.src, self.begins, self.shifts, self.ends, self.lines
        marker = src[after - 1]
        # a ``*`` or ``-`` item may be a thematic break, which ends the list first (the only
        # rule of ``ends_here`` that can take a line starting with a list marker)
        breaks = not ordered and marker in _HR_MARKS
        outer, self.parent = self.parent, "list"
        inside, self.inside = self.inside, "list item"
        line = start
        while line < end:
            pos, stop = after, ends[line]
            initial = offset = indents[line] + after - begins[line] - shifts[line]
            while pos < stop:
                char = src[pos]
                if char == "\t":
                    offset += 4 - offset % 4
                elif char == " ":
                    offset += 1
                else:
                    break
                pos += 1
            gap = 1 if pos >= stop else offset - initial
            if gap > 4:
                gap = 1  # the rest is an indented code block
            old_shift, old_indent = shifts[line], indents[line]
            old_list_indent, self.list_indent = self.list_indent, self.blk
            self.blk = initial + gap
            shifts[line] = pos - begins[line]
            indents[line] = offset
            following = -1  # the offset after the next item's marker, when known
            if pos >= stop and begins[line + 1] + shifts[line + 1] >= ends[line + 1]:
                self.line = min(self.line + 2, end)  # an empty item: the list ends
            else:
                following = self.one_line_item(line, old_indent, marker, ordered)
                first = line  # where the item's block loop starts
                if following != -1:
                    self.parent = "paragraph"  # what its paragraph leaves
                    self.paragraph_found(line, line + 1)
                    self.line = first = line + 1
                if following < 0:  # (or _THEN_BLANK: the blocks after that paragraph)
                    self.depth += 1
                    self.blocks(first)
                    self.depth -= 1
            self.blk = self.list_indent
            self.list_indent = old_list_indent
            shifts[line], indents[line] = old_shift, old_indent
            line = self.line
            if following >= 0:
                after = following  # (the tests below passed in one_line_item)
                continue
            if line >= end or indents[line] < self.blk or indents[line] - self.blk >= 4:
                break
            after = self.ordered(line) if ordered else self.bullet(line)
            if after < 0 or src[after - 1] != marker:
                break  # (ends_here's rules take no line that starts with a list marker,
            if (  # but for a thematic break)
                breaks
                and src.count(marker, after - 1, ends[line]) > 2
                and self.hr(line, silent=True)
            ):
                break
        self.line = line
        self.parent = outer
        self.inside = inside
        return True

    def one_line_item(self, line: int, indent: int, marker: str, ordered: bool) -> int:
        """Whether the item starting on ``line`` (indented ``indent``; its content column
        set as ``blk``) is one paragraph of one line followed by the next item of the list:
        its text starts at ``blk`` and starts no block but a paragraph
        (:meth:`paragraph_only`), and the next line is a ``marker`` item at the same
        indentation that is no thematic break and holds no ``|`` (it could start a table).
        Then the blocks of the item are that paragraph alone (what the item's block loop
        finds, without it), and the offset after the next item's marker is returned;
        :data:`_THEN_BLANK` when the line after that paragraph is blank (or the end: the
        item's other blocks, if any, follow it); else -1 (and in a block quote)."""
        src, begins, ends = self.src, self.begins, self.ends
        pos = begins[line] + self.shifts[line]
        after = line + 1
        if self.quotes or self.indents[line] != self.blk:
            return -1
        stop = ends[line]
        if pos >= stop:
            return -1  # an empty item
        if after >= self.lines or begins[after] + self.shifts[after] >= ends[after]:
            blank = True  # the paragraph ends there too
        elif self.indents[after] != indent:
            return -1
        else:
            blank = False
        if src[pos] in _BLOCK_START and not self.paragraph_only(line, pos, stop):
            return -1
        if blank:
            return _THEN_BLANK
        start = self.ordered(after) if ordered else self.bullet(after)
        if start < 0 or src[start - 1] != marker:
            return -1
        stop = ends[after]
        if "|" in src[begins[after] : stop]:
            return -1
        if ordered or src.count(marker, start - 1, stop) < 3 or not self.hr(after, silent=True):
            return start
        return -1

    def paragraph_only(self, line: int, pos: int, stop: int) -> bool:
        """Whether no block but a paragraph starts on ``line`` (not indented code, its
        first non-blank character at ``pos``, a character of a block start; the line after
        it less indented than ``blk``, so no table nor setext underline): a ``*``, ``-`` or
        ``+`` not followed by a blank (no bullet), nor with ``*``, ``-`` and ``_`` a thematic
        break; a backtick or tilde not three times (no fence); digits that are no ordered
        marker; ``=``, ``|`` and ``:``; a ``[`` (raising where a reference definition may
        start, as the block loop would). (``#``, ``>`` and ``<`` are left to the rules.)"""
        src = self.src
        char = src[pos]
        if char in _BULLETS or char == "_":
            if char != "_" and (pos + 1 >= stop or src[pos + 1] in _SPACES):
                return False  # a bullet
            return src.count(char, pos, stop) < 3 or not self.hr(line, silent=True)
        if char in _FENCE_MARKS:
            return not src.startswith(char * 3, pos)
        if char in _DIGITS:
            return self.ordered(line) < 0
        if char == "[":
            self.refuse_reference(line)  # (the reference rule's place: before the paragraph)
            return True
        return char in _PARAGRAPH_ONLY

    def heading(self, start: int, *, silent: bool) -> bool:
        """An ATX heading: 1 to 6 ``#`` then a blank or the end of the line; a closing run
        of ``#`` after a blank is not its text."""
        if self.is_code(start):
            return False
        src = self.src
        pos, stop = self.first(start), self.ends[start]
        opening = _ATX.match(src, pos, stop)
        if opening is None:
            return False
        if silent:
            return True
        pos = opening.end()
        level = pos - opening.start()
        stop = pos + len(src[pos:stop].rstrip(" \t"))
        bare = pos + len(src[pos:stop].rstrip("#"))
        if bare > pos and src[bare - 1] in _SPACES:
            stop = bare
        self.line = start + 1
        self.heading_found(level, src[pos:stop].strip(_TRIM), start, start + 1)
        return True

    def setext_or_paragraph(self, start: int) -> None:
        """A paragraph, up to a blank line or the start of a block that interrupts it; a
        setext heading when an underline (``=`` or ``-`` only, not indented 4) ends it
        first. (markdown-it tries the setext rule, then the paragraph rule over the same
        lines: one pass gives both.)"""
        if self.is_code(start):  # unreachable: the code rule took it; kept as in the rule
            return
        outer, self.parent = self.parent, "paragraph"  # kept when no underline ends it,
        src, begins, shifts, ends = self.src, self.begins, self.shifts, self.ends
        indents, blk = self.indents, self.blk
        line = start + 1
        level = 0
        while line < self.lines:
            pos, stop, indent = begins[line] + shifts[line], ends[line], indents[line]
            if pos >= stop:
                break  # a blank line
            if indent - blk > 3:
                line += 1
                continue
            char = src[pos]
            if (
                indent >= blk
                and char in _SETEXT_MARKS
                and self.skip(self.skip(pos, frozenset(char)), _SPACES) >= stop
            ):
                level = 1 if char == "=" else 2
                break
            if indent < 0:  # a block quote's lazy line
                line += 1
                continue
            if char not in _BLOCK_START:  # no rule of ends_here but the table's takes it
                under = begins[line + 1] + shifts[line + 1]
                if src[under : under + 1] not in _DELIMITER_ROW:
                    line += 1
                    continue
            if self.ends_here(line, table=True, lists=True):
                break
            line += 1
        if not level:
            self.line = line
            self.paragraph_found(start, line)
            return
        content = self.text_lines(start, line, self.blk).strip(_TRIM)
        self.line = line + 1
        self.parent = outer  # (restored only here, as markdown-it does)
        self.heading_found(level, content, start, line + 1, underline=True)

    # -- what was found (a subclass may keep more: skillc_index.markdown.blocks) ---------------

    def heading_found(
        self, level: int, content: str, start: int, end: int, *, underline: bool = False
    ) -> None:
        """A heading of ``level`` on lines ``start`` to ``end - 1`` (the last one its
        underline when ``underline``): ``content`` is its source text, trimmed as
        markdown-it trims it."""
        self.found.append((level, _heading_text(content), start))

    def paragraph_found(self, start: int, end: int) -> None:
        """A paragraph on lines ``start`` to ``end - 1`` (the headings scanner needs none)."""

    def table_found(self, start: int, end: int) -> None:
        """A table on lines ``start`` to ``end - 1``, header and delimiter rows included."""

    def html_found(self, start: int, end: int) -> None:
        """An HTML block on lines ``start`` to ``end - 1``."""
