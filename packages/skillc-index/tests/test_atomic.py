"""Staging folders: the ones abandoned by killed processes are swept, no others."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from skillc_index.atomic import staging_dir


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_staging_dir_sweeps_folders_of_dead_processes_only(tmp_path: Path) -> None:
    dead = tmp_path / f".demo.build.{_dead_pid()}-0a1b2c3d"
    alive = tmp_path / f".demo.build.{os.getppid()}-0a1b2c3d"  # the parent runs
    other_prefix = tmp_path / f".other.build.{_dead_pid()}-0a1b2c3d"
    odd = tmp_path / ".demo.build.not-a-pid"
    for folder in (dead, alive, other_prefix, odd):
        (folder / ".skillc-meta").mkdir(parents=True)
        (folder / ".skillc-meta" / "search-x.db").write_bytes(b"partial")
    made = staging_dir(tmp_path, "demo.build")
    assert made.is_dir() and not any(made.iterdir())
    assert made.name.startswith(f".demo.build.{os.getpid()}-")
    assert not dead.exists()
    assert alive.exists() and other_prefix.exists() and odd.exists()


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
