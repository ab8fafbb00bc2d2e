"""The server's input as pygls reads it, bounded: LSP frames each message with a
``Content-Length`` header, and pygls reads the body it announces in one ``read``, so a client
announcing 10^14 bytes made the server allocate them (MemoryError). Its output as pygls
writes it, ending the session when the client no longer reads it. Standard library only."""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO, NoReturn

__all__ = ["MAX_HEADER_LINE", "MAX_MESSAGE_BYTES", "BoundedInput", "EndingOutput"]

#: The largest message body read: a document over the lint bound (4 MiB) escaped as JSON,
#: many times over; a larger one ends the session (:attr:`BoundedInput.refused`).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: The most of one header line read at a time (a header is ``Content-Length: N``).
MAX_HEADER_LINE = 8 * 1024


class BoundedInput:
    """``raw`` with each header line read at most :data:`MAX_HEADER_LINE` bytes at a time
    and no body over :data:`MAX_MESSAGE_BYTES`: a larger one reads as the end of the input
    (pygls then ends the session) and its size is kept in :attr:`refused`."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.refused: int | None = None

    def readline(self, size: int = -1) -> bytes:
        return self._raw.readline(MAX_HEADER_LINE)

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
