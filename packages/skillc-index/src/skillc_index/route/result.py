"""What a ``skc route`` command returns (:class:`RouteResult`, one :class:`RoutedSkill` per
skill behind the router or put back, one :class:`SkillLeft` per skill left where it is) and the
errors it raises before changing anything."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from skillc_index.diagnostics import Diagnostic, InternalError, Notice
from skillc_index.option_errors import InvalidOption
from skillc_index.spelling import PARAMETER_NAMES, Spelling

if TYPE_CHECKING:
    from skillc_index.layout import Scope
    from skillc_index.route.shapes import RoutedSkillShape, RouteShape, SkillLeftShape

__all__ = [
    "Action",
    "Command",
    "FolderRoutedAs",
    "Kind",
    "NoProjectToRoute",
    "RouteBusy",
    "RouteNotKnown",
    "RouteOutside",
    "RouteResult",
    "RoutedElsewhere",
    "RoutedSkill",
    "SkillLeft",
]

Kind = Literal["folder", "deployment"]

Command = Literal["install", "uninstall", "status"]

# What happened to (or, in a dry run, would happen to) one skill:
#   install:   moved (to the store), parked (a deployment), unlinked (a duplicate of a parked
#              deployment), routed (already behind the router);
#   uninstall: restored, in-place (it never left);
#   status:    routed, in-place, missing, gone (a parked deployment whose store skill is gone).
Action = Literal["moved", "parked", "unlinked", "routed", "restored", "in-place", "missing", "gone"]


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

    def to_dict(self) -> RoutedSkillShape:
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
    error: Diagnostic | None = None
    """The failure that left it, the skill named as its subject: a build that failed (or a
    file it could not read or write), a move the system refused. None for a skill left by
    the rules (tracked by git, its name taken in the store, user-only...)."""

    def to_dict(self) -> SkillLeftShape:
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
    runtimes_removed: tuple[Path, ...] = ()
    """``uninstall``: the runtimes install built that this run removed (would remove)."""

    @property
    def failures(self) -> tuple[Diagnostic, ...]:
        """``install`` (a dry run too) or ``uninstall`` where a skill failed (it does not
        build, cannot be read or written, its move was refused), whatever became of the
        others: the error of each that failed. The command failed, as a batch ``build`` one
        of whose skills failed does (exit status 1, each error on stderr); one that left
        skills by the rules alone (tracked by git, its name taken, its place taken...) did
        not."""
        if self.command == "status":
            return ()
        return tuple(skill.error for skill in self.left if skill.error is not None)

    @property
    def warnings(self) -> tuple[Notice | Diagnostic, ...]:
        return (*self.notices, *self.failures)

    def to_dict(self) -> RouteShape:
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
            "runtimes_removed": [str(path) for path in self.runtimes_removed],
            "skills": [skill.to_dict() for skill in self.skills],
            "left": [skill.to_dict() for skill in self.left],
        }


# -- errors ---------------------------------------------------------------------------------


class NoProjectToRoute(InvalidOption):
    """E100: a project agent folder routed outside any skillc project (its store is where
    the skills go)."""

    def __init__(self, in_home: bool = False) -> None:
        self.in_home = in_home
        super().__init__(self._words(PARAMETER_NAMES))

    def _words(self, spelling: Spelling) -> str:
        home = f"route the home folder's skills with {spelling.option('global')}"
        if self.in_home:  # `init` here makes the global store: never a project
            return f"the home folder is never a skillc project: {home}"
        init = f"'{spelling.program} init'" if spelling.program else "'init'"
        return f"not inside a skillc project: make this folder one with {init} first, or {home}"

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


class RouteNotKnown(InvalidOption):
    """E100: entries are at the places the route recorded, and none is known as what it moved
    there (its inode, else what it held): the project copied, or moved to another file
    system, after its skills were edited or by an earlier skillc. Forgetting them all would
    remove the router and leave the agent none of them."""

    def __init__(self, manifest: str, count: int) -> None:
        skills = "1 skill" if count == 1 else f"{count} skills"
        super().__init__(
            f"none of the {skills} recorded in '{manifest}' is what the route moved: each place "
            "holds another entry, or one changed since it was recorded (the project copied, or "
            "moved to another file system?); nothing changed",
            "skc route status lists them: move each back to the agent folder by hand, then "
            "remove the router and the manifest",
        )
        self.manifest = manifest


class RouteBusy(InternalError):
    """E999: another process is routing skills of the same scope (busy: a warning that says
    something was not done for it gives the message alone)."""

    busy = True

    def __init__(self, path: str) -> None:
        super().__init__(f"another route command is changing '{path}'; try again when it is done")
        self.path = path
