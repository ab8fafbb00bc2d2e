"""Archives with the same bytes for the same files (``skc package``, issue 37).

A zip entry carries a time, permissions and the host system; :func:`zip_bytes` fixes them
all: every entry dated 1980-01-01 00:00 (the earliest a zip can hold), ``0644`` or ``0755``
(executable), made on Unix, deflated at level 9, in the order of the paths (bytewise). The
same files give the same archive, so a package can be rebuilt and compared, and its digest
published.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ArchiveEntry", "ArchiveTooLarge", "zip_bytes"]

from skillc_index.record import Record

#: The earliest time a zip entry can hold.
_EPOCH = (1980, 1, 1, 0, 0, 0)


class ArchiveEntry(Record):
    """One file of an archive: its path inside, its bytes, whether it is executable."""

    path: str
    data: bytes
    executable: bool = False


class ArchiveTooLarge(Exception):
    """The archive passed :func:`zip_bytes`'s ``limit``: ``size`` bytes when it stopped."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def zip_bytes(entries: Iterable[ArchiveEntry], limit: int | None = None) -> bytes:
    """A zip archive of ``entries``, the same bytes whenever the entries are the same.
    :class:`ArchiveTooLarge` as soon as it passes ``limit`` bytes (the entries after that
    one are not compressed)."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for entry in sorted(entries, key=lambda item: item.path.encode("utf-8", "surrogateescape")):
            info = zipfile.ZipInfo(entry.path, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix: the permissions below are read
            mode = 0o755 if entry.executable else 0o644
            info.external_attr = (0o100000 | mode) << 16
            archive.writestr(info, entry.data, compresslevel=9)
            if limit is not None and buffer.tell() > limit:
                raise ArchiveTooLarge(buffer.tell())
    if limit is not None and buffer.tell() > limit:  # (with its central directory)
        raise ArchiveTooLarge(buffer.tell())
    return buffer.getvalue()
