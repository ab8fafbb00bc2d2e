"""What the ranker reads of a skill (:class:`~.postings.SkillText`), from its SKILL.md, lightly and
fast: name, description, body and headings.

The frontmatter is read by skillc-index's parser (plain ``key: value`` blocks without
PyYAML). The headings are those ``skc outline`` and ``skc show --section`` find (DECISIONS:
headings come from a CommonMark parser), so that a section ``find`` names is one they
read: a line scan (:func:`_scanned`) reads the body whose lines it can decide alone (ATX
headings, fences, paragraphs, list items and block quotes that start no block), and
any other body (a setext underline, HTML, a fence or heading nested in a list item or a
quote, inline markup in a heading that
:func:`~skillc_index.markdown.heading_text.heading_text` does not decide...) is read by
skillc-index's :func:`~skillc_index.markdown.document.parse_markdown`, as the index reads
it (its exact scanner, else markdown-it). The scan is why: over the 2,289 SKILL.md of an
evaluation library it takes about what the line scan before it took (0.3-0.5 s) and leaves
2-3% of the files to the parse, where skillc-index's scanner alone takes 0.9 s; a test
compares the headings with the parse's on every SKILL.md of the corpus.
"""

from __future__ import annotations

import re

from skillc_gateway.catalog.postings import Heading, SkillText

__all__ = ["MAX_SKILL_BYTES", "cut", "read_skill_text"]

#: A larger SKILL.md is read up to here (its first MiB, to a line end).
MAX_SKILL_BYTES = 1024 * 1024
_OPEN = re.compile(r"#{1,6}(?=[ \t]|\Z)")  # an ATX heading's opening run
_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|\Z)")  # a list item's marker
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)\Z")
_UNDERLINE = re.compile(r"(?:-+|=+)[ \t]*\Z")  # (or a thematic break)
#: What may start a block in a list item or a block quote that :func:`_scanned` does not
#: follow: an ATX heading, HTML, a fence, an underline.
_NESTED_BLOCK = re.compile(r"#{1,6}(?:[ \t]|\Z)|<|```|~~~|(?:-+|=+)[ \t]*\Z")
#: The first characters of a list item's text that may start another block (its first line's
#: end too: ``""``).
_NESTED = frozenset(("", *"#<>`~-=*+0123456789"))
#: The first characters of a line that may be more than a paragraph's text.
_LOOK = frozenset("`~#=-<>*+0123456789 \t")


def cut(data: bytes) -> bytes:
    """``data`` up to :data:`MAX_SKILL_BYTES`, at a line end when it is longer."""
    if len(data) <= MAX_SKILL_BYTES:
        return data
    head = data[:MAX_SKILL_BYTES]
    end = head.rfind(b"\n")
    return head[: end + 1] if end > 0 else head


def read_skill_text(data: bytes, folder: str) -> SkillText | None:
    """The skill in ``data`` (SKILL.md's bytes, bad UTF-8 as U+FFFD); ``None`` when its
    frontmatter is invalid (started but not closed, bad YAML, not a mapping)."""
    from skillc_index.files import decoded
    from skillc_index.markdown.frontmatter import split_frontmatter
    from skillc_index.text import normalize_newlines

    text = normalize_newlines(decoded(data))
    frontmatter, start = split_frontmatter(text)  # where the body starts
    if frontmatter.present and frontmatter.data is None:
        return None
    data_ = frontmatter.data or {}
    name = data_.get("name")
    description = data_.get("description")
    first = frontmatter.body_start - 1  # 0-based index of the body's first line
    body = text[start:]
    return SkillText(
        name=name.strip() if isinstance(name, str) and name.strip() else folder,
        description=description.strip() if isinstance(description, str) else "",
        body=body,
        headings=headings(text, first),
        folder=folder,
        body_line=first + 1,
    )


def headings(text: str, first: int = 0) -> tuple[Heading, ...]:
    """The headings of ``text`` (a SKILL.md's, BOM removed, newlines normalized; its body
    starts on line ``first``, 0-based) as ``skc outline`` lists them, 1-based lines in
    ``text``."""
    found = _scanned(text, first)
    if found is None:
        from skillc_index.markdown.document import parse_markdown

        found = [
            (h.level, h.text, h.line)
            for h in parse_markdown(text, links=False, metadata=False).headings
        ]
    return tuple(Heading(level, heading, line) for level, heading, line in found)


