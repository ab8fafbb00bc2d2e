"""Fault injection (issue 9): damaged, locked and read-only databases, a runtime folder that
disappears, a full disk during a build, a build killed with SIGKILL.

What must hold after every fault: commands fail, if at all, with a clean diagnostic (exit 1,
``error[EXXX]`` lines, no traceback); ``show`` and ``search`` never serve wrong content (the
index is a cache: a damaged, missing or outdated index is built again on demand, and the
answer comes from the current sources, or the reader refuses with E002); logging never fails
a command and loses no row; and the next ``skc build`` repairs what the fault broke.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from stress_support import (
    assert_clean_failure,
    count_rows,
    skill_md,
    tree_snapshot,
    write_tree,
)

from e2e_support import SmallDisks

Run = Callable[..., "subprocess.CompletedProcess[str]"]

INSTALL = "## Install\n\nRun the installer to set up widgets.\n\n"


def index_file(runtime: Path) -> Path:
    (found,) = (runtime / ".skillc-meta").glob("search-*.db")
    return found


def assert_serves_demo(ok: Run) -> None:
    """``show`` and ``search`` answer from the demo skill, with its real content."""
    assert ok("show", "demo", "--section", "Install").stdout == INSTALL
    assert "SKILL.md#Install" in ok("search", "demo", "installer").stdout


def assert_index_rebuilt(ok: Run) -> None:
    """``show`` and ``search`` answer from the sources, the index built again on demand; the
    commands reading sources work too."""
    assert_serves_demo(ok)
    for args in (("outline", "demo"), ("open", "demo", "SKILL.md"), ("sources", "demo")):
        ok(*args)


# -- a damaged index ----------------------------------------------------------------------------


def _zero(data: bytes) -> bytes:
    return b""


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _header_only(data: bytes) -> bytes:
    return data[:100]


def _bad_header(data: bytes) -> bytes:
    return b"NOT SQLITE AT ALL" + data[17:]


def _scribbled(data: bytes) -> bytes:
    damaged = bytearray(data)
    for offset in range(4096, len(damaged), 7):
        damaged[offset] = 0xAB
    return bytes(damaged)


def _random(data: bytes) -> bytes:
    return os.urandom(len(data))


@pytest.mark.parametrize("damage", [_zero, _half, _header_only, _bad_header, _scribbled, _random])
def test_damaged_index_is_rebuilt_on_demand(
    ok: Run, demo: Path, runtime: Path, damage: Callable[[bytes], bytes]
) -> None:
    path = index_file(runtime)
    path.write_bytes(damage(path.read_bytes()))
    assert_index_rebuilt(ok)
    ok("build", "demo")
    assert_serves_demo(ok)


def _scribble_content_pages(path: Path) -> None:
    """Overwrite the FTS5 and headings pages, leaving ``index_meta`` readable and the file's
    size as it was."""
    with closing(sqlite3.connect(path)) as connection:
        pages = dict(connection.execute("SELECT name, rootpage FROM sqlite_master"))
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    for table in ("sections_data", "sections_idx", "sections_content", "headings"):
        start = (pages[table] - 1) * page_size
        data[start : start + page_size] = b"\x5a" * page_size
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("keep_time", [False, True])
def test_damaged_content_pages_are_never_served_and_build_repairs(
    ok: Run, skc: Run, demo: Path, runtime: Path, keep_time: bool
) -> None:
    """The FTS5 and headings pages scribbled over while ``index_meta`` stays readable (even
    with the file's time put back): a read that fails is corruption (RFC-0004), so the reader
    builds the index again and answers from the sources, never with wrong sections; the next
    ``skc build`` (``--force`` if it finds its files as it wrote them) serves the same."""
    path = index_file(runtime)
    before = path.stat()
    _scribble_content_pages(path)
    if keep_time:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert_serves_demo(ok)
    built = ok("build", "demo", "--format", "json")
    if '"up-to-date"' in built.stdout:
        built = ok("build", "demo", "--force", "--format", "json")
    assert '"rebuilt"' in built.stdout, built.stdout
    assert_serves_demo(ok)


def test_index_locked_by_another_writer(ok: Run, skc: Run, demo: Path, runtime: Path) -> None:
    """Another process holds an exclusive lock on the index: readers refuse cleanly (RFC-0004:
    every read failure is E002) or answer correctly; a build replaces the file (rename), so
    readers work again while the old lock is still held."""
    with closing(sqlite3.connect(index_file(runtime), isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO index_meta (key, value) VALUES ('lock', 'held')")
        for args in (("show", "demo", "--section", "Install"), ("search", "demo", "installer")):
            proc = skc(*args)
            if proc.returncode == 0:
                assert "installer" in proc.stdout
            else:
                assert_clean_failure(proc, "E002")
        ok("build", "demo")
        assert_serves_demo(ok)
        holder.execute("ROLLBACK")
    assert_serves_demo(ok)


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` made read-only for the commands run inside the block: a read-only bind mount
    when running as root (root ignores permission bits), else ``chmod``."""
    if os.geteuid() == 0:
        if shutil.which("mount") is None:
            pytest.skip("running as root without a 'mount' command: cannot make a folder read-only")
        bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], check=False)
        if bound.returncode != 0:
            pytest.skip(
                "running as root without the right to mount: cannot make a read-only folder"
            )
        try:
            remount = ["mount", "-o", "remount,bind,ro", str(folder)]
            if subprocess.run(remount, check=False).returncode != 0:
                pytest.skip("cannot remount read-only")
            yield
        finally:
            subprocess.run(["umount", str(folder)], check=True)
    else:
        modes = {path: path.stat().st_mode for path in [folder, *folder.rglob("*")]}
        for path in modes:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)


