"""``claim_lock`` and what takes the find-server lock in the gap of its last try (review s50):
``flock`` converts a shared lock into an exclusive one by letting it go first, so a server
starting, or a client's look, may take the lock in between. Real locks on a real file; the
gap is made at the instant of the conversion by a wrapper of ``fcntl.flock`` (the kernel's
timing decides it otherwise), and the lock is held shared by another open file meanwhile
(another program's ``flock -s``), so every other step is the kernel's."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skillc_gateway.catalog import client
from skillc_gateway.catalog.client import claim_lock
from skillc_index import FindServerError

fcntl = pytest.importorskip("fcntl")


@pytest.fixture
def lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, int, int]]:
    """The lock file, the claimer's descriptor and another program's, which holds it shared
    (the probe shortened: its length is no concern here)."""
    monkeypatch.setattr(client, "PROBE_SECONDS", 0.05)
    monkeypatch.setattr(client, "RETRY_SECONDS", 0.5, raising=False)
    path = tmp_path / "find.lock"
    path.write_bytes(b"")
    fds = os.open(path, os.O_RDWR), os.open(path, os.O_RDONLY)
    fcntl.flock(fds[1], fcntl.LOCK_SH)
    try:
        yield path, fds[0], fds[1]
    finally:
        for fd in fds:
            os.close(fd)


def in_the_gap(
    monkeypatch: pytest.MonkeyPatch,
    fd: int,
    gap: Callable[[], None],
    after: Callable[[], None] = lambda: None,
) -> Callable[[], None]:
    """Run ``gap`` at the instant ``fd``'s shared lock is converted (its first exclusive try
    right after a shared lock had), as the kernel lets the shared lock go, and ``after`` as
    ``fd`` next lets go of its lock; returns a check that both ran."""
    real = fcntl.flock
    state = {"shared": False, "ran": False, "after": False}

    def flock(target: int, operation: int) -> None:
        if target == fd and operation & fcntl.LOCK_EX and state["shared"] and not state["ran"]:
            real(fd, fcntl.LOCK_UN)  # what the conversion does first
            state["ran"] = True
            gap()
        elif target == fd and operation == fcntl.LOCK_UN and state["ran"] and not state["after"]:
            state["after"] = True
            after()
        real(target, operation)
        if target == fd:
            state["shared"] = bool(operation & fcntl.LOCK_SH)

    monkeypatch.setattr(fcntl, "flock", flock)

    def ran() -> None:
        assert state["ran"], "the conversion was never tried"
        assert state["after"], "the claimer never let go after it"

    return ran


def test_a_server_taking_the_lock_in_the_gap_already_runs(
    lock: tuple[Path, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other program lets go and a server takes the lock exclusively in the gap: it was
    "another process (no find server) has held it shared", though a server runs; it is
    BlockingIOError (E060 "already runs"), as when the lock is held exclusively at once."""
    path, fd, other = lock
    server = os.open(path, os.O_RDWR)
    try:

        def server_starts() -> None:
            fcntl.flock(other, fcntl.LOCK_UN)
            fcntl.flock(server, fcntl.LOCK_EX | fcntl.LOCK_NB)

        ran = in_the_gap(monkeypatch, fd, server_starts)
        with pytest.raises(BlockingIOError):
            claim_lock(fd, path)
        ran()
    finally:
        os.close(server)


def test_a_clients_look_in_the_gap_is_waited_for(
    lock: tuple[Path, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other program lets go and a client's look takes the lock shared in the gap, then
    lets it go: the lock is waited for again and had (it was "another process has held it
    shared")."""
    path, fd, other = lock
    look = os.open(path, os.O_RDONLY)
    try:

        def client_looks() -> None:
            fcntl.flock(other, fcntl.LOCK_UN)
            fcntl.flock(look, fcntl.LOCK_SH | fcntl.LOCK_NB)

        def look_ends() -> None:
            fcntl.flock(look, fcntl.LOCK_UN)

        ran = in_the_gap(monkeypatch, fd, client_looks, look_ends)
        claim_lock(fd, path)
        ran()
        probe = os.open(path, os.O_RDONLY)
        try:  # held exclusively by the claimer: no shared lock for anyone
            with pytest.raises(BlockingIOError):
                fcntl.flock(probe, fcntl.LOCK_SH | fcntl.LOCK_NB)
        finally:
            os.close(probe)
    finally:
        os.close(look)


def test_a_lock_held_shared_throughout_is_another_programs(
    lock: tuple[Path, int, int],
) -> None:
    """Held shared by the other program all along (no gap made): FindServerError naming it,
    after the retry too; the claimer holds nothing after."""
    path, fd, other = lock
    waited = client.PROBE_SECONDS + client.RETRY_SECONDS  # both tries: the real wait (0.55)
    with pytest.raises(FindServerError, match=rf"has held .* shared for over {waited:g} s:"):
        claim_lock(fd, path)
    fcntl.flock(other, fcntl.LOCK_UN)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the claimer left no lock behind
