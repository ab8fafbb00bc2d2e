"""The access log (RFC-0007:C-LOGGING): schema, run ids, fallback, warnings, concurrency."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any
from unittest.mock import Mock

import pytest

from skillc_index import Layout, format_diagnostic
from skillc_index.accesslog import (
    INSERT_ROW,
    AccessRecord,
    FallbackLocked,
    ForeignLog,
    fallback_lock,
    fallback_log,
    hold_log,
    insert,
    log_access,
    new_run_id,
    open_log,
    primary_log,
    read_identity,
    renew_identity,
    settle_identity,
)
from skillc_index.accesslog.schema import COLUMNS, SCHEMA, NewerLog, check_schema, connect
from skillc_index.clock import utc_now

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def record(**changes: object) -> AccessRecord:
    values: dict[str, object] = {
        "command": "show",
        "skill": "rust",
        "skill_path": "/src/rust",
        "cwd": "/work",
        "args": {"section": "Install"},
    }
    values.update(changes)
    return AccessRecord(**values)  # type: ignore[arg-type]


def rows(path: Path) -> list[sqlite3.Row]:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    try:
        return db.execute("SELECT * FROM access_log ORDER BY id").fetchall()
    finally:
        db.close()


def test_timestamps_and_run_ids() -> None:
    assert RFC3339.match(utc_now())
    assert new_run_id({"SKC_RUN_ID": "session-7"}) == "session-7"
    # `@` ends a run id with a token's user (skc mcp --http): never one the run id names
    assert new_run_id({"SKC_RUN_ID": "nightly@ci.example.com"}) == "nightly%40ci.example.com"
    generated = new_run_id({})
    assert re.match(r"^\d{8}T\d{6}Z-[0-9a-f]{4}$", generated)


def test_row_goes_to_the_primary_log(layout: Layout, tmp_path: Path) -> None:
    runtime = tmp_path / "runtime" / "rust"
    outcome = log_access(layout, runtime, record(error="error[E020]: section not found: 'x'"))
    assert outcome.path == primary_log(runtime) == runtime / ".skillc-meta" / "logs.db"
    assert outcome.diagnostics == ()
    (row,) = rows(outcome.path)
    assert row["command"] == "show" and row["skill"] == "rust"
    assert json.loads(row["args"]) == {"section": "Install"}
    assert row["error"] == "error[E020]: section not found: 'x'"
    assert RFC3339.match(row["timestamp"])
    with closing(sqlite3.connect(outcome.path)) as db:
        columns = {r[1] for r in db.execute("PRAGMA table_info(access_log)")}
    assert columns == {
        "id",
        "timestamp",
        "run_id",
        "command",
        "skill",
        "skill_path",
        "cwd",
        "args",
        "error",
    }
    with closing(sqlite3.connect(outcome.path)) as db:
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_row_s_long_texts_are_cut(layout: Layout, tmp_path: Path) -> None:
    """An MCP tool call with a 900,000-character ``skill`` (or ``select`` item) wrote it
    whole into the row's ``args``, and its error too: 1 MB a call, 22 MB in twenty. Texts
    are cut to ``MAX_LOGGED_CHARS``; the longest a command takes (a section) stays whole."""
    from skillc_index.accesslog.store import MAX_LOGGED_CHARS

    section = "s" * MAX_LOGGED_CHARS
    args = {"skill": "x" * 900_000, "select": ["y" * 20_000, "S"], "section": section}
    runtime = tmp_path / "runtime" / "rust"
    outcome = log_access(layout, runtime, record(args=args, error="e" * 900_000))
    (row,) = rows(outcome.path)
    logged = json.loads(row["args"])
    assert logged["section"] == section and logged["select"][1] == "S"
    for text in (logged["skill"], logged["select"][0], row["error"]):
        assert len(text) == MAX_LOGGED_CHARS and text.endswith("\u2026")
    assert len(row["args"]) < 4 * MAX_LOGGED_CHARS


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_read_only_runtime_falls_back_to_cwd(layout: Layout, tmp_path: Path) -> None:
    runtime = tmp_path / "runtime" / "rust"
    runtime.mkdir(parents=True)
    runtime.chmod(0o500)
    try:
        outcome = log_access(layout, runtime, record())
    finally:
        runtime.chmod(0o700)
    assert outcome.path == fallback_log(layout, "rust")
    assert len(rows(outcome.path)) == 1


def test_a_log_that_cannot_be_written_gets_no_wal_and_shm_beside_it(
    layout: Layout, tmp_path: Path
) -> None:
    """A command that could not write ``logs.db`` (made read-only, or another user's in a
    shared home) had SQLite open it read-only and leave ``logs.db-wal`` and ``logs.db-shm``
    of its own, with the log's mode, beside it: the log's owner then could not write it
    again (rows to the fallback in silence, ``sync`` E041) until they were removed by hand.
    Now it writes to the fallback and reads the log without leaving anything, and once the
    log may be written again the next row is the log's. Run as a user would (root without
    its override of file permissions, under setpriv)."""
    import shutil

    runtime = tmp_path / "runtime" / "rust"
    log_access(layout, runtime, record())
    log = primary_log(runtime)
    code = (
        "import sys; from pathlib import Path; from skillc_index import Layout; "
        "from skillc_index.accesslog import AccessRecord, log_access, open_log\n"
        "runtime, cwd, home = map(Path, sys.argv[1:4])\n"
        "layout = Layout(cwd=cwd, home=home, project_root=None)\n"
        "row = AccessRecord('show', 'rust', '/src/rust', '/work', {})\n"
        "print(log_access(layout, runtime, row).path)\n"
        "open_log(runtime / '.skillc-meta' / 'logs.db').close()"
    )
    root = os.geteuid() == 0
    prefix = ("setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override")
    if root and not shutil.which("setpriv"):
        pytest.skip("no setpriv to run without root's override of permissions")
    run = [*(prefix if root else ()), sys.executable, "-c", code]
    run += [str(runtime), str(layout.cwd), str(layout.home)]
    log.chmod(0o444)
    try:
        done = subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)
    finally:
        log.chmod(0o644)
    assert (done.returncode, done.stdout) == (0, f"{fallback_log(layout, 'rust')}\n"), done.stderr
    assert [path.name for path in log.parent.iterdir()] == ["logs.db"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, f"{log}\n"), done.stderr
    assert len(rows(log)) == 2


def test_unwritable_primary_falls_back_to_cwd(layout: Layout, tmp_path: Path) -> None:
    # A file where the runtime folder should be: the primary cannot be created, even as root.
    blocker = tmp_path / "runtime"
    blocker.write_text("not a folder", encoding="utf-8")
    outcome = log_access(layout, blocker / "rust", record())
    assert outcome.path == layout.cwd / ".skillc" / "logs" / "rust" / ".skillc-meta" / "logs.db"
    assert len(rows(outcome.path)) == 1
    assert outcome.diagnostics == ()


def test_both_failing_is_w002_and_never_raises(tmp_path: Path, home: Path) -> None:
    blocker = tmp_path / "blocked"
    blocker.write_text("x", encoding="utf-8")
    layout = Layout(cwd=blocker, home=home, project_root=None)  # cwd is a file: no fallback
    outcome = log_access(layout, blocker / "rt", record())
    assert outcome.path is None
    assert [d.code for d in outcome.diagnostics] == ["W002"]


@pytest.mark.parametrize("queued", [True, False])
def test_w002_is_said_once_per_destination_by_a_queued_log(
    tmp_path: Path, home: Path, queued: bool
) -> None:
    """A log that cannot be written, its fallback neither (a read-only sandbox): the MCP
    server (a queued log) said W002 at every call; it says it once per log destination (the
    skill's runtime, and its fallback), and again once that destination was written since.
    Near miss: the CLI (not queued: one command) says it each time, as the spec's W002 is
    worded (unchanged)."""
    from skillc_index import ResolvedSkill
    from skillc_index.accesslog import AccessLog

    cwd = tmp_path / "cwd"
    cwd.write_text("a file: no fallback log under it", encoding="utf-8")
    layout = Layout(cwd=cwd, home=home, project_root=None)
    blocked = tmp_path / "runtimes"
    blocked.write_text("a file: no runtime under it", encoding="utf-8")
    rust = ResolvedSkill("rust", Path("/src/rust"), "global", blocked / "rust", True)
    go = ResolvedSkill("go", Path("/src/go"), "global", blocked / "go", True)
    warned: list[str] = []
    log = AccessLog(lambda found: warned.extend(map(format_diagnostic, found)), queued=queued)
    try:
        for skill in (rust, rust, go, rust):
            log.record(layout, skill, "show", {})
            log.flush()  # one write each: calls that pause
        said = len(warned)
        blocked.unlink()  # rust's runtime can be made: written, and not said
        log.record(layout, rust, "show", {})
        log.flush()
        assert len(warned) == said and len(rows(primary_log(rust.runtime))) == 1
        shutil.rmtree(blocked)
        blocked.write_text("blocked again", encoding="utf-8")
        log.record(layout, rust, "show", {})
        log.flush()
    finally:
        log.close()
    w002 = "warning[W002]: logging disabled; run 'skc sync' after session to merge logs"
    assert set(warned) == {w002}  # the spec's wording
    assert len(warned) == (3 if queued else 5)  # rust, go, rust again; else each time


def test_stale_fallback_logs_warn_w003(layout: Layout, tmp_path: Path) -> None:
    blocker = tmp_path / "runtime"
    blocker.write_text("x", encoding="utf-8")
    first = log_access(layout, blocker / "rust", record())
    assert first.path is not None
    old = time.time() - 2 * 3600
    os.utime(first.path, (old, old))
    second = log_access(layout, tmp_path / "writable" / "rust", record())
    assert [d.code for d in second.diagnostics] == ["W003"]
    assert second.path == primary_log(tmp_path / "writable" / "rust")


WRITER = """
import sys
from pathlib import Path
from skillc_index import Layout
from skillc_index.accesslog import AccessRecord, log_access

runtime, cwd, worker = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
layout = Layout(cwd=cwd, home=cwd, project_root=None)
failures = 0
for i in range(200):
    outcome = log_access(layout, runtime, AccessRecord(
        command="show", skill="rust", skill_path="/src/rust", cwd=str(cwd),
        args={"worker": worker, "i": i}, run_id=f"w{worker}"))
    failures += outcome.path is None  # given up (W002): a row lost
sys.exit(1 if failures else 0)
"""


def test_eight_concurrent_writers_lose_no_row(tmp_path: Path) -> None:
    """Eight processes log 200 rows each to one log: every row is kept once, in the log or,
    for a row whose writer waited past the primary's short busy timeout (a loaded CI machine
    deschedules the lock's holder), in the fallback ``sync`` merges (documented); none is
    given up."""
    runtime = tmp_path / "runtime" / "rust"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(runtime), str(tmp_path), str(n)])
        for n in range(8)
    ]
    assert [proc.wait(timeout=300) for proc in procs] == [0] * 8
    found = rows(primary_log(runtime))
    fallback = fallback_log(Layout(cwd=tmp_path, home=tmp_path, project_root=None), "rust")
    found += rows(fallback) if fallback.exists() else []
    assert len(found) == 1600
    pairs = {(json.loads(r["args"])["worker"], json.loads(r["args"])["i"]) for r in found}
    assert len(pairs) == 1600
    assert len(rows(primary_log(runtime))) > 800  # the log takes most of them


CREATOR = """
import sys
from pathlib import Path
from skillc_index.accesslog import AccessRecord, insert

folder, start = Path(sys.argv[1]), Path(sys.argv[2])
Path(f"{start}.{sys.argv[3]}").touch()  # ready
while not start.exists():
    pass
failures = 0
for n in range(200):
    try:
        insert(folder / str(n) / "logs.db", [AccessRecord("show", "rust", "/src/rust", "/work")])
    except Exception as exc:
        failures += 1
        print(repr(exc), file=sys.stderr)
sys.exit(failures)
"""


def test_processes_creating_the_same_log_at_once_all_write(tmp_path: Path) -> None:
    """Four processes create 200 new logs together, in the same order: every row is written
    (SQLite refuses one of two journal-mode switches at once without waiting)."""
    start = tmp_path / "start"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CREATOR, str(tmp_path / "logs"), str(start), str(n)]
        )
        for n in range(4)
    ]
    while not all(Path(f"{start}.{n}").exists() for n in range(4)):
        time.sleep(0.01)
    start.touch()  # all at once
    assert [proc.wait(timeout=300) for proc in procs] == [0] * 4
    assert all(len(rows(tmp_path / "logs" / str(n) / "logs.db")) == 4 for n in range(200))


def can_lock(folder: Path, *, exclusive: bool) -> bool:
    try:
        with fallback_lock(folder, exclusive=exclusive, timeout_ms=0):
            return True
    except FallbackLocked:
        return False


def test_the_fallback_lock_is_shared_by_writers_and_exclusive_for_sync(tmp_path: Path) -> None:
    with fallback_lock(tmp_path), fallback_lock(tmp_path, timeout_ms=0):  # two writers
        assert can_lock(tmp_path, exclusive=False)
        assert not can_lock(tmp_path, exclusive=True)  # sync waits for them
    with fallback_lock(tmp_path, exclusive=True, timeout_ms=None):  # sync
        assert not can_lock(tmp_path, exclusive=False)  # writers wait for it
    assert can_lock(tmp_path, exclusive=True)
    with fallback_lock(tmp_path / "missing"):  # no folder to lock: unlocked, no error
        pass


# -- issue 13: locked, foreign and misplaced logs ---------------------------------------------


@pytest.fixture
def project_layout(tmp_path: Path, home: Path) -> Layout:
    """Seen from ``<project>/src``: a subfolder of a project."""
    root = tmp_path / "project"
    (root / ".skillc" / "skills").mkdir(parents=True)
    (root / "src").mkdir()
    return Layout.discover(root / "src", {"SKILLC_HOME": str(home)})


def project_runtime(layout: Layout) -> Path:
    return layout.runtime_store("project") / "rust"


def root_fallback(layout: Layout) -> Path:
    assert layout.project_root is not None
    return layout.project_root / ".skillc" / "logs" / "rust" / ".skillc-meta" / "logs.db"


def test_a_locked_primary_falls_back_to_the_project_root(project_layout: Layout) -> None:
    runtime = project_runtime(project_layout)
    assert log_access(project_layout, runtime, record()).path == primary_log(runtime)
    holder = sqlite3.connect(primary_log(runtime), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process's long write transaction
        outcome = log_access(project_layout, runtime, record())
    finally:
        holder.close()
    assert outcome.path == root_fallback(project_layout) == fallback_log(project_layout, "rust")
    assert outcome.diagnostics == ()
    assert not (project_layout.cwd / ".skillc").exists()


@pytest.mark.parametrize("damage", ["random", "malformed"])
def test_a_damaged_runtime_log_is_said_once_with_what_to_do(
    project_layout: Layout, damage: str
) -> None:
    """A runtime log that is no database (or malformed) sent every row to the fallback log
    in silence: the first row says so, naming the damaged log and what to do; the later
    rows of the process do not say it again. The damaged log is left as it is."""
    runtime = project_runtime(project_layout)
    primary = log_access(project_layout, runtime, record()).path
    assert primary is not None
    if damage == "random":
        primary.write_bytes(os.urandom(8192))
    else:
        data = bytearray(primary.read_bytes())
        data[100:4096] = os.urandom(3996)  # its schema page
        primary.write_bytes(bytes(data))
    for extra in ("-wal", "-shm"):
        Path(f"{primary}{extra}").unlink(missing_ok=True)
    damaged = primary.read_bytes()
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path == root_fallback(project_layout)
    (notice,) = outcome.diagnostics
    text = format_diagnostic(notice)
    assert text.startswith(f"warning: access log '{primary}' is damaged (")
    assert "move it away (a new one is started), then `skc sync`" in text
    assert text.endswith(f"; logged to '{root_fallback(project_layout)}'")
    again = log_access(project_layout, runtime, record())
    assert (again.path, again.diagnostics) == (root_fallback(project_layout), ())
    assert len(rows(root_fallback(project_layout))) == 2
    assert primary.read_bytes() == damaged


FOREIGN = {
    "trigger": "CREATE TABLE pwned (x); CREATE TRIGGER t AFTER INSERT ON access_log "
    "BEGIN INSERT INTO pwned VALUES (1); END;",
    "view": "CREATE VIEW v AS SELECT 1",
    "table": "CREATE TABLE other (x)",
    "index": "CREATE INDEX idx_slow ON access_log(length(args))",
    "changed": "DROP INDEX idx_access_log_period; "
    "CREATE INDEX idx_access_log_period ON access_log(args)",
    "stat": "ANALYZE",
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_a_foreign_log_is_never_written(project_layout: Layout, kind: str) -> None:
    """Not skillc's schema: never written. Read only when nothing in it runs (no trigger, no
    view): see ``test_a_log_is_read_when_its_access_log_has_the_rfc_columns``."""
    runtime = project_runtime(project_layout)
    primary = log_access(project_layout, runtime, record()).path
    assert primary is not None
    db = sqlite3.connect(primary)
    try:
        db.executescript(FOREIGN[kind])
    finally:
        db.close()
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path == root_fallback(project_layout)
    (notice,) = outcome.diagnostics
    text = format_diagnostic(notice)
    assert text.startswith(f"warning: access log '{primary}' is not skillc's (")
    assert text.endswith(f"); logged to '{root_fallback(project_layout)}'")
    assert len(rows(primary)) == 1
    if kind == "trigger":
        with closing(sqlite3.connect(primary)) as db:
            assert db.execute("SELECT COUNT(*) FROM pwned").fetchone() == (0,)
    with pytest.raises(ForeignLog, match=r"^not skillc's schema \("):
        open_log(primary, own=True)
    if kind in ("trigger", "view"):
        with pytest.raises(ForeignLog, match=rf"^unsafe to read \({kind} '"):
            open_log(primary)
    else:
        open_log(primary).close()
    assert hold_log(project_layout, runtime) is None


def test_a_log_a_newer_skillc_wrote_says_so_and_is_never_written(project_layout: Layout) -> None:
    """A log with skillc's identity and a newer ``user_version`` was "not skillc's (table
    'access_log')": it says a newer skillc wrote it, and to upgrade; its rows go to the
    fallback. The same objects under a newer version but a trigger: the trigger is named."""
    runtime = project_runtime(project_layout)
    primary = log_access(project_layout, runtime, record()).path
    assert primary is not None
    with closing(sqlite3.connect(primary)) as db:
        db.executescript("CREATE TABLE future_notes (x); PRAGMA user_version = 9;")
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path == root_fallback(project_layout)
    (notice,) = outcome.diagnostics
    assert format_diagnostic(notice) == (
        f"warning: access log '{primary}' was written by a newer skillc (access log schema 9; "
        f"this skillc reads 6): upgrade skillc; logged to '{root_fallback(project_layout)}'"
    )
    assert len(rows(primary)) == 1
    with pytest.raises(ForeignLog, match=r"^written by a newer skillc \(access log schema 9;"):
        open_log(primary, own=True)
    open_log(primary).close()  # read as every log with the RFC's columns
    with closing(sqlite3.connect(primary)) as db:
        db.executescript(FOREIGN["trigger"])
    with pytest.raises(ForeignLog, match=r"^not skillc's schema \(trigger 't'\)"):
        open_log(primary, own=True)


def test_a_newer_log_with_this_versions_objects_is_never_written(project_layout: Layout) -> None:
    """The newer check ran only when a table or index differed: a log a newer skillc wrote
    (``user_version`` 7) with this version's very objects passed ``check_schema`` and was
    written, while ``sync`` refused it (E042). Refused for writing as ``sync`` refuses it."""
    runtime = project_runtime(project_layout)
    primary = log_access(project_layout, runtime, record()).path
    assert primary is not None
    with closing(sqlite3.connect(primary)) as db:
        db.execute("PRAGMA user_version = 7")
    with closing(sqlite3.connect(primary)) as db, pytest.raises(NewerLog):
        check_schema(db)
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path == root_fallback(project_layout)
    (notice,) = outcome.diagnostics
    assert "was written by a newer skillc (access log schema 7;" in format_diagnostic(notice)
    assert len(rows(primary)) == 1
    with pytest.raises(NewerLog):
        insert(primary, [record()])
    assert hold_log(project_layout, runtime) is None
    with closing(sqlite3.connect(primary)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (7,)


#: An access log as another RFC-0007 implementation could make it: its own SQL text, the
#: RFC's columns in another order and case plus its own, another table and index.
OTHER_IMPLEMENTATION = """
create table Access_Log (
  ID integer primary key autoincrement, Timestamp text not null, Run_Id text not null,
  Command text not null, Skill text not null, Skill_Path text not null, Cwd text not null,
  Args text not null default '{}', Error text, duration_ms integer, host text
);
create index by_skill on access_log (skill, timestamp);
create table meta (key text primary key, value text);
insert into access_log (timestamp, run_id, command, skill, skill_path, cwd, args, error,
  duration_ms, host) values
  ('2026-01-30T10:00:00Z', 'r1', 'show', 'rust', '/s/rust', '/w', '{"section": "A"}', null,
   12, 'h'),
  ('2026-01-30T10:00:01Z', 'r1', 'open', 'rust', '/s/rust', '/w', '{}', 'error[E021]: x',
   3, 'h');
