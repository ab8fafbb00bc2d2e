"""Storage layout and skill resolution: the one place that knows where skillc keeps things.

ADR-0001/ADR-0002, RFC-0007:C-RESOLUTION, RFC-0009:C-ENV-OVERRIDE and DECISIONS.md
"Paths and resolution". No other module joins ``.skillc`` paths by hand.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, NamedTuple

from skillc_index._diagnostics import InvalidOption, NotASkill, SkillNotFound

Scope = Literal["project", "global"]

SKILLC_DIR = ".skillc"
SKILL_FILE = "SKILL.md"
META_DIR = ".skillc-meta"

#: Built-in deployment targets (DECISIONS "Paths and resolution"), relative to the project
#: root for project skills and to the home folder for global ones.
KNOWN_TARGETS: dict[str, str] = {
    "claude": ".claude/skills",
    "codex": ".codex/skills",
    "copilot": ".github/skills",
    "cursor": ".cursor/skills",
    "gemini": ".gemini/skills",
    "kiro": ".kiro/skills",
    "opencode": ".opencode/skills",
    "trae": ".trae/skills",
}

# The Agent Skills name rule: lowercase letters, digits and single hyphens, 1-64 characters.
_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def home_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$SKILLC_HOME`` if set (RFC-0009:C-ENV-OVERRIDE), else the user's home folder."""
    env = os.environ if env is None else env
    custom = env.get("SKILLC_HOME")
    if custom:
        return Path(custom).expanduser().resolve()
    return Path.home().resolve()


def find_project_root(start: Path, home: Path) -> Path | None:
    """Walk up from ``start`` to the first folder holding a ``.skillc/`` directory (one that
    holds more than the log fallback's ``logs/``).

    The home folder (``$SKILLC_HOME`` when set) never counts: its ``.skillc/`` is the global
    store, not a project.
    """
    current = start.resolve()
    for folder in (current, *current.parents):
        if folder != home and _is_project_marker(folder / SKILLC_DIR):
            return folder
    return None


def _is_project_marker(skillc_dir: Path) -> bool:
    """A ``.skillc/`` folder, unless all it holds is ``logs/``: the access-log fallback
    (RFC-0007:C-LOGGING) creates ``<cwd>/.skillc/logs/`` wherever a command ran, and that must
    not turn the working directory into a project."""
    try:
        names = [entry.name for entry in skillc_dir.iterdir()]
    except OSError:
        return False
    return names != ["logs"]


def skill_name_problem(name: str) -> str | None:
    """Why ``name`` is not a valid Agent Skills name, or ``None`` if it is."""
    if not name:
        return "a skill name must not be empty"
    if len(name) > 64:
        return f"a skill name has at most 64 characters (this one has {len(name)})"
    if not _NAME.match(name):
        return (
            "a skill name uses lowercase letters, digits and single hyphens, "
            "and does not start or end with a hyphen"
        )
    return None


class Layout(NamedTuple):
    """Where the stores are for one working directory: home, project (if any) and their paths."""

    cwd: Path
    home: Path
    project_root: Path | None

    @classmethod
    def discover(
        cls, cwd: Path | str | None = None, env: Mapping[str, str] | None = None
    ) -> Layout:
        """The layout seen from ``cwd`` (default: the current directory)."""
        here = Path.cwd() if cwd is None else Path(cwd)
        here = here.resolve()
        home = home_dir(env)
        return cls(cwd=here, home=home, project_root=find_project_root(here, home))

    # -- global ------------------------------------------------------------------------------
    @property
    def global_dir(self) -> Path:
        return self.home / SKILLC_DIR

    @property
    def global_config(self) -> Path:
        return self.global_dir / "config.toml"

    # -- project -----------------------------------------------------------------------------
    @property
    def project_dir(self) -> Path | None:
        return None if self.project_root is None else self.project_root / SKILLC_DIR

    @property
    def project_config(self) -> Path | None:
        return None if self.project_dir is None else self.project_dir / "config.toml"

    # -- by scope ----------------------------------------------------------------------------
    def base(self, scope: Scope) -> Path:
        """The folder a scope hangs off: the project root or the home folder."""
        if scope == "project":
            if self.project_root is None:
                raise ValueError("no project here")
            return self.project_root
        return self.home

    def store(self, scope: Scope) -> Path:
        """The source store: ``<base>/.skillc/skills``."""
        return self.base(scope) / SKILLC_DIR / "skills"

    def runtime_store(self, scope: Scope) -> Path:
        """The runtime (SSOT) store: ``<base>/.skillc/runtime``."""
        return self.base(scope) / SKILLC_DIR / "runtime"

    @property
    def fallback_base(self) -> Path:
        """The folder fallback logs hang off: the project root, else the working directory
        (so ``skc sync`` run from the root finds the rows of commands run in subfolders)."""
        return self.cwd if self.project_root is None else self.project_root

    @property
    def fallback_logs_root(self) -> Path:
        """``<project root or cwd>/.skillc/logs``: one folder per skill whose runtime could
        not be written."""
        return self.fallback_base / SKILLC_DIR / "logs"

    @property
    def fallback_logs_roots(self) -> tuple[Path, ...]:
        """Where ``sync`` looks: :attr:`fallback_logs_root`, then ``<cwd>/.skillc/logs`` when
        the working directory is a subfolder of the project (where earlier versions wrote the
        rows of commands run there)."""
        own = self.cwd / SKILLC_DIR / "logs"
        root = self.fallback_logs_root
        return (root,) if own == root else (root, own)

    def fallback_log_dir(self, skill: str) -> Path:
        """Where logs go when the runtime cannot be written (RFC-0007:C-LOGGING)."""
        return self.fallback_logs_root / skill / META_DIR

    def display(self, path: Path) -> str:
        """A path for people: relative to the working directory when inside it, ``~/...``
        when inside the home folder, absolute otherwise."""
        for base, prefix in ((self.cwd, ""), (self.home, "~/")):
            try:
                relative = path.relative_to(base)
            except ValueError:
                continue
            text = relative.as_posix()
            return prefix + text if text != "." else (prefix.rstrip("/") or ".")
        return str(path)

    def scopes(self) -> tuple[Scope, ...]:
        """The stores to look in, in resolution order: project first, then global."""
        return ("project", "global") if self.project_root is not None else ("global",)

    def target_root(
        self, target: str, scope: Scope, configured: Mapping[str, str] | None = None
    ) -> Path:
        """The agent folder a target deploys into for a scope (ADR-0002, DECISIONS).

        A target containing a path separator is a folder path (relative to the working
        directory). Otherwise it is looked up in ``[targets]`` from config, then in the built-in
        targets; relative paths there hang off the scope's base, ``~`` is the home folder.
        """
        if "/" in target or os.sep in target:
            return (self.cwd / Path(target).expanduser()).resolve()
        spec = (configured or {}).get(target, KNOWN_TARGETS.get(target))
        if spec is None:
            known = ", ".join(sorted({*KNOWN_TARGETS, *(configured or {})}))
            raise InvalidOption(f"unknown target '{target}' (known: {known})")
        if spec == "~" or spec.startswith("~/"):
            return self.home / spec[2:]
        path = Path(spec)
        return path if path.is_absolute() else self.base(scope) / path


