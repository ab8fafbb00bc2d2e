"""Fixtures for skillc-gateway's tests: a skill on disk in a temporary project and home."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skillc_index import Layout, ResolvedSkill, resolve_skill

SKILL_MD = """---
name: demo
description: A demo skill for gateway tests. Use when testing.
---

# Demo

Intro text.

## Install

Run the installer.

```sh
# not a heading
make install
```

## Usage

Use it.
"""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / ".skillc" / "skills").mkdir(parents=True)
    return path


@pytest.fixture
def demo(project: Path) -> Path:
    root = project / ".skillc" / "skills" / "demo"
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (root / "references" / "api.md").write_text("# API\n\n## Endpoints\n\n### GET\n", "utf-8")
    (root / "references" / "notes.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    (root / ".hidden.md").write_text("# Hidden\n", encoding="utf-8")
    return root


@pytest.fixture
def resolved(demo: Path, project: Path, home: Path) -> ResolvedSkill:
    return resolve_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))


@pytest.fixture
def gateway(project: Path, home: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m skillc_gateway ...`` in the project with a private SKILLC_HOME."""

    def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLC_")}
        env["SKILLC_HOME"] = str(home)
        return subprocess.run(
            [sys.executable, "-m", "skillc_gateway", *args],
            cwd=cwd or project,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    return run
