"""Scaffolding: ``skc init`` and ``skc init <name>`` (RFC-0006:C-INIT)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from skillc_index._diagnostics import (
    CannotCreate,
    InvalidOption,
    Notice,
    PathEscapesProject,
    SkillExists,
)
from skillc_index._files import within
from skillc_index._layout import SKILL_FILE, SKILLC_DIR, Layout, Scope, require_skill_name


class NameNeeded(InvalidOption):
    """E100: a skill in the global store was asked for without its name (the global store
    holds skills; only a project folder is made without a name)."""

    def __init__(self) -> None:
        super().__init__("'global' needs a skill 'name'")


@dataclass(frozen=True)
class InitResult:
    """What ``init`` did."""

    kind: str
    """``project`` (the ``.skillc/`` structure) or ``skill`` (a new SKILL.md)."""
    path: Path
    """The project's ``.skillc/skills`` folder, or the new skill's folder."""
    created: bool
    """False when a project structure already existed (``init`` is idempotent)."""
    scope: Scope | None = None
    """For a skill: the store it was created in."""
    name: str | None = None

    @property
    def warnings(self) -> tuple[Notice, ...]:
        """None: ``init`` has nothing to warn about (the operation result protocol)."""
        return ()

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "name": self.name,
            "scope": self.scope,
            "path": str(self.path),
            "created": self.created,
        }


def skill_template(name: str) -> str:
    """The minimal SKILL.md of RFC-0006: frontmatter, then ``# <Name>`` title-cased."""
    title = " ".join(part.capitalize() for part in name.split("-"))
    return f'---\nname: {name}\ndescription: "TODO: Add skill description"\n---\n\n# {title}\n'


def init_project(layout: Layout) -> InitResult:
    """Create ``.skillc/skills/`` in the working directory; succeed if it is already there."""
    skills = layout.cwd / SKILLC_DIR / "skills"
    existed = skills.is_dir()
    try:
        skills.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotCreate(str(skills), exc.strerror or str(exc)) from exc
    return InitResult(kind="project", path=skills, created=not existed)


def init_skill(name: str, layout: Layout, *, global_store: bool = False) -> InitResult:
    """Create ``<store>/<name>/SKILL.md`` from the template (E050 if it already exists).

    Without ``global_store`` the skill goes into the project store; with no project yet, the
    working directory becomes one (its ``.skillc/skills/`` is created).
    """
    require_skill_name(name)
    if global_store:
        scope: Scope = "global"
        store = layout.store("global")
    elif layout.project_root is not None:
        scope = "project"
        store = layout.store("project")
    else:
        scope = "project"
        store = layout.cwd / SKILLC_DIR / "skills"
    folder = store / name
    project = layout.project_root or layout.cwd
    if scope == "project" and not within(folder, project):  # a symlink in the checkout leads out
        raise PathEscapesProject(layout.display(folder), os.path.realpath(folder))
    skill_file = folder / SKILL_FILE
    if skill_file.exists():
        raise SkillExists(name)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # "x": never overwrite, even if another process created the file meanwhile.
        with Path(skill_file).open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(skill_template(name))
    except FileExistsError as exc:
        raise SkillExists(name) from exc
    except OSError as exc:
        raise CannotCreate(str(skill_file), exc.strerror or str(exc)) from exc
    return InitResult(kind="skill", path=folder, created=True, scope=scope, name=name)
