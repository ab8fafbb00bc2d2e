"""``skc build``: import (for a path), compile, deploy (RFC-0001, RFC-0007 ``build``, ADR-0002).

Every check that can refuse the build runs before anything is written: skill resolution
(E001/E010), targets (E100, a target the project leads outside itself included), symlinks
escaping the skill (E012), a project store or runtime folder that a symlink leads out of the
project (E012), ``.gitignore`` files over their bounds in a folder to import (E070),
frontmatter (E011), an import that would replace a different skill or a
deployment that would replace a folder skillc did not make (E050 without ``--force``), an
agent folder that cannot be written (E999), and an index file belonging to another source
(E003).

A store copy's folder of origin, imported again, is :mod:`skillc_index.build.origin`'s
(``import_current`` is imported from there only); each target's projection and the files its
deployment holds :mod:`skillc_index.build.projections`'.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from skillc_index.build.compiler import CompileResult, Progress, compile_skill
from skillc_index.build.copies import edited_copy
from skillc_index.build.defaults import behind_router
from skillc_index.build.deploy import (
    Deployment,
    DeployPlan,
    copy_deployments,
    deploy,
    not_refreshed,
    parse_targets,
    plan_deployments,
)
from skillc_index.build.manifest import MANIFEST_FILE, read_manifest, refuse_older_runtime
from skillc_index.build.origin import from_origin
from skillc_index.build.projections import projected_files, target_projections
from skillc_index.build.readers import claude_notices, one_per_folder, read_twice
from skillc_index.build.store import (
    ImportAction,
    ImportPlan,
    in_a_store,
    one_folder_notice,
    origin_view,
    perform_import,
    plan_import,
    shadow_notice,
)
from skillc_index.command_errors import (
    CannotCreate,
    CompiledSkillGiven,
    FolderNotUtf8,
    PathEscapesProject,
)
from skillc_index.config import Config, load_config
from skillc_index.diagnostics import (
    Diagnostic,
    Notice,
    PathEscapesRoot,
    PathNotFound,
    SkillcError,
    warning_reason,
    warning_text,
)
from skillc_index.files import inside, real_path, utf8_name
from skillc_index.import_record import import_origin
from skillc_index.layout import (
    META_DIR,
    SKILL_FILE,
    Layout,
    ResolvedSkill,
    Scope,
    SkillArgument,
    resolve_skill,
    store_owner,
)
from skillc_index.skill_files import SkillFiles, walk_skill

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from skillc_index.build.copies import Copy
    from skillc_index.build.project import FieldChange
    from skillc_index.build.shapes import BuildShape
    from skillc_index.glob import IgnoreRules
    from skillc_index.index.schema import FileStat

__all__ = ["BUILD_LOCK_WAIT_S", "BuildResult", "build_skill"]

#: How long a build waits for another build of the same skill (seconds), after which it goes
#: on unlocked (the renames keep each file whole; it only risks the race the lock avoids).
BUILD_LOCK_WAIT_S = 120.0


@dataclass(frozen=True)
class BuildResult:
    """What ``build`` did."""

    compiled: CompileResult
    skill: ResolvedSkill
    """The skill that was built: the store copy when a path was imported."""
    imported_from: Path | None
    """The folder given on the command line, when it was imported into a store."""
    import_action: ImportAction | None
    """``copy``, ``replace`` or ``unchanged`` for an import; None otherwise."""
    deployments: tuple[Deployment, ...]
    notices: tuple[Diagnostic | Notice, ...] = field(default_factory=tuple)
    """Warnings (a symlink that had to become a copy, a folder moved aside, a Markdown file
    over the parse limit, W001 for a name several installed skills have); the fields' are
    :attr:`warnings`'."""
    gitignore: tuple[str, ...] = ()
    """The lines added to the project's ``.gitignore``: the agent folders of the project
    deployed into, where git tracks nothing and they hold no skill of the user's, else the
    deployments alone (issue 34; as ``init`` adds its own)."""
    gitignore_file: Path | None = None
    """The ``.gitignore`` they went to (None: none added): that of the project the skill was
    built in, a nested project's own in a batch run from the outer one."""
    gitignore_shown: str | None = None
    """It relative to the working folder: ``Added to <file>``'s, the JSON's ``gitignore_file``."""
    fields: tuple[FieldChange, ...] = ()
    """What the targets' dialects drop or change of the frontmatter (issue 37), each once
    (its text is among the warnings too)."""

    @property
    def scope(self) -> Scope:
        return self.skill.scope

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        """The notices, then one per field a target drops or changes; the JSON holds their
        text too (``warnings``). Said on every build, one up to date too: the deployments
        hold those fields so (they are checked again)."""
        return (*self.notices, *(Notice(change.text) for change in self.fields))

    @property
    def named_warnings(self) -> tuple[Diagnostic | Notice, ...]:
        """:attr:`warnings` as a batch prints them among other skills': a field's names the
        skill (:meth:`FieldChange.named`, as ``skc package`` does)."""
        skill = self.compiled.skill
        return (*self.notices, *(Notice(change.named(skill)) for change in self.fields))

    def with_notice(self, notice: Notice) -> BuildResult:
        """This result with ``notice`` said after its own notices."""
        return replace(self, notices=(*self.notices, notice))

    def to_dict(self) -> BuildShape:
        """The ``--format json`` shape (documented in the README)."""
        compiled = self.compiled
        index = compiled.index
        counts = index.counts
        return {
            "skill": compiled.skill,
            "scope": self.scope,
            "source_path": str(compiled.source),
            "imported_from": None if self.imported_from is None else str(self.imported_from),
            "import": self.import_action,
            "runtime_path": str(compiled.runtime),
            "up_to_date": compiled.up_to_date,
            "source_hash": compiled.source_hash,
            "files": compiled.files,
            "stub": str(compiled.stub),
            "manifest": compiled.manifest.result_dict(),
            "index": {
                "path": str(index.path),
                "action": index.action,
                "reason": index.reason,
                "tokenizer": index.tokenizer,
                "sections": None if counts is None else counts.sections,
                "headings": None if counts is None else counts.headings,
            },
            "deployments": [deployment.to_dict() for deployment in self.deployments],
            "gitignore": list(self.gitignore),
            "gitignore_file": self.gitignore_shown if self.gitignore else None,
            "fields": [change.to_dict() for change in self.fields],
            "warnings": [warning_text(notice) for notice in self.warnings],
        }


