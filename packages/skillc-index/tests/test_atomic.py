"""Staging folders: the ones abandoned by killed processes are swept, no others; folder locks."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillc_index.atomic import abandoned, staging_dir


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _held(folder: Path) -> int:
    """A descriptor holding ``folder`` locked, as its live maker does (``mkdir_held``)."""
    import fcntl

    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def test_staging_dir_sweeps_folders_of_dead_processes_only(tmp_path: Path) -> None:
    """Swept: a dead process's folder, and one of a live pid that nobody holds (the pid
    taken by another process since its maker was killed). Kept: one its live maker holds,
    another prefix's, a name that is not a temporary one."""
    dead = tmp_path / f".demo.build.{_dead_pid()}-0a1b2c3d"
    alive = tmp_path / f".demo.build.{os.getppid()}-0a1b2c3d"  # the parent runs
    reused = tmp_path / f".demo.build.{os.getppid()}-1a1b2c3d"  # nobody holds it
    other_prefix = tmp_path / f".other.build.{_dead_pid()}-0a1b2c3d"
    odd = tmp_path / ".demo.build.not-a-pid"
    for folder in (dead, alive, reused, other_prefix, odd):
        (folder / ".skillc-meta").mkdir(parents=True)
        (folder / ".skillc-meta" / "search-x.db").write_bytes(b"partial")
    fd = _held(alive)
    try:
        made = staging_dir(tmp_path, "demo.build")
    finally:
        os.close(fd)
    assert made.is_dir() and not any(made.iterdir())
    assert made.name.startswith(f".demo.build.{os.getpid()}-")
    assert not dead.exists() and not reused.exists()
    assert alive.exists() and other_prefix.exists() and odd.exists()
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith("~")) == []


