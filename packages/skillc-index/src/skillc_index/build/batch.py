"""``skc build`` of many skills: several names or paths, folders of skills, ``--all``: the
command line's forms of the ``build`` operation (:data:`~skillc_index.operations.BUILD`,
whose ``skills`` and ``all_`` fields they are), run by :func:`build_batch`.

:func:`batch_jobs` turns what the user typed into the skills to build (a folder holding
skill folders at any depth stands for all of them: :func:`~skillc_index.walk.find_skill_folders`,
the walk ``lint`` and ``find`` share; ``--all`` is
every skill of the project and global stores). :func:`build_skills` builds them in one
process pool (one worker per core), each with :func:`~skillc_index.build.skill.build_skill` and
logged like a single ``build``; one failure does not stop the others.

Two builds never write the same entry: every path a build writes (the store copy, the
runtime, each agent folder entry) ends with the skill's folder name, so skills of the same
name are built one after the other by the same worker, and skills of different names never
meet. The same folder named twice is built once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from skillc_index.command_errors import NameInSeveralFolders, NoSkillBeforeCut
from skillc_index.cores import end_with_parent, process_pool, usable_cores
from skillc_index.diagnostics import (
    Diagnostic,
    InternalError,
    InvalidOption,
    NotASkill,
    Notice,
    SkillcError,
    WordedOption,
    diagnostic_json,
    warning_text,
)
from skillc_index.import_record import import_origin
from skillc_index.layout import SKILL_FILE, Layout, Scope, expand_user, resolve_skill
from skillc_index.record import Record
from skillc_index.spelling import CLI_SPELLING, PARAMETER_NAMES, Spelling
from skillc_index.walk import SkillFolders, build_walk, crowded, cut_short, walked

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess
    from multiprocessing.synchronize import Event

    from skillc_index.build.deploy import Deployment
    from skillc_index.build.shapes import (
        BatchBuildShape,
        BatchFailureShape,
        BatchShape,
        BatchSummaryShape,
        ErrorShape,
    )
    from skillc_index.build.skill import BuildResult
    from skillc_index.operation import Session
    from skillc_index.operations import BuildParams

__all__ = [
    "BatchInterrupted",
    "BatchItem",
    "BatchJob",
    "BatchResult",
    "NoSkillToBuild",
    "NothingToBuild",
    "batch_jobs",
    "build_batch",
    "build_skills",
    "is_batch",
    "is_folder_of_skills",
]


class NoSkillToBuild(WordedOption):
    """E100: a build given no skill: neither ``skill`` nor ``skills`` nor ``all``. The
    command line says it as click says a missing argument, its quotes double as E100 renders
    click's (``Missing argument "SKILL...".``): ``SKILL...`` is its argument."""

    usage = True

    def worded(self, spelling: Spelling) -> str:
        if spelling.option_prefix:
            return 'Missing argument "SKILL...".'
        return "no skill to build: give skill, skills or all"


class NothingToBuild(InvalidOption):
    """E100: ``all`` with empty stores (and no skill named): nothing to build."""

    def __init__(self) -> None:
        super().__init__("no skills to build: the stores hold none")


def is_batch(params: BuildParams, session: Session) -> bool:
    """Whether ``params`` asks for a batch: ``all_``, several skills, or the command line's
    one argument naming a folder of skills. ``skill`` (the tool's) is always one skill."""
    named = len(params.skills) + (params.skill is not None)
    if params.all_ or named > 1:
        return True
    if params.skill is not None or named != 1:
        return False
    return is_folder_of_skills(params.skills[0], session.layout, walked(session))


def is_folder_of_skills(
    argument: str,
    layout: Layout,
    walk: Callable[[Path], SkillFolders] | None = None,
) -> bool:
    """Whether ``argument`` names no skill but a folder holding skill folders (``skills/``),
    as ``walk`` (default :func:`build_walk`) finds them."""
    walk = walk or build_walk
    try:
        resolve_skill(argument, layout)
    except NotASkill:
        folder = layout.cwd / expand_user(argument)
        if not folder.is_dir():
            return False
        skills = walk(folder)
        # a walk stopped at a bound, or that left out what skc package wrote: its error is the
        # batch's (it says why no skill was found)
        return bool(skills) or skills.stopped or skills.package_output is not None
    except SkillcError:
        return False
    return False