def _check_source(source: Path, given: str, layout: Layout | None = None) -> None:
    """A compiled runtime (or an agent folder linking to one) is not a source; when its store
    skill is gone (renamed, deleted), E100 says so and how to remove it (with ``layout``:
    the build's). A folder whose name is not UTF-8 is E100 too (:class:`FolderNotUtf8`): the
    manifest could not hold it, and ``list`` skips it (a project folder's name may be any
    bytes, as before)."""
    if not utf8_name(source):
        raise FolderNotUtf8(given)
    if not (source / META_DIR / MANIFEST_FILE).is_file():
        return
    if layout is None:
        raise CompiledSkillGiven(given)
    from skillc_index.inventory.deployed import deployed_source

    gone = deployed_source(str(source), layout, gone=True)
    if gone is None or os.path.isfile(f"{gone}/{SKILL_FILE}"):  # noqa: PTH113
        raise CompiledSkillGiven(given)
    from skillc_index.inventory.entries import removal

    entry = layout.cwd / given
    link = str(entry) if entry.is_symlink() else None
    raise CompiledSkillGiven(given, gone, removal(link, os.path.realpath(source), gone, layout))


def _refuse_too_large(name: str, source: Path, files: SkillFiles) -> dict[str, FileStat]:
    """E002 for a skill larger than an index may be, from its files' stats, before any file
    of it is read (an import's hash or copy, the projections' frontmatter); the stats, which
    the compile of this same source takes as its first attempt's (it checks them again)."""
    from skillc_index.index.cache import refuse_too_large
    from skillc_index.index.rows import indexed_files
    from skillc_index.index.schema import stat_files

    stats = stat_files(source, files.files)
    refuse_too_large(name, indexed_files(files.files), stats)
    return stats


