"""``skc route``: an agent folder's skills behind one router skill (issue 15, "constant
listing cost").

``install`` moves every skill of one agent skills folder into the store of the same scope,
compiles each, and puts ONE skill in the folder, the router, which tells the agent to find
the skill for its task with ``skc find``/``skc_find`` and read it with show/open. The agent's
listing then costs one entry, however many skills there are. ``uninstall`` puts every skill
back where it was and removes the router, once no skill is behind it; ``status`` says what
is routed.

What moves where (always one ``rename``: nothing is copied, nothing deleted):

- a skill folder (a real folder holding ``SKILL.md``) goes to ``<store>/<name>``;
- a deployment skillc made (a symlink to a runtime, or a ``--copy`` stub, of a skill that is
  in a store) is *parked* as it is in ``<base>/.skillc/router/<agent>/<name>``: the skill is
  already in the store, so the folder only needs to lose it; a symlink is renamed itself,
  never what it points to. One that is the same link as one already parked (a build
  deployed it again while routed) is just removed: the parked one puts it back.

Left in place, and reported (the rest of the command goes on): a symlink skillc did not make
(skillc never moves what a link points to), a skill whose name the store already has, one
git tracks (``git ls-files``, asked once), one on another file system, one that does not
compile (it is moved back). The whole command refuses, changing nothing, when the agent
folder (or the store) leads outside the project or the home folder, when something skillc
cannot move holds the router's name, or outside a project for a project folder.

The manifest ``<base>/.skillc/router/<agent>.json`` records each move (name, kind, and the
moved entry's device and inode, which a rename keeps) and is written *before* anything moves,
so an interrupted run is finished by running the command again: a recorded entry is where
the record says (moved) or still in the folder (planned again), whichever the file system
shows. ``uninstall`` moves back only what is at its recorded place with its recorded inode,
and only to a free place; anything else is reported and left.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from skillc_index.atomic import abandoned, ensure_dir, staging_dir, write_file_atomic
from skillc_index.command_errors import (
    ForeignFolder,
)
from skillc_index.diagnostics import (
    PARAMETER_NAMES,
    Diagnostic,
    InternalError,
    InvalidOption,
    Notice,
    SkillcError,
    Spelling,
    UnknownTarget,
)
from skillc_index.files import inside
from skillc_index.installed import ROUTER_MARK
from skillc_index.layout import (
    META_DIR,
    SKILL_FILE,
    SKILLC_DIR,
    Layout,
    ResolvedSkill,
    Scope,
    agent_targets,
)

if TYPE_CHECKING:
    from skillc_index.config import Config
    from skillc_index.operation import Session

__all__ = [
    "ROUTER_MARK",
    "ROUTER_NAME",
    "FolderRoutedAs",
    "NoProjectToRoute",
    "RouteBusy",
    "RouteOutside",
    "RouteResult",
    "RoutedElsewhere",
    "RoutedSkill",
    "SkillLeft",
    "route_install",
    "route_status",
    "route_uninstall",
]

#: The router skill's folder name in the agent folder (and its ``name``).
ROUTER_NAME = "skill-router"
#: ``<base>/.skillc/router/``: the manifests (``<agent>.json``) and parked deployments.
ROUTES_DIR = "router"
MANIFEST_VERSION = 1
#: The most of a route manifest read (an entry is ~80 bytes: 100,000 skills fit).
MAX_MANIFEST_BYTES = 16 << 20

Kind = Literal["folder", "deployment"]
Command = Literal["install", "uninstall", "status"]
# What happened to (or, in a dry run, would happen to) one skill:
#   install:   moved (to the store), parked (a deployment), unlinked (a duplicate of a parked
#              deployment), routed (already behind the router);
#   uninstall: restored, in-place (it never left);
#   status:    routed, in-place, missing.
Action = Literal["moved", "parked", "unlinked", "routed", "restored", "in-place", "missing"]

_AGENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


class RoutedSkill(NamedTuple):
    """One skill of the agent folder behind the router (or put back)."""

    name: str
    """Its name in the agent folder."""
    kind: Kind
    origin: Path
    """Where it is in the agent folder (without the router)."""
    destination: Path
    """Where it is behind the router: ``<store>/<name>`` or the parking folder."""
    action: Action

    def to_dict(self) -> dict[str, str]:
        return {
            "name": self.name,
            "kind": self.kind,
            "from": str(self.origin),
            "to": str(self.destination),
            "action": self.action,
        }


class SkillLeft(NamedTuple):
    """A skill the command left where it is, and why."""

    name: str
    path: Path
    reason: str
    cause: str
    """The kind of ``reason`` in a few words (``does not build``, ``tracked by git``...), the
    summary counts them by it."""

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "path": str(self.path), "reason": self.reason}


class RouteResult(NamedTuple):
    """What ``route install|uninstall|status`` did (or, with ``dry_run``, would do)."""

    command: Command
    agent: str
    scope: Scope
    folder: Path
    """The agent skills folder."""
    store: Path
    manifest: Path
    router: Path | None
    """The router skill's folder when it is (or would be) in place."""
    routed: int
    """Skills behind the router once the command is done."""
    skills: tuple[RoutedSkill, ...]
    left: tuple[SkillLeft, ...]
    dry_run: bool = False
    notices: tuple[Notice, ...] = ()
    router_removed: bool = False
    """``uninstall``: the router was (would be, in a dry run) removed by this run."""

    @property
    def warnings(self) -> tuple[Notice, ...]:
        return self.notices

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "agent": self.agent,
            "scope": self.scope,
            "folder": str(self.folder),
            "store": str(self.store),
            "manifest": str(self.manifest),
            "router": None if self.router is None else str(self.router),
            "routed": self.routed,
            "dry_run": self.dry_run,
            "router_removed": self.router_removed,
            "skills": [skill.to_dict() for skill in self.skills],
            "left": [skill.to_dict() for skill in self.left],
        }


