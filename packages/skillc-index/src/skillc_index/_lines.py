"""The lines of a text: the one definition every reader and the index share.

A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``, and nowhere else: not at a form feed,
a vertical tab, NEL (U+0085), U+2028 or U+2029, which ``str.splitlines`` also splits on.
This is how markdown-it sees lines (it turns ``\\r\\n`` and ``\\r`` into ``\\n`` and splits on
``\\n``), so the line numbers the index stores (headings, sections) and the lines ``show`` and
``open`` read back are the same lines. Never use ``str.splitlines`` on file text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["count_lines", "iter_lines", "normalize_newlines", "split_lines"]

_CHUNK = 1 << 16

# One whole line with its break. Only ever run over text that ends with a break (see
# _complete), so it never scans a line's characters twice.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")


def normalize_newlines(text: str) -> str:
    """``text`` with every ``\\r\\n`` and lone ``\\r`` made ``\\n`` (same lines, same count)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def count_lines(text: str) -> int:
    """Number of lines; a last line without a break counts, an empty text has 0."""
    if not text:
        return 0
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (0 if text.endswith(("\n", "\r")) else 1)


def _complete(text: str) -> tuple[list[str], str]:
    """The whole lines of ``text`` (breaks kept) and what follows the last break."""
    cut = max(text.rfind("\n"), text.rfind("\r")) + 1
    whole = text[:cut]
    lines = whole.splitlines(keepends=True)  # several times faster than _LINE.findall
    if len(lines) == whole.count("\n"):  # it broke at no lone '\r', FF, NEL, U+2028...
        return lines, text[cut:]
    return _LINE.findall(whole), text[cut:]


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its line break (the last one may have none)."""
    lines, rest = _complete(text)
    if rest:
        lines.append(rest)
    return lines


def iter_lines(handle: BinaryIO) -> Iterator[str]:
    """The lines of a file opened in binary mode, as UTF-8 (bad bytes as U+FFFD), each with
    its line break, read in chunks: memory holds one line, and a line of any length costs
    time in proportion to its length (its pieces are joined once, when it ends)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    parts: list[str] = []  # the pieces of the line that is not finished yet
    while True:
        chunk = handle.read(_CHUNK)
        text = decoder.decode(chunk, final=not chunk)
        if text:
            if parts and parts[-1].endswith("\r"):  # a '\r' at a chunk's end: '\r\n' or alone
                if text.startswith("\n"):
                    parts.append("\n")
                    text = text[1:]
                yield "".join(parts)
                parts = []
            lines, rest = _complete(text)
            if lines and not rest and lines[-1].endswith("\r"):
                rest = lines.pop()  # its '\n' may open the next chunk
            if lines:
                if parts:
                    lines[0] = "".join(parts) + lines[0]
                    parts = []
                yield from lines
            if rest:
                parts.append(rest)
        if not chunk:
            break
    if parts:
        yield "".join(parts)
