"""Fixtures for skillc-lint's tests: skills written as real files in a temporary folder."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from skillc_lint import LintDiagnostic, lint_skill

#: The description of every test skill that names none: a valid one.
DESCRIPTION = "Formats tables. Use when a table needs formatting."

SkillWriter = Callable[..., Path]


@pytest.fixture
def skill(tmp_path: Path, write_skill: SkillWriter) -> SkillWriter:
    """``skill(name="my-skill", body="", frontmatter=None, files=None, skill_md=None)``: the
    shared ``write_skill`` (the checkout's conftest.py) into ``tmp_path/name``, with a valid
    description; returns the folder."""

    def make(name: str = "my-skill", body: str = "", **kwargs: object) -> Path:
        return write_skill(tmp_path / name, name, DESCRIPTION, body, **kwargs)

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
    """``lint(*args, cwd=None, script=False, process=False, env_extra=None)``:
    ``skillc_lint``'s ``main`` in this process in the work folder with a temporary
    SKILLC_HOME; ``process=True`` runs ``python -m skillc_lint`` (a real process, which can
    start worker processes of its own), ``script=True`` the installed console script;
    ``env_extra``: variables added to its environment."""

    def run(
        *args: str,
        cwd: Path | None = None,
        script: bool = False,
        process: bool = False,
        env_extra: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return cli("skillc-lint", script=script, process=process)(
            *args, cwd=cwd or default_cwd, env_extra=env_extra
        )

    default_cwd = cwd
    return run