class BatchJob(Record):
    """One skill to build: ``given`` (what :func:`~skillc_index.build.skill.build_skill` is
    called with: a name, or a folder's absolute path), its ``name`` (the folder's), its
    ``label`` for people (what was typed, or the folder's path as the layout displays it),
    the ``error`` that already stopped it (an argument naming nothing), and whether it is a
    skill of the global store (``global_``: built there, as ``--global`` builds, even when
    ``given`` is the folder it was imported from and the batch runs in a project); ``stored``:
    a store skill ``--all`` found (``given`` its store copy), which a batch given no target
    builds for the targets it is deployed to (:func:`_targets`)."""

    given: str
    name: str
    label: str
    error: Diagnostic | None = None
    global_: bool = False
    stored: bool = False


def _store_skills(layout: Layout) -> list[tuple[Path, Scope]]:
    """Every skill of the project and global stores, with its store's scope."""
    skills: list[tuple[Path, Scope]] = []
    for scope in layout.scopes():
        store = layout.store(scope)
        try:
            names = sorted(name for name in os.listdir(store) if not name.startswith("."))  # noqa: PTH208
        except OSError:
            continue
        for name in names:
            folder = store / name
            if (folder / SKILL_FILE).is_file():
                skills.append((folder, scope))
    return skills


def batch_jobs(
    arguments: Sequence[str],
    layout: Layout,
    *,
    all_skills: bool = False,
    spelling: Spelling = PARAMETER_NAMES,
    warn: Callable[[Notice], object] | None = None,
    walk: Callable[[Path], SkillFolders] | None = None,
) -> list[BatchJob]:
    """The skills ``arguments`` (names, skill folders, folders of skills, as ``walk``,
    default :func:`build_walk`, finds them) and, with ``all_skills``, the stores
    stand for, each once, in the order given. An argument that names nothing is a job that
    failed already (its diagnostic, as ``spelling`` writes it); a folder whose walk stopped
    at its bound is a failed job when the walk found no skill
    (:class:`~skillc_index.command_errors.NoSkillBeforeCut`, not E010), else ``warn`` is
    told (:func:`~skillc_index.walk.cut_short`). A name found in several folders is one
    failed job naming them all (:func:`_one_folder_a_name`)."""
    walk = walk or build_walk
    jobs: list[BatchJob] = []
    seen: set[str] = set()
    sources: dict[int, str] = {}  # a job's folder (by its index): a store copy's, its origin
    stores = {os.path.realpath(layout.store(scope)): scope for scope in layout.scopes()}

    def add(
        given: str,
        folder: Path,
        label: str | None = None,
        global_: bool = False,
        stored: bool = False,
    ) -> None:
        key = os.path.realpath(folder)
        if key not in seen:
            seen.add(key)
            real = Path(key)
            display = label or layout.display(real)
            scope = stores.get(os.path.dirname(key))  # noqa: PTH120
            try:
                origin = import_origin(real, scope, layout) if scope is not None else None
            except SkillcError as exc:  # its folder cannot be read: that skill fails alone
                failure = exc.spelled(spelling)
                jobs.append(BatchJob(given, real.name, display, failure, global_, stored))
                return
            sources[len(jobs)] = key if origin is None else os.path.realpath(origin)
            jobs.append(BatchJob(given, real.name, display, None, global_, stored))

    for argument in arguments:
        try:
            resolved = resolve_skill(argument, layout)
        except NotASkill as exc:
            folder = layout.cwd / expand_user(argument)
            skills = walk(folder) if folder.is_dir() else SkillFolders()
            if not skills:  # past a bound the walk stopped at, not "missing SKILL.md"
                error = NoSkillBeforeCut.of(argument, folder, skills) or _not_a_skill(
                    exc, argument, folder, skills, spelling
                )
                jobs.append(BatchJob(argument, argument, argument, error.spelled(spelling)))
            elif skills.cut_short and warn is not None:
                warn(cut_short(argument, "skills past them are not built", skills.cut_short))
            for full in skills.crowded if skills else ():  # none found: the error says it
                if warn is not None:
                    warn(crowded(layout.display(full), "skills past them are not built"))
            for skill in skills:
                add(str(skill.resolve()), skill)
        except SkillcError as exc:
            jobs.append(BatchJob(argument, argument, argument, exc.spelled(spelling)))
        else:
            add(argument, resolved.imported_from or resolved.source, argument)
    if all_skills:
        for copy, scope in _store_skills(layout):
            # built as the store skill, which build_skill imports again from the folder it
            # was imported from when that is still there, as a build by name does; named
            # after that folder, so that the folder named too is built once
            try:
                origin = import_origin(copy, scope, layout) or copy
            except SkillcError:  # its folder cannot be read: add fails that skill alone
                origin = copy
            add(str(copy.resolve()), origin, global_=scope == "global", stored=True)
    return _one_folder_a_name(jobs, sources, layout, spelling)


