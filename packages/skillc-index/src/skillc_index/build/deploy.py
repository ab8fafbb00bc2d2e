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

**Copies made before** (:func:`copy_deployments`): a build refreshes, besides the targets it
is given, every copy of skillc's own of the skill in the agent folders of its scope (an
earlier ``--copy``, or a target reading another dialect), so that no agent keeps loading an
older build; it creates none, and ``list`` calls the skill ``stale`` while one of them holds
another build than the runtime (:func:`stale_copies`). A copy's manifest records the target it
was written for (``target``), and a refresh writes it for that target again: a folder several
targets share (``.agents/skills``, a ``.claude/skills`` linked to it) keeps its dialect.

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

import errno
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from skillc_index.atomic import (
    creation_start,
    ensure_dir,
    move_aside,
    not_writable,
    staging_dir,
    temporary_path,
)
from skillc_index.build.agent_folders import AgentFolders
from skillc_index.build.manifest import (
    MANIFEST_FILE,
    Manifest,
    manifest_path,
    read_manifest,
    recorded_source,
)
from skillc_index.command_errors import (
    EmptyTargetName,
    FolderNotWritable,
    ForeignFolder,
    TargetInsideSkill,
    TargetOutsideProject,
    TrackedDestination,
)
from skillc_index.diagnostics import Notice
from skillc_index.digests import executable as is_executable
from skillc_index.digests import file_sha256
from skillc_index.files import inside, within
from skillc_index.layout import (
    META_DIR,
    SKILL_FILE,
    Layout,
    Scope,
    expand_user,
    is_folder_target,
)

