"""``skc build`` of many skills: several names or paths, folders of skills, ``--all``: the
command line's forms of the ``build`` operation (:data:`~skillc_index.operations.BUILD`,
whose ``skills`` and ``all_`` fields they are), run by :func:`build_batch`.

:func:`~skillc_index.build.jobs.batch_jobs` turns what the user typed into the skills to
build (:mod:`.jobs`); :func:`build_skills` builds them in one
process pool (one worker per core), each with :func:`~skillc_index.build.skill.build_skill` and
logged like a single ``build``; one failure does not stop the others.

Two builds never write the same entry: every path a build writes (the store copy, the
runtime, each agent folder entry) ends with the skill's folder name, so skills of the same
name are built one after the other by the same worker, and skills of different names never
meet. The same folder named twice is built once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from skillc_index.build.jobs import BatchJob, NoSkillToBuild, NothingToBuild, batch_jobs
from skillc_index.cores import (
    end_with_parent,
    process_pool,
    usable_cores,
    worker_ignores_interrupts,
    workers_starting,
)
from skillc_index.diagnostics import (
    Diagnostic,
    InternalError,
    Notice,
    SkillcError,
    diagnostic_json,
    warning_text,
)
from skillc_index.layout import Layout, Scope
from skillc_index.record import Record
from skillc_index.spelling import CLI_SPELLING, PARAMETER_NAMES, Spelling
from skillc_index.walk import walked

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
    "BatchResult",
    "build_batch",
    "build_skills",
]


class BatchItem(Record):
    """What became of one job: its ``result``, or the ``error`` that stopped it; the
    warnings of its build and access log; ``undeployed``: why it was built for no target
    (:func:`_targets`: :data:`~skillc_index.build.defaults.DEPLOYED_NOWHERE`,
    :data:`~skillc_index.build.defaults.BEHIND_ROUTER`), or None."""

    job: BatchJob
    result: BuildResult | None
    error: Diagnostic | None
    warnings: tuple[Diagnostic | Notice, ...] = ()
    undeployed: str | None = None

    @property
    def deployed_nowhere(self) -> str | None:
        """Why a skill built was deployed nowhere (its line and JSON say it), else None."""
        return self.undeployed if self.result is not None else None

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
    routed: Mapping[Scope, Mapping[str, Path]]  # each scope's skills behind a router, read once


#: The worker's state, set once per worker process by :func:`_start_worker`.
_worker: dict[str, Any] = {}


def _start_worker(options: _Options) -> None:
    from skillc_index.accesslog import AccessLog
    from skillc_index.build.compiler import sweep_once_per_store
    from skillc_index.config import load_config
    from skillc_index.operation import Session

    warnings: list[Diagnostic | Notice] = []
    session = Session(options.layout, AccessLog(warnings.extend))
    # the configuration's notices were warned once, by the caller
    session.__dict__["config"] = load_config(options.layout)
    _worker.update(options=options, session=session, warnings=warnings)
    sweep_once_per_store()  # the leftovers of killed builds: one listing per store


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
        nowhere: str | None = None
        try:  # _targets too: the folder a store skill was imported from may not be readable
            targets, nowhere = options.targets, None  # (why it is deployed nowhere)
            if not targets:
                targets, nowhere = _targets(job, options, _worker["session"])
            global_ = options.force_global or job.global_
            params = BuildParams(
                job.given,
                global_=global_,
                target=targets,
                copy=options.copy,
                force=options.force,
            )
            # each scope's routes: a named skill may resolve to the other scope's store
            routed = options.routed
            result = build_one(_worker["session"], params, deploys=nowhere is None, routed=routed)
        except SkillcError as exc:
            error = exc.spelled(options.spelling)
        except Exception as exc:  # one skill's failure must not stop the others
            error = InternalError.unexpected(exc).diagnostic
        notices = (*warnings, *(result.named_warnings if result is not None else ()))
        warnings.clear()
        undeployed = nowhere if error is None else None
        items.append(BatchItem(job, result, error, notices, undeployed))  # Diagnostic pickles
    return items


def _targets(
    job: BatchJob, options: _Options, session: Session
) -> tuple[tuple[str, ...], str | None]:
    """The targets a store skill of ``--all`` (``job.stored``) is built for when the batch is
    given none, and why it is deployed nowhere
    (:func:`~skillc_index.build.defaults.default_targets`, the routed skills read once for
    the batch); none (the default target, deployed) for a skill named."""
    if not job.stored:
        return (), None
    from skillc_index.build.defaults import default_targets

    scope: Scope = "global" if options.force_global or job.global_ else "project"
    store_scope: Scope = "global" if job.global_ else "project"
    configured = session.config.targets
    names = options.routed.get(scope, {})
    return default_targets(Path(job.given), scope, store_scope, options.layout, configured, names)


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
    from skillc_index.build.defaults import routed

    names = {scope: routed(layout, scope) for scope in layout.scopes()}
    options = _Options(layout, tuple(targets), copy, force, force_global, spelling, names)
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
        release = _hold_stores(options)
        try:
            for position in (p for positions in groups.values() for p in positions):
                collect([position], _build_group([jobs[position]]))
        except KeyboardInterrupt:  # the build running here stops (its staging folder left)
            raise interrupted() from None
        finally:
            from skillc_index.build.compiler import sweep_once_per_store

            release()
            sweep_once_per_store(batch=False)  # a build after the batch sweeps again
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
            with workers_starting():  # a Ctrl-C meanwhile: raised here once they ignore it
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
            # "OSError: handle is closed" from its thread). The second Ctrl-C's handler is set
            # before the workers are told: one that came as they stopped (``timeout -s INT``
            # sends two) was raised here, and the process waited for its builds at exit. One
            # raised before that handler is set (or after the embedder's is back) ends them
            # too: this clause's sibling ``except BaseException`` never sees it
            try:
                main = threading.current_thread() is threading.main_thread()
                before = signal.signal(signal.SIGINT, lambda *_: kill_workers()) if main else None
                try:
                    stop.set()
                    pool.shutdown(wait=True, cancel_futures=True)
                finally:
                    if main:  # (None: a handler set outside Python)
                        default = signal.default_int_handler
                        signal.signal(signal.SIGINT, default if before is None else before)
            except BaseException:
                end_workers()
                raise
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
    worker_ignores_interrupts()  # first: end_with_parent's import of ctypes takes a while
    end_with_parent()
    _start_worker(options)
    _hold_stores(options)  # for the worker's life
    _worker["stop"] = stop


def _hold_stores(options: _Options) -> Callable[[], None]:
    """List the stores once for the batch (:func:`~skillc_index.hidden_entries.hold`): each
    skill built looks in them for what a killed import left, and each import changes them."""
    from skillc_index.hidden_entries import hold

    layout = options.layout
    return hold(layout.store(scope) for scope in layout.scopes())


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