def _not_a_skill(
    exc: NotASkill, argument: str, folder: Path, found: SkillFolders, spelling: Spelling
) -> NotASkill:
    """E010 of the folder ``argument`` whose walk ``found`` no skill; its hint says so when
    the walk left out what ``skc package`` wrote (:attr:`~skillc_index.walk.SkillFolders.
    package_output`: kept even in the folder named, which may be a project ``-o .`` filled)."""
    from skillc_index.walk import PACKAGE_RECORD as RECORD

    if found.package_output is None:
        return exc
    where = Path(argument) / found.package_output.relative_to(folder)
    wrote = f"{where} holds what {spelling.command('package')} wrote (its {RECORD} lists it)"
    return NotASkill(exc.path, f"{wrote}, not built: build the skills' sources, or a copy's folder")


def _one_folder_a_name(
    jobs: list[BatchJob], sources: dict[int, str], layout: Layout, spelling: Spelling
) -> list[BatchJob]:
    """``jobs`` with the jobs of one name (and store: ``global_``) from several folders
    (``sources``: each job's folder by its index, a store copy's the folder it was imported
    from) replaced by one failed job, where the first was, naming the name and every folder
    (:class:`~skillc_index.command_errors.NameInSeveralFolders`): the store holds one skill of
    a name, and building the first met (a bundler's stale ``dist/`` copy) refused the other
    (E050), or with ``force`` replaced it."""
    folders: dict[tuple[str, bool], set[str]] = {}
    for index, source in sources.items():
        folders.setdefault((jobs[index].name, jobs[index].global_), set()).add(source)
    kept: list[BatchJob] = []
    said: set[tuple[str, bool]] = set()
    for index, job in enumerate(jobs):
        key = (job.name, job.global_)
        several = sorted(folders[key], key=os.fsencode) if index in sources else ()
        if len(several) < 2:
            kept.append(job)
        elif key not in said:
            said.add(key)
            shown = [layout.display(Path(folder)) for folder in several]
            error = NameInSeveralFolders(job.name, shown).spelled(spelling)
            kept.append(BatchJob(job.name, job.name, job.name, error, job.global_))
    return kept


#: Why a store skill of ``--all`` was deployed nowhere (:func:`_targets`, :class:`BatchItem`).
DEPLOYED_NOWHERE = "its default target's folder is the one it was imported from"


class BatchItem(Record):
    """What became of one job: its ``result``, or the ``error`` that stopped it; the
    warnings of its build and access log; ``undeployed``: built for no target (:func:`_targets`)."""

    job: BatchJob
    result: BuildResult | None
    error: Diagnostic | None
    warnings: tuple[Diagnostic | Notice, ...] = ()
    undeployed: bool = False

    @property
    def deployed_nowhere(self) -> str | None:
        """Why a skill built was deployed nowhere (its line and JSON say it), else None."""
        return DEPLOYED_NOWHERE if self.undeployed and self.result is not None else None

    @property
    def status(self) -> str:
        """``built``, ``up-to-date`` or ``failed``."""
        if self.result is None:
            return "failed"
        return "up-to-date" if self.result.compiled.up_to_date else "built"

    @property
    def redeployed(self) -> tuple[Deployment, ...]:
        """The deployments of a skill up to date that its build changed all the same (one
        made again, a symlink turned into a copy by ``--copy``): what its ``up to date`` must
        not hide."""
        if self.status != "up-to-date" or self.result is None:
            return ()
        return tuple(d for d in self.result.deployments if d.action != "unchanged")

    @property
    def imported_again(self) -> Path | None:
        """The folder a skill up to date was imported again from all the same (its copy
        refreshed from a folder whose changes leave the runtime as it was: a file made
        executable, a ``.gitignore`` edited): what its ``up to date`` must not hide, as
        if nothing had been read from that folder. None otherwise."""
        if self.status != "up-to-date" or self.result is None:
            return None
        if self.result.import_action in (None, "unchanged"):
            return None
        return self.result.imported_from

    def to_dict(self) -> BatchBuildShape | BatchFailureShape:
        """A built skill: a single build's JSON, ``deployed_nowhere``; a failure: its error."""
        if self.result is not None:
            return {**self.result.to_dict(), "deployed_nowhere": self.deployed_nowhere}
        error = self.error or InternalError("no result").diagnostic
        return {
            "skill": self.job.name,
            "given": self.job.label,
            "error": cast("ErrorShape", diagnostic_json(error)),
        }