def test_read_only_runtime(ok: Run, skc: Run, demo: Path, runtime: Path, project: Path) -> None:
    """A read-only runtime (a sandbox): readers work, their rows go to the fallback log in the
    working directory; a build that must write fails cleanly and changes nothing."""
    before = tree_snapshot(runtime)
    primary_rows = count_rows(runtime / ".skillc-meta" / "logs.db")
    with read_only(runtime):
        assert_serves_demo(ok)
        ok("outline", "demo")
        (demo / "SKILL.md").write_text(
            (demo / "SKILL.md").read_text(encoding="utf-8") + "\n## New\n\nnew text\n",
            encoding="utf-8",
        )
        assert_clean_failure(skc("build", "demo"))
        assert tree_snapshot(runtime) == before
    fallback = project / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    assert count_rows(fallback) == 4  # show, search, outline, build: none lost
    assert count_rows(runtime / ".skillc-meta" / "logs.db") == primary_rows
    ok("build", "demo")
    assert ok("show", "demo", "--section", "New").stdout.startswith("## New")


def test_read_only_agent_folder(ok: Run, skc: Run, demo: Path, project: Path) -> None:
    """A read-only agent folder (issue 13): a build that would deploy there fails with one
    clean error naming the folder and why, before anything is written; a build whose
    deployment is already in place still works."""
    agents = project / ".claude" / "skills"
    write_tree(
        project / ".skillc" / "skills" / "other", {"SKILL.md": skill_md("other", "x.", "# Other\n")}
    )
    with read_only(agents):
        proc = skc("build", "other")
        assert_clean_failure(proc, "E999")
        first = proc.stderr.splitlines()[0]
        why = "read-only" if os.geteuid() == 0 else "permission denied"  # a mount, or modes
        assert "'.claude/skills'" in first and why in first, first
        built = tree_snapshot(project / ".skillc" / "runtime" / "other")
        assert [rel for rel in built if "logs.db" not in rel] == []  # only the failed build's row
        assert "(symlink, unchanged)" in ok("build", "demo").stdout
    ok("build", "other")


def test_an_up_to_date_copy_in_a_read_only_agent_folder_is_unchanged(
    ok: Run, skc_installed: Run, demo: Path, runtime: Path, project: Path
) -> None:
    """An up-to-date ``--copy`` deployment in a read-only agent folder failed every build
    (``agent folder '.claude/skills' is not writable``: checked before the copy was seen to be
    current), where a symlink one succeeds. It is ``unchanged``; a build that would change it
    (its sources edited, ``--force``) still fails first, the runtime left as it was."""
    ok("build", "demo", "--copy")
    agents = project / ".claude" / "skills"
    with read_only(agents):
        for args, said in ((["demo"], "(copy, unchanged)"), (["--all"], "0 built, 1 up to date")):
            proc = skc_installed("build", *args)
            assert proc.returncode == 0 and said in proc.stdout, (proc.stdout, proc.stderr)
        before = {k: v for k, v in tree_snapshot(runtime).items() if "logs.db" not in k}
        assert_clean_failure(skc_installed("build", "demo", "--force"), "E999")
        with (demo / "SKILL.md").open("a", encoding="utf-8") as stub:
            stub.write("\n## New\n\nnew text\n")
        proc = skc_installed("build", "demo")
        assert_clean_failure(proc, "E999")
        assert "'.claude/skills' is not writable" in proc.stderr
        after = {k: v for k, v in tree_snapshot(runtime).items() if "logs.db" not in k}
        assert after == before


