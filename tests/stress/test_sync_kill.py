"""SIGKILL during ``skc sync`` (issue 9, RFC-0007:C-SYNC): whenever the sync dies, no access
row is lost and none is doubled; the next sync finishes the job.

The fallback log is filled with 100,000 rows by skillc's own log writer (a real SQLite
database, as commands in a read-only sandbox leave it), one in ten of them an exact copy of
another (two identical accesses in the same second must stay two rows). Then ``skc sync``
is started and killed after a delay that grows each round, until a sync finishes by itself.
After every kill:

- the primary log passes ``PRAGMA integrity_check``;
- no row is in the primary log more often than it was logged (nothing doubled);
- every row logged is in the primary log or still in the fallback log (nothing lost).

The 100,000-row log is the long suite (``long``); the default run kills a sync of 10,000
rows the same way (smoke).

Skipped when the installed ``skc`` has no ``sync`` command.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest
from stress_support import assert_ok

#: Rows in the fallback log: the long suite's, and the smoke size of every change.
FULL = 100_000
SMOKE = 10_000
IDENTITY = "timestamp, run_id, command, skill, skill_path, cwd, args, error"
MAX_ROUNDS = 40


def identities(database: Path) -> Counter[tuple[object, ...]]:
    if not database.exists():
        return Counter()
    with closing(sqlite3.connect(database, timeout=30)) as connection:
        return Counter(connection.execute(f"SELECT {IDENTITY} FROM access_log"))


def integrity(database: Path) -> str:
    with closing(sqlite3.connect(database, timeout=30)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.fixture
def sync_available(skc_path: Path, clean_env: dict[str, str], project: Path) -> None:
    proc = subprocess.run(
        [str(skc_path), "sync", "--help"],
        cwd=project,
        env=clean_env,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        pytest.skip("the installed skc has no 'sync' command (skillc-stats without sync)")


@pytest.mark.parametrize(
    "rows",
    [pytest.param(SMOKE, id="smoke"), pytest.param(FULL, id="long", marks=pytest.mark.long)],
)
def test_sigkill_during_sync_loses_and_doubles_nothing(
    sync_available: None,
    ok: object,
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    demo: Path,
    runtime: Path,
    rows: int,
) -> None:
    from skillc_index import Layout, resolve_skill
    from skillc_index.accesslog import AccessRecord, fallback_log, insert

    layout = Layout.discover(cwd=project, env=clean_env)
    skill = resolve_skill("demo", layout)
    unique = [
        AccessRecord(
            "show" if number % 3 else "search",
            "demo",
            str(skill.source),
            str(project),
            {"section": f"s{number}"},
            None if number % 7 else "error[E020]: section not found: 'x'",
            f"2026-01-01T{number // 3600 % 24:02d}:{number // 60 % 60:02d}:{number % 60:02d}Z",
            "run-sync-stress",
        )
        for number in range(rows - rows // 10)
    ]
    records = unique + unique[::9][: rows // 10]  # one row in ten logged twice, identically
    fallback = fallback_log(layout, "demo")
    insert(fallback, records)
    primary = runtime / ".skillc-meta" / "logs.db"
    logged = identities(primary) + identities(fallback)
    assert sum(logged.values()) == rows + sum(identities(primary).values())
    assert max(identities(fallback).values()) == 2  # the exact copies are there

    killed = 0
    finished = False
    delay = 0.02
    for _round in range(MAX_ROUNDS):
        child = subprocess.Popen(
            [str(skc_path), "sync"],
            cwd=project,
            env=clean_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(delay)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            killed += 1
        out, err = child.communicate(timeout=300)
        if child.returncode == 0:
            finished = True
        else:
            assert child.returncode == -signal.SIGKILL, (child.returncode, out, err)
        in_primary = identities(primary)
        remaining = identities(fallback)
        assert integrity(primary) == "ok"
        doubled = in_primary - logged
        assert not doubled, f"{sum(doubled.values())} rows doubled after {delay:.2f} s"
        lost = logged - (in_primary | remaining)
        assert not lost, f"{sum(lost.values())} rows lost after {delay:.2f} s"
        if finished:
            break
        delay *= 1.4
    print(f"\nsync: {rows} rows, killed {killed} times (last kill after {delay / 1.4:.2f} s)")
    assert finished, f"no sync finished in {MAX_ROUNDS} rounds"
    assert killed >= 3, "the sync was never killed while working: make the log bigger"
    assert identities(primary) == logged  # everything home, exactly once
    assert not fallback.exists()
    assert_ok(
        subprocess.run(
            [str(skc_path), "sync"],
            cwd=project,
            env=clean_env,
            capture_output=True,
            text=True,
            check=False,
        )
    )
    assert identities(primary) == logged  # a further sync adds nothing
