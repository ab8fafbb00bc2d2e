"""Which files are Markdown (:func:`is_markdown`) and what of one is read and parsed: the
parse limits and :func:`read_parsed`, apart from the parser
(:mod:`~skillc_index.markdown.document`, which re-exports them), so that a reader of a
SKILL.md's frontmatter alone (a build of an unchanged skill) does not import the parser's
modules, nor a reader that asks whether a file is Markdown."""

from __future__ import annotations

from typing import BinaryIO

__all__ = [
    "MARKDOWN_LIMIT",
    "MARKDOWN_LINE_LIMIT",
    "MARKDOWN_READ_LIMIT",
    "is_markdown",
    "read_parsed",
]

MARKDOWN_LIMIT = 1 << 20
"""Characters of a Markdown file that are parsed for headings and links (1 MiB; a file of at
most 1 MiB on disk is never cut). The largest ``.md`` file of the 581 corpus skills has
294 KB."""
MARKDOWN_LINE_LIMIT = 20_000
"""Lines of a Markdown file that are parsed, whatever their length: markdown-it-py's cost
follows lines more than bytes for short ones (1 MiB of ``x|y`` rows took 15 s, 20,000 such
lines take about 1.5 s). The longest ``.md`` file of the corpus has 2,738 lines."""
MARKDOWN_READ_LIMIT = 4 * MARKDOWN_LIMIT + 4
"""Bytes of a Markdown file that are read to parse it (:func:`read_parsed`): more than
:data:`MARKDOWN_LIMIT` characters of at most 4 bytes each, so a longer file is cut by the
parse limit anyway."""


def is_markdown(rel: str) -> bool:
    """Whether the file ``rel`` (a path or a name) is Markdown to skillc: its name ends in
    ``.md`` in any case (``REFERENCE.MD``, ``notes.Md``). The one rule of every reader: the
    index (``outline``, ``show``, ``search``), the stub's references, ``package`` and
    skillc-lint."""
    return rel[-3:].lower() == ".md"


def read_parsed(handle: BinaryIO, *, count: bool = True) -> tuple[str, int | None]:
    """The text of a Markdown file opened in binary mode (:func:`~skillc_index.files.decoded`)
    as far as :func:`~skillc_index.markdown.document.parse_markdown` parses it: whole, or its first
    :data:`MARKDOWN_READ_LIMIT` bytes when it is longer; and then the file's line count (the
    rest counted in chunks, never held: give it to :func:`parse_markdown`; not counted
    without ``count``, for a reader of the frontmatter alone), else None. A 400 MB file
    costs a few MB of memory, not 800. A file is asked for its size (its stat) and a byte,
    not 4 MiB (a buffer that size for a small file: 3 times the time of reading a corpus);
    one grown since is read on to the limit."""
    import os

    from skillc_index.files import decoded
    from skillc_index.text import count_line_bytes

    try:
        wanted = min(os.fstat(handle.fileno()).st_size + 1, MARKDOWN_READ_LIMIT)
    except (OSError, ValueError):  # no file behind it (io.UnsupportedOperation is both)
        wanted = MARKDOWN_READ_LIMIT
    data = handle.read(wanted)
    if len(data) == wanted < MARKDOWN_READ_LIMIT:  # more than its stat said
        data += handle.read(MARKDOWN_READ_LIMIT - wanted)
    cut = count and len(data) == MARKDOWN_READ_LIMIT
    lines = count_line_bytes(data, handle) if cut else None
    return decoded(data), lines
