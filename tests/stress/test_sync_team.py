"""``skc sync --to`` as the user meets it: the installed ``skc`` against a real PostgreSQL
server (``postgres_url``), in the stress env, which installs the PostgreSQL driver
(``skc``'s own env has no ``psycopg``: ``sync --to`` is E044 there)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def _team_rows(url: str) -> int:
    """The rows the store holds (0 before the upload made it)."""
    import psycopg

    with psycopg.connect(url) as db:
        if db.execute("SELECT to_regclass('skillc.access_log')").fetchone() == (None,):
            return 0
        row = db.execute("SELECT count(*) FROM skillc.access_log").fetchone()
    return int(row[0]) if row else 0


def test_a_ctrl_c_of_skc_sync_to_names_skc_in_what_sends_the_rest(
    postgres_url: str,
    write_skill: Callable[..., Path],
    fill_access_log: Callable[[Path], Path],
    script_path: Callable[[str], Path],
    clean_env: dict[str, str],
    home: Path,
    project: Path,
) -> None:
    """A real SIGINT to ``skc sync --to`` once a batch of a 100k-row log is stored: exit 130,
    and the warning saying what was stored names the command to run again as the user ran
    it, ``skc sync --to`` (it said ``'sync --to'``, no program)."""
    write_skill(home / ".claude" / "skills" / "demo", body="## Usage\n\nUse it.\n")
    skc = str(script_path("skc"))
    used = subprocess.run(
        [skc, "outline", "demo"], cwd=project, env=clean_env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert used.returncode == 0, used.stderr
    logs = [
        path
        for path in home.rglob("*")
        if path.is_file() and path.read_bytes()[:16] == b"SQLite format 3\x00"
    ]
    fill_access_log(next(path for path in logs if _has_access_log(path)))
    process = subprocess.Popen(
        [skc, "sync", "--to", postgres_url], cwd=project, env=clean_env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while _team_rows(postgres_url) == 0 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    stored = _team_rows(postgres_url)
    assert process.returncode == 130, (out, err)
    assert 0 < stored < 100_000
    said = err.splitlines()[-1]
    assert said.startswith(f"warning: interrupted: {stored:,} entries stored in "), err
    assert said.endswith("; the next 'skc sync --to' sends the rest"), err


def _has_access_log(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        found = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_log'"
        ).fetchone()
    db.close()
    return found is not None


def test_skc_stats_from_an_older_store_names_skc_sync_to(
    postgres_url: str,
    write_skill: Callable[..., Path],
    script_path: Callable[[str], Path],
    clean_env: dict[str, str],
    home: Path,
    project: Path,
) -> None:
    """``skc stats SKILL --from URL`` on a store of an older schema (no upload migrating it)
    is E043 naming the upload to run as the user runs it, ``skc sync --to`` (under
    skillc-stats, ``skillc-stats sync --to``: that package's own tests)."""
    import psycopg

    write_skill(home / ".claude" / "skills" / "demo", body="## Usage\n\nUse it.\n")
    skc = str(script_path("skc"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [skc, *args], cwd=project, env=clean_env, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip

    assert run("outline", "demo").returncode == 0
    uploaded = run("sync", "--to", postgres_url)
    assert uploaded.returncode == 0, uploaded.stderr
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE skillc.schema_version SET version = version - 1")
    result = run("stats", "demo", "--from", postgres_url)
    assert result.returncode == 1 and result.stderr.startswith("error[E043]"), result.stderr
    assert result.stderr.rstrip("\n").endswith(": run 'skc sync --to' to migrate it"), result
