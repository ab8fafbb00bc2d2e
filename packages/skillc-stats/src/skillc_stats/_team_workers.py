"""The threads of an upload (:func:`upload_each`): each log sent through one of the store's
connections, a worker thread per connection, and what a Ctrl-C does to them. Only the main
thread receives a Ctrl-C, and it runs no statement of an upload: it waits for the workers,
so a batch is counted with its commit (:attr:`TeamStore.added <._team.TeamStore>`), and
what the upload reports, closes and saves (:func:`._team.upload_logs`) is done once every
worker has ended. Imported by :func:`._team.upload_logs` only."""

from __future__ import annotations

import sqlite3
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index import Layout, UnreadableFile
from skillc_stats._log_keys import LogKey, log_key

if TYPE_CHECKING:
    from skillc_stats._team import LogUpload, TeamStore


def upload_each(
    stores: list[TeamStore], paths: list[Path], layout: Layout, machine: str, user: str,
    done: dict[int, LogUpload],
) -> None:  # fmt: skip
    """Each of ``paths`` uploaded whole through one of ``stores`` (a thread each, taking the
    next log when done with one: the client reads and sends one log while the server stores
    another's batch). Logs of one key (copies of a log, its identity included) go up one
    after the other through one store, as they would alone: the later one then sees what the
    earlier stored and is told apart (:meth:`TeamStore.upload`). Logs of different keys never
    meet in ``access_log``; their rollup sums may (two logs of one skill), which uploads of
    many machines at once already share (each batch updates its keys in one order). Each
    log's :class:`LogUpload` goes in ``done`` by its index in ``paths``. The first store error
    or a Ctrl-C ends each connection after the batch it is storing (:attr:`TeamStore.halt`),
    the workers joined before it is raised (:func:`_joined`)."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Event, Lock

    from skillc_stats._team import LogUpload

    same_key: dict[str, list[tuple[int, Path, LogKey]]] = {}
    for index, path in enumerate(paths):
        try:
            key = log_key(path, layout)
        except sqlite3.Error as exc:
            done[index] = _unreadable(path, exc)
            continue
        if key is None:
            done[index] = LogUpload(str(path), 0)
        else:
            same_key.setdefault(key.key, []).append((index, path, key))
    pending, taking, halt = iter(same_key.values()), Lock(), Event()
    for store in stores:
        store.halt = halt  # (one for all: an error or a Ctrl-C ends each after its batch)

    def work(store: TeamStore) -> None:
        try:
            while not halt.is_set():
                with taking:
                    logs = next(pending, None)
                if logs is None:
                    return
                for index, path, key in logs:
                    if halt.is_set():
                        return
                    done[index] = _upload_one(store, path, key, machine, user)
        except BaseException:  # an error: the others end after their batch
            halt.set()
            raise

    futures: list[Future[None]] = []
    with ThreadPoolExecutor(len(stores)) as pool:  # (one store too: no Ctrl-C in a batch)
        try:
            for store in stores:
                futures.append(pool.submit(work, store))
            for future in futures:
                future.result()
        except BaseException:  # a Ctrl-C here too: the workers end after their batch
            halt.set()
            _joined(futures, stores)
            raise


def _joined(futures: list[Future[None]], stores: list[TeamStore]) -> None:
    """Wait until every worker has ended (after the batch it is storing), a further Ctrl-C
    deferred: it cancels the statements the connections run (:meth:`TeamStore.cancel`: their
    batches rolled back, not counted; a lock waited for, a server slow to answer) and the
    wait goes on. A Ctrl-C is deferred in the main thread only (the only one Python gives
    signals to; another one waiting receives none)."""
    import signal
    import threading
    from concurrent.futures import wait

    again = threading.Event()
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda *_: again.set()) if main else None
    try:
        while wait(futures, timeout=0.05).not_done:
            if again.is_set():
                again.clear()
                for store in stores:
                    store.cancel()
    finally:
        if main:  # (None: a handler not set from Python; Python's own then)
            signal.signal(
                signal.SIGINT, previous if previous is not None else signal.default_int_handler
            )


def _upload_one(store: TeamStore, path: Path, key: LogKey, machine: str, user: str) -> LogUpload:
    """One log uploaded (:meth:`TeamStore.upload`); a log that cannot be read reported."""
    from skillc_stats._team import LogUpload

    try:
        added, renewed, refused = store.upload(path, key, machine, user)
    except sqlite3.Error as exc:
        return _unreadable(path, exc)
    return LogUpload(str(path), added, None, renewed, refused)


def _unreadable(path: Path, exc: sqlite3.Error) -> LogUpload:
    from skillc_stats._team import LogUpload

    return LogUpload(str(path), 0, UnreadableFile(str(path), str(exc), "access log"))
