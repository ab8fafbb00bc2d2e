"""What ``route install`` does with each entry of the agent folder (:func:`classify`): a skill
folder moves to the store, a deployment skillc made is parked (or, when it duplicates what is
behind the router already, removed), and anything else is left in place with the reason
(:class:`~skillc_index.route.result.SkillLeft`): a symlink skillc did not make, a name the
store has, a skill that does not build... Nothing here changes the file system.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from skillc_index.diagnostics import Notice, SkillcError, UnreadableFile
from skillc_index.dialect import CLAUDE_CODE_FOLDER_FIELDS, CODEX_SIDE_FILE, Dialect
from skillc_index.layout import (
    META_DIR,
    RUNTIME_FOLDER,
    SKILL_FILE,
    Layout,
    store_skill_name,
)
from skillc_index.route.manifest import MoveRecord, identity_of, lexists, plain_name
from skillc_index.route.place import RoutePlace, linked_from
from skillc_index.route.result import Kind, SkillLeft

__all__ = [
    "EntryPlan",
    "Scan",
    "behind",
    "classify",
    "deployment_of",
    "folder_readers",
    "holds_skill",
    "not_moved",
    "redeployed",
    "scan_folder",
    "unbuilt",
    "why_not_built",
]


class EntryPlan(NamedTuple):
    """One entry of the agent folder and what install does with it."""

    name: str
    kind: Kind
    action: Literal["moved", "parked", "unlinked"]
    identity: tuple[int, int]


def deployment_of(path: Path, layout: Layout) -> str | None:
    """The store skill whose deployment skillc made ``path`` is (a symlink to its runtime, or
    a copy of its stub), or None. Only one whose skill is in a store counts: routing keeps
    every skill findable."""
    from skillc_index.build.deploy import is_skillc_copy
    from skillc_index.build.manifest import read_manifest

    if path.is_symlink():
        real = Path(os.path.realpath(path))
        for scope in layout.scopes():
            if str(real.parent) == os.path.realpath(layout.runtime_store(scope)):
                manifest = read_manifest(real)
                store_skill = layout.store(scope) / real.name / SKILL_FILE
                if manifest is not None and store_skill.is_file():
                    return real.name
        return None
    manifest = read_manifest(path)
    if manifest is None or not is_skillc_copy(path, manifest.skill, manifest):
        return None
    for scope in layout.scopes():
        if (layout.store(scope) / manifest.skill / SKILL_FILE).is_file():
            return manifest.skill
    return None


def redeployed(origin: Path, record: MoveRecord, destination: Path, layout: Layout) -> bool:
    """Whether the entry at a routed skill's place in the agent folder is a deployment
    skillc made of that same store skill (``skc build`` deployed it again while it was
    routed): uninstall may then take that deployment's place."""
    from skillc_index.build.deploy import link_target
    from skillc_index.inventory.deployed import deployed_source

    if _same_link(origin, destination):
        return True
    if deployment_of(origin, layout) is None:  # not skillc's: never taken
        return False
    if record.kind == "folder":
        store_skill: str | None = os.path.realpath(destination)
    else:  # a parked link leads where it leads from the agent folder (a relative one)
        parked = link_target(destination, origin.parent) or os.path.realpath(destination)
        store_skill = deployed_source(parked, layout)
    if store_skill is None:
        return False
    return deployed_source(os.path.realpath(origin), layout) == store_skill


def _same_link(one: Path, parked: Path) -> bool:
    """Whether the entry ``one`` of the agent folder and the deployment ``parked`` are links
    to one place, the parked one read from the agent folder it came from (its text may be
    relative, or absolute as skillc wrote links before: the same runtime either way)."""
    from skillc_index.build.deploy import link_target

    here = link_target(one)
    return here is not None and here == link_target(parked, one.parent)