class ResolvedSkill(NamedTuple):
    """A skill found by :func:`resolve_skill`."""

    name: str
    """The source folder's name: the skill's name for runtime and logs (RFC-0007)."""
    source: Path
    """Canonical absolute path of the source folder."""
    scope: Scope
    """Whose runtime it uses: ``project`` or ``global``."""
    runtime: Path
    """Its runtime (SSOT) folder."""
    in_store: bool
    """Whether the source lives in the source store of its scope (not given by an outside path)."""

    @property
    def skill_file(self) -> Path:
        return self.source / SKILL_FILE

    @property
    def meta_dir(self) -> Path:
        return self.runtime / META_DIR


def _is_plain_name(text: str) -> bool:
    return bool(text) and text not in {".", ".."} and "/" not in text and os.sep not in text


def runtime_for(
    source: Path, layout: Layout, *, force_global: bool = False
) -> tuple[Scope, Path, bool]:
    """Scope, runtime folder and store membership for a canonical source folder.

    Project sources use the project runtime, global sources the global one; a source outside
    both stores uses the project runtime when there is a project, else the global one.
    ``force_global`` (``--global``) always picks the global runtime.
    """
    name = source.name
    in_project = (
        layout.project_root is not None and source.parent == layout.store("project").resolve()
    )
    in_global = source.parent == layout.store("global").resolve()
    if force_global:
        scope: Scope = "global"
    elif in_project:
        scope = "project"
    elif in_global:
        scope = "global"
    else:
        scope = "project" if layout.project_root is not None else "global"
    in_store = in_project if scope == "project" else in_global
    return scope, layout.runtime_store(scope) / name, in_store


def resolve_skill(skill: str, layout: Layout, *, force_global: bool = False) -> ResolvedSkill:
    """Find a skill's source folder from a path or a name (RFC-0007:C-RESOLUTION).

    1. a folder path (relative to the working directory, or absolute) holding ``SKILL.md``;
    2. a name in the project store, then 3. in the global store.
    Raises :class:`NotASkill` (E010) when a folder was found at some step but has no
    ``SKILL.md``, :class:`SkillNotFound` (E001) when nothing was found.
    """
    first_folder: str | None = None
    candidates: list[tuple[Path, str]] = []
    if skill:
        candidates.append((layout.cwd / Path(skill).expanduser(), skill))
    if _is_plain_name(skill):
        for scope in layout.scopes():
            folder = layout.store(scope) / skill
            candidates.append((folder, str(folder)))
    for folder, shown in candidates:
        if not folder.is_dir():
            continue
        if (folder / SKILL_FILE).is_file():
            source = folder.resolve()
            scope, runtime, in_store = runtime_for(source, layout, force_global=force_global)
            return ResolvedSkill(source.name, source, scope, runtime, in_store)
        if first_folder is None:
            first_folder = shown
    if first_folder is not None:
        raise NotASkill(first_folder)
    raise SkillNotFound(skill)
