"""Deployment from the runtime (SSOT) into agent folders (RFC-0001:C-DEPLOYMENT, ADR-0002).

Each target gets ``<agent folder>/<name>``: a symlink to the runtime (the default), or with
``copy`` a folder holding a copy of the stub (``SKILL.md``) and of the manifest
(``.skillc-meta/manifest.json``, which marks the folder as skillc's own). Where a symlink
cannot be created, a copy is made and a warning returned. A deployment keeps its method: a
copy of the stub there already (an earlier ``--copy``) is refreshed as a copy, not turned
back into a symlink, and is ``unchanged`` when it holds the runtime's build
(:func:`_is_stub_copy`).

**Relative links** (issue 34): a symlink is relative when it and the runtime share a root,
the folder the deployment's scope hangs off (the project for a project skill, the home for a
global one; real paths compared, so the relative text is what the kernel follows): the
project (or the home) can then be moved, mounted elsewhere in a container, or committed, and
the link still leads to its runtime. A link that leaves its root (a path target outside the
project) holds the runtime's absolute path. A link skillc wrote before, absolute, is still a
deployment of this runtime (:func:`link_target`): the next build rewrites it relative, or
leaves it as it is where it may not be changed (git tracks it, the folder is read-only).

**Copies made before** (:mod:`skillc_index.build.copies`, whose functions this module gives
too): a build refreshes every copy of skillc's own of the skill in the agent folders of its
scope, and ``list`` calls the skill ``stale`` while one holds another build.

What may be replaced at a destination: a symlink (always, RFC-0001; only the link goes, never
what it points to) and a copy made by an earlier ``--copy`` build of the same skill (nothing
in it but the stub and manifest skillc wrote, checked against the manifest's record of the
stub). Anything else is skillc's to touch only with ``force``, and even then it is never
deleted: it is moved aside to a hidden ``.<name>.skillc-backup-<UTC time>`` beside it, and a
warning says where.

Where a project may deploy (issue 13): a destination written inside the project (a built-in
target of a project skill, a relative ``[targets]`` entry) must really be inside it, so a
symlink in the checkout cannot lead it out; a ``[targets]`` entry of the project's own config
must lead inside the project whatever it says. A folder outside the project is used only when
the user wrote it: as a path target, or in the home config.

A destination git tracks is the project's source (a skill folder kept in ``.claude/skills``,
a committed symlink or copy): a deployment that would replace it is refused (E050) even with
``force``.

Every conflict is found by :func:`plan_deployments` before the build writes anything, and
:func:`deploy` looks again at what is there when it writes; what it removes is renamed aside
first and removed only if it is a symlink or skillc's copy at that moment (:func:`_discard`):
``route`` takes no build lock, and ``route uninstall`` may put a user's folder back meanwhile.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import stat
from collections.abc import Collection, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index.atomic import (
    creating,
    creation_start,
    disk_failure,
    failure_reason,
    not_writable,
    temporary_path,
)
from skillc_index.build.copies import (
    copy_deployments,
    is_skillc_copy,
    not_refreshed,
    same_build,
    stale_copies,
)
from skillc_index.build.manifest import MANIFEST_FILE, Manifest, manifest_path, read_manifest
from skillc_index.command_errors import (
    CannotCreate,
    DeploysOverOrigin,
    EmptyTargetName,
    FolderNotWritable,
    ForeignFolder,
    GitCannotTell,
    TargetInsideSkill,
    TargetOutsideProject,
    TrackedDestination,
)
from skillc_index.diagnostics import Notice
from skillc_index.digests import executable as is_executable
from skillc_index.files import inside, real_path
from skillc_index.layout import (
    META_DIR,
    SKILL_FILE,
    Layout,
    Scope,
    expand_user,
)
from skillc_index.option_errors import InvalidOption
from skillc_index.targets import is_folder_target

if TYPE_CHECKING:
    from skillc_index.build.shapes import DeploymentShape
    from skillc_index.pinned import Pinned

__all__ = [
    "DeployPlan",
    "Deployment",
    "copy_deployments",
    "deploy",
    "is_skillc_copy",
    "link_target",
    "link_text",
    "not_refreshed",
    "parse_targets",
    "plan_deployments",
    "stale_copies",
]

Existing = Literal["nothing", "symlink", "skillc-copy", "other"]
Method = Literal["symlink", "copy"]
DeployAction = Literal["created", "replaced", "unchanged"]


@dataclass(frozen=True)
class DeployPlan:
    """One destination and what is there now."""

    target: str
    path: Path
    existing: Existing
    skill: str = ""
    """The skill deployed (what a copy of skillc's own must hold)."""
    force: bool = False
    """Whether something skillc did not make may be moved aside."""
    root: Path | None = None
    """The root the link and the runtime share when both lie in it (:func:`link_text`)."""
    keep: bool = False
    """A link to the runtime in another form (an absolute one skillc wrote before) that may
    not be changed (git tracks it, the folder cannot be written): left as it is."""
    copy: bool = False
    """Deployed as a copy: asked for (``copy``, a target reading another dialect), or a copy
    of the stub there already (:func:`_is_stub_copy`)."""
    folder: str = ""
    """The agent folder's real path as planned (and checked): :func:`deploy` writes in that
    folder only (:class:`~skillc_index.pinned.Pinned`); empty: its real path then."""
    shared: tuple[str, ...] = ()
    """The other targets given whose folder this is too (one deployment a folder): a copy's
    manifest records them (``shared``), so that a refresh or ``build --all`` writes it for
    them all again (:mod:`skillc_index.build.readers`)."""


@dataclass(frozen=True)
class Deployment:
    """One deployment done."""

    target: str
    path: Path
    method: Method
    action: DeployAction
    backup: Path | None = None
    """Where a file or folder skillc did not make was moved aside to (with ``force``)."""

    def to_dict(self) -> DeploymentShape:
        return {
            "target": self.target,
            "path": str(self.path),
            "method": self.method,
            "action": self.action,
            "backup": None if self.backup is None else str(self.backup),
        }


def parse_targets(values: Sequence[str] | str) -> list[str]:
    """``["claude,cursor", "codex"]`` -> ``["claude", "cursor", "codex"]`` (duplicates
    dropped; one ``str`` is one value: ``"claude,cursor"`` the same two); ``["claude"]`` when
    nothing is given. E100 for an empty name, and for a value that is no list of ``str``
    (``targets=5``, ``targets=[5]``: :func:`~skillc_index.items.checked_items`)."""
    from skillc_index.items import checked_items

    def wrong(item: object, _listed: bool) -> InvalidOption:
        return InvalidOption(
            f"targets must be agent names or folders (str), not {type(item).__name__}"
        )

    targets: list[str] = []
    for value in checked_items(values, str, wrong):
        for part in value.split(","):
            name = part.strip()
            if not name:
                raise EmptyTargetName(value)
            if name not in targets:
                targets.append(name)
    return targets or ["claude"]


def _existing(path: Path, skill: str, folder: Pinned | None = None) -> Existing:
    """What is at ``path``; looked at in ``folder`` (its folder, opened once) when given: a
    copy's files are read by path only while the path leads to that folder."""
    if folder is not None:
        found = folder.lstat(path.name)
        if found is None or stat.S_ISLNK(found.st_mode):
            return "nothing" if found is None else "symlink"
        copy = stat.S_ISDIR(found.st_mode) and folder.same(path.parent)
        return "skillc-copy" if copy and is_skillc_copy(path, skill) else "other"
    if path.is_symlink():
        return "symlink"
    if not path.exists():
        return "nothing"
    if path.is_dir() and is_skillc_copy(path, skill):
        return "skillc-copy"
    return "other"


def _refuse_leaving_project(
    target: str, root: Path, real: str, layout: Layout, from_project_config: bool
) -> None:
    """TargetOutsideProject (E100) when the project leads ``target``'s folder out of itself:
    a ``[targets]`` entry of the project's config that is not really inside the project, or
    a folder written inside the project that a symlink there leads out (``real``: the
    folder's real path, the one the deployment writes in)."""
    project = layout.project_root
    if project is None:
        return
    if is_folder_target(target):  # as the user wrote it (Layout.target_root resolves)
        written = os.path.abspath(layout.cwd / expand_user(target))  # noqa: PTH100
    else:
        written = os.path.abspath(root)  # noqa: PTH100
    if not (from_project_config or inside(written, str(project))):
        return  # the user's own choice: a folder outside the project, written by the user
    if inside(real, real_path(project)):
        return
    why = "of the project's config" if from_project_config else "(through a symlink)"
    raise TargetOutsideProject(target, real, why)


def check_writable(root: Path, layout: Layout, what: str = "agent folder") -> None:
    """FolderNotWritable (E999) when the folder ``root`` (or the nearest folder above it that
    exists, where it would be created) cannot be written; ``what`` names it."""
    folder = creation_start(root)
    if not folder.is_dir():  # a file where the folder (or one above it) would be
        reason = os.strerror(errno.ENOTDIR).lower()
        raise FolderNotWritable(what, layout.display(root), f"{folder.name}: {reason}")
    why = not_writable(folder)
    if why is not None:
        why, real = why.lower(), os.path.realpath(folder)
        if real != os.path.abspath(folder):  # noqa: PTH100  (a team folder linked in)
            why = f"{why}; it is a link to {layout.display(Path(real))}"
        raise FolderNotWritable(what, layout.display(root), why)


def _check_configured_folder(target: str, root: Path, layout: Layout) -> None:
    """E100 naming the ``[targets]`` entry ``target`` whose folder ``root`` cannot be one, found
    before anything is written: a file at its place or above it (``t = "pyproject.toml"``),
    or a name longer than the file system allows (was E999, an unexpected failure)."""
    entry = f"the target '{target}' of the config's [targets]"
    try:
        found = creation_start(root)
    except CannotCreate as exc:
        raise InvalidOption(f"{entry} cannot be created: '{exc.path}': {exc.reason}") from None
    if not found.is_dir():
        what = f"{entry} is '{layout.display(root)}', which"
        if found == root:
            raise InvalidOption(f"{what} is not a folder")
        raise InvalidOption(f"{what} cannot be a folder: '{layout.display(found)}' is not one")


def plan_deployments(
    targets: Sequence[str],
    *,
    skill: str,
    scope: Scope,
    runtime: Path,
    source: Path,
    layout: Layout,
    configured: Mapping[str, str] | None = None,
    force: bool = False,
    copy: bool = False,
    project_targets: Collection[str] = (),
    copy_targets: Collection[str] = (),
    origin: Path | None = None,
) -> list[DeployPlan]:
    """Resolve each target to ``<agent folder>/<skill>`` and check what is there.

    Raises :class:`UnknownTarget` (E100) for an unknown target, :class:`TargetInsideSkill`
    (E100) for a destination inside the skill's own source or runtime,
    :class:`DeploysOverOrigin` (E050) for one that is ``origin``, the folder an import
    copies (whatever ``force`` says),
    :class:`TargetOutsideProject` (E100) for one the project leads outside itself
    (``project_targets`` are the ``configured`` names set by the project's own config; see the
    module docstring); :class:`ForeignFolder` (E050) for a destination holding something
    skillc did not put there, unless ``force``; :class:`TrackedDestination` (E050) for one
    that git tracks and the deployment would change, whatever ``force`` says (a copy of
    skillc's own replaced by a new copy, or a symlink already to ``runtime``, relative or
    absolute, is no change here); :class:`FolderNotWritable` (E999) for an agent folder that
    must be written (``copy``, or no symlink to ``runtime`` there yet) and cannot be: a copy
    of skillc's own that a build not forced leaves as it is needs no write (:func:`_stays`,
    an up-to-date ``--copy`` build in a read-only agent folder succeeds). A link
    to ``runtime`` in the other form (absolute, as earlier versions wrote it) is planned to be
    rewritten as :func:`link_text` says, or kept (``keep``) where git tracks it or the folder
    cannot be written. ``copy_targets`` are deployed as copies whatever ``copy`` says (a
    target reading another dialect gets its own stub).
    """
    plans: list[DeployPlan] = []
    seen: dict[Path, int] = {}  # real destination -> its plan
    try:
        base: Path | None = layout.base(scope)
    except ValueError:  # a project scope with no project: no root to share
        base = None
    for target in targets:
        root = layout.target_root(target, scope, configured)
        real_root = real_path(root)  # checked, and the folder deploy writes in
        _refuse_leaving_project(target, root, real_root, layout, target in project_targets)
        if is_folder_target(target):  # the caller's own folder: a file in its way
            from skillc_index.package.place import check_output  # is E100, as `package -o`

            check_output(root, "target")
        elif configured and target in configured:  # the config's mistake: E100, not E999
            _check_configured_folder(target, root, layout)
        else:
            creation_start(root)  # CannotCreate for a folder no path can name (a name too long)
        path = root / skill
        real = Path(real_root) / skill
        if real in seen:  # one deployment a folder, its first target's (the caller orders
            # them: skillc_index.build.readers.one_per_folder), which records the others
            first = plans[seen[real]]
            plans[seen[real]] = dataclasses.replace(first, shared=(*first.shared, target))
            continue
        seen[real] = len(plans)
        for folder in (runtime, source):
            if inside(str(real), os.path.realpath(folder)):
                raise TargetInsideSkill(target, layout.display(real))
        existing = _existing(path, skill)
        as_copy = (
            copy
            or target in copy_targets
            or (existing == "skillc-copy" and _is_stub_copy(read_manifest(path)))
        )
        exact = _link_is(path, link_text(path, runtime, base))
        linked = exact or link_target(path) == os.path.realpath(runtime)
        unchanged = existing == "skillc-copy" if as_copy else exact
        keep = False
        if existing != "nothing" and not unchanged and _tracked_by_git(path, skill, layout):
            if as_copy or not linked:
                raise TrackedDestination(skill, layout.display(path))
            keep = True  # a committed link to this runtime, absolute: no change here
        if as_copy or not (exact or keep):  # before E050: --force is offered only if it can
            try:
                check_writable(root, layout)
                if existing == "skillc-copy" and not path.is_symlink():
                    check_writable(path, layout)  # a copy is emptied when it is replaced
            except FolderNotWritable:
                if as_copy and existing == "skillc-copy" and not force:
                    if not _stays(path, target, skill, runtime, source):
                        raise
                elif as_copy or not linked:
                    raise
                else:
                    keep = True  # the link there leads to this runtime already
        if origin is not None and str(real) == os.path.realpath(origin):
            raise DeploysOverOrigin(skill, layout.display(path), scope == "global")
        if existing == "other" and not force:
            raise ForeignFolder(skill, layout.display(path), "move it aside and deploy")
        plans.append(
            DeployPlan(target, path, existing, skill, force, base, keep, as_copy, real_root)
        )
    return plans


def _is_stub_copy(manifest: Manifest | None) -> bool:
    """Whether the copy of skillc's own whose manifest is ``manifest`` holds the runtime's
    stub and manifest (what ``--copy`` writes), not a target's own stub and side files
    (``target_files``: a target reading another dialect, a copy only while its projection
    changes something)."""
    return manifest is not None and "target_files" not in manifest.extra


def _stays(path: Path, target: str, skill: str, runtime: Path, source: Path) -> bool:
    """Whether the copy of skillc's own at ``path`` holds the runtime's build, written for
    ``target``, and a build that is not forced leaves that build as it is
    (:func:`~skillc_index.build.compiler.runtime_is_current`): :func:`deploy` finds the copy
    ``unchanged`` then (it looks again), so its folder needs no write."""
    from skillc_index.build.compiler import runtime_is_current

    here = read_manifest(path)
    if here is None or here.extra.get("target", target) != target:
        return False
    return same_build(here, read_manifest(runtime)) and runtime_is_current(skill, source, runtime)


def _tracked_by_git(path: Path, skill: str, layout: Layout) -> bool:
    """Whether git tracks ``path`` (a file, a symlink, or a folder holding tracked files), the
    deployment of ``skill``; :class:`~skillc_index.command_errors.GitCannotTell` (E050) when
    git cannot answer in the work tree holding it: what it might track is not replaced."""
    from skillc_index._git import GitUnanswered, tracked

    try:
        found = tracked(path.parent, (path.name,))
    except GitUnanswered as exc:
        raise GitCannotTell(skill, layout.display(path), exc) from None
    return bool(found)


def link_text(path: Path, runtime: Path, root: Path | None) -> str:
    """What the symlink at ``path`` to ``runtime`` holds: the runtime's path relative to the
    link's folder when both lie in ``root`` (real paths: the text is what the kernel follows,
    whatever symlinks lead to the folders), else its absolute path."""
    if root is not None:
        real_root = os.path.realpath(root)
        folder = os.path.realpath(path.parent)
        real = os.path.realpath(runtime)
        if inside(folder, real_root) and inside(real, real_root):
            return os.path.relpath(real, folder)
    return str(runtime)


def link_target(link: Path, folder: Path | None = None) -> str | None:
    """The real path the symlink ``link`` leads to, its text read as if it lay in ``folder``
    (default: where it is; a deployment parked by ``route`` is read from the agent folder it
    came from and goes back to). None when ``link`` is not a symlink."""
    try:
        text = link.readlink()
    except OSError:
        return None
    start = Path(os.path.realpath(link.parent if folder is None else folder))
    return os.path.realpath(start / text)


def _link_is(path: Path, text: str) -> bool:
    try:
        return str(path.readlink()) == text
    except OSError:
        return False


def _remove(folder: Pinned, name: str) -> None:
    """Remove a symlink or a copy of skillc's own (the only things :func:`deploy` removes),
    ``name`` in the agent folder ``folder``."""
    folder.remove(name)


def _discard(folder: Pinned, path: Path, skill: str, force: bool = False) -> tuple[str, bool]:
    """Take away what is at ``path`` (in ``folder``, its folder opened once), decided at that
    moment, not from an earlier look: it is renamed aside (:func:`move_aside`), then looked
    at. A symlink or a copy of skillc's own of ``skill`` is returned (its name now) with
    False, for the caller to remove (:func:`_remove`) once the new deployment is renamed in:
    the skill is missing from the agent folder between two renames only. Anything else stays
    at its backup name with ``force`` (returned with True: never deleted); without it (one
    ``route uninstall`` put back since the plan) it is renamed back and refused (E050),
    naming the backup when its place was taken. A copy's files are read by path only while
    the path leads to ``folder`` (before and after)."""
    aside = folder.move_aside(path.name)
    if folder.is_symlink(aside) or (
        folder.is_folder(aside)
        and folder.same(path.parent)
        and is_skillc_copy(path.parent / aside, skill)
        and folder.same(path.parent)
    ):
        return aside, False
    if force:
        return aside, True
    try:
        folder.rename(aside, folder, path.name)
    except OSError:
        raise ForeignFolder(skill, str(path.parent / aside)) from None  # named where it is now
    raise ForeignFolder(skill, str(path))


def _put_in_place(folder: Pinned, new: str, path: Path, skill: str, force: bool) -> Path | None:
    """Rename ``new`` (a whole copy folder staged beside ``path`` in ``folder``, or a symlink
    made there) to ``path``, what is there taken away first (:func:`_discard`; a symlink by
    the rename itself); returns where a user's folder was moved aside (``force``). A failed
    rename puts back what was taken away; a user's folder that cannot be is named in the
    error."""
    aside, kept = None, False
    if folder.lstat(path.name) and not (folder.is_symlink(path.name) and folder.is_symlink(new)):
        aside, kept = _discard(folder, path, skill, force)
    try:
        folder.rename(new, folder, path.name)  # a folder put there since: ENOTEMPTY (EISDIR)
    except BaseException as exc:  # a Ctrl-C too: what was taken away is put back
        if aside is not None and folder.lstat(path.name) is None:
            folder.rename(aside, folder, path.name)
        elif kept and isinstance(exc, Exception):
            why = failure_reason(exc, path)
            where = path.parent / str(aside)
            raise CannotCreate(str(path), f"{why}; what was there is at {where}") from exc
        elif aside is not None and not kept:
            _remove(folder, aside)
        raise
    if aside is not None and not kept:
        _remove(folder, aside)
    return path.parent / aside if aside is not None and kept else None


def _copy_into(
    folder: Pinned,
    plan: DeployPlan,
    runtime: Path,
    files: Mapping[str, bytes] | None = None,
    executable: Collection[str] = (),
) -> Path | None:
    """A fresh copy folder at ``plan.path``, built beside it in ``folder`` (the agent folder
    opened once) and renamed in once whole (:func:`_put_in_place`, whose backup it returns):
    the runtime's stub, or ``files`` (a target's own stub, side files and skill files; those
    of ``executable`` made so), and the runtime's manifest recording them and
    ``plan.target``. The disk failing is :class:`CannotCreate` naming ``plan.path``, not the
    staging folder (:func:`creating`)."""
    path = plan.path
    staging: str | None = None
    try:
        with creating(path):
            folder.sweep(f"{path.name}.deploy")  # left by a killed build
            staging = folder.temporary(f"{path.name}.deploy")
            with folder.sub(staging) as made:
                made.write(_copy_files(runtime, plan, files), frozenset(executable))
            return _put_in_place(folder, staging, path, plan.skill, plan.force)
    finally:
        if staging is not None:
            with suppress(OSError):  # renamed in: gone
                folder.remove(staging)


def _copy_files(
    runtime: Path, plan: DeployPlan, files: Mapping[str, bytes] | None
) -> dict[str, bytes]:
    """What a copy holds: ``files`` (else the runtime's stub), and the runtime's manifest
    recording ``plan``'s target (and the others sharing it, :attr:`DeployPlan.shared`) and
    their hashes (with ``files`` None: none)."""
    import hashlib

    from skillc_index.build.manifest import load_manifest, manifest_bytes

    target = plan.target
    extra: dict[str, Any] = {"shared": list(plan.shared)} if plan.shared else {}
    held = {SKILL_FILE: (runtime / SKILL_FILE).read_bytes()} if files is None else dict(files)
    if files is not None:
        digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
        extra |= {"stub_sha256": digests.pop(SKILL_FILE), "target_files": digests}
    manifest = load_manifest(runtime)
    if manifest is None:  # pragma: no cover - the build has just written it
        raise FileNotFoundError(manifest_path(runtime))
    meta = f"{META_DIR}/{MANIFEST_FILE}"
    return {**held, meta: manifest_bytes(copy_manifest(manifest, target, extra))}


def copy_manifest(manifest: Manifest, target: str, extra: Mapping[str, Any]) -> Manifest:
    """The runtime's ``manifest`` as a copy written for ``target`` records it (and ``extra``)."""
    return dataclasses.replace(manifest, extra={**manifest.extra, "target": target, **extra})


def _holds(
    path: Path,
    runtime: Path,
    target: str,
    files: Mapping[str, bytes] | None = None,
    executable: Collection[str] = (),
) -> bool:
    """Whether the copy at ``path`` holds ``files`` (``executable`` executable, the others
    not) and the runtime's current build, written for ``target`` (or recording none: an older
    copy); with ``files`` None, the runtime's stub as ``--copy`` writes it
    (:func:`_is_stub_copy`, not a target's own stub and side files). The targets it records
    it was written for too (``shared``) are not compared: what they add is in ``files``."""
    here = read_manifest(path)
    if here is None or not same_build(here, read_manifest(runtime)):
        return False
    if here.extra.get("target", target) != target:
        return False
    if files is None:
        if not _is_stub_copy(here):
            return False
        files = {SKILL_FILE: (runtime / SKILL_FILE).read_bytes()}
    try:
        return all(
            (path / rel).read_bytes() == data
            and is_executable((path / rel).stat().st_mode) == (rel in executable)
            for rel, data in files.items()
        )
    except OSError:
        return False


def _link(folder: Pinned, path: Path, text: str, skill: str, force: bool = False) -> Path | None:
    """Point ``path`` at the runtime (``text``: :func:`link_text`): a symlink made beside
    it in ``folder``, the agent folder opened once, renamed in (:func:`_put_in_place`,
    whose backup it returns)."""
    temporary = temporary_path(path.parent, f"{path.name}.link").name
    folder.symlink(text, temporary)
    try:
        return _put_in_place(folder, temporary, path, skill, force)
    except IsADirectoryError:  # a folder put there since: the rename replaced nothing
        raise ForeignFolder(skill, str(path)) from None
    finally:
        with suppress(FileNotFoundError):  # renamed in: gone
            os.unlink(temporary, dir_fd=folder.fd)


def _agent_folder(plan: DeployPlan) -> Pinned:
    """The agent folder of ``plan``, opened over its real path as planned (made when
    missing, each folder in the one above it): a folder of that path swapped for a symlink
    since the plan checked it is :class:`~skillc_index.diagnostics.FolderChanged` (E022),
    nothing written (a swapped ``.claude/skills`` got the link)."""
    from skillc_index.diagnostics import FolderChanged
    from skillc_index.pinned import Pinned

    real = plan.folder or real_path(plan.path.parent)
    try:
        return Pinned.at(real, make=True, shown=plan.path.parent)
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        raise FolderChanged(str(plan.path.parent)) from None


def deploy(
    plan: DeployPlan,
    runtime: Path,
    *,
    files: Mapping[str, bytes] | None = None,
    executable: Collection[str] = (),
) -> tuple[Deployment, list[Notice]]:
    """Carry out one planned deployment of ``runtime``; returns it and its warnings.

    ``plan.copy``: a copy of the stub, left ``unchanged`` when the copy there
    holds this build already. ``files``: what a target reading another dialect gets instead
    of the runtime's stub (its own ``SKILL.md``, side files and the skill's files it holds,
    relative path -> bytes; those of ``executable`` executable), always as a copy.

    What is at the destination is looked at again: something skillc did not make is refused
    (E050) without ``plan.force``, and with it moved aside once the new deployment is whole
    (never deleted). Everything is written in the agent folder :func:`_agent_folder` opens
    once. The disk failing is :class:`CannotCreate`, never "no symlinks" here."""
    with creating(plan.path):
        folder = _agent_folder(plan)
    with folder:
        return _deploy(folder, plan, runtime, files, executable)


def _deploy(
    folder: Pinned,
    plan: DeployPlan,
    runtime: Path,
    files: Mapping[str, bytes] | None,
    executable: Collection[str],
) -> tuple[Deployment, list[Notice]]:
    """:func:`deploy` in the agent folder ``folder``."""
    path = plan.path
    notices: list[Notice] = []
    existing = _existing(path, plan.skill, folder) if plan.skill else plan.existing
    if existing == "other" and not plan.force:
        raise ForeignFolder(plan.skill, str(path))
    action: DeployAction = "created" if existing == "nothing" else "replaced"
    method: Method = "copy"
    if files is not None:
        if existing == "skillc-copy" and _holds(path, runtime, plan.target, files, executable):
            return Deployment(plan.target, path, "copy", "unchanged"), notices
        backup = _copy_into(folder, plan, runtime, files, executable)
    elif not plan.copy:
        text = link_text(path, runtime, plan.root)
        if existing == "symlink" and (
            _link_is(path, text) or (plan.keep and link_target(path) == os.path.realpath(runtime))
        ):
            return Deployment(plan.target, path, "symlink", "unchanged"), notices
        try:
            backup, method = _link(folder, path, text, plan.skill, plan.force), "symlink"
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EROFS):  # a copy could not be written either
                reason = os.strerror(exc.errno).lower()
                raise FolderNotWritable("agent folder", str(path.parent), reason) from None
            if (full := disk_failure(exc, path)) is not None:  # no symlink, nor a copy
                raise CannotCreate(str(path), full) from None
            why = exc.strerror or exc
            notices.append(Notice(f"cannot create a symlink at {path} ({why}); copied instead"))
            backup = _copy_into(folder, plan, runtime)
    elif existing == "skillc-copy" and _holds(path, runtime, plan.target):
        return Deployment(plan.target, path, "copy", "unchanged"), notices
    else:
        backup = _copy_into(folder, plan, runtime)
    if backup is not None:
        why = "it was not made by skillc; nothing deleted"
        notices.append(Notice(f"moved {path} aside to {backup} ({why})"))
    return Deployment(plan.target, path, method, action, backup), notices