# -- a damaged or busy access log ---------------------------------------------------------------


@pytest.mark.parametrize("damage", [_half, _bad_header, _random, _scribbled])
def test_damaged_log_never_fails_a_command(
    ok: Run, demo: Path, runtime: Path, project: Path, damage: Callable[[bytes], bytes]
) -> None:
    log = runtime / ".skillc-meta" / "logs.db"
    log.write_bytes(damage(log.read_bytes()))
    assert_serves_demo(ok)
    fallback = project / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    assert count_rows(fallback) == 2  # the rows went to the fallback log: none lost


def test_damaged_log_and_no_fallback_warns(
    ok: Run, demo: Path, runtime: Path, project: Path
) -> None:
    log = runtime / ".skillc-meta" / "logs.db"
    log.write_bytes(_random(log.read_bytes()))
    (project / ".skillc" / "logs").write_text("a file where the fallback folder would go\n")
    proc = ok("show", "demo", "--section", "Install")
    assert proc.stdout == INSTALL
    damaged, disabled = proc.stderr.splitlines()
    assert damaged.startswith(
        "warning: access log '.skillc/runtime/demo/.skillc-meta/logs.db' is damaged (file is "
        "not a database): move it away"
    )
    assert disabled == "warning[W002]: logging disabled; run 'skc sync' after session to merge logs"


def test_empty_log_file_is_a_new_log(ok: Run, demo: Path, runtime: Path) -> None:
    log = runtime / ".skillc-meta" / "logs.db"
    log.write_bytes(b"")
    for name in ("logs.db-wal", "logs.db-shm"):
        (runtime / ".skillc-meta" / name).unlink(missing_ok=True)
    assert_serves_demo(ok)
    assert count_rows(log) == 2