if TYPE_CHECKING:
    from skillc_index.build.shapes import DeploymentShape

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
    nothing is given. E100 for an empty name."""
    from skillc_index.items import as_items

    targets: list[str] = []
    for value in as_items(values):
        for part in value.split(","):
            name = part.strip()
            if not name:
                raise EmptyTargetName(value)
            if name not in targets:
                targets.append(name)
    return targets or ["claude"]


def is_skillc_copy(path: Path, skill: str, manifest: Manifest | None = None) -> bool:
    """A folder holding nothing but what a copy deployment of ``skill`` writes: a manifest of
    that skill, the very stub that manifest records (its SHA-256) and, for a target reading
    another dialect, the side files it records (``target_files``: path -> SHA-256), as regular
    files. Decided from what skillc wrote, not from names: a folder edited since is not it.
    Each file is hashed as it is read (a stranger's 300 MB ``SKILL.md`` costs no memory).
    ``manifest``: the folder's, when the caller has read it."""
    meta = path / META_DIR
    try:
        names = {entry.name for entry in os.scandir(path)}
        if META_DIR not in names or meta.is_symlink():
            return False
        meta_names = {entry.name for entry in os.scandir(meta)}
        stub = path / SKILL_FILE
        if meta_names != {MANIFEST_FILE} or stub.is_symlink() or not stub.is_file():
            return False
        manifest = read_manifest(path) if manifest is None else manifest
        if manifest is None or manifest.skill != skill:
            return False
        recorded = manifest.extra.get("target_files", {})
        if not isinstance(recorded, dict) or not all(
            isinstance(rel, str) and isinstance(digest, str) for rel, digest in recorded.items()
        ):
            return False
        tops = {rel.split("/", 1)[0] for rel in recorded}
        if names != {SKILL_FILE, META_DIR, *tops} or _files_under(path, tops) != set(recorded):
            return False
        hashes = {SKILL_FILE: manifest.extra.get("stub_sha256"), **recorded}
        return all(file_sha256(str(path / rel)) == digest for rel, digest in hashes.items())
    except OSError:
        return False


def _files_under(path: Path, tops: Collection[str]) -> set[str] | None:
    """The regular files under ``path``'s entries ``tops`` (relative paths), or None when one
    of them is a symlink or anything but a folder or a regular file."""
    found: set[str] = set()
    pending = [*tops]
    while pending:
        rel = pending.pop()
        full = path / rel
        if full.is_symlink():
            return None
        if full.is_dir():
            pending.extend(f"{rel}/{entry.name}" for entry in os.scandir(full))
        elif full.is_file():
            found.add(rel)
        else:
            return None
    return found


def _existing(path: Path, skill: str) -> Existing:
    if path.is_symlink():
        return "symlink"
    if not path.exists():
        return "nothing"
    if path.is_dir() and is_skillc_copy(path, skill):
        return "skillc-copy"
    return "other"


def _copies(
    skill: str, source: Path | None, folders: AgentFolders
) -> dict[Path, tuple[tuple[str, ...], Manifest]]:
    """:func:`copy_deployments`, each copy with its manifest (read once); ``source`` None:
    whatever source each copy records."""
    found: dict[Path, tuple[tuple[str, ...], Manifest]] = {}
    real_source: str | None = None
    for path, targets in folders.holding(skill).items():
        if path.is_symlink():  # a link to the runtime: its manifest is the runtime's
            continue
        manifest = read_manifest(path)
        built_from = None if manifest is None else manifest.extra.get("source_path")
        if manifest is None or not isinstance(built_from, str):
            continue
        if source is not None:
            real_source = os.path.realpath(source) if real_source is None else real_source
            if os.path.realpath(built_from) != real_source and not _source_gone(manifest, skill):
                continue
        if is_skillc_copy(path, skill, manifest):
            recorded = manifest.extra.get("target")
            found[path] = ((recorded,) if recorded in targets else targets, manifest)
    return found


def _source_gone(manifest: Manifest, skill: str) -> bool:
    """Whether the store skill ``skill`` a copy's ``manifest`` records as its source is gone:
    its project (or the home) moved since, or it was deleted. Such a copy in the agent
    folders of a scope is the copy of that scope's skill of the name (a copy of another
    project's skill, still there, is not)."""
    recorded = recorded_source(manifest, skill)
    return recorded is not None and not os.path.isfile(f"{recorded}/{SKILL_FILE}")  # noqa: PTH113


def copy_deployments(
    skill: str,
    scope: Scope,
    source: Path,
    layout: Layout,
    configured: Mapping[str, str] | None = None,
) -> dict[Path, tuple[str, ...]]:
    """The copies of skillc's own of ``skill`` (:func:`is_skillc_copy`) built from ``source``
    (their manifest's ``source_path``, or a store skill of the name that is gone, the project
    moved: not another project's skill of that name) in the agent
    folders its scope deploys into (:class:`AgentFolders`), path -> the targets it may be
    refreshed as: the one its manifest records (``target``, the copy's since this was
    written), else every target sharing its folder (one, unless a folder is shared: an older
    copy). A copy in a folder given as a path is not looked for: a build refreshes it when
    the path is given again."""
    copies = _copies(skill, source, AgentFolders(scope, layout, configured))
    return {path: targets for path, (targets, _) in copies.items()}


def _same_build(here: Manifest | None, there: Manifest | None) -> bool:
    """Whether a copy's manifest ``here`` records the build of the runtime's ``there``."""
    if here is None or there is None:
        return False
    return (here.built_at, here.source_hash) == (there.built_at, there.source_hash)


def stale_copies(
    skill: str, source: Path | None, runtime: Path, folders: AgentFolders
) -> tuple[dict[Path, Manifest], Manifest | None]:
    """The copies of :func:`copy_deployments` (in ``folders``, a scope's agent folders; of
    any source with ``source`` None) that hold another build than ``runtime``'s (made before
    its last build, by a build that did not refresh them), each with its manifest; and the
    runtime's manifest, read only when there is a copy (None when not read, or it cannot be),
    which a refresh of them all writes from (:func:`copy_manifest`)."""
    copies = _copies(skill, source, folders)
    built = read_manifest(runtime) if copies else None
    stale = {path: here for path, (_, here) in copies.items() if not _same_build(here, built)}
    return stale, built


def not_refreshed(layout: Layout, path: Path, why: str) -> Notice:
    """The warning of a copy made before that a build could not refresh (when it was planned,
    or written; one parked behind a router): the build was not asked to deploy there, so it
    goes on."""
    return Notice(f"copy {layout.display(path)} not refreshed: {why}")


def _refuse_leaving_project(
    target: str, root: Path, layout: Layout, from_project_config: bool
) -> None:
    """TargetOutsideProject (E100) when the project leads ``target``'s folder out of itself:
    a ``[targets]`` entry of the project's config that is not really inside the project, or
    a folder written inside the project that a symlink there leads out."""
    project = layout.project_root
    if project is None:
        return
    if is_folder_target(target):  # as the user wrote it (Layout.target_root resolves)
        written = os.path.abspath(layout.cwd / expand_user(target))  # noqa: PTH100
    else:
        written = os.path.abspath(root)  # noqa: PTH100
    if not (from_project_config or inside(written, str(project))):
        return  # the user's own choice: a folder outside the project, written by the user
    if within(root, project):
        return
    why = "of the project's config" if from_project_config else "(through a symlink)"
    raise TargetOutsideProject(target, os.path.realpath(root), why)


def check_writable(root: Path, layout: Layout, what: str = "agent folder") -> None:
    """FolderNotWritable (E999) when the folder ``root`` (or the nearest folder above it that
    exists, where it would be created) cannot be written; ``what`` names it."""
    folder = creation_start(root)
    if not folder.is_dir():  # a file where the folder (or one above it) would be
        reason = os.strerror(errno.ENOTDIR).lower()
        raise FolderNotWritable(what, layout.display(root), f"{folder.name}: {reason}")
    why = not_writable(folder)
    if why is not None:
        raise FolderNotWritable(what, layout.display(root), why.lower())


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
) -> list[DeployPlan]:
    """Resolve each target to ``<agent folder>/<skill>`` and check what is there.

    Raises :class:`UnknownTarget` (E100) for an unknown target, :class:`TargetInsideSkill`
    (E100) for a destination inside the skill's own source or runtime,
    :class:`TargetOutsideProject` (E100) for one the project leads outside itself
    (``project_targets`` are the ``configured`` names set by the project's own config; see the
    module docstring); :class:`ForeignFolder` (E050) for a destination holding something
    skillc did not put there, unless ``force``; :class:`TrackedDestination` (E050) for one
    that git tracks and the deployment would change, whatever ``force`` says (a copy of
    skillc's own replaced by a new copy, or a symlink already to ``runtime``, relative or
    absolute, is no change here); :class:`FolderNotWritable` (E999) for an agent folder that
    must be written (``copy``, or no symlink to ``runtime`` there yet) and cannot be. A link
    to ``runtime`` in the other form (absolute, as earlier versions wrote it) is planned to be
    rewritten as :func:`link_text` says, or kept (``keep``) where git tracks it or the folder
    cannot be written. ``copy_targets`` are deployed as copies whatever ``copy`` says (a
    target reading another dialect gets its own stub).
    """
    plans: list[DeployPlan] = []
    seen: set[Path] = set()
    try:
        base: Path | None = layout.base(scope)
    except ValueError:  # a project scope with no project: no root to share
        base = None
    for target in targets:
        root = layout.target_root(target, scope, configured)
        _refuse_leaving_project(target, root, layout, target in project_targets)
        if is_folder_target(target):  # the caller's own folder: a file in its way
            from skillc_index.package.place import check_output  # is E100, as `package -o`

            check_output(root, "target")
        else:
            creation_start(root)  # CannotCreate for a folder no path can name (a name too long)
        path = root / skill
        real = Path(os.path.realpath(path.parent)) / skill
        if real in seen:
            continue
        seen.add(real)
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
        if existing != "nothing" and not unchanged and _tracked_by_git(path):
            if as_copy or not linked:
                raise TrackedDestination(skill, layout.display(path))
            keep = True  # a committed link to this runtime, absolute: no change here
        if existing == "other" and not force:
            raise ForeignFolder(skill, layout.display(path), "move it aside and deploy")
        if as_copy or not (exact or keep):
            try:
                check_writable(root, layout)
                if existing == "skillc-copy" and not path.is_symlink():
                    check_writable(path, layout)  # a copy is emptied when it is replaced
            except FolderNotWritable:
                if as_copy or not linked:
                    raise
                keep = True  # the link there leads to this runtime already
        plans.append(DeployPlan(target, path, existing, skill, force, base, keep, as_copy))
    return plans


