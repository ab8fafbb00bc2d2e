"""Linting many skills in one process: a pool of worker processes, results in order.

Parsing Markdown and running the rules is CPU-bound Python, so threads would share one core
(the GIL); :func:`lint_folders` runs :func:`~skillc_lint.lint_skill` in ``jobs`` worker
processes (bench/lint_speed.py measures both). Folders go to the workers in chunks; results
come back in the order of the folders, each as soon as it and every one before it is done, so
the output is the same as one skill after another. One folder, or ``jobs=1``, is linted here
in this process: no pool is started (and ``concurrent.futures`` is not imported).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from skillc_index import SkillcError
from skillc_index.cores import (
    end_with_parent,
    process_pool,
    usable_cores,
    worker_ignores_interrupts,
    workers_starting,
)
from skillc_lint._cache import BATCH, ResultCache
from skillc_lint._engine import LintResult, checked_arguments, lint_skill
from skillc_lint._registry import RuleRegistry

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    from skillc_index import Notice

__all__ = ["lint_folders", "usable_cores"]

#: Most folders one worker takes at a time: a larger chunk costs less to send, a smaller one
#: keeps both workers busy until the end (skills differ in size a hundredfold).
MAX_CHUNK = 8


class _Failed(NamedTuple):
    """A :class:`~skillc_index.SkillcError` raised in a worker, as data: the exception
    classes' constructors take their own arguments, so pickling the exception itself would
    not rebuild it."""

    kind: type[SkillcError]
    args: tuple[Any, ...]
    state: dict[str, Any]

    def error(self) -> SkillcError:
        exc = self.kind.__new__(self.kind)
        exc.args = self.args
        exc.__dict__.update(self.state)
        return exc


def _start_method() -> BaseContext:
    """``fork`` on Linux when this process runs one thread (the workers start at once, with
    every module already loaded); else ``forkserver`` (or ``spawn``): forking a process with
    other threads can copy a lock another thread holds, and the worker hangs on it."""
    import multiprocessing

    try:
        single = sys.platform == "linux" and len(list(Path("/proc/self/task").iterdir())) == 1
    except OSError:
        single = False
    if single:
        return multiprocessing.get_context("fork")
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


_worker: dict[str, Any] = {}  # in a worker process: the registries and force of the run


def _start_worker(
    registries: tuple[RuleRegistry, ...],
    force: bool,
    cache: Path | None,
    leave_out: frozenset[str] = frozenset(),
) -> None:
    worker_ignores_interrupts()  # first: Ctrl-C is the parent's (it printed each worker's
    # KeyboardInterrupt traceback); the running folders finish, none starts (cancelled)
    end_with_parent()  # a parent killed (SIGTERM, SIGKILL) leaves no worker waiting for ever
    _worker.update(registries=registries, force=force, cache=_opened(cache), leave_out=leave_out)


def _opened(cache: Path | None) -> ResultCache | None:
    """This process's :class:`~skillc_lint._cache.ResultCache` of the folder ``cache``."""
    if cache is None:
        return None
    from skillc_lint._cache import opened

    return opened(cache)


def _lint_in_worker(job: tuple[str | os.PathLike[str], int]) -> LintResult | _Failed:
    folder, index = job
    try:
        return lint_skill(
            folder,
            registry=_worker["registries"][index],
            force=_worker["force"],
            cache=_worker["cache"],
            cap=False,
            leave_out=_worker["leave_out"],
        )
    except SkillcError as exc:
        return _Failed(type(exc), exc.args, dict(exc.__dict__))