_MAKER = """
import sys
from pathlib import Path
from skillc_index.atomic import staging_dir
from skillc_index.pinned import Pinned
parent = Path(sys.argv[1])
made = staging_dir(parent, "demo.build")
with Pinned.at(str(parent.resolve())) as folder:
    pinned = folder.temporary("demo.route")
    print(made.name, pinned, flush=True)
    sys.stdin.read()
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc")
def test_a_live_makers_folder_is_never_swept_whatever_the_clocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live build's staging folder was taken for a killed one's, and deleted under it,
    when its process seemed to start after the folder last changed: a clock stepped forward,
    a file server's clock behind, a boot time read before the clock was set. Its maker holds
    it (``flock``) while it runs: kept whatever the clocks say (the boot time and the clock
    faked an hour forward here); swept once the maker is killed."""
    from skillc_index import cores
    from skillc_index.pinned import Pinned

    with subprocess.Popen(
        [sys.executable, "-c", _MAKER, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None
            made, pinned = child.stdout.readline().split()
            with monkeypatch.context() as faked:
                faked.setattr(cores, "_BOOT", [time.time() + 3600], raising=False)
                real_time = time.time
                faked.setattr(time, "time", lambda: real_time() + 3600)
                assert abandoned(tmp_path, "demo.build", "demo.route") == []
                with Pinned.at(str(tmp_path.resolve())) as folder:
                    folder.sweep("demo.build", "demo.route")
                staging_dir(tmp_path, "demo.build")
            assert (tmp_path / made).is_dir() and (tmp_path / pinned).is_dir()
        finally:
            child.kill()
    assert abandoned(tmp_path, "demo.build", "demo.route") == sorted(
        [tmp_path / made, tmp_path / pinned]
    )


def test_temporary_pid_reads_the_names_temporary_path_makes(tmp_path: Path) -> None:
    from skillc_index.atomic import temporary_path, temporary_pid

    assert temporary_pid(temporary_path(tmp_path, "zarr-python.deploy").name) == os.getpid()
    for name in ("zarr-python", ".x.12-abcd", ".x.12-0A1B2C3D", "..12-0a1b2c3d", ".x.²-0a1b2c3d"):
        assert temporary_pid(name) is None


def test_staging_dir_without_sweep_keeps_everything(tmp_path: Path) -> None:
    dead = tmp_path / f".demo.old.{_dead_pid()}-0a1b2c3d"
    (dead / "demo").mkdir(parents=True)
    staging_dir(tmp_path, "demo.old", sweep=False)
    assert (dead / "demo").is_dir()


def test_temporary_names_fit_in_a_file_name_and_are_found_again(tmp_path: Path) -> None:
    """A legal name of 243 to 255 bytes got a temporary name over NAME_MAX (`File name too
    long`): every writer (build, deploy, package) makes its names here."""
    from skillc_index.atomic import NAME_MAX, abandoned, temporary_path, write_file_atomic

    for name in ("l" * 255, "é" * 127, "short"):
        made = temporary_path(tmp_path, f"{name}.tmp")
        assert len(os.fsencode(made.name)) <= NAME_MAX
        made.write_bytes(b"left by a killed process")
        pid = str(os.getpid())
        left = made.with_name(made.name.replace(f".{pid}-", f".{_dead_pid()}-"))
        made.rename(left)
        assert abandoned(tmp_path, f"{name}.tmp") == [left]
        left.unlink()
        write_file_atomic(tmp_path / name, b"data")
        assert (tmp_path / name).read_bytes() == b"data"


def test_a_locked_folder_another_run_makes_at_once_is_locked_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``skc package`` runs into a folder not there yet: both saw it missing, one made
    it, the other's ``mkdir`` failed (FileExistsError) and it went on unlocked, losing the
    first's entry of the record. Here the folder appears between the check and the mkdir,
    as when another run makes it; the lock is taken, and the folder (not this run's) kept."""
    import fcntl

    from skillc_index import atomic, locks

    folder = tmp_path / "out"
    finds = atomic.nearest_existing

    def made_by_another(path: Path) -> Path:
        found = finds(path)
        folder.mkdir()
        return found

    monkeypatch.setattr(atomic, "nearest_existing", made_by_another)
    with locks.locked_folder(folder, 0, make=True):
        other = os.open(folder, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    assert folder.is_dir()
    monkeypatch.undo()
    with locks.locked_folder(tmp_path / "new" / "er", 0, make=True):  # made for it
        assert (tmp_path / "new" / "er").is_dir()
    assert not (tmp_path / "new").exists()  # nothing written: removed again


def test_an_owned_lock_is_waited_for_while_read_and_refused_at_once_while_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``flock_within(owned=True)`` (the find server's lock: ``claim_lock``) gives up at once
    while another holds the lock exclusively (its owner), however long it may wait, and
    waits while others hold it shared (a client reading it: here until it was refused once),
    as the lock tells; the shared lock it takes to ask is let go. Where there is no
    ``flock`` it raises (one owner or none), where a plain wait runs unlocked."""
    import fcntl
    import math

    from skillc_index import locks

    path = tmp_path / "owned.lock"
    path.touch()
    owner, claimant, other = (os.open(path, os.O_RDWR) for _ in range(3))
    flock = fcntl.flock
    refused: list[int] = []

    def read_until_refused(fd: int, operation: int) -> None:
        try:
            flock(fd, operation)
        except BlockingIOError:
            if fd == claimant and operation & fcntl.LOCK_EX and not refused:
                refused.append(operation)
                flock(owner, fcntl.LOCK_UN)  # the read ends
            raise

    try:
        flock(owner, fcntl.LOCK_EX)
        assert locks.flock_within(claimant, math.inf, owned=True) is False
        flock(owner, fcntl.LOCK_SH)  # (converted: now a reader's)
        assert locks.flock_within(claimant, 0, owned=True) is False  # not in time
        flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)  # claimant holds none: not even shared
        flock(other, fcntl.LOCK_UN)
        monkeypatch.setattr(fcntl, "flock", read_until_refused)
        assert locks.flock_within(claimant, math.inf, owned=True) is True and refused
        with pytest.raises(BlockingIOError):
            flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
    finally:
        for fd in (owner, claimant, other):
            os.close(fd)

    def no_flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_flock)
    with open(path, "rb") as file:
        assert locks.flock_within(file.fileno(), 1) is True
        with pytest.raises(OSError, match="No locks available"):
            locks.flock_within(file.fileno(), 1, owned=True)


def test_a_replacing_write_removes_what_a_killed_write_of_it_left(tmp_path: Path) -> None:
    """``skillc-lint --fix`` killed between writing a SKILL.md's new text and renaming it
    left ``.SKILL.md.tmp.<pid>-<hex>`` in the skill folder, and no later run removed it: the
    next write of that file does (another file's, a live process's and a folder stay)."""
    from skillc_index.atomic import write_file_atomic

    target = tmp_path / "SKILL.md"
    target.write_text("old")
    left = tmp_path / f".SKILL.md.tmp.{_dead_pid()}-0a1b2c3d"
    left.write_text("new, never renamed")
    live = tmp_path / f".SKILL.md.tmp.{os.getpid()}-0a1b2c3d"
    live.write_text("being written")
    other = tmp_path / f".README.md.tmp.{_dead_pid()}-0a1b2c3d"
    other.write_text("another file's")
    folder = tmp_path / f".SKILL.md.tmp.{_dead_pid()}-1a1b2c3d"
    folder.mkdir()
    write_file_atomic(target, b"fixed")
    assert target.read_text() == "fixed"
    assert not left.exists()
    assert live.exists() and other.exists() and folder.is_dir()


def test_a_write_the_disk_refuses_at_the_close_names_the_file(tmp_path: Path) -> None:
    """A full disk failed the flush at the close of a small file (the write itself was
    buffered): the ``OSError`` named no file, so ``route install`` said ``error[E999]: OSError:
    [Errno 28] No space left on device``. It names the file, and nothing is left."""
    code = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from skillc_index.atomic import write_file_atomic\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))\n"  # no byte: as a full disk
        "try:\n    write_file_atomic(Path(sys.argv[1]), b'{}')\n"
        "except OSError as exc:\n    print(exc.filename)\n"
    )
    path = tmp_path / "claude.json"
    run = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert (run.returncode, run.stdout) == (0, f"{path}\n"), run.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_write_stays_in_the_folder_it_opened_when_the_path_is_swapped(tmp_path: Path) -> None:
    """The temporary file, the rename and a removal all happen in the folder opened once: a
    folder swapped for a symlink to another one meanwhile gets nothing (by path, the rename
    failed and the temporary file stayed in the other folder)."""
    from skillc_index.atomic import write_file_atomic

    folder, aside, elsewhere = tmp_path / "refs", tmp_path / "refs.real", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "doc.md").write_bytes(b"old")

    def swap() -> None:
        folder.rename(aside)
        folder.symlink_to(elsewhere)

    write_file_atomic(folder / "doc.md", b"new", before_rename=swap)
    assert [p.name for p in aside.iterdir()] == ["doc.md"]
    assert (aside / "doc.md").read_bytes() == b"new"
    assert list(elsewhere.iterdir()) == []


def test_a_write_that_follows_nothing_refuses_a_symlink_in_the_path(tmp_path: Path) -> None:
    from skillc_index.atomic import write_file_atomic

    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(NotADirectoryError) as refused:
        write_file_atomic(tmp_path / "link" / "doc.md", b"new", follow=False)
    assert refused.value.filename == str(tmp_path / "link" / "doc.md")
    assert list((tmp_path / "real").iterdir()) == []
    write_file_atomic(tmp_path.resolve() / "real" / "doc.md", b"new", follow=False)
    assert (tmp_path / "real" / "doc.md").read_bytes() == b"new"


def test_a_pinned_folder_is_opened_by_its_real_path_only_and_removes_no_link_target(
    tmp_path: Path,
) -> None:
    """``Pinned.at`` walks a real path without following a symlink (a folder of it swapped
    for one is ``OSError``), makes the folders missing on the way with ``make``, and its
    ``remove`` takes a folder with all it holds, a symlink in it as a link only."""
    from skillc_index.pinned import Pinned

    real, outside = tmp_path.resolve() / "real", tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept", encoding="utf-8")
    (tmp_path / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OSError) as refused:
        Pinned.at(tmp_path.resolve() / "link")
    assert refused.value.errno in (errno.ENOTDIR, errno.ELOOP)
    with Pinned.at(real / "made", make=True) as folder:
        folder.write({"copy/SKILL.md": b"stub", "copy/a/b.md": b"b"}, frozenset({"copy/a/b.md"}))
        (real / "made" / "copy" / "out").symlink_to(outside, target_is_directory=True)
        assert os.access(real / "made" / "copy" / "a" / "b.md", os.X_OK)
        folder.remove("copy")
        assert list((real / "made").iterdir()) == []
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "kept"


def test_pinned_sweep_removes_what_dead_runs_left_only(tmp_path: Path) -> None:
    """``Pinned.sweep`` removes the temporary folders of its prefixes whose process no longer
    runs (listed through a descriptor opened without read permission needed); a running
    process's, another prefix's and the skill itself stay."""
    from skillc_index.pinned import Pinned

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    dead, alive = f".alpha.build.{child.pid}-0123abcd", f".alpha.build.{os.getpid()}-0123abcd"
    other = f".beta.build.{child.pid}-0123abcd"
    for name in (dead, alive, other, "alpha"):
        (tmp_path / name / "sub").mkdir(parents=True)
        (tmp_path / name / "sub" / "f.md").write_text("x", encoding="utf-8")
    with Pinned.at(tmp_path.resolve()) as folder:
        assert folder.abandoned("alpha.build") == [dead]
        folder.sweep("alpha.build")
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([alive, other, "alpha"])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc")
def test_what_a_zombie_left_is_abandoned(tmp_path: Path) -> None:
    """A staging folder of a process ended but not reaped (a zombie: a killed build's worker
    in a container whose init reaps nothing) was taken for a running build's, and kept for
    good: ``os.kill(pid, 0)`` succeeds for a zombie."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 30
        while Path(f"/proc/{child.pid}/stat").read_bytes().rpartition(b")")[2].split()[:1] != [
            b"Z"
        ]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        left = tmp_path / f".demo.build.{child.pid}-0123abcd"
        left.mkdir()
        assert abandoned(tmp_path, "demo.build") == [left]
    finally:
        child.wait()
