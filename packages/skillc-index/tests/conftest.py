"""Fixtures for skillc-index's tests: a temporary home and project, never the real home (the
shared ``home``, ``project``, ``cli`` and the skill factory ``write_skill`` are in the
checkout's conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout


@pytest.fixture
def corpus() -> Path:
    """The skill corpus: ``$SKILLC_CORPUS``, else ``../shared/corpus`` next to the checkout;
    the test is skipped when it is absent."""
    custom = os.environ.get("SKILLC_CORPUS")
    found = (
        Path(custom) if custom else Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
    )
    if not found.is_dir():
        pytest.skip(f"corpus not found at {found} (set SKILLC_CORPUS to use another)")
    return found


@pytest.fixture
def project(project: Path) -> Path:
    """The shared empty project (the checkout's conftest.py), with its skill store."""
    (project / ".skillc" / "skills").mkdir(parents=True)
    return project


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    return {"SKILLC_HOME": str(home)}


@pytest.fixture
def layout(project: Path, env: dict[str, str]) -> Layout:
    return Layout.discover(project, env)


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """``unreadable(path)``: ``chmod 000`` on a folder (it cannot be listed, nothing under it
    reached) or a file (it cannot be opened, wherever it is moved), undone after the test.
    Root reads through permissions: then this process's ``os.stat``, ``os.open``,
    ``os.scandir`` and ``os.listdir`` refuse the same as a user's would (commands run
    in-process with the ``cli`` fixture)."""
    changed: list[tuple[Path, int]] = []
    folders: list[str] = []
    files: set[tuple[int, int]] = set()  # device and inode: a rename keeps them

    def refuse(path: Any, *, listing: bool = False) -> None:
        """PermissionError for a path under a folder of ``folders`` (or one, ``listing``)."""
        if not isinstance(path, (str, os.PathLike)):
            return  # a descriptor
        text = os.fspath(path)
        if any(text.startswith(f"{folder}/") for folder in folders) or (
            listing and text in folders
        ):
            raise PermissionError(13, "Permission denied", text)

    if os.geteuid() == 0:
        real_stat, real_open, real_scandir, real_listdir = os.stat, os.open, os.scandir, os.listdir

        def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
            refuse(path)
            return real_stat(path, *args, **kwargs)

        def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
            refuse(path)
            try:
                info = real_stat(path, dir_fd=dir_fd)
            except OSError:
                pass
            else:
                if (info.st_dev, info.st_ino) in files:
                    raise PermissionError(13, "Permission denied", os.fspath(path))
            return real_open(path, flags, mode, dir_fd=dir_fd)

        def scandir(path: Any = ".") -> Any:
            refuse(path, listing=True)
            return real_scandir(path)

        def listdir(path: Any = ".") -> Any:
            refuse(path, listing=True)
            return real_listdir(path)

        monkeypatch.setattr(os, "stat", stat)
        monkeypatch.setattr(os, "open", open_)
        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(os, "listdir", listdir)

    def make(path: Path) -> None:
        info = path.stat()
        changed.append((path, info.st_mode & 0o7777))
        if path.is_dir():
            folders.append(str(path))
        else:
            files.add((info.st_dev, info.st_ino))
        path.chmod(0)

    yield make
    for path, mode in reversed(changed):
        path.chmod(mode)
