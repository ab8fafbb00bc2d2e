"""``skc list``: the skills in the project and global source stores (RFC-0007:C-LIST)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from skillc_index.build.manifest import read_manifest
from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.layout import SKILL_FILE, Layout, Scope

if TYPE_CHECKING:
    from skillc_index.listing.budget import FolderBudget
    from skillc_index.listing.shapes import ListShape, SkillEntryShape

Status = Literal["normal", "stale", "not-built", "obsolete"]
STATUSES: tuple[Status, ...] = ("normal", "stale", "not-built", "obsolete")


@dataclass(frozen=True)
class SkillEntry:
    """One managed skill."""

    name: str
    scope: Scope
    status: Status
    source_path: Path
    runtime_path: Path

    def to_dict(self) -> SkillEntryShape:
        """The RFC-0007:C-LIST JSON shape of one skill."""
        return {
            "name": self.name,
            "scope": self.scope,
            "status": self.status,
            "source_path": str(self.source_path),
            "runtime_path": str(self.runtime_path),
        }


@dataclass(frozen=True)
class SkillList:
    """The result of :func:`list_skills`."""

    skills: tuple[SkillEntry, ...]
    total: int
    """Skills discovered, before any filter."""
    filtered: int
    """Skills matching the filters, before ``limit``."""
    notices: tuple[Notice, ...] = field(default_factory=tuple)
    """Skill folders skipped because their SKILL.md is invalid."""
    budget: tuple[FolderBudget, ...] | None = None
    """With ``budget``: the listing each agent folder costs (:mod:`skillc_index.listing.budget`)."""

    @property
    def warnings(self) -> tuple[Notice, ...]:
        return self.notices

    def to_dict(self) -> ListShape:
        data: ListShape = {
            "skills": [entry.to_dict() for entry in self.skills],
            "total": self.total,
            "filtered": self.filtered,
        }
        if self.budget is not None:
            data["budget"] = [folder.to_dict() for folder in self.budget]
        return data


def _frontmatter_problem(skill_file: Path) -> str | None:
    from skillc_index.diagnostics import NotARegularFile
    from skillc_index.files import open_regular
    from skillc_index.markdown.frontmatter import parse_frontmatter

    try:
        with open_regular(str(skill_file)) as handle:  # a FIFO swapped in: never a hang
            text = handle.read().decode("utf-8", errors="replace")
    except NotARegularFile as exc:
        return f"cannot read SKILL.md (it is {exc.kind})"
    except OSError as exc:
        return f"cannot read SKILL.md ({exc.strerror or exc})"
    front = parse_frontmatter(text.removeprefix("\ufeff"))
    if front.error:
        return front.error
    data = front.data or {}
    for key in ("name", "description"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            return f"missing frontmatter field '{key}'"
    return None


def build_status(source: Path, runtime: Path, *, check_obsolete: bool = False) -> Status:
    """A store skill's build status (RFC-0007:C-LIST; issue 34): ``not-built`` without a
    valid manifest; ``stale`` when the sources changed since the build (the manifest's
    source hash), else ``normal``.

    Cheap in the common case: the skill's index tells the sources' hash now from file stats
    (:func:`~skillc_index.index.freshness.current_source_hash`; an index rebuilt on demand
    since the build counts too); the sources are hashed only when there is no current index.
    With ``check_obsolete`` (RFC-0007's slow mode) every file is hashed, whatever the index
    says, and a changed skill is ``obsolete``, the RFC's name for it."""
    manifest = read_manifest(runtime)
    if manifest is None:
        return "not-built"
    from skillc_index.files import source_hash

    if check_obsolete:
        return "obsolete" if source_hash(source) != manifest.source_hash else "normal"
    from skillc_index.index.freshness import current_source_hash

    current = current_source_hash(runtime, source)
    if current is None:
        try:
            current = source_hash(source)
        except (OSError, SkillcError):  # a file that cannot be read: not the build's sources
            return "stale"
    return "normal" if current == manifest.source_hash else "stale"


def _skill_folders(store: Path) -> list[str]:
    """The names of the folders of a store, once store copies stranded by a killed import
    are put back (:func:`~skillc_index.build.store.recover_stranded`)."""
    entries = list(os.scandir(store))
    stranded = {
        entry.name[1:].rpartition(".old.")[0]
        for entry in entries
        if entry.name.startswith(".") and ".old." in entry.name
    }
    if stranded - {""}:
        from skillc_index.build.store import recover_stranded

        for name in sorted(stranded - {""}):
            recover_stranded(store, name)
        entries = list(os.scandir(store))
    return sorted(e.name for e in entries if e.is_dir() and not e.name.startswith("."))


def list_skills(
    layout: Layout,
    *,
    scope: Scope | Literal["all"] = "all",
    status: Status | Literal["all"] = "all",
    pattern: str | None = None,
    limit: int | None = None,
    check_obsolete: bool = False,
) -> SkillList:
    """Discover the skills of the project store, then the global store (RFC-0007:C-LIST).

    Ordered project before global, then by name. A folder without SKILL.md is not a skill and
    is passed over; one whose SKILL.md has invalid frontmatter is skipped with a notice.
    Statuses: :func:`build_status`. ``status="obsolete"`` implies ``check_obsolete``; the
    ``stale`` and ``obsolete`` filters both select the skills changed since their build (the
    one condition, named ``obsolete`` with ``check_obsolete``).
    """
    check_obsolete = check_obsolete or status == "obsolete"
    wanted_statuses: set[str] = (
        {"stale", "obsolete"} if status in ("stale", "obsolete") else {status}
    )
    notices: list[Notice] = []
    found: list[SkillEntry] = []
    for store_scope in layout.scopes():
        store = layout.store(store_scope)
        try:
            names = _skill_folders(store)
        except FileNotFoundError:
            continue
        except OSError as exc:
            notices.append(Notice(f"cannot list the {store_scope} store {store} ({exc.strerror})"))
            continue
        for name in names:
            source = store / name
            skill_file = source / SKILL_FILE
            try:
                if not skill_file.is_file():
                    continue
            except OSError as exc:  # a folder that cannot be read
                notices.append(
                    Notice(f"skipping '{name}' ({source}): cannot read it ({exc.strerror})")
                )
                continue
            problem = _frontmatter_problem(skill_file)
            if problem:
                notices.append(Notice(f"skipping skill '{name}' ({skill_file}): {problem}"))
                continue
            runtime = layout.runtime_store(store_scope) / name
            wanted_scope = scope in ("all", store_scope)
            wanted_name = pattern is None or fnmatchcase(name, pattern)
            # Checking sources is the expensive part: only for skills that pass the cheap
            # filters (the others are counted in ``total``, never shown).
            if wanted_scope and wanted_name:
                entry_status = build_status(source, runtime, check_obsolete=check_obsolete)
            else:
                entry_status = "not-built" if read_manifest(runtime) is None else "normal"
            found.append(SkillEntry(name, store_scope, entry_status, source, runtime))

    matching = [
        entry
        for entry in found
        if scope in ("all", entry.scope)
        and (status == "all" or entry.status in wanted_statuses)
        and (pattern is None or fnmatchcase(entry.name, pattern))
    ]
    shown = matching if limit is None else matching[: max(limit, 0)]
    return SkillList(tuple(shown), len(found), len(matching), tuple(notices))
