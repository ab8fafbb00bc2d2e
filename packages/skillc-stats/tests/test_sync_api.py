"""``sync_logs`` (RFC-0007:C-SYNC) over real fallback logs: copy, dedupe, remove, dry run,
crash safety, per-skill independence and E040-E042."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from skillc_index import Layout, NoLocalLogs, ResolvedSkill, resolve_skill
from skillc_index.accesslog import primary_log
from skillc_stats import SyncReport, query_stats, sync_logs

from .conftest import NOT_UTF8, all_rows, count_rows, record

Log = Callable[..., Path]
Fallback = Callable[[str], Path]


def rows_for(skill: ResolvedSkill, count: int, start: int = 0) -> list[object]:
    return [
        record(skill, "show", {"section": f"S{n}"}, timestamp=f"2026-01-30T10:00:{n:02d}Z")
        for n in range(start, start + count)
    ]


def test_nothing_to_sync(project: Path, env: dict[str, str]) -> None:
    report = sync_logs(project=project, env=env)
    assert report == SyncReport(project, False, ())
    assert report.ok and report.to_dict() == {"root": str(project), "dry_run": False, "skills": []}
    with pytest.raises(NoLocalLogs, match=r"^error\[E040\]: no local logs found$"):
        sync_logs("demo", project=project, env=env)


def test_a_project_that_is_no_folder_is_e100(project: Path, env: dict[str, str]) -> None:
    """A typo in ``project`` was "nothing to sync", ``ok``, where the CLI refused it: both
    refuse, in :func:`sync_logs`; and ``""`` (an unset variable), which synced the working
    folder as ``Path("")``."""
    from skillc_index.accesslog.errors import NoSyncFolder

    (project / "afile").write_text("x", encoding="utf-8")
    for given in (project / "typo", project / "afile", ""):
        with pytest.raises(NoSyncFolder) as caught:
            sync_logs(project=given, env=env)
        assert (
            str(caught.value) == f"error[E100]: invalid option: 'project '{given}' is not a folder'"
        )


def test_a_project_given_with_a_tilde_is_expanded(
    project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``~/...`` was E100 "is not a folder" (looked for under the working folder), where
    ``claude_folder`` expanded it: both are read with ``sync_folder``, ``~`` expanded."""
    monkeypatch.setenv("HOME", str(project.parent))
    assert sync_logs(project=f"~/{project.name}", env=env).root == project