class BatchResult(Record):
    """What a batch build did, one item per skill in the order of the jobs; a batch Ctrl-C
    stopped holds the skills done by then, of ``total`` (None: the batch was not stopped)."""

    items: tuple[BatchItem, ...]
    total: int | None = None
    notices: tuple[Notice, ...] = ()
    """The batch's own warnings, said once after the skills' (``skc`` not on ``PATH``)."""

    @property
    def interrupted(self) -> bool:
        return self.total is not None

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        return (*(warning for item in self.items for warning in item.warnings), *self.notices)

    def with_notice(self, notice: Notice) -> BatchResult:
        """This result with ``notice`` said after its own notices, once for the batch."""
        return self._replace(notices=(*self.notices, notice))

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)

    @property
    def failed(self) -> int:
        return self.count("failed")

    def summary(self) -> BatchSummaryShape:
        return {
            "skills": len(self.items),
            "built": self.count("built"),
            "up_to_date": self.count("up-to-date"),
            "failed": self.failed,
        }

    def to_dict(self) -> BatchShape:
        """The ``--format json`` shape: ``results`` (one per skill) and ``summary``."""
        return {
            "results": [item.to_dict() for item in self.items],
            "summary": self.summary(),
            "warnings": [warning_text(warning) for warning in self.warnings],
            "interrupted": self.interrupted,
        }


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a batch (:func:`build_skills`): ``result`` holds the skills done."""

    def __init__(self, result: BatchResult) -> None:
        super().__init__()
        self.result = result


class _Options(Record):
    layout: Layout
    targets: tuple[str, ...]
    copy: bool
    force: bool
    force_global: bool
    spelling: Spelling


#: The worker's state, set once per worker process by :func:`_start_worker`.
_worker: dict[str, Any] = {}


def _start_worker(options: _Options) -> None:
    from skillc_index.accesslog import AccessLog
    from skillc_index.config import load_config
    from skillc_index.operation import Session

    warnings: list[Diagnostic | Notice] = []
    session = Session(options.layout, AccessLog(warnings.extend))
    # the configuration's notices were warned once, by the caller
    session.__dict__["config"] = load_config(options.layout)
    _worker.update(options=options, session=session, warnings=warnings)


def _build_group(jobs: Sequence[BatchJob]) -> list[BatchItem]:
    """Build skills of one name, one after the other (in a worker process)."""
    from skillc_index.operations import BuildParams, build_one

    options: _Options = _worker["options"]
    warnings: list[Diagnostic | Notice] = _worker["warnings"]
    items: list[BatchItem] = []
    stop: Event | None = _worker.get("stop")
    for job in jobs:
        if stop is not None and stop.is_set():  # Ctrl-C: the batch ends, its results unread
            break
        result: BuildResult | None = None
        error: Diagnostic | None = None
        targets: tuple[str, ...] | None = ()
        try:  # _targets too: the folder a store skill was imported from may not be readable
            targets = options.targets or _targets(job, options, _worker["session"])
            params = BuildParams(
                job.given,
                global_=options.force_global or job.global_,
                target=targets or (),
                copy=options.copy,
                force=options.force,
            )
            result = build_one(_worker["session"], params, deploys=targets is not None)
        except SkillcError as exc:
            error = exc.spelled(options.spelling)
        except Exception as exc:  # one skill's failure must not stop the others
            error = InternalError.unexpected(exc).diagnostic
        notices = (*warnings, *(result.named_warnings if result is not None else ()))
        warnings.clear()
        undeployed = error is None and targets is None
        items.append(BatchItem(job, result, error, notices, undeployed))  # Diagnostic pickles
    return items


def _targets(job: BatchJob, options: _Options, session: Session) -> tuple[str, ...] | None:
    """The targets a store skill of ``--all`` (``job.stored``) is built for when the batch is
    given none: those it is deployed to in the agent folders of the scope it is built in
    (:func:`~skillc_index.build.copies.deployed_targets`), so that a skill built with
    ``--target cursor`` is not deployed to the default target too, over the very folder it
    was imported from say; none (``()``: the default target) for a skill deployed nowhere,
    or named; None (built, deployed nowhere) for one deployed nowhere whose default target's
    folder is the one it was imported from: the skill is there already, its own source."""
    if not job.stored:
        return ()
    from skillc_index.build.copies import deployed_targets
    from skillc_index.build.deploy import parse_targets
    from skillc_index.import_record import import_origin

    layout = options.layout
    scope: Scope = "global" if options.force_global or job.global_ else "project"
    copy = Path(job.given)
    runtime = layout.runtime_store(scope) / copy.name
    configured = session.config.targets
    deployed = deployed_targets(copy.name, scope, copy, runtime, layout, configured)
    if deployed:
        return deployed
    store_scope: Scope = "global" if job.global_ else "project"
    origin = import_origin(copy, store_scope, layout, bounded=False)
    if origin is None:
        return ()
    for target in parse_targets(()):
        try:
            there = layout.target_root(target, scope, configured) / copy.name
        except ValueError:  # a project scope with no project: the build says so
            return ()
        if os.path.realpath(there) == os.fspath(origin):
            return None
    return ()


def build_skills(
    jobs: Sequence[BatchJob],
    layout: Layout,
    *,
    targets: Sequence[str] = (),
    copy: bool = False,
    force: bool = False,
    force_global: bool = False,
    spelling: Spelling = PARAMETER_NAMES,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
    warn: Callable[[Notice], None] | None = None,
) -> BatchResult:
    """Build ``jobs`` in a pool of ``workers`` processes (default: one per core), each as
    :func:`~skillc_index.operations.build` builds and logs one skill. Errors are the
    items' (written as ``spelling`` writes parameters); ``progress(done, total)`` as skills
    finish. On Ctrl-C the builds running finish and no other starts before the
    ``KeyboardInterrupt`` goes on: a :class:`BatchInterrupted` holding the skills done.
    Where the system gives no process pool (no writable ``/dev/shm``) the skills are built
    here one at a time, said once through ``warn``."""
    options = _Options(layout, tuple(targets), copy, force, force_global, spelling)
    items: dict[int, BatchItem] = {}
    groups: dict[str, list[int]] = {}
    for position, job in enumerate(jobs):
        if job.error is not None:
            items[position] = BatchItem(job, None, job.error)
        else:
            groups.setdefault(job.name, []).append(position)
    total = len(jobs)
    done = len(items)
    if progress is not None:
        progress(done, total)

    def collect(positions: Iterable[int], built: Iterable[BatchItem]) -> None:
        nonlocal done
        # a group Ctrl-C stopped holds fewer items than positions
        for position, item in zip(positions, built, strict=False):
            items[position] = item
            done += 1
        if progress is not None:
            progress(done, total)

    def interrupted() -> BatchInterrupted:
        return BatchInterrupted(BatchResult(tuple(items[p] for p in sorted(items)), total))

    workers = min(workers or usable_cores(), len(groups))
    pooled = _pool(options, workers, warn) if workers > 1 else None
    if pooled is None:
        _start_worker(options)
        try:
            for position in (p for positions in groups.values() for p in positions):
                collect([position], _build_group([jobs[position]]))
        except KeyboardInterrupt:  # the build running here stops (its staging folder left)
            raise interrupted() from None
    else:
        import multiprocessing
        import signal
        import threading
        from concurrent.futures import Future, as_completed

        stop, pool, others = pooled

        def kill_workers() -> set[multiprocessing.process.BaseProcess]:
            # SIGKILL: a SIGTERM handler of the embedder's, inherited by the fork, could keep
            # one alive; a build stopped so leaves a staging folder the next one removes
            started = set(multiprocessing.active_children()) - others
            for worker in started:
                worker.kill()
            return started

        def end_workers() -> None:
            # No build starts any more and the workers are ended before the error is told;
            # the pool's own exit joined workers waiting for work that never came, for ever.
            # They are joined after the pool's thread has joined them (two threads waiting
            # for one process at once could leave it listed as running)
            started = kill_workers()
            pool.shutdown(wait=True, cancel_futures=True)
            for worker in started:
                worker.join()

        futures: dict[Future[list[BatchItem]], list[int]] = {}
        try:
            futures = {
                pool.submit(_build_group, [jobs[p] for p in positions]): positions
                for positions in groups.values()
            }
            for future in as_completed(futures):
                collect(futures[future], future.result())
        except KeyboardInterrupt:
            # Ctrl-C: no build starts any more (those not begun are cancelled, those a worker
            # already took skipped: ``stop``) and the running ones finish (the workers ignore
            # SIGINT), so none is left half-written (a staging folder, a store copy moved
            # aside); a second Ctrl-C kills them at once. It raises nothing meanwhile: a
            # KeyboardInterrupt in the pool's join of its thread took that thread for ended
            # (CPython before 3.13), and the pool closed its pipes under it (tracebacks of
            # "OSError: handle is closed" from its thread)
            stop.set()
            main = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGINT, lambda *_: kill_workers()) if main else None
            try:
                pool.shutdown(wait=True, cancel_futures=True)
            except BaseException:
                end_workers()
                raise
            finally:
                if main:  # (None: a handler set outside Python)
                    default = signal.default_int_handler
                    signal.signal(signal.SIGINT, default if previous is None else previous)
            for future, positions in futures.items():  # the builds done, not yet collected
                if (
                    positions[0] not in items
                    and not future.cancelled()
                    and future.exception() is None
                ):
                    collect(positions, future.result())
            raise interrupted() from None
        except BaseException:  # a worker that could not start (no file descriptor left)
            end_workers()
            raise
        pool.shutdown()
    return BatchResult(tuple(items[position] for position in range(total)))


def _pool(
    options: _Options, workers: int, warn: Callable[[Notice], None] | None
) -> tuple[Event, ProcessPoolExecutor, set[BaseProcess]] | None:
    """The pool of ``workers`` processes building a batch, the event its workers are told
    Ctrl-C by and the processes running before it (an embedder's own: never ended here);
    None where the system gives no pool (:func:`~skillc_index.cores.process_pool`): the
    batch is built here, one skill at a time."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from importlib import import_module

    import_module("skillc_index.build.skill")  # once, before the workers fork: they share it
    others = set(multiprocessing.active_children())

    def make() -> tuple[Event, ProcessPoolExecutor, set[BaseProcess]]:
        stop = multiprocessing.Event()
        pool = ProcessPoolExecutor(
            workers, initializer=_start_pool_worker, initargs=(options, stop)
        )
        return stop, pool, others

    return process_pool(make, "building", warn)


def _start_pool_worker(options: _Options, stop: Event) -> None:
    """A worker of the pool: Ctrl-C (SIGINT to the terminal's whole process group) is the
    parent's to handle (a worker it reached died holding the pool's queue lock); once the
    parent sets ``stop`` (Ctrl-C), the worker starts no build. A parent killed otherwise
    (SIGTERM, SIGKILL) ends it too (:func:`~skillc_index.cores.end_with_parent`)."""
    import signal

    end_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _start_worker(options)
    _worker["stop"] = stop


def build_batch(session: Session, params: BuildParams) -> BatchResult:
    """The batch ``params`` asks for (:func:`is_batch`): its skills (names, skill folders,
    folders of skills; with ``all_`` every skill of the stores) built by
    :func:`build_skills`, reporting to ``session.progress``. The configuration is loaded
    once (its notices warned once) and the targets checked before any skill is built (an
    unknown one stops the batch). Its fields are the command line's, so the items' errors
    are worded as the command line spells parameters (``--force``). Ctrl-C returns the
    skills done by then (:attr:`BatchResult.interrupted`). Raises :class:`NoSkillToBuild`
    and :class:`NothingToBuild`."""
    from skillc_index.build.deploy import parse_targets

    layout = session.layout
    config = session.config
    for name in parse_targets(params.target):
        layout.target_root(name, "global", config.targets)
    named = params.skills if params.skill is None else (params.skill, *params.skills)
    if not named and not params.all_:
        raise NoSkillToBuild
    jobs = batch_jobs(
        named,
        layout,
        all_skills=params.all_,
        spelling=CLI_SPELLING,
        warn=lambda notice: session.warn([notice]),
        walk=walked(session),
    )
    if not jobs:
        raise NothingToBuild
    said: list[Notice] = []  # no process pool: said once, after the skills' warnings
    try:
        result = build_skills(
            jobs,
            layout,
            targets=params.target,
            copy=params.copy,
            force=params.force,
            force_global=params.global_,
            spelling=CLI_SPELLING,
            progress=session.progress,
            warn=said.append,
        )
    except BatchInterrupted as exc:  # what was built is said (and the command ends with 130)
        result = exc.result
    return result._replace(notices=(*result.notices, *said))
