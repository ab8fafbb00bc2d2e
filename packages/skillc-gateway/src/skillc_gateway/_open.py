"""``open``: one file of a skill, verbatim (RFC-0002:C-OPEN): a text file's lines, a binary
file's bytes; and the :class:`Page` of lines a reply shows (``open`` and ``show``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from skillc_index import (
    FileIsAFolder,
    FileTooLarge,
    NotARegularFile,
    ResolvedSkill,
    UnreadableFile,
    open_in_root,
)
from skillc_index.files import decoded, lfs_pointer
from skillc_index.record import Record

#: Bytes looked at to tell text from binary content.
SNIFF = 8192
#: The MIME type of a binary file whose name says none.
OCTET_STREAM = "application/octet-stream"
#: The bytes of a binary file read at a time when it is streamed.
CHUNK = 1 << 20
#: The most bytes of a binary file that ``open --format json`` carries (one JSON string of
#: base64 takes several times the file's size in memory; the text output streams any size).
MAX_JSON_FILE_BYTES = 16 << 20


if TYPE_CHECKING:
    from collections.abc import Iterator

    from skillc_gateway.shapes import BinaryShape, Paged, TextShape


class FileText(Record):
    """A file's text, possibly cut to its first lines."""

    path: str
    text: str
    """The lines shown, as in the file (line endings kept)."""
    total_lines: int
    shown_lines: int
    lfs_pointer: bool = False
    """The file is a Git LFS pointer (:func:`~skillc_index.files.lfs_pointer`): its content
    was never fetched (``git lfs pull``). Served as it is; the caller warns."""

    @property
    def more_lines(self) -> int:
        return self.total_lines - self.shown_lines

    def to_dict(self) -> TextShape:
        return {
            "path": self.path,
            "content": self.text,
            "total_lines": self.total_lines,
            "shown_lines": self.shown_lines,
            "truncated": self.more_lines > 0,
        }


class FileBytes(Record):
    """A binary file (NUL bytes in its first :data:`SNIFF` bytes, as text too), whole: lines
    mean nothing in it, so it is never cut (RFC-0002:C-OPEN serves any file type)."""

    path: str
    data: bytes
    """Its bytes: all of them, or its first ones when ``rest`` is set."""
    mime_type: str
    """From the file name (``image/png``), else ``application/octet-stream``."""
    uri: str
    """The file's ``file://`` URI (for an MCP resource)."""
    rest: BinaryIO | None = None
    """The open file, after ``data``, when the other bytes are not held but read as they
    are used (``open_file(..., stream=True)``: :meth:`chunks`, :meth:`to_dict`)."""
    size: int = 0
    """With ``rest``: the file's size when it was opened, the most bytes it is read to."""

    def chunks(self) -> Iterator[bytes]:
        """The file's bytes, a chunk at a time (memory holds one), up to the size it had when
        opened (a file still being written ends); the file is then closed."""
        yield self.data
        if self.rest is None:
            return
        with self.rest as handle:
            rest = _Upto(handle, self.size - len(self.data))
            try:
                while chunk := rest.read(CHUNK):
                    yield chunk
            except OSError as exc:
                raise UnreadableFile(self.path, exc.strerror or str(exc)) from exc

    def to_dict(self) -> BinaryShape:
        """The JSON of ``open --format json`` and ``skc_open``: the bytes in base64. A file
        read as it is used (``rest``) is read here, and refused when it has more than
        :data:`MAX_JSON_FILE_BYTES` (E023: its base64 in one JSON string would take several times
        its size in memory)."""
        data = self.data
        if self.rest is not None:
            if self.size > MAX_JSON_FILE_BYTES:
                self.rest.close()
                raise FileTooLarge(self.path, self.size, MAX_JSON_FILE_BYTES)
            data = b"".join(self.chunks())
        import base64

        return {
            "path": self.path,
            "encoding": "base64",
            "mime_type": self.mime_type,
            "size": len(data),
            "content": base64.b64encode(data).decode("ascii"),
            "truncated": False,
        }

    def base64(self) -> str:
        import base64

        return base64.b64encode(self.data).decode("ascii")


class _Upto:
    """A file opened in binary mode, read no further than ``limit`` more bytes: what it had
    when it was opened, so a file written to meanwhile (a log) still has an end."""

    def __init__(self, handle: BinaryIO, limit: int) -> None:
        self.handle = handle
        self.left = limit

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            return b""
        data = self.handle.read(self.left if size < 0 else min(size, self.left))
        self.left -= len(data)
        return data


