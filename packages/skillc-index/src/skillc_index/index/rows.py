"""What a skill's source files become in its index (RFC-0004:C-FORMATS): which files are
indexed (:func:`indexed_files`), and the rows of one file (:func:`file_rows`: its
``sections`` documents, its ``headings`` and, over the parse limit, the lines parsed).

The build (:mod:`~skillc_index.build.compiler`, which also takes what the stub needs from the
same parse) and the index made on demand (:mod:`~skillc_index.index.cache`) both make their
rows here, so an index is the same whoever writes it. The Markdown is parsed for headings
only (no links, no HTML: :func:`~skillc_index.markdown.document.parse_markdown` with
``links=False``, which finds them with :mod:`~skillc_index.markdown.headings`' scanner
without loading markdown-it when it can tell); the headings are the ones every other reader
of the file finds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from skillc_index.index.schema import Document
from skillc_index.index.writer import ParsedFile
from skillc_index.markdown.reading import is_markdown
from skillc_index.text import normalize_newlines

if TYPE_CHECKING:
    from skillc_index.markdown.document import MarkdownDoc

__all__ = ["file_rows", "indexed_files", "is_indexed", "markdown_documents", "parse_rows"]


def is_indexed(rel: str) -> bool:
    """Whether the file ``rel`` has rows: Markdown (:func:`~skillc_index.markdown.reading.
    is_markdown`: a row per section) and plain text (one row), each suffix in any case
    (``REFERENCE.MD``, ``NOTES.TXT``)."""
    return is_markdown(rel) or rel[-4:].lower() == ".txt"


def indexed_files(files: Iterable[str]) -> list[str]:
    """The indexed files among a skill's files (relative paths), in the order given (the
    walk's, bytewise): their position in this list is their number in the index
    (:data:`~skillc_index.index.schema.FILE_ROWS`)."""
    return [rel for rel in files if is_indexed(rel)]


def markdown_documents(rel: str, text: str, doc: MarkdownDoc) -> Iterator[Document]:
    """RFC-0004:C-FORMATS for one ``.md`` file: ``(file, section, content)`` rows.

    A section is its heading line through the line before the next heading of the same or a
    higher level (subsections included, DECISIONS). Text between the frontmatter and the first
    heading, when not blank, is one more document with section ``""`` (so a file without
    headings is searchable as a whole); the frontmatter itself is not content. Of a file over
    the parse limit, the text after its last parsed heading is that heading's section.
    Linear in the file's size: each section is a slice of one list of lines, and a line is in
    at most six sections (one per heading level).
    """
    lines = normalize_newlines(text).split("\n")  # the lines of the headings' numbers

    def span(start: int, end: int) -> str:
        """Lines ``start`` to ``end - 1`` (1-based), each with its newline."""
        chunk = lines[start - 1 : end - 1]
        if not chunk:
            return ""
        return "\n".join(chunk) + ("\n" if end - 1 < len(lines) else "")

    first = doc.headings[0].line if doc.headings else len(lines) + 1
    preamble = span(doc.frontmatter.body_start, first)
    if preamble.strip():
        yield rel, "", preamble
    for heading in doc.headings:
        yield rel, heading.text, span(heading.line, heading.end_line)


def file_rows(rel: str, text: str, doc: MarkdownDoc | None) -> ParsedFile:
    """The rows of one indexed file: ``doc`` is its parse (a ``.md`` file), None for a
    ``.txt`` file (one row, section ``""``). Documents are made one at a time as they are
    stored (a section can be the whole file)."""
    if doc is None:
        return ParsedFile(rel, [(rel, "", text)], [])
    headings = [(rel, h.text, h.level, h.line, h.end_line) for h in doc.headings]
    return ParsedFile(rel, markdown_documents(rel, text, doc), headings, doc.parsed_lines)


def parse_rows(rel: str, text: str) -> ParsedFile:
    """The rows of one indexed file from its text alone (headings only; the frontmatter's
    YAML is not read: the index does not need it)."""
    if not is_markdown(rel):
        return file_rows(rel, text, None)
    from skillc_index.markdown.document import parse_markdown

    return file_rows(rel, text, parse_markdown(text, links=False, metadata=False))
