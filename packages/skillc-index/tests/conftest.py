"""Fixtures for skillc-index's tests: a temporary home and project, never the real home (the
shared ``home``, ``project``, ``cli`` and ``corpus`` are in the checkout's conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillc_index import Layout


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


def _make_skill(store: Path, name: str, body: str = "", *, frontmatter: str | None = None) -> Path:
    folder = store / name
    folder.mkdir(parents=True, exist_ok=True)
    if frontmatter is None:
        frontmatter = f"name: {name}\ndescription: About {name}.\n"
    (folder / "SKILL.md").write_text(f"---\n{frontmatter}---\n\n# {name}\n{body}", encoding="utf-8")
    return folder


@pytest.fixture
def make_skill() -> object:
    """``make_skill(store, name, body="", frontmatter=None) -> folder``: a skill on disk."""
    return _make_skill