# -- errors ---------------------------------------------------------------------------------


class NoProjectToRoute(InvalidOption):
    """E100: a project agent folder routed outside any skillc project (its store is where
    the skills go)."""

    def __init__(self) -> None:
        super().__init__(self._words(PARAMETER_NAMES))

    @staticmethod
    def _words(spelling: Spelling) -> str:
        init = f"'{spelling.program} init'" if spelling.program else "'init'"
        return (
            f"not inside a skillc project: make this folder one with {init} first, or route "
            f"the home folder's skills with {spelling.option('global')}"
        )

    def spelled(self, spelling: Spelling) -> Diagnostic:
        return self.diagnostic._replace(params={"message": self._words(spelling)})


class RouteOutside(InvalidOption):
    """E100: the agent folder, the store or skillc's folder leads (symlinks followed) outside
    the project or the home folder, or the agent folder is inside skillc's own folder."""

    def __init__(self, what: str, path: str, problem: str) -> None:
        super().__init__(f"{what} '{path}' {problem}; skills are routed only within it")
        self.path = path


class RoutedElsewhere(InvalidOption):
    """E100: the agent's skills were routed from another folder (the config changed since):
    they go back there first."""

    def __init__(self, agent: str, recorded: str, now: str) -> None:
        super().__init__(
            f"the skills of '{agent}' were routed from '{recorded}', not '{now}'; uninstall "
            "that route first"
        )
        self.recorded = recorded


class FolderRoutedAs(InvalidOption):
    """E100: the agent folder is routed already, under another agent's name (``codex`` and
    ``agents`` share ``.agents/skills``): one route per folder."""

    def __init__(self, folder: str, other: str) -> None:
        super().__init__(
            f"the folder '{folder}' is routed already, as '{other}'; route it as '{other}' "
            "(one route per folder)"
        )
        self.other = other


class RouteBusy(InternalError):
    """E999: another process is routing skills of the same scope."""

    def __init__(self, path: str) -> None:
        super().__init__(f"another route command is changing '{path}'; try again when it is done")
        self.path = path


# -- the manifest ---------------------------------------------------------------------------


class _Record(NamedTuple):
    """One recorded move."""

    name: str
    kind: Kind
    dev: int
    ino: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "dev": self.dev, "ino": self.ino}


class _Manifest(NamedTuple):
    folder: str
    """The agent folder, relative to the base (where uninstall puts the skills back)."""
    state: Literal["installing", "installed"]
    records: tuple[_Record, ...]
    router_sha256: str | None


