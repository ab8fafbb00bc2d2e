"""The access log against hostile or unlucky surroundings (issue 13), end to end.

- a ``logs.db`` locked by another process: the command waits briefly, logs to the project
  root's fallback, and ``skc sync`` from the root merges the row;
- a ``logs.db`` whose schema is not skillc's: never written (the row goes to the fallback
  with a warning), read only when nothing in it would run (no trigger, no view): ``stats`` and
  ``sync`` fail naming the file otherwise;
- forged fallback rows for skills that do not exist: ``sync`` skips and keeps them, and
  creates no runtime folder for them;
- a runtime (or its ``.skillc-meta``, or ``logs.db``) symlinked outside the project: no row
  is written there.

Real ``skc`` processes, real SQLite; no timing assertions (the conftest's timeout is the net).
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

Run = Callable[..., "subprocess.CompletedProcess[str]"]

SKILL_MD = (
    "---\nname: demo\ndescription: A demo skill. Use when testing.\n---\n\n"
    "# Demo\n\n## Usage\n\nUse it.\n"
)


def rows(path: Path) -> list[tuple[str, str, str]]:
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT command, skill, skill_path FROM access_log ORDER BY id"
        ).fetchall()
    finally:
        db.close()


def meta_log(folder: Path) -> Path:
    return folder / ".skillc-meta" / "logs.db"


def copy_log(source: Path, destination: Path) -> Path:
    """A copy of the log ``source`` (its rows and skillc's schema) at ``destination``."""
    destination.parent.mkdir(parents=True)
    with closing(sqlite3.connect(source)) as db:
        db.execute("VACUUM INTO ?", (str(destination),))
    return destination


@pytest.fixture
def demo(ok: Run, project: Path) -> Path:
    """A built project skill ``demo``; returns its runtime folder."""
    ok("init")
    source = project / ".skillc" / "skills" / "demo"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    ok("build", "demo")
    return project / ".skillc" / "runtime" / "demo"


@contextmanager
def write_locked(path: Path) -> Iterator[None]:
    """Another connection holding ``path``'s write lock (a long write transaction)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
        db.execute("ROLLBACK")
    finally:
        db.close()


def test_a_locked_log_falls_back_to_the_root_and_sync_from_the_root_merges_it(
    ok: Run, project: Path, demo: Path
) -> None:
    primary = meta_log(demo)
    before = len(rows(primary))
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    with write_locked(primary):
        ok("show", "demo", "--section", "Usage", cwd=sub)
        ok("outline", "demo", cwd=sub)
    assert not (sub / ".skillc").exists()  # not a fallback `sync` from the root never finds
    fallback = meta_log(project / ".skillc" / "logs" / "demo")
    assert [row[0] for row in rows(fallback)] == ["show", "outline"]
    assert len(rows(primary)) == before
    proc = ok("sync")
    assert proc.stdout == "Synced 2 entries for 'demo' (local logs removed)\n"
    assert [row[0] for row in rows(primary)][before:] == ["show", "outline"]
    assert not (project / ".skillc" / "logs").exists()


def test_sync_from_a_subfolder_still_finds_its_own_older_fallback(
    ok: Run, project: Path, demo: Path
) -> None:
    """Fallbacks written in a subfolder by earlier versions are still synced from there."""
    sub = project / "src"
    sub.mkdir()
    copy_log(meta_log(demo), meta_log(sub / ".skillc" / "logs" / "demo"))
    proc = ok("sync", cwd=sub)
    assert proc.stdout == "Synced 0 entries for 'demo' (local logs removed)\n"  # all there
    assert not (sub / ".skillc").exists()


TRIGGER = (
    "CREATE TABLE pwned (x); "
    "CREATE TRIGGER hostile AFTER INSERT ON access_log BEGIN INSERT INTO pwned VALUES (1); END;"
)


def hostile(path: Path, script: str = TRIGGER) -> None:
    db = sqlite3.connect(path)
    try:
        db.executescript(script)
    finally:
        db.close()


def pwned(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM pwned").fetchone()[0])
    finally:
        db.close()


def test_a_hostile_trigger_in_the_log_never_runs(
    skc: Run, ok: Run, project: Path, demo: Path
) -> None:
    primary = meta_log(demo)
    hostile(primary)
    proc = ok("outline", "demo")
    assert pwned(primary) == 0
    assert proc.stderr.startswith(
        "warning: access log '.skillc/runtime/demo/.skillc-meta/logs.db' is not skillc's "
        "(trigger 'hostile'); logged to '.skillc/logs/demo/.skillc-meta/logs.db'\n"
    )
    fallback = meta_log(project / ".skillc" / "logs" / "demo")
    assert [row[0] for row in rows(fallback)] == ["outline"]

    stats = skc("stats", "demo")
    assert stats.returncode == 1
    reason = "unsafe to read (trigger 'hostile')"
    assert f"error[E999]: cannot read access log '{primary}': {reason}\n" in stats.stderr

    sync = skc("sync")
    assert sync.returncode == 1
    assert sync.stderr.startswith(
        "error[E041]: sync destination not writable: '.skillc/runtime/demo/.skillc-meta/logs.db'"
    )
    assert pwned(primary) == 0 and fallback.exists()


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(TRIGGER, id="trigger"),
        pytest.param(
            "ALTER TABLE access_log RENAME TO real_log; "
            "CREATE VIEW access_log AS SELECT * FROM real_log",
            id="view",
        ),
    ],
)
def test_a_fallback_log_with_a_trigger_or_a_view_is_e042_naming_it(
    skc: Run, project: Path, demo: Path, script: str
) -> None:
    fallback = copy_log(meta_log(demo), meta_log(project / ".skillc" / "logs" / "demo"))
    hostile(fallback, script)
    before = fallback.read_bytes()
    proc = skc("sync")
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        "error[E042]: sync source not readable: '.skillc/logs/demo/.skillc-meta/logs.db'"
    )
    assert "\nhint: unsafe to read (" in proc.stderr
    assert fallback.read_bytes() == before


def test_a_fallback_log_another_implementation_made_is_synced(
    ok: Run, project: Path, demo: Path
) -> None:
    """Its own table and column beside the RFC's: read (only the RFC's columns), moved."""
    fallback = copy_log(meta_log(demo), meta_log(project / ".skillc" / "logs" / "demo"))
    hostile(fallback, "CREATE TABLE extra (x); ALTER TABLE access_log ADD COLUMN took INTEGER")
    proc = ok("sync")
    assert proc.stdout == "Synced 0 entries for 'demo' (local logs removed)\n"  # all there
    assert not fallback.exists()


def forge(path: Path, *skill_paths: str) -> None:
    """Rows in a fallback log as a hostile checkout could ship them."""
    from skillc_index.accesslog.schema import SCHEMA  # what a forger would copy

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    try:
        for statement in SCHEMA:
            db.execute(statement)
        for skill_path in skill_paths:
            db.execute(
                "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args)"
                " VALUES ('2026-01-30T10:00:00Z', 'r', 'show', ?, ?, '/w', '{}')",
                (Path(skill_path).name, skill_path),
            )
        db.commit()
    finally:
        db.close()


def test_sync_skips_forged_rows_and_creates_no_runtime_for_them(
    skc: Run, ok: Run, project: Path, demo: Path, tmp_path: Path
) -> None:
    runtime_store = project / ".skillc" / "runtime"
    fallback = meta_log(project / ".skillc" / "logs" / "evil")
    before = len(rows(meta_log(demo)))
    forge(
        fallback,
        str(tmp_path / "nowhere" / "evil"),
        str((project / ".skillc" / "skills" / "demo").resolve()),
        "/x/..",
        str(tmp_path / "nowhere" / "evil"),
    )
    proc = ok("sync")
    assert proc.stdout == (
        "Synced 1 entries for 'evil'; skipped 3 rows of skills not installed and never built "
        "(local logs kept)\n"
    )
    assert sorted(p.name for p in runtime_store.iterdir()) == ["demo"]
    assert not (project / ".skillc" / ".skillc-meta").exists()
    assert len(rows(meta_log(demo))) == before + 1
    assert [row[2] for row in rows(fallback)] == [
        str(tmp_path / "nowhere" / "evil"),
        "/x/..",
        str(tmp_path / "nowhere" / "evil"),
    ]
    again = ok("sync")  # nothing new: the same rows stay skipped, none is doubled
    assert again.stdout.startswith("Synced 0 entries for 'evil'; skipped 3 rows ")
    assert len(rows(meta_log(demo))) == before + 1


@pytest.mark.parametrize(
    "link", ["runtime", "runtime/demo", "runtime/demo/.skillc-meta", "logs.db"]
)
def test_a_runtime_symlinked_outside_receives_no_row(
    skc: Run, ok: Run, project: Path, tmp_path: Path, link: str
) -> None:
    ok("init")
    source = project / ".skillc" / "skills" / "demo"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    if link == "logs.db":
        meta = project / ".skillc" / "runtime" / "demo" / ".skillc-meta"
        meta.mkdir(parents=True)
        (meta / "logs.db").symlink_to(outside / "victim.db")
    else:
        place = project / ".skillc" / link
        place.parent.mkdir(parents=True, exist_ok=True)
        if place.is_dir():
            place.rmdir()
        place.symlink_to(outside, target_is_directory=True)
    proc = ok("outline", "demo")
    assert list(outside.iterdir()) == []
    assert "lies outside the project" in proc.stderr
    fallback = meta_log(project / ".skillc" / "logs" / "demo")
    assert [row[0] for row in rows(fallback)] == ["outline"]
    sync = skc("sync")
    assert sync.returncode == 1 and sync.stderr.startswith("error[E041]: ")
    assert list(outside.iterdir()) == [] and fallback.exists()


def test_a_fallback_folder_symlinked_outside_receives_no_row(
    ok: Run, project: Path, tmp_path: Path
) -> None:
    ok("init")
    source = project / ".skillc" / "skills" / "demo"
    source.mkdir(parents=True)
    (source / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / ".skillc" / "runtime").write_text(
        "not a folder: the primary fails", encoding="utf-8"
    )
    (project / ".skillc" / "logs").symlink_to(outside, target_is_directory=True)
    proc = ok("outline", "demo")
    assert list(outside.iterdir()) == []
    # the fallback is refused, so nothing was logged: said, without W002's advice to sync
    assert "this use was not logged" in proc.stderr
    assert "lies outside" in proc.stderr
    assert "W002" not in proc.stderr and "sync" not in proc.stderr


ENDLESS = (
    "CREATE TRIGGER endless AFTER INSERT ON access_log BEGIN SELECT COUNT(*) FROM ("
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END;"
)


def test_an_endless_trigger_hangs_no_command(ok: Run, project: Path, demo: Path) -> None:
    """Before: `outline` and `stats` ran the trigger's endless query and never returned."""
    hostile(meta_log(demo), ENDLESS)
    ok("outline", "demo")
    ok("show", "demo", "--section", "Usage")
    fallback = meta_log(project / ".skillc" / "logs" / "demo")
    assert [row[0] for row in rows(fallback)] == ["outline", "show"]