def _is_stub_copy(manifest: Manifest | None) -> bool:
    """Whether the copy of skillc's own whose manifest is ``manifest`` holds the runtime's
    stub and manifest (what ``--copy`` writes), not a target's own stub and side files
    (``target_files``: a target reading another dialect, a copy only while its projection
    changes something)."""
    return manifest is not None and "target_files" not in manifest.extra


def _tracked_by_git(path: Path) -> bool:
    """Whether git tracks ``path`` (a file, a symlink, or a folder holding tracked files)."""
    from skillc_index._git import tracked

    found = tracked(path.parent, (path.name,))
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


def _remove(path: Path) -> None:
    """Remove a symlink or a copy of skillc's own (the only things :func:`deploy` removes)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink()
    else:
        import shutil

        shutil.rmtree(path)


def _discard(path: Path, skill: str) -> Path:
    """Take away what is at ``path`` if it is a symlink or a copy of skillc's own of
    ``skill``, decided at that moment, not from an earlier look: it is renamed aside (one
    rename, :func:`move_aside`), then looked at, and where it is now is returned, for the
    caller to remove (:func:`_remove`) once the new deployment is renamed in: the skill is
    missing from the agent folder between two renames only (it was for the old copy's
    deletion too). Anything else (a user's folder ``route uninstall`` put back since the
    plan) is renamed back and refused (:class:`ForeignFolder`, E050); it stays at the hidden
    backup name (the error names it) when its place was taken meanwhile. Never deleted."""
    aside = move_aside(path)
    if aside.is_symlink() or (aside.is_dir() and is_skillc_copy(aside, skill)):
        return aside
    try:
        aside.rename(path)
    except OSError:
        raise ForeignFolder(skill, str(aside)) from None  # named where it is now
    raise ForeignFolder(skill, str(path))


def _copy_into(
    plan: DeployPlan,
    runtime: Path,
    files: Mapping[str, bytes] | None = None,
    executable: Collection[str] = (),
) -> None:
    """A fresh copy folder at ``plan.path`` (built beside it, then renamed in): the runtime's
    stub, or ``files`` (a target's own stub, side files and skill files; those of
    ``executable`` made so), and the runtime's manifest recording them and ``plan.target``.
    What is there goes only as :func:`_discard` says."""
    import shutil

    path = plan.path
    staging = staging_dir(path.parent, f"{path.name}.deploy")
    try:
        if files is None:
            shutil.copyfile(runtime / SKILL_FILE, staging / SKILL_FILE)
        _write_files(staging, runtime, plan.target, files, executable)
        old = _discard(path, plan.skill) if path.exists() or path.is_symlink() else None
        try:
            staging.replace(path)  # a folder put there since: ENOTEMPTY, nothing replaced
        finally:
            if old is not None:
                _remove(old)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_files(
    folder: Path,
    runtime: Path,
    target: str,
    files: Mapping[str, bytes] | None,
    executable: Collection[str] = (),
) -> None:
    """``files`` into ``folder`` (those of ``executable`` executable where readable), and the
    runtime's manifest recording ``target`` and their hashes (with ``files`` None, the
    runtime's stub copied there already: none)."""
    import hashlib

    from skillc_index.build.manifest import load_manifest, write_manifest

    extra: dict[str, Any] = {}
    if files is not None:
        digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
        for rel, data in files.items():
            ensure_dir((folder / rel).parent)
            (folder / rel).write_bytes(data)
            if rel in executable:
                mode = (folder / rel).stat().st_mode
                (folder / rel).chmod(mode | (mode & 0o444) >> 2)
        extra = {"stub_sha256": digests.pop(SKILL_FILE), "target_files": digests}
    manifest = load_manifest(runtime)
    if manifest is None:  # pragma: no cover - the build has just written it
        raise FileNotFoundError(manifest_path(runtime))
    write_manifest(folder, copy_manifest(manifest, target, extra))


