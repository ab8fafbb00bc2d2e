"""A lint run: what :data:`~skillc_lint.operations.LINT` returns (:class:`LintRun`) and how
it lints the command line's skills (:func:`lint_run`).

The MCP tool names one skill (``skill``): the run lints it at once. The command line names
any number of skills, folders of skills or files (``skills``; none: the project store): the
run resolves them, builds the rules and the suppressions once, and lints the skill folders
as it is iterated (worker processes, ``--jobs``; one after another when fixing), each
outcome as soon as it is known, so the command line prints each skill as it is ready; then
the folder rules, then the baseline it writes. ``explain`` and ``list_rules`` lint nothing:
the run holds the rules' documentation or their states.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from skillc_index import CLI_SPELLING, FolderChanged, SkillcError, cut_short
from skillc_lint._engine import LintResult, lint_folder, lint_skill
from skillc_lint._output import Outcome, RunError, display_path, json_report, rule_doc, statistics
from skillc_lint._registry import RuleRegistry, RuleState
from skillc_lint._run_checks import check_outputs, check_page_options
from skillc_lint._targets import Target

if TYPE_CHECKING:
    from collections.abc import Callable

    from skillc_index import Diagnostic, Notice
    from skillc_index.operation import Session
    from skillc_lint._baseline import BaselineWriter
    from skillc_lint.operations import LintParams, LintReport, Suppressions
    from skillc_lint.shapes import LintJSON, RuleDocShape, RuleStateShape

__all__ = ["LintRun", "lint_run"]


class LintRun:
    """The result of a lint (see the module docstring).

    ``outcomes`` grows as the run is iterated: each target that could not be linted (a
    :class:`~skillc_lint.RunError`), each skill's :class:`~skillc_lint.LintResult`, then the
    folder rules' results; ``reports`` holds each skill's
    :class:`~skillc_lint.operations.LintReport` (its fixes). :meth:`finish` lints what is
    left. ``docs`` (``explain``) or ``rules`` (``list_rules``) instead when the run lints
    nothing."""

    def __init__(
        self,
        params: LintParams,
        cwd: Path,
        registry: RuleRegistry | None = None,
        hidden: Suppressions | None = None,
    ) -> None:
        self.params = params
        self.cwd = cwd
        self.registry = registry
        self.hidden = hidden
        self._configured: _Configured | None = None
        self.docs: list[RuleDocShape] | None = None
        self.rules: list[RuleState] | None = None
        self.collections: list[tuple[str, int]] = []
        """Each folder of skills named (as shown) and how many skills it holds."""
        self.total = 0
        """The targets and skill folders to lint (the skills' outcomes to come)."""
        self.single = True
        """One target, not a folder of skills: the JSON is one object, not a list."""
        self.outcomes: list[Outcome] = []
        self.reports: list[LintReport] = []
        self.written: int | None = None
        """The findings written to the ``write_baseline`` file, once written."""
        self.uncommented = 0
        """``add_suppressions``: the findings left in files that take no comment."""
        self._pending: Iterator[Outcome] = iter(())

    def __iter__(self) -> Iterator[Outcome]:
        """Lint what is left, yielding each outcome as soon as it is known (in order)."""
        for outcome in self._pending:
            self.outcomes.append(outcome)
            yield outcome

    def finish(self) -> LintRun:
        for _ in self:
            pass
        return self

    @property
    def warnings(self) -> tuple[Diagnostic | Notice, ...]:
        """The notices of the one skill the tool linted (the command line prints each skill's
        in its place)."""
        if self.params.skill is not None and self.reports:
            return self.reports[0].warnings
        return ()

    @property
    def registries(self) -> list[RuleRegistry]:
        """The rules of each configuration the run used, the working folder's first (a
        subfolder's config may enable rules the working folder's does not): SARIF's
        ``tool.driver.rules`` lists those of them all."""
        if self._configured is not None:
            return self._configured.registries
        return [self.registry] if self.registry is not None else []

    @property
    def security_hidden(self) -> dict[Path, int]:
        """How many security findings each config file hid (rules it turned off, its
        per-file ignores): said on stderr, as the baseline's count is."""
        hidden = [self.hidden] if self._configured is None else self._configured.hidden
        counts: dict[Path, int] = {}
        for one in {id(h.ignores): h.ignores for h in hidden if h is not None}.values():
            for file, count in one.hid.items():
                counts[file] = counts.get(file, 0) + count
        return counts

    @property
    def results(self) -> list[LintResult]:
        return [outcome for outcome in self.outcomes if not isinstance(outcome, RunError)]

    @property
    def linted(self) -> list[LintResult]:
        """The results linted (not skipped): the skills', and the folder rules' ones."""
        return [result for result in self.results if not result.skipped]

    @property
    def skills(self) -> int:
        """How many skills were linted (:attr:`linted` without the results of the folder
        rules, whose folders are not skills): the total line's count."""
        return sum(not result.folder for result in self.linted)

    @property
    def failed(self) -> int:
        """The targets and skills that could not be linted."""
        return sum(isinstance(outcome, RunError) for outcome in self.outcomes)

    @property
    def problems(self) -> list[SkillcError]:
        """The files fixing left alone (each with its paths as the command line shows them)."""
        return [p for report in self.reports if report.fixes for p in report.fixes.problems]

    @property
    def warning_count(self) -> int:
        return sum(result.warnings for result in self.linted)

    @property
    def too_many_warnings(self) -> bool:
        limit = self.params.max_warnings
        return limit is not None and self.warning_count > limit

    @property
    def ok(self) -> bool:
        """Exit status 0: every target linted, no error found (nor, writing a baseline, any
        regard for findings), no file left unfixed, warnings within ``max_warnings``."""
        if self.params.write_baseline is not None:
            return not self.failed
        return (
            not self.failed
            and not self.problems
            and not self.too_many_warnings
            and all(result.ok for result in self.results)
        )

    def to_dict(self) -> LintJSON:
        """The JSON of the run (once it is linted): the tool's object for one skill, with its
        counts (:class:`~skillc_lint.shapes.LintShape`); on the command line, what its
        ``--format json`` prints: :func:`~skillc_lint.json_report`, the ``--statistics``,
        the rules (``--list-rules``) or their documentation (``--explain``)."""
        if self.docs is not None:
            return self.docs[0] if len(self.docs) == 1 else self.docs
        if self.rules is not None:
            rules: list[RuleStateShape] = [
                {
                    "id": s.rule.id,
                    "name": s.rule.name,
                    "severity": s.severity,
                    "enabled": s.enabled,
                    "options": dict(s.options),
                    "summary": s.rule.summary,
                    "fixable": s.rule.fixable,
                }
                for s in self.rules
            ]
            return rules
        self.finish()
        if self.params.skill is not None:
            return self.reports[0].to_dict()
        if self.params.statistics:  # the counts, then the targets that could not be linted
            errors = [o.to_dict() for o in self.outcomes if isinstance(o, RunError)]
            return cast("LintJSON", [*statistics(self.linted), *errors])
        return cast("LintJSON", json_report(self.outcomes, self.cwd, single=self.single))


def lint_run(session: Session, params: LintParams) -> LintRun:
    """:data:`~skillc_lint.operations.LINT`'s run (see the module docstring). Raises
    :class:`~skillc_lint.UnknownRule` (``explain``, ``select``, ``ignore``),
    :class:`~skillc_lint.UnknownProfile`, :class:`~skillc_lint.InvalidBaseline`,
    :class:`~skillc_lint.ConflictingParameters` (``baseline`` with ``write_baseline``), E100;
    and the errors of resolving the one skill the tool names."""
    from skillc_lint.operations import lint

    cwd = session.layout.cwd
    if params.skill is not None:  # the tool: one skill, its diagnostics as many as fit
        from skillc_lint._engine import capped

        run = LintRun(params, cwd)
        report = lint(session, params)  # every finding: capped once suppressions hid theirs
        report = report._replace(result=capped(report.result))
        kept, cut = session.fit(
            lambda: report.to_dict()["diagnostics"],
            "lint",
            "diagnostics",
            "narrow it with `select` or `ignore`, or fix these and lint again",
            beside={**report.to_dict(), "diagnostics": []},
            warnings=report.warnings,
        )
        run.reports.append(report._replace(shown=kept, cut=cut) if cut else report)
        run.outcomes.append(run.reports[0].result)
        return run
    modes = [("explain", params.explain is not None), ("list_rules", params.list_rules)]
    given = [name for name, on in [*modes, ("skills", bool(params.skills))] if on]
    if len(given) > 1:  # --explain won, the others were dropped in silence
        from skillc_lint import ConflictingParameters

        raise ConflictingParameters(*given[:2])
    if given and given[0] != "skills":
        check_page_options(params, given[0])
    if params.explain is not None:
        run = LintRun(params, cwd)
        run.docs = _docs(params.explain)
        return run
    if params.baseline is not None and params.write_baseline is not None:
        from skillc_lint import ConflictingParameters

        raise ConflictingParameters("baseline", "write_baseline")
    check_outputs(params, cwd)
    rules = _Configured(session, params)
    registry, hidden = rules(cwd)
    if params.list_rules:
        if registry.turned_off:  # run to count what they find; off, as the config says
            registry.disable(*registry.turned_off)
        run = LintRun(params, cwd, registry)
        run.rules = registry.states()
        return run
    run = LintRun(params, cwd, registry, hidden)
    run._configured = rules
    run._pending = _plan(session, run, rules)
    return run


class _Configured:
    """The rules and suppressions of a run for each configuration in use: ``--config``'s,
    else the one found nearest each linted path (:func:`~skillc_lint.operations.lint_config`),
    each built once. The baseline is one for the whole run (it counts its matches)."""

    def __init__(self, session: Session, params: LintParams) -> None:
        self.session = session
        self.params = params
        self._built: dict[Path | None, tuple[RuleRegistry, Suppressions]] = {}
        self._nearest: dict[Path, Path | None] = {}  # each folder's config, walked once

    def __call__(self, start: Path) -> tuple[RuleRegistry, Suppressions]:
        from skillc_index.config import project_config_file
        from skillc_lint.operations import lint_config, nearest_config, rule_registry, suppressions

        session, params = self.session, self.params
        layout = session.layout
        if params.config is not None:
            key: Path | None = layout.cwd / params.config
        else:
            key = nearest_config(start, layout, layout.cwd, self._nearest)
        built = self._built.get(key)
        if built is None and key is not None and key == project_config_file(layout):
            key = None  # the session's own
            built = self._built.get(key)
        if built is None:
            found = lint_config(session, start if key is not None else None, params.config)
            registry = rule_registry(
                session, **params.rules(), config=found.config, guarded=found.guarded
            )
            first = next(iter(self._built.values()), None)
            if first is None:
                hidden = suppressions(session, registry, params.baseline, found)
            else:
                hidden = suppressions(session, registry, None, found)._replace(
                    baseline=first[1].baseline
                )
            built = self._built[key] = (registry, hidden)
        return built

    @property
    def registries(self) -> list[RuleRegistry]:
        """The rules of each configuration built so far, in the order they were first used."""
        return [registry for registry, _ in self._built.values()]

    @property
    def hidden(self) -> list[Suppressions]:
        """The suppressions of each configuration built so far."""
        return [hidden for _, hidden in self._built.values()]


def _docs(selector: str) -> list[RuleDocShape]:
    """The documentation of the rules ``selector`` names (an id, a prefix or a name), of
    every profile."""
    from skillc_lint import PROFILES, UnknownRule, default_registry

    registry = default_registry(profiles=tuple(PROFILES))
    ids = registry.match(selector)
    if not ids:
        raise UnknownRule(selector, "explain")
    owner = {rule.id: name for name, p in PROFILES.items() for rule in p.rules}
    return [cast("RuleDocShape", rule_doc(registry.get(i), owner.get(i))) for i in ids]


def _plan(session: Session, run: LintRun, rules: _Configured) -> Iterator[Outcome]:
    """Resolve the command line's targets now (the run knows its folders of skills and how
    many skills it lints before it is iterated), and return the generator that lints them."""
    from skillc_lint._targets import plugin_copy, resolve_target, resolve_targets

    params, layout, cwd = run.params, session.layout, run.cwd
    targets: list[Target | RunError] = []
    for argument in params.skills:
        try:
            targets.append(resolve_target(argument, layout))
        except (FolderChanged, OSError, RuntimeError) as exc:  # realpath met it swapped
            if not FolderChanged.raised_by(exc):
                raise
            targets.append(RunError(argument, _changed(argument)))
        except SkillcError as exc:  # reported in its place; the other targets are linted
            targets.append(RunError(argument, exc.spelled(CLI_SPELLING)))
    if not params.skills:
        targets.extend(resolve_targets((), layout))
    plan: list[Path | RunError] = []  # what the run reports, in order
    # each skill folder (real path) linted, once, and the folder its fixes may write in: the
    # folder of skills it was given in (None: named itself, its own folder); those found by
    # their name alone (not given as a folder; the project store's with no argument) write
    # only in the project or the skillc home, one check (E012) for both
    trees: dict[str, Path | None] = {}
    by_name: set[str] = set()
    writes = bool((params.fix_mode and not params.diff) or params.add_suppressions)
    keys: dict[Path, str] = {}  # each folder planned and its real path, resolved once
    for target in targets:
        if isinstance(target, RunError):
            plan.append(target)
            continue
        session.warn(target.notices)  # W001: the skill of a name several skills have
        if target.collection and target.folder is not None:
            shown = display_path(target.folder, cwd)
            run.collections.append((shown, len(target.skills)))
            if target.cut_short:
                session.warn(
                    [cut_short(shown, "skills past them are not linted", target.cut_short)]
                )
            if target.crowded:
                from skillc_index.walk import crowded

                told = "skills past them are not linted"
                session.warn([crowded(display_path(full, cwd), told) for full in target.crowded])
        tree = target.folder if target.collection and not target.named else None
        for folder in target.skills:
            try:
                key = os.path.realpath(folder)
            except OSError:  # a symlink of it swapped for a folder as it was resolved
                shown = display_path(folder, cwd)
                plan.append(RunError(shown, _changed(shown)))
                continue
            if writes and key not in trees and (refused := plugin_copy(key, layout)):
                plan.append(RunError(display_path(folder, cwd), refused))  # never rewritten
                continue
            if key not in trees:
                plan.append(folder)
                keys[folder] = key
                trees[key] = tree
                if target.named:
                    by_name.add(key)
            elif tree is None:  # named itself too: it may be fixed where it is
                if not target.named:
                    by_name.discard(key)
                elif trees[key] is not None:  # in a folder given, and by its name
                    by_name.add(key)
                trees[key] = None
    run.single = len(targets) == 1 and (
        isinstance(targets[0], RunError) or not targets[0].collection
    )
    run.total = len(plan)
    linted = [target for target in targets if not isinstance(target, RunError)]
    named = {folder for folder, key in keys.items() if key in by_name}
    fixed_in = {folder: trees[key] for folder, key in keys.items()}
    return _linted(session, run, plan, fixed_in, named, linted, rules)


def _changed(shown: str) -> Diagnostic:
    """The error of a skill folder that changed as the run resolved it, when it was planned
    or linted (``realpath``, which raises only then: ``EINVAL``, a symlink made a folder
    between its ``lstat`` and its ``readlink``): E022 saying so (:class:`FolderChanged`)."""
    return FolderChanged(shown, "lint it again").spelled(CLI_SPELLING)


def _linted(
    session: Session,
    run: LintRun,
    plan: Sequence[Path | RunError],
    trees: dict[Path, Path | None],
    by_name: set[Path],
    targets: Sequence[Target],
    rules: _Configured,
) -> Iterator[Outcome]:
    """Lint what :func:`_plan` planned: each skill folder once (a worker process's result, or
    fixed here), logged as the tool logs it; then the folder rules; then write the baseline
    (of every finding: each result is given to its writer as it comes, then capped,
    :func:`~skillc_lint._engine.capped`, once the suppressions and the baseline hid theirs;
    writing a baseline, whose run prints no finding, the results reported hold none but count
    them, :func:`~skillc_lint._engine.withheld`, so that no finding is kept: memory bounded by
    the baseline's bound, not by the findings).
    ``trees``: the folder each planned skill folder's fixes may write in; ``by_name``: those
    found by their name (both as planned: a folder swapped since is not resolved again)."""
    from skillc_index.inventory.folders import write_places
    from skillc_lint._engine import capped, target_folders, withheld
    from skillc_lint._pool import lint_folders, usable_cores
    from skillc_lint.operations import _suppressed, lint

    params, cwd = run.params, run.cwd
    own = params.own_files(cwd)  # (once a run: up to 3 realpath calls)
    mode = params.fix_mode
    writes = bool(mode or params.add_suppressions)
    folders = [item for item in plan if isinstance(item, Path)]
    # each result before the cap (capped: what is reported): a baseline holds every finding,
    # turned into its entries as it comes (no result kept: a bounded file, bounded memory)
    writer = None
    if params.write_baseline is not None:
        from skillc_lint._baseline import BaselineWriter

        writer = BaselineWriter(Path(cwd, params.write_baseline))

    def reported(result: LintResult) -> LintResult:
        if writer is not None:  # (the writer has them; the run prints none, counts all)
            return withheld(result)
        return capped(result)

    configured = {folder: rules(folder) for folder in folders}
    # fixing (or writing suppression comments) rewrites files, one skill after another in
    # this process, never from the cache; linting uses the pool and the result cache
    cache = None
    if not (writes or params.no_cache):
        from skillc_lint._cache import cache_dir, refusal, renew_damaged

        cache = cache_dir()
        said = refusal(cache)
        if said is not None:  # another user's: linted without it
            cache = None
        else:  # a damaged one: made anew
            said = renew_damaged(cache)
        if said is not None:  # said once
            from skillc_index import Notice

            session.warn((Notice(said),))
    pooled = (
        None
        if writes
        else lint_folders(
            folders,
            [configured[folder][0] for folder in folders],
            force=params.force,
            jobs=params.jobs or usable_cores(),
            cache=cache,
            warn=lambda notice: session.warn((notice,)),
            leave_out=own,
        )
    )
    try:
        for item in plan:
            if not isinstance(item, Path):
                yield item
                continue
            registry, hidden = configured[item]
            one = params._replace(skill=str(item))
            try:
                if pooled is None:
                    tree = trees[item]
                    places = write_places(session.layout) if item in by_name else ()
                    if params.add_suppressions:
                        from skillc_lint._suppress import suppressions_added

                        done = suppressions_added(
                            session, run, one, registry, hidden, tree, places, own
                        )
                    else:
                        write = not params.diff
                        done = lint(
                            session,
                            one,
                            registry,
                            hidden,
                            fix=mode,
                            write=write,
                            tree=tree,
                            places=places,
                            leave_out=own,
                        )
                else:
                    engine = _computed(item, next(pooled), registry, params.force, own)
                    done = lint(session, one, registry, hidden, engine=engine, leave_out=own)
                if done.fixes is not None and done.fixes.problems:  # paths as the CLI shows them
                    left = tuple(_shown(problem, cwd) for problem in done.fixes.problems)
                    done = done._replace(
                        fixes=replace(done.fixes, problems=left),
                        result=replace(done.result, not_fixed=tuple(p.diagnostic for p in left)),
                    )
                if writer is not None:  # every finding, for the baseline
                    writer.add(done.result)
                done = done._replace(result=reported(done.result))  # the report
                run.reports.append(done)
                yield done.result
            except (FolderChanged, OSError, RuntimeError) as exc:  # realpath met it swapped
                if not FolderChanged.raised_by(exc):
                    raise
                yield RunError(display_path(item, cwd), _changed(display_path(item, cwd)))
            except SkillcError as exc:
                yield RunError(display_path(item, cwd), exc.spelled(CLI_SPELLING))
    finally:  # the pool's cache stored and closed now (after a last skill that failed too),
        if pooled is not None:  # not whenever the collector finalizes it
            pooled.close()
    for folder in target_folders(targets):  # the folder rules: listing budget, plugins
        registry, hidden = rules(folder)
        result = lint_folder(folder, registry=registry, cap=False)
        if result is not None:  # per-file ignores and the baseline hide here too
            result = _suppressed(result, hidden)
            if writer is not None:
                writer.add(result)
        if result is not None and result.diagnostics:
            yield reported(result)
    if writer is not None:
        _write_baseline(run, writer)


def _write_baseline(run: LintRun, writer: BaselineWriter) -> None:
    from skillc_index.atomic import file_target
    from skillc_index.command_errors import CannotWrite

    file = run.params.write_baseline
    assert file is not None
    try:
        run.written = writer.write(file_target(run.cwd, file), file)
    except OSError as exc:
        raise CannotWrite(file, exc.strerror or str(exc)) from None


def _computed(
    folder: Path,
    done: LintResult | SkillcError,
    registry: RuleRegistry,
    force: bool,
    leave_out: Collection[str],
) -> Callable[[Path], LintResult]:
    """The engine :func:`~skillc_lint.operations.lint` runs on the folder it resolved:
    ``done`` (what a worker returned for ``folder``: its result, or the error to raise), or a
    fresh lint when the folder resolved to another (an imported skill's source)."""

    def engine(resolved: Path) -> LintResult:
        # (the same path needs no resolving: the common case, two realpath calls a skill)
        if resolved != folder and os.path.realpath(resolved) != os.path.realpath(folder):
            return lint_skill(
                resolved, registry=registry, force=force, cap=False, leave_out=leave_out
            )
        if isinstance(done, Exception):
            raise done
        return done

    return engine


def _shown(problem: SkillcError, cwd: Path) -> SkillcError:
    """A file fixing left alone, its paths written as the diagnostics write them."""
    from skillc_lint import NotFixed

    if isinstance(problem, NotFixed):
        return problem.shown(lambda path: display_path(Path(path), cwd))
    return problem
