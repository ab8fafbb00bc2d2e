"""Load (issue 9): 16 concurrent readers (``skc show`` / ``skc search``) and one builder that
edits the sources and rebuilds the same skill, over and over (pausing a second after each
build), for 30 seconds.

Accepted answers, decided here:

- ``show`` exits 0 with exactly the Marker section of one of the versions written, or exits 1
  with exactly one ``error[E002]`` line. The builder edits the sources between builds; a
  reader that finds the index behind the sources builds it again on demand (the index is a
  cache, DECISIONS "Gateway and index") and answers from the sources, or, when they keep
  changing while it reads them, refuses with E002 and the reason, so that wrong lines are
  never served. Any other failure (another code, a traceback, wrong or partial content)
  fails the test.
- ``search`` exits 0 with every section of the skill that holds the word (the same number
  for every version: an index served half-built would have fewer), or one ``error[E002]``.
- Every build exits 0 (there is one builder; nothing else writes the runtime).
- The access log holds exactly one new row per command run: none lost, none doubled.

The loop is bounded by time (``SKILLC_LOAD_SECONDS``, default 30) and by count.

The same load runs on 4 long-running ``skc mcp`` servers (they keep index metadata and
headings in memory between calls), for 20 seconds.

A last test moves the shown section to other lines while readers run, to catch ``show``
reading a file that changed after its index check (a product bug this suite found, fixed:
``show`` now compares the file's stats with the index's after reading it).

Those durations are the long suite (``long``); the default run has each test for a few
seconds (smoke: 4 CLI readers for 6 seconds and two builds at least, the edits for 3, the MCP
servers for 5).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from stress_support import McpClient, count_rows, mcp_available, skill_md, write_tree

READERS = 16
SECONDS = float(os.environ.get("SKILLC_LOAD_SECONDS", "30"))
SMOKE_READERS = 4
MAX_COMMANDS_PER_READER = 400
MAX_BUILDS = 400
TIMEOUT = 300
#: Seconds between a build and the next edit.
PAUSE = 1.0

E002 = "error[E002]: search index unusable for 'load': "
"""How an accepted refusal starts (the reason follows)."""
VERSION = re.compile(r"ipsum v(\d+)")
REFERENCES = 20
PARTS = 60


def sources(version: int, shift: int = 0) -> dict[str, str]:
    """The skill at ``version``: SKILL.md's Marker section names the version (``shift`` blank
    lines above it move it down); 20 reference files of 60 sections mention ``lorem``."""
    body = "\n" * shift + f"# Load\n\n## Marker\n\nmarker v{version}\n\n## Other\n\nother\n"
    files = {"SKILL.md": skill_md("load", "Use when testing load.", body)}
    text = "".join(f"## Part {j}\n\nword{j} lorem ipsum v{version}\n\n" for j in range(PARTS))
    for number in range(REFERENCES):
        files[f"references/r{number:02d}.md"] = f"# Ref {number}\n\n{text}"
    return files


def marker(version: int) -> str:
    return f"## Marker\n\nmarker v{version}\n\n"


def save(source: Path, files: dict[str, str]) -> None:
    """Write the files that changed the way editors save: a new file renamed over the old."""
    for rel, text in files.items():
        path = source / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            temporary = path.with_name(f".{path.name}.tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(path)


class Outcome:
    """What the threads saw: a count per kind of answer and the first problems."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.problems: list[str] = []

    def add(self, kind: str, problem: str | None = None) -> None:
        with self.lock:
            key = kind if problem is None else f"{kind} BAD"
            self.counts[key] = self.counts.get(key, 0) + 1
            if problem is not None and len(self.problems) < 20:
                self.problems.append(f"{kind}: {problem}")

    def summary(self) -> str:
        return ", ".join(f"{kind}: {n}" for kind, n in sorted(self.counts.items()))


def refused_cleanly(proc: subprocess.CompletedProcess[str]) -> str | None:
    """None when a failed reader failed the accepted way (one E002 line), else the problem."""
    lines = proc.stderr.splitlines()
    if proc.returncode == 1 and len(lines) == 1 and lines[0].startswith(E002) and not proc.stdout:
        return None
    return f"exit {proc.returncode}, stderr {proc.stderr!r}, stdout {proc.stdout[:200]!r}"


@pytest.fixture
def load_skill(skc_path: Path, clean_env: dict[str, str], project: Path) -> Path:
    for args in (["init"], None, ["build", "load"]):
        if args is None:
            write_tree(project / ".skillc" / "skills" / "load", sources(0))
            continue
        subprocess.run(
            [str(skc_path), *args], cwd=project, env=clean_env, check=True, capture_output=True
        )
    return project / ".skillc" / "skills" / "load"


