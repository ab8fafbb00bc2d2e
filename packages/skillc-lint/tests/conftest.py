"""Fixtures for skillc-lint's tests: skills written as real files in a temporary folder."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from skillc_lint import LintDiagnostic, lint_skill

FRONTMATTER = "name: {name}\ndescription: Formats tables. Use when a table needs formatting.\n"

SkillWriter = Callable[..., Path]


def write_skill(
    parent: Path,
    name: str = "my-skill",
    body: str = "",
    *,
    frontmatter: str | None = None,
    files: Mapping[str, str] | None = None,
    skill_md: str | None = None,
) -> Path:
    """A skill folder ``parent/name``: SKILL.md (valid frontmatter, an H1 with the name, then
    ``body``; or exactly ``skill_md``) and extra ``files`` (relative path -> text)."""
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    if skill_md is None:
        front = FRONTMATTER.format(name=name) if frontmatter is None else frontmatter
        skill_md = f"---\n{front}---\n\n# {name}\n\n{body}"
    (folder / "SKILL.md").write_text(skill_md, encoding="utf-8")
    for rel, text in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def skill(tmp_path: Path) -> SkillWriter:
    """``skill(name="my-skill", body="", frontmatter=None, files=None, skill_md=None)``."""

    def make(name: str = "my-skill", body: str = "", **kwargs: object) -> Path:
        return write_skill(tmp_path, name, body, **kwargs)  # type: ignore[arg-type]

    return make


def _found(folder: Path, rule: str, **kwargs: object) -> list[LintDiagnostic]:
    result = lint_skill(folder, **kwargs)  # type: ignore[arg-type]
    return [d for d in result.diagnostics if d.rule == rule]


@pytest.fixture
def found() -> Callable[..., list[LintDiagnostic]]:
    """``found(folder, rule, **lint_skill_kwargs)``: the diagnostics of one rule."""
    return _found


Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty work folder (not a skillc project) for the command line tests."""
    path = tmp_path / "work"
    path.mkdir()
    return path


@pytest.fixture
def lint(cli: Callable[..., Run], cwd: Path) -> Run:
    """``lint(*args, cwd=None, script=False, process=False)``: ``skillc_lint``'s ``main`` in
    this process in the work folder with a temporary SKILLC_HOME; ``process=True`` runs
    ``python -m skillc_lint`` (a real process, which can start worker processes of its own),
    ``script=True`` the installed console script."""

    def run(
        *args: str, cwd: Path | None = None, script: bool = False, process: bool = False
    ) -> subprocess.CompletedProcess[str]:
        return cli("skillc-lint", script=script, process=process)(*args, cwd=cwd or default_cwd)

    default_cwd = cwd
    return run
