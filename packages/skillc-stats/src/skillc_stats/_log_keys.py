"""How the team store knows a local log (:mod:`._team`): its key, and what its rows may be
stored under already; and the logs an upload sends (:func:`local_logs`).

The key is the identity the log holds (:mod:`skillc_index.accesslog.identity`: random, kept
for the log's whole life). A skillc log written before identities came is given one the first
time it is uploaded (as by any write); its earlier rows are compared with those stored under
the key skillc-stats 0.1.0 derived (:func:`legacy_log_key`: the machine id, the log's real
path, its first row). A log that cannot hold one (another RFC-0007 implementation's, which
skillc never writes; an old skillc log that cannot be written) is keyed by a hash of its real
path and its first row: deterministic, but a new key once that row is pruned (then its rows
are sent again). The machine id only recognises rows sent by 0.1.0: it is never a key.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
from collections.abc import Sequence
from contextlib import closing, suppress
from pathlib import Path
from typing import Any, NamedTuple

from skillc_index import META_DIR, Layout
from skillc_index.accesslog import (
    LOG_FILE,
    ForeignLog,
    check_schema,
    connect,
    misplaced,
    open_log,
    read_identity,
    renew_identity,
    runtime_base,
    settle_identity,
)
from skillc_index.accesslog.upload import first_row, last_id


def machine_id() -> str:
    """This machine's id (``/etc/machine-id``), else its host name: only to recognise the rows
    versions before log identities sent (:func:`legacy_log_key`), never a log's identity
    (clones of one image, containers mounting the host's, share it)."""
    try:
        with open("/etc/machine-id", encoding="ascii") as handle:
            found = handle.read(64).strip()
    except (OSError, ValueError):
        found = ""
    return found or socket.gethostname()


class LogKey(NamedTuple):
    """How the team store knows one local log."""

    key: str
    previous: str | None
    """A key the rows up to :attr:`previous_upto` may already be stored under (an earlier
    identity of this log, or the key versions before log identities derived)."""
    previous_upto: int
    writable: bool
    """The log holds :attr:`key` and skillc may write it: it can be renewed (a copy told
    apart) and its earlier key forgotten once its rows are in."""


def digest(*parts: object, exact: bool = False) -> str:
    """32 hex digits of the SHA-256 of ``parts`` joined by NUL: their ``str``, or with
    ``exact`` their ``repr`` (a value's type too: ``1`` is not ``'1'``). The log keys are
    of the ``str`` form (:func:`legacy_log_key`: never to change, it finds rows 0.1.0 sent);
    the team-sync claims (:mod:`._team_sent`) of the exact one."""
    text = "\0".join(repr(part) if exact else str(part) for part in parts)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def legacy_log_key(path: Path, first: Sequence[Any], machine: str) -> str:
    """The key skillc-stats 0.1.0 gave a log: a hash of the machine id, the log's real path
    and its first row's ``id``, ``timestamp`` and ``run_id``."""
    return digest(machine, os.path.realpath(path), *first)


def log_key(path: Path, layout: Layout) -> LogKey | None:
    """The identity of the local log ``path`` in the team store; None for a log with no rows.

    A skillc log holding no identity yet (written before identities came) is given one
    first, as any write would (not when it lies outside its base through a symlink, or
    cannot be written). Its rows so far are compared with the rows stored under the key
    :func:`legacy_log_key` derives. A log that holds none (another implementation's, which
    skillc never writes, or an old one that cannot be written) is keyed by a hash of its real
    path and its first row: deterministic, but a new key once that row is pruned (its rows are
    then sent again)."""
    writable = not misplaced(path, runtime_base(layout, path.parent.parent))
    if writable and not _identity_of(path):
        # gives an older skillc log its identity (not another implementation's, not a
        # read-only one: they are keyed below)
        with suppress(OSError, sqlite3.Error):
            connect(path).close()
    with closing(open_log(path)) as db:
        return key_of(db, path, writable)


def key_of(db: sqlite3.Connection, path: Path, writable: bool) -> LogKey | None:
    """:func:`log_key` of the log open as ``db`` (at ``path``; ``writable``: skillc may write
    it there), read from that connection: an upload reads its rows from the same file."""
    identity = read_identity(db)
    first = first_row(db)
    if first is None:
        return None
    try:
        check_schema(db)
        skillcs = True
    except ForeignLog:
        skillcs, writable = False, False
    top = last_id(db) or 0
    if identity is not None:
        previous = identity.previous_id
        if previous is None and identity.previous_upto:
            previous = legacy_log_key(path, first, machine_id())
        return LogKey(identity.log_id, previous, identity.previous_upto, writable)
    key = digest("log", os.path.realpath(path), *first)
    if skillcs:  # an old skillc log: its rows may be stored under the old key
        return LogKey(key, legacy_log_key(path, first, machine_id()), top, False)
    return LogKey(key, None, 0, False)


def _identity_of(path: Path) -> bool:
    try:
        with closing(open_log(path)) as db:
            return read_identity(db) is not None
    except (OSError, sqlite3.Error):
        return False


def renewed_key(path: Path, old: str) -> LogKey | None:
    """A new identity for the copy of a log at ``path`` (see :mod:`._team`); None when it
    cannot be written (it is uploaded under the key it has, as before)."""
    try:
        with closing(connect(path)) as db:
            found = renew_identity(db, old)
    except (OSError, sqlite3.Error):
        return None
    if found is None or found.log_id == old:
        return None
    return LogKey(found.log_id, found.previous_id, found.previous_upto, True)


def settle(path: Path, key: str) -> None:
    """Forget the earlier key of the log at ``path``: its rows are all stored under ``key``."""
    with suppress(OSError, sqlite3.Error), closing(connect(path)) as db:
        settle_identity(db, key)  # failing, it is compared again next time: nothing twice


def local_logs(layout: Layout) -> list[Path]:
    """The primary runtime logs of this working folder's stores (project, then global):
    ``<runtime store>/<skill>/.skillc-meta/logs.db``."""
    found: list[Path] = []
    for scope in layout.scopes():
        store = layout.runtime_store(scope)
        try:
            names = sorted(entry.name for entry in os.scandir(store) if entry.is_dir())
        except OSError:
            continue
        for name in names:
            path = store / name / META_DIR / LOG_FILE
            if path.is_file():
                found.append(path)
    return found