def runner(
    skc_path: Path, env: dict[str, str], cwd: Path
) -> Callable[..., subprocess.CompletedProcess[str]]:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(skc_path), *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=TIMEOUT,
            check=False,
        )

    return run


def run_threads(threads: list[threading.Thread], seconds: float) -> None:
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a command hung"


@pytest.mark.parametrize(
    "size",
    [
        pytest.param((6.0, SMOKE_READERS), id="smoke"),
        pytest.param((SECONDS, READERS), id="long", marks=pytest.mark.long),
    ],
)
def test_concurrent_readers_and_rebuilds(
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    load_skill: Path,
    size: tuple[float, int],
) -> None:
    seconds, readers = size
    run = runner(skc_path, clean_env, project)
    log = project / ".skillc" / "runtime" / "load" / ".skillc-meta" / "logs.db"
    fallback = project / ".skillc" / "logs" / "load" / ".skillc-meta" / "logs.db"
    rows_before = count_rows(log)
    sections = REFERENCES * (PARTS + 1)  # every reference section holds "lorem"

    written = {0}
    written_lock = threading.Lock()
    outcome = Outcome()
    deadline = time.monotonic() + seconds

    def show() -> None:
        proc = run("show", "load", "--section", "Marker")
        with written_lock:
            expected = {marker(v) for v in written}
        if proc.returncode:
            outcome.add("show E002", refused_cleanly(proc))
        else:
            good = proc.stdout in expected and not proc.stderr
            outcome.add("show ok", None if good else f"served {proc.stdout!r}")

    def search() -> None:
        proc = run("search", "load", "lorem", "--limit", "5000", "--format", "json")
        if proc.returncode:
            outcome.add("search E002", refused_cleanly(proc))
            return
        results = json.loads(proc.stdout)["results"]
        versions = {v for r in results for v in VERSION.findall(r["snippet"])}
        good = len(results) == sections and len(versions) == 1 and not proc.stderr
        outcome.add("search ok", None if good else f"{len(results)} results, {versions}")

    builds_over = threading.Event()

    def reader(number: int) -> None:
        for turn in range(MAX_COMMANDS_PER_READER):
            if time.monotonic() > deadline and builds_over.is_set():
                return
            (show if (number + turn) % 2 else search)()

    def builder() -> None:
        try:
            build_until_deadline()
        finally:
            builds_over.set()

    def build_until_deadline() -> None:
        # two builds at least, however slow a loaded machine makes them: the readers read
        # until the last one is over, so that each build meets readers
        version = 0
        while (time.monotonic() < deadline or version < 2) and version < MAX_BUILDS:
            version += 1
            with written_lock:
                written.add(version)
            save(load_skill, sources(version))
            proc = run("build", "load")
            good = proc.returncode == 0 and not proc.stderr
            outcome.add("build", None if good else f"exit {proc.returncode} {proc.stderr!r}")
            time.sleep(PAUSE)  # readers get a current index for a while, then the next edit

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(readers)]
    run_threads([*threads, threading.Thread(target=builder)], seconds)

    summary = outcome.summary()
    print(f"\nload: {summary}")
    assert not outcome.problems, "\n".join([summary, *outcome.problems])
    counts = outcome.counts
    assert counts.get("build", 0) >= 2 and counts.get("show ok") and counts.get("search ok"), (
        summary
    )
    commands = sum(counts.values())
    rows = count_rows(log) - rows_before
    assert not fallback.exists()  # every row reached the primary log
    assert rows == commands, f"{commands} commands, {rows} log rows ({summary})"
    final = run("show", "load", "--section", "Marker")
    assert (final.returncode, final.stdout) == (0, marker(max(written))), final


@pytest.mark.parametrize(
    "seconds",
    [
        pytest.param(3.0, id="smoke"),
        pytest.param(min(SECONDS, 20), id="long", marks=pytest.mark.long),
    ],
)
def test_show_never_serves_lines_of_another_version(
    skc_path: Path, clean_env: dict[str, str], project: Path, load_skill: Path, seconds: float
) -> None:
    """SKILL.md flips between version 0 and a version 1 whose Marker section sits three lines
    lower, while readers build its index on demand. Every ``show`` must print the Marker
    section of one version whole (never lines of one version read at the other's place) or
    refuse with E002 (the sources kept changing while they were indexed)."""
    run = runner(skc_path, clean_env, project)
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    original = sources(0)
    moved = sources(1, shift=3)

    def reader() -> None:
        while time.monotonic() < deadline:
            proc = run("show", "load", "--section", "Marker")
            if proc.returncode:
                outcome.add("show E002", refused_cleanly(proc))
            else:
                good = proc.stdout in (marker(0), marker(1))
                outcome.add("show ok", None if good else f"served {proc.stdout!r}")

    def editor() -> None:
        flip = False
        while time.monotonic() < deadline:
            flip = not flip
            save(load_skill, {"SKILL.md": (moved if flip else original)["SKILL.md"]})
            time.sleep(0.001)
        save(load_skill, original)

    run_threads(
        [*(threading.Thread(target=reader) for _ in range(8)), threading.Thread(target=editor)],
        seconds,
    )
    summary = outcome.summary()
    print(f"\nedits: {summary}")
    assert not outcome.problems, "\n".join([summary, *outcome.problems])


