"""``skc list``: the inventory of installed skills (RFC-0007:C-LIST, DECISIONS "Paths and
resolution"): the skills of the project and global stores, as the RFC lists them, then every
other installed skill (agent folders, plugins, the config's folders: one skill per source,
:func:`skillc_index.inventory.entries.installed_skills`), each with where it is, the agents
that see it and whether skillc manages it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index.build.manifest import Manifest, read_manifest
from skillc_index.diagnostics import Notice, SkillcError
from skillc_index.layout import (
    RUNTIME_FOLDER,
    SKILL_FILE,
    Layout,
    Scope,
    runtime_for,
    store_skill_name,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.inventory.entries import InstalledSkill, Location
    from skillc_index.inventory.folders import RootKind
    from skillc_index.listing.budget_result import FolderBudget
    from skillc_index.listing.overrides import OverridePlan
    from skillc_index.listing.shapes import ListShape, SkillEntryShape
    from skillc_index.operation import Session

Status = Literal["normal", "stale", "not-built", "obsolete", "indexed", "not-indexed"]
#: The statuses: a store skill's build status (RFC-0007:C-LIST, and ``stale``); a skill skillc
#: does not manage is ``indexed`` (the search index reading it made is current), ``stale``
#: (made, then its sources changed) or ``not-indexed``.
STATUSES: tuple[Status, ...] = (
    "normal",
    "stale",
    "not-built",
    "obsolete",
    "indexed",
    "not-indexed",
)


@dataclass(frozen=True)
class SkillEntry:
    """One installed skill: RFC-0007's columns, then where it is, the agents that see it and
    whether skillc manages it."""

    name: str
    scope: Scope
    status: Status
    source_path: Path
    runtime_path: Path
    managed: bool = True
    agents: tuple[str, ...] = ()
    locations: tuple[Location, ...] = ()
    """Every place it is at, the first in resolution order first (a store skill: its store
    folder, then its deployments)."""

    def to_dict(self) -> SkillEntryShape:
        """The RFC-0007:C-LIST JSON shape of one skill, with the inventory's keys after."""
        return {
            "name": self.name,
            "scope": self.scope,
            "status": self.status,
            "source_path": str(self.source_path),
            "runtime_path": str(self.runtime_path),
            "managed": self.managed,
            "agents": list(self.agents),
            "locations": [location.to_dict() for location in self.locations],
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
    """Store skills skipped because their SKILL.md is invalid, folders that cannot be listed."""
    budget: tuple[FolderBudget, ...] | None = None
    """With ``budget``: the listing each agent folder costs (:mod:`skillc_index.listing.budget`)."""
    overrides: tuple[OverridePlan, ...] | None = None
    """With ``apply``: what was (or would be) set for each over-budget folder
    (:mod:`skillc_index.listing.overrides`)."""
    installed: tuple[InstalledSkill, ...] = field(default=(), repr=False, compare=False)
    """Every installed skill found, before any filter (the inventory the listing read): what
    ``list --budget`` ranks by use (:func:`skillc_index.listing.usage.skill_usage`)."""
    budget_shown: tuple[Mapping[str, tuple[bool, ...]], ...] = ()
    """Per folder of :attr:`budget`, which items of its lists (``entries``, ``dropped``...)
    the JSON holds when not all (a mask of each: a reply's bound, :meth:`fitted`)."""

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
            from itertools import compress

            for folder, shown in zip(data["budget"], self.budget_shown, strict=False):
                lists: dict[str, Any] = folder  # type: ignore[assignment]
                lists.update((key, list(compress(lists[key], mask))) for key, mask in shown.items())
        if self.overrides is not None:
            data["overrides"] = [plan.to_dict() for plan in self.overrides]
        return data

    def fitted(self, session: Session) -> SkillList:
        """This listing within the reply's bound (:meth:`~skillc_index.operation.Session.
        fit_parts`: the MCP tool's; 562 skills with ``budget`` made 231,172 characters): the
        skills, and each budget's lists (``entries``, ``dropped``, ``name_only``...), the last
        of the longest list left out first."""
        if session.reply_chars is None:  # (the command line: all of it)
            return self
        from dataclasses import replace
        from itertools import compress

        from skillc_index.operation import Part

        data = self.to_dict()
        folders: list[dict[str, Any]] = data.get("budget", [])  # type: ignore[assignment]
        lists = [(i, key) for i, f in enumerate(folders) for key in f if isinstance(f[key], list)]
        parts = [Part("skills", data["skills"], self.filtered)]
        for i, key in lists:
            where = f"the {folders[i]['agent']} budget of {folders[i]['path']}"
            parts.append(Part(f"{key} of {where}", folders[i][key]))
        rest = [{k: [] if isinstance(v, list) else v for k, v in f.items()} for f in folders]
        advice = "narrow it with `pattern`, `scope` or `status`"
        beside: dict[str, Any] = {**data, "skills": []}
        if self.budget is not None:
            advice += ", or run `skc list --budget --format json` for all of it"
            beside["budget"] = rest
        kept, cut = session.fit_parts(lambda: parts, "list", advice, beside, warnings=self.warnings)
        if not cut:
            return self
        shown: list[dict[str, tuple[bool, ...]]] = [{} for _ in folders]
        for (i, key), mask in zip(lists, kept[1:], strict=True):
            shown[i][key] = mask
        return replace(
            self,
            skills=tuple(compress(self.skills, kept[0])),
            budget_shown=tuple(shown),
            notices=(*self.notices, *cut),
        )


def _frontmatter_problem(skill_file: Path) -> str | None:
    from skillc_index.diagnostics import NotARegularFile
    from skillc_index.files import open_regular
    from skillc_index.markdown.document import read_parsed
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.markdown.metadata import not_text

    try:
        with open_regular(str(skill_file)) as handle:  # a FIFO swapped in: never a hang
            text, _ = read_parsed(handle, count=False)  # a 400 MB file: its first 4 MB
    except NotARegularFile as exc:
        return f"cannot read SKILL.md (it is {exc.kind})"
    except OSError as exc:
        return f"cannot read SKILL.md ({exc.strerror or exc})"
    front = parse_frontmatter(text)
    if front.error:
        return front.error
    data = front.data_12  # as the build reads them (E011)
    for key in ("name", "description"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            return not_text(data, key) or f"missing frontmatter field '{key}'"
    return None


def _current_hash(source: Path, builds: Sequence[Path], *, check_obsolete: bool) -> str | None:
    """The source hash of ``source`` as it is now, found once for all its ``builds``. Cheap in
    the common case: a build's index tells it from file stats
    (:func:`~skillc_index.index.freshness.current_source_hash`; an index rebuilt on demand
    since the build counts too); the sources are hashed only when no build has a current
    index, and None when a file cannot be read (not the build's sources). With
    ``check_obsolete`` (RFC-0007's slow mode) every file is hashed, whatever the indexes
    say."""
    from skillc_index.digests import source_hash

    if check_obsolete:
        return source_hash(source)
    from skillc_index.index.freshness import current_source_hash

    for runtime in builds:
        current = current_source_hash(runtime, source, older=True)
        if current is not None:
            return current
    try:
        return source_hash(source)
    except (OSError, SkillcError):
        return None


def _status_of(manifest: Manifest, current: str | None, *, check_obsolete: bool) -> Status:
    """A store skill's build status (RFC-0007:C-LIST; issue 34), from its build's manifest and
    the source hash now (:func:`_current_hash`): ``stale`` when the sources changed since the
    build (the manifest's source hash) or its stub is of an older format than a build writes
    now (the manifest's ``stub_format``, below :data:`~skillc_index.build.stub.STUB_FORMAT`:
    written by an older skillc, the next build rewrites it), else ``normal``. With
    ``check_obsolete`` a changed skill is ``obsolete``, the RFC's name for it."""
    from skillc_index.build.stub import STUB_FORMAT

    changed = current != manifest.source_hash
    if check_obsolete and changed:
        return "obsolete"  # (changed sources first: the README's "a changed skill is obsolete")
    stub_format = manifest.extra.get("stub_format")
    if not isinstance(stub_format, int) or stub_format < STUB_FORMAT:
        return "stale"  # a stub an older skillc wrote: the next build rewrites it
    return "stale" if changed else "normal"


def skill_status(
    skill: InstalledSkill,
    source: Path,
    runtime: Path,
    *,
    check_obsolete: bool = False,
    builds: Sequence[Path] = (),
) -> Status:
    """The STATUS of one installed skill (``source``: its folder as resolution names it, the
    store's entry for a store skill): a store skill's build status (:func:`_status_of`;
    ``not-built`` without a valid manifest), ``stale`` (or ``obsolete``) too when one of its
    other ``builds`` (:func:`deployed_builds`: the global runtime of a project skill built
    ``--global``) is, its sources hashed once for all (:func:`_current_hash`); a skill
    skillc manages through deployments only (a project skill built ``--global``, seen from
    elsewhere) has the status of those builds; for any other, the state of the search index
    reading it makes (the index is a cache, issue 34): ``not-indexed`` without one,
    ``indexed`` when it is current (the stat-only check), ``stale`` when its sources changed
    since."""
    if skill.store is not None or (skill.managed and builds):
        own = [runtime] if skill.store is not None else []
        manifests = {
            built: manifest
            for built in dict.fromkeys((*own, *builds))
            if (manifest := read_manifest(built)) is not None
        }
        if not manifests:
            return "not-built"
        current = _current_hash(source, list(manifests), check_obsolete=check_obsolete)
        for manifest in manifests.values():
            status = _status_of(manifest, current, check_obsolete=check_obsolete)
            if status != "normal":
                return status
        return "normal"
    from skillc_index.index.freshness import current_source_hash
    from skillc_index.index.schema import index_path

    if not index_path(runtime, source).is_file():
        return "not-indexed"
    # an index an older skillc wrote tells its sources too (the next read rebuilds it)
    return "stale" if current_source_hash(runtime, source, older=True) is None else "indexed"


def deployed_builds(skill: InstalledSkill, layout: Layout) -> tuple[Path, ...]:
    """The builds a skill's deployments were made from: the runtime a deployed link leads to,
    the global runtime for a copy in a home agent folder (``skc build --global --copy``; a
    copy in a project agent folder is its store runtime's, which the caller has), named as
    :func:`runtime_for` names it (after the store's entry that links to the folder)."""
    builds: dict[Path, None] = {}
    for location in skill.locations:
        if not location.managed or location.kind == "store":
            continue
        if store_skill_name(location.real, RUNTIME_FOLDER) is not None:
            builds[location.real] = None
        elif location.scope == "global" and location.source is not None:
            builds[runtime_for(location.source, layout, force_global=True)[1]] = None
    return tuple(builds)


def _copies_status(store: Location, runtime: Path, folders: AgentFolders) -> Status:
    """``stale`` when a copy of a store skill built and current (``normal``) holds an older
    build than its runtime (:func:`~skillc_index.build.deploy.stale_copies`: what agents
    load there is out of date, or get back from ``route uninstall`` for a copy parked behind
    a router; its next build refreshes it), else ``normal``. ``folders``: the agent folders
    of its scope with its routes' parking folders, listed once for the whole listing."""
    from skillc_index.build.deploy import stale_copies

    return "stale" if stale_copies(store.name, store.path, runtime, folders)[0] else "normal"


def _import_status(
    store: Location, layout: Layout, *, check: bool
) -> tuple[Status | None, Notice | None]:
    """For a store copy imported from a folder (its import record): ``stale`` when ``check``
    and ``build --all`` would import that folder again
    (:func:`~skillc_index.build.origin.import_current`: the folder walked once, hashed only
    when its record is of today's form and file stats do not prove it unchanged,
    :func:`~skillc_index.import_record.unchanged_since_import`), else None; and a warning
    when the folder no longer holds a skill (renamed or deleted: the copy's stub is still
    deployed), with how to remove the copy or keep it as it is; or one, advising nothing,
    when the folder cannot be read (a folder above it of mode 000): it may well be there."""
    from skillc_index.diagnostics import UnreadableFile
    from skillc_index.import_record import (
        ImportRecord,
        import_origin,
        origin_gone,
        unchanged_since_import,
        walk_origin,
    )

    record = ImportRecord.read(store.real)
    if record is None:
        return None, None
    try:
        gone = origin_gone(store.name, store.path, record, layout, store.real)
    except UnreadableFile as exc:  # there or not, no one can tell: nothing to remove
        where = layout.display(store.path)
        why = f"skill '{store.name}' ({where}) was imported from {record.origin}"
        return None, Notice(
            f"{why}, which cannot be read ({exc.reason}); its store copy is listed as it is"
        )
    if gone is not None:
        return None, Notice(gone)
    origin = None if not check else import_origin(store.real, store.scope, layout, record=record)
    if origin is None:
        return None, None
    walked = walk_origin(origin)
    if record.origin == ImportRecord.recorded(
        origin, store.scope, layout
    ) and unchanged_since_import(store.real, origin, walked):
        return None, None
    from skillc_index.build.origin import import_current, read_origin

    try:
        known = read_origin(origin, record, layout, walked)
        current = import_current(store.real, store.scope, origin, known, layout)
    except (OSError, SkillcError):  # its import fails: build --all says why
        current = False
    return (None if current else "stale"), None


def recover_stores(layout: Layout) -> None:
    """Put back the store copies a killed import stranded (hidden ``.<name>.old.<...>``
    folders, :func:`~skillc_index.build.store.recover_stranded`) before the stores are
    listed."""
    for scope in layout.scopes():
        store = layout.store(scope)
        try:
            names = os.listdir(store)  # noqa: PTH208
        except OSError:
            continue
        stranded = {
            name[1:].rpartition(".old.")[0]
            for name in names
            if name.startswith(".") and ".old." in name
        } - {""}
        if stranded:
            from skillc_index.build.store import recover_stranded

            for name in sorted(stranded):
                recover_stranded(store, name)


def _runtime(
    skill: InstalledSkill, layout: Layout, stores: Mapping[Path, Scope], builds: Sequence[Path]
) -> Path:
    """Where a skill's runtime is: the first of its deployed ``builds`` (a project skill
    built ``--global``, listed from another project: the global runtime its links lead to,
    not one of this project that was never made), else by RFC-0007:C-RESOLUTION (DECISIONS:
    a skill outside the stores has its runtime in the project's runtime, else the global
    one; a skill of another project's store, in that project's: :func:`runtime_for`)."""
    if builds:
        return builds[0]
    scope = stores.get(skill.source.parent)
    if scope is None:  # another project's store skill: its runtime there (runtime_for)
        return runtime_for(skill.source, layout)[1]
    return layout.runtime_store(scope) / skill.source.name


def seen_by(
    agent: str, layout: Layout, configured: Mapping[str, str] | None
) -> Callable[[Sequence[Location]], bool]:
    """Whether an agent sees a skill at ``locations``: one of them is in a folder it reads
    (:func:`~skillc_index.inventory.folders.folders_of_agent`: ``codex`` sees what is in
    ``.agents/skills``), or is named after it (Claude Code's nested folders and plugins)."""
    from skillc_index.inventory.folders import folders_of_agent

    folders = folders_of_agent(agent, layout, configured)
    return lambda locations: any(
        place.agent == agent or (place.agent is not None and place.path.parent in folders)
        for place in locations
    )


def list_skills(
    layout: Layout,
    *,
    scope: Scope | Literal["all"] = "all",
    status: Status | Literal["all"] = "all",
    pattern: str | None = None,
    limit: int | None = None,
    check_obsolete: bool = False,
    managed: bool = False,
    agent: str | None = None,
    configured: Mapping[str, str] | None = None,
    store_notices_only: bool = False,
) -> SkillList:
    """The installed skills (RFC-0007:C-LIST extended to the inventory), project before
    global, then by name.

    A store skill whose SKILL.md has invalid frontmatter is skipped with a notice (the RFC);
    the other installed skills are listed from file stats, their SKILL.md not read.
    Statuses: :func:`skill_status`. ``status="obsolete"`` implies ``check_obsolete`` and
    selects the skills with a build whose build is out of date (``obsolete``, or ``stale``
    for a stub an older skillc wrote or an out-of-date copy); ``stale`` selects those and
    also the skills skillc does not build whose search index is out of date (their
    ``stale``, which is no build status: RFC-0007 filters ``obsolete`` by build status).
    ``managed``: only the skills skillc manages; ``agent``: only those an agent sees (a
    target name); ``configured``: the config's trusted ``[targets]``. What was left out of
    the listing is a notice (``store_notices_only``: only the stores', when the caller reports
    the agent folders' own, as ``list --budget`` does).
    E100 for a ``scope`` or ``status`` that is none of them, a ``limit`` below 0, a
    ``pattern`` that is no text (as the command line and the MCP tool:
    :func:`~skillc_index.parameters.checked_values`), rather than list nothing.
    """
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.glob import name_match
    from skillc_index.inventory.entries import installed_skills
    from skillc_index.inventory.resolve import skill_names
    from skillc_index.operations import ListParams
    from skillc_index.parameters import checked_values

    values = {"scope": scope, "status": status, "limit": limit, "pattern": pattern}
    scope, status, limit, pattern = checked_values(ListParams, values).values()

    wanted_statuses: set[str] = (
        {"stale", "obsolete"} if status in ("stale", "obsolete") else {status}
    )
    check_obsolete = check_obsolete or status == "obsolete"
    sees = None if agent is None else seen_by(agent, layout, configured)
    recover_stores(layout)
    inventory = installed_skills(layout, configured)
    kinds: tuple[RootKind, ...] | None = ("store",) if store_notices_only else None
    notices: list[Notice] = list(inventory.notices(kinds))
    stores = {Path(os.path.realpath(layout.store(s))): s for s in layout.scopes()}
    copy_folders: dict[Scope, AgentFolders] = {}  # each scope's, listed once
    found: list[SkillEntry] = []
    built: set[int] = set()  # the entries (by id) whose STATUS is a build's, not an index's
    names = skill_names(inventory.skills)  # a plugin's skill as plugin:skill, which reads it
    for skill, name in zip(inventory.skills, names, strict=True):
        store = skill.store
        if store is not None:
            source, runtime = store.path, layout.runtime_store(store.scope) / store.name
            problem = _frontmatter_problem(source / SKILL_FILE)
            if problem:
                where = source / SKILL_FILE
                notices.append(Notice(f"skipping skill '{skill.name}' ({where}): {problem}"))
                continue
        else:
            builds = deployed_builds(skill, layout) if skill.managed else ()
            source, runtime = skill.source, _runtime(skill, layout, stores, builds)
        wanted = (
            scope in ("all", skill.scope)
            and (pattern is None or name_match(name, pattern))
            and (not managed or skill.managed)
            and (sees is None or sees(skill.locations))
        )
        # Checking sources is the expensive part: only for skills that pass the cheap filters
        # (the others are counted in ``total``, never shown).
        if wanted:
            if store is not None:  # (a skill outside the stores has its builds already)
                builds = deployed_builds(skill, layout) if skill.managed else ()
            entry_status = skill_status(
                skill, source, runtime, check_obsolete=check_obsolete, builds=builds
            )
            if entry_status == "normal" and store is not None:
                if store.scope not in copy_folders:
                    from skillc_index.route.place import parking_roots

                    agents = AgentFolders(store.scope, layout, configured).roots
                    parked = {
                        f"parked:{agent}": folder  # kept apart from the targets' own keys
                        for agent, folder in parking_roots(layout, store.scope).items()
                    }
                    copy_folders[store.scope] = AgentFolders.of_roots(
                        {**agents, **parked}, listed=True
                    )
                entry_status = _copies_status(store, runtime, copy_folders[store.scope])
            if store is not None:
                imported, gone = _import_status(store, layout, check=entry_status == "normal")
                entry_status = imported or entry_status
                notices += [gone] if gone else []
        elif skill.store is not None:
            entry_status = "not-built" if read_manifest(runtime) is None else "normal"
        else:
            entry_status = "not-indexed"
        entry = SkillEntry(
            name,
            skill.scope,
            entry_status,
            source,
            runtime,
            skill.managed,
            skill.agents,
            skill.locations,
        )
        found.append(entry)
        if store is not None or (skill.managed and builds):
            built.add(id(entry))
    from skillc_index.route.place import parked_gone_all

    notices += parked_gone_all(layout)  # (behind a router: the inventory does not list them)
    found.sort(key=lambda entry: (entry.scope != "project", entry.name))
    matching = [
        entry
        for entry in found
        if scope in ("all", entry.scope)
        and (status == "all" or entry.status in wanted_statuses)
        and (status != "obsolete" or id(entry) in built)
        and (pattern is None or name_match(entry.name, pattern))
        and (not managed or entry.managed)
        and (sees is None or sees(entry.locations))
    ]
    shown_entries: Sequence[SkillEntry] = matching if limit is None else matching[: max(limit, 0)]
    return SkillList(
        tuple(shown_entries),
        len(found),
        len(matching),
        tuple(notices),
        installed=inventory.skills,
    )