def test_sync_moves_rows_and_removes_the_fallback(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    log_rows(*rows_for(demo, 2))  # already in the primary log
    source = log_rows(*rows_for(demo, 5, start=10), to=fallback_of("demo"))
    before = all_rows(source)
    report = sync_logs(project=project, env=env)
    (synced,) = report.skills
    assert synced.ok and synced.removed and synced.entries == 5
    assert synced.skill == "demo" and synced.source == source
    assert synced.destinations == (primary_log(demo.runtime),)
    assert not (project / ".skillc" / "logs").exists()  # empty logs/ removed too
    assert (project / ".skillc" / "skills").is_dir()  # the real project is untouched
    assert all_rows(primary_log(demo.runtime))[2:] == before
    again = sync_logs(project=project, env=env)
    assert again.skills == ()


def test_sync_removes_only_what_skillc_wrote(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """A file put by hand in a fallback log's folder stays, and so does a folder the logs
    folder links to: only the log's own files go."""
    source = log_rows(*rows_for(demo, 3), to=fallback_of("demo"))
    notes = source.parent.parent / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.removed and synced.entries == 3
    assert notes.read_text(encoding="utf-8") == "mine\n"
    assert not source.exists() and not source.parent.exists()
    assert sorted(p.name for p in (project / ".skillc" / "logs").iterdir()) == ["demo"]
    # the skill's logs folder a link to a folder of the project: the link and the folder stay
    notes.unlink()
    (project / ".skillc" / "logs" / "demo").rmdir()
    important = project / "important"
    important.mkdir()
    (important / "keep.md").write_text("kept\n", encoding="utf-8")
    (project / ".skillc" / "logs" / "demo").symlink_to(Path("..", "..", "important"))
    linked = log_rows(*rows_for(demo, 2, start=5), to=fallback_of("demo"))
    assert linked.resolve().parent.parent == important.resolve()
    (again,) = sync_logs(project=project, env=env).skills
    assert again.ok and again.removed and again.entries == 2
    assert not linked.exists() and not (important / ".skillc-meta").exists()
    assert (important / "keep.md").read_text(encoding="utf-8") == "kept\n"
    assert (project / ".skillc" / "logs" / "demo").is_symlink()
    assert [p.name for p in (project / ".skillc" / "logs").iterdir()] == ["demo"]
    assert count_rows(primary_log(demo.runtime)) == 5


def test_dry_run_changes_nothing(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    source = log_rows(*rows_for(demo, 3), to=fallback_of("demo"))
    keep = source.read_bytes()
    sync_logs(project=project, env=env)
    source.parent.mkdir(parents=True)
    source.write_bytes(keep)  # left behind by a sync cut short: 3 rows already synced
    log_rows(*rows_for(demo, 2, start=3), to=source)
    report = sync_logs(project=project, dry_run=True, env=env)
    (synced,) = report.skills
    assert synced.entries == 2 and not synced.removed and synced.ok and report.dry_run
    assert count_rows(source) == 5 and count_rows(primary_log(demo.runtime)) == 3


def test_dry_run_into_a_missing_log_creates_nothing(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    log_rows(*rows_for(demo, 4), to=fallback_of("demo"))
    (synced,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert synced.entries == 4
    assert not demo.runtime.exists()


def test_identical_rows_stay_distinct_and_a_second_copy_adds_nothing(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """Two identical accesses in the same second are two accesses; copying the same fallback
    twice (a crash between copy and removal) must not double them."""
    same = record(demo, "show", {"section": "Usage"})
    fallback = fallback_of("demo")
    log_rows(same, same, record(demo, "open", {"path": "SKILL.md"}), to=fallback)
    keep = fallback.read_bytes()
    assert sync_logs(project=project, env=env).skills[0].entries == 3
    fallback.parent.mkdir(parents=True)
    fallback.write_bytes(keep)  # the fallback left behind, as after a crash
    (again,) = sync_logs(project=project, env=env).skills
    assert again.entries == 0 and again.removed
    assert count_rows(primary_log(demo.runtime)) == 3


def test_identical_rows_logged_into_a_new_fallback_after_a_sync_are_all_kept(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """A session logging under one run id (``SKC_RUN_ID``, an MCP session's) while a periodic
    ``sync`` runs: the rows of one second logged after a sync went to a new fallback, were
    taken for the rows that sync had copied (the same content) and were deleted with it (93
    of 120 rows kept). A new fallback is another log (its identity): all its rows are new."""
    same = record(demo, "show", {"section": "Usage"})
    log_rows(same, same, to=fallback_of("demo"))
    assert sync_logs(project=project, env=env).skills[0].entries == 2
    fallback = log_rows(same, same, same, to=fallback_of("demo"))  # the same second, again
    keep = fallback.read_bytes()
    assert sync_logs(project=project, dry_run=True, env=env).skills[0].entries == 3
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.removed and synced.entries == 3
    assert count_rows(primary_log(demo.runtime)) == 5
    fallback.parent.mkdir(parents=True)
    fallback.write_bytes(keep)  # that fallback left behind, as after a crash: copied already
    (again,) = sync_logs(project=project, env=env).skills
    assert again.entries == 0 and again.removed
    assert count_rows(primary_log(demo.runtime)) == 5


CRASH = """
import os, sys
from skillc_stats import sync_logs
# die the moment the fallback folder is about to be removed (renamed, then deleted): after
# the copy has committed
sys.addaudithook(lambda event, args: os._exit(17) if event == "os.rename" else None)
sync_logs(project=sys.argv[1], env={"SKILLC_HOME": sys.argv[2]})
"""


def test_crash_between_copy_and_removal_loses_and_duplicates_nothing(
    demo: ResolvedSkill,
    project: Path,
    home: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
) -> None:
    source = log_rows(*rows_for(demo, 6), to=fallback_of("demo"))
    expected = all_rows(source)
    crashed = subprocess.run(
        [sys.executable, "-c", CRASH, str(project), str(home)], timeout=60, check=False
    )
    assert crashed.returncode == 17
    assert all_rows(source) == expected  # the fallback is intact
    assert all_rows(primary_log(demo.runtime)) == expected  # and the copy committed
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.entries == 0 and synced.removed
    assert all_rows(primary_log(demo.runtime)) == expected


def test_global_and_outside_sources_go_to_their_runtimes(
    project: Path,
    home: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    demo_skill: Callable[[Path], Path],
) -> None:
    """A fallback folder may hold rows of two source folders of the same name: each row goes
    to the runtime its own source uses, as the command that wrote it resolved it (a source
    outside the stores once its runtime exists: it was built)."""
    layout = Layout.discover(project, env)
    in_global = resolve_skill(str(demo_skill(home / ".skillc" / "skills" / "tool")), layout)
    outside = resolve_skill(str(demo_skill(project / "vendor" / "tool")), layout)
    assert in_global.scope == "global" and outside.scope == "project"
    outside.runtime.mkdir(parents=True)
    log_rows(*rows_for(in_global, 2), *rows_for(outside, 3), to=fallback_of("tool"))
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.entries == 5 and synced.removed
    assert set(synced.destinations) == {
        primary_log(in_global.runtime),
        primary_log(outside.runtime),
    }
    assert count_rows(primary_log(in_global.runtime)) == 2
    assert count_rows(primary_log(outside.runtime)) == 3


def test_a_fallback_in_a_subfolder_goes_to_the_project_runtime(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log
) -> None:
    """A fallback in ``<sub>/.skillc/`` (earlier versions wrote there) does not make ``sub``
    a project."""
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    fallback = sub / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    log_rows(*rows_for(demo, 2), to=fallback)
    (synced,) = sync_logs(project=sub, env=env).skills
    assert synced.destinations == (primary_log(demo.runtime),)
    assert count_rows(primary_log(demo.runtime)) == 2
    assert not (sub / ".skillc").exists()  # nothing left that would make it look like a project


def test_one_skill_only(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    log_rows(*rows_for(demo, 1), to=fallback_of("demo"))
    other = log_rows(*rows_for(demo, 1), to=fallback_of("other"))
    report = sync_logs("demo", project=project, env=env)
    assert [s.skill for s in report.skills] == ["demo"]
    assert other.exists() and not fallback_of("demo").exists()
    assert (project / ".skillc" / "logs").is_dir()  # still holds other's logs


def test_unreadable_source_is_e042_and_other_skills_still_sync(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    broken = fallback_of("broken")
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a database at all " * 50)
    log_rows(*rows_for(demo, 3), to=fallback_of("demo"))
    for dry_run in (True, False):
        report = sync_logs(project=project, dry_run=dry_run, env=env)
        assert not report.ok
        first, second = report.skills
        assert first.skill == "broken" and first.error is not None
        assert str(first.error) == (  # with the reason and what to do, as E041 says it
            "error[E042]: sync source not readable: '.skillc/logs/broken/.skillc-meta/logs.db'"
            "\nhint: file is not a database; move the damaged log away and sync again (a new "
            "log is started)"
        )
        assert second.skill == "demo" and second.ok and second.entries == 3
    assert broken.exists()  # kept: nothing of it was copied
    assert count_rows(primary_log(demo.runtime)) == 3


def test_row_without_skill_path_is_e042(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    source = log_rows(record(demo, "show", {}, skill_path="relative/demo"), to=fallback_of("demo"))
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.error is not None and synced.error.code == "E042"
    assert str(synced.error).endswith("\nhint: row without a skill path: 'relative/demo'")
    assert source.exists()


def raw_rows(path: Path) -> list[tuple[bytes, bytes]]:
    """``(cwd, args)`` of every row, as the bytes the log holds."""
    with closing(sqlite3.connect(path)) as db:
        db.text_factory = bytes
        return db.execute("SELECT cwd, args FROM access_log ORDER BY id").fetchall()


def test_text_that_is_not_utf8_is_moved_with_its_bytes(
    demo: ResolvedSkill,
    project: Path,
    tmp_path: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
) -> None:
    """A fallback row whose text is not UTF-8 (a log another tool or a checkout wrote) is
    merged as any other, its bytes as they were, and read by ``stats`` as the local reader
    reads it (U+FFFD; its ``args`` not JSON: skipped). ``sync`` was E042 without a reason for
    that log on every run, none of its rows merged."""
    source = log_rows(*rows_for(demo, 1), to=fallback_of("demo"))
    with closing(sqlite3.connect(source)) as db:
        db.execute(NOT_UTF8, (str(demo.source),))
        db.commit()
    log_rows(*rows_for(demo, 1, start=1), to=source)  # a row after it
    copy = shutil.copy(source, tmp_path / "copy.db")  # the fallback as it was
    expected = raw_rows(source)
    assert expected[1] == (b"/x\xff", b'{"section": "\xff"}')
    (dry,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert dry.ok and dry.entries == 3
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.removed and synced.entries == 3
    assert raw_rows(primary_log(demo.runtime)) == expected
    # the same rows again (a sync cut short): each found held, by its bytes
    source.parent.mkdir(parents=True)
    shutil.copy(copy, source)
    assert raw_rows(source) == expected
    (again,) = sync_logs(project=project, env=env).skills
    assert again.ok and again.removed and again.entries == 0
    layout = Layout.discover(project, env)
    summary = query_stats(demo, layout)
    assert summary["data"]["total_accesses"] == 3
    sections = query_stats(demo, layout, group_by="sections")["data"]
    assert sorted(entry["section"] for entry in sections) == ["S0", "S1"]


def test_unwritable_destination_is_e041_and_keeps_the_fallback(
    project: Path,
    home: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    demo_skill: Callable[[Path], Path],
) -> None:
    layout = Layout.discover(project, env)
    tool = resolve_skill(str(demo_skill(home / ".skillc" / "skills" / "tool")), layout)
    runtime_store = home / ".skillc" / "runtime"
    runtime_store.write_text("a file where the runtime store should be", encoding="utf-8")
    source = log_rows(*rows_for(tool, 2), to=fallback_of("tool"))
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert synced.error is not None
        assert str(synced.error).splitlines()[0] == (  # then a hint when the OS said why
            "error[E041]: sync destination not writable: "
            "'~/.skillc/runtime/tool/.skillc-meta/logs.db'"
        )
        assert not synced.removed and count_rows(source) == 2
    runtime_store.unlink()
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.entries == 2 and not source.exists()


def test_removal_failing_is_e999_and_loses_nothing(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    forbid_changes: Callable[[Path], Callable[[], object]],
) -> None:
    """The rows are committed before the removal starts; a removal that fails is reported
    (E999) and the next sync adds nothing twice."""
    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    undo = forbid_changes(source.parent.parent.parent)  # .skillc/logs/: demo/ stays put
    try:
        (synced,) = sync_logs(project=project, env=env).skills
    finally:
        undo()
    assert synced.error is not None and synced.error.code == "E999"
    assert str(synced.error).startswith(
        "error[E999]: cannot remove local logs '.skillc/logs/demo': "
    )
    assert not synced.removed and synced.entries == 2
    assert count_rows(primary_log(demo.runtime)) == 2
    for _ in range(2):
        sync_logs(project=project, env=env)
        assert count_rows(primary_log(demo.runtime)) == 2


def test_a_fallback_that_can_be_read_but_not_removed_is_e999_by_the_dry_run_too(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fallback whose folder the user may not modify (mode 555; its log readable): the dry
    run said it would sync, and ``sync`` was E042 "sync source not readable" with SQLite's
    "attempt to write a readonly database". Both are E999 ``cannot remove local logs``,
    before anything is copied (the permission faked: root writes through it)."""
    import os

    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    locked, real_access = str(source.parent), os.access
    monkeypatch.setattr(os, "access", lambda p, m: os.fspath(p) != locked and real_access(p, m))
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert str(synced.error) == (
            "error[E999]: cannot remove local logs '.skillc/logs/demo': Permission denied"
        )
        assert (synced.entries, synced.removed, count_rows(source)) == (0, False, 2)
    assert not primary_log(demo.runtime).exists()


def test_damaged_destination_log_is_e041_with_a_hint(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    destination = primary_log(demo.runtime)
    destination.parent.mkdir(parents=True, exist_ok=True)
    destination.write_bytes(b"SQLite format 3\0" + b"\x5a" * 8000)
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert synced.error is not None and synced.error.code == "E041"
        assert "move the damaged log away and sync again" in str(synced.error)
        assert count_rows(source) == 2
    destination.unlink()
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.entries == 2


# -- issue 13: forged rows, foreign logs, symlinks ------------------------------------------


def test_rows_of_unknown_skills_are_skipped_kept_and_create_no_runtime(
    demo: ResolvedSkill,
    project: Path,
    tmp_path: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    demo_skill: Callable[[Path], Path],
) -> None:
    """Only rows whose skill is in a store, or whose runtime folder exists, are merged; the
    others stay in the fallback log (counted), and no runtime folder is made for them."""
    layout = Layout.discover(project, env)
    vendor = resolve_skill(str(demo_skill(project / "vendor" / "tool")), layout)  # never built
    ghost = record(demo, "show", {}, skill_path=str(tmp_path / "ghost"))
    dots = record(demo, "show", {}, skill_path=str(tmp_path / "x" / ".."))
    source = log_rows(*rows_for(demo, 2), *rows_for(vendor, 3), ghost, dots, to=fallback_of("demo"))
    (would,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert (would.entries, would.skipped, would.ok) == (2, 5, True)
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.entries, synced.skipped, synced.ok, synced.removed) == (2, 5, True, False)
    assert synced.to_dict()["skipped"] == 5
    assert sorted(p.name for p in (project / ".skillc" / "runtime").iterdir()) == ["demo"]
    assert not (project / ".skillc" / ".skillc-meta").exists()
    assert count_rows(primary_log(demo.runtime)) == 2
    kept = {row[4] for row in all_rows(source)}  # the merged rows left the fallback
    assert kept == {str(vendor.source), str(tmp_path / "ghost"), str(tmp_path / "x" / "..")}
    vendor.runtime.mkdir(parents=True)  # built: its rows now have a home
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.entries, synced.skipped) == (3, 2)
    assert count_rows(primary_log(vendor.runtime)) == 3 and count_rows(source) == 2


def test_rows_of_unknown_skills_are_counted_never_read(
    demo: ResolvedSkill,
    project: Path,
    tmp_path: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
) -> None:
    """Every row was read into memory (0.85 KB a row, 429 MB for 500,000) before the rows of
    skills that are not here were skipped, on every ``sync``: they are counted by the index
    now, never read, so one skillc would refuse (a timestamp not UTC) no longer makes the
    whole log E042: the others are merged, it is kept."""
    ghost = record(demo, "show", {}, skill_path=str(tmp_path / "ghost"), timestamp="yesterday")
    source = log_rows(*rows_for(demo, 2), ghost, ghost, to=fallback_of("demo"))
    (would,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert (would.ok, would.entries, would.skipped) == (True, 2, 2)
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.ok, synced.entries, synced.skipped, synced.removed) == (True, 2, 2, False)
    assert count_rows(primary_log(demo.runtime)) == 2 and count_rows(source) == 2


def test_w003_is_quiet_for_rows_sync_looked_at_and_skipped(
    demo: ResolvedSkill,
    project: Path,
    tmp_path: Path,
    env: dict[str, str],
    layout: Layout,
    log_rows: Log,
    fallback_of: Fallback,
) -> None:
    """W003 ("stale local logs; run 'skc sync'") keyed on the fallback's age alone, so rows
    ``sync`` keeps skipping (a skill not installed and never built, an older version's) made
    it show on every use, for ever, though ``sync`` said they were skipped. A ``sync`` that
    keeps only such rows marks the log; W003 is quiet while it is unchanged, back once a new
    row comes, and the mark goes with the folder once the rows can move."""
    import os
    import time

    from skillc_index import Diagnostic
    from skillc_index.accesslog import log_access

    def age(*paths: Path) -> None:  # an hour and more goes by
        old = time.time() - 2 * 3600
        for path in paths:
            os.utime(path, (old, old))

    def warned() -> list[str]:
        outcome = log_access(layout, demo.runtime, record(demo, "show", {}))
        return [d.code for d in outcome.diagnostics if isinstance(d, Diagnostic)]

    ghost = record(demo, "show", {}, skill_path=str(tmp_path / "ghost"))
    source = log_rows(*rows_for(demo, 2), ghost, to=fallback_of("demo"))
    age(source)
    assert warned() == ["W003"]
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.entries, synced.skipped, synced.removed) == (2, 1, False)
    age(*source.parent.iterdir())  # the log and what sync wrote beside it
    assert warned() == [] and warned() == []
    assert source.with_name("skipped").stat().st_size == 0  # the mark: an empty file
    log_rows(*rows_for(demo, 1, start=5), to=source)  # a row sync can move
    age(source)
    assert warned() == ["W003"]
    (project / ".skillc" / "runtime" / "ghost").mkdir()  # built: the row has a home now
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.entries, synced.skipped, synced.removed) == (2, 0, True)
    assert not (project / ".skillc" / "logs").exists()
    # a folder of the mark's name is no mark: left alone (W003 then goes on)
    other = record(demo, "show", {}, skill_path=str(tmp_path / "other"))
    source = log_rows(*rows_for(demo, 1, start=9), other, to=fallback_of("demo"))
    (source.with_name("skipped") / "mine").mkdir(parents=True)
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and (synced.entries, synced.skipped, synced.removed) == (1, 1, False)
    age(*source.parent.iterdir())
    assert warned() == ["W003"] and (source.with_name("skipped") / "mine").is_dir()
    (project / ".skillc" / "runtime" / "other").mkdir()
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and (synced.entries, synced.skipped, synced.removed) == (1, 0, True)
    assert (source.with_name("skipped") / "mine").is_dir() and not source.exists()


def test_rows_of_every_installed_skill_are_moved_to_its_runtime(
    demo: ResolvedSkill,
    project: Path,
    home: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    demo_skill: Callable[[Path], Path],
) -> None:
    """Issue 32: rows of a skill in an agent folder or a plugin (installed, never built) were
    "skipped ... local logs kept" forever. They move to the skill's runtime now, created as
    RFC-0007:C-SYNC says (the project's runtime, as for any skill outside the stores); a
    name that fails the name rule is still refused."""
    layout = Layout.discover(project, env)
    helper = demo_skill(home / ".claude" / "skills" / "helper")  # home agent folder
    local = demo_skill(project / ".agents" / "skills" / "local")  # project agent folder
    plugin = home / "plugins" / "tools"
    tool = demo_skill(plugin / "skills" / "tool")
    records = home / ".claude" / "plugins" / "installed_plugins.json"
    records.parent.mkdir(parents=True)
    entry = {"scope": "user", "installPath": str(plugin)}
    records.write_text(json.dumps({"version": 2, "plugins": {"tools@m": [entry]}}))
    (home / ".claude" / "settings.json").write_text('{"enabledPlugins": {"tools@m": true}}')
    odd = demo_skill(home / ".claude" / "skills" / "Odd_Name")
    skills = [resolve_skill(str(folder), layout) for folder in (helper, local, tool, odd)]
    source = log_rows(*(row for skill in skills for row in rows_for(skill, 2)), to=fallback_of("x"))
    (would,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert (would.ok, would.entries, would.skipped) == (True, 6, 2)
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.ok, synced.entries, synced.skipped, synced.removed) == (True, 6, 2, False)
    runtimes = project / ".skillc" / "runtime"
    for skill in skills[:3]:
        assert skill.runtime.parent == runtimes
        assert [row[4] for row in all_rows(primary_log(skill.runtime))] == [str(skill.source)] * 2
    assert not (runtimes / "Odd_Name").exists()
    assert {row[4] for row in all_rows(source)} == {str(odd.resolve())}


def foreign(path: Path, script: str) -> None:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        db.executescript(script)
    finally:
        db.close()


MARKER = (
    "CREATE TABLE pwned (x); "
    "CREATE TRIGGER hostile AFTER INSERT ON access_log BEGIN INSERT INTO pwned VALUES (1); END;"
)


def test_a_foreign_destination_is_e041_and_its_trigger_never_runs(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    log_rows(*rows_for(demo, 1))
    destination = primary_log(demo.runtime)
    foreign(destination, MARKER)
    source = log_rows(*rows_for(demo, 2, start=5), to=fallback_of("demo"))
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert synced.error is not None and synced.error.code == "E041"
        assert str(synced.error) == (
            "error[E041]: sync destination not writable: "
            "'.skillc/runtime/demo/.skillc-meta/logs.db'\n"
            "hint: not skillc's schema (trigger 'hostile')"
        )
    assert count_rows(destination) == 1 and count_rows(source) == 2


@pytest.mark.parametrize(
    ("script", "what"),
    [
        (MARKER, "trigger 'hostile'"),
        ("CREATE VIEW v AS SELECT 1", "view 'v'"),
    ],
)
def test_a_source_with_a_trigger_or_a_view_is_e042_saying_why(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    script: str,
    what: str,
) -> None:
    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    foreign(source, script)
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert synced.error is not None and synced.error.code == "E042"
        assert str(synced.error).endswith(f"\nhint: unsafe to read ({what})")
    assert count_rows(source) == 2 and not primary_log(demo.runtime).exists()
    if what.startswith("trigger"):  # the sync deleted nothing: the trigger never ran
        assert pwned_count(source) == 0


def pwned_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM pwned").fetchone()[0])


#: A fallback log as another RFC-0007 implementation could write it: its own SQL, the RFC's
#: columns and more, another table and index.
OTHER_IMPLEMENTATION = """
CREATE TABLE access_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL, run_id TEXT NOT NULL,
    command TEXT NOT NULL, skill TEXT NOT NULL, skill_path TEXT NOT NULL, cwd TEXT NOT NULL,
    args TEXT NOT NULL, error TEXT, duration_ms INTEGER);
CREATE INDEX access_log_by_skill ON access_log (skill);
CREATE TABLE settings (name TEXT, value TEXT);
"""


@pytest.mark.parametrize(
    "script",
    [
        "CREATE INDEX idx_slow ON access_log(length(args))",
        "DROP INDEX idx_access_log_errors; CREATE INDEX idx_access_log_errors ON access_log(cwd)",
        "ANALYZE",
        "ALTER TABLE access_log ADD COLUMN duration_ms INTEGER; CREATE TABLE settings (x)",
    ],
)
def test_a_source_with_the_rfc_columns_is_synced_whoever_made_it(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    script: str,
) -> None:
    """Issue 32: a fallback log was synced only if its schema text was skillc's, byte for
    byte. Any log whose ``access_log`` has the RFC-0007 columns and that holds no trigger
    and no view is read now (``PRAGMA table_info``), only its RFC columns."""
    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    foreign(source, script)
    (would,) = sync_logs(project=project, dry_run=True, env=env).skills
    assert (would.ok, would.entries) == (True, 2)
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.ok, synced.entries, synced.removed) == (True, 2, True)
    assert count_rows(primary_log(demo.runtime)) == 2


def test_a_log_of_another_implementation_is_synced_and_read_by_stats(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """A fallback written by another implementation moves into skillc's log; a runtime log
    it wrote is read by ``stats`` as it is, and never written (its rows stay its own)."""
    source = fallback_of("demo")
    source.parent.mkdir(parents=True)
    foreign(source, OTHER_IMPLEMENTATION)
    insert_other = (
        "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args, "
        "error, duration_ms) VALUES (?, 'r', 'show', 'demo', ?, ?, ?, NULL, 7)"
    )
    with closing(sqlite3.connect(source)) as db:
        for second in range(3):
            args = json.dumps({"section": "Installation"})
            stamp = f"2026-01-30T10:00:0{second}Z"
            db.execute(insert_other, (stamp, str(demo.source), str(project), args))
        db.commit()
    (synced,) = sync_logs(project=project, env=env).skills
    assert (synced.ok, synced.entries, synced.removed) == (True, 3, True)
    assert count_rows(primary_log(demo.runtime)) == 3
    # the runtime log written by the other implementation: read, never written
    runtime_log = primary_log(demo.runtime)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{runtime_log}{suffix}").unlink(missing_ok=True)
    foreign(runtime_log, OTHER_IMPLEMENTATION)
    with closing(sqlite3.connect(runtime_log)) as db:
        args = json.dumps({"section": "Usage"})
        db.execute(insert_other, ("2026-01-31T10:00:00Z", str(demo.source), str(project), args))
        db.commit()
    layout = Layout.discover(project, env)
    summary = query_stats(demo, layout, group_by="sections")
    assert summary["data"] == [{"section": "Usage", "file": "SKILL.md", "count": 1}]
    before = runtime_log.read_bytes()
    log_rows(*rows_for(demo, 1), to=source)
    (refused,) = sync_logs(project=project, env=env).skills
    assert refused.error is not None and refused.error.code == "E041"
    assert str(refused.error).endswith("hint: not skillc's schema (table 'access_log')")
    assert runtime_log.read_bytes() == before and count_rows(source) == 1


#: What a newer skillc (access log schema 7) could write: a column and a table this version
#: does not know, and its ``user_version``.
NEWER_SKILLC = (
    "ALTER TABLE access_log ADD COLUMN duration_ms INTEGER; UPDATE access_log SET duration_ms = 42;"
    " CREATE TABLE future_notes (x); INSERT INTO future_notes VALUES ('newer data');"
    " PRAGMA user_version = 7;"
)


def test_a_fallback_a_newer_skillc_wrote_is_e042_and_kept_as_it_is(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """A newer skillc's fallback log (its ``log_identity``, ``user_version`` 7) was merged
    into the version 6 log and removed: its column and table were lost. It is left as it is
    now, saying a newer skillc wrote it; the other fallbacks still sync."""
    newer = log_rows(*rows_for(demo, 2), to=fallback_of("a-newer"))
    foreign(newer, NEWER_SKILLC)
    log_rows(*rows_for(demo, 3, start=10), to=fallback_of("demo"))
    before = newer.read_bytes()
    for dry_run in (True, False):
        report = sync_logs(project=project, dry_run=dry_run, env=env)
        first, second = report.skills
        assert not report.ok and first.skill == "a-newer" and not first.removed
        assert str(first.error) == (
            "error[E042]: sync source not readable: '.skillc/logs/a-newer/.skillc-meta/logs.db'"
            "\nhint: written by a newer skillc (access log schema 7; this skillc reads 6): "
            "upgrade skillc"
        )
        assert second.skill == "demo" and second.ok and second.entries == 3
    assert newer.read_bytes() == before  # not a byte written
    assert count_rows(primary_log(demo.runtime)) == 3
    # the destination a newer skillc wrote: E041 saying so (it said "not skillc's schema")
    foreign(primary_log(demo.runtime), NEWER_SKILLC)
    log_rows(*rows_for(demo, 1, start=20), to=fallback_of("demo"))
    report = sync_logs(project=project, env=env)
    assert str(report.skills[1].error).endswith(
        "\nhint: written by a newer skillc (access log schema 7; this skillc reads 6): "
        "upgrade skillc"
    )
    assert report.skills[1].error is not None and report.skills[1].error.code == "E041"
    assert newer.read_bytes() == before


def test_fallback_logs_symlinked_outside_are_e042_and_left_alone(
    demo: ResolvedSkill, project: Path, tmp_path: Path, env: dict[str, str], log_rows: Log
) -> None:
    outside = tmp_path / "outside"
    log_rows(*rows_for(demo, 2), to=outside / "demo" / ".skillc-meta" / "logs.db")
    (project / ".skillc" / "logs").symlink_to(outside, target_is_directory=True)
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert str(synced.error) == (
            "error[E042]: sync source not readable: '.skillc/logs/demo/.skillc-meta/logs.db'\n"
            "hint: it lies outside the project"
        )
    assert (outside / "demo" / ".skillc-meta" / "logs.db").exists()
    assert not primary_log(demo.runtime).exists()


def test_a_destination_symlinked_outside_is_e041(
    demo: ResolvedSkill,
    project: Path,
    tmp_path: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    demo.runtime.parent.mkdir(parents=True)
    demo.runtime.symlink_to(outside, target_is_directory=True)
    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    for dry_run in (True, False):
        (synced,) = sync_logs(project=project, dry_run=dry_run, env=env).skills
        assert str(synced.error) == (
            "error[E041]: sync destination not writable: "
            "'.skillc/runtime/demo/.skillc-meta/logs.db'\nhint: it lies outside the project"
        )
    assert list(outside.iterdir()) == [] and count_rows(source) == 2


def test_fallbacks_at_the_root_and_in_the_folder_synced_are_both_found(
    demo: ResolvedSkill, project: Path, env: dict[str, str], log_rows: Log, fallback_of: Fallback
) -> None:
    """Commands log to the project root's fallback; a subfolder's own (written by earlier
    versions) is synced when sync runs there."""
    sub = project / "src"
    sub.mkdir()
    assert Layout.discover(sub, env).fallback_log_dir("demo") == fallback_of("demo").parent
    log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    old = sub / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    log_rows(*rows_for(demo, 3, start=10), to=old)
    report = sync_logs(project=sub, env=env)
    assert [(s.source, s.entries, s.removed) for s in report.skills] == [
        (fallback_of("demo"), 2, True),
        (old, 3, True),
    ]
    assert count_rows(primary_log(demo.runtime)) == 5
    assert not (sub / ".skillc").exists() and not (project / ".skillc" / "logs").exists()


def test_a_writer_holding_the_lock_too_long_is_e042_and_loses_nothing(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A writer holds the fallback lock for one row; one that keeps it (a stopped ``skc``,
    or any process of a user who may read the project folder: the lock is a ``flock`` on the
    folder) makes ``sync`` give up on that log with E042 after its wait, never hang, and
    keep it; the hint names the folder that is locked."""
    from skillc_index.accesslog import fallback_lock
    from skillc_stats import _sync

    monkeypatch.setattr(_sync, "SYNC_LOCK_TIMEOUT_MS", 200)
    source = log_rows(*rows_for(demo, 3), to=fallback_of("demo"))
    with fallback_lock(project):  # held by a "stopped writer" in another process's stead
        (synced,) = sync_logs(project=project, env=env).skills
    assert synced.error is not None and str(synced.error).startswith(
        "error[E042]: sync source not readable: '.skillc/logs/demo/.skillc-meta/logs.db'"
    )
    assert f"another process holds its lock, a flock on '{project}' (waited 0.2 s" in str(
        synced.error
    )
    assert count_rows(source) == 3 and not primary_log(demo.runtime).exists()
    (synced,) = sync_logs(project=project, env=env).skills  # released: it syncs
    assert synced.ok and synced.entries == 3


def test_a_fallback_another_sync_merged_while_this_one_waited_is_no_error(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two ``sync`` at once: the one that waited for the lock found the log gone (the other
    had merged and removed it) and said E042 "source not readable", exit 1."""
    import contextlib

    import skillc_stats._sync as sync_module

    source = log_rows(*rows_for(demo, 3), to=fallback_of("demo"))
    folder = source.parent.parent
    locked = sync_module.fallback_lock

    @contextlib.contextmanager
    def merged_meanwhile(base: Path, **options: object) -> object:
        with locked(base, **options):  # type: ignore[arg-type]
            shutil.rmtree(folder)  # what the other sync did before it let go
            yield

    monkeypatch.setattr(sync_module, "fallback_lock", merged_meanwhile)
    report = sync_logs(project=project, env=env)
    (synced,) = report.skills
    assert report.ok and synced.entries == 0 and synced.error is None


@pytest.mark.parametrize("left", ["no byte", "one page"])
def test_an_empty_fallback_log_is_removed_not_e042_for_ever(
    demo: ResolvedSkill, project: Path, env: dict[str, str], fallback_of: Fallback, left: str
) -> None:
    """A fallback log a logger made and never gave its table (it ran out of file
    descriptors: no byte; the disk filled after SQLite wrote its first page, the switch to
    WAL: one page) held no row; every ``sync`` after it said E042 and merged nothing more."""
    source = fallback_of("demo")
    source.parent.mkdir(parents=True)
    source.write_bytes(b"")
    if left == "one page":
        with closing(sqlite3.connect(source)) as db:
            db.execute("PRAGMA journal_mode = WAL")
    dry = sync_logs(project=project, env=env, dry_run=True)
    assert dry.ok and dry.skills[0].entries == 0 and source.exists()
    report = sync_logs(project=project, env=env)
    (synced,) = report.skills
    assert report.ok and synced.removed and synced.entries == 0
    assert not source.exists()


def disk_full() -> sqlite3.Error:
    """The error SQLite gives when the disk is full (SQLITE_FULL), made for real: a database
    allowed one page."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("PRAGMA max_page_count = 1")
        try:
            for number in range(4):
                db.execute(f"CREATE TABLE t{number} (x)")
        except sqlite3.Error as exc:
            return exc
    raise AssertionError("SQLite did not run out of room")


@pytest.mark.parametrize("where", ["source", "destination"])
def test_a_full_disk_is_e999_with_the_reason_and_loses_nothing(
    demo: ResolvedSkill,
    project: Path,
    env: dict[str, str],
    log_rows: Log,
    fallback_of: Fallback,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    """No room left is neither the source's fault (E042 "not readable", without a reason:
    on a full disk even reading the fallback fails, SQLite grows its -shm file) nor a
    destination that cannot be written (E041): E999 with the reason (RFC-0005: IO errors)."""
    import skillc_stats._sync as sync_module

    source = log_rows(*rows_for(demo, 2), to=fallback_of("demo"))
    full = disk_full()
    if where == "source":
        opened = sync_module.open_log

        def open_log(path: Path, **options: bool) -> sqlite3.Connection:
            if path == source:
                raise full
            return opened(path, **options)

        monkeypatch.setattr(sync_module, "open_log", open_log)
        failed = ".skillc/logs/demo/.skillc-meta/logs.db"
    else:

        def copy_missing(*_args: object) -> int:
            raise full

        monkeypatch.setattr(sync_module, "copy_missing", copy_missing)
        failed = ".skillc/runtime/demo/.skillc-meta/logs.db"
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.error is not None and synced.error.code == "E999"
    assert str(synced.error).startswith(
        f"error[E999]: cannot sync '{failed}': database or disk is full (SQLITE_FULL)"
    )
    assert not synced.removed and count_rows(source) == 2
    monkeypatch.undo()
    (synced,) = sync_logs(project=project, env=env).skills
    assert synced.ok and synced.entries == 2 and not source.exists()
