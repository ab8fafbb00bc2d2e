"""``skc eval`` as a whole: the library (as the agent lists it), the cases of the skills asked
for, their scores, the collisions, the mutation check, the live runs; and ``--init``.

A case is scored by ranking its request over the library's listing
(:meth:`.library.Library.rank`): a should-trigger case passes when the skill is within the top
``top`` (a tie counts against it), a should-not-trigger case when the skill does not rank
first (alone or tied). The skill ranked first instead took the request.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillc_gateway.evaluate.agent_library import has_case_file, library_of
from skillc_gateway.evaluate.library import Library, SkillEntry, skill_of
from skillc_gateway.evaluate.report import CaseResult, EvalResult, SkillReport, breaches_of

if TYPE_CHECKING:
    from skillc_gateway.evaluate.cases import Case
    from skillc_gateway.evaluate.live import LiveOptions
    from skillc_gateway.evaluate.overlap import PhraseCheck
    from skillc_gateway.evaluate.report import PlannedRun
    from skillc_index import Diagnostic, NotASkill, Notice
    from skillc_index.config import Config
    from skillc_index.layout import Layout
    from skillc_index.listing.agents import AgentName

__all__ = ["EvalOptions", "evaluate", "init_cases"]

TRIGGERS_FILE = "evals/triggers.yaml"
#: Cases one run scores at most (each a ranked request): 100 skills of 1,000 cases took
#: 2 min 33 s, 30 of them held the MCP server 22.8 s. Past it a skill's other cases, and the
#: skills after it, are left out with a warning (never a clean run in CI).
MAX_RUN_CASES = 20_000


class EvalOptions(NamedTuple):
    skills: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    agent: AgentName = "claude"
    top: int = 3
    mutate: bool = False
    near: float = 0.5
    min_recall: float | None = None
    max_false_triggers: int | None = None
    live: LiveOptions | None = None
    project_paths: bool = False
    """``paths`` come from the project's configuration (``[libraries]``): ``--init`` writes
    in them only inside the project or the skillc home, as for a skill found by name."""
    confined: bool = False
    """``paths`` a model gave (the MCP server's): a linked skill of one leading out of the
    folders a model may read is left out (:func:`~.library.skill_folders`)."""
    usage: dict[str, float] | None = None
    """Each skill's listing priority by its folder (:func:`skillc_index.listing.agents.
    usage_priority`, an installed skill's by its source too); None: never used, every skill
    (the command's and the MCP tool's: the uses recorded on this machine, which decay day by
    day, would make the verdict the machine's and the day's, not the skill's)."""


class Named(NamedTuple):
    """A skill named on the command line (:func:`_named`)."""

    folder: Path
    """The folder read for it, where its description is edited (:func:`.library.skill_of`)."""
    skill: str
    """The skill it is: the real path of its folder (:func:`.library.skill_of`)."""
    given: bool
    """Named by a folder holding ``SKILL.md`` (:func:`_given`), not by its name."""


def _named(
    layout: Layout, options: EvalOptions
) -> tuple[dict[str, Named], list[Diagnostic | Notice]]:
    """Each name of ``options.skills``, resolved once: a folder holding ``SKILL.md``
    (:func:`_given`), else a name resolved as every command resolves it
    (:func:`skillc_index.resolve_skill`: the stores, the agent folders, the plugins,
    ``plugin:skill``; E001 or E010 when it finds none), each read where its description is
    edited (:func:`.library.skill_of`); and the resolution's notices (W001 for a name
    several installed skills have). Names under ``--path`` are not resolved: those are names
    in its library (:func:`_targets`). A skill folder whose own name is not UTF-8 is refused
    as ``build`` refuses it (E100, :class:`~skillc_index.command_errors.FolderNotUtf8`): the
    folders above it may have any bytes."""
    from skillc_index import NotASkill, resolve_skill
    from skillc_index.command_errors import FolderNotUtf8
    from skillc_index.files import utf8_name

    named: dict[str, Named] = {}
    notices: list[Diagnostic | Notice] = []
    for name in options.skills:
        if name in named:
            continue
        given = _given(layout, name)
        if given is not None:
            named[name] = Named(*given, given=True)
        elif not options.paths:
            try:
                resolved = resolve_skill(name, layout)
            except NotASkill as exc:
                raise _not_a_skill(exc, name, layout) from None
            notices += resolved.notices
            named[name] = Named(*skill_of(resolved.source, layout), given=False)
        if name in named and not utf8_name(named[name].folder):
            raise FolderNotUtf8(name)
    return named, notices


def _not_a_skill(exc: NotASkill, name: str, layout: Layout) -> NotASkill:
    """E010 of ``name``, a folder holding no skill; with the hint of ``build`` when it holds
    what ``skc package`` wrote (:func:`skillc_index.build.jobs.package_output`)."""
    from skillc_index.build.jobs import package_output

    return package_output(exc, name, layout, done="evaluated", verb="evaluate")


def _targets(
    library: Library, layout: Layout, names: Sequence[str], named: Mapping[str, Named]
) -> tuple[list[int], list[Diagnostic]]:
    """The library's ids of the skills named: a folder holding ``SKILL.md`` or a name
    resolved (``named``: :func:`_named`), or a name in a ``--path`` library, with a W001 for
    a name several of its skills have, listing them (the first is the one taken: the one the
    name resolves to, :func:`_resolution_order`)."""
    from skillc_index.diagnostics import SkillNotFound, ambiguous_skill

    by_path = {os.path.realpath(e.folder): i for i, e in enumerate(library.entries)}
    found: list[int] = []
    warnings: list[Diagnostic] = []
    for name in names:
        if name in named and os.path.realpath(named[name].folder) in by_path:
            found.append(by_path[os.path.realpath(named[name].folder)])
            continue
        matches = [i for i, e in enumerate(library.entries) if name in (e.name, e.folder.name)]
        if not matches:
            from skillc_index.files import is_folder
            from skillc_index.layout import shown

            if is_folder(layout.cwd / name):  # a folder, but no skill: E010, as outline says
                from skillc_index.diagnostics import NotASkill

                raise _not_a_skill(NotASkill(shown(name)), name, layout)
            import difflib

            names_ = list(dict.fromkeys(entry.name for entry in library.entries))
            raise SkillNotFound(shown(name), tuple(difflib.get_close_matches(name, names_, 3)))
        if len(matches) > 1:
            matches = _resolution_order(library, layout, name, matches)
            where = [layout.display(library.entries[i].folder) for i in matches]
            warnings.append(ambiguous_skill(name, where))
        found.append(matches[0])
    return list(dict.fromkeys(found)), warnings


def _resolution_order(library: Library, layout: Layout, name: str, matches: list[int]) -> list[int]:
    """``matches`` (the library's skills of one name) with the one the name resolves to
    first, as every command resolves it (:func:`skillc_index.resolve_skill`: the project
    store, the global store, then the agent folders); in the library's order when it
    resolves to none of them (a ``--path`` library)."""
    from skillc_index import SkillcError, resolve_skill

    try:
        taken = os.path.realpath(resolve_skill(name, layout).source)
    except SkillcError:
        return matches
    return sorted(matches, key=lambda i: skill_of(library.entries[i].folder, layout)[1] != taken)


def _given(layout: Layout, name: str) -> tuple[Path, str] | None:
    """The folder read for ``name`` given as a folder holding ``SKILL.md`` (the store skill
    when skillc deployed it) and the skill it is (:func:`.library.skill_of`), else None."""
    from skillc_index import is_file

    folder = layout.cwd / name
    return skill_of(folder, layout) if is_file(folder / "SKILL.md") else None


def _extra(named: Mapping[str, Named]) -> dict[str, Path]:
    """The folders of the skills named, by the skill each is (:func:`library_of`'s
    ``extra``); of a skill named both by a folder and by its name, the name's folder."""
    ordered = sorted(named.values(), key=lambda one: not one.given)
    return {one.skill: one.folder for one in ordered}


def score(library: Library, skill: int, case: Case, top: int) -> tuple[CaseResult, int | None]:
    """The case's result, and the id of the skill that took it (ranked first instead)."""
    ranking = library.rank_of(skill, case.query)
    place = ranking.place(skill)
    passed = (
        (place is not None and place <= top) if case.should_trigger else not ranking.wins(skill)
    )
    ahead = ranking.ahead_of(skill)
    taken_by = library.name_of(ahead[0]) if ahead else None
    result = CaseResult(
        case.query,
        case.should_trigger,
        case.file,
        place,
        passed,
        taken_by,
        checks=case.checks,
        id=case.id,
    )
    return result, ahead[0] if ahead else None


def _outcome(
    library: Library, skill: int, cases: Sequence[Case], top: int
) -> Callable[[], list[tuple[bool, int | None]]]:
    """What the mutation check scores again: each case's ``(passed, place)``."""

    def outcome() -> list[tuple[bool, int | None]]:
        return [(r.passed, r.place) for r, _ in (score(library, skill, c, top) for c in cases)]

    return outcome


def evaluate(layout: Layout, config: Config, options: EvalOptions) -> EvalResult:
    """Run ``skc eval`` (see the module docstring). The live command is checked first, once,
    before any work (:func:`.live.check_command`, E100): here, where every caller passes (the
    operation, the API), no request from a skill's files runs as code."""
    if options.live is not None:
        from skillc_gateway.evaluate.live import check_command

        check_command(options.live.command)
    from skillc_gateway.evaluate.cases import read_cases
    from skillc_gateway.evaluate.overlap import (
        MAX_MUTATION_RANKS,
        collisions,
        mutations,
        trigger_phrases,
    )
    from skillc_index import Notice
    from skillc_index.inventory.resolve import plugin_parts

    named, notices = _named(layout, options)
    library, found_notices = library_of(layout, config, options, _extra(named))
    notices += found_notices
    try:
        if options.skills:
            targets, ambiguous = _targets(library, layout, options.skills, named)
            notices += ambiguous
        else:
            targets = list(range(len(library.entries)))
        reports: list[SkillReport] = []
        taken: dict[tuple[int, int], int] = {}
        ranks_left = MAX_MUTATION_RANKS  # the mutation checks' bound, for the whole run
        cases_left = MAX_RUN_CASES  # the cases' bound, for the whole run
        live_cases: list[tuple[int, str, Path, Sequence[Case]]] = []  # --live: run last
        for skill in targets:
            entry = library.entries[skill]
            # a plugin's skill is named plugin:skill; its evals.json names the skill
            parts = plugin_parts(entry.name)
            called = (entry.name, parts[2] if parts else entry.name, entry.folder.name)
            cases, problems = read_cases(entry.folder, called)
            if entry.error:  # why it is listed by name alone: not the budget, its frontmatter
                routed = entry.state == "routed"
                how = "not found by skc find" if routed else f"listed {entry.state}"
                problems = (f"SKILL.md: {entry.error}: so it is {how}", *problems)
            if not (cases or problems or options.skills or has_case_file(entry.folder)):
                continue  # no case file: not reported, nor gated (a case file of none is)
            if len(cases) > cases_left:
                from skillc_index.text import counted

                left_out = len(cases) - cases_left
                cases = cases[:cases_left]
                problems = (
                    *problems,
                    f"{counted(left_out, 'case')} left out: this run scores at most "
                    f"{MAX_RUN_CASES:,} cases (name fewer skills)",
                )
            cases_left -= len(cases)
            scored = [score(library, skill, case, options.top) for case in cases]
            results = [result for result, _ in scored]
            for case, (_, other) in zip(cases, scored, strict=True):
                if case.should_trigger and other is not None and other < len(library.entries):
                    taken[(skill, other)] = taken.get((skill, other), 0) + 1
            if options.live is not None and cases:
                live_cases.append((len(reports), entry.name, entry.folder, cases))
            phrases: tuple[PhraseCheck, ...] = ()
            if options.mutate and cases:
                # each case ranked with the description whole, then without each phrase
                # (an untriggerable skill is not checked)
                said = trigger_phrases(entry.shown) if entry.triggerable else []
                ranks = len(cases) * (len(said) + 1) if entry.triggerable else 0
                if ranks > ranks_left:
                    problems = (
                        *problems,
                        f"mutation check left out: this run's checks reached "
                        f"{MAX_MUTATION_RANKS:,} ranked requests (name the skill alone)",
                    )
                else:
                    ranks_left -= ranks
                    outcome = _outcome(library, skill, cases, options.top)
                    should = [case.should_trigger for case in cases]
                    phrases = tuple(mutations(library, skill, outcome, should, said))
            reports.append(
                SkillReport(
                    entry.name,
                    str(entry.folder / "SKILL.md"),
                    entry.line,
                    entry.state,
                    tuple(results),
                    tuple(problems),
                    phrases,
                )
            )
        planned: tuple[PlannedRun, ...] = ()
        if options.live is not None:
            planned = _run_live(options.live, reports, live_cases)
        # descriptions collide as the agent would list them with room for all of them: a
        # budget that drops them hides the collision, it does not remove it
        whole = library
        if any(entry.state != "full" for entry in library.entries):
            listed = [  # (a skill the agent lists at none: as it is, it has no description)
                e._replace(shown=e.description, state="full") if e.description else e
                for e in library.entries
            ]
            whole = Library(listed)
        try:
            found = collisions(whole, taken, range(len(library.entries)), options.near)
        finally:
            if whole is not library:
                whole.close()
        if options.skills:
            names = {library.entries[skill].name for skill in targets}
            found = [c for c in found if c.first in names or c.second in names]
        warnings = tuple(notices) + tuple(
            Notice(f"{report.name}: {problem}") for report in reports for problem in report.problems
        )
        return EvalResult(
            options.agent,
            options.top,
            len(library.entries),
            tuple(reports),
            tuple(found),
            breaches_of(
                reports,
                options.min_recall,
                options.max_false_triggers,
                library.unscored,
                options.agent,
            ),
            warnings,
            planned=planned,
            dry_run=options.live is not None and options.live.dry_run,
            routed=sum(1 for entry in library.entries if entry.state == "routed"),
            unscored=len(library.unscored),
        )
    finally:
        library.close()


def _run_live(
    live: LiveOptions,
    reports: list[SkillReport],
    found: Sequence[tuple[int, str, Path, Sequence[Case]]],
) -> tuple[PlannedRun, ...]:
    """``--live``, after every skill is scored offline (the command was checked before any
    work, by :func:`evaluate`: :func:`.live.check_command`), each case's arguments planned once
    (:func:`.live.argv_of`, a refused case with its reason), then the bound (:attr:`.live.
    LiveOptions.max_runs`, on the runs planned: more is E100, none started); a dry run returns
    the plan and starts none; else each case runs its planned arguments, its result put in
    ``reports``."""
    from skillc_gateway.evaluate.live import RefusedRequest, argv_of, run_live
    from skillc_gateway.evaluate.report import PlannedRun

    plans: list[list[PlannedRun]] = []
    for _, name, _, cases in found:
        plans.append([])
        for case in cases:
            try:
                plan = PlannedRun(name, case.query, argv_of(live.command, name, case), live.runs)
            except RefusedRequest as exc:  # its case's error, not run
                plan = PlannedRun(name, case.query, (), 0, str(exc))
            plans[-1].append(plan)
    every = tuple(plan for skill in plans for plan in skill)
    if live.dry_run:
        return every
    total = sum(plan.runs for plan in every)
    if total > live.max_runs:
        from skillc_index.option_errors import InvalidOption
        from skillc_index.text import counted

        to_run = sum(1 for plan in every if plan.refused is None)
        raise InvalidOption(
            f"--live would start the agent {total:,} times ({counted(to_run, 'case')} "
            f"x {live.runs} runs), more than --max-live-runs {live.max_runs:,}: name fewer "
            "skills, lower --runs or raise --max-live-runs (--dry-run shows each run)"
        )
    for (index, name, folder, cases), planned in zip(found, plans, strict=True):
        report = reports[index]
        results = [
            result._replace(live=run_live(live, name, case, plan, folder))
            for case, result, plan in zip(cases, report.cases, planned, strict=True)
        ]
        reports[index] = report._replace(cases=tuple(results))
    return ()


def _check_not_imported(entry: SkillEntry, layout: Layout) -> None:
    """E100 for a store copy read in place though imported from a folder still there (one
    that :func:`.agent_library.edited` does not read: a project store copy of a folder outside the
    project, :func:`skillc_index.import_record.import_origin`'s bound): the next import replaces
    the copy, and the cases written into it with it."""
    from skillc_index.import_record import import_origin
    from skillc_index.layout import runtime_for
    from skillc_index.option_errors import InvalidOption

    scope = runtime_for(Path(os.path.realpath(entry.folder)), layout)[0]
    origin = import_origin(entry.folder, scope, layout, bounded=False)
    if origin is not None and import_origin(entry.folder, scope, layout) is None:
        raise InvalidOption(
            f"{entry.name} ({layout.display(entry.folder)}) is a copy imported from "
            f"{origin}, which the next import replaces: give that folder to write "
            "its cases there"
        )


def init_cases(layout: Layout, config: Config, options: EvalOptions, force: bool) -> EvalResult:
    """``--init``: an ``evals/triggers.yaml`` for each skill named (a folder, or a name of
    the library), started from its description (:func:`.cases.starter_text`). An existing
    file is replaced only with ``force`` (E050 names it), or when it holds the very text an
    older version wrote (:func:`.cases.older_starter`: the placeholder request); one holding
    the very text it would write (:func:`_held`) is kept as it is. The file is never
    written outside the skill (an ``evals`` symlink out of it is refused). Every file is
    checked before any is written: a refusal writes none; and they are written all or none
    (a full disk: no ``evals`` folder made for them is left)."""
    from skillc_gateway.evaluate.cases import older_starter, starter_text
    from skillc_gateway.evaluate.overlap import trigger_phrases
    from skillc_index.atomic import creation_start, not_writable, write_files_atomic
    from skillc_index.command_errors import CannotCreate, ForeignFile
    from skillc_index.files import within
    from skillc_index.inventory.folders import check_write_place
    from skillc_index.option_errors import InvalidOption

    if not options.skills:
        raise InvalidOption("name the skills to write trigger cases for")
    named_folders, notices = _named(layout, options)
    library, found_notices = library_of(layout, config, options, _extra(named_folders))
    notices += found_notices
    # skills found by name among the installed ones, or in folders the project's config names
    named = not options.paths or options.project_paths
    given_real = {os.path.realpath(one.folder) for one in named_folders.values() if one.given}
    planned: list[tuple[Path, str]] = []
    kept: list[str] = []  # the files holding the very text: a run stopped part way wrote them
    try:  # every file checked before any is written: all of them or none
        targets, ambiguous = _targets(library, layout, options.skills, named_folders)
        notices += ambiguous
        for skill in targets:
            entry = library.entries[skill]
            target = entry.folder / TRIGGERS_FILE
            if not within(target, entry.folder):  # named: the evals link, or else the file's
                out = target.parent if not within(target.parent, entry.folder) else target
                raise InvalidOption(f"{out} leads outside the skill")
            # a skill named, not given as a folder: found among the installed ones or in a
            # project's library, or an agent folder's linked entry under --path; neither a
            # link nor the project's config directs a write out
            linked = named or entry.folder.is_symlink()
            if linked and os.path.realpath(entry.folder) not in given_real:
                check_write_place(target, layout)
            _check_not_imported(entry, layout)
            if os.path.lexists(target.parent) and not target.parent.is_dir():
                raise InvalidOption(f"{target.parent} is not a folder")
            rivals = [
                library.name_of(other)
                for other in library.rank_of(skill, entry.description).skills
                if other != skill
            ][:3]
            text = starter_text(entry.name, trigger_phrases(entry.description)[:8], rivals)
            older = older_starter(text)  # an older --init's, unedited: skillc's to replace
            data, old = text.encode(), None if older is None else older.encode()
            held = _held(target, max(len(data), len(old or b"")))  # read once, for both
            if held == data:  # done: not written again
                kept.append(str(target))
                continue
            ours = old is not None and held == old
            if os.path.lexists(target) and not (force or ours):  # E050 names it, as stats does
                raise ForeignFile(layout.display(target), "", force_does="replace it")
            denied = not_writable(creation_start(target.parent))  # a read-only skill folder
            if denied is not None:
                raise CannotCreate(str(target), denied)
            planned.append((target, text))
    finally:
        library.close()
    try:  # all or none, and no folder made for them left (evals/ in the skill)
        write_files_atomic([(target, text.encode(), None) for target, text in planned])
    except OSError as exc:
        failed = exc.filename or planned[0][0]
        raise CannotCreate(str(failed), exc.strerror or str(exc)) from exc
    written = [str(target) for target, _ in planned]
    return EvalResult(
        options.agent, options.top, len(library.entries), (), (), warnings=tuple(notices),
        written=tuple(written), kept=tuple(kept),
    )  # fmt: skip


def _held(path: Path, size: int) -> bytes | None:
    """What ``path`` holds, read to one byte past ``size`` (a FIFO never blocks), when it is a
    regular file, not a symlink; else None: compared with the starter file ``--init`` writes
    (a stopped one's) and an older ``--init``'s."""
    from skillc_index import SkillcError
    from skillc_index.files import regular_fd

    try:
        with os.fdopen(regular_fd(str(path), None, str(path)), "rb") as handle:
            return handle.read(size + 1)
    except (OSError, SkillcError):
        return None