def _check_import(source: Path) -> None:
    """What the compile would refuse, before an import copies anything into a store (E002
    came first, :func:`_refuse_too_large`): E011 (the frontmatter alone is read, from as much
    of SKILL.md as a parse reads: the compiler parses the whole file later)."""
    from skillc_index.files import open_regular
    from skillc_index.markdown.document import MarkdownDoc, read_parsed
    from skillc_index.markdown.frontmatter import parse_frontmatter
    from skillc_index.markdown.metadata import read_skill_metadata

    with open_regular(str(source / SKILL_FILE)) as handle:  # a FIFO is E021, not a hang
        text, _ = read_parsed(handle, count=False)
    read_skill_metadata(MarkdownDoc(parse_frontmatter(text), (), (), 0))


def _refuse_writes_outside(layout: Layout, skill: ResolvedSkill, importing: bool) -> str:
    """PathEscapesProject (E012) when a folder a project build writes into (the store for an
    import, the runtime store, the runtime, its ``.skillc-meta``) is not really inside the
    project: a symlink in the checkout must not send the build's files elsewhere. A global
    build writes into the home, which is the user's own: not checked. Returns the runtime
    store's real path as checked, which the compile writes in (never through a symlink
    swapped in since: :func:`~skillc_index.build.compiler.compile_skill`'s ``runtimes``)."""
    runtimes = real_path(skill.runtime.parent)
    project = layout.project_root
    if skill.scope != "project" or project is None:
        return runtimes
    folders = [layout.store("project")] if importing else []
    folders += [skill.runtime.parent, skill.runtime, skill.runtime / META_DIR]
    real_project = real_path(project)
    for folder in folders:
        real = runtimes if folder == skill.runtime.parent else real_path(folder)
        if not inside(real, real_project):
            raise PathEscapesProject(layout.display(folder), real)
    return runtimes


def build_skill(
    skill: SkillArgument,
    layout: Layout,
    *,
    targets: Sequence[str] | str = (),
    copy: bool = False,
    force: bool = False,
    force_global: bool = False,
    config: Config | None = None,
    progress: Progress | None = None,
    deploys: bool = True,
    routed: Mapping[Scope, Mapping[str, Path]] | None = None,
) -> BuildResult:
    """Build one skill given by name or path (RFC-0007 ``build``) and deploy it (not
    ``deploys``: to none of ``targets``, the copies made before refreshed alone; given no
    target, none either for a skill behind a router of its scope, which a deployment to the
    agent folder would undo: :func:`~skillc_index.build.defaults.behind_router`, ``routed``
    each scope's names read once for a batch, looked up by the scope of the skill resolved,
    a warning saying it).

    ``targets`` are agent names or folder paths, each possibly comma-separated (default
    ``claude``; one ``str`` is one such value, not its characters); ``copy`` copies the stub
    instead of symlinking; ``force`` lets an import replace a different store copy and a
    deployment move aside (never delete) what skillc did not make, and recompiles a skill that
    is up to date; ``force_global`` uses the global runtime and home agent folders
    (``--global``). A skill of another project's store (a nested project's, by its path or
    its deployment's) is built in that project, with its config, as ``skc build <name>``
    there builds it: never imported into this one. A source that goes while it is built
    (``skc route install`` moved it, it was deleted) fails as a missing skill does
    (E001/E010), not as the file it missed.
    """
    try:
        return _build_skill(
            skill, layout, targets, copy=copy, force=force, force_global=force_global,
            config=config, progress=progress, deploys=deploys, routed=routed,
        )  # fmt: skip
    except (FileNotFoundError, NotADirectoryError, PathNotFound):  # E021/E022: a file it listed
        resolve_skill(skill, layout, force_global=force_global)  # E001/E010 when it is gone
        raise