def lint_folders(
    folders: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    registry: RuleRegistry | Sequence[RuleRegistry],
    *,
    force: bool = False,
    jobs: int = 1,
    cache: Path | None = None,
    warn: Callable[[Notice], None] | None = None,
    leave_out: frozenset[str] = frozenset(),
) -> Generator[LintResult | SkillcError, None, None]:
    """Lint each folder of ``folders`` with ``registry``, with ``jobs`` worker processes.

    Yields one item per folder, in their order: its :class:`~skillc_lint.LintResult`, or the
    :class:`~skillc_index.SkillcError` linting it raised (E010, E012): a bad folder does not
    stop the others. Any other exception is raised. With ``jobs > 1`` the registry is sent to
    each worker, so its rules must be picklable (defined at module level, as the built-in
    ones are). ``registry`` may be one per folder (each folder's configuration); each
    distinct one is sent to a worker once. ``cache``: the folder of the result cache
    (:mod:`skillc_lint._cache`) every process reads and writes; None: no cache. Where the
    system gives no process pool (no writable ``/dev/shm``) the folders are linted here one
    after another, said once through ``warn``. One ``str`` or path is one folder, not the
    characters of a string (:func:`~skillc_index.items.as_items`). ``leave_out``: files that
    are no part of any skill (:func:`~skillc_lint.lint_skill`'s). ``folders`` that are no
    paths (``5``, ``[5, "skills/x"]``) are InvalidOption (E100), raised before any is linted.
    """
    from skillc_index import InvalidOption
    from skillc_index.items import checked_items

    def wrong(value: object, _listed: bool) -> InvalidOption:
        return InvalidOption(f"folders must be folder paths (str), not {type(value).__name__}")

    given = checked_items(folders, (str, os.PathLike), wrong)

    def wrong_registry(value: object, _listed: bool) -> InvalidOption:
        return InvalidOption(
            f"registry must be a RuleRegistry or one per folder, not {type(value).__name__}"
        )

    if isinstance(registry, RuleRegistry):
        each = [registry] * len(given)
    else:
        each = list(checked_items(registry, RuleRegistry, wrong_registry))
        if len(each) != len(given):
            raise InvalidOption(
                f"registry must be one RuleRegistry per folder: {len(each)} for {len(given)}"
            )
    leave_out = checked_arguments(None, None, leave_out)
    distinct = list({id(rules): rules for rules in each}.values())
    workers = min(jobs, len(given))
    pool = None
    if workers > 1:
        pool = _pool(workers, (tuple(distinct), force, cache, leave_out), warn)
    if pool is None:
        stored = None if cache is None else ResultCache(cache, batch=BATCH)
        try:
            for folder, rules in zip(given, each, strict=True):
                try:
                    yield lint_skill(
                        folder,
                        registry=rules,
                        force=force,
                        cache=stored,
                        cap=False,
                        leave_out=leave_out,
                    )
                except SkillcError as exc:
                    yield exc
        finally:
            _done(stored)
        return
    chunk = max(1, min(MAX_CHUNK, len(given) // (workers * 4)))
    index = {id(rules): i for i, rules in enumerate(distinct)}
    try:
        jobs_ = zip(given, (index[id(rules)] for rules in each), strict=True)
        with workers_starting():  # they start with SIGINT held, until they ignore it
            outcomes = pool.map(_lint_in_worker, jobs_, chunksize=chunk)
        for outcome in outcomes:
            yield outcome.error() if isinstance(outcome, _Failed) else outcome
    finally:  # also when the caller stops early: what has not started is cancelled
        pool.shutdown(cancel_futures=True)
        _done(None if cache is None else ResultCache(cache))


def _pool(
    workers: int,
    start: tuple[tuple[RuleRegistry, ...], bool, Path | None, frozenset[str]],
    warn: Callable[[Notice], None] | None,
) -> ProcessPoolExecutor | None:
    """The pool of ``workers`` processes, each starting with ``start`` (the registries,
    force, the cache, the files left out: :func:`_start_worker`); None where the system gives
    none (:func:`~skillc_index.cores.process_pool`)."""
    from concurrent.futures import ProcessPoolExecutor

    def make() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            workers,
            mp_context=_start_method(),
            initializer=_start_worker,
            initargs=start,
        )

    return process_pool(make, "linting", warn)


def _done(cache: ResultCache | None) -> None:
    """The end of a run using ``cache``: its oldest results past its bound removed, closed."""
    if cache is not None:
        cache.evict()
        cache.close()