"""


def test_a_log_is_read_when_its_access_log_has_the_rfc_columns(tmp_path: Path) -> None:
    """Issue 32: a log was read only if its schema text was byte for byte skillc's, so logs
    of other RFC-0007 implementations (which asks for "at minimum" these columns) were
    refused. Checked with ``PRAGMA table_xinfo`` now; only the RFC's columns are read; such a
    log is still never written."""
    path = tmp_path / "logs.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OTHER_IMPLEMENTATION)
    with closing(open_log(path)) as db:
        read = db.execute(f"SELECT {', '.join(COLUMNS)} FROM access_log ORDER BY id").fetchall()
    assert [row[2] for row in read] == ["show", "open"] and read[1][-1] == "error[E021]: x"
    with pytest.raises(ForeignLog, match=r"^not skillc's schema \(table 'Access_Log'\)$"):
        open_log(path, own=True)
    with pytest.raises(ForeignLog):
        insert(path, [record()])


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (
            "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END",
            "unsafe to read (trigger 't')",
        ),
        ("CREATE VIEW v AS SELECT 1", "unsafe to read (view 'v')"),
        (
            "ALTER TABLE access_log DROP COLUMN host; ALTER TABLE access_log DROP COLUMN cwd",
            "not an RFC-0007 access log (table 'access_log' has no column 'cwd')",
        ),
        (
            "ALTER TABLE access_log RENAME TO old; CREATE TABLE access_log (id INTEGER PRIMARY "
            "KEY, timestamp, run_id, command, skill, skill_path, cwd, "
            "args AS (zeroblob(100000000)), error)",
            "not an RFC-0007 access log (column 'access_log.args' is generated)",
        ),
        (
            "ALTER TABLE access_log RENAME TO old; CREATE TABLE access_log (id TEXT PRIMARY KEY, "
            "timestamp, run_id, command, skill, skill_path, cwd, args, error)",
            "not an RFC-0007 access log (column 'access_log.id' is not an INTEGER PRIMARY KEY)",
        ),
        (
            "ALTER TABLE access_log RENAME TO old; CREATE VIRTUAL TABLE access_log USING "
            "fts5(id, timestamp, run_id, command, skill, skill_path, cwd, args, error)",
            "not an RFC-0007 access log (virtual table 'access_log')",
        ),
    ],
)
def test_a_log_is_refused_when_something_in_it_would_run_or_a_column_is_missing(
    tmp_path: Path, script: str, reason: str
) -> None:
    path = tmp_path / "logs.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OTHER_IMPLEMENTATION + script)
    with pytest.raises(ForeignLog) as caught:
        open_log(path)
    assert str(caught.value) == reason


def test_an_older_skillc_log_is_still_skillcs(project_layout: Layout) -> None:
    """Version 1 had the table and the timestamp index only: it is migrated, not refused."""
    runtime = project_runtime(project_layout)
    primary = primary_log(runtime)
    primary.parent.mkdir(parents=True)
    db = sqlite3.connect(primary)
    try:
        for statement in SCHEMA[:2]:
            db.execute(statement)
        db.execute("PRAGMA user_version = 1")
    finally:
        db.close()
    assert log_access(project_layout, runtime, record()) == (primary, ())
    open_log(primary).close()


@pytest.mark.parametrize(
    "link", ["runtime", "runtime/rust", "runtime/rust/.skillc-meta", "logs.db", "logs.db-wal"]
)
def test_a_log_symlinked_out_of_the_project_is_not_written(
    project_layout: Layout, tmp_path: Path, link: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    runtime = project_runtime(project_layout)
    assert project_layout.project_root is not None
    if link.startswith("logs.db"):
        (runtime / ".skillc-meta").mkdir(parents=True)
        (runtime / ".skillc-meta" / link).symlink_to(outside / "victim")
    else:
        place = project_layout.project_root / ".skillc" / link
        place.parent.mkdir(parents=True, exist_ok=True)
        place.symlink_to(outside, target_is_directory=True)
    outcome = log_access(project_layout, runtime, record())
    assert list(outside.iterdir()) == []
    assert outcome.path == root_fallback(project_layout)
    assert [format_diagnostic(d) for d in outcome.diagnostics] == [
        f"warning: access log '{primary_log(runtime)}' lies outside the project; "
        f"logged to '{root_fallback(project_layout)}'"
    ]
    assert hold_log(project_layout, runtime) is None
    assert list(outside.iterdir()) == []


def test_a_global_runtime_stays_in_the_skillc_home(tmp_path: Path, home: Path) -> None:
    layout = Layout.discover(tmp_path, {"SKILLC_HOME": str(home)})
    outside = tmp_path / "outside"
    outside.mkdir()
    (home / ".skillc").mkdir()
    (home / ".skillc" / "runtime").symlink_to(outside, target_is_directory=True)
    outcome = log_access(layout, layout.runtime_store("global") / "rust", record())
    assert outcome.path == tmp_path / ".skillc" / "logs" / "rust" / ".skillc-meta" / "logs.db"
    assert "lies outside the skillc home" in format_diagnostic(outcome.diagnostics[0])
    assert list(outside.iterdir()) == []


def test_a_fallback_symlinked_out_is_not_written_either(
    project_layout: Layout, tmp_path: Path
) -> None:
    assert project_layout.project_root is not None
    outside = tmp_path / "outside"
    outside.mkdir()
    skillc = project_layout.project_root / ".skillc"
    (skillc / "runtime").write_text("not a folder", encoding="utf-8")
    (skillc / "logs").symlink_to(outside, target_is_directory=True)
    outcome = log_access(project_layout, project_runtime(project_layout), record())
    assert outcome.path is None and list(outside.iterdir()) == []
    [warning] = outcome.diagnostics  # no W002: sync refuses that log too
    assert format_diagnostic(warning).startswith("warning: this use was not logged: ")
    assert "lies outside the project" in format_diagnostic(warning)


def test_a_newer_fallback_gets_no_advice_to_sync(project_layout: Layout) -> None:
    """The primary log cannot be written and the fallback a newer skillc wrote: W002 said
    `run skc sync`, which refuses that log (E042). Said as a foreign fallback is: this use
    was not logged, and why; the fallback is left as it was."""
    assert project_layout.project_root is not None
    fallback = root_fallback(project_layout)
    runtime = project_runtime(project_layout)
    (project_layout.project_root / ".skillc" / "runtime").write_text("x", encoding="utf-8")
    fallback.parent.mkdir(parents=True)
    insert(fallback, [record()])
    with closing(sqlite3.connect(fallback)) as db:
        db.executescript("CREATE TABLE future_notes (x); PRAGMA user_version = 9;")
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path is None
    texts = [format_diagnostic(d) for d in outcome.diagnostics]
    assert not any("sync" in text for text in texts), texts
    (warning,) = texts
    assert warning.startswith("warning: this use was not logged: access log '"), warning
    assert warning.endswith(
        f"and access log '{fallback}' was written by a newer skillc (access log schema 9; "
        "this skillc reads 6): upgrade skillc"
    ), warning
    assert len(rows(fallback)) == 1


# -- the log's identity (issue 32) ----------------------------------------------------------


def test_each_log_holds_a_random_identity_of_its_own(tmp_path: Path) -> None:
    """Made with the schema: 128 random bits, never the machine's; the same for the log's
    whole life (rows pruned), another for every log."""
    one, two = tmp_path / "a" / "logs.db", tmp_path / "b" / "logs.db"
    insert(one, [record(), record()])
    insert(two, [record()])
    with closing(open_log(one)) as db:
        first = read_identity(db)
    with closing(open_log(two)) as db:
        second = read_identity(db)
    assert first is not None and second is not None
    assert re.fullmatch(r"[0-9a-f]{32}", first.log_id) and first.log_id != second.log_id
    assert (first.previous_id, first.previous_upto) == (None, 0)
    with closing(sqlite3.connect(one)) as db:
        db.execute("DELETE FROM access_log WHERE id = 1")
        db.commit()
    insert(one, [record()])
    with closing(open_log(one)) as db:
        assert read_identity(db) == first


def test_an_older_log_gains_an_identity_on_its_first_write(tmp_path: Path) -> None:
    """Its rows so far may be in a team store under the key derived before: ``previous_upto``
    says up to which id (``previous_id`` NULL: that older key)."""
    path = tmp_path / "logs.db"
    with closing(sqlite3.connect(path)) as db:
        for statement in SCHEMA:
            if "log_identity" not in statement:
                db.execute(statement)
        db.executemany(INSERT_ROW, [record().values() for _ in range(3)])
        db.execute("PRAGMA user_version = 3")
        db.commit()
    with closing(open_log(path)) as db:
        assert read_identity(db) is None
    insert(path, [record()])
    with closing(open_log(path)) as db:
        found = read_identity(db)
    assert found is not None and (found.previous_id, found.previous_upto) == (None, 3)


def test_a_log_identity_table_of_another_shape_is_no_identity(tmp_path: Path) -> None:
    """Another implementation's log with its own ``log_identity (log_id TEXT)``: ``sync``
    failed on it with E042 (``no such column: previous_id``) on every run. It is a log
    without an identity now: its rows are read and compared like any such log's."""
    from skillc_index.accesslog.merge import read_identities

    path = tmp_path / "logs.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(
            OTHER_IMPLEMENTATION + "CREATE TABLE log_identity (log_id TEXT);"
            "INSERT INTO log_identity VALUES ('other-tool-1');"
        )
    with closing(open_log(path)) as db:
        assert read_identity(db) is None
        read = read_identities(db)
    assert read.total == 2 and read.origin is None