def test_log_locked_by_another_writer(
    skc_path: Path, clean_env: dict[str, str], demo: Path, runtime: Path, project: Path
) -> None:
    """A writer holds the log for a while: the command waits briefly (0.5 s), then puts its row
    in the project root's fallback log (issue 13), which ``skc sync`` from the root merges: no
    row is lost, and none is written twice (under load the command may also reach its write
    after the lock is gone and write the primary log directly)."""
    log = runtime / ".skillc-meta" / "logs.db"
    before = count_rows(log)
    with closing(sqlite3.connect(log, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute(
            "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, "
            "cwd, args) VALUES ('2026-01-01T00:00:00Z', 'r', 'x', 'demo', '/', '/', '{}')"
        )
        child = subprocess.Popen(
            [str(skc_path), "show", "demo", "--section", "Install"],
            cwd=project,
            env=clean_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.5)  # let the command reach its log write and wait on the lock
        holder.execute("COMMIT")
        out, err = child.communicate(timeout=120)
    assert child.returncode == 0 and out == INSTALL, err
    fallback = project / ".skillc" / "logs" / "demo" / ".skillc-meta" / "logs.db"
    waiting = count_rows(fallback) if fallback.exists() else 0
    assert count_rows(log) + waiting == before + 2  # the holder's row and the command's
    synced = subprocess.run(
        [str(skc_path), "sync"], cwd=project, env=clean_env, capture_output=True, text=True
    )
    assert synced.returncode == 0, synced.stderr
    assert count_rows(log) == before + 2


# -- the runtime folder disappears ---------------------------------------------------------------


def test_runtime_deleted_mid_session(ok: Run, skc: Run, demo: Path, runtime: Path) -> None:
    assert_serves_demo(ok)
    shutil.rmtree(runtime)
    assert_index_rebuilt(ok)
    log = runtime / ".skillc-meta" / "logs.db"
    assert count_rows(log) == 5  # the rows since the deletion: show, search and 3 more
    ok("build", "demo")
    assert_serves_demo(ok)
    assert count_rows(log) == 8


def test_runtime_meta_folder_deleted(ok: Run, skc: Run, demo: Path, runtime: Path) -> None:
    shutil.rmtree(runtime / ".skillc-meta")
    assert_index_rebuilt(ok)
    ok("build", "demo")
    assert_serves_demo(ok)


def test_runtime_replaced_by_a_file(ok: Run, skc: Run, demo: Path, runtime: Path) -> None:
    shutil.rmtree(runtime)
    runtime.write_text("not a folder\n")
    # the reader's index goes to a private folder of its process; the file is left alone
    assert ok("show", "demo", "--section", "Install").stdout == INSTALL
    assert_clean_failure(skc("build", "demo"))
    assert runtime.read_text() == "not a folder\n"
    runtime.unlink()
    ok("build", "demo")
    assert_serves_demo(ok)


# -- a big skill, for faults in the middle of a build --------------------------------------------


def big_skill(source: Path, version: int, files: int = 120) -> None:
    """A skill of ``files`` reference files (about 1 MB of sections); SKILL.md's ``Marker``
    section says ``marker v<version>`` and moves down one line per version, so an index of
    another version would show the wrong lines."""
    body = "\n" * version + f"# Big\n\n## Marker\n\nmarker v{version}\n\n## Other\n\nother\n"
    files_text = {"SKILL.md": skill_md("big", "Use when testing faults.", body)}
    sections = "".join(
        f"## Part {j}\n\nword{j} lorem ipsum dolor sit amet consectetur\n\n" for j in range(150)
    )
    for number in range(files):
        files_text[f"references/r{number:03d}.md"] = f"# Ref {number}\n\n{sections}"
    write_tree(source, files_text)


def marker(version: int) -> str:
    return f"## Marker\n\nmarker v{version}\n\n"


def assert_consistent(skc: Run, version: int) -> None:
    """``show`` gives the current sources' Marker section or refuses cleanly; ``search`` finds
    the current version or refuses cleanly."""
    shown = skc("show", "big", "--section", "Marker")
    if shown.returncode == 0:
        assert shown.stdout == marker(version)
    else:
        assert_clean_failure(shown, "E002")
    found = skc("search", "big", f"v{version}")
    if found.returncode == 0:
        assert "SKILL.md#Marker" in found.stdout
    else:
        assert_clean_failure(found, "E002")


@pytest.fixture
def big_files() -> int:
    """How many reference files :func:`big` has (a test may parametrize it)."""
    return 120


@pytest.fixture
def big(ok: Run, project: Path, big_files: int) -> Path:
    ok("init")
    source = project / ".skillc" / "skills" / "big"
    big_skill(source, 0, big_files)
    ok("build", "big")
    return source


def _build_child(
    skc_path: Path, env: dict[str, str], cwd: Path, **kwargs: object
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(skc_path), "build", "big"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        **kwargs,  # type: ignore[call-overload]
    )


def _wait_for(condition: Callable[[], bool], child: subprocess.Popen[bytes]) -> bool:
    """Poll until ``condition`` holds (True) or the child ends (False)."""
    while child.poll() is None:
        if condition():
            return True
        time.sleep(0.002)
    return False


@pytest.mark.parametrize(
    "big_files",
    [pytest.param(40, id="smoke"), pytest.param(120, id="long", marks=pytest.mark.long)],
)
def test_sigkill_during_build(
    ok: Run,
    skc: Run,
    skc_path: Path,
    clean_env: dict[str, str],
    project: Path,
    big: Path,
    big_files: int,
) -> None:
    """SIGKILL at the worst moments: while the new index is written, while the new files are
    moved into the runtime, and at spread-out delays. After each kill, show/search give the
    current content or E002, never another version's lines; the next build repairs. (The
    skill of 120 files, about 1 MB, is the long suite's; the default run kills builds of 40.)"""
    runtime_store = project / ".skillc" / "runtime"

    def staging_has(name: str) -> Callable[[], bool]:
        return lambda: any((s / name).exists() for s in runtime_store.glob(".big.build.*"))

    # How long a full rebuild takes here: the delays below are fractions of it (scheduling
    # only; nothing is asserted about time).
    big_skill(big, 100, big_files)
    start = time.perf_counter()
    ok("build", "big")
    duration = time.perf_counter() - start
    moments: list[Callable[[], bool] | float] = [
        staging_has(".skillc-meta"),
        staging_has("SKILL.md"),
        staging_has(".skillc-meta/manifest.json"),
        *(duration * fraction for fraction in (0.2, 0.5, 0.8, 0.9, 0.95, 1.0)),
    ]
    killed = 0
    for version, moment in enumerate(moments, start=1):
        big_skill(big, version, big_files)
        child = _build_child(skc_path, clean_env, project)
        if isinstance(moment, float):
            time.sleep(moment)
            reached = child.poll() is None
        else:
            reached = _wait_for(moment, child)
        if reached:
            child.send_signal(signal.SIGKILL)
            killed += 1
        child.wait(timeout=120)
        if child.returncode not in (0, -signal.SIGKILL):
            pytest.fail(f"build exited {child.returncode}: {child.stderr.read()!r}")  # type: ignore[union-attr]
        child.stderr.close()  # type: ignore[union-attr]
        assert_consistent(skc, version)
    assert killed >= 3  # the staged moments at least were all reached
    ok("build", "big")
    assert not list(runtime_store.glob(".big.build.*"))  # the killed builds' folders swept
    assert ok("show", "big", "--section", "Marker").stdout == marker(len(moments))
    assert ok("search", "big", "word149", "--limit", "1").stdout


# -- a full disk during a build -----------------------------------------------------------------


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:  # in the child, before exec; Python ignores SIGXFSZ, writes get EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _assert_failed_build_left_runtime(
    skc: Run, ok: Run, big: Path, runtime: Path, before: dict[str, bytes]
) -> None:
    after = tree_snapshot(runtime)
    for snapshot in (before, after):
        for name in ("logs.db", "logs.db-wal", "logs.db-shm"):
            snapshot.pop(f".skillc-meta/{name}", None)
    assert after == before  # stub, manifest and index untouched
    assert not list(runtime.parent.glob(".big.build.*"))  # staging cleaned up
    assert_consistent(skc, 1)


def test_disk_full_on_build_file_size_limit(
    ok: Run, skc: Run, skc_path: Path, clean_env: dict[str, str], project: Path, big: Path
) -> None:
    """Writes beyond 256 KB fail (RLIMIT_FSIZE, EFBIG) while the new index is written: the
    build fails cleanly, the previous runtime is left exactly as it was and stays usable."""
    runtime = project / ".skillc" / "runtime" / "big"
    before = tree_snapshot(runtime)
    big_skill(big, 1, files=160)
    child = _build_child(skc_path, clean_env, project, preexec_fn=_file_size_limit(256 * 1024))
    _out, err = child.communicate(timeout=300)
    proc = subprocess.CompletedProcess(child.args, child.returncode, "", err.decode())
    assert_clean_failure(proc)
    _assert_failed_build_left_runtime(skc, ok, big, runtime, before)
    big_skill(big, 0)
    for extra in range(120, 160):
        (big / "references" / f"r{extra:03d}.md").unlink()
    assert ok("show", "big", "--section", "Marker").stdout == marker(0)  # the old runtime serves
    big_skill(big, 1, files=160)
    ok("build", "big")
    assert ok("show", "big", "--section", "Marker").stdout == marker(1)


@pytest.fixture
def tiny_runtime_disk(project: Path, small_disk: SmallDisks) -> Path:
    """A 6 MB tmpfs mounted on the project's runtime store (root only: the RLIMIT_FSIZE test
    covers the rest)."""
    return small_disk(project / ".skillc" / "runtime", "size=6m")


def test_disk_full_on_build_tmpfs(
    ok: Run, skc: Run, project: Path, tiny_runtime_disk: Path
) -> None:
    """A real ENOSPC: the runtime store is a small tmpfs, filled up before the rebuild."""
    ok("init")
    source = project / ".skillc" / "skills" / "big"
    big_skill(source, 0, files=20)
    ok("build", "big")
    runtime = tiny_runtime_disk / "big"
    filler = tiny_runtime_disk / "filler"
    stat = os.statvfs(tiny_runtime_disk)
    free = stat.f_bavail * stat.f_frsize
    filler.write_bytes(b"\0" * max(free - 300 * 1024, 0))
    before = tree_snapshot(runtime)
    big_skill(source, 1, files=60)
    assert_clean_failure(skc("build", "big"))
    after = tree_snapshot(runtime)
    for snapshot in (before, after):
        for name in ("logs.db", "logs.db-wal", "logs.db-shm"):
            snapshot.pop(f".skillc-meta/{name}", None)
    assert after == before
    assert not list(tiny_runtime_disk.glob(".big.build.*"))
    assert_consistent(skc, 1)
    filler.unlink()
    ok("build", "big")
    assert ok("show", "big", "--section", "Marker").stdout == marker(1)


def test_runtime_store_deleted_during_build(
    ok: Run, skc: Run, skc_path: Path, clean_env: dict[str, str], project: Path, big: Path
) -> None:
    """The whole runtime store (the runtime and the build's staging folder in it) removed
    while a build writes the new index: the build fails cleanly or completes; either way
    the next build leaves a runtime that serves the current sources."""
    store = project / ".skillc" / "runtime"
    big_skill(big, 1)
    child = _build_child(skc_path, clean_env, project)
    if _wait_for(lambda: any(store.glob(".big.build.*/.skillc-meta")), child):
        shutil.rmtree(store, ignore_errors=True)
    _out, err = child.communicate(timeout=300)
    proc = subprocess.CompletedProcess(child.args, child.returncode, "", err.decode())
    if proc.returncode:
        assert_clean_failure(proc)
    assert_consistent(skc, 1)
    ok("build", "big")
    assert ok("show", "big", "--section", "Marker").stdout == marker(1)
