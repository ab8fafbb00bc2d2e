"""The team store under load (issue 18): 8 machines upload 100,000 access rows each to one
PostgreSQL database at once while ``skc stats --all --from`` reads it; every row arrives
exactly once. An upload killed (SIGKILL) mid-way and started again doubles nothing.

Those full sizes are the long suite (``long``); the default run has the same tests at a
smoke size (3 machines, 50,000 rows: three upload batches each).

Each "machine" is a ``$SKILLC_HOME`` of its own, its runtime log filled by skillc's own log
writer, uploaded by the installed ``skc sync --to`` (a real process) as user ``user<i>``.
Every row is unique in its content (its ``args`` holds its number), so a row sent twice
under any key would show as a duplicate content, not only as a duplicate key. The server is
the ``postgres_url`` fixture of the checkout's conftest.py (a real PostgreSQL server).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path

import pytest
from stress_support import TIMEOUT

#: (machines, rows per machine): the long suite's size and the smoke size of every change.
FULL = (8, 100_000)
SMOKE = (3, 50_000)
SIZES = [
    pytest.param(SMOKE, id="smoke"),
    pytest.param(FULL, id="long", marks=pytest.mark.long),
]


@pytest.fixture(scope="module")
def template_logs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], Path]:
    """``template(rows)``: a runtime log of ``rows`` accesses, written once per size by
    skillc's log writer, to be copied to each machine (:func:`install_log`)."""
    made: dict[int, Path] = {}

    def template(rows: int) -> Path:
        if rows not in made:
            made[rows] = tmp_path_factory.mktemp(f"template{rows}") / "logs.db"
            fill(made[rows], "demo", rows)
        return made[rows]

    return template


def install_log(template: Path, home: Path, skill: str) -> None:
    """``template`` as the global runtime log of ``skill`` on the machine of ``home``: a log
    of its own, with its own identity (a log skillc made there would have its own; copies of
    one log that kept its identity are one log to the team store, told apart only once one
    of them has uploaded, see skillc-stats' test_team.py)."""
    from skillc_index.accesslog import connect
    from skillc_index.accesslog.identity import new_log_id

    folder = home / ".skillc" / "runtime" / skill / ".skillc-meta"
    folder.mkdir(parents=True)
    shutil.copyfile(template, folder / "logs.db")
    with closing(connect(folder / "logs.db")) as db:
        db.execute("UPDATE log_identity SET log_id = ? WHERE one = 1", (new_log_id(),))


def fill(log: Path, skill: str, rows: int) -> None:
    """``rows`` accesses of ``skill`` in the access log ``log``."""
    from skillc_index.accesslog import INSERT_ROW, connect

    with closing(connect(log)) as db:
        db.execute("BEGIN")
        db.executemany(
            INSERT_ROW,
            (
                (
                    f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:00:00Z",
                    f"run-{n // 100}",
                    "show" if n % 4 else "search",
                    skill,
                    f"/skills/{skill}",
                    f"/work/p{n % 7}",
                    json.dumps({"section": f"s{n}"}),
                    None,
                )
                for n in range(rows)
            ),
        )
        db.execute("COMMIT")


def team(url: str, sql: str) -> list[tuple[object, ...]]:
    import psycopg

    with psycopg.connect(url) as db:
        return db.execute(sql).fetchall()  # type: ignore[arg-type]


Command = tuple[list[str], Path, dict[str, str]]


def sync_to(skc_path: Path, url: str, home: Path, env: dict[str, str], user: str) -> Command:
    """``skc sync --to url`` as ``user`` on the machine whose home is ``home``: argv, working
    folder (no project: the global runtime logs are uploaded) and environment."""
    workdir = home / "work"
    workdir.mkdir(exist_ok=True)
    return (
        [str(skc_path), "sync", "--to", url],
        workdir,
        {**env, "SKILLC_HOME": str(home), "USER": user, "LOGNAME": user},
    )