def test_a_copy_is_renewed_once_and_settled(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    insert(path, [record(), record()])
    with closing(open_log(path)) as db:
        old = read_identity(db)
    assert old is not None
    with closing(connect(path)) as db:
        renewed = renew_identity(db, old.log_id)
        assert renewed is not None and renewed.log_id != old.log_id
        assert (renewed.previous_id, renewed.previous_upto) == (old.log_id, 2)
        assert renew_identity(db, old.log_id) == renewed  # another process renewed it first
        settle_identity(db, "not-its-id")
        assert read_identity(db) == renewed
        settle_identity(db, renewed.log_id)
        assert read_identity(db) == (renewed.log_id, None, 0)
        check_schema(db)  # still skillc's own schema: it raises otherwise


def test_a_queued_log_writes_when_the_calls_pause(
    project_layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MCP server's writer thread waits for the calls to pause, then writes every row
    waiting in one transaction (issue 32: a row written while the next call ran took half a
    ``skc_show``'s time from it); ``flush`` writes them at once. Every row is written, in
    order, and one logged alone is written without a flush."""
    from skillc_index import ResolvedSkill
    from skillc_index.accesslog import AccessLog, service, store

    runtime = project_runtime(project_layout)
    skill = ResolvedSkill("rust", Path("/src/rust"), "project", runtime, True)
    batches: list[int] = []
    real_insert = store.insert

    def insert(path: Path, records: list[AccessRecord], busy_timeout_ms: int = 0) -> None:
        batches.append(len(records))
        real_insert(path, records, busy_timeout_ms)

    monkeypatch.setattr(store, "insert", insert)
    # no pause, however slow this machine is, until the flush
    monkeypatch.setattr(service, "QUIET_SECONDS", 60.0)
    monkeypatch.setattr(service, "MAX_DELAY_SECONDS", 60.0)
    log = AccessLog(lambda _diagnostics: None, queued=True)
    for i in range(5):
        log.record(project_layout, skill, "show", {"i": i})
    log.flush()
    assert batches == [5]
    monkeypatch.setattr(service, "QUIET_SECONDS", 0.05)
    log.record(project_layout, skill, "show", {"i": 5})  # then a pause: written unasked
    for _ in range(600):
        if batches == [5, 1]:
            break
        time.sleep(0.05)
    assert batches == [5, 1]
    log.record(project_layout, skill, "show", {"i": 6})
    log.close()
    written = [json.loads(row["args"])["i"] for row in rows(primary_log(runtime))]
    assert written == list(range(7))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd")
@pytest.mark.parametrize("bound", ["HELD_LOGS", "RLIMIT_NOFILE"])
def test_a_queued_log_holds_a_bounded_set_of_logs_open(
    project_layout: Layout, monkeypatch: pytest.MonkeyPatch, bound: str
) -> None:
    """The MCP server's writer thread kept an idle connection open to every log it had
    written (about 4 descriptors each): 250 skills read under ``ulimit -n 1024`` and the
    server died of ``Too many open files``. It holds the :data:`HELD_LOGS` written last; the
    others are closed once their rows are written (their WAL checkpointed away), no row lost.
    Near miss: a log written again is the last written, not closed. Under a low descriptor
    limit it holds an eighth of it (``ulimit -n 64``: 16 held logs took every descriptor,
    and every later call failed): a soft limit of 32 holds 4, as ``HELD_LOGS = 4`` does."""
    import resource

    from skillc_index import ResolvedSkill
    from skillc_index.accesslog import AccessLog, service

    def open_logs() -> set[str]:
        names = set()
        for fd in Path("/proc/self/fd").iterdir():
            try:
                names.add(str(fd.readlink()))
            except OSError:  # closed since listed
                continue
        return {name for name in names if name.endswith("logs.db")}

    if bound == "HELD_LOGS":
        monkeypatch.setattr(service, "HELD_LOGS", 4, raising=False)
    else:
        monkeypatch.setattr(resource, "getrlimit", lambda _what: (32, 4096))
    store = project_layout.runtime_store("project")
    skills = [
        ResolvedSkill(f"s{i}", Path(f"/src/s{i}"), "project", store / f"s{i}", True)
        for i in range(12)
    ]
    log = AccessLog(lambda _diagnostics: None, queued=True)
    try:
        for skill in skills:
            log.record(project_layout, skill, "show", {})
            log.flush()  # one transaction per log, as calls that pause
        log.record(project_layout, skills[8], "show", {})  # the oldest held: the last now
        log.flush()
        log.record(project_layout, skills[0], "show", {})
        log.flush()
        held = open_logs() & {str(primary_log(skill.runtime)) for skill in skills}
        assert held == {str(primary_log(skills[i].runtime)) for i in (8, 10, 11, 0)}
        assert not primary_log(skills[1].runtime).with_name("logs.db-wal").exists()
    finally:
        log.close()
    assert [len(rows(primary_log(skill.runtime))) for skill in skills] == [2] + [1] * 7 + [2] + [
        1
    ] * 3


def test_a_queued_row_does_not_make_a_removed_project_again(
    project_layout: Layout, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MCP server writes a call's row after the call (queued): a user who removed the
    project's ``.skillc/`` right after a call had it made again by the row, its runtime and
    ``logs.db`` (10 runs of 10), and the folder was a skillc project again for every command.
    A row of a removed project is dropped, nothing made (nor the fallback under it), no
    W002. Near misses: the project there, a row whose runtime folder is not there yet
    makes it (a first row); a row of a global runtime is written as ever."""
    import shutil

    from skillc_index import ResolvedSkill
    from skillc_index.accesslog import AccessLog, service

    assert project_layout.project_root is not None
    store = project_layout.project_root / ".skillc"
    runtime = project_runtime(project_layout)
    skill = ResolvedSkill("rust", Path("/src/rust"), "project", runtime, True)
    warned: list[object] = []
    monkeypatch.setattr(service, "QUIET_SECONDS", 60.0)  # nothing written until the flush
    monkeypatch.setattr(service, "MAX_DELAY_SECONDS", 60.0)
    log = AccessLog(warned.extend, queued=True)
    try:
        log.record(project_layout, skill, "show", {"i": 0})
        log.flush()
        assert len(rows(primary_log(runtime))) == 1
        log.record(project_layout, skill, "show", {"i": 1})
        shutil.rmtree(store)  # right after the call, before its row is written
        log.flush()
        assert not store.exists()
        assert hold_log(project_layout, runtime) is None
        assert not store.exists()
        assert warned == []
        global_runtime = project_layout.runtime_store("global") / "rust"
        global_skill = ResolvedSkill("rust", home / "src" / "rust", "global", global_runtime, True)
        log.record(project_layout, global_skill, "show", {"i": 2})
        log.flush()
        assert len(rows(primary_log(global_runtime))) == 1
        assert not store.exists()
    finally:
        log.close()
    (store / "skills").mkdir(parents=True)  # made again by the user: written as ever
    outcome = log_access(project_layout, runtime, record())
    assert outcome.path == primary_log(runtime)
    assert outcome.diagnostics == ()


def test_a_log_held_open_keeps_a_small_wal(tmp_path: Path) -> None:
    """While ``skc mcp`` ran, each log it held a connection to (so that closing a row's was
    not the last close, which checkpoints) had its ``logs.db-wal`` grow to 4 MB, 27 KB a
    row, until the server ended: SQLite checkpoints at 1,000 pages and keeps the file's
    size. A log's WAL is checkpointed at ``WAL_PAGES`` and cut back, no row lost."""
    from skillc_index.accesslog.schema import WAL_PAGES

    path = tmp_path / "logs.db"
    insert(path, [record()])
    held = connect(path)
    try:
        for i in range(300):
            insert(path, [record(args={"i": i})])
        assert path.with_name("logs.db-wal").stat().st_size <= 4 * WAL_PAGES * 4096
    finally:
        held.close()
    assert len(rows(path)) == 301


def test_a_log_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """A ``logs.db`` a checkout ships may be a FIFO: SQLite's read-only open of one blocks
    until something writes to it (``skc stats`` and ``skc sync --dry-run`` waited for ever).
    Only a regular file is opened: an error at once. Near miss: a regular log opens."""
    import threading

    fifo = tmp_path / "logs.db"
    os.mkfifo(fifo)
    failed: list[BaseException] = []

    def read() -> None:
        try:
            open_log(fifo).close()
        except BaseException as exc:  # what it raised is the answer
            failed.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # the test's own end: unblock the thread (a writer, then gone)
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("opening a FIFO as a log blocked")
    assert len(failed) == 1 and isinstance(failed[0], sqlite3.Error)
    assert "not a regular file" in str(failed[0])
    regular = tmp_path / "regular" / "logs.db"
    insert(regular, [record()])
    open_log(regular).close()


def test_a_read_leaves_no_wal_or_shm_beside_the_log(tmp_path: Path) -> None:
    """``skc stats --all`` left ``logs.db-wal`` and ``logs.db-shm`` beside every log it read
    (until a later command wrote that log): a read-only (``ro``) connection makes them and
    leaves them as it closes. A log in a folder this process may write is read ``rw``,
    refusing writes (``query_only``), and its close, the last, removes them."""
    from skillc_index.accesslog import LocalRows

    path = tmp_path / "logs.db"
    insert(path, [record()])
    side = [path.with_name(f"logs.db-{suffix}") for suffix in ("wal", "shm")]
    assert not any(file.exists() for file in side)  # the writer's close removed them
    reader = LocalRows(path)
    assert reader("SELECT command FROM access_log", []) == [("show",)]
    assert all(file.exists() for file in side)  # (a WAL read needs them while it is open)
    reader.close()
    assert not any(file.exists() for file in side)
    with closing(open_log(path)) as db, pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("DELETE FROM access_log")  # a read never writes
    assert len(rows(path)) == 1


def test_a_fallback_row_whose_timestamp_is_not_rfc_3339_is_not_merged(tmp_path: Path) -> None:
    """``sync`` copied a stranger's row dated ``zzz`` into the user's own log, and every
    ``--by`` report of that skill failed from then on. A row that is not as skillc writes
    it is refused with the log (E042, kept)."""
    from skillc_index.accesslog.merge import read_identities
    from skillc_index.clock import is_utc_timestamp

    assert is_utc_timestamp(utc_now()) and is_utc_timestamp("2026-01-30T10:00:00.25Z")
    for bad in ("zzz", "2026-13-45T00:00:00Z", "2026-01-30 10:00:00Z", "2026-01-30T25:00:00Z",
                "2026-01-30T10:00:00+00:00", "２０２６-01-30T10:00:00Z"):  # fmt: skip
        assert not is_utc_timestamp(bad), bad
    log = tmp_path / "logs.db"
    insert(log, [record(timestamp="2026-01-30T10:00:00Z")])
    with closing(connect(log)) as db:
        assert read_identities(db).total == 1
        db.execute("UPDATE access_log SET timestamp = 'zzz'")
        with pytest.raises(ValueError, match="not RFC 3339"):
            read_identities(db)


@pytest.mark.parametrize("stop", ["ctrl-c", "malformed row"])
def test_a_read_cut_short_leaves_no_pending_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    """A read of a fallback's rows by folder stopped in its loop (a Ctrl-C in ``skc sync``,
    or a malformed row) left its query pending: finalised after the caller closed the log,
    it printed "Exception ignored in: <generator object _rows_of>" and a traceback."""
    import gc

    from skillc_index.accesslog import merge

    log = tmp_path / "logs.db"
    insert(log, [record(skill_path=f"/src/{n % 3}", run_id=f"run-{n}") for n in range(9)])
    if stop == "ctrl-c":
        monkeypatch.setattr(merge, "is_utc_timestamp", Mock(side_effect=KeyboardInterrupt))
    else:
        with closing(connect(log)) as db:
            db.execute("UPDATE access_log SET timestamp = 'zzz' WHERE id = 2")
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises((KeyboardInterrupt, ValueError)) as stopped, closing(connect(log)) as db:
        merge.read_identities(db, lambda folder: True)
    del stopped  # its traceback held the reading frame
    gc.collect()
    assert unraisable == []


def test_the_sessions_of_one_access_are_counted_by_one_read(tmp_path: Path) -> None:
    """Rows that differ only by ``run_id`` (sessions that ran one command in the same
    second): a copy into a log holding them looked each up among all of them, quadratic
    (4,000 rows: 1.3 s; 40,000: minutes). One read of the access counts them all now, and
    the counts stay exact: a row twice in the source is added until it is there twice."""
    from skillc_index.accesslog.merge import _missing, copy_missing, read_identities

    second = "2026-01-30T10:00:00Z"
    sessions = [record(timestamp=second, run_id=f"run-{n}") for n in range(300)]
    source, destination = tmp_path / "fallback.db", tmp_path / "logs.db"
    insert(source, [*sessions, record(timestamp=second, run_id="run-0")])
    insert(destination, [*sessions[:200], record(timestamp="2026-01-30T10:00:01Z")])
    with closing(connect(source)) as db:
        db.execute("DELETE FROM log_identity")  # a log without one: its rows are compared
        copied = read_identities(db)
    with closing(connect(destination)) as db:
        reads: list[str] = []
        db.set_trace_callback(reads.append)
        missing = list(_missing(db, copied.identities))
    assert len(reads) == 1, reads  # one read of the access, not one a session
    assert sorted(identity[1] for identity in missing) == sorted(
        ["run-0", *(f"run-{n}" for n in range(200, 300))]
    )
    assert copy_missing(destination, copied) == 101
    assert copy_missing(destination, copied) == 0
    assert len(rows(destination)) == 302


def test_a_ctrl_c_after_the_copy_committed_stays_a_ctrl_c(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ctrl_c_after_commit: Callable[[sqlite3.Connection], Any],
) -> None:
    """A Ctrl-C that lands on return from the copy's ``COMMIT`` (a slow, fsyncing one) is
    raised as it is: its ROLLBACK raised "cannot rollback - no transaction is active",
    which ``skc sync`` reported as E041 "not writable" and went on with the next skill.
    The rows are in."""
    from skillc_index.accesslog import merge

    source, destination = tmp_path / "fallback.db", tmp_path / "logs.db"
    insert(source, [record(run_id="run-1"), record(run_id="run-2")])
    with closing(connect(source)) as db:
        copied = merge.read_identities(db)
    monkeypatch.setattr(merge, "connect", lambda path: ctrl_c_after_commit(connect(path)))
    with pytest.raises(KeyboardInterrupt):
        merge.copy_missing(destination, copied)
    assert [row["run_id"] for row in rows(destination)] == ["run-1", "run-2"]


def test_add_versions_gives_the_folders_read_as_another_s() -> None:
    """``add_versions`` adds an older version's folder of a plugin skill the log names, and
    a store skill's folder before its base moved (one of its name in a store that is gone),
    and returns what ``usage_of`` takes as ``same``: every folder that is not its skill's
    source (``same_folders``; ``skc list`` and ``skc stats`` each built it again)."""
    from skillc_index.accesslog.reader import add_versions, same_folders

    cache = "/h/.claude/plugins/cache/market/plug"
    now, old = f"{cache}/2.0/skills/tidy", f"{cache}/1.0/skills/tidy"
    moved = "/p-before-mv/.skillc/skills/mine"  # no such folder
    logged = sorted([old, now, "/p/drafts/mine", moved, "/gone/.skillc/skills/other"])

    def rows(sql: str, params: Sequence[Any]) -> list[Any]:
        if "sqlite_master" in sql:  # (no moved_folders: no move recorded)
            return []
        low, end = (*params, "\uffff")[:2]  # (the folders of a store skill: every one)
        hits = [path for path in logged if low < path < end]
        return [(min(hits) if hits else None,)]

    store = "/p/.skillc/skills/mine"
    folders = {now: now, "/p/drafts/mine": store, store: store}
    same = add_versions(rows, folders)
    assert same == {old: now, "/p/drafts/mine": store, moved: store}
    assert same == same_folders(folders) and old in folders


def test_a_plugins_folder_with_bad_bytes_in_a_log_reads_its_other_versions(tmp_path: Path) -> None:
    """A log whose rows name a plugin skill's version folder that is not UTF-8 (a row
    written by an older skillc, a folder copied from a Latin-1 disk): ``other_versions``
    bound that folder, read back with lone surrogates, as the next lookup's bound, and
    ``skc stats`` of the skill failed (E999, UnicodeEncodeError). Its folders are looked
    through as ``former_stores`` looks through a store skill's (``log_folders``, bad bytes
    bound as their bytes): that version and the next are found."""
    from skillc_index.accesslog.reader import other_versions

    cache = "/h/.claude/plugins/cache/market/plug"
    now = f"{cache}/2.0/skills/tidy"
    path = tmp_path / "logs.db"
    names = ["bad", "old", "now"]
    insert(path, [record(run_id=name, skill_path=now) for name in names])
    with closing(connect(path)) as db:
        for name, folder in (
            ("bad", f"{cache}/0.\xff/skills/tidy".encode("latin-1")),
            ("old", f"{cache}/1.0/skills/tidy".encode()),
        ):
            db.execute(
                "UPDATE access_log SET skill_path = CAST(? AS TEXT) WHERE run_id = ?",
                [folder, name],
            )
        db.commit()
        found = other_versions(lambda sql, params: db.execute(sql, params).fetchall(), now)
    assert found == [f"{cache}/0.\udcff/skills/tidy", f"{cache}/1.0/skills/tidy"]


def disk_error(message: str, code: int, name: str) -> sqlite3.OperationalError:
    """The error SQLite gives when the disk fails (``SQLITE_FULL``: 13, ``SQLITE_IOERR``: 10)."""
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    exc.sqlite_errorname = name  # type: ignore[attr-defined]
    return exc


def test_a_log_the_disk_could_not_take_is_removed_and_an_empty_one_reads_as_no_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk: ``connect`` made ``logs.db``, then its schema failed (``SQLITE_FULL``), and
    the 0-byte file stayed; ``skc stats`` read it as "no such table: access_log" (E999, on
    every run in a read-only runtime). The log it made is removed again (one it did not make
    is kept), with the folders it made for it (they stayed, empty, where the next read looked
    for a runtime), and a 0-byte log reads as an empty one ("No data")."""
    from skillc_index.accesslog import schema

    def full(db: sqlite3.Connection, timeout_ms: int) -> None:
        raise disk_error("database or disk is full", 13, "SQLITE_FULL")

    path = tmp_path / "runtime" / ".skillc-meta" / "logs.db"
    with monkeypatch.context() as patch:
        patch.setattr(schema, "use_wal", full)
        with pytest.raises(sqlite3.OperationalError, match="full"):
            connect(path)
        assert list(tmp_path.iterdir()) == []  # no logs.db, no .skillc-meta, no runtime
        path.parent.mkdir(parents=True)
        path.write_bytes(b"")  # left by an older skillc: not this call's to remove
        with pytest.raises(sqlite3.OperationalError, match="full"):
            connect(path)
    assert path.stat().st_size == 0
    assert _commands(path) == []
    insert(path, [record()])  # the next write gives it its schema
    assert [row["command"] for row in rows(path)] == ["show"]


def _commands(path: Path) -> list[Any]:
    """The commands of the log at ``path`` as a :class:`LocalRows` reads them, closed after
    (left open, Python 3.13 warns of it in whichever test the collector runs)."""
    from skillc_index.accesslog import LocalRows

    with closing(LocalRows(path)) as local:
        return local("SELECT command FROM access_log", [])


def one_page_log(path: Path, pragma: str = "journal_mode = WAL") -> Path:
    """A database of one page and no table: what SQLite writes when ``connect`` turns a new
    log to WAL, the disk failing before the schema."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA {pragma}")
    return path


def test_a_log_whose_schema_the_disk_failed_after_its_first_page_is_removed_and_reads_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A nearly full disk took the first page SQLite writes when it turns the new log to WAL,
    not the schema: the 4096-byte log, with no table, stayed; ``skc stats`` was E999 "no such
    table: access_log" until some command wrote, ``skc sync`` E042 for ever on a fallback
    one. The log made is removed; one left by an older skillc reads as an empty log, and
    the next write gives it its schema. A database with a table, or a ``user_version``, is
    not an empty log."""
    from skillc_index.accesslog import schema
    from skillc_index.accesslog.schema import empty_log

    use_wal = schema.use_wal

    def full(db: sqlite3.Connection, timeout_ms: int) -> None:
        use_wal(db, timeout_ms)
        raise disk_error("database or disk is full", 13, "SQLITE_FULL")

    path = tmp_path / "runtime" / ".skillc-meta" / "logs.db"
    with monkeypatch.context() as patch:
        patch.setattr(schema, "use_wal", full)
        with pytest.raises(sqlite3.OperationalError, match="full"):
            connect(path)
    assert list(tmp_path.iterdir()) == []
    one_page_log(path)
    assert path.stat().st_size == 4096 and empty_log(path)
    assert _commands(path) == []
    assert sorted(p.name for p in path.parent.iterdir()) == ["logs.db"]  # nothing made
    insert(path, [record()])
    assert [row["command"] for row in rows(path)] == ["show"] and not empty_log(path)
    assert not empty_log(one_page_log(tmp_path / "versioned.db", "user_version = 7"))
    other = one_page_log(tmp_path / "other.db")
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE notes (x)")
    assert not empty_log(other)


def test_a_log_another_writer_made_meanwhile_is_kept_when_the_disk_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two commands starting at once each found no ``logs.db``, so each took it for its own:
    the one the disk then failed (an I/O error) removed the log, ``-wal`` and ``-shm`` the
    other had just written its row to. A log is removed only while it holds nothing."""
    from skillc_index.accesslog import schema

    path = tmp_path / "runtime" / ".skillc-meta" / "logs.db"
    use_wal = schema.use_wal
    failed: list[bool] = []

    def racing(db: sqlite3.Connection, timeout_ms: int) -> None:
        if failed:  # the other writer
            return use_wal(db, timeout_ms)
        failed.append(True)
        insert(path, [record()])  # it made the log and wrote its row meanwhile
        raise disk_error("disk I/O error", 10, "SQLITE_IOERR")

    monkeypatch.setattr(schema, "use_wal", racing)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        connect(path)
    monkeypatch.undo()
    assert [row["command"] for row in rows(path)] == ["show"]


def test_a_log_on_a_full_disk_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a full disk SQLite cannot make the ``-shm`` file a read of a WAL log needs: ``skc
    stats`` was E999 "disk I/O error" while show and search answered. Such a log is read as
    immutable, as in a read-only folder; when rows still wait in its ``-wal`` (which that
    read would not see), the error says why."""
    from skillc_index import UnreadableFile
    from skillc_index.accesslog import schema

    path = tmp_path / "logs.db"
    insert(path, [record()])
    assert not path.with_name("logs.db-wal").exists()  # checkpointed when closed
    real = schema._open_log

    def full_disk(log: Path, mode: Any, own: bool) -> sqlite3.Connection:
        if mode != "immutable":
            raise disk_error("disk I/O error", 4874, "SQLITE_IOERR_SHMSIZE")
        return real(log, mode, own)

    monkeypatch.setattr(schema, "_open_log", full_disk)
    assert _commands(path) == [("show",)]
    path.with_name("logs.db-wal").write_bytes(b"rows")
    with pytest.raises(UnreadableFile, match=r"disk I/O error \(SQLITE_IOERR_SHMSIZE\)"):
        _commands(path)


def test_a_log_on_a_disk_with_no_inode_left_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no inode left SQLite cannot make the ``-shm`` file a read needs and says "unable
    to open database file" (``SQLITE_CANTOPEN``), which did not count as the disk failing:
    ``skc stats`` was E999 and ``stats --all`` gave the skill 0 uses. It is read as
    immutable, as on a full disk; the same error with inodes and bytes free (a permission)
    is no disk failure; rows waiting in the ``-wal`` make it an error saying why."""
    from types import SimpleNamespace

    from skillc_index import UnreadableFile
    from skillc_index.accesslog import schema
    from skillc_index.atomic import disk_failure

    path = tmp_path / "logs.db"
    insert(path, [record()])
    real = schema._open_log
    cantopen = disk_error("unable to open database file", 14, "SQLITE_CANTOPEN")

    def no_inode(log: Path, mode: Any, own: bool) -> sqlite3.Connection:
        if mode != "immutable":
            raise cantopen
        return real(log, mode, own)

    device = SimpleNamespace(f_bavail=1000, f_frsize=4096, f_files=400, f_favail=400)
    monkeypatch.setattr(os, "statvfs", lambda _path: device)
    assert disk_failure(cantopen, path) is None
    device.f_favail = 0
    assert disk_failure(cantopen, path) == (
        "unable to open database file (SQLITE_CANTOPEN); no inode free on its device"
    )
    monkeypatch.setattr(schema, "_open_log", no_inode)
    assert _commands(path) == [("show",)]
    path.with_name("logs.db-wal").write_bytes(b"rows")
    with pytest.raises(UnreadableFile, match=r"\(SQLITE_CANTOPEN\); no inode free"):
        _commands(path)


def test_command_args_counts_streams_from_any_runner_with_each(tmp_path: Path) -> None:
    """``StatsLog.command_args_counts`` reads the groups one at a time from a runner that has
    ``each`` (a local log's :class:`LocalRows`, or any wrapper of it), all at once from one
    that has not (a team store's), with the same statement and the same rows either way."""
    from types import SimpleNamespace

    from skillc_index.accesslog import LocalRows, StatsLog

    path = tmp_path / "logs.db"
    insert(path, [record(), record(), record(command="search", args={"query": "x"})])
    local = LocalRows(path)
    calls: list[str] = []

    class Streaming:  # a runner that is not a LocalRows but has ``each``
        def __call__(self, sql: str, params: Sequence[Any]) -> list[Any]:
            calls.append("call")
            return local(sql, params)

        def each(self, sql: str, params: Sequence[Any]) -> Any:
            calls.append("each")
            return local.each(sql, params)

    filters = SimpleNamespace(since=None, until=None, projects=(), users=(), machines=())
    streamed = StatsLog(Streaming(), "skill_path", "/src/rust", filters).command_args_counts()
    assert not isinstance(streamed, list) and calls == ["each"]
    whole = StatsLog(lambda sql, params: local(sql, params), "skill_path", "/src/rust", filters)
    expected = [("search", '{"query": "x"}', 1, 0), ("show", '{"section": "Install"}', 2, 0)]
    assert sorted(streamed) == sorted(whole.command_args_counts()) == expected
    local.close()


def test_the_rows_of_many_folders_are_read_in_bounded_batches(tmp_path: Path) -> None:
    """``sync``'s read of a fallback log ran one query a source folder (a log of 1,200
    folders: 1,200 queries); the folders it wants are read :data:`FOLDERS_A_QUERY` a query,
    under SQLite's oldest limit of variables, with the same rows, ids, order and skipped
    count as one read of the whole log."""
    import random

    from skillc_index.accesslog.merge import read_identities
    from skillc_index.accesslog.schema import COPY_ROW

    shuffle = random.Random(7)
    rows = [
        (f"2026-01-30T10:{n % 60:02d}:00Z", "run", "show", f"s{f}", f"/src/s{f}", "/w", "[]", None)
        for f in range(1_200)
        for n in range(3)
    ]
    rows += rows[::5]  # rows twice: counted
    shuffle.shuffle(rows)
    path = tmp_path / "logs.db"
    with closing(connect(path)) as db:
        db.executemany(COPY_ROW, rows)
        db.commit()

    def wanted(folder: str) -> bool:
        return not folder.endswith("7")

    with closing(open_log(path)) as db:
        if hasattr(db, "setlimit"):  # (Python 3.11) as an SQLite before 3.32: 999 variables
            db.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        whole = read_identities(db)
        queries: list[str] = []
        db.set_trace_callback(queries.append)
        read = read_identities(db, wanted)
        db.set_trace_callback(None)
    kept = [(i, count) for i, count in whole.identities if wanted(i[4])]
    assert read.identities == kept and len(kept) == 1_080 * 3
    assert read.ids is not None and whole.ids is not None
    assert read.ids == {i: whole.ids[i] for i, _ in kept}
    assert read.skipped == whole.total - read.total == 120 * 3  # the folders *7
    assert read.origin == whole.origin is not None
    reads = [sql for sql in queries if "FROM access_log WHERE skill_path" in sql]
    assert len(reads) == 3  # 1,080 folders wanted (was 1,080 queries)


def test_a_wal_another_writer_makes_meanwhile_is_not_taken_for_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``unwritable_file`` asked ``os.access`` (False for a file not there) and then whether
    the file was there: a ``-wal`` another writer made between the two read as a file this
    process may not write, and the row went to the fallback, or was given up (W002: the
    sync race test failed one run in three). A file there is asked again by opening it."""
    from skillc_index.accesslog import schema

    log = tmp_path / "logs.db"
    log.write_bytes(b"")
    wal = tmp_path / "logs.db-wal"
    real = os.path.lexists

    def made_meanwhile(name: object) -> bool:
        if str(name) == str(wal):
            wal.write_bytes(b"")  # another writer's, between the two looks
        return real(name)  # type: ignore[arg-type]

    monkeypatch.setattr(schema.os.path, "lexists", made_meanwhile)
    assert schema.unwritable_file(log) is None


def test_the_skillc_homes_logs_are_their_owners_alone(
    project_layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under ``umask 022`` the log of a skill of the skillc home (its queries word for word,
    the folders worked in) was made 0o644: made 0o600, by a write or a held connection, as
    the find catalog is; a project's log keeps 0o666 less the umask (a group shares it)."""
    import stat

    layout = project_layout
    monkeypatch.setenv("SKILLC_HOME", str(layout.home))
    global_runtime, held_runtime = (layout.runtime_store("global") / n for n in ("rust", "go"))
    old = os.umask(0o022)
    try:
        assert log_access(layout, global_runtime, record()).path == primary_log(global_runtime)
        held = hold_log(layout, held_runtime)
        assert held is not None
        held.close()
        log_access(layout, project_runtime(layout), record())
    finally:
        os.umask(old)
    modes = [
        stat.S_IMODE(primary_log(runtime).stat().st_mode)
        for runtime in (global_runtime, held_runtime, project_runtime(layout))
    ]
    assert modes == [0o600, 0o600, 0o644]


def test_a_home_log_made_by_a_copy_is_its_owners_alone(
    project_layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``skc sync`` and the transcript import make a missing log of a home skill by
    ``copy_missing``: it was 0o644 under ``umask 022``, now 0o600 as any home log is."""
    import stat

    from skillc_index.accesslog import copy_missing, read_identities

    layout = project_layout
    monkeypatch.setenv("SKILLC_HOME", str(layout.home))
    source = root_fallback(layout)
    insert(source, [record()])
    with closing(connect(source)) as db:
        copied = read_identities(db)
    destination = primary_log(layout.runtime_store("global") / "rust")
    old = os.umask(0o022)
    try:
        assert copy_missing(destination, copied) == 1
    finally:
        os.umask(old)
    assert stat.S_IMODE(destination.stat().st_mode) == 0o600


def test_close_waits_for_the_writer_at_most_its_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer in SQLite's busy wait on a log another process holds (10 s) held the HTTP
    server's stop past its deadline: ``close(timeout)`` waits that long at most and says the
    writer is not done; ``close()`` with none waits for it."""
    import threading

    from skillc_index.accesslog import service, store

    gate = threading.Event()
    monkeypatch.setattr(store, "hold_log", lambda layout, runtime: None)
    monkeypatch.setattr(service.AccessLog, "_write", lambda self, *rows: gate.wait(10))
    log = service.AccessLog(lambda diagnostics: None, queued=True)
    assert log._submit((object(), tmp_path, object()))
    started = time.monotonic()
    assert log.close(0.2) is False  # the row is being written
    assert time.monotonic() - started < 2
    gate.set()
    done = service.AccessLog(lambda diagnostics: None, queued=True)
    assert done._submit((object(), tmp_path, object()))
    assert done.close() is True
