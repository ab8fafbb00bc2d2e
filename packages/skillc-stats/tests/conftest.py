"""Fixtures for skillc-stats' tests: real skills on disk, real access logs written by the
kit's own log writer (``skillc_index.accesslog``), a private ``SKILLC_HOME``."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill, resolve_skill
from skillc_index.accesslog import AccessRecord, fallback_log, insert, primary_log

SKILL_MD = """---
name: demo
description: A demo skill for stats tests. Use when testing.
---

# Demo

## Installation

Install it.

## Usage

### Advanced — options

Details.

## Contributing

Help.
"""

API_MD = "# API\n\n## Endpoints\n\n## Usage\n"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = (tmp_path / "project").resolve()
    (path / ".skillc" / "skills").mkdir(parents=True)
    return path


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    return {"SKILLC_HOME": str(home)}


@pytest.fixture
def layout(project: Path, env: dict[str, str]) -> Layout:
    return Layout.discover(project, env)


def make_skill(folder: Path, skill_md: str = SKILL_MD) -> Path:
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text(skill_md, encoding="utf-8")
    (folder / "references" / "api.md").write_text(API_MD, encoding="utf-8")
    return folder


@pytest.fixture
def demo(project: Path, layout: Layout) -> ResolvedSkill:
    """A project skill ``demo`` (SKILL.md and references/api.md)."""
    make_skill(project / ".skillc" / "skills" / "demo")
    return resolve_skill("demo", layout)


Row = dict[str, Any]


def record(skill: ResolvedSkill, command: str, args: dict[str, Any], **extra: Any) -> AccessRecord:
    values: dict[str, Any] = {
        "command": command,
        "skill": skill.name,
        "skill_path": str(skill.source),
        "cwd": "/work/app",
        "args": args,
        "timestamp": "2026-01-30T10:00:00Z",
        "run_id": "run-1",
    }
    values.update(extra)
    return AccessRecord(**values)


@pytest.fixture
def log_rows(demo: ResolvedSkill) -> Callable[..., Path]:
    """``log_rows(*records, to=None)``: append records to ``demo``'s primary log (or ``to``)."""

    def write(*records: AccessRecord, to: Path | None = None) -> Path:
        path = to or primary_log(demo.runtime)
        insert(path, list(records))
        return path

    return write


def count_rows(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM access_log").fetchone()[0])
    finally:
        db.close()


def all_rows(path: Path) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT timestamp, run_id, command, skill, skill_path, cwd, args, error "
            "FROM access_log ORDER BY id"
        ).fetchall()
    finally:
        db.close()


@pytest.fixture
def fallback_of(layout: Layout) -> Callable[[str], Path]:
    def path(skill: str) -> Path:
        return fallback_log(layout, skill)

    return path


@pytest.fixture
def stats_cli(
    project: Path, home: Path
) -> Iterator[Callable[..., subprocess.CompletedProcess[str]]]:
    """Run ``python -m skillc_stats ...`` in the project with the private SKILLC_HOME."""

    def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
        env["SKILLC_HOME"] = str(home)
        return subprocess.run(
            [sys.executable, "-m", "skillc_stats", *args],
            cwd=cwd or project,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=False,
        )

    yield run
