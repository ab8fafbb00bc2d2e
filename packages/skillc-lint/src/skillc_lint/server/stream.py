"""The server's input as pygls reads it, bounded: LSP frames each message with a
``Content-Length`` header, and pygls reads the body it announces in one ``read``, so a client
announcing 10^14 bytes made the server allocate them (MemoryError). Standard library only."""

from __future__ import annotations

from typing import BinaryIO

__all__ = ["MAX_HEADER_LINE", "MAX_MESSAGE_BYTES", "BoundedInput"]

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
