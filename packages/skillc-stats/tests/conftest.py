"""Fixtures for skillc-stats' tests: real skills on disk, real access logs written by the
kit's own log writer (``skillc_index.accesslog``), a private ``SKILLC_HOME`` (the shared
``home``, ``project`` and ``cli`` are in the checkout's conftest.py)."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
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
def demo_skill(write_skill: Callable[..., Path]) -> Callable[[Path], Path]:
    """``demo_skill(folder)``: the shared ``write_skill`` (the checkout's conftest.py) writing
    :data:`SKILL_MD` and ``references/api.md`` into ``folder``; returns the folder."""

    def make(folder: Path) -> Path:
        return write_skill(folder, skill_md=SKILL_MD, files={"references/api.md": API_MD})

    return make


@pytest.fixture
def demo(project: Path, layout: Layout, demo_skill: Callable[[Path], Path]) -> ResolvedSkill:
    """A project skill ``demo`` (SKILL.md and references/api.md)."""
    demo_skill(project / ".skillc" / "skills" / "demo")
    return resolve_skill("demo", layout)


Row = dict[str, Any]
Run = Callable[..., subprocess.CompletedProcess[str]]


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


#: A row of another tool (bind its ``skill_path``) whose working folder (``/x\xff``) and ``args``
#: (``{"section": "\xff"}``) are not UTF-8.
NOT_UTF8 = (
    "INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args, error) "
    "VALUES ('2026-01-30T11:00:00Z', 'run-9', 'show', 'demo', ?, CAST(X'2f78ff' AS TEXT), "
    "CAST(X'7b2273656374696f6e223a2022ff227d' AS TEXT), NULL)"
)


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
    cli: Callable[..., Callable[..., subprocess.CompletedProcess[str]]],
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``stats_cli(*args, cwd=None)``: ``skillc_stats``'s ``main`` in this process, in the
    project with the private SKILLC_HOME."""
    return cli("skillc_stats")
