"""The server's input as pygls reads it, bounded: LSP frames each message with a
``Content-Length`` header, and pygls reads the body it announces in one ``read``, so a client
announcing 10^14 bytes made the server allocate them (MemoryError). Its header lines as pygls
reads them: pygls takes only ``Content-Length: N\r\n`` spelled so, and skipped any other line
without a word, gluing each later body to the next header (no request answered again, ``exit``
ignored). Its output as pygls writes it, ending the session when the client no longer reads
it. Standard library only."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import BinaryIO, NoReturn

__all__ = ["MAX_HEADER_LINE", "MAX_MESSAGE_BYTES", "BoundedInput", "EndingOutput"]

#: The largest message body read: a document over the lint bound (4 MiB) escaped as JSON,
#: many times over; a larger one ends the session (:attr:`BoundedInput.refused`).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: The longest header line read (a header is ``Content-Length: N``): a longer one ends the
#: session (:attr:`BoundedInput.unreadable`).
MAX_HEADER_LINE = 8 * 1024

# A header line, its name and value (RFC 9110: a token, a colon, optional whitespace).
_HEADER = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*")


class BoundedInput:
    """``raw`` with no body over :data:`MAX_MESSAGE_BYTES`: a larger one reads as the end of
    the input (pygls then ends the session) and its size is kept in :attr:`refused`.

    Its header lines are given to pygls as pygls reads them: a header's name in any case
    (HTTP's are case-insensitive: ``content-length: 12``), a line ended by ``\n`` alone, and
    spaces around the value are taken, ``Content-Length`` given as ``Content-Length: N\r\n``.
    A header it cannot read ends the session the same way, what was wrong kept in
    :attr:`unreadable`: a line that is no header, over :data:`MAX_HEADER_LINE` bytes, a
    ``Content-Length`` that is not a number of bytes (``abc``, ``-5``), headers without one."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.refused: int | None = None
        self.unreadable: str | None = None
        self._headers = 0  # header lines of the message read so far
        self._length = False  # whether one of them was its Content-Length

    def readline(self, size: int = -1) -> bytes:
        line = self._raw.readline(MAX_HEADER_LINE + 1)
        if not line.endswith(b"\n"):  # the input ended (mid-line: a message cut short)
            if len(line) > MAX_HEADER_LINE:
                return self._refuse(f"a header line over {MAX_HEADER_LINE} bytes")
            return b""
        header = line.rstrip(b"\r\n")
        if not header:  # the end of the headers (a blank line before any is skipped)
            if self._headers and not self._length:
                return self._refuse("a message without a Content-Length header")
            self._headers, self._length = 0, False
            return b"\r\n"
        self._headers += 1
        match = _HEADER.fullmatch(header)
        if match is None:
            return self._refuse(f"a header it cannot read ({_shown(header)})")
        if match[1].lower() != b"content-length":
            return header + b"\r\n"  # Content-Type: pygls ignores it (LSP's is UTF-8)
        value = match[2]
        if not value.isdigit() or len(value) > 20:
            return self._refuse(f"a Content-Length that is no number of bytes ({_shown(header)})")
        self._length = True
        return b"Content-Length: %d\r\n" % int(value)

    def _refuse(self, why: str) -> bytes:
        """The end of the input, for the header ``why`` says."""
        self.unreadable = why
        return b""

    def read(self, size: int = -1) -> bytes:
        if 0 <= size <= MAX_MESSAGE_BYTES:
            return self._raw.read(size)
        self.refused = size
        return b""


class EndingOutput:
    """``raw`` whose first failed write, flush or close (the client closed its end of the
    pipe: ``BrokenPipeError``; the stream closed: ``ValueError``) calls ``end``, which ends
    the process. pygls reported such a failure to the client over the same output, which
    failed again: megabytes of chained tracebacks, and ``exit`` ignored (closing the output
    failed before it exited)."""

    def __init__(self, raw: BinaryIO, end: Callable[[], NoReturn]) -> None:
        self._raw = raw
        self._end = end

    def write(self, data: bytes) -> int:
        try:
            return self._raw.write(data)
        except (OSError, ValueError):
            self._end()

    def flush(self) -> None:
        try:
            self._raw.flush()
        except (OSError, ValueError):
            self._end()

    def close(self) -> None:
        try:
            self._raw.close()
        except (OSError, ValueError):
            self._end()


def _shown(header: bytes) -> str:
    """``header`` as an error line shows it: at most 60 bytes, escaped as Python shows bytes
    (a control character or a byte past ASCII as ``\\x1b``)."""
    return repr(header[:60])[2:-1] + ("..." if len(header) > 60 else "")