def copy_manifest(manifest: Manifest, target: str, extra: Mapping[str, Any]) -> Manifest:
    """The runtime's ``manifest`` as a copy written for ``target`` records it (and ``extra``)."""
    import dataclasses

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
    (:func:`_is_stub_copy`, not a target's own stub and side files)."""
    here = read_manifest(path)
    if here is None or not _same_build(here, read_manifest(runtime)):
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


def _link(path: Path, text: str, skill: str) -> None:
    """Point ``path`` at the runtime (``text``: :func:`link_text`): a symlink made beside
    it, renamed over the old one (a folder there goes only as :func:`_discard` says)."""
    temporary = temporary_path(path.parent, f"{path.name}.link")
    temporary.symlink_to(text, target_is_directory=True)
    try:
        old = _discard(path, skill) if path.is_dir() and not path.is_symlink() else None
        try:
            temporary.replace(path)
        except IsADirectoryError:  # a folder put there since: the rename replaced nothing
            raise ForeignFolder(skill, str(path)) from None
        finally:
            if old is not None:
                _remove(old)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


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

    What is at the destination is looked at again: something skillc did not make (there
    since the plan, or planned with ``force``) is moved aside with ``plan.force`` and refused
    (E050) without it; it is never deleted."""
    path = plan.path
    notices: list[Notice] = []
    existing = _existing(path, plan.skill) if plan.skill else plan.existing
    backup: Path | None = None
    if existing == "other":
        if not plan.force:
            raise ForeignFolder(plan.skill, str(path))
        backup = move_aside(path)
        notices.append(
            Notice(f"moved {path} aside to {backup} (it was not made by skillc; nothing deleted)")
        )
    ensure_dir(path.parent)
    action: DeployAction = "created" if existing == "nothing" else "replaced"
    if files is not None:
        if existing == "skillc-copy" and _holds(path, runtime, plan.target, files, executable):
            return Deployment(plan.target, path, "copy", "unchanged"), notices
        _copy_into(plan, runtime, files, executable)
        return Deployment(plan.target, path, "copy", action, backup), notices
    if not plan.copy:
        text = link_text(path, runtime, plan.root)
        if existing == "symlink" and (
            _link_is(path, text) or (plan.keep and link_target(path) == os.path.realpath(runtime))
        ):
            return Deployment(plan.target, path, "symlink", "unchanged"), notices
        try:
            _link(path, text, plan.skill)
            return Deployment(plan.target, path, "symlink", action, backup), notices
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EROFS):  # a copy could not be written either
                reason = os.strerror(exc.errno).lower()
                raise FolderNotWritable("agent folder", str(path.parent), reason) from None
            notices.append(
                Notice(f"cannot create a symlink at {path} ({exc.strerror or exc}); copied instead")
            )
    elif existing == "skillc-copy" and _holds(path, runtime, plan.target):
        return Deployment(plan.target, path, "copy", "unchanged"), notices
    _copy_into(plan, runtime)
    return Deployment(plan.target, path, "copy", action, backup), notices