def _read_manifest(path: Path) -> _Manifest | None:
    """The route manifest at ``path`` (None: there is none). A checkout may ship one: read
    within bounds (:func:`~skillc_index.bounded_json.read_json_bounded`); one that cannot be read or
    is not valid is E999 naming the file: what is routed cannot be known."""
    from skillc_index.bounded_json import read_json_bounded

    try:
        data = read_json_bounded(path, max_bytes=MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise InternalError(f"cannot read the route manifest '{path}': {exc}") from None
    try:
        records = tuple(
            _Record(str(item["name"]), item["kind"], int(item["dev"]), int(item["ino"]))
            for item in data["entries"]
        )
        if data.get("version") != MANIFEST_VERSION or any(
            r.kind not in ("folder", "deployment") or not _plain(r.name) for r in records
        ):
            raise ValueError("unknown version or entry")
        router = data.get("router_sha256")
        return _Manifest(
            str(data["folder"]),
            "installed" if data.get("state") == "installed" else "installing",
            records,
            router if isinstance(router, str) else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InternalError(f"the route manifest '{path}' is not valid ({exc})") from None


def _write_manifest(path: Path, agent: str, manifest: _Manifest) -> None:
    data = {
        "version": MANIFEST_VERSION,
        "agent": agent,
        "folder": manifest.folder,
        "state": manifest.state,
        "router_sha256": manifest.router_sha256,
        "entries": [record.to_json() for record in manifest.records],
    }
    ensure_dir(path.parent)
    write_file_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())


# -- where things are -----------------------------------------------------------------------


def _plain(name: str) -> bool:
    """A name one entry of a folder can have, that is not hidden."""
    return bool(name) and not name.startswith(".") and "/" not in name and os.sep not in name


class _Place(NamedTuple):
    agent: str
    scope: Scope
    base: Path
    folder: Path
    store: Path
    routes: Path
    """``<base>/.skillc/router``."""

    @property
    def manifest(self) -> Path:
        return self.routes / f"{self.agent}.json"

    @property
    def parking(self) -> Path:
        return self.routes / self.agent

    @property
    def router(self) -> Path:
        return self.folder / ROUTER_NAME

    def destination(self, name: str, kind: Kind) -> Path:
        return (self.store if kind == "folder" else self.parking) / name


def _place(layout: Layout, config: Config, agent: str, global_: bool) -> _Place:
    """The agent folder, store and manifest of ``agent`` in the scope; refuses (E100) an
    unknown agent, a project scope outside any project, and any of them leading outside the
    project (or home) folder."""
    scope: Scope = "global" if global_ else "project"
    if scope == "project" and layout.project_root is None:
        raise NoProjectToRoute
    known = agent_targets(config.targets)
    if agent not in known or not _AGENT_NAME.match(agent):
        raise UnknownTarget(agent, tuple(sorted(name for name in known if _AGENT_NAME.match(name))))
    base = layout.base(scope)
    folder = known[agent].folder(scope, base, layout.home)
    if folder is None:  # a home-only ("~/...") target asked for in the project
        has_one = (name for name, target in known.items() if target.project is not None)
        raise UnknownTarget(agent, tuple(sorted(has_one)))
    place = _Place(
        agent,
        scope,
        base,
        folder,
        layout.store(scope),
        base / SKILLC_DIR / ROUTES_DIR,
    )
    checked = (
        ("store", place.store),
        ("runtime folder", layout.runtime_store(scope)),
        ("route folder", place.routes),
    )
    for what, path in checked:
        _check_inside(place, layout, what, path)
    _check_agent_folder(place, layout, place.folder)
    return place


def _check_inside(place: _Place, layout: Layout, what: str, path: Path) -> None:
    """RouteOutside (E100) unless ``path`` really (symlinks followed) is in the base."""
    real = os.path.realpath(path)
    if not inside(real, os.path.realpath(place.base)):
        where = "project" if place.scope == "project" else "home folder"
        raise RouteOutside(what, layout.display(path), f"leads outside the {where}, to {real}")


def _check_agent_folder(place: _Place, layout: Layout, folder: Path) -> None:
    """The agent folder must be in the base, and not in skillc's own folder."""
    _check_inside(place, layout, "agent folder", folder)
    if inside(os.path.realpath(folder), os.path.realpath(place.base / SKILLC_DIR)):
        raise RouteOutside("agent folder", layout.display(folder), "is inside skillc's own folder")


@contextlib.contextmanager
def _locked(place: _Place, layout: Layout) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the route folder while the command changes things
    (another route command of this scope gets :class:`RouteBusy`); unlocked where there is
    no ``flock``."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    ensure_dir(place.routes)
    fd = os.open(place.routes, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RouteBusy(layout.display(place.routes)) from None
        except OSError:  # a file system without flock: run unlocked
            pass
        yield
    finally:
        os.close(fd)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _is_ours(record: _Record, path: Path) -> bool:
    return _identity(path) == (record.dev, record.ino)


# -- the router skill -----------------------------------------------------------------------


def router_text(count: int, agent: str, scope: Scope) -> str:
    """The router's SKILL.md: its description (the one listing entry the agent pays for)
    tells the agent to find the skill for any task first."""
    from skillc_index.build.stub import _yaml_string

    skills = f"{count} skill{'' if count == 1 else 's'}"
    description = (
        f"Finds the right skill for the task among {skills} installed for this agent but kept "
        "out of this listing by skillc. Use it FIRST, for any task: call the MCP tool skc_find "
        '(or run `skc find "<task>"`) with the task in words, then read the best skill with '
        "skc_show / skc_open (`skc show <skill>`)."
    )
    undo = "skc route uninstall" + ("" if agent == "claude" else f" --target {agent}")
    undo += " --global" if scope == "global" else ""
    return "\n".join(
        [
            "---",
            f"name: {ROUTER_NAME}",
            f"description: {_yaml_string(description)}",
            "---",
            "",
            "# Skill router",
            "",
            f"{skills[0].upper()}{skills[1:]} are installed for you but are not in your skill "
            "listing: skillc keeps them in its store, so that the listing costs one entry "
            "instead of one per skill. Before you start any task, look for the skill that fits:",
            "",
            "1. Find it: call the MCP tool `skc_find` with the task in words (`query`), or run",
            '   `skc find "<the task, in words>"`. Skills come best first, each with the',
            "   sections that match best.",
            "2. Read it, section by section: `skc_outline` and `skc_show` (or",
            '   `skc outline <skill>`, `skc show <skill> --section "<heading>"`), `skc_open` for',
            "   one of its files (`skc open <skill> <path>`), `skc_search` to search it.",
            "3. Follow it. When no skill fits the task, go on without one.",
            "",
            "Never read the skills' files directly: the skillc commands serve them.",
            "",
            f"(The user puts the skills back in this folder with `{undo}`.)",
            "",
        ]
    )


def _router_files(text: str) -> dict[str, bytes]:
    mark = {"skillc": "router", "version": MANIFEST_VERSION}
    return {
        SKILL_FILE: text.encode("utf-8"),
        ROUTER_MARK: (json.dumps(mark) + "\n").encode("ascii"),
    }


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _routed_as(place: _Place, folder_rel: str) -> str | None:
    """Another agent whose recorded route is of this very folder, else None."""
    try:
        names = sorted(os.listdir(place.routes))  # noqa: PTH208
    except OSError:
        return None
    for name in names:
        agent = name.removesuffix(".json")
        if agent == name or agent == place.agent or not _AGENT_NAME.match(agent):
            continue
        recorded = _read_manifest(place.routes / name)
        if recorded is not None and recorded.folder == folder_rel:
            return agent
    return None


def _router_state(
    path: Path, recorded_sha: str | None
) -> Literal["absent", "ours", "edited", "other"]:
    """What is at the router's place: nothing, the router skillc wrote (``ours``: exactly
    its two files, SKILL.md as recorded), a router edited since, or something else."""
    if not _exists(path):
        return "absent"
    try:
        if path.is_symlink() or not path.is_dir() or not (path / ROUTER_MARK).is_file():
            return "other"
    except OSError:  # a folder that cannot be read: not known to be skillc's
        return "other"
    try:
        names = {entry.name for entry in os.scandir(path)}
        stub = (path / SKILL_FILE).read_bytes()
    except OSError:
        return "edited"
    if names != {SKILL_FILE, ROUTER_MARK} or (path / SKILL_FILE).is_symlink():
        return "edited"
    return "ours" if recorded_sha is not None and _sha256(stub) == recorded_sha else "edited"


def _write_router(place: _Place, text: str) -> None:
    """Put the router in place: assembled in a hidden folder beside it, renamed in; an older
    router of skillc's is replaced only once the new one is complete."""
    import shutil

    for stale in abandoned(place.folder, f"{ROUTER_NAME}.old"):  # an old router, of a killed run
        shutil.rmtree(stale, ignore_errors=True)
    staging = staging_dir(place.folder, f"{ROUTER_NAME}.route")
    try:
        for name, data in _router_files(text).items():
            (staging / name).write_bytes(data)
        old: Path | None = None
        if _exists(place.router):
            old = staging_dir(place.folder, f"{ROUTER_NAME}.old", sweep=False)
            place.router.rename(old / ROUTER_NAME)
        staging.rename(place.router)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


# -- classifying the agent folder -----------------------------------------------------------


class _Plan(NamedTuple):
    """One entry of the agent folder and what install does with it."""

    name: str
    kind: Kind
    action: Literal["moved", "parked", "unlinked"]
    identity: tuple[int, int]


def _deployment_of(path: Path, layout: Layout) -> str | None:
    """The store skill whose deployment skillc made ``path`` is (a symlink to its runtime, or
    a copy of its stub), or None. Only one whose skill is in a store counts: routing keeps
    every skill findable."""
    from skillc_index.build.deploy import _is_skillc_copy
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
    if manifest is None or not _is_skillc_copy(path, manifest.skill):
        return None
    for scope in layout.scopes():
        if (layout.store(scope) / manifest.skill / SKILL_FILE).is_file():
            return manifest.skill
    return None


def _redeployed(origin: Path, record: _Record, destination: Path, layout: Layout) -> bool:
    """Whether the entry at a routed skill's place in the agent folder is a deployment
    skillc made of that same store skill (``skc build`` deployed it again while it was
    routed): uninstall may then take that deployment's place."""
    from skillc_index.installed import deployed_source

    if _same_link(origin, destination):
        return True
    if _deployment_of(origin, layout) is None:  # not skillc's: never taken
        return False
    store_skill = (
        os.path.realpath(destination)
        if record.kind == "folder"
        else deployed_source(os.path.realpath(destination), layout)
    )
    if store_skill is None:
        return False
    return deployed_source(os.path.realpath(origin), layout) == store_skill


def _same_link(one: Path, other: Path) -> bool:
    try:
        return one.is_symlink() and other.is_symlink() and one.readlink() == other.readlink()
    except OSError:
        return False


def _classify(
    place: _Place, layout: Layout, name: str, taken: set[str]
) -> _Plan | SkillLeft | None:
    """What install does with the entry ``name`` of the agent folder: a plan, a reason to
    leave it, or None for what is not a skill (a file, a folder without SKILL.md)."""
    path = place.folder / name
    identity = _identity(path)
    if identity is None:
        return None
    if path.is_symlink():
        if not _holds_skill(path):
            return None
        if _deployment_of(path, layout) is None:
            target = path.readlink()
            real = Path(os.path.realpath(path))
            if real.parent.name == "runtime" and real.parent.parent.name == SKILLC_DIR:
                why = "its source is in no store"
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
    if not path.is_dir() or not _holds_skill(path):
        return None
    if (path / META_DIR).is_dir() and _deployment_of(path, layout) is not None:
        return _deployment_plan(place, name, identity, taken)
    problem = _name_problem(name)
    if problem is not None:
        return SkillLeft(name, path, problem, "invalid name")
    destination = place.store / name
    if _exists(destination) or name in taken:
        return SkillLeft(
            name,
            path,
            f"the {place.scope} store already has a skill named '{name}'",
            "name taken in the store",
        )
    if not os.access(path, os.W_OK):  # a folder moves to another parent only if writable
        return SkillLeft(name, path, "not moved (Permission denied)", "not moved")
    try:
        _check_builds(path, name)
    except (SkillcError, OSError) as exc:
        return SkillLeft(name, path, *_why_not_built(exc))
    return _Plan(name, "folder", "moved", identity)


def _name_problem(name: str) -> str | None:
    """Why a skill folder named ``name`` cannot enter the store under that name: the one
    rule of every way into a store (``init``, an import, this move), or None."""
    from skillc_index.layout import InvalidSkillName, require_skill_name

    try:
        require_skill_name(name)
    except InvalidSkillName as exc:
        return str(exc.diagnostic.params["message"])
    return None


def _why_not_built(exc: SkillcError | OSError) -> tuple[str, str]:
    """Why a skill is left (its reason, and the kind of it): it does not build, or one of its
    files cannot be read (no permission, a FIFO...)."""
    if isinstance(exc, OSError):
        return f"cannot be read: {exc.strerror or exc}", "cannot be read"
    return f"does not build: {_one_line(exc)}", "does not build"


def _check_builds(source: Path, name: str) -> None:
    """Raise what stops a build of the skill folder ``source`` before it writes anything
    (a compiled runtime given as a source, a symlink leading out, E011 for the frontmatter):
    a skill that fails here is left in place, by a dry run and a real run alike."""
    from skillc_index.build.skill import _check_source, _validate_frontmatter
    from skillc_index.diagnostics import PathEscapesRoot
    from skillc_index.files import walk_skill

    _check_source(source, name)
    found = walk_skill(source)
    if found.escapes:
        raise PathEscapesRoot(found.escapes[0])
    _validate_frontmatter(source)


def _one_line(exc: SkillcError) -> str:
    """A failure's diagnostic on one line: its hint (an E011's YAML error...) after a ``;``."""
    from skillc_index.diagnostics import format_diagnostic

    lines = format_diagnostic(exc.diagnostic).splitlines()
    return "; ".join([lines[0], *(line.removeprefix("hint: ") for line in lines[1:])])


def _deployment_plan(
    place: _Place, name: str, identity: tuple[int, int], taken: set[str]
) -> _Plan | SkillLeft:
    """A deployment skillc made is parked; one that duplicates what is behind the router
    already (the same link parked, or a build that deployed a routed skill again) is
    removed: uninstall puts back what was there before."""
    path = place.folder / name
    parked = place.parking / name
    if name in taken or (_exists(parked) and _same_link(path, parked)):
        return _Plan(name, "deployment", "unlinked", identity)
    if _exists(parked):
        return SkillLeft(
            name, path, f"a deployment of this name is already parked ({parked})", "already parked"
        )
    return _Plan(name, "deployment", "parked", identity)


def _behind(place: _Place, plan: _Plan) -> Path:
    """Where the skill of ``plan`` is behind the router: its destination; for a duplicate
    that is removed (``unlinked``), what it duplicates: the parked link, else the store
    skill (a build deployed a routed skill again)."""
    if plan.action == "unlinked" and not _exists(place.parking / plan.name):
        return place.store / plan.name
    return place.destination(plan.name, plan.kind)


def _holds_skill(path: Path) -> bool:
    """Whether the entry ``path`` holds a SKILL.md file. ``OSError`` when that cannot be
    told (a folder that cannot be read, a symlink loop)."""
    try:
        return stat.S_ISREG((path / SKILL_FILE).stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


class _Scan(NamedTuple):
    """The entries of the agent folder worth looking at, and what could not be read."""

    names: list[str]
    notices: list[Notice]
    unreadable: list[str]
    """``name (why)`` of each entry that cannot be read."""

    def skip(self, name: str, exc: OSError) -> None:
        self.unreadable.append(f"{name} ({exc.strerror or exc})")

    def warnings(self, place: _Place) -> list[Notice]:
        """The notices, and one for the entries skipped because they cannot be read."""
        if not self.unreadable:
            return self.notices
        from skillc_index.listing.budget import unreadable_notice

        return [*self.notices, unreadable_notice(place.folder, self.unreadable)]


def _scan(place: _Place) -> _Scan:
    """The agent folder's entries (not hidden), by name; one that cannot be listed is
    reported (as a notice), not raised."""
    try:
        names = [entry.name for entry in os.scandir(place.folder)]
    except FileNotFoundError:
        names = []
    except OSError as exc:
        why = exc.strerror or str(exc)
        return _Scan([], [Notice(f"agent folder {place.folder} cannot be listed ({why})")], [])
    return _Scan(sorted(name for name in names if _plain(name)), [], [])


# -- install --------------------------------------------------------------------------------


def _compile(
    place: _Place, layout: Layout, config: Config, name: str
) -> tuple[ResolvedSkill, bool]:
    """Compile the store skill ``name``; returns its :class:`ResolvedSkill` and whether
    anything was (re)built."""
    from skillc_index.build.compiler import compile_skill
    from skillc_index.build.skill import _check_source
    from skillc_index.layout import runtime_for

    source = Path(os.path.realpath(place.store / name))
    scope, runtime, in_store = runtime_for(source, layout)
    skill = ResolvedSkill(source.name, source, scope, runtime, in_store)
    _check_source(source, name)
    compiled = compile_skill(skill, tokenizer_setting=config.tokenizer)
    return skill, not compiled.up_to_date


def _move(origin: Path, destination: Path) -> None:
    """Rename ``origin`` to ``destination``, which must be free: a rename replaces an empty
    folder or a file silently, so it is looked at just before."""
    if _exists(destination):
        raise FileExistsError(errno.EEXIST, "destination exists", str(destination))
    ensure_dir(destination.parent)
    origin.rename(destination)


def route_install(
    session: Session, agent: str = "claude", *, global_: bool = False, dry_run: bool = False
) -> RouteResult:
    """Put the skills of ``agent``'s folder (the home folder's with ``global_``) behind the
    router. Safe to repeat: a second run routes what was added since and finishes what an
    interrupted run left. See the module docstring."""
    layout, config = session.layout, session.config
    place = _place(layout, config, agent, global_)
    plan = _install(session, place, dry_run=True)  # a refusal is raised before any change
    if dry_run or plan.router is None:
        return plan
    with _locked(place, layout):
        return _install(session, place, dry_run=False)


def _install(session: Session, place: _Place, *, dry_run: bool) -> RouteResult:
    layout, config = session.layout, session.config
    old = _read_manifest(place.manifest)
    folder_rel = os.path.relpath(place.folder, place.base)
    if old is not None and old.folder != folder_rel:
        raise RoutedElsewhere(place.agent, old.folder, folder_rel)
    other = _routed_as(place, folder_rel)
    if other is not None:
        raise FolderRoutedAs(folder_rel, other)
    # what is behind the router already (at its recorded place, the recorded entry)
    routed = [
        record
        for record in (old.records if old else ())
        if _is_ours(record, place.destination(record.name, record.kind))
    ]
    routed_names = {record.name for record in routed}
    plans: list[_Plan] = []
    left: list[SkillLeft] = []
    router_state = _router_state(place.router, old.router_sha256 if old else None)
    if old is None and router_state == "edited":
        router_state = "other"  # no route of ours here: a router skillc never wrote
    scan = _scan(place)
    for name in scan.names:
        if name == ROUTER_NAME and router_state in ("ours", "edited"):
            continue
        try:
            found = _classify(place, layout, name, routed_names)
        except OSError as exc:
            scan.skip(name, exc)
            continue
        if isinstance(found, SkillLeft):
            left.append(found)
        elif found is not None:
            plans.append(found)
    if plans:  # what git tracks stays: moving it would show as deleted (one git run)
        from skillc_index._git import tracked

        kept = tracked(place.folder, [plan.name for plan in plans]) or set()
        left += [
            SkillLeft(plan.name, place.folder / plan.name, "tracked by git", "tracked by git")
            for plan in plans
            if plan.name in kept
        ]
        plans = [plan for plan in plans if plan.name not in kept]
    if (
        _exists(place.router)
        and router_state == "other"
        and ROUTER_NAME not in {plan.name for plan in plans}
    ):
        raise ForeignFolder(ROUTER_NAME, layout.display(place.router))
    notices = scan.warnings(place)
    if old is None and not plans:  # nothing routed, nothing to route: no router either
        return RouteResult(
            "install", place.agent, place.scope, place.folder, place.store, place.manifest,
            None, 0, (), tuple(left), dry_run, tuple(notices),
        )  # fmt: skip
    skills = [
        RoutedSkill(
            r.name, r.kind, place.folder / r.name, place.destination(r.name, r.kind), "routed"
        )
        for r in routed
    ]
    if router_state == "edited":
        notices.append(Notice(f"the router {place.router} was edited; it is left as it is"))
    if dry_run:
        skills += [
            RoutedSkill(p.name, p.kind, place.folder / p.name, _behind(place, p), p.action)
            for p in plans
        ]
        count = sum(1 for s in skills if s.action != "unlinked")
        return RouteResult(
            "install", place.agent, place.scope, place.folder, place.store, place.manifest,
            place.router, count, tuple(skills), tuple(left), True, tuple(notices),
        )  # fmt: skip

    # 1. the manifest first: every move it may see is recorded before it happens
    records = [*routed]
    records += [_Record(p.name, p.kind, *p.identity) for p in plans if p.action != "unlinked"]
    router_sha = old.router_sha256 if old else None
    _write_manifest(
        place.manifest, place.agent, _Manifest(folder_rel, "installing", tuple(records), router_sha)
    )

    # 2. the moves, one rename each
    done: list[_Plan] = []
    for plan in plans:
        origin = place.folder / plan.name
        try:
            if _identity(origin) != plan.identity:
                raise FileNotFoundError(errno.ENOENT, "changed while routing", str(origin))
            if plan.action == "unlinked":
                from skillc_index.build.deploy import _remove

                _remove(origin)  # a symlink, or a copy of skillc's own (checked above)
            else:
                _move(origin, place.destination(plan.name, plan.kind))
        except OSError as exc:
            why = "on another file system" if exc.errno == errno.EXDEV else exc.strerror or str(exc)
            left.append(SkillLeft(plan.name, origin, f"not moved ({why})", "not moved"))
            continue
        done.append(plan)

    # 3. compile what is in the store; one that does not compile goes back where it was
    failed: set[str] = set()
    new = {p.name for p in done}
    for record in [*routed, *(_Record(p.name, p.kind, *p.identity) for p in done)]:
        if record.kind != "folder":
            continue
        try:
            skill, built = _compile(place, layout, config, record.name)
        except (SkillcError, OSError) as exc:
            origin = place.folder / record.name
            reason, cause = _why_not_built(exc)
            if record.name in new:
                try:
                    _move(place.store / record.name, origin)
                except OSError:
                    pass
                else:
                    failed.add(record.name)
                    left.append(SkillLeft(record.name, origin, f"put back: {reason}", cause))
                    continue
            notices.append(Notice(f"routed skill '{record.name}' is not built: {reason}"))
            continue
        if built:
            args = {"global": place.scope == "global", "target": [], "copy": False, "force": False}
            session.log.record(layout, skill, "build", args)

    # 4. the router, counting what is behind it
    final = [
        r
        for r in records
        if r.name not in failed and _is_ours(r, place.destination(r.name, r.kind))
    ]
    if router_state != "edited":
        text = router_text(len(final), place.agent, place.scope)
        router_sha = _sha256(text.encode("utf-8"))
        if router_state != "ours" or router_sha != (old.router_sha256 if old else None):
            if _router_state(place.router, old.router_sha256 if old else None) in (
                "absent",
                "ours",
            ):
                ensure_dir(place.folder)
                _write_router(place, text)
            else:  # a skill of that name could not be moved away
                router_sha = old.router_sha256 if old else None
                notices.append(Notice(f"the router is not written: {place.router} is taken"))
    _write_manifest(
        place.manifest, place.agent, _Manifest(folder_rel, "installed", tuple(final), router_sha)
    )
    moved = {p.name: p for p in done}
    skills += [
        RoutedSkill(p.name, p.kind, place.folder / p.name, _behind(place, p), p.action)
        for p in moved.values()
        if p.name not in failed
    ]
    return RouteResult(
        "install", place.agent, place.scope, place.folder, place.store, place.manifest,
        place.router, len(final), tuple(skills), tuple(left), False, tuple(notices),
    )  # fmt: skip


# -- uninstall ------------------------------------------------------------------------------


def route_uninstall(
    session: Session, agent: str = "claude", *, global_: bool = False, dry_run: bool = False
) -> RouteResult:
    """Put every routed skill of ``agent``'s folder back where it was and remove the router.
    What cannot go back (its place is taken) stays behind the router, is reported, and stays
    in the manifest for a later run; the router stays too while any skill is behind it (its
    count updated). One that changed in the store is reported and forgotten. Nothing routed:
    nothing to do."""
    layout, config = session.layout, session.config
    place = _place(layout, config, agent, global_)
    if dry_run or not _exists(place.manifest):
        return _uninstall(session, place, dry_run=dry_run)
    with _locked(place, layout):
        result = _uninstall(session, place, dry_run=False)
    if not _exists(place.manifest):
        for folder in (place.parking, place.routes):  # only when empty
            with contextlib.suppress(OSError):
                folder.rmdir()
    return result


def _uninstall(session: Session, place: _Place, *, dry_run: bool) -> RouteResult:
    import shutil

    layout = session.layout
    manifest = _read_manifest(place.manifest)
    if manifest is None:
        return RouteResult(
            "uninstall", place.agent, place.scope, place.folder, place.store, place.manifest,
            None, 0, (), (), dry_run,
        )  # fmt: skip
    folder = place.base / manifest.folder  # where the skills were, whatever config says now
    _check_agent_folder(place, layout, folder)
    place = place._replace(folder=folder)
    router_state = _router_state(place.router, manifest.router_sha256)
    skills: list[RoutedSkill] = []
    left: list[SkillLeft] = []
    remaining: list[_Record] = []

    def put_back(record: _Record) -> None:
        origin = folder / record.name
        destination = place.destination(record.name, record.kind)
        here = RoutedSkill(record.name, record.kind, origin, destination, "restored")
        if not _is_ours(record, destination):
            if _is_ours(record, origin):
                skills.append(here._replace(action="in-place"))
            else:
                why = "not at its place behind the router any more; forgotten"
                left.append(SkillLeft(record.name, destination, why, "forgotten"))
            return
        if _exists(origin):
            if _redeployed(origin, record, destination, layout):
                from skillc_index.build.deploy import _remove

                if record.kind == "deployment":  # the parked deployment is the duplicate
                    if not dry_run:
                        _remove(destination)
                    skills.append(here._replace(action="in-place"))
                    return
                if not dry_run:  # the folder goes back in place of its deployment
                    _remove(origin)
            else:
                why = f"{origin} is taken; left behind the router"
                left.append(SkillLeft(record.name, destination, why, "its place is taken"))
                remaining.append(record)
                return
        if not dry_run:
            try:
                _move(destination, origin)
            except OSError as exc:
                why = f"not moved back ({exc.strerror or exc})"
                left.append(SkillLeft(record.name, destination, why, "not moved back"))
                remaining.append(record)
                return
        skills.append(here)

    # a routed skill named like the router goes back only once the router is gone
    last = [r for r in manifest.records if r.name == ROUTER_NAME and router_state == "ours"]
    for record in manifest.records:
        if record not in last:
            put_back(record)
    # the router stays while any skill is behind it: it is what points the agent to them
    removed = router_state == "ours" and not remaining
    if removed and not dry_run:
        shutil.rmtree(place.router)
    for record in last:
        if removed:
            put_back(record)
        else:
            why = f"{place.router} is the router's place; left behind the router"
            left.append(SkillLeft(record.name, place.destination(record.name, record.kind), why,
                                  "its place is the router's"))  # fmt: skip
            remaining.append(record)
    notices: list[Notice] = []
    if router_state in ("edited", "other"):
        notices.append(
            Notice(f"{place.router} is not the router skillc wrote (edited since?); left as it is")
        )
    router = None if removed or router_state == "absent" else place.router
    router_sha = manifest.router_sha256
    if router_state == "ours" and remaining and not dry_run:  # it counts what is behind it
        text = router_text(len(remaining), place.agent, place.scope)
        if _sha256(text.encode("utf-8")) != router_sha:
            _write_router(place, text)
            router_sha = _sha256(text.encode("utf-8"))
    if not dry_run:
        if remaining or router is not None:
            state = _Manifest(manifest.folder, "installed", tuple(remaining), router_sha)
            _write_manifest(place.manifest, place.agent, state)
        else:
            place.manifest.unlink()
    return RouteResult(
        "uninstall", place.agent, place.scope, folder, place.store, place.manifest,
        router, len(remaining), tuple(skills), tuple(left), dry_run, tuple(notices), removed,
    )  # fmt: skip


# -- status ---------------------------------------------------------------------------------


def route_status(session: Session, agent: str = "claude", *, global_: bool = False) -> RouteResult:
    """What is routed for ``agent``'s folder: each recorded skill (``routed``: behind the
    router; ``in-place``: back in the folder; ``missing``), the router, and in ``left`` the
    skills of the folder that are not behind it (added since: ``install`` routes them)."""
    layout, config = session.layout, session.config
    place = _place(layout, config, agent, global_)
    manifest = _read_manifest(place.manifest)
    if manifest is not None:
        place = place._replace(folder=place.base / manifest.folder)
        _check_agent_folder(place, layout, place.folder)
    skills: list[RoutedSkill] = []
    for record in manifest.records if manifest else ():
        origin = place.folder / record.name
        destination = place.destination(record.name, record.kind)
        if _is_ours(record, destination):
            action: Action = "routed"
        elif _is_ours(record, origin):
            action = "in-place"
        else:
            action = "missing"
        skills.append(RoutedSkill(record.name, record.kind, origin, destination, action))
    router_state = _router_state(place.router, manifest.router_sha256 if manifest else None)
    scan = _scan(place)
    left: list[SkillLeft] = []
    for name in scan.names:
        if name == ROUTER_NAME and router_state in ("ours", "edited"):
            continue
        try:
            if _holds_skill(place.folder / name):
                why = "not behind the router"
                left.append(SkillLeft(name, place.folder / name, why, why))
        except OSError as exc:
            scan.skip(name, exc)
    notices = scan.warnings(place)
    if router_state == "edited":
        notices.append(Notice(f"the router {place.router} was edited since skillc wrote it"))
    return RouteResult(
        "status", place.agent, place.scope, place.folder, place.store, place.manifest,
        place.router if router_state in ("ours", "edited") else None,
        sum(1 for skill in skills if skill.action == "routed"),
        tuple(skills), tuple(left), False, tuple(notices),
    )  # fmt: skip