def base64_capacity(chars: int) -> int:
    """The most bytes whose base64 fits in ``chars`` characters (at most
    :data:`~skillc_index.arguments.MAX_COUNT`: :func:`open_file`'s bound of ``max_bytes``)."""
    from skillc_index.arguments import MAX_COUNT

    return min(chars // 4 * 3, MAX_COUNT)


def read_lines(
    handle: BinaryIO,
    first: int = 1,
    end: int | None = None,
    max_lines: int | None = None,
    skip: int = 0,
    size: int | None = None,
) -> tuple[str, int, int]:
    """Lines ``first`` to ``end - 1`` (1-based; ``end`` None: to the end of the file) of a file
    opened in binary mode, as UTF-8 (bad bytes as U+FFFD, line endings kept; a file in UTF-16
    or UTF-32 with its BOM as its text: :func:`skillc_index.text.as_utf8`), the first
    ``skip`` of them left out (counted, never kept: paging through a large file holds one
    page), cut to the next ``max_lines``: (shown text, lines in the range, lines shown).
    ``size``: read no further than that many bytes (the file's size when it was opened: a
    file appended to while it is read, a log, is read to where it ended then; None: to the
    end, however far it moves).

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``
    (:func:`skillc_index.iter_line_bytes`: the lines the index numbers), never at a form
    feed, NEL or U+2028. The file is read in chunks and only the lines shown are kept (and
    decoded), so a line limit on a 50 MB file holds a few lines, not the file; the lines
    before ``first`` are counted, not split; reading stops at ``end``.
    """
    from skillc_index import iter_line_bytes

    first = max(first, 1)
    shown: list[bytes] = []
    total = 0
    bounded = handle if size is None else cast("BinaryIO", _Upto(handle, size))
    lines = iter_line_bytes(bounded, first)
    for number, line in enumerate(lines, start=first):
        if end is not None and number >= end:
            break
        total += 1
        if total > skip and (max_lines is None or len(shown) < max_lines):
            shown.append(line)
    return b"".join(shown).decode("utf-8", "replace"), total, len(shown)


def open_file(
    skill: ResolvedSkill,
    path: str,
    *,
    max_lines: int | None = None,
    hidden: bool = False,
    skip: int = 0,
    max_bytes: int | None = None,
    stream: bool = False,
) -> FileText | FileBytes:
    """The content of ``path`` inside the skill (any file type, not only ``.md``): a text
    file's lines, its first ``skip`` left out (:func:`read_lines`); a binary file (one
    holding NUL bytes in its first :data:`SNIFF` bytes, and NUL characters once they are
    read as text: a UTF-16 file's bytes hold NULs, its text none) as :class:`FileBytes`, whole
    (``max_lines`` and ``skip`` do not apply), or E023 (:class:`FileTooLarge`) when it has
    more than ``max_bytes`` bytes (None: no limit; a text file is paged, never refused).
    With ``stream`` (and no ``max_bytes``), a binary file's bytes past its first ones are
    left in the open file (:attr:`FileBytes.rest`), read as they are used: a file of any
    size is served in bounded memory (the caller closes it by using it, or by
    ``rest.close()``).

    E012 for anything that resolves outside the skill root (``..``, absolute paths, symlinks
    pointing out, checked component by component as the file is opened); E021 when there is
    no such file, or when it is not a regular file (a folder, FIFO, socket or device: never
    opened, so never a hang), or cannot be (a NUL byte, a name too long, a symlink loop), and
    for a hidden path (a dot-file or dot-folder component: ``.env``, ``.git/config``) unless
    ``hidden``, and for a file of the skill's tests (``evals/``: never served to agents,
    ``hidden`` or not: :class:`~skillc_index.diagnostics.EvalsPath`). E100 for a ``path``
    (None, 5, empty), ``max_lines``, ``skip`` or ``hidden``
    of the wrong type or below its bound, as the command line and the MCP tool refuse them
    (:func:`~skillc_index.parameters.checked_values`), and for a ``max_bytes`` that is no
    integer from 0 to :data:`~skillc_index.arguments.MAX_COUNT` (``"x"``, ``True``, -1,
    10**30: a bare ``TypeError`` or ``OverflowError`` before, or E023 "at most -1").
    """
    from skillc_gateway.operations import OpenParams
    from skillc_index.arguments import checked
    from skillc_index.parameters import checked_values

    values = {"path": path, "max_lines": max_lines, "offset": skip, "hidden": hidden}
    found_values = checked_values(OpenParams, values, {"offset": "skip"})
    path, max_lines, skip, hidden = found_values.values()
    if max_bytes is not None:  # no field of OpenParams: the caller's bound (the MCP reply's)
        max_bytes = checked("max_bytes", max_bytes, {"type": "integer", "minimum": 0})
    try:
        handle = open_in_root(skill.source, path, hidden=hidden, tests=False)
    except NotARegularFile as exc:
        if exc.kind == "a folder":
            raise FileIsAFolder(path) from None
        raise
    except OSError as exc:
        raise UnreadableFile(path, exc.strerror or str(exc)) from exc
    kept = False  # the file is left open in the FileBytes that reads it on
    try:
        size = os.fstat(handle.fileno()).st_size  # what is read, should it grow meanwhile
        head = handle.read(SNIFF)
        if b"\0" in head and "\0" in decoded(head):  # a BOM's UTF-16 is text
            found = _binary(skill, path, head, handle, size, max_bytes, stream)
            kept = found.rest is not None
            return found
        handle.seek(0)
        text, total, shown = read_lines(handle, max_lines=max_lines, skip=skip, size=size)
    except OSError as exc:
        raise UnreadableFile(path, exc.strerror or str(exc)) from exc
    finally:
        if not kept:
            handle.close()
    return FileText(path, text, total, shown, lfs_pointer(head))


def _binary(
    skill: ResolvedSkill,
    path: str,
    head: bytes,
    handle: BinaryIO,
    size: int,
    max_bytes: int | None,
    stream: bool,
) -> FileBytes:
    """The rest of a binary file whose first bytes are ``head``: at most ``max_bytes`` in
    all (E023 past them, checked by size before reading and by what is read, should it
    grow meanwhile); with ``stream`` and no ``max_bytes``, left in ``handle`` to be read as
    it is used, up to ``size``, the size the file had when it was opened."""
    import mimetypes

    if max_bytes is not None and max(size, len(head)) > max_bytes:
        raise FileTooLarge(path, size, max_bytes)
    mime_type = mimetypes.guess_type(path, strict=False)[0] or OCTET_STREAM
    where = Path(os.path.normpath(os.path.abspath(skill.source / path)))  # noqa: PTH100
    if stream and max_bytes is None:
        return FileBytes(path, head, mime_type, where.as_uri(), handle, max(size, len(head)))
    left = size - len(head) if max_bytes is None else max_bytes - len(head) + 1
    rest = _Upto(handle, left).read()
    data = head + rest
    if max_bytes is not None and len(data) > max_bytes:
        raise FileTooLarge(path, max(size, len(data)), max_bytes)
    return FileBytes(path, data, mime_type, where.as_uri())


class Page(Record):
    """The part of a read text that one reply shows: lines from ``offset`` on."""

    content: str
    total_lines: int
    shown_lines: int
    offset: int
    truncated: bool
    """Lines or characters were left out."""

    @property
    def next_offset(self) -> int | None:
        """The ``offset`` that reads on; None when no line is left, or when this page shows
        none (``max_lines`` 0: reading on by the same request would never move)."""
        end = self.offset + self.shown_lines
        return end if self.shown_lines and end < self.total_lines else None

    @property
    def more_lines(self) -> int:
        """Lines after this page (none past the end)."""
        return max(self.total_lines - self.offset - self.shown_lines, 0)

    def to_dict(self) -> Paged:
        data: Paged = {
            "content": self.content,
            "total_lines": self.total_lines,
            "shown_lines": self.shown_lines,
            "truncated": self.truncated,
            "offset": self.offset,
        }
        if self.next_offset is not None:
            data["next_offset"] = self.next_offset
        return data


def page(
    text: str, lines: int, total_lines: int, offset: int = 0, max_chars: int | None = None
) -> Page:
    """The page of ``text`` (``lines`` lines from line ``offset`` on, of something
    ``total_lines`` long: :func:`read_lines` skipped the others): whole lines while they fit
    in ``max_chars`` (None: no limit); a single longer line is cut to ``max_chars``."""
    from skillc_index import split_lines  # the lines skillc numbers everywhere

    if max_chars is None or len(text) <= max_chars:
        return Page(text, total_lines, lines, offset, offset + lines < total_lines)
    shown: list[str] = []
    size = 0
    cut = False
    for line in split_lines(text):
        if max_chars is not None and size + len(line) > max_chars:
            if not shown:  # one line longer than a reply: its start
                shown.append(line[:max_chars])
                cut = True
            break
        shown.append(line)
        size += len(line)
    end = offset + len(shown)
    return Page("".join(shown), total_lines, len(shown), offset, cut or end < total_lines)