@contextmanager
def started(commands: list[Command]) -> Iterator[list[subprocess.Popen[bytes]]]:
    """The commands started at once; any still running at the end killed (a failed
    assertion leaves no process and no open pipe behind)."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for argv, cwd, env in commands:
            processes.append(
                subprocess.Popen(
                    argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
                )
            )
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.communicate(timeout=TIMEOUT)


def rollup_sums(url: str) -> list[int]:
    """The rows each rollup of the store counts (issue 40: kept by the uploads)."""
    tables = (
        "usage_daily", "usage_months", "usage_weeks", "usage_folders", "usage_skills",
        "usage_targets", "usage_totals", "usage_skill_days",
    )  # fmt: skip
    found = team(
        url, f"SELECT {', '.join(f'(SELECT SUM(accesses) FROM skillc.{t})' for t in tables)}"
    )
    return [int(str(value)) for value in found[0]]


@pytest.mark.parametrize("size", SIZES)
def test_eight_uploads_at_once_while_stats_reads(
    postgres_url: str,
    skc_path: Path,
    clean_env: dict[str, str],
    tmp_path: Path,
    template_logs: Callable[[int], Path],
    size: tuple[int, int],
) -> None:
    machines, rows = size
    homes = []
    for i in range(machines):
        home = tmp_path / f"m{i}"
        install_log(template_logs(rows), home, "demo")
        homes.append(home)
    commands = [
        sync_to(skc_path, postgres_url, home, clean_env, f"user{i}") for i, home in enumerate(homes)
    ]
    reader_env = {**clean_env, "SKILLC_HOME": str(tmp_path / "reader")}
    (tmp_path / "reader").mkdir()
    seen: list[int] = []
    deadline = time.monotonic() + TIMEOUT
    with started(commands) as uploads:
        running = True
        while running:  # reads while the uploads run, and once after the last one ended
            assert time.monotonic() < deadline, "the uploads did not finish"
            running = any(upload.poll() is None for upload in uploads)
            read = subprocess.run(
                [str(skc_path), "stats", "--all", "--from", postgres_url, "--format", "json"],
                cwd=tmp_path / "reader",
                env=reader_env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
            if read.returncode == 1 and "no skillc team store" in read.stderr:
                continue  # before the first upload created the schema
            assert read.returncode == 0, read.stderr
            seen.append(sum(entry["uses"] for entry in json.loads(read.stdout)["data"]))
        for upload in uploads:
            out, err = upload.communicate(timeout=TIMEOUT)
            assert upload.returncode == 0, err.decode()
            assert out.decode().startswith(f"Uploaded {rows} entries from 1 log ")
    assert len(seen) > 2 and seen == sorted(seen)  # read during the uploads: never less
    assert seen[-1] == machines * rows
    total, keys, contents = team(
        postgres_url,
        "SELECT COUNT(*), COUNT(DISTINCT (log_key, source_id)), "
        "COUNT(DISTINCT (username, timestamp, run_id, skill, args)) FROM skillc.access_log",
    )[0]
    assert total == keys == contents == machines * rows
    assert rollup_sums(postgres_url) == [total] * 8  # each row counted once in each rollup
    per_user = team(
        postgres_url, "SELECT username, COUNT(*) FROM skillc.access_log GROUP BY 1 ORDER BY 1"
    )
    assert per_user == [(f"user{i}", rows) for i in range(machines)]


@pytest.mark.parametrize("size", SIZES)
def test_an_upload_killed_and_started_again_doubles_nothing(
    postgres_url: str,
    skc_path: Path,
    clean_env: dict[str, str],
    tmp_path: Path,
    template_logs: Callable[[int], Path],
    size: tuple[int, int],
) -> None:
    rows = size[1]
    home = tmp_path / "m"
    install_log(template_logs(rows), home, "demo")
    argv, cwd, env = sync_to(skc_path, postgres_url, home, clean_env, "killed")
    counts: list[int] = []
    for attempt in range(40):
        upload = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        # The first upload is killed early (before its first batch, or while it makes the
        # schema); each later one as soon as a batch more than before is stored: killed
        # between two batches whatever this machine's speed (a kill by timer alone missed
        # the window on a fast machine).
        kill_when_stored(upload, postgres_url, counts[-1] if attempt else None)
        upload.communicate(timeout=TIMEOUT)
        if upload.returncode == 0:
            break
        assert upload.returncode == -signal.SIGKILL
        total, contents = team(
            postgres_url,
            "SELECT COUNT(*), COUNT(DISTINCT args) FROM skillc.access_log"
            if _has_schema(postgres_url)
            else "SELECT 0, 0",
        )[0]
        assert total == contents <= rows  # whole batches, none twice
        if total:  # each batch counted in the rollups with its rows, in one transaction
            assert rollup_sums(postgres_url) == [total] * 8
        counts.append(int(str(total)))
    else:
        raise AssertionError(f"the upload never finished; rows after each kill: {counts}")
    assert any(0 < count < rows for count in counts), counts  # killed mid-upload at least once
    total, contents = team(
        postgres_url, "SELECT COUNT(*), COUNT(DISTINCT args) FROM skillc.access_log"
    )[0]
    assert total == contents == rows
    again = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert again.returncode == 0 and again.stdout.startswith("Uploaded 0 entries")


def kill_when_stored(upload: subprocess.Popen[bytes], url: str, above: int | None) -> None:
    """SIGKILL ``upload`` once the team store holds more than ``above`` access rows (after
    0.3 s when ``above`` is None), unless it has ended first. One connection polls every
    5 ms, so the kill lands within a few milliseconds of the batch's commit."""
    import psycopg

    if above is None:
        with suppress(subprocess.TimeoutExpired):
            upload.wait(timeout=0.3)
    else:
        deadline = time.monotonic() + TIMEOUT
        with psycopg.connect(url, autocommit=True) as db:
            while upload.poll() is None and time.monotonic() < deadline:
                if db.execute(HAS_LOG).fetchone() == (True,):
                    stored = db.execute("SELECT COUNT(*) FROM skillc.access_log").fetchone()
                    if stored is not None and stored[0] > above:
                        break
                time.sleep(0.005)
    if upload.poll() is None:
        os.kill(upload.pid, signal.SIGKILL)


#: Whether the team store's schema is made yet (the first upload makes it).
HAS_LOG = "SELECT to_regclass('skillc.access_log') IS NOT NULL"


def _has_schema(url: str) -> bool:
    return bool(team(url, HAS_LOG)[0][0])
