"""Helpers shared by the stress tests and by bench/fuzz.py and bench/large_inputs.py (plain
functions; the fixtures are in conftest.py).

Everything here drives real things: files on disk, SQLite databases, ``skc`` subprocesses.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from skillc_index import MarkdownDoc

#: Safety net against a hung process; never a timing assertion.
TIMEOUT = 600

#: One diagnostic line as RFC-0005 formats it.
DIAGNOSTIC = re.compile(r"^(error|warning)\[[EW]\d{3}\]: ")
#: Lines a diagnostic may carry after its first (hints, E020 suggestions, usage help).
DETAIL_LINES = ("hint: ", "Did you mean", "  - ", "Try '")


def skill_md(name: str, description: str, body: str) -> str:
    """A SKILL.md with plain (double-quoted) frontmatter values and ``body`` after it."""
    return f'---\nname: "{name}"\ndescription: "{description}"\n---\n{body}'


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Create ``root`` and the files of ``files`` (relative path -> text or bytes) under it."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def age_files(root: Path, seconds: float = 60) -> None:
    """Set every file's modification time ``seconds`` back. A build waits until its sources
    are at least 100 ms old (stats recorded closer to a write prove nothing); tests that
    build hundreds of generated skills skip that wait this way."""
    past = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.utime(path, (past, past))


class Measured(NamedTuple):
    """A finished child process and what it cost (``max_rss_kb`` is its peak resident set)."""

    returncode: int
    stdout: str
    stderr: str
    max_rss_kb: int
    seconds: float


# Linux keeps a process's peak RSS across exec, and a forked child starts with its parent's
# pages: measured directly, every child of a 50 MB test runner would "use" 50 MB. So a
# small launcher (python -S, about 8 MB) forks the command and reports that child's peak.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_pid, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) % 256)
"""


def run_measured(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float = TIMEOUT,
    python: str = sys.executable,
) -> Measured:
    """Run ``argv`` (``argv[0]`` a path) to completion; its wall time and peak RSS.

    Output goes to temporary files, not pipes, so a large output never blocks the child.
    """
    with tempfile.TemporaryDirectory() as folder:
        rss_file = Path(folder) / "rss"
        out_file, err_file = Path(folder) / "out", Path(folder) / "err"
        with out_file.open("wb") as out, err_file.open("wb") as err:
            start = time.perf_counter()
            proc = subprocess.run(
                [python, "-S", "-c", _LAUNCHER, str(rss_file), *argv],
                cwd=cwd,
                env=dict(env),
                stdout=out,
                stderr=err,
                timeout=timeout,
                check=False,
            )
            seconds = time.perf_counter() - start
        return Measured(
            proc.returncode,
            out_file.read_bytes().decode("utf-8", "replace"),
            err_file.read_bytes().decode("utf-8", "replace"),
            int(rss_file.read_text() or 0) if rss_file.exists() else 0,
            seconds,
        )


def assert_clean_failure(
    proc: subprocess.CompletedProcess[str] | Measured, code: str | None = None
) -> None:
    """Exit 1 with diagnostics only: every stderr line is ``error[...]``/``warning[...]`` (or a
    ``hint:`` line), at least one error, no traceback; ``code`` is the first error's code."""
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines, "no diagnostic on stderr"
    for line in lines:
        assert DIAGNOSTIC.match(line) or line.startswith(DETAIL_LINES), proc.stderr
    errors = [line for line in lines if line.startswith("error[")]
    assert errors, proc.stderr
    if code is not None:
        assert errors[0].startswith(f"error[{code}]: "), proc.stderr


def assert_ok(proc: subprocess.CompletedProcess[str] | Measured) -> None:
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr


def count_rows(database: Path) -> int:
    """Rows of ``access_log`` in a log database (0 when the file does not exist)."""
    if not database.exists():
        return 0
    with closing(sqlite3.connect(database, timeout=30)) as connection:
        return int(connection.execute("SELECT count(*) FROM access_log").fetchone()[0])


def tree_snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones included) by relative path, with its bytes;
    symlinks as ``-> target``."""
    found: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = b"-> " + str(path.readlink()).encode()
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def check_headings(doc: MarkdownDoc) -> None:
    """RFC-0004 / DECISIONS: sections run from a heading to the next heading of the same or a
    higher level, or EOF+1; they nest properly and lie inside the file and after the
    frontmatter."""
    headings = doc.headings
    count = doc.line_count
    body_start = doc.frontmatter.body_start if doc.frontmatter.end_line else 1
    for index, heading in enumerate(headings):
        assert 1 <= heading.level <= 6
        assert body_start <= heading.line <= count
        assert heading.line < heading.end_line <= count + 1
        assert "\n" not in heading.text and heading.text == heading.text.strip()
        later = headings[index + 1 :]
        if index + 1 < len(headings):
            assert later[0].line > heading.line  # strictly increasing lines
        closing_heading = next((h for h in later if h.level <= heading.level), None)
        expected_end = count + 1 if closing_heading is None else closing_heading.line
        assert heading.end_line == expected_end
        for other in later:  # nested (inside) or disjoint (after), never overlapping
            if other.line < heading.end_line:
                assert other.level > heading.level and other.end_line <= heading.end_line
            else:
                assert other.line >= heading.end_line
    for link in doc.links:
        assert 1 <= link.line <= max(count, 1)


def mcp_available(skc: Path, env: Mapping[str, str], cwd: Path) -> bool:
    """Whether the installed ``skc`` has the ``mcp`` command."""
    probe = subprocess.run(
        [str(skc), "mcp", "--help"], cwd=cwd, env=dict(env), capture_output=True, check=False
    )
    return probe.returncode == 0


def vm_rss_kb(pid: int) -> int:
    """The resident set of a running process (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


class McpClient:
    """``skc mcp`` as a subprocess, spoken to over its real stdin/stdout: one JSON-RPC
    message per line, one request at a time. Its lines are read by a thread of their own,
    so that a server that stops answering fails the test (:meth:`line`) instead of hanging
    the run."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], stderr: Path) -> None:
        self._stderr = stderr.open("wb")
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        self._lines: SimpleQueue[bytes] = SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in self.process.stdout:
                self._lines.put(line)
        self._lines.put(b"")  # the end of stdout

    def line(self, seconds: float = 60) -> bytes:
        """The server's next line (``b""`` once stdout is closed); the server is killed and
        the test fails when none comes within ``seconds``."""
        try:
            return self._lines.get(timeout=seconds)
        except Empty:
            self.process.kill()
            raise AssertionError(f"no line from the MCP server within {seconds} s") from None

    def request(self, ident: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        line = self.line()
        assert line, f"the server closed stdout after request {ident}"
        answer: dict[str, Any] = json.loads(line)
        assert answer.get("id") == ident, answer
        return answer

    def initialize(self) -> dict[str, Any]:
        """The ``initialize`` handshake (protocol revision 2025-06-18); its result."""
        params = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "skillc-stress", "version": "0"},
        }
        answer = self.request(1, "initialize", params)
        assert "result" in answer, answer
        self.notify("notifications/initialized")
        result: dict[str, Any] = answer["result"]
        return result

    def call(self, ident: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """One ``tools/call``: its result (``isError`` results included)."""
        answer = self.request(ident, "tools/call", {"name": tool, "arguments": arguments})
        assert isinstance(answer.get("result"), dict), answer
        result: dict[str, Any] = answer["result"]
        return result

    def notify(self, method: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.process.stdin.flush()

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        self._stderr.close()
        return code
