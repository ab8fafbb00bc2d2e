"""Helpers shared by the end-to-end tests (the folder is put on ``sys.path`` by conftest.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class SmallDisks:
    """Real small file systems for a test (:func:`small_disk`): ``disks(folder, options)``
    mounts a tmpfs with ``options`` (``size=64k``; ``nr_inodes=N`` counts its inodes) on
    ``folder``, made if missing; :meth:`fill` fills one up, :meth:`remount` changes its
    options (``ro``). Mounting needs root: the test is skipped without it, or where the
    mount is refused (a container)."""

    def __init__(self) -> None:
        self.mounted: list[Path] = []

    def __call__(self, folder: Path, options: str = "size=64k") -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0 or shutil.which("mount") is None:
            pytest.skip("mounting a small file system needs root and 'mount'")
        self._mount("-t", "tmpfs", "-o", options, "tmpfs", str(folder))
        self.mounted.append(folder)
        return folder

    def remount(self, folder: Path, options: str) -> None:
        self._mount("-o", f"remount,{options}", str(folder))

    @staticmethod
    def fill(folder: Path, *, inodes: bool = False) -> None:
        """Fill the file system of ``folder``: one ``.filler`` file as large as it takes,
        or with ``inodes`` files ``.filler-N`` until no inode is left."""
        import errno

        try:
            if not inodes:
                with (folder / ".filler").open("wb") as handle:
                    while True:
                        handle.write(b"\0" * 4096)
                        handle.flush()
            count = 0
            while True:
                (folder / f".filler-{count}").touch()
                count += 1
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise

    @staticmethod
    def _mount(*args: str) -> None:
        done = subprocess.run(["mount", *args], check=False, capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")

    def unmount(self) -> None:
        for folder in reversed(self.mounted):
            subprocess.run(["umount", "-l", str(folder)], check=True)


def tree(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (hidden ones included): sha256 of files, symlink targets,
    ``dir``; ``{}`` when ``root`` does not exist.

    The access log (``logs.db``) and the folders that exist only to hold it are left out:
    every build, failed ones included, records a row (RFC-0007:C-LOGGING), and where those rows
    may go is the access log's own rule; what is compared is what the build itself wrote.
    """
    found: dict[str, str] = {}
    if not root.exists():
        return found
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.name.startswith("logs.db"):
            continue
        if path.is_symlink():
            found[rel] = "-> " + str(path.readlink())
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[rel] = "dir"
    holders = {rel for rel, kind in found.items() if kind == "dir"}
    for rel in sorted(holders, key=len, reverse=True):
        if not any(other.startswith(rel + "/") for other in found):
            del found[rel]  # a folder holding nothing but the log
    return found


def top_sections(stub: str) -> list[str]:
    """The lines of a stub's "Top Sections" list (everything after its heading)."""
    return stub.split("## Top Sections\n\n", 1)[1].rstrip("\n").split("\n")


def paste(
    command: str, cwd: Path, env: Mapping[str, str], bin_dir: Path
) -> subprocess.CompletedProcess[str]:
    """``command`` pasted into a real bash (the test is skipped without one) in ``cwd`` with
    ``env`` and ``bin_dir`` (the installed ``skc``'s folder) first on ``PATH``; it must exit 0."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is needed to paste the commands")
    run = subprocess.run(
        [bash, "-c", command],
        cwd=cwd,
        env={**env, "PATH": f"{bin_dir}:{env.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, (command, run.stderr)
    return run


def access_rows(runtime: Path) -> list[sqlite3.Row]:
    """The rows of a runtime's access log, in order (``row["command"]``, ...)."""
    db = sqlite3.connect(runtime / ".skillc-meta" / "logs.db")
    db.row_factory = sqlite3.Row
    try:
        return db.execute("SELECT * FROM access_log ORDER BY id").fetchall()
    finally:
        db.close()


def read_only(folder: Path | str, command: list[str], *more: Path | str) -> list[str]:
    """``command`` run with ``folder`` (and ``more``) read-only: read-only bind mounts in a
    private mount namespace as root (permissions do not stop root), else the folders' mode
    (the caller gives it back); a skip as root where no mount can be made."""
    folders = [str(folder), *map(str, more)]
    if os.geteuid() != 0:
        for one in folders:
            Path(one).chmod(0o500)
        return command
    if shutil.which("unshare") is None:
        pytest.skip("root, and no unshare for a read-only mount")
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f'mount --bind "{folders[0]}" "{folders[0]}"'],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(f"root, and no read-only mount here: {probe.stderr!r}")
    script = (
        'while [ "$1" != -- ]; do mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1"'
        ' || exit 125; shift; done; shift; exec "$@"'
    )
    return ["unshare", "-m", "sh", "-c", script, "-", *folders, "--", *command]


def without_shared_memory(command: list[str]) -> list[str]:
    """``command`` run where the system gives no shared semaphore: a read-only ``/dev/shm``
    (a sandbox's, a container's), in a private mount namespace (``unshare -m`` as root, else
    a user namespace's ``-rm``); a skip where no such mount can be made (not Linux, no
    ``unshare``, a container refusing it)."""
    if shutil.which("unshare") is None or not Path("/dev/shm").is_dir():
        pytest.skip("no unshare, or no /dev/shm to take away")
    flags = "-m" if os.geteuid() == 0 else "-rm"
    script = 'mount -t tmpfs -o ro,size=4k tmpfs /dev/shm || exit 125; exec "$@"'
    probe = subprocess.run(
        ["unshare", flags, "sh", "-c", script, "-", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"no read-only /dev/shm can be mounted here: {probe.stderr!r}")
    return ["unshare", flags, "sh", "-c", script, "-", *command]