def _scanned(text: str, first: int) -> list[tuple[int, str, int]] | None:
    """The headings of ``text``'s lines from ``first`` as markdown-it finds them, or None
    when a line may be read otherwise than a line scan reads it (module docstring): the
    lines are paragraph text, blank, ATX headings (their text as skillc-index's scanner
    reads it), fences (at most three spaces in; after a list item, their lines at least as
    indented as the fence, which then belongs to the item or after it, and closed at most
    three spaces in), or list items and quote lines whose text starts no block. A
    reference definition anywhere may make a heading's ``[...]`` a link: such a heading
    is left to the parse, as is a ``|`` (a table's header) or a heading of no text."""
    from skillc_index.markdown.document import MARKDOWN_LIMIT, MARKDOWN_LINE_LIMIT
    from skillc_index.markdown.heading_text import SPACES, TRIM, Unsure, heading_text

    lines = text.split("\n")
    if len(text) > MARKDOWN_LIMIT or len(lines) > MARKDOWN_LINE_LIMIT or "\0" in text:
        return None  # (the parse reads a part; a NUL is U+FFFD to markdown-it)
    found: list[tuple[int, str, int]] = []
    fence = ""  # the open fence's run
    fence_indent = 0
    listed = False  # a list item was seen: a line's indentation may put it in one
    paragraph = False  # a paragraph may be open: an underline would make it a heading
    references: bool | None = None  # whether a reference may be defined (looked up once)
    for index in range(first, len(lines)):
        line = lines[index]
        if fence and not (listed and fence_indent) and fence[0] not in line[:4]:
            continue  # a code line (a fence closes at most three spaces in)
        if not line:
            paragraph = False
            continue
        if line[0] not in _LOOK:  # most lines: text at the left margin
            if fence and listed and fence_indent:
                return None  # it may end the list item, and the fence with it
            paragraph = not fence
            continue
        stripped = line.lstrip(" \t")
        if not stripped:
            paragraph = False
            continue
        indent = len(line) - len(stripped)
        deep = indent >= 4 or "\t" in line[:indent]  # (a tab reaches column 4)
        char = stripped[0]
        if fence:
            if listed and indent < fence_indent:
                return None
            match = _FENCE.match(stripped) if char == fence[0] else None
            if match and len(match.group(1)) >= len(fence) and not match.group(2).strip(" \t"):
                if not deep:
                    fence = ""
                elif listed and fence_indent:
                    return None  # closing it, in a list item's content?
            continue
        if char in "`~" and stripped.startswith(("```", "~~~")):
            match = _FENCE.match(stripped)
            if match and not (char == "`" and "`" in match.group(2)):
                if deep and listed:
                    return None
                if not deep:
                    fence, fence_indent, paragraph = match.group(1), indent, False
                    continue
        elif char == "#" and (opening := _OPEN.match(stripped)):
            if deep and listed:
                return None
            if not deep:  # its text as markdown-it's heading rule cuts it
                level = opening.end()
                content = stripped[level:].rstrip(" \t")
                bare = content.rstrip("#")  # a closing run after a blank is not text
                content = (bare if bare and bare[-1] in SPACES else content).strip(TRIM)
                if "[" in content and references is None:
                    references = "]:" in text
                if not content or "|" in content or ("[" in content and references):
                    return None
                try:
                    heading = heading_text(content)
                except Unsure:
                    return None
                found.append((level, heading, index + 1))
                paragraph = False
                continue
        elif char == "<":
            return None  # HTML
        elif char == ">":
            if _starts_block(stripped, 0):
                return None
        elif char in "-=" and paragraph and _UNDERLINE.match(stripped):
            return None  # an underline (or a break where an underline may be)
        elif char in "-*+0123456789":
            item = _ITEM.match(stripped)
            if item:
                listed = True
                if stripped[item.end() : item.end() + 1] in _NESTED and _starts_block(
                    stripped, item.end()
                ):
                    return None
        paragraph = True
    return found


def _starts_block(line: str, pos: int) -> bool:
    """Whether the text of the list item or block quote whose marker ends at ``pos`` of
    ``line`` (after the markers of any items or quotes nested on the line) may start another
    block than a paragraph."""
    while True:
        while line[pos : pos + 1] in (" ", "\t", ">"):
            pos += 1
        if _NESTED_BLOCK.match(line, pos):
            return True
        item = _ITEM.match(line, pos)
        if item is None:
            return False
        pos = item.end()
