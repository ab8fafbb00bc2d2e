"""How long a file's stats stay unproven after it changed: the timestamp granularity of its
file system. A file changed again within the same clock tick (in place, at the same size)
keeps every stat, so a cache keyed by a file's stats (the index's ``files``, the find
catalog's stamps, the digests a served skill keeps, ``skc stats --all``'s cache) trusts a
stat only once the file's times are older than :func:`racy_window_ns`: :func:`settled`.
Imports nothing: the find catalog asks it of every folder."""

from __future__ import annotations

__all__ = ["COARSE_WINDOW_NS", "RACY_WINDOW_NS", "racy_window_ns", "settled"]

#: Files changed this close (ns) to the moment their stats were recorded may have been changed
#: again within the file system's timestamp granularity: their stats prove nothing. Linux
#: file systems stamp times from a coarse clock (one scheduler tick, at most 10 ms) and APFS
#: in nanoseconds; 100 ms covers both with room. (A build right after a copy, as an import
#: does, would otherwise leave every file "racy" and every reader hashing the sources.)
RACY_WINDOW_NS = 100_000_000
_SECOND_NS = 1_000_000_000
#: The change time of a coarse file system is a multiple of this: whole seconds (ext4 made
#: with 128-byte inodes, ext3, HFS+, many network shares), or FAT's creation time, which
#: Linux gives as its change time, in hundredths of a second.
_COARSE_CTIME_NS = 10_000_000
#: The window of a file system of whole seconds, or even two (FAT, which may also round up):
#: a file saved twice within one second keeps its times, and its stats prove it unchanged only
#: once two seconds (and :data:`RACY_WINDOW_NS`) have passed.
COARSE_WINDOW_NS = 2 * _SECOND_NS + RACY_WINDOW_NS


def racy_window_ns(mtime_ns: int, ctime_ns: int) -> int:
    """How long (ns) after its times a file with these times may still change again with the
    same ones: :data:`COARSE_WINDOW_NS` on a file system of whole seconds, known by a
    modification time of whole seconds and a change time of whole seconds or hundredths
    (:data:`_COARSE_CTIME_NS`), else :data:`RACY_WINDOW_NS`. A modification time set to a
    whole second (``tar x``, ``cp -p``, ``touch -d``) on a nanosecond file system leaves the
    change time the kernel's, with its fraction: the ordinary window (a change time of
    nanoseconds is a multiple of 10 ms by chance once in ten million)."""
    coarse = mtime_ns % _SECOND_NS == 0 and ctime_ns % _COARSE_CTIME_NS == 0
    return COARSE_WINDOW_NS if coarse else RACY_WINDOW_NS


def settled(mtime_ns: int, ctime_ns: int, at_ns: int) -> bool:
    """Whether a file with these times, stat'ed at ``at_ns``, was last changed long enough
    before it for its stats to prove it unchanged while they stay the same: both times more
    than its :func:`racy_window_ns` before ``at_ns`` (one changed closer may have been
    changed again within the same timestamp, unseen)."""
    return max(mtime_ns, ctime_ns) + racy_window_ns(mtime_ns, ctime_ns) < at_ns