def _build_skill(
    skill: SkillArgument,
    layout: Layout,
    targets: Sequence[str] | str,
    *,
    copy: bool,
    force: bool,
    force_global: bool,
    config: Config | None,
    progress: Progress | None,
    deploys: bool = True,
    routed: Mapping[Scope, Mapping[str, Path]] | None = None,
) -> BuildResult:
    """:func:`build_skill`'s work."""
    target_names = parse_targets(targets) if deploys else []
    resolved = resolve_skill(skill, layout, force_global=force_global)
    given = resolved.source if resolved.imported_from is None else resolved.imported_from
    owner = store_owner(given, layout)  # the folder as given, not the copy an older version
    if owner is not None:  # imported here (built here by its name): another project's store
        # skill is built in that project, with its config
        layout, config = layout._replace(project_root=owner, foreign=()), None
        routed = None  # the batch read this project's routes, not that one's: read them there
        resolved = resolve_skill(str(given), layout, force_global=force_global)
    resolved, known = from_origin(resolved, layout, force_global)
    _check_source(resolved.source, os.fspath(skill), layout)
    config = load_config(layout) if config is None else config
    dirs: list[str] = []
    rules: list[IgnoreRules] = []
    files = walk_skill(resolved.source, dirs=dirs, rules=rules) if known is None else known.files
    if files.escapes:
        raise PathEscapesRoot(files.escapes[0])
    stats = _refuse_too_large(resolved.name, resolved.source, files)

    notices: list[Diagnostic | Notice] = list(resolved.notices)
    one_folder = one_folder_notice(os.fspath(skill), resolved, layout)  # zeta, alpha-x
    notices += () if one_folder is None else (one_folder,)
    plan: ImportPlan | None = None
    importing = not in_a_store(resolved.source, layout)
    if importing:
        files, view = (  # E070 for .gitignore files over their bounds, as package refuses them
            origin_view(resolved.source, files, dirs, layout.display(resolved.source), rules)
            if known is None
            else (files, known.view)
        )
    runtimes = _refuse_writes_outside(layout, resolved, importing)  # an import: its runtime's
    # one build of a skill at a time: another's half-removed copy reads as a stranger's
    # folder (a false E050, or moved aside with --force), and manifests cross. An import is
    # planned under the lock: another folder of that name imported meanwhile is E050, as
    # when the builds run one after the other, not replaced by a plan made before it came
    with _build_lock(resolved), _build_lock(resolved, runtime=True):
        if importing:
            plan = plan_import(
                resolved, layout, files, view, force=force,
                origin_hash=None if known is None else known.digest,
                record=None if known is None else known.record,
            )  # fmt: skip
            if plan.action != "unchanged":
                _check_import(resolved.source)
        target_skill = resolved if plan is None else plan.imported(resolved)
        if deploys and not targets:  # the default target: none for a skill behind a router
            names = None if routed is None else routed.get(target_skill.scope, {})
            why = behind_router(target_skill.name, target_skill.scope, layout, names)
            if why is not None:
                target_names = []
                notices.append(Notice(f"{target_skill.name} deployed nowhere: {why}"))
        copies = copy_deployments(
            target_skill.name, target_skill.scope, target_skill.source, layout, config.targets,
            runtime=target_skill.runtime,
        )  # fmt: skip
        # made before, each refreshed too (the targets given are planned first), and the links
        # to the runtime planned again (a target whose dialect now changes something gets a
        # copy); a copy edited since is left as it is, and said to be
        edited = {path: held for path, held in copies.items() if held.kind == "edited"}
        copies = {path: held for path, held in copies.items() if held.kind != "edited"}
        candidates = [target for held in copies.values() for target in held.targets]
        projections = target_projections(
            [*target_names, *candidates], resolved, config, files.files
        )
        target_names, refresh, shared = one_per_folder(  # targets sharing a folder: one
            # deployment, as the one that keeps the most fields (each copy's first in refresh)
            target_names, projections, skill=target_skill.name, scope=target_skill.scope,
            layout=layout, configured=config.targets, copies=copies, source=resolved.source,
        )  # fmt: skip
        planned = functools.partial(  # a target's plan: the named ones', each copy's refresh
            plan_deployments,
            skill=target_skill.name,
            scope=target_skill.scope,
            runtime=target_skill.runtime,
            source=target_skill.source,
            layout=layout,
            configured=config.targets,
            project_targets=config.project_targets,
            copy_targets=[name for name, p in projections.items() if p.own_folder],
            origin=(  # never deployed over: the folder imported, or a store copy's origin
                resolved.source
                if importing
                else import_origin(resolved.source, resolved.scope, layout, bounded=False)
            ),
        )
        plans = planned(target_names, force=force, copy=copy)
        named = len(plans)  # the plans after these refresh copies made before
        unheld = (
            text
            for projection in projections.values()
            for text in (*projection.warnings, *projection.unheld)
        )
        notices.extend(Notice(text) for text in dict.fromkeys(unheld))
        plans += _refresh_plans(refresh, plans, planned, layout, notices, copies)
        guessed = {  # a copy whose manifest records no target, refreshed as one chosen here
            refresh[path][0]  # (a link: made a copy now when its dialect changes anything)
            for path, held in copies.items()
            if not held.recorded and (len(held.targets) > 1 or held.kind == "link")
        }
        fields = [  # of the targets given, and of a copy refreshed for a target chosen here (a
            # copy refreshed for the target it records was reported when it was made)
            change
            for number, deploy_plan in enumerate(plans)
            if deploy_plan.target in projections
            and (number < named or deploy_plan.target in guessed)
            for change in projections[deploy_plan.target].changes
        ]
        if plan is not None:  # E003; E002/E999 for a newer skillc's runtime: before the import
            refuse_older_runtime(target_skill, force=force)
        if plan is not None and plan.action != "unchanged":
            backup = perform_import(plan)
            if backup is not None:
                notices.append(
                    Notice(
                        f"moved {layout.display(plan.destination)} aside to "
                        f"{layout.display(backup)} (not a copy skillc imported from this folder "
                        "and unchanged since; nothing deleted)"
                    )
                )
            target_skill = plan.imported(resolved)
            files = walk_skill(target_skill.source)
        elif plan is not None:
            perform_import(plan)  # records the import of a copy made before records existed

        checked = target_skill.runtime.parent == resolved.runtime.parent
        compiled = compile_skill(
            target_skill,
            tokenizer_setting=config.tokenizer,
            files=files,
            stats=stats if plan is None else None,  # an import's copy: stats of its own
            progress=progress,
            force=force,
            runtimes=runtimes if checked else None,  # written where it was checked
        )
        notices.extend(compiled.notices)
        shadow = shadow_notice(target_skill.source, layout)
        if shadow is not None:
            notices.append(shadow)
        deployments: list[Deployment] = []
        for number, deploy_plan in enumerate(plans):
            projection = projections.get(deploy_plan.target)
            own, executable = None, frozenset[str]()
            if projection is not None and projection.own_folder:
                own, executable = projected_files(compiled.stub, projection, target_skill.source)
            try:
                deployment, deploy_notices = deploy(
                    deploy_plan, compiled.runtime, files=own, executable=executable
                )
            except (OSError, CannotCreate) as exc:  # a refresh no one asked for: a warning
                if number < named:
                    raise
                why = exc.reason if isinstance(exc, CannotCreate) else exc.strerror or str(exc)
                what = "copy" if deploy_plan.existing == "skillc-copy" else "link"
                notices.append(not_refreshed(layout, deploy_plan.path, why, what))
                continue
            deployments.append(deployment)
            notices.extend(deploy_notices)
        actions = {os.path.realpath(done.path.parent): done.action for done in deployments}
        # what the agents sharing a folder get there, and an agent listing the skill in
        # several: said when the build deploys there anew, not on each build after
        notices += [
            notice for folder, notice in shared if actions.get(folder, "unchanged") != "unchanged"
        ]
        created = {folder for folder, action in actions.items() if action == "created"}
        if edited:  # out of date now, unless the copy holds this build still
            built = read_manifest(compiled.runtime)
            said = (
                edited_copy(layout, path, held, built, target_skill.name, target_skill.scope)
                for path, held in edited.items()
            )
            notices += [notice for notice in said if notice is not None]
        notices += read_twice(plans[:named], plans, layout, target_skill.scope, created)
        notices += claude_notices(
            plans[:named],
            target_skill.name,
            target_skill.source,
            actions,
            rebuilt=not compiled.up_to_date,
        )
        from skillc_index.route.parked import refresh_moved, refresh_parked

        notices += refresh_parked(  # the copies behind a router (no agent loads them now)
            target_skill.name, target_skill.scope, target_skill.source, compiled.runtime, layout
        )
        notices += refresh_moved(  # a routed folder's record: what it holds now
            target_skill.name, target_skill.scope, target_skill.source, compiled.source_hash, layout
        )
        gitignore, gitignore_file = _ignore_deployments(layout, deployments, notices)
        return BuildResult(
            compiled=compiled,
            skill=target_skill,
            imported_from=None if plan is None else plan.origin,
            import_action=None if plan is None else plan.action,
            deployments=tuple(deployments),
            notices=tuple(notices),
            gitignore=gitignore,
            gitignore_file=gitignore_file,
            gitignore_shown=None if gitignore_file is None else layout.display(gitignore_file),
            fields=tuple(fields),
        )


