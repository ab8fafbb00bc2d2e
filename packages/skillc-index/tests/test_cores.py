"""A pool's worker processes end with the process that started them
(:func:`skillc_index.cores.end_with_parent`): a parent killed (SIGTERM, SIGKILL: a supervisor,
an editor, ``Popen.terminate()``) left its idle workers running for ever."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def workers_left(code: str, cwd: Path | None = None, seconds: float = 10) -> list[int]:
    """Run ``code`` (it prints its pool workers' pids on one line, then waits), SIGKILL it
    alone (not its group), and return the workers still running ``seconds`` later. Every
    process it left is killed at the end (its own session)."""
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        workers = [int(pid) for pid in line.split()]
        assert workers, process.communicate(timeout=60)[1]
        process.kill()
        process.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(_running(pid) for pid in workers):
            time.sleep(0.05)
        return [pid for pid in workers if _running(pid)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


POOL = (
    "import multiprocessing, time\n"
    "from concurrent.futures import ProcessPoolExecutor\n"
    "import skillc_index.cores as cores\n"
    "{before}"
    "pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context({method!r}),\n"
    "                           initializer=cores.end_with_parent)\n"
    "list(pool.map(abs, range(4)))\n"
    "print(*(p.pid for p in multiprocessing.active_children()), flush=True)\n"
    "time.sleep(120)\n"
)


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_a_killed_parent_leaves_no_worker(method: str) -> None:
    """Whatever the start method: on Linux the kernel kills a worker the parent forked or
    spawned itself (PR_SET_PDEATHSIG); a forkserver's workers (their parent the forkserver,
    which they keep alive) end by the thread waiting for the parent's end."""
    assert workers_left(POOL.format(before="", method=method)) == []


def test_without_the_kernel_s_help_a_thread_ends_the_worker() -> None:
    """Where there is no prctl (macOS, Windows) a daemon thread waits for the parent's end."""
    before = "cores._killed_with_parent = lambda: False  # inherited by the fork\n"
    assert workers_left(POOL.format(before=before, method="fork")) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc")
def test_a_zombie_is_not_a_process_that_runs() -> None:
    """A killed build's staging folder stayed for good when its pid was a zombie's (ended,
    not reaped: a container whose init reaps nothing): ``os.kill(pid, 0)`` succeeds for it.
    ``running`` says no to it (its state, :func:`process_state`, is ``Z``)."""
    from skillc_index.cores import process_state, running

    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        assert running(child.pid)
        assert process_state(child.pid) in ("R", "S")
    finally:
        assert child.stdin is not None
        child.stdin.close()
    deadline = time.monotonic() + 30
    while process_state(child.pid) != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(child.pid, 0)  # a zombie: there for kill()
    assert not running(child.pid)
    child.wait()
    assert not running(child.pid) and process_state(child.pid) is None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc")
def test_process_state_reads_past_a_name_with_spaces_and_parentheses() -> None:
    """The state is the field after the process's name, which may hold ``) (`` and spaces:
    the one reader of ``/proc/<pid>/stat`` for the kit (the gateway's stopped find server
    asks it too). A process stopped (SIGSTOP) is ``T``."""
    import signal

    from skillc_index.cores import process_state

    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import ctypes, sys; ctypes.CDLL(None).prctl(15, b'a) (b Z x', 0, 0, 0);"
            " print(flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        child.stdout.readline()
        assert b") (" in Path(f"/proc/{child.pid}/stat").read_bytes()
        assert process_state(child.pid) in ("R", "S")
        os.kill(child.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 30
        while process_state(child.pid) != "T":
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        child.kill()
        child.communicate()