def folder_readers(
    place: RoutePlace, layout: Layout, configured: Mapping[str, str] | None = None
) -> tuple[Dialect | None, ...]:
    """What each agent that reads the agent folder of ``place`` reads (:func:`classify`'s
    ``dialects``): the routed target's dialect and that of every other target whose folder
    is the same real folder (:meth:`~skillc_index.build.agent_folders.AgentFolders.sharing`:
    ``.claude/skills`` a symlink to ``.agents/skills``, which Codex reads; None for a folder
    of the config, ``configured``, whose agent may be Claude Code)."""
    from skillc_index.build.agent_folders import AgentFolders
    from skillc_index.targets import agent_targets

    known = agent_targets(configured)
    sharing = AgentFolders(place.scope, layout, configured).sharing(place.folder)
    targets = dict.fromkeys((place.agent, *sharing))
    return tuple(known[target].dialect if target in known else None for target in targets)


def classify(
    place: RoutePlace,
    layout: Layout,
    name: str,
    taken: set[str],
    dialects: Sequence[Dialect | None] = (None,),
) -> EntryPlan | SkillLeft | None:
    """What install does with the entry ``name`` of the agent folder: a plan, a reason to
    leave it, or None for what is not a skill (a file, a folder without SKILL.md).
    ``dialects``: what each agent that reads the folder reads (:func:`folder_readers`; None
    for a folder of the config, whose agent may be Claude Code): Codex's user-only marker
    counts where Codex reads the folder (its side file), Claude Code's folder-only fields
    where Claude Code may, whichever agent is routed: the skill moved behind the router is
    gone for each of them."""
    from skillc_index.listing.agents import folder_fields, implicit, side_file, user_only
    from skillc_index.listing.entryfile import entry_frontmatter

    path = place.folder / name
    identity = identity_of(path)
    if identity is None:
        return None
    skill = holds_skill(path)
    front = entry_frontmatter(path) if skill else {}
    if user_only(front):  # the router would hide the user's /name
        return SkillLeft(
            name,
            path,
            f"user-only (disable-model-invocation: true): it stays for the user's /{name}",
            "user-only",
        )
    codex = any(d is not None and CODEX_SIDE_FILE in d.side_files for d in dialects)
    if codex and skill and not implicit(side_file(path, "codex")):  # Codex's own marker
        return SkillLeft(
            name,
            path,
            f"user-only ({CODEX_SIDE_FILE}: policy.allow_implicit_invocation: false): it stays "
            f"for the user's ${name}",
            "user-only",
        )
    claude = any(d is None or d.reads >= CLAUDE_CODE_FOLDER_FIELDS for d in dialects)
    fields = folder_fields(front) if claude else []
    if fields:  # read through the router, Claude Code would never act on them
        return SkillLeft(
            name,
            path,
            f"sets {', '.join(fields)}, which Claude Code acts on only when it loads the skill "
            "from its folder: it stays",
            "needs the agent folder",
        )
    if path.is_symlink():
        if not holds_skill(path):
            return None
        if deployment_of(path, layout) is None:
            target = path.readlink()
            real = Path(os.path.realpath(path))
            if store_skill_name(real, RUNTIME_FOLDER) is not None:
                from skillc_index.inventory.deployed import deployed_source

                source = deployed_source(str(real), layout)
                why = (  # a project skill built with --global: it is that project's to route
                    "its source is in no store"
                    if source is None
                    else f"its source is a project's, {source} (built with --global)"
                )
                return SkillLeft(
                    name,
                    path,
                    f"a deployment skillc made of {real}, but {why}",
                    "source in no store",
                )
            return SkillLeft(
                name,
                path,
                f"a symlink to {target} that skillc did not make (skillc never moves what a "
                "link points to)",
                "a symlink skillc did not make",
            )
        return _deployment_plan(place, name, identity, taken)
    if not path.is_dir() or not holds_skill(path):
        return None
    linked = linked_from(layout, path)
    if linked is not None:  # another agent reads it through that link: it stays
        return SkillLeft(
            name,
            path,
            f"{linked} links to it (skillc never moves what a link points to)",
            "linked from another agent folder",
        )
    if (path / META_DIR).is_dir() and deployment_of(path, layout) is not None:
        return _deployment_plan(place, name, identity, taken)
    problem = _name_problem(name)
    if problem is not None:
        return SkillLeft(name, path, problem, "invalid name")
    destination = place.store / name
    if lexists(destination) or name in taken:
        return SkillLeft(
            name,
            path,
            f"the {place.scope} store already has a skill named '{name}'",
            "name taken in the store",
        )
    if not os.access(path, os.W_OK):  # a folder moves to another parent only if writable
        return not_moved(name, path, "Permission denied", layout)
    try:
        _check_builds(path, name)
    except (SkillcError, OSError) as exc:
        return unbuilt(name, path, exc, layout)
    return EntryPlan(name, "folder", "moved", identity)