def _refresh_plans(
    copies: Mapping[Path, Sequence[str]],
    named: Sequence[DeployPlan],
    planned: Callable[[Sequence[str]], list[DeployPlan]],
    layout: Layout,
    notices: list[Diagnostic | Notice],
    held: Mapping[Path, Copy],
) -> list[DeployPlan]:
    """The plans that refresh the copies of skillc's own made before and the links to the
    runtime (``copies``: path -> its targets, the one it is refreshed as first:
    ``readers.one_per_folder``; ``held``: what each is) at no destination of the ``named``
    targets' plans: each as a build naming its targets would (``planned``: never ``force``).
    One that may not be refreshed (its folder cannot be written, the project's config leads
    it outside the project, git tracks the link a copy would replace) is a warning: the build
    was not asked to deploy there."""
    done = {os.path.realpath(plan.path.parent) for plan in named}
    plans: list[DeployPlan] = []
    for path, targets in copies.items():
        if os.path.realpath(path.parent) in done:
            continue
        try:
            plans += planned(targets)
        except SkillcError as exc:
            why = warning_reason(exc)
            what = "link" if path in held and held[path].kind == "link" else "copy"
            notices.append(not_refreshed(layout, path, why, what))
    return plans


def _build_lock(skill: ResolvedSkill, *, runtime: bool = False) -> AbstractContextManager[None]:
    """An exclusive lock on the folder of the skill as given (its store folder, or the
    folder a build imports; a ``flock`` on the folder itself: nothing is made), or with
    ``runtime`` on the runtime it is built into (made empty when there is none yet, and
    removed again if still empty: two sources of one name built ``--global`` from two
    projects share that runtime and nothing else), held while a build imports, compiles and
    deploys it, so two builds of one skill at once take turns (:func:`~skillc_index.locks.
    locked_folder`). Unlocked (as before) when the folder cannot be opened; waited for at
    most :data:`BUILD_LOCK_WAIT_S`."""
    from skillc_index.locks import locked_folder

    folder = skill.runtime if runtime else skill.source
    return locked_folder(folder, BUILD_LOCK_WAIT_S, make=runtime)


def _ignore_deployments(
    layout: Layout, deployments: Sequence[Deployment], notices: list[Diagnostic | Notice]
) -> tuple[tuple[str, ...], Path | None]:
    """The project's agent folders deployed into, added to its ``.gitignore`` where git
    tracks nothing in them and they hold no skill of the user's, else the deployments alone
    (:func:`~skillc_index.build.scaffold.ignore_agent_folders`). The
    skill is built and deployed by then: a ``.gitignore`` that cannot be written is a
    warning, not a failure. The lines added, and the file they went to (None: none)."""
    from skillc_index.build.scaffold import GITIGNORE, ignore_agent_folders
    from skillc_index.diagnostics import SkillcError

    said: list[str] = []  # git could not answer: said, as init says it
    try:
        lines = ignore_agent_folders(layout, [deployment.path for deployment in deployments], said)
    except SkillcError as exc:
        why = warning_reason(exc)
        notices.append(Notice(f".gitignore not updated: {why}"))
        return (), None
    finally:
        notices.extend(Notice(text) for text in said)
    root = layout.project_root
    return lines, (root / GITIGNORE if lines and root is not None else None)
