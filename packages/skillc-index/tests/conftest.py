"""Fixtures for skillc-index's tests: a temporary home and project, never the real home (the
shared ``home``, ``project``, ``cli`` and the skill factory ``write_skill`` are in the
checkout's conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

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