def not_moved(name: str, path: Path, why: str, layout: Layout, *, back: bool = False) -> SkillLeft:
    """The skill ``name`` at ``path`` left because the system refused its move (``why``);
    ``back``: its move back to the agent folder (``uninstall``), from ``path`` behind the
    router."""
    from skillc_index.diagnostics import InternalError

    error = InternalError(f"cannot move '{layout.display(path)}': {why}").diagnostic
    cause = "not moved back" if back else "not moved"
    return SkillLeft(name, path, f"{cause} ({why})", cause, error)


def unbuilt(
    name: str,
    path: Path,
    exc: SkillcError | OSError,
    layout: Layout,
    source: Path | None = None,
    *,
    put_back: bool = False,
) -> SkillLeft:
    """The skill ``name`` at ``path`` left because it failed to build with ``exc``
    (:func:`why_not_built`; ``source``: the folder compiled), ``put_back`` from the store
    where it was moved; its error names it (``error[E011]: .claude/skills/x: ...``)."""
    from skillc_index.diagnostics import InternalError

    reason, cause = why_not_built(exc, source, layout if source is not None else None)
    error = exc if isinstance(exc, SkillcError) else InternalError(reason)
    diagnostic = error.diagnostic._replace(subject=layout.display(path))
    return SkillLeft(name, path, f"put back: {reason}" if put_back else reason, cause, diagnostic)


def _name_problem(name: str) -> str | None:
    """Why a skill folder named ``name`` cannot enter the store under that name: the one
    rule of every way into a store (``init``, an import, this move), or None."""
    from skillc_index.command_errors import InvalidSkillName
    from skillc_index.layout import require_skill_name

    try:
        require_skill_name(name)
    except InvalidSkillName as exc:
        return str(exc.diagnostic.params["message"])
    return None


def why_not_built(
    exc: SkillcError | OSError, source: Path | None = None, layout: Layout | None = None
) -> tuple[str, str]:
    """Why a skill is left (its reason, and the kind of it): it does not build, one of its
    files cannot be read (no permission, a FIFO...), or, for a compile of the skill folder
    ``source``, a path outside it cannot be written (the runtime folder): that path is
    named, the folder a staging name was to be made in rather than the name."""
    from skillc_index.command_errors import CannotCreate

    if isinstance(exc, UnreadableFile):  # a file of the skill (open_in_root, the source hash)
        return f"cannot be read: {exc.reason}", "cannot be read"
    if isinstance(exc, CannotCreate) and layout is not None:  # its runtime, which it names
        return f"cannot write {layout.display(Path(exc.path))}: {exc.reason}", "cannot write"
    if not isinstance(exc, OSError):
        return f"does not build: {_one_line(exc)}", "does not build"
    why = exc.strerror or str(exc)
    if source is not None and layout is not None and isinstance(exc.filename, str):
        from skillc_index.atomic import temporary_pid
        from skillc_index.files import inside

        if not inside(exc.filename, str(source)):
            path = Path(exc.filename)
            chain = (*reversed(path.parents), path)
            staged = [p for p in chain if temporary_pid(p.name) is not None]
            if staged:  # a staging folder's name says nothing: the folder it was made in
                path = staged[0].parent
            return f"cannot write {layout.display(path)}: {why}", "cannot write"
    return f"cannot be read: {why}", "cannot be read"