MCP_SERVERS = 4


@pytest.mark.parametrize(
    "seconds",
    [
        pytest.param(5.0, id="smoke"),
        pytest.param(min(SECONDS, 20), id="long", marks=pytest.mark.long),
    ],
)
def test_mcp_readers_during_rebuilds(
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    load_skill: Path,
    tmp_path: Path,
    seconds: float,
) -> None:
    """The same load on long-running MCP servers, which keep index metadata and headings in
    memory between calls: 4 ``skc mcp`` processes call ``skc_show`` and ``skc_search`` in
    turn while the builder edits and rebuilds. The same answers are accepted as from the CLI
    (the right content, or an E002 ``isError`` result); one log row per call."""
    if not mcp_available(skc_path, clean_env, project):
        pytest.skip("the installed skc has no 'mcp' command (skillc-mcp not installed)")
    run = runner(skc_path, clean_env, project)
    log = project / ".skillc" / "runtime" / "load" / ".skillc-meta" / "logs.db"
    rows_before = count_rows(log)
    sections = REFERENCES * (PARTS + 1)
    written = {0}
    written_lock = threading.Lock()
    outcome = Outcome()
    deadline = time.monotonic() + seconds

    def client(number: int) -> None:
        server = McpClient([str(skc_path), "mcp"], project, clean_env, tmp_path / f"mcp{number}")
        try:
            server.initialize()
            for turn in range(MAX_COMMANDS_PER_READER * 4):
                if time.monotonic() > deadline:
                    break
                if turn % 2:
                    result = server.call(
                        turn + 2, "skc_show", {"skill": "load", "section": "Marker"}
                    )
                    with written_lock:
                        expected = {marker(v) for v in written}
                    kind, good = (
                        "mcp show",
                        result.get("structuredContent", {}).get("content") in expected,
                    )
                else:
                    arguments = {"skill": "load", "query": "lorem", "limit": 5000}
                    result = server.call(turn + 2, "skc_search", arguments)
                    structured = result.get("structuredContent", {})
                    found = structured.get("results", [])
                    versions = {v for r in found for v in VERSION.findall(r["snippet"])}
                    # every section, or as many as the reply holds (cut with a warning): all
                    # of one version
                    whole = len(found) == sections or (
                        0 < len(found) < sections
                        and any(" cut at " in w for w in structured.get("warnings", []))
                    )
                    kind, good = "mcp search", whole and len(versions) == 1
                if result.get("isError"):
                    text = result["content"][0]["text"]
                    outcome.add(f"{kind} E002", None if text == E002 else repr(text))
                else:
                    outcome.add(f"{kind} ok", None if good else repr(result)[:300])
        finally:
            code = server.close()
            outcome.add("mcp exit", None if code == 0 else f"server exited {code}")

    def builder() -> None:
        version = 0
        while time.monotonic() < deadline and version < MAX_BUILDS:
            version += 1
            with written_lock:
                written.add(version)
            save(load_skill, sources(version))
            proc = run("build", "load")
            good = proc.returncode == 0 and not proc.stderr
            outcome.add("build", None if good else f"exit {proc.returncode} {proc.stderr!r}")
            time.sleep(PAUSE)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(MCP_SERVERS)]
    run_threads([*threads, threading.Thread(target=builder)], seconds)

    summary = outcome.summary()
    print(f"\nmcp load: {summary}")
    assert not outcome.problems, "\n".join([summary, *outcome.problems])
    counts = outcome.counts
    assert counts.get("mcp show ok") and counts.get("mcp search ok"), summary
    calls = sum(n for kind, n in counts.items() if kind.startswith(("mcp show", "mcp search")))
    rows = count_rows(log) - rows_before
    assert rows == calls + counts.get("build", 0), f"{calls} calls, {rows} log rows ({summary})"
