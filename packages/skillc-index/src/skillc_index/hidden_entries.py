"""A folder's hidden entries (``.<name>...``), listed once, not once per skill: the temporary
names a killed import leaves in a store (``.<name>.old.<pid>-<hex>``,
``.<name>.import.<pid>-<hex>``: :func:`~skillc_index.import_record.recovered`,
:func:`~skillc_index.atomic.abandoned`) are looked for in each store for every folder skill a
command resolves, builds or imports, and a store of 20,000 skills listed that many times
doubled the time of ``skc build DIR`` and ``skc lint DIR``.

A listing is kept while the folder's identity, modification and change times are those it
had (an entry added, removed or renamed changes them; ``rsync -a``, ``tar x`` or ``touch -d``
may set the modification time back, never the change time), once both times are older than
its file system's granularity (:func:`~skillc_index.file_times.settled`: a time of whole
seconds may hide a rename within the second). A batch build, whose own imports change the
store all along, lists each store once for the whole batch (:func:`hold`): an import another
process leaves killed meanwhile is repaired by the next command that looks for its name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

#: Per folder (as named): its identity, modification and change times, and its hidden entries.
_listed: dict[str, tuple[tuple[int, int, int, int], tuple[str, ...]]] = {}

#: The folders listed once for a whole batch (:func:`hold`), with how many hold each.
_held: dict[str, tuple[int, tuple[str, ...]]] = {}

#: The most folders :data:`_listed` keeps (a long-lived server's stores, a batch's runtimes).
MAX_FOLDERS = 64


def hidden_entries(folder: Path | str) -> tuple[str, ...] | None:
    """The entries of ``folder`` whose name starts with ``.``, listed again only when the
    folder changed since (or too recently to tell), and not at all while held
    (:func:`hold`); None when it cannot be listed."""
    import time

    from skillc_index.file_times import settled

    key = os.fspath(folder)
    held = _held.get(key)
    if held is not None:
        return held[1]
    at_ns = time.time_ns()  # before the stat: a change after it is seen by the next one
    try:
        st = os.stat(folder)  # noqa: PTH116
    except OSError:
        return None
    now = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    cached = _listed.pop(key, None)
    if cached is not None and cached[0] == now:
        _listed[key] = cached  # the most recently used last
        return cached[1]
    try:
        names = os.listdir(folder)  # noqa: PTH208
    except OSError:
        return None
    hidden = tuple(name for name in names if name.startswith("."))
    # the listing changes with the folder's times (an entry added, removed, renamed)
    if settled(st.st_mtime_ns, st.st_ctime_ns, at_ns):
        while len(_listed) >= MAX_FOLDERS:
            _listed.pop(next(iter(_listed)))  # the least recently used
        _listed[key] = (now, hidden)
    return hidden


def hold(folders: Iterable[Path]) -> Callable[[], None]:
    """List each of ``folders`` (a batch's stores) now, once, and answer
    :func:`hidden_entries` of it with that listing until the function returned is called (a
    worker process of the batch never calls it). A folder that cannot be listed is not held."""
    keys: list[str] = []
    for folder in folders:
        key = os.fspath(folder)
        count, hidden = _held.get(key, (0, None))
        if hidden is None:
            hidden = hidden_entries(folder)
        if hidden is not None:
            _held[key] = (count + 1, hidden)
            keys.append(key)

    def release() -> None:
        for key in keys:
            count, hidden = _held.pop(key)
            if count > 1:
                _held[key] = (count - 1, hidden)
        keys.clear()

    return release
