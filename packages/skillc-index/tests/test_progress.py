"""The build's progress bar (``progress.DelayedProgress``): on stderr, only on a terminal, and
only once the work has taken longer than the delay. Run in real subprocesses, with a real
pseudo-terminal as stderr."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys

import pytest

SCRIPT = """
import sys
from skillc_index.progress import DelayedProgress
with DelayedProgress("Indexing", delay=float(sys.argv[1])) as progress:
    for done in range(1, 51):
        progress(done, 50)
    print("after the work", file=sys.stderr, flush=True)
print("done")
"""

pty = pytest.importorskip("pty")


def run(delay: float, *, terminal: bool, columns: int = 0) -> tuple[str, str]:
    """(stdout, stderr) of the script, its stderr a pseudo-terminal (``columns`` wide when
    given) or a pipe."""
    if not terminal:
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(delay)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return proc.stdout, proc.stderr
    leader, follower = pty.openpty()
    if columns:
        import fcntl
        import termios

        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    try:
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(delay)],
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=60,
            check=True,
        )
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal was closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
        return proc.stdout.decode(), b"".join(chunks).decode("utf-8", "replace")
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)


def test_bar_on_a_terminal_after_the_delay() -> None:
    stdout, stderr = run(0.0, terminal=True)
    assert stdout == "done\n"
    assert "Indexing" in stderr


def test_the_bar_closes_when_the_work_is_done() -> None:
    """What the command prints once the work is done (the build's warnings, inside the
    ``with``) starts on a line of its own, not after the bar."""
    _, stderr = run(0.0, terminal=True)
    lines = stderr.replace("\r\n", "\n").split("\n")
    assert "after the work" in lines, repr(stderr)


def test_no_bar_before_the_delay() -> None:
    _, stderr = run(60.0, terminal=True)
    assert "Indexing" not in stderr


def test_no_bar_when_stderr_is_not_a_terminal() -> None:
    stdout, stderr = run(0.0, terminal=False)
    assert stdout == "done\n"
    assert stderr == "after the work\n"


@pytest.mark.parametrize(("columns", "drawn"), [(40, True), (30, False), (200, True)])
def test_the_bar_fits_the_terminal_or_is_not_drawn(columns: int, drawn: bool) -> None:
    """click's bar was 36 cells whatever the width: on a 40-column terminal its line wrapped,
    and each redraw (``\\r``, back to the start of the last row) left a row behind."""
    _, stderr = run(0.0, terminal=True, columns=columns)
    lines = re.split(r"[\r\n]+", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stderr))
    bars = [line.rstrip() for line in lines if line.startswith("Indexing")]
    assert bool(bars) == drawn, repr(stderr)
    assert all(len(line) < columns for line in bars), bars
    assert "after the work" in lines


def test_one_rule_sizes_every_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bar_cells``, the rule of build's bar and lint's: as many cells as fit below the
    terminal's last column, at most ``most``, none below ``least`` (it was written twice)."""
    from skillc_index import progress

    monkeypatch.setattr(progress, "stderr_columns", lambda: 40)
    assert progress.bar_cells(20, 5, 36) == 19  # 20 + 19 cells: one column spare
    assert progress.bar_cells(0, 5, 30) == 30
    assert progress.bar_cells(30, 10, 30) is None  # 9 cells fit: fewer than 10
    assert progress.bar_cells(29, 10, 30) == 10
