"""Fixtures for skillc-index's tests: a temporary home and project, never the real home (the
shared ``home``, ``project``, ``cli`` and the skill factory ``write_skill`` are in the
checkout's conftest.py)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, load_config
from skillc_index.build.skill import BuildResult, build_skill


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
def path_without_skc() -> str:
    """This process's ``PATH`` without the folders that hold an ``skc``: skillc-index
    installed without the ``skillc`` distribution (``build`` and ``route install`` warn), as
    :func:`~skillc_index.programs.on_path` looks ``skc`` up."""
    from skillc_index.programs import on_path

    entries = os.environ.get("PATH", "").split(os.pathsep)
    kept = (entry for entry in entries if entry and on_path("skc", {"PATH": entry}) is None)
    return os.pathsep.join(kept)


@pytest.fixture
def skc_on_path(tmp_path: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``skc`` first on ``PATH`` (a placeholder, never run), in this process and in the
    commands ``cli`` runs: a test that checks every warning of a build gets the same ones
    with or without the ``skillc`` distribution installed (skillc-index's own env lacks it)."""
    folder = tmp_path / "skc-bin"
    folder.mkdir()
    script = folder / "skc"
    script.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    script.chmod(0o755)
    path = os.pathsep.join([str(folder), os.environ.get("PATH", "")])
    monkeypatch.setenv("PATH", path)
    clean_env["PATH"] = path


@pytest.fixture
def build(layout: Layout) -> Callable[..., BuildResult]:
    """``build_skill`` in ``layout`` with its config read as a build reads it (no environment)."""

    def run(skill: str, **options: object) -> BuildResult:
        return build_skill(skill, layout, config=load_config(layout, env={}), **options)  # type: ignore[arg-type]

    return run


class CtrlCAfterCommit:
    """A connection on which a Ctrl-C lands on return from ``COMMIT``: after the commit (a
    slow, fsyncing one), where a ROLLBACK finds no transaction any more."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        cursor = self.db.execute(sql, *args)
        if sql == "COMMIT":
            raise KeyboardInterrupt
        return cursor


@pytest.fixture
def ctrl_c_after_commit() -> type[CtrlCAfterCommit]:
    """:class:`CtrlCAfterCommit`, the connection a Ctrl-C interrupts after its commit."""
    return CtrlCAfterCommit