def _check_builds(source: Path, name: str) -> None:
    """Raise what stops a build of the skill folder ``source`` before it writes anything
    (a compiled runtime given as a source, a symlink leading out, E002 for a skill larger than
    an index may be, E011 for the frontmatter):
    a skill that fails here is left in place, by a dry run and a real run alike."""
    from skillc_index.build.skill import _check_import, _check_source, _refuse_too_large
    from skillc_index.diagnostics import PathEscapesRoot
    from skillc_index.skill_files import walk_skill

    _check_source(source, name)
    found = walk_skill(source)
    if found.escapes:
        raise PathEscapesRoot(found.escapes[0])
    _refuse_too_large(name, source, found)
    _check_import(source)


def _one_line(exc: SkillcError) -> str:
    """A failure's diagnostic on one line: its hint (an E011's YAML error...) after a ``;``."""
    from skillc_index.diagnostics import format_diagnostic

    lines = format_diagnostic(exc.diagnostic).splitlines()
    return "; ".join([lines[0], *(line.removeprefix("hint: ") for line in lines[1:])])


def _deployment_plan(
    place: RoutePlace, name: str, identity: tuple[int, int], taken: set[str]
) -> EntryPlan | SkillLeft:
    """A deployment skillc made is parked; one that duplicates what is behind the router
    already (the same link parked, or a build that deployed a routed skill again) is
    removed: uninstall puts back what was there before."""
    path = place.folder / name
    parked = place.parking / name
    if name in taken or (lexists(parked) and _same_link(path, parked)):
        return EntryPlan(name, "deployment", "unlinked", identity)
    if lexists(parked):
        return SkillLeft(
            name, path, f"a deployment of this name is already parked ({parked})", "already parked"
        )
    return EntryPlan(name, "deployment", "parked", identity)


def behind(place: RoutePlace, plan: EntryPlan) -> Path:
    """Where the skill of ``plan`` is behind the router: its destination; for a duplicate
    that is removed (``unlinked``), what it duplicates: the parked link, else the store
    skill (a build deployed a routed skill again)."""
    if plan.action == "unlinked" and not lexists(place.parking / plan.name):
        return place.store / plan.name
    return place.destination(plan.name, plan.kind)


def holds_skill(path: Path) -> bool:
    """Whether the entry ``path`` holds a SKILL.md file. ``OSError`` when that cannot be
    told (a folder that cannot be read, a symlink loop)."""
    try:
        return stat.S_ISREG((path / SKILL_FILE).stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


class Scan(NamedTuple):
    """The entries of the agent folder worth looking at, and what could not be read."""

    names: list[str]
    notices: list[Notice]
    unreadable: list[str]
    """``name (why)`` of each entry that cannot be read."""

    def skip(self, name: str, exc: OSError) -> None:
        self.unreadable.append(f"{name} ({exc.strerror or exc})")

    def warnings(self, place: RoutePlace) -> list[Notice]:
        """The notices, and one for the entries skipped because they cannot be read."""
        if not self.unreadable:
            return self.notices
        from skillc_index.listing.entryfile import unreadable_notice

        return [*self.notices, unreadable_notice(place.folder, self.unreadable)]


def scan_folder(place: RoutePlace) -> Scan:
    """The agent folder's entries (not hidden), by name; one that cannot be listed is
    reported (as a notice), not raised."""
    try:
        names = [entry.name for entry in os.scandir(place.folder)]
    except FileNotFoundError:
        names = []
    except OSError as exc:
        why = exc.strerror or str(exc)
        return Scan([], [Notice(f"agent folder {place.folder} cannot be listed ({why})")], [])
    return Scan(sorted(name for name in names if plain_name(name)), [], [])
