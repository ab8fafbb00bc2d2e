"""What the ranker reads of a skill (:class:`~.postings.SkillText`), from its SKILL.md, lightly and
fast: name, description, body and headings.

The frontmatter is read by skillc-index's parser (plain ``key: value`` blocks without
PyYAML). Headings come from a line scan, not from markdown-it (too slow for 20,000 skills):
ATX (``## Title``, up to three spaces of indent, closing ``#``s dropped) and setext (a text
line underlined with ``===`` or ``---``) headings outside fenced code blocks (```` ``` ````
or ``~~~``, closed by a fence of the same character at least as long) and HTML blocks (a
line holding only a tag, down to the next blank line); the text is the heading's plain text
(code spans, emphasis and link syntax removed), as ``skc show`` matches it. Container blocks
(lists, block quotes) are not parsed: on the corpus, 5 of 581 SKILL.md files differ from
markdown-it by a heading or two, which costs a section of the ranking, nothing more.
"""

from __future__ import annotations

import re

from skillc_gateway.catalog.postings import Heading, SkillText

__all__ = ["MAX_SKILL_BYTES", "cut", "read_skill_text"]

#: A larger SKILL.md is read up to here (its first MiB, to a line end).
MAX_SKILL_BYTES = 1024 * 1024
#: A line is looked at (for a heading) up to here, a heading's text up to MAX_HEADING: the
#: patterns below are linear on them, but emphasis and links could take quadratic time on a
#: line of a MiB.
MAX_LINE = 2000
MAX_HEADING = 500

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\Z")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)\Z")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*\Z")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*)(?=\S)(.+?)(?<=\S)\1")
_HTML_TAG = re.compile(r" {0,3}</?[A-Za-z][A-Za-z0-9-]*(?:\s[^>]*)?/?>[ \t]*\Z")
#: The first characters a fence, a heading, a setext underline or an HTML tag line can have
#: (three spaces of indent allowed): a line beginning with another is a paragraph's text.
_MARKS = frozenset(" \t`~#=-<")


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
    lines = text.split("\n")
    first = frontmatter.body_start - 1  # 0-based index of the body's first line
    body = text[start:]
    return SkillText(
        name=name.strip() if isinstance(name, str) and name.strip() else folder,
        description=description.strip() if isinstance(description, str) else "",
        body=body,
        headings=headings(lines, first),
        folder=folder,
        body_line=first + 1,
    )


def headings(lines: list[str], first: int = 0) -> tuple[Heading, ...]:
    """The headings of ``lines[first:]``, with 1-based line numbers in ``lines``."""
    found: list[Heading] = []
    fence = ""
    html = False  # inside an HTML block (a line holding only a tag, to the next blank line)
    previous = ""  # the previous line, when it could be the text of a setext heading
    for index, whole in enumerate(lines[first:], first):
        line = whole[:MAX_LINE]
        if html:
            html = bool(line.strip())
            continue
        if fence:
            match = _FENCE.match(line) if fence[0] in line[:4] else None
            if (
                match
                and match.group(1)[0] == fence[0]
                and len(match.group(1)) >= len(fence)
                and not match.group(2).strip()
            ):
                fence = ""
            previous = ""
            continue
        if not line or line[0] not in _MARKS:  # most lines: no pattern can match
            previous = line.strip()
            continue
        match = _FENCE.match(line)
        if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
            fence = match.group(1)
            previous = ""
            continue
        if previous and _SETEXT.match(line):
            level = 1 if line.strip()[0] == "=" else 2
            found.append(Heading(level, plain(previous), index))  # the text line, 1-based
            previous = ""
            continue
        atx = _ATX.match(line)
        if atx:
            text = plain(atx.group(2) or "")
            if text:
                found.append(Heading(len(atx.group(1)), text, index + 1))
            previous = ""
            continue
        if not previous and _HTML_TAG.match(line):
            html = True
            continue
        stripped = line.strip()
        indented = line.startswith(("    ", "\t"))
        previous = stripped if stripped and not (indented and not previous) else ""
    return tuple(found)


def plain(text: str) -> str:
    """The plain text of a heading's inline Markdown: code spans, emphasis and link syntax
    removed."""
    text = text[:MAX_HEADING]
    if "`" in text:
        text = text.replace("`", "")
    if "[" in text:
        text = _LINK.sub(r"\1", text)
    if "*" in text or "__" in text:
        text = _EMPHASIS.sub(r"\2", text)
    return text.strip()
