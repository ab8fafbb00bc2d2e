"""A full disk, a read-only one: every message names the cause (the disk, as
``skillc_index.atomic.disk_failure`` says it), where SQLite's own words (``disk I/O error``:
it could not grow a log's ``-shm`` file) or a blanket ``Permission denied`` hid it. Real small
file systems (``small_disk``: root only), the installed ``skc``."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from e2e_support import SmallDisks
from skillc_gateway.catalog.database import CATALOG_FILE
from test_e2e_transcripts import SESSION, record

Run = Callable[..., "subprocess.CompletedProcess[str]"]

#: How ``disk_failure`` says a disk with no byte left.
FULL = "; 0 bytes free on its device"


def _entries(root: Path) -> list[str]:
    """Every path under ``root``, empty folders included."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*"))


def _ok(skc: Run, *args: str) -> subprocess.CompletedProcess[str]:
    proc = skc(*args)
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return proc


def test_a_full_home_a_full_project_and_a_read_only_home_are_named(
    skc_installed: Run,
    project: Path,
    home: Path,
    tmp_path: Path,
    small_disk: SmallDisks,
    write_skill: Callable[..., Path],
) -> None:
    """``find`` warned ``cannot use the catalog ... (disk I/O error)``, ``stats prune``
    ``cannot prune it: disk I/O error``, ``sync --from claude-code`` E041 with the hint
    ``disk I/O error``; ``sync`` into a read-only home E041 ``Permission denied``."""
    small_disk(home, "size=2m")
    small_disk(project, "size=1m")
    _ok(skc_installed, "init")
    write_skill(project / ".skillc/skills/demo", "demo", "Use when testing demos.", "# Demo\n")
    write_skill(home / ".skillc/skills/g", "g", "Use when testing globals.", "# G\n\n## G\n")
    _ok(skc_installed, "build", "demo")
    _ok(skc_installed, "build", "g")
    _ok(skc_installed, "find", "demo")  # the catalog is made
    small_disk.fill(home)
    write_skill(project / ".skillc/skills/other", "other", "Use when testing others.", "# O\n")
    proc = _ok(skc_installed, "find", "other skill")
    catalog = home / ".skillc" / CATALOG_FILE
    assert f"warning: cannot use the catalog {catalog} (disk I/O error (SQLITE_IOERR" in proc.stderr
    assert f"{FULL}): searching with a catalog in memory" in proc.stderr
    (home / ".filler").unlink()

    small_disk.remount(home, "ro")  # a read of g logs to the project's fallback log
    _ok(skc_installed, "show", "g", "--section", "G")
    proc = skc_installed("sync")
    assert proc.returncode == 1
    assert proc.stderr.endswith("\nhint: Read-only file system\n"), proc.stderr
    small_disk.remount(home, "rw")

    transcript = tmp_path / "claude/projects/-project" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_text(record(project, 1, "Skill", {"skill": "demo"}) + "\n", encoding="utf-8")
    small_disk.fill(project)
    claude = str(tmp_path / "claude")
    proc = skc_installed("sync", "--from", "claude-code", "--claude-dir", claude)
    log = ".skillc/runtime/demo/.skillc-meta/logs.db"
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error[E999]: cannot sync '{log}': disk I/O error (SQLITE_IOERR")
    assert FULL in proc.stderr and "hint:" not in proc.stderr
    proc = skc_installed("stats", "prune", "--before", "1d")
    assert proc.returncode == 1
    assert f"{log}: cannot prune it: disk I/O error (SQLITE_IOERR" in proc.stdout + proc.stderr
    assert FULL in proc.stdout + proc.stderr


def test_a_build_a_full_disk_fails_leaves_no_folder_for_its_log(
    skc_installed: Run, project: Path, small_disk: SmallDisks, write_skill: Callable[..., Path]
) -> None:
    """A build a full disk failed, whose log row the disk refused too, left empty
    ``.skillc/runtime/demo/.skillc-meta/`` and ``.skillc/logs/demo/.skillc-meta/`` folders
    (made for the primary log, then the fallback): the folders made for a log not made go."""
    small_disk(project, "size=1m")
    _ok(skc_installed, "init")
    write_skill(project / ".skillc/skills/demo", "demo", "Use when testing demos.", "# Demo\n")
    before = _entries(project / ".skillc")
    small_disk.fill(project)
    proc = skc_installed("build", "demo")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert _entries(project / ".skillc") == before  # not an empty folder more
    (project / ".filler").unlink()
    _ok(skc_installed, "build", "demo")


def test_a_read_of_a_skill_never_built_on_a_full_disk_leaves_no_lock_behind(
    skc_installed: Run, project: Path, small_disk: SmallDisks, write_skill: Callable[..., Path]
) -> None:
    """``skc outline`` of a skill never built, on a full disk (the index built in the
    process's private folder instead, the answer right): its lock file,
    ``.skillc/runtime/demo/.skillc-meta/search-<hash16>.lock``, stayed, 0 bytes, in folders
    made for it, with no index beside it. What the read made for an index it could not write
    there goes; a lock made before (beside an index a later read builds) stays."""
    small_disk(project, "size=1m")
    _ok(skc_installed, "init")
    write_skill(project / ".skillc/skills/demo", "demo", "Use when testing demos.", "## Use\n")
    before = _entries(project / ".skillc")
    small_disk.fill(project)
    proc = _ok(skc_installed, "outline", "demo")
    assert "## Use" in proc.stdout and "Traceback" not in proc.stderr
    assert _entries(project / ".skillc") == before  # no lock, no folder made for it
    (project / ".filler").unlink()
    _ok(skc_installed, "outline", "demo")  # room again: the index is built in the runtime
    meta = project / ".skillc" / "runtime" / "demo" / ".skillc-meta"
    [lock] = meta.glob("search-*.lock")
    assert lock.with_suffix(".db").is_file()
    small_disk.fill(project)
    (project / ".skillc/skills/demo/SKILL.md").write_text(  # stale now: rebuilt, in private
        "---\nname: demo\ndescription: Use when testing demos.\n---\n\n## Used\n", "utf-8"
    )
    assert "## Used" in _ok(skc_installed, "outline", "demo").stdout
    assert lock.is_file()  # not this read's: kept
